"""The table screen: the waiting room, the game (grid, side panel, prompt, keys and
log) and its end (the score table, or the words for an early end).

It holds what one table's screen needs (the ``TableModel``, the seats, the pages'
scroll) and is handed a ``TableHost`` for the rest, so it never reaches up into the
application that shows it.
"""

from __future__ import annotations

import time

from client.i18n import _, fmt_list
from protocol import messages as m

from ..lib import Client, Missed
from . import prompt
from .board import Board, board_lines
from .chat import ChatPane
from .hints import HINT_KEY, Hints, hints_on
from .host import TableHost
from .log import (
    LogPager,
    away_entries,
    event_entries,
    forget_log,
    keep_log,
    keep_seen,
    missed_entries,
    presence_entries,
    restore_log,
    restore_seen,
)
from .pacing import HELD_KEYS
from .pane import SidePager
from .prompt import (
    away_words,
    clock_lines,
    clock_words,
    connection_words,
    key_words,
    landing_words,
)
from .recent import Recent
from .render import (
    MIN_HEIGHT,
    Cards,
    Line,
    Size,
    header,
    render_grid,
    shown_name,
    side_parts,
    wrap,
    wrap_items,
)
from .review import History, Review
from .score import ended_lines, rematch_line, score_lines
from .table import Intent, TableModel
from .waiting import waiting_lines

__all__ = ["END_PAUSE", "GameScreen"]

END_PAUSE = 1.5
"""Seconds after a game ends during which Enter (and ``l``) do not leave the result: a
key pressed once too often while taking the last card must not skip the score table."""


class GameScreen:
    """One table's screen, from the first seat taken to the score table.

    It turns the client's updates into the model and the log, keys into takes, and the
    model into lines; a rematch or a new table starts it afresh (``sit``, ``reset``).
    """

    def __init__(self, host: TableHost, *, hold: float = 0.0) -> None:
        self.host = host
        self.hold = hold  # seconds the take keys wait when our turn comes back
        self.held_until = 0.0
        self.alerted = False  # the host was told it is our turn
        self.table = TableModel()
        self.recent = Recent()
        self.seats: tuple[m.SeatInfo, ...] = ()
        self.ended: str | None = None  # why the game ended without a final score
        self.over_at = 0.0  # when the game was seen to end
        self.clock_at = 0.0  # when the latest view (and its clock) arrived
        self.rematch_asked = False
        self.show_board = False  # at the end: the final grid instead of the score table
        self.show_log = False  # the whole log, full screen (L)
        self.confirm_resign = False
        self.confirm_claim = False
        self.scroll = 0  # the score table's first line
        self.side_pager = SidePager()  # the side panel's page, when it pages
        self.log_pager = LogPager()
        self.chat = ChatPane()
        self.away: dict[str, object] | None = None  # what we saw before a restart
        self.history = History()  # for the review after the game
        self.review: Review | None = None
        self.catching_up = False  # 1.4: the missed takes show, the fresh view follows
        self.hints = Hints()  # 1.5: the expert's suggestion, at a table that allows it

    # ------------------------------------------------------------------ changes
    def reset(self) -> None:
        """Back in the lobby: nothing of the old table is kept."""
        self.rematched(None)
        self.seats = ()
        self.chat.clear()

    def rematched(self, me: int | None) -> None:
        """A new game at a new table, the same people: a fresh board and log."""
        self.table = TableModel(me)
        self.recent = Recent()
        self.history, self.review = History(), None
        self.hints = Hints()
        self.ended = None
        self.show_board = False
        self.rematch_asked = False
        self.scroll = self.log_pager.scroll = 0

    def sit(self, client: Client, *, fresh: bool) -> None:
        """Show the table ``client`` now sits at or watches, from what the client already
        knows. The game may have started (a view arrived) while the request that seated
        us was still being answered, whatever the order people sat down in: that view is
        kept, never replaced by an empty waiting screen. The log so far is kept too;
        ``fresh``: the screen showed something else (the lobby) until now."""
        log = self.table.log
        new = not log and self.table.view is None  # nothing shown yet (a restart)
        if self.table.me != client.seat or fresh or new:
            self.table = TableModel(client.seat)
            self.recent = Recent()
            self.recent.came_in(client.view, client.seat)  # did we take a card yet?
            self.table.log.extend(log)
            if not log:  # a client started again: what it showed when it stopped
                self.table.log.extend(restore_log(client, self.recent))
                if client.resumed_from is None:  # else the missed takes show, paced
                    self.away = restore_seen(client)
        t = self.table
        if client.view is not None and (t.view is None or client.state_version > t.state_version):
            t.set_view(client.view, client.state_version)
            if client.resumed_from is None:  # else the missed takes show first
                client.shown(client.state_version)
        if client.presence is not None:
            self.seats = client.presence.seats
            t.resigned = not self.seated_in_game() and t.me is not None
        if t.view is not None:
            self._came_back(client, t.view)
            if not self.history.frames:  # the board as we first see it
                self.history.saw(t.view)
        self._alert()

    def on_update(self, u: m.ServerMessage) -> None:
        """A view, events, presence or a chat line from the server."""
        client = self.host.client
        if isinstance(u, m.ViewMsg):
            self.catching_up = False
            self.clock_at = time.monotonic()
            self.table.me = client.seat if client else self.table.me
            was_over = self.table.view is not None and self.table.view.game_over
            was_mine = self.table.my_turn
            self.table.set_view(u.view, u.state_version)
            self.history.saw(u.view)
            if self.table.my_turn and not was_mine:  # a key meant for before waits
                self.held_until = time.monotonic() + self.hold
            self._alert()
            self._came_back(client, u.view)
            if u.view.game_over and not was_over:
                self.over_at = time.monotonic()
            if u.view.game_over:
                forget_log(client, u.view.seat)
        elif isinstance(u, m.EventsMsg):
            v = self.table.view
            told = event_entries(u.events, v, self.names(), self.cards(), u.by_computer)
            self.table.log.extend(told)
            self.recent.me = self.table.me
            self.recent.feed(u.events, u.by_computer)
            self.history.heard(u.events)
            self.log_pager.scroll = 0
            keep_log(client, self.table.visible_log(), self.recent)
        elif isinstance(u, m.PresenceMsg):
            said = presence_entries(self.table.view, self.seats, u.seats)
            for entry, (seat, words) in said:
                self.table.log.append(entry)
                self.recent.note(seat, words)
            if said:
                keep_log(client, self.table.visible_log(), self.recent)
            self.seats = u.seats
            self.table.resigned = not self.seated_in_game() and self.table.me is not None
            v = self.table.view
            if u.state == "finished" and v is not None and not v.game_over:
                who = [
                    s.name or _("seat {number}").format(number=s.seat + 1)
                    for s in u.seats
                    if s.resigned
                ]
                self.ended = _("The game ended: {who} resigned.").format(
                    who=fmt_list(who) or _("a player")
                )
                self.over_at = time.monotonic()
                self.table.finished = True
                self.host.say("")
        elif isinstance(u, m.ChatLineMsg):
            self.chat.add(u)

    def missed(self, missed: Missed) -> tuple[str, str]:
        """1.4, back after the connection dropped: the log says what comes next (the
        missed takes, paced as if watched); returns the notice meanwhile, and after."""
        if not missed.steps:
            return "", ""
        entries, notice = missed_entries(missed.steps, missed.by_computer, missed.omitted)
        self.table.log.extend(entries)
        self.catching_up = True
        return notice, entries[0].text

    def _alert(self) -> None:
        """Tell the host when our turn begins or ends (the bell, the window title)."""
        mine = self.table.my_turn
        if mine != self.alerted:
            self.alerted = mine
            self.host.turn_alert(mine)

    def _came_back(self, client: Client | None, view: m.GameView) -> None:
        """After a restart: say what happened while we were away, once; then keep what
        we see now for the next time."""
        if self.away is not None:
            said = away_entries(self.away, view, self.names(), self.cards())
            self.away = None
            if said:  # cards were taken meanwhile: the turns kept from before are old
                self.recent.missed()
            for entry, note in said:
                self.table.log.append(entry)
                if note is not None:
                    self.recent.note(*note)
        if not view.game_over:
            keep_seen(client, view)

    # ------------------------------------------------------------------ queries
    def names(self) -> list[str | None]:
        return [shown_name(s) for s in self.seats]

    def cards(self) -> Cards:
        client = self.host.client
        assert client is not None and client.welcome is not None
        return Cards.of(client.catalogue)

    def over(self) -> bool:
        """The game has ended, played out or not."""
        v = self.table.view
        return self.ended is not None or (v is not None and v.game_over)

    def playing(self) -> bool:
        """We hold a seat in a game that runs: leaving it needs a word first."""
        v = self.table.view
        return v is not None and not v.game_over and self.seated_in_game()

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

    # ------------------------------------------------------------------ keys
    def asking(self) -> bool:
        """A yes/no question of the table screen is open (resign? claim?)."""
        return self.confirm_resign or self.confirm_claim

    def answer_question(self, key: str) -> None:
        """The answer to "Resign?" or "Claim the win?": ``y`` does it, any other key
        does not."""
        resign, claim = self.confirm_resign, self.confirm_claim
        self.confirm_resign = self.confirm_claim = False
        client = self.host.client
        if key != "y" or client is None:
            return
        if resign:
            self.host.act(client.resign)
        elif claim and self.claimable():
            self.host.act(client.claim)

    def question(self, width: int = 80) -> str | None:
        """The open question in words, for the status line (``width`` wide)."""
        v, me = self.table.view, self.table.me
        if self.confirm_claim and v is not None and me is not None:
            return prompt.claim_words(v, me, self.names(), width)
        return prompt.resign_words(v, self.seats, me) if self.confirm_resign else None

    def log_key(self, key: str) -> None:
        """A key on the log page: paging, or back to the table."""
        if not self.log_pager.key(key):
            self.show_log = False
            self.log_pager.scroll = 0

    def open_log(self) -> None:
        self.show_log = True
        self.log_pager.scroll = 0

    def key(self, key: str) -> None:
        """A key on the table screen (no question of the application's open)."""
        t = self.table
        client = self.host.client
        if key in ("pageup", "pagedown"):
            up = key == "pageup"
            self.side_pager.step(up)
            self.log_pager.scroll = max(0, self.log_pager.scroll + (5 if up else -5))
            return
        if self.over():
            self._end_key(key)
            return
        if key in HELD_KEYS and (self.catching_up or time.monotonic() < self.held_until):
            return  # the missed takes still show, or our turn just came back
        if self.host.conn != "connected" and key in prompt.NEED_SERVER:
            return  # the key line does not offer them: nothing could be sent
        if t.decision is not None and key not in ("c", "R", "q"):  # those work anyway
            self.send(t.answer(key))
            return
        if key in ("left", "up", "h", "k"):
            t.move(-1)
        elif key in ("right", "down", "l", "j"):
            t.move(1)
        elif key.isdigit() and len(key) == 1:
            t.jump(int(key))
        elif key in ("enter", " "):
            self.send(t.select())
        elif key == "c":
            self.host.open_chat()
        elif key == HINT_KEY and self.hints.offered(t, client) and client is not None:
            self.host.act(lambda: self.hints.ask(client, t))
        elif key == "R" and self.seated_in_game():
            self.confirm_resign = True
        elif key == "w" and self.claimable() and client is not None:
            self.confirm_claim = True  # it ends the game: ask first, as R and q do
        elif key == "b" and self.replaced_me() and client is not None:
            self.host.act(client.back)
        elif key == "q":
            self.host.quit()
        elif (
            key == "escape"
            and self.host.allow_lobby
            and (t.view is None or not self.seated_in_game())
        ):
            self.host.to_lobby()

    def _end_key(self, key: str) -> None:
        """A key once the game is over: rematch, the board, the review, scrolling,
        leaving."""
        client = self.host.client
        if self.review is not None:
            if not self.review.key(key):
                self.review = None
            return
        if key == "v" and len(self.history.frames) > 1 and client is not None:
            frames, names, table = self.history.frames, self.names(), client.table
            self.review = Review.of_game(frames, names, client, table, self.host, at_end=True)
        elif key == "r" and self.can_rematch() and client is not None:
            again = not self.rematch_asked
            self.rematch_asked = again
            self.host.act(lambda: client.rematch(again))
        elif key == "q" or (key in ("escape", "enter") and self.host.allow_lobby):
            # the keys that played the last turn, pressed once too often, must not
            # leave the result unseen: they go back only after a moment; without a
            # lobby (``play``) only q, which the key line names, ends the program
            if key in ("escape", "q") or time.monotonic() - self.over_at >= END_PAUSE:
                self._leave_finished()
        elif key == "g":
            self.show_board = not self.show_board
        elif key in ("up", "down", "k", "j"):
            self.scroll = max(0, self.scroll + (1 if key in ("down", "j") else -1))
        elif key == "c":
            self.host.open_chat()

    def _leave_finished(self) -> None:
        """Enter or q once the game is over: back to the lobby (``play`` has none:
        quit)."""
        if self.host.allow_lobby:
            self.host.to_lobby()
        else:
            self.host.quit()

    def click(self, row: int, col: int) -> None:
        if self.table.decision is None and time.monotonic() >= self.held_until:
            self.send(self.table.select((row, col)))

    def send(self, intent: Intent | None) -> None:
        """Send a take decided on the current view."""
        client = self.host.client
        if intent is None or client is None:
            return
        version = self.table.state_version
        self.host.say("")

        async def take() -> None:
            await client.take(
                intent.card,
                special=intent.special,
                targets=intent.targets,
                keep=intent.keep,
                state_version=version,
            )

        self.host.act(take)

    # ------------------------------------------------------------------ drawing
    def lines(
        self,
        width: int,
        height: int,
        listing: tuple[m.TableSummary, ...],
        *,
        screen: int | None = None,
    ) -> list[Line]:
        """The table screen in ``height`` lines (the status line below is the app's);
        ``listing``: the server's tables, for the waiting screen's terms."""
        client = self.host.client
        assert client is not None
        t = self.table
        v = t.view
        table_id = client.table or "?"
        who = _("watching") if t.me is None else _("seat {number}").format(number=t.me + 1)
        title = _("table {table} ({who})").format(table=table_id, who=who)
        if hints_on(v):  # everyone at the table is told the expert may help the seats
            title = _("table {table} ({who}, hints on)").format(table=table_id, who=who)
        lines: list[Line] = [header(title, width, self.host.conn)]
        if v is None:
            started = client.presence is not None and client.presence.state == "playing"
            return lines + waiting_lines(
                table_id,
                width,
                seats=self.seats,
                listing=listing,
                started=started,
                invite=client.invite,
                allow_lobby=self.host.allow_lobby,
                chat=self.chat.pane(width, max(0, height - 14 - len(self.seats))),
            )
        if self.review is not None and self.over():
            cards, cat = self.cards(), client.catalogue
            return self.review.lines(width, height - 1, cards, cat, screen=screen)
        if v.game_over and not self.show_board:
            rematch = (
                rematch_line(v, self.seats, self.rematch_asked, width)
                if self.can_rematch()
                else None
            )
            body, self.scroll = score_lines(
                v,
                self.cards(),
                client.catalogue,
                self.names(),
                width,
                height - 2,
                scroll=self.scroll,
                allow_lobby=self.host.allow_lobby,
                rematch=rematch,
                seats=self.seats,
            )
            return lines + body
        if self.ended is not None and not self.show_board:
            return lines + ended_lines(
                v, self.ended, self.seats, width, height - 2, allow_lobby=self.host.allow_lobby
            )
        return lines + self._board_lines(client, v, width, height - 1, screen or height)

    def _board_lines(
        self, client: Client, v: m.GameView, width: int, height: int, screen: int
    ) -> list[Line]:
        """The board (``board.board_lines``), then the prompt and the keys."""
        t = self.table
        d = t.decision
        cursor = t.cursor_cell() if d is None else (d.choice.row, d.choice.col)
        self.recent.me = t.me
        self.recent.away = frozenset(s.seat for s in self.seats if s.absent and not s.resigned)
        last = self.recent.last()
        cell = last.takes[-1][2] if last is not None and last.takes else None
        path = last.path if last is not None else ()
        cards = self.cards()
        board = Board(
            view=v,
            cards=cards,
            catalogue=client.catalogue,
            recent=self.recent,
            log=t.visible_log(),
            side_pager=self.side_pager,
            log_pager=self.log_pager,
            grid=lambda size: render_grid(v, cards, cursor, self.click, size, cell, path),
            side=self.side_panel,
            bottom=self.prompt_lines(width) + wrap_items(self.key_items(width), width),
        )
        return board_lines(board, width, height, screen)

    def side_lines(self, width: int, *, compact: bool, legend: bool) -> list[Line]:
        """The side panel: whose turn, the deck, the kettles, who is here, recipes."""
        return self.side_panel(width, compact=compact, legend=legend)[0]

    def side_panel(self, width: int, *, compact: bool, legend: bool) -> tuple[list[Line], int]:
        """The side panel's lines, and how many of the first stay when it pages."""
        client = self.host.client
        assert client is not None
        t = self.table
        return side_parts(
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

    def chat_page(self, width: int, rows: int) -> list[Line]:
        """Every chat line of this table on the whole screen (``C``)."""
        return self.chat.page(header(_("chat"), width, self.host.conn), width, rows)

    def log_page(self, width: int, rows: int) -> list[Line]:
        """The kettles and the whole log the rules allow, on the whole screen (``L``)."""
        memory = self.table.view.options.memory if self.table.view else "strict"
        what = _("since your last decision") if memory == "strict" else _("the whole game")
        if self.table.me is None and memory == "strict":
            what = _("since the last decision of the player to move")
        head = header(_("kettles and log"), width, self.host.conn)
        side = self.side_lines(width, compact=False, legend=False) if self.host.client else []
        visible = self.table.visible_log()
        title = _("Log ({what})").format(what=what)
        return self.log_pager.page(head, side, visible, title, width, rows)

    def clock_line(self) -> str | None:
        """The running seat's time, counting down between views."""
        elapsed = time.monotonic() - self.clock_at
        return clock_words(self.table.view, self.table.me, self.names(), elapsed)

    def away_line(self, width: int = 80) -> str | None:
        """Who the game waits for, when their connection is gone."""
        t = self.table
        return away_words(t.view, self.seats, t.me, replaced_me=self.replaced_me(), width=width)

    def prompt_lines(self, width: int) -> list[Line]:
        """What the player is asked or told now: the prompt, who is away, the clock,
        where the chosen card sends the pawn."""
        t = self.table
        if self.ended is not None:
            return wrap([("bold", self.ended)], width)
        if self.host.conn != "connected":
            text = connection_words(self.host.conn, t.me, self.host.server_stopped)
            return wrap([("fg:#ff5f5f bold", text)], width)
        if self.catching_up:  # the board is the old one until the replay ends
            return wrap([("bold", _("Showing the takes made while you were away..."))], width)
        lines = wrap([("bold", t.prompt(self.names(), self.cards().short))], width)
        hint = self.hints.words(t, self.cards())
        if hint is not None:
            lines += wrap([("fg:#87d787", hint)], width)
        away = self.away_line(width)
        if away is not None:
            lines += wrap([("fg:#ff8700 bold", away)], width)
        elapsed = time.monotonic() - self.clock_at
        merge = not Size(width, MIN_HEIGHT).side_right  # the rows under the grid are few
        for said in clock_lines(t.view, t.me, self.names(), elapsed, width, merge=merge):
            lines += wrap([said], width)
        land = t.landing(self.cards().value) if t.decision is None and not t.busy else None
        if land is not None:
            lines += wrap([landing_words(land, width)], width)
        return lines

    def key_items(self, width: int = 80) -> list[str]:
        """The keys that work now, in words, for the line under the prompt."""
        t = self.table
        return key_words(
            width,
            allow_lobby=self.host.allow_lobby,
            over=self.over(),
            ended=self.ended is not None,
            review=len(self.history.frames) > 1,
            seated=self.seated_in_game(),
            claimable=self.claimable(),
            replaced=self.replaced_me(),
            choosing=t.my_turn and t.decision is None and not t.busy,
            hint=self.hints.offered(t, self.host.client),
            online=self.host.conn == "connected",
        )
