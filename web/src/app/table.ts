/**
 * The table screen: whose turn and its clock, the grid (`board.ts`), the last move, the
 * question of a turn (`question.ts`) or the game's end (`ending.ts`), the seat's own
 * buttons (`actions.ts`), the players and the log (`panels.ts`), and the chat.
 */
import type { GameView } from "../lib/protocol";
import { actions } from "./actions";
import { board } from "./board";
import { h, patch } from "./dom";
import { ending } from "./ending";
import type { TableHost } from "./host";
import { logPanel, seatPanel, since } from "./panels";
import { hintsOn } from "./hint";
import { question } from "./question";
import { _, list, ngettext } from "./i18n";
import { lineWords } from "./words";

export function renderTable(app: TableHost): void {
  const t = app.t;
  const v = t.view;
  const cards = app.cards;
  if (!v || !cards) {
    patch(
      app.main,
      h(
        "section",
        { class: "table-screen" },
        h("h2", {}, _("At the table")),
        h("p", {}, _("The game is starting...")),
      ),
      app.chatBox,
    );
    return;
  }
  const seats = app.presence?.seats ?? [];
  // patched, not rebuilt: the card or answer under a pressed finger stays the same element
  patch(
    app.main,
    h(
      "section",
      { class: "table-screen", "aria-label": _("The table") },
      h(
        "div",
        { class: "board-col" },
        // it holds the focus between one's own take (or a resignation) and the next turn
        h(
          "h2",
          {
            id: "turn",
            class: app.isMyTurn() ? "turn mine" : "turn",
            "data-key": "turn",
            tabindex: -1,
          },
          turnWords(app, v),
        ),
        turnClock(app, v),
        timeoutWarning(app, v),
        board(app, v, cards),
      ),
      // under the grid; beside it, over the question, on a phone held sideways
      h(
        "div",
        { class: "move-col" },
        h("p", { id: "lastmove", class: "lastmove" }, lastMoveWords(app, v)),
        h(
          "p",
          { class: "deck" },
          ngettext("Deck: {n} card", "Deck: {n} cards", v.deck_size),
          v.removed.length
            ? ` · ${_("out of the game: {cards}", { cards: list(v.removed.map((c) => cards.words(c))) })}`
            : "",
          hintsOn(v)
            ? h("span", { id: "hints-on" }, ` · ${_("Hints are on at this table.")}`)
            : null,
        ),
      ),
      h(
        "div",
        { class: "side" },
        // the question and the seat's own buttons (claim the win, take the seat back,
        // resign) first, in the tab order as on the screen: beside the grid when a
        // phone is held sideways, under the question everywhere else
        v.game_over ? ending(app, v, cards) : question(app, v, cards),
        actions(app, v, seats),
        seatPanel(app, v, cards, seats),
        since(app),
        logPanel(app, v),
        app.chatBox,
      ),
    ),
  );
}

/** A take being sent (`t.pending`): the cards to take and the answers disabled, as
 * `renderTable` draws them then, and nothing else changed. Those buttons are changed
 * alone: the whole table drawn again for them cost a tenth of a move's main-thread
 * time, and a third of its script (bench/web_render.py). */
export function showPending(main: HTMLElement): void {
  for (const b of main.querySelectorAll<HTMLButtonElement>(".cell.take, .options button"))
    b.disabled = true;
}

/** The line under the grid: the last move this page saw (a take and what its boom hit,
 * or a corner stop), or why it knows none. */
function lastMoveWords(app: TableHost, v: GameView): string {
  const t = app.t;
  const m = t.move;
  if (m) {
    const booms = (m.booms ?? []).map((b) => ` ${b}.`).join("");
    const move = m.discarded ? _("{move}, and discards it", { move: m.text }) : m.text;
    return _("Last move: {move}.", { move }) + booms;
  }
  if (!v.ply) return _("No card taken yet.");
  // a seat's page back after moves made without it, or one that came in during the game
  const away = t.seat !== null && t.log.entries.some((e) => e.kind === "back");
  return away
    ? _("Cards were taken while this page was away.")
    : _("Cards were taken before this page came to the table.");
}

function turnWords(app: TableHost, v: GameView): string {
  if (v.game_over) return _("Game over");
  if (v.to_move == null) return _("Waiting");
  const extra = v.turn_in_row > 1;
  const line = lineWords(v.line);
  if (app.isMyTurn())
    return extra
      ? _("Your turn (extra turn, wand): take a card from {line}", { line })
      : _("Your turn: take a card from {line}", { line });
  const who = app.who(v.to_move);
  return extra ? _("{who} to move (extra turn, wand)", { who }) : _("{who} to move", { who });
}

/** The clock of the seat to move, under the banner: on a phone the players panel with
 * every clock is below the fold. */
function turnClock(app: TableHost, v: GameView): HTMLElement | null {
  if (!v.clock || v.game_over || v.to_move == null) return null;
  const whose =
    v.to_move === app.t.seat ? _("Your time") : _("Time of {who}", { who: app.who(v.to_move) });
  return h(
    "p",
    { id: "turn-clock", class: "turn-clock" },
    `${whose}: `,
    h("span", { "data-clock": v.to_move }, app.clockText(v.to_move)),
  );
}

/** 1.2: how close one's own seat is to a computer taking it, after time-outs in a row
 * (`clock.timeouts`; one's own take starts the count again). Always there on a clocked
 * table, empty when there is nothing to say, so that a screen reader hears it appear. */
function timeoutWarning(app: TableHost, v: GameView): HTMLElement | null {
  if (!v.clock || app.t.seat == null) return null;
  const n = v.game_over ? 0 : (v.clock.timeouts?.[app.t.seat] ?? 0);
  const limit = v.clock.absent_after ?? 3;
  const text =
    n > 0 && n < limit
      ? ngettext(
          "Your time ran out once: at {limit} in a row a computer takes your seat. Take a card to start the count again.",
          "Your time ran out {n} times in a row: at {limit} in a row a computer takes your seat. Take a card to start the count again.",
          n,
          { limit },
        )
      : "";
  return h(
    "p",
    { id: "timeout-warning", class: "timeout-warning", role: "status", "aria-live": "polite" },
    text,
  );
}

/** At a decision, the last move in sight: the grid and the line under it, with the turn
 * banner above them if it fits too (else at least the last take's marked cell and the
 * line), on the screen without the person scrolling. The page, or the column that
 * scrolls on its own (a phone held sideways), scrolls as little as it takes, and not at
 * all when they are in view already. Beside the grid (a phone held sideways) the line
 * is in view as it is: there the banner and the marked cell count, else the cell. */
export function inSight(main: HTMLElement): void {
  const board = main.querySelector<HTMLElement>("#board");
  const line = main.querySelector<HTMLElement>("#lastmove");
  if (!board || !line) return;
  const box = scroller(board);
  const view = box ? box.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
  const height = view.bottom - view.top;
  const last = board.querySelector<HTMLElement>(".last");
  const beside = box && !box.contains(line);
  const bottom = (beside ? (last ?? board) : line).getBoundingClientRect().bottom;
  const margin = 4;
  // the banner, the grid and the line; without the banner if they do not fit; else the
  // marked cell and the line; else the line and as much of the grid above it as fits
  const tops = [main.querySelector<HTMLElement>("#turn"), board, last]
    .flatMap((el) => (el ? [el.getBoundingClientRect().top] : []))
    .filter((top) => bottom - top + 2 * margin <= height);
  const top = tops.length ? tops[0] : bottom - height + 2 * margin;
  let dy = 0;
  if (top - margin < view.top) dy = top - margin - view.top;
  else if (bottom + margin > view.bottom) dy = bottom + margin - view.bottom;
  if (!dy) return;
  if (box) box.scrollTop += dy;
  else window.scrollBy(0, dy);
}

/** The nearest box around `el` that scrolls on its own (null: the page does). */
function scroller(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const y = getComputedStyle(p).overflowY;
    if ((y === "auto" || y === "scroll") && p.scrollHeight > p.clientHeight) return p;
  }
  return null;
}
