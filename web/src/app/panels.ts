/**
 * The panels of the table screen under the question: the players (each kettle's top
 * card and count, one's own kettle by ingredient, clocks, presence, recipes), the moves
 * since this seat's last decision, and the log by the memory rule.
 */
import type { GameView, SeatInfo } from "../lib/protocol";
import { h } from "./dom";
import type { PanelsHost } from "./host";
import { Cards, cap, pawnTag, seatName, seatStatus } from "./words";

export function seatPanel(
  app: PanelsHost,
  v: GameView,
  cards: Cards,
  seats: SeatInfo[],
): HTMLElement {
  const items = v.kettles.map((k) => {
    const info = seats[k.seat];
    const moving = v.to_move === k.seat && !v.game_over;
    const own =
      k.cards && !v.game_over && k.seat === app.t.seat ? byIngredient(k.cards, cards) : null;
    const recipes = v.options.recipes ? v.recipes[k.seat] : null; // none without the variant
    return h(
      "li",
      { class: `seat${moving ? " moving" : ""}` },
      h("span", { class: `tag c-${k.colour}` }, pawnTag(k.colour), " ", cap(k.colour)),
      " ",
      h("strong", {}, seatName(info), k.seat === app.t.seat ? " (you)" : ""),
      moving ? h("span", { class: "tag to-move" }, "to move") : null,
      h("span", { class: "status" }, seatStatus(info)),
      info?.rematch ? h("span", { class: "tag" }, "wants a rematch") : null,
      h(
        "p",
        { class: "kettle" },
        "Kettle: ",
        k.top ? h("span", { class: `chip c-${cards.colour(k.top)}` }, cards.words(k.top)) : "empty",
        ` on top, ${k.count} card${k.count === 1 ? "" : "s"}`,
      ),
      own ? h("p", { class: "own" }, `In your kettle: ${own}`) : null,
      v.clock ? h("p", { class: "clock", "data-clock": k.seat }, app.clockText(k.seat)) : null,
      recipes
        ? h(
            "p",
            { class: "recipes" },
            "Recipes: ",
            recipes.length ? recipes.map((r) => cards.recipe(r)).join("; ") : "none",
          )
        : v.recipe_counts[k.seat]
          ? h(
              "p",
              { class: "recipes" },
              `${v.recipe_counts[k.seat]} recipe card${v.recipe_counts[k.seat] === 1 ? "" : "s"}, hidden`,
            )
          : null,
    );
  });
  const watching = app.presence?.spectators ?? 0;
  return h(
    "section",
    { class: "seats", "aria-labelledby": "seats-h" },
    h("h2", { id: "seats-h" }, "Players"),
    h("ul", {}, items),
    watching
      ? h(
          "p",
          { class: "watching" },
          `${watching} ${watching === 1 ? "person" : "people"} watching`,
        )
      : null,
  );
}

/** One's own kettle by ingredient, as the scores count it: "Rat tail (gray) 3; Toad
 * (brown) 2+4" (its colour, which may count double, and the value of each card). */
function byIngredient(ids: string[], cards: Cards): string {
  const groups = new Map<string, { colour: string; values: number[] }>();
  for (const id of ids) {
    const key = cards.info(id)?.ingredient ?? id;
    const group = groups.get(key) ?? { colour: cards.colour(id), values: [] };
    group.values.push(cards.value(id));
    groups.set(key, group);
  }
  return [...groups]
    .map(([ing, g]) => `${cards.ingredientName(ing)} (${g.colour}) ${g.values.sort().join("+")}`)
    .join("; ");
}

export function since(app: PanelsHost): HTMLElement | null {
  if (app.t.seat === null) return null;
  const entries = app.sinceLastDecision();
  return h(
    "section",
    { class: "since", "aria-labelledby": "since-h" },
    h("h2", { id: "since-h" }, "Since your last decision"),
    entries.length
      ? h(
          "ol",
          {},
          entries.map((e) => h("li", {}, e.text)),
        )
      : h("p", { class: "muted" }, "Nothing yet."),
  );
}

export function logPanel(app: PanelsHost, v: GameView): HTMLElement {
  const entries = app.visibleLog();
  const casual = (v.options.memory ?? "strict") === "casual" && app.t.seat !== null;
  const rule = casual
    ? "the whole game (casual memory)"
    : app.t.seat === null
      ? "what the player to move may see"
      : "what happened since your last decision (strict memory: remembering is the game)";
  const list = h(
    "ol",
    { class: "log-lines", tabindex: 0, "aria-label": "Log entries" },
    entries.map((e) => h("li", { class: e.kind }, e.text)),
  );
  const box = h(
    "section",
    { class: "log", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, "Log"),
    h("p", { class: "muted" }, `Shows ${rule}.`),
    list,
  );
  requestAnimationFrame(() => {
    const shown = app.main.querySelector(".log-lines"); // the kept list, or this new one
    if (shown) shown.scrollTop = shown.scrollHeight;
  });
  return box;
}
