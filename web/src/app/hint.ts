/**
 * Hints (1.5): at a table whose options allow them, the seat to move may ask the expert
 * for a suggestion (`ask_hint`): the card it would take is marked on the grid and said
 * in a short sentence, for the state it was asked in only. The options say to everyone
 * at the table that hints are on.
 */
import type { GameView, HintMsg } from "../lib/protocol";
import { h } from "./dom";
import type { TurnHost } from "./host";
import { _, ngettext, num } from "./i18n";
import { refusedWaiting } from "./refusals";
import type { Cards } from "./words";

/** The hint of the state shown, being asked for, or refused (in words); forgotten once
 * the table shows another state. */
let hint: { t: object; version: number; msg: HintMsg | null; said: string } | null = null;

function current(app: TurnHost): typeof hint {
  if (hint && (hint.t !== app.t || hint.version !== app.t.version)) hint = null;
  return hint;
}

/** The card the expert suggests in the state shown (marked on the grid), if asked. */
export const hintedCard = (app: TurnHost): string | null => current(app)?.msg?.take.take ?? null;

/** Whether the table's options allow hints (said to everyone at the table). */
export const hintsOn = (v: GameView): boolean => !!v.options.hints;

async function ask(app: TurnHost): Promise<void> {
  const v = app.t.view;
  const c = app.client;
  const was = current(app);
  if (!v || !c || (was && !was.said)) return;
  const mine = { t: app.t, version: app.t.version, msg: null as HintMsg | null, said: "" };
  hint = mine;
  app.renderTableNow();
  try {
    const msg = (await c.request("ask_hint", {})) as HintMsg;
    if (msg.state_version === mine.version) mine.msg = msg;
    else mine.said = _("The game moved on meanwhile: ask again.");
  } catch (e) {
    mine.said = hintRefused(e);
  }
  if (hint === mine) app.renderTableNow();
}

const hintRefused = (e: unknown): string =>
  refusedWaiting(e, (s) =>
    ngettext(
      "Too many hints asked for: try again in {n} second.",
      "Too many hints asked for: try again in {n} seconds.",
      s,
    ),
  );

/** The Hint button of the seat to move, and the hint asked for (null: no hints here). */
export function hintPart(app: TurnHost, v: GameView, cards: Cards): HTMLElement | null {
  if (!hintsOn(v) || !app.isMyTurn()) return null;
  const got = current(app);
  const text = !got
    ? _("Ask the expert which card it would take, from what you know.")
    : got.said
      ? got.said
      : got.msg
        ? _(
            "The expert would take {card} (marked on the grid), expecting {points} points at the end.",
            {
              card: cards.words(got.msg.take.take),
              points: num(got.msg.points ?? 0, { maximumFractionDigits: 1 }),
            },
          )
        : _("The expert is thinking\u2026");
  return h(
    "div",
    { class: "hint-box" },
    h(
      "button",
      {
        id: "hint",
        type: "button",
        "data-key": "hint",
        disabled: !!got && !got.said,
        "aria-describedby": "hint-said",
        onclick: () => void ask(app),
      },
      _("Hint"),
    ),
    " ",
    h("span", { id: "hint-said", role: "status" }, text),
  );
}
