"""The terminal's keys as words: prompt_toolkit key presses become ``"enter"``,
``"up"``, ``"x"``, and go to one handler.

Screens decide on plain words, so the tests press keys by name without a terminal and
the bindings are written once.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

__all__ = ["KEY_NAMES", "key_bindings"]

KEY_NAMES = {
    Keys.Up: "up",
    Keys.Down: "down",
    Keys.Left: "left",
    Keys.Right: "right",
    Keys.ControlM: "enter",
    Keys.ControlJ: "enter",
    Keys.ControlI: "tab",
    Keys.BackTab: "s-tab",
    Keys.Escape: "escape",
    Keys.ControlH: "backspace",
    Keys.Backspace: "backspace",
    Keys.PageUp: "pageup",
    Keys.PageDown: "pagedown",
    Keys.ControlU: "c-u",
    Keys.Home: "home",
    Keys.End: "end",
}
"""The named keys and their words; any other key arrives as the text it types."""


def key_bindings(press: Callable[[str], None]) -> KeyBindings:
    """Bindings that hand every key to ``press`` as a word; Ctrl-C quits at once."""
    kb = KeyBindings()

    @kb.add(Keys.ControlC)
    def _(event: KeyPressEvent) -> None:
        event.app.exit(result=0)

    for key, name in KEY_NAMES.items():
        kb.add(key)(_handler(press, name))

    @kb.add(Keys.Any)
    def _(event: KeyPressEvent) -> None:
        press(event.data)

    return kb


def _handler(press: Callable[[str], None], name: str) -> Callable[[KeyPressEvent], None]:
    def handle(event: KeyPressEvent) -> None:
        press(name)

    return handle
