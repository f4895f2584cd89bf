"""The table screen: the waiting room, the game (grid, side panel, prompt, keys and
log) and its end (the score table, or the words for an early end).

It holds what one table's screen needs (the ``TableModel``, the seats, the pages'
scroll) and is handed a ``TableHost`` for the rest, so it never reaches up into the
application that shows it.
"""

from __future__ import annotations

import time

from protocol import messages as m

from ..lib import Client
from .host import TableHost
from .log import (
    LogPager,
    event_entries,
    forget_log,
    keep_log,
    presence_entries,
    restore_log,
)
from .render import (
    Cards,
    Line,
    Size,
    colour_table,
    header,
    render_grid,
    render_side,
    seat_label,
    side_by_side,
    wrap,
    wrap_items,
)
from .score import ended_lines, rematch_line, score_lines
from .table import Intent, LogEntry, TableModel, line_words
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

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self.table = TableModel()
        self.seats: tuple[m.SeatInfo, ...] = ()
        self.ended: str | None = None  # why the game ended without a final score
        self.over_at = 0.0  # when the game was seen to end
        self.clock_at = 0.0  # when the latest view (and its clock) arrived
        self.rematch_asked = False
        self.show_board = False  # at the end: the final grid instead of the score table
        self.show_log = False  # the whole log, full screen (L)
        self.confirm_resign = False
        self.scroll = 0  # the score table's first line
        self.side_scroll = 0  # the side panel's first line, when it pages
        self.log = LogPager()

    # ------------------------------------------------------------------ changes
    def reset(self) -> None:
        """Back in the lobby: nothing of the old table is kept."""
        self.rematched(None)
        self.seats = ()

    def rematched(self, me: int | None) -> None:
        """A new game at a new table, the same people: a fresh board and log."""
        self.table = TableModel(me)
        self.ended = None
        self.show_board = False
        self.rematch_asked = False
        self.scroll = self.log.scroll = 0

    def sit(self, client: Client, *, fresh: bool) -> None:
        """Show the table ``client`` now sits at or watches, from what the client already
        knows. The game may have started (a view arrived) while the request that seated
        us was still being answered, whatever the order people sat down in: that view is
        kept, never replaced by an empty waiting screen. The log so far is kept too;
        ``fresh``: the screen showed something else (the lobby) until now."""
        log = self.table.log
        if self.table.me != client.seat or fresh:
            self.table = TableModel(client.seat)
            self.table.log.extend(log)
            if not log:
                self.table.log.extend(restore_log(client))
        t = self.table
        if client.view is not None and (t.view is None or client.state_version > t.state_version):
            t.set_view(client.view, client.state_version)
        if client.presence is not None:
            self.seats = client.presence.seats
            t.resigned = not self.seated_in_game() and t.me is not None

    def on_update(self, u: m.ServerMessage) -> None:
        """A view, events, presence or a chat line from the server."""
        client = self.host.client
        if isinstance(u, m.ViewMsg):
            self.clock_at = time.monotonic()
            self.table.me = client.seat if client else None
            was_over = self.table.view is not None and self.table.view.game_over
            self.table.set_view(u.view, u.state_version)
            if u.view.game_over and not was_over:
                self.over_at = time.monotonic()
            if u.view.game_over:
                forget_log(client, u.view.seat)
        elif isinstance(u, m.EventsMsg):
            v = self.table.view
            self.table.log.extend(event_entries(u.events, v, self.names(), self.cards()))
            self.log.scroll = 0
            keep_log(client, self.table.visible_log())
        elif isinstance(u, m.PresenceMsg):
            said = presence_entries(self.table.view, self.seats, u.seats)
            self.table.log.extend(said)
            if said:
                keep_log(client, self.table.visible_log())
            self.seats = u.seats
            self.table.resigned = not self.seated_in_game() and self.table.me is not None
            v = self.table.view
            if u.state == "finished" and v is not None and not v.game_over:
                who = [s.name or f"seat {s.seat + 1}" for s in u.seats if s.resigned]
                self.ended = f"The game ended: {', '.join(who) or 'a player'} resigned."
                self.over_at = time.monotonic()
                self.table.finished = True
                self.host.say("")
        elif isinstance(u, m.ChatLineMsg):
            self.table.log.append(LogEntry(f"<{u.name}> {u.text}"))

    # ------------------------------------------------------------------ queries
    def names(self) -> list[str | None]:
        return [s.name for s in self.seats]

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
    def resign_answer(self, key: str) -> None:
        """The answer to "Resign?": ``y`` resigns, any other key does not."""
        self.confirm_resign = False
        client = self.host.client
        if key == "y" and client is not None:
            self.host.act(client.resign)

    def log_key(self, key: str) -> None:
        """A key on the log page: paging, or back to the table."""
        if not self.log.key(key):
            self.show_log = False
            self.log.scroll = 0

    def open_log(self) -> None:
        self.show_log = True
        self.log.scroll = 0

    def key(self, key: str) -> None:
        """A key on the table screen (no question of the application's open)."""
        t = self.table
        client = self.host.client
        if key in ("pageup", "pagedown"):
            up = key == "pageup"
            self.side_scroll = max(0, self.side_scroll + (-3 if up else 3))
            self.log.scroll = max(0, self.log.scroll + (5 if up else -5))
            return
        if self.over():
            self._end_key(key)
            return
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
        elif key == "R" and self.seated_in_game():
            self.confirm_resign = True
        elif key == "w" and self.claimable() and client is not None:
            self.host.act(client.claim)
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
        """A key once the game is over: rematch, the board, scrolling, leaving."""
        client = self.host.client
        if key == "r" and self.can_rematch() and client is not None:
            again = not self.rematch_asked
            self.rematch_asked = again
            self.host.act(lambda: client.rematch(again))
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
            self.host.open_chat()

    def _leave_finished(self) -> None:
        """Enter or q once the game is over: back to the lobby (``play`` has none:
        quit)."""
        if self.host.allow_lobby:
            self.host.to_lobby()
        else:
            self.host.quit()

    def click(self, row: int, col: int) -> None:
        if self.table.decision is None:
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
    def lines(self, width: int, height: int, listing: tuple[m.TableSummary, ...]) -> list[Line]:
        """The table screen in ``height`` lines (the status line below is the app's);
        ``listing``: the server's tables, for the waiting screen's terms."""
        client = self.host.client
        assert client is not None
        t = self.table
        v = t.view
        table_id = client.table or "?"
        who = "watching" if t.me is None else f"seat {t.me + 1}"
        lines: list[Line] = [header(f"table {table_id} ({who})", width, self.host.conn)]
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
            )
        if v.game_over and not self.show_board:
            rematch = (
                rematch_line(v, self.seats, self.rematch_asked) if self.can_rematch() else None
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
            )
            return lines + body
        if self.ended is not None and not self.show_board:
            return lines + ended_lines(
                v, self.ended, self.seats, width, height - 2, allow_lobby=self.host.allow_lobby
            )
        return lines + self._board_lines(client, v, width, height - 1)

    def _board_lines(self, client: Client, v: m.GameView, width: int, height: int) -> list[Line]:
        """The grid, the side panel and the log, then the prompt and the keys."""
        t = self.table
        size = Size(width, height + 1)
        cursor = (
            t.cursor_cell()
            if t.decision is None
            else (t.decision.choice.row, t.decision.choice.col)
        )
        grid = render_grid(v, self.cards(), cursor, self.click, size)
        side = self.side_lines(size.side_width, compact=not size.side_right, legend=size.log_right)
        bottom = self.prompt_lines(width) + wrap_items(self.key_items(), width)
        room = height - 1 - len(bottom)  # the status line is the last
        lines: list[Line] = []
        if size.side_right:
            left = list(grid)
            right = self.pane(side, size.side_width, room, with_log=size.log_right)
            if not size.log_right:
                left += self.log.lines(t.visible_log(), size.grid_width, room - len(left))
            elif room - len(left) > 9:  # room under the grid: which colour is which
                table = colour_table(client.catalogue)
                left += [[], *[p for ln in table for p in wrap(ln, size.grid_width, 4)]]
            lines += side_by_side(left, right, size.grid_width)
        else:
            lines += grid + self.pane(side, width, room - len(grid), with_log=True)
        return lines[: height - 1 - len(bottom)] + bottom

    def side_lines(self, width: int, *, compact: bool, legend: bool) -> list[Line]:
        """The side panel: whose turn, the deck, the kettles, who is here, recipes."""
        client = self.host.client
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
            return side + self.log.lines(self.table.visible_log(), width, rows - len(side))
        page = max(1, rows - 1)
        self.side_scroll = max(0, min(self.side_scroll, len(side) - page))
        shown = side[self.side_scroll : self.side_scroll + page]
        rest = len(side) - self.side_scroll - len(shown)
        more = f"{rest} more line{'s' if rest != 1 else ''} (PgDn)" if rest else "end (PgUp: back)"
        if with_log:  # the log has no room here: say where it is
            more += "; the log: L"
        return [*shown, [("fg:#808080 italic", more)]]

    def log_page(self, width: int, rows: int) -> list[Line]:
        """The kettles and the whole log the rules allow, on the whole screen (``L``)."""
        memory = self.table.view.options.memory if self.table.view else "strict"
        what = "since your last decision" if memory == "strict" else "the whole game"
        if self.table.me is None and memory == "strict":
            what = "since the last decision of the player to move"
        head = header("kettles and log", width, self.host.conn)
        side = self.side_lines(width, compact=False, legend=False) if self.host.client else []
        return self.log.page(head, side, self.table.visible_log(), what, width, rows)

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
        """What the player is asked or told now: the prompt, who is away, the clock,
        where the chosen card sends the pawn."""
        t = self.table
        if self.ended is not None:
            return wrap([("bold", self.ended)], width)
        conn = self.host.conn
        if conn != "connected":
            text = f"Not connected to the server: {conn}. Your seat is kept for you."
            if t.me is None:
                text = f"Not connected to the server: {conn}."
            if self.host.server_stopped:  # the host quit: the game may not come back
                text = (
                    f"The server has stopped: {conn}, in case it comes back with the "
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
        """The keys that work now, in words, for the line under the prompt."""
        lobby = ["Esc: lobby"] if self.host.allow_lobby else []
        if self.over():
            back = "g: result" if self.ended else "g: score table"
            out = ["Enter/q: lobby"] if self.host.allow_lobby else ["q: quit"]
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
