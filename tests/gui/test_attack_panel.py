"""The attack panel resolves the rulebook's examples end to end, as players at the table would:
attacker, weapon, targets and declarations in the widgets, the odds shown, the dice typed in one by
one (each checked against its die), the result applied to the game state and logged in plain words."""
from __future__ import annotations

import os
from fractions import Fraction

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.errors import UsageError
from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples import in_depth
from rules.dice import SeededDice
from rules.ruleset import get_ruleset

ZBL, UTV, GUNNER, MAAWS = 40, 15, 11, 13


def session_before(section: str) -> GameSession:
    """A session in the state the in-depth example reaches just before ``section``."""
    steps = list(in_depth.STEPS)
    index = [s.section for s in steps].index(section)
    state = None
    for record in in_depth.play(steps[:index]):
        state = record.state
    # Seeded virtual dice: a rocket's natural 1 (a miss waiting for its landing point) must not depend on luck.
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(), dice=SeededDice(2))


@pytest.fixture
def panel(qtbot):
    from gui.panels.attack_panel import AttackPanel
    from gui.panels.log_panel import LogPanel

    session = session_before("6.5.1")
    panel = AttackPanel(session)
    log = LogPanel(session)
    qtbot.addWidget(panel)
    qtbot.addWidget(log)
    panel.log_panel = log
    return panel


def test_autocannon_against_the_utv_with_entered_dice_destroys_it(panel):
    session = panel.session
    session.select_unit(ZBL)
    assert panel.attacker.currentData() == ZBL
    panel.weapon.setCurrentIndex(panel.weapon.findData("Autocannon"))
    panel.declared.set_value("crew_assistants", 1)
    panel.set_target(UTV, shots=2)
    panel.set_target(GUNNER, shots=2, cover="partial")
    # the odds shown are the engine's exact odds for this attack (the example's 6.5.1 odds)
    record = next(r for r in in_depth.play() if r.step.section == "6.5.1")
    expected = {o.name: o for o in record.odds[0]}
    rows = {row[0]: row for row in panel.odds_rows()}
    assert set(rows) == set(expected)
    for name, o in expected.items():
        assert rows[name][1] == f"{float(o.p_hit):.1%}"
        assert rows[name][3].startswith(f"{float(o.p_kill_any):.1%}")
    # the players' dice, typed as the form asks for them
    panel.entered.setChecked(True)
    form = panel.dice_form
    assert "Skill" in form.needed.label and form.needed.count == 2  # an Advantage pair: both dice
    assert not form.enter("7 2")  # a d6 cannot show 7
    assert "d6 shows 1 to 6" in form.status.text()
    for typed in ("6 2", "4 1", "12", "8", "2", "6", "10"):
        assert form.enter(typed), form.status.text()
    assert form.complete
    panel.resolve()
    units = {u.unit_id: u for u in session.units()}
    assert units[UTV].status == "down"
    assert units[GUNNER].status == "down"
    text = "\n".join(panel.log_panel.lines())
    assert "UTV" in text and "destroyed" in text.lower()


def test_resolving_before_all_dice_are_entered_names_the_missing_roll(panel):
    session = panel.session
    session.select_unit(ZBL)
    panel.weapon.setCurrentIndex(panel.weapon.findData("Autocannon"))
    panel.set_target(UTV)
    panel.entered.setChecked(True)
    panel.resolve()
    assert "still needed" in panel.message.text() and "Skill" in panel.message.text()
    assert {u.unit_id: u for u in session.units()}[UTV].status == "active"


def test_virtual_dice_resolve_and_spend_ammunition(qtbot):
    from gui.panels.attack_panel import AttackPanel

    # Before 6.5 b the MAAWS gunner still has his Reaction (after it, the rules refuse a second one
    # before any die is rolled) and 4 rounds.
    session = session_before("6.5 b")
    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    session.select_unit(MAAWS)
    panel.set_target(ZBL)
    panel.declared.set_value("reaction", True)
    panel.resolve()
    assert "landing point" in panel.message.text()  # the seeded dice miss, as the text's rocket does
    session.choose_landing((44.0, 16.5))
    ammo = {w.name: w.ammo_left for w in session.ruleset.weapons(session.state, MAAWS)}
    assert ammo["Carl Gustaf / MAAWS"] == 3
    assert session.log, "the attack is logged"


def test_a_missed_rocket_waits_for_the_landing_point_inside_the_miss_radius():
    session = session_before("6.5 b")
    session.set_attack(AttackDraft(MAAWS, "Carl Gustaf / MAAWS", (ZBL,), {"reaction": True}))
    res = session.resolve_attack([1])  # the example's natural 1: an automatic failure
    assert res.pending and session.pending is not None
    miss = session.snapshot().miss
    assert miss.miss_radius_in == pytest.approx(9.0)  # (6 / 2) x (4 - 1)
    with pytest.raises(UsageError, match="lands within 9"):
        session.choose_landing((miss.intended_in[0] + 20, miss.intended_in[1]))
    session.choose_landing((44.0, 16.5))
    assert session.pending is None
    ammo = {w.name: w.ammo_left for w in session.ruleset.weapons(session.state, MAAWS)}
    assert ammo["Carl Gustaf / MAAWS"] == 3
    assert {u.unit_id: u for u in session.units()}[ZBL].status == "active"
    assert session.snapshot().miss.landed_in == (44.0, 16.5)


def test_odds_in_the_session_equal_the_engine_for_the_rulebook_rifle_shot():
    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH)
    session.set_attack(AttackDraft(10, "M4/M16", (31,)))
    odds = session.snapshot().odds
    assert (odds[0].p_hit, odds[0].p_kill) == (Fraction(8, 9), Fraction(8, 27))


def test_declared_darkness_cover_and_an_unaware_target_change_the_odds_shown(qtbot):
    from gui.panels.attack_panel import AttackPanel

    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1)
    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    session.select_unit(10)  # the sergeant's M4 at the automatic rifleman, 31" away
    panel.set_target(31)

    def hit() -> float:
        row = {r[0]: r for r in panel.odds_rows()}["Automatic rifleman"]
        return float(row[1].rstrip("%"))
    plain = hit()
    panel.set_target(31, darkness="partial")
    dark = hit()
    assert dark < plain  # partial darkness: Disadvantage (no NVGs)
    panel.set_target(31, darkness="table", unaware=True)
    assert hit() >= plain  # an unaware target: Advantage
    panel.set_target(31, unaware=False, cover="total")
    row = {r[0]: r for r in panel.odds_rows()}["Automatic rifleman"]
    assert row[1] == "not allowed" and "0.0%" not in row and "cover" in row[4]
    assert session.draft.target_declarations[31]["cover"] == "total"


def test_the_weapon_a_player_picked_stays_picked_when_the_game_changes(qtbot):
    from pathlib import Path

    from PySide6.QtWidgets import QApplication

    from gui.panels.attack_panel import AttackPanel

    session = GameSession.from_scenario_file(Path(__file__).parents[2] / "appmodel" / "scenarios" / "starter_skirmish.toml")
    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    kim = next(u.unit_id for u in session.units() if u.name == "PFC Kim")
    session.select_unit(kim)
    QApplication.processEvents()
    assert panel.weapon.currentData() == "M4/M16"
    panel.weapon.setCurrentIndex(panel.weapon.findData("Underbarrel grenade launcher"))
    QApplication.processEvents()
    someone_else = next(u.unit_id for u in session.units() if u.unit_id != kim)
    session.edit_unit(someone_else, {"injured": True})  # any change to the game refreshes the panel
    QApplication.processEvents()
    assert panel.weapon.currentData() == "Underbarrel grenade launcher"


def test_assisting_units_are_proposed_by_name_from_who_stands_within_reach(qtbot):
    from gui.panels.attack_panel import AttackPanel

    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1)
    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    session.select_unit(GUNNER)  # the mortar gunner, his assistant gunner on the same spot
    assistants = panel.declared.widgets["assistants"]
    names = {box.text(): uid for uid, box in assistants.boxes.items()}
    assert "Assistant gunner" in names and all(not t.isdigit() for t in names)  # names, never tag ids
    why = {c.label: c for c in session.ruleset.attack_form(session.state, GUNNER, panel.weapon.currentData())
           if c.key == "assistants" for c in c.proposals}
    assert why["Assistant gunner"].eligible and not why["Sergeant"].eligible
    assert "reach 1\"" in why["Sergeant"].reason  # too far to help, and the distance the rules allow
    panel.declared.set_value("assistants", (names["Assistant gunner"],))
    assert session.draft.declarations["assistants"] == (names["Assistant gunner"],)


def test_a_down_range_targets_other_declarations_are_in_the_box_of_the_target_picked(qtbot):
    from gui.panels.attack_panel import AttackPanel

    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1)
    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    session.select_unit(10)
    panel.set_target(31, shots=1, cover="partial")  # columns of the targets table
    assert panel.target_box.isVisibleTo(panel) and "Automatic rifleman" in panel.target_box.title()
    assert {"concealment", "darkness", "unaware", "head_on"} <= set(panel.target_form.widgets)
    panel.set_target(31, unaware=True)  # the box
    assert session.draft.target_declarations[31] == {"cover": "partial", "unaware": True}
