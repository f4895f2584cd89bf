"""Lines of formatted text and the tools that lay them out: wrap, pad, join, side by side.

A *line* is a list of fragments ``(style, text)`` or ``(style, text, mouse_handler)``;
every screen is built of lines, and nothing is ever cut: text too wide is wrapped
(``wrap``; key lists by item with ``wrap_items``), and ``pad`` only fills.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent
from prompt_toolkit.utils import get_cwidth

__all__ = [
    "GLUE",
    "Line",
    "join_lines",
    "pad",
    "side_by_side",
    "tail_fitting",
    "text_of",
    "wrap",
    "wrap_items",
    "wrap_text",
    "wrap_words",
]


Line = list[tuple[str, str] | tuple[str, str, Callable[[MouseEvent], object]]]


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


def tail_fitting(text: str, cells: int) -> str:
    """The end of ``text`` that fits ``cells`` terminal cells: a wide character (CJK, most
    emoji) takes two, so a line being typed shows its end however it is written."""
    used, start = 0, len(text)
    while start > 0 and used + get_cwidth(text[start - 1]) <= cells:
        start -= 1
        used += get_cwidth(text[start])
    return text[start:]


def wrap_text(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width``, broken at blanks (a word longer than a
    line is split); later lines start with ``indent``."""
    return wrap_words(text.split(" "), width, indent)


def wrap_words(words: Sequence[str], width: int, indent: str = "") -> list[str]:
    """``words`` joined by blanks in lines of at most ``width``, broken only between
    them (a word may hold blanks: it stays whole), a word longer than a line split;
    later lines start with ``indent``."""
    out: list[str] = []
    line = ""
    for word in words:
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
            lines.extend(wrap_text(item, width, "  "))
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
