"""printing.document: a long table flows over pages, its header repeated, every row printed once, on the paper."""
from __future__ import annotations

import pytest

from printing.document import Heading, Paragraph, Table, write_document


def test_a_long_table_breaks_between_rows_and_repeats_its_header(tmp_path):
    pdfium = pytest.importorskip("pypdfium2")
    rows = tuple((f"row {i:03d}", "a long cell that wraps over several lines " * (i % 3 + 1), f"{i}%") for i in range(150))
    summary = write_document(tmp_path / "t.pdf", [Heading("Listing"), Paragraph("Before the table."),
                                                  Table(("name", "words", "odds"), rows, widths=(1, 4, 1))], title="Test")
    document = pdfium.PdfDocument(str(tmp_path / "t.pdf"))
    assert summary.pages == len(document) > 3
    seen = []
    for page in document:
        text = page.get_textpage()
        words = text.get_text_range()
        assert words.count("words") >= 1 and "odds" in words  # the header on every page
        seen += [line.split()[1] for line in words.splitlines() if line.startswith("row ")]
        width, height = page.get_size()
        for i in range(text.count_chars()):
            left, bottom, right, top = text.get_charbox(i)
            if right > left:
                assert 0 <= left and right <= width and 0 <= bottom and top <= height
    assert seen == [f"{i:03d}" for i in range(150)]
