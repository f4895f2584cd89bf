"""ARCHITECTURE.md's map names every module, and every file it names exists.

The map ("## The map" in docs/ARCHITECTURE.md) is read as it is written: a section
heading naming one directory (`` ### `server/` ``) is where its bullets are, a bullet's
first backticked directory (`` `core/`: ``) is where its files and its nested bullets
live, and a later directory in the same bullet (`` `render/`: ``) is where the files
after it live. A file is named by a backticked name ending in ``.py``, ``.ts`` or
``.mjs``, relative to where it stands or to the project (``server/main.py``). The map
carries no line counts: the 600-line limit is checked by scripts/check_architecture.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ARCHITECTURE.md"

# What the map must cover: every module of these, ``__init__.py`` files excepted.
COVERED = (
    ("shared", "*.py"),
    ("protocol", "*.py"),
    ("server", "*.py"),
    ("client", "*.py"),
    ("web/src", "*.ts"),
    ("web/scripts", "*.mjs"),
    ("bench", "*.py"),
    ("tests/helpers", "*.py"),
)

_TOKEN = re.compile(r"`([^`\s]+)`")
_FILE = re.compile(r"[\w./-]+\.(?:py|ts|mjs)$")
_BULLET = re.compile(r"^( *)- ")


@dataclass
class MapRead:
    """The files the map names (project-relative) and the names it could not place."""

    named: set[str] = field(default_factory=set)
    unplaced: list[str] = field(default_factory=list)


def map_section(text: str) -> list[str]:
    """The lines of "## The map", up to the next second-level heading."""
    lines = text.splitlines()
    start = lines.index("## The map")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("## "))
    return lines[start + 1 : end]


def _bullets(lines: list[str]) -> list[tuple[str | None, int, str]]:
    """(section directory, indent, text) per bullet, continuation lines joined."""
    out: list[tuple[str | None, int, str]] = []
    section: str | None = None
    open_bullet = False  # a blank line ends a bullet: a paragraph after it is prose
    for line in lines:
        if line.startswith("### "):
            tokens = _TOKEN.findall(line)
            dirs = [t for t in tokens if t.endswith("/")]
            section = dirs[0].rstrip("/") if len(dirs) == 1 else None
            open_bullet = False
            continue
        bullet = _BULLET.match(line)
        if bullet:
            out.append((section, len(bullet.group(1)), line[bullet.end() :]))
            open_bullet = True
        elif not line.strip():
            open_bullet = False
        elif open_bullet:
            section_, indent, text = out[-1]
            out[-1] = (section_, indent, f"{text} {line.strip()}")
    return out


def read_map(root: Path, lines: list[str]) -> MapRead:
    """Place every file name of the map in the project under ``root``."""
    found = MapRead()
    parents: list[tuple[int, Path]] = []  # (indent, directory) of the enclosing bullets
    for section, indent, text in _bullets(lines):
        top = root / section if section else root
        while parents and parents[-1][0] >= indent:
            parents.pop()
        base = parents[-1][1] if parents else top
        here = base
        first_dir: Path | None = None
        for token in _TOKEN.findall(text):
            if token.endswith("/"):
                for start in (here, base, top):  # not a reference elsewhere (`docs/x/`)
                    if (start / token).is_dir():
                        here = start / token
                        break
                first_dir = first_dir or here
            elif _FILE.fullmatch(token):
                for start in (here, base, top, root):
                    if (start / token).is_file():
                        found.named.add((start / token).relative_to(root).as_posix())
                        break
                else:
                    found.unplaced.append(f"{token} (in: {text[:60]}...)")
        parents.append((indent, first_dir or base))
    return found


def modules(root: Path) -> set[str]:
    """Every file the map must name."""
    out = set()
    for top, pattern in COVERED:
        for path in (root / top).rglob(pattern):
            rel = path.relative_to(root)
            if path.name == "__init__.py" or "__pycache__" in rel.parts:
                continue
            if "node_modules" in rel.parts:
                continue
            out.add(rel.as_posix())
    return out


def test_every_module_is_on_the_map() -> None:
    found = read_map(ROOT, map_section(DOC.read_text(encoding="utf-8")))
    missing = sorted(modules(ROOT) - found.named)
    assert not missing, f"not on ARCHITECTURE.md's map: {missing}"


def test_every_file_the_map_names_exists() -> None:
    found = read_map(ROOT, map_section(DOC.read_text(encoding="utf-8")))
    assert not found.unplaced, f"named on the map but no such file: {found.unplaced}"


def test_the_map_has_no_line_counts() -> None:
    """A count nobody checks drifts: the map says what is where, not how long it is."""
    section = "\n".join(map_section(DOC.read_text(encoding="utf-8")))
    counts = re.findall(r"`[^`]+\.(?:py|ts)` \(\d+[:)]", section)
    assert not counts, f"line counts on the map: {counts}"


def _tree(root: Path, files: list[str]) -> Path:
    for rel in files:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("", encoding="utf-8")
    return root


def test_names_are_placed_by_section_bullet_and_directory(tmp_path: Path) -> None:
    files = [
        "server/app.py",
        "server/core/table.py",
        "server/core/sub/deep.py",
        "client/ui/app.py",
        "client/ui/render/grid.py",
        "client/table.py",
    ]
    root = _tree(tmp_path, [*files, "client/other.py"])
    lines = [
        "### `server/`: the server",
        "- `core/`: a table.",
        "  - `table.py`: `Table`,",
        "    continued, `sub/`: `deep.py`.",
        "- `app.py`: the root; `server/core/table.py` again.",
        "### `client/`",
        "- `ui/`: `app.py`; `render/`: (`grid.py`)",
        "- `table.py`, `nowhere.py`",
        "",
        "Prose after a list names `other.py` where it is used, unchecked.",
    ]
    found = read_map(root, lines)
    assert found.named == set(files)  # each where it stands, nothing else
    assert [u.split()[0] for u in found.unplaced] == ["nowhere.py"]
