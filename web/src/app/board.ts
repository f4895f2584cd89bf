/**
 * The grid of the table screen: the 6 x 6 cards with its corners and the pawns on the
 * spaces around it, the cards this seat may take, the chosen one and where its pawn
 * would land, the last card taken and the slot refilled; choosing a card with a tap, a
 * click or the keys.
 */
import { lineCells, lineOf, spaceCell, walk } from "../lib/geometry";
import type { GameView } from "../lib/protocol";
import { h } from "./dom";
import { hintedCard } from "./hint";
import { _, colour, pgettext } from "./i18n";
import type { TurnHost } from "./host";
import { Cards, lineWords, pawnTag, symbolMark } from "./words";

const CORNERS = new Set(["0,0", "0,5", "5,0", "5,5"]);
const ARROW = ["▼", "◀", "▲", "▶"]; // pawn above, right of, below, left of the grid

export function board(app: TurnHost, v: GameView, cards: Cards): HTMLElement {
  const t = app.t;
  const mine = app.isMyTurn();
  const takes = mine ? (v.takes ?? []) : [];
  const takeable = new Set(takes.map((o) => o.card));
  const suggested = mine ? hintedCard(app) : null;
  const line = new Set((v.line ? lineCells(v.line) : []).map(([r, c]) => `${r},${c}`));
  const pawnAt = new Map<string, number>();
  v.pawns.forEach((space, seat) => pawnAt.set(spaceCell(space).join(","), seat));
  let land: string | null = null;
  if (mine && t.selected && t.seat !== null) {
    const [dest] = walk(
      v.pawns[t.seat],
      cards.value(t.selected),
      v.pawns.filter((_, i) => i !== t.seat),
    );
    land = spaceCell(dest).join(",");
  }
  const spaceAt = new Map<string, number>();
  for (let s = 0; s < 20; s++) spaceAt.set(spaceCell(s).join(","), s);
  const cells: HTMLElement[] = [];
  for (let fr = 0; fr < 8; fr++) {
    for (let fc = 0; fc < 8; fc++) {
      const key = `${fr},${fc}`;
      if (fr >= 1 && fr <= 6 && fc >= 1 && fc <= 6) {
        const r = fr - 1;
        const c = fc - 1;
        const id = v.grid[r]?.[c] ?? null;
        const inLine = line.has(`${r},${c}`);
        // every slot keyed by its place (`patch`): the cards to take are buttons and the
        // others not, so matched by order each cell after a changed one was patched into
        // its neighbour's, some 600 changes to the page per move instead of some 100
        const cell = `cell-${r}-${c}`;
        if (CORNERS.has(`${r},${c}`)) {
          cells.push(
            h(
              "div",
              {
                class: "cell corner",
                "data-key": cell,
                role: "img",
                "aria-label": _("corner, {where}", { where: _("row {r} column {c}", { r, c }) }),
              },
              pgettext("at most 7 letters", "corner"),
            ),
          );
        } else if (!id) {
          // late in the game no card fills a slot taken: the slot itself is marked
          const lastHere = t.last && t.last.row === r && t.last.col === c;
          cells.push(
            h(
              "div",
              {
                class: `cell empty${inLine ? " inline" : ""}${lastHere ? " last" : ""}`,
                "data-key": cell,
                role: "img",
                "aria-label": lastHere
                  ? _("empty slot, {where}, the last card taken", {
                      where: _("row {r} column {c}", { r, c }),
                    })
                  : _("empty slot, {where}", { where: _("row {r} column {c}", { r, c }) }),
              },
              lastHere ? pgettext("at most 7 letters", "taken") : "·",
            ),
          );
        } else {
          const lastMark = t.last && t.last.row === r && t.last.col === c;
          const newMark = t.last?.refill && t.last.refill[0] === r && t.last.refill[1] === c;
          const can = takeable.has(id);
          const selected = can && t.selected === id;
          const hinted = can && suggested === id;
          const cls = `cell card c-${cards.colour(id)}${inLine ? " inline" : ""}${can ? " take" : ""}${selected ? " selected" : ""}${newMark ? " new" : ""}${lastMark ? " last" : ""}${hinted ? " hinted" : ""}`;
          const sym = cards.symbol(id);
          const at = newMark
            ? _("{where}, just refilled", { where: _("row {r} column {c}", { r, c }) })
            : _("row {r} column {c}", { r, c });
          const label = `${cards.words(id)}, ${at}`;
          const body = [
            // a name of more than 12 letters (German's "Fledermausflügel") may not fit
            // one line of a small cell: the style sheet shows the short name there
            h("span", { class: cards.name(id).length > 12 ? "nm long" : "nm" }, cards.name(id)),
            h("span", { class: "nm-s" }, cards.name(id, true)),
            h("span", { class: "v" }, cards.value(id)),
            sym ? h("span", { class: "sym" }, symbolMark(sym)) : null,
            h("span", { class: "cw" }, colour(cards.colour(id))),
            can
              ? h(
                  "span",
                  { class: "badge" },
                  selected
                    ? pgettext("at most 7 letters", "chosen")
                    : hinted
                      ? pgettext("at most 7 letters", "hint")
                      : pgettext("at most 7 letters", "take"),
                )
              : newMark
                ? h("span", { class: "badge" }, pgettext("at most 7 letters", "new"))
                : null,
          ];
          // a button is named by what it shows (and where), so voice control can say it
          const where = h(
            "span",
            { class: "sr-only" },
            `, ${at}${hinted ? `, ${_("the expert's suggestion")}` : ""}`,
          );
          if (can) {
            cells.push(
              h(
                "button",
                {
                  class: cls,
                  type: "button",
                  "data-key": cell,
                  "data-card": id,
                  "aria-pressed": selected ? "true" : "false",
                  disabled: t.pending,
                  onclick: () => choose(app, id),
                },
                body,
                where,
              ),
            );
          } else
            cells.push(
              h("div", { class: cls, "data-key": cell, role: "img", "aria-label": label }, body),
            );
        }
      } else {
        const seat = pawnAt.get(key);
        const space = spaceAt.get(key);
        const side = fr === 0 ? 0 : fc === 7 ? 1 : fr === 7 ? 2 : 3;
        const ghost = land === key;
        if (seat !== undefined) {
          const colour = v.colours[seat];
          const moving = v.to_move === seat && !v.game_over;
          cells.push(
            h(
              "div",
              {
                class: `ring pawn p-${colour}${moving ? " moving" : ""}${ghost ? " land" : ""}`,
                role: "img",
                "aria-label": moving
                  ? _("{who} pawn on space {n}, to move", { who: app.who(seat), n: space ?? "" })
                  : _("{who} pawn on space {n}", { who: app.who(seat), n: space ?? "" }),
              },
              h("span", { class: "arrow", "aria-hidden": "true" }, ARROW[side]),
              pawnTag(colour),
            ),
          );
        } else if (space !== undefined) {
          const ln = lineOf(space);
          const label = ln ? (ln.startsWith("col") ? `c${ln.slice(3)}` : `r${ln.slice(3)}`) : "";
          cells.push(
            h(
              "div",
              {
                class: `ring space${ghost ? " land" : ""}`,
                "aria-hidden": ghost ? null : "true",
                role: ghost ? "img" : null,
                "aria-label": ghost ? _("your pawn would land here") : null,
              },
              ghost ? pgettext("at most 7 letters", "land") : label,
            ),
          );
        } else cells.push(h("div", { class: "ring", "aria-hidden": "true" }));
      }
    }
  }
  const label = v.line
    ? _("The grid; the line to take from: {line}", { line: lineWords(v.line) })
    : _("The grid");
  return h(
    "div",
    {
      id: "board",
      class: "board",
      role: "group",
      "aria-label": label,
      onkeydown: (e: Event) => boardKey(app, e as KeyboardEvent),
    },
    cells,
  );
}

/** Arrow keys move between the cards that may be taken; 0-5 the card at that place in
 * the line. */
function boardKey(app: TurnHost, e: KeyboardEvent): void {
  const buttons = [...app.main.querySelectorAll<HTMLButtonElement>(".cell.take")];
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  let next = -1;
  if (e.key === "ArrowRight" || e.key === "ArrowDown")
    next = at < 0 ? 0 : (at + 1) % buttons.length;
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp")
    next = at < 0 ? 0 : (at - 1 + buttons.length) % buttons.length;
  else if (/^[0-5]$/.test(e.key)) {
    const n = Number(e.key);
    next = buttons.findIndex((b) => {
      const [, r, c] = (b.dataset.key ?? "").split("-");
      return app.t.view?.line?.startsWith("col") ? Number(r) === n : Number(c) === n;
    });
  }
  if (next >= 0) {
    e.preventDefault();
    buttons[next].focus();
  }
}

function choose(app: TurnHost, card: string): void {
  const t = app.t;
  const options = (t.view?.takes ?? []).filter((o) => o.card === card);
  if (t.selected === card && options.length === 1) {
    void app.take(options[0]);
    return;
  }
  t.selected = card;
  app.renderTableNow();
  // focus() alone would scroll the answer to the middle of the screen, and on a phone
  // (the answers below the grid) push the chosen card off its top: the focus moves
  // without scrolling, and the page scrolls only as far as keeps the card in view
  const first = app.main.querySelector<HTMLElement>(".options button");
  first?.focus({ preventScroll: true });
  reveal(
    app.main.querySelector<HTMLElement>(`.cell[data-card="${card}"]`),
    app.main.querySelector<HTMLElement>(".options"),
  );
}

/** Scroll the page just enough to show `target` (as much of it as fits), never so far
 * that `keep` leaves the screen. */
function reveal(keep: HTMLElement | null, target: HTMLElement | null): void {
  if (!target) return;
  const margin = 8;
  const height = window.innerHeight;
  const r = target.getBoundingClientRect();
  let dy = 0;
  if (r.bottom > height - margin) dy = Math.min(r.bottom - height + margin, r.top - margin);
  else if (r.top < margin) dy = r.top - margin;
  if (keep) {
    const k = keep.getBoundingClientRect();
    if (dy > 0) dy = Math.min(dy, Math.max(0, k.top - margin));
    else if (dy < 0) dy = Math.max(dy, Math.min(0, k.bottom - height + margin));
  }
  if (dy) window.scrollBy(0, dy);
}
