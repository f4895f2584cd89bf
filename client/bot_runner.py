"""``kupferkessel bot``: a computer player that connects to a server as an ORDINARY client.

The reference third-party client (docs/PROTOCOL.md): it uses only the client library
(``client.lib``) and decides with ``shared.bots.make_bot``, fed with nothing but the
views and public events this seat receives. Without ``--table`` it creates a table and
waits for people to join it; with ``--table`` it sits down at that table (or takes its
seat back, if it kept a token for it). What it prints for a person is in the language
the terminal client would speak (``--lang``, the settings, the locale).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections.abc import Sequence

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from client.i18n import _, colour_word
from protocol import messages as m
from shared.bots import LEVELS, make_bot
from shared.bots.base import Bot
from shared.events import Event
from shared.game import Take

from .commands.common import choose_language, lang_argument
from .convert import events_from_models, view_from_model
from .lib import Client, ClientError, ConnectionLost, ServerError, Status
from .tokens import use_data_dir
from .ui.refusals import client_error_words
from .ui.render.side import level_word

__all__ = ["add_arguments", "play_seat", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--url", required=True, help="server address, e.g. ws://192.168.1.5:8765")
    p.add_argument("--table", help="table id to join (default: create a new table)")
    p.add_argument("--invite", help="invite code of a private table")
    p.add_argument("--level", choices=list(LEVELS), default="medium", help="default medium")
    p.add_argument("--name", default="Bot", help="player name (default Bot)")
    p.add_argument("--players", type=int, choices=(2, 3), default=2, help="for a new table")
    p.add_argument("--data-dir", help="where its seat tokens are kept (as for the other commands)")
    lang_argument(p)


async def play_seat(client: Client, level: str, seed: int | None = None) -> m.GameView:
    """Play our seat until the game is over; returns the final view."""
    bot: Bot | None = None
    seen: list[Event] = []  # public events since the bot's last observation
    decided_on = -1  # the state version of our last take
    async for update in client.updates():
        if isinstance(update, m.EventsMsg):
            seen.extend(events_from_models(update.events))
        elif isinstance(update, m.PresenceMsg) and update.state == "finished" and client.view:
            if not client.view.game_over:  # ended early, told by a 1.0 server: no result
                return client.view
        elif isinstance(update, Status) and update.state == "closed":
            raise ConnectionLost(f"connection closed: {update.detail}")
        elif isinstance(update, m.ViewMsg) and client.seat is not None:
            view = view_from_model(update.view)
            if bot is None:
                bot = make_bot(level, client.seat, seed=seed)
            bot.observe(seen, view)
            seen = []
            if view.game_over:
                return update.view
            if view.to_move != client.seat or decided_on == update.state_version:
                continue
            decided_on = update.state_version
            take = await asyncio.to_thread(bot.decide, view)
            if not await send_take(client, take, update.state_version):
                decided_on = -1
    raise ConnectionLost("the update stream ended")


# A server that cannot reach its database (or a node its cluster) refuses a take with
# ``internal`` and one of these details: nothing was applied and no fresh view follows,
# so the same take is sent again after a pause, as PROTOCOL.md asks (Errors).
RETRYABLE = frozenset({"store_unavailable", "cluster_unavailable"})
RETRY_PAUSES = (1.0, 1.0, 2.0, 3.0, 5.0)  # then every 5 s, until the server answers


async def send_take(
    client: Client, take: Take, state_version: int, pauses: Sequence[float] = RETRY_PAUSES
) -> bool:
    """Send ``take`` at ``state_version``, again while the server says it cannot store
    it now; False when it was refused otherwise (a fresh view will follow)."""
    tries = 0
    while True:
        try:
            await client.take(
                take.card,
                special=take.special,
                targets=take.targets,
                keep=take.keep,
                state_version=state_version,
            )
            return True
        except ServerError as e:
            if e.detail not in RETRYABLE:
                print(_refused(e), file=sys.stderr)
                return False
            pause = pauses[min(tries, len(pauses) - 1)]
            tries += 1
            said = _("take not stored ({detail}): trying again in {pause} s")
            print(said.format(detail=e.detail, pause=f"{pause:g}"), file=sys.stderr)
            await asyncio.sleep(pause)
        except ConnectionLost as e:  # a fresh view follows the reconnection
            print(_refused(e), file=sys.stderr)
            return False


def _refused(e: ClientError) -> str:
    return _("take refused: {why}").format(why=client_error_words(e))


def describe_result(view: m.GameView) -> str:
    """Each seat's total and who won, in a few lines (seats counted from 1)."""
    if not view.scores:
        return _("the game ended early (no score)")
    winners = view.result.winners if view.result is not None else view.winners
    lines = []
    for s in view.scores:
        said = (
            _("seat {number} {colour}: {total} points (wins)")
            if s.seat in winners
            else _("seat {number} {colour}: {total} points")
        )
        lines.append(said.format(number=s.seat + 1, colour=colour_word(s.colour), total=s.total))
    return "\n".join(lines)


def refused(url: str, e: Exception) -> str:
    """Why the server at ``url`` would not have us, in a line: it answered the handshake
    with an HTTP status (a ban: 403), closed at once (full: 1013 ``server_full``), or
    does not speak WebSocket at all."""
    if isinstance(e, InvalidStatus):
        return _("{url} refused the connection (HTTP {status})").format(
            url=url, status=e.response.status_code
        )
    if isinstance(e, ConnectionClosed):
        close = e.rcvd
        why = f"{close.code} {close.reason}".strip() if close is not None else _("no reason given")
        return _("{url} closed the connection at once ({why})").format(url=url, why=why)
    return _("{url} is not a game server ({why})").format(url=url, why=e)


async def run_bot(args: argparse.Namespace) -> int:
    client = Client(args.url, name=args.name, protocol=m.PROTOCOL_VERSION)
    try:
        try:
            await client.connect()
        except (InvalidHandshake, InvalidURI, ConnectionClosed) as e:
            print(f"kupferkessel bot: {refused(args.url, e)}", file=sys.stderr)
            return 1
        if args.table is None:
            created = await client.create_table(
                f"{args.name}'s table", m.TableOptions(players=args.players), player=args.name
            )
            said = (
                _("created table {table} (invite {invite}); waiting for players")
                if created.invite
                else _("created table {table}; waiting for players")
            )
            print(said.format(table=created.table.id, invite=created.invite))
        elif client.saved_table(args.table, args.name):
            await client.resume(args.table, args.name)
        else:
            await client.join(args.table, args.name, invite=args.invite)
        seat = client.seat + 1 if client.seat is not None else "?"
        said = _("playing seat {seat} of table {table} as {level}")
        print(said.format(seat=seat, table=client.table, level=level_word(args.level)))
        await client.ready()
        final = await play_seat(client, args.level, seed=secrets.randbits(32))
        print(describe_result(final))
        print(_("the game is over: leaving the table"))
        return 0
    except ClientError as e:
        print(f"kupferkessel bot: {client_error_words(e)}", file=sys.stderr)
        return 1
    finally:
        await client.close()


def run(args: argparse.Namespace) -> int:
    use_data_dir(getattr(args, "data_dir", None))
    choose_language(args)
    try:
        return asyncio.run(run_bot(args))
    except OSError as e:
        said = _("cannot reach {url}: {why}").format(url=args.url, why=e)
        print(f"kupferkessel bot: {said}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
