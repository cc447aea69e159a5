"""Explosives (3.2.4): who a blast catches and who places a missed one (rules/downrange/explosives.py)."""
from __future__ import annotations

from fractions import Fraction

from rules.dice import EnteredDice
from rules.downrange.attack import attack_odds, resolve_attack
from rules.downrange.declarations import AttackSetup, TargetSpec
from rules_helpers import game, unit


def _truck_with_riders():  # type: ignore[no-untyped-def]
    return game(unit(10, "Grenadier", "Blue", 10, 10, weapons=["Hand grenade", "M4/M16"]),
                unit(20, "Truck", "Red", 16, 10, type_="Military truck"),
                unit(21, "Bed rider", "Red", 0, 0, aboard=20, compartment="open"),
                unit(22, "Cab rider", "Red", 0, 0, aboard=20, compartment="enclosed"))


def test_a_grenade_at_a_rider_in_an_open_truck_bed_rolls_damage_against_him() -> None:
    # RB 3.2.4 "Explosives can damage anything in their blast Radius"; 4.3.1 riders in open
    # compartments "may be attacked, albeit at a Disadvantage". Skill 1d6 at Disadvantage against 3:
    # 4/9; Damage 1d8 against his Defense: 5/8.
    s = _truck_with_riders()
    odds = {o.name: o for o in attack_odds(s, AttackSetup(10, "Hand grenade", (TargetSpec(21, stationary=False),)))}
    assert set(odds) == {"Truck", "Bed rider"}, "the enclosed cab rider is shielded; the bed rider is in the blast"
    assert odds["Bed rider"].p_hit == Fraction(4, 9)
    assert odds["Bed rider"].p_kill == Fraction(5, 18)
    assert odds["Truck"].p_kill == 0  # 1d8 cannot hurt the truck's 1d10
    result = resolve_attack(s, AttackSetup(10, "Hand grenade", (TargetSpec(21, stationary=False),)), EnteredDice([6, 6, 8]))
    rider = next(t for t in result.targets if t.name == "Bed rider")
    assert rider.killed and 21 in rider.went_down


def test_a_motorcycles_exposed_rider_is_caught_by_a_blast_without_disadvantage() -> None:
    s = game(unit(10, "Grenadier", "Blue", 0, 0, weapons=["Hand grenade"]),
             unit(20, "Motorcycle", "Red", 6, 0, type_="Motorcycle", operator=21),
             unit(21, "Rider", "Red", 6, 0, aboard=20, compartment="exposed"))
    odds = {o.name: o for o in attack_odds(s, AttackSetup(10, "Hand grenade", (TargetSpec(21, stationary=False),)))}
    assert set(odds) == {"Motorcycle", "Rider"}
    assert odds["Rider"].p_hit == Fraction(2, 3)
    assert odds["Rider"].p_kill == Fraction(2, 3) * odds["Rider"].p_damage


def test_a_gun_team_counts_once_when_deciding_who_places_a_missed_explosive() -> None:
    # RB 3.2.4.1: "the player who had the most targets in the intended blast radius" picks; Blue's own
    # two-man team on one token is one target, as in the blast, so one Blue target against one Red is
    # a tie, which goes to the attacker's opponent.
    s = game(unit(10, "Thrower", "Blue", 0, 0, weapons=["Hand grenade"]), unit(20, "Red rifleman", "Red", 6, 0),
             unit(21, "Blue gunner", "Blue", 6, 2.5, team="mg"), unit(22, "Blue assistant", "Blue", 6, 2.5, team="mg"))
    miss = resolve_attack(s, AttackSetup(10, "Hand grenade", (TargetSpec(20, stationary=False),)), EnteredDice([2])).miss
    assert miss is not None
    assert dict(miss.units_in_intended) == {"Blue": 1, "Red": 1}
    assert miss.chooser == "Red"


def test_the_quick_references_anti_tank_rocket_is_the_top_attack_antitank_row() -> None:
    # QR "Common weapons": "Anti-tank rocket | 36 | 5 | ... | 5" - Range 36, Difficulty 5, Radius 5.
    weapon = game(unit(10, "Gunner", "Blue", 0, 0)).catalog.weapon("Anti-tank rocket")
    assert (weapon.name, weapon.range_in, weapon.difficulty, weapon.radius_in) == ("Top-attack antitank weapon", 36, 5, 5)
