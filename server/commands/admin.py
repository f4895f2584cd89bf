"""``kupferkessel admin``: act on a running server through its admin socket.

List its tables and players, close a table with a result, mute or ban a player name or
an address for a time, lift a sanction. Each action is one request to the server's
unix socket (``server.ops.admin``), which it stores and logs; this command only writes
the request and prints the answer. The socket is found as ``serve`` finds it: from
``--socket``, else the settings (``--config``, ``--store``, ``KK_*``) the server runs with.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import sys
import time
from typing import Any

from .flags import add_served_arguments, admin_socket, served

__all__ = ["add_arguments", "parse_duration", "request", "run"]

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(text: str) -> float:
    """``90s``, ``30m``, ``2h``, ``7d``, ``1w`` (and sums: ``1h30m``) in seconds."""
    parts = re.findall(r"(\d+(?:\.\d+)?)([smhdw])", text.strip())
    if not parts or "".join(n + u for n, u in parts) != text.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: a duration such as 90s, 30m, 2h, 7d, 1w")
    seconds = sum(float(n) * UNITS[u] for n, u in parts)
    if seconds <= 0:
        raise argparse.ArgumentTypeError("a duration of more than 0")
    return seconds


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--socket", metavar="PATH", help="the server's admin socket (default: as serve)")
    add_served_arguments(p)
    p.add_argument("--json", action="store_true", help="print the server's answer as JSON")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("tables", help="the tables served, their seats and spectators")
    sub.add_parser("players", help="the connections: names, addresses, tables, seats")
    close = sub.add_parser("close", help="end a table now: abandoned, or a seat resigns")
    close.add_argument("table", help="the table's id (see: admin tables)")
    close.add_argument(
        "--resign", type=int, metavar="SEAT", help="this seat resigns and the others win"
    )
    for kind, what in (("mute", "refuse their chat"), ("ban", "refuse their seats, connections")):
        s = sub.add_parser(kind, help=f"{what}, for a time or until lifted")
        s.add_argument("name", nargs="?", help="a player name (case does not matter)")
        s.add_argument(
            "--address",
            help="a client address (203.0.113.7, 2001:db8::1) or a range of them in CIDR"
            " notation (203.0.113.0/24, 2001:db8::/48) instead of a name",
        )
        s.add_argument(
            "--for",
            dest="duration",
            type=parse_duration,
            metavar="DURATION",
            help="how long: 90s, 30m, 2h, 7d, 1w (default: until lifted)",
        )
        s.add_argument("--reason", default="", help="why (stored and logged)")
    lift = sub.add_parser("lift", help="lift a mute or ban before its end")
    lift.add_argument("id", help="the sanction's id (see: admin sanctions)")
    sub.add_parser("sanctions", help="the mutes and bans in force")


def socket_path(args: argparse.Namespace) -> str | None:
    """The admin socket: ``--socket``, else the one ``serve`` opens with these settings."""
    if args.socket:
        return str(args.socket)
    return admin_socket(served(args))


def request(path: str, body: dict[str, Any], timeout: float = 15.0) -> dict[str, Any]:
    """Send one request to the admin socket at ``path`` and return its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(path)
        sock.sendall(json.dumps(body).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    answer: dict[str, Any] = json.loads(data)
    return answer


def body_of(args: argparse.Namespace) -> dict[str, Any]:
    body: dict[str, Any] = {"action": args.action}
    if args.action == "close":
        body["table"] = args.table
        if args.resign is not None:
            body["resign"] = args.resign
    elif args.action in ("mute", "ban"):
        if (args.name is None) == (args.address is None):
            raise ValueError(f"{args.action} a NAME or an --address (one of them)")
        body["name" if args.name is not None else "address"] = args.name or args.address
        if args.duration is not None:
            body["seconds"] = args.duration
        body["reason"] = args.reason
    elif args.action == "lift":
        body["id"] = args.id
    return body


def _when(t: float | None) -> str:
    return "-" if t is None else time.strftime("%Y-%m-%d %H:%M", time.gmtime(t))


def _unanswered(answer: dict[str, Any]) -> list[str]:
    """On a cluster, the nodes whose part is missing from a list."""
    missing = answer.get("unanswered") or []
    return [f"no answer from node {n}: its part is missing" for n in missing]


def show(action: str, answer: dict[str, Any]) -> list[str]:
    """The answer as lines for a person."""
    if action == "tables":
        lines = [f"{len(answer['tables'])} tables"]
        for t in answer["tables"]:
            seats = ", ".join(
                f"{s['seat']}:{s['name'] or '-'}{'*' if s['connected'] else ''}"
                f"{'(' + s['bot'] + ')' if s['bot'] else ''}"
                for s in t["seats"]
            )
            lines.append(
                f"{t['id']}  {t['state']:<8} v{t['version']:<4} [{seats}]"
                f" watchers {t['spectators']}  {t['name']!r}"
                + (f"  ended {t['ended']}" if t["ended"] else "")
                + (f"  node {t['node']}" if t.get("node") else "")
            )
        return lines + _unanswered(answer)
    if action == "players":
        lines = [f"{len(answer['players'])} connections"]
        for p in answer["players"]:
            where = f"{p['table']} seat {p['seat']}" if p["table"] else "-"
            lines.append(
                f"{p['name']!r}  {p['address']}  {p['protocol'] or '-'}  {p['state']}  {where}"
                + (f"  node {p['node']}" if p.get("node") else "")
            )
        return lines + _unanswered(answer)
    if action == "close":
        by = f" (served by node {answer['node']})" if answer.get("node") else ""
        return [f"closed {answer['table']}{by}: {answer['ending']}, winners {answer['winners']}"]
    sanctions = answer.get("sanctions") or [answer.get("sanction") or answer.get("lifted")]
    lines = [
        f"{s['id']}  {s['kind']} {s['target']} {s['value']!r}  since {_when(s['since'])}"
        f"  {s['ends']}"
        + (f"  ({s['reason']})" if s["reason"] else "")
        + (f"  by {s['by']}" if s.get("by") else "")
        for s in sanctions
        if s
    ]
    if action == "lift":
        lines = ["lifted " + line for line in lines]
    if "closed" in answer:
        nodes = answer.get("nodes") or {}
        each = ", ".join(f"{n} {c}" for n, c in sorted(nodes.items()))
        lines.append(f"connections closed: {answer['closed']}" + (f" ({each})" if each else ""))
    return lines + _unanswered(answer) or ["none"]


def run(args: argparse.Namespace) -> int:
    try:
        body = body_of(args)
        path = socket_path(args)
    except ValueError as e:
        print(f"kupferkessel admin: {e}", file=sys.stderr)
        return 2
    if path is None:
        print(
            "kupferkessel admin: this server opens no admin socket by default (PostgreSQL"
            " or --no-persist): give --socket, as given to serve --admin-socket",
            file=sys.stderr,
        )
        return 2
    try:
        answer = request(path, body)
    except (OSError, ValueError) as e:
        print(f"kupferkessel admin: cannot reach the server at {path}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(answer, indent=2))
    if not answer.get("ok"):
        print(f"refused: {answer.get('error')}: {answer.get('message')}", file=sys.stderr)
        return 1
    if not args.json:
        print("\n".join(show(args.action, answer)))
    return 0
