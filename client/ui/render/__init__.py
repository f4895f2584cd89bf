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

By what they draw: ``text`` (lines, wrapping), ``cards`` (palette, names, seats),
``layout`` (``Size``, the header), ``grid``, ``side`` (the side panel), ``events`` (the
log's words), ``scores`` (the final score table) and ``help``; this package names them
all.
"""

from __future__ import annotations

from .cards import (
    CELL,
    COLOUR_STYLE,
    COLOUR_TAG,
    PAWN_STYLE,
    PAWN_TAG,
    Cards,
    colour_word,
    long_name,
    seat_label,
    short_name,
)
from .events import describe_event, line_words
from .grid import OnClick, render_grid
from .help import HELP, colour_table, help_lines
from .layout import GRID_WIDTH, MIN_HEIGHT, MIN_WIDTH, Size, header, too_small_lines
from .scores import ending_words, render_scores
from .side import (
    legend_line,
    level_word,
    names_a_bot,
    recipe_text,
    render_side,
    seat_name,
    seat_status,
    shown_name,
    side_parts,
)
from .text import (
    GLUE,
    Line,
    join_lines,
    pad,
    side_by_side,
    tail_fitting,
    text_of,
    wrap,
    wrap_items,
    wrap_words,
)

__all__ = [
    "CELL",
    "COLOUR_STYLE",
    "COLOUR_TAG",
    "GLUE",
    "GRID_WIDTH",
    "HELP",
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "PAWN_STYLE",
    "PAWN_TAG",
    "Cards",
    "Line",
    "OnClick",
    "Size",
    "colour_table",
    "colour_word",
    "describe_event",
    "ending_words",
    "header",
    "help_lines",
    "join_lines",
    "legend_line",
    "level_word",
    "line_words",
    "long_name",
    "names_a_bot",
    "pad",
    "recipe_text",
    "render_grid",
    "render_scores",
    "render_side",
    "seat_label",
    "seat_name",
    "seat_status",
    "short_name",
    "shown_name",
    "side_by_side",
    "side_parts",
    "tail_fitting",
    "text_of",
    "too_small_lines",
    "wrap",
    "wrap_items",
    "wrap_words",
]
