"""With the relief known, the line of sight of an attack being set up shows, in red, the part the
ground hides; nothing is added on open ground, and the attack panel's proposals come from it."""
from __future__ import annotations

import numpy as np

from appmodel.overlays.registry import build_items
from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.terrain_sight import Ground

CELL = 0.25


def ridge_between(a, b, height_in=3.0) -> Ground:
    """A ridge across the middle of the line from a to b (perpendicular to it)."""
    cols, rows = int(72 / CELL) + 1, int(48 / CELL) + 1
    yy, xx = np.mgrid[0:rows, 0:cols] * CELL
    mid = (np.asarray(a) + np.asarray(b)) / 2
    d = (np.asarray(b) - np.asarray(a)) / np.linalg.norm(np.asarray(b) - np.asarray(a))
    along = (xx - mid[0]) * d[0] + (yy - mid[1]) * d[1]
    return Ground(np.clip(1.0 - np.abs(along) / 1.0, 0.0, None) * height_in, CELL)


def test_the_blocked_part_of_the_line_of_sight_is_drawn_over_the_ridge():
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    a, t = session.unit(10), session.unit(31)
    session.set_attack(AttackDraft(10, "M4/M16", (31,)))
    plain = [i for i in build_items(session.snapshot(), ["sight"]) if i.color == "#ff3b30"]
    assert plain == []
    session.set_ground(ridge_between((a.x_in, a.y_in), (t.x_in, t.y_in)))
    blocked = [i for i in build_items(session.snapshot(), ["sight"]) if i.color == "#ff3b30"]
    assert len(blocked) == 1 and blocked[0].label == "ground blocks"
    mid = np.array([(a.x_in + t.x_in) / 2, (a.y_in + t.y_in) / 2])
    centre = blocked[0].points_in.mean(axis=0)
    assert np.linalg.norm(centre - mid) < 0.3  # drawn on the ridge
    assert np.linalg.norm(blocked[0].points_in[1] - blocked[0].points_in[0]) < 2.0
    # the session's ruleset proposes no line of sight for the target behind it
    proposal = session.ruleset.propose_from_ground(session.state, session.snapshot().draft.request(), session.ground)
    assert proposal.targets[31]["line_of_sight"] is False
