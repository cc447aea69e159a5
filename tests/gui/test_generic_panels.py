"""The generic miniatures rules in the companion's panels (offscreen Qt, the real widgets), played as the
solo script plays it (rules/generic/examples/solo.py) so the results are the script's own: shots and a
close combat through the attack panel with the players' dice, the odds under the ruleset's words
("Caught", "Destroyed", "Wins round 1"), hidden counters, dummies and identification in the roster, a
hand edit through the real dialog, and the automation tables' decisions in the turn panel."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from gui.panels.attack_panel import RESOLVED_POINTER
from rules.generic.examples import solo
from gui_helpers import edit_in_dialog, scripted_records, show
from gui_helpers import session_before as scripted_session_before

I1, I2, M1 = solo.I1, solo.I2, solo.M1
T1, R1, G1, R3, R4, R5 = solo.T1, solo.R1, solo.G1, solo.R3, solo.R4, solo.R5


@pytest.fixture(scope="module")
def records() -> dict[str, Any]:
    return scripted_records(solo)


def session_before(title: str) -> GameSession:
    return scripted_session_before(solo, "generic", title)


@pytest.fixture
def app(qtbot):
    from gui.app import create_application

    return create_application()


def panels(qtbot, session: GameSession) -> tuple[Any, Any, Any]:
    from gui.panels.roster_panel import RosterPanel
    from gui.panels.attack_panel import AttackPanel
    from gui.panels.turn_panel import TurnPanel

    return show(qtbot, (AttackPanel(session), TurnPanel(session), RosterPanel(session)), width=1000)


def roll(attack: Any, qtbot: Any, *typed: str) -> None:
    """Type the players' dice one roll at a time, as the form asks for them, and press Resolve."""
    from PySide6.QtCore import Qt

    attack.entered.setChecked(True)
    for text in typed:
        assert attack.dice_form.enter(text), attack.dice_form.status.text()
    assert attack.dice_form.complete
    qtbot.mouseClick(attack.resolve_button, Qt.MouseButton.LeftButton)


def identity(roster: Any, unit_id: int) -> str:
    row = [u.unit_id for u in roster.session.units()].index(unit_id)
    return roster.table.item(row, roster.columns.index("Identity")).text()


def test_blue_shoots_identifies_and_fights_as_the_script_does(app, qtbot, records) -> None:
    from appmodel.overlays.shared import odds_items

    session = session_before("Rifle fire")
    attack, _, roster = panels(qtbot, session)

    # I1's rifles at the anonymous counter R1: Medium, 4+ to hit
    session.select_unit(I1)
    assert attack.weapon.currentData() == "Rifle"
    assert attack.target_cells(R1)["Geometry"] == "Medium: hits on 4+"
    attack.set_target(R1)
    shown = records["Rifle fire"].odds[0][0]
    cells = attack.target_cells(R1)
    assert (cells["Hit"], cells["Destroyed"]) == (f"{float(shown.p_hit):.1%}", f"{float(shown.p_kill):.1%}")
    # a rifle's shot hits or misses: "caught" is for an area of effect (the mortar's)
    assert [item.label for item in odds_items(session.snapshot())] == ["hit 50%  destroyed 0%"]
    cards: list[Any] = []
    attack.on_resolved.append(cards.append)
    roll(attack, qtbot, "5", "3")
    assert session.state.units == records["Rifle fire"].state.units  # R1 identified, Superficial Damage
    assert any("Undamaged -> Superficial Damage" in s for s in (cards[0].title, *cards[0].outcome))
    assert attack.message.text() == RESOLVED_POINTER  # one line: the card and the Log say the rest
    attack.on_resolved.remove(cards.append)

    # M1's mortar at T1 misses and scatters onto G1: every unit the shot can reach, with its odds
    session.select_unit(M1)
    attack.set_target(T1)
    expected = [[o.name, label, f"{float(p):.1%} ({p})" if 0 < p < 1 else f"{float(p):.0%}"]
                for o in records["Mortar miss"].odds[0] for label, p in o.outcomes]
    assert attack.odds_rows() == expected
    assert "Scatter reach: a miss lands within 6\"" in attack.geometry_label.text()
    roll(attack, qtbot, "2", "5", "3 6", "4 2")  # to hit, scatter distance, direction (row, column), G1's damage
    assert session.state.units == records["Mortar miss"].state.units
    scatter = [o for o in session.snapshot().overlays if o.kind == "scatter"]
    assert len(scatter) == 1 and (scatter[0].shape.bx_in, scatter[0].shape.by_in) == pytest.approx((35.0, 36.0))

    # the players identify the counter R4: a dummy, removed
    session.select_unit(R4)
    assert identity(roster, R4) == "hidden: counter only"
    roster.identify_selected()
    assert identity(roster, R4) == "dummy, found out"
    assert session.state.units == records["A dummy"].state.units

    # I2 attacks the adjacent R3 in close combat: two rounds with average dice
    session.select_unit(I2)
    attack.weapon.setCurrentIndex(attack.weapon.findData("Close combat"))
    attack.set_target(R3)
    cc = records["Close combat"].odds[0][0]
    cells = attack.target_cells(R3)
    assert (cells["Wins round 1"], cells["Destroyed"]) == (f"{float(cc.p_hit):.1%}", f"{float(cc.p_kill):.1%}")
    assert [row[1] for row in attack.odds_rows()] == [label for label, _ in cc.outcomes]
    roll(attack, qtbot, "5 2", "6 1")
    after = {u.unit_id: u for u in session.state.units}
    scripted = {u.unit_id: u for u in records["Close combat"].state.units}
    assert after[I2] == scripted[I2] and after[R3] == scripted[R3]  # both Superficially Damaged


def test_the_roster_shows_hidden_counters_without_giving_them_away(app, qtbot) -> None:
    session = session_before("Rifle fire")
    _, _, roster = panels(qtbot, session)
    row = [u.unit_id for u in session.units()].index(G1)
    cells = {c: roster.table.item(row, roster.columns.index(c)).text() for c in roster.columns}
    assert cells["Identity"] == "hidden: counter only" and cells["Type"] == "unidentified"
    assert cells["Weapons (ammo)"] == "" and cells["Move left"] == "?" and "shots" not in cells["Tokens"]
    assert identity(roster, I1) == ""  # known from the start


def _edit_in_dialog(roster: Any, unit_id: int, fill: Callable[[Any], None]) -> None:
    edit_in_dialog(roster, unit_id, fill)


def test_a_counter_is_edited_by_hand_in_the_dialog(app, qtbot) -> None:
    session = session_before("Rifle fire")
    _, _, roster = panels(qtbot, session)

    def spotted_and_hit(dialog: Any) -> None:
        assert dialog.windowTitle() == "Edit T1" and not dialog.widgets["identified"].isChecked()
        dialog.widgets["identified"].setChecked(True)  # the scouts report it
        dialog.widgets["status"].setCurrentText("Damaged")

    _edit_in_dialog(roster, T1, spotted_and_hit)
    assert roster.error_label.text() == ""
    t1 = session.state.unit(T1)
    assert t1.identified and session.state.status_name(t1) == "Damaged"
    assert identity(roster, T1) == "identified"
    row = [u.unit_id for u in session.units()].index(T1)
    assert roster.table.item(row, roster.columns.index("Type")).text() == "Light tank"
    assert "T1: status Damaged, identified True." in [e.text for e in session.log]

    def one_shot_used_off_the_table(dialog: Any) -> None:
        assert dialog.widgets["shots_left"].value() == 8
        dialog.widgets["shots_left"].setValue(7)

    _edit_in_dialog(roster, M1, one_shot_used_off_the_table)
    assert session.state.unit(M1).shots_left == 7
    row = [u.unit_id for u in session.units()].index(M1)
    assert roster.table.item(row, roster.columns.index("Weapons (ammo)")).text().startswith("Mortar (7)")


def test_the_turn_panel_shows_what_the_tables_decided_for_red(app, qtbot, records) -> None:
    from PySide6.QtCore import Qt

    session = session_before("The tables play Red")
    _, turn, _ = panels(qtbot, session)
    assert "Start turn asks first for does T1 move? (d6 <= 4)" in turn.next_roll.text()
    turn.initiative_dice.setText("3 [2 6] 2 [4 1] 1 6 1 [6 3] [3 3] [1 2] 6 5")  # the script's dice
    qtbot.mouseClick(turn.start_button, Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == ""
    assert session.state.units == records["The tables play Red"].state.units
    box = turn.extra
    assert "what the tables decided for <b>Red</b>" in box.texts["automation"].text()
    rows = {box.tables["automation"].item(r, 0).text(): [box.tables["automation"].item(r, c).text() for c in range(box.tables["automation"].columnCount())]
            for r in range(box.tables["automation"].rowCount())}
    route = "OfL Esy (2, 6): outflank left, by the easiest route (best going and cover), toward the objective"
    assert rows["T1"][1:] == ["yes: 3 <= 4", route, '9" at 267° to (29.6, 27.0)', "fires at I2, Short (always at this range)"]
    assert rows["R1"][4] == "holds fire at I1, Medium (6 > 5)"
    assert rows["G1"][1:3] == ["no: 1 > 0", ""] and rows["R3"][4] == "close combat with I2"
    assert rows["R5"][2].startswith("Rnd Dir (6, 3)") and "direction 3, 3; 1, 2" in rows["R5"][2]
    assert rows["R5"][4] == "—"  # a dummy never fires, and the panel does not say why
    # the suggested moves are on the table as arrows from where each unit stood
    arrows = {o.unit_ids[0]: o.shape for o in session.snapshot().overlays if o.kind == "automation move"}
    assert set(arrows) == {T1, R1, R5}
    assert (arrows[T1].bx_in, arrows[T1].by_in) == pytest.approx((29.6, 27.0), abs=0.05)


def test_the_main_window_gives_the_generic_rules_their_panels_and_ctrl_return_resolves(app, qtbot, tmp_path) -> None:
    from gui.main_window import MainWindow
    from gui.panels.attack_panel import AttackPanel
    from gui.settings import load_settings, open_store

    session = session_before("Rifle fire")
    store = open_store(tmp_path / "settings.ini")
    window = MainWindow(session, settings=load_settings(store), store=store)
    qtbot.addWidget(window)
    window.resize(1600, 960)
    window.show()
    assert isinstance(window.attack, AttackPanel)
    assert window.roster.identify_button.isVisible() and window.turn.roll_button.text().startswith("Start round")
    session.select_unit(I1)
    window.attack.set_target(R1)
    window.attack.entered.setChecked(True)
    for typed in ("5", "3"):
        assert window.attack.dice_form.enter(typed)
    window.actions_by_name["resolve"].trigger()  # Ctrl+Return
    assert session.state.status_name(session.state.unit(R1)) == "Superficial Damage"
