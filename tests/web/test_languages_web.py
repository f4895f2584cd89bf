"""The browser client in another language (docs/WEB.md, "Languages"): every main screen
(lobby, new table, the table and its question, the end, a past game's replay) read in
the pseudo-locale ``xx`` (every translated letter accented, each message about 40 %
longer: a plain English word is one that missed the catalogue) and in German (the
longest words), on a 360 x 640 phone and a 1280 x 800 laptop, shows no word left in
English, nothing clipped and nothing wider than the screen, with ``<html lang>`` set
and no serious accessibility finding. The language comes from the browser's languages,
and the choice in the settings is kept."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from client import i18n
from tests.client.tmux import KK, Tmux, needs_tmux
from tests.helpers.languages import untranslated
from tests.helpers.pages import (
    AXE,
    GAME_TIMEOUT,
    answer_then_resign,
    my_turn,
    take_one,
    violations,
)
from tests.helpers.web import LiveServer, shot, until

pytestmark = pytest.mark.e2e

SIZES = {"phone": {"width": 360, "height": 640}, "desktop": {"width": 1280, "height": 800}}

# what a person reads on the screen: the text shown, and the names given to controls
READ = """() => {
  const shown = document.body.innerText;
  const named = [...document.querySelectorAll('[aria-label], [placeholder], [title]')]
    .filter(e => e.offsetParent !== null || e === document.body)
    .map(e => [e.getAttribute('aria-label'), e.getAttribute('placeholder'), e.title]
      .filter(Boolean).join(' '));
  return [document.title, shown, ...named].join('\\n');
}"""

# text that does not fit its box (a box that hides what overflows it and is smaller than
# its content), and the page wider than the screen
CLIPPED = """(cellSlack) => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth)
    out.push(`page ${document.documentElement.scrollWidth} wide in ${innerWidth}`);
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('.sr-only') || !e.textContent.trim() || e.offsetParent === null) continue;
    const s = getComputedStyle(e);
    const hides = (v) => v === 'hidden' || v === 'clip';
    if (!hides(s.overflowX) && !hides(s.overflowY) && s.textOverflow !== 'ellipsis') continue;
    // a line box may stand 2 px over its cell at the bottom (a phone's card of five lines
    // does so in English too): no letter is cut by that; a word too wide always is
    const slack = e.classList.contains('cell') ? cellSlack : 0;
    if (e.scrollWidth > e.clientWidth + 1 + slack || e.scrollHeight > e.clientHeight + 2)
      out.push(`${e.tagName.toLowerCase()}.${e.className}`
        + ` (${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}):`
        + ` ${e.textContent.trim().slice(0, 40)}`);
  }
  return out;
}"""

# the players' and the server's names, as given
NAMES = {"Ann", "Ada", "Kupferkessel", "Co", "server"}


def in_language(open_page: Any, size: str, lang: str, kept: bool = True) -> Any:
    """A page of ``size`` whose browser asks for ``lang`` first (``kept``: chosen in
    the settings before, in this browser's storage)."""
    page = open_page("phone" if size == "phone" else "desktop")
    page.set_viewport_size(SIZES[size])
    script = f"try {{ localStorage.setItem('kk:lang', {lang!r}); }} catch (e) {{}}"
    if kept:
        page.context.add_init_script(script=script)
    return page


def lobby(page: Any, live: LiveServer) -> None:
    page.goto(live.url)
    page.wait_for_selector("#new-table")
    until(page, "document.getElementById('conn').textContent.includes('Kupferkessel')")


def check(page: Any, lang: str, screen: str, size: str, found: dict[str, list[str]]) -> None:
    """What ``screen`` shows now: no English word left, nothing clipped or too wide, no
    serious accessibility finding; a screenshot to look at."""
    text = page.evaluate(READ)
    server = page.evaluate("() => location.host")
    names = NAMES | {server, *server.split(":")}
    lines = text.splitlines()
    problems = [
        f"English {w!r} in {next((ln for ln in lines if w in ln), '')[:80]!r}"
        for w in untranslated(text, lang, names)
    ]
    # a card's marks keep their width in letters in xx (as in the terminal's cells), but
    # an accented capital is a little wider than a plain one: 2 px of slack there
    problems += page.evaluate(CLIPPED, 2 if lang == "xx" else 0)
    problems += [f"axe: {v}" for v in violations(page)] if AXE.exists() else []
    if problems:
        found[f"{lang} {size} {screen}"] = problems
    shot(page, f"{size}-lang-{lang}-{screen}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["xx", "de"])
def test_every_main_screen_reads_in_the_language(
    live_server: LiveServer, open_page: Any, lang: str, size: str
) -> None:
    page = in_language(open_page, size, lang)
    found: dict[str, list[str]] = {}
    lobby(page, live_server)
    assert page.evaluate("() => document.documentElement.lang") == (
        "en-XA" if lang == "xx" else lang
    )
    # a registered player, so that the game is kept for its replay
    page.click("#your-player")
    page.wait_for_selector("#reg-name")
    check(page, lang, "register", size, found)
    page.fill("#reg-name", "Ada")
    page.click("#register-go")
    page.wait_for_selector("#rating")
    check(page, lang, "profile", size, found)
    page.click("#to-board")
    page.wait_for_selector("#board-h")
    check(page, lang, "leaderboard", size, found)
    page.click('#pages a[href="#/"]')
    page.wait_for_selector("#tables")
    check(page, lang, "lobby", size, found)
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    page.check("#opt-recipes")
    page.fill("#opt-move", "60")
    check(page, lang, "create", size, found)
    page.click("#create-go")
    page.wait_for_selector(".cell.take:not([disabled])")
    check(page, lang, "table", size, found)
    page.locator(".cell.take").first.click()
    page.wait_for_selector(".options button")
    check(page, lang, "question", size, found)
    answer_then_resign(page)
    check(page, lang, "end", size, found)
    page.click('[data-key="to-lobby"]')
    page.wait_for_selector("#your-player")
    page.click("#your-player")
    page.wait_for_selector("[data-key^='replay-']")
    page.click("[data-key^='replay-']")
    page.wait_for_selector("#replay-step")
    page.click("#replay-next")
    check(page, lang, "replay", size, found)
    page.goto(live_server.url + "#/help")
    page.wait_for_selector("#help-h")
    check(page, lang, "guide", size, found)
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
    assert page.errors == []


def test_the_browsers_language_decides_and_the_choice_is_kept(
    live_server: LiveServer, browser: Any
) -> None:
    """A browser asking for Austrian German, then French, gets German (the first the
    page speaks); English needs no language module at all; a language chosen in the
    settings is spoken at once (the page loads again) and on the next visit."""
    ctx = browser.new_context(locale="de-AT", viewport=SIZES["phone"])
    try:
        page = ctx.new_page()
        fetched: list[str] = []
        page.on("request", lambda r: fetched.append(r.url.rsplit("/", 1)[-1]))
        lobby(page, live_server)
        assert page.evaluate("() => document.documentElement.lang") == "de"
        assert page.inner_text('#pages a[href="#/"]') == "Lobby"
        assert page.inner_text("#new-table") == "Neuer Tisch"
        assert any(f.startswith("lang-de.") for f in fetched), fetched
        assert not any(f.startswith(("lang-fr.", "lang-es.", "lang-xx.")) for f in fetched)
        page.click("#settings summary")
        assert page.input_value("#lang") == "de"
        page.select_option("#lang", "es")
        page.wait_for_selector("html[lang=es]")
        page.wait_for_selector("#new-table")
        assert page.inner_text("#new-table") == "Mesa nueva"
        page.reload()
        page.wait_for_selector("#new-table")
        assert page.evaluate("() => document.documentElement.lang") == "es"
        fetched.clear()
        page.click("#settings summary")
        page.select_option("#lang", "en")
        page.wait_for_selector("html[lang=en]")
        page.wait_for_selector("#new-table")
        assert page.inner_text("#new-table") == "New table"
        assert not any(f.startswith("lang-") for f in fetched), fetched
    finally:
        ctx.close()


def said(lang: str, message: str) -> str:
    """The words of ``message`` before its first field, as the terminal says them."""
    i18n.use(lang)
    try:
        return i18n._(message).split("{")[0].strip()
    finally:
        i18n.use("en")


@needs_tmux
@pytest.mark.long
def test_a_german_a_french_and_a_spanish_reader_at_one_table(
    live_server: LiveServer, open_page: Any, tmp_path: Path
) -> None:
    """Ann in a German browser on a phone and Jo in a French terminal (its locale) play
    a whole game at one table while Eva watches in a Spanish browser on a laptop: each
    reads only their own language, in the game and at its end."""
    found: dict[str, list[str]] = {}
    port = live_server.server.port
    ann = in_language(open_page, "phone", "de")
    lobby(ann, live_server)
    ann.fill("#player-name", "Ann")
    ann.click("#new-table")
    ann.wait_for_selector("#create-go")
    ann.fill("#table-name", "Kessel")
    ann.select_option("#seat-1", "")  # Black: a person, Jo
    ann.click("#create-go")
    ann.wait_for_selector("#invite-link")
    check(ann, "de", "mixed-waiting", "phone", found)
    watch = ann.locator("#watch-link").get_attribute("href")
    terminal = {"Ann", "Jo", "Kessel", f"127.0.0.1:{port}", "ws", *NAMES}
    final = said("fr", "Final score")
    t = Tmux(tmp_path)
    try:
        command = f"{KK} join ws://127.0.0.1:{port} --name Jo"
        t.start(command, name="jo", size=(80, 24), env="LANG=fr_FR.UTF-8 KUPFERKESSEL_HOLD=0")
        t.wait("Kessel", name="jo")
        t.keys("Enter", name="jo")
        t.wait(lambda s: "(())" in s, name="jo", timeout=30)  # the grid, its corners
        ann.wait_for_selector("#board")
        eva = in_language(open_page, "desktop", "es")
        eva.goto(watch)
        eva.wait_for_selector("#join-go")
        check(eva, "es", "mixed-join", "desktop", found)
        eva.click("#join-go")
        eva.wait_for_selector("#board")
        takes = 0
        deadline = time.monotonic() + GAME_TIMEOUT
        while not (ann.locator("#end-h").count() and final in t.screen("jo")):
            assert time.monotonic() < deadline, t.screen("jo")
            if my_turn(ann):
                take_one(ann, "phone")
                takes += 1
                if takes == 4:  # in the middle of the game, each in their language
                    check(ann, "de", "mixed-table", "phone", found)
                    check(eva, "es", "mixed-table", "desktop", found)
                    left = untranslated(t.screen("jo"), "fr", terminal)
                    assert left == [], f"English on Jo's screen: {left}\n{t.screen('jo')}"
            elif final not in t.screen("jo"):
                t.keys("Enter", name="jo")  # take, use the symbol, keep the last card
                time.sleep(0.2)
        until(eva, "document.querySelector('#end-h') !== null")
        check(ann, "de", "mixed-end", "phone", found)
        check(eva, "es", "mixed-end", "desktop", found)
        screen = t.screen("jo")
        assert untranslated(screen, "fr", terminal) == [], screen
        assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
        assert ann.errors == [] and eva.errors == []
    finally:
        t.kill()
