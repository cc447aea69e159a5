"""The README's printing step works: `sandtable tags --roster starter_skirmish.toml --out units.pdf`
prints every unit at the tag size its roster entry gives (the UTV's 1.5", the rest 1"), measured on
the rasterised PDF with the detector; --size-in sets only the units that give no size. Without --out
the printing commands say in one line what to add."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cli.main import main

STARTER = Path(__file__).resolve().parents[2] / "appmodel" / "scenarios" / "starter_skirmish.toml"


def roster_sizes(default_in: float) -> dict[int, float]:
    data = tomllib.loads(STARTER.read_text(encoding="utf-8"))
    return {int(u["tag_id"]): float(u.get("tag_size_in", default_in)) for u in data["units"]}


def measured_tags(path: Path, dpi: int = 300) -> dict[int, list[float]]:
    """tag id -> edge (inches) of every printed copy the detector finds on the PDF rasterised at ``dpi``."""
    import numpy as np
    import pypdfium2 as pdfium
    from pupil_apriltags import Detector

    detector = Detector(families="tag36h11")
    out: dict[int, list[float]] = {}
    for page in pdfium.PdfDocument(str(path)):
        pixels = page.render(scale=dpi / 72, grayscale=True).to_numpy()
        grey = np.ascontiguousarray(pixels.reshape(pixels.shape[:2]))
        for d in detector.detect(grey):
            side = np.mean(np.linalg.norm(d.corners - np.roll(d.corners, -1, axis=0), axis=1)) / dpi
            out.setdefault(int(d.tag_id), []).append(float(side))
    return out


@pytest.mark.parametrize("size_in, default_in", [(None, 1.0), ("0.75", 0.75)])
def test_roster_tags_print_each_unit_at_its_own_size(tmp_path, capsys, size_in, default_in):
    out = tmp_path / "units.pdf"
    argv = ["tags", "--roster", str(STARTER), "--out", str(out)] + (["--size-in", size_in] if size_in else [])
    assert main(argv) == 0
    said = capsys.readouterr().out
    expected = roster_sizes(default_in)
    assert len(set(expected.values())) > 1  # the starter roster mixes sizes, as the README's step meets it
    found = measured_tags(out)
    assert sorted(found) == sorted(expected)
    for tag, size in expected.items():
        assert len(found[tag]) == 1
        assert found[tag][0] == pytest.approx(size, abs=0.01), tag
    assert f"unit tags of {default_in:g} in" in said and "1 unit tag of 1.5 in" in said


@pytest.mark.parametrize("argv", [["tags", "--ids", "10-12"], ["tags", "--roster", str(STARTER)], ["board"]])
def test_printing_without_out_says_what_to_add(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--out" in err and "usage:" not in err
