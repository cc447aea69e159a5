"""What the generic rules' logged events mean to the debrief: each unit a shot caught (and how far
down the status ladder it went), close combat's rounds, the units destroyed, and every roll -- to
hit, scatter, damage against the ranged defence, close combat's average dice -- with its exact odds.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from rules.events import RulesEvent
from rules.generic.catalog import load_data
from rules.generic.ranged import p_at_least_levels
from rules.recorded_events import hand_set_status, mapping, number, went_down
from rules.ruleset import CasualtyView, EngagementView, RollView


def engagements(event: RulesEvent) -> tuple[EngagementView, ...]:
    outcome = mapping(event.outcome)
    if outcome.get("type") == "ShotResult":
        return _shot(event, outcome)
    if outcome.get("type") == "CloseCombatResult":
        return _close_combat(outcome)
    return ()


def _shot(event: RulesEvent, outcome: Mapping[str, Any]) -> tuple[EngagementView, ...]:
    """Each unit a shot caught (the target hit, or everyone where it came down) and how far down the
    status ladder it went; a miss that caught nobody."""
    plan = mapping(outcome.get("plan"))
    attacker = int(plan.get("attacker", -1))
    name = str(plan.get("attacker_name") or "")
    side = str(plan.get("side") or event.side or "")
    weapon = str(plan.get("weapon", ""))
    impact = None
    if outcome.get("impact_x_in") is not None and outcome.get("impact_y_in") is not None:
        impact = (float(outcome["impact_x_in"]), float(outcome["impact_y_in"]))
    aoe = float(plan.get("aoe_in") or 0.0)
    radius = aoe if aoe > 0 else None
    damages = [d for d in outcome.get("damages") or () if isinstance(d, Mapping)]
    target = plan.get("target")
    caught = {int(d["unit_id"]) for d in damages}
    rows: list[tuple[int, str, str, str, int, str]] = []
    for d in damages:
        result = "killed" if d.get("destroyed") else "hit, no kill"
        change = f"{d.get('status_before')} -> {d.get('status_after')}" if d.get("applied") else "no damage got through"
        rows.append((int(d["unit_id"]), str(d.get("name", "")), str(d.get("side", "")), result, 1, change))
    if target is not None and int(target) not in caught:
        miss = not outcome.get("hit")
        detail = "a dummy: the shot was wasted" if outcome.get("dummy_removed") else ("missed" if miss else "no damage")
        rows.insert(0, (int(target), str(plan.get("target_name") or ""), "", "miss" if miss else "hit, no kill",
                        0 if miss else 1, detail))
    # The plan's distance is to what was aimed at (base to base, or to the point); a unit caught elsewhere
    # in the area of effect was measured from where the shot came down, not from the firer.
    distance = number(plan.get("distance_in"))
    aimed_how = ("base to base" if target is not None else "to the aim point") if distance is not None else ""
    out = []
    for uid, target_name, target_side, result, hits, detail in rows:
        aimed = target is not None and uid == int(target)
        out.append(EngagementView(attacker, weapon, uid, result, 1, hits, distance if aimed else None, detail, name, side,
                                  target_name, target_side, aimed_how if aimed else "in the blast",
                                  impact_in=impact, radius_in=radius))
    if not rows:
        aim = (float(plan.get("intended_x_in", 0.0)), float(plan.get("intended_y_in", 0.0)))
        out.append(EngagementView(attacker, weapon, None, "miss", 1, 0, distance, "caught nobody", name, side, "nobody", "",
                                  aimed_how, to_in=impact or aim, impact_in=impact, radius_in=radius, odds="none"))
    return tuple(out)


def _close_combat(outcome: Mapping[str, Any]) -> tuple[EngagementView, ...]:
    """The attacker's round against the defender, and the return round when it did something."""
    a, d = int(outcome.get("attacker", -1)), int(outcome.get("defender", -1))
    names = {a: str(outcome.get("attacker_name") or ""), d: str(outcome.get("defender_name") or "")}
    out = []
    for striker, struck, levels, destroyed, status in (
            (a, d, "defender_levels", "defender_destroyed", "defender_status"),
            (d, a, "attacker_levels", "attacker_destroyed", "attacker_status")):
        if struck == a and not outcome.get(levels):
            continue  # the return round only when it did something
        lost = int(outcome.get(levels) or 0)
        result = "killed" if outcome.get(destroyed) else "hit, no kill" if lost else "miss"
        before_after = outcome.get(status) or ("", "")
        detail = f"{before_after[0]} -> {before_after[1]}" if lost else "no effect"
        if striker == d:
            detail = "return round: " + detail
        # Close combat needs the bases adjacent (B.5); the rules record no distance, so none is made up.
        out.append(EngagementView(striker, "Close combat", struck, result, 1, 1 if lost else 0, None, detail,
                                  names[striker], "", names[struck], "", "adjacent",
                                  odds="target" if striker == a else "none"))
    return tuple(out)


def casualties(event: RulesEvent) -> tuple[CasualtyView, ...]:
    """Units a shot or close combat destroyed, and units set out of the fight or back by hand."""
    outcome = mapping(event.outcome)
    hand = hand_set_status(event, "unit_id")
    if hand is not None:
        tag_id, change, status = hand
        return (CasualtyView(tag_id, change, "set by hand" if change == "back in play" else f"set by hand ({status})"),)
    out: list[CasualtyView] = []
    if outcome.get("type") == "ShotResult":
        plan = mapping(outcome.get("plan"))
        how = f"{plan.get('attacker_name', '')} with the {plan.get('weapon', '')}"
        out += [CasualtyView(int(d["unit_id"]), "down", how) for d in outcome.get("damages") or ()
                if isinstance(d, Mapping) and d.get("destroyed")]
    elif outcome.get("type") == "CloseCombatResult":
        how = f"close combat: {outcome.get('attacker_name', '')} against {outcome.get('defender_name', '')}"
        out += [CasualtyView(int(outcome[k]), "down", how)
                for k, flag in (("defender", "defender_destroyed"), ("attacker", "attacker_destroyed")) if outcome.get(flag)]
    out += [CasualtyView(tag_id, "down", event.kind) for tag_id in dict.fromkeys(went_down(outcome))]
    return tuple(out)


def recorded_rolls(event: RulesEvent, game: Any = None) -> tuple[RollView, ...]:
    """A shot's to-hit roll, scatter dice and damage points; close combat's rounds."""
    outcome = mapping(event.outcome)
    if outcome.get("type") == "ShotResult" and "to_hit_face" in outcome:
        return tuple(_shot_rolls(outcome))
    if outcome.get("type") == "CloseCombatResult":
        data = load_data()
        return tuple(_close_combat_round(r, outcome, data) for r in outcome.get("rounds", ()) if isinstance(r, Mapping))
    return ()


def _shot_rolls(outcome: Mapping[str, Any]) -> Iterator[RollView]:
    plan = mapping(outcome.get("plan"))
    to_hit = int(plan.get("to_hit") or 7)
    face = outcome.get("to_hit_face")
    what = plan.get("target_name") or "the point"
    if face is not None:
        hit = bool(outcome.get("hit"))
        yield RollView(f"to hit {what} at {plan.get('band')} ({to_hit}+)", "1d6", f"{to_hit}+", (int(face),), int(face),
                       "hit" if hit else "miss", hit, Fraction(7 - to_hit, 6) if to_hit > 1 else Fraction(1))
    scatter = outcome.get("scatter")
    if isinstance(scatter, Mapping):
        directions = tuple(int(f) for f in scatter.get("direction_faces", ()))
        yield RollView("scatter distance", "1d6", f"capped at half the range, {float(scatter.get('cap_in') or 0):.1f}\"",
                       (int(scatter.get("distance_face") or 0),), scatter.get("distance_face"),
                       f"{float(scatter.get('distance_in') or 0):g}\"", None, None)
        yield RollView("scatter direction (2d6: row, column)", "2d6 (row, column)", "the scatter table", directions, None,
                       str(scatter.get("direction", "")), None, None)
    for d in outcome.get("damages", ()):
        if not isinstance(d, Mapping):
            continue
        points, defence, applied = int(d.get("points") or 0), int(d.get("defence") or 0), int(d.get("applied") or 0)
        yield RollView(f"damage to {d.get('name', '')} ({points} point{'s' if points != 1 else ''} against defence "
                       f"{defence})", f"{points}d6", f"above ranged defence {defence}",
                       tuple(int(f) for f in d.get("faces", ())), applied,
                       f"{applied} level{'s' if applied != 1 else ''} lost" + (", destroyed" if d.get("destroyed") else ""),
                       applied >= 1, p_at_least_levels(points, defence, 1), "loses a status level")


def _close_combat_round(r: Mapping[str, Any], outcome: Mapping[str, Any], data: Any) -> RollView:
    names = {outcome.get("attacker"): outcome.get("attacker_name"), outcome.get("defender"): outcome.get("defender_name")}
    a_face, d_face = int(r.get("attacker_face") or 1), int(r.get("defender_face") or 1)
    # The scores are the record's strength (or defence) plus the average die: the faces' part comes off.
    a_mod = int(r.get("attacker_score") or 0) - data.average(a_face)
    d_mod = int(r.get("defender_score") or 0) - data.average(d_face)
    wins = sum(1 for f1 in range(1, 7) for f2 in range(1, 7) if a_mod + data.average(f1) > d_mod + data.average(f2))
    attacker, defender = names.get(r.get("attacker"), r.get("attacker")), names.get(r.get("defender"), r.get("defender"))
    loser = r.get("loser")
    result = "tie" if loser is None else (f"{defender} loses" if loser == r.get("defender") else f"{attacker} loses")
    return RollView(f"close combat, {attacker} attacks {defender} (average dice: {attacker}, {defender})",
                    "2 average dice",
                    f"{attacker} {a_mod:+d} against {defender} {d_mod:+d}", (a_face, d_face),
                    int(r.get("attacker_score") or 0), result, loser == r.get("defender"), Fraction(wins, 36),
                    "the attacker wins the round")
