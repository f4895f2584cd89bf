#!/usr/bin/env python3
"""Check the project's import graph: no import cycle and no module over 600 lines; and
no test module imported by another, nor ``tests/`` by a benchmark.

Why: a type-only or lazy import that closes a cycle is a back-reference to an owner,
and a long module usually holds two concerns (docs/ARCHITECTURE.md). This check reads
the source with ``ast`` and imports nothing, so it sees every import: at the top of a
module, inside a function, under ``if TYPE_CHECKING:``, in a ``try``.

How it reads an import (the rules of ``import-linter``'s graph, so both agree):

- ``import a.b.c`` is an edge to ``a.b.c`` (the longest prefix that is one of the
  checked modules); an import of a package is an edge to its ``__init__``.
- ``from a.b import c`` is an edge to the submodule ``a.b.c`` if there is one, else to
  ``a.b``. Relative imports (``from ..x import y``) are resolved first.
- Modules outside the checked packages (the standard library, third parties) are not
  part of the graph. A module importing itself is ignored.

A cycle is a strongly connected component of more than one module; each is printed
with the imports inside it (file, line, and whether the import is top-level, lazy or
type-only) and one shortest round trip through it.

Usage: ``python scripts/check_architecture.py [--packages shared protocol ...]
[--max-lines 600] [--json]``. Exit status 0 when all is well, 1 when it found a cycle
or a long module, 2 for a bad argument.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "DEFAULT_PACKAGES",
    "MAX_LINES",
    "Cycle",
    "Edge",
    "Graph",
    "LongModule",
    "Report",
    "build_graph",
    "check",
    "cross_test_imports",
    "cycles",
    "find_modules",
    "long_modules",
    "main",
    "strongly_connected",
]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PACKAGES = ("shared", "protocol", "server", "client")
MAX_LINES = 600

Kind = Literal["top-level", "lazy", "type-only"]


@dataclass(frozen=True, slots=True)
class Module:
    """One module of the checked packages: its dotted name and source file."""

    name: str
    path: Path
    is_package: bool


@dataclass(frozen=True, slots=True)
class Edge:
    """``source`` imports ``target`` at ``path``:``line``; ``kind`` says when it runs."""

    source: str
    target: str
    path: str
    line: int
    kind: Kind


@dataclass(slots=True)
class Graph:
    """The checked modules and every import edge between them (duplicates kept)."""

    root: Path
    modules: dict[str, Module]
    edges: list[Edge] = field(default_factory=list)

    def adjacency(self) -> dict[str, set[str]]:
        """Module -> the modules it imports (each once)."""
        out: dict[str, set[str]] = {name: set() for name in self.modules}
        for e in self.edges:
            out[e.source].add(e.target)
        return out


@dataclass(frozen=True, slots=True)
class Cycle:
    """A strongly connected component: its modules, the imports inside it, and one
    shortest round trip through its first module."""

    modules: tuple[str, ...]
    edges: tuple[Edge, ...]
    example: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LongModule:
    """A module over the line limit."""

    module: str
    path: str
    lines: int


@dataclass(frozen=True, slots=True)
class Report:
    """What the check found."""

    packages: tuple[str, ...]
    modules: int
    edges: int
    cycles: tuple[Cycle, ...]
    long_modules: tuple[LongModule, ...]
    max_lines: int

    @property
    def ok(self) -> bool:
        return not self.cycles and not self.long_modules

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {
            "ok": self.ok,
            "packages": list(self.packages),
            "modules": self.modules,
            "edges": self.edges,
            "max_lines": self.max_lines,
            "cycles": [
                {
                    "modules": list(c.modules),
                    "example": list(c.example),
                    "edges": [asdict(e) for e in c.edges],
                }
                for c in self.cycles
            ],
            "long_modules": [asdict(m) for m in self.long_modules],
        }


# ----------------------------------------------------------------------------- reading
def find_modules(root: Path, packages: Iterable[str]) -> dict[str, Module]:
    """Every ``.py`` file under each package directory of ``root``, by dotted name."""
    out: dict[str, Module] = {}
    for package in packages:
        top = root / package.replace(".", "/")
        if not top.is_dir():
            raise FileNotFoundError(f"no package directory {top}")
        for path in sorted(top.rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            if "__pycache__" in rel.parts or not all(p.isidentifier() for p in rel.parts):
                continue
            parts = rel.parts
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            name = ".".join(parts)
            out[name] = Module(name, path, is_package)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``<anything>.TYPE_CHECKING`` (``typing.TYPE_CHECKING``)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


class _Imports(ast.NodeVisitor):
    """Collects (node, kind) for every import statement of one module."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.Import | ast.ImportFrom, Kind]] = []
        self._functions = 0
        self._type_only = 0

    def _kind(self) -> Kind:
        if self._type_only:
            return "type-only"
        return "lazy" if self._functions else "top-level"

    def visit_Import(self, node: ast.Import) -> None:
        self.found.append((node, self._kind()))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.found.append((node, self._kind()))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        # Decorators, defaults and annotations run when the function is defined.
        if not isinstance(node, ast.Lambda):
            for d in node.decorator_list:
                self.visit(d)
            if node.returns is not None:
                self.visit(node.returns)
        self.visit(node.args)
        self._functions += 1
        body = node.body if isinstance(node.body, list) else [node.body]
        for stmt in body:
            self.visit(stmt)
        self._functions -= 1

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._function(node)

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        type_only = _is_type_checking(node.test)
        self._type_only += type_only
        for stmt in node.body:
            self.visit(stmt)
        self._type_only -= type_only
        for stmt in node.orelse:  # the ``else`` of ``if TYPE_CHECKING`` runs
            self.visit(stmt)


def _package_of(module: Module) -> str:
    """The package a relative import of ``module`` starts from."""
    if module.is_package:
        return module.name
    return module.name.rpartition(".")[0]


def _resolve_base(module: Module, node: ast.ImportFrom) -> str | None:
    """The absolute module a ``from ... import`` names; None if it climbs above the
    top-level package (an error in Python too)."""
    if node.level == 0:
        return node.module
    package = _package_of(module)
    parts = package.split(".") if package else []
    up = node.level - 1
    if up >= len(parts):
        return None
    base = parts[: len(parts) - up]
    if node.module:
        base += node.module.split(".")
    return ".".join(base)


def _known_prefix(name: str, modules: dict[str, Module]) -> str | None:
    """The longest prefix of the dotted ``name`` that is a checked module."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in modules:
            return candidate
    return None


def _targets(
    module: Module, node: ast.Import | ast.ImportFrom, modules: dict[str, Module]
) -> Iterator[str]:
    """The checked modules one import statement makes ``module`` depend on."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            target = _known_prefix(alias.name, modules)
            if target is not None:
                yield target
        return
    base = _resolve_base(module, node)
    if base is None:
        return
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if alias.name != "*" and sub in modules:
            yield sub
        else:
            target = _known_prefix(base, modules)
            if target is not None:
                yield target


def build_graph(root: Path, packages: Iterable[str]) -> Graph:
    """Read every module of ``packages`` under ``root`` and collect its imports."""
    modules = find_modules(root, packages)
    graph = Graph(root, modules)
    for module in modules.values():
        tree = ast.parse(module.path.read_bytes(), filename=str(module.path))
        visitor = _Imports()
        visitor.visit(tree)
        rel = module.path.relative_to(root).as_posix()
        for node, kind in visitor.found:
            for target in dict.fromkeys(_targets(module, node, modules)):  # once a statement
                if target != module.name:
                    graph.edges.append(Edge(module.name, target, rel, node.lineno, kind))
    return graph


# ----------------------------------------------------------------------------- cycles
def strongly_connected(adjacency: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted, in a stable
    order: components sorted by their first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(adjacency):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(adjacency.get(start, ())))))
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(adjacency.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(sorted(component))
    return sorted(out)


def _shortest_round_trip(start: str, members: set[str], adj: dict[str, set[str]]) -> list[str]:
    """The shortest path ``start`` -> ... -> ``start`` inside ``members`` (breadth first)."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        for child in sorted(adj[node] & members):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if child not in seen:
                seen.add(child)
                came_from[child] = node
                queue.append(child)
    return [start]


def cycles(graph: Graph) -> list[Cycle]:
    """Every strongly connected component of more than one module."""
    adj = graph.adjacency()
    out = []
    for component in strongly_connected(adj):
        if len(component) < 2:
            continue
        members = set(component)
        inside = sorted(
            (e for e in graph.edges if e.source in members and e.target in members),
            key=lambda e: (e.source, e.target, e.line),
        )
        example = _shortest_round_trip(component[0], members, adj)
        out.append(Cycle(tuple(component), tuple(inside), tuple(example)))
    return out


def long_modules(graph: Graph, max_lines: int = MAX_LINES) -> list[LongModule]:
    """Modules with more than ``max_lines`` lines, longest first."""
    out = []
    for module in graph.modules.values():
        lines = len(module.path.read_text(encoding="utf-8").splitlines())
        if lines > max_lines:
            rel = module.path.relative_to(graph.root).as_posix()
            out.append(LongModule(module.name, rel, lines))
    return sorted(out, key=lambda m: (-m.lines, m.module))


def check(
    root: Path = ROOT, packages: Sequence[str] = DEFAULT_PACKAGES, max_lines: int = MAX_LINES
) -> Report:
    """The whole check of ``packages`` under ``root``."""
    graph = build_graph(root, packages)
    return Report(
        packages=tuple(packages),
        modules=len(graph.modules),
        edges=len({(e.source, e.target) for e in graph.edges}),
        cycles=tuple(cycles(graph)),
        long_modules=tuple(long_modules(graph, max_lines)),
        max_lines=max_lines,
    )


# ----------------------------------------------------------------------------- tests
def _imported(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every module an import in ``path`` may name: for ``from
    a import b`` both ``a`` and ``a.b`` (``b`` may be a submodule)."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    package = path.relative_to(root).with_suffix("").parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            parts = list(package[: len(package) - node.level + 1]) if node.level else []
            base = ".".join(parts + ([node.module] if node.module else []))
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def cross_test_imports(root: Path = ROOT) -> list[str]:
    """What breaks the rule of shared test helpers (docs/ARCHITECTURE.md): a module under
    ``tests/`` importing a test module (``test_*``) or a ``conftest``, and a benchmark
    importing anything of ``tests/``. Helpers several tests need live in
    ``tests/helpers/``; what the benchmarks need too lives in ``bench/``."""
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for line, name in dict.fromkeys(_imported(path, root)):
            last = name.rpartition(".")[2]
            if name.startswith("tests.") and (last.startswith("test_") or last == "conftest"):
                found.append(f"{rel}:{line}: imports {name}")
    for path in sorted((root / "bench").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        lines = {}  # the module each offending import statement names
        for line, name in _imported(path, root):
            if name == "tests" or name.startswith("tests."):
                lines.setdefault(line, name)
        found += [f"{rel}:{line}: imports {name}" for line, name in lines.items()]
    return found


# ----------------------------------------------------------------------------- output
def render(report: Report) -> str:
    """The report as text for people."""
    lines = [
        f"checked {report.modules} modules of {', '.join(report.packages)} "
        f"({report.edges} distinct imports between them)"
    ]
    if report.cycles:
        lines.append(f"{len(report.cycles)} import cycle(s):")
        for n, c in enumerate(report.cycles, 1):
            lines.append(f"  cycle {n}: {len(c.modules)} modules: {', '.join(c.modules)}")
            lines.append(f"    e.g. {' -> '.join(c.example)}")
            for e in c.edges:
                lines.append(f"    {e.source} -> {e.target}  ({e.path}:{e.line}, {e.kind})")
    else:
        lines.append("no import cycle")
    if report.long_modules:
        lines.append(f"{len(report.long_modules)} module(s) over {report.max_lines} lines:")
        lines += [f"  {m.path}: {m.lines}" for m in report.long_modules]
    else:
        lines.append(f"no module over {report.max_lines} lines")
    lines.append("OK" if report.ok else "FAILED")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument(
        "--packages",
        nargs="+",
        default=list(DEFAULT_PACKAGES),
        metavar="PACKAGE",
        help=f"top-level packages to check (default: {' '.join(DEFAULT_PACKAGES)})",
    )
    ap.add_argument("--root", type=Path, default=ROOT, help="the project directory")
    ap.add_argument("--max-lines", type=int, default=MAX_LINES, help="longest module allowed")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    try:
        report = check(args.root, args.packages, args.max_lines)
    except (FileNotFoundError, SyntaxError) as err:
        print(f"check_architecture: {err}", file=sys.stderr)
        return 2
    helpers = cross_test_imports(args.root) if (args.root / "tests").is_dir() else []
    if args.json:
        print(json.dumps(report.to_dict() | {"cross_test_imports": helpers}, indent=2))
    else:
        print(render(report))
        if helpers:
            print(f"{len(helpers)} import(s) of a test module, a conftest or tests/ from bench/:")
            print("\n".join(f"  {h}" for h in helpers))
    return 0 if report.ok and not helpers else 1


if __name__ == "__main__":
    sys.exit(main())
