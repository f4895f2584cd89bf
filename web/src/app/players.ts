/**
 * Protocol 1.2 in the page: your player (register a name once, with a secret made here
 * and kept in this browser's storage for this server; or sign in with a code from another
 * device), the signing in on every connection, a profile with its recent games, the
 * leaderboard, and a step-through replay of a past game (`pastgame.ts`). On a 1.3 server
 * your own profile also lists your devices, each revocable.
 *
 * Apart from the table and the lobby, so the players' part reads on its own; the app
 * hands it its connection and its screens.
 */
import type {
  DeviceInfo,
  DevicesMsg,
  GameSummary,
  GamesMsg,
  LeaderEntry,
  LeaderboardMsg,
  PlayerInfo,
  ProfileMsg,
  SignedInMsg,
} from "../lib/protocol";
import { byId, h, replace } from "./dom";
import type { PlayersHost, PlayersScreen } from "./host";
import { openReplay, renderReplay } from "./pastgame";
import { me, signedIn, speaksDevices, speaksPlayers } from "./signin";
import { account, prefs } from "./store";
import { _, date, list, moment, ngettext, num, ordinal } from "./i18n";

const PAGE = 20;

/** What the players' screens hold between two drawings. */
const state = {
  profile: null as PlayerInfo | null,
  games: [] as GameSummary[],
  gamesNext: null as string | null,
  gamesTotal: 0,
  board: [] as LeaderEntry[],
  boardNext: null as string | null,
  boardTotal: 0,
  code: null as { code: string; until: number } | null,
  devices: null as DevicesMsg | null, // 1.3: your own devices, on your own profile
};

/** A device code as typed (spaces, dashes of any kind, either case) as the server
 * issues it, `7KQ2-MX4V`; null for what cannot be one. */
export function deviceCode(typed: string): string | null {
  const plain = typed.replace(/[\s\p{Pd}]+/gu, "").toUpperCase();
  return /^[0-9A-Z]{8}$/.test(plain) ? `${plain.slice(0, 4)}-${plain.slice(4)}` : null;
}

/** A fresh secret: 32 bytes from the browser's secure generator, base64url. */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A moment (seconds since the epoch) as the language writes it; `day`: the date only. */
const when = (seconds: number, day = false): string => (day ? date : moment)(seconds * 1000);

const one = (r: number) => num(r, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const rating = (r: number, provisional?: boolean) => `${one(r)}${provisional ? "?" : ""}`;

/** How a past game ended, in a word. */
const endingWord = (ending: string): string =>
  ({
    played_out: _("played out"),
    resigned: _("resigned"),
    claimed: _("claimed"),
    timed_out: _("timed out"),
    abandoned: _("abandoned"),
  })[ending] ?? ending.replace("_", " ");

// ------------------------------------------------------------------ opening
/** Open one of the players' screens: `profile` of `name` (null: your own). */
export function openPlayers(
  app: PlayersHost,
  screen: PlayersScreen,
  name: string | null = null,
): void {
  if (!speaksPlayers(app)) {
    app.say(_("This server has no registered players (it speaks protocol 1.1 or older)."));
    return;
  }
  if (screen === "profile" && name === null && !me()) screen = "account";
  if (screen === "profile") void loadProfile(app, name);
  if (screen === "board") void loadBoard(app, true);
  app.show(screen);
}

async function loadProfile(app: PlayersHost, name: string | null): Promise<void> {
  const c = app.client!;
  state.profile = null;
  state.games = [];
  state.gamesNext = null;
  try {
    const p = (await c.request("show_profile", { name: name ?? undefined })) as ProfileMsg;
    state.profile = p.player;
    state.devices = null;
    if (name === null && speaksDevices(app))
      state.devices = (await c.request("list_devices", {})) as DevicesMsg;
    await moreGames(app);
  } catch (e) {
    app.refused(e);
  }
  if (app.screen === "profile") renderPlayers(app, "profile");
}

async function moreGames(app: PlayersHost): Promise<void> {
  if (!state.profile) return;
  const page = (await app.client!.request("list_games", {
    name: state.profile.name,
    cursor: state.gamesNext ?? undefined,
    limit: PAGE,
  })) as GamesMsg;
  state.games.push(...(page.games ?? []));
  state.gamesNext = page.next ?? null;
  state.gamesTotal = page.total ?? state.games.length;
}

async function loadBoard(app: PlayersHost, first: boolean): Promise<void> {
  if (first) {
    state.board = [];
    state.boardNext = null;
  }
  try {
    const page = (await app.client!.request("show_leaderboard", {
      cursor: state.boardNext ?? undefined,
      limit: PAGE,
    })) as LeaderboardMsg;
    state.board.push(...(page.entries ?? []));
    state.boardNext = page.next ?? null;
    state.boardTotal = page.total ?? state.board.length;
  } catch (e) {
    app.refused(e);
  }
  if (app.screen === "board") renderPlayers(app, "board");
}

// ------------------------------------------------------------------ drawing
export function renderPlayers(app: PlayersHost, screen: PlayersScreen): void {
  if (screen === "account") renderAccount(app);
  else if (screen === "profile") renderProfile(app);
  else if (screen === "board") renderBoard(app);
  else renderReplay(app, () => openPlayers(app, "profile", state.profile?.name ?? null));
}

function field(label: string, input: HTMLInputElement): HTMLElement {
  return h("p", { class: "field" }, h("label", { for: input.id }, label), input);
}

function renderAccount(app: PlayersHost): void {
  const name = h("input", {
    id: "reg-name",
    type: "text",
    required: true,
    maxlength: app.client?.welcome.limits.max_name ?? 32,
    autocomplete: "nickname",
    value: prefs.name(),
  });
  // no pattern: a code typed with spaces, another dash or in lower case is taken as
  // meant (deviceCode), and one that cannot be a code is told why, never blocked mutely
  const code = h("input", {
    id: "redeem-code",
    type: "text",
    required: true,
    autocomplete: "one-time-code",
    autocapitalize: "characters",
    spellcheck: "false",
    placeholder: "7KQ2-MX4V",
  });
  const register = async (e: Event) => {
    e.preventDefault();
    const n = name.value.trim();
    if (!n || !app.client) return;
    const secret = newSecret();
    account.put({ name: n, secret }); // kept first: a lost answer does not lose the player
    try {
      const p = signedIn(app, await app.client.request("register", { name: n, secret }));
      account.put({ name: p.name, secret });
      app.say(
        _("Registered as {name}: this browser signs in by itself from now on.", { name: p.name }),
        true,
      );
      openPlayers(app, "profile");
    } catch (err) {
      account.put(null);
      app.refused(err);
    }
  };
  const redeem = async (e: Event) => {
    e.preventDefault();
    if (!app.client) return;
    const typed = deviceCode(code.value);
    if (typed === null) {
      app.say(
        _(
          "A device code is 8 letters and digits, like 7KQ2-MX4V: check the code the other device shows.",
        ),
      );
      code.focus();
      return;
    }
    try {
      const reply = await app.client.request("redeem_code", { code: typed });
      const p = signedIn(app, reply);
      const secret = (reply as SignedInMsg).secret;
      if (secret) account.put({ name: p.name, secret });
      app.say(_("Signed in as {name} on this device too.", { name: p.name }), true);
      openPlayers(app, "profile");
    } catch (err) {
      app.refused(err);
    }
  };
  replace(
    app.main,
    h(
      "section",
      { class: "form players", "aria-labelledby": "account-h" },
      h("h2", { id: "account-h" }, _("Your player on this server")),
      h(
        "p",
        {},
        _(
          "Register a name once: this browser keeps a secret for it and signs in by itself on every visit. Your games, rating and place on the leaderboard follow the name.",
        ),
      ),
      h(
        "form",
        { onsubmit: register, "aria-labelledby": "reg-h" },
        h("h3", { id: "reg-h" }, _("Register a name")),
        field(_("Player name"), name),
        h(
          "p",
          { class: "buttons" },
          h("button", { type: "submit", class: "primary", id: "register-go" }, _("Register")),
        ),
      ),
      h(
        "form",
        { onsubmit: redeem, "aria-labelledby": "redeem-h" },
        h("h3", { id: "redeem-h" }, _("Already registered on another device?")),
        h(
          "p",
          {},
          _("On that device open Your player and ask for a device code, then type it here."),
        ),
        field(_("Device code"), code),
        h(
          "p",
          { class: "buttons" },
          h("button", { type: "submit", id: "redeem-go" }, _("Sign in with the code")),
        ),
      ),
      h(
        "p",
        { class: "buttons" },
        h("button", { type: "button", onclick: () => app.show("lobby") }, _("Back to the lobby")),
      ),
    ),
  );
}

function gameItem(app: PlayersHost, g: GameSummary): HTMLElement {
  const place = g.places[g.seat] ?? 0;
  const others = g.names.filter((_, i) => i !== g.seat).map((n) => n ?? "-");
  const rated =
    g.rated && g.rating_before != null && g.rating_after != null
      ? `; ${_("rated {before} → {after}", { before: one(g.rating_before), after: one(g.rating_after) })}`
      : "";
  return h(
    "li",
    { class: "table-row" },
    h(
      "h3",
      {},
      g.name,
      " ",
      h(
        "span",
        { class: "tag" },
        _("{place} of {n}", { place: ordinal(place), n: g.names.length }),
      ),
      g.rated ? h("span", { class: "tag" }, _("rated")) : null,
    ),
    h(
      "p",
      { class: "terms" },
      `${when(g.finished)} · ${_("vs {names}", { names: list(others) })} · ${endingWord(g.ending)}${rated}`,
    ),
    h(
      "p",
      { class: "buttons" },
      h(
        "button",
        { "data-key": `replay-${g.table}`, onclick: () => void openReplay(app, g.table) },
        _("Replay"),
        h("span", { class: "sr-only" }, ` ${g.name}`),
      ),
    ),
  );
}

function deviceItem(app: PlayersHost, d: DeviceInfo): HTMLElement {
  const how =
    d.label === "registered"
      ? _("where you registered")
      : d.label === "code"
        ? _("added with a code")
        : _("added earlier");
  const revoke = async () => {
    try {
      state.devices = (await app.client!.request("revoke_device", {
        device: d.device,
      })) as DevicesMsg;
      app.say(_("That device signs in no more."), true);
    } catch (e) {
      app.refused(e);
    }
    renderProfile(app);
  };
  return h(
    "li",
    { "data-device": d.device },
    h(
      "p",
      {},
      d.current ? _("This device") : _("A device {how}", { how }),
      ` · ${_("added {day}", { day: when(d.added, true) })}`,
      d.last_used ? ` · ${_("last signed in {when}", { when: when(d.last_used) })}` : "",
    ),
    d.current
      ? null
      : h(
          "p",
          { class: "buttons" },
          h(
            "button",
            { onclick: () => void revoke() },
            _("Revoke"),
            h("span", { class: "sr-only" }, ` ${_("the device {how}", { how })}`),
          ),
        ),
  );
}

function renderProfile(app: PlayersHost): void {
  const p = state.profile;
  const mine = !!p && p.name === me()?.name;
  const code = state.code && state.code.until > Date.now() ? state.code : null;
  const askCode = async () => {
    try {
      const m = await app.client!.request("new_device_code", {});
      if (m.type === "device_code")
        state.code = { code: m.code, until: Date.now() + m.expires_in * 1000 };
      renderProfile(app);
      byId("device-code").focus();
    } catch (e) {
      app.refused(e);
    }
  };
  const more = async () => {
    try {
      await moreGames(app);
    } catch (e) {
      app.refused(e);
    }
    renderProfile(app);
  };
  replace(
    app.main,
    h(
      "section",
      { class: "players", "aria-labelledby": "profile-h" },
      h("h2", { id: "profile-h" }, p ? _("Player {name}", { name: p.name }) : _("Player")),
      p
        ? [
            h(
              "dl",
              { class: "facts" },
              h("dt", {}, _("Rating")),
              h(
                "dd",
                { id: "rating" },
                rating(p.rating, p.provisional ?? true),
                (p.provisional ?? true) ? ` ${_("(provisional: too few rated games yet)")}` : "",
              ), // absent: its default, true
              h("dt", {}, _("Games")),
              h(
                "dd",
                {},
                _("{games} ({rated} rated), {wins} won", {
                  games: p.games ?? 0,
                  rated: p.rated_games ?? 0,
                  wins: p.wins ?? 0,
                }),
              ),
              h("dt", {}, _("Registered")),
              h("dd", {}, when(p.since, true)),
            ),
            mine
              ? h(
                  "p",
                  { class: "buttons" },
                  h(
                    "button",
                    { id: "device-code-go", onclick: () => void askCode() },
                    _("A code for another device"),
                  ),
                  code
                    ? h(
                        "span",
                        {},
                        _("Code:"),
                        " ",
                        h("code", { id: "device-code", tabindex: -1 }, code.code),
                        ` ${_("(type it on the other device within a few minutes; it works once)")}`,
                      )
                    : null,
                )
              : null,
            mine && state.devices
              ? [
                  h(
                    "h3",
                    { id: "devices-h" },
                    _("Your devices ({n} of at most {limit})", {
                      n: state.devices.devices.length,
                      limit: state.devices.limit,
                    }),
                  ),
                  h(
                    "ul",
                    { class: "tables", id: "devices", "aria-labelledby": "devices-h" },
                    state.devices.devices.map((d) => deviceItem(app, d)),
                  ),
                ]
              : null,
            h(
              "h3",
              { id: "games-h" },
              state.gamesTotal
                ? _("Recent games ({n})", { n: state.gamesTotal })
                : _("No finished games yet"),
            ),
            h(
              "ul",
              { class: "tables", "aria-labelledby": "games-h" },
              state.games.map((g) => gameItem(app, g)),
            ),
            state.gamesNext
              ? h(
                  "p",
                  { class: "buttons" },
                  h("button", { id: "more-games", onclick: () => void more() }, _("More games")),
                )
              : null,
          ]
        : h("p", {}, _("Fetching the profile...")),
      h(
        "p",
        { class: "buttons" },
        h("button", { id: "to-board", onclick: () => openPlayers(app, "board") }, _("Leaderboard")),
        h("button", { onclick: () => app.show("lobby") }, _("Back to the lobby")),
      ),
    ),
  );
}

function renderBoard(app: PlayersHost): void {
  const rows = state.board.map((e) =>
    h(
      "tr",
      {},
      h("td", {}, String(e.rank)),
      h(
        "th",
        { scope: "row" },
        h(
          "button",
          {
            class: "link",
            "data-key": `player-${e.name}`,
            onclick: () => openPlayers(app, "profile", e.name),
          },
          e.name,
        ),
      ),
      h("td", {}, rating(e.rating, e.provisional)),
      h("td", {}, String(e.rated_games)),
    ),
  );
  replace(
    app.main,
    h(
      "section",
      { class: "players", "aria-labelledby": "board-h" },
      h("h2", { id: "board-h" }, _("Leaderboard")),
      state.board.length
        ? h(
            "table",
            { class: "board-table" },
            h(
              "caption",
              {},
              ngettext(
                "{n} rated player, best first (? marks a provisional rating)",
                "{n} rated players, best first (? marks a provisional rating)",
                state.boardTotal,
              ),
            ),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, _("Rank")),
                h("th", { scope: "col" }, _("Player")),
                h("th", { scope: "col" }, _("Rating")),
                h("th", { scope: "col" }, _("Rated games")),
              ),
            ),
            h("tbody", {}, rows),
          )
        : h("p", {}, _("Nobody has played a rated game yet.")),
      state.boardNext
        ? h(
            "p",
            { class: "buttons" },
            h(
              "button",
              { id: "more-board", onclick: () => void loadBoard(app, false) },
              _("More players"),
            ),
          )
        : null,
      h(
        "p",
        { class: "buttons" },
        h("button", { onclick: () => openPlayers(app, "profile") }, _("Your player")),
        h("button", { onclick: () => app.show("lobby") }, _("Back to the lobby")),
      ),
    ),
  );
}
