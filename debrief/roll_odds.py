"""Every die roll of a recorded rule resolution, with its exact odds, for every rule system.

A recorded ``RulesEvent`` keeps the full result data: in Down Range, Skill rolls (die,
Advantage/Disadvantage, bonus, Difficulty, faces, total), Damage against Defense, medicine rolls on
Table 2-2, initiative; in Force on Force, each test's die, shift, modifier and target number, the
initiative dice pools, the reinforcement roll; in the generic rules, the to-hit roll, the scatter
dice, each damage point against the ranged defence, close combat's average dice. The odds are
computed again from those inputs with each rule system's exact functions (``rules.downrange.odds``,
``rules.forceonforce.checks``, ``rules.generic.ranged``...) and the game's options, so the debrief
shows the chance each roll had, not only how it came out.
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
    other = _other_rolls(outcome)
    if other is not None:
        return other
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


# -- Force on Force and the generic rules ------------------------------------------------------------
# Their recorded results keep every die too: a test's die, modifier and target number (Force on
# Force), a shot's to-hit roll and each damage point's die against the ranged defence, a close
# combat's average dice (generic). The odds come again from each rule system's exact functions.

def _other_rolls(outcome: Mapping[str, Any]) -> tuple[RollFact, ...] | None:
    """The rolls of a Force on Force or generic-rules result, or None for a result of neither."""
    t = outcome.get("type")
    if t == "InitiativeResult" and "turn" in outcome:
        return tuple(_fof_initiative(outcome))
    if t == "ReinforcementResult":
        return (_reinforcement(outcome),)
    if t == "ShotResult" and "to_hit_face" in outcome:
        return tuple(_generic_shot(outcome))
    if t == "CloseCombatResult":
        return tuple(_close_combat_round(r, outcome) for r in outcome.get("rounds", ()) if isinstance(r, Mapping))
    tests = [node for node in _nodes(outcome) if node.get("type") in ("CheckResult", "OpposedResult")]
    if tests:
        return tuple(fact for node in tests for fact in _fof_test(node))
    return None


def _nodes(node: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(node, Mapping):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def _test_dice(roll: Mapping[str, Any]) -> str:
    sides, base, modifier = int(roll.get("sides") or 0), int(roll.get("base_sides") or 0), int(roll.get("modifier") or 0)
    text = f"d{sides} ({roll.get('what', 'test')})"
    if base and base != sides:
        text += f", shifted from d{base}"
    if modifier:
        text += f", {modifier:+d}"
    return text


def _test_label(label: str, roll: Mapping[str, Any]) -> str:
    """The label the engine gave the roll ("Bravo fires at Cell 1: Troop Quality of Bravo")."""
    return f"{label}: {roll.get('what', 'test')} of {roll.get('name', '')}"


def _fof_test(node: Mapping[str, Any]) -> Iterator[RollFact]:
    from rules.forceonforce.checks import opposed_odds, p_pass

    target = int(node.get("target") or 4)
    label = str(node.get("label", "test"))
    if node.get("type") == "CheckResult":
        roll = node.get("roll") or {}
        p = p_pass(int(roll.get("sides") or 6), modifier=int(roll.get("modifier") or 0), target=target)
        passed = bool(roll.get("success"))
        yield RollFact(_test_label(label, roll), _test_dice(roll), f"{target}+", (int(roll.get("face") or 0),),
                       roll.get("total"), "passes" if passed else "fails", passed, p, "passes")
        return
    first, second = node.get("first") or {}, node.get("second") or {}
    odds = opposed_odds(int(first.get("sides") or 6), int(second.get("sides") or 6),
                        first_modifier=int(first.get("modifier") or 0), second_modifier=int(second.get("modifier") or 0),
                        target=target)
    winner = node.get("winner")
    for roll, p in ((first, odds.p_first), (second, odds.p_second)):
        won = winner == roll.get("name")
        result = "wins" if won else ("nobody wins" if winner is None else "loses")
        yield RollFact(_test_label(label, roll), _test_dice(roll), f"{target}+ and higher than the other",
                       (int(roll.get("face") or 0),), roll.get("total"), result, won, p, "wins the opposed test")


def _fof_initiative(outcome: Mapping[str, Any]) -> Iterator[RollFact]:
    from rules.forceonforce.initiative import InitiativePool, initiative_odds
    from rules.serialize import from_jsonable

    rolls = [r for r in outcome.get("rolls", ()) if isinstance(r, Mapping)]
    previous = outcome.get("previous")
    odds: Mapping[str, Fraction] = {}
    try:
        pools = [from_jsonable(InitiativePool, r["pool"], where="initiative pool") for r in rolls]
        odds = initiative_odds(pools, previous=previous)
    except (KeyError, TypeError, ValueError):
        pass
    holder = outcome.get("holder")
    for r in rolls:
        pool = r.get("pool") or {}
        side = str(pool.get("side", ""))
        faces = tuple(int(f) for f in r.get("faces", ()))
        yield RollFact(f"initiative test of {side}, turn {outcome.get('turn')} ({pool.get('dice')}D{pool.get('sides')})",
                       f"{pool.get('dice')}d{pool.get('sides')}",
                       "most dice showing 4+" + (f" (a tie: {previous} keeps it)" if previous else " (ties re-rolled)"),
                       faces, int(r.get("successes") or 0), "has initiative" if holder == side else "does not",
                       holder == side, odds.get(side), "has initiative")
    for n, tied in enumerate(outcome.get("rerolls", ()), start=1):  # turn 1 with nobody holding it: ties again
        for r in (t for t in tied if isinstance(t, Mapping)):
            pool = r.get("pool") or {}
            yield RollFact(f"initiative test of {pool.get('side', '')}, turn {outcome.get('turn')}, tied roll {n}",
                           f"{pool.get('dice')}d{pool.get('sides')}", "a tie: rolled again",
                           tuple(int(f) for f in r.get("faces", ())), int(r.get("successes") or 0), "tied", None, None)


def _reinforcement(outcome: Mapping[str, Any]) -> RollFact:
    if outcome.get("lost"):
        result = "lost (a neutralised Hot Spot)"
    elif outcome.get("player_chooses"):
        result = "the player chooses the Hot Spot"
    else:
        result = f"Hot Spot {outcome.get('hot_spot')}"
    face = int(outcome.get("face") or 0)
    return RollFact(f"Hot Spot for {outcome.get('team', '')}", "1d6", "1-5: that Hot Spot; 6: the player chooses",
                    (face,), face, result, None, None)


def _generic_shot(outcome: Mapping[str, Any]) -> Iterator[RollFact]:
    from rules.generic.ranged import p_at_least_levels

    plan = outcome.get("plan") or {}
    to_hit = int(plan.get("to_hit") or 7)
    face = outcome.get("to_hit_face")
    what = plan.get("target_name") or "the point"
    if face is not None:
        hit = bool(outcome.get("hit"))
        yield RollFact(f"to hit {what} at {plan.get('band')} ({to_hit}+)", "1d6", f"{to_hit}+", (int(face),), int(face),
                       "hit" if hit else "miss", hit, Fraction(7 - to_hit, 6) if to_hit > 1 else Fraction(1))
    scatter = outcome.get("scatter")
    if isinstance(scatter, Mapping):
        directions = tuple(int(f) for f in scatter.get("direction_faces", ()))
        yield RollFact("scatter distance", "1d6", f"capped at half the range, {float(scatter.get('cap_in') or 0):.1f}\"",
                       (int(scatter.get("distance_face") or 0),), scatter.get("distance_face"),
                       f"{float(scatter.get('distance_in') or 0):g}\"", None, None)
        yield RollFact("scatter direction (2d6: row, column)", "2d6 (row, column)", "the scatter table", directions, None,
                       str(scatter.get("direction", "")), None, None)
    for d in outcome.get("damages", ()):
        if not isinstance(d, Mapping):
            continue
        points, defence, applied = int(d.get("points") or 0), int(d.get("defence") or 0), int(d.get("applied") or 0)
        yield RollFact(f"damage to {d.get('name', '')} ({points} point{'s' if points != 1 else ''} against defence "
                       f"{defence})", f"{points}d6", f"above ranged defence {defence}",
                       tuple(int(f) for f in d.get("faces", ())), applied,
                       f"{applied} level{'s' if applied != 1 else ''} lost" + (", destroyed" if d.get("destroyed") else ""),
                       applied >= 1, p_at_least_levels(points, defence, 1), "loses a status level")


def _close_combat_round(r: Mapping[str, Any], outcome: Mapping[str, Any]) -> RollFact:
    from rules.generic.catalog import load_data

    data = load_data()
    names = {outcome.get("attacker"): outcome.get("attacker_name"), outcome.get("defender"): outcome.get("defender_name")}
    a_face, d_face = int(r.get("attacker_face") or 1), int(r.get("defender_face") or 1)
    # The scores are the record's strength (or defence) plus the average die: the faces' part comes off.
    a_mod = int(r.get("attacker_score") or 0) - data.average(a_face)
    d_mod = int(r.get("defender_score") or 0) - data.average(d_face)
    wins = sum(1 for f1 in range(1, 7) for f2 in range(1, 7) if a_mod + data.average(f1) > d_mod + data.average(f2))
    attacker, defender = names.get(r.get("attacker"), r.get("attacker")), names.get(r.get("defender"), r.get("defender"))
    loser = r.get("loser")
    result = "tie" if loser is None else (f"{defender} loses" if loser == r.get("defender") else f"{attacker} loses")
    return RollFact(f"close combat, {attacker} attacks {defender} (average dice: {attacker}, {defender})",
                    "2 average dice",
                    f"{attacker} {a_mod:+d} against {defender} {d_mod:+d}", (a_face, d_face),
                    int(r.get("attacker_score") or 0), result, loser == r.get("defender"), Fraction(wins, 36),
                    "the attacker wins the round")
