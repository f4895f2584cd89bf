/**
 * A past game step by step (1.2): its record asked for once (`get_record`), every
 * position after each take worked out here by the rules (`replayRecord`), the grid,
 * the kettles and the take in words, a step forward or back at a time. On a 1.5 server
 * the expert's analysis of the game is asked for on request (`analyse_game`) and shown
 * beside each take (`analysis.ts`, loaded then).
 */
import { replayRecord, type ReplayFrame } from "../lib/index";
import type { AnalysisMsg, RecordMsg } from "../lib/protocol";
import { byId, h, replace } from "./dom";
import type { PlayersHost } from "./host";
import { _, ngettext, pgettext } from "./i18n";
import { refusedWaiting } from "./refusals";
import { speaksAnalysis } from "./signin";
import { colourName, nameWords, seatLabel } from "./words";

/** The game on show: its record, the position after every take, the one shown, where
 * it was opened from, and its analysis (asked for: `analysing`; refused: `said`). */
let replay: {
  table: string;
  msg: RecordMsg;
  frames: ReplayFrame[];
  at: number;
  from: "profile" | "table";
  analysis: AnalysisMsg | null;
  analysing: boolean;
  said: string;
} | null = null;

/** The analysis's view, once loaded. */
let shown: typeof import("./analysis") | null = null;

/** Ask for the record of `table` and show it from the start (`from`: where its back
 * button goes). */
export async function openReplay(
  app: PlayersHost,
  table: string,
  from: "profile" | "table" = "profile",
): Promise<void> {
  try {
    const msg = (await app.client!.request("get_record", { table })) as RecordMsg;
    const frames = replayRecord(msg.record, app.client!.welcome.catalogue);
    replay = { table, msg, frames, at: 0, from, analysis: null, analysing: false, said: "" };
    app.show("replay");
  } catch (e) {
    app.refused(e);
  }
}

/** Ask for the game's analysis (its view loaded meanwhile), then show it. */
async function analyse(app: PlayersHost, toProfile: () => void): Promise<void> {
  const r = replay;
  if (!r || r.analysing || !app.client) return;
  r.analysing = true;
  r.said = "";
  renderReplay(app, toProfile);
  try {
    const [view, msg] = await Promise.all([
      import("./analysis"),
      app.client.request("analyse_game", { table: r.table }),
    ]);
    shown = view;
    r.analysis = msg as AnalysisMsg;
  } catch (e) {
    r.said = analysisRefused(e);
  }
  r.analysing = false;
  if (replay === r && app.screen === "replay") {
    renderReplay(app, toProfile);
    document.getElementById(r.analysis ? "verdict" : "analyse-said")?.focus();
  }
}

/** A refused analysis in words: when to try again, or why not. */
const analysisRefused = (e: unknown): string =>
  refusedWaiting(e, (s) =>
    s >= 120
      ? ngettext(
          "Too many analyses asked for: try again in {n} minute.",
          "Too many analyses asked for: try again in {n} minutes.",
          Math.ceil(s / 60),
        )
      : ngettext(
          "Too many analyses asked for: try again in {n} second.",
          "Too many analyses asked for: try again in {n} seconds.",
          s,
        ),
  );

export function renderReplay(app: PlayersHost, toProfile: () => void): void {
  const r = replay;
  if (!r || !app.cards) return;
  const back = r.from === "table" ? () => app.show("table") : toProfile;
  const analysis = r.analysis && shown ? { a: r.analysis, view: shown } : null;
  const expert = analysis ? analysis.view.expertCard(analysis.a, r.at) : null;
  const cards = app.cards;
  const f = r.frames[r.at];
  const last = r.frames.length - 1;
  const colours = ["white", "black", r.msg.record.options.third_colour ?? "lilac"];
  const who = (s: number) => seatLabel(colours, s, r.msg.names);
  const go = (at: number) => () => {
    r.at = Math.max(0, Math.min(last, at));
    renderReplay(app, toProfile);
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
    const best = id === expert;
    return h(
      "td",
      { class: `rcell c-${cards.colour(id)}${taken ? " taken" : ""}${best ? " best" : ""}` },
      cards.words(id),
      taken ? h("span", { class: "sr-only" }, ` ${_("(just refilled here)")}`) : null,
      best
        ? h(
            "span",
            { class: "best-tag", "aria-hidden": "true" },
            pgettext("at most 7 letters", "expert"),
          )
        : null,
      best ? h("span", { class: "sr-only" }, ` ${_("(the expert's card)")}`) : null,
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
    analysis ? analysis.view.verdictLine(analysis.a, r.at, cards) : null,
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
    analysisPart(app, r, last, analysis, toProfile, go, who),
    h(
      "p",
      { class: "buttons" },
      h(
        "button",
        { id: "replay-leave", onclick: back },
        r.from === "table" ? _("Back to the table") : _("Back to the profile"),
      ),
    ),
  );
  section.addEventListener("keydown", onKey);
  replace(app.main, section);
}

/** The analysis beside the step shown; before it, the button that asks for it (on a
 * server that makes analyses), the wait, or why it was refused. */
function analysisPart(
  app: PlayersHost,
  r: NonNullable<typeof replay>,
  last: number,
  analysis: { a: AnalysisMsg; view: typeof import("./analysis") } | null,
  toProfile: () => void,
  go: (at: number) => () => void,
  who: (seat: number) => string,
): HTMLElement | null {
  if (analysis) return analysis.view.analysisView(analysis.a, r.at, last, who, (at) => go(at)());
  if (!speaksAnalysis(app)) return null;
  return h(
    "div",
    { class: "analyse" },
    h(
      "p",
      { class: "buttons" },
      h(
        "button",
        {
          id: "analyse",
          class: "primary",
          disabled: r.analysing,
          "aria-describedby": "analyse-said",
          onclick: () => void analyse(app, toProfile),
        },
        r.analysing ? _("Analysing\u2026") : _("Analyse"),
      ),
    ),
    h(
      "p",
      { id: "analyse-said", class: r.said ? "refusal" : "muted", role: "status", tabindex: -1 },
      r.analysing
        ? _(
            "The expert is weighing every take from what its player knew then: the first time takes a few seconds.",
          )
        : r.said || _("The expert says what each take cost and which card it would have taken."),
    ),
  );
}
