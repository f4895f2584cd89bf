"""What the terminal shows, as pure functions: a view (and a little UI state) in,
prompt_toolkit formatted-text lines out. No Application, no I/O, so every screen can be
tested without a terminal.

A *line* is a list of fragments ``(style, text)`` or ``(style, text, mouse_handler)``;
``join_lines`` turns lines into one ``StyleAndTextTuples``.

Nothing is ever cut: text that does not fit its width is wrapped (``wrap``, key lists by
item with ``wrap_items``), and what does not fit the height pages. ``Size`` chooses the
table screen's layout for a terminal: below ``MIN_WIDTH`` x ``MIN_HEIGHT`` the app asks
for a bigger window; small terminals get one-line cards with the side panel under the
grid, 80x24 two-line cards with the side panel at the right, big ones three-line cards
and a full-height log. Every card carries its colour in letters (the colour word, or
its two-letter tag), not only as a background, so ``NO_COLOR`` loses nothing.
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
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "Cards",
    "Line",
    "Size",
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
    "side_by_side",
    "text_of",
    "too_small_lines",
    "wrap",
    "wrap_items",
]

Line = list[tuple[str, str] | tuple[str, str, Callable[[MouseEvent], object]]]
OnClick = Callable[[int, int], None]

CELL = 7  # characters of a card cell at 80x24; one blank separates cells
GUTTER_L = 5  # pawn marker and row label left of the grid: "Wh>1 "
GUTTER_R = 4  # row label and pawn marker right of it: "1<Wh"
GRID_WIDTH = GUTTER_L + 6 * (CELL + 1) + GUTTER_R

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
SYMBOL_GLYPH = {"explode": "*", "wand": "~"}
COLOUR_TAG = {c: t.lower() for c, t in PAWN_TAG.items()}

MIN_WIDTH, MIN_HEIGHT = 60, 20


@dataclass(frozen=True)
class Size:
    """The table screen's layout for a terminal of ``width`` x ``height``."""

    width: int
    height: int

    @property
    def too_small(self) -> bool:
        return self.width < MIN_WIDTH or self.height < MIN_HEIGHT

    @property
    def cell_h(self) -> int:
        """Lines per card: 1 on small terminals, 2 from 24 lines, 3 on big ones."""
        if self.height >= 36 and self.width >= 110:
            return 3
        return 2 if self.height >= 24 else 1

    @property
    def cell_w(self) -> int:
        return 9 if self.cell_h == 3 else 7

    @property
    def grid_width(self) -> int:
        return GUTTER_L + 6 * (self.cell_w + 1) + GUTTER_R

    @property
    def grid_height(self) -> int:
        return 2 + 6 * self.cell_h

    @property
    def side_right(self) -> bool:
        """The side panel beside the grid (else under it)."""
        return self.width - self.grid_width - 1 >= 22

    @property
    def side_width(self) -> int:
        return self.width - self.grid_width - 1 if self.side_right else self.width

    @property
    def log_right(self) -> bool:
        """The log in the right column under the side panel, down to the prompt."""
        return self.cell_h == 3 and self.side_right


def too_small_lines(width: int, height: int) -> list[Line]:
    """The whole screen when the terminal is below the minimum."""
    words = f"Make the window at least {MIN_WIDTH} x {MIN_HEIGHT} (it is {width} x {height})."
    return [[("bold", t)] for t in _wrap_text(words, max(1, width))]


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

    def cell(self, card: str, lines: int = 2) -> tuple[str, ...]:
        """The lines of a card's cell, each at most ``CELL`` (9 for three lines) wide:
        one line ``Toa2*br`` (name, value, symbol glyph, colour tag); two lines
        ``Toad  *`` / ``2 brown``; three lines ``Toad`` / ``2 boom`` / ``brown``."""
        info = self.by_id.get(card)
        if info is None:
            return (card[:CELL],) + ("",) * (lines - 1)
        glyph = SYMBOL_GLYPH[info.symbol] if info.symbol else " "
        name = short_name(info.ingredient)
        if lines == 1:
            return (f"{name[:3]}{info.value}{glyph}{COLOUR_TAG.get(info.colour, '??')}",)
        if lines == 2:
            return f"{name:<6}{glyph}", f"{info.value} {info.colour}"
        sym = SYMBOL_WORD[info.symbol] if info.symbol else ""
        return name, f"{info.value} {sym}".rstrip(), info.colour

    def value(self, card: str) -> int:
        info = self.by_id.get(card)
        return info.value if info else 0

    def grouped(self, cards: Sequence[str]) -> str:
        """``Spider 1 2 4, Moss 2``: cards by ingredient, in the catalogue's order,
        values rising; an ingredient's group is never broken across lines."""
        order = {c.ingredient: i for i, c in reversed(list(enumerate(self.by_id.values())))}
        groups: dict[str, list[int]] = {}
        for card in cards:
            info = self.by_id.get(card)
            if info is not None:
                groups.setdefault(info.ingredient, []).append(info.value)
        return ", ".join(
            GLUE.join([short_name(ing), *map(str, sorted(groups[ing]))])
            for ing in sorted(groups, key=lambda i: order.get(i, 99))
        )

    def marked(self, card: str) -> str:
        """``Toad 2 boom (brown)``: a card in words with its colour, for panels."""
        info = self.by_id.get(card)
        return f"{self.short(card)} ({info.colour})" if info else card


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


def _wrap_text(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width``, broken at blanks (a word longer than a
    line is split); later lines start with ``indent``."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= width or not line.strip():
            line = candidate
        else:
            out.append(line)
            line = indent + word
        while len(line) > width:
            out.append(line[:width])
            line = indent + line[width:]
    out.append(line)
    return out


def wrap(line: Line, width: int, indent: int = 2) -> list[Line]:
    """One line as several lines of at most ``width``, broken at blanks, keeping each
    fragment's style (mouse handlers stay on the pieces); nothing is cut."""
    if sum(len(f[1]) for f in line) <= width:
        return [line]
    out: list[Line] = [[]]
    used = 0
    for frag in line:
        words = frag[1].split(" ")
        for i, word in enumerate(words):
            piece = word if i == len(words) - 1 else word + " "
            while piece:
                room = width - used
                if len(piece.rstrip(" ")) <= room:
                    out[-1].append((frag[0], piece[:room], *frag[2:]))
                    used += min(len(piece), room)
                    piece = ""
                elif used > (indent if len(out) > 1 else 0):
                    out.append([("", " " * indent)])
                    used = indent
                else:  # a word longer than a whole line
                    out[-1].append((frag[0], piece[:room], *frag[2:]))
                    piece = piece[room:]
                    out.append([("", " " * indent)])
                    used = indent
    return [ln for ln in out if ln]


def wrap_items(items: Sequence[str], width: int, style: str = "fg:#808080") -> list[Line]:
    """A key list: items joined by three blanks, broken between items, never inside."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += "   " + item
        else:
            lines.extend(_wrap_text(item, width, "  "))
    return [[(style, t)] for t in lines]


def text_of(line: Line) -> str:
    return "".join(f[1] for f in line)


GLUE = "\u00a0"
"""A blank that ``wrap`` never breaks at (``1 card``, ``turn 12``); drawn as a blank."""


def join_lines(lines: Sequence[Line]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend((f[0], f[1].replace(GLUE, " "), *f[2:]) if GLUE in f[1] else f for f in line)
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
    size: Size | None = None,
) -> list[Line]:
    """The 6x6 grid with the pawns around it (``size.grid_height`` lines,
    ``size.grid_width`` wide; 80x24 by default). The columns and rows one takes from are
    labelled ``col 0``..``5`` and ``row 0``..``5`` (the lines one takes from are 1-4, the
    words of the prompt: ``column 3``). The cells of
    the line the player to move takes from are underlined; cards that may be taken are
    bold, the one under the cursor reversed."""
    size = size or Size(80, 24)
    w, h = size.cell_w, size.cell_h
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
        line: Line = [("fg:#a0a0a0", "  col" if side == "top" else " " * GUTTER_L)]
        for col in range(6):
            style, text = pawn(side, col, arrow, True)
            label = str(col)
            line += [("fg:#a0a0a0", f"{label} "), (style, text), ("", " " * (w + 1 - 5))]
        return line

    lines: list[Line] = [edge("top", "v")]
    for row in range(6):
        for half in range(h):
            line: Line = []
            label = str(row) if half == 0 else " "
            if half == 0 and 1 <= row <= 4:
                style, text = pawn("left", row, ">", False)
                line += [(style, text), ("fg:#a0a0a0", label + " ")]
            else:
                first = "row" if row == 0 and half == 0 else "   "
                line.append(("fg:#a0a0a0", f"{first}{label} "))
            for col in range(6):
                card = view.grid[row][col] if row < len(view.grid) else None
                corner = (row, col) in {(0, 0), (0, 5), (5, 0), (5, 5)}
                if corner:
                    text = ("corner", " (())", "")[half] if h > 1 else "corner"
                    style = "fg:#8a6d3b"
                elif card is None:
                    text, style = ("  ." if half == 0 else ""), "fg:#606060"
                else:
                    text = cards.cell(card, h)[half]
                    style = COLOUR_STYLE.get(cards.colour(card), "")
                if (row, col) in line_cells:
                    style += " underline"
                if (row, col) in choices:
                    style += " bold"
                if cursor == (row, col):
                    style += " reverse"
                frag_text = text.ljust(w)[:w]
                if on_click is not None and (row, col) in choices:
                    line.append((style, frag_text, _click(on_click, row, col)))
                else:
                    line.append((style, frag_text))
                line.append(("", " "))
            if half == 0 and 1 <= row <= 4:
                style, text = pawn("right", row, "<", True)
                line += [("fg:#a0a0a0", label), (style, text)]
            elif half == 0:
                line.append(("fg:#a0a0a0", label))
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
    }.get(info.kind, f"fewest {MEASURE_WORDS.get(info.measure or '', info.measure)}")
    return f"{what} (+{info.bonus})"


def ending_words(result: m.ResultInfo, colours: Sequence[str], names: Sequence[str | None]) -> str:
    """How a game ended early, in a sentence (the position is scored as it stands)."""

    def who(seats: Sequence[int]) -> str:
        return " and ".join(seat_label(colours, s, names) for s in seats) or "a player"

    places = ", ".join(
        f"{seat_label(colours, s, names)} {p}{_ORDINAL.get(p, 'th')}"
        for s, p in sorted(enumerate(result.places), key=lambda sp: sp[1])
    )
    said = {
        "resigned": f"{who(result.resigned)} resigned.",
        "claimed": f"{who([result.claimed_by] if result.claimed_by is not None else [])} "
        "claimed the win while the opponent was away.",
        "timed_out": f"Time ran out for {who(result.timed_out)} move after move.",
        "abandoned": "Nobody was left at the table: the game was abandoned, nobody wins.",
    }.get(result.ending, "")
    return f"{said} Places: {places}. The cards are scored as they lay."


_ORDINAL = {1: "st", 2: "nd", 3: "rd"}

MEASURE_WORDS = {"explode": "boom cards", "wand": "wand cards", "cards": "cards", "fours": "4s"}


def legend_line(colours: Sequence[str]) -> Line:
    line: Line = []
    for c in colours:
        line += [(COLOUR_STYLE.get(c, ""), f"{c:^5}"), ("", " ")]
    return line


def seat_status(info: m.SeatInfo | None) -> tuple[str, str]:
    """A seat's presence in a word, with its style: bot, online, away (the player's
    connection is gone: the game waits for them), resigned."""
    if info is None:
        return ("fg:#808080", "")
    if info.resigned:
        return ("fg:#ff5f5f", "resigned, a computer plays" if info.computer else "resigned")
    if info.bot:
        return ("fg:#808080", "bot")
    if info.absent or (info.computer and not info.connected):
        return ("fg:#ff5f5f bold", "away, a computer plays")
    if info.computer:
        return ("fg:#ff8700 bold", "online, a computer plays")
    if info.connected:
        return ("fg:#40c060", "online")
    return ("fg:#ff5f5f bold", "away")


def names_a_bot(name: str) -> bool:
    """Whether a seat's name already says it is a bot: the server names its bots
    ``"{level} bot"`` ("easy bot"), so the side panel does not say "bot" again."""
    return name.lower().split()[-1:] == ["bot"]


def render_side(
    view: m.GameView | None,
    cards: Cards,
    catalogue: m.Catalogue,
    names: Sequence[str | None],
    seats: Sequence[m.SeatInfo],
    me: int | None,
    width: int,
    compact: bool = False,
    legend: bool = False,
) -> list[Line]:
    """Whose turn, the deck, each kettle (top card, count), who is here or away, your
    recipes and (``legend``) the colour legend; wrapped to ``width``, never cut.
    ``compact`` (the panel under the grid on a small terminal) leaves out rules."""
    lines: list[Line] = []
    if view is None:
        return lines
    colours = view.colours
    rule: Line = [("fg:#808080", "-" * max(1, width - 1))]
    head: Line = []
    if view.game_over:
        head.append(("bold", "Game over"))
    elif view.to_move is not None:
        mover = seat_label(colours, view.to_move, names)
        mine = view.to_move == me
        head += [
            ("bold", "To move: "),
            ("bold reverse" if mine else "bold", "You" if mine else mover),
        ]
    deck = f"Deck{GLUE}{view.deck_size}{GLUE}cards   turn{GLUE}{view.ply + 1}"
    if compact:
        lines.append([*head, ("", "   " + deck)])
    else:
        lines += [head, [("", deck)], rule]
    who: Line
    for k in view.kettles:
        seat = k.seat
        info = seats[seat] if seat < len(seats) else None
        name = names[seat] if seat < len(names) and names[seat] else "-"
        you = " (you)" if seat == me else ""
        top = cards.marked(k.top) if k.top else "-"
        count = f"{k.count}{GLUE}card{'s' if k.count != 1 else ''}"
        status = seat_status(info)
        if info is not None and info.bot and names_a_bot(name or ""):
            status = ("", "")  # "White easy bot", not "White easy bot bot"
        who = [
            (COLOUR_STYLE.get(k.colour, ""), PAWN_TAG.get(k.colour, "  ")),
            ("", " "),
            ("bold" if seat == view.to_move else "", f"{colour_word(k.colour)} {name}{you}"),
            *([("", " "), status] if status[1] else []),
            ("", f", {count}"),
        ]
        kettle: Line = (
            [("", "  top "), (COLOUR_STYLE.get(cards.colour(k.top), ""), top)]
            if k.top
            else [("", "  top -")]
        )
        if compact:
            lines.append([*who, ("", ", top "), *kettle[1:]])
        else:
            lines += [who, kettle]
        if k.cards is not None and seat == me and not view.game_over:  # memory: casual
            # what scores: each ingredient with its values (the top is shown above)
            lines.append([("fg:#a0a0a0", f"  in it: {cards.grouped(k.cards)}")])
    if me is not None and me < len(view.recipes):
        hand = view.recipes[me]
        if hand:
            if not compact:
                lines += [rule, [("bold", "Your recipes")]]
                lines.extend([("", "  " + recipe_text(r, catalogue))] for r in hand)
            else:
                texts = "; ".join(recipe_text(r, catalogue) for r in hand)
                lines.append([("bold", "Your recipes: "), ("", texts)])
    if legend:
        lines.append(rule)
        lines += wrap(legend_line(catalogue.colours), width, 0)
        lines.append([("fg:#808080", "* boom   ~ wand   ?: colours")])
    return [piece for line in lines for piece in wrap(line, width)]


# ----------------------------------------------------------------------------- events
def describe_event(
    e: m.GameEvent,
    colours: Sequence[str],
    names: Sequence[str | None],
    cards: Cards,
    *,
    could_act: bool = True,
) -> str | None:
    """A public event in words, or None for one not worth a line. ``could_act``: for
    a take, whether the card's symbol could have acted (a wand gives no third turn in a
    row, an explosion needs a kettle it can hit); only then is not using it declining."""

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
                extra = ", the last of that line: the game ends"
            elif info is not None and info.symbol and not used:
                word = SYMBOL_WORD[info.symbol]
                extra = (
                    f" (declines the {word})"
                    if could_act
                    else " (the wand gives no third turn in a row)"
                    if info.symbol == "wand"
                    else " (the boom has no kettle to hit)"
                )
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
        case m.TimedOutEvent(seat=seat):
            return f"Time ran out for {who(seat)}: a computer moves for them"
        case m.GameOverEvent(winners=winners):
            return (
                "Game over: "
                + " and ".join(who(w) for w in winners)
                + (" win" if len(winners) > 1 else " wins")
            )
    return None


# ----------------------------------------------------------------------------- scores
def render_scores(
    view: m.GameView,
    cards: Cards,
    catalogue: m.Catalogue,
    names: Sequence[str | None],
    width: int = 80,
) -> list[Line]:
    """The final score table, ``width`` wide and never cut: per ingredient each
    player's cards and points (every kettle revealed), the value-1 bonus (and who gets
    it, or that a tie gives it to nobody), each player's recipes in full, the totals."""
    scores = view.scores or ()
    n = max(1, len(scores))
    held = {i.ingredient for s in scores for i in s.ingredients}
    label = max((len(long_name(i)) for i in held), default=10) + 3  # "Dragon blood li"
    col = max(14, min(26, (width - label - 1) // n))  # a cell, with a blank after it
    narrow = col < 20  # card values without blanks: "1234 x2 +5=+25"
    tight = col < 16  # and no blanks at all: "1234x2+5=+25"
    lines: list[Line] = []
    result = view.result
    winners = result.winners if result is not None else view.winners
    title: Line = [("bold", "Final score")]
    if winners:
        won = " and ".join(seat_label(view.colours, w, names) for w in winners)
        title.append(("bold", f"   {'winners' if len(winners) > 1 else 'winner'}: {won}"))
    elif result is not None:
        title.append(("bold", "   no winner"))
    lines += wrap(title, width)
    if result is not None and result.ending != "played_out":
        lines += wrap([("bold", ending_words(result, view.colours, names))], width)
    head: Line = [("bold", "ingredient".ljust(label + 1))]
    named = all(len(seat_label(view.colours, x.seat, names)) < col for x in scores)
    for s in scores:
        who = seat_label(view.colours, s.seat, names) if named else colour_word(s.colour)
        head.append((PAWN_STYLE.get(s.colour, "") + " bold", who.ljust(col)))
    lines.append(head)
    order = [c.ingredient for c in catalogue.cards[::4]]
    for ingredient in [i for i in order if i in held]:
        colour = next((c.colour for c in catalogue.cards if c.ingredient == ingredient), "gray")
        name = f"{long_name(ingredient):<{label - 3}} {COLOUR_TAG.get(colour, '')}"
        line: Line = [(COLOUR_STYLE.get(colour, ""), name.ljust(label)), ("", " ")]
        for s in scores:
            ing = next((i for i in s.ingredients if i.ingredient == ingredient), None)
            if ing is None:
                line.append(("fg:#606060", "-".ljust(col)))
                continue
            values = ("" if narrow else " ").join(c.rsplit("-", 1)[1] for c in ing.cards)
            mark = " x2" if ing.doubled else ""
            bonus = " +5" if ing.bonus else ""
            eq = "=" if narrow else " = "
            text = f"{values}{mark}{bonus}{eq}{ing.total:+d}"
            if tight:
                text = text.replace(" ", "")
            style = "fg:#40c060" if ing.total > 0 else "fg:#ff5f5f" if ing.total < 0 else ""
            line.append((style, text.ljust(col)))
        lines.append(line)
    ones: Line = [("", "value-1 cards".ljust(label + 1))]
    for s in scores:
        bonus = f" +{s.value_one_bonus}" if s.value_one_bonus else ""
        ones.append(("", f"{s.value_ones}{bonus}".ljust(col)))
    lines.append(ones)
    most = max((s.value_ones for s in scores), default=0)
    if most and not any(s.value_one_bonus for s in scores):
        lines += wrap(
            [("fg:#a0a0a0", f"  value-1 cards: a tie at {most}, nobody gets the +5")], width
        )
    for s in scores:
        if s.recipes:
            who = seat_label(view.colours, s.seat, names)
            parts = [
                f"{recipe_text(r.id, catalogue).rsplit(' (', 1)[0]} "
                + (f"+{r.bonus}" if r.met else "not met")
                for r in s.recipes
            ]
            lines += wrap([("", f"recipes of {who}: "), ("fg:#a0a0a0", "; ".join(parts))], width)
    total: Line = [("bold", "TOTAL".ljust(label + 1))]
    for s in scores:
        total.append(("bold", f"{s.total}".ljust(col)))
    lines.append(total)
    if not named:  # the names did not fit the columns: below, whole
        for s in scores:
            who = seat_label(view.colours, s.seat, names)
            lines += wrap([("", f"  {colour_word(s.colour)}: {who}")], width)
    lines += wrap(
        [("fg:#808080", "x2: own colour, doubled (penalty too, not the +5); +5: all four")], width
    )
    return lines


# ----------------------------------------------------------------------------- help
HELP: tuple[str, ...] = (  # paragraphs, wrapped to the screen
    "KEYS",
    (
        "  arrows or h j k l: choose a card of the underlined line; 0-5: the card in that"
        " row or column (the labels); Enter or a click: take it"
    ),
    "  y / n: use or decline a card's symbol;  1 2 3 then Enter: explosion targets (3 players)",
    "  k / d: keep or discard the card that ends the game",
    "  PgUp / PgDn: page the log;  L: the kettles and the whole log on the screen;"
    "  c: chat;  ?: this help;  R: resign;  q: quit",
    "",
    "SCORING (per ingredient in your kettle)",
    (
        "  1 card: minus its value.  2 cards: 0.  3 cards: plus the sum of the values.  4"
        " cards: plus the sum, plus 5."
    ),
    (
        "  Your own colour (white or black; the third player's colour) counts double, the"
        " penalty too, but not the +5 for all four."
    ),
    "  Most value-1 cards: +5 (a tie gives nobody the points).",
    "  Recipes (variant): the bonus of each recipe you fulfil.",
    "",
    "THE TURN",
    (
        "  Your pawn moves clockwise by the value of your kettle's top card (other pawns "
        "are jumped, not counted). Take one card from the line next to your pawn "
        "(column 1-4 or row 1-4; the grid is labelled 0-5 all round); at a corner you "
        "take nothing. The line under the prompt says where a card would send you next "
        "turn."
    ),
    (
        "  * boom: the other players' top kettle cards go under the deck (a one-card "
        "kettle is immune). ~ wand: play another turn (at most two in a row)."
    ),
    (
        "  You only ever see your kettle's top card: remember what you took! The game "
        "ends when a line is emptied: keep or discard that last card."
    ),
)


def colour_table(catalogue: m.Catalogue) -> list[Line]:
    """Which ingredients have which colour, and the marks cards carry for it."""
    lines: list[Line] = [[("bold", "COLOURS (the mark on each card: the colour word, or its tag)")]]
    for colour in catalogue.colours:
        names = []
        for c in catalogue.cards:
            name = long_name(c.ingredient)
            if c.colour == colour and name not in names:
                names.append(name)
        lines.append(
            [
                ("", "  "),
                (COLOUR_STYLE.get(colour, ""), f"{colour:<6}"),
                ("", f" {COLOUR_TAG.get(colour, '')}: {', '.join(names)}"),
            ]
        )
    return lines


def help_lines(width: int = 80, catalogue: m.Catalogue | None = None) -> list[Line]:
    """The help, wrapped to ``width``: keys, scoring, the turn and the colour table."""
    lines: list[Line] = []
    for t in HELP:
        lines.append([("bold" if t and not t.startswith(" ") else "", t)])
        if t.startswith("SCORING") and catalogue is not None:
            lines[-1:-1] = [*colour_table(catalogue), []]
    return [piece for line in lines for piece in wrap(line, width, 4)]
