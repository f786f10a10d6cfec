"""The import graph of both packages: no cycle between subpackages, the rules side never imports
the harness, and the reference engine imports only the standard library and the spec.

Every module is parsed, not imported, so that imports inside functions (and under
TYPE_CHECKING, and `importlib.import_module("...")` with a literal name) count as well.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"loveletter_ref": ROOT / "loveletter_ref", "llcheck": ROOT / "conformance" / "llcheck"}

ENGINE = "loveletter_ref.engine"
ENGINE_MAY_IMPORT = ("loveletter_ref.engine", "loveletter_ref.spec", "loveletter_ref.errors")
"""What the reference engine may import besides the standard library (no z3, no harness)."""


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    package: bool
    """True for a package's __init__.py."""


def modules() -> dict[str, Module]:
    """Every module of both packages, by dotted name."""
    found = {}
    for top, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [top, *path.relative_to(folder).with_suffix("").parts]
            package = parts[-1] == "__init__"
            if package:
                parts.pop()
            found[".".join(parts)] = Module(".".join(parts), path, package)
    return found


def imported(module: Module, known: dict[str, Module]) -> Iterator[tuple[str, int]]:
    """(dotted name, line) of everything `module` imports, relative imports resolved; for
    `from X import y` both X and, when it is a module, X.y."""
    for node in ast.walk(ast.parse(module.path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.name.split(".")
                if not module.package:
                    base.pop()
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            yield source, node.lineno
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    yield f"{source}.{alias.name}", node.lineno
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.args[0].value, node.lineno


def unit(name: str) -> str:
    """The subpackage (or top-level module) a module belongs to: `llcheck.harness` for
    `llcheck.harness.runner`, `llcheck.cli` for itself, the package for its own __init__."""
    return ".".join(name.split(".")[:2])


def first_party(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


Edges = dict[str, dict[str, str]]
"""unit -> imported unit -> one import that makes the edge (`module:line imports name`)."""


def unit_graph() -> Edges:
    known = modules()
    edges: Edges = {}
    for module in known.values():
        for name, line in imported(module, known):
            if not first_party(name):
                continue
            source, target = unit(module.name), unit(name)
            if source != target:
                edges.setdefault(source, {}).setdefault(
                    target, f"{module.path.relative_to(ROOT)}:{line} imports {name}")
    return edges


def cycles(edges: Edges) -> list[list[str]]:
    """The shortest cycle through each unit that lies on one, once each (the strongly connected
    groups by Tarjan's algorithm, then a cycle from each member of a group)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in edges.get(node, {}):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(set(edges) | {t for targets in edges.values() for t in targets}):
        if node not in order:
            visit(node)
    found: dict[frozenset[tuple[str, str]], list[str]] = {}
    for group in groups:
        for start in sorted(group):
            cycle = _cycle_from(start, group, edges)
            found.setdefault(frozenset(zip(cycle, cycle[1:], strict=False)), cycle)
    return list(found.values())


def _cycle_from(start: str, group: list[str], edges: Edges) -> list[str]:
    """The shortest path from `start` back to it, inside its group (breadth first)."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for other in edges.get(node, {}):
            if other == start:
                return paths[node] + [start]
            if other in group and other not in paths:
                paths[other] = paths[node] + [other]
                queue.append(other)
    raise AssertionError(f"no cycle through {start}")


def described(cycle: list[str], edges: Edges) -> str:
    steps = [f"  {a} -> {b} ({edges[a][b]})" for a, b in zip(cycle, cycle[1:], strict=False)]
    return " -> ".join(cycle) + "\n" + "\n".join(steps)


def test_no_subpackage_imports_another_that_imports_it_back():
    edges = unit_graph()
    found = cycles(edges)
    assert not found, "import cycles between subpackages:\n" + "\n".join(described(c, edges) for c in found)


def test_a_cycle_is_found_and_named():
    edges = {"p.a": {"p.b": "a.py:1 imports p.b"}, "p.b": {"p.c": "b.py:2 imports p.c"},
             "p.c": {"p.a": "c.py:3 imports p.a.x"}, "p.d": {"p.a": "d.py:4 imports p.a"}}
    [cycle] = cycles(edges)
    assert cycle == ["p.a", "p.b", "p.c", "p.a"]
    assert "p.c -> p.a (c.py:3 imports p.a.x)" in described(cycle, edges)


def test_the_graph_sees_imports_inside_functions_relative_ones_and_import_module(tmp_path):
    source = tmp_path / "runner.py"
    source.write_text("from . import results\n"
                      "def run():\n"
                      "    from ..engines.base import Engine\n"
                      "    import importlib\n"
                      "    return importlib.import_module('llcheck.fuzz')\n", encoding="utf-8")
    known = {"llcheck.harness.results": Module("llcheck.harness.results", source, False)}
    found = dict(imported(Module("llcheck.harness.runner", source, False), known))
    assert found == {"llcheck.harness": 1, "llcheck.harness.results": 1, "llcheck.engines.base": 3,
                     "importlib": 4, "llcheck.fuzz": 5}


def test_the_rules_side_never_imports_the_harness():
    known = modules()
    wrong = [f"{m.path.relative_to(ROOT)}:{line} imports {name}" for m in known.values()
             if m.name.split(".")[0] == "loveletter_ref"
             for name, line in imported(m, known) if name.split(".")[0] == "llcheck"]
    assert not wrong, "loveletter_ref imports llcheck:\n" + "\n".join(wrong)


def test_the_reference_engine_imports_only_the_standard_library_and_the_spec():
    known = modules()
    wrong = []
    for module in known.values():
        if module.name != ENGINE and not module.name.startswith(ENGINE + "."):
            continue
        for name, line in imported(module, known):
            top = name.split(".")[0]
            allowed = (top in sys.stdlib_module_names or top == "__future__"
                       or any(name == a or name.startswith(a + ".") for a in ENGINE_MAY_IMPORT))
            if not allowed:
                wrong.append(f"{module.path.relative_to(ROOT)}:{line} imports {name}")
    assert not wrong, f"{ENGINE} may import only {', '.join(ENGINE_MAY_IMPORT)} and the standard " \
                      "library:\n" + "\n".join(wrong)


def test_nothing_the_reference_engine_loads_imports_z3():
    known = modules()
    seen, todo = set(), [name for name in known if name == ENGINE or name.startswith(ENGINE + ".")]
    while todo:
        name = todo.pop()
        if name in seen or name not in known:
            continue
        seen.add(name)
        for target, line in imported(known[name], known):
            assert target.split(".")[0] != "z3", f"{known[name].path.relative_to(ROOT)}:{line} imports z3"
            if first_party(target):  # importing a module runs its packages' __init__ too
                parts = target.split(".")
                todo += [".".join(parts[:n]) for n in range(1, len(parts) + 1)]
    assert "loveletter_ref.spec" in seen
