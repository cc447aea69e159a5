"""Force on Force's part of the turn panel, as data (:class:`rules.ruleset.TurnBox`): the initiative
test and the procedures of a force's turn. The front end draws it and runs what its buttons say
(:func:`turn_command`) with the turn panel's dice.

* **Initiative** (A.4): each force's dice for the next test -- one per two infantry units and per
  vehicle, capped, and the bonus dice, each named -- with the exact chance of each force taking
  initiative; after the test, the dice each force threw, how many showed 4+, and who holds the
  initiative and why (the test, a tie kept by last turn's holder, the scenario, Regulars against
  Irregulars, a Fog of War card). "Declare initiative" gives it from a card or a scenario event instead.
* **A force's turn**: activate a unit (an Irregular unit without its leader tests Troop Quality
  first), bring on reinforcements at a Hot Spot, and any test the players call for -- Troop Quality
  or Morale (with a leader's Morale where he lends it), die shifts and a modifier, unopposed or
  opposed by another unit -- with the exact odds before the roll.
* **The unit itself**: a leader joins it or leaves, it splits off figures (by tag) as a new element,
  it merges another element back in, it neutralises a Hot Spot.
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Protocol

from rules.dice import DiceRoll, DiceSource, RollRequest
from rules.errors import RulesError
from rules.forceonforce.checks import CheckSide
from rules.forceonforce.state import FofState
from rules.ruleset import EditField, Resolution, TurnBox, TurnButton, TurnCommand, TurnSection, TurnTable

class Procedures(Protocol):
    """What the box reads and runs of Force on Force's rule system (:class:`rules.forceonforce.ruleset.
    ForceOnForce` has all of it). The box names these instead of importing the ruleset, which imports
    the box: the ruleset stands above, the box below."""

    def start_round(self, state: FofState, dice: DiceSource) -> Resolution: ...
    def initiative_preview(self, state: FofState) -> tuple[Any, Mapping[str, Fraction]]: ...
    def last_initiative(self, state: FofState) -> Any: ...
    def test_side(self, state: FofState, team_ref: int | str, what: str = ..., *, shift: int = ...,
                  modifier: int = ...) -> CheckSide: ...
    def pass_odds(self, state: FofState, side: CheckSide) -> Fraction: ...
    def opposed_test_odds(self, state: FofState, first: CheckSide, second: CheckSide) -> Any: ...
    def declare_initiative(self, state: FofState, side: str, reason: str) -> Resolution: ...
    def activate(self, state: FofState, team_ref: int | str, dice: DiceSource) -> Resolution: ...
    def reinforce(self, state: FofState, team_ref: int | str, dice: DiceSource) -> Resolution: ...
    def test(self, state: FofState, purpose: str, first: CheckSide, dice: DiceSource, *,
             second: CheckSide | None = ..., about: str | None = ...) -> Resolution: ...
    def join_leader_action(self, figure_id: int, team: str) -> Any: ...
    def detach_leader_action(self, figure_id: int) -> Any: ...
    def merge_action(self, element: str, into: str) -> Any: ...
    def split_action(self, team: str, figures: tuple[int, ...], name: str) -> Any: ...
    def neutralise_action(self, hot_spot: int, team: str) -> Any: ...


ROLL_COLUMNS = ("Force", "Dice", "From", "Rolled", "4+")
NOBODY = "nobody (unopposed)"
TEST_DICE = ("morale", "troop quality")


def pool_text(pool: Any) -> tuple[str, str]:
    """A force's initiative dice ("3D8") and where they come from, in words."""
    basic = f"{pool.infantry_units} infantry unit{'s' if pool.infantry_units != 1 else ''}"
    if pool.vehicles:
        basic += f", {pool.vehicles} vehicle{'s' if pool.vehicles != 1 else ''}"
    basic += f": {pool.basic} {'die' if pool.basic == 1 else 'dice'}" + (f", capped to {pool.capped}" if pool.capped != pool.basic else "")
    bonus = "".join(f"; +{n} {why}" for why, n in pool.bonuses)
    return f"{pool.dice}D{pool.sides}", basic + bonus


def holder_text(result: Any) -> str:
    """Who holds the initiative this turn and why."""
    why = {"scenario": "as the scenario says for the first turn", "fixed": "the scenario fixes it for the whole game",
           "regulars": "Regulars against an entirely Irregular force", "declared": result.reason}.get(result.method)
    if why is None:
        if result.kept:
            why = "a tie (or no 4+): last turn's holder keeps it"
        else:
            counts = sorted((r.successes for r in result.rolls), reverse=True)
            why = "the test: " + " against ".join(str(c) for c in counts) + " at 4+"
    return f"Turn {result.turn}: <b>{result.holder}</b> holds the initiative ({why})."


class _Rolls(Exception):
    """The procedure asked for a die (so it is a test, not a given initiative)."""


class _FirstRoll:
    def roll(self, request: RollRequest) -> DiceRoll:
        raise _Rolls()


def _next_initiative_is_a_test(ruleset: Procedures, state: FofState) -> bool | None:
    """Whether the next initiative is rolled (None: no turn can start from this state)."""
    try:
        ruleset.start_round(state, _FirstRoll())
    except _Rolls:
        return True
    except (RulesError, ValueError):
        return None
    return False


def _next_text(ruleset: Procedures, state: FofState) -> str:
    """The dice each force would throw for the next turn's initiative, and the exact odds."""
    test = _next_initiative_is_a_test(ruleset, state)
    if test is None:
        return ""
    if not test:
        return (f"Turn {state.round + 1}: no test -- the initiative is given (the scenario, or "
                "Regulars against an entirely Irregular force).")
    pools, odds = ruleset.initiative_preview(state)
    parts = [f"<b>{p.side}</b> {pool_text(p)[0]} ({pool_text(p)[1]})" for p in pools]
    chances = ", ".join(f"{side} {float(p):.1%}" for side, p in odds.items())
    return (f"Next test (turn {state.round + 1}): " + " against ".join(parts)
            + f". Chance of initiative, exactly: {chances}.")


def _initiative(ruleset: Procedures, state: FofState) -> TurnSection:
    last = ruleset.last_initiative(state)
    rows = []
    for r in (last.rolls if last is not None else ()):
        dice, where = pool_text(r.pool)
        rows.append((r.pool.side, dice, where, ", ".join(str(f) for f in r.faces) or "no dice", str(r.successes)))
    if last is None:
        holder = "No initiative yet: roll it (Ctrl+I) to start the first turn."
    else:
        extra = f" After {len(last.rerolls)} tied roll{'s' if len(last.rerolls) != 1 else ''} with nobody " \
                "holding it before." if last.rerolls else ""
        holder = holder_text(last) + extra
    forces = tuple((s.name, s.name) for s in state.forces)
    return TurnSection("initiative", "Initiative test (A.4)", _next_text(ruleset, state), "Last test",
                       TurnTable(ROLL_COLUMNS, tuple(rows), stretch=(2,), wrap=True, hide_empty=True), holder, rows=((
                           EditField("declare side", "", "choice", forces[0][1] if forces else None, forces),
                           EditField("declare reason", "", "text", "", hint="why: a Fog of War card, a scenario event"),
                           TurnButton("declare", "Declare initiative", "Give the next turn's initiative to a force without the test",
                                      clears=("declare reason",))),))


def _test_sides(ruleset: Procedures, state: FofState, values: Mapping[str, Any]) -> tuple[Any, Any] | None:
    team, other = values.get("unit"), values.get("against")
    if team is None:
        return None
    what = str(values.get("test die") or TEST_DICE[0])
    first = ruleset.test_side(state, team, what, shift=int(values.get("test shift") or 0),
                              modifier=int(values.get("test modifier") or 0))
    second = ruleset.test_side(state, other, what) if other else None
    return first, second


def _test_odds(ruleset: Procedures, state: FofState, values: Mapping[str, Any]) -> str:
    """The exact odds of the test set up, in words (or why it cannot be set up so)."""
    try:
        sides = _test_sides(ruleset, state, values)
    except (RulesError, ValueError) as exc:
        return f"<span style='color:#ff6b6b'>{exc}</span>"
    if sides is None:
        return ""
    first, second = sides
    if second is None:
        p = ruleset.pass_odds(state, first)
        return f"{first.name} on D{first.sides} ({first.what}): passes {float(p):.1%} ({p})"
    o = ruleset.opposed_test_odds(state, first, second)
    return (f"{first.name} D{first.sides} against {second.name} D{second.sides}: "
            f"{first.name} wins {float(o.p_first):.1%}, {second.name} wins {float(o.p_second):.1%}, "
            f"nobody {float(o.p_nobody):.1%}")


def turn_box(ruleset: Procedures, state: FofState, values: Mapping[str, Any]) -> TurnBox:
    teams = [t for t in state.teams if not state.is_out_of_action(t) or t.reinforcement]
    teams.sort(key=lambda t: (t.side != state.active_side, t.side, t.name))
    units = tuple((f"{t.name} ({t.side})", t.name) for t in teams)
    first_unit = units[0][1] if units else None
    chosen = {"unit": first_unit, "against": None, **values}
    procedures = TurnSection("procedures", "The force's turn", rows=(
        (EditField("unit", "Unit", "choice", first_unit, units),),
        (TurnButton("activate", "Activate", "An Irregular unit without its leader first passes a Troop Quality check"),
         TurnButton("reinforce", "Bring on (Hot Spot roll)")),
        (EditField("test purpose", "Test", "text", "Morale test"),
         EditField("test die", "", "choice", TEST_DICE[0], tuple((d, d) for d in TEST_DICE))),
        (EditField("test shift", "shift", "int", 0, minimum=-3, maximum=3, help="Die shifts: +1 one die type up, -1 down"),
         EditField("test modifier", "modifier", "int", 0, minimum=-6, maximum=6)),
        (EditField("against", "against", "choice", None, ((NOBODY, None), *units)), TurnButton("roll test", "Roll the test")),
    ), note=_test_odds(ruleset, state, chosen))
    leaders = tuple((f"{f.name} ({f.side}, {f.leader_level})", f.figure_id) for f in state.leaders())
    unit = TurnSection("unit", "The unit", rows=(
        (EditField("leader", "Leader", "choice", leaders[0][1] if leaders else None, leaders),
         TurnButton("join", "Joins", "The leader joins the unit (within cohesion distance; it may then fire, not move)"),
         TurnButton("leave", "Leaves")),
        (EditField("merge with", "Element", "choice", first_unit, units),
         TurnButton("merge", "Merge into the unit", "At the beginning of a turn: an element at half strength or less joins the unit")),
        (EditField("split figures", "Figures", "text", "", hint="tags, e.g. 12 13"),
         EditField("split name", "", "text", "", hint="new element's name"),
         TurnButton("split", "Split off", clears=("split figures", "split name"))),
        (EditField("hot spot", "Hot Spot", "int", 1, minimum=1, maximum=max(1, len(state.hot_spots))),
         TurnButton("neutralise", "Neutralises Hot Spot")),
    ))
    return TurnBox((_initiative(ruleset, state), procedures, unit))


def turn_command(ruleset: Procedures, state: FofState, button: str, values: Mapping[str, Any]) -> TurnCommand | None:
    """What ``button`` does (None: nothing to do with what is chosen, e.g. no leader in the game)."""
    team = values.get("unit")
    if button == "declare":
        side, reason = values.get("declare side"), str(values.get("declare reason") or "")
        return TurnCommand("initiative", run=lambda s, dice: ruleset.declare_initiative(s, str(side), reason))
    if button == "activate":
        return TurnCommand("activation", run=lambda s, dice: ruleset.activate(s, str(team), dice))
    if button == "reinforce":
        return TurnCommand("reinforcement", run=lambda s, dice: ruleset.reinforce(s, str(team), dice))
    if button == "roll test":
        sides = _test_sides(ruleset, state, values)
        if sides is None:
            raise RulesError("choose the unit that takes the test")
        first, second = sides
        purpose = str(values.get("test purpose") or "").strip() or "Test"
        return TurnCommand("test", run=lambda s, dice: ruleset.test(s, purpose, first, dice, second=second, about=team))
    if button in ("join", "leave") and values.get("leader") is None or button in ("join", "merge", "neutralise") and not team:
        return None
    if button == "join":
        return TurnCommand("action", action=ruleset.join_leader_action(int(values["leader"]), str(team)))
    if button == "leave":
        return TurnCommand("action", action=ruleset.detach_leader_action(int(values["leader"])))
    if button == "merge":
        if not values.get("merge with"):
            return None
        return TurnCommand("action", action=ruleset.merge_action(str(team), str(values.get("merge with"))))
    if button == "split":
        typed = str(values.get("split figures") or "")
        try:
            figures = tuple(int(t) for t in typed.replace(",", " ").split())
        except ValueError:
            raise RulesError(f"figures {typed!r}: type the tags of the figures that split off, like 12 13") from None
        return TurnCommand("action", action=ruleset.split_action(str(team), figures, str(values.get("split name") or "")))
    if button == "neutralise":
        return TurnCommand("action", action=ruleset.neutralise_action(int(values.get("hot spot") or 1), str(team)))
    raise RulesError(f"no {button!r} in Force on Force's turn panel")
