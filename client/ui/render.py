"""What the terminal shows, as pure functions: a view (and a little UI state) in,
prompt_toolkit formatted-text lines out. No Application, no I/O, so every screen can be
tested without a terminal.

A *line* is a list of fragments ``(style, text)`` or ``(style, text, mouse_handler)``;
``join_lines`` turns lines into one ``StyleAndTextTuples``. Everything fits 80x24.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from protocol import messages as m

__all__ = [
    "CELL",
    "COLOUR_STYLE",
    "GRID_WIDTH",
    "Cards",
    "Line",
    "describe_event",
    "help_lines",
    "join_lines",
    "legend_line",
    "pad",
    "recipe_text",
    "render_grid",
    "render_scores",
    "render_side",
    "seat_label",
    "short_name",
]

Line = list[tuple[str, str] | tuple[str, str, Callable[[MouseEvent], object]]]
OnClick = Callable[[int, int], None]

CELL = 6  # characters of a card cell; one blank separates cells
GUTTER = 4  # pawn markers left and right of the grid
GRID_WIDTH = GUTTER + 6 * (CELL + 1) + GUTTER

# A real palette: background and text colour of each card colour.
COLOUR_STYLE: dict[str, str] = {
    "white": "bg:#e8e8e8 fg:#000000",
    "black": "bg:#262626 fg:#ffffff",
    "gray": "bg:#8a8a8a fg:#000000",
    "blue": "bg:#2f6fdf fg:#ffffff",
    "brown": "bg:#8b5a2b fg:#ffffff",
    "green": "bg:#2e8b3e fg:#ffffff",
    "lilac": "bg:#b58ad8 fg:#000000",
}
PAWN_STYLE: dict[str, str] = {
    "white": "fg:#ffffff bold",
    "black": "fg:#000000 bg:#bcbcbc bold",
    "gray": "fg:#a8a8a8 bold",
    "blue": "fg:#5f87ff bold",
    "brown": "fg:#c08040 bold",
    "green": "fg:#40c060 bold",
    "lilac": "fg:#d0a0ff bold",
}
PAWN_TAG = {
    "white": "Wh",
    "black": "Bk",
    "gray": "Gy",
    "blue": "Bl",
    "brown": "Br",
    "green": "Gr",
    "lilac": "Li",
}
SHORT = {
    "whiskers": "Whiskr",
    "eye_of_newt": "Newt",
    "bat_wing": "BatWng",
    "spider_web": "Spider",
    "root": "Root",
    "rat_tail": "RatTl",
    "moss": "Moss",
    "frog_slime": "Frog",
    "fungus": "Fungus",
    "toad": "Toad",
    "pumpkin": "Pumpkn",
    "snake_skin": "Snake",
    "vine": "Vine",
    "dragon_blood": "Dragon",
}
SYMBOL_WORD = {"explode": "boom", "wand": "wand"}


def short_name(ingredient: str) -> str:
    return SHORT.get(ingredient, ingredient.replace("_", "")[:CELL].capitalize())


def long_name(ingredient: str) -> str:
    return ingredient.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Cards:
    """Card facts from the server's catalogue, by card id."""

    by_id: dict[str, m.CardInfo]

    @staticmethod
    def of(catalogue: m.Catalogue) -> Cards:
        return Cards({c.id: c for c in catalogue.cards})

    def colour(self, card: str) -> str:
        info = self.by_id.get(card)
        return info.colour if info else "gray"

    def name(self, card: str) -> str:
        """``Whiskers 3``"""
        info = self.by_id.get(card)
        if info is None:
            return card
        return f"{long_name(info.ingredient)} {info.value}"

    def short(self, card: str) -> str:
        """``Whiskr 3 boom``"""
        info = self.by_id.get(card)
        if info is None:
            return card
        sym = f" {SYMBOL_WORD[info.symbol]}" if info.symbol else ""
        return f"{short_name(info.ingredient)} {info.value}{sym}"

    def cell(self, card: str) -> tuple[str, str]:
        """The two lines of a card cell: short name, then value and symbol."""
        info = self.by_id.get(card)
        if info is None:
            return card[:CELL], ""
        sym = SYMBOL_WORD[info.symbol] if info.symbol else ""
        return short_name(info.ingredient), f"{info.value} {sym}".rstrip()


# ----------------------------------------------------------------------------- helpers
def pad(line: Line, width: int) -> Line:
    """``line`` cut or filled with blanks to exactly ``width`` characters."""
    out: Line = []
    used = 0
    for frag in line:
        text = frag[1]
        room = width - used
        if room <= 0:
            break
        if len(text) > room:
            frag = (frag[0], text[:room], *frag[2:])
        out.append(frag)
        used += len(frag[1])
    if used < width:
        out.append(("", " " * (width - used)))
    return out


def join_lines(lines: Sequence[Line]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


def side_by_side(left: Sequence[Line], right: Sequence[Line], left_width: int) -> list[Line]:
    rows = max(len(left), len(right))
    out: list[Line] = []
    for i in range(rows):
        a = pad(list(left[i]) if i < len(left) else [], left_width)
        b = list(right[i]) if i < len(right) else []
        out.append([*a, ("", " "), *b])
    return out


def colour_word(colour: str) -> str:
    return colour.capitalize()


def seat_label(view_or_colours: Sequence[str], seat: int, names: Sequence[str | None]) -> str:
    """``White (Ann)``"""
    colour = colour_word(view_or_colours[seat]) if seat < len(view_or_colours) else f"Seat {seat}"
    name = names[seat] if seat < len(names) else None
    return f"{colour} ({name})" if name else colour


def _click(on_click: OnClick, row: int, col: int) -> Callable[[MouseEvent], object]:
    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_click(row, col)
            return None
        return NotImplemented

    return handler


# ----------------------------------------------------------------------------- grid
def _space_side(space: int) -> tuple[str, int]:
    """Where perimeter space ``space`` is drawn: (side, column or row) (RULES.md section 2.2)."""
    if space <= 5:
        return "top", space
    if space < 10:
        return "right", space - 5
    if space <= 15:
        return "bottom", 15 - space
    return "left", 20 - space


def render_grid(
    view: m.GameView,
    cards: Cards,
    cursor: tuple[int, int] | None = None,
    on_click: OnClick | None = None,
) -> list[Line]:
    """The 6x6 grid with the pawns around it (14 lines, ``GRID_WIDTH`` wide). The cells
    of the line the player to move takes from are underlined; cards that may be taken
    are bold, the one under the cursor reversed."""
    marks: dict[tuple[str, int], int] = {}
    for seat, space in enumerate(view.pawns):
        marks[_space_side(space)] = seat
    choices = {(c.row, c.col) for c in view.choices}
    line_cells: set[tuple[int, int]] = set()
    if view.line:
        n = int(view.line[3:])
        line_cells = (
            {(r, n) for r in range(6)}
            if view.line.startswith("col")
            else {(n, c) for c in range(6)}
        )

    def pawn(side: str, idx: int, arrow: str, before: bool) -> tuple[str, str]:
        seat = marks.get((side, idx))
        if seat is None:
            return ("", "   ")
        colour = view.colours[seat]
        tag = PAWN_TAG.get(colour, colour[:2])
        text = arrow + tag if before else tag + arrow
        if seat == view.to_move:
            return (PAWN_STYLE.get(colour, "") + " underline", text)
        return (PAWN_STYLE.get(colour, ""), text)

    def edge(side: str, arrow: str) -> Line:
        line: Line = [("", " " * GUTTER)]
        for col in range(6):
            style, text = pawn(side, col, arrow, True)
            line += [("", "  "), (style, text), ("", " " * (CELL + 1 - 2 - len(text)))]
        return line

    lines: list[Line] = [edge("top", "v")]
    for row in range(6):
        for half in (0, 1):
            line: Line = []
            if half == 0 and 1 <= row <= 4:
                style, text = pawn("left", row, ">", False)
                line.append((style, text + " "))
            else:
                line.append(("", " " * GUTTER))
            for col in range(6):
                card = view.grid[row][col] if row < len(view.grid) else None
                corner = (row, col) in {(0, 0), (0, 5), (5, 0), (5, 5)}
                if corner:
                    text, style = ("corner" if half else " (())", "fg:#8a6d3b")
                elif card is None:
                    text, style = ("" if half else "  .", "fg:#606060")
                else:
                    text = cards.cell(card)[half]
                    style = COLOUR_STYLE.get(cards.colour(card), "")
                if (row, col) in line_cells:
                    style += " underline"
                if (row, col) in choices:
                    style += " bold"
                if cursor == (row, col):
                    style += " reverse"
                frag_text = text.ljust(CELL)[:CELL]
                if on_click is not None and (row, col) in choices:
                    line.append((style, frag_text, _click(on_click, row, col)))
                else:
                    line.append((style, frag_text))
                line.append(("", " "))
            if half == 0 and 1 <= row <= 4:
                style, text = pawn("right", row, "<", True)
                line.append((style, text))
            lines.append(line)
    lines.append(edge("bottom", "^"))
    return lines


# ----------------------------------------------------------------------------- side panel
def recipe_text(recipe_id: str, catalogue: m.Catalogue) -> str:
    """A recipe card in a few words, e.g. ``3+ of both gray (+15)``."""
    info = next((r for r in catalogue.recipes if r.id == recipe_id), None)
    if info is None:
        return recipe_id
    what = {
        "both_of_colour": f"3+ of both {info.colour}",
        "one_of_colour": f"3+ of one {info.colour}",
        "last_card": "take the last card",
        "plants": "3+ of 3 plants",
    }.get(info.kind, f"fewest {info.measure} cards" if info.measure != "fours" else "fewest 4s")
    return f"{what} (+{info.bonus})"


def legend_line(colours: Sequence[str]) -> Line:
    line: Line = []
    for c in colours:
        line += [(COLOUR_STYLE.get(c, ""), f"{c[:5]:^5}"), ("", " ")]
    return line


def render_side(
    view: m.GameView | None,
    cards: Cards,
    catalogue: m.Catalogue,
    names: Sequence[str | None],
    seats: Sequence[m.SeatInfo],
    me: int | None,
    width: int,
) -> list[Line]:
    """Whose turn, the deck, each kettle (top card, count), who is connected, your
    recipes and the colour legend."""
    lines: list[Line] = []
    if view is None:
        return lines
    colours = view.colours
    if view.game_over:
        lines.append([("bold", "Game over")])
    elif view.to_move is not None:
        who = seat_label(colours, view.to_move, names)
        mine = view.to_move == me
        lines.append(
            [("bold", "To move: "), ("bold reverse" if mine else "bold", "You" if mine else who)]
        )
    lines.append([("", f"Deck {view.deck_size:>2} cards   turn {view.ply + 1}")])
    lines.append([("fg:#808080", "-" * (width - 1))])
    for k in view.kettles:
        seat = k.seat
        info = seats[seat] if seat < len(seats) else None
        status = (
            ("fg:#808080", "bot")
            if info is not None and info.bot
            else ("fg:#40c060", "online")
            if info is not None and info.connected
            else ("fg:#ff5f5f", "offline")
        )
        name = names[seat] if seat < len(names) and names[seat] else "-"
        you = " (you)" if seat == me else ""
        head = f"{colour_word(k.colour)} {name}{you}"
        lines.append(
            [
                (COLOUR_STYLE.get(k.colour, ""), "  "),
                ("", " "),
                ("bold" if seat == view.to_move else "", head[: width - 11].ljust(width - 11)),
                status,
            ]
        )
        top: Line = [("", "  top ")]
        if k.top:
            top.append((COLOUR_STYLE.get(cards.colour(k.top), ""), cards.short(k.top)))
        else:
            top.append(("", "-"))
        top.append(("", f"  {k.count} card{'s' if k.count != 1 else ''}"))
        lines.append(top)
        if k.cards is not None and seat == me and not view.game_over:  # memory: casual
            inside = " ".join(cards.cell(c)[0][:4] + c[-1] for c in reversed(k.cards))
            lines.append([("fg:#a0a0a0", f"  in it: {inside}")])
    if me is not None and me < len(view.recipes):
        hand = view.recipes[me]
        if hand:
            lines.append([("fg:#808080", "-" * (width - 1))])
            lines.append([("bold", "Your recipes")])
            lines.extend([("", "  " + recipe_text(r, catalogue))] for r in hand)
    lines.append([("fg:#808080", "-" * (width - 1))])
    legend = legend_line(catalogue.colours)
    lines.append(legend[:8])
    lines.append(legend[8:])
    return lines


# ----------------------------------------------------------------------------- events
def describe_event(
    e: m.GameEvent, colours: Sequence[str], names: Sequence[str | None], cards: Cards
) -> str | None:
    """A public event in words, or None for one not worth a line."""

    def who(seat: int) -> str:
        return seat_label(colours, seat, names)

    match e:
        case m.MovedEvent(seat=seat, from_space=a, to_space=b, skipped=skipped):
            steps = (b - a) % 20 - len(skipped)
            jump = " jumping a pawn" if skipped else ""
            return f"{who(seat)} moves {steps} space{'s' if steps != 1 else ''}{jump}"
        case m.PassedCornerEvent(seat=seat):
            return f"{who(seat)} stops at a corner: nothing to take"
        case m.TookEvent(seat=seat, card=card, line=line, special=used, ends_game=ends):
            info = cards.by_id.get(card)
            extra = ""
            if ends:
                extra = ": the line is empty, the game ends"
            elif info is not None and info.symbol and not used:
                extra = f" (declines the {SYMBOL_WORD[info.symbol]})"
            where = line.replace("col", "column ").replace("row", "row ")
            return f"{who(seat)} takes {cards.name(card)} from {where}{extra}"
        case m.ExplodedEvent(seat=seat, target=target, card=card, to=to):
            where = "under the deck" if to == "deck" else "out of the game"
            return f"Boom! {who(target)} loses {cards.name(card)} {where}"
        case m.ExtraTurnEvent(seat=seat):
            return f"Wand: {who(seat)} plays again"
        case m.RefilledEvent(card=card):
            return f"  {cards.name(card)} fills the gap"
        case m.DiscardedEvent(seat=seat, card=card):
            return f"{who(seat)} discards {cards.name(card)}"
        case m.GameOverEvent(winners=winners):
            return (
                "Game over: "
                + " and ".join(who(w) for w in winners)
                + (" win" if len(winners) > 1 else " wins")
            )
    return None


# ----------------------------------------------------------------------------- scores
def render_scores(
    view: m.GameView, cards: Cards, catalogue: m.Catalogue, names: Sequence[str | None]
) -> list[Line]:
    """The final score table: per ingredient each player's cards and points (every
    kettle revealed), the value-1 bonus, recipes and the totals."""
    scores = view.scores or ()
    n = len(scores)
    col = max(16, min(26, (78 - 14) // max(1, n)))
    lines: list[Line] = [[("bold", "Final score")]]
    if view.winners:
        lines[0].append(
            (
                "",
                "   winner: " + ", ".join(seat_label(view.colours, w, names) for w in view.winners),
            )
        )
    head: Line = [("bold", "ingredient".ljust(14))]
    for s in scores:
        head.append(
            (
                PAWN_STYLE.get(s.colour, "") + " bold",
                seat_label(view.colours, s.seat, names)[: col - 1].ljust(col),
            )
        )
    lines.append(head)
    order = [c.ingredient for c in catalogue.cards[::4]]
    held = {i.ingredient for s in scores for i in s.ingredients}
    for ingredient in [i for i in order if i in held]:
        colour = next((c.colour for c in catalogue.cards if c.ingredient == ingredient), "gray")
        line: Line = [
            (COLOUR_STYLE.get(colour, ""), long_name(ingredient)[:13].ljust(13)),
            ("", " "),
        ]
        for s in scores:
            ing = next((i for i in s.ingredients if i.ingredient == ingredient), None)
            if ing is None:
                line.append(("fg:#606060", "-".ljust(col)))
                continue
            values = " ".join(c.rsplit("-", 1)[1] for c in ing.cards)
            mark = " x2" if ing.doubled else ""
            bonus = " +5" if ing.bonus else ""
            text = f"{values}{mark}{bonus} = {ing.total:+d}"
            style = "fg:#40c060" if ing.total > 0 else "fg:#ff5f5f" if ing.total < 0 else ""
            line.append((style, text.ljust(col)))
        lines.append(line)
    ones: Line = [("", "value-1 cards ")]
    for s in scores:
        bonus = f" +{s.value_one_bonus}" if s.value_one_bonus else ""
        ones.append(("", f"{s.value_ones} cards{bonus}".ljust(col)))
    lines.append(ones)
    if any(s.recipes for s in scores):
        width = max(len(s.recipes) for s in scores)
        for i in range(width):
            line = [("", ("recipes" if i == 0 else "").ljust(14))]
            for s in scores:
                if i < len(s.recipes):
                    r = s.recipes[i]
                    what = recipe_text(r.id, catalogue).rsplit(" (", 1)[0]
                    ok = f"+{r.bonus}" if r.met else "no"
                    text = f"{what[: col - len(ok) - 3]}: {ok}"
                    line.append(("fg:#40c060" if r.met else "fg:#808080", text.ljust(col)))
                else:
                    line.append(("", " " * col))
            lines.append(line)
    total: Line = [("bold", "TOTAL".ljust(14))]
    for s in scores:
        total.append(("bold", f"{s.total}".ljust(col)))
    lines.append(total)
    lines.append([("fg:#808080", "x2: own colour, doubled (penalty too, not the +5)")])
    return lines


# ----------------------------------------------------------------------------- help
HELP = """\
KEYS
  Left/Right/Up/Down  choose a card of the highlighted line   Enter  take it
  mouse click         take a card                             c      chat
  y / n               use or decline a card's symbol          ?      this help
  1 2 3, Enter        pick explosion targets (3 players)      q      quit
  k / d               keep or discard the game-ending card    R      resign

SCORING (per ingredient in your kettle)
  1 card   minus its value          3 cards  plus the sum of the values
  2 cards  0                        4 cards  plus the sum, plus 5
  Your own colour (white or black; the third player's colour) counts double,
  the penalty too, but not the +5 for all four.
  Most value-1 cards: +5 (a tie gives nobody the points).
  Recipes (variant): the bonus of each recipe you fulfil.

THE TURN
  Your pawn moves clockwise by the value of your kettle's top card (other pawns are
  jumped, not counted). Take one card from the line next to your pawn; at a corner
  you take nothing. boom: the other player's top kettle card goes under the deck
  (a one-card kettle is immune). wand: play another turn (at most two in a row).
  You only ever see your kettle's top card: remember what you took! The game ends
  when a line is emptied: keep or discard that last card.
"""


def help_lines() -> list[Line]:
    return [[("bold" if t and not t.startswith(" ") else "", t)] for t in HELP.splitlines()]
