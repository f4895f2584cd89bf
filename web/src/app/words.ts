/** Everything the page says in words: cards, seats, options, events, endings. Colour is
 * never the only mark: every card and seat carries its colour word, as in the terminal
 * client (the same words and two-letter tags). */
import type {
  CardInfo,
  Catalogue,
  ERROR_CODES,
  GameEvent,
  RecipeInfo,
  ResultInfo,
  SeatInfo,
  TableOptions,
  Timing,
} from "../lib/protocol";

export const PAWN_TAG: Record<string, string> = {
  white: "Wh",
  black: "Bk",
  gray: "Gy",
  blue: "Bl",
  brown: "Br",
  green: "Gr",
  lilac: "Li",
};
export const SYMBOL_WORD: Record<string, string> = { explode: "boom", wand: "wand" };
const NAMES: Record<string, [string, string]> = {
  whiskers: ["Whiskers", "Whiskr"],
  eye_of_newt: ["Eye of newt", "Newt"],
  bat_wing: ["Bat wing", "BatWng"],
  spider_web: ["Spider web", "Spider"],
  root: ["Root", "Root"],
  rat_tail: ["Rat tail", "RatTl"],
  moss: ["Moss", "Moss"],
  frog_slime: ["Frog slime", "Frog"],
  fungus: ["Fungus", "Fungus"],
  toad: ["Toad", "Toad"],
  pumpkin: ["Pumpkin", "Pumpkn"],
  snake_skin: ["Snake skin", "Snake"],
  vine: ["Vine", "Vine"],
  dragon_blood: ["Dragon blood", "Dragon"],
};

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const ORDINAL: Record<number, string> = { 1: "st", 2: "nd", 3: "rd" };
export const ordinal = (n: number): string => `${n}${ORDINAL[n] ?? "th"}`;

export class Cards {
  private readonly byId = new Map<string, CardInfo>();
  private readonly recipes = new Map<string, RecipeInfo>();
  constructor(readonly catalogue: Catalogue) {
    for (const c of catalogue.cards) this.byId.set(c.id, c);
    for (const r of catalogue.recipes) this.recipes.set(r.id, r);
  }
  info(id: string): CardInfo | undefined {
    return this.byId.get(id);
  }
  ingredientName(ingredient: string, short = false): string {
    const n = NAMES[ingredient];
    return n ? n[short ? 1 : 0] : cap(ingredient.replace(/_/g, " "));
  }
  name(id: string, short = false): string {
    const info = this.byId.get(id);
    return info ? this.ingredientName(info.ingredient, short) : id;
  }
  colour(id: string): string {
    return this.byId.get(id)?.colour ?? "gray";
  }
  value(id: string): number {
    return this.byId.get(id)?.value ?? Number(id.split("-").pop());
  }
  symbol(id: string): string | null {
    return this.byId.get(id)?.symbol ?? null;
  }
  /** `Toad 2 boom (brown)`: a card in words with its colour. */
  words(id: string): string {
    const info = this.byId.get(id);
    if (!info) return id;
    const sym = info.symbol ? ` ${SYMBOL_WORD[info.symbol] ?? info.symbol}` : "";
    return `${this.name(id)} ${info.value}${sym} (${info.colour})`;
  }
  /** A recipe card in a few words, e.g. `3+ of both gray (+15)`. */
  recipe(id: string): string {
    const r = this.recipes.get(id);
    if (!r) return id;
    const measure: Record<string, string> = {
      explode: "boom cards",
      wand: "wand cards",
      cards: "cards",
      fours: "4s",
    };
    const what =
      {
        both_of_colour: `3+ of both ${r.colour}`,
        one_of_colour: `3+ of one ${r.colour}`,
        last_card: "take the last card",
        plants: "most plants",
      }[r.kind] ?? `fewest ${measure[r.measure ?? ""] ?? r.measure}`;
    return `${what} (+${r.bonus})`;
  }
}

/** `White (Ann)`: a seat by colour and name. */
export function seatLabel(
  colours: readonly string[],
  seat: number,
  names: readonly (string | null | undefined)[],
): string {
  const colour = colours[seat] ? cap(colours[seat]) : `Seat ${seat + 1}`;
  const name = names[seat];
  return name ? `${colour} (${name})` : colour;
}

/** A seat's presence in a word, as the terminal client says it. */
/** A seat's name as shown: `Hanna (registered)` when a registered player sits there
 * (1.2), so that someone who merely typed the name Hanna is told apart. */
export function seatName(info: SeatInfo | undefined): string {
  if (!info || !info.name) return "free";
  return info.registered ? `${info.name} (registered)` : info.name;
}

export function seatStatus(info: SeatInfo | undefined): string {
  if (!info || !info.name) return "free";
  if (info.resigned) return info.computer ? "resigned, a computer plays" : "resigned";
  if (info.bot) return "bot";
  if (info.absent || (info.computer && !info.connected)) return "away, a computer plays";
  if (info.computer) return "online, a computer plays";
  return info.connected ? "online" : "away";
}

/** `3 players, recipes, casual memory, 30 s a move, private`. */
export function terms(
  options: TableOptions,
  timing: Timing | null | undefined,
  priv: boolean,
): string {
  const t = [`${options.players ?? 2} players`];
  if (options.recipes) t.push("recipes");
  t.push(`${options.memory ?? "strict"} memory`);
  if ((options.start_card ?? "no_player_colors") !== "no_player_colors")
    t.push("start card: not own colour");
  if ((options.players ?? 2) === 3) t.push(`third colour ${options.third_colour ?? "lilac"}`);
  if (timing?.move) {
    t.push(`${timing.move} s a move`);
    if (timing.reserve) t.push(`${timing.reserve} s reserve`);
  }
  if (priv) t.push("private");
  return t.join(", ");
}

export function lineWords(line: string | null | undefined): string {
  if (!line) return "a corner";
  return line.startsWith("col") ? `column ${line.slice(3)}` : `row ${line.slice(3)}`;
}

/** One event in words (null for those the log leaves out); `whose` says a seat's
 * kettle ("Bo's", "your"). */
export function eventWords(
  ev: GameEvent,
  who: (seat: number) => string,
  cards: Cards,
  lineOfSpace: (s: number) => string | null,
  whose: (seat: number) => string = (s) => `${who(s)}'s`,
): string | null {
  switch (ev.kind) {
    case "moved": {
      const steps = ((ev.to_space - ev.from_space + 20) % 20) - ev.skipped.length;
      const jump = ev.skipped.length
        ? `, jumping ${ev.skipped.length === 1 ? "a pawn" : "two pawns"}`
        : "";
      return `${who(ev.seat)} moves ${steps} to ${lineWords(lineOfSpace(ev.to_space))}${jump}`;
    }
    case "passed_corner":
      return `${who(ev.seat)} stops at a corner: nothing taken, the turn is lost`;
    case "took": {
      const sym = cards.symbol(ev.card);
      const used = ev.special && sym ? (sym === "explode" ? ", explodes" : ", uses the wand") : "";
      const last = ev.ends_game ? " (the last card)" : "";
      return `${who(ev.seat)} takes ${cards.words(ev.card)} from ${lineWords(ev.line)}${used}${last}`;
    }
    case "exploded":
      return `${cap(whose(ev.seat))} boom: ${cards.words(ev.card)} leaves ${whose(ev.target)} kettle, ${ev.to === "deck" ? "under the deck" : "out of the game"}`;
    case "extra_turn":
      return `${who(ev.seat)} plays again (wand)`;
    case "refilled":
      return `${cards.words(ev.card)} fills row ${ev.row}, column ${ev.col}`;
    case "discarded":
      return `${who(ev.seat)} discards ${cards.words(ev.card)}`;
    case "turn_passed":
      return null;
    case "game_over":
      return "The game is over";
    case "timed_out":
      return `Time ran out for ${who(ev.seat)}: a computer moved`;
    default:
      return null;
  }
}

const seatList = (seats: readonly number[], who: (seat: number) => string): string =>
  seats.map(who).join(" and ") || "a player";

/** Who won, in a sentence: `Black (Cleo) wins.` */
export function winnersWords(result: ResultInfo, who: (seat: number) => string): string {
  const n = result.winners.length;
  return n
    ? `${seatList(result.winners, who)} ${n > 1 ? "share the win" : "wins"}.`
    : "Nobody wins.";
}

/** How a game ended, in a sentence. */
export function endingWords(result: ResultInfo, who: (seat: number) => string): string {
  const list = (seats: readonly number[]) => seatList(seats, who);
  const winners = winnersWords(result, who);
  const said: Record<string, string> = {
    played_out: "The game was played out.",
    resigned: `${list(result.resigned ?? [])} resigned.`,
    claimed: `${result.claimed_by != null ? who(result.claimed_by) : "A player"} claimed the win while the opponent was away.`,
    timed_out: `Time ran out for ${list(result.timed_out ?? [])} move after move.`,
    abandoned: "Nobody was left at the table: the game was abandoned.",
  };
  return `${said[result.ending] ?? ""} ${winners}`;
}

/** Why a name was refused (`invalid_field`'s `detail`, protocol 1.2's names). */
const NAME_REFUSED: Record<string, string> = {
  invisible: "That name has letters that cannot be seen: choose another.",
  ambiguous: "That name has letters that look like others: choose another.",
  marks: "That name has too many marks over or under its letters: choose another.",
  blank: "That name is empty: choose one.",
  mixed_script: "That name mixes letters of several alphabets: choose another.",
};

/** What `not_allowed` means, by its `detail`. */
const NOT_ALLOWED: Record<string, string> = {
  seeded:
    "That table's deal comes from a seed its creator chose: join it from the lobby, which says so.",
  protocol_1_0:
    "A rematch needs every person at the table on a newer program, and one of them is not.",
  devices:
    "Your player has all the devices this server keeps: remove one (Your player) and try again.",
  rated: "That table is rated: sign in as a registered player (Your player) to sit down.",
  same_player: "Your player has a seat at that table already.",
};

/** What the server can be missing a moment (`internal`'s `detail`). */
const UNAVAILABLE: Record<string, string> = {
  store_unavailable: "The server cannot reach its database just now: try again in a moment.",
  cluster_unavailable:
    "The server cannot reach the others of its group just now: try again in a moment.",
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
): string {
  const words = message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message;
  const told = (lead: string) =>
    words ? `${lead} (${words.replace(/[.\s]+$/, "")}).` : `${lead}.`;
  const notHere =
    "No table with that id here. Check the id, and for a private table the invite code too.";
  // every code of the protocol (tsc says so when a new one is missing here)
  const said: Record<(typeof ERROR_CODES)[number], string> = {
    malformed: "The server could not read what this page sent: reload the page and try again.",
    unknown_type: "This server does not know that request: it runs an older version.",
    invalid_field: NAME_REFUSED[detail ?? ""] ?? told("The server did not accept what was asked"),
    too_large: "That was too long to send.",
    rate_limited: "Too many messages at once: wait a moment and try again.",
    version_unsupported:
      "This server speaks another version of the game: this page cannot play here.",
    hello_required: "The page is still connecting: try again in a moment.",
    not_allowed: NOT_ALLOWED[detail ?? ""] ?? "That cannot be done now.",
    not_your_turn: "It is not your turn.",
    stale_state: "The game moved on: choose again.",
    illegal_move: "The rules do not allow that move: choose again.",
    bad_token: "Your seat is no longer kept for this browser.",
    not_seated: "You have no seat at this table.",
    table_full: "Every seat of that table is taken: you may watch it.",
    seat_taken: `${seat ?? "That seat"} is taken: choose another seat.`,
    no_such_table: notHere,
    bad_invite: notHere,
    bad_options: told("The server cannot play a table like that"),
    not_in_lobby: "That game has begun: no seat can be taken now. You may watch it.",
    not_started: "The game has not begun yet.",
    already_seated: "You are at a table already: leave it first.",
    game_over: "The game is over.",
    cannot_claim: "You cannot claim the win now: your opponent is not away.",
    not_finished: "The game is not over yet: a rematch comes after it.",
    name_taken: "That name is registered here already, or one that looks the same: choose another.",
    bad_secret: "This server knows no such player with the key this browser keeps.",
    not_signed_in: "Sign in first (Your player).",
    bad_code:
      "That device code is unknown, used already or too old: ask for a new one on the other device.",
    no_such_player: "Nobody is registered under that name here.",
    no_such_game: "No finished game of that table is kept here.",
    no_such_device: "That device is no longer one of your player's.",
    server_full: "The server is full: try again later.",
    banned: told("That name or this address is banned on this server for a while"),
    muted: told("You are muted on this server for a while: your chat line was not sent"),
    internal:
      UNAVAILABLE[detail ?? ""] ?? "Something went wrong on the server: try again in a moment.",
  };
  return said[code as keyof typeof said] ?? told("The server refused");
}
