/**
 * A server's refusal in a plain sentence of the language spoken, from its code, `detail`
 * and particulars (which field, until when, which versions), as the terminal client's
 * `client/ui/refusals.py` says it; the server's English `message` is said only where
 * nothing typed tells more (an older server's ban, a code newer than this page).
 */
import { ProtocolError } from "../lib/index";
import type { ERROR_CODES } from "../lib/protocol";
import { N_, _, list, moment } from "./i18n";

/** A refusal's typed particulars (PROTOCOL.md, "Errors"); absent from older servers. */
export interface Particulars {
  field?: string | null;
  until?: number | null;
  until_lifted?: boolean;
  versions?: [number, number][];
  /** 1.6, with `server_full`: which limit refused a new table (`create.ts` says it). */
  limit?: string | null;
}

/** A `ProtocolError` in a sentence (`seat`: the seat asked for, in the page's words). */
export const refusalOf = (e: ProtocolError, seat: string | null = null): string =>
  refusalWords(e.code, e.message, seat, e.detail, e.error as Particulars);

/** A refusal of any kind in a sentence; one to wait out (`rate_limited` with its
 * `retry_after`, whole seconds) said by `wait`, which says when to try again. */
export function refusedWaiting(e: unknown, wait: (seconds: number) => string): string {
  if (e instanceof ProtocolError && e.code === "rate_limited") {
    const s = Number((e.error as { retry_after?: number }).retry_after ?? 0);
    if (s > 0) return wait(s);
  }
  if (e instanceof ProtocolError) return refusalOf(e);
  return e instanceof Error ? e.message : String(e);
}

/** Why a name was refused (`invalid_field`'s `detail`, protocol 1.2's names). */
const NAME_REFUSED: Record<string, string> = {
  invisible: N_("That name has letters that cannot be seen: choose another."),
  ambiguous: N_("That name has letters that look like others: choose another."),
  marks: N_("That name has too many marks over or under its letters: choose another."),
  blank: N_("That name is empty: choose one."),
  mixed_script: N_("That name mixes letters of several alphabets: choose another."),
};

/** What `not_allowed` means, by its `detail`. */
const NOT_ALLOWED: Record<string, string> = {
  seeded: N_(
    "That table's deal comes from a seed its creator chose: join it from the lobby, which says so.",
  ),
  protocol_1_0: N_(
    "A rematch needs every person at the table on a newer program, and one of them is not.",
  ),
  devices: N_(
    "Your player has all the devices this server keeps: remove one (Your player) and try again.",
  ),
  rated: N_("That table is rated: sign in as a registered player (Your player) to sit down."),
  same_player: N_("Your player has a seat at that table already."),
  hints: N_("This table gives no hints: its options do not allow them."),
};

/** What the server can be missing a moment (`internal`'s `detail`). */
const UNAVAILABLE: Record<string, string> = {
  store_unavailable: N_("The server cannot reach its database just now: try again in a moment."),
  cluster_unavailable: N_(
    "The server cannot reach the others of its group just now: try again in a moment.",
  ),
};

/** Every refusal of the server in a plain sentence, never its code; `seat` names the
 * seat asked for as the page shows it (`White (seat 1)`: the protocol counts seats from
 * 0). `message` is the error's own words (a `ProtocolError`'s begin with the code, which
 * is left out); they are said only where they tell what the code cannot (until when a
 * ban lasts, which field was refused) or for a code newer than this page. */
export function refusalWords(
  code: string,
  message: string,
  seat: string | null = null,
  detail: string | null = null,
  particulars: Particulars = {},
): string {
  const words = message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message;
  // the server's own words, in English: said only where no code or detail tells more
  const told = (lead: string) =>
    words ? `${_(lead)} (${words.replace(/[.\s]+$/, "")}).` : `${_(lead)}.`;
  // a ban or mute: until the operator lifts it, until when, or (an older server) as it says
  const until = particulars.until ? moment(particulars.until * 1000) : "";
  const sanction = (lifted: string, when: string, meanwhile: string): string =>
    particulars.until_lifted ? _(lifted) : until ? _(when, { when: until }) : told(meanwhile);
  const notHere = N_(
    "No table with that id here. Check the id, and for a private table the invite code too.",
  );
  // every code of the protocol (tsc says so when a new one is missing here)
  const said: Record<(typeof ERROR_CODES)[number], string> = {
    malformed: N_("The server could not read what this page sent: reload the page and try again."),
    unknown_type: N_("This server does not know that request: it runs an older version."),
    invalid_field:
      NAME_REFUSED[detail ?? ""] ??
      (particulars.field
        ? _("The server did not accept the field {field}.", { field: particulars.field })
        : told(N_("The server did not accept what was asked"))),
    too_large: N_("That was too long to send."),
    rate_limited: N_("Too many messages at once: wait a moment and try again."),
    version_unsupported: particulars.versions?.length
      ? _("This server speaks versions {versions} of the game: this page cannot play here.", {
          versions: list(
            particulars.versions.map(([major, minor]) => `${major}.0–${major}.${minor}`),
          ),
        })
      : N_("This server speaks another version of the game: this page cannot play here."),
    hello_required: N_("The page is still connecting: try again in a moment."),
    not_allowed: NOT_ALLOWED[detail ?? ""] ?? N_("That cannot be done now."),
    not_your_turn: N_("It is not your turn."),
    stale_state: N_("The game moved on: choose again."),
    illegal_move: N_("The rules do not allow that move: choose again."),
    bad_token: N_("Your seat is no longer kept for this browser."),
    not_seated: N_("You have no seat at this table."),
    table_full: N_("Every seat of that table is taken: you may watch it."),
    seat_taken: _("{seat} is taken: choose another seat.", { seat: seat ?? _("That seat") }),
    no_such_table: notHere,
    bad_invite: notHere,
    bad_options: told(N_("The server cannot play a table like that")),
    not_in_lobby: N_("That game has begun: no seat can be taken now. You may watch it."),
    not_started: N_("The game has not begun yet."),
    already_seated: N_("You are at a table already: leave it first."),
    game_over: N_("The game is over."),
    cannot_claim: N_("You cannot claim the win now: your opponent is not away."),
    not_finished: N_("The game is not over yet: a rematch comes after it."),
    name_taken: N_(
      "That name is registered here already, or one that looks the same: choose another.",
    ),
    bad_secret: N_("This server knows no such player with the key this browser keeps."),
    not_signed_in: N_("Sign in first (Your player)."),
    bad_code: N_(
      "That device code is unknown, used already or too old: ask for a new one on the other device.",
    ),
    no_such_player: N_("Nobody is registered under that name here."),
    no_such_game: N_("No finished game of that table is kept here."),
    no_such_device: N_("That device is no longer one of your player's."),
    server_full: N_("The server is full: try again later."),
    banned: sanction(
      N_("That name or this address is banned on this server until its operator lifts the ban."),
      N_("That name or this address is banned on this server until {when}."),
      N_("That name or this address is banned on this server for a while"),
    ),
    muted: sanction(
      N_("You are muted on this server until its operator lifts it: your chat line was not sent."),
      N_("You are muted on this server until {when}: your chat line was not sent."),
      N_("You are muted on this server for a while: your chat line was not sent"),
    ),
    internal:
      UNAVAILABLE[detail ?? ""] ?? N_("Something went wrong on the server: try again in a moment."),
  };
  const text = said[code as keyof typeof said];
  // a told sentence and the seat's are said already; a table's sentences are said here
  return text === undefined ? told(N_("The server refused")) : _(text);
}
