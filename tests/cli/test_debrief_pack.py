"""`sandtable debrief REC --pdf pack.pdf`: the take-home pack, read back as a user reads the paper."""
from __future__ import annotations

import re

import pytest

from cli.main import main
from debrief.facts import read_debrief_facts
from debrief.report import clock
from demo.example_recording import record_in_depth_example


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    pdfium = pytest.importorskip("pypdfium2")
    folder = tmp_path_factory.mktemp("pack")
    recording = record_in_depth_example(folder / "in_depth.sqlite")
    assert main(["debrief", str(recording), "--pdf", str(folder / "pack.pdf"), "--no-progress"]) == 0
    document = pdfium.PdfDocument(str(folder / "pack.pdf"))
    pages = []
    for page in document:
        text = page.get_textpage()
        width, height = page.get_size()
        boxes = [text.get_charbox(i) for i in range(text.count_chars())]
        pages.append((text.get_text_range(), (width, height), boxes))
    return read_debrief_facts(recording), pages


def test_the_pack_has_the_map_page_the_engagements_and_the_casualties(pack):
    facts, pages = pack
    assert len(pages) >= 3
    first = pages[0][0]
    assert f"Debrief: {facts.title}" in first
    contact = min(facts.engagements, key=lambda e: e.t_s)
    assert f"first contact at {clock(contact.t_s)}" in first
    everything = "\n".join(text for text, _, _ in pages)
    for heading in ("The rolls that decided it", "Engagements", "Casualties over time", "Bookmarks"):
        assert heading in everything
    for i, page in enumerate(pages, 1):
        assert f"page {i}" in page[0]


def test_every_engagement_is_printed_with_its_odds(pack):
    facts, pages = pack
    text = " ".join(" ".join(page.split()) for page, _, _ in pages)
    listing = text[text.index("Every attack on every target"):]
    for e in facts.engagements:
        target = e.target_name if e.target_id is not None else "nobody hit"
        # the row's cells in order, close together (a wrapped cell may come out of the PDF a little apart)
        row = r".{0,60}?".join(re.escape(cell) for cell in (clock(e.t_s), e.attacker_name, target, e.odds_text(), e.outcome.value))
        assert re.search(row, listing), f"no row for {e.attacker_name} on {target} at {clock(e.t_s)}"


def test_bookmarks_are_printed_with_their_notes(pack):
    facts, pages = pack
    assert facts.bookmarks
    everything = " ".join(" ".join(text.split()) for text, _, _ in pages)
    for b in facts.bookmarks:
        assert " ".join(b.note.split()) in everything


def test_no_text_runs_off_the_paper(pack):
    _, pages = pack
    for text, (width, height), boxes in pages:
        for left, bottom, right, top in boxes:
            if right - left > 0:  # spaces and line ends have no box
                assert 0 <= left and right <= width and 0 <= bottom and top <= height, text[:60]


def test_a_pdf_that_cannot_be_written_is_one_line(pack, tmp_path, capsys):
    recording = tmp_path / "r.sqlite"
    record_in_depth_example(recording)
    assert main(["debrief", str(recording), "--pdf", str(tmp_path / "no" / "such" / "pack.pdf"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist" in err[0]
