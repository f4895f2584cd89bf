/**
 * The end of a game on the table screen: how it ended, the places, the score of every
 * ingredient and recipe, and the rematch.
 */
import type { GameView, Score } from "../lib/protocol";
import { h } from "./dom";
import type { EndingHost } from "./host";
import { Cards, endingWords, ordinal } from "./words";

export function ending(app: EndingHost, v: GameView, cards: Cards): HTMLElement {
  const result = v.result;
  const seats = app.presence?.seats ?? [];
  const me = app.t.seat !== null ? seats[app.t.seat] : undefined;
  const places = result
    ? [...result.places.keys()]
        .sort((a, b) => result.places[a] - result.places[b])
        .map((s) =>
          h("li", {}, `${ordinal(result.places[s])}: ${app.who(s)}, ${result.totals[s]} points`),
        )
    : [];
  const people = seats.filter((s) => s.name && !s.bot);
  const asked = people.filter((s) => s.rematch).length;
  return h(
    "section",
    { id: "question", class: "question ending", "aria-labelledby": "end-h" },
    h("h2", { id: "end-h", tabindex: -1 }, "Game over"),
    h(
      "p",
      { id: "result-words", class: "result" },
      result
        ? endingWords(result, (s) => app.who(s))
        : v.winners.map((s) => app.who(s)).join(" and ") + " won.",
    ),
    places.length ? h("ol", { class: "places", "aria-label": "Places" }, places) : null,
    v.scores ? scoreTable(app, v.scores, cards) : null,
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
            me?.rematch ? "Rematch asked (press to withdraw)" : "Rematch",
          ),
          asked
            ? h("span", { class: "muted" }, ` ${asked} of ${people.length} asked for a rematch.`)
            : null,
        )
      : null,
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
            `${cards.ingredientName(i.ingredient)} (${i.colour}) ${i.cards.map((c) => cards.value(c)).join("+")}${i.doubled ? " x2" : ""}${i.bonus ? ` +${i.bonus}` : ""} = ${i.total}`,
          ),
        ),
        s.value_one_bonus ? h("span", { class: "chip" }, `most 1s +${s.value_one_bonus}`) : null,
        s.recipes.map((r) =>
          h(
            "span",
            { class: "chip" },
            `${cards.recipe(r.id)}: ${r.met ? `met +${r.bonus}` : "not met"}`,
          ),
        ),
      ),
      h("td", { class: "total" }, s.total),
    ),
  );
  return h(
    "table",
    { class: "scores" },
    h("caption", {}, "Scores"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col" }, "Kettle"),
        h("th", { scope: "col" }, "Total"),
      ),
    ),
    h("tbody", {}, rows),
  );
}
