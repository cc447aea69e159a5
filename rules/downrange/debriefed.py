"""What Down Range's logged events mean to the debrief: the attacks on each target, who went down or
came back, the emission tokens and who could locate them, and every roll with its exact odds.

The events are read as recorded (JSON data, possibly from an older program): a field that is missing
gives a plainer row, never an error. The odds of each roll are computed again with the game's own
options (how automatic failures and Defense rolls of all ones count) and its Table 2-2.

>>> from rules.events import RulesEvent
>>> e = RulesEvent(3, "signal", 1, "Marines", "", inputs={"unit_id": 12, "purpose": "report"},
...                outcome={"emission": "report"})
>>> emissions(e)
(EmissionView(unit_id=12, change='emits', purpose='report', until_start_of=None, by_unit=None, by_hand=False),)
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from rules.dice import Dice
from rules.downrange.odds import p_damage, p_skill
from rules.downrange.pieces import PURPOSE_WORDS
from rules.downrange.radio import is_ew
from rules.events import RulesEvent
from rules.recorded_events import hand_set_status, mapping, number, went_down
from rules.ruleset import CasualtyView, CommsView, EmissionView, EngagementView, LocatorView, RollView


# -- engagements --------------------------------------------------------------------------------

def engagements(event: RulesEvent) -> tuple[EngagementView, ...]:
    """One row per target of an attack (killed, hit without a kill, miss, suppressed); a miss that
    caught nobody is one row aimed at the point."""
    outcome = mapping(event.outcome)
    if event.kind != "attack" or outcome.get("type") != "AttackResult":
        return ()
    attacker = int(outcome.get("attacker", -1))
    side = str(outcome.get("side") or event.side or "")
    name = str(outcome.get("attacker_name") or "")
    weapon = str(outcome.get("weapon", ""))
    suppress = outcome.get("mode") == "suppress"
    impact = None
    if outcome.get("impact_x_in") is not None and outcome.get("impact_y_in") is not None:
        impact = (float(outcome["impact_x_in"]), float(outcome["impact_y_in"]))
    radius = number(outcome.get("radius_in"))
    targets = [t for t in outcome.get("targets", []) if isinstance(t, Mapping) and t.get("allowed", True)]
    down_all = {int(u) for t in targets for u in t.get("went_down", [])}
    out = []
    for target in targets:
        tid = int(target["unit_id"])
        shots = [s for s in target.get("shots", []) if isinstance(s, Mapping)]
        hits = sum(1 for s in shots if s.get("outcome") == "hit")
        if target.get("killed") or tid in down_all:
            result = "killed"
        elif target.get("suppressed") or suppress:
            result = "suppressed"
        elif hits:
            result = "hit, no kill"
        else:
            result = "miss"
        distance = number(target.get("distance_in"))
        # What the rules measured (2.3): base to base to the target (or the players' measured distance of
        # an untracked unit), and for a unit in a blast from the blast's centre to its base.
        how = ("from the blast centre" if target.get("in_blast") else "base to base") if distance is not None else ""
        out.append(EngagementView(attacker, weapon, tid, result, len(shots), hits, distance, "", name, side,
                                  str(target.get("name", "")), str(target.get("side", "")), how,
                                  impact_in=impact, radius_in=radius))
    if not targets:
        miss = mapping(outcome.get("miss"))
        aim = None
        if miss.get("intended_x_in") is not None:
            aim = (float(miss["intended_x_in"]), float(miss["intended_y_in"]))
        # A miss: the odds the players had against the unit aimed at (listed first) are still worth seeing;
        # the attack records no distance to the point it aimed at (the debrief measures the tracked one).
        out.append(EngagementView(attacker, weapon, None, "suppressed" if suppress else "miss", 1, 0, None, "", name, side,
                                  "nobody", "", "", to_in=aim or impact, impact_in=impact, radius_in=radius,
                                  odds="first shown"))
    return tuple(out)


# -- casualties ---------------------------------------------------------------------------------

def casualties(event: RulesEvent) -> tuple[CasualtyView, ...]:
    """Units an attack or a hazard put down, a treatment brought back or removed, or a player set by hand."""
    outcome = mapping(event.outcome)
    if outcome.get("type") == "TreatmentResult":
        patient = int(outcome.get("patient", -1))
        result = str(outcome.get("outcome", ""))
        medic = outcome.get("medic_name", "")
        if result in ("injured", "restored"):
            return (CasualtyView(patient, "back in play", f"treated by {medic} ({result})"),)
        if result == "removed":
            return (CasualtyView(patient, "removed", f"treatment by {medic} failed"),)
        return ()
    hand = hand_set_status(event, "unit_id")
    if hand is not None:
        tag_id, change, status = hand
        return (CasualtyView(tag_id, change, "set by hand" if change == "back in play" else f"set by hand ({status})"),)
    cause = event.kind
    if outcome.get("type") == "AttackResult":
        cause = f"{outcome.get('attacker_name', '')} with the {outcome.get('weapon', '')}"
    return tuple(CasualtyView(tag_id, "down", cause) for tag_id in dict.fromkeys(went_down(outcome)))


# -- emissions ----------------------------------------------------------------------------------

def emissions(event: RulesEvent) -> tuple[EmissionView, ...]:
    """The emission token an event put on (5.1: a Signal, RPV control, Main Effort by radio, a SIGINT
    share, jamming, or a player by hand), one a player took away, and the emitters SIGINT located."""
    inputs, outcome = mapping(event.inputs), mapping(event.outcome)
    out: list[EmissionView] = []
    changes = mapping(inputs.get("changes"))
    if event.kind == "edit" and "unit_id" in inputs and "emission" in changes:
        token = changes["emission"]
        if not isinstance(token, Mapping):
            return (EmissionView(int(inputs["unit_id"]), "cleared", by_hand=True),)
        purpose = str(token.get("purpose") or "emission")
        purpose = PURPOSE_WORDS.get(purpose, purpose)
        if token.get("jamming"):
            purpose += ", jamming"
        purpose = purpose if "by hand" in purpose else f"{purpose} (set by hand)"
        until = token.get("until_start_of")
        return (EmissionView(int(inputs["unit_id"]), "emits", purpose, str(until) if until else None, by_hand=True),)
    if event.kind == "signal" and "unit_id" in inputs:
        purpose = "fires observation" if "observation" in outcome else str(outcome.get("emission") or inputs.get("purpose", "signal"))
        out.append(EmissionView(int(inputs["unit_id"]), "emits", PURPOSE_WORDS.get(purpose, purpose)))
    elif event.kind == "rpv" and inputs.get("type") == "ControlRpv":
        out.append(EmissionView(int(inputs["operator_id"]), "emits", "RPV control"))
    elif event.kind == "main effort" and outcome.get("by_radio") and "commander_id" in inputs:
        out.append(EmissionView(int(inputs["commander_id"]), "emits", "Main Effort by radio"))
    elif event.kind == "sigint" and "unit_id" in inputs:
        if outcome.get("shared"):
            out.append(EmissionView(int(inputs["unit_id"]), "emits", "SIGINT share"))
        out += [EmissionView(int(found), "located", by_unit=int(inputs["unit_id"]))
                for found in outcome.get("found", []) if isinstance(found, int)]
    elif event.kind == "jamming" and "unit_id" in inputs:
        out.append(EmissionView(int(inputs["unit_id"]), "emits", "jamming"))
    return tuple(out)


def comms(event: RulesEvent) -> tuple[CommsView, ...]:
    """What went over the radio (5.1): a Signal and the friendly units it reached (recordings made
    before the rules wrote them down say only who Signalled), Main Effort orders, SIGINT and the
    emitters it found, jamming and the enemy radios it cut.

    >>> comms(RulesEvent(4, "jamming", 2, "PLA", "Jammer jams.", inputs={"unit_id": 40}, outcome={"jammed": ["Alpha"]}))
    (CommsView(unit_id=40, kind='jamming', to_ids=(), cut_names=('Alpha',), text='Jammer jams.'),)
    """
    inputs, outcome = mapping(event.inputs), mapping(event.outcome)

    def ids(values: Any) -> tuple[int, ...]:
        return tuple(int(v) for v in values if isinstance(v, int)) if isinstance(values, list) else ()

    if event.kind == "signal" and "unit_id" in inputs:
        target = mapping(outcome.get("observation")).get("target_unit")
        return (CommsView(int(inputs["unit_id"]), "signal", ids(outcome.get("heard")) or ids([target]), text=event.summary),)
    if event.kind == "main effort" and "commander_id" in inputs:
        to = ids(outcome.get("units")) or ids([inputs.get("unit_id")])
        return (CommsView(int(inputs["commander_id"]), "command", to, text=event.summary),)
    if event.kind == "sigint" and "unit_id" in inputs:
        return (CommsView(int(inputs["unit_id"]), "sigint", ids(outcome.get("found")), text=event.summary),)
    if event.kind == "jamming" and "unit_id" in inputs:
        cut = outcome.get("jammed")
        names = tuple(str(n) for n in cut) if isinstance(cut, list) else ()
        return (CommsView(int(inputs["unit_id"]), "jamming", cut_names=names, text=event.summary),)
    return ()


def locators(game: Any) -> tuple[LocatorView, ...]:
    """The game's electronic-warfare units and how far their SIGINT reaches (the scenario's option)."""
    reach = float(game.options.sigint_range_in)
    return tuple(LocatorView(u.unit_id, u.name, u.side, reach) for u in game.units if is_ew(game, u))


# -- every roll, with its odds ------------------------------------------------------------------

def recorded_rolls(event: RulesEvent, game: Any = None) -> tuple[RollView, ...]:
    """The initiative rolls, Skill rolls (attacks, treatments, any test) and Damage rolls of an event."""
    outcome = mapping(event.outcome)
    if outcome.get("type") == "InitiativeResult":
        return tuple(_initiative(outcome))
    options = game.options if game is not None else None
    medical = _medical_bands(game)
    out: list[RollView] = []
    for node, context in _walk(outcome, {}):
        if node.get("type") == "SkillRoll":
            out.append(_skill(node, options=options, medical=medical, treatment=outcome.get("type") == "TreatmentResult",
                              attack=outcome.get("type") == "AttackResult", table_result=outcome.get("table_result")))
        else:
            out.append(_damage(node, context, options=options))
    return tuple(out)


def _medical_bands(game: Any) -> tuple[Any, ...]:
    """Table 2-2's bands of the game's catalogue (none: the rulebook's 6+ back in play)."""
    try:
        return tuple(game.catalog.medical) if game is not None else ()
    except Exception:  # a missing data file: treatments' odds fall back to Table 2-2's defaults
        return ()


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
        _, sides = die.lower().split("d")
        return int(sides)
    except (ValueError, AttributeError):
        return None


def _skill(node: Mapping[str, Any], *, options: Any, medical: tuple[Any, ...], treatment: bool,
           attack: bool = False, table_result: Any = None) -> RollView:
    die, mode, bonus = str(node.get("die", "")), str(node.get("mode", "normal")), int(node.get("bonus") or 0)
    difficulty = node.get("difficulty")
    sides = _sides(die)
    dice = die + ({"advantage": " with Advantage", "disadvantage": " with Disadvantage"}.get(mode, ""))
    if bonus:
        dice += f", {bonus:+d}"
    auto = options.auto_failure if options is not None else "kept die"
    faces = tuple(node["faces"]) if node.get("faces") else None
    p: Fraction | None = None
    note = ""
    if treatment:
        back = next((b.min for b in medical if b.result in ("injured", "restored")), 6)
        needed = f"Table 2-2: {back}+ back in play"
        note = "back in play"
        if sides and mode in ("normal", "advantage", "disadvantage"):
            p = p_skill(sides, mode, bonus, back, auto_failure=auto)
        result = str(table_result or ("automatic failure" if node.get("auto_failure") else node.get("total")))
        success = None
    else:
        needed = f"Difficulty {difficulty}" if difficulty is not None else "no Difficulty"
        if sides and difficulty is not None and mode in ("normal", "advantage", "disadvantage"):
            p = p_skill(sides, mode, bonus, int(difficulty), auto_failure=auto)
        success = bool(node.get("success"))
        result = ("hit" if success else "miss") if attack else ("success" if success else "failure")
        if node.get("auto_failure"):
            result = "automatic failure"
    label = str(node.get("label", "Skill roll"))
    return RollView(label, dice, needed, faces, node.get("total"), result, success if not treatment else None, p, note)


def _damage(node: Mapping[str, Any], context: Mapping[str, Any], *, options: Any) -> RollView:
    damage, defense = str(node.get("damage", "")), str(node.get("defense", ""))
    target = context.get("target", "")
    p: Fraction | None
    try:
        p = p_damage(Dice.parse(damage), Dice.parse(defense),
                     defense_all_ones_fails=options.defense_all_ones_fails if options is not None else True)
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
    return RollView(label, damage, needed, faces, node.get("damage_total"), result, bool(node.get("killed")), p, "kill once hit")


def _initiative(outcome: Mapping[str, Any]) -> Iterator[RollView]:
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
        yield RollView(f"Initiative of {side}, round {outcome.get('round')}", "1d10" + (" + 1d4" if r.get("d4") is not None else ""),
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


__all__ = ("casualties", "emissions", "engagements", "locators", "recorded_rolls")
