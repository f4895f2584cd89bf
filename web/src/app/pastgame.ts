/**
 * A past game step by step (1.2): its record asked for once (`get_record`), every
 * position after each take worked out here by the rules (`replayRecord`), the grid,
 * the kettles and the take in words, a step forward or back at a time.
 */
import { replayRecord, type ReplayFrame } from "../lib/index";
import type { RecordMsg } from "../lib/protocol";
import { byId, h, replace } from "./dom";
import type { PlayersHost } from "./host";
import { _, ngettext, pgettext } from "./i18n";
import { colourName, nameWords, seatLabel } from "./words";

/** The game on show: its record, the position after every take, the one shown. */
let replay: { msg: RecordMsg; frames: ReplayFrame[]; at: number } | null = null;

/** Ask for the record of `table` and show it from the start. */
export async function openReplay(app: PlayersHost, table: string): Promise<void> {
  try {
    const msg = (await app.client!.request("get_record", { table })) as RecordMsg;
    replay = { msg, frames: replayRecord(msg.record, app.client!.welcome.catalogue), at: 0 };
    app.show("replay");
  } catch (e) {
    app.refused(e);
  }
}

export function renderReplay(app: PlayersHost, back: () => void): void {
  const r = replay;
  if (!r || !app.cards) return;
  const cards = app.cards;
  const f = r.frames[r.at];
  const last = r.frames.length - 1;
  const colours = ["white", "black", r.msg.record.options.third_colour ?? "lilac"];
  const who = (s: number) => seatLabel(colours, s, r.msg.names);
  const go = (at: number) => () => {
    r.at = Math.max(0, Math.min(last, at));
    renderReplay(app, back);
    byId("replay-step").focus();
  };
  const took = f.took;
  const fields = took && {
    at: r.at,
    last,
    who: who(took.seat),
    card: cards.words(took.card),
    row: took.row,
    col: took.col,
  };
  const step = fields
    ? (took.keep
        ? _("Take {at} of {last}: {who} took {card} (row {row}, column {col})", fields)
        : _(
            "Take {at} of {last}: {who} took {card} (row {row}, column {col}) and discarded it",
            fields,
          )) +
      f.exploded
        .map(
          ([t, c]) =>
            `; ${_("{who} lost {card} to the boom", { who: who(t), card: cards.words(c) })}`,
        )
        .join("")
    : _("The start, before take 1 of {last}", { last });
  const cell = (id: string | null, rr: number, cc: number) => {
    const taken = f.took && f.took.row === rr && f.took.col === cc;
    if (!id)
      return h(
        "td",
        { class: taken ? "rcell taken" : "rcell empty" },
        taken ? pgettext("at most 7 letters", "taken") : "",
      );
    return h(
      "td",
      { class: `rcell c-${cards.colour(id)}${taken ? " taken" : ""}` },
      cards.words(id),
      taken ? h("span", { class: "sr-only" }, ` ${_("(just refilled here)")}`) : null,
    );
  };
  const onKey = (e: KeyboardEvent) => {
    const to = { ArrowRight: r.at + 1, ArrowLeft: r.at - 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to)();
  };
  const section = h(
    "section",
    { class: "players replay", "aria-labelledby": "replay-h" },
    h("h2", { id: "replay-h" }, _("Replay: {table}", { table: r.msg.name })),
    h(
      "p",
      { class: "terms" },
      r.msg.names.map((n, s) => `${colourName(colours[s])}: ${n ? nameWords(n) : "-"}`).join(" · "),
      r.msg.rated ? ` · ${_("rated")}` : "",
    ),
    h("p", { id: "replay-step", tabindex: -1, "aria-live": "polite" }, step),
    h(
      "p",
      { class: "buttons" },
      h("button", { id: "replay-start", onclick: go(0), disabled: r.at === 0 }, _("Start")),
      h("button", { id: "replay-back", onclick: go(r.at - 1), disabled: r.at === 0 }, _("Back")),
      h(
        "button",
        { id: "replay-next", class: "primary", onclick: go(r.at + 1), disabled: r.at === last },
        _("Next take"),
      ),
      h("button", { id: "replay-end", onclick: go(last), disabled: r.at === last }, _("End")),
    ),
    h(
      "table",
      { class: "replay-grid" },
      h("caption", { class: "sr-only" }, _("The grid after this take")),
      h(
        "tbody",
        {},
        f.grid.map((row, rr) =>
          h(
            "tr",
            {},
            row.map((id, cc) => cell(id, rr, cc)),
          ),
        ),
      ),
    ),
    h(
      "ul",
      { class: "seat-list", "aria-label": _("Kettles") },
      f.kettles.map((k, s) =>
        h(
          "li",
          {},
          h("strong", {}, who(s)),
          ": ",
          ngettext("{n} card, top {card}", "{n} cards, top {card}", k.length, {
            card: k.length ? cards.words(k[k.length - 1]) : _("none"),
          }),
          f.toMove === s ? h("span", { class: "tag to-move" }, _("to move")) : null,
        ),
      ),
    ),
    h(
      "p",
      { class: "muted" },
      ngettext("Deck: {n} card", "Deck: {n} cards", f.deck),
      f.over ? ` · ${_("the game is over")}` : "",
      `. ${_("Keys: Left/Right a take, Home/End.")}`,
    ),
    h("p", { class: "buttons" }, h("button", { onclick: back }, _("Back to the profile"))),
  );
  section.addEventListener("keydown", onKey);
  replace(app.main, section);
}
