"""Down Range mechanics a player would check at the table: turns and tokens, Focus and Reactions,
movement, suppression, explosive payloads, vehicles, unmanned systems, command and signal, medicine,
falls, hazards and fire."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from rules.dice import Dice, EnteredDice, LowestDice
from rules.downrange import actions as A
from rules.downrange.attack import attack_odds, plan_attack, resolve_attack
from rules.downrange.command import information_reaches, is_jammed, most_senior_commander
from rules.downrange.declarations import AttackMode, AttackSetup, TargetSpec
from rules.downrange.environment import (fall_damage_dice, resolve_burning, resolve_crashes, resolve_fall,
                                         resolve_fire_spread, resolve_hazard)
from rules.downrange.medicine import resolve_treatment
from rules.downrange.results import MedicalOutcome
from rules.downrange.state import Compartment, Status
from rules.downrange.turns import movement_left_in, resolve_task, roll_initiative
from rules.downrange.unmanned import is_controlled
from rules.errors import IllegalActionError
from rules_helpers import game, unit


def start(state, *dice: int):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    """Roll initiative with the given d10s (in side order) and start the first turn."""
    state = state.apply(A.StartRound(roll_initiative(state, EnteredDice(list(dice)))))
    return state.apply(A.StartTurn())


def next_turn(state):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    state = state.apply(A.EndTurn())
    if state.turn_index + 1 >= len(state.order):
        state = state.apply(A.StartRound(roll_initiative(state, EnteredDice([9] + [1] * (len(state.sides) - 1)))))
    return state.apply(A.StartTurn())


def duel(**blue_fields):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    return game(unit(10, "Ann", "Blue", 0, 0, weapons=["M4/M16"], **blue_fields),
                unit(20, "Bo", "Red", 20, 0, weapons=["AK series"]))


# -- turns, initiative, one Move and one Action ------------------------------------------------------

def test_initiative_order_is_highest_first_and_rerolled_every_round() -> None:
    s = start(duel(), 3, 8)
    assert s.order == ("Red", "Blue") and s.active_side == "Red" and s.round == 1
    assert roll_initiative(s, EnteredDice([9, 2])).order == ("Blue", "Red")


def test_initiative_ties_are_rerolled_by_default_and_can_be_settled_otherwise() -> None:
    s = duel()
    tie = roll_initiative(s, EnteredDice([6, 6, 2, 5]))
    assert tie.order == ("Red", "Blue") and [r.rerolls for r in tie.rolls] == [(2,), (5,)]
    youngest = replace(s, options=replace(s.options, initiative_tie_break="youngest"),
                       sides=(replace(s.sides[0], age_rank=2), replace(s.sides[1], age_rank=1)))
    assert roll_initiative(youngest, EnteredDice([6, 6])).order == ("Red", "Blue")
    players = replace(s, options=replace(s.options, initiative_tie_break="players"))
    result = roll_initiative(players, EnteredDice([6, 6]))
    assert result.unresolved == ("Blue", "Red")
    with pytest.raises(IllegalActionError, match="the players settle it"):
        players.apply(A.StartRound(result))
    assert players.apply(A.StartRound(result, order=("Red", "Blue"))).order == ("Red", "Blue")


def test_enhanced_initiative_adds_a_d4_to_the_next_round_only() -> None:
    s = game(unit(10, "Captain", "Blue", 0, 0, commander=1), unit(11, "Lieutenant", "Blue", 2, 0, commander=2),
             unit(20, "Bo", "Red", 20, 0))
    s = start(s, 9, 1)
    with pytest.raises(IllegalActionError, match="most senior Commander"):
        s.apply(A.EnhanceInitiative(11))
    s = s.apply(A.EnhanceInitiative(10))
    result = roll_initiative(s, EnteredDice([4, 3, 5]))
    assert [(r.side, r.d10, r.d4, r.total) for r in result.rolls] == [("Blue", 4, 3, 7), ("Red", 5, None, 5)]
    s = s.apply(A.EndTurn()).apply(A.StartTurn()).apply(A.EndTurn()).apply(A.StartRound(result))
    assert not s.side("Blue").enhanced_initiative
    # The next most senior Commander inherits the role if the first is down.
    assert most_senior_commander(s.update_unit(10, status=Status.DOWN), "Blue").name == "Lieutenant"


def test_one_action_per_unit_per_turn_and_only_in_its_own_turn() -> None:
    s = start(duel(), 9, 1)
    s = s.apply(A.TakeAction(10, "talk"))
    with pytest.raises(IllegalActionError, match="already used its Action"):
        s.apply(A.TakeAction(10, "talk again"))
    with pytest.raises(IllegalActionError, match="it is Blue's turn"):
        s.apply(A.TakeAction(20, "act out of turn"))
    s = next_turn(s)
    assert s.active_side == "Red" and s.unit(10).action_used == "talk"  # spent until Blue's next turn
    s = next_turn(s)
    assert s.active_side == "Blue" and s.unit(10).action_used is None


def test_a_reaction_is_used_once_before_the_start_of_its_players_next_turn() -> None:
    s = start(duel(), 9, 1).apply(A.ReadyReaction(10))
    s = next_turn(s)  # Red's turn: Ann may react once
    setup = AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),), reaction=True)
    s = s.apply(A.RecordAttack(resolve_attack(s, setup, EnteredDice([2]))))
    with pytest.raises(IllegalActionError, match="no Reaction ready"):
        s.apply(A.RecordAttack(resolve_attack(s, setup, EnteredDice([2]))))
    unused = next_turn(start(duel(), 9, 1).apply(A.ReadyReaction(10)))
    assert unused.unit(10).reaction_ready
    assert not next_turn(unused).unit(10).reaction_ready  # expires at the start of Blue's next turn


def test_a_unit_that_moved_cannot_fire_a_focus_weapon_or_assist() -> None:
    s = game(unit(10, "Sniper", "Blue", 0, 0, weapons=["Sniper rifle"]), unit(11, "Spotter", "Blue", 0, 2),
             unit(20, "Bo", "Red", 40, 0))
    s = start(s, 9, 1).apply(A.SetPose(10, 1.0, 0.0, 0.0))
    plan = plan_attack(s, AttackSetup(10, "Sniper rifle", (TargetSpec(20),)))
    assert any("needs Focus" in p for p in plan.problems)
    with pytest.raises(IllegalActionError, match="needs Focus"):
        resolve_attack(s, AttackSetup(10, "Sniper rifle", (TargetSpec(20),)), EnteredDice([5]))


def test_a_focusing_unit_may_not_move_and_the_tracker_flags_it_when_it_does() -> None:
    s = start(duel(), 9, 1).apply(A.Focus(10, "set up the radio"))
    with pytest.raises(IllegalActionError, match="Focusing"):
        s.apply(A.MoveUnit(10, 3.0, 0.0))
    moved = s.apply(A.SetPose(10, 3.0, 0.0, 0.0))
    assert "a Focusing unit must not move" in moved.events[-1].summary


def test_a_reaction_that_needs_focus_requires_no_movement_since_the_units_last_turn() -> None:
    s = game(unit(10, "Gunner", "Blue", 0, 0, weapons=["M240"]), unit(20, "Bo", "Red", 30, 0))
    s = start(s, 9, 1).apply(A.SetPose(10, 1.0, 0.0, 0.0)).apply(A.ReadyReaction(10))
    s = next_turn(s)
    with pytest.raises(IllegalActionError, match="needs Focus"):
        resolve_attack(s, AttackSetup(10, "M240", (TargetSpec(20),), reaction=True), EnteredDice([5, 5]))


def test_sprinting_doubles_the_move_for_troops_only() -> None:
    s = game(unit(10, "Ann", "Blue", 0, 0), unit(11, "Jeep", "Blue", 0, 5, "Light tactical vehicle"),
             unit(20, "Bo", "Red", 40, 0))
    s = start(s, 9, 1).apply(A.Sprint(10))
    assert movement_left_in(s, s.unit(10)) == 16.0
    s = s.apply(A.MoveUnit(10, 15.0, 0.0))
    assert movement_left_in(s, s.unit(10)) == pytest.approx(1.0)
    with pytest.raises(IllegalActionError, match="vehicles cannot sprint"):
        s.apply(A.Sprint(11))


def test_movement_is_halved_once_whatever_the_number_of_reasons() -> None:
    s = duel(injured=True, overburdened=True)
    assert s.movement_in(s.unit(10)) == 4.0
    assert s.halving_reasons(s.unit(10)) == ("injured", "overburdened")


def test_tracked_vehicles_ignore_mud_and_road_vehicles_pay_double_off_road() -> None:
    s = game(unit(10, "Tank", "Blue", 0, 0, "Tank"), unit(11, "Car", "Blue", 0, 10, "Civilian car"),
             unit(12, "Ann", "Blue", 0, 20))
    from rules.downrange.turns import terrain_factor

    assert terrain_factor(s, s.unit(10), "mud") == 1.0 and terrain_factor(s, s.unit(11), "mud") == 2.0
    assert terrain_factor(s, s.unit(11), "off-road") == 2.0 and terrain_factor(s, s.unit(12), "off-road") == 1.0
    assert terrain_factor(s, s.unit(12), "climbing") == 2.0 and terrain_factor(s, s.unit(10), "climbing") == 1.0


def test_carrying_a_unit_halves_both_and_forbids_actions() -> None:
    s = game(unit(10, "Ann", "Blue", 0, 0, weapons=["M4/M16"]), unit(11, "Wounded", "Blue", 1.0, 0, status="down"),
             unit(20, "Bo", "Red", 20, 0))
    s = start(s, 9, 1).apply(A.Carry(10, 11))
    assert s.movement_in(s.unit(10)) == 4.0
    with pytest.raises(IllegalActionError, match="carrying a unit"):
        s.apply(A.RecordAttack(resolve_attack(s, AttackSetup(10, "M4/M16", (TargetSpec(20),)), EnteredDice([3, 3]))))
    s = s.apply(A.SetPose(10, 5.0, 0.0, 0.0))
    assert s.unit(11).x_in == 5.0  # the carried unit goes along
    assert s.apply(A.Carry(10, None)).unit(10).carrying is None


def test_assistance_is_capped_per_weapon() -> None:
    s = game(unit(10, "Rifleman", "Blue", 0, 0, weapons=["M4/M16"]), unit(11, "Helper", "Blue", 0, 2),
             unit(12, "Gunner", "Blue", 0, 4, weapons=["81 mm mortar"]), unit(13, "Crew 2", "Blue", 0, 6),
             unit(20, "Bo", "Red", 30, 0))
    assert any("gains nothing" in p for p in plan_attack(s, AttackSetup(10, "M4/M16", (TargetSpec(20),), assistants=(11,))).problems)
    mortar = attack_odds(s, AttackSetup(12, "81 mm mortar", (TargetSpec(20, stationary=False),), assistants=(11, 13)))
    assert mortar[0].p_hit == Fraction(1, 2)  # 1d6 + 2 against Difficulty 6


# -- suppression -----------------------------------------------------------------------------------

def test_suppression_needs_a_weapon_that_can_damage_the_target() -> None:
    s = game(unit(10, "Ann", "Blue", 0, 0, weapons=["Pistol", "Tank gun"]), unit(20, "Tank", "Red", 6, 0, "Tank"),
             unit(21, "Rifleman", "Red", 6, 4))
    pistol = plan_attack(s, AttackSetup(10, "Pistol", (TargetSpec(20),), mode=AttackMode.SUPPRESS))
    assert "cannot damage Tank" in pistol.targets[0].reason
    gun = plan_attack(s, AttackSetup(10, "Tank gun", (TargetSpec(21),), mode=AttackMode.SUPPRESS))
    assert gun.targets[0].allowed


def test_suppression_without_sight_needs_an_aim_point_within_6_inches() -> None:
    s = game(unit(10, "Gunner", "Blue", 0, 0, weapons=["M240"]), unit(20, "Hidden", "Red", 30, 0))
    unseen = (TargetSpec(20, line_of_sight=False),)
    assert not plan_attack(s, AttackSetup(10, "M240", unseen, mode=AttackMode.SUPPRESS)).targets[0].allowed
    near = plan_attack(s, AttackSetup(10, "M240", unseen, mode=AttackMode.SUPPRESS, aim_x_in=25.0, aim_y_in=0.0))
    assert near.targets[0].allowed
    far = plan_attack(s, AttackSetup(10, "M240", unseen, mode=AttackMode.SUPPRESS, aim_x_in=22.0, aim_y_in=0.0))
    assert not far.targets[0].allowed


def test_a_fan_suppresses_at_most_fan_units_and_a_rifle_one() -> None:
    targets = tuple(unit(20 + i, f"R{i}", "Red", 30, -4 + 2 * i) for i in range(5))
    s = game(unit(10, "SAW gunner", "Blue", 0, 0, weapons=["M249 SAW", "M4/M16"]), *targets)
    three = tuple(TargetSpec(20 + i, stationary=False) for i in range(3))
    assert any("at most 2" in p for p in plan_attack(s, AttackSetup(10, "M249 SAW", three, mode=AttackMode.SUPPRESS)).problems)
    assert any("at most 1" in p for p in plan_attack(s, AttackSetup(10, "M4/M16", three[:2], mode=AttackMode.SUPPRESS)).problems)
    sup = resolve_attack(s, AttackSetup(10, "M249 SAW", three[:2], mode=AttackMode.SUPPRESS), EnteredDice([1]))
    assert sup.suppressed == () and sup.skill is not None and sup.skill.auto_failure


def test_an_explosive_suppresses_every_enemy_in_its_radius_with_one_roll() -> None:
    s = game(unit(10, "Mortar", "Blue", 0, 0, weapons=["60 mm mortar"]), unit(20, "A", "Red", 40, 0),
             unit(21, "B", "Red", 43, 2), unit(22, "C", "Red", 60, 0))
    r = resolve_attack(s, AttackSetup(10, "60 mm mortar", (), mode=AttackMode.SUPPRESS, aim_x_in=41.0, aim_y_in=0.0),
                       EnteredDice([5]))
    assert sorted(r.suppressed) == [20, 21]
    after = s.apply(A.RecordAttack(r))
    assert after.unit(20).suppressed[0].until_start_of == "Blue"


# -- explosives: payloads and who chooses ------------------------------------------------------------

def test_smoke_lasts_until_the_end_of_the_creators_next_turn_and_blocks_sight() -> None:
    s = game(unit(10, "Ann", "Blue", 0, 0, weapons=["Underbarrel grenade launcher", "M4/M16"]),
             unit(20, "Bo", "Red", 25, 0, weapons=["AK series"]))
    s = start(s, 9, 1)
    smoke = resolve_attack(s, AttackSetup(10, "Underbarrel grenade launcher", (), aim_x_in=15.0, aim_y_in=0.0,
                                          payload="smoke"), EnteredDice([5]))
    assert smoke.area is not None and smoke.area.radius_in == 8.0 and smoke.targets == ()
    s = s.apply(A.RecordAttack(smoke))
    through = plan_attack(s, AttackSetup(20, "AK series", (TargetSpec(10),)))
    assert "smoke blocks the line of sight" in through.targets[0].reason
    s = next_turn(s)   # Red
    s = next_turn(s)   # Blue's next turn
    assert len(s.areas) == 1
    s = s.apply(A.EndTurn())
    assert s.areas == ()


def test_illumination_removes_the_darkness_disadvantage_for_units_inside() -> None:
    s = game(unit(10, "Ann", "Blue", 0, 0, weapons=["M4/M16", "60 mm mortar"]), unit(20, "Bo", "Red", 30, 0),
             rules={"lighting": "partial darkness"})
    dark = attack_odds(s, AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),)))[0]
    assert "poor illumination" in dark.disadvantages
    flare = resolve_attack(s, AttackSetup(10, "60 mm mortar", (), aim_x_in=30.0, aim_y_in=0.0, payload="illumination"),
                           EnteredDice([6]))
    lit = s.apply(A.RecordAttack(flare))
    assert attack_odds(lit, AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),)))[0].disadvantages == ()
    nvg = game(unit(10, "Ann", "Blue", 0, 0, weapons=["M4/M16"], equipment=["NVGs"]), unit(20, "Bo", "Red", 30, 0),
               rules={"lighting": "partial darkness"})
    assert attack_odds(nvg, AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),)))[0].disadvantages == ()
    pitch = game(unit(10, "Ann", "Blue", 0, 0, weapons=["M4/M16"], equipment=["NVGs"]), unit(20, "Bo", "Red", 30, 0),
                 rules={"lighting": "pitch black"})
    assert not attack_odds(pitch, AttackSetup(10, "M4/M16", (TargetSpec(20),)))[0].allowed


def test_a_miss_with_nobody_in_the_intended_radius_is_placed_by_the_opponent() -> None:
    s = game(unit(10, "Ann", "Blue", 0, 0, weapons=["Hand grenade"]), unit(20, "Bo", "Red", 30, 0))
    r = resolve_attack(s, AttackSetup(10, "Hand grenade", (), aim_x_in=6.0, aim_y_in=0.0), EnteredDice([2]))
    assert r.miss is not None and r.miss.chooser == "Red" and r.miss.miss_radius_in == 2.0
    with pytest.raises(IllegalActionError, match="beyond the miss radius"):
        from rules.downrange.attack import resolve_landing

        resolve_landing(s, AttackSetup(10, "Hand grenade", (), aim_x_in=6.0, aim_y_in=0.0), r, (6.0, 3.0), EnteredDice([]))
    with pytest.raises(IllegalActionError, match="choose where"):
        s.apply(A.RecordAttack(r))


# -- vehicles -----------------------------------------------------------------------------------------

def _truck_game():  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    return game(unit(10, "Truck", "Red", 20, 0, "Military truck"),
                unit(11, "Driver's mate", "Red", 0, 30), unit(12, "Passenger", "Red", 0, 32),
                unit(30, "Gunner", "Blue", 0, 0, weapons=["Tank gun"]))


def test_passengers_die_with_their_vehicle_unless_they_readied_a_bail_out() -> None:
    s = _truck_game().update_unit(11, aboard=10, on_table=False).update_unit(12, aboard=10, on_table=False, reaction_ready=True)
    r = resolve_attack(s, AttackSetup(30, "Tank gun", (TargetSpec(10),)), EnteredDice([[6, 5], 30, 5]))
    assert r.killed == (10,)
    after = s.apply(A.RecordAttack(r))
    assert after.unit(11).status is Status.DOWN
    bailed = after.unit(12)
    assert bailed.status is Status.ACTIVE and bailed.on_table and bailed.aboard is None and not bailed.reaction_ready


def test_occupants_are_attacked_through_the_vehicle_unless_exposed() -> None:
    s = _truck_game()
    s = s.update_unit(11, aboard=10, on_table=False, compartment=Compartment.ENCLOSED)
    s = s.update_unit(12, aboard=10, on_table=False, compartment=Compartment.OPEN)
    s = s.update_unit(30, weapons=(replace(s.unit(30).weapons[0], name="M4/M16"),))
    enclosed = plan_attack(s, AttackSetup(30, "M4/M16", (TargetSpec(11),)))
    assert "attack the vehicle" in enclosed.targets[0].reason
    open_ = attack_odds(s, AttackSetup(30, "M4/M16", (TargetSpec(12, stationary=False),)))[0]
    assert open_.allowed and open_.disadvantages == ("target rides in an open compartment",)


def test_boarding_beyond_capacity_needs_agreement_and_overloads() -> None:
    riders = [unit(11 + i, f"Rider {i}", "Blue", 0.0, 1.5) for i in range(4)]
    s = start(game(unit(10, "UTV", "Blue", 0, 0, "UTV"), *riders), 9)
    for i in range(3):
        s = s.apply(A.Board(11 + i, 10))
    with pytest.raises(IllegalActionError, match="overloading needs the players' agreement"):
        s.apply(A.Board(14, 10))
    s = s.apply(A.Board(14, 10, compartment=Compartment.OPEN, overload=True))
    assert s.unit(10).overloaded and s.movement_in(s.unit(10)) == 18.0


def test_a_crewed_vehicle_fires_each_weapon_once_per_turn() -> None:
    s = game(unit(10, "IFV", "Red", 0, 0, "Armored reconnaissance / IFV / AFV"), unit(20, "A", "Blue", 30, 0))
    s = start(s, 9, 1)
    r = resolve_attack(s, AttackSetup(10, "Autocannon", (TargetSpec(20, stationary=False),)), EnteredDice([1]))
    s = s.apply(A.RecordAttack(r))
    again = plan_attack(s, AttackSetup(10, "Autocannon", (TargetSpec(20),)))
    assert any("once per turn" in p for p in again.problems)


def test_linked_weapons_make_one_full_attack_each() -> None:
    s = game(unit(10, "Gunship", "Red", 0, 0, "Attack helicopter", weapons=["M240", "M240"]),
             unit(20, "A", "Blue", 30, 0))
    r = resolve_attack(s, AttackSetup(10, "M240", (TargetSpec(20, shots=2, stationary=False),), linked=2),
                       EnteredDice([6, 6, 1, 5]))
    shots = r.targets[0].shots
    assert len(shots) == 2 and shots[0].damage.damage_auto_failure and r.targets[0].killed


# -- unmanned systems -------------------------------------------------------------------------------------

def test_an_armed_rpv_attacks_with_its_operators_skill_only_while_piloted() -> None:
    s = game(unit(10, "Operator", "Blue", 0, 0, equipment=["radio"], skill="1d8"),
             unit(11, "Drone", "Blue", 0, 0, "Small UAS", on_table=False),
             unit(20, "Bo", "Red", 10, 10))
    s = start(s, 9, 1)
    idle = plan_attack(s, AttackSetup(11, "UAS grenade", (TargetSpec(20),)))
    assert any("not being piloted" in p for p in idle.problems)
    s = s.apply(A.ControlRpv(10, 11, launch=True)).apply(A.SetPose(11, 10.0, 10.5, 0.0))
    assert is_controlled(s, s.unit(11)) and s.unit(10).focused and s.unit(10).emission is not None
    plan = plan_attack(s, AttackSetup(11, "UAS grenade", (TargetSpec(20),)))
    assert not plan.problems and plan.skill_die == Dice.parse("1d8")
    s = s.apply(A.ReleaseRpv(10))
    assert not is_controlled(s, s.unit(11)) and (s.unit(11).x_in, s.unit(11).y_in) == (s.unit(11).launch_x_in, s.unit(11).launch_y_in)


def test_jamming_crashes_enemy_drones_and_cuts_radios_within_36_inches() -> None:
    s = game(unit(10, "EW operator", "Red", 0, 0, equipment=["EW equipment"]),
             unit(20, "Pilot", "Blue", 60, 0, equipment=["radio"]), unit(21, "Drone", "Blue", 30, 0, "Small UAS", operator=20),
             unit(22, "Ground robot", "Blue", 30, 10, "UGV"), unit(23, "Far radio", "Blue", 37.1, 10, equipment=["radio"]),
             unit(24, "Near radio", "Blue", 20, 0, equipment=["radio"]))
    s = start(s, 1, 9)  # Blue first
    s = s.apply(A.ControlRpv(20, 21))
    s = next_turn(s).apply(A.Jam(10))
    assert s.unit(21).falling  # flying RPV comes down: its crash is rolled like an aircraft's (2.9.1)
    s, _ = resolve_crashes(s, EnteredDice([8]))
    assert s.unit(21).status is Status.DOWN
    assert s.unit(22).status is Status.ACTIVE  # autonomous, not remote: unaffected
    assert is_jammed(s, s.unit(24)) and not is_jammed(s, s.unit(23)) and not is_jammed(s, s.unit(20))
    blue = s.apply(A.EndTurn()).apply(A.StartRound(roll_initiative(s, EnteredDice([1, 9])))).apply(A.StartTurn())
    assert blue.active_side == "Blue" and blue.unit(10).emission is not None  # jamming lasts with its token
    with pytest.raises(IllegalActionError, match="jammed"):
        blue.apply(A.Signal(24))


def test_sigint_finds_every_emitting_enemy() -> None:
    s = game(unit(10, "EW operator", "Red", 0, 0, equipment=["EW equipment"]),
             unit(20, "Talker", "Blue", 60, 40, equipment=["radio"]), unit(21, "Quiet", "Blue", 5, 5, equipment=["radio"]))
    s = start(s, 1, 9).apply(A.Signal(20))
    s = next_turn(s).apply(A.Sigint(10, share=True))
    assert s.events[-1].outcome["found"] == [20]
    assert s.unit(10).emission is not None and s.unit(10).emission.purpose == "sigint share"


def test_fires_observation_gives_every_friendly_attacker_advantage_until_the_observers_next_turn() -> None:
    s = game(unit(10, "Observer", "Blue", 0, 0, equipment=["radio"]), unit(11, "Rifleman", "Blue", 0, 5, weapons=["M4/M16"]),
             unit(20, "Bo", "Red", 30, 0))
    s = start(s, 9, 1).apply(A.ObserveFires(10, target_unit=20))
    odds = attack_odds(s, AttackSetup(11, "M4/M16", (TargetSpec(20, stationary=False),)))[0]
    assert odds.advantages == ("fires observation on the target",)
    s = next_turn(next_turn(s))
    assert s.observations == ()


def test_main_effort_beyond_the_voice_chain_needs_a_radio_signal() -> None:
    s = game(unit(10, "Captain", "Blue", 0, 0, commander=1, equipment=["radio"]),
             unit(11, "Far squad", "Blue", 40, 0, equipment=["radio"]), unit(20, "Bo", "Red", 60, 30))
    s = start(s, 9, 1).apply(A.DesignateMainEffort(10, 11))
    assert s.unit(10).emission is not None and s.unit(11).main_effort
    quiet = game(unit(10, "Captain", "Blue", 0, 0, commander=1), unit(11, "Far squad", "Blue", 40, 0),
                 unit(20, "Bo", "Red", 60, 30))
    with pytest.raises(IllegalActionError, match="no radio"):
        start(quiet, 9, 1).apply(A.DesignateMainEffort(10, 11))


@pytest.mark.parametrize("rules", [{}, {"main_effort_limit": "per player"}])
def test_one_main_effort_per_player_per_turn_by_default(rules: dict) -> None:
    s = game(unit(10, "Captain", "Blue", 0, 0, commander=1), unit(11, "Lieutenant", "Blue", 2, 0, commander=2),
             unit(12, "A", "Blue", 4, 0), unit(13, "B", "Blue", 6, 0), unit(20, "Bo", "Red", 60, 30),
             rules=rules)
    s = start(s, 9, 1).apply(A.DesignateMainEffort(10, 12))
    with pytest.raises(IllegalActionError, match="per player"):
        s.apply(A.DesignateMainEffort(11, 13))


def test_one_main_effort_per_commander_per_turn_is_an_option() -> None:
    s = game(unit(10, "Captain", "Blue", 0, 0, commander=1), unit(11, "Lieutenant", "Blue", 2, 0, commander=2),
             unit(12, "A", "Blue", 4, 0), unit(13, "B", "Blue", 6, 0), unit(20, "Bo", "Red", 60, 30),
             rules={"main_effort_limit": "per commander"})
    s = start(s, 9, 1).apply(A.DesignateMainEffort(10, 12)).apply(A.DesignateMainEffort(11, 13))
    assert s.unit(12).main_effort and s.unit(13).main_effort


def test_situational_awareness_needs_an_indirect_weapon_for_unseen_targets() -> None:
    s = game(unit(10, "Observer", "Blue", 0, 0, equipment=["radio"]),
             unit(11, "Rifleman", "Blue", 30, 0, equipment=["radio"], weapons=["M4/M16"]),
             unit(20, "Bo", "Red", 45, 0))
    s = s.apply(A.Signal(10))
    assert information_reaches(s, s.unit(10), s.unit(11)) == (True, "situational awareness by radio from Observer")
    plan = plan_attack(s, AttackSetup(11, "M4/M16", (TargetSpec(20, line_of_sight=False, spotter=10),)))
    assert "cannot plausibly hit" in plan.targets[0].reason


# -- medicine, repair, falls, hazards, fire ------------------------------------------------------------

@pytest.mark.parametrize("roll, outcome, status", [
    (1, MedicalOutcome.REMOVED, Status.REMOVED), (3, MedicalOutcome.REMOVED, Status.REMOVED),
    (4, MedicalOutcome.NO_EFFECT, Status.DOWN), (5, MedicalOutcome.NO_EFFECT, Status.DOWN),
    (6, MedicalOutcome.INJURED, Status.ACTIVE), (8, MedicalOutcome.INJURED, Status.ACTIVE),
])
def test_table_2_2_reads_the_medics_roll(roll: int, outcome: MedicalOutcome, status: Status) -> None:
    s = game(unit(10, "Medic", "Blue", 0, 0, "specialist combatant", specialty="medicine", equipment=["medical kit"]),
             unit(11, "Patient", "Blue", 1.0, 0, status="down"))
    r = resolve_treatment(s, 10, 11, EnteredDice([roll]))
    assert r.outcome is outcome and s.apply(A.RecordTreatment(r)).unit(11).status is status


def test_an_automatic_failure_in_surgery_kills_the_patient_even_with_help() -> None:
    s = game(unit(10, "Medic", "Blue", 0, 0, equipment=["medical kit"]), unit(12, "Helper", "Blue", 0, -1.2),
             unit(11, "Patient", "Blue", 1.0, 0, status="down"))
    r = resolve_treatment(s, 10, 11, LowestDice(), assistants=(12,))
    assert r.skill.auto_failure and r.outcome is MedicalOutcome.REMOVED


def test_treatment_needs_a_medical_kit_and_touching_the_patient() -> None:
    s = game(unit(10, "Medic", "Blue", 0, 0), unit(11, "Patient", "Blue", 1.0, 0, status="down"),
             unit(12, "Kit bearer", "Blue", 5, 0, equipment=["medical kit"]))
    with pytest.raises(IllegalActionError, match="has no medical kit"):
        resolve_treatment(s, 10, 11, EnteredDice([9]))
    with pytest.raises(IllegalActionError, match="must be touching"):
        resolve_treatment(s, 12, 11, EnteredDice([9]))


def test_vehicles_are_repaired_on_the_same_table_with_tools() -> None:
    s = game(unit(10, "Mechanic", "Blue", 0, 0, equipment=["repair tools"]),
             unit(11, "Jeep", "Blue", 2.3, 0, "Light tactical vehicle", status="down"))
    r = resolve_treatment(s, 10, 11, EnteredDice([6]))
    assert r.repair and r.outcome is MedicalOutcome.INJURED
    after = s.apply(A.RecordTreatment(r)).unit(11)
    assert after.status is Status.ACTIVE and after.injured and "damaged" in after.tokens()


def test_non_attack_actions_roll_against_table_2_1() -> None:
    s = game(unit(10, "Signaller", "Blue", 0, 0), unit(11, "Helper", "Blue", 0, 1.5))
    r = resolve_task(s, 10, 5, EnteredDice([4]), task="setting up secure communications", assistants=(11,))
    assert r.skill.total == 5 and r.skill.success
    assert [d.value for d in s.catalog.difficulties if any("secure communications" in e for e in d.examples)] == [5]


@pytest.mark.parametrize("defense, distance, dice", [
    ("1d8", 16, "2d8"), ("4", 8, "1d8"), ("4", 0.5, "1d8"), ("1d4", 25, "3d6"), ("2d10", 30, "3d10"), ("3", 10, "1d8"),
    ("3", 10.01, "2d8"),
])
def test_falls_roll_a_die_per_10_inches_of_the_defense_type(defense: str, distance: float, dice: str) -> None:
    assert str(fall_damage_dice(Dice.parse(defense), distance)) == dice


def test_a_fall_is_rolled_against_defense() -> None:
    s = game(unit(10, "Climber", "Blue", 0, 0))
    r = resolve_fall(s, 10, 8, EnteredDice([5]))
    assert r.damages[0].roll.killed and str(r.damages[0].roll.damage) == "1d8"


def test_a_disabling_hazard_disables_instead_of_killing() -> None:
    s = game(unit(10, "A", "Blue", 0, 0), unit(11, "B", "Blue", 5, 0, equipment=["body armor"]))
    r = resolve_hazard(s, "tear gas", [10, 11], EnteredDice([4, 4]))
    after = s.apply(A.RecordDamage(r))
    assert after.unit(10).disabled and after.unit(10).status is Status.ACTIVE and not after.unit(11).disabled
    nerve = resolve_hazard(s, "nerve gas", [10], EnteredDice([7]))
    assert s.apply(A.RecordDamage(nerve)).unit(10).status is Status.DOWN


def test_fire_spreads_burns_and_is_put_out_by_stopping_dropping_and_rolling() -> None:
    s = game(unit(10, "Burning truck", "Red", 0, 0, "Military truck", flammable=True),
             unit(11, "Soldier", "Red", 3.0, 2.0, flammable=True), unit(12, "Far soldier", "Red", 20, 0, flammable=True))
    spread = resolve_fire_spread(s, EnteredDice([3, 1]), source_unit=10)
    assert spread.spread_in == 3 and spread.ignited == (11,)
    s = s.apply(A.RecordDamage(spread))
    assert s.unit(11).on_fire and not s.unit(12).on_fire
    burn = resolve_burning(s, 11, EnteredDice([2]))
    s = s.apply(A.RecordDamage(burn))
    assert s.unit(11).status is Status.ACTIVE
    s = start(s, 5).apply(A.Extinguish(11))
    assert not s.unit(11).on_fire and s.unit(11).focused


def test_the_start_of_a_turn_burns_the_players_burning_units() -> None:
    from rules.downrange.ruleset import DownRange

    s = game(unit(10, "Torch", "Blue", 0, 0), unit(20, "Bo", "Red", 10, 0)).update_unit(10, on_fire=True)
    dr = DownRange()
    s = dr.start_round(s, EnteredDice([9, 1])).state
    res = dr.start_turn(s, EnteredDice([5]))
    assert res.state.unit(10).status is Status.DOWN and "Fire" in res.sentences[1]


def test_a_reaction_resolved_first_can_stop_the_action_that_triggered_it() -> None:
    s = game(unit(10, "Ann", "Blue", 0, 0, weapons=["M4/M16"]), unit(20, "Bo", "Red", 20, 0, weapons=["AK series"]))
    s = start(s, 9, 1).apply(A.ReadyReaction(10))
    s = next_turn(s)  # Bo's turn: he takes aim at Ann, who reacts first
    reaction = resolve_attack(s, AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),), reaction=True),
                              EnteredDice([5, 6]))
    s = s.apply(A.RecordAttack(reaction))
    blocked = plan_attack(s, AttackSetup(20, "AK series", (TargetSpec(10),)))
    assert blocked.problems == ("Bo is down and cannot attack",)


def test_a_gun_team_on_one_token_moves_together_and_goes_down_together() -> None:
    s = game(unit(10, "Gunner", "Blue", 0, 0, team="mortar"), unit(11, "Loader", "Blue", 0, 0, team="mortar"),
             unit(12, "Tagged member", "Blue", 3, 0, team="mortar"),
             unit(20, "Bo", "Red", 20, 0, weapons=["AK series"]))
    s = s.apply(A.SetPose(10, 1.0, 1.0, 0.0))
    assert (s.unit(11).x_in, s.unit(11).y_in) == (1.0, 1.0) and s.unit(12).x_in == 3.0
    r = resolve_attack(s, AttackSetup(20, "AK series", (TargetSpec(10, stationary=False),)), EnteredDice([6, 6]))
    assert sorted(r.targets[0].went_down) == [10, 11, 12]
