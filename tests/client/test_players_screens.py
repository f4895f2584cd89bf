"""The players' screens (protocol 1.2) at 60x20, 80x24 and 120x40: a profile with its
recent games, the leaderboard, the account form and a past game's replay, each drawn
by the application with nothing cut; the record of a game read back for the review;
the kept secret's file; the rated choice of the new-table form."""

from __future__ import annotations

import re
import stat
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input

from client.accounts import Account, AccountStore, new_secret
from client.lib import Client
from client.ui.app import KupferApp
from client.ui.forms import create_form, table_rated, table_request
from client.ui.players import PlayersScreen, game_line, rating_text, record_of
from client.ui.render import Size
from client.ui.review import frames_of_record
from protocol import messages as m
from shared.bots import make_bot, play
from shared.options import Options
from shared.record import Record
from tests.helpers.screens import ADA, SIZES, SizedOutput, draw, whole


def summary(n: int) -> m.GameSummary:
    return m.GameSummary(
        table=f"t{n}",
        name=f"Friday potions {n}",
        finished=1764590400 + n * 600,
        seat=n % 2,
        names=("Ada", "Grace Brewster-Hopper") if n % 2 == 0 else ("Grace Brewster-Hopper", "Ada"),
        ending="played_out" if n % 3 else "resigned",
        places=(1, 2),
        rated=n % 2 == 0,
        rating_before=10.0 + n / 10,
        rating_after=10.5 + n / 10,
    )


def played_record(seed: int = 3) -> Record:
    options = Options(players=2, seed=seed)
    record = Record.new(options)
    game = record.start()
    bots = [make_bot("easy", 0, seed=1), make_bot("easy", 1, seed=2)]
    play(options, bots, game=game, on_take=lambda seat, take: record.actions.append(take))
    return record


@pytest.fixture
async def app(url: str) -> AsyncIterator[KupferApp]:
    client = Client(url, name="Ada", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    assert client.speaks_players  # this server speaks 1.2
    with create_pipe_input() as inp:
        yield KupferApp(name="Ada", client=client, input=inp, output=SizedOutput())
    await client.close()


def fill_profile(screen: PlayersScreen, n: int) -> None:
    screen.page, screen.player = "profile", ADA
    screen.games.add([summary(i) for i in range(n)], "g20" if n < 31 else None, 31)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_profile_and_its_games_read_whole(app: KupferApp, width: int, height: int) -> None:
    assert app.client is not None
    app.client.player = ADA  # signed in as Ada: her own profile offers the device code
    fill_profile(app.players, 20)
    app.players.code = m.DeviceCodeMsg(code="7KQ2-MX4V", expires_in=300)
    app.players.code_at = time.monotonic()
    screen = draw(app, width, height)
    whole("player Ada", screen)
    whole("Rating 12.4?", screen)
    whole("provisional", screen)
    whole("Games 31, wins 17, rated games 4", screen)
    whole("Device code: 7KQ2-MX4V", screen)
    whole("Recent games (31)", screen)
    for key in ("Enter: replay it", "b: leaderboard", "d: a code for another device", "Esc: back"):
        whole(key, screen)
    whole("> " + game_line(summary(0)), screen)
    seen = set()
    for _ in range(19):  # down through the page: each game shows whole in its turn
        app.key("down")
        screen = draw(app, width, height)
        index = app.players.games.index
        whole(game_line(summary(index)), screen)
        seen.add(index)
    assert seen == set(range(1, 20))
    whole("11 more: Down past the last", screen)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_leaderboard_reads_whole(app: KupferApp, width: int, height: int) -> None:
    board = app.players
    board.page = "board"
    entries = [
        m.LeaderEntry(
            rank=i + 1,
            name=f"Player number {i}",
            rating=30 - i,
            mu=35,
            sigma=2,
            rated_games=40 - i,
            provisional=i > 10,
        )
        for i in range(20)
    ]
    board.board.add(entries, "r20", 45)
    screen = draw(app, width, height)
    whole("leaderboard", screen)
    whole("Rated players: 45", screen)
    for key in ("Enter: their profile", "m: your player", "Esc: back"):
        whole(key, screen)
    assert re.search(r">\s+1\s+30\.0\s+40\s+Player number 0", screen), screen
    for _ in range(19):
        app.key("down")
    screen = draw(app, width, height)
    assert re.search(r">\s+20\s+11\.0\?\s+21\s+Player number 19", screen), screen
    whole("25 more", screen)
    app.key("escape")
    assert not app.players.open


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_account_form_and_a_replay_read_whole(
    app: KupferApp, width: int, height: int
) -> None:
    app.key("m")  # not signed in: the form to register or to redeem a code
    assert app.players.page == "account"
    screen = draw(app, width, height)
    for text in ("Player name", "Register this name", "Device code", "Sign in with the code"):
        whole(text, screen)
    app.key("escape")
    assert not app.players.open
    record = played_record()
    info = m.GameRecordInfo.model_validate(record.to_dict(), strict=False)
    from client.ui.review import Review

    app.players.page = "profile"
    app.players.review = Review(frames_of_record(record_of(info)), ("Ada", "Grace"))
    screen = draw(app, width, height)
    whole("the start", screen)
    app.key("end")
    screen = draw(app, width, height)
    whole(f"take {len(record.actions)} of {len(record.actions)}", screen)
    # the cards as large as a table screen of this terminal draws them
    assert ("(())" in screen) is (Size(width, height).cell_h > 1), screen
    app.key("q")
    assert app.players.review is None and app.players.open


def test_a_record_message_replays_as_the_game_was_played() -> None:
    record = played_record(seed=11)
    info = m.GameRecordInfo.model_validate(record.to_dict(), strict=False)
    again = record_of(info)
    assert again.actions == record.actions
    assert frames_of_record(again) == frames_of_record(record)
    assert again.replay().to_move == record.replay().to_move


def test_the_kept_secret_is_the_users_alone(tmp_path: Path) -> None:
    store = AccountStore(tmp_path / "d")
    secret = new_secret()
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", secret)
    assert new_secret() != secret
    store.save("ws://h:1", Account("Ada", secret))
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    assert store.get("ws://h:1") == Account("Ada", secret)
    assert secret not in repr(store.get("ws://h:1"))
    assert store.get("ws://other:1") is None
    store.forget("ws://h:1")
    assert store.get("ws://h:1") is None


def test_the_rated_choice_is_offered_signed_in_and_takes_the_bots_away() -> None:
    plain = create_form("Ada", ("easy",))
    assert "rated" not in {f.key for f in plain.fields()}
    form = create_form("Ada", ("easy",), rated=True)
    form.values["bot1"] = "easy"
    assert {"rated", "bot1", "memory"} <= {f.key for f in form.fields()}
    assert not table_rated(form.values)
    form.values["rated"] = "yes"
    keys = {f.key for f in form.fields()}
    assert "bot1" not in keys and "memory" not in keys
    assert table_rated(form.values)
    assert table_request(form.values)[3] == []  # no computer at a rated table
    from client.ui.render import text_of

    drawn = [text_of(ln) for ln in form.render(60)]
    rated = next(ln for ln in drawn if "Rated (ratings change)" in ln)
    name = next(ln for ln in drawn if "Your name" in ln)
    assert "change)  < yes >" in rated  # the label and the value apart, as on every line
    assert rated.index("< yes >") == name.index("Ada") and max(map(len, drawn)) <= 60


def test_ratings_read_with_their_provisional_mark() -> None:
    assert rating_text(12.41, True) == "12.4?"
    assert rating_text(-3.06, False) == "-3.1"


async def test_a_1_1_connection_has_no_players_and_the_lobby_is_as_before(url: str) -> None:
    """Said 1.1 in hello: nothing of 1.2 is sent (no sign-in), m says so, the lobby's
    keys and the new-table form are those of 1.1."""
    client = Client(url, name="Ada", persist_tokens=True, protocol=m.MINOR_1_1)
    assert client.accounts is not None
    client.accounts.save(client.url, Account("Ada", new_secret()))  # kept, yet not sent
    await client.connect()
    try:
        assert client.welcome is not None and tuple(client.welcome.protocol) == (1, 1)
        assert not client.speaks_players and client.player is None
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ada", client=client, input=inp, output=SizedOutput())
            screen = draw(kapp, 80, 24)
            assert "m: your player" not in screen and "b: leaderboard" not in screen
            kapp.key("m")
            assert not kapp.players.open
            whole("no registered players", draw(kapp, 80, 24))
            kapp.key("n")
            assert "rated" not in {f.key for f in kapp.lobby.form.fields()}  # type: ignore[union-attr]
    finally:
        await client.close()


def test_registered_seats_read_as_registered() -> None:
    """Presence marks a registered player's seat (1.2): the waiting screen and the
    side panel say "Hanna (registered)", never of the anonymous Hanna beside her."""
    from client.ui.render import Cards, render_side, text_of
    from client.ui.waiting import waiting_lines
    from protocol.convert import catalogue, view_model
    from shared.view import view

    seats = (
        m.SeatInfo(seat=0, name="Hanna", connected=True, ready=True, registered=True),
        m.SeatInfo(seat=1, name="Hanna", connected=True),
    )
    lines = [
        text_of(ln)
        for ln in waiting_lines(
            "t1",
            80,
            seats=seats,
            listing=(),
            started=False,
            invite=None,
            allow_lobby=True,
        )
    ]
    assert "  seat 1: Hanna (registered) (ready)" in lines
    assert "  seat 2: Hanna (joined)" in lines
    game = Record.new(Options(seed=3, players=2)).start([])
    v = view_model(view(game, 0))
    drawn = render_side(v, Cards.of(catalogue()), catalogue(), ["Hanna", "Hanna"], seats, 0, 80)
    side = " ".join(text_of(ln) for ln in drawn)
    assert side.count("Hanna (registered)") == 1 and side.count("Hanna") == 2


def test_the_review_shows_the_cards_as_large_as_the_table_does() -> None:
    """At 80x24 the table screen draws two-line cards; so does the review (it is handed
    the lines above the status line, one fewer), and smaller cards only when the grid
    would not fit (60x20)."""
    from client.ui.render import Cards, Size, text_of
    from client.ui.review import Review
    from protocol.convert import catalogue

    cat = catalogue()
    review = Review(frames_of_record(played_record()), ("Ada", "Grace"))
    review.index = 5
    for (width, height), tall in (((80, 24), True), ((60, 20), False), ((120, 40), True)):
        assert (Size(width, height).cell_h > 1) is tall
        lines = review.lines(width, height - 1, Cards.of(cat), cat, screen=height)
        text = "\n".join(text_of(ln) for ln in lines)
        assert len(lines) < height and ("(())" in text) is tall, text
        assert "review: take 5 of" in text and "q/Esc: back" in text


def test_a_review_from_mid_game_counts_the_takes_as_the_game_does() -> None:
    """A screen that came back after take 10 (a client started again) saw the game from
    there: its review starts "after take 10", not at "the start", and ends at the game's
    last take, not at its own count of the takes it saw."""
    from client.ui.review import Frame, Review

    record = played_record()
    frames = frames_of_record(record)
    seen = [Frame(frames[10].view), *frames[11:]]  # the first view after the restart
    review = Review(seen, ("Ada", "Grace"))
    assert review.step() == f"after take 10 of {len(record.actions)}"
    review.key("right")
    assert review.step() == f"take 11 of {len(record.actions)}"
    review.key("end")
    assert review.step() == f"take {len(record.actions)} of {len(record.actions)}"
    whole_game = Review(frames, ("Ada", "Grace"))
    assert whole_game.step() == "the start"
