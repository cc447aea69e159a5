"""The attack panel proposes line of sight from the ground when a target is ticked, for the players to
confirm or change: Force on Force's line of sight and visible figures behind a ridge."""
from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from rules.forceonforce.examples import patrol
from rules.terrain_sight import Ground
from gui_helpers import session_before, show

ALPHA, CELL_1 = 10, 30
CELL = 0.25


def ridge_between(a, b, height_in=4.0) -> Ground:
    cols, rows = int(72 / CELL) + 1, int(48 / CELL) + 1
    yy, xx = np.mgrid[0:rows, 0:cols] * CELL
    mid = (np.asarray(a) + np.asarray(b)) / 2
    d = (np.asarray(b) - np.asarray(a)) / np.linalg.norm(np.asarray(b) - np.asarray(a))
    along = (xx - mid[0]) * d[0] + (yy - mid[1]) * d[1]
    return Ground(np.clip(1.0 - np.abs(along) / 1.5, 0.0, None) * height_in, CELL)


def test_ticking_a_target_behind_a_ridge_proposes_no_line_of_sight_and_the_players_can_change_it(qtbot):
    from gui.app import create_application
    from gui.panels.attack_panel import AttackPanel

    create_application()
    session = session_before(patrol, "force-on-force", "Alpha fires")
    state = session.state
    a, c = state.centre(state.team(ALPHA)), state.centre(state.team(CELL_1))
    session.set_ground(ridge_between(a.xy, c.xy))
    (attack,) = show(qtbot, (AttackPanel(session),), width=900)
    session.select_unit(12)
    attack.set_target(CELL_1)
    draft = attack.draft()
    assert draft.target_declarations[CELL_1] == {"line_of_sight": False, "target_visible": 0}
    assert attack.message.text().startswith("From the ground: the ground blocks the line of sight")
    # the players say they see it after all: their word stands
    attack.target_form.set_value("line_of_sight", True)
    assert attack.draft().target_declarations[CELL_1].get("line_of_sight", True) is True


def test_down_range_targets_get_line_of_sight_and_partial_cover_from_the_ground(qtbot):
    from gui.app import create_application
    from gui.panels.attack_panel import AttackPanel
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    a, t = session.unit(10), session.unit(31)
    session.set_ground(ridge_between((a.x_in, a.y_in), (t.x_in, t.y_in)))
    (panel,) = show(qtbot, (AttackPanel(session),), width=1100)
    session.select_unit(10)
    panel.set_target(31)
    assert panel.draft().target_declarations[31]["line_of_sight"] is False
    assert "from the ground: the ground blocks the line of sight" in panel.targets.cellWidget(panel._rows.index(31), 0).toolTip()
    panel.from_ground.setChecked(False)  # the players judge by eye: their table, their call
    assert "line_of_sight" not in panel.draft().target_declarations[31]


def test_a_low_bank_in_front_of_a_down_range_target_proposes_partial_cover(qtbot):
    from gui.app import create_application
    from gui.panels.attack_panel import AttackPanel
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    a, t = session.unit(10), session.unit(31)
    ta, tt = np.array([a.x_in, a.y_in]), np.array([t.x_in, t.y_in])
    d = (tt - ta) / np.linalg.norm(tt - ta)
    bank = tt - 1.5 * d  # 1.5" in front of the target, 0.8" high, its crest across the line
    cols, rows = int(72 / CELL) + 1, int(48 / CELL) + 1
    yy, xx = np.mgrid[0:rows, 0:cols] * CELL
    along = (xx - bank[0]) * d[0] + (yy - bank[1]) * d[1]
    session.set_ground(Ground(np.clip(1.0 - np.abs(along) / 0.5, 0.0, None) * 0.8, CELL))
    (panel,) = show(qtbot, (AttackPanel(session),), width=1100)
    session.select_unit(10)
    panel.set_target(31)
    decl = panel.draft().target_declarations[31]
    assert decl["cover"] == "partial" and decl.get("line_of_sight", True) is True
