"""The full-screen terminal application: a lobby (LAN servers, a direct address, the
tables of a server, new table, join, watch) and the table screen (grid, kettles, events,
score table). Drawing is done by ``render``, decisions by ``TableModel`` and ``Form``;
this module only wires keys, the mouse and the client's updates to them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections.abc import Awaitable, Callable

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output

from protocol import messages as m

from ..discovery import Browser, FoundServer
from ..lib import BadToken, Client, ClientError, Status, normalize_url
from ..tokens import LogStore
from .forms import Form, create_form, join_form, join_seat, table_request, table_timing
from .render import (
    Cards,
    Line,
    Size,
    colour_table,
    describe_event,
    help_lines,
    join_lines,
    pad,
    render_grid,
    render_scores,
    render_side,
    seat_label,
    seat_status,
    side_by_side,
    text_of,
    too_small_lines,
    wrap,
    wrap_items,
)
from .table import Intent, LogEntry, TableModel, line_words

__all__ = ["TERMINAL_PROTOCOL", "KupferApp"]

TERMINAL_PROTOCOL = m.PROTOCOL_VERSION
"""The protocol the terminal client's screens are written for (1.1: results of every
ending, clocks, absent players, rematch)."""

END_PAUSE = 1.5
"""Seconds after a game ends during which Enter (and ``l``) do not leave the result: a
key pressed once too often while taking the last card must not skip the score table."""

_CONNECTION_TROUBLE = ("! not connected", "! the connection closed")

KEY_NAMES = {
    Keys.Up: "up",
    Keys.Down: "down",
    Keys.Left: "left",
    Keys.Right: "right",
    Keys.ControlM: "enter",
    Keys.ControlJ: "enter",
    Keys.ControlI: "tab",
    Keys.BackTab: "s-tab",
    Keys.Escape: "escape",
    Keys.ControlH: "backspace",
    Keys.Backspace: "backspace",
    Keys.PageUp: "pageup",
    Keys.PageDown: "pagedown",
}


def _no_colour(style: str) -> str:
    """A style without its colours (bold, reverse, underline stay)."""
    return " ".join(w for w in style.split() if not re.match(r"(fg|bg):", w))


async def sit_down(
    client: Client,
    table: str,
    player: str,
    *,
    invite: str | None = None,
    seat: int | None = None,
    resume_seat: int | None = None,
) -> None:
    """Sit at ``table``: take back a seat whose token is kept (``resume_seat``, or any
    of ``player``'s), or join (at ``seat``, or the first free one) and say ready. A kept
    token the server no longer knows (the seat was left before the game, the server
    lost its games) is forgotten, and the player joins instead."""
    if client.saved_table(table, player):
        try:
            await client.resume(table, player, resume_seat)
            return
        except BadToken:
            pass
    await client.join(table, player, invite=invite, seat=seat)
    await client.ready()


def table_terms(table: m.TableSummary) -> str:
    """A listed table's terms in a few words: players, variant, memory, clock."""
    o = table.options
    terms = [f"{o.players} players"]
    terms += ["recipes"] if o.recipes else []
    terms += ["casual memory"] if o.memory == "casual" else []
    move = table.timing.move if table.timing is not None else None
    terms += [f"{move} s a move" if move < 120 else f"{move // 60} min a move"] if move else []
    terms += ["private"] if table.private else []
    return ", ".join(terms)


class KupferApp:
    """One terminal session. Give it a connected ``client`` (already at a table, or in
    its lobby), or nothing and let the player pick a server (``browser`` lists LAN
    servers, ``address`` pre-fills the direct address)."""

    def __init__(
        self,
        *,
        name: str,
        client: Client | None = None,
        browser: Browser | None = None,
        address: str = "",
        allow_lobby: bool = True,
        watch_only: bool = False,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.name = name
        self.client = client
        self.browser = browser
        self.address = address
        self.allow_lobby = allow_lobby
        self.watch_only = watch_only  # ``kupferkessel watch``: Enter watches a table
        self.screen = "table" if client is not None and client.table else "lobby"
        self.show_help = False
        self.show_board = False  # at the end: the final grid instead of the score table
        self.status = ""  # the last error or notice
        self.conn = "connected" if client is not None else "not connected"
        self.table = TableModel(client.seat if client else None)
        self.seats: tuple[m.SeatInfo, ...] = ()
        self.tables: tuple[m.TableSummary, ...] = ()
        self.focus = "servers" if client is None else "tables"
        self.server_index = 0
        self.table_index = 0
        self.form: Form | None = None
        self.chat: str | None = None  # the chat line being typed
        self.confirm_quit = False
        self.confirm_resign = False
        self.ended: str | None = None  # why the game ended without a final score
        self.scroll = 0  # the score table's first line
        self.log_scroll = 0  # log lines hidden below (PgUp pages back)
        self.help_scroll = 0
        self.show_log = False  # the whole log, full screen (L)
        self.side_scroll = 0  # the side panel's first line, when it pages
        self.hosting = False  # this process runs the server: quitting stops it
        self.no_colour = bool(os.environ.get("NO_COLOR"))
        self.cut_lines: list[str] = []  # lines too long for the last screen drawn
        self.clock_at = 0.0  # when the latest view (and its clock) arrived
        self.rematch_asked = False
        self.over_at = 0.0  # when the game was seen to end
        self.bye = ""  # the server's last goodbye (shown until the connection is back)
        self.server_stopped = False  # it said goodbye because it stops (the host quit)
        self._tasks: set[asyncio.Task[None]] = set()
        self.app: Application[int] = Application(
            layout=Layout(
                Window(FormattedTextControl(self.text, focusable=True, show_cursor=False))
            ),
            key_bindings=self._bindings(),
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
        )
        if browser is not None:
            browser.on_change = self.app.invalidate

    # ------------------------------------------------------------------ running
    async def run(self) -> int:
        if self.client is not None:
            if self.client.table is not None:
                self._sit(self.client)
            self._watch_client(self.client)
        self._spawn(self._refresh_tables())
        self._spawn(self._tick())
        try:
            return await self.app.run_async()
        finally:
            for t in list(self._tasks):
                t.cancel()

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _watch_client(self, client: Client) -> None:
        self._spawn(self._consume(client))

    async def _consume(self, client: Client) -> None:
        async for update in client.updates():
            self.on_update(update)
            self.app.invalidate()

    async def _tick(self) -> None:
        """Redraw twice a second while a clock runs (the countdown)."""
        while True:
            await asyncio.sleep(0.5)
            if self.clock_line() is not None:
                self.app.invalidate()

    async def _refresh_tables(self) -> None:
        while True:
            waiting = self.screen == "table" and self.table.view is None  # its terms
            listing = self.screen == "lobby" or waiting
            if listing and self.client is not None and self.client.connected:
                with contextlib.suppress(ClientError):
                    self.tables = await self.client.list_tables()
                    self.app.invalidate()
            await asyncio.sleep(2.0)

    def _act(self, action: Callable[[], Awaitable[None]]) -> None:
        """Run a network action; errors end up in the status line, never a traceback."""

        async def go() -> None:
            try:
                await action()
            except ClientError as e:
                self.status = f"! {getattr(e, 'message', e)}"
                self.table.failed()
            except OSError as e:
                self.status = f"! cannot connect: {e.strerror or e}"
            self.app.invalidate()

        self._spawn(go())

    # ------------------------------------------------------------------ updates
    def names(self) -> list[str | None]:
        return [s.name for s in self.seats]

    def on_update(self, u: m.ServerMessage | Status) -> None:
        if isinstance(u, m.ViewMsg):
            self.clock_at = time.monotonic()
            self.table.me = self.client.seat if self.client else None
            was_over = self.table.view is not None and self.table.view.game_over
            self.table.set_view(u.view, u.state_version)
            if u.view.game_over and not was_over:
                self.over_at = time.monotonic()
            if self.screen != "table":
                self.screen = "table"
            client = self.client
            if (
                u.view.game_over
                and client
                and client.tokens
                and client.table
                and u.view.seat is not None
            ):
                LogStore(client.tokens.directory).forget(client.url, client.table, u.view.seat)
        elif isinstance(u, m.EventsMsg):
            self.log_events(u.events)
        elif isinstance(u, m.PresenceMsg):
            self.log_presence(u.seats)
            self.seats = u.seats
            self.table.resigned = not self.seated_in_game() and self.table.me is not None
            v = self.table.view
            if u.state == "finished" and v is not None and not v.game_over:
                who = [s.name or f"seat {s.seat + 1}" for s in u.seats if s.resigned]
                self.ended = f"The game ended: {', '.join(who) or 'a player'} resigned."
                self.over_at = time.monotonic()
                self.table.finished = True
                self.status = ""
        elif isinstance(u, m.RematchedMsg):  # everyone agreed: a new game, new table
            self._back_to_table(u.table)
        elif isinstance(u, m.ChatLineMsg):
            self.table.log.append(LogEntry(f"<{u.name}> {u.text}"))
        elif isinstance(u, m.ErrorMsg):
            self.status = f"! {u.message}"
            self.table.failed()
        elif isinstance(u, m.ByeMsg):
            self.status = self.bye = f"server: {u.message or u.reason}"
            self.server_stopped = u.reason == "shutdown"
        elif isinstance(u, Status):
            self.conn = {
                "connected": "connected",
                "resumed": "connected",
                "reconnecting": f"reconnecting (try {u.attempt})",
                "closed": f"disconnected ({u.detail})",
            }.get(u.state, u.state)
            over = (*_CONNECTION_TROUBLE, self.bye)
            if u.state in ("connected", "resumed"):
                self.server_stopped = False
                if self.status in over:
                    self.status = ""  # "! not connected", the server's goodbye: over

    def log_presence(self, seats: tuple[m.SeatInfo, ...]) -> None:
        """What the log must say that no game event says: a seat resigned (with three
        players a computer plays it to the end), a computer took over an absent seat,
        its person came back."""
        v = self.table.view
        if v is None or v.game_over or len(seats) != len(self.seats):
            return
        for old, new in zip(self.seats, seats, strict=True):
            who = seat_label(v.colours, new.seat, [s.name for s in seats])
            text = None
            if new.resigned and not old.resigned:
                text = f"{who} resigned"
                text += ": a computer plays their seat to the end" if v.players > 2 else ""
            elif new.resigned:
                continue
            elif new.absent and not old.absent:
                text = f"{who} is away: a computer plays for them"
            elif old.absent and not new.absent:
                text = f"{who} is back"
            if text is not None:
                self.table.log.append(LogEntry(text))
                self._keep_log()

    def log_events(self, events: tuple[m.GameEvent, ...]) -> None:
        """A batch of public events into the log, in words. The view still is the one
        the take was decided on: it says whether a symbol could act at all."""
        v = self.table.view
        colours = v.colours if v else ("white", "black", "lilac")
        names, cards = self.names(), self.cards()
        discarded = any(isinstance(e, m.DiscardedEvent) for e in events)
        for e in events:
            could_act = True
            if isinstance(e, m.TookEvent) and v is not None:
                symbol = cards.by_id[e.card].symbol if e.card in cards.by_id else None
                could_act = (v.turn_in_row < 2) if symbol == "wand" else bool(v.explodable)
            words = describe_event(e, colours, names, cards, could_act=could_act)
            if words:
                turn = e.seat if isinstance(e, m.MovedEvent | m.PassedCornerEvent) else None
                self.table.log.append(LogEntry(words, turn))
            if isinstance(e, m.TookEvent) and e.ends_game and not discarded:
                who = seat_label(colours, e.seat, names)
                self.table.log.append(LogEntry(f"{who} keeps {cards.name(e.card)}"))
        self.log_scroll = 0
        self._keep_log()

    def _keep_log(self) -> None:
        """Keep what the log may show on disk, for a client started again."""
        client = self.client
        if client is None or client.tokens is None or client.table is None or client.seat is None:
            return
        entries = [(e.text, e.turn) for e in self.table.visible_log()]
        with contextlib.suppress(OSError):
            LogStore(client.tokens.directory).save(client.url, client.table, client.seat, entries)

    def _restore_log(self, client: Client) -> None:
        """A resumed seat shows the last round it saw, not an empty log."""
        if client.tokens is None or client.table is None or client.seat is None:
            return
        kept = LogStore(client.tokens.directory).load(client.url, client.table, client.seat)
        self.table.log.extend(LogEntry(text, turn) for text, turn in kept)

    def cards(self) -> Cards:
        assert self.client is not None and self.client.welcome is not None
        return Cards.of(self.client.catalogue)

    # ------------------------------------------------------------------ keys
    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        @kb.add(Keys.ControlC)
        def _(event: KeyPressEvent) -> None:
            event.app.exit(result=0)

        for key, name in KEY_NAMES.items():
            kb.add(key)(self._handler(name))

        @kb.add(Keys.Any)
        def _(event: KeyPressEvent) -> None:
            self.key(event.data)

        return kb

    def _handler(self, name: str) -> Callable[[KeyPressEvent], None]:
        def handle(event: KeyPressEvent) -> None:
            self.key(name)

        return handle

    def key(self, key: str) -> None:
        """Every key press lands here (named keys as ``up``, ``enter``, ...)."""
        if self.chat is not None:
            self._chat_key(key)
        elif self.confirm_quit:
            self.confirm_quit = False
            if key in ("y", "q"):
                self.app.exit(result=0)
        elif self.confirm_resign:
            self.confirm_resign = False
            if key == "y" and self.client is not None:
                self._act(self.client.resign)
        elif self.show_help:
            if key in ("down", "j", "pagedown", " "):
                self.help_scroll += 1 if key in ("down", "j") else 10
            elif key in ("up", "k", "pageup"):
                self.help_scroll = max(0, self.help_scroll - (1 if key in ("up", "k") else 10))
            else:
                self.show_help = False
        elif self.show_log:
            if key in ("up", "k", "pageup"):
                self.log_scroll += 1 if key in ("up", "k") else 10
            elif key in ("down", "j", "pagedown", " "):
                self.log_scroll = max(0, self.log_scroll - (1 if key in ("down", "j") else 10))
            else:
                self.show_log = False
                self.log_scroll = 0
        elif key == "?":
            self.show_help = True
            self.help_scroll = 0
        elif key == "L" and self.screen == "table" and self.form is None:
            self.show_log = True
            self.log_scroll = 0
        elif self.form is not None:
            self._form_key(key)
        elif self.screen == "table":
            self._table_key(key)
        else:
            self._lobby_key(key)
        self.app.invalidate()

    def _quit(self) -> None:
        """q during a game: ask first, and say what really happens."""
        v = self.table.view
        playing = self.screen == "table" and v is not None and not v.game_over
        if self.hosting or (playing and self.seated_in_game()):
            self.confirm_quit = True
        else:
            self.app.exit(result=0)

    def _chat_key(self, key: str) -> None:
        text = self.chat or ""
        if key == "escape":
            self.chat = None
        elif key == "enter":
            self.chat = None
            if text.strip() and self.client is not None:
                client = self.client
                self._act(lambda: client.chat(text.strip()))
        elif key == "backspace":
            self.chat = text[:-1]
        elif len(key) == 1 and key.isprintable() and len(text) < 200:
            self.chat = text + key

    def _leave_finished(self) -> None:
        """Enter or q once the game is over: back to the lobby (``play`` has none:
        quit)."""
        if self.allow_lobby:
            self._back_to_lobby()
        else:
            self._quit()

    def _table_key(self, key: str) -> None:
        t = self.table
        v = t.view
        if key in ("pageup", "pagedown"):
            up = key == "pageup"
            self.side_scroll = max(0, self.side_scroll + (-3 if up else 3))
            self.log_scroll = max(0, self.log_scroll + (5 if up else -5))
            return
        if self.ended is not None or (v is not None and v.game_over):
            if key == "r" and self.can_rematch() and self.client is not None:
                client, again = self.client, not self.rematch_asked
                self.rematch_asked = again
                self._act(lambda: client.rematch(again))
            elif key in ("q", "escape", "enter"):
                # the keys that played the last turn, pressed once too often, must not
                # leave the result unseen: they go back only after a moment
                if key in ("escape", "q") or time.monotonic() - self.over_at >= END_PAUSE:
                    self._leave_finished()
            elif key == "g":
                self.show_board = not self.show_board
            elif key in ("up", "down", "k", "j"):
                self.scroll = max(0, self.scroll + (1 if key in ("down", "j") else -1))
            elif key == "c":
                self.chat = ""
            return
        if t.decision is not None and key not in ("c", "R", "q"):  # those work anyway
            self._send(t.answer(key))
            return
        if key in ("left", "up", "h", "k"):
            t.move(-1)
        elif key in ("right", "down", "l", "j"):
            t.move(1)
        elif key.isdigit() and len(key) == 1:
            t.jump(int(key))
        elif key in ("enter", " "):
            self._send(t.select())
        elif key == "c":
            self.chat = ""
        elif key == "R" and self.seated_in_game():
            self.confirm_resign = True
        elif key == "w" and self.claimable() and self.client is not None:
            self._act(self.client.claim)
        elif key == "b" and self.replaced_me() and self.client is not None:
            self._act(self.client.back)
        elif key == "q":
            self._quit()
        elif key == "escape" and self.allow_lobby and (t.view is None or not self.seated_in_game()):
            self._back_to_lobby()

    def click(self, row: int, col: int) -> None:
        if self.table.decision is None:
            self._send(self.table.select((row, col)))
            self.app.invalidate()

    def _send(self, intent: Intent | None) -> None:
        if intent is None or self.client is None:
            return
        client, version = self.client, self.table.state_version
        self.status = ""

        async def take() -> None:
            await client.take(
                intent.card,
                special=intent.special,
                targets=intent.targets,
                keep=intent.keep,
                state_version=version,
            )

        self._act(take)

    def _sit(self, client: Client) -> None:
        """Show the table ``client`` now sits at or watches, from what the client already
        knows. The game may have started (a view arrived) while the request that seated
        us was still being answered, whatever the order people sat down in: that view is
        kept, never replaced by an empty waiting screen. The log so far is kept too."""
        log = self.table.log
        if self.table.me != client.seat or self.screen != "table":
            self.table = TableModel(client.seat)
            self.table.log.extend(log)
            if not log:
                self._restore_log(client)
        t = self.table
        if client.view is not None and (t.view is None or client.state_version > t.state_version):
            t.set_view(client.view, client.state_version)
        if client.presence is not None:
            self.seats = client.presence.seats
            t.resigned = not self.seated_in_game() and t.me is not None
        self.screen = "table"

    def _back_to_table(self, table: str) -> None:
        """A rematch: the same people at a new table, colours moved one seat on."""
        client = self.client
        self.ended = None
        self.show_board = False
        self.scroll = self.log_scroll = 0
        self.rematch_asked = False
        self.table = TableModel(client.seat if client else None)
        self.screen = "table"
        self.status = f"Rematch: a new game at table {table}; colours move one seat on"

    def _back_to_lobby(self) -> None:
        client = self.client
        self.screen = "lobby"
        self.focus = "tables"
        self.table = TableModel()
        self.seats = ()
        self.ended = None
        self.show_board = False
        self.scroll = self.log_scroll = 0
        if client is not None and client.table is not None:
            self._act(client.leave)

    # ------------------------------------------------------------------ lobby
    def servers(self) -> list[FoundServer]:
        return self.browser.servers if self.browser is not None else []

    def _lobby_key(self, key: str) -> None:
        if self.focus == "address":
            if key == "enter":
                self.connect(self.address)
            elif key == "backspace":
                self.address = self.address[:-1]
            elif key in ("tab", "escape"):
                self.focus = "tables" if self.client else "servers"
            elif key in ("up", "down"):
                self.focus = "servers"
            elif len(key) == 1 and key.isprintable():
                self.address += key
            return
        if key == "q":
            self.app.exit(result=0)
        elif key == "tab":
            order = ["servers", "address", "tables"] if self.client else ["servers", "address"]
            self.focus = order[(order.index(self.focus) + 1) % len(order)]
        elif key == "a":
            self.focus = "address"
        elif key in ("up", "down"):
            step = 1 if key == "down" else -1
            if self.focus == "servers":
                n = len(self.servers())
                self.server_index = (self.server_index + step) % n if n else 0
            else:
                n = len(self.tables)
                self.table_index = (self.table_index + step) % n if n else 0
        elif key == "enter" and self.focus == "servers":
            found = self.servers()
            if found:
                self.connect(found[min(self.server_index, len(found) - 1)].url)
        elif self.client is None:
            return
        elif key == "n":
            levels = self.client.welcome.bot_levels if self.client.welcome else ()
            self.form = create_form(self.name, levels)
        elif key == "p":  # the table chosen in the list, if any: its id filled in
            chosen = self.tables[self.table_index] if self.table_index < len(self.tables) else None
            self.form = join_form(self.name, chosen.id if chosen else "")
        elif key == "r":
            self._act(self._reload)
        elif key in ("enter", "w") and self.focus == "tables" and self.tables:
            table = self.tables[min(self.table_index, len(self.tables) - 1)]
            mine = self.client.saved_table(table.id, self.name)
            # Enter on a table whose game runs without us: watch it (``watch`` opens
            # the lobby with Enter meaning watch)
            watch = key == "w" or self.watch_only or (table.state != "lobby" and not mine)
            self._enter_table(table.id, None, watch=watch)

    async def _reload(self) -> None:
        if self.client is not None:
            self.tables = await self.client.list_tables()

    def connect(self, url: str) -> None:
        if not url.strip():
            self.status = "! type an address like ws://192.168.1.5:8765"
            return
        url = normalize_url(url)

        async def go() -> None:
            old = self.client
            client = Client(url, name=self.name, protocol=TERMINAL_PROTOCOL)
            self.status = f"connecting to {url}..."
            self.app.invalidate()
            await client.connect()
            if old is not None:
                await old.close()
            self.client = client
            self.focus = "tables"
            self.status = f"connected to {client.welcome.server if client.welcome else url}"
            self.tables = await client.list_tables()
            self._watch_client(client)

        self._act(go)

    def _enter_table(
        self,
        table: str,
        invite: str | None,
        *,
        watch: bool,
        player: str | None = None,
        seat: int | None = None,
    ) -> None:
        client = self.client
        assert client is not None

        async def go() -> None:
            if watch:
                await client.watch(table, invite=invite)
            else:
                name = player or self.name
                resume = self._seat_to_resume(table)
                await sit_down(client, table, name, invite=invite, seat=seat, resume_seat=resume)
            self._sit(client)
            self.status = ""

        self._act(go)

    def _seat_to_resume(self, table: str) -> int | None:
        """Of the seats at ``table`` kept for our name, one nobody is connected to (two
        terminals of one user must not take each other's seat); None: any."""
        saved = self.client.saved_seats(table, self.name) if self.client else []
        listed = next((tb for tb in self.tables if tb.id == table), None)
        for seat in saved:
            info = listed.seats[seat] if listed and seat < len(listed.seats) else None
            if info is None or not info.connected:
                return seat
        return saved[0] if saved else None

    def _form_key(self, key: str) -> None:
        form = self.form
        assert form is not None
        if key == "escape":
            self.form = None
            return
        pressed = form.key(key)
        if pressed is None or self.client is None:
            return
        client = self.client
        self.form = None
        if pressed == "create":
            name, options, private, bots, player, seat = table_request(form.values)
            timing = table_timing(form.values)
            self.name = player

            async def create() -> None:
                created = await client.create_table(
                    name,
                    options,
                    private=private,
                    bots=bots,
                    player=player,
                    seat=seat,
                    timing=timing,
                )
                self._sit(client)
                self.status = f"invite code: {created.invite}" if created.invite else ""
                await client.ready()

            self._act(create)
        else:
            v = form.values
            self.name = v["player"].strip() or self.name
            self._enter_table(
                v["table_id"].strip(),
                v["invite"].strip() or None,
                watch=pressed == "watch",
                seat=join_seat(v),
            )

    # ------------------------------------------------------------------ drawing
    def size(self) -> tuple[int, int]:
        s = self.app.output.get_size()
        return max(1, s.columns), max(1, s.rows)

    def text(self) -> StyleAndTextTuples:
        width, height = self.size()
        if Size(width, height).too_small:
            lines = too_small_lines(width, height)
            # a question asked, or the last word, still shows; q still quits
            lines += [[], *wrap_items(["q: quit"], width), *self.status_lines(width)]
            lines += [[] for _ in range(height - len(lines))]
        else:
            status = self.status_lines(width)
            rows = height - len(status)  # the status line (wrapped) is at the bottom
            if self.show_help:
                lines = self.help_page(width, rows)
            elif self.show_log and self.screen == "table":
                lines = self.log_page(width, rows)
            elif self.form is not None:
                lines = self.form.render(width)
            elif self.screen == "table" and self.client is not None and self.client.welcome:
                lines = self.table_lines(width, rows + 1)
            else:
                lines = self.lobby_lines(width, rows + 1)
            lines = lines[:rows]
            lines += [[] for _ in range(rows - len(lines))]
            lines += status
        lines = lines[:height]
        # what pad() would cut: nothing, ever (the screen tests hold every screen to it)
        self.cut_lines = [text_of(ln) for ln in lines if len(text_of(ln)) > width]
        lines = [pad(line, width) for line in lines]
        if self.no_colour:  # NO_COLOR: marks and words only, no colours at all
            lines = [[(_no_colour(f[0]), *f[1:]) for f in line] for line in lines]
        return join_lines(lines)

    def help_page(self, width: int, rows: int) -> list[Line]:
        catalogue = self.client.catalogue if self.client and self.client.welcome else None
        lines = help_lines(width, catalogue)
        foot = wrap_items(["Up/Down, PgUp/PgDn: scroll", "any other key: back"], width)
        room = rows - len(foot)
        self.help_scroll = max(0, min(self.help_scroll, len(lines) - room))
        shown = lines[self.help_scroll : self.help_scroll + room]
        return shown + [[] for _ in range(room - len(shown))] + foot

    def log_page(self, width: int, rows: int) -> list[Line]:
        """The log on the whole screen (``L``): every entry the rules allow, wrapped,
        the newest at the bottom, paged with Up/Down and PgUp/PgDn."""
        memory = self.table.view.options.memory if self.table.view else "strict"
        what = "since your previous turn" if memory == "strict" else "the whole game"
        if self.table.me is None and memory == "strict":
            what = "the last round"
        head: list[Line] = [self.header("kettles and log", width)]
        foot = wrap_items(["Up/Down, PgUp/PgDn: scroll", "any other key: back"], width)
        room = rows - len(head) - len(foot)
        side = self.side_lines(width, compact=False, legend=False) if self.client else []
        wrapped = [
            *side,
            *wrap([("bold", f"Log ({what})")], width),
            *(self.wrapped_log(width) or [[("fg:#808080", "  (nothing yet)")]]),
        ]
        if len(wrapped) > room:
            shown, more = self.log_window(wrapped, room - 1, "Up", "Down")
            shown = [[("fg:#808080 italic", more)], *shown]
        else:
            self.log_scroll = 0
            shown = wrapped
        return head + shown + [[] for _ in range(room - len(shown))] + foot

    def status_lines(self, width: int) -> list[Line]:
        """The status line, wrapped (at most three lines): never cut."""
        return wrap(self.status_line(width), width)[:3]

    def status_line(self, width: int) -> Line:
        if self.confirm_quit:
            if self.hosting:
                text = "Quit? This stops the server: the game ends for everyone connected. y/n"
            else:
                text = "Leave? Your seat stays yours: come back with join to resume. y/n"
            return [("bold reverse", text)]
        if self.confirm_resign:
            v = self.table.view
            if v is not None and v.players > 2:
                text = "Resign? A computer plays your seat to the end; you place last. y/n"
            else:
                text = "Resign? The game ends now and the other player wins. y/n"
            return [("bold reverse", text)]
        if self.chat is not None:
            return [("bold", "say: "), ("", self.chat[-(width - 6) :] + "_")]
        style = "fg:#ff5f5f bold" if self.status.startswith("!") else "fg:#a0a0a0"
        return [(style, self.status)]

    def header(self, title: str, width: int) -> Line:
        conn = self.conn
        style = "fg:#40c060" if conn == "connected" else "fg:#ff5f5f bold"
        right = f" {conn} "
        left = f" Kupferkessel Co. - {title}"
        if len(left) + len(right) >= width:  # the title matters more than the name
            left = f" {title}"
        return [("bold", left[: width - len(right) - 1].ljust(width - len(right))), (style, right)]

    def table_lines(self, width: int, height: int) -> list[Line]:
        client = self.client
        assert client is not None
        cards = self.cards()
        t = self.table
        v = t.view
        table_id = client.table or "?"
        who = "watching" if t.me is None else f"seat {t.me + 1}"
        lines: list[Line] = [self.header(f"table {table_id} ({who})", width)]
        if v is None:
            return lines + self.waiting_lines(table_id, width)
        if v.game_over and not self.show_board:
            return lines + self.score_lines(width, height - 2)
        if self.ended is not None and not self.show_board:
            return lines + self.ended_lines(width, height - 2)
        size = Size(width, height)
        cursor = (
            t.cursor_cell()
            if t.decision is None
            else (t.decision.choice.row, t.decision.choice.col)
        )
        grid = render_grid(v, cards, cursor, self.click, size)
        side = self.side_lines(size.side_width, compact=not size.side_right, legend=size.log_right)
        bottom = self.prompt_lines(width) + wrap_items(self.key_items(), width)
        room = height - 1 - len(lines) - len(bottom)  # the status line is the last
        if size.side_right:
            left = list(grid)
            right = self.pane(side, size.side_width, room, with_log=size.log_right)
            if not size.log_right:
                left += self.log_lines(size.grid_width, room - len(left))
            elif room - len(left) > 9:  # room under the grid: which colour is which
                table = colour_table(client.catalogue)
                left += [[], *[p for ln in table for p in wrap(ln, size.grid_width, 4)]]
            lines += side_by_side(left, right, size.grid_width)
        else:
            lines += grid + self.pane(side, width, room - len(grid), with_log=True)
        return lines[: height - 1 - len(bottom)] + bottom

    def side_lines(self, width: int, *, compact: bool, legend: bool) -> list[Line]:
        """The side panel: whose turn, the deck, the kettles, who is here, recipes."""
        client = self.client
        assert client is not None
        t = self.table
        return render_side(
            t.view,
            self.cards(),
            client.catalogue,
            self.names(),
            self.seats,
            t.me,
            width,
            compact=compact,
            legend=legend,
        )

    def pane(self, side: list[Line], width: int, rows: int, *, with_log: bool) -> list[Line]:
        """The side panel in ``rows`` lines, followed by the log ``with_log`` (under the
        grid on a small terminal, in the right column on a big one); when the panel
        alone does not fit it pages (PgUp/PgDn) instead of being cut."""
        if rows <= 1 and len(side) > rows:  # no room for a page: say where it all is
            where: Line = [("fg:#808080 italic", "kettles and log: L")]
            return [where][:rows]
        if len(side) < rows or (len(side) == rows and not with_log):
            self.side_scroll = 0
            if not with_log:
                return side
            return side + self.log_lines(width, rows - len(side))
        page = max(1, rows - 1)
        self.side_scroll = max(0, min(self.side_scroll, len(side) - page))
        shown = side[self.side_scroll : self.side_scroll + page]
        rest = len(side) - self.side_scroll - len(shown)
        more = f"{rest} more line{'s' if rest != 1 else ''} (PgDn)" if rest else "end (PgUp: back)"
        if with_log:  # the log has no room here: say where it is
            more += "; the log: L"
        return [*shown, [("fg:#808080 italic", more)]]

    def waiting_lines(self, table_id: str, width: int) -> list[Line]:
        state = self.client.presence.state if self.client and self.client.presence else ""
        title = (
            "The game has started; the board is on its way..."
            if state == "playing"
            else "Waiting for players to sit down..."
        )
        lines: list[Line] = [[], [("bold", title)]]
        for s in self.seats:
            how = "bot" if s.bot else "ready" if s.ready else "joined" if s.name else "free"
            lines.append([("", f"  seat {s.seat + 1}: {s.name or '-'} ({how})")])
        listed = next((tb for tb in self.tables if tb.id == table_id), None)
        if listed is not None:
            lines.append([("", f"  {table_terms(listed)}")])
        lines.append([])
        lines.append([("", f"Others join from their lobby, or with the table id {table_id}.")])
        invite = self.client.invite if self.client else None
        if invite:
            lines.append([("", "Invite code (private table): "), ("bold", invite)])
        keys = ["?: help", "c: chat", *(["Esc: lobby"] if self.allow_lobby else []), "q: quit"]
        lines += [[], *wrap_items(keys, width)]
        return [piece for line in lines for piece in wrap(line, width)]

    def ended_lines(self, width: int, rows: int) -> list[Line]:
        """The result of a game that ended before its last card (a resignation): who
        ended it, who sat where, and the way out."""
        v = self.table.view
        assert v is not None and self.ended is not None
        lines: list[Line] = [[], [("bold", self.ended)]]
        if v.players == 2:
            still = [s for s in self.seats if not s.resigned]
            if len(still) == 1:
                lines.append(
                    [("bold", f"Winner: {seat_label(v.colours, still[0].seat, self.names())}")]
                )
        lines.append([])
        for s in self.seats:
            how = seat_status(s)[1]
            lines.append([("", f"  {seat_label(v.colours, s.seat, self.names())}: {how}")])
        lines.append([("fg:#808080", "  (no score: the game was not played to its end)")])
        keys = ["g: the board as it was", "c: chat", "?: help"]
        keys += ["Enter/q: back to the lobby"] if self.allow_lobby else ["Enter/q: quit"]
        body = [piece for line in lines for piece in wrap(line, width)]
        foot = [[], *wrap_items(keys, width)]
        return body[: rows - len(foot)] + [[] for _ in range(rows - len(foot) - len(body))] + foot

    def seated_in_game(self) -> bool:
        """We hold a seat that still plays (not one that resigned)."""
        info = self.seat_info(self.table.me)
        return self.table.me is not None and not (info is not None and info.resigned)

    def seat_info(self, seat: int | None) -> m.SeatInfo | None:
        return self.seats[seat] if seat is not None and seat < len(self.seats) else None

    def can_rematch(self) -> bool:
        """A seated person at a table that ended with a 1.1 result may ask again."""
        v = self.table.view
        return v is not None and v.result is not None and self.table.me is not None

    def claimable(self) -> bool:
        """Two players, the game on, and the opponent absent: the win may be claimed."""
        v = self.table.view
        me = self.table.me
        if v is None or v.game_over or me is None or v.players != 2:
            return False
        other = self.seat_info(1 - me)
        return other is not None and other.absent

    def replaced_me(self) -> bool:
        """A computer plays our seat (our time ran out move after move)."""
        info = self.seat_info(self.table.me)
        return info is not None and info.computer and not info.resigned

    def clock_line(self) -> str | None:
        """The running seat's time, counting down between views."""
        v = self.table.view
        c = v.clock if v is not None and not v.game_over else None
        if c is None or c.running is None or c.running >= len(c.left_ms):
            return None
        left = max(0.0, c.left_ms[c.running] / 1000 - (time.monotonic() - self.clock_at))
        clock = f"{int(left) // 60}:{int(left) % 60:02d}"
        if c.running == self.table.me:
            return f"Your clock: {clock} left, then a computer moves for you."
        who = seat_label(v.colours, c.running, self.names()) if v else "?"
        return f"Clock: {who} has {clock} left."

    def rematch_line(self) -> str | None:
        if not self.can_rematch():
            return None
        v = self.table.view
        assert v is not None
        asked = [seat_label(v.colours, s.seat, self.names()) for s in self.seats if s.rematch]
        line = "Rematch (same people, colours move on): "
        line += f"asked by {', '.join(asked)}. " if asked else "nobody has asked yet. "
        return line + ("r: withdraw" if self.rematch_asked else "r: ask for it")

    def away_line(self) -> str | None:
        """Who the game waits for, when their connection is gone."""
        v = self.table.view
        if v is None or v.game_over or v.to_move is None or v.to_move >= len(self.seats):
            return None
        info = self.seats[v.to_move]
        if self.replaced_me():
            return "A computer plays your seat (your time ran out): b takes it back."
        for other in self.seats:
            if other.absent and other.seat != self.table.me and not other.resigned:
                who = seat_label(v.colours, other.seat, self.names())
                line = f"{who} is away: a computer plays for them until they come back."
                return line + ("  w: claim the win" if self.claimable() else "")
        if info.connected or info.bot or info.resigned or v.to_move == self.table.me:
            return None
        who = seat_label(v.colours, v.to_move, self.names())
        return (
            f"{who} is away (the connection is gone): the game waits for them; a "
            "computer takes over if they stay away."
        )

    def prompt_lines(self, width: int) -> list[Line]:
        t = self.table
        if self.ended is not None:
            return wrap([("bold", self.ended)], width)
        if self.conn != "connected":
            text = f"Not connected to the server: {self.conn}. Your seat is kept for you."
            if t.me is None:
                text = f"Not connected to the server: {self.conn}."
            if self.server_stopped:  # the host quit: the game may not come back
                text = (
                    f"The server has stopped: {self.conn}, in case it comes back with the "
                    "game (a host that keeps its games). q: quit"
                )
            return wrap([("fg:#ff5f5f bold", text)], width)
        lines = wrap([("bold", t.prompt(self.names()))], width)
        away = self.away_line()
        if away is not None:
            lines += wrap([("fg:#ff8700 bold", away)], width)
        clock = self.clock_line()
        if clock is not None:
            lines += wrap([("fg:#87afd7 bold", clock)], width)
        land = t.landing(self.cards().value) if t.decision is None and not t.busy else None
        if land is not None:
            where = f"by {line_words(land.line)}" if land.line else "on a corner: a lost turn"
            style = "fg:#ff8700" if land.line is None else "fg:#87afd7"
            text = f"This card on top: next turn you move {land.value}, land {where}"
            lines += wrap([(style, text)], width)
        return lines

    def key_items(self) -> list[str]:
        t = self.table
        v = t.view
        lobby = ["Esc: lobby"] if self.allow_lobby else []
        if self.ended is not None or (v is not None and v.game_over):
            back = "g: result" if self.ended else "g: score table"
            out = ["Enter/q: lobby"] if self.allow_lobby else ["q: quit"]
            return [back, "PgUp/PgDn, L: log", "?: help", *out]
        common = ["PgUp/PgDn, L: log", "c: chat", "?: help & colours"]
        if not self.seated_in_game():  # watching, or resigned (a computer plays on)
            return [*common, *lobby, "q: quit", "* boom ~ wand"]
        extra = ["w: claim the win"] if self.claimable() else []
        extra += ["b: back to your seat"] if self.replaced_me() else []
        return [
            *extra,
            "arrows/hjkl, 0-5: choose",
            "Enter: take",
            *common,
            "R: resign",
            "q: quit",
            "* boom ~ wand",
        ]

    def log_lines(self, width: int, rows: int) -> list[Line]:
        """The log in ``rows`` lines: the entries the rules allow, wrapped, the newest
        at the bottom; PgUp/PgDn page through what does not fit, ``L`` shows it all."""
        if rows <= 0:
            return []
        wrapped = self.wrapped_log(width)
        if len(wrapped) <= rows:
            self.log_scroll = 0
            return wrapped + [[] for _ in range(rows - len(wrapped))]
        if rows == 1:  # no room for a page: say where the log is
            n = len(wrapped)
            return [[("fg:#808080 italic", f"log: {n} lines (L: read the log)"[:width])]]
        shown, more = self.log_window(wrapped, rows - 1, "PgUp", "PgDn")
        return [[("fg:#808080 italic", f"log: {more}, L: all"[:width])], *shown]

    def wrapped_log(self, width: int) -> list[Line]:
        return [
            piece
            for e in self.table.visible_log()
            for piece in wrap([("fg:#c0c0c0", e.text)], width)
        ]

    def log_window(
        self, wrapped: list[Line], page: int, up: str, down: str
    ) -> tuple[list[Line], str]:
        """``page`` lines of the wrapped log, ``log_scroll`` lines up from the newest,
        and words for what lies above and below them."""
        self.log_scroll = max(0, min(self.log_scroll, len(wrapped) - page))
        end = len(wrapped) - self.log_scroll
        shown = wrapped[max(0, end - page) : end]
        above, below = end - len(shown), self.log_scroll
        parts = [f"{above} more above ({up})"] if above else []
        parts += [f"{below} below ({down})"] if below else []
        return shown, ", ".join(parts) or "the whole log"

    def score_lines(self, width: int, rows: int) -> list[Line]:
        client = self.client
        assert client is not None and self.table.view is not None
        v = self.table.view
        body = render_scores(v, self.cards(), client.catalogue, self.names(), width)
        keys = ["g: show the board", "Up/Down: scroll", "?: help"]
        keys += ["Enter/q: back to the lobby"] if self.allow_lobby else ["q: quit"]
        foot = wrap_items(keys, width)
        rematch = self.rematch_line()
        if rematch is not None:
            foot = wrap([("bold", rematch)], width) + foot
        room = rows - len(foot)
        if len(body) > room:
            self.scroll = max(0, min(self.scroll, len(body) - room + 1))
            end = self.scroll + room - 1
            rest = len(body) - end
            words = (
                f"{rest} more line{'s' if rest != 1 else ''} (Down)" if rest else "end (Up: back)"
            )
            more: Line = [("fg:#808080 italic", words)]
            body = [*body[self.scroll : end], more]
        else:
            self.scroll = 0
        return body + [[] for _ in range(room - len(body))] + foot

    def lobby_lines(self, width: int, height: int) -> list[Line]:
        lines: list[Line] = [self.header("lobby", width), []]
        left: list[Line] = [[("bold", "Servers on the LAN")]]
        found = self.servers()
        if self.browser is None:
            left.append([("fg:#808080", "  (not browsing)")])
        elif not found:
            left.append([("fg:#808080", "  searching...")])
        for i, s in enumerate(found):
            sel = self.focus == "servers" and i == self.server_index
            text = f"{'>' if sel else ' '} {s.name} ({s.tables} open)"
            left += wrap([("reverse" if sel else "", text)], 33, 4)
        left.append([])
        left.append([("bold", "Direct address")])
        focused = self.focus == "address"
        shown = (self.address + ("_" if focused else ""))[-30:]
        left.append([("reverse" if focused else "underline", shown.ljust(30))])
        room = width - 35
        right: list[Line] = []
        if self.client is None:
            right.append([("fg:#808080", "Pick a server (Enter) or type an address (a).")])
        else:
            right.append([("bold", f"Tables on {self.client.url}")])
            if not self.tables:
                right.append([("fg:#808080", "  no tables yet: press n to create one")])
            for i, tb in enumerate(self.tables):
                sel = self.focus == "tables" and i == self.table_index
                seats = ", ".join(s.name or "-" for s in tb.seats)
                mine = " *" if self.client.saved_table(tb.id, self.name) else ""
                text = f"{'>' if sel else ' '} {tb.name} ({tb.state}; {table_terms(tb)}): "
                text += f"{seats}{mine}"
                right += wrap([("reverse" if sel else "", text)], room, 4)
        right = [piece for line in right for piece in wrap(line, room)]
        lines += side_by_side(left, right, 34)
        lines.append([])
        enter = "Enter: connect/watch" if self.watch_only else "Enter: connect/join"
        keys = ["Tab: pane", enter, "w: watch", "n: new table", "p: join by id", "q: quit"]
        lines += wrap_items(keys, width)
        client = self.client
        if client is not None and any(client.saved_table(tb.id, self.name) for tb in self.tables):
            lines += wrap_items(["* your seat: Enter takes it back"], width)
        return lines
