/**
 * The table screen: the 6 x 6 grid with its corners and the pawns around it, every
 * kettle's top card, whose turn, the landing preview, clocks and presence, the questions
 * of a turn (from the server's `takes`), the log by the memory rule, the moves since the
 * last decision, and the ending with its result, places and scores.
 */
import { lineCells, lineOf, spaceCell, walk } from "../lib/geometry";
import type { GameView, Score, SeatInfo, TakeOption } from "../lib/protocol";
import { h, patch } from "./dom";
import { linkLines } from "./invite";
import type { TableHost } from "./host";
import {
  Cards,
  PAWN_TAG,
  SYMBOL_WORD,
  cap,
  endingWords,
  lineWords,
  ordinal,
  seatName,
  seatStatus,
} from "./words";

const CORNERS = new Set(["0,0", "0,5", "5,0", "5,5"]);
const ARROW = ["▼", "◀", "▲", "▶"]; // pawn above, right of, below, left of the grid

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
        h("h2", {}, "At the table"),
        h("p", {}, "The game is starting..."),
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
      { class: "table-screen", "aria-label": "The table" },
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
        h("p", { id: "lastmove", class: "lastmove" }, lastMoveWords(app, v)),
        h(
          "p",
          { class: "deck" },
          `Deck: ${v.deck_size} cards`,
          v.removed.length
            ? ` · out of the game: ${v.removed.map((c) => cards.words(c)).join(", ")}`
            : "",
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

/** The line under the grid: the last take this page saw, or why it knows none. */
function lastMoveWords(app: TableHost, v: GameView): string {
  const t = app.t;
  if (t.last) return `Last move: ${t.last.text}${t.last.discarded ? ", and discards it" : ""}.`;
  if (!v.ply) return "No card taken yet.";
  // a seat's page back after moves made without it, or one that came in during the game
  const away = t.seat !== null && t.log.entries.some((e) => e.kind === "back");
  return away
    ? "Cards were taken while this page was away."
    : "Cards were taken before this page came to the table.";
}

function turnWords(app: TableHost, v: GameView): string {
  if (v.game_over) return "Game over";
  if (v.to_move == null) return "Waiting";
  const extra = v.turn_in_row > 1 ? " (extra turn, wand)" : "";
  if (app.isMyTurn()) return `Your turn${extra}: take a card from ${lineWords(v.line)}`;
  return `${app.who(v.to_move)} to move${extra}`;
}

/** The clock of the seat to move, under the banner: on a phone the players panel with
 * every clock is below the fold. */
function turnClock(app: TableHost, v: GameView): HTMLElement | null {
  if (!v.clock || v.game_over || v.to_move == null) return null;
  const whose = v.to_move === app.t.seat ? "Your time" : `Time of ${app.who(v.to_move)}`;
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
  const times = n === 1 ? "once" : `${n} times in a row`;
  const text =
    n > 0 && n < limit
      ? `Your time ran out ${times}: at ${limit} in a row a computer takes your seat. Take a card to start the count again.`
      : "";
  return h(
    "p",
    { id: "timeout-warning", class: "timeout-warning", role: "status", "aria-live": "polite" },
    text,
  );
}

function board(app: TableHost, v: GameView, cards: Cards): HTMLElement {
  const t = app.t;
  const mine = app.isMyTurn();
  const takes = mine ? (v.takes ?? []) : [];
  const takeable = new Set(takes.map((o) => o.card));
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
        if (CORNERS.has(`${r},${c}`)) {
          cells.push(
            h(
              "div",
              { class: "cell corner", role: "img", "aria-label": `corner, row ${r} column ${c}` },
              "corner",
            ),
          );
        } else if (!id) {
          cells.push(
            h(
              "div",
              {
                class: `cell empty${inLine ? " inline" : ""}`,
                role: "img",
                "aria-label": `empty slot, row ${r} column ${c}`,
              },
              "·",
            ),
          );
        } else {
          const lastMark = t.last && t.last.row === r && t.last.col === c;
          const newMark = t.last?.refill && t.last.refill[0] === r && t.last.refill[1] === c;
          const can = takeable.has(id);
          const selected = can && t.selected === id;
          const cls = `cell card c-${cards.colour(id)}${inLine ? " inline" : ""}${can ? " take" : ""}${selected ? " selected" : ""}${newMark ? " new" : ""}${lastMark ? " last" : ""}`;
          const sym = cards.symbol(id);
          const label = `${cards.words(id)}, row ${r} column ${c}${newMark ? ", just refilled" : ""}`;
          const body = [
            h("span", { class: "nm" }, cards.name(id)),
            h("span", { class: "nm-s" }, cards.name(id, true)),
            h("span", { class: "v" }, cards.value(id)),
            sym ? h("span", { class: "sym" }, SYMBOL_WORD[sym] ?? sym) : null,
            h("span", { class: "cw" }, cards.colour(id)),
            can
              ? h("span", { class: "badge" }, selected ? "chosen" : "take")
              : newMark
                ? h("span", { class: "badge" }, "new")
                : null,
          ];
          // a button is named by what it shows (and where), so voice control can say it
          const where = h(
            "span",
            { class: "sr-only" },
            `, row ${r} column ${c}${newMark ? ", just refilled" : ""}`,
          );
          if (can) {
            cells.push(
              h(
                "button",
                {
                  class: cls,
                  type: "button",
                  "data-key": `cell-${r}-${c}`,
                  "data-card": id,
                  "aria-pressed": selected ? "true" : "false",
                  disabled: t.pending,
                  onclick: () => choose(app, id),
                },
                body,
                where,
              ),
            );
          } else cells.push(h("div", { class: cls, role: "img", "aria-label": label }, body));
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
                "aria-label": `${app.who(seat)} pawn on space ${space}${moving ? ", to move" : ""}`,
              },
              h("span", { class: "arrow", "aria-hidden": "true" }, ARROW[side]),
              PAWN_TAG[colour] ?? colour.slice(0, 2),
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
                "aria-label": ghost ? "your pawn would land here" : null,
              },
              ghost ? "land" : label,
            ),
          );
        } else cells.push(h("div", { class: "ring", "aria-hidden": "true" }));
      }
    }
  }
  const label = `The grid${v.line ? `; the line to take from: ${lineWords(v.line)}` : ""}`;
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
function boardKey(app: TableHost, e: KeyboardEvent): void {
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

function choose(app: TableHost, card: string): void {
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

function describe(app: TableHost, v: GameView, cards: Cards, o: TakeOption): string {
  const choice = v.choices.find((c) => c.card === o.card);
  const parts: string[] = [];
  if (choice?.symbol === "explode" || (cards.symbol(o.card) === "explode" && o.special !== false)) {
    if (o.special === false) parts.push("do not explode");
    else {
      const targets = o.targets ?? v.explodable;
      const hit = targets.map((s) => {
        const top = v.kettles[s]?.top;
        return `${app.who(s)}${top ? ` (loses ${cards.words(top)})` : ""}`;
      });
      parts.push(hit.length ? `explode ${hit.join(" and ")}` : "explode nobody");
    }
  } else if (choice?.symbol === "wand")
    parts.push(o.special === false ? "decline the wand" : "use the wand: play again at once");
  if (choice?.ends_game)
    parts.push(o.keep === false ? "discard it, and the game ends" : "keep it, and the game ends");
  return `Take ${cards.words(o.card)}${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

function question(app: TableHost, v: GameView, cards: Cards): HTMLElement {
  const t = app.t;
  const me = t.seat !== null ? app.presence?.seats[t.seat] : undefined;
  if (me?.computer && me.connected && !me.resigned) {
    return h(
      "section",
      { id: "question", class: "question mine", "aria-labelledby": "q-h" },
      h("h2", { id: "q-h" }, "A computer plays your seat"),
      h("p", {}, "Your time ran out move after move, so a computer player took over."),
      h(
        "p",
        {},
        h(
          "button",
          { class: "primary", "data-key": "back-q", onclick: () => answer(app, "back") },
          "Take my seat back",
        ),
      ),
    );
  }
  if (me?.resigned) {
    // three players: the game goes on without this person, who has no move to wait for
    return h(
      "section",
      { id: "question", class: "question", "aria-labelledby": "q-h" },
      h("h2", { id: "q-h" }, "You resigned"),
      h(
        "p",
        {},
        "A computer plays your seat to the end; you place last. You may watch on, or go back to the lobby.",
      ),
    );
  }
  if (!app.isMyTurn()) {
    const text =
      t.seat === null
        ? "You are watching this game."
        : v.to_move != null
          ? `Waiting for ${app.who(v.to_move)}.`
          : "Waiting.";
    // not "Your move" over "Waiting for Bea": the heading says whose turn it is not
    const title = t.seat === null ? "Watching" : "Not your turn";
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
      dest % 5 === 0 ? "land on a corner: a lost turn" : `land by ${lineWords(lineOf(dest))}`;
    const wandNow = options.some(
      (o) => o.special !== false && v.choices.find((c) => c.card === o.card)?.symbol === "wand",
    );
    body.push(h("p", { class: "chosen" }, `Chosen: ${cards.words(t.selected)}.`));
    body.push(
      h(
        "p",
        { id: "preview", class: "preview" },
        wandNow
          ? `With the wand you play again at once: move ${value}, ${where} (other pawns as they stand now).`
          : `This card on top: next turn you move ${value}, ${where} (other pawns as they stand now).`,
      ),
    );
    body.push(
      h(
        "div",
        { class: "options", role: "group", "aria-label": "What to do with it" },
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
    body.push(h("p", { class: "hint" }, "Or choose another card (Esc goes back to the grid)."));
  } else {
    body.push(
      h(
        "p",
        {},
        `Choose one of the cards marked "take" in ${lineWords(v.line)}: tap or click it, or use Tab and the arrow keys, then Enter.`,
      ),
    );
  }
  return h(
    "section",
    { id: "question", class: "question mine", "aria-labelledby": "q-h" },
    h("h2", { id: "q-h" }, v.turn_in_row > 1 ? "Your extra turn" : "Your turn"),
    body,
  );
}

function escBack(app: TableHost, e: KeyboardEvent): void {
  if (e.key !== "Escape") return;
  const card = app.t.selected;
  app.t.selected = null;
  app.renderTableNow();
  app.main.querySelector<HTMLElement>(`.cell.take[data-card="${card}"]`)?.focus();
}

function seatPanel(app: TableHost, v: GameView, cards: Cards, seats: SeatInfo[]): HTMLElement {
  const items = v.kettles.map((k) => {
    const info = seats[k.seat];
    const moving = v.to_move === k.seat && !v.game_over;
    const own =
      k.cards && !v.game_over && k.seat === app.t.seat ? byIngredient(k.cards, cards) : null;
    const recipes = v.options.recipes ? v.recipes[k.seat] : null; // none without the variant
    return h(
      "li",
      { class: `seat${moving ? " moving" : ""}` },
      h("span", { class: `tag c-${k.colour}` }, PAWN_TAG[k.colour] ?? "", " ", cap(k.colour)),
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

function since(app: TableHost): HTMLElement | null {
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

function logPanel(app: TableHost, v: GameView): HTMLElement {
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

function actions(app: TableHost, v: GameView, seats: SeatInfo[]): HTMLElement {
  const t = app.t;
  const out: HTMLElement[] = [];
  const me = t.seat !== null ? seats[t.seat] : undefined;
  if (!v.game_over && t.seat !== null && !me?.resigned) {
    if (t.confirm === "resign") {
      const what =
        v.players === 2
          ? "the other player wins at once"
          : "a computer plays your seat to the end and you place last";
      out.push(
        h("p", { id: "resign-q" }, `Resign? ${cap(what)}.`),
        h(
          "button",
          { class: "danger", "data-key": "resign-yes", onclick: () => answer(app, "resign") },
          "Yes, resign",
        ),
        h(
          "button",
          { "data-key": "resign-no", onclick: () => answer(app, null, "resign") },
          "No, play on",
        ),
      );
    } else
      out.push(h("button", { "data-key": "resign", onclick: () => ask(app, "resign") }, "Resign"));
    const other = seats.find((s) => s.seat !== t.seat);
    if (v.players === 2 && other?.absent) {
      if (t.confirm === "claim") {
        out.push(
          h("p", { id: "claim-q" }, "Claim the win? The game ends at once and you win it."),
          h(
            "button",
            { class: "danger", "data-key": "claim-yes", onclick: () => answer(app, "claim") },
            "Yes, claim the win",
          ),
          h(
            "button",
            { "data-key": "claim-no", onclick: () => answer(app, null, "claim") },
            "No, wait for them",
          ),
        );
      } else
        out.push(
          h(
            "button",
            { "data-key": "claim", onclick: () => ask(app, "claim") },
            "Claim the win (opponent away)",
          ),
        );
    } else if (t.confirm === "claim") t.confirm = null; // back in time: nothing to claim

    if (me?.computer && me.connected)
      out.push(
        h(
          "button",
          { class: "primary", "data-key": "back", onclick: () => answer(app, "back") },
          "Take my seat back from the computer",
        ),
      );
  }
  if (v.game_over || t.seat === null || me?.resigned)
    out.push(
      h(
        "button",
        { "data-key": "to-lobby", onclick: () => app.act("leave") },
        t.seat === null ? "Stop watching" : "Back to the lobby",
      ),
    );
  else
    out.push(
      h(
        "button",
        { "data-key": "leave", onclick: () => app.act("leave") },
        "Leave (my seat waits for me)",
      ),
    );
  const share = invite(app);
  if (share) out.push(share);
  out.push(h("a", { href: "#/help", class: "help-link" }, "How to play"));
  return h(
    "section",
    { class: "actions", "data-key": "actions", "aria-label": "Table actions" },
    out,
  );
}

/** The waiting screen's links, folded into a small *Invite* control so that a game
 * under way can still bring people to watch: a seat gets the invite link (which, the
 * seats taken, offers to watch) and the watch link; a spectator the watch link only. */
function invite(app: TableHost): HTMLElement | null {
  const lines = linkLines(app, app.t.seat !== null);
  if (!lines.length) return null;
  const toggle = (e: Event) => {
    app.t.inviteOpen = (e.currentTarget as HTMLDetailsElement).open;
  };
  return h(
    "details",
    { class: "invite", "data-key": "invite", open: app.t.inviteOpen, ontoggle: toggle },
    h("summary", { "data-key": "invite-summary" }, "Invite to watch"),
    h("div", { class: "invite-panel" }, lines),
  );
}

/** Ask before resigning or claiming: the question's "no" gets the focus. */
function ask(app: TableHost, what: "resign" | "claim"): void {
  app.t.confirm = what;
  app.renderTableNow();
  app.main.querySelector<HTMLElement>(`[data-key="${what}-no"]`)?.focus();
}

/** The question answered: `act` done (null: "no"); the focus, whose button goes, to
 * the turn banner, or after a "no" back to the button that asked (`again`). */
function answer(
  app: TableHost,
  act: "resign" | "claim" | "back" | null,
  again: "resign" | "claim" | null = null,
): void {
  app.t.confirm = null;
  if (act) app.act(act);
  app.renderTableNow();
  if (again) app.main.querySelector<HTMLElement>(`[data-key="${again}"]`)?.focus();
  else app.focusTurn();
}

function ending(app: TableHost, v: GameView, cards: Cards): HTMLElement {
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

function scoreTable(app: TableHost, scores: Score[], cards: Cards): HTMLElement {
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
