"""The layering of the design, checked on every import statement of every module.

rules/ is pure (stdlib + numpy); calibration/ knows nothing of rules, gui or Qt; tracker/ may use
calibration/ but not rules or gui; nothing imports gui/. Only gui/ imports PySide6.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "rules": {"cv2", "PySide6", "pupil_apriltags", "calibration", "tracker", "gui", "matplotlib", "shiboken6"},
    "calibration": {"PySide6", "rules", "tracker", "gui", "shiboken6"},
    "tracker": {"PySide6", "rules", "gui", "shiboken6"},
}


def imported_top_levels(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_its_layer_allows(package: str) -> None:
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_top_levels(path) & FORBIDDEN[package]
        if bad:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


def test_nothing_outside_gui_imports_gui() -> None:
    offenders = []
    for package in ("rules", "calibration", "tracker"):
        for path in (ROOT / package).rglob("*.py"):
            if "gui" in imported_top_levels(path):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders


def test_rules_engine_loads_without_opencv_or_qt() -> None:
    code = (
        "import sys, importlib, pkgutil, rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in ('cv2', 'PySide6') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == ""


def test_headless_cli_commands_do_not_load_qt() -> None:
    code = "import sys, gui.cli\ngui.cli.build_parser()\nprint('PySide6' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


# -- no import circles ----------------------------------------------------------------------------

def project_packages() -> list[str]:
    """Every top-level package of the project (a folder with an ``__init__.py``), tests excepted:
    new layers are checked as soon as they exist."""
    return sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported_names(path: Path, module: str, *, in_functions: bool) -> set[str]:
    """Dotted names this module imports when it is loaded (``in_functions``: also when its
    functions run). ``if TYPE_CHECKING:`` blocks are left out: the type checker reads them, Python
    never runs them."""
    names: set[str] = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package[: len(package) - (node.level - 1)]
                    base = ".".join(parent + ([base] if base else []))
                names.add(base)
                names.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If) and _is_type_checking(node):
                continue
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if in_functions:
                    visit(node.body)
            else:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.stmt):
                        visit([child])

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body)
    return names


def import_graph(packages: list[str], *, in_functions: bool = False) -> dict[str, set[str]]:
    """Module -> the project modules it imports (a ``from pkg import mod`` counts as importing mod)."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in _imported_names(path, module, in_functions=in_functions):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            # A package's own __init__ is loaded first by Python anyway: not an edge worth reporting.
            if name and name != module and not module.startswith(name + "."):
                targets.add(name)
        graph[module] = targets
    return graph


def import_loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """One loop (``[a, b, ..., a]``) per strongly connected group of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            connect(v)
    loops = []
    for group in groups:
        # The shortest way back to the group's first module, found breadth first inside the group.
        start = min(group)
        paths = {start: [start]}
        frontier = [start]
        loop: list[str] | None = None
        while frontier and loop is None:
            nxt = []
            for v in frontier:
                for w in sorted(graph[v] & group):
                    if w == start:
                        loop = paths[v] + [start]
                        break
                    if w not in paths:
                        paths[w] = paths[v] + [w]
                        nxt.append(w)
                if loop:
                    break
            frontier = nxt
        loops.append(loop or sorted(group))
    return loops


def test_import_loops_are_found_and_reported() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": set()}
    assert import_loops(graph) == [["a", "b", "c", "a"]]
    assert import_loops({"x": {"y"}, "y": {"x"}}) == [["x", "y", "x"]]


def test_project_packages_are_discovered() -> None:
    assert {"rules", "calibration", "tracker", "gui"} <= set(project_packages())


def test_no_two_modules_import_each_other() -> None:
    """Directly or around a loop, counting what loads with each module (the project's packages)."""
    loops = import_loops(import_graph(project_packages()))
    assert not loops, "modules that import each other:\n" + "\n".join(" -> ".join(loop) for loop in loops)


def test_rules_have_no_import_loops_even_inside_functions() -> None:
    """A function-local import does not make a loop go away, it only hides it: rules/ has none."""
    loops = import_loops(import_graph(["rules"], in_functions=True))
    assert not loops, "rules modules that import each other:\n" + "\n".join(" -> ".join(loop) for loop in loops)
