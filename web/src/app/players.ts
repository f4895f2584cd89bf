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
import { ordinal } from "./i18n";

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

function when(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ");
}

const rating = (r: number, provisional?: boolean) => `${r.toFixed(1)}${provisional ? "?" : ""}`;

// ------------------------------------------------------------------ opening
/** Open one of the players' screens: `profile` of `name` (null: your own). */
export function openPlayers(
  app: PlayersHost,
  screen: PlayersScreen,
  name: string | null = null,
): void {
  if (!speaksPlayers(app)) {
    app.say("This server has no registered players (it speaks protocol 1.1 or older).");
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
      app.say(`Registered as ${p.name}: this browser signs in by itself from now on.`, true);
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
        "A device code is 8 letters and digits, like 7KQ2-MX4V: check the code the other device shows.",
      );
      code.focus();
      return;
    }
    try {
      const reply = await app.client.request("redeem_code", { code: typed });
      const p = signedIn(app, reply);
      const secret = (reply as SignedInMsg).secret;
      if (secret) account.put({ name: p.name, secret });
      app.say(`Signed in as ${p.name} on this device too.`, true);
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
      h("h2", { id: "account-h" }, "Your player on this server"),
      h(
        "p",
        {},
        "Register a name once: this browser keeps a secret for it and signs in by itself on every visit. Your games, rating and place on the leaderboard follow the name.",
      ),
      h(
        "form",
        { onsubmit: register, "aria-labelledby": "reg-h" },
        h("h3", { id: "reg-h" }, "Register a name"),
        field("Player name", name),
        h(
          "p",
          { class: "buttons" },
          h("button", { type: "submit", class: "primary", id: "register-go" }, "Register"),
        ),
      ),
      h(
        "form",
        { onsubmit: redeem, "aria-labelledby": "redeem-h" },
        h("h3", { id: "redeem-h" }, "Already registered on another device?"),
        h("p", {}, "On that device open Your player and ask for a device code, then type it here."),
        field("Device code", code),
        h(
          "p",
          { class: "buttons" },
          h("button", { type: "submit", id: "redeem-go" }, "Sign in with the code"),
        ),
      ),
      h(
        "p",
        { class: "buttons" },
        h("button", { type: "button", onclick: () => app.show("lobby") }, "Back to the lobby"),
      ),
    ),
  );
}

function gameItem(app: PlayersHost, g: GameSummary): HTMLElement {
  const place = g.places[g.seat] ?? 0;
  const others = g.names.filter((_, i) => i !== g.seat).map((n) => n ?? "-");
  const rated =
    g.rated && g.rating_before != null && g.rating_after != null
      ? `; rated ${g.rating_before.toFixed(1)} → ${g.rating_after.toFixed(1)}`
      : "";
  return h(
    "li",
    { class: "table-row" },
    h(
      "h3",
      {},
      g.name,
      " ",
      h("span", { class: "tag" }, `${ordinal(place)} of ${g.names.length}`),
      g.rated ? h("span", { class: "tag" }, "rated") : null,
    ),
    h(
      "p",
      { class: "terms" },
      `${when(g.finished)} · vs ${others.join(", ")} · ${g.ending.replace("_", " ")}${rated}`,
    ),
    h(
      "p",
      { class: "buttons" },
      h(
        "button",
        { "data-key": `replay-${g.table}`, onclick: () => void openReplay(app, g.table) },
        "Replay",
        h("span", { class: "sr-only" }, ` ${g.name}`),
      ),
    ),
  );
}

function deviceItem(app: PlayersHost, d: DeviceInfo): HTMLElement {
  const how =
    d.label === "registered"
      ? "where you registered"
      : d.label === "code"
        ? "added with a code"
        : "added earlier";
  const revoke = async () => {
    try {
      state.devices = (await app.client!.request("revoke_device", {
        device: d.device,
      })) as DevicesMsg;
      app.say("That device signs in no more.", true);
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
      d.current ? "This device" : `A device ${how}`,
      ` · added ${when(d.added).slice(0, 10)}`,
      d.last_used ? ` · last signed in ${when(d.last_used)}` : "",
    ),
    d.current
      ? null
      : h(
          "p",
          { class: "buttons" },
          h(
            "button",
            { onclick: () => void revoke() },
            "Revoke",
            h("span", { class: "sr-only" }, ` the device ${how}`),
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
      h("h2", { id: "profile-h" }, p ? `Player ${p.name}` : "Player"),
      p
        ? [
            h(
              "dl",
              { class: "facts" },
              h("dt", {}, "Rating"),
              h(
                "dd",
                { id: "rating" },
                rating(p.rating, p.provisional ?? true),
                (p.provisional ?? true) ? " (provisional: too few rated games yet)" : "",
              ), // absent: its default, true
              h("dt", {}, "Games"),
              h("dd", {}, `${p.games ?? 0} (${p.rated_games ?? 0} rated), ${p.wins ?? 0} won`),
              h("dt", {}, "Registered"),
              h("dd", {}, when(p.since).slice(0, 10)),
            ),
            mine
              ? h(
                  "p",
                  { class: "buttons" },
                  h(
                    "button",
                    { id: "device-code-go", onclick: () => void askCode() },
                    "A code for another device",
                  ),
                  code
                    ? h(
                        "span",
                        {},
                        "Code: ",
                        h("code", { id: "device-code", tabindex: -1 }, code.code),
                        " (type it on the other device within a few minutes; it works once)",
                      )
                    : null,
                )
              : null,
            mine && state.devices
              ? [
                  h(
                    "h3",
                    { id: "devices-h" },
                    `Your devices (${state.devices.devices.length} of at most ${state.devices.limit})`,
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
              state.gamesTotal ? `Recent games (${state.gamesTotal})` : "No finished games yet",
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
                  h("button", { id: "more-games", onclick: () => void more() }, "More games"),
                )
              : null,
          ]
        : h("p", {}, "Fetching the profile..."),
      h(
        "p",
        { class: "buttons" },
        h("button", { id: "to-board", onclick: () => openPlayers(app, "board") }, "Leaderboard"),
        h("button", { onclick: () => app.show("lobby") }, "Back to the lobby"),
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
      h("h2", { id: "board-h" }, "Leaderboard"),
      state.board.length
        ? h(
            "table",
            { class: "board-table" },
            h(
              "caption",
              {},
              `${state.boardTotal} rated players, best first (? marks a provisional rating)`,
            ),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, "Rank"),
                h("th", { scope: "col" }, "Player"),
                h("th", { scope: "col" }, "Rating"),
                h("th", { scope: "col" }, "Rated games"),
              ),
            ),
            h("tbody", {}, rows),
          )
        : h("p", {}, "Nobody has played a rated game yet."),
      state.boardNext
        ? h(
            "p",
            { class: "buttons" },
            h(
              "button",
              { id: "more-board", onclick: () => void loadBoard(app, false) },
              "More players",
            ),
          )
        : null,
      h(
        "p",
        { class: "buttons" },
        h("button", { onclick: () => openPlayers(app, "profile") }, "Your player"),
        h("button", { onclick: () => app.show("lobby") }, "Back to the lobby"),
      ),
    ),
  );
}
