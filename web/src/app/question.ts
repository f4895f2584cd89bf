/**
 * The question of a turn on the table screen (from the server's `takes`): choose a card,
 * then what to do with it (use or decline a wand or an explosion, whom to explode, keep
 * or discard the last card), with where the pawn lands next turn; or why there is no
 * question (not this seat's turn, watching, resigned, a computer plays the seat).
 */
import { lineOf, walk } from "../lib/geometry";
import type { GameView, TakeOption } from "../lib/protocol";
import { answer } from "./actions";
import { h } from "./dom";
import { hintPart } from "./hint";
import { _, list, pgettext } from "./i18n";
import type { TurnHost } from "./host";
import { Cards, lineWords } from "./words";

function describe(app: TurnHost, v: GameView, cards: Cards, o: TakeOption): string {
  const choice = v.choices.find((c) => c.card === o.card);
  const parts: string[] = [];
  if (choice?.symbol === "explode" || (cards.symbol(o.card) === "explode" && o.special !== false)) {
    if (o.special === false) parts.push(_("do not explode"));
    else {
      const targets = o.targets ?? v.explodable;
      const hit = targets.map((s) => {
        const top = v.kettles[s]?.top;
        const who = app.who(s);
        return top ? _("{who} (loses {card})", { who, card: cards.words(top) }) : who;
      });
      parts.push(hit.length ? _("explode {who}", { who: list(hit) }) : _("explode nobody"));
    }
  } else if (choice?.symbol === "wand")
    parts.push(o.special === false ? _("decline the wand") : _("use the wand: play again at once"));
  if (choice?.ends_game)
    parts.push(
      o.keep === false ? _("discard it, and the game ends") : _("keep it, and the game ends"),
    );
  const card = cards.words(o.card);
  return parts.length
    ? _("Take {card}: {what}", { card, what: parts.join(", ") })
    : _("Take {card}", { card });
}

export function question(app: TurnHost, v: GameView, cards: Cards): HTMLElement {
  const t = app.t;
  const me = t.seat !== null ? app.presence?.seats[t.seat] : undefined;
  if (me?.computer && me.connected && !me.resigned) {
    return h(
      "section",
      { id: "question", class: "question mine", "aria-labelledby": "q-h" },
      h("h2", { id: "q-h" }, _("A computer plays your seat")),
      h("p", {}, _("Your time ran out move after move, so a computer player took over.")),
      h(
        "p",
        {},
        h(
          "button",
          { class: "primary", "data-key": "back-q", onclick: () => answer(app, "back") },
          _("Take my seat back"),
        ),
      ),
    );
  }
  if (me?.resigned) {
    // three players: the game goes on without this person, who has no move to wait for
    return h(
      "section",
      { id: "question", class: "question", "aria-labelledby": "q-h" },
      h("h2", { id: "q-h" }, _("You resigned")),
      h(
        "p",
        {},
        _(
          "A computer plays your seat to the end; you place last. You may watch on, or go back to the lobby.",
        ),
      ),
    );
  }
  if (!app.isMyTurn()) {
    const text =
      t.seat === null
        ? _("You are watching this game.")
        : v.to_move != null
          ? _("Waiting for {who}.", { who: app.who(v.to_move) })
          : _("Waiting.");
    // not "Your move" over "Waiting for Bea": the heading says whose turn it is not
    const title = t.seat === null ? _("Watching") : _("Not your turn");
    return h(
      "section",
      { id: "question", class: "question", "aria-labelledby": "q-h" },
      h("h2", { id: "q-h" }, title),
      h("p", {}, text),
    );
  }
  const options = (v.takes ?? []).filter((o) => o.card === t.selected);
  const body: (HTMLElement | null)[] = [];
  if (t.selected && options.length) {
    const seat = t.seat!;
    const value = cards.value(t.selected);
    const [dest] = walk(
      v.pawns[seat],
      value,
      v.pawns.filter((_, i) => i !== seat),
    );
    const where =
      dest % 5 === 0
        ? _("land on a corner: a lost turn")
        : _("land by {line}", { line: lineWords(lineOf(dest)) });
    const wandNow = options.some(
      (o) => o.special !== false && v.choices.find((c) => c.card === o.card)?.symbol === "wand",
    );
    body.push(h("p", { class: "chosen" }, _("Chosen: {card}.", { card: cards.words(t.selected) })));
    body.push(
      h(
        "p",
        { id: "preview", class: "preview" },
        wandNow
          ? _(
              "With the wand you play again at once: move {n}, {where} (other pawns as they stand now).",
              { n: value, where },
            )
          : _(
              "This card on top: next turn you move {n}, {where} (other pawns as they stand now).",
              { n: value, where },
            ),
      ),
    );
    body.push(
      h(
        "div",
        { class: "options", role: "group", "aria-label": _("What to do with it") },
        options.map((o, i) =>
          h(
            "button",
            {
              class: i === 0 ? "primary" : "",
              type: "button",
              "data-key": `opt-${i}`,
              disabled: t.pending,
              onclick: () => void app.take(o),
              onkeydown: (e: Event) => escBack(app, e as KeyboardEvent),
            },
            describe(app, v, cards, o),
          ),
        ),
      ),
    );
    body.push(h("p", { class: "hint" }, _("Or choose another card (Esc goes back to the grid).")));
  } else {
    body.push(
      h(
        "p",
        {},
        _(
          "Choose one of the cards marked \u201c{mark}\u201d in {line}: tap or click it, or use Tab and the arrow keys, then Enter.",
          { mark: pgettext("at most 7 letters", "take"), line: lineWords(v.line) },
        ),
      ),
    );
  }
  return h(
    "section",
    { id: "question", class: "question mine", "aria-labelledby": "q-h" },
    h("h2", { id: "q-h" }, v.turn_in_row > 1 ? _("Your extra turn") : _("Your turn")),
    body,
    hintPart(app, v, cards),
  );
}

function escBack(app: TurnHost, e: KeyboardEvent): void {
  if (e.key !== "Escape") return;
  const card = app.t.selected;
  app.t.selected = null;
  app.renderTableNow();
  app.main.querySelector<HTMLElement>(`.cell.take[data-card="${card}"]`)?.focus();
}
