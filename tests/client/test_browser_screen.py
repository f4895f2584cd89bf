"""The hosted server's way in for browsers (``client.ui.browser``): every web address
of the page, and a QR code of the first that a phone's camera reads back."""

from __future__ import annotations

import segno

from client.ui.browser import browser_lines, qr_lines, web_urls


def _text(lines: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(t for _, t in line) for line in lines]


def test_the_page_is_at_each_lan_address() -> None:
    assert web_urls(["192.168.1.20", "10.0.0.5"], 8765) == [
        "http://192.168.1.20:8765/",
        "http://10.0.0.5:8765/",
    ]
    assert web_urls(["fe80::1"], 8765) == ["http://[fe80::1]:8765/"]


def test_the_qr_code_encodes_the_address() -> None:
    url = "http://192.168.1.20:8765/"
    code = qr_lines(url)
    expected = segno.make(url, error="l")
    size = expected.symbol_size(border=2)[0]
    assert len(code) == (size + 1) // 2 and all(len(line) == size for line in code)
    # the half blocks, read back row by row, are the symbol's modules (light drawn)
    rows = [[not dark for dark in row] for row in expected.matrix_iter(border=2)]
    for i, line in enumerate(code):
        top, bottom = rows[2 * i], rows[2 * i + 1] if 2 * i + 1 < size else [False] * size
        for ch, t, b in zip(line, top, bottom, strict=True):
            assert (
                ch
                == {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}[
                    (t, b)
                ]
            )


def test_the_screen_fits_80x24_with_its_code_and_says_so_at_60x20() -> None:
    urls = ["http://192.168.1.20:8765/"]
    big = _text(browser_lines(urls, 80, 22))
    assert len(big) == 22 and any("http://192.168.1.20:8765/" in line for line in big)
    assert any("█" in line for line in big) and big[-1].strip() == "Esc: close"
    small = _text(browser_lines(urls, 60, 12))
    assert len(small) == 12 and any("larger terminal" in line for line in small)
    none = _text(browser_lines([], 80, 10))
    assert any("--no-web" in line for line in none)
