"""Printed tag sheets and the lens board, checked as a user would: rasterise the PDF at a known
resolution, find the tags with the detector and measure them with the page's own inches."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from cli.main import main
from calibration_scenes import detect

DPI = 300
EXAMPLE = Path(__file__).resolve().parents[2] / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"


def rasterise(path: Path) -> list[tuple[np.ndarray, tuple[float, float]]]:
    """Pages as BGR images at DPI, with each page's size in inches."""
    pdf = pdfium.PdfDocument(str(path))
    pages = []
    for page in pdf:
        w_pt, h_pt = page.get_size()
        pages.append((page.render(scale=DPI / 72).to_numpy(), (w_pt / 72, h_pt / 72)))
    return pages


def measured_tags(path: Path) -> dict[int, list[float]]:
    """tag id -> edge lengths (inches) of every printed copy found."""
    out: dict[int, list[float]] = {}
    for image, _ in rasterise(path):
        found = detect(np.ascontiguousarray(image[:, :, :3]))
        for tag_id, c in zip(found.tag_ids, found.corners_px):
            side = np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)) / DPI
            out.setdefault(int(tag_id), []).append(float(side))
    return out


def text_of(path: Path) -> str:
    return "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(path)))


def test_unit_tags_print_at_exact_size_once_each(tmp_path, capsys):
    out = tmp_path / "tags.pdf"
    assert main(["tags", "--ids", "10-49", "--size-in", "1", "--out", str(out)]) == 0
    assert "40 unit tags of 1 in on 2 letter pages" in capsys.readouterr().out
    pages = rasterise(out)
    assert [size for _, size in pages] == [(8.5, 11.0)] * 2
    found = measured_tags(out)
    assert sorted(found) == list(range(10, 50))
    assert all(len(v) == 1 for v in found.values())
    sides = np.array([v[0] for v in found.values()])
    assert np.abs(sides - 1.0).max() < 0.005  # a printer at 100% gives 1.000" tags


def test_every_page_carries_a_one_inch_and_a_25_mm_scale_bar(tmp_path):
    out = tmp_path / "tags.pdf"
    assert main(["tags", "--ids", "10-12", "--size-in", "1.5", "--paper", "a4", "--out", str(out)]) == 0
    (image, size), = rasterise(out)
    assert size == pytest.approx((210 / 25.4, 297 / 25.4), abs=0.01)
    dark = (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) < 100).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    widths = [w / DPI for (x, y, w, h, area) in stats[1:] if 0.12 < h / DPI < 0.2 and w / DPI > 0.8]
    assert any(abs(w - 1.0) < 0.01 for w in widths), widths
    assert any(abs(w - 25 / 25.4) < 0.01 for w in widths), widths
    assert measured_tags(out)[11][0] == pytest.approx(1.5, abs=0.006)


def test_roster_names_are_printed_under_their_tags(tmp_path):
    out = tmp_path / "roster.pdf"
    assert main(["tags", "--roster", str(EXAMPLE), "--size-in", "1", "--out", str(out)]) == 0
    text = text_of(out)
    assert "#10 Sgt. Ruiz" in text and "#23 Lt. Orlov" in text and "OPFOR" in text
    assert "#14" in text  # the M-ATV's 1.5" tag too, at its own size (tests/cli/test_tags_from_the_roster.py)
    assert set(measured_tags(out)) == {10, 11, 12, 13, 14, 20, 21, 22, 23}


def test_the_anchor_set_prints_at_two_inches_with_where_each_goes(tmp_path):
    out = tmp_path / "anchors.pdf"
    assert main(["tags", "--anchors", "--out", str(out)]) == 0
    found = measured_tags(out)
    assert sorted(found) == [0, 1, 2, 3]
    assert all(abs(v[0] - 2.0) < 0.008 for v in found.values())
    assert "x = 70.5 in, y = 46.5 in" in text_of(out)


def test_the_lens_board_prints_its_grid_at_exact_pitch(tmp_path):
    out = tmp_path / "board.pdf"
    assert main(["board", "--out", str(out)]) == 0
    (image, size), = rasterise(out)
    assert size == (11.0, 8.5)  # landscape letter
    found = detect(np.ascontiguousarray(image))
    assert sorted(found.tag_ids.tolist()) == list(range(500, 535))
    centres = {int(t): c.mean(axis=0) / DPI for t, c in zip(found.tag_ids, found.corners_px)}
    assert np.linalg.norm(centres[501] - centres[500]) == pytest.approx(1.4, abs=0.005)   # along a row
    assert np.linalg.norm(centres[507] - centres[500]) == pytest.approx(1.4, abs=0.005)   # down a column
    assert np.linalg.norm(centres[534] - centres[500]) == pytest.approx(np.hypot(8.4, 5.6), abs=0.01)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["tags", "--ids", "5-12"], "tag 5 cannot be a unit tag: ids 0-9 are the table's anchors"),
        (["tags", "--ids", "10-x"], "write ids like 10-49"),
        (["tags", "--ids", "450"], "ids 400-499 are the projector's calibration pattern"),
        (["tags", "--ids", "10", "--anchors"], "exactly one of --ids"),
        (["tags", "--ids", "10", "--size-in", "9"], "--size-in 9: tags from 0.25 to 7 inches"),
        (["board", "--board-cols", "1"], "board options: board of 1x5 tags: use at least 2x2"),
        (["tags", "--anchors", "--layout", "table.toml", "--table", "60x40"],
         "give either --layout FILE or --table WxD, not both (the layout file holds the table size)"),
        (["tags", "--anchors", "--table", "60by40"], "write it as WIDTHxDEPTH"),
    ],
)
def test_mistakes_get_one_line_and_exit_code_2(tmp_path, capsys, argv, message):
    assert main(argv + ["--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.pdf").exists()


def test_every_tag_keeps_a_white_quiet_zone_inside_its_cut_line_and_the_sheet_says_why(tmp_path):
    out = tmp_path / "tags.pdf"
    assert main(["tags", "--ids", "10-13", "--size-in", "1", "--out", str(out)]) == 0
    text = " ".join(text_of(out).split())
    assert "Cut on the dashed line, not closer" in text and "a tag trimmed to the black is not seen" in text
    image, _ = rasterise(out)[0]
    grey = cv2.cvtColor(np.ascontiguousarray(image[:, :, :3]), cv2.COLOR_BGR2GRAY)
    found = detect(np.ascontiguousarray(image[:, :, :3]))
    for c in found.corners_px:
        x0, y0 = np.floor(c.min(axis=0)).astype(int)
        x1, y1 = np.ceil(c.max(axis=0)).astype(int)
        ring = int(0.1 * DPI)  # the quiet zone is 1.5 of the tag's 8 cells = 0.19": its inner 0.1" is blank
        band = grey[y0 - ring : y1 + ring, x0 - ring : x1 + ring].copy()
        band[ring - 3 : -ring + 3, ring - 3 : -ring + 3] = 255  # the black square itself, and its anti-aliased edge
        assert band.min() > 200  # white all round: no cut line or print inside the quiet zone


@pytest.mark.parametrize("argv", [["tags", "--anchors"], ["tags", "--ids", "10-13", "--size-in", "1"]])
def test_every_printed_character_stays_inside_the_page_margins(tmp_path, argv):
    """The newcomer's anchors.pdf cut its second instruction line off at "a tag trimme"."""
    out = tmp_path / "sheet.pdf"
    assert main(argv + ["--out", str(out)]) == 0
    for page in pdfium.PdfDocument(str(out)):
        w_pt, _ = page.get_size()
        text = page.get_textpage()
        rights = [text.get_charbox(i)[2] for i in range(text.count_chars()) if text.get_text_range(i, 1).strip()]
        assert rights and max(rights) <= w_pt - 0.2 * 72  # inside a 0.2" margin at least
    words = " ".join(text_of(out).split())
    assert "a tag trimmed to the black is not seen" in words
