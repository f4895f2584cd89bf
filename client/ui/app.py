"""The full-screen terminal application: it composes the lobby and the table screen,
runs the client's updates into them, routes keys, and draws the screen of the moment
with the questions it asks itself (help, chat, quit?).

The screens (``lobby``, ``game``) hold their own state and draw themselves; they get
this application as a small ``host`` interface, and this module only wires keys, the
client's updates and the clock to them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections.abc import Awaitable

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from websockets.exceptions import InvalidHandshake, InvalidURI

from client.i18n import LANGUAGES, N_, _, language, language_name, use
from protocol import messages as m

from ..discovery import Browser
from ..lib import Client, ClientError, Missed, Status
from ..settings import Settings
from .browser import browser_lines
from .chat import FRESH
from .game import END_PAUSE, GameScreen
from .guide import PAGES, guide_lines
from .host import Action
from .keys import key_bindings
from .lobby import LobbyScreen
from .pacing import Pacer
from .players import PlayersScreen
from .refusals import bye_words, client_error_words, error_words
from .render import (
    Line,
    Size,
    help_lines,
    join_lines,
    pad,
    tail_fitting,
    text_of,
    too_small_lines,
    wrap,
    wrap_items,
)
from .seating import sit_down

__all__ = ["END_PAUSE", "TERMINAL_PROTOCOL", "KupferApp", "sit_down"]

TERMINAL_PROTOCOL = m.PROTOCOL_VERSION
"""The protocol the terminal client's screens are written for (1.2: registered players,
ratings, past games; 1.1: results of every ending, clocks, absent players, rematch).
The server answers with the lower of its own and this, and the screens follow it."""

_CONNECTION_TROUBLE = (N_("not connected"), N_("the connection closed"))


def _no_colour(style: str) -> str:
    """A style without its colours (bold, reverse, underline stay)."""
    return " ".join(w for w in style.split() if not re.match(r"(fg|bg):", w))


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
        settings: Settings | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.pacer = Pacer(self.settings.pace)
        self.client = client
        self.allow_lobby = allow_lobby
        self.screen = "table" if client is not None and client.table else "lobby"
        # a notice that the game's next take makes old (the rematch's, the guide's
        # offer): the cards taken when it was said (``status_line`` clears it after)
        self.notice_ply: int | None = None
        self.missed_said = ""  # 1.4: what was missed, said again once it has shown
        self.status = ""  # the last error or notice (setting it ends a notice)
        self.conn = "connected" if client is not None else _("not connected")
        self.bye = ""  # the server's last goodbye (shown until the connection is back)
        self.server_stopped = False  # it said goodbye because it stops (the host quit)
        self.hosting = False  # this process runs the server: quitting stops it
        self.local = False  # ``play``: the game's server lives and dies with this program
        self.show_help = False
        self.help_scroll = 0
        self.guide: int | None = None  # the first-game guide's page on the screen
        self.web_urls: list[str] | None = None  # hosting: the page's addresses (``B``)
        self.show_browser = False
        self.saying: str | None = None  # the chat line being typed (c)
        self.confirm_quit = False
        self.no_colour = bool(os.environ.get("NO_COLOR"))
        self.cut_lines: list[str] = []  # lines too long for the last screen drawn
        self.lobby = LobbyScreen(
            self,
            name=name,
            protocol=TERMINAL_PROTOCOL,
            browser=browser,
            address=address,
            watch_only=watch_only,
        )
        self.game = GameScreen(self, hold=self.settings.hold)
        self.players = PlayersScreen(self)
        self.game.table.me = client.seat if client else None
        self._tasks: set[asyncio.Task[None]] = set()
        self.app: Application[int] = Application(
            layout=Layout(
                Window(FormattedTextControl(self.text, focusable=True, show_cursor=False))
            ),
            key_bindings=key_bindings(self.key),
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
        )
        if browser is not None:
            browser.on_change = self.app.invalidate

    # ------------------------------------------------------------------ running
    async def run(self) -> int:
        if self.settings.guide:  # the first run: offer the guide, once
            offer = _("New to the game? G: a three-screen guide")
            self.notice(f"{self.status}   {offer}" if self.status else offer)
            self.settings = self.settings.save(guide=False)
        if self.client is not None:
            self.signed_in(self.client)
            if self.client.table is not None:
                self.sat_down(self.client)
            self._watch_client(self.client)
        self._spawn(self._refresh_tables())
        self._spawn(self._tick())
        try:
            return await self.app.run_async()
        finally:
            for t in list(self._tasks):
                t.cancel()
            if self.settings.title:  # the window's own title again
                self.app.output.clear_title()
                self.app.output.flush()

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _watch_client(self, client: Client) -> None:
        self._spawn(self._consume(client))

    async def _consume(self, client: Client) -> None:
        async for update in client.updates():
            wait = self.pacer.delay(update, self.game.table.me, client.waiting)
            if wait > 0:  # the turn before stays on the screen a moment longer
                await asyncio.sleep(wait)
            self.on_update(update)
            self.pacer.shown(update)
            self.app.invalidate()

    async def _tick(self) -> None:
        """Redraw twice a second while a clock runs (the countdown)."""
        while True:
            await asyncio.sleep(0.5)
            chat = self.game.chat  # its newest line goes away after a while
            if self.game.clock_line() is not None or time.monotonic() - chat.at < FRESH + 1:
                self.app.invalidate()

    async def _refresh_tables(self) -> None:
        """Keep the listing fresh in the lobby, and on the waiting screen (its terms)."""
        while True:
            waiting = self.screen == "table" and self.game.table.view is None
            listing = self.screen == "lobby" or waiting
            if listing and self.client is not None and self.client.connected:
                with contextlib.suppress(ClientError):
                    self.lobby.tables = await self.client.list_tables()
                    self.app.invalidate()
            await asyncio.sleep(2.0)

    # ------------------------------------------------------------------ the host
    def act(self, action: Action) -> None:
        """Run a network action; errors end up in the status line, never a traceback."""

        async def go() -> None:
            try:
                await action()
            except ClientError as e:
                self.status = f"! {client_error_words(e)}"
                self.game.table.failed()
            except OSError as e:
                self.status = "! " + _("cannot connect: {why}").format(why=e.strerror or e)
            except (InvalidHandshake, InvalidURI) as e:
                self.status = "! " + _("not a game server: {why}").format(why=e)
            except TimeoutError:
                self.status = "! " + _("cannot connect: no answer in time")
            self.app.invalidate()

        self._spawn(go())

    @property
    def status(self) -> str:
        return self._status

    @status.setter
    def status(self, text: str) -> None:
        self._status = text
        self.notice_ply = None  # whatever is said now is no old notice

    def say(self, status: str) -> None:
        self.status = status
        self.app.invalidate()

    def notice(self, status: str) -> None:
        self.say(status)
        self.notice_ply = self._ply()  # ``status_line`` clears it after the next take

    def _ply(self) -> int:
        """The cards taken in the game on the screen (0 before one is)."""
        v = self.game.table.view
        return v.ply if v is not None else 0

    def exit(self) -> None:
        self.app.exit(result=0)

    def quit(self) -> None:
        """q: ask first when it matters, and say what really happens."""
        game = self.game
        local = self.local and game.table.view is not None and not game.over()
        if self.hosting or (self.screen == "table" and (game.playing() or local)):
            self.confirm_quit = True
        else:
            self.exit()

    def open_chat(self) -> None:
        self.saying = ""

    def turn_alert(self, mine: bool) -> None:
        """The your-turn alert (LAN games): the bell as the turn begins, and the
        window title while it lasts, each as the settings say."""
        out = self.app.output
        if self.settings.title:
            out.set_title(_("Your turn - Kupferkessel Co.") if mine else "Kupferkessel Co.")
        if self.settings.bell and mine:
            out.bell()
        if self.settings.title or (self.settings.bell and mine):
            out.flush()

    def adopt(self, client: Client) -> None:
        self.client = client
        self.players = PlayersScreen(self)
        self.signed_in(client)
        self._watch_client(client)

    def signed_in(self, client: Client) -> None:
        """The kept player signed in by itself: the forms name it, the status says so."""
        if client.player is not None:
            self.lobby.name = client.player.name
            self.status = _("signed in as {name}").format(name=client.player.name)

    def sat_down(self, client: Client) -> None:
        self.game.sit(client, fresh=self.screen != "table")
        self.screen = "table"

    def to_lobby(self) -> None:
        client = self.client
        self.screen = "lobby"
        self.lobby.focus = "tables"
        self.game.reset()
        if client is not None and client.table is not None:

            async def leave() -> None:
                await client.leave()
                await self.lobby.reload()  # not the list from before we sat down

            self.act(leave)

    # ------------------------------------------------------------------ updates
    def on_update(self, u: m.ServerMessage | Status | Missed) -> None:
        """One update from the client: the game's go to the table screen, the
        connection's to the header and the status line."""
        if isinstance(u, m.ViewMsg | m.EventsMsg | m.PresenceMsg | m.ChatLineMsg):
            replayed = isinstance(u, m.ViewMsg) and self.game.catching_up
            self.game.on_update(u)
            if replayed and self.missed_said:  # the missed takes have shown: say so still
                self._missed_over()
            if isinstance(u, m.ViewMsg | m.EventsMsg) and self.client is not None:
                self.client.shown(u.state_version)  # a client started again goes on from here
            if isinstance(u, m.ViewMsg):
                self.screen = "table"
        elif isinstance(u, m.RematchedMsg):  # everyone agreed: a new game, new table
            self.game.rematched(self.client.seat if self.client else None)
            self.screen = "table"
            # one line at 60 columns: a second would take a row from the board
            self.status = _("Rematch at table {table}: colours move one seat on").format(
                table=u.table
            )
            self.notice_ply = 0  # the new game's: gone with its first take
        elif isinstance(u, m.ErrorMsg):
            # a refusal: stale once the game goes on
            self.notice("! " + error_words(u))
            self.game.table.failed()
        elif isinstance(u, Missed):  # 1.4: what was missed comes next, paced
            said, self.missed_said = self.game.missed(u)
            if said:
                self.notice(said)
        elif isinstance(u, m.ByeMsg):
            self.status = self.bye = bye_words(u.reason)
            self.server_stopped = u.reason == "shutdown"
        elif isinstance(u, Status):
            self.conn = {
                "connected": "connected",
                "resumed": "connected",
                "reconnecting": _("reconnecting (try {n})").format(n=u.attempt),
                "closed": _("disconnected ({detail})").format(detail=u.detail),
            }.get(u.state, u.state)
            over = (*(f"! {_(t)}" for t in _CONNECTION_TROUBLE), self.bye)
            if u.state in ("connected", "resumed"):
                self.server_stopped = False
                if self.status in over:
                    self.status = ""  # "! not connected", the server's goodbye: over

    def _missed_over(self) -> None:
        """The takes missed while away have shown, for a moment each: the status line
        still says how many (the log, L, lists them; a small terminal shows no log
        beside the board) until our next take, or a spectator's next one at the
        table: a person who looked away during the replay is not left guessing."""
        said, self.missed_said = self.missed_said, ""
        v = self.game.table.view
        if self.game.table.me is None or v is None or v.game_over:
            self.notice(said)
        else:
            self.status = said  # our take says "" (``GameScreen.send``)

    # ------------------------------------------------------------------ keys
    def key(self, key: str) -> None:
        """Every key press lands here (named keys as ``up``, ``enter``, ...): the
        application's own questions first, then the screen of the moment."""
        game = self.game
        if self.saying is not None:
            self._chat_key(key)
        elif self.confirm_quit:
            self.confirm_quit = False
            if key in ("y", "q"):
                self.exit()
        elif game.asking():
            game.answer_question(key)
        elif self.guide is not None:
            self._guide_key(key)
        elif self.show_browser:
            self.show_browser = False  # any key closes it
        elif (
            key == "B"
            and self.web_urls is not None
            and not self._typing_address()
            and (self.lobby.form is None)
        ):
            self.show_browser = True
        elif key == "G" and self.lobby.form is None and not self._typing_address():
            self.guide = 0
            self.show_help = False
            offered = _("New to the game? G: a three-screen guide")
            if self.notice_ply is not None and offered in self.status:
                self.status, self.notice_ply = "", None  # the offer was taken up
        elif self.show_help:
            self._help_key(key)
        elif self.players.open and not (key == "?" and self.players.form is None):
            self.players.key(key)
        elif (
            key == "l"
            and self.screen == "lobby"
            and self.lobby.form is None
            and not self._typing_address()
        ):
            self.next_language()
        elif (
            key in ("m", "b")
            and self.screen == "lobby"
            and self.lobby.form is None
            and (not self._typing_address() and self.client is not None)
        ):
            self.players.show("me" if key == "m" else "board")
        elif game.show_log:
            game.log_key(key)
        elif game.chat.open:
            game.chat.key(key)
        elif key == "?":
            self.show_help = True
            self.help_scroll = 0
        elif key == "L" and self.screen == "table" and self.lobby.form is None:
            game.open_log()
        elif key == "C" and self.screen == "table" and self.lobby.form is None:
            game.chat.open = True
            game.chat.pager.scroll = 0
        elif self.lobby.form is not None or self.screen != "table":
            self.lobby.key(key)
        else:
            game.key(key)
        self.app.invalidate()

    def next_language(self) -> None:
        """``l`` in the lobby: the next language, spoken at once and kept in the
        settings (the pseudo-locale, a tester's, is not in the round)."""
        at = LANGUAGES.index(language()) if language() in LANGUAGES else -1
        chosen = use(LANGUAGES[(at + 1) % len(LANGUAGES)])
        self.settings = self.settings.save(lang=chosen)
        self.status = _("Language: {name}").format(name=language_name(chosen))

    def _typing_address(self) -> bool:
        return self.screen != "table" and self.lobby.focus == "address"

    def _guide_key(self, key: str) -> None:
        if key in ("right", "enter", " ", "l", "pagedown") and self.guide is not None:
            self.guide = self.guide + 1 if self.guide + 1 < len(PAGES) else None
        elif key in ("left", "h", "pageup") and self.guide:
            self.guide -= 1
        elif key not in ("left", "h", "pageup"):
            self.guide = None

    def _help_key(self, key: str) -> None:
        if key in ("down", "j", "pagedown", " "):
            self.help_scroll += 1 if key in ("down", "j") else 10
        elif key in ("up", "k", "pageup"):
            self.help_scroll = max(0, self.help_scroll - (1 if key in ("up", "k") else 10))
        else:
            self.show_help = False

    def _chat_key(self, key: str) -> None:
        text = self.saying or ""
        if key == "escape":
            self.saying = None
        elif key == "enter":
            self.saying = None
            if text.strip() and self.client is not None:
                client = self.client
                self.act(lambda: client.chat(text.strip()))
        elif key == "backspace":
            self.saying = text[:-1]
        elif key == "c-u":
            self.saying = ""
        elif len(key) == 1 and key.isprintable() and len(text) < 200:
            self.saying = text + key

    # ------------------------------------------------------------------ drawing
    def size(self) -> tuple[int, int]:
        s = self.app.output.get_size()
        return max(1, s.columns), max(1, s.rows)

    def text(self) -> StyleAndTextTuples:
        """The whole screen, every line exactly as wide as the terminal."""
        width, height = self.size()
        lines: list[Line]
        if Size(width, height).too_small:
            lines = too_small_lines(width, height)
            # a question asked, or the last word, still shows; q still quits
            lines += [[], *wrap_items([_("q: quit")], width), *self.status_lines(width)]
            lines += [[] for _ in range(height - len(lines))]
        else:
            status = self.status_lines(width)
            at_table = self.screen == "table" and self.lobby.form is None
            waiting = self.game.table.view is None
            chat = self.game.chat
            typing = self.saying is not None
            if at_table and not waiting and not chat.open and (chat.fresh() or typing):
                status = chat.newest(width) + status  # what was said last (C shows it all)
            rows = height - len(status)  # the status line (wrapped) is at the bottom
            if self.guide is not None:
                lines = guide_lines(self.guide, width, rows)
            elif self.show_browser:
                lines = browser_lines(self.web_urls or [], width, rows)
            elif self.show_help:
                lines = self.help_page(width, rows)
            elif self.players.open:
                lines = self.players.lines(width, rows, screen=height)
            elif self.game.show_log and self.screen == "table":
                lines = self.game.log_page(width, rows)
            elif self.game.chat.open and self.screen == "table":
                lines = self.game.chat_page(width, rows)
            elif self.screen == "table" and self.lobby.form is None and self._welcomed():
                lines = self.game.lines(width, rows + 1, self.lobby.tables, screen=height)
            else:
                lines = self.lobby.lines(width, rows + 1)
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

    def _welcomed(self) -> bool:
        return self.client is not None and self.client.welcome is not None

    def help_page(self, width: int, rows: int) -> list[Line]:
        catalogue = self.client.catalogue if self._welcomed() and self.client else None
        lines = help_lines(width, catalogue)
        keys = [_("Up/Down, PgUp/PgDn: scroll"), _("G: first-game guide"), _("any other key: back")]
        foot = wrap_items(keys, width)
        room = rows - len(foot)
        self.help_scroll = max(0, min(self.help_scroll, len(lines) - room))
        shown = lines[self.help_scroll : self.help_scroll + room]
        return shown + [[] for _ in range(room - len(shown))] + foot

    def status_lines(self, width: int) -> list[Line]:
        """The status line, wrapped (at most three lines): never cut."""
        return wrap(self.status_line(width), width)[:3]

    def status_line(self, width: int) -> Line:
        """The question being asked, the chat line being typed, or the last notice."""
        if self.confirm_quit:  # in one line at 60 columns: a second pushes the board up
            if self.hosting:
                said = (
                    _("Quit? This stops the server: the game ends for everyone connected. y/n"),
                    _("Quit? This stops the server and everyone's game. y/n"),
                )
            elif self.local:  # nothing to come back to: the token ends with the program
                said = (
                    _("Quit? The game ends with this program: it cannot be resumed. y/n"),
                    _("Quit? The game ends with this program for good. y/n"),
                )
            else:
                said = (
                    _("Leave? Your seat stays yours: come back with join to resume. y/n"),
                    _("Leave? Your seat stays yours: join again to resume. y/n"),
                )
            return [("bold reverse", said[0] if len(said[0]) <= width else said[1])]
        question = self.game.question(width)  # the away line above says who is away
        if question is not None:
            return [("bold reverse", question)]
        if self.saying is not None:
            say = _("say:") + " "
            return [("bold", say), ("", tail_fitting(self.saying, width - len(say) - 1) + "_")]
        if self.notice_ply is not None and self._ply() > self.notice_ply:
            self.status, self.notice_ply = "", None  # the game went on: an old notice
        style = "fg:#ff5f5f bold" if self.status.startswith("!") else "fg:#a0a0a0"
        return [(style, self.status)]
