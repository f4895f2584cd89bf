"""Examples of protocol 1.2's and 1.3's messages (registered players, their devices) for
the generated reference.

Why: ``protocol.reference`` shows every message with its exact bytes; the 1.2 ones are
made here so that the reference module stays within its size.
"""

from __future__ import annotations

from pydantic import BaseModel

from shared.game import Game
from shared.record import Record

from .messages import (
    DeviceCodeMsg,
    DeviceInfo,
    DevicesMsg,
    GameRecordInfo,
    GamesMsg,
    GameSummary,
    GetRecordMsg,
    LeaderboardMsg,
    LeaderEntry,
    ListDevicesMsg,
    ListGamesMsg,
    NewDeviceCodeMsg,
    PlayerInfo,
    PlayerSeat,
    ProfileMsg,
    RecordMsg,
    RedeemCodeMsg,
    RegisterMsg,
    RejoinMsg,
    RevokeDeviceMsg,
    ShowLeaderboardMsg,
    ShowProfileMsg,
    SignedInMsg,
    SignInMsg,
)

__all__ = ["ADA", "ADA_BEFORE", "GRACE", "SECRET", "player_examples"]

SECRET = "q3Lx0cT9vWm2Zr7Yb5Nk8Hd4Jf6Gs1Pa"  # an example player secret (a real one is secret)
DEVICE_SECRET = "Vb8Qe2Rt6Ym1Ui9Op3As7Df5Gh4Jk0Lz"
ADA_BEFORE = (27.27370546628738, 7.601734392798586)  # (mu, sigma) before her 4th game
ADA = (30.46184492126507, 7.279181940179405)  # and after it
GRACE = (30.183452575915403, 4.920016821178455)  # after her 31st, lost to Ada


def player_examples(game: Game) -> tuple[list[BaseModel], list[BaseModel]]:
    """The client and the server examples of 1.2 (ids from 16, seqs from 18); ``game``
    is the reference's short game, whose record ``record`` shows."""
    # Ada's and Grace's numbers are openskill's: Ada beat, lost to and beat three
    # newcomers, then beat Grace, who had won 20 of 30 games against newcomers
    # (tests/players/test_rating_rules.py computes them again)
    ada = PlayerInfo(
        name="Ada",
        since=1764583200,
        rating=ADA[0] - 3 * ADA[1],
        mu=ADA[0],
        sigma=ADA[1],
        provisional=True,
        rated_games=4,
        games=6,
        wins=3,
    )
    record = Record.new(game.options)
    record.actions = []
    raw = record.to_dict()
    client: list[BaseModel] = [
        RegisterMsg(id=16, name="Ada", secret=SECRET),
        SignInMsg(id=17, name="Ada", secret=SECRET),
        NewDeviceCodeMsg(id=18),
        RedeemCodeMsg(id=19, code="7KQ2-MX4V"),
        RejoinMsg(id=20, table="t7Kq2"),
        ShowProfileMsg(id=21, name="Grace"),
        ListGamesMsg(id=22, limit=20),
        GetRecordMsg(id=23, table="t7Kq2"),
        ShowLeaderboardMsg(id=24, cursor="r00000000031000000002020", limit=20),
        ListDevicesMsg(id=25),
        RevokeDeviceMsg(id=26, device="Qm3xT8vL2pRa"),
    ]
    server: list[BaseModel] = [
        SignedInMsg(
            seq=18, re=17, player=ada, seats=(PlayerSeat(table="t7Kq2", seat=0, state="playing"),)
        ),
        DeviceCodeMsg(seq=19, re=18, code="7KQ2-MX4V", expires_in=300),
        ProfileMsg(seq=20, re=21, player=ada.model_copy(update={"name": "Grace"})),
        GamesMsg(
            seq=21,
            re=22,
            player="Ada",
            games=(
                GameSummary(
                    table="t7Kq2",
                    name="Friday potions",
                    finished=1764590400,
                    seat=0,
                    names=("Ada", "Grace"),
                    ending="resigned",
                    places=(1, 2),
                    rated=True,
                    rating_before=ADA_BEFORE[0] - 3 * ADA_BEFORE[1],
                    rating_after=ADA[0] - 3 * ADA[1],
                ),
            ),
            total=1,
        ),
        RecordMsg(
            seq=22,
            re=23,
            table="t7Kq2",
            name="Friday potions",
            names=("Ada", "Grace"),
            rated=True,
            record=GameRecordInfo.model_validate(raw, strict=False),
        ),
        LeaderboardMsg(
            seq=23,
            re=24,
            entries=(
                _entry(21, "Grace", GRACE, 31, provisional=False),
                _entry(22, "Ada", ADA, 4, provisional=True),
            ),
            next="r00000000007000000002222",
            total=57,
        ),
        DevicesMsg(
            seq=24,
            re=26,
            devices=(
                DeviceInfo(
                    device="Hs4kW9bN1cZe",
                    label="registered",
                    added=1764583200,
                    last_used=1764590400,
                    current=True,
                ),
                DeviceInfo(device="Jd7pF2xR5tYu", label="code", added=1764586800),
            ),
            limit=10,
        ),
    ]
    return client, server


def _entry(
    rank: int, name: str, rating: tuple[float, float], games: int, *, provisional: bool
) -> LeaderEntry:
    """A leaderboard line of a player rated (mu, sigma) ``rating``."""
    mu, sigma = rating
    return LeaderEntry(
        rank=rank,
        name=name,
        rating=mu - 3 * sigma,
        mu=mu,
        sigma=sigma,
        rated_games=games,
        provisional=provisional,
    )
