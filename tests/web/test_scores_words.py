"""The scores at the end of a game say every word whole: a name, "Total" and a total
("-26") stay on one line, not broken one letter under another (a total of -26 broken
after its "-2" read as two numbers), on a desktop's panel and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import play_to_the_end, three_with_recipes
from tests.helpers.web import LiveServer, shot

pytestmark = pytest.mark.e2e

# every word of the scores table whose letters lie on more than one line
BROKEN = """() => { const out = [];
  const walk = document.createTreeWalker(document.querySelector('.scores'), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const m of n.data.matchAll(/\\S+/g)) {
      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      const rects = [...r.getClientRects()].filter(x => x.width > 0);
      const tops = new Set(rects.map(x => Math.round(x.top)));
      if (tops.size > 1) out.push(m[0]);
    } }
  return out; }"""


@pytest.mark.parametrize(("size", "widths"), [("desktop", [1280]), ("phone", [390, 320])])
def test_the_scores_break_no_word(
    live_server: LiveServer, open_page: Any, size: str, widths: list[int]
) -> None:
    """One game a kind of device; its end read at each of the device's widths from the
    same page, resized (a game a width played a whole game again for its last screen)."""
    page = open_page(size, pace="off")
    page.set_viewport_size({"width": widths[0], "height": 900})
    three_with_recipes(page, live_server)
    play_to_the_end(page, size)
    page.wait_for_selector(".scores")
    for width in widths:
        page.set_viewport_size({"width": width, "height": 900})
        shot(page, f"scores-{size}-{width}", ".scores")
        assert page.evaluate(BROKEN) == [], width
        # and the table stays inside its panel
        table, panel = (page.locator(s).bounding_box() for s in (".scores", "#question"))
        assert table and panel, width
        assert table["x"] + table["width"] <= panel["x"] + panel["width"] + 1, width
    assert page.errors == []
