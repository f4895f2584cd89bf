/**
 * The expert's analysis of a past game beside its replay (1.5's `analysis`): the take
 * shown with its mark and what it cost in expected final points, the expert's card
 * named (and marked on the replay's grid), each seat's summary with its best and
 * costliest decision, and each seat's expected final margin over the game as a small
 * inline SVG graph. A module of its own, loaded when a replay is first analysed.
 */
import type { AnalysisMsg, DecisionInfo, SeatAnalysis } from "../lib/protocol";
import { h } from "./dom";
import { N_, _, list, ngettext, num } from "./i18n";
import type { Cards } from "./words";

/** A decision's mark in words. */
const MARK_WORDS: Record<string, string> = {
  inaccuracy: N_("an inaccuracy"),
  mistake: N_("a mistake"),
  blunder: N_("a blunder"),
};

const points = (x: number): string => num(x, { maximumFractionDigits: 1 });

/** The decision that led to replay step `at` (step 0 is the start: none). */
export function decisionAt(a: AnalysisMsg, at: number): DecisionInfo | null {
  return a.decisions?.find((d) => d.ply === at - 1) ?? null;
}

/** The expert's card at step `at`, when it was not the card taken (to mark on the grid). */
export function expertCard(a: AnalysisMsg, at: number): string | null {
  const d = decisionAt(a, at);
  return d && d.best.take !== d.take.take ? d.best.take : null;
}

/** A decision in words: the expert's choice, or what it cost, its mark and the better card. */
export function verdict(d: DecisionInfo, cards: Cards): string {
  const same =
    d.best.take === d.take.take &&
    (d.best.special ?? true) === (d.take.special ?? true) &&
    (d.best.keep ?? true) === (d.take.keep ?? true);
  if (d.loss <= 0 || same) return _("Expert: the best take.");
  const said = { loss: points(d.loss), card: cards.words(d.best.take) };
  if (!d.mark) return _("Expert: {loss} points lost; better {card}.", said);
  return _("Expert: {mark}, {loss} points lost; better {card}.", {
    mark: _(MARK_WORDS[d.mark]),
    ...said,
  });
}

/** What the expert thinks of the take that led to step `at`, in a line of its own. */
export function verdictLine(a: AnalysisMsg, at: number, cards: Cards): HTMLElement {
  const d = decisionAt(a, at);
  return h(
    "p",
    { id: "verdict", class: "verdict", tabindex: -1, "aria-live": "polite" },
    d ? verdict(d, cards) : _("Step to a take to see what the expert thinks of it."),
  );
}

/** The marks' thresholds, each seat's summary and the graph. */
export function analysisView(
  a: AnalysisMsg,
  at: number,
  last: number,
  who: (seat: number) => string,
  go: (at: number) => void,
): HTMLElement {
  const t = a.thresholds;
  return h(
    "section",
    { id: "analysis", class: "analysis", "aria-labelledby": "analysis-h" },
    h("h3", { id: "analysis-h" }, _("The expert's analysis")),
    h(
      "p",
      { class: "muted" },
      _(
        "Marks by expected final points lost: an inaccuracy from {inaccuracy}, a mistake from {mistake}, a blunder from {blunder}.",
        {
          inaccuracy: points(t.inaccuracy),
          mistake: points(t.mistake),
          blunder: points(t.blunder),
        },
      ),
    ),
    h(
      "ul",
      { class: "seat-summary", "aria-label": _("Each seat's decisions") },
      (a.seats ?? []).map((s) => seatSummary(s, who, go)),
    ),
    graph(a, at, last, who),
  );
}

function seatSummary(
  s: SeatAnalysis,
  who: (seat: number) => string,
  go: (at: number) => void,
): HTMLElement {
  const marks = list([
    ngettext("{n} blunder", "{n} blunders", s.blunders ?? 0),
    ngettext("{n} mistake", "{n} mistakes", s.mistakes ?? 0),
    ngettext("{n} inaccuracy", "{n} inaccuracies", s.inaccuracies ?? 0),
  ]);
  const jump = (ply: number | null | undefined, words: string, key: string) =>
    ply == null
      ? null
      : h(
          "button",
          { class: "link", "data-key": `${key}-${s.seat}`, onclick: () => go(ply + 1) },
          _(words, { n: ply + 1 }),
        );
  return h(
    "li",
    { "data-seat": s.seat },
    _("{who}: {lost} points lost by the expert's measure; {marks}", {
      who: who(s.seat),
      lost: points(s.lost),
      marks,
    }),
    " ",
    jump(s.best, N_("best decision: take {n}"), "best"),
    " ",
    jump(s.worst, N_("costliest decision: take {n}"), "worst"),
  );
}

const W = 320;
const H = 120;
const PAD = 6;
/** Each seat's line: its colour and dashes (told apart without colour too). */
const LINES = [
  ["#2b6cb0", ""],
  ["#c05621", "6 3"],
  ["#2f855a", "2 3"],
];
const SVG = "http://www.w3.org/2000/svg";

function svg(tag: string, attrs: Record<string, string | number>, ...children: Element[]) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== "") e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** A seat's line as the graph draws it (`points`), or as the legend's key. */
const seatLine = (seat: number, points: string) =>
  svg("polyline", {
    points,
    stroke: LINES[seat % 3][0],
    "stroke-dasharray": LINES[seat % 3][1],
    "stroke-width": 2,
    class: `g-s${seat}`,
  });

/** Each seat's expected final margin after each of its decisions, and the step shown. */
function graph(a: AnalysisMsg, at: number, last: number, who: (seat: number) => string) {
  const seats = (a.seats ?? []).filter((s) => s.series?.length);
  const values = seats.flatMap((s) => s.series!.map(([, v]) => v)).concat([0]);
  const lo = Math.min(...values);
  const hi = Math.max(...values, lo + 1);
  const x = (ply: number) => PAD + ((W - 2 * PAD) * (ply + 1)) / Math.max(1, last);
  const y = (v: number) => PAD + ((H - 2 * PAD) * (hi - v)) / (hi - lo);
  const rule = (x1: number, y1: number, x2: number, y2: number, dashes = "") =>
    svg("line", { x1, y1, x2, y2, stroke: "currentColor", "stroke-dasharray": dashes });
  const chart = svg(
    "svg",
    {
      viewBox: `0 0 ${W} ${H}`,
      class: "margin-graph",
      role: "img",
      "aria-labelledby": "graph-caption",
    },
    rule(PAD, y(0), W - PAD, y(0)),
    rule(x(at - 1), PAD, x(at - 1), H - PAD, "3 3"),
    ...seats.map((s) =>
      seatLine(
        s.seat,
        s.series!.map(([p, v]) => `${x(p).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      ),
    ),
  );
  return h(
    "figure",
    { class: "graph" },
    chart,
    h(
      "figcaption",
      { id: "graph-caption" },
      _("Each seat's expected final margin over the game (above the line: ahead)."),
      h(
        "ul",
        { class: "legend" },
        seats.map((s) =>
          h(
            "li",
            {},
            svg(
              "svg",
              { viewBox: "0 0 32 6", width: 32, height: 6, "aria-hidden": "true" },
              seatLine(s.seat, "0,3 32,3"),
            ),
            " ",
            _("{who}: ended {margin}", { who: who(s.seat), margin: points(s.final ?? 0) }),
          ),
        ),
      ),
    ),
  );
}
