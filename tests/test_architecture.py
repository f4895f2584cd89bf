"""The import-graph check (scripts/check_architecture.py) finds every cycle and long module.

Small packages written into ``tmp_path`` pin each way an import can close a cycle
(lazy, type-only, relative, through a package's ``__init__``); the last tests run the
check on the project itself.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "check_architecture.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_architecture", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


ca = _load()


def write(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (path -> source) under ``root``; every directory of a path gets an
    empty ``__init__.py`` unless ``files`` gives one."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for rel in files:
        for parent in Path(rel).parents:
            if parent != Path("."):
                init = root / parent / "__init__.py"
                if not init.exists():
                    init.write_text("", encoding="utf-8")
    return root


def cycle_sets(root: Path, packages: tuple[str, ...] = ("alpha",)) -> list[set[str]]:
    return [set(c.modules) for c in ca.cycles(ca.build_graph(root, packages))]


def edges(root: Path, packages: tuple[str, ...] = ("alpha",)) -> set[tuple[str, str, str]]:
    return {(e.source, e.target, e.kind) for e in ca.build_graph(root, packages).edges}


def test_a_lazy_import_closes_a_cycle(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/a.py": "import alpha.b\n",
            "alpha/b.py": """
                def later() -> None:
                    from alpha.a import thing
            """,
        },
    )
    assert cycle_sets(tmp_path) == [{"alpha.a", "alpha.b"}]
    assert ("alpha.b", "alpha.a", "lazy") in edges(tmp_path)
    assert ("alpha.a", "alpha.b", "top-level") in edges(tmp_path)


def test_a_type_checking_import_closes_a_cycle(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/owner.py": "from alpha.child import Child\n",
            "alpha/child.py": """
                from typing import TYPE_CHECKING
                import typing

                if TYPE_CHECKING:
                    from alpha.owner import Owner
                if typing.TYPE_CHECKING:
                    import alpha.owner
                else:
                    import alpha.other
            """,
            "alpha/other.py": "",
        },
    )
    assert cycle_sets(tmp_path) == [{"alpha.child", "alpha.owner"}]
    found = edges(tmp_path)
    assert ("alpha.child", "alpha.owner", "type-only") in found
    assert ("alpha.child", "alpha.other", "top-level") in found  # the else branch runs
    assert not any(kind != "type-only" for s, t, kind in found if t == "alpha.owner")


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/sub/a.py": "from . import b\n",
            "alpha/sub/b.py": "from ..top import x\n",
            "alpha/top.py": "from .sub.a import y\n",
        },
    )
    assert cycle_sets(tmp_path) == [{"alpha.sub.a", "alpha.sub.b", "alpha.top"}]
    assert edges(tmp_path) == {
        ("alpha.sub.a", "alpha.sub.b", "top-level"),
        ("alpha.sub.b", "alpha.top", "top-level"),
        ("alpha.top", "alpha.sub.a", "top-level"),
    }


def test_a_relative_import_inside_a_package_init(tmp_path: Path) -> None:
    # In alpha/sub/__init__.py, "." is alpha.sub itself, not alpha.
    write(
        tmp_path,
        {"alpha/sub/__init__.py": "from .c import z\n", "alpha/sub/c.py": "from . import w\n"},
    )
    assert edges(tmp_path) == {
        ("alpha.sub", "alpha.sub.c", "top-level"),
        ("alpha.sub.c", "alpha.sub", "top-level"),
    }
    assert cycle_sets(tmp_path) == [{"alpha.sub", "alpha.sub.c"}]


def test_importing_a_package_is_an_edge_to_its_init(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/__init__.py": "from alpha.a import A\n",
            "alpha/a.py": "from alpha import VERSION\n",  # a name, not a submodule
        },
    )
    assert edges(tmp_path) == {("alpha", "alpha.a", "top-level"), ("alpha.a", "alpha", "top-level")}
    assert cycle_sets(tmp_path) == [{"alpha", "alpha.a"}]


def test_from_package_import_submodule_is_an_edge_to_the_submodule(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/__init__.py": "from alpha.a import A\n",
            "alpha/a.py": "from alpha import b\n",
            "alpha/b.py": "import alpha.c.d\n",
            "alpha/c/d.py": "",
        },
    )
    assert edges(tmp_path) == {
        ("alpha", "alpha.a", "top-level"),
        ("alpha.a", "alpha.b", "top-level"),
        ("alpha.b", "alpha.c.d", "top-level"),  # not alpha or alpha.c
    }
    assert cycle_sets(tmp_path) == []


def test_no_cycle_self_imports_and_outside_modules_ignored(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/a.py": "import json\nimport alpha.b\nfrom alpha import a\n",
            "alpha/b.py": "from alpha.c import x\nimport beta\nfrom pydantic import BaseModel\n",
            "alpha/c.py": "from collections import deque\n",
            "beta/__init__.py": "import alpha.a\n",  # not checked: no edge back from it
        },
    )
    assert edges(tmp_path) == {
        ("alpha.a", "alpha.b", "top-level"),
        ("alpha.b", "alpha.c", "top-level"),
    }
    assert cycle_sets(tmp_path) == []
    # Checked together, beta closes a cycle through alpha.a and alpha.b.
    assert cycle_sets(tmp_path, ("alpha", "beta")) == [{"alpha.a", "alpha.b", "beta"}]


def test_two_separate_cycles_and_one_round_trip_each(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/a.py": "from . import b\n",
            "alpha/b.py": "from . import c\n",
            "alpha/c.py": "from . import a\nfrom . import d\n",
            "alpha/d.py": "from . import e\n",
            "alpha/e.py": "def f() -> None:\n    from . import d\n",
        },
    )
    found = ca.cycles(ca.build_graph(tmp_path, ("alpha",)))
    assert [c.modules for c in found] == [("alpha.a", "alpha.b", "alpha.c"), ("alpha.d", "alpha.e")]
    assert found[0].example == ("alpha.a", "alpha.b", "alpha.c", "alpha.a")
    assert found[1].example == ("alpha.d", "alpha.e", "alpha.d")
    assert [(e.source, e.target) for e in found[1].edges] == [
        ("alpha.d", "alpha.e"),
        ("alpha.e", "alpha.d"),
    ]


def test_strongly_connected_components_of_a_plain_graph() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"d"}, "e": set()}
    assert ca.strongly_connected(graph) == [["a", "b", "c"], ["d"], ["e"]]
    chain = {str(n): {str(n + 1)} for n in range(5000)} | {"5000": {"0"}}  # deep: no recursion
    assert ca.strongly_connected(chain) == [sorted(chain)]


def test_long_modules_are_listed(tmp_path: Path) -> None:
    write(tmp_path, {"alpha/long.py": "x = 1\n" * 601, "alpha/fits.py": "x = 1\n" * 600})
    report = ca.check(tmp_path, ("alpha",))
    assert [(m.module, m.lines) for m in report.long_modules] == [("alpha.long", 601)]
    assert not report.ok and report.cycles == ()
    assert ca.check(tmp_path, ("alpha",), max_lines=601).ok


def test_the_command_line_exit_status_and_json(tmp_path: Path) -> None:
    write(tmp_path, {"alpha/a.py": "from . import b\n", "alpha/b.py": "from . import a\n"})
    write(tmp_path, {"beta/a.py": "import json\n"})
    run = [sys.executable, str(SCRIPT), "--root", str(tmp_path)]
    bad = subprocess.run([*run, "--packages", "alpha"], capture_output=True, text=True)
    assert bad.returncode == 1 and "alpha.a -> alpha.b -> alpha.a" in bad.stdout
    good = subprocess.run([*run, "--packages", "beta", "--json"], capture_output=True, text=True)
    assert good.returncode == 0
    assert json.loads(good.stdout)["ok"] is True
    both = [*run, "--packages", "alpha", "beta", "--json"]
    data = json.loads(subprocess.run(both, capture_output=True, text=True).stdout)
    assert data["cycles"][0]["modules"] == ["alpha.a", "alpha.b"]
    missing = subprocess.run([*run, "--packages", "gamma"], capture_output=True, text=True)
    assert missing.returncode == 2


def test_the_graph_is_the_one_import_linter_checks() -> None:
    """The same edges as grimp's graph (lint-imports' own), lazy and type-only included."""
    import grimp  # import-linter's graph library, in the test extra with it

    packages = ca.DEFAULT_PACKAGES
    theirs = grimp.build_graph(*packages, exclude_type_checking_imports=False, cache_dir=None)
    expected = {(m, t) for m in theirs.modules for t in theirs.find_modules_directly_imported_by(m)}
    graph = ca.build_graph(ROOT, packages)
    assert set(graph.modules) == set(theirs.modules)
    assert {(e.source, e.target) for e in graph.edges} == expected


def test_the_project_has_no_cycle_and_no_long_module() -> None:
    """Every import of the four packages, lazy and type-only ones included: no cycle, and
    no module over 600 lines."""
    report = ca.check(ROOT, ca.DEFAULT_PACKAGES)
    assert report.modules > 20
    assert report.ok, ca.render(report)


def test_a_test_module_imported_by_another_is_found(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "alpha/a.py": "",
            "tests/helpers/kit.py": "from tests.server.wsclient import x\n",
            "tests/server/wsclient.py": "",
            "tests/server/test_a.py": "from ..helpers.kit import y\nfrom .wsclient import x\n",
            "tests/server/test_b.py": "from .test_a import y\nfrom .conftest import Kind\n",
            "tests/web/test_c.py": "from . import conftest\ndef f():\n import tests.server.test_a",
            "bench/load.py": "from tests.helpers.kit import y\nimport alpha.a\n",
        },
    )
    assert ca.cross_test_imports(tmp_path) == [
        "tests/server/test_b.py:1: imports tests.server.test_a",
        "tests/server/test_b.py:2: imports tests.server.conftest",
        "tests/web/test_c.py:1: imports tests.web.conftest",
        "tests/web/test_c.py:3: imports tests.server.test_a",
        "bench/load.py:1: imports tests.helpers.kit",
    ]
    run = [sys.executable, str(SCRIPT), "--root", str(tmp_path), "--packages", "alpha"]
    out = subprocess.run(run, capture_output=True, text=True)
    assert out.returncode == 1 and "tests/web/test_c.py:1: imports tests.web.conftest" in out.stdout


def test_no_test_module_imports_another_and_bench_imports_no_test() -> None:
    """Helpers several tests need live in tests/helpers, never in a test module or a
    conftest; the benchmarks stand on their own (what tests share with them is in bench/)."""
    assert ca.cross_test_imports(ROOT) == []


def test_the_default_packages_are_all_four() -> None:
    assert ca.DEFAULT_PACKAGES == ("shared", "protocol", "server", "client")
