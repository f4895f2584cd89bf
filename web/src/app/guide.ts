/**
 * How to play: the rules in short, shown in place of the main part (`#/help`). Loaded
 * when first asked for, so the first load stays small; every word through the
 * catalogue.
 */
import { h, replace } from "./dom";
import { _ } from "./i18n";

/** A step of the turn: its name, then what happens. */
const step = (name: string, text: string) => h("li", {}, h("strong", {}, name), " ", text);

/** The guide's content, drawn into `#help` in the language spoken. */
export function drawGuide(section: HTMLElement): void {
  replace(
    section,
    h("h2", { id: "help-h", tabindex: -1 }, _("How to play")),
    h(
      "p",
      {},
      _(
        "Kupferkessel Co. is a card game for 2 or 3 witches brewing in their kettles. The 6 x 6 grid holds ingredient cards; the four corners hold none. Each player has a pawn outside the grid and a kettle.",
      ),
    ),
    h("h3", {}, _("A turn")),
    h(
      "ol",
      {},
      step(
        _("Move."),
        _(
          "Your pawn moves clockwise as many spaces as the value of the top card of your kettle (1 to 4), jumping over other pawns without counting them. Movement is forced: the page does it for you.",
        ),
      ),
      step(_("Corner."), _("Stop beside a corner and your turn is lost.")),
      step(
        _("Take."),
        _(
          "Otherwise take any card of the row or column your pawn faces (marked take) and put it on top of your kettle. Its value is how far you move next turn: the page shows where you would land.",
        ),
      ),
      step(
        _("Symbol."),
        _(
          "A boom card (exploding kettle) may knock the top card off another kettle; a wand card lets you play again at once. You may decline either.",
        ),
      ),
      step(_("Refill."), _("The deck fills the empty slot.")),
    ),
    h("h3", {}, _("The end and the score")),
    h(
      "p",
      {},
      _(
        "While the deck has cards, every empty slot is refilled at once. Once the deck is empty, the game ends when a take leaves one of the eight lines you take from (rows and columns 1 to 4) without a card, however many cards are left on the grid; whoever takes that last card of the line chooses to keep or discard it.",
      ),
      " ",
      _(
        "Each ingredient in your kettle scores by how many of its cards you hold: one card costs its value, two score nothing, three score the sum of their values, all four score their sum (10) plus 5. An ingredient of your own colour (White or Black, or the third player's colour) counts double, a lone card's cost included; the +5 never doubles.",
      ),
      " ",
      _(
        "The one player with the most value-1 cards gets 5 more. With the recipe variant, each recipe met adds its bonus. The highest total wins; equal totals share the win.",
      ),
    ),
    h("h3", {}, _("Memory")),
    h(
      "p",
      {},
      _(
        "Only the top card of each kettle is shown. With strict memory, remembering what went into the kettles is the game, so the log shows only what happened since your last decision (from the start of the last turn in which you chose a card). With casual memory you may look through your own kettle and the log keeps the whole game.",
      ),
    ),
    h("h3", {}, _("Playing here")),
    h(
      "ul",
      {},
      h(
        "li",
        {},
        _(
          "Tap or click a card marked take, then choose what to do with it (use or decline a symbol, whom to explode, keep or discard the last card). Tap the chosen card again to take it when there is only one choice.",
        ),
      ),
      h(
        "li",
        {},
        _(
          "Keyboard: Tab to the grid, arrow keys or 0-5 choose a card of your line, Enter chooses it, Enter on an answer takes it, Esc goes back.",
        ),
      ),
      h(
        "li",
        {},
        _(
          "Every card carries its colour in words; each pawn is tagged with its colour's two letters.",
        ),
      ),
      h(
        "li",
        {},
        _(
          "Settings, at the top of the page: how fast other players' moves are shown, one after the other (slow, normal, fast, or at once), and the language of the page. This browser keeps both.",
        ),
      ),
      h(
        "li",
        {},
        _(
          "Your seat is kept in this browser: reload or lose the connection and you are back at your seat.",
        ),
      ),
      h(
        "li",
        {},
        _(
          "Invite friends with the table's link; private tables need the invite code in it. During the game, Invite to watch under the table's buttons gives the link to watch.",
        ),
      ),
      h(
        "li",
        {},
        _(
          "On servers that keep players: Your player registers a name once (this browser keeps its secret and signs in by itself), shows your rating (?: provisional), your recent games to replay take by take, and a one-time code to sign in on another device. Leaderboard lists the rated players; signed in, a new table may be rated.",
        ),
      ),
    ),
    h(
      "p",
      {},
      h("a", { href: "#/" }, _("Back to the game")),
      " · ",
      h("a", { href: "/licenses.txt" }, _("Licenses")),
    ),
  );
}
