"""The layering of the design, checked on every import statement of every module.

rules/ is pure (stdlib + numpy); calibration/ knows nothing of rules, gui or Qt; tracker/ may use
calibration/ but not rules or gui. The application model (appmodel/) imports no Qt and no front end;
the debrief, the demo's story and the sheet layout import no Qt; gui/ imports nothing of the command
line, the demo or the debrief (except the demo's own Qt drawing in gui/demo/). Only gui/ imports
PySide6 (and printing/pdf_canvas.py, named below), and every module in gui/ does when it is loaded:
Qt-free code does not live there. The few exceptions to either rule are named, each with its reason,
as import-linter contracts list their ``ignore_imports``.
"""
from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

QT = {"PySide6", "shiboken6"}
FRONT_ENDS = {"gui", "cli", "debrief", "demo", "printing", "classview"}

FORBIDDEN = {
    "rules": {"cv2", "pupil_apriltags", "calibration", "tracker", "appmodel", "matplotlib"} | QT | FRONT_ENDS,
    "calibration": {"rules", "tracker", "appmodel"} | QT | FRONT_ENDS,
    "tracker": {"rules", "appmodel"} | QT | FRONT_ENDS,
    "appmodel": QT | FRONT_ENDS,
    "debrief": QT | {"gui", "cli", "demo", "printing", "classview"},
    "demo": QT | {"gui", "cli", "printing", "classview"},
    "printing": QT | {"cli", "debrief", "demo", "classview"},
    "classview": QT | {"gui", "cli", "debrief", "demo", "printing"},
}

#: Modules outside gui/ allowed to import Qt, and why (each loads Qt only inside the functions that
#: draw, so its package still loads without Qt: see test_application_model_debrief_and_demo_story_load_without_qt).
QT_OUTSIDE_GUI = {
    # The sheets must print at exact size, and Qt's QPdfWriter is the project's only vector PDF writer.
    # It lives with the sheets that use it (in gui/ it made printing/ the one package importing gui/).
    "printing/pdf_canvas.py": "QPdfWriter draws the exact-size tag and board sheets",
}


def parsed(path: Path) -> ast.Module:
    """The module's syntax tree, read once per file and change (a dozen checks walk every module)."""
    return _parsed(path, path.stat().st_mtime_ns)


@functools.cache
def _parsed(path: Path, mtime_ns: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imported_top_levels(path: Path) -> set[str]:
    tree = parsed(path)
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
        allowed = QT if path.relative_to(ROOT).as_posix() in QT_OUTSIDE_GUI else set()
        bad = imported_top_levels(path) & FORBIDDEN[package] - allowed
        if bad:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


def imported_modules(path: Path) -> set[str]:
    tree = parsed(path)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_nothing_below_the_front_ends_imports_gui() -> None:
    # Only the command line opens windows (printing draws its sheets through its own printing/pdf_canvas.py).
    offenders = []
    for package in ("rules", "calibration", "tracker", "appmodel", "debrief", "demo", "printing", "classview"):
        for path in (ROOT / package).rglob("*.py"):
            bad = {m for m in imported_modules(path) if m.split(".")[0] == "gui"}
            if bad:
                offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


def test_gui_imports_nothing_of_the_command_line_demo_or_debrief() -> None:
    offenders = []
    for path in sorted((ROOT / "gui").rglob("*.py")):
        forbidden = {"cli"} if path.parent == ROOT / "gui" / "demo" else {"cli", "demo", "debrief"}
        bad = imported_top_levels(path) & forbidden
        if bad:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


RULE_SYSTEMS = {p.parent.name for p in (ROOT / "rules").glob("*/__init__.py")}


def _rule_system_imports(path: Path) -> set[str]:
    return {m for m in imported_modules(path) if m.split(".")[0] == "rules" and len(m.split(".")) > 1
            and m.split(".")[1] in RULE_SYSTEMS}


def test_front_ends_and_the_application_model_import_no_rule_system() -> None:
    """gui/, the debrief, the class view and the application model reach rule systems through
    rules.ruleset (rules/<system>/ is the rule system's own business; the demo and the command line may
    name one)."""
    importing = {}
    for package in ("gui", "debrief", "classview", "appmodel"):
        for path in sorted((ROOT / package).rglob("*.py")):
            found = _rule_system_imports(path)
            if found:
                importing[str(path.relative_to(ROOT))] = sorted(found)
    assert not importing, f"front ends import rule systems; use rules.ruleset: {importing}"


def test_the_rule_system_import_check_sees_an_import(tmp_path: Path) -> None:
    module = tmp_path / "reads_emitters.py"
    module.write_text("def f():\n    from rules.downrange.command import is_ew\n", encoding="utf-8")
    assert _rule_system_imports(module) == {"rules.downrange.command"}


def _ruleset_names() -> set[str]:
    from rules.ruleset import available_rulesets

    return set(available_rulesets())


def _names_a_rule_system(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Constant) and node.value in names:
        return True
    # ruleset.name, session.ruleset.name, facts.ruleset: the rule system's name itself
    text = ast.unparse(node)
    return text.endswith("ruleset.name") or text.endswith(".ruleset") or text == "ruleset_name"


def test_front_ends_do_not_branch_on_a_rulesets_name() -> None:
    """No comparison with a ruleset's name and no table keyed by it in gui/, the debrief, the class view
    or the application model: what differs between rule systems is data of rules.ruleset (FrontEnd,
    OddsLegend, the optional protocols)."""
    names = _ruleset_names()
    offenders = []
    for package in ("gui", "debrief", "classview", "appmodel"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = parsed(path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Compare) and not all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
                    # (``a.ruleset is b``: the same rule system object, not a comparison of names)
                    sides = [node.left, *node.comparators]
                    if any(_names_a_rule_system(side, names) for side in sides):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
                elif isinstance(node, ast.Dict):
                    if any(k is not None and isinstance(k, ast.Constant) and k.value in names for k in node.keys):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: a table keyed by ruleset name")
                elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith(".get") and node.args \
                        and _names_a_rule_system(node.args[0], names):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not offenders, "\n".join(offenders)


def test_the_name_checks_see_the_branches_they_forbid() -> None:
    names = _ruleset_names()
    for source in ('if session.ruleset.name == "generic": pass', 'x = facts.ruleset != "down-range"',
                   'y = {"force-on-force": 1}'):
        node = ast.parse(source).body[0]
        found = [n for n in ast.walk(node) if isinstance(n, (ast.Compare, ast.Dict))]
        assert any(isinstance(n, ast.Dict) and any(isinstance(k, ast.Constant) and k.value in names for k in n.keys)
                   or isinstance(n, ast.Compare) and any(_names_a_rule_system(s, names) for s in [n.left, *n.comparators])
                   for n in found), source


#: gui/ modules that load without Qt, and why. Each must stay an exception (the test below fails when
#: one loads Qt again, or is gone), so the list shrinks as they move out.
GUI_WITHOUT_QT_AT_LOAD = {
    # Qt code whose Qt imports wait in the functions that need them:
    "gui/app.py": "starts the QApplication and the window; Qt is imported when a function runs",
    "gui/demo/headless.py": "draws the demo video through the Qt compositor; Qt is imported when it runs",
    # Qt-free code still in gui/:
    "gui/settings.py": "the settings value; only open_store() needs Qt (QSettings). OverlayToggles is "
                       "moving to appmodel/overlays/",
    "gui/setup_steps.py": "the walkthrough's steps; only default_calibration_path() needs Qt (QStandardPaths). "
                          "In appmodel/ it would import gui.settings and printing upward",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def qt_at_load(packages: list[str]) -> dict[str, bool]:
    """Project module -> whether loading it loads Qt: it imports PySide6 at module level, or a project
    module that does (function-local imports and ``if TYPE_CHECKING:`` blocks do not count)."""
    graph = import_graph(packages)
    direct = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            module = _module_name(path)
            direct[module] = any(n.split(".")[0] in QT for n in _imported_names(path, module, in_functions=False))
    loads: dict[str, bool] = {}

    def visit(module: str, seen: frozenset[str]) -> bool:
        if module not in loads:
            loads[module] = direct[module] or any(visit(m, seen | {module}) for m in graph[module] if m not in seen)
        return loads[module]

    for module in graph:
        visit(module, frozenset())
    return loads


def test_the_qt_check_counts_only_what_loads_with_a_module(tmp_path: Path) -> None:
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from PySide6.QtCore import QSettings\n", encoding="utf-8")
    eager = tmp_path / "eager.py"
    eager.write_text("from PySide6.QtCore import QSettings\n", encoding="utf-8")
    assert not {n.split(".")[0] for n in _imported_names(lazy, "lazy", in_functions=False)} & QT
    assert {n.split(".")[0] for n in _imported_names(eager, "eager", in_functions=False)} & QT


def test_every_gui_module_imports_qt() -> None:
    loads = qt_at_load(project_packages())
    qt_free, stale = [], []
    for path in sorted((ROOT / "gui").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if path.name == "__init__.py" and not imported_top_levels(path) - {"__future__"}:
            continue  # a package's docstring
        if name in GUI_WITHOUT_QT_AT_LOAD:
            if loads[_module_name(path)]:
                stale.append(name)
        elif not loads[_module_name(path)]:
            qt_free.append(name)
    gone = [name for name in GUI_WITHOUT_QT_AT_LOAD if not (ROOT / name).exists()]
    assert not qt_free, f"Qt-free modules belong outside gui/ (a Qt import inside a function does not count): {qt_free}"
    assert not stale + gone, f"no longer exceptions, strike them from GUI_WITHOUT_QT_AT_LOAD: {stale + gone}"


def test_only_the_command_line_imports_the_command_line() -> None:
    offenders = []
    for package in ("rules", "calibration", "tracker", "appmodel", "debrief", "demo", "printing", "gui"):
        for path in (ROOT / package).rglob("*.py"):
            if "cli" in imported_top_levels(path):
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


def test_application_model_debrief_and_demo_story_load_without_qt() -> None:
    code = (
        "import sys, importlib, pkgutil\n"
        "for name in ('appmodel', 'debrief', 'demo', 'printing', 'classview'):\n"
        "    package = importlib.import_module(name)\n"
        "    for m in pkgutil.walk_packages(package.__path__, name + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "print('PySide6' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_the_command_line_is_built_without_qt_opencv_or_a_web_server() -> None:
    # Every command builds the whole parser first (sandtable --version, --help, odds): what it loads,
    # every command pays at its start.
    heavy = ["PySide6", "cv2", "aiohttp", "zmq", "numpy"]
    code = f"import sys, cli.main\ncli.main.build_parser()\nprint([m for m in {heavy!r} if m in sys.modules])\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


# -- no import circles ----------------------------------------------------------------------------

def project_packages() -> list[str]:
    """Every top-level package of the project (a folder with an ``__init__.py``), tests excepted:
    new layers are checked as soon as they exist."""
    return sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported_names(path: Path, module: str, *, in_functions: bool, type_checking: bool = False) -> set[str]:
    """Dotted names this module imports when it is loaded (``in_functions``: also when its
    functions run; ``type_checking``: also in ``if TYPE_CHECKING:`` blocks, which only a type checker
    reads)."""
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
            elif isinstance(node, ast.If) and _is_type_checking(node) and not type_checking:
                continue
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if in_functions:
                    visit(node.body)
            else:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.stmt):
                        visit([child])

    visit(parsed(path).body)
    return names


def import_graph(packages: list[str], *, in_functions: bool = False,
                 type_checking: bool = False) -> dict[str, set[str]]:
    """Module -> the project modules it imports (a ``from pkg import mod`` counts as importing mod)."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in _imported_names(path, module, in_functions=in_functions, type_checking=type_checking):
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


#: Loops being cut elsewhere, each with the branch that cuts it; the integrator removes the entry on merging.
KNOWN_LOOPS: tuple[frozenset[str], ...] = ()


def test_no_import_loops_even_inside_functions_or_for_the_type_checker() -> None:
    """A function-local import does not make a loop go away, it only hides it; an ``if TYPE_CHECKING:``
    import is a loop for the type checker and for a reader. The whole tree has none of either."""
    loops = [loop for loop in import_loops(import_graph(project_packages(), in_functions=True, type_checking=True))
             if frozenset(loop) not in KNOWN_LOOPS]
    assert not loops, "modules that import each other:\n" + "\n".join(" -> ".join(loop) for loop in loops)


def test_the_loop_check_sees_function_local_and_type_checking_imports(tmp_path: Path) -> None:
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import second\n", encoding="utf-8")
    second.write_text("def f():\n    from pkg import first\n", encoding="utf-8")
    assert "pkg.second" in _imported_names(first, "pkg.first", in_functions=True, type_checking=True)
    assert "pkg.second" not in _imported_names(first, "pkg.first", in_functions=True)
    assert "pkg.first" in _imported_names(second, "pkg.second", in_functions=True)
    assert "pkg.first" not in _imported_names(second, "pkg.second", in_functions=False)


def test_the_session_parts_never_reach_back_into_the_session() -> None:
    """appmodel/session/ holds the game session's parts (selection, tape, tracked poses, dice, log,
    snapshot...): each is handed what it needs, so none imports the façade that composes them,
    nor another front-end-facing part of the application model."""
    offenders = []
    for path in sorted((ROOT / "appmodel" / "session").rglob("*.py")):
        appmodel_imports = {m for m in imported_modules(path) if m.split(".")[0] == "appmodel"}
        bad = {m for m in appmodel_imports
               if not m.startswith("appmodel.session") and m != "appmodel.errors"}
        if bad:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


def test_the_wings_of_the_application_model_never_reach_up_into_the_session_facade() -> None:
    """appmodel/overlays/, recording/ and tracking/ are wings under the façade (game_session, replay_model):
    they read its values (the snapshot, the scenario facts) but never import it; tracking/ stands apart."""
    offenders = []
    for wing in ("overlays", "recording", "tracking"):
        for path in sorted((ROOT / "appmodel" / wing).rglob("*.py")):
            mine = {m for m in imported_modules(path) if m.split(".")[0] == "appmodel"}
            bad = {m for m in mine if m in ("appmodel.game_session", "appmodel.replay_model")
                   or (wing == "tracking" and not m.startswith("appmodel.tracking"))}
            if bad:
                offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)
