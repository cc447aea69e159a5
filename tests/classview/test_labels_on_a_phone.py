"""The class view's table labels are readable without zooming on a phone as on a laptop: each label's
text is at least 10 pixels high on the screen (a 72" table across a 390-pixel phone was 4-5 px), none
covers another, and the ones that matter most (the selected unit with its Move left) are kept."""
from __future__ import annotations

from pathlib import Path

import pytest

from classview_helpers import open_browser, page_errors, wait_for
from classview.live import LiveClassView
from classview.server import ServeAddress
from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH

LABELS_JS = """
return Array.from(document.querySelectorAll('svg.table g.labels text')).map(function (t) {
  var r = t.getBoundingClientRect();
  return {text: t.textContent, h: r.height, box: [r.left, r.top, r.right, r.bottom]};
});
"""


@pytest.fixture
def served():
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    session.start_round()
    session.start_turn()  # in play: the label says how much of his Move is left
    session.select_unit(10)  # the sergeant: his label says his Move left
    view = LiveClassView.start(session, ServeAddress("127.0.0.1", 0))
    yield session, view
    view.close()


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_table_labels_are_at_least_10_px_high_and_apart(served, size, tmp_path: Path) -> None:
    session, view = served
    browser = open_browser(*size)
    try:
        browser.get(view.url)
        labels = wait_for(lambda: browser.execute_script(LABELS_JS), what="the table's labels")
        browser.save_screenshot(str(tmp_path / f"labels-{size[0]}x{size[1]}.png"))
        heights = sorted(round(lab["h"], 1) for lab in labels)
        # the glyphs' box of a bold 12-14 px font, never more than 1.4 times as big (a laptop's was 9 px)
        assert heights[0] >= 10.0 and heights[-1] <= 1.4 * 14 * 1.3, (size, heights[:3], heights[-3:])
        assert any(lab["text"].startswith("Sergeant (move left") for lab in labels), [lab["text"] for lab in labels]
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                assert not _overlap(a["box"], b["box"]), (a, b)
        if size[0] > 1000:  # a laptop has room for every unit's name
            names = {u.name for u in session.units() if u.on_table}
            shown = " ".join(lab["text"] for lab in labels)
            assert sum(1 for n in names if n in shown) >= 0.8 * len(names)
        assert page_errors(browser) == []
    finally:
        browser.quit()
