"""Each unit's MIL-STD-2525 symbol on the debrief's map, where the unit ended: inline SVG laid over
the map picture in the HTML report, drawn as vectors over it in the take-home PDF."""
from __future__ import annotations

import re
from dataclasses import replace

import cv2
import numpy as np
import pytest

from debrief.facts import read_debrief_facts
from debrief.plots import table_map
from debrief.report import render_report
from demo.example_recording import record_in_depth_example

FRIEND_FILL = (128, 224, 255)   # milsymbol's friendly frame fill (RGB)
HOSTILE_FILL = (255, 128, 128)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    folder = tmp_path_factory.mktemp("symbols")
    recording = record_in_depth_example(folder / "in_depth.sqlite")
    return recording, read_debrief_facts(recording)


def test_each_unit_gets_its_symbol_on_the_spot_where_it_ended(example) -> None:
    _, facts = example
    drawn = table_map(facts)
    assert facts.symbols is not None and {s.tag_id for s in drawn.symbols} == set(facts.trails)
    picture = cv2.imdecode(np.frombuffer(drawn.png, np.uint8), cv2.IMREAD_COLOR)
    h, w = picture.shape[:2]
    for s in drawn.symbols:
        unit = facts.unit(s.tag_id)
        left, top, bw, bh = s.box
        x, y = int(round((left + bw / 2) * w)), int(round((top + bh / 2) * h))
        # under the symbol's centre: the end dot in the side's colour (or the cross of a unit that fell there)
        rgb = tuple(int(unit.color.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))
        patch = picture[y - 2:y + 3, x - 2:x + 3, ::-1].reshape(-1, 3).astype(int)
        fell = any(c.tag_id == s.tag_id and c.change != "back in play" for c in facts.casualties)
        marks = [rgb, (17, 17, 17)] if fell else [rgb]
        assert min(np.abs(patch - m).sum(axis=1).min() for m in marks) < 40, f"{unit.name}'s symbol is not over its end dot"
        assert 0.01 < bw < 0.06 and 0.01 < bh < 0.08          # a symbol's size, not a smear or a dot
    fills = {re.search(r'fill="rgb\((\d+),(\d+),(\d+)\)"', s.svg).groups() for s in drawn.symbols}
    assert {tuple(map(str, FRIEND_FILL)), tuple(map(str, HOSTILE_FILL))} <= fills   # both sides, told apart


def test_the_html_report_lays_the_svg_symbols_over_the_map(example) -> None:
    _, facts = example
    page = render_report(facts)
    section = page[page.index('<section id="table">'):page.index("</section>", page.index('<section id="table">'))]
    assert section.count('<div class="sym"') == len(facts.trails) and section.count("<svg") == len(facts.trails)
    assert "military symbol (MIL-STD-2525)" in section
    names = set(re.findall(r'<div class="sym" title="([^"]+)"', section))
    assert names == {facts.unit(t).name for t in facts.trails}
    bare = render_report(replace(facts, symbols=None))       # a rule system without symbols: dots only
    assert '<div class="sym"' not in bare


def colour_share(rgb_image: np.ndarray, fill) -> float:
    return float((np.abs(rgb_image.astype(int) - np.array(fill)).sum(axis=2) < 30).mean())


def first_page_rgb(pdf_path) -> np.ndarray:
    """The PDF's first page as a user would see it printed, at 60 dpi (pypdfium2, a test dependency)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf_path))
    try:
        bgr = document[0].render(scale=60 / 72).to_numpy()[:, :, :3]  # pdfium's bitmaps are BGR(A)
    finally:
        document.close()
    return np.ascontiguousarray(bgr[:, :, ::-1])


def test_the_take_home_pdf_draws_the_symbols_over_the_map(example, tmp_path) -> None:
    from cli.debrief_pack import pack_blocks
    from printing.document import write_document

    _, facts = example
    for name, f in (("with", facts), ("without", replace(facts, symbols=None))):
        write_document(tmp_path / f"{name}.pdf", pack_blocks(f)[:4], title="symbols")
    page_with, page_without = (first_page_rgb(tmp_path / f"{n}.pdf") for n in ("with", "without"))
    for fill in (FRIEND_FILL, HOSTILE_FILL):
        assert colour_share(page_with, fill) > 5e-4 and colour_share(page_without, fill) < 1e-4


def test_the_symbol_library_holds_no_tables_once_the_facts_are_read(example) -> None:
    # A long game's tracks must not share the memory with milsymbol's code tables (130 MB as objects):
    # the map's symbols are drawn before the tracks are read, the tables let go, and the map then
    # draws every unit's symbol without loading them again.
    import milsymbol.symbol as library

    recording, _ = example
    facts = read_debrief_facts(recording)
    assert all(getattr(library, name) is None for name in ("_number_data", "_letter_data", "_modifier_data"))
    drawn = table_map(facts)
    assert {s.tag_id for s in drawn.symbols} == set(facts.trails)
    assert library._number_data is None  # drawn from the symbols already made, not the tables
