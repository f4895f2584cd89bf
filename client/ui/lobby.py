"""The lobby: servers on the LAN, a direct address, the tables of the server, and the
forms for a new table and for joining by id.

It holds the lobby's own state (the listing, the focus, the open form) and is handed a
``LobbyHost`` to connect, act and show a table, so it never reaches up into the
application that shows it.
"""

from __future__ import annotations

from client.i18n import N_, _, language, language_name, ngettext
from protocol import messages as m

from ..discovery import Browser, FoundServer
from ..lib import BadAddress, Client, ServerError, normalize_url
from .forms import (
    Form,
    create_form,
    join_form,
    join_seat,
    table_rated,
    table_request,
    table_timing,
)
from .host import LobbyHost
from .refusals import WAY_BACK, address_words, error_words
from .render import Line, header, seat_name, shown_name, side_by_side, wrap, wrap_items, wrap_words
from .seating import seat_to_resume, sit_down
from .waiting import table_terms

__all__ = ["LobbyScreen"]


class LobbyScreen:
    """The lobby screen and its forms.

    ``browser`` lists LAN servers, ``address`` pre-fills the direct address;
    ``watch_only`` (``kupferkessel watch``) makes Enter watch a table. ``protocol`` is
    the version a new connection asks for.
    """

    def __init__(
        self,
        host: LobbyHost,
        *,
        name: str,
        protocol: tuple[int, int],
        browser: Browser | None = None,
        address: str = "",
        watch_only: bool = False,
    ) -> None:
        self.host = host
        self.name = name  # the player's name (a form may change it)
        self.protocol = protocol
        self.browser = browser
        self.address = address
        self.watch_only = watch_only
        self.focus = "servers" if host.client is None else "tables"
        self.server_index = 0
        self.table_index = 0
        self._tables: tuple[m.TableSummary, ...] = ()
        self.form: Form | None = None

    @property
    def tables(self) -> tuple[m.TableSummary, ...]:
        """The server's tables as last listed."""
        return self._tables

    @tables.setter
    def tables(self, listing: tuple[m.TableSummary, ...]) -> None:
        """A fresh listing: the cursor stays on the table it was on (by id), wherever
        that table is listed now; with that table gone, on the row it was on (the last
        row if the list got shorter), so Enter takes the table the cursor shows."""
        old = self._tables
        chosen = old[self.table_index].id if self.table_index < len(old) else None
        self._tables = listing = tuple(listing)
        client = self.host.client
        if chosen is None and client is not None:  # the first listing: on our own seat's
            chosen = next(  # game, where "* your seat: Enter takes it back" is true
                (tb.id for tb in listing if tb.state == "playing" and self._mine(client, tb.id)),
                None,
            )
        at = next((i for i, tb in enumerate(listing) if tb.id == chosen), None)
        self.table_index = at if at is not None else max(0, min(self.table_index, len(listing) - 1))

    def servers(self) -> list[FoundServer]:
        return self.browser.servers if self.browser is not None else []

    # ------------------------------------------------------------------ keys
    def key(self, key: str) -> None:
        """A key in the lobby (or in its open form)."""
        if self.form is not None:
            self._form_key(key)
        elif self.focus == "address":
            self._address_key(key)
        else:
            self._list_key(key)

    def _address_key(self, key: str) -> None:
        if key == "enter":
            self.connect(self.address)
        elif key == "backspace":
            self.address = self.address[:-1]
        elif key == "c-u":  # Ctrl-U, as in a shell: the whole field
            self.address = ""
        elif key == "tab":
            self._tab()
        elif key == "escape":
            self.focus = "tables" if self.host.client else "servers"
        elif key in ("up", "down") and self.servers():
            self.focus = "servers"
        elif len(key) == 1 and key.isprintable():
            self.address += key

    def _list_key(self, key: str) -> None:
        client = self.host.client
        if key == "q":
            self.host.exit()
        elif key == "tab":
            self._tab()
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
        elif client is None:
            return
        elif key == "n":
            levels = client.welcome.bot_levels if client.welcome else ()
            rated, hints = client.player is not None, client.speaks_analysis
            self.form = create_form(self.name, levels, rated=rated, hints=hints)
        elif key == "p":  # the table chosen in the list, if any: its id filled in
            chosen = self.tables[self.table_index] if self.table_index < len(self.tables) else None
            unlisted = self._unlisted(client)  # else a seat of ours the list does not show
            fill = chosen.id if chosen else unlisted[0] if unlisted else ""
            self.form = join_form(self.name, fill, self.tables)
        elif key == "r":
            self.host.act(self.reload)
        elif key in ("enter", "w") and self.focus == "tables" and self.tables:
            table = self.tables[min(self.table_index, len(self.tables) - 1)]
            mine = self._mine(client, table.id)
            # Enter on a table whose game runs without us: watch it (``watch`` opens
            # the lobby with Enter meaning watch)
            watch = key == "w" or self.watch_only or (table.state != "lobby" and not mine)
            self.enter_table(table.id, None, watch=watch)

    def _tab(self) -> None:
        """The next pane: the LAN servers only while some are listed (an empty list
        shows no cursor, so a focus there would look lost), the address, the tables."""
        order = ["servers"] if self.servers() else []
        order += ["address", "tables"] if self.host.client else ["address"]
        at = order.index(self.focus) if self.focus in order else -1
        self.focus = order[(at + 1) % len(order)]

    def _form_key(self, key: str) -> None:
        form = self.form
        assert form is not None
        if key == "escape":
            self.form = None
            return
        pressed = form.key(key)
        client = self.host.client
        if pressed is None or client is None:
            return
        self.form = None
        if pressed == "create":
            self._create(client, form)
        else:
            v = form.values
            self.name = v["player"].strip() or self.name
            self.enter_table(
                v["table_id"].strip(),
                v["invite"].strip() or None,
                watch=pressed == "watch",
                seat=join_seat(v),
            )

    # ------------------------------------------------------------------ actions
    async def reload(self) -> None:
        client = self.host.client
        if client is not None:
            self.tables = await client.list_tables()

    def connect(self, url: str) -> None:
        """Connect to ``url`` (as typed) instead of the server in use."""
        try:
            url = normalize_url(url)
        except BadAddress as e:
            self.host.say(f"! {address_words(e)}")
            return

        async def go() -> None:
            old = self.host.client
            client = Client(url, name=self.name, protocol=self.protocol)
            self.host.say(_("connecting to {url}...").format(url=url))
            await client.connect()
            if old is not None:
                await old.close()
            self.host.adopt(client)
            self.focus = "tables"
            said = _("connected to {server}").format(
                server=client.welcome.server if client.welcome else url
            )
            if client.player is not None:
                said += "; " + _("signed in as {name}").format(name=client.player.name)
            self.host.say(said)
            self.tables = await client.list_tables()

        self.host.act(go)

    def enter_table(
        self, table: str, invite: str | None, *, watch: bool, seat: int | None = None
    ) -> None:
        """Watch ``table``, or sit down at it (taking back a kept seat)."""
        client = self.host.client
        assert client is not None

        async def go() -> None:
            if watch:
                await client.watch(table, invite=invite)
            else:
                resume = seat_to_resume(client, self.tables, table, self.name)
                await sit_down(
                    client, table, self.name, invite=invite, seat=seat, resume_seat=resume
                )
            self.host.sat_down(client)
            self.host.say("")

        self.host.act(go)

    def _create(self, client: Client, form: Form) -> None:
        """Create the table the form describes, sit down at it and say ready."""
        name, options, private, bots, player, seat = table_request(form.values)
        timing, rated = table_timing(form.values), table_rated(form.values)
        self.name = player

        async def create() -> None:
            try:
                created = await client.create_table(
                    name,
                    options,
                    private=private,
                    bots=bots,
                    player=player,
                    seat=seat,
                    timing=timing,
                    rated=rated,
                )
            except ServerError as e:
                if e.code == "server_full" and e.limit in WAY_BACK:
                    await self.way_back(client, e)
                    return
                raise
            self.host.sat_down(client)
            # the waiting screen shows the code too; gone from here once the game goes on
            code = created.invite
            self.host.notice(_("invite code: {code}").format(code=code) if code else "")
            await client.ready()

        self.host.act(create)

    async def way_back(self, client: Client, refused: ServerError) -> None:
        """A new table refused by a table of ours (1.6's ``limit``: a game of ours runs
        with nobody at it, a table of ours waits in the lobby): the list's cursor goes
        to it, the one the refusal names first, and the refusal says that Enter takes it
        back (it is ours to go back to, or to resign or leave)."""
        self.tables = await client.list_tables()
        state = "playing" if refused.limit == "unattended" else "lobby"
        ours = [i for i, tb in enumerate(self.tables) if tb.state != "finished"]
        ours = [i for i in ours if self._mine(client, self.tables[i].id)]
        ours.sort(key=lambda i: self.tables[i].state != state)
        said = "! " + error_words(refused)
        if ours:
            self.focus, self.table_index = "tables", ours[0]
            said += " " + _("It is chosen in the list: Enter takes it back.")
        self.host.say(said)

    def _my_seat(self, client: Client, table: str) -> int | None:
        """The seat at ``table`` that Enter takes back (as ``sit_down`` chooses it): a
        kept token's (``seat_to_resume``), the one we sit at now, or the one our
        signed-in player holds. None: none of them is known."""
        resume = seat_to_resume(client, self.tables, table, self.name)
        if resume is not None:
            return resume
        if client.table == table and client.seat is not None:
            return client.seat
        return client.held_seat(table)

    def _unlisted(self, client: Client) -> list[str]:
        """The tables on this server where a seat token of ours (for our name) is kept
        but that the list does not show (a private table): ``p`` takes the seat back."""
        if client.tokens is None:
            return []
        listed = {tb.id for tb in self.tables}
        kept = client.tokens.seats(client.url)
        return sorted({s.table for s in kept if s.table not in listed and s.name == self.name})

    def _mine(self, client: Client, table: str) -> bool:
        """Whether a seat at ``table`` is ours: its token is kept (for our name, or for
        another with nobody at the seat: ``seat_to_resume``), or our player holds it."""
        return (
            client.saved_table(table, self.name)
            or client.held_seat(table) is not None
            or seat_to_resume(client, self.tables, table, self.name) is not None
        )

    # ------------------------------------------------------------------ drawing
    def lines(self, width: int, height: int) -> list[Line]:
        """The lobby, or its open form."""
        if self.form is not None:
            return self.form.render(width)
        client = self.host.client
        lines: list[Line] = [header(_("lobby"), width, self.host.conn), []]
        left: list[Line] = [[("bold", _("Servers on the LAN"))]]
        found = self.servers()
        if self.browser is None:
            left.append([("fg:#808080", "  " + _("(not browsing)"))])
        elif not found:
            left.append([("fg:#808080", "  " + _("searching..."))])
        for i, s in enumerate(found):
            sel = self.focus == "servers" and i == self.server_index
            opened = ngettext("{n} open", "{n} open", s.tables).format(n=s.tables)
            text = f"{'>' if sel else ' '} {s.name} ({opened})"
            left += wrap([("reverse" if sel else "", text)], 33, 4)
        left.append([])
        left.append([("bold", _("Direct address"))])
        focused = self.focus == "address"
        shown = (self.address + ("_" if focused else ""))[-30:]
        left.append([("reverse" if focused else "underline", shown.ljust(30))])
        room = width - 35
        right: list[Line] = []
        ours: dict[str, int | None] = {}  # the tables with a seat of ours, and which seat
        if client is None:
            right.append([("fg:#808080", _("Pick a server (Enter) or type an address (a)."))])
        else:
            you = (
                " " + _("(you: {name})").format(name=client.player.name)
                if client.player is not None
                else ""
            )
            named = client.welcome.server if client.welcome is not None else ""
            where = f"{named} ({client.url})" if named else client.url
            right.append([("bold", _("Tables on {server}").format(server=where) + you)])
            if not self.tables:
                right.append([("fg:#808080", "  " + _("no tables yet: press n to create one"))])
            # asked once a drawing: each answer reads the token file
            ours = {
                tb.id: self._my_seat(client, tb.id)
                for tb in self.tables
                if self._mine(client, tb.id)
            }
            for i, tb in enumerate(self.tables):
                sel = self.focus == "tables" and i == self.table_index
                words = _table_words(tb, sel, tb.id in ours, ours.get(tb.id))
                right += _fill(words, room, 4, "reverse" if sel else "")
        right = [piece for line in right for piece in wrap(line, room)]
        lines += side_by_side(left, right, 34)
        lines.append([])
        enter = _("Enter: connect/watch") if self.watch_only else _("Enter: connect/join")
        keys = [_("Tab: pane"), enter, _("w: watch"), _("n: new table"), _("p: join by id")]
        if client is not None and client.speaks_players:
            keys += [_("m: your player"), _("b: leaderboard")]
        keys += [_("l: language ({name})").format(name=language_name(language())), _("q: quit")]
        lines += wrap_items(keys, width)
        if ours:
            on = self.tables[self.table_index].id if self.table_index < len(self.tables) else ""
            said = (
                _("* your seat: Enter takes it back")
                if on in ours and self.focus == "tables"
                else _("* your seat: choose it, then Enter takes it back")
            )
            lines += wrap_items([said], width)
        unlisted = self._unlisted(client) if client is not None else []
        if unlisted:  # with no table listed to choose, p fills in its id
            said = (
                _("Your seat at table {table} (private): p with its id takes it back")
                if self.tables
                else _("Your seat at table {table} (private): p, then Join, takes it back")
            ).format(table=unlisted[0])
            lines += wrap([("bold", said)], width)
        return lines


def _table_words(tb: m.TableSummary, sel: bool, ours: bool, seat: int | None) -> list[str]:
    """A listed table as the pieces its lines may break between: ``> name (state;
    terms): seats``. The cursor goes with the name's first word, each term and each
    seat (``*`` by the one that is ours, ``seat``) stay whole, and the last seat goes
    with the one before it, so that no line holds a lone ``*`` or ``-``."""
    words = tb.name.split() or [""]
    words[0] = f"{'>' if sel else ' '} {words[0]}"
    if ours and (seat is None or all(s.seat != seat for s in tb.seats)):
        words[-1] += " *"  # ours, at a seat not known: the table's name says it
    terms = [f"{term}," for term in table_terms(tb).split(", ")]
    terms[-1] = terms[-1][:-1] + "):"
    seats = [
        (seat_name(s, shown_name(s) or "-") if s.name else "-")
        + (" *" if ours and s.seat == seat else "")
        for s in tb.seats
    ]
    if len(seats) > 1:
        seats[-2:] = [f"{seats[-2]}, {seats[-1]}"]
    state = _(TABLE_STATES[tb.state]) if tb.state in TABLE_STATES else tb.state
    return [*words, f"({state};", *terms, *(f"{s}," for s in seats[:-1]), *seats[-1:]]


TABLE_STATES = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished")}
"""A table's state as the lobby lists it."""


def _fill(words: list[str], width: int, indent: int, style: str) -> list[Line]:
    """``words`` in lines of at most ``width`` (``wrap_words``: broken only between
    them), later ones indented by ``indent``, the text in ``style``."""
    pad = " " * indent
    lines = wrap_words(words, width, pad)
    later: list[Line] = [[("", pad), (style, t[indent:])] for t in lines[1:]]
    return [[(style, lines[0])], *later]
