/**
 * The form of a new table, with every option: its name, the players and the computer's
 * seats, the variants (recipes, memory, starting card, third colour), your seat, a clock
 * and the grace periods, privacy, a rated game (1.2) and a chosen seed. A table refused
 * by a limit (1.6's `limit` of `server_full`) is said in words, with the way back to a
 * table of yours where that is the way out. A refusal is said beside the form's buttons,
 * where the person who pressed one is looking (the status line at the top of the page is
 * scrolled out of sight on a phone by then).
 */
import { ProtocolError } from "../lib/index";
import type { CreateTableMsg, Timing } from "../lib/protocol";
import { h, replace } from "./dom";
import type { CreateHost } from "./host";
import { field, nameField, playerName, seatsOf } from "./lobby";
import { type Particulars, refusalOf } from "./refusals";
import { me, speaksAnalysis } from "./signin";
import { prefs } from "./store";
import { N_, _, colour, ngettext } from "./i18n";
import { colourName, levelWord } from "./words";

/** What refused a new table (`server_full`'s `limit`), and the way out: as the terminal
 * client's `client/ui/refusals.py` says it (the words live here, loaded with the form). */
const FULL: Record<string, string> = {
  unattended: N_(
    "A game you started is still running with nobody at it: go back to it, or resign it, before you start another.",
  ),
  lobby: N_(
    "A table you made is still waiting in the lobby: go back to it, or leave it, before you make another.",
  ),
  bots: N_(
    "Games of computers only that you started are still running: wait for one to end, or watch it.",
  ),
  tables: N_("This server has all the tables it can hold: try again later."),
};

/** A new table refused, said in `why` (beside the buttons): in words, and for a table of
 * yours that stands in the way (a game left running, a table waiting in the lobby) a
 * button back to it (the lobby, which lists your tables first, when this page knows none
 * of them). */
function refusedTable(app: CreateHost, err: unknown, why: HTMLElement, buttons: HTMLElement): void {
  const limit = err instanceof ProtocolError ? (err.error as Particulars).limit : null;
  const full = err instanceof ProtocolError && err.code === "server_full" && FULL[limit ?? ""];
  why.textContent = full
    ? _(full)
    : err instanceof ProtocolError
      ? refusalOf(err)
      : String(err instanceof Error ? err.message : err);
  why.hidden = false;
  why.scrollIntoView({ block: "nearest" });
  if (!full || (limit !== "unattended" && limit !== "lobby")) return;
  const state = limit === "unattended" ? "playing" : "lobby";
  const ours = app.tables.filter((t) => t.state !== "finished" && seatsOf(t).length);
  const t = ours.find((x) => x.state === state) ?? ours[0];
  const back = h(
    "button",
    {
      type: "button",
      id: "way-back",
      class: "primary",
      onclick: () =>
        t ? void app.rejoin({ table: t.id, seat: seatsOf(t)[0] }) : app.show("lobby"),
    },
    _("Back to my game"),
  );
  buttons.prepend(back);
  back.focus();
}

export function renderCreate(app: CreateHost): void {
  const levels = app.client?.welcome.bot_levels ?? [];
  const name = nameField(app);
  const tableName = h("input", {
    id: "table-name",
    type: "text",
    maxlength: app.client?.welcome.limits.max_table_name ?? 48,
    value: prefs.name() ? _("{name}'s table", { name: prefs.name() }) : _("Kitchen table"),
  });
  const players = h(
    "select",
    { id: "opt-players" },
    h("option", { value: "2" }, ngettext("{n} player", "{n} players", 2)),
    h("option", { value: "3" }, ngettext("{n} player", "{n} players", 3)),
  );
  const recipes = h("input", { id: "opt-recipes", type: "checkbox" });
  const startCard = h(
    "select",
    { id: "opt-start" },
    h("option", { value: "no_player_colors" }, _("no player colours (rule book)")),
    h("option", { value: "not_own_color" }, _("not your own colour")),
  );
  const memory = h(
    "select",
    { id: "opt-memory" },
    h("option", { value: "strict" }, _("strict: only kettle tops")),
    h("option", { value: "casual" }, _("casual: see your own kettle")),
  );
  const third = h(
    "select",
    { id: "opt-third" },
    (app.client?.welcome.catalogue.third_colours ?? ["lilac", "brown", "green", "gray"]).map((c) =>
      h("option", { value: c }, colour(c)),
    ),
  );
  const priv = h("input", { id: "opt-private", type: "checkbox" });
  const seed = h("input", {
    id: "opt-seed",
    type: "number",
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    placeholder: _("random"),
    inputmode: "numeric",
  });
  const mySeat = h("select", { id: "opt-seat" });
  const move = h("input", {
    id: "opt-move",
    type: "number",
    min: 1,
    max: 86400,
    placeholder: _("no clock"),
    inputmode: "numeric",
  });
  const reserve = h("input", {
    id: "opt-reserve",
    type: "number",
    min: 0,
    max: 86400,
    value: 0,
    inputmode: "numeric",
  });
  const grace = h("input", {
    id: "opt-grace",
    type: "number",
    min: 0,
    max: 86400,
    value: 60,
    inputmode: "numeric",
  });
  const absentAfter = h("input", {
    id: "opt-absent",
    type: "number",
    min: 1,
    max: 100,
    value: 3,
    inputmode: "numeric",
  });
  const others = h("div", { id: "other-seats" });
  const rated = h("input", { id: "opt-rated", type: "checkbox" }); // 1.2, signed in only
  // 1.5: the seat to move may ask the expert; never at a rated table
  const hints = h("input", { id: "opt-hints", type: "checkbox" });
  const hintsField = speaksAnalysis(app)
    ? field(_("Hints: a player may ask the expert which card it would take"), hints)
    : null;
  // offered for three players only, as the terminal client does: a two-player table has
  // no third seat to colour
  const thirdField = field(_("Third colour"), third);
  const seatNames = (n: number) => ["white", "black", third.value].map(colourName).slice(0, n);
  const redraw = () => {
    const n = Number(players.value);
    thirdField.hidden = n !== 3;
    const keep = mySeat.value;
    replace(
      mySeat,
      seatNames(n).map((c, s) =>
        h(
          "option",
          { value: s },
          s === 0
            ? _("{colour} (seat {n}, begins)", { colour: c, n: s + 1 })
            : _("{colour} (seat {n})", { colour: c, n: s + 1 }),
        ),
      ),
    );
    mySeat.value = keep && Number(keep) < n ? keep : "0";
    const me = Number(mySeat.value);
    memory.disabled = seed.disabled = rated.checked; // a rated table: strict memory, a random deal
    if (rated.checked) ((memory.value = "strict"), (seed.value = ""));
    if (hintsField) hintsField.hidden = rated.checked;
    if (rated.checked) hints.checked = false;
    const old = new Map([...others.querySelectorAll("select")].map((s) => [s.id, s.value]));
    replace(
      others,
      seatNames(n).map((c, s) =>
        s === me
          ? null
          : field(
              _("{colour} (seat {n})", { colour: c, n: s + 1 }),
              h(
                "select",
                { id: `seat-${s}` },
                rated.checked
                  ? []
                  : levels.map((l) =>
                      h(
                        "option",
                        { value: l, selected: old.get(`seat-${s}`) === l },
                        _("a computer player, {level}", { level: levelWord(l) }),
                      ),
                    ),
                h(
                  "option",
                  { value: "", selected: old.get(`seat-${s}`) === "" },
                  _("a person (wait for them)"),
                ),
              ),
            ),
      ),
    );
  };
  players.addEventListener("change", redraw);
  third.addEventListener("change", redraw);
  mySeat.addEventListener("change", redraw);
  rated.addEventListener("change", redraw);
  const submit = (e: Event) => {
    e.preventDefault();
    const player = playerName(app);
    const c = app.client;
    if (!player || !c) return;
    const n = Number(players.value) as 2 | 3;
    const me = Number(mySeat.value);
    const bots = [];
    for (let s = 0; s < n; s++) {
      const sel = document.getElementById(`seat-${s}`) as HTMLSelectElement | null;
      if (s !== me && sel && sel.value) bots.push({ seat: s, level: sel.value });
    }
    const timing: Timing = {};
    if (move.value) timing.move = Number(move.value);
    if (move.value && Number(reserve.value)) timing.reserve = Number(reserve.value);
    if (grace.value !== "" && Number(grace.value) !== 60) timing.grace = Number(grace.value);
    if (absentAfter.value !== "" && Number(absentAfter.value) !== 3)
      timing.absent_after = Number(absentAfter.value);
    const msg: Omit<CreateTableMsg, "type" | "id"> = {
      name: tableName.value.trim() || _("{name}'s table", { name: player }),
      private: priv.checked || undefined,
      options: {
        players: n,
        recipes: recipes.checked || undefined,
        start_card:
          startCard.value === "no_player_colors" ? undefined : (startCard.value as "not_own_color"),
        memory: memory.value === "strict" ? undefined : "casual",
        third_colour: n === 3 ? (third.value as "lilac") : undefined,
        seed: seed.value === "" ? undefined : Number(seed.value),
        hints: (hints.checked && !rated.checked) || undefined,
      },
      bots,
      player,
      seat: me,
      timing: Object.keys(timing).length ? timing : undefined,
      rated: rated.checked || undefined,
    };
    app.wantReady = true;
    why.hidden = true;
    document.getElementById("way-back")?.remove();
    c.request("create_table", msg).catch((err) => refusedTable(app, err, why, buttons));
  };
  const why = h("p", { id: "create-why", class: "status", role: "alert", hidden: true });
  const buttons = h(
    "p",
    { class: "buttons" },
    h("button", { type: "submit", class: "primary", id: "create-go" }, _("Create table")),
    h("button", { type: "button", onclick: () => app.show("lobby") }, _("Back")),
  );
  replace(
    app.main,
    h(
      "section",
      { class: "form", "aria-labelledby": "create-h" },
      h("h2", { id: "create-h" }, _("New table")),
      h(
        "form",
        { onsubmit: submit },
        field(_("Your name"), name),
        field(_("Table name"), tableName),
        h(
          "fieldset",
          {},
          h("legend", {}, _("The game")),
          field(_("Players"), players),
          field(_("Recipes (variant)"), recipes),
          hintsField,
          field(_("Memory"), memory),
          field(_("Starting card"), startCard),
          thirdField,
        ),
        h("fieldset", {}, h("legend", {}, _("Seats")), field(_("Your seat"), mySeat), others),
        h(
          "fieldset",
          {},
          h("legend", {}, _("Time and privacy")),
          field(_("Seconds per move (empty: no clock)"), move),
          field(_("Reserve seconds"), reserve),
          field(_("Grace period for a lost connection (s)"), grace),
          field(_("Away after time-outs in a row"), absentAfter),
          field(_("Private (invite code)"), priv),
          me()
            ? field(
                _("Rated: the result changes the players' ratings (players only, no computer)"),
                rated,
              )
            : null,
          field(_("Seed for a reproducible deal (others are told you chose it)"), seed),
        ),
        why,
        buttons,
      ),
    ),
  );
  redraw();
}
