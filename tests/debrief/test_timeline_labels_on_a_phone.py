"""The debrief's timeline table reads on a phone as the live class view does: the report carries the
label placements made for every screen size, and the page takes the one for its own pixels per inch, so
each label's text is at least 11 pixels high on a 390x844 phone (it was about 5) and on a laptop, and
none covers another, in a real headless Chromium."""
from __future__ import annotations

from pathlib import Path

import pytest

from classview.timeline import report_timeline
from classview_helpers import open_browser, page_errors, wait_for
from debrief.report import write_debrief_report
from demo.example_recording import record_in_depth_example

LABELS_JS = """
var g = document.querySelector('#class-timeline svg.table g.labels');
return g ? {scale: g.getAttribute('data-px-per-in'), labels: Array.from(g.querySelectorAll('text')).map(function (t) {
  var r = t.getBoundingClientRect();
  return {text: t.textContent, h: r.height, box: [r.left, r.top, r.right, r.bottom]};
})} : null;
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("timeline-labels")
    recording = record_in_depth_example(folder / "game.sqlite")
    write_debrief_report(recording, folder / "report.html", timeline=report_timeline)
    return folder / "report.html"


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_timeline_labels_are_at_least_11_px_high_and_apart(report: Path, size: tuple[int, int], tmp_path: Path) -> None:
    browser = open_browser(*size)
    try:
        browser.get(report.as_uri())
        wait_for(lambda: browser.execute_script("return !!window.classTimeline"), what="the timeline")
        browser.execute_script("document.getElementById('class-timeline').scrollIntoView();")
        shown = wait_for(lambda: (d := browser.execute_script(LABELS_JS)) and d["labels"] and d, what="the table's labels")
        browser.save_screenshot(str(tmp_path / f"timeline-{size[0]}x{size[1]}.png"))  # for a person to look at
        labels = shown["labels"]
        heights = sorted(round(lab["h"], 1) for lab in labels)
        assert shown["scale"], "the page took one of the placements made per screen size"
        assert heights[0] >= 11.0 and heights[-1] <= 1.4 * 14 * 1.3, (size, shown["scale"], heights[:3], heights[-3:])
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                assert not _overlap(a["box"], b["box"]), (a, b)
        assert not page_errors(browser)
    finally:
        browser.quit()
