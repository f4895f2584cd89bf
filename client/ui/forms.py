"""Keyboard forms without a terminal: fields with a few choices (Left/Right),
text fields (type, Backspace) and buttons (Enter). Used for "new table" and "join by
id"; the fields may depend on the values (seats follow the number of players)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from client.i18n import N_, _
from client.i18n import colour_word as colour_name
from protocol import messages as m
from shared.cards import THIRD_COLOURS as THIRDS

from .render import Line, level_word, wrap, wrap_items

__all__ = [
    "FIRST_GAME_LEVEL",
    "Field",
    "Form",
    "create_form",
    "join_form",
    "join_seat",
    "table_rated",
    "table_request",
    "table_timing",
]

TEXT_MAX = 32
FIRST_GAME_LEVEL = "easy"
"""The computer level offered first, and ``kupferkessel play``'s default: one a new
player beats sometimes (docs/CLIENT.md, "The first game's computer level")."""


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    options: tuple[tuple[str, str], ...] | None = None  # (value, shown); None: text
    button: bool = False


class Form:
    def __init__(
        self,
        title: str,
        spec: Callable[[dict[str, str]], list[Field]],
        values: dict[str, str],
    ) -> None:
        self.title = title
        self.spec = spec
        self.values = values
        self.focus = 0

    def fields(self) -> list[Field]:
        return self.spec(self.values)

    def current(self) -> Field:
        fields = self.fields()
        self.focus = min(self.focus, len(fields) - 1)
        return fields[self.focus]

    def key(self, key: str) -> str | None:
        """Handle a key; returns the button's key when one is pressed."""
        fields = self.fields()
        f = self.current()
        if key in ("down", "tab"):
            self.focus = (self.focus + 1) % len(fields)
        elif key in ("up", "s-tab"):
            self.focus = (self.focus - 1) % len(fields)
        elif key == "enter":
            if f.button:
                return f.key
            self.focus = (self.focus + 1) % len(fields)
        elif f.options is not None and key in ("left", "right"):  # not Space: typed
            values = [v for v, _ in f.options]
            i = values.index(self.values[f.key]) if self.values.get(f.key) in values else 0
            self.values[f.key] = values[(i + (-1 if key == "left" else 1)) % len(values)]
        elif f.options is None and not f.button:
            text = self.values.get(f.key, "")
            if key == "backspace":
                self.values[f.key] = text[:-1]
            elif key == "c-u":  # Ctrl-U, as in a shell: the whole field
                self.values[f.key] = ""
            elif len(key) == 1 and key.isprintable() and len(text) < TEXT_MAX:
                self.values[f.key] = text + key
        return None

    def render(self, width: int) -> list[Line]:
        lines: list[Line] = [*wrap([("bold", self.title)], width), []]
        fields = self.fields()
        # the values line up, two spaces after the longest label at least
        column = max([22, *(len(f.label) + 2 for f in fields if not f.button)])
        for i, f in enumerate(fields):
            focused = i == self.focus
            mark = ("bold", "> ") if focused else ("", "  ")
            if f.button:
                button: Line = [mark, ("reverse bold" if focused else "bold", f"[ {f.label} ]")]
                lines += wrap(button, width, 4)
                continue
            label = ("", f.label.ljust(column))
            if f.options is None:
                text = self.values.get(f.key, "")
                shown = ("underline", (text + ("_" if focused else "")).ljust(TEXT_MAX))
                lines += wrap([mark, label, shown], width, 4)
            else:
                shown_value = dict(f.options).get(self.values.get(f.key, ""), "?")
                style = "reverse" if focused else ""
                choice: Line = [mark, label, ("", "< "), (style, shown_value), ("", " >")]
                lines += wrap(choice, width, 4)
        lines.append([])
        keys = [_("Up/Down: field")]
        keys += [_("Left/Right: change")] if any(f.options is not None for f in fields) else []
        keys += [
            _("type: text (Ctrl-U: clear)"),
            _("Enter: next field, or press [ ]"),
            _("Esc: back"),
        ]
        lines += wrap_items(keys, width)
        return lines


_MEMORY = (("strict", N_("strict (top only)")), ("casual", N_("casual")))


def _create_fields(
    v: dict[str, str], levels: tuple[str, ...], rated: bool, hints: bool
) -> list[Field]:
    players = int(v.get("players", "2"))
    is_rated = rated and v.get("rated") == "yes"  # players only: no bots, strict memory
    colours = ["white", "black", v.get("third_colour", "lilac")]
    seat_opts = tuple((str(s), f"{s + 1} ({colour_name(colours[s])})") for s in range(players))
    no, yes = _("no"), _("yes")
    fields = [
        Field("table", _("Table name")),
        Field("player", _("Your name")),
        Field("players", _("Players"), (("2", "2"), ("3", "3"))),
        Field("recipes", _("Recipes (variant)"), (("off", _("off")), ("on", _("on")))),
        Field(
            "start_card",
            _("Starting card"),
            (
                ("no_player_colors", _("no black/white")),
                ("not_own_color", _("not your colour")),
            ),
        ),
        *([] if is_rated else [Field("memory", _("Memory"), tuple((k, _(w)) for k, w in _MEMORY))]),
        *(  # the third seat's colour: nothing to choose for two players
            [Field("third_colour", _("Third colour"), tuple((c, colour_name(c)) for c in THIRDS))]
            if players == 3
            else []
        ),
        *(  # 1.5: the expert's suggestion on request; never at a rated table
            [Field("hints", _("Hints (H: the expert)"), (("no", no), ("yes", yes)))]
            if hints and not is_rated
            else []
        ),
        Field("private", _("Private (invite)"), (("no", no), ("yes", yes))),
        Field(
            "clock",
            _("Clock per move"),
            (
                ("off", _("off")),
                ("30", _("{n} s").format(n=30)),
                ("60", _("{n} s").format(n=60)),
                ("120", _("{n} min").format(n=2)),
            ),
        ),
        Field("seat", _("Your seat"), seat_opts),
    ]
    if rated:
        fields.insert(1, Field("rated", _("Rated (ratings change)"), (("no", no), ("yes", yes))))
    if v.get("seat", "0") not in {s for s, _ in seat_opts}:
        v["seat"] = "0"
    if is_rated:
        v["memory"] = "strict"
        v["hints"] = "no"
    for s in range(players if not is_rated else 0):
        if str(s) != v.get("seat", "0"):
            bot_opts = (
                ("none", _("a player (wait)")),
                *((lv, _("{level} bot").format(level=level_word(lv))) for lv in levels),
            )
            seat = _("Seat {number} ({colour})").format(
                number=s + 1, colour=colour_name(colours[s])
            )
            fields.append(Field(f"bot{s}", seat, bot_opts))
    fields.append(Field("create", _("Create table"), button=True))
    return fields


def create_form(
    name: str, levels: tuple[str, ...] = (), *, rated: bool = False, hints: bool = False
) -> Form:
    """The new-table form; ``levels``: the computer levels the server offers (its
    ``welcome.bot_levels``; the engine's own when empty), the first-game level first.
    ``rated`` (a signed-in player, 1.2) offers a rated table: players only. ``hints``
    (a 1.5 server) offers hints at a table that is not rated."""
    from shared.bots import LEVELS

    offered = levels or tuple(LEVELS)
    order = sorted(offered, key=lambda lv: lv != FIRST_GAME_LEVEL)
    values = {
        "table": _("{name}'s table").format(name=name)[:TEXT_MAX],
        "player": name,
        "players": "2",
        "recipes": "off",
        "start_card": "no_player_colors",
        "memory": "strict",
        "third_colour": "lilac",
        "private": "no",
        "clock": "off",
        "seat": "0",
        "rated": "no",
        "hints": "no",
        **{f"bot{s}": "none" for s in range(3)},
    }
    return Form(_("New table"), lambda v: _create_fields(v, tuple(order), rated, hints), values)


def table_rated(v: dict[str, str]) -> bool:
    """The create form's rated choice (offered to a signed-in player only)."""
    return v.get("rated") == "yes"


def table_timing(v: dict[str, str]) -> m.Timing | None:
    """The create form's clock: seconds per move (a computer moves for a seat whose
    time runs out), or None for no clock."""
    clock = v.get("clock", "off")
    return m.Timing(move=int(clock)) if clock.isdigit() else None


def table_request(
    v: dict[str, str],
) -> tuple[str, m.TableOptions, bool, list[tuple[int, str]], str, int]:
    """The create form's values as (name, options, private, bots, player, seat)."""
    players = int(v["players"])
    seat = int(v["seat"])
    options = m.TableOptions.model_validate(
        {
            "players": players,
            "recipes": v["recipes"] == "on",
            "start_card": v["start_card"],
            "memory": v["memory"],
            "third_colour": v["third_colour"],
            **({"hints": True} if v.get("hints") == "yes" and not table_rated(v) else {}),
        }
    )
    bots = [
        (s, v[f"bot{s}"])
        for s in range(players)
        if s != seat and v.get(f"bot{s}", "none") != "none" and not table_rated(v)
    ]
    name = v["table"].strip() or "table"
    return name, options, v["private"] == "yes", bots, v["player"].strip() or "player", seat


def join_seats() -> tuple[tuple[str, str], ...]:
    """The join form's seat choices: the first free seat, or a given one (the third
    seat's colour is the table's choice)."""
    white, black = colour_name("white"), colour_name("black")
    return (("any", _("the first free")), ("0", f"1 ({white})"), ("1", f"2 ({black})"), ("2", "3"))


def _join_seats(
    v: dict[str, str], listing: Sequence[m.TableSummary]
) -> tuple[tuple[str, str], ...]:
    """The seats to offer: of a listed table, only its free ones (with their colours);
    of another, every seat."""
    listed = next((t for t in listing if t.id == v.get("table_id", "").strip()), None)
    if listed is None:
        return join_seats()
    colours = ["white", "black", listed.options.third_colour]
    free = [s.seat for s in listed.seats if s.name is None and not s.bot]
    seats = ((str(s), f"{s + 1} ({colour_name(colours[s])})") for s in free)
    return (join_seats()[0], *seats)


def _join_fields(v: dict[str, str], listing: Sequence[m.TableSummary] = ()) -> list[Field]:
    seats = _join_seats(v, listing)
    if v.get("seat") not in {value for value, _ in seats}:
        v["seat"] = "any"  # the table changed: its seats are other ones
    return [
        Field("table_id", _("Table id")),
        Field("invite", _("Invite code")),
        Field("player", _("Your name")),
        Field("seat", _("Seat"), seats),
        Field("join", _("Join"), button=True),
        Field("watch", _("Watch"), button=True),
    ]


def join_form(name: str, table_id: str = "", listing: Sequence[m.TableSummary] = ()) -> Form:
    """Join (or watch) a table by id, at the first free seat or a chosen one (of a
    table in ``listing``, only its free seats are offered)."""
    return Form(
        _("Join a table by id (private tables need the invite code)"),
        lambda v: _join_fields(v, listing),
        {"table_id": table_id, "invite": "", "player": name, "seat": "any"},
    )


def join_seat(v: dict[str, str]) -> int | None:
    """The join form's seat: None for the first free one."""
    seat = v.get("seat", "any")
    return int(seat) if seat.isdigit() else None
