"""The window follows the sculptor, offscreen: with the sculpting guidance on and the projector
lighting the synthetic table, the still sand is rescanned on a worker (the window keeps ticking), the
guidance then shows the scanned heights; hands over the sand get no patterns, and once they leave
the reshaped sand is rescanned and the guidance shows the new height. Units hold their poses while
the patterns are up."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession  # noqa: E402
from calibration.sculpting import guidance_strength  # noqa: E402
from sculptor_helpers import HILL_TOP_IN, filmed, sculpting_window  # noqa: E402


def hill_top(session: GameSession) -> float:
    g = session.ground
    return float(g.heights_in[int(round(HILL_TOP_IN[1] / g.cell_in)), int(round(HILL_TOP_IN[0] / g.cell_in))])


@pytest.mark.slow
def test_the_guidance_follows_the_sculptor_in_the_window(qtbot) -> None:
    filmed("hills"), filmed("lowered")  # rendered before the window ticks
    w, feed = sculpting_window()
    session = w.session
    applied = []  # for each pose update the session took: whether its frame was under a pattern
    real_apply = session.apply_poses
    session.apply_poses = lambda poses, t_s=None: applied.append(feed.lit) or real_apply(poses, t_s=t_s)
    qtbot.addWidget(w)
    w.show()
    w.show_projector("projector")
    w.set_projector_overlay("sculpting", True)
    rescans = w.live_presenter.rescans
    qtbot.waitUntil(lambda: rescans.rescans == 1, timeout=120000)
    assert abs(hill_top(session) - 4.0) < 0.1                      # the scan's heights reach the guidance
    assert float(guidance_strength(np.array([2.5 - hill_top(session)]))[0]) == pytest.approx(-1.0)  # remove sand
    assert feed.polls_while_computing > 3 and w.projector.pattern is None
    assert applied and not any(applied)                          # the tracker's view of the patterns was held back

    feed.table.hand_x = 300
    feed.table.which = "lowered"                                  # the sculptor lowers the hill
    start = feed.table.count
    qtbot.waitUntil(lambda: feed.table.count > start + 60, timeout=60000)
    assert feed.patterns_under_hands == 0 and rescans.rescans == 1
    feed.table.hand_x = None
    qtbot.waitUntil(lambda: rescans.rescans == 2, timeout=120000)
    assert abs(hill_top(session) - 2.5) < 0.1
    assert float(guidance_strength(np.array([2.5 - hill_top(session)]))[0]) == 0.0  # white: it matches
    assert "rescanned" in rescans.last_words
    w.close()
