"""The terminal client's settings: pacing, the held keys, the your-turn alert, the
first-game guide and the language, from ``settings.json`` in the data directory and the
environment.

One place for them, so every command (``play``, ``join``, ``host``, ``watch``) reads
them alike and a test can turn pacing off with one variable. The file and the
variables are described in docs/CLIENT.md ("Settings").
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .i18n import LANGUAGES, PSEUDO
from .tokens import data_dir

__all__ = ["ENV_PREFIX", "Settings"]

ENV_PREFIX = "KUPFERKESSEL_"
"""``KUPFERKESSEL_PACE=0`` and the like override the file, one variable per setting."""


@dataclass(frozen=True)
class Settings:
    """What the player may set. The defaults here are the library's (no pacing, no
    alert: what tests and programs want); ``load`` gives a person's defaults."""

    pace: float = 0.0
    """Seconds each other seat's turn stays on the screen before the next one shows
    (computer players answer in a blink; a person needs a moment to see it)."""
    hold: float = 0.0
    """Seconds the take keys wait when your turn comes back, so a key pressed for the
    turn before does not play this one blind."""
    bell: bool = False
    """Ring the terminal bell when it becomes your turn (LAN games)."""
    title: bool = False
    """Say in the window title when it is your turn."""
    guide: bool = False
    """Offer the first-game guide (once: it is set off when seen)."""
    lang: str = ""
    """The language of the screens (``de``; ``l`` in the lobby sets it); empty: the
    locale's (``LANG``)."""

    @staticmethod
    def path() -> Path:
        return data_dir() / "settings.json"

    @classmethod
    def load(cls) -> Settings:
        """A person's settings: paced play, held keys, the alert and the guide on,
        then ``settings.json``, then the environment."""
        s = cls(pace=0.8, hold=0.4, bell=True, title=True, guide=True)
        try:
            raw = json.loads(cls.path().read_text("utf-8"))
        except (OSError, ValueError):
            raw = {}
        s = s._with(raw if isinstance(raw, dict) else {})
        env = {
            f.name: os.environ[ENV_PREFIX + f.name.upper()]
            for f in fields(cls)
            if ENV_PREFIX + f.name.upper() in os.environ
        }
        return s._with(env)

    def _with(self, values: dict[str, Any]) -> Settings:
        """These settings with ``values`` (from JSON or text) where they make sense."""
        changes: dict[str, Any] = {}
        for f in fields(self):
            if f.name not in values:
                continue
            value = values[f.name]
            if f.type == "str":
                if isinstance(value, str) and (value in LANGUAGES or value in ("", PSEUDO)):
                    changes[f.name] = value
            elif f.type == "float":
                try:
                    changes[f.name] = max(0.0, min(10.0, float(value)))
                except (TypeError, ValueError):
                    continue
            elif isinstance(value, bool):
                changes[f.name] = value
            elif isinstance(value, str) and value.lower() in (
                "1",
                "0",
                "true",
                "false",
                "on",
                "off",
            ):
                changes[f.name] = value.lower() in ("1", "true", "on")
        return replace(self, **changes)

    def save(self, **changes: Any) -> Settings:
        """These settings with ``changes``, written back to ``settings.json``."""
        new = replace(self, **changes)
        try:
            raw = json.loads(self.path().read_text("utf-8"))
        except (OSError, ValueError):
            raw = {}
        raw = raw if isinstance(raw, dict) else {}
        raw.update(changes)
        try:
            self.path().parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.path().write_text(json.dumps(raw, indent=2) + "\n", "utf-8")
        except OSError:
            pass
        return new
