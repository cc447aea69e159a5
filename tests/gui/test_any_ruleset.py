"""A rule system the front ends have never heard of works in every one of them: "Pebbles"
(tests/toy_ruleset.py), registered only for these tests, played in the real window (offscreen Qt) --
attack panel, turn panel, roster and its hand-edit dialog -- recorded, replayed in a replay window, and
written up by the debrief. Everything the front ends know of it comes through ``rules.ruleset``."""
from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import toy_ruleset
from gui_helpers import edit_in_dialog

ANN, BOB, CID = 1, 2, 3


@pytest.fixture
def pebbles() -> Any:
    with toy_ruleset.registered() as name:
        yield name


@pytest.fixture
def app(qtbot):
    from gui.app import create_application

    return create_application()


def open_window(qtbot: Any, tmp_path: Any, session: Any, **kwargs: Any) -> Any:
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    store = open_store(tmp_path / "settings.ini")
    window = MainWindow(session, settings=load_settings(store), store=store, **kwargs)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    return window


def pebble_session(folder: Any = None) -> Any:
    """A pebble game; from a scenario file in ``folder`` (so a recording keeps the scenario) when given."""
    from appmodel.game_session import GameSession

    if folder is None:
        return GameSession.from_scenario(toy_ruleset.SCENARIO, seed=1)
    path = folder / "pebbles.toml"
    path.write_text(toy_ruleset.scenario_toml(), encoding="utf-8")
    return GameSession.from_scenario_file(path, seed=1)


def roster_cells(roster: Any, unit_id: int) -> dict[str, str]:
    row = [u.unit_id for u in roster.session.units()].index(unit_id)
    return {c: roster.table.item(row, roster.columns.index(c)).text() for c in roster.columns}


def test_the_window_plays_a_ruleset_it_does_not_know(pebbles, app, qtbot, tmp_path) -> None:
    from PySide6.QtCore import Qt

    from gui.panels.attack_panel import AttackPanel

    session = pebble_session()
    window = open_window(qtbot, tmp_path, session)
    assert isinstance(window.attack, AttackPanel)
    turn, roster, attack = window.turn, window.roster, window.attack
    # the turn panel in the ruleset's words
    assert turn.roll_button.text() == "Begin round (Ctrl+I)"
    assert turn.initiative_dice.placeholderText().startswith("one d6 per throw")
    qtbot.mouseClick(turn.roll_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(turn.start_button, Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == ""
    assert turn.round_label.text() == "1" and turn.turn_label.text() == "Reds"
    assert turn.order_label.text() == "Reds → Blues"

    # the View menu offers the overlays the ruleset names (a range ring) and the shared ones, not others'
    assert "overlay_range" in window.actions_by_name and "overlay_units" in window.actions_by_name
    assert "overlay_fan" not in window.actions_by_name and "overlay_hot_spots" not in window.actions_by_name
    # the roster lists every unit with its weapon; its edit button says what the ruleset edits
    assert roster.edit_button.text() == "Set status…"
    assert roster_cells(roster, BOB)["Weapons (ammo)"] == "Pebble"
    # Pebbles counts no movement allowance: no column of infinities
    assert roster.table.isColumnHidden(roster.columns.index("Move left"))
    # the attack panel: Ann's targets, in range or not, with the odds in the ruleset's words
    session.select_unit(ANN)
    assert attack.weapon.currentData() == "Pebble"
    attack.set_target(BOB)
    assert "Knocks out" in attack.target_cells(BOB)
    assert attack.target_cells(BOB)["Knocks out"] == "50.0%"
    # the table's odds label and the range ring the ruleset offers
    from appmodel.overlays.shared import odds_items

    assert [item.label for item in odds_items(session.snapshot())] == ["knocks out 50%"]
    assert any(o.kind == "range" and o.unit_ids == (ANN,) for o in session.snapshot().overlays)
    # the players' die: a 5 knocks Bob out
    attack.entered.setChecked(True)
    assert attack.dice_form.enter("5"), attack.dice_form.status.text()
    window.actions_by_name["resolve"].trigger()  # Ctrl+Return
    assert session.state.unit(BOB).status == "down"
    assert roster_cells(roster, BOB)["Status"] == "down"
    assert any("Ann throws a pebble at Bob" in e.text and "knocked out" in e.text for e in session.log)


def test_a_unit_of_a_ruleset_the_roster_does_not_know_is_edited_by_hand_in_the_form_it_describes(pebbles, app, qtbot,
                                                                                               tmp_path) -> None:
    from PySide6.QtWidgets import QComboBox, QDoubleSpinBox

    session = pebble_session()
    window = open_window(qtbot, tmp_path, session)

    def removed(dialog: Any) -> None:
        # the fields, words and choices are Pebbles' own (tests/toy_ruleset.py's edit_form)
        assert dialog.windowTitle() == "Set Cid" and [box.title() for box in dialog.sections] == ["The pebbler"]
        status, walked = dialog.widgets["status"], dialog.widgets["moved_in"]
        assert isinstance(status, QComboBox) and isinstance(walked, QDoubleSpinBox)
        assert [status.itemText(i) for i in range(status.count())] == ["in the game", "knocked out", "out of the game"]
        assert status.currentData() == "active" and status.toolTip() == "A knocked-out pebbler throws no more"
        assert walked.suffix() == '"' and walked.value() == 0.0
        status.setCurrentIndex(status.findData("removed"))

    edit_in_dialog(window.roster, CID, removed)
    assert window.roster.error_label.text() == ""
    assert session.state.unit(CID).status == "removed"
    assert roster_cells(window.roster, CID)["Status"] == "removed"
    assert "Cid set to removed by hand." in [e.text for e in session.log]

    # only what the player changed is sent: a walk corrected, the status left as it is
    edit_in_dialog(window.roster, BOB, lambda dialog: dialog.widgets["moved_in"].setValue(3.5))
    assert session.state.unit(BOB).moved_in == 3.5 and session.state.unit(BOB).status == "active"
    assert session.log[-1].text == 'Bob moved 3.5" by hand.'
    # Cancel changes nothing
    before = session.state
    edit_in_dialog(window.roster, ANN, lambda dialog: dialog.widgets["status"].setCurrentIndex(1), ok=False)
    assert session.state is before


def test_the_turn_panel_shows_and_runs_the_box_an_unknown_ruleset_describes(pebbles, app, qtbot, tmp_path) -> None:
    from PySide6.QtCore import Qt

    session = pebble_session()
    window = open_window(qtbot, tmp_path, session)
    turn = window.turn
    box = turn.extra
    assert box is not None and box.isVisible()
    # what Pebbles describes (tests/toy_ruleset.py's turn_box): its text, its table, its fields and buttons
    assert box.texts["pile"].text() == "Round 0: 0 digs so far."
    table = box.tables["pile"]
    assert [[table.item(r, c).text() for c in range(3)] for r in range(table.rowCount())] == [
        ["Ann", "Reds", "active"], ["Bob", "Blues", "active"], ["Cid", "Blues", "active"]]
    who = box.widgets["who"]
    assert box.notes["pile"].text() == "Ann finds a pebble on 4+: 50%"
    who.setCurrentIndex(who.findData(BOB))  # a choice the preview follows
    assert box.notes["pile"].text() == "Bob finds a pebble on 4+: 50%"
    # a procedure rolled with the players' dice, logged, and the box following the game
    turn.initiative_dice.setText("5")
    qtbot.mouseClick(box.buttons["dig"], Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == "" and turn.initiative_dice.text() == ""
    assert session.log[-1].text == "Bob digs: 5 — a pebble."
    assert box.texts["pile"].text() == "Round 0: 1 dig so far."
    assert who.currentData() == BOB  # the choice stays while it is offered
    # an action: refused in one line when nothing is typed, then done, and the typed words cleared
    qtbot.mouseClick(box.buttons["shout"], Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == "type what they shout first"
    box.widgets["words"].setText("duck!")
    qtbot.mouseClick(box.buttons["shout"], Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == "" and session.log[-1].text == "Bob shouts 'duck!'."
    assert box.widgets["words"].text() == ""
    # a knocked-out pebbler leaves the choices and the table says so
    session.edit_unit(BOB, {"status": "down"})
    assert who.findData(BOB) == -1 and table.item(1, 2).text() == "down"


@pytest.fixture
def recorded(pebbles, tmp_path) -> Any:
    """A pebble game recorded as the window records it: Ann knocks Bob out with a 6, digs up a pebble
    with a 5 (the turn box's procedure), and the players take Cid out of the game by hand (the form)."""
    from appmodel.game_session import AttackDraft
    from rules.ruleset import form_changes
    from tracker.unit_pose import UnitPose, UnitState

    session = pebble_session(tmp_path)
    assert {u.name for u in session.units()} == {"Ann", "Bob", "Cid"}
    path = tmp_path / "pebbles.sqlite"
    recorder = session.start_recording(path)
    poses = [UnitPose(u.unit_id, u.name, u.side, u.x_in, u.y_in, 1.0, 0.0, UnitState.SEEN, 0.0, 0.0)
             for u in session.units()]
    recorder.record_frame(0, 0.0, poses)
    session.apply_poses(poses, t_s=0.0)
    session.set_time(1.0)
    session.select_unit(ANN)
    session.set_attack(AttackDraft(ANN, "Pebble", (BOB,)))
    session.resolve_attack([6])
    dig = session.ruleset.turn_command(session.state, "dig", {"who": ANN})
    session.run_procedure(dig.kind, dig.run, [5])
    session.set_time(1.5)
    edited = form_changes(session.ruleset, session.ruleset.edit_form(session.state, CID), {"status": "removed", "moved_in": 0.0})
    session.edit_unit(CID, edited.unit)
    session.set_time(2.0)
    recorder.record_frame(1, 2.0, poses)
    live_log = [e.text for e in session.log]
    session.stop_recording()
    return path, live_log


def test_a_recorded_game_of_an_unknown_ruleset_replays_in_the_window(recorded, app, qtbot, tmp_path) -> None:
    from appmodel.replay_model import ReplayModel

    path, live_log = recorded
    replay = ReplayModel(path)
    try:
        assert replay.problems == []
        replay.seek(replay.duration_s)
        assert replay.session.ruleset.name == toy_ruleset.NAME
        assert replay.session.state.unit(BOB).status == "down"
        assert any("Ann throws a pebble at Bob" in text for text in live_log)
        assert any("Ann throws a pebble at Bob" in e.text for e in replay.session.log)
        window = open_window(qtbot, tmp_path, replay.session, replay=replay)
        assert window.timeline is not None and not window.attack.isEnabled()
        window.timeline.seek(0.5)  # before the throw
        assert roster_cells(window.roster, BOB)["Status"] == "active"
        box = window.turn.extra
        assert box is not None and box.texts["pile"].text() == "Round 0: 0 digs so far."
        window.timeline.seek(replay.duration_s)
        assert roster_cells(window.roster, BOB)["Status"] == "down"
        assert roster_cells(window.roster, CID)["Status"] == "removed"
        # the turn box follows the recording and, like the rest of a replay, changes nothing
        assert box.texts["pile"].text() == "Round 0: 1 dig so far." and not box.buttons["dig"].isEnabled()
    finally:
        replay.close()


def test_the_debrief_lists_an_unknown_rulesets_engagements_casualties_and_rolls(recorded, tmp_path) -> None:
    from fractions import Fraction

    from debrief.report import write_debrief_report
    from debrief_helpers import parse

    path, _ = recorded
    facts = write_debrief_report(path, tmp_path / "report.html")
    assert facts.ruleset == toy_ruleset.NAME
    [e] = facts.engagements
    assert (e.attacker_name, e.weapon, e.target_name, e.outcome.value) == ("Ann", "Pebble", "Bob", "killed")
    assert e.distance_in == pytest.approx(7.0) and e.measured == "base to base" and e.p_hit == pytest.approx(0.5)
    assert [(c.name, c.change, c.cause) for c in facts.casualties] == [("Bob", "down", "a pebble"),
                                                                        ("Cid", "removed", "set by hand")]
    # every roll with the odds the ruleset computes again from what was recorded (its recorded_rolls)
    rolls = [(r.label, r.faces, r.result, r.p_success) for _, r in facts.rolls()]
    assert rolls == [("pebble", (6,), "knocked out", Fraction(1, 2)), ("Ann digs", (5,), "a pebble", Fraction(1, 2))]
    rows = parse(tmp_path / "report.html").rows["engagements"]
    assert any("Ann" in " ".join(r) and "Bob" in " ".join(r) for r in rows[1:])
