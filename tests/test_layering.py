"""The layering of the design, checked on every import statement of every module.

rules/ is pure (stdlib + numpy); calibration/ knows nothing of rules, gui or Qt; tracker/ may use
calibration/ but not rules or gui. The application model (appmodel/) imports no Qt and no front end;
the debrief, the demo's story and the sheet layout import no Qt; gui/ imports nothing of the command
line, the demo or the debrief (except the demo's own Qt drawing in gui/demo/). Only gui/ imports
PySide6, and every module in gui/ does: Qt-free code does not live there.
"""
from __future__ import annotations

import ast
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


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_nothing_below_the_front_ends_imports_gui() -> None:
    # Only the command line opens windows, and printing draws its sheets through the Qt PDF canvas.
    offenders = []
    for package in ("rules", "calibration", "tracker", "appmodel", "debrief", "demo", "printing"):
        for path in (ROOT / package).rglob("*.py"):
            allowed = {"gui.pdf_canvas"} if package == "printing" else set()
            bad = {m for m in imported_modules(path) if m.split(".")[0] == "gui"} - allowed
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
#: What front ends still import of a rule system, until the procedures they show come through the
#: ruleset interface too (the shrinking list: a file that stops importing must leave it).
STILL_IMPORTING = {
    "debrief/example_recording.py",  # builds the Down Range example recording the demo writes up
    "debrief/facts.py",  # which of Down Range's emitters are electronic-warfare sets
    "debrief/roll_odds.py",  # Down Range's rolls' odds computed again from their inputs
}


def _rule_system_imports(path: Path) -> set[str]:
    return {m for m in imported_modules(path) if m.split(".")[0] == "rules" and len(m.split(".")) > 1
            and m.split(".")[1] in RULE_SYSTEMS}


def test_front_ends_import_no_rule_system_beyond_the_known_remainder() -> None:
    """gui/ and the debrief reach rule systems through rules.ruleset (rules/<system>/ is the rule
    system's own business)."""
    importing = {}
    for package in ("gui", "debrief"):
        for path in sorted((ROOT / package).rglob("*.py")):
            found = _rule_system_imports(path)
            if found:
                importing[str(path.relative_to(ROOT))] = sorted(found)
    new = {f: m for f, m in importing.items() if f not in STILL_IMPORTING}
    assert not new, f"front ends import rule systems; use rules.ruleset: {new}"
    stopped = STILL_IMPORTING - set(importing)
    assert not stopped, f"no longer import a rule system, take them off STILL_IMPORTING: {sorted(stopped)}"


def _ruleset_names() -> set[str]:
    from rules.ruleset import RULESETS

    return set(RULESETS)


def _names_a_rule_system(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Constant) and node.value in names:
        return True
    # ruleset.name, session.ruleset.name, facts.ruleset: the rule system's name itself
    text = ast.unparse(node)
    return text.endswith("ruleset.name") or text.endswith(".ruleset") or text == "ruleset_name"


def test_front_ends_do_not_branch_on_a_rulesets_name() -> None:
    """No comparison with a ruleset's name and no table keyed by it in gui/ or the debrief: what differs
    between rule systems is data of rules.ruleset (FrontEnd, OddsLegend, the optional protocols)."""
    names = _ruleset_names()
    offenders = []
    for package in ("gui", "debrief"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Compare):
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


def test_every_gui_module_imports_qt() -> None:
    qt_free = []
    for path in sorted((ROOT / "gui").rglob("*.py")):
        imports = imported_top_levels(path)
        if path.name == "__init__.py" and not imports - {"__future__"}:
            continue  # a package's docstring
        if not imports & QT:
            qt_free.append(str(path.relative_to(ROOT)))
    assert not qt_free, f"Qt-free modules belong outside gui/: {qt_free}"


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
        "for name in ('appmodel', 'debrief', 'demo', 'printing'):\n"
        "    package = importlib.import_module(name)\n"
        "    for m in pkgutil.walk_packages(package.__path__, name + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "print('PySide6' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_headless_cli_commands_do_not_load_qt() -> None:
    code = "import sys, cli.main\ncli.main.build_parser()\nprint('PySide6' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
