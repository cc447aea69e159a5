"""The roster's hand-edit dialog (offscreen Qt): a player sets and clears the tokens a camera cannot
see -- a suppression (by whom, until whose turn), the emission token, ammunition left, Reaction ready,
Focus, movement, injury, on fire -- through the real modal dialog, and the roster shows the result."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import AR, CORPSMAN, MAAWS, PLA, SCENARIO_PATH, SERGEANT
from rules.downrange.state import Emission, Suppression
from gui_helpers import edit_in_dialog

TOKENS, WEAPONS = 7, 6  # roster columns


@pytest.fixture
def roster(qtbot):
    from gui.app import create_application
    from gui.panels.roster_panel import RosterPanel

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    panel = RosterPanel(session)
    qtbot.addWidget(panel)
    panel.resize(1000, 500)
    panel.show()
    return panel


def _edit(roster: Any, qtbot: Any, unit_id: int, fill: Callable[[Any], None], *, ok: bool = True) -> None:
    """Select the unit, open its dialog as a player does (modal), fill it in, press OK (or Cancel)."""
    edit_in_dialog(roster, unit_id, fill, ok=ok)
    assert roster.error_label.text() == ""


def _cell(roster: Any, unit_id: int, column: int) -> Any:
    row = [u.unit_id for u in roster.session.units()].index(unit_id)
    return roster.table.item(row, column)


def test_a_suppression_set_in_the_dialog_shows_in_the_roster_and_clearing_it_removes_it(roster, qtbot) -> None:
    def suppress(dialog: Any) -> None:
        by = dialog.widgets["suppressed by"]
        dialog.widgets["suppress"].setChecked(True)
        by.setCurrentIndex(by.findData(AR))
        assert dialog.widgets["suppressed until"].currentData() == PLA  # until the suppressor's side's next turn

    _edit(roster, qtbot, SERGEANT, suppress)
    assert roster.session.state.unit(SERGEANT).suppressed == (Suppression(AR, PLA),)
    cell = _cell(roster, SERGEANT, TOKENS)
    assert "suppressed by Automatic rifleman" in cell.text()
    assert "until the start of PLA Marine Corps' next turn" in cell.toolTip()
    assert any("set by hand suppressed by Automatic rifleman (31)" in e.text for e in roster.session.log)

    def clear(dialog: Any) -> None:
        kept = [key for key in dialog.widgets if key.removeprefix("suppressed ").isdigit()]
        assert kept == ["suppressed 0"]
        box = dialog.widgets["suppressed 0"]
        assert box.isChecked() and "Automatic rifleman (31)" in box.text()
        box.setChecked(False)

    _edit(roster, qtbot, SERGEANT, clear)
    assert roster.session.state.unit(SERGEANT).suppressed == ()
    assert "suppressed" not in _cell(roster, SERGEANT, TOKENS).text()


def test_the_emission_token_is_set_and_cleared_in_the_dialog(roster, qtbot) -> None:
    def emit(dialog: Any) -> None:
        dialog.widgets["emitting"].setChecked(True)
        dialog.widgets["purpose"].setCurrentText("other")

    _edit(roster, qtbot, CORPSMAN, emit)
    assert roster.session.state.unit(CORPSMAN).emission == Emission("other", "Marines", False)
    assert "signalling (radio call)" in _cell(roster, CORPSMAN, TOKENS).text()
    assert "until the start of Marines' next turn" in _cell(roster, CORPSMAN, TOKENS).toolTip()

    _edit(roster, qtbot, CORPSMAN, lambda dialog: dialog.widgets["emitting"].setChecked(False))
    assert roster.session.state.unit(CORPSMAN).emission is None
    assert "signalling" not in _cell(roster, CORPSMAN, TOKENS).text()


def test_a_jamming_token_for_a_unit_without_ew_is_refused_in_one_line(roster, qtbot) -> None:
    def jam(dialog: Any) -> None:
        dialog.widgets["emitting"].setChecked(True)
        dialog.widgets["jamming"].setChecked(True)

    roster.session.select_unit(CORPSMAN)
    dialog = roster.edit_dialog(CORPSMAN)
    jam(dialog)
    roster.edit_selected(changes=dict(dialog.changes().unit))
    assert roster.error_label.text() == "Corpsman has no EW equipment: add 'EW equipment' to its equipment to jam"
    assert roster.session.state.unit(CORPSMAN).emission is None


def test_ammunition_left_is_edited_and_out_of_ammunition_shows(roster, qtbot) -> None:
    def empty(dialog: Any) -> None:
        spin = dialog.widgets["ammunition Carl Gustaf / MAAWS"]
        assert spin.value() == 4
        spin.setValue(0)

    _edit(roster, qtbot, MAAWS, empty)
    assert "Carl Gustaf / MAAWS (0)" in _cell(roster, MAAWS, WEAPONS).text()
    assert "out of ammunition (Carl Gustaf / MAAWS)" in _cell(roster, MAAWS, TOKENS).text()


def test_the_flag_tokens_are_set_and_cleared_in_the_dialog(roster, qtbot) -> None:
    def set_all(dialog: Any) -> None:
        for key in ("reaction_ready", "injured", "on_fire"):
            dialog.widgets[key].setChecked(True)
        dialog.widgets["focused"].setChecked(True)
        dialog.widgets["moved_in"].setValue(2.5)

    _edit(roster, qtbot, SERGEANT, set_all)
    text = _cell(roster, SERGEANT, TOKENS).text()
    for token in ("reaction ready", "injured", "on fire", "focused", 'moved 2.5"'):
        assert token in text

    def clear_all(dialog: Any) -> None:
        for key in ("reaction_ready", "injured", "on_fire"):
            assert dialog.widgets[key].isChecked()
            dialog.widgets[key].setChecked(False)
        dialog.widgets["focused"].setChecked(False)
        dialog.widgets["moved_in"].setValue(0.0)

    _edit(roster, qtbot, SERGEANT, clear_all)
    text = _cell(roster, SERGEANT, TOKENS).text()
    assert not any(t in text for t in ("reaction ready", "injured", "on fire", "focused", "moved"))


def test_cancel_changes_nothing(roster, qtbot) -> None:
    before = roster.session.state

    def change_then_cancel(dialog: Any) -> None:
        dialog.widgets["suppress"].setChecked(True)
        dialog.widgets["injured"].setChecked(True)

    _edit(roster, qtbot, SERGEANT, change_then_cancel, ok=False)
    assert roster.session.state is before
