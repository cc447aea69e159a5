"""Force on Force in the companion's panels (offscreen Qt, the real widgets), played as the market patrol
script plays it (rules/forceonforce/examples/patrol.py) so the results are the script's own: a fire
through the attack panel with the players' dice, the odds under the ruleset's words ("Wins", never
"kill"), the fireteams and their cohesion in the roster, a hand edit of a figure and its unit through
the real dialog, and the initiative test in the turn panel."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from gui.panels.attack_panel import RESOLVED_POINTER
from rules.forceonforce.examples import patrol
from gui_helpers import edit_in_dialog, scripted_records, show
from gui_helpers import session_before as scripted_session_before

ALPHA, BRAVO_1, BRAVO_4, CELL_1 = 10, 14, 17, 30


@pytest.fixture(scope="module")
def records() -> dict[str, Any]:
    """Each step of the scripted patrol, by title, with the state after it."""
    return scripted_records(patrol)


def session_before(title: str) -> GameSession:
    return scripted_session_before(patrol, "force-on-force", title)


@pytest.fixture
def app(qtbot):
    from gui.app import create_application

    return create_application()


def panels(qtbot, session: GameSession) -> tuple[Any, Any, Any, Any]:
    from gui.panels.log_panel import LogPanel
    from gui.panels.roster_panel import RosterPanel
    from gui.panels.attack_panel import AttackPanel
    from gui.panels.turn_panel import TurnPanel

    return show(qtbot, (AttackPanel(session), TurnPanel(session), RosterPanel(session), LogPanel(session)),
                width=900)


def log_text(session: GameSession) -> str:
    return "\n".join(e.text for e in session.log)


def test_alpha_fires_at_cell_1_with_the_players_dice_as_the_script_does(app, qtbot, records) -> None:
    from PySide6.QtCore import Qt

    from appmodel.overlays.shared import odds_items

    session = session_before("Alpha fires")
    attack, turn, _, _ = panels(qtbot, session)
    # Alpha activates from the turn panel (a Regular unit: no check, no dice)
    box = turn.extra
    box.widgets["unit"].setCurrentIndex(box.widgets["unit"].findData("Alpha"))
    qtbot.mouseClick(box.buttons["activate"], Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == "" and "Alpha activates (it may fire, not move" in log_text(session)

    session.select_unit(12)  # any of Alpha's figures names the fireteam
    assert attack.attacker.currentData() == ALPHA and attack.weapon.currentData() == "Fire"
    attack.set_target(CELL_1)
    shown = records["Alpha fires"].odds[0][0]  # the odds the script shows before its roll
    cells = attack.target_cells(CELL_1)
    assert cells["Target"] == "Cell 1 (5 figures)"
    assert cells["Wins"] == f"{float(shown.p_hit):.1%}" and "Kill" not in cells  # "wins the test", never "kill"
    assert attack.odds_rows() == [["Cell 1", label, f"{float(p):.1%} ({p})"] for label, p in shown.outcomes]
    assert "Shoppers (civilian)" in attack.geometry_label.text()  # who stands in the line of fire
    labels = [item.label for item in odds_items(session.snapshot())]
    assert labels == [f"wins {float(shown.p_hit):.0%}"]  # the table's odds label in the same words

    attack.entered.setChecked(True)
    form = attack.dice_form
    assert form.needed.label.endswith("Troop Quality of Alpha") and form.needed.sides == 8
    assert not form.enter("9")  # a D8 cannot show 9
    for typed in ("6", "3"):  # the script's dice: Alpha's D8, then Cell 1's D6
        assert form.enter(typed), form.status.text()
    cards = []
    attack.on_resolved.append(cards.append)
    qtbot.mouseClick(attack.resolve_button, Qt.MouseButton.LeftButton)
    # The card says whose win the odds were, never a bare "Cell 1: wins 43.8%".
    assert cards and cards[0].odds_before[0].startswith(f"The firing unit wins {float(shown.p_hit):.1%} against Cell 1")
    verdict = "Alpha fires at Cell 1: Alpha rolls D8 for Troop Quality: 6; Cell 1 rolls D6 for Troop Quality: 3. " \
              "Alpha wins (6 is 4+ and beats 3)."
    assert verdict in records["Alpha fires"].lines and verdict in log_text(session)
    # the outcome on the card; the message line only points there (it repeated the card's six sentences,
    # squeezing the setup above to four rows)
    assert any("apply the effect of this fire from the rulebook" in s for s in (cards[0].title, *cards[0].outcome))
    assert attack.message.text() == RESOLVED_POINTER
    fired = session.state.team("Alpha")
    assert fired.fired and fired == records["Alpha fires"].state.team("Alpha")


def test_a_fire_the_rules_forbid_is_listed_with_why_and_changes_nothing(app, qtbot) -> None:
    session = session_before("Friends in the way")
    attack, _, _, _ = panels(qtbot, session)
    session.select_unit(ALPHA)
    assert CELL_1 not in attack._rows  # Bravo is in the line: not proposed ...
    attack.show_all.setChecked(True)  # ... but listed with the reason when every unit is shown
    assert "friends in the line of fire: Bravo" in attack.target_cells(CELL_1)["Geometry"]
    attack.set_target(CELL_1)
    assert attack.target_cells(CELL_1)["Wins"] == "may not fire"
    before = session.state
    attack.resolve()
    assert session.state.team("Alpha") == before.team("Alpha")
    assert "Not allowed: Regulars may not fire with friends in the line of fire: Bravo (A.8)." in log_text(session)


def test_the_roster_lists_fireteams_and_flags_one_out_of_cohesion(app, qtbot, records) -> None:
    session = session_before("The squad leader joins Alpha")  # after Bravo moved and Bravo 4 lagged behind
    _, _, roster, _ = panels(qtbot, session)
    rows = {roster.groups_table.item(r, 0).text(): [roster.groups_table.item(r, c).text()
                                                     for c in range(roster.groups_table.columnCount())]
            for r in range(roster.groups_table.rowCount())}
    assert set(rows) >= {"Alpha", "Bravo", "Cell 1", "Cell 2", "Cell 3", "RPG team"}
    assert rows["Bravo"][2:4] == ["4 of 4", "OUT OF COHESION: Bravo 4 astray"]
    assert rows["Alpha"][3] == "in cohesion" and rows["Cell 1"][4] == "led by Abu Karim"
    assert rows["Cell 3"][3] == "off the table"  # reinforcements not arrived yet
    figure_rows = {roster.table.item(r, 0).text(): r for r in range(roster.table.rowCount())}
    fireteam = roster.columns.index("Fireteam")
    assert roster.table.item(figure_rows[str(BRAVO_4)], fireteam).text() == "Bravo"
    assert "straggler" in roster.table.item(figure_rows[str(BRAVO_4)], roster.columns.index("Tokens")).text()
    # Bravo 4 rejoins (the tracker moves the figure): the roster follows
    session.apply_rules(lambda state: session.ruleset.set_pose(state, BRAVO_4, 27.4, 26.0, 0.0), kind="poses")
    row = next(r for r in range(roster.groups_table.rowCount()) if roster.groups_table.item(r, 0).text() == "Bravo")
    assert roster.groups_table.item(row, 3).text() == "in cohesion"
    # clicking a fireteam selects its figure on the table
    roster.groups_table.selectRow(next(r for r in range(roster.groups_table.rowCount())
                                       if roster.groups_table.item(r, 0).text() == "Cell 1"))
    assert session.snapshot().selected_unit == CELL_1


def _edit_in_dialog(roster: Any, qtbot: Any, unit_id: int, fill: Callable[[Any], None]) -> None:
    """Select the figure, open its dialog as a player does (modal), fill it in, press OK."""
    edit_in_dialog(roster, unit_id, fill)


def test_a_figure_and_its_fireteam_are_edited_by_hand_in_the_dialog(app, qtbot) -> None:
    session = session_before("From the rooftop")
    _, _, roster, _ = panels(qtbot, session)

    def casualty_in_cover(dialog: Any) -> None:
        assert dialog.windowTitle() == "Edit Bravo 1" and dialog.sections[1].title() == "The unit: Bravo"
        status = dialog.widgets["status"]
        status.setCurrentIndex(status.findData("casualty"))  # the players' ruling after the RPG
        dialog.widgets["defensive"].setChecked(True)
        dialog.widgets["supplies"].setCurrentIndex(dialog.widgets["supplies"].findData("Abundant"))

    _edit_in_dialog(roster, qtbot, BRAVO_1, casualty_in_cover)
    assert roster.error_label.text() == ""
    state = session.state
    assert state.figure(BRAVO_1).status.value == "casualty"
    assert state.team("Bravo").defensive and state.team("Bravo").supplies == "Abundant"
    assert "Bravo 1: status casualty." in log_text(session)
    row = next(r for r in range(roster.groups_table.rowCount()) if roster.groups_table.item(r, 0).text() == "Bravo")
    assert roster.groups_table.item(row, 2).text() == "3 of 4"
    assert "defensive position" in roster.groups_table.item(row, 5).text()
    # a field the rules do not take is refused in one line, nothing changes
    roster.edit_selected(changes={"colour": "red"})
    assert roster.error_label.text().startswith("cannot edit 'colour' of a figure: edit one of status")


def test_the_turn_panel_shows_the_initiative_test_with_each_forces_dice(app, qtbot, records) -> None:
    from PySide6.QtCore import Qt

    from rules.forceonforce.initiative import initiative_odds, side_pools

    first = session_before("Turn 1")
    _, turn, _, _ = panels(qtbot, first)
    assert "no test" in turn.extra.texts["initiative"].text()  # the briefing gives the patrol the first turn
    qtbot.mouseClick(turn.roll_button, Qt.MouseButton.LeftButton)
    assert "US Army</b> holds the initiative (as the scenario says for the first turn)" in turn.extra.afters["initiative"].text()

    session = session_before("Turn 2 initiative")
    _, turn, _, _ = panels(qtbot, session)
    box = turn.extra
    odds = initiative_odds(side_pools(session.state), previous="US Army")
    text = box.texts["initiative"].text()
    assert "US Army</b> 3D8" in text and "Insurgents</b> 2D6" in text
    assert f"US Army {float(odds['US Army']):.1%}, Insurgents {float(odds['Insurgents']):.1%}" in text
    assert "initiative test of US Army, turn 2 (3D8)" in turn.next_roll.text()
    turn.initiative_dice.setText("[2 3 7] [4 6]")  # the script's dice: US Army's 3D8, then the insurgents' 2D6
    qtbot.mouseClick(turn.roll_button, Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == ""
    rows = [[box.tables["initiative"].item(r, c).text() for c in range(box.tables["initiative"].columnCount())] for r in range(box.tables["initiative"].rowCount())]
    assert [(r[0], r[1], r[3], r[4]) for r in rows] == [("US Army", "3D8", "2, 3, 7", "1"), ("Insurgents", "2D6", "4, 6", "2")]
    assert "+1 had initiative last turn" in rows[0][2] and "+1 outnumbers the opponent" in rows[1][2]
    assert "<b>Insurgents</b> holds the initiative (the test: 2 against 1 at 4+)" in box.afters["initiative"].text()
    assert session.state.initiative == records["Turn 2 initiative"].state.initiative == "Insurgents"
    assert turn.order_label.text() == "Insurgents → US Army"


def test_a_morale_test_from_the_turn_panel_uses_the_leaders_morale(app, qtbot, records) -> None:
    from PySide6.QtCore import Qt

    session = session_before("Bravo's morale")
    _, turn, _, _ = panels(qtbot, session)
    box = turn.extra
    box.widgets["unit"].setCurrentIndex(box.widgets["unit"].findData("Bravo"))
    box.widgets["test die"].setCurrentText("morale")
    assert "Bravo on D10 (Morale): passes 70.0% (7/10)" in box.notes["procedures"].text()  # Sgt. Hale's D10, not Bravo's D8
    turn.initiative_dice.setText("7")
    qtbot.mouseClick(box.buttons["roll test"], Qt.MouseButton.LeftButton)
    line = "Morale test (Bravo): Bravo rolls D10 for Morale: 7, 4+: passes."
    assert line in records["Bravo's morale"].lines and line in log_text(session)


def test_a_leader_joins_and_a_fireteam_splits_and_merges_from_the_turn_panel(app, qtbot, records) -> None:
    from PySide6.QtCore import Qt

    session = session_before("The squad leader joins Alpha")
    _, turn, _, _ = panels(qtbot, session)
    session.apply_rules(lambda state: session.ruleset.set_pose(state, patrol.HALE, 16.5, 21.0, 90.0), kind="poses")
    box = turn.extra
    box.widgets["unit"].setCurrentIndex(box.widgets["unit"].findData("Alpha"))
    box.widgets["leader"].setCurrentIndex(box.widgets["leader"].findData(patrol.HALE))
    qtbot.mouseClick(box.buttons["join"], Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == ""
    assert session.state.team("Alpha") == records["The squad leader joins Alpha"].state.team("Alpha")  # led, fire only

    session = session_before("Alpha splits")
    _, turn, _, _ = panels(qtbot, session)
    session.start_turn()
    box = turn.extra
    box.widgets["unit"].setCurrentIndex(box.widgets["unit"].findData("Alpha"))
    box.widgets["split figures"].setText("12 x")
    box.widgets["split name"].setText("Alpha Two")
    qtbot.mouseClick(box.buttons["split"], Qt.MouseButton.LeftButton)
    assert turn.error_label.text().startswith("figures '12 x': type the tags")
    box.widgets["split figures"].setText("12 13")
    qtbot.mouseClick(box.buttons["split"], Qt.MouseButton.LeftButton)
    assert turn.error_label.text() == ""
    split = session.state
    assert [f.figure_id for f in split.members("Alpha Two")] == [12, 13]
    assert "Alpha splits: Alpha 3, Alpha 4 form Alpha Two." in log_text(session)
    # merging is for the beginning of a turn: the rules refuse it now, in one line, and nothing changes
    box.widgets["unit"].setCurrentIndex(box.widgets["unit"].findData("Alpha"))
    box.widgets["merge with"].setCurrentIndex(box.widgets["merge with"].findData("Alpha Two"))
    qtbot.mouseClick(box.buttons["merge"], Qt.MouseButton.LeftButton)
    assert "Alpha Two cannot merge into Alpha" in turn.error_label.text()
    assert session.state.has_team("Alpha Two")
