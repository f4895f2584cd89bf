"""The web client's files: what ``server.net.webui`` answers (caching, types, methods, CSP,
brotli and gzip, nothing outside the asset folder), the built assets themselves, and a
real server on loopback answering ``GET /`` and an asset on its WebSocket port."""

from __future__ import annotations

import asyncio
import gzip
import os
import re
from pathlib import Path

import brotli  # type: ignore[import-untyped]
import pytest

from server.net.webui import ASSETS_DIR, CSP, IMMUTABLE, WebAssets
from tests.helpers.servers import MakeServer

from .wsclient import WsClient

HASHED_JS = "app.0123456789.js"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An asset folder with a page, a hashed script, a subfolder, a Python file and a
    symlink to a file outside it."""
    root = tmp_path / "assets"
    root.mkdir()
    (root / "index.html").write_text("<!doctype html><title>t</title>" + "x" * 400)
    (root / HASHED_JS).write_text("console.log('hi');" * 50)
    (root / "licenses.txt").write_text("MIT\n")
    (root / "__init__.py").write_text("")
    (root / "sub").mkdir()
    (root / "sub" / "inner.txt").write_text("inner")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    (root / "link.txt").symlink_to(secret)
    (root / "linkdir").symlink_to(tmp_path)
    return root


def test_index_is_revalidated_with_an_etag(folder: Path) -> None:
    web = WebAssets.load(folder)
    r = web.answer("GET", "/")
    assert r.status == 200
    assert r.header("Content-Type") == "text/html; charset=utf-8"
    assert r.header("Cache-Control") == "no-cache"
    etag = r.header("ETag")
    assert etag and etag.startswith('"')
    assert r.body == (folder / "index.html").read_bytes()
    assert web.answer("GET", "/index.html").body == r.body
    assert web.answer("GET", "/?table=x").body == r.body
    again = web.answer("GET", "/", if_none_match=etag)
    assert again.status == 304 and again.body == b""
    assert web.answer("GET", "/", if_none_match='W/"other", ' + etag).status == 304
    assert web.answer("GET", "/", if_none_match='"other"').status == 200


def test_hashed_assets_are_immutable_with_their_types(folder: Path) -> None:
    web = WebAssets.load(folder)
    js = web.answer("GET", f"/{HASHED_JS}")
    assert js.status == 200
    assert js.header("Content-Type") == "text/javascript; charset=utf-8"
    assert js.header("Cache-Control") == IMMUTABLE == "public, max-age=31536000, immutable"
    assert js.header("X-Content-Type-Options") == "nosniff"
    txt = web.answer("GET", "/licenses.txt")
    assert txt.header("Content-Type") == "text/plain; charset=utf-8"
    assert txt.header("Cache-Control") == "no-cache"  # not hashed: revalidated


def test_the_modules_loaded_when_wanted_are_hashed_and_compressed(folder: Path) -> None:
    """esbuild names what the page loads later by a hash of its own (a screen opened
    rarely, a language): cached for a year as the page's script is, compressed both
    ways; a name merely like it is not."""
    chunk = "lang-de.ABCD2345.js"
    (folder / chunk).write_text("export default {messages: {}};" * 40)
    (folder / f"{chunk}.br").write_bytes(b"brotli")  # made by the build
    (folder / "lang-de.abcd2345.js").write_text("x")  # lower case: no esbuild hash
    web = WebAssets.load(folder)
    for coding in ("br", "gzip"):
        r = web.answer("GET", f"/{chunk}", accept_encoding=coding)
        assert r.status == 200 and r.header("Content-Encoding") == coding
        assert r.header("Content-Type") == "text/javascript; charset=utf-8"
        assert r.header("Cache-Control") == IMMUTABLE
    assert web.answer("GET", "/lang-de.abcd2345.js").header("Cache-Control") == "no-cache"


def test_every_answer_carries_a_strict_csp(folder: Path) -> None:
    web = WebAssets.load(folder)
    for r in (web.answer("GET", "/"), web.answer("GET", "/nope"), web.answer("POST", "/")):
        assert r.header("Content-Security-Policy") == CSP
    assert "unsafe-inline" not in CSP and "unsafe-eval" not in CSP
    assert "script-src 'self';" in CSP and "default-src 'none'" in CSP
    assert not re.search(r"(https?|wss?):", CSP)  # no other origin, not even a scheme
    assert "frame-ancestors 'none'" in CSP


def test_only_get_and_head(folder: Path) -> None:
    web = WebAssets.load(folder)
    head = web.answer("HEAD", "/")
    get = web.answer("GET", "/")
    assert head.status == 200 and head.body == b""
    assert head.header("Content-Length") == str(len(get.body))
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"):
        r = web.answer(method, "/")
        assert r.status == 405, method
        assert r.header("Allow") == "GET, HEAD"
        assert b"<" not in r.body


@pytest.mark.parametrize(
    "target",
    [
        "/../secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/sub/inner.txt",
        "/sub%2finner.txt",
        "/sub%2Finner.txt",
        "/sub%5cinner.txt",
        "/sub\\inner.txt",
        "//etc/passwd",
        "/link.txt",
        "/linkdir/secret.txt",
        "/linkdir%2fsecret.txt",
        "/__init__.py",
        "/.hidden",
        "/index.html/",
        "/./index.html",
        "index.html",
        "*",
        "http://example.org/index.html",
        "/%69ndex.html",
        "/index.html%00",
        f"/{HASHED_JS}/../licenses.txt",
    ],
)
def test_nothing_outside_the_asset_files_is_reachable(folder: Path, target: str) -> None:
    web = WebAssets.load(folder)
    r = web.answer("GET", target)
    assert r.status == 404, target
    assert b"secret" not in r.body and b"inner" not in r.body


def test_symlinks_and_folders_are_not_loaded(folder: Path) -> None:
    names = set(WebAssets.load(folder).assets)
    assert names == {"index.html", HASHED_JS, "licenses.txt"}


def test_gzip_when_accepted(folder: Path) -> None:
    web = WebAssets.load(folder)
    plain = web.answer("GET", f"/{HASHED_JS}")
    assert plain.header("Content-Encoding") is None
    assert plain.header("Vary") == "Accept-Encoding"
    for accept in ("gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "*"):
        packed = web.answer("GET", f"/{HASHED_JS}", accept_encoding=accept)
        assert packed.header("Content-Encoding") == "gzip", accept
        assert gzip.decompress(packed.body) == plain.body
        assert packed.header("Content-Length") == str(len(packed.body))
        assert len(packed.body) < len(plain.body)
    for accept in ("gzip;q=0", "deflate, br", "identity", "", "gzipx"):
        r = web.answer("GET", f"/{HASHED_JS}", accept_encoding=accept)
        assert r.header("Content-Encoding") is None, accept
        assert r.body == plain.body


def test_brotli_when_accepted_else_gzip(folder: Path) -> None:
    plain = (folder / HASHED_JS).read_bytes()
    (folder / f"{HASHED_JS}.br").write_bytes(brotli.compress(plain))
    web = WebAssets.load(folder)
    assert set(web.assets) == {"index.html", HASHED_JS, "licenses.txt"}  # no .br of its own
    tags = set()
    for accept, coding in (
        ("gzip, deflate, br", "br"),
        ("br", "br"),
        ("*", "br"),
        ("br;q=0.5, gzip", "gzip"),  # the client's order of preference wins
        ("br;q=0, gzip", "gzip"),
        ("br;q=0, *", "gzip"),
        ("gzip;q=0.1, br;q=0.1", "br"),  # brotli first at an equal q
        ("br;q=x, gzip;q=0", None),  # a q misread sends neither
        ("identity", None),
        ("", None),
    ):
        r = web.answer("GET", f"/{HASHED_JS}", accept_encoding=accept)
        assert r.header("Content-Encoding") == coding, accept
        assert r.header("Vary") == "Accept-Encoding"
        decode = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[coding]
        assert decode(r.body) == plain, accept
        assert r.header("Content-Length") == str(len(r.body))
        tags.add(r.header("ETag"))
        # a cache revalidates the body it holds, in the coding it holds it
        again = web.answer("GET", f"/{HASHED_JS}", accept, if_none_match=r.header("ETag"))
        assert again.status == 304 and again.header("ETag") == r.header("ETag")
    assert len(tags) == 3  # each coding its own ETag
    held = web.answer("GET", f"/{HASHED_JS}", "br").header("ETag")  # not the plain body's
    assert web.answer("GET", f"/{HASHED_JS}", "identity", if_none_match=held).status == 200


def test_an_empty_folder_says_the_client_is_not_built(tmp_path: Path) -> None:
    r = WebAssets.load(tmp_path / "missing").answer("GET", "/")
    assert r.status == 404
    assert b"npm run build" in r.body


# ---------------------------------------------------------------------- the built assets
def page_files() -> dict[str, bytes]:
    """The page and every file it loads, as built into the package."""
    index = (ASSETS_DIR / "index.html").read_bytes()
    refs = re.findall(rb'(?:src|href)="/([^"#]+)"', index)
    files = {r.decode(): (ASSETS_DIR / r.decode()).read_bytes() for r in refs}
    return {"index.html": index, **files}


def test_the_built_page_loads_only_hashed_files_of_its_own() -> None:
    files = page_files()
    loaded = [n for n in files if n != "index.html" and n != "licenses.txt"]
    assert any(n.endswith(".js") for n in loaded) and any(n.endswith(".css") for n in loaded)
    web = WebAssets.load()
    for name in loaded:
        assert web.answer("GET", f"/{name}").header("Cache-Control") == IMMUTABLE, name
    index = files["index.html"].decode()
    for script in re.findall(r"<script\b[^>]*>(.*?)</script>", index, re.S):
        assert script.strip() == "", "inline script"
    assert "style=" not in index and "<style" not in index
    assert not re.search(r"(src|href)=\"(https?:)?//", index), "a third-party origin"
    assert (ASSETS_DIR / "licenses.txt").read_text().count("@msgpack/msgpack") >= 1


@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_the_first_load_is_under_40_kib(coding: str) -> None:
    """What a browser fetches to show the page (the page, its script, style and icon;
    not the licenses it links to), brotli-compressed as browsers get it over https or
    from localhost, gzip-compressed as a phone gets it from a LAN address over http."""
    web = WebAssets.load()
    sent = {
        name: web.answer("GET", "/" if name == "index.html" else f"/{name}", coding)
        for name in page_files()
        if name != "licenses.txt"
    }
    assert {r.header("Content-Encoding") for r in sent.values()} == {coding}
    total = sum(len(r.body) for r in sent.values())
    assert total < 40 * 1024, total


def test_the_whole_page_is_under_150_kib_compressed() -> None:
    web = WebAssets.load()
    total = 0
    for name in page_files():
        target = "/" if name == "index.html" else f"/{name}"
        total += len(web.answer("GET", target, accept_encoding="gzip").body)
    assert total < 150 * 1024, total


# ---------------------------------------------------------------------- a real server
async def http(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send one raw HTTP request to 127.0.0.1:port; the status, headers and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)  # the server closes after answering
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    return status, headers, body


def get(path: str, method: str = "GET", extra: str = "") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode()


async def test_a_real_server_answers_the_page_and_an_asset(make_server: MakeServer) -> None:
    server = await make_server()
    status, headers, body = await http(server.port, get("/"))
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert headers["content-security-policy"] == CSP
    assert body == (ASSETS_DIR / "index.html").read_bytes()
    script = re.search(rb'src="/(app\.[0-9a-f]{10}\.js)"', body)
    assert script is not None
    name = script.group(1).decode()
    gzip_ok = "Accept-Encoding: gzip\r\n"
    status, headers, js = await http(server.port, get(f"/{name}", extra=gzip_ok))
    assert status == 200
    assert headers["cache-control"] == IMMUTABLE
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(js) == (ASSETS_DIR / name).read_bytes()
    for accept, decode in (("br", brotli.decompress), ("identity", bytes)):
        status, headers, body = await http(
            server.port, get(f"/{name}", extra=f"Accept-Encoding: {accept}\r\n")
        )
        assert status == 200 and headers["vary"] == "Accept-Encoding"
        assert headers.get("content-encoding") == (None if accept == "identity" else accept)
        assert decode(body) == (ASSETS_DIR / name).read_bytes()
    status, headers, body = await http(server.port, get(f"/{name}", method="HEAD"))
    assert status == 200 and body == b""
    assert headers["content-length"] == str((ASSETS_DIR / name).stat().st_size)
    status, headers, _ = await http(server.port, get("/", method="POST"))
    assert status == 405 and headers["allow"] == "GET, HEAD"
    status, _, body = await http(server.port, get("/..%2f..%2fpyproject.toml"))
    assert status == 404 and b"setuptools" not in body
    status, _, body = await http(server.port, get("/healthz"))
    assert status == 200 and b'"status": "ok"' in body


async def test_no_web_serves_no_page(make_server: MakeServer) -> None:
    server = await make_server(web=False)
    status, _, body = await http(server.port, get("/"))
    assert status != 200  # the handshake's own refusal (426: upgrade required)
    assert b"<html" not in body.lower()
    status, _, _ = await http(server.port, get("/healthz"))
    assert status == 200


async def test_the_websocket_endpoint_still_answers_with_the_web_on(
    make_server: MakeServer,
) -> None:
    server = await make_server()
    client = await WsClient.open(server.port, protocol=(1, 1))
    pong = await client.request("ping")
    assert pong.type == "pong"
    await client.close()


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_the_package_assets_hold_no_symlink() -> None:
    for path in ASSETS_DIR.iterdir():
        assert not path.is_symlink(), path
