"""The browser client's files, answered on the WebSocket port: a request to a reply.

The server hands every plain HTTP request (one that is not a WebSocket handshake) to
``respond``. This module does no I/O once the assets are loaded: ``WebAssets.load``
reads the regular files directly in ``server/webassets/`` (the output of ``npm run
build`` in ``web/``; symlinks and folders are skipped) and ``WebAssets.answer`` maps a
method and request target to a status, headers and a body. Only the names loaded can
ever be reached, so a path with ``..``, an encoded slash or anything else outside that
list is simply not found. The page is revalidated on every load (``no-cache`` with an
ETag); the hashed scripts and styles are cached for a year (``immutable``); every
answer carries a Content-Security-Policy that allows no inline script and no other
origin.

A file comes brotli-compressed to a browser that accepts ``br``, else gzip-compressed
to one that accepts ``gzip``, else as it is (``Vary: Accept-Encoding``; each encoding
its own ETag). The brotli bodies are made at build time (``name.br`` beside each file:
brotli at its best takes too long to run per start), the gzip ones once at load; none
is made per request.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

__all__ = ["ASSETS_DIR", "CSP", "Reply", "WebAssets", "default_assets", "respond"]

ASSETS_DIR = Path(__file__).parent.parent / "webassets"

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Scripts, styles and images from this server only, no inline script or style, the
WebSocket back to this server only ('self' covers ws: and wss: of the same host), and
no framing by other pages."""

HASHED = re.compile(r"^[a-z0-9_-]+\.(?:[0-9a-f]{10}|[A-Z2-7]{8})\.[a-z0-9]+$")
"""``app.0123456789.js``, or esbuild's ``players.ABCD2345.js`` (a module the page loads
when it needs it): a name that changes whenever the content does."""

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".png": "image/png",
    ".woff2": "font/woff2",
}
COMPRESSIBLE = {".html", ".js", ".css", ".svg", ".txt", ".json"}

COMMON = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Connection", "close"),
)


@dataclass(frozen=True)
class Reply:
    """An HTTP answer: status, headers in order, body (empty for ``HEAD``)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        low = name.lower()
        return next((v for k, v in self.headers if k.lower() == low), None)


ENCODINGS = ("br", "gzip")
"""The content codings served, the better first (at an equal ``q``)."""


@dataclass(frozen=True)
class Asset:
    body: bytes
    encoded: dict[str, bytes]  # by content coding; only those smaller than the body
    content_type: str
    etag: str  # of the body; an encoded body's is this one with ``-<coding>``
    cache_control: str

    def tag(self, coding: str | None) -> str:
        return self.etag if coding is None else f'{self.etag[:-1]}-{coding}"'


class WebAssets:
    """The files of the web client, held in memory, and the answers to requests."""

    def __init__(self, assets: dict[str, Asset]) -> None:
        self.assets = assets

    @classmethod
    def load(cls, folder: Path = ASSETS_DIR) -> WebAssets:
        """Every regular file directly in ``folder`` whose type is known; symlinks,
        folders, hidden files and Python files are left out (none can be reached).
        ``name.br`` beside a file is its brotli body (read, never reachable itself)."""
        assets: dict[str, Asset] = {}
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                name = path.name
                if name.startswith(".") or path.is_symlink() or not path.is_file():
                    continue
                content_type = TYPES.get(path.suffix)
                if content_type is None:
                    continue
                body = path.read_bytes()
                encoded: dict[str, bytes] = {}
                if path.suffix in COMPRESSIBLE:
                    encoded["gzip"] = gzip.compress(body, compresslevel=9, mtime=0)
                    br = path.with_name(name + ".br")
                    if br.is_file() and not br.is_symlink():
                        encoded["br"] = br.read_bytes()
                assets[name] = Asset(
                    body=body,
                    encoded={k: v for k, v in encoded.items() if len(v) < len(body)},
                    content_type=content_type,
                    etag='"' + hashlib.sha256(body).hexdigest()[:20] + '"',
                    cache_control=IMMUTABLE if HASHED.match(name) else REVALIDATE,
                )
        return cls(assets)

    def answer(
        self,
        method: str,
        target: str,
        accept_encoding: str | None = None,
        if_none_match: str | None = None,
    ) -> Reply:
        """The reply to ``method`` ``target`` (the request line's path and query)."""
        if method not in ("GET", "HEAD"):
            return _plain(HTTPStatus.METHOD_NOT_ALLOWED, "Only GET and HEAD.\n", method, allow=True)
        path = target.split("?", 1)[0].split("#", 1)[0]
        name = "index.html" if path in ("/", "/index.html") else path[1:]
        asset = self.assets.get(name) if path.startswith("/") else None
        if asset is None:
            if name == "index.html":
                text = "The web client is not built here (npm ci && npm run build in web/).\n"
                return _plain(HTTPStatus.NOT_FOUND, text, method)
            return _plain(HTTPStatus.NOT_FOUND, "Not found.\n", method)
        coding = _coding(accept_encoding, asset.encoded)
        headers = [
            ("Content-Type", asset.content_type),
            ("Cache-Control", asset.cache_control),
            ("ETag", asset.tag(coding)),
        ]
        if asset.encoded:
            headers.append(("Vary", "Accept-Encoding"))
        if if_none_match is not None and _etag_matches(if_none_match, asset.tag(coding)):
            return Reply(HTTPStatus.NOT_MODIFIED, (*headers, *COMMON), b"")
        body = asset.body if coding is None else asset.encoded[coding]
        if coding is not None:
            headers.append(("Content-Encoding", coding))
        headers.append(("Content-Length", str(len(body))))
        return Reply(HTTPStatus.OK, (*headers, *COMMON), b"" if method == "HEAD" else body)


def _plain(status: HTTPStatus, text: str, method: str, allow: bool = False) -> Reply:
    body = text.encode()
    headers = [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Cache-Control", "no-store"),
        ("Content-Length", str(len(body))),
    ]
    if allow:
        headers.append(("Allow", "GET, HEAD"))
    return Reply(status, (*headers, *COMMON), b"" if method == "HEAD" else body)


def _coding(accept_encoding: str | None, offered: dict[str, bytes]) -> str | None:
    """The content coding of ``offered`` that ``Accept-Encoding`` values most (brotli
    before gzip at an equal ``q``; ``*`` stands for any coding not named; ``q=0``
    refuses), or None for the body as it is."""
    named: dict[str, float] = {}
    for part in (accept_encoding or "").split(","):
        coding, _, params = part.strip().partition(";")
        named[coding.strip().lower()] = _quality(params)
    wanted = [(named.get(c, named.get("*", 0.0)), -i, c) for i, c in enumerate(ENCODINGS)]
    q, _, best = max((w for w in wanted if w[2] in offered), default=(0.0, 0, ""))
    return best if q > 0 else None


def _quality(params: str) -> float:
    """The ``q`` of a coding's parameters (1 without one; 0 for one that is no number
    from 0 to 1, so that a coding is never sent on a misread ``q``)."""
    q = re.search(r"(?:^|;)\s*q\s*=\s*([^;\s]*)", params)
    if q is None:
        return 1.0
    try:
        value = float(q.group(1))
    except ValueError:
        return 0.0
    return value if 0 <= value <= 1 else 0.0


def _etag_matches(if_none_match: str, etag: str) -> bool:
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


@cache
def default_assets() -> WebAssets:
    """The assets of this package, read once."""
    return WebAssets.load()


def respond(request: Request, assets: WebAssets | None = None) -> Response:
    """The ``websockets`` answer to a plain HTTP request (``Server._http``)."""
    headers = request.headers
    reply = (assets or default_assets()).answer(
        getattr(request, "method", "GET"),  # websockets < 15 parses GET only
        request.path,
        ", ".join(headers.get_all("Accept-Encoding")),
        ", ".join(headers.get_all("If-None-Match")) or None,
    )
    status = HTTPStatus(reply.status)
    return Response(status.value, status.phrase, Headers(list(reply.headers)), reply.body)
