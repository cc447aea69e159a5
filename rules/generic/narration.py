"""Sentences rendered from the generic rules' result data.

>>> from rules.generic.ranged import DamageResult
>>> describe_damage(DamageResult(40, "T1", "Red", 4, True, 3, (1, 4, 6, 3), 2, "Undamaged", "Damaged", False))
'T1 takes 4 damage points (defence 3): rolls 1, 4, 6, 3: 2 get through: Undamaged -> Damaged.'
"""
from __future__ import annotations

from rules.events import RollRecord
from rules.generic.automation import AutomationResult
from rules.generic.close_combat import CloseCombatResult
from rules.generic.ranged import DamageResult, ShotPlan, ShotResult


def describe_damage(d: DamageResult) -> str:
    kind = "" if d.full else "half "
    rolls = ", ".join(str(f) for f in d.faces)
    verdict = (f"{d.applied} get{'s' if d.applied == 1 else ''} through: {d.status_before} -> {d.status_after}"
               if d.applied else "all deflected")
    end = " It is destroyed." if d.destroyed and d.applied else ""
    return (f"{d.name} takes {kind}{d.points} damage point{'s' if d.points != 1 else ''} (defence {d.defence}): "
            f"rolls {rolls}: {verdict}.{end}")


def _band_words(p: ShotPlan) -> str:
    """The band, and with a range shift the measured one too ("Medium, shifted +3: beyond Very Long")."""
    if not p.range_shift:
        return f"{p.band}"
    measured = f"{p.measured_band}, " if p.measured_band else ""
    return f"{measured}shifted {p.range_shift:+d}: {p.band or 'beyond Very Long'}"


def narrate_shot(r: ShotResult) -> list[str]:
    p = r.plan
    what = p.target_name if p.target_name is not None else f"the point ({p.intended_x_in:.1f}, {p.intended_y_in:.1f})"
    lines = [f"{p.attacker_name} fires the {p.weapon} at {what}, {p.distance_in:.1f}\" away: "
             + ("adjacent, an automatic hit." if p.adjacent else
                _band_words(p) + f", hits on {p.to_hit}+.")]
    if not p.allowed:
        return lines + [f"Not allowed: {p.reason}."]
    if r.dummy_removed:
        return lines + [f"{p.target_name} is identified: a dummy. It is removed; the shot is wasted."]
    if r.identified and p.target in r.identified:
        lines.append(f"{p.target_name} is identified.")
    if r.to_hit_face is not None:
        lines.append(f"To hit: {r.to_hit_face}: {'hit' if r.hit else 'miss'}.")
    s = r.scatter
    if s is not None:
        capped = f", capped at half the range: {s.distance_in:g}\"" if s.distance_in < s.distance_face else ""
        if s.dud:
            lines.append(f"It scatters: distance {s.distance_face}{capped}; direction {s.direction_faces[0]}, "
                         f"{s.direction_faces[1]}: a Dud. It does not go off.")
        else:
            lines.append(f"It scatters {s.distance_in:g}\" {s.direction} (distance {s.distance_face}{capped}; direction "
                         f"{s.direction_faces[0]}, {s.direction_faces[1]}) and lands at ({s.landing_x_in:.1f}, "
                         f"{s.landing_y_in:.1f}).")
    elif not r.hit and p.aoe_in <= 0:
        lines.append("No area of effect: nothing else happens.")
    if r.impact_x_in is not None and not r.damages:
        lines.append("Nobody is caught.")
    lines += [describe_damage(d) for d in r.damages]
    if r.shots_left is not None:
        lines.append(f"{p.attacker_name} has {r.shots_left} shot{'s' if r.shots_left != 1 else ''} left.")
    return lines


def narrate_close_combat(r: CloseCombatResult) -> list[str]:
    names = {r.attacker: r.attacker_name, r.defender: r.defender_name}
    lines = [f"Close combat: {r.attacker_name} attacks {r.defender_name}."]
    for i, c in enumerate(r.rounds, 1):
        head = (f"Round {i}: {names[c.attacker]} {c.attacker_score} (average die {c.attacker_face}) against "
                f"{names[c.defender]} {c.defender_score} (average die {c.defender_face})")
        if c.loser is None:
            lines.append(f"{head}: a tie, no effect.")
        elif c.loser == c.defender:
            lines.append(f"{head}: {names[c.defender]} loses {c.levels} status level{'s' if c.levels != 1 else ''}.")
        else:
            lines.append(f"{head}: the attacker loses the round, no effect.")
    for name, levels, (before, after), dead in ((r.attacker_name, r.attacker_levels, r.attacker_status, r.attacker_destroyed),
                                                (r.defender_name, r.defender_levels, r.defender_status, r.defender_destroyed)):
        if levels:
            lines.append(f"{name}: {before} -> {after}." + (" It is destroyed." if dead else ""))
    return lines


def narrate_automation(r: AutomationResult) -> list[str]:
    lines = [f"The tables play {r.side} (turn {r.round})."]
    for m in r.moves:
        if not m.moves:
            lines.append(f"{m.name} stays put ({m.move_face} > {m.probability}).")
            continue
        where = ""
        if m.to_x_in is not None:
            where = f": up to {m.distance_in:g}\" toward ({m.to_x_in:.1f}, {m.to_y_in:.1f})"
        target = ""
        if m.toward:
            target = f" ({m.toward})" if m.random_faces else f" (from the bearing to {m.toward})"
        dice = f"{m.route_faces[0]}, {m.route_faces[1]}" if m.route_faces else ""
        lines.append(f"{m.name} moves ({m.move_face} <= {m.probability}): {m.route} [{dice}]: {m.manoeuvre}{target} "
                     f"{m.path}{where}.")
    for f in r.fires:
        if f.close_combat:
            lines.append(f"{f.name} attacks {f.target_name} in close combat.")
        elif f.target is None:
            lines.append(f"{f.name} has nothing to fire at.")
        else:
            lines.append(f"{f.name} {'fires at' if f.fires else 'holds fire on'} {f.target_name} at {f.level} ({f.reason}).")
    return lines


def shot_rolls(r: ShotResult) -> tuple[RollRecord, ...]:
    out = []
    if r.to_hit_face is not None:
        out.append(RollRecord("to hit", 1, 6, (r.to_hit_face,), r.to_hit_face))
    if r.scatter is not None:
        s = r.scatter
        out.append(RollRecord("scatter distance", 1, 6, (s.distance_face,), s.distance_face))
        out.append(RollRecord("scatter direction", 2, 6, s.direction_faces, sum(s.direction_faces)))
    for d in r.damages:
        if d.faces:
            out.append(RollRecord(f"damage to {d.name}", len(d.faces), 6, d.faces, sum(d.faces)))
    return tuple(out)


def close_combat_rolls(r: CloseCombatResult) -> tuple[RollRecord, ...]:
    return tuple(RollRecord(f"close combat round {i}", 2, 6, (c.attacker_face, c.defender_face),
                            c.attacker_face + c.defender_face) for i, c in enumerate(r.rounds, 1))


def automation_rolls(r: AutomationResult) -> tuple[RollRecord, ...]:
    out = []
    for m in r.moves:
        out.append(RollRecord(f"movement of {m.name}", 1, 6, (m.move_face,), m.move_face))
        if m.route_faces:
            out.append(RollRecord(f"route of {m.name}", 2, 6, m.route_faces, sum(m.route_faces)))
        for a, b in m.random_faces:
            out.append(RollRecord(f"random direction of {m.name}", 2, 6, (a, b), a + b))
    for f in r.fires:
        if f.face is not None:
            out.append(RollRecord(f"fire decision of {f.name}", 1, 6, (f.face,), f.face))
    return tuple(out)
