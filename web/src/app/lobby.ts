/**
 * The screens before and beside the table: the lobby (the server's tables, page by
 * page), joining or watching by code or invite link, and the waiting screen with the
 * invite; the form of a new table is `create.ts`.
 */
import type { SeatInfo, TableSummary } from "../lib/protocol";
import { h, patch, replace } from "./dom";
import { linkLines } from "./invite";
import type { LobbyHost, Says, ScreenHost } from "./host";
import { me, playerSeat, speaksPlayers } from "./signin";
import { prefs, tokens } from "./store";
import { cap, colourName, seatName, seatStatus, terms } from "./words";
import { _, ngettext } from "./i18n";

/** The player's name (read-only when signed in: every seat is named after the player). */
export function nameField(app: ScreenHost): HTMLInputElement {
  const player = me();
  const input = h("input", {
    id: "player-name",
    type: "text",
    maxlength: app.client?.welcome.limits.max_name ?? 32,
    autocomplete: "nickname",
    value: player?.name ?? prefs.name(),
    readonly: !!player, // signed in: every seat is named after the player
    "aria-describedby": player ? "signed-in" : null,
  });
  input.addEventListener("change", () => prefs.setName(input.value.trim()));
  return input;
}

/** The name typed, kept for next time; null (and the field in focus) if there is none. */
export function playerName(app: Says): string | null {
  const input = document.getElementById("player-name") as HTMLInputElement | null;
  const name = (input?.value ?? prefs.name()).trim();
  if (!name) {
    app.say(_("Type your name first."));
    input?.focus();
    return null;
  }
  prefs.setName(name);
  return name;
}

/** The seats of yours at table `t`: kept in this browser, or held by your player. */
export const seatsOf = (t: TableSummary): number[] => {
  const held = playerSeat(t.id);
  const mine = tokens.seatsAt(t.id);
  if (held !== null && !mine.includes(held)) mine.push(held);
  return mine;
};

export function renderLobby(app: LobbyHost): void {
  const server = app.client?.welcome.server ?? _("the server");
  replace(
    app.main,
    h(
      "section",
      { class: "lobby", "aria-labelledby": "lobby-h" },
      h("h2", { id: "lobby-h" }, _("Tables on {server}", { server })),
      h("p", {}, h("label", { for: "player-name" }, _("Your name"), " "), nameField(app)),
      me()
        ? h(
            "p",
            { id: "signed-in", class: "muted" },
            _("Signed in as {name}: you sit down as your player.", { name: me()!.name }),
          )
        : null,
      h(
        "p",
        { class: "buttons" },
        h(
          "button",
          { id: "new-table", class: "primary", onclick: () => app.show("create") },
          _("New table"),
        ),
        h(
          "button",
          { id: "join-code", onclick: () => app.show("join") },
          _("Join or watch by code"),
        ),
        h("button", { id: "refresh", onclick: () => app.listTables() }, _("Refresh")),
        speaksPlayers(app)
          ? h(
              "button",
              {
                id: "your-player",
                onclick: () => void import("./players").then((m) => m.openPlayers(app, "profile")),
              },
              _("Your player"),
            )
          : null,
        speaksPlayers(app)
          ? h(
              "button",
              {
                id: "leaderboard",
                onclick: () => void import("./players").then((m) => m.openPlayers(app, "board")),
              },
              _("Leaderboard"),
            )
          : null,
      ),
      h("div", {
        id: "tables",
        "aria-live": "polite",
        onpointerdown: () => (pressing.held = true),
      }),
    ),
  );
  if (!pressing.heard) {
    pressing.heard = true;
    const release = () => {
      if (!pressing.held) return;
      pressing.held = false;
      // after the release's click, which the listing must not have moved
      if (pressing.due) setTimeout(() => ((pressing.due = false), renderTables(app)), 0);
    };
    window.addEventListener("pointerup", release, true);
    window.addEventListener("pointercancel", release, true);
    window.addEventListener("blur", release); // the window's own: a release it never hears
  }
  renderTables(app);
}

/** A pointer held down in the list of tables: a new listing waits until it is let go.
 * `patch` keeps the pressed button, but a table listed above it would move it from
 * under the finger or mouse, and the release would land on another row. */
const pressing = { held: false, due: false, heard: false };

/** The list of tables, patched in place (`patch`), not rebuilt: it is listed again
 * every few seconds, and a Join pressed as the answer came must still join when the
 * press ends, even when a table is now listed above its row (each row is matched by
 * its table, `data-key`, and a listing waits while a pointer is held down in it). A button `patch` keeps is the old one with its old listener,
 * so all its listener uses is in its attributes (the table in `data-key`, the seat in
 * `data-seat`), or read from `app` when it is pressed (the next page's cursor). */
export function renderTables(app: LobbyHost): void {
  const el = document.getElementById("tables");
  if (!el) return;
  if (pressing.held) {
    pressing.due = true;
    return;
  }
  if (!app.client) {
    patch(el, h("p", {}, _("Connecting to the server...")));
    return;
  }
  if (!app.tables.length) {
    patch(el, h("p", {}, _("No tables yet: make a new one.")));
    return;
  }
  // your own games not over come first (a seat left to wait for you, a table you made),
  // the others in the server's order
  const yours = (t: TableSummary) => t.state !== "finished" && seatsOf(t).length > 0;
  const listed = [...app.tables.filter(yours), ...app.tables.filter((t) => !yours(t))];
  const rows = listed.map((t) => {
    const mine = seatsOf(t);
    const free = t.seats.find((s) => !s.name);
    const colours = ["white", "black", t.options.third_colour ?? "lilac"];
    // before the game, in the waiting screen's words: ready or not (or away)
    const status = (s: SeatInfo) =>
      s.bot
        ? _("bot")
        : t.state !== "lobby"
          ? seatStatus(s)
          : s.ready
            ? _("ready")
            : s.connected
              ? _("not ready")
              : seatStatus(s);
    const seats = t.seats.map((s) =>
      _("{colour}: {seat}", {
        colour: colourName(colours[s.seat]),
        seat: s.name ? _("{name} ({status})", { name: seatName(s), status: status(s) }) : _("free"),
      }),
    );
    const buttons = [];
    if (mine.length) {
      buttons.push(
        h(
          "button",
          {
            class: "primary",
            "data-key": `resume-${t.id}`,
            "data-seat": mine[0],
            onclick: () => void app.rejoin({ table: t.id, seat: mine[0] }),
          },
          _("Back to my seat"),
        ),
      );
    } else if (t.state === "lobby" && free) {
      buttons.push(
        h(
          "button",
          {
            class: "primary",
            "data-key": `join-${t.id}`,
            onclick: () => app.join(t.id, null, null, t.seeded),
          },
          _("Join"),
        ),
      );
    }
    // a seated player means their seat, never watching their own game as a spectator
    if (!mine.length)
      buttons.push(
        h(
          "button",
          { "data-key": `watch-${t.id}`, onclick: () => app.watch(t.id, null) },
          _("Watch"),
        ),
      );
    return h(
      "li",
      { class: "table-row", "data-key": `table-${t.id}` },
      h(
        "h3",
        {},
        t.name,
        " ",
        h("span", { class: "tag" }, stateWord(t.state)),
        t.rated ? h("span", { class: "tag" }, _("rated")) : null,
        mine.length ? h("span", { class: "tag mine" }, _("your seat")) : null,
      ),
      h(
        "p",
        { class: "terms" },
        terms(t.options, t.timing, t.private),
        t.seeded ? _(", seeded deal (its creator may know every card)") : "",
        t.spectators ? ngettext(", {n} watching", ", {n} watching", t.spectators) : "",
      ),
      h("p", { class: "seats" }, seats.join(" · ")),
      h("p", { class: "buttons" }, buttons),
    );
  });
  const page = (next: boolean) => () => {
    app.cursor = next ? app.nextCursor : null;
    app.listTables();
  };
  const more =
    app.tablesTotal > app.tables.length || app.cursor
      ? h(
          "p",
          { class: "buttons" },
          ngettext("{shown} of {n} table shown.", "{shown} of {n} tables shown.", app.tablesTotal, {
            shown: app.tables.length,
          }),
          app.cursor
            ? h("button", { "data-key": "first-page", onclick: page(false) }, _("First page"))
            : null,
          app.nextCursor
            ? h("button", { "data-key": "next-page", onclick: page(true) }, _("More tables"))
            : null,
        )
      : null;
  patch(el, h("ul", { class: "tables" }, rows), more);
}

/** A table's state in a word. */
const stateWord = (state: string): string =>
  ({
    lobby: _("waiting for players"),
    playing: _("playing"),
    finished: _("finished"),
  })[state] ?? state;

/** A table id or invite code as typed: without spaces, in lower case. */
export function code(typed: string): string {
  return typed.trim().toLowerCase();
}

export function renderJoin(app: LobbyHost): void {
  const p = app.prefill;
  // what the server's listing says of the table a link names (a private one is not listed)
  const known = p?.known ?? null;
  const free = known ? known.seats.filter((s) => !s.name).map((s) => s.seat) : [0, 1, 2];
  const open = !known || (known.state === "lobby" && free.length > 0);
  // a watch link, or a table that has no seat to offer: watching is all there is to do
  const watchOnly = !!p && (p.watch || !open);
  const colours = ["white", "black", known ? (known.options.third_colour ?? "lilac") : null];
  // ids and invite codes are lower case (hex; letters and digits with dashes): spaces
  // around them and a phone keyboard's capital letter are let go (`code`)
  const plain = {
    type: "text",
    autocomplete: "off",
    autocapitalize: "off",
    autocorrect: "off",
    spellcheck: "false",
  };
  const table = h("input", {
    id: "join-table",
    ...plain,
    required: true,
    pattern: "\\s*[A-Za-z0-9_\\-]+\\s*",
    value: p?.table ?? "",
  });
  const invite = h("input", {
    id: "join-invite",
    ...plain,
    pattern: "\\s*[A-Za-z0-9_\\-]*\\s*",
    value: p?.invite ?? "",
  });
  const seat = h(
    "select",
    { id: "join-seat" },
    h("option", { value: "" }, _("the first free seat")),
    free.map((s) =>
      h(
        "option",
        { value: s },
        _("{colour} (seat {n})", {
          colour: colours[s] ? colourName(colours[s]!) : _("third colour"),
          n: s + 1,
        }),
      ),
    ),
  );
  const go = (watch: boolean) => (e: Event) => {
    e.preventDefault();
    app.prefill = null;
    if (known && code(table.value) === known.id) app.summary = known; // its name on the waiting screen
    if (watch) app.watch(code(table.value), code(invite.value) || null);
    else
      app.join(
        code(table.value),
        code(invite.value) || null,
        seat.value === "" ? null : Number(seat.value),
        known?.seeded ?? false,
      );
  };
  const title = !p
    ? _("Join or watch by code")
    : p.watch
      ? known
        ? _("Watch {name}", { name: known.name })
        : _("You are invited to watch a table")
      : known
        ? _("You are invited to {name}", { name: known.name })
        : _("You are invited to a table");
  replace(
    app.main,
    h(
      "section",
      { class: "form", "aria-labelledby": "join-h" },
      h("h2", { id: "join-h" }, title),
      known ? about(known, colours) : null,
      h(
        "form",
        { onsubmit: go(watchOnly) },
        watchOnly ? null : field(_("Your name"), nameField(app)),
        field(_("Table id"), table),
        field(_("Invite code (private tables)"), invite),
        watchOnly ? null : field(_("Seat"), seat),
        h(
          "p",
          { class: "buttons" },
          h(
            "button",
            { type: "submit", class: "primary", id: "join-go" },
            watchOnly || p?.watch ? _("Watch") : _("Join"),
          ),
          watchOnly
            ? null
            : h(
                "button",
                { type: "button", onclick: go(!(p?.watch ?? false)) },
                p?.watch ? _("Join") : _("Watch"),
              ),
          h(
            "button",
            { type: "button", onclick: () => ((app.prefill = null), app.show("lobby")) },
            _("Back"),
          ),
        ),
      ),
    ),
  );
}

/** A listed table in a few lines: its terms, its state and its seats, free or whose. */
function about(t: TableSummary, colours: (string | null)[]): HTMLElement {
  const state =
    t.state === "lobby"
      ? t.seats.some((s) => !s.name)
        ? _("waiting for players")
        : _("every seat is taken")
      : t.state === "playing"
        ? _("the game is on: every seat is taken")
        : _("the game is over");
  return h(
    "div",
    { id: "join-about", class: "join-about" },
    h(
      "p",
      { class: "terms" },
      cap(terms(t.options, t.timing, t.private)),
      t.seeded ? _(", seeded deal (its creator may know every card)") : "",
      t.rated ? _(", rated") : "",
      ".",
    ),
    h(
      "p",
      { class: "state" },
      cap(state),
      t.spectators ? ngettext(", {n} watching", ", {n} watching", t.spectators) : "",
      ".",
    ),
    h(
      "ul",
      { class: "seat-list", "aria-label": _("Seats") },
      t.seats.map((s) =>
        h(
          "li",
          {},
          h("span", { class: `tag c-${colours[s.seat]}` }, colourName(colours[s.seat] ?? "")),
          " ",
          s.name
            ? s.bot
              ? _("{name} (bot)", { name: seatName(s) })
              : seatName(s)
            : _("free seat"),
        ),
      ),
    ),
  );
}

/** The listed summary of `table`, looked for in the server's first few pages of
 * tables (null: not listed, a private table, or gone). */
export async function lookUp(app: ScreenHost, table: string): Promise<TableSummary | null> {
  const c = app.client;
  let cursor: string | undefined;
  for (let page = 0; c && page < 5; page++) {
    try {
      const m = await c.request("list_tables", { open_first: true, limit: 50, cursor });
      if (m.type !== "tables") return null;
      const t = m.tables.find((x) => x.id === table);
      if (t) return t;
      if (!m.next) return null;
      cursor = m.next;
    } catch {
      return null;
    }
  }
  return null;
}

export function renderWaiting(app: LobbyHost): void {
  const p = app.presence;
  const s = app.summary;
  const seat = app.t.seat;
  // the third seat's colour is in the table's listing: a private table's joiner, who has
  // none, is not told a colour that may be wrong
  const colours = ["white", "black", s ? (s.options.third_colour ?? "lilac") : null];
  const me = seat !== null ? p?.seats[seat] : undefined;
  replace(
    app.main,
    h(
      "section",
      { class: "waiting", "aria-labelledby": "wait-h" },
      h(
        "h2",
        { id: "wait-h" },
        _("{table}: waiting for players", { table: s?.name ?? _("Your table") }),
      ),
      s ? h("p", { class: "terms" }, terms(s.options, s.timing, s.private)) : null,
      h(
        "ul",
        { class: "seat-list", "aria-label": _("Seats") },
        (p?.seats ?? []).map((x) =>
          h(
            "li",
            {},
            h(
              "span",
              { class: `tag${colours[x.seat] ? ` c-${colours[x.seat]}` : ""}` },
              colours[x.seat] ? colourName(colours[x.seat]!) : _("Seat {n}", { n: x.seat + 1 }),
            ),
            " ",
            x.name
              ? x.seat === seat
                ? _("{name} (you)", { name: seatName(x) })
                : seatName(x)
              : _("free seat"),
            " ",
            h(
              "span",
              { class: "state" },
              x.name
                ? x.bot
                  ? _("bot, ready")
                  : x.ready
                    ? _("ready")
                    : _("not ready")
                : _("waiting"),
            ),
          ),
        ),
      ),
      h(
        "p",
        {},
        _("Table id"),
        " ",
        h("code", { id: "table-id" }, app.here?.table ?? ""),
        app.invite
          ? [" · ", _("invite code"), " ", h("code", { id: "invite-code" }, app.invite)]
          : null,
      ),
      linkLines(app),
      h(
        "p",
        { class: "buttons" },
        seat !== null
          ? h(
              "button",
              {
                id: "ready",
                class: me?.ready ? "" : "primary",
                "aria-pressed": me?.ready ? "true" : "false",
                onclick: () => app.ready(!me?.ready),
              },
              me?.ready ? `\u2713 ${_("I am ready")}` : _("I am ready"),
            )
          : null,
        h("button", { id: "leave", onclick: () => app.act("leave") }, _("Leave the table")),
      ),
      h(
        "p",
        {},
        _("The game begins when every seat is taken and everyone is ready."),
        seat !== null && me?.ready ? ` ${_("You are ready: press the button again to wait.")}` : "",
      ),
    ),
    app.chatBox,
  );
}

/** A form's field: `input` with its label (after it for a checkbox). */
export function field(label: string, input: HTMLElement): HTMLElement {
  const id = input.id;
  const box = input instanceof HTMLInputElement && input.type === "checkbox";
  return h(
    "p",
    { class: box ? "field check" : "field" },
    box ? [input, " ", h("label", { for: id }, label)] : [h("label", { for: id }, label), input],
  );
}
