"""What the terminal commands share: the player's name, quiet logging (a full-screen
application must not be scribbled over by log lines), and running the application."""

from __future__ import annotations

import argparse
import getpass
import logging
import sys

from client.i18n import LANGUAGES, PSEUDO, _, detect, use

from ..lib import BadAddress, normalize_url
from ..tokens import DATA_DIR_ENV, data_dir, use_data_dir

__all__ = [
    "add_name_argument",
    "choose_language",
    "default_name",
    "lang_argument",
    "quiet_logging",
    "url_argument",
]


def default_name() -> str:
    try:
        user = getpass.getuser()
    except Exception:
        user = ""
    name = "".join(ch for ch in user if ch.isprintable())[:32]
    return name.capitalize() if name else "Player"


def add_name_argument(p: argparse.ArgumentParser) -> None:
    """``--name``, ``--data-dir`` and ``--lang``, which every terminal command takes."""
    p.add_argument("--name", default=default_name(), help="your name at the table")
    lang_argument(p)
    p.add_argument(
        "--data-dir",
        help=f"where seat tokens and client.log are kept (default: ${DATA_DIR_ENV} or "
        f"{data_dir()})",
    )


def lang_argument(p: argparse.ArgumentParser) -> None:
    """``--lang``: the language of what a command shows or prints."""
    p.add_argument(
        "--lang",
        choices=[*LANGUAGES, PSEUDO],
        help="the language of the screens and of what is printed (default: the one chosen "
        "with l in the lobby, else the locale, LANG)",
    )


def choose_language(args: argparse.Namespace) -> None:
    """Speak the language the terminal client would: ``--lang``, else the one kept in
    the settings (of the data directory in use), else the locale."""
    from ..settings import Settings  # the data directory is known only now

    use(detect(Settings.load().lang, getattr(args, "lang", None)))


def url_argument(value: str) -> str:
    """A server address on the command line, refused in one line when it is bad."""
    try:
        return normalize_url(value)
    except BadAddress as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def quiet_logging(args: argparse.Namespace | None = None) -> None:
    """Use the ``--data-dir`` and the language (``--lang``, the settings, the locale) of
    ``args`` (if any), and send log records to a file in the data directory instead of
    the screen."""
    if args is not None:
        use_data_dir(getattr(args, "data_dir", None))
        choose_language(args)
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    try:
        directory = data_dir()
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler: logging.Handler = logging.FileHandler(directory / "client.log")
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    except OSError:
        handler = logging.NullHandler()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)


def fail(command: str, message: str) -> int:
    print(f"kupferkessel {command}: {message}", file=sys.stderr)
    return 1


async def open_client_app(
    *,
    name: str,
    url: str | None,
    table: str | None = None,
    invite: str | None = None,
    watch: bool = False,
    status: str = "",
) -> int:
    """Open the terminal application: on ``url`` (at ``table`` if given, joining or
    watching it) or, without an address, in the lobby browsing the LAN."""
    from ..discovery import Browser
    from ..lib import Client
    from ..settings import Settings
    from ..ui.app import TERMINAL_PROTOCOL, KupferApp
    from ..ui.seating import take_seat

    client: Client | None = None
    browser: Browser | None = None
    if url is not None:
        client = Client(url, name=name, protocol=TERMINAL_PROTOCOL)
        await client.connect()
        if table is not None and watch:
            await client.watch(table, invite=invite)
        elif table is not None:
            await take_seat(client, table, name, invite=invite)
    else:
        browser = Browser()
        try:
            await browser.start()
        except OSError as e:
            browser = None
            status = "! " + _("LAN discovery is not available here ({why}); type an address (a)")
            status = status.format(why=e)
    app = KupferApp(
        name=name,
        client=client,
        browser=browser,
        address=url or "",
        watch_only=watch,
        settings=Settings.load(),
    )
    app.status = status
    try:
        return await app.run()
    finally:
        if browser is not None:
            await browser.stop()
        if app.client is not None:
            await app.client.close()


def add_table_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "url", nargs="?", type=url_argument, help="ws://HOST:PORT (default: browse the LAN)"
    )
    p.add_argument("--table", help="table id to go to directly")
    p.add_argument("--invite", help="invite code of a private table")
    add_name_argument(p)


def run_client_app(command: str, args: argparse.Namespace, *, watch: bool) -> int:
    import asyncio

    from websockets.exceptions import InvalidHandshake, InvalidURI

    from ..lib import ClientError
    from ..ui.refusals import client_error_words

    quiet_logging(args)
    try:
        return asyncio.run(
            open_client_app(
                name=args.name, url=args.url, table=args.table, invite=args.invite, watch=watch
            )
        )
    except ClientError as e:  # a refusal (a version it does not speak) in the language
        return fail(command, client_error_words(e))
    except OSError as e:
        return fail(command, f"cannot connect to {args.url}: {e.strerror or e}")
    except (InvalidHandshake, InvalidURI) as e:
        return fail(command, f"{args.url} is not a game server ({e})")
    except TimeoutError:
        return fail(command, f"cannot connect to {args.url}: no answer in time")
    except KeyboardInterrupt:
        return 130
