"""Plain sentences rendered from result data, the way the rulebook's examples narrate.

>>> from rules.downrange.rolls import SkillRoll
>>> describe_skill(SkillRoll("Skill", "1d6", "advantage", (6, 2), 6, 1, 7, 6, False, True, ("Main Effort",), ()))
'Skill 1d6 with Advantage (Main Effort) rolls (6, 2), keeps 6, +1 = 7 against Difficulty 6: hit.'
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.downrange.declarations import AttackMode
from rules.downrange.pieces import possessive
from rules.downrange.results import (AttackResult, DamageResult, InitiativeResult, MedicalOutcome, ShotOutcome,
                                     TargetResult, TaskResult, TreatmentResult)
from rules.downrange.rolls import DamageRoll, SkillRoll
from rules.events import RollRecord


def _sides(dice: str) -> int:
    return int(dice.split("d")[1].split("+")[0].split("-")[0]) if "d" in dice else 0


def skill_record(roll: SkillRoll) -> RollRecord:
    return RollRecord(roll.label, len(roll.faces), _sides(roll.die), roll.faces, sum(roll.faces))


def _damage_records(d: DamageRoll, target: str) -> list[RollRecord]:
    out = []
    for label, dice, faces, total in ((f"Damage against {target}", d.damage, d.damage_faces, d.damage_total),
                                      (f"Defense of {target}", d.defense, d.defense_faces, d.defense_total)):
        if total is not None and "d" in dice:
            out.append(RollRecord(label, int(dice.split("d")[0]), _sides(dice), faces, total - _bonus(dice)))
    return out


def _bonus(dice: str) -> int:
    rest = dice.split("d", 1)[1]
    for sign in ("+", "-"):
        if sign in rest:
            value = int(rest.split(sign, 1)[1])
            return value if sign == "+" else -value
    return 0


def attack_rolls(r: AttackResult) -> tuple[RollRecord, ...]:
    """Every die of an attack, in the order they were rolled (for the event log)."""
    out: list[RollRecord] = []
    if r.skill is not None:
        out.append(skill_record(r.skill))
    for t in r.targets:
        for shot in t.shots:
            if shot.skill is not None:
                out.append(skill_record(shot.skill))
        for shot in t.shots:
            if shot.damage is not None:
                out += _damage_records(shot.damage, t.name)
    return tuple(out)


def treatment_rolls(r: TreatmentResult) -> tuple[RollRecord, ...]:
    return (skill_record(r.skill),)


def damage_rolls(r: DamageResult) -> tuple[RollRecord, ...]:
    out: list[RollRecord] = []
    if r.spread_in is not None:
        out.append(RollRecord("fire spread distance (inches)", 1, 6, (r.spread_in,), r.spread_in))
    for d in r.damages:
        out += _damage_records(d.roll, d.name)
    return tuple(out)


def initiative_rolls(r: InitiativeResult) -> tuple[RollRecord, ...]:
    out = []
    for roll in r.rolls:
        out.append(RollRecord(f"initiative of {roll.side}", 1, 10, (roll.d10,), roll.d10))
        if roll.d4 is not None:
            out.append(RollRecord(f"Enhanced Initiative of {roll.side}", 1, 4, (roll.d4,), roll.d4))
        for again in roll.rerolls:
            out.append(RollRecord(f"initiative re-roll of {roll.side} (tie)", 1, 10, (again,), again))
    return tuple(out)


def _roll_words(faces: tuple[int, ...] | None, total: int | None, dice: str) -> str:
    if faces is None or len(faces) <= 1:
        return f"rolls {total}"
    return f"rolls {' + '.join(map(str, faces))} = {total}"


def describe_skill(roll: SkillRoll, *, what: str = "hit", miss: str = "miss") -> str:
    """One sentence for a Skill roll: modifiers, dice, kept die, bonus, result."""
    parts = [f"Skill {roll.die}"]
    if roll.advantages and roll.disadvantages and roll.mode == "normal":
        parts.append(f"(Advantage: {', '.join(roll.advantages)}; Disadvantage: {', '.join(roll.disadvantages)}; "
                     "they cancel, one die)")
    elif roll.mode == "advantage":
        parts.append(f"with Advantage ({', '.join(roll.advantages)})")
    elif roll.mode == "disadvantage":
        parts.append(f"with Disadvantage ({', '.join(roll.disadvantages)})")
    if len(roll.faces) == 2:
        parts.append(f"rolls ({roll.faces[0]}, {roll.faces[1]}), keeps {roll.kept}")
    else:
        parts.append(f"rolls {roll.kept}")
    text = " ".join(parts)
    if roll.bonus:
        text += f", {roll.bonus:+d} = {roll.total}"
    if roll.difficulty is not None:
        text += f" against Difficulty {roll.difficulty}"
    if roll.auto_failure:
        return text + ": all ones, an automatic failure."
    if roll.difficulty is None:
        return text + "."
    return text + (f": {what}." if roll.success else f": {miss}.")


def describe_damage(d: DamageRoll, target: str, *, vehicle: bool = False) -> str:
    if not d.can_damage:
        return (f"Damage {d.damage} cannot hurt {target}'s Defense {d.defense}: its die has fewer sides "
                "than the Defense die, so no roll is made.")
    text = f"Damage {d.damage} {_roll_words(d.damage_faces, d.damage_total, d.damage)}"
    if d.defense_faces is not None or (d.defense_total is not None and not d.defense.lstrip('-').isdigit()):
        text += f" against Defense {d.defense}, which {_roll_words(d.defense_faces, d.defense_total, d.defense)}"
    else:
        text += f" against Defense {d.defense}"
    if d.damage_auto_failure:
        return text + f": the Damage dice all show 1, an automatic failure; {target} is unharmed."
    if d.defense_auto_failure and d.killed:
        return text + f": the Defense dice all show 1 and fail; {target} is {'destroyed' if vehicle else 'killed'}."
    if d.killed:
        return text + f": {target} is {'destroyed' if vehicle else 'killed'}."
    return text + f": {target} is unharmed."


def _named(ids: Sequence[int], names: Mapping[int, str]) -> str:
    """Units by name, as players know them ("Officer, Rifleman 3"); a unit without a known name by
    its tag ("tag 12")."""
    return ", ".join(names.get(u) or f"tag {u}" for u in ids)


def _target_lines(t: TargetResult, vehicle_ids: set[int], names: Mapping[int, str]) -> list[str]:
    lines = []
    for shot in t.shots:
        if shot.skill is not None:
            prefix = f"At {t.name}" + (f" (attack {shot.shot})" if len(t.shots) > 1 else "") + ": "
            lines.append(prefix + describe_skill(shot.skill))
        if shot.damage is not None:
            lines.append(describe_damage(shot.damage, t.name, vehicle=t.unit_id in vehicle_ids))
    others = [u for u in t.went_down if u != t.unit_id]
    if others:
        lines.append(f"{len(others)} more go{'es' if len(others) == 1 else ''} down with {t.name}: "
                     f"{_named(others, names)}.")
    if t.bailed_out:
        lines.append(f"{_named(t.bailed_out, names)} had a Reaction ready and "
                     f"bail{'s' if len(t.bailed_out) == 1 else ''} out.")
    return lines


def narrate_attack(r: AttackResult, *, vehicles: set[int] | None = None,
                   names: Mapping[int, str] | None = None) -> list[str]:
    """The attack, step by step. ``names``: unit names by id, for the units a target takes down with
    it (riders, crew), which the result knows only by id."""
    vehicle_ids = vehicles or set()
    unit_names = names or {}
    lines = []
    verb = "suppresses with" if r.mode is AttackMode.SUPPRESS else "fires"
    who = f"{r.attacker_name} {verb} the {r.weapon}"
    if r.linked > 1:
        who += f" ({r.linked} linked)"
    if r.payload and r.payload != "HE":
        who += f" ({r.payload})"
    if r.reaction:
        who += " as a Reaction"
    help_ = len(r.assistants) + r.crew_assistants
    if help_:
        who += f", with {help_} assistant{'s' if help_ > 1 else ''} Focusing (+{help_})"
    lines.append(who + ".")
    if r.skill is not None:
        lines.append(describe_skill(r.skill))
    if r.mode is AttackMode.SUPPRESS:
        hit = [t.name for t in r.targets if t.suppressed]
        if hit:
            lines.append(f"{', '.join(hit)} {'is' if len(hit) == 1 else 'are'} Suppressed: Disadvantage until the start "
                         f"of {possessive(r.side)} next turn.")
        elif r.skill is not None and r.skill.success:
            lines.append("No unit could be suppressed.")
        else:
            lines.append("Nobody is suppressed.")
    elif r.miss is not None:
        m = r.miss
        lines.append(f"The explosive misses and still lands: miss radius {m.miss_radius_in:g}\" around the intended "
                     f"point; {m.reason}, so the choice of where it lands goes to {m.chooser}.")
        if r.needs_landing_point:
            lines.append(f"Waiting for {m.chooser} to choose a point within {m.miss_radius_in:g}\".")
        elif m.landing_x_in is not None and m.landing_y_in is not None:
            moved = ((m.landing_x_in - m.intended_x_in) ** 2 + (m.landing_y_in - m.intended_y_in) ** 2) ** 0.5
            lines.append(f"It lands {moved:.1f}\" from the intended point.")
    if r.radius_in is not None and r.mode is AttackMode.ATTACK and not r.needs_landing_point:
        caught = [t for t in r.targets if t.in_blast]
        if r.area is not None:
            lines.append(f"The {r.area.kind} covers a {r.area.radius_in:g}\" radius until the end of {possessive(r.area.created_by)} "
                         "next turn.")
        elif r.skill is not None and (r.skill.success or r.miss is not None):
            caught_names = ", ".join(t.name for t in caught) or "nobody"
            lines.append(f"The blast ({r.radius_in:g}\" radius) catches {caught_names}.")
    for t in r.targets:
        if not t.allowed and t.reason and not t.in_blast:
            lines.append(f"{t.name}: not allowed ({t.reason}).")
        elif not t.allowed and t.in_blast:
            lines.append(f"{t.reason}.")
        lines += _target_lines(t, vehicle_ids, unit_names)
    if r.ammo_spent:
        before = (r.ammo_left or 0) + r.ammo_spent
        lines.append(f"Ammunition {before} -> {r.ammo_left}" + (" (out of ammunition)." if r.ammo_left == 0 else "."))
    for w in r.warnings:
        lines.append(f"Warning: {w}.")
    return lines


def narrate_task(r: TaskResult) -> list[str]:
    help_ = f" with {len(r.assistants)} assisting" if r.assistants else ""
    return [f"{r.name} attempts {r.task}{help_}.", describe_skill(r.skill, what="success", miss="failure")]


_MEDICAL = {
    MedicalOutcome.REMOVED: "{p} is dead and removed from play.",
    MedicalOutcome.NO_EFFECT: "no effect: {p} stays down and may be treated again.",
    MedicalOutcome.INJURED: "{p} is back in play, Injured: Disadvantage on everything and half Movement for the rest of the game.",
    MedicalOutcome.RESTORED: "{p} is back in play with no ill effects.",
}


def narrate_treatment(r: TreatmentResult) -> list[str]:
    verb = "repairs" if r.repair else "treats"
    help_ = f", with {len(r.assistants)} assisting (+{len(r.assistants)})" if r.assistants else ""
    lines = [f"{r.medic_name} Focuses and {verb} {r.patient_name}{help_}.",
             describe_skill(r.skill) + f" Table 2-2: {r.table_result.value}."]
    text = _MEDICAL[r.outcome].format(p=r.patient_name)
    if r.repair:
        text = text.replace("Injured", "damaged").replace("Disadvantage on everything", "Disadvantage")
    if r.table_result is MedicalOutcome.RESTORED and r.outcome is MedicalOutcome.INJURED:
        text = f"{r.patient_name} was already Injured, so a 9+ only brings it back Injured."
    lines.append(text[0].upper() + text[1:])
    return lines


def narrate_damage(r: DamageResult) -> list[str]:
    lines = [f"{r.cause.capitalize()}: {r.detail}."]
    for d in r.damages:
        lines.append(describe_damage(d.roll, d.name).replace("killed", "disabled this turn")
                     if r.nature == "disabling" else describe_damage(d.roll, d.name))
    if r.ignited:
        lines.append(f"Units {', '.join(map(str, r.ignited))} catch fire.")
    return lines


def narrate_initiative(r: InitiativeResult) -> list[str]:
    parts = []
    for roll in r.rolls:
        text = f"{roll.side} {roll.d10}"
        if roll.d4 is not None:
            text += f" + {roll.d4} (Enhanced Initiative d4) = {roll.d10 + roll.d4}"
        if roll.rerolls:
            text += f" (tied; re-rolled {', '.join(map(str, roll.rerolls))})"
        parts.append(text)
    lines = [f"Round {r.round} initiative: " + "; ".join(parts) + "."]
    if r.unresolved:
        lines.append(f"{', '.join(r.unresolved)} are tied: the players settle the order.")
    else:
        lines.append(f"Turn order: {', '.join(r.order)}.")
    return lines


def shot_outcome_word(outcome: ShotOutcome) -> str:
    return outcome.value
