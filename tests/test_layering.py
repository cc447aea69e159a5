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
