"""A refused shot says so: the odds table reads "not allowed" with the rules' reason (not "0.0%"), and
the map shows a short marker by the unit instead of the whole reason painted across the view; an attack
set up before the first initiative is flagged in the panel until initiative is rolled."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH

SERGEANT, OFFICER, AR = 10, 30, 31


def panel_for(qtbot, session):
    from gui.app import create_application
    from gui.panels.attack_panel import AttackPanel

    create_application()
    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    panel.resize(700, 800)
    panel.show()
    return panel


def test_refused_targets_read_not_allowed_in_the_odds_and_a_short_marker_on_the_map(qtbot):
    from appmodel.overlays.shared import odds_items

    session = GameSession.from_scenario_file(SCENARIO_PATH)
    panel = panel_for(qtbot, session)
    session.select_unit(SERGEANT)
    # Two targets for a rifle that makes one attack per Action: the rules refuse both.
    session.set_attack(AttackDraft(SERGEANT, "M4/M16", (OFFICER, AR)))
    qtbot.waitUntil(lambda: panel.odds.rowCount() == 2, timeout=5000)
    rows = panel.odds_rows()
    for row in rows:
        assert row[1] == "not allowed" and "0.0%" not in row
        assert "one attack per Action" in row[4]
    labels = [i.label for i in odds_items(session.snapshot())]
    assert labels and all(len(text) <= 12 and "Action" not in text for text in labels), labels


def test_an_attack_before_initiative_is_flagged_until_initiative_is_rolled(qtbot):
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    panel = panel_for(qtbot, session)
    assert not panel.initiative_note.isVisible()
    session.select_unit(SERGEANT)
    session.set_attack(AttackDraft(SERGEANT, "M4/M16", (AR,)))
    qtbot.waitUntil(panel.initiative_note.isVisible, timeout=3000)
    assert "initiative" in panel.initiative_note.text().lower()
    session.start_round()
    qtbot.waitUntil(lambda: not panel.initiative_note.isVisible(), timeout=3000)
