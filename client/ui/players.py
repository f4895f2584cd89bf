"""The players' screens (protocol 1.2): your player (register a name, or redeem another
device's code), a profile with its recent games, the leaderboard, and the replay of a
past game from its record on the review screen; on a 1.3 server also your devices,
each revocable.

It holds its own state (the page, the lists fetched so far, the selection) and is
handed the small ``PlayersHost`` to act and to speak, so it never reaches up into the
application that shows it. Lists are fetched a page at a time: moving past the last
entry fetched asks the server for the next page.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from client.i18n import N_, _, fmt_date, fmt_datetime, fmt_number, ngettext, ordinal, pgettext
from protocol import messages as m
from shared.record import Record

from .forms import Field, Form
from .host import Action, PlayersHost
from .render import Cards, Line, header, wrap, wrap_items
from .review import Review, frames_of_record

__all__ = [
    "PAGE",
    "PlayersScreen",
    "account_form",
    "device_line",
    "game_line",
    "rating_text",
    "record_of",
]

PAGE = 20
"""Entries asked for at a time (the server may send fewer)."""


def record_of(info: m.GameRecordInfo) -> Record:
    """A ``record`` message's game as the engine's ``Record`` (to replay it); its
    result is left out: the review replays the takes."""
    raw = info.model_dump(mode="json", exclude_none=True, exclude={"result"})
    return Record.from_dict(raw)


def rating_text(rating: float, provisional: bool) -> str:
    """A rating as shown: one decimal, and ``?`` while it is provisional."""
    return f"{fmt_number(rating)}{'?' if provisional else ''}"


def _day(seconds: int, *, time: bool = True) -> str:
    """A moment (``time``: with the hour) as the language writes it, in UTC."""
    when = datetime.fromtimestamp(seconds, UTC)
    return fmt_datetime(when) if time else fmt_date(when)


ENDINGS = {
    "played_out": N_("played out"),
    "resigned": N_("resigned"),
    "claimed": N_("claimed"),
    "lost_claim": N_("lost to a claim"),
    "timed_out": N_("timed out"),
    "abandoned": N_("abandoned"),
}
"""How a game ended (RULES.md section 12.1), in a word or two; 1.4's seat endings
add ``lost_claim``, the other side of a claim."""


def ending_word(ending: str) -> str:
    return _(ENDINGS[ending]) if ending in ENDINGS else ending.replace("_", " ")


def game_line(g: m.GameSummary) -> str:
    """One finished game in words: when, where, the place, with whom, how it ended."""
    place = g.places[g.seat] if g.seat < len(g.places) else 0
    others = [n or "-" for i, n in enumerate(g.names) if i != g.seat]
    text = _("{when} {table}: {place} of {count} vs {others}; {ending}").format(
        when=_day(g.finished),
        table=g.name,
        place=ordinal(place),
        count=len(g.names),
        others=", ".join(others),
        ending=ending_word(g.ending),
    )
    if g.rated and g.rating_before is not None and g.rating_after is not None:
        text += "; " + _("rated {before} -> {after}").format(
            before=fmt_number(g.rating_before), after=fmt_number(g.rating_after)
        )
    return text


_HOW = {
    "registered": N_("a device where you registered"),
    "code": N_("a device added with a code"),
}


def device_line(d: m.DeviceInfo) -> str:
    """One device of yours in words: which, when added, when it last signed in."""
    how = _(_HOW[d.label]) if d.label in _HOW else _("a device added earlier")
    which = _("this device") if d.current else how
    added = _("{device}: added {day}").format(device=which, day=_day(d.added, time=False))
    if d.last_used is None:
        return added
    return added + ", " + _("last signed in {when}").format(when=_day(d.last_used))


def _account_fields(v: dict[str, str]) -> list[Field]:
    return [
        Field("name", _("Player name")),
        Field("register", _("Register this name"), button=True),
        Field("code", _("Device code")),
        Field("redeem", _("Sign in with the code"), button=True),
    ]


def account_form(name: str) -> Form:
    """Register a player name on this server, or sign in with another device's code."""
    return Form(
        _("Your player on this server: register a name once, or type a code from another device"),
        _account_fields,
        {"name": name, "code": ""},
    )


class _Listing:
    """Entries fetched so far a page at a time, the selection, and the next cursor."""

    def __init__(self) -> None:
        self.entries: list[object] = []
        self.next: str | None = None
        self.total = 0
        self.index = 0
        self.top = 0  # the first entry shown

    def add(self, entries: Sequence[object], next_cursor: str | None, total: int) -> None:
        self.entries += entries
        self.next, self.total = next_cursor, total

    def step(self, by: int) -> bool:
        """Move the selection; True when it went past the end and a next page waits."""
        want = self.index + by
        self.index = max(0, min(len(self.entries) - 1, want))
        return want >= len(self.entries) and self.next is not None

    def window(self, render: Callable[[object, bool], list[Line]], room: int) -> list[Line]:
        """The entries that fit in ``room`` lines, the selected one among them."""
        if not self.entries:
            return []
        drawn = [render(e, i == self.index) for i, e in enumerate(self.entries)]
        self.top = min(self.top, self.index)
        while self.top < self.index and sum(map(len, drawn[self.top : self.index + 1])) > room:
            self.top += 1
        shown: list[Line] = []
        for lines in drawn[self.top :]:
            if len(shown) + len(lines) > room:
                break
            shown += lines
        return shown or drawn[self.index][:room]

    def page(self, render: Callable[[object, bool], list[Line]], room: int) -> list[Line]:
        """``window`` with, under it, how many entries the server still holds."""
        if self.next is None:
            return self.window(render, room)
        more = self.total - len(self.entries)
        said = _("{n} more: Down past the last").format(n=more)
        note: Line = [("fg:#808080 italic", f"  {said}")]
        return [*self.window(render, room - 1), note]


class PlayersScreen:
    """Your player, a profile, the leaderboard and a replay; ``page`` None: closed."""

    def __init__(self, host: PlayersHost) -> None:
        self.host = host
        self.page: str | None = None  # "account", "profile", "board", "devices"
        self.form: Form | None = None
        self.player: m.PlayerInfo | None = None
        self.games = _Listing()
        self.board = _Listing()
        self.devices = _Listing()  # 1.3: your devices (``limit``: the most kept)
        self.device_limit = 0
        self.code: m.DeviceCodeMsg | None = None
        self.code_at = 0.0
        self.review: Review | None = None
        self.replaying = ""  # the game on the review screen, in words
        self.came_from: list[str] = []  # the pages Esc goes back to

    @property
    def open(self) -> bool:
        return self.page is not None

    def _mine(self) -> bool:
        client = self.host.client
        me = client.player if client is not None else None
        return me is not None and self.player is not None and me.name == self.player.name

    # ------------------------------------------------------------------ opening
    def show(self, what: str, name: str | None = None) -> None:
        """Open ``me`` (your profile, or the account form when you have none),
        ``profile`` of ``name``, or ``board``."""
        client = self.host.client
        if client is None:
            return
        if not client.speaks_players:
            self.host.say(
                "! " + _("this server has no registered players (it speaks 1.1 or older)")
            )
            return
        if self.page is not None:
            self.came_from.append(self.page)
        if what == "board":
            self.page, self.board = "board", _Listing()
            self.host.act(self._more_board)
        elif what == "devices":
            self.page, self.devices = "devices", _Listing()
            self.host.act(self._load_devices)
        elif what == "me" and client.player is None:
            self.page, self.form = "account", account_form(self.host_name())
        else:
            self.page, self.player, self.games, self.code = "profile", None, _Listing(), None
            self.host.act(lambda: self._load_profile(None if what == "me" else name))

    def host_name(self) -> str:
        client = self.host.client
        return client.name if client is not None else ""

    def close(self) -> None:
        """Esc: the page before, or the lobby."""
        self.form = None
        self.page = self.came_from.pop() if self.came_from else None
        if self.page == "account":
            self.page = None

    # ------------------------------------------------------------------ requests
    async def _load_profile(self, name: str | None) -> None:
        client = self.host.client
        assert client is not None
        self.player = await client.profile(name)
        self.games = _Listing()
        await self._more_games()

    async def _more_games(self) -> None:
        client = self.host.client
        if client is None or self.player is None:
            return
        page = await client.games(self.player.name, self.games.next, PAGE)
        self.games.add(page.games, page.next, page.total)

    async def _more_board(self) -> None:
        client = self.host.client
        if client is None:
            return
        page = await client.leaderboard(self.board.next, PAGE)
        self.board.add(page.entries, page.next, page.total)

    def _listed(self, msg: m.DevicesMsg) -> None:
        self.devices, self.device_limit = _Listing(), msg.limit
        self.devices.add(msg.devices, None, len(msg.devices))

    async def _load_devices(self) -> None:
        client = self.host.client
        assert client is not None
        self._listed(await client.devices())

    async def _revoke(self, device: m.DeviceInfo) -> None:
        client = self.host.client
        assert client is not None
        self._listed(await client.revoke_device(device.device))
        which = _(_HOW[device.label]) if device.label in _HOW else _("a device added earlier")
        self.host.say(_("revoked {device}: it signs in no more").format(device=which))

    async def _replay(self, game: m.GameSummary) -> None:
        client = self.host.client
        assert client is not None
        rec = await client.record(game.table)
        frames = frames_of_record(record_of(rec.record))
        self.review = Review.of_game(frames, rec.names, client, game.table, self.host)
        self.replaying = f"{rec.name} ({', '.join(n or '-' for n in rec.names)})"

    async def _device_code(self) -> None:
        client = self.host.client
        assert client is not None
        self.code, self.code_at = await client.new_device_code(), time.monotonic()

    def _account(self, pressed: str, v: dict[str, str]) -> None:
        client = self.host.client
        assert client is not None

        async def go() -> None:
            if pressed == "register":
                player = await client.register(v["name"].strip())
                said = _("registered as {name}: this terminal signs in by itself")
                self.host.say(said.format(name=player.name))
            else:
                player = await client.redeem_code(v["code"].strip())
                self.host.say(_("signed in as {name} on this device too").format(name=player.name))
            self.form, self.page = None, None
            self.show("me")

        self.host.act(go)

    # ------------------------------------------------------------------ keys
    def key(self, key: str) -> None:
        """A key on the players' screens."""
        if self.review is not None:
            if not self.review.key(key):
                self.review = None
            return
        if key == "escape" or (key == "q" and self.form is None):
            self.close()
        elif self.form is not None:
            pressed = self.form.key(key)
            if pressed is not None:
                self._account(pressed, self.form.values)
        elif key == "b" and self.page != "board":
            self.show("board")
        elif key == "m":
            self.came_from.clear()
            self.page = None
            self.show("me")
        elif self.page == "profile":
            self._profile_key(key)
        elif self.page == "board":
            self._board_key(key)
        elif self.page == "devices":
            self._devices_key(key)

    def _moved(self, listing: _Listing, key: str, more: Action) -> bool:
        steps = {"down": 1, "j": 1, "up": -1, "k": -1, "pagedown": 5, "pageup": -5}
        if key not in steps:
            return False
        if listing.step(steps[key]):
            self.host.act(more)
        return True

    def _profile_key(self, key: str) -> None:
        if self._moved(self.games, key, self._more_games):
            return
        if key in ("enter", "v") and self.games.entries:
            game = self.games.entries[self.games.index]
            assert isinstance(game, m.GameSummary)
            self.host.act(lambda: self._replay(game))
        elif key == "d" and self._mine():
            self.host.act(self._device_code)
        elif key == "l" and self._mine() and self._speaks_devices():
            self.show("devices")

    def _speaks_devices(self) -> bool:
        client = self.host.client
        return client is not None and client.speaks_devices

    def _devices_key(self, key: str) -> None:
        if self._moved(self.devices, key, self._load_devices):
            return
        if key == "r" and self.devices.entries:
            device = self.devices.entries[self.devices.index]
            assert isinstance(device, m.DeviceInfo)
            if device.current:
                self.host.say("! " + _("this is the device you are on: revoke it from another one"))
            else:
                self.host.act(lambda: self._revoke(device))

    def _board_key(self, key: str) -> None:
        if self._moved(self.board, key, self._more_board):
            return
        if key == "enter" and self.board.entries:
            entry = self.board.entries[self.board.index]
            assert isinstance(entry, m.LeaderEntry)
            self.show("profile", entry.name)

    # ------------------------------------------------------------------ drawing
    def lines(self, width: int, height: int, *, screen: int | None = None) -> list[Line]:
        """The page of the moment in ``height`` lines (or fewer), on a terminal
        ``screen`` lines high (the review's cards are sized for it)."""
        client = self.host.client
        if self.review is not None and client is not None and client.welcome is not None:
            cat = client.catalogue
            return self.review.lines(width, height, Cards.of(cat), cat, screen=screen)
        if self.form is not None:
            return self.form.render(width)
        if self.page == "board":
            return self._board_lines(width, height)
        if self.page == "devices":
            return self._devices_lines(width, height)
        return self._profile_lines(width, height)

    def _foot(self, keys: list[str], width: int) -> list[Line]:
        return wrap_items(keys, width)

    def _fill(
        self, head: list[Line], body: Callable[[int], list[Line]], foot: list[Line], height: int
    ) -> list[Line]:
        room = max(1, height - len(head) - len(foot))
        shown = body(room)[:room]
        return head + shown + [[] for _ in range(room - len(shown))] + foot

    def _profile_lines(self, width: int, height: int) -> list[Line]:
        p = self.player
        title = _("player {name}").format(name=p.name) if p is not None else _("player")
        head: list[Line] = [header(title, width, self.host.conn), []]
        keys = [_("Up/Down: a game"), _("Enter: replay it"), _("b: leaderboard")]
        if self._mine():
            keys.append(_("d: a code for another device"))
            if self._speaks_devices():
                keys.append(_("l: your devices"))
        keys.append(_("Esc: back"))
        if p is None:
            head.append([("fg:#808080", "  " + _("fetching the profile..."))])
            return self._fill(head, lambda room: [], self._foot(keys, width), height)
        rating = rating_text(p.rating, p.provisional)
        facts = _("Rating {rating}  (mu {mu}, sigma {sigma})").format(
            rating=rating, mu=fmt_number(p.mu), sigma=fmt_number(p.sigma)
        )
        head += wrap([("bold", facts)], width)
        if p.provisional:
            note = _("? provisional: too few rated games to be sure yet")
            head += wrap([("fg:#c0a000", note)], width)
        played = _("Games {games}, wins {wins}, rated games {rated}; registered {day}").format(
            games=p.games, wins=p.wins, rated=p.rated_games, day=_day(p.since, time=False)
        )
        head += wrap([("", played)], width)
        if self.code is not None and self._mine():
            left = max(0, self.code.expires_in - int(time.monotonic() - self.code_at))
            text = _("Device code: {code} (for {time} more)").format(
                code=self.code.code, time=f"{left // 60}:{left % 60:02d}"
            )
            head += wrap([("bold reverse", text)], width)
            how = _("On the other device: m, then type it as the device code.")
            head += wrap([("", how)], width)
        head.append([])
        total = self.games.total
        title = _("Recent games ({n})").format(n=total) if total else _("No finished games yet")
        head += wrap([("bold", title)], width)

        def render(entry: object, selected: bool) -> list[Line]:
            assert isinstance(entry, m.GameSummary)
            mark = "> " if selected else "  "
            return wrap([("reverse" if selected else "", mark + game_line(entry))], width, 4)

        return self._fill(
            head, lambda room: self.games.page(render, room), self._foot(keys, width), height
        )

    def _devices_lines(self, width: int, height: int) -> list[Line]:
        head: list[Line] = [header(_("your devices"), width, self.host.conn), []]
        n = self.devices.total
        count = ngettext("{n} device (at most {limit})", "{n} devices (at most {limit})", n)
        said = count.format(n=n, limit=self.device_limit)
        head += wrap(
            [("bold", said if self.device_limit else _("fetching your devices..."))], width
        )
        keys = [_("Up/Down: a device"), _("r: revoke it (it signs in no more)"), _("Esc: back")]

        def render(entry: object, selected: bool) -> list[Line]:
            assert isinstance(entry, m.DeviceInfo)
            mark = "> " if selected else "  "
            return wrap([("reverse" if selected else "", mark + device_line(entry))], width, 4)

        return self._fill(
            head, lambda room: self.devices.page(render, room), self._foot(keys, width), height
        )

    def _board_lines(self, width: int, height: int) -> list[Line]:
        head: list[Line] = [header(_("leaderboard"), width, self.host.conn), []]
        total = self.board.total
        head += wrap([("bold", _("Rated players: {n}  (? provisional)").format(n=total))], width)
        columns = (
            pgettext("at most 5 letters", "rank").rjust(5),
            pgettext("at most 6 letters", "rating").rjust(6),
            pgettext("at most 5 letters", "games").rjust(5),
            _("player"),
        )
        head.append([("bold", "   " + "  ".join(columns))])
        keys = [
            _("Up/Down: a player"),
            _("Enter: their profile"),
            _("m: your player"),
            _("Esc: back"),
        ]

        def render(entry: object, selected: bool) -> list[Line]:
            assert isinstance(entry, m.LeaderEntry)
            mark = "> " if selected else "  "
            rating = rating_text(entry.rating, entry.provisional)
            text = f"{mark}{entry.rank:>5}  {rating:>6}  {entry.rated_games:>5}  {entry.name}"
            return wrap([("reverse" if selected else "", text)], width, 4)

        def body(room: int) -> list[Line]:
            if not self.board.entries:
                return [[("fg:#808080", "  " + _("nobody has played a rated game yet"))]]
            return self.board.page(render, room)

        return self._fill(head, body, self._foot(keys, width), height)
