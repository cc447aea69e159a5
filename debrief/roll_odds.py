"""Every die roll of a recorded rule resolution, with its exact odds (Down Range).

A recorded ``RulesEvent`` keeps the full result data: Skill rolls (die, Advantage/Disadvantage, bonus,
Difficulty, faces, total), Damage against Defense, medicine rolls on Table 2-2, initiative. The odds
are computed again from those inputs with the rules engine's exact functions (``rules.downrange.odds``)
and the game's options, so the debrief shows the chance each roll had, not only how it came out.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class RollFact:
    """One roll: what was rolled against what, its chance of success, and how it came out."""

    label: str  # the engine's label ("Skill roll of ZBL-09 with the Autocannon at UTV, attack 1 of 2")
    dice: str  # "1d6 with Advantage, +1"
    needed: str  # "Difficulty 6", "Defense 2d6 (rolled 8)", "Table 2-2: 6+ back in play"
    faces: tuple[int, ...] | None
    total: int | None
    result: str  # "hit", "miss", "killed", "unharmed", "injured", ...
    success: bool | None
    p_success: Fraction | None  # exact chance of success before the roll (None: not a pass/fail roll)
    odds_note: str = ""  # what p_success is the chance of, when it is not plain success

    @property
    def p_text(self) -> str:
        if self.p_success is None:
            return "—"
        return f"{float(self.p_success):.1%} ({self.p_success})"


def rolls_of(kind: str, outcome: Mapping[str, Any], *, options: Any = None, catalog: Any = None) -> tuple[RollFact, ...]:
    """The rolls inside a recorded outcome, in the order they were made."""
    if outcome.get("type") == "InitiativeResult":
        return tuple(_initiative(outcome))
    out: list[RollFact] = []
    for node, context in _walk(outcome, {}):
        t = node.get("type")
        if t == "SkillRoll":
            out.append(_skill(node, context, options=options, catalog=catalog, treatment=outcome.get("type") == "TreatmentResult",
                              attack=outcome.get("type") == "AttackResult", table_result=outcome.get("table_result")))
        elif t == "DamageRoll":
            out.append(_damage(node, context, options=options))
    return tuple(out)


def _walk(node: Any, context: dict[str, Any]) -> Iterator[tuple[Mapping[str, Any], dict[str, Any]]]:
    if isinstance(node, Mapping):
        if node.get("type") == "TargetResult":
            context = {**context, "target": node.get("name", "")}
        if node.get("type") == "ShotResult":
            context = {**context, "shot": node.get("shot"), "shot_outcome": node.get("outcome")}
        if node.get("type") in ("SkillRoll", "DamageRoll"):
            yield node, context
            return
        # an explosive's one Skill roll comes before the Damage rolls listed under its targets
        for key in sorted(node, key=lambda k: (k != "skill", k != "damage")):
            value = node[key]
            if isinstance(value, (Mapping, list)):
                yield from _walk(value, context)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item, context)


def _sides(die: str) -> int | None:
    try:
        count, sides = die.lower().split("d")
        return int(sides)
    except (ValueError, AttributeError):
        return None


def _skill(node: Mapping[str, Any], context: Mapping[str, Any], *, options: Any, catalog: Any, treatment: bool,
           attack: bool = False, table_result: Any = None) -> RollFact:
    from rules.downrange.odds import p_skill

    die, mode, bonus = str(node.get("die", "")), str(node.get("mode", "normal")), int(node.get("bonus") or 0)
    difficulty = node.get("difficulty")
    sides = _sides(die)
    dice = die + ({"advantage": " with Advantage", "disadvantage": " with Disadvantage"}.get(mode, ""))
    if bonus:
        dice += f", {bonus:+d}"
    auto = getattr(options, "auto_failure", "kept die")
    faces = tuple(node["faces"]) if node.get("faces") else None
    p: Fraction | None = None
    note = ""
    if treatment:
        bands = list(getattr(catalog, "medical", ()) or ())
        back = next((b.min for b in bands if b.result in ("injured", "restored")), 6)
        needed = f"Table 2-2: {back}+ back in play"
        note = "back in play"
        if sides and mode in ("normal", "advantage", "disadvantage"):
            p = p_skill(sides, mode, bonus, back, auto_failure=auto)  # type: ignore[arg-type]
        result = str(table_result or ("automatic failure" if node.get("auto_failure") else node.get("total")))
        success = None
    else:
        needed = f"Difficulty {difficulty}" if difficulty is not None else "no Difficulty"
        if sides and difficulty is not None and mode in ("normal", "advantage", "disadvantage"):
            p = p_skill(sides, mode, bonus, int(difficulty), auto_failure=auto)  # type: ignore[arg-type]
        success = bool(node.get("success"))
        result = ("hit" if success else "miss") if attack else ("success" if success else "failure")
        if node.get("auto_failure"):
            result = "automatic failure"
    label = str(node.get("label", "Skill roll"))
    return RollFact(label, dice, needed, faces, node.get("total"), result, success if not treatment else None, p, note)


def _damage(node: Mapping[str, Any], context: Mapping[str, Any], *, options: Any) -> RollFact:
    from rules.dice import Dice
    from rules.downrange.odds import p_damage

    damage, defense = str(node.get("damage", "")), str(node.get("defense", ""))
    target = context.get("target", "")
    p: Fraction | None
    try:
        p = p_damage(Dice.parse(damage), Dice.parse(defense),
                     defense_all_ones_fails=getattr(options, "defense_all_ones_fails", True))
    except (ValueError, TypeError):
        p = None
    if not node.get("can_damage", True):
        p = Fraction(0)
        result, needed = "cannot damage", f"Defense {defense} (more sides)"
    else:
        killed = bool(node.get("killed"))
        result = "killed" if killed else "unharmed"
        rolled_defense = node.get("defense_total")
        needed = f"Defense {defense}" + (f" (rolled {rolled_defense})" if rolled_defense is not None and not defense.isdigit() else "")
    faces = tuple(node["damage_faces"]) if node.get("damage_faces") else None
    label = f"Damage against {target}" if target else "Damage"
    return RollFact(label, damage, needed, faces, node.get("damage_total"), result, bool(node.get("killed")), p, "kill once hit")


def _initiative(outcome: Mapping[str, Any]) -> Iterator[RollFact]:
    rolls = [r for r in outcome.get("rolls", ()) if isinstance(r, Mapping)]
    order = list(outcome.get("order", ()))
    pmfs = {str(r.get("side")): _initiative_pmf(r.get("d4") is not None) for r in rolls}
    for r in rolls:
        side = str(r.get("side"))
        others = [pmfs[s] for s in pmfs if s != side]
        p = _p_first(pmfs[side], others[0]) if len(others) == 1 else None
        total = int(r.get("d10") or 0) + int(r.get("d4") or 0)
        faces = tuple(int(v) for v in (r.get("d10"), r.get("d4")) if v is not None)
        first = bool(order) and order[0] == side
        yield RollFact(f"Initiative of {side}, round {outcome.get('round')}", "1d10" + (" + 1d4" if r.get("d4") is not None else ""),
                       "highest goes first (ties re-rolled)", faces, total, "goes first" if first else "goes later",
                       first, p, "goes first")


def _initiative_pmf(with_d4: bool) -> dict[int, Fraction]:
    pmf = {v: Fraction(1, 10) for v in range(1, 11)}
    if with_d4:
        pmf = {a + b: Fraction(0) for a in range(1, 11) for b in range(1, 5)}
        for a in range(1, 11):
            for b in range(1, 5):
                pmf[a + b] += Fraction(1, 40)
    return pmf


def _p_first(mine: Mapping[int, Fraction], theirs: Mapping[int, Fraction]) -> Fraction:
    """Chance to win an opposed roll whose ties are rolled again: P(win) / (P(win) + P(lose)).

    >>> _p_first(_initiative_pmf(False), _initiative_pmf(False))
    Fraction(1, 2)
    """
    win = sum((p * q for a, p in mine.items() for b, q in theirs.items() if a > b), Fraction(0))
    lose = sum((p * q for a, p in mine.items() for b, q in theirs.items() if a < b), Fraction(0))
    return win / (win + lose) if win + lose else Fraction(1, 2)
