"""Sentences rendered from Force on Force result data, the way the rulebook narrates.

>>> from rules.forceonforce.checks import TestRoll, CheckResult
>>> describe_check(CheckResult("TQ check", TestRoll("Cell 2", "Troop Quality", 6, 6, 0, 3, 3, False)))
'TQ check: Cell 2 rolls D6 for Troop Quality: 3, under 4: fails.'
"""
from __future__ import annotations

from rules.events import RollRecord
from rules.forceonforce.checks import CheckResult, OpposedResult, TestRoll
from rules.forceonforce.hotspots import ReinforcementResult
from rules.forceonforce.initiative import InitiativeResult, InitiativeRoll
from rules.forceonforce.results import ActivationResult, FireResult, TestRecord
from rules.side_words import side_does

GAP_FIRE = ("The excerpt stops before fire combat (Firepower dice, cover, casualties): apply the effect of this "
            "fire from the rulebook.")


def _die(roll: TestRoll) -> str:
    text = f"D{roll.sides}"
    if roll.sides != roll.base_sides:
        text += f" (D{roll.base_sides} shifted {'up' if roll.sides > roll.base_sides else 'down'})"
    return text


def _value(roll: TestRoll) -> str:
    if roll.modifier:
        return f"{roll.face} {roll.modifier:+d} = {roll.total}"
    return str(roll.total)


def describe_check(r: CheckResult) -> str:
    roll = r.roll
    verdict = f"{r.target}+: passes" if r.passed else f"under {r.target}: fails"
    return f"{r.label}: {roll.name} rolls {_die(roll)} for {roll.what}: {_value(roll)}, {verdict}."


def describe_opposed(r: OpposedResult) -> str:
    a, b = r.first, r.second
    head = (f"{r.label}: {a.name} rolls {_die(a)} for {a.what}: {_value(a)}; "
            f"{b.name} rolls {_die(b)} for {b.what}: {_value(b)}")
    if r.winner is not None:
        return f"{head}. {side_does(r.winner, 'wins')} ({r.reason})."
    return f"{head}. Nobody wins ({r.reason})."


def narrate_test(r: TestRecord) -> list[str]:
    line = describe_check(r.result) if isinstance(r.result, CheckResult) else describe_opposed(r.result)
    return [line]


def _pool_line(roll: InitiativeRoll) -> str:
    p = roll.pool
    parts = [f"{p.infantry_units} infantry unit{'s' if p.infantry_units != 1 else ''}", f"{p.vehicles} vehicle"
             + ("s" if p.vehicles != 1 else "")]
    basic = f"basic {p.basic}" + (f", capped to {p.capped}" if p.capped != p.basic else "")
    bonus = "".join(f", +{n} ({why})" for why, n in p.bonuses)
    faces = ", ".join(str(f) for f in roll.faces) or "no dice"
    return (f"{p.side}: {' and '.join(parts)}: {basic}{bonus}: {p.dice}D{p.sides} roll {faces}: "
            f"{roll.successes} at 4+.")


def narrate_initiative(r: InitiativeResult) -> list[str]:
    if r.method == "scenario":
        return [f"Turn {r.turn}: {side_does(r.holder, 'has')} initiative, as the scenario says for the first turn."]
    if r.method == "fixed":
        return [f"Turn {r.turn}: {side_does(r.holder, 'has')} initiative throughout the game (scenario); no Initiative Check."]
    if r.method == "declared":
        return [f"Turn {r.turn}: {side_does(r.holder, 'has')} initiative: {r.reason}."]
    if r.method == "regulars":
        return [f"Turn {r.turn}: {side_does(r.holder, 'has')} initiative: Regulars against an entirely Irregular force always do."]
    lines = [f"Turn {r.turn} initiative test."]
    for earlier in r.rerolls:
        lines += [_pool_line(x) for x in earlier]
        lines.append("A tie with nobody holding initiative before: roll again.")
    lines += [_pool_line(x) for x in r.rolls]
    if r.kept:
        lines.append(f"A tie (or no 4+): {side_does(r.holder, 'keeps')} the initiative it had last turn.")
    else:
        lines.append(f"{side_does(r.holder, 'has')} initiative for this turn and becomes the initiative force.")
    return lines


def narrate_fire(r: FireResult) -> list[str]:
    c = r.check
    lines = [f"{c.firer} fires at {c.target} ({c.centre_distance_in:.1f}\" centre to centre, Firepower {c.firepower})."]
    if c.in_line_of_fire:
        who = "; ".join(f"{x.name} ({x.relation}, {x.distance_in:.1f}\" from the line)" for x in c.in_line_of_fire)
        lines.append(f"In the line of fire: {who}.")
    elif c.same_elevation:
        lines.append("The line of fire is clear.")
    lines += [f"Not allowed: {why}." for why in c.reasons]
    lines += [f"Note: {w}." for w in c.warnings]
    if not c.allowed:
        return lines
    if isinstance(r.test, OpposedResult):
        lines.append(describe_opposed(r.test))
    elif isinstance(r.test, CheckResult):
        lines.append(describe_check(r.test))
    lines.append(GAP_FIRE)
    return lines


def narrate_activation(r: ActivationResult) -> list[str]:
    lines = []
    if r.check is not None:
        lines.append(describe_check(r.check))
    if not r.may_act:
        lines.append(f"{r.team} hesitates: an Irregular unit without its leader may take no action this turn.")
    else:
        lines.append(f"{r.team} activates" + (" (it may fire, not move: a leader joined it)." if r.move_locked else "."))
    return lines


def narrate_reinforcement(r: ReinforcementResult) -> list[str]:
    head = f"{r.team} arrives: Hot Spot roll {r.face}"
    if r.player_chooses:
        return [f"{head}: {side_does(r.side, 'chooses')} the Hot Spot; place the unit within {r.placement_in:g}\" of it."]
    if r.lost:
        return [f"{head}: Hot Spot {r.hot_spot} has been neutralised; the reinforcements are lost."]
    return [f"{head}: Hot Spot {r.hot_spot}; place the unit within {r.placement_in:g}\" of it (it may be Hidden)."]


def initiative_rolls(r: InitiativeResult) -> tuple[RollRecord, ...]:
    out = []
    for batch in (*r.rerolls, r.rolls):
        for x in batch:
            if x.faces:
                out.append(RollRecord(f"initiative test of {x.pool.side}", len(x.faces), x.pool.sides, x.faces,
                                      sum(x.faces)))
    return tuple(out)


def check_rolls(result: CheckResult | OpposedResult | None) -> tuple[RollRecord, ...]:
    if result is None:
        return ()
    rolls = (result.roll,) if isinstance(result, CheckResult) else (result.first, result.second)
    return tuple(RollRecord(f"{result.label}: {x.what} of {x.name}", 1, x.sides, (x.face,), x.face) for x in rolls)
