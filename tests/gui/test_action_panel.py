"""The declaration panel plays every action besides attacks as a player would: a medic's treatment of the
rulebook's section 6.6.1 declared from the panel (the corpsman chosen by selecting him, the downed
gunner proposed because he touches him), the odds read before the roll, the players' die typed in, and
the result shown as a card over the map; a Signal with virtual dice; and a refusal said in words."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession  # noqa: E402
from gui_helpers import open_main_window  # noqa: E402
from rules.dice import SeededDice  # noqa: E402
from rules.downrange.examples import in_depth  # noqa: E402
from rules.ruleset import get_ruleset  # noqa: E402

CORPSMAN, GUNNER, SERGEANT = 14, 11, 10


def session_before(section: str) -> GameSession:
    steps = list(in_depth.STEPS)
    state = None
    for record in in_depth.play(steps[:[s.section for s in steps].index(section)]):
        state = record.state
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(),
                       scenario_path=str(in_depth.SCENARIO_PATH), dice=SeededDice(2))


@pytest.fixture
def window(qtbot, tmp_path):
    session = session_before("6.6.1 a")
    # The step's own start: initiative 9 against 1, the Marines' turn.
    session.start_round([9, 1])
    session.start_turn()
    return open_main_window(qtbot, tmp_path, session)


def test_a_medics_treatment_is_declared_and_resolved_from_the_panel(window, qtbot):
    panel = window.actions_panel
    window.session.select_unit(CORPSMAN)
    qtbot.waitUntil(lambda: panel.unit.currentData() == CORPSMAN, timeout=5000)
    panel.select_action("treat")
    patient = panel.widgets["patient"]
    assert patient.currentData() == GUNNER and "touching" in patient.currentText()
    assert "Odds before the roll" in panel.odds.text() and "back in play" in panel.odds.text()
    assert "injured" in panel.odds.text() and "removed" in panel.odds.text()
    panel.entered.setChecked(True)
    assert panel.dice_form.needed is not None and "Medicine roll of Corpsman" in panel.dice_form.needed.label
    assert panel.dice_form.enter("6")
    panel.resolve()
    assert window.session.state.unit(GUNNER).status.value == "active"
    assert window.session.state.unit(GUNNER).injured  # Table 2-2, 6-8: back in play, Injured (the rulebook's result)
    card = window.result_card
    assert card.showing and "Corpsman" in card.title.text()
    assert any("1d" in d and ": 6" in d for d in card.card.dice)
    assert card.card.odds_before and card.card.odds_before[0].startswith("Mortar gunner: back in play")
    assert "Table 2-2: injured" in panel.message.text()


def test_a_signal_with_virtual_dice_lists_who_heard_it(window, qtbot):
    panel = window.actions_panel
    panel.select_unit(SERGEANT)
    panel.select_action("signal")
    assert "Heard by:" in panel.notes.text()
    panel.resolve()
    assert window.session.state.unit(SERGEANT).emission is not None
    assert "Heard by:" in panel.message.text() and window.result_card.showing


def test_an_action_the_rules_refuse_says_why(window, qtbot):
    panel = window.actions_panel
    panel.select_unit(GUNNER)  # down, waiting for the corpsman
    panel.select_action("sprint")
    assert "(not now)" in panel.action.currentText() and "Mortar gunner is down: it cannot sprint" in panel.help.text()
    panel.resolve()
    assert "Mortar gunner is down: it cannot sprint" in panel.message.text()
    assert not window.session.state.unit(GUNNER).sprinted
