"""The way in for phones and laptops: the web addresses a hosted server's page is at,
and a QR code of the first, for a phone's camera (``B`` while hosting).

The server serves its own browser client on its port (docs/WEB.md), so friends at the
table need nothing but the address: the screen lists one per LAN address of this
machine, and draws the code with ``segno`` in half-block characters.
"""

from __future__ import annotations

import io

import segno

from client.i18n import _

from .render import Line, wrap, wrap_items

__all__ = ["browser_lines", "qr_lines", "web_urls"]


def web_urls(addresses: list[str], port: int) -> list[str]:
    """The page's address on each of ``addresses`` (IPv6 ones in brackets)."""
    return [f"http://[{a}]:{port}/" if ":" in a else f"http://{a}:{port}/" for a in addresses]


def qr_lines(url: str) -> list[str]:
    """A QR code of ``url``, two rows of modules per line (light modules drawn)."""
    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, border=2, compact=True)
    return out.getvalue().splitlines()


def browser_lines(urls: list[str], width: int, rows: int) -> list[Line]:
    """The screen: the addresses, the code of the first if it fits, the keys below."""
    body: list[Line] = [[("bold", _("Play in a browser"))], []]
    if not urls:
        body += wrap([("", _("This server serves no browser client (--no-web)."))], width, 0)
    else:
        body += wrap([("", _("On a phone or laptop on this network, open:"))], width, 0)
        body += [[("bold", f"  {u}")] for u in urls]
        body.append([])
        code = qr_lines(urls[0])
        if len(code) + len(body) + 2 <= rows and len(code[0]) + 2 <= width:
            body += [[("", f"  {line}")] for line in code]
        else:
            body += wrap([("", _("(a larger terminal shows a QR code of it)"))], width, 0)
    foot = wrap_items([_("Esc: close")], width)
    body = body[: max(0, rows - len(foot))]
    return body + [[] for _ in range(rows - len(foot) - len(body))] + foot
