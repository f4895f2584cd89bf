/**
 * The panels of the table screen under the question: the players (each kettle's top
 * card and count, one's own kettle by ingredient, clocks, presence, recipes), the moves
 * since this seat's last decision, and the log by the memory rule.
 */
import type { GameView, SeatInfo } from "../lib/protocol";
import { h } from "./dom";
import type { PanelsHost } from "./host";
import { _, colour, ngettext } from "./i18n";
import { Cards, colourName, pawnTag, seatName, seatStatus } from "./words";

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
      h("span", { class: `tag c-${k.colour}` }, pawnTag(k.colour), " ", colourName(k.colour)),
      " ",
      h(
        "strong",
        {},
        k.seat === app.t.seat ? _("{name} (you)", { name: seatName(info) }) : seatName(info),
      ),
      moving ? h("span", { class: "tag to-move" }, _("to move")) : null,
      h("span", { class: "status" }, seatStatus(info)),
      info?.rematch ? h("span", { class: "tag" }, _("wants a rematch")) : null,
      h(
        "p",
        { class: "kettle" },
        _("Kettle:"),
        " ",
        k.top
          ? h("span", { class: `chip c-${cards.colour(k.top)}` }, cards.words(k.top))
          : _("empty"),
        " ",
        ngettext("on top, {n} card", "on top, {n} cards", k.count),
      ),
      own ? h("p", { class: "own" }, _("In your kettle: {cards}", { cards: own })) : null,
      v.clock ? h("p", { class: "clock", "data-clock": k.seat }, app.clockText(k.seat)) : null,
      recipes
        ? h(
            "p",
            { class: "recipes" },
            _("Recipes:"),
            " ",
            recipes.length ? recipes.map((r) => cards.recipe(r)).join("; ") : _("none"),
          )
        : v.recipe_counts[k.seat]
          ? h(
              "p",
              { class: "recipes" },
              ngettext(
                "{n} recipe card, hidden",
                "{n} recipe cards, hidden",
                v.recipe_counts[k.seat],
              ),
            )
          : null,
    );
  });
  const watching = app.presence?.spectators ?? 0;
  return h(
    "section",
    { class: "seats", "aria-labelledby": "seats-h" },
    h("h2", { id: "seats-h" }, _("Players")),
    h("ul", {}, items),
    watching
      ? h(
          "p",
          { class: "watching" },
          ngettext("{n} person watching", "{n} people watching", watching),
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
    .map(([ing, g]) =>
      _("{name} ({colour}) {values}", {
        name: cards.ingredientName(ing),
        colour: colour(g.colour),
        values: g.values.sort().join("+"),
      }),
    )
    .join("; ");
}

export function since(app: PanelsHost): HTMLElement | null {
  if (app.t.seat === null) return null;
  const entries = app.sinceLastDecision();
  return h(
    "section",
    { class: "since", "aria-labelledby": "since-h" },
    h("h2", { id: "since-h" }, _("Since your last decision")),
    entries.length
      ? h(
          "ol",
          {},
          entries.map((e) => h("li", {}, e.text)),
        )
      : h("p", { class: "muted" }, _("Nothing yet.")),
  );
}

export function logPanel(app: PanelsHost, v: GameView): HTMLElement {
  const entries = app.visibleLog();
  const casual = (v.options.memory ?? "strict") === "casual" && app.t.seat !== null;
  const rule = casual
    ? _("Shows the whole game (casual memory).")
    : app.t.seat === null
      ? _("Shows what the player to move may see.")
      : _("Shows what happened since your last decision (strict memory: remembering is the game).");
  const list = h(
    "ol",
    { class: "log-lines", tabindex: 0, "aria-label": _("Log entries") },
    entries.map((e) => h("li", { class: e.kind }, e.text)),
  );
  const box = h(
    "section",
    { class: "log", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, _("Log")),
    h("p", { class: "muted" }, rule),
    list,
  );
  requestAnimationFrame(() => {
    const shown = app.main.querySelector(".log-lines"); // the kept list, or this new one
    if (shown) shown.scrollTop = shown.scrollHeight;
  });
  return box;
}
