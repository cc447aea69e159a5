"""Every step of the rulebook's in-depth example (section 6), with the dice the text states.

The script (rules/downrange/examples/in_depth.py) plays the whole example; each row here checks one
step's outcome against what the text says (readings of its contradictions are in the steps' notes).
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from rules.downrange.command import information_reaches, voice_graph
from rules.downrange.examples.in_depth import (AR, ASSISTANT, AT, CORPSMAN, GUNNER, HORNET, MAAWS, OFFICER, R1, R2,
                                               R3, R4, R5, SERGEANT, STEPS, UTV, ZBL, StepRecord, play)
from rules.downrange.results import MedicalOutcome, ShotOutcome
from rules.downrange.state import Status
from rules.geometry import gap_in


@pytest.fixture(scope="module")
def records() -> dict[str, StepRecord]:
    return {r.step.section: r for r in play()}


def check_6_1(r: StepRecord) -> None:
    (init,) = r.initiatives
    assert [(x.side, x.d10) for x in init.rolls] == [("Marines", 5), ("PLA Marine Corps", 3)]
    assert r.state.active_side == "Marines"


def check_6_2_a(r: StepRecord) -> None:
    s = r.state
    assert s.unit(GUNNER).focused and s.unit(ASSISTANT).focused
    assert s.unit(MAAWS).action_used == "fill sandbags around the mortar position"


def check_6_2_b(r: StepRecord) -> None:
    s = r.state
    sgt, uas = s.unit(SERGEANT), s.unit(HORNET)
    assert sgt.emission is not None and sgt.emission.until_start_of == "Marines"
    assert sgt.focused == "piloting an RPV" and uas.operator == SERGEANT and uas.on_table
    assert uas.moved_in <= 24.0 and not any(e.warnings for e in s.events)


def check_6_2_c(r: StepRecord) -> None:
    s = r.state
    uas, officer = s.unit(HORNET), s.unit(OFFICER)
    assert 13.0 <= gap_in(uas.footprint, officer.footprint) <= 17.0  # "about 15 inches"
    assert 27.0 <= gap_in(s.unit(SERGEANT).footprint, officer.footprint) <= 33.0  # "about 30 inches"
    assert not any(u.side == "PLA Marine Corps" and "EW equipment" in u.equipment for u in s.units)
    assert s.unit(HORNET).operator == SERGEANT  # still piloted into the enemy turn (emission token stays)


def check_6_3_a(r: StepRecord) -> None:
    s = r.state
    troops = [s.unit(u) for u in (AT, R1, R2, R4, R5)]
    assert all(u.on_table and u.aboard is None and u.focused is None for u in troops)
    assert all(u.moved_in <= 8.0 for u in troops) and s.unit(ZBL).moved_in <= 36.0
    officer = s.unit(OFFICER)
    assert officer.moved_in == 0.0 and officer.action_used == "piloting an RPV"  # Focused: did not move
    assert officer.emission is not None and s.unit(41).operator == OFFICER
    assert not any(e.warnings for e in s.events)


def check_6_3_b(r: StepRecord) -> None:
    assert r.initiatives[0].order[0] == "Marines" and r.state.active_side == "Marines"


def check_6_4_1(r: StepRecord) -> None:
    s = r.state
    sgt = s.unit(SERGEANT)
    assert s.unit(HORNET).operator is None
    assert gap_in(sgt.footprint, s.unit(HORNET).footprint) < 1.0  # back at the sergeant's side
    assert sgt.emission is None  # his token ended at the start of his turn
    assert gap_in(sgt.footprint, s.unit(GUNNER).footprint) <= 8.0
    assert information_reaches(s, sgt, s.unit(GUNNER)) == (True, "passed by voice from Sergeant")


def check_6_4_2(r: StepRecord) -> None:
    (attack,) = r.attacks
    (odds,) = r.odds
    assert attack.radius_in == 12.0
    caught = {t.unit_id for t in attack.targets}
    assert caught == {OFFICER, AR, AT, R1, R2, ZBL}  # five soldiers, and the IFV
    assert all(o.p_hit == Fraction(1, 2) for o in odds)
    assert {o.unit_id: o.p_kill for o in odds} == {OFFICER: Fraction(29, 64), AR: Fraction(29, 64), AT: Fraction(29, 64),
                                                     R1: Fraction(29, 64), R2: Fraction(29, 64), ZBL: 0}
    assert attack.skill is not None and (attack.skill.kept, attack.skill.total, attack.skill.success) == (4, 5, True)
    assert attack.skill.mode == "normal"  # the targets moved and are not unaware
    by_id = {t.unit_id: t for t in attack.targets}
    assert not by_id[ZBL].shots[0].damage.can_damage  # 2d8 cannot hurt 2d10
    assert [by_id[u].shots[0].damage.damage_total for u in (OFFICER, AR, AT)] == [4, 4, 3]
    assert sorted(attack.killed) == [R1, R2]
    assert r.state.unit(R1).status is Status.DOWN and r.state.unit(OFFICER).status is Status.ACTIVE


def check_6_4_4_b(r: StepRecord) -> None:
    s = r.state
    assert s.unit(GUNNER).moved_in == 0.0 and s.unit(ASSISTANT).moved_in == 0.0
    assert s.unit(SERGEANT).reaction_ready and s.unit(CORPSMAN).reaction_ready
    assert 0 < s.unit(SERGEANT).moved_in <= 8.0 and 0 < s.unit(CORPSMAN).moved_in <= 8.0


def check_6_5_a(r: StepRecord) -> None:
    assert r.state.unit(ZBL).main_effort and r.state.unit(OFFICER).action_used == "designate Main Effort"


def check_6_5_b(r: StepRecord) -> None:
    (attack,) = r.attacks
    assert attack.reaction and attack.skill is not None and attack.skill.auto_failure
    assert attack.ammo_left == 3 and r.state.unit(MAAWS).weapon_state("Carl Gustaf / MAAWS").ammo_left == 3
    assert attack.miss is not None and attack.miss.miss_radius_in == 9.0 and attack.miss.chooser == "PLA Marine Corps"
    assert attack.killed == () and all(not t.shots for t in attack.targets)  # sails off harmlessly
    assert not r.state.unit(MAAWS).reaction_ready


def check_6_5_1(r: StepRecord) -> None:
    (attack,) = r.attacks
    (odds,) = r.odds
    utv, mortar = attack.targets
    assert [sh.skill.faces for sh in utv.shots] == [(6, 2), (4, 1)]
    assert [sh.skill.total for sh in utv.shots] == [7, 5]
    assert [sh.outcome for sh in utv.shots] == [ShotOutcome.HIT, ShotOutcome.MISS]  # (4, 1) keeps 4: no auto-failure
    assert utv.shots[0].damage.damage_total == 12 and utv.shots[0].damage.defense_total == 8 and utv.killed
    assert [sh.skill.mode for sh in mortar.shots] == ["normal", "normal"]  # Main Effort and cover cancel
    assert [sh.skill.total for sh in mortar.shots] == [3, 7] and mortar.killed
    assert sorted(mortar.went_down) == [GUNNER, ASSISTANT]  # the mortar team goes down together
    assert r.state.unit(UTV).status is Status.DOWN
    assert {o.unit_id: (o.p_hit, o.p_kill) for o in odds} == {
        UTV: (Fraction(5, 9), Fraction(695, 1728)), GUNNER: (Fraction(1, 3), Fraction(29, 96))}
    assert attack.axis_deg is not None  # both targets inside one 45-degree cone


def check_6_5_2(r: StepRecord) -> None:
    (attack,) = r.attacks
    assert attack.reaction and attack.killed == (AR,)
    (odds,) = r.odds
    assert (odds[0].p_hit, odds[0].p_kill) == (Fraction(2, 3), Fraction(2, 9))
    corpsman = r.state.unit(CORPSMAN)
    assert corpsman.sprinted and not corpsman.reaction_ready
    assert gap_in(corpsman.footprint, r.state.unit(UTV).footprint) < 1.0  # behind the wreck


def check_6_5_3(r: StepRecord) -> None:
    (attack,) = r.attacks
    assert attack.skill is not None and attack.skill.mode == "disadvantage" and attack.skill.kept == 2
    assert attack.miss is not None and attack.miss.miss_radius_in == 8.0 and attack.miss.chooser == "Marines"
    assert [(t.unit_id, t.shots[0].damage.damage_total) for t in attack.targets] == [(AT, 8), (R3, 7)]
    assert sorted(attack.killed) == [AT, R3]
    assert r.state.unit(SERGEANT).status is Status.ACTIVE and r.state.unit(CORPSMAN).status is Status.ACTIVE
    (odds,) = r.odds
    assert odds[0].p_hit == Fraction(1, 4) and odds[0].p_kill == Fraction(47, 200)


def check_6_5_3_d(r: StepRecord) -> None:
    s = r.state
    assert [s.unit(u).aboard for u in (R4, R5, OFFICER)] == [ZBL, ZBL, ZBL]
    assert not any(s.unit(u).on_table for u in (R4, R5, OFFICER))


def check_6_6_a(r: StepRecord) -> None:
    s = r.state
    assert s.unit(MAAWS).main_effort and s.unit(SERGEANT).action_used == "designate Main Effort"
    # The sergeant reaches the MAAWS gunner by voice, through the corpsman.
    assert MAAWS in voice_graph(s, "Marines").reachable_from(SERGEANT)


def check_6_6_b(r: StepRecord) -> None:
    (attack,) = r.attacks
    assert attack.skill is not None and attack.skill.faces == (6, 2) and attack.skill.kept == 6
    assert "Main Effort" in attack.skill.advantages
    zbl = attack.targets[0]
    assert (zbl.shots[0].damage.damage_total, zbl.shots[0].damage.defense_total) == (14, 13) and zbl.killed
    assert sorted(zbl.went_down) == sorted([ZBL, OFFICER, R4, R5])  # nobody had a bail-out Reaction
    assert attack.ammo_left == 2
    (odds,) = r.odds
    assert odds[0].p_hit == Fraction(3, 4) and odds[0].p_kill == Fraction(8001, 20000)


def check_6_6_c(r: StepRecord) -> None:
    s = r.state
    assert gap_in(s.unit(CORPSMAN).footprint, s.unit(GUNNER).footprint) <= 0.5


def check_6_6_1_a(r: StepRecord) -> None:
    (t,) = r.treatments
    assert t.skill.die == "1d8" and t.skill.total == 6 and t.outcome is MedicalOutcome.INJURED
    gunner = r.state.unit(GUNNER)
    assert gunner.status is Status.ACTIVE and gunner.injured and r.state.movement_in(gunner) == 4.0


def check_6_6_1_b(r: StepRecord) -> None:
    (t,) = r.treatments
    assert t.patient == ASSISTANT and t.skill.kept == 8 and t.skill.total == 9 and t.outcome is MedicalOutcome.RESTORED
    assert r.state.unit(ASSISTANT).status is Status.ACTIVE and not r.state.unit(ASSISTANT).injured


def check_6_6_1_c(r: StepRecord) -> None:
    sgt = r.state.unit(SERGEANT)
    assert sgt.emission is not None and sgt.emission.purpose == "other"


CHECKS: dict[str, Callable[[StepRecord], None]] = {
    "6.1": check_6_1, "6.2 a": check_6_2_a, "6.2 b": check_6_2_b, "6.2 c": check_6_2_c, "6.3 a": check_6_3_a,
    "6.3 b": check_6_3_b, "6.4.1": check_6_4_1, "6.4.2-6.4.4": check_6_4_2, "6.4.4 b": check_6_4_4_b,
    "6.5 a": check_6_5_a, "6.5 b": check_6_5_b, "6.5.1": check_6_5_1, "6.5.2": check_6_5_2, "6.5.3": check_6_5_3,
    "6.5.3 d": check_6_5_3_d, "6.6 a": check_6_6_a, "6.6 b": check_6_6_b, "6.6 c": check_6_6_c,
    "6.6.1 a": check_6_6_1_a, "6.6.1 b": check_6_6_1_b, "6.6.1 c": check_6_6_1_c,
}


def test_every_step_of_the_script_has_a_check() -> None:
    assert [s.section for s in STEPS] == list(CHECKS)


@pytest.mark.parametrize("section", list(CHECKS))
def test_in_depth_step_comes_out_as_the_text_says(records: dict[str, StepRecord], section: str) -> None:
    CHECKS[section](records[section])


def test_no_scripted_move_breaks_a_movement_or_focus_rule(records: dict[str, StepRecord]) -> None:
    final = records["6.6.1 c"].state
    assert [e.summary for e in final.events if e.warnings] == []


def test_the_whole_example_replays_from_its_saved_log(records: dict[str, StepRecord]) -> None:
    from rules.downrange.ruleset import DownRange
    from rules.downrange.state import GameState

    final = records["6.6.1 c"].state
    reloaded = GameState.loads(final.dumps())
    assert reloaded == final
    dr = DownRange()
    attack_events = [e for e in reloaded.events if e.kind == "attack"]
    assert len(attack_events) == 6
    # The debrief re-renders each attack from the recorded data alone.
    assert dr.explain(attack_events[0])[0] == "Mortar gunner fires the 60 mm mortar, with 1 assistant Focusing (+1)."


def test_each_attack_event_logs_every_die_in_the_order_rolled(records: dict[str, StepRecord]) -> None:
    final = records["6.6.1 c"].state
    autocannon = [e for e in final.events if e.kind == "attack"][2]
    assert autocannon.inputs["weapon"] == "Autocannon"
    assert [(r.faces, r.dice_total) for r in autocannon.rolls] == [
        ((6, 2), 8), ((4, 1), 5), (None, 12), (None, 8), ((2,), 2), ((6,), 6), (None, 10)]
    assert [r.label for r in autocannon.rolls][2:4] == ["Damage against UTV", "Defense of UTV"]


def test_keyframes_for_the_synthetic_table_follow_the_script() -> None:
    from rules.downrange.examples.in_depth import synthetic_keyframes

    frames = synthetic_keyframes(step_s=2.0)
    zbl = frames[ZBL]
    assert (zbl[0]["x_in"], zbl[0]["y_in"]) == (53.0, 25.0) and (zbl[1]["x_in"], zbl[1]["t_s"]) == (44.0, 10.0)
    assert frames[AT][0]["on_table"] is False and frames[AT][1]["on_table"] is True  # dismounts in 6.3
    assert ASSISTANT not in frames  # rides on the mortar gunner's token
    assert all(a["t_s"] < b["t_s"] for f in frames.values() for a, b in zip(f, f[1:]))
