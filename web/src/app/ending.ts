/**
 * The end of a game on the table screen: how it ended, the places (with how the game
 * ended for each seat: resigned, timed out, a computer's takes for it; on a rated table
 * each seat's rating change), why a seat with more points can place lower, the score of
 * every ingredient and recipe, and the rematch.
 */
import type { GameView, ResultInfo, Score, SeatInfo } from "../lib/protocol";
import { h } from "./dom";
import type { EndingHost } from "./host";
import { _, colour, list, ngettext, num, ordinal } from "./i18n";
import { speaksPlayers } from "./signin";
import { Cards, endingWords } from "./words";

export function ending(app: EndingHost, v: GameView, cards: Cards): HTMLElement {
  const result = v.result;
  const seats = app.presence?.seats ?? [];
  const me = app.t.seat !== null ? seats[app.t.seat] : undefined;
  const places = result
    ? [...result.places.keys()]
        .sort((a, b) => result.places[a] - result.places[b])
        .map((s) => {
          const how = seatEnded(result, s, seats[s]);
          const rating = ratingWords(seats[s]);
          return h(
            "li",
            { "data-seat": s },
            _("{place}: {who}, {points}", {
              place: ordinal(result.places[s]),
              who: app.who(s),
              points: points(result.totals[s]),
            }),
            how ? h("span", { class: "how" }, ` (${how})`) : null,
            rating ? h("span", { class: "rating" }, `; ${rating}`) : null,
          );
        })
    : [];
  const people = seats.filter((s) => s.name && !s.bot);
  const asked = people.filter((s) => s.rematch).length;
  return h(
    "section",
    { id: "question", class: "question ending", "aria-labelledby": "end-h" },
    h("h2", { id: "end-h", tabindex: -1 }, _("Game over")),
    h(
      "p",
      { id: "result-words", class: "result" },
      result
        ? endingWords(result, (s) => app.who(s))
        : _("{who} won.", { who: list(v.winners.map((s) => app.who(s))) }),
    ),
    places.length ? h("ol", { class: "places", "aria-label": _("Places") }, places) : null,
    result && placedBelow(result)
      ? h(
          "p",
          { id: "places-why", class: "muted" },
          _(
            "Who resigned, timed out or lost to a claim places after the others, whatever the points.",
          ),
        )
      : null,
    v.scores ? scoreTable(app, v.scores, cards) : null,
    review(app),
    app.t.seat !== null
      ? h(
          "p",
          { class: "buttons" },
          h(
            "button",
            {
              id: "rematch",
              class: me?.rematch ? "" : "primary",
              "data-key": "rematch",
              "aria-pressed": me?.rematch ? "true" : "false",
              onclick: () => app.rematch(!me?.rematch),
            },
            me?.rematch ? _("Rematch asked (press to withdraw)") : _("Rematch"),
          ),
          asked
            ? h(
                "span",
                { class: "muted" },
                ` ${_("{asked} of {n} asked for a rematch.", { asked, n: people.length })}`,
              )
            : null,
        )
      : null,
  );
}

/** The game's replay, with its analysis on request (1.2: the server keeps records). */
function review(app: EndingHost): HTMLElement | null {
  const table = app.here?.table;
  if (!table || !speaksPlayers(app)) return null;
  const open = () => void import("./pastgame").then((m) => m.openReplay(app, table, "table"));
  return h(
    "p",
    { class: "buttons" },
    h("button", { id: "review", "data-key": "review", onclick: open }, _("Replay and analyse")),
  );
}

function scoreTable(app: EndingHost, scores: Score[], cards: Cards): HTMLElement {
  const rows = scores.map((s) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, app.who(s.seat)),
      h(
        "td",
        {},
        s.ingredients.map((i) =>
          h(
            "span",
            { class: `chip c-${i.colour}` },
            `${_("{name} ({colour}) {values}", {
              name: cards.ingredientName(i.ingredient),
              colour: colour(i.colour),
              values: i.cards.map((c) => cards.value(c)).join("+"),
            })}${i.doubled ? " x2" : ""}${i.bonus ? ` +${i.bonus}` : ""} = ${i.total}`,
          ),
        ),
        s.value_one_bonus
          ? h("span", { class: "chip" }, _("most 1s +{n}", { n: s.value_one_bonus }))
          : null,
        s.recipes.map((r) =>
          h(
            "span",
            { class: "chip" },
            r.met
              ? _("{recipe}: met +{bonus}", { recipe: cards.recipe(r.id), bonus: r.bonus })
              : _("{recipe}: not met", { recipe: cards.recipe(r.id) }),
          ),
        ),
      ),
      h("td", { class: "total" }, s.total),
    ),
  );
  return h(
    "table",
    { class: "scores" },
    h("caption", {}, _("Scores")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, _("Player")),
        h("th", { scope: "col" }, _("Kettle")),
        h("th", { scope: "col" }, _("Total")),
      ),
    ),
    h("tbody", {}, rows),
  );
}

const points = (n: number): string => ngettext("{n} point", "{n} points", n);

/** How the game ended for `seat`, in a few words ("" when it played on to the end by
 * itself): 1.4's `ended` and `computer_takes`, else what the result says. */
function seatEnded(result: ResultInfo, seat: number, info: SeatInfo | undefined): string {
  if (info?.bot) return "";
  const ended =
    info?.ended ??
    (result.resigned?.includes(seat)
      ? "resigned"
      : result.timed_out?.includes(seat)
        ? "timed_out"
        : result.claimed_by === seat
          ? "claimed"
          : result.ending === "claimed"
            ? "lost_claim"
            : null);
  const said: Record<string, string> = {
    resigned: _("resigned"),
    timed_out: _("timed out: a computer took the seat over"),
    claimed: _("claimed the win"),
    lost_claim: _("away when the win was claimed"),
  };
  const parts = ended && said[ended] ? [said[ended]] : [];
  const n = info?.computer_takes ?? 0;
  if (n)
    parts.push(ngettext("a computer made {n} of its takes", "a computer made {n} of its takes", n));
  else if (info?.computer_takes === undefined && result.replaced?.includes(seat))
    parts.push(_("a computer played for it"));
  return parts.join("; ");
}

/** A seat's rating change on a rated table (1.4): "rating 12.3, up 1.8". */
function ratingWords(info: SeatInfo | undefined): string {
  const after = info?.rating_after;
  if (after == null) return "";
  const before = info?.rating_before;
  const one = (x: number) => num(x, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (before == null) return _("rating {after} (a first rated game)", { after: one(after) });
  const d = after - before;
  const fields = { before: one(before), after: one(after), d: one(Math.abs(d)) };
  return Math.abs(d) < 0.05
    ? _("rating {before} to {after}, unchanged", fields)
    : d > 0
      ? _("rating {before} to {after}, up {d}", fields)
      : _("rating {before} to {after}, down {d}", fields);
}

/** The places need a word of why: a seat placed after one with fewer points, or a game
 * of three played out after a seat resigned or timed out (it placed last by that). */
function placedBelow(result: ResultInfo): boolean {
  const seats = [...result.places.keys()];
  const gone = (result.resigned?.length ?? 0) + (result.timed_out?.length ?? 0);
  return (
    (gone > 0 && seats.length === 3 && result.ending === "played_out") ||
    seats.some((a) =>
      seats.some((b) => result.places[a] > result.places[b] && result.totals[a] > result.totals[b]),
    )
  );
}
