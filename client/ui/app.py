"""The full-screen terminal application: a lobby (LAN servers, a direct address, the
tables of a server, new table, join, watch) and the table screen (grid, kettles, events,
score table). Drawing is done by ``render``, decisions by ``TableModel`` and ``Form``;
this module only wires keys, the mouse and the client's updates to them.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from ..lib import Client, ClientError, Status, normalize_url
from .forms import Form, create_form, join_form, table_request
from .render import (
    GRID_WIDTH,
    Cards,
    Line,
    describe_event,
    help_lines,
    join_lines,
    pad,
    render_grid,
    render_scores,
    render_side,
    side_by_side,
)
from .table import Intent, TableModel

__all__ = ["KupferApp"]

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
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.name = name
        self.client = client
        self.browser = browser
        self.address = address
        self.allow_lobby = allow_lobby
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
        self.scroll = 0
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
            self._watch_client(self.client)
        self._spawn(self._refresh_tables())
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

    async def _refresh_tables(self) -> None:
        while True:
            if self.screen == "lobby" and self.client is not None and self.client.connected:
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
            self.table.me = self.client.seat if self.client else None
            self.table.set_view(u.view, u.state_version)
            if self.screen != "table":
                self.screen = "table"
        elif isinstance(u, m.EventsMsg):
            v = self.table.view
            colours = v.colours if v else ("white", "black", "lilac")
            for e in u.events:
                words = describe_event(e, colours, self.names(), self.cards())
                if words:
                    self.table.log.append(words)
        elif isinstance(u, m.PresenceMsg):
            self.seats = u.seats
            v = self.table.view
            if u.state == "finished" and v is not None and not v.game_over:
                who = [s.name or f"seat {s.seat + 1}" for s in u.seats if s.resigned]
                self.ended = f"The game ended: {', '.join(who) or 'a player'} resigned."
                self.status = self.ended + "  q: quit"
        elif isinstance(u, m.ChatLineMsg):
            self.table.log.append(f"<{u.name}> {u.text}")
        elif isinstance(u, m.ErrorMsg):
            self.status = f"! {u.message}"
            self.table.failed()
        elif isinstance(u, m.ByeMsg):
            self.status = f"server: {u.message or u.reason}"
        elif isinstance(u, Status):
            self.conn = {
                "connected": "connected",
                "resumed": "connected",
                "reconnecting": f"reconnecting (try {u.attempt})",
                "closed": f"disconnected ({u.detail})",
            }.get(u.state, u.state)

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
            self.show_help = False
        elif key == "?":
            self.show_help = True
        elif self.form is not None:
            self._form_key(key)
        elif self.screen == "table":
            self._table_key(key)
        else:
            self._lobby_key(key)
        self.app.invalidate()

    def _quit(self) -> None:
        v = self.table.view
        if (
            self.screen == "table"
            and v is not None
            and not v.game_over
            and self.table.me is not None
        ):
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

    def _table_key(self, key: str) -> None:
        t = self.table
        v = t.view
        if self.ended is not None:
            if key == "q":
                self.app.exit(result=0)
            elif key in ("l", "escape") and self.allow_lobby:
                self.ended = None
                self._back_to_lobby()
            return
        if v is not None and v.game_over:
            if key == "q":
                self.app.exit(result=0)
            elif key in ("l", "escape") and self.allow_lobby:
                self._back_to_lobby()
            elif key == "g":
                self.show_board = not self.show_board
            elif key in ("up", "down"):
                self.scroll = max(0, self.scroll + (1 if key == "down" else -1))
            return
        if t.decision is not None:
            self._send(t.answer(key))
            return
        if key in ("left", "up"):
            t.move(-1)
        elif key in ("right", "down"):
            t.move(1)
        elif key in ("enter", " "):
            self._send(t.select())
        elif key == "c":
            self.chat = ""
        elif key == "R" and t.me is not None:
            self.confirm_resign = True
        elif key == "q":
            self._quit()

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
        t = self.table
        if client.view is not None and (t.view is None or client.state_version > t.state_version):
            t.set_view(client.view, client.state_version)
        if client.presence is not None:
            self.seats = client.presence.seats
        self.screen = "table"

    def _back_to_lobby(self) -> None:
        client = self.client
        self.screen = "lobby"
        self.focus = "tables"
        self.table = TableModel()
        self.seats = ()
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
            self.form = create_form(self.name)
        elif key == "p":
            self.form = join_form(self.name)
        elif key == "r":
            self._act(self._reload)
        elif key in ("enter", "w") and self.focus == "tables" and self.tables:
            table = self.tables[min(self.table_index, len(self.tables) - 1)]
            self._enter_table(table.id, None, watch=key == "w")

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
            client = Client(url, name=self.name)
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
        self, table: str, invite: str | None, *, watch: bool, player: str | None = None
    ) -> None:
        client = self.client
        assert client is not None

        async def go() -> None:
            if watch:
                await client.watch(table, invite=invite)
            elif client.saved_table(table, player or self.name):
                await client.resume(table, player or self.name, self._seat_to_resume(table))
            else:
                await client.join(table, player or self.name, invite=invite)
                self._sit(client)
                await client.ready()
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
            self.name = player

            async def create() -> None:
                created = await client.create_table(
                    name, options, private=private, bots=bots, player=player, seat=seat
                )
                self._sit(client)
                self.status = f"invite code: {created.invite}" if created.invite else ""
                await client.ready()

            self._act(create)
        else:
            v = form.values
            self.name = v["player"].strip() or self.name
            self._enter_table(
                v["table_id"].strip(), v["invite"].strip() or None, watch=pressed == "watch"
            )

    # ------------------------------------------------------------------ drawing
    def size(self) -> tuple[int, int]:
        s = self.app.output.get_size()
        return max(40, s.columns), max(10, s.rows)

    def text(self) -> StyleAndTextTuples:
        width, height = self.size()
        if self.show_help:
            lines = help_lines()
        elif self.form is not None:
            lines = self.form.render(width)
        elif self.screen == "table" and self.client is not None and self.client.welcome:
            lines = self.table_lines(width, height)
        else:
            lines = self.lobby_lines(width, height)
        lines = lines[: height - 1]
        lines += [[] for _ in range(height - 1 - len(lines))]
        lines.append(self.status_line(width))
        return join_lines([pad(line, width) for line in lines])

    def status_line(self, width: int) -> Line:
        if self.confirm_quit:
            return [("bold reverse", "Leave? Your seat stays yours (resume later). y/n")]
        if self.confirm_resign:
            return [("bold reverse", "Resign? The game ends for everyone. y/n")]
        if self.chat is not None:
            return [("bold", "say: "), ("", self.chat + "_")]
        style = "fg:#ff5f5f bold" if self.status.startswith("!") else "fg:#a0a0a0"
        return [(style, self.status)]

    def header(self, title: str, width: int) -> Line:
        conn = self.conn
        style = "fg:#40c060" if conn == "connected" else "fg:#ff5f5f bold"
        right = f" {conn} "
        return [
            (
                "bold",
                f" Kupferkessel Co. - {title}"[: width - len(right) - 1].ljust(width - len(right)),
            ),
            (style, right),
        ]

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
            lines.append([])
            lines.append([("bold", "Waiting for players to sit down...")])
            for s in self.seats:
                state = "bot" if s.bot else "ready" if s.ready else "joined" if s.name else "free"
                lines.append([("", f"  seat {s.seat + 1}: {s.name or '-'} ({state})")])
            lines.append([])
            lines.append([("", f"Others join from their lobby, or with the table id {table_id}.")])
            return lines
        if v.game_over and not self.show_board:
            body = render_scores(v, cards, client.catalogue, self.names())
            body = body[self.scroll :]
            lines += body
            lines.append([])
            keys = "q quit   g show the board   Up/Down scroll"
            lines.append([("fg:#808080", keys + ("   l lobby" if self.allow_lobby else ""))])
            return lines
        cursor = (
            t.cursor_cell()
            if t.decision is None
            else (t.decision.choice.row, t.decision.choice.col)
        )
        grid = render_grid(v, cards, cursor, self.click)
        side = render_side(
            v,
            cards,
            client.catalogue,
            self.names(),
            self.seats,
            t.me,
            max(20, width - GRID_WIDTH - 1),
        )
        lines += side_by_side(grid, side, GRID_WIDTH)
        log_rows = max(1, height - len(lines) - 3)
        recent = list(t.log)[-log_rows:]
        lines += [[("fg:#c0c0c0", entry)] for entry in recent]
        lines += [[] for _ in range(log_rows - len(recent))]
        lines.append([("bold", t.prompt(self.names()))])
        if v.game_over:
            lines.append([("fg:#808080", "g: back to the score table   q: quit")])
        else:
            lines.append(
                [("fg:#808080", "arrows+Enter: take   c: chat   ?: help & scoring   q: quit")]
            )
        return lines

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
            text = f"{'>' if sel else ' '} {s.name[:20]} ({s.tables} open)"
            left.append([("reverse" if sel else "", text)])
        left.append([])
        left.append([("bold", "Direct address")])
        focused = self.focus == "address"
        left.append(
            [
                (
                    "reverse" if focused else "underline",
                    (self.address + ("_" if focused else "")).ljust(30)[:30],
                )
            ]
        )
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
                text = f"{'>' if sel else ' '} {tb.name[:16]:<16} {tb.state:<8} {seats}{mine}"
                right.append([("reverse" if sel else "", text[: width - 36])])
        lines += side_by_side(left, right, 34)
        lines.append([])
        keys = "Tab: pane  Enter: connect/join  w: watch  n: new table  p: join by id  q: quit"
        lines.append([("fg:#808080", keys)])
        if self.client is not None:
            lines.append([("fg:#808080", "* your seat: Enter takes it back")])
        return lines
