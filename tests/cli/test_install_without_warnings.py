"""Installing the package (what `make demo` and `make test` do) prints no screens of setuptools
warnings: the licence is metadata setuptools accepts as it is, an SPDX expression."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_building_the_package_gives_no_licence_warnings_and_states_the_licence(tmp_path):
    # The project's own metadata, built in a copy (a build in the source tree would leave build/ there).
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    (source / "cli").mkdir()
    (source / "cli" / "__init__.py").write_text("")
    wheels = tmp_path / "wheels"
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(source)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "license" not in result.stderr.lower(), result.stderr[-3000:]
    assert "deprecated" not in result.stderr.lower(), result.stderr[-3000:]
    wheel, = wheels.glob("sandtable_companion-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(archive.read(n).decode() for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    assert "License-Expression: MIT" in metadata
