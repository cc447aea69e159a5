"""A small rule system that exists only in the tests (not a test module): "Pebbles", registered with
:func:`registered` so the window, its panels, replay and the debrief can be shown to work with a rule
system they have never heard of -- everything they need comes through ``rules.ruleset``.

Each unit throws pebbles 12" (base to base): one target per throw, a d6 of 4 or more knocks it out (3 or
more when the thrower declared "aimed"). Rounds open with no roll; sides take turns in scenario order.
Players may put a unit down, remove it or bring it back by hand ("status") and correct how far it walked
this turn ("moved_in"), in the form the rule system describes (``edit_form``). The turn panel shows its
pebble pile (``turn_box``): a pebbler digs for a pebble (a d6, 4+) or shouts.

>>> game = PebbleRules().new_game(SCENARIO)
>>> [u.name for u in PebbleRules().units(game)]
['Ann', 'Bob', 'Cid']
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.dice import DiceSource, RollRequest
from rules.errors import RulesError
from rules.events import RulesEvent, rolls_of
from rules.geometry import Circle, Reach
from rules.ruleset import (AttackRequest, CasualtyView, Declaration, EditField, EditForm, EditSection,
                           EngagementView, FrontEnd, OddsLegend, Overlay, Resolution, TargetOdds, TargetProposal, TurnBox,
                           RollView, Ruleset, TurnButton, TurnCommand, TurnSection, TurnTable, UnitView, WeaponView,
                           register_ruleset, unregister_ruleset)
from rules.ruleset_state import RulesetState

NAME = "pebbles"
RANGE_IN = 12.0
BASE_RADIUS_IN = 0.5

SCENARIO: dict[str, Any] = {
    "name": "Pebble skirmish",
    "ruleset": NAME,
    "table": {"width_in": 48, "depth_in": 36},
    "sides": [{"name": "Reds", "color": "#d03a2f"}, {"name": "Blues", "color": "#2f6fd0"}],
    "units": [
        {"tag_id": 1, "name": "Ann", "side": "Reds", "x_in": 10.0, "y_in": 10.0},
        {"tag_id": 2, "name": "Bob", "side": "Blues", "x_in": 18.0, "y_in": 10.0},
        {"tag_id": 3, "name": "Cid", "side": "Blues", "x_in": 40.0, "y_in": 30.0},
    ],
}


@dataclass(frozen=True)
class PebbleSide:
    name: str


@dataclass(frozen=True)
class PebbleOptions:
    strict: bool = True


@dataclass(frozen=True)
class Pebbler:
    unit_id: int
    name: str
    side: str
    x_in: float
    y_in: float
    heading_deg: float = 0.0
    on_table: bool = True
    status: str = "active"
    moved_in: float = 0.0


@dataclass(frozen=True)
class Move:
    unit_id: int
    x_in: float
    y_in: float
    heading_deg: float
    moved_in: float | None
    on_table: bool


@dataclass(frozen=True)
class SetStatus:
    unit_id: int
    changes: Mapping[str, Any]


@dataclass(frozen=True)
class Shout:
    unit_id: int
    words: str


@dataclass(frozen=True)
class PebbleState(RulesetState[PebbleSide]):
    sides: tuple[PebbleSide, ...]
    units: tuple[Pebbler, ...]
    round: int = 0
    order: tuple[str, ...] = ()
    turn_index: int = -1
    in_turn: bool = False
    events: tuple[RulesEvent, ...] = ()
    options: PebbleOptions = PebbleOptions()
    ruleset_name = NAME
    state_format = "sandtable-pebbles-state"
    state_version = 1
    state_title = "Pebbles"

    def unit(self, unit_id: int) -> Pebbler:
        for u in self.units:
            if u.unit_id == unit_id:
                return u
        raise RulesError(f"no unit with tag {unit_id} in this game: pick one from the roster")

    def with_unit(self, unit: Pebbler) -> "PebbleState":
        return dataclasses.replace(self, units=tuple(unit if u.unit_id == unit.unit_id else u for u in self.units))

    def apply(self, action: Any) -> "PebbleState":
        if isinstance(action, Move):
            u = self.unit(action.unit_id)
            moved = action.moved_in if action.moved_in is not None else math.dist((u.x_in, u.y_in), (action.x_in, action.y_in))
            return self.with_unit(dataclasses.replace(u, x_in=action.x_in, y_in=action.y_in, heading_deg=action.heading_deg,
                                                      on_table=action.on_table, moved_in=u.moved_in + moved))
        if isinstance(action, SetStatus):
            u = self.unit(action.unit_id)
            unknown = set(action.changes) - {"status", "moved_in"}
            if unknown:
                raise RulesError(f"pebbles have no field {sorted(unknown)[0]!r} to edit: edit 'status' or 'moved_in'")
            status = str(action.changes.get("status", u.status))
            if status not in ("active", "down", "removed"):
                raise RulesError(f"status {status!r}: use 'active', 'down' or 'removed'")
            moved = float(action.changes.get("moved_in", u.moved_in))
            words = [f"set to {status}"] if "status" in action.changes else []
            words += [f'moved {moved:g}"'] if "moved_in" in action.changes else []
            return self.with_unit(dataclasses.replace(u, status=status, moved_in=moved)).log(
                "edit", f"{u.name} {' and '.join(words)} by hand.", inputs={"unit_id": u.unit_id, "status": status})
        if isinstance(action, Shout):
            if not action.words.strip():
                raise RulesError("type what they shout first")
            u = self.unit(action.unit_id)
            return self.log("shout", f"{u.name} shouts {action.words.strip()!r}.", inputs={"unit_id": u.unit_id})
        raise RulesError(f"pebbles cannot apply {type(action).__name__}")


def _distance_in(a: Pebbler, b: Pebbler) -> float:
    return max(0.0, math.dist((a.x_in, a.y_in), (b.x_in, b.y_in)) - 2 * BASE_RADIUS_IN)


class PebbleRules(Ruleset):
    """The Pebbles rule system (tests only)."""

    name = NAME
    title = "Pebbles (a test rule system)"
    pose_options = ()
    has_turn_box = True
    front_end = FrontEnd(dice_hint="one d6 per throw, e.g. 5 (empty: virtual dice)", round_button="Begin round",
                         edit_button="Set status…", overlays=("range",))
    LEGEND = OddsLegend("knocks out", None, hit_help="the d6 knocks the target out", shots=False, max_targets=1,
                        refused="no throw")

    def new_game(self, scenario: Mapping[str, Any], *, source: str = "<scenario>", base_dir: str | None = None) -> PebbleState:
        sides = tuple(PebbleSide(str(s["name"])) for s in scenario.get("sides", ()))
        units = tuple(Pebbler(int(u["tag_id"]), str(u["name"]), str(u["side"]), float(u["x_in"]), float(u["y_in"]))
                      for u in scenario.get("units", ()))
        return PebbleState(sides, units)

    def load_state(self, data: Mapping[str, Any]) -> PebbleState:
        return PebbleState.from_json(data)

    def apply(self, state: PebbleState, action: Any) -> PebbleState:
        return state.apply(action)

    def units(self, state: PebbleState) -> tuple[UnitView, ...]:
        return tuple(UnitView(u.unit_id, u.name, u.side, "Pebbler", u.x_in, u.y_in, u.heading_deg,
                              Circle(u.x_in, u.y_in, BASE_RADIUS_IN), u.on_table, u.status, (), math.inf, math.inf,
                              ("Pebble",) if u.status == "active" else ())
                     for u in state.units)

    def weapons(self, state: PebbleState, unit_id: int) -> tuple[WeaponView, ...]:
        return (WeaponView("Pebble", RANGE_IN, difficulty=4),) if state.unit(unit_id).status == "active" else ()

    def declarations(self) -> tuple[Declaration, ...]:
        return (Declaration("aimed", "Aimed throw (hits on 3+)", "attack", "bool", default=False, short="Aimed"),)

    def set_pose(self, state: PebbleState, unit_id: int, x_in: float, y_in: float, heading_deg: float, *,
                 moved_in: float | None = None, on_table: bool = True) -> PebbleState:
        return state.apply(Move(unit_id, x_in, y_in, heading_deg, moved_in, on_table))

    def edit_action(self, unit_id: int, changes: Mapping[str, Any]) -> SetStatus:
        return SetStatus(unit_id, dict(changes))

    def edit_form(self, state: PebbleState, unit_id: int) -> EditForm:
        u = state.unit(unit_id)
        return EditForm(f"Set {u.name}", (EditSection("The pebbler", (
            EditField("status", "Status", "choice", u.status, (("in the game", "active"), ("knocked out", "down"),
                                                             ("out of the game", "removed")),
                      help="A knocked-out pebbler throws no more"),
            EditField("moved_in", "Walked this turn", "float", u.moved_in, maximum=99.0, suffix='"'),
        )),))

    # -- its part of the turn panel: the pile, digging for a pebble (a d6), shouting ----------------

    def turn_box(self, state: PebbleState, values: Mapping[str, Any]) -> TurnBox:
        found = [e for e in state.events if e.kind == "dig" and e.round == state.round]
        units = tuple((u.name, u.unit_id) for u in state.units if u.status == "active")
        who = values.get("who", units[0][1] if units else None)
        name = next((n for n, uid in units if uid == who), "nobody")
        return TurnBox((TurnSection(
            "pile", "The pebble pile", f"Round {state.round}: {len(found)} dig{'s' if len(found) != 1 else ''} so far.",
            "Pebblers", TurnTable(("Pebbler", "Side", "Status"), tuple((u.name, u.side, u.status) for u in state.units)),
            rows=((EditField("who", "Pebbler", "choice", who, units), TurnButton("dig", "Dig (d6)", "A pebble on 4+")),
                  (EditField("words", "Shout", "text", "", hint="what they shout"),
                   TurnButton("shout", "Shout", clears=("words",)))),
            note=f"{name} finds a pebble on 4+: 50%"),))

    def turn_command(self, state: PebbleState, button: str, values: Mapping[str, Any]) -> TurnCommand | None:
        who = values.get("who")
        if who is None:
            return None
        if button == "dig":
            return TurnCommand("dig", run=lambda s, dice: self._dig(s, int(who), dice))
        if button == "shout":
            return TurnCommand("action", action=Shout(int(who), str(values.get("words") or "")))
        raise RulesError(f"no {button!r} in the pebble pile")

    def _dig(self, state: PebbleState, unit_id: int, dice: DiceSource) -> Resolution:
        u = state.unit(unit_id)
        roll = dice.roll(RollRequest(f"{u.name} digs for a pebble", 1, 6))
        sentence = f"{u.name} digs: {roll.dice_total} — " + ("a pebble." if roll.dice_total >= 4 else "only sand.")
        state = state.log("dig", sentence, inputs={"unit_id": unit_id},
                          outcome={"type": "DigResult", "name": u.name, "roll": roll.dice_total}, rolls=rolls_of([roll]))
        return Resolution(None, (sentence,), state)

    def propose_targets(self, state: PebbleState, attacker_id: int, weapon: str, *,
                        aim_point: tuple[float, float] | None = None,
                        axis_deg: float | None = None) -> tuple[TargetProposal, ...]:
        a = state.unit(attacker_id)
        out = []
        for u in state.units:
            if u.side == a.side or u.status != "active":
                continue
            d = _distance_in(a, u)
            ok = d <= RANGE_IN
            out.append(TargetProposal(u.unit_id, u.name, u.side, d, ok, True, False, True, ok,
                                      "" if ok else f'{d:.1f}" away, beyond the pebble\'s {RANGE_IN:g}"'))
        return tuple(out)

    def odds_legend(self, state: PebbleState, request: AttackRequest) -> OddsLegend:
        return self.LEGEND

    def _need(self, request: AttackRequest) -> int:
        return 3 if request.declarations.get("aimed") else 4

    def attack_odds(self, state: PebbleState, request: AttackRequest) -> tuple[TargetOdds, ...]:
        a = state.unit(request.attacker_id)
        p = Fraction(7 - self._need(request), 6)
        out = []
        for tid in request.target_ids:
            t = state.unit(tid)
            d = _distance_in(a, t)
            allowed = d <= RANGE_IN
            reason = "" if allowed else f'{d:.1f}" away, beyond the pebble\'s {RANGE_IN:g}"'
            q = p if allowed else Fraction(0)
            out.append(TargetOdds(tid, t.name, t.side, 1, allowed, reason, q, Fraction(1), q, q, True, distance_in=d))
        return tuple(out)

    def resolve_attack(self, state: PebbleState, request: AttackRequest, dice: DiceSource, *,
                       landing_point: tuple[float, float] | None = None) -> Resolution:
        a = state.unit(request.attacker_id)
        if len(request.target_ids) != 1:
            raise RulesError("a pebble is thrown at one target: tick exactly one")
        t = state.unit(request.target_ids[0])
        d = _distance_in(a, t)
        if d > RANGE_IN:
            raise RulesError(f'{t.name} is {d:.1f}" away, beyond the pebble\'s {RANGE_IN:g}"')
        roll = dice.roll(RollRequest(f"{a.name}'s pebble at {t.name}", 1, 6))
        out = roll.dice_total >= self._need(request)
        sentence = f"{a.name} throws a pebble at {t.name} ({d:.1f}\"): {roll.dice_total} — " + (
            f"{t.name} is knocked out." if out else "missed.")
        if out:
            state = state.with_unit(dataclasses.replace(t, status="down"))
        state = state.log("attack", sentence, inputs={"attacker": a.unit_id, "target": t.unit_id},
                          outcome={"type": "PebbleResult", "attacker": a.unit_id, "target": t.unit_id, "weapon": "Pebble",
                                   "roll": roll.dice_total, "need": self._need(request), "knocked_out": out,
                                   "distance_in": round(d, 2)},
                          rolls=rolls_of([roll]))
        return Resolution({"knocked_out": out}, (sentence,), state)

    def start_round(self, state: PebbleState, dice: DiceSource) -> Resolution:
        rnd = state.round + 1
        state = dataclasses.replace(state, round=rnd, order=tuple(s.name for s in state.sides), turn_index=-1,
                                    in_turn=False)
        state = state.log("initiative", f"Round {rnd} begins: {' then '.join(state.order)}.")
        return Resolution(None, (state.events[-1].summary,), state)

    def start_turn(self, state: PebbleState, dice: DiceSource) -> Resolution:
        if not state.order:
            raise RulesError("begin a round first (Ctrl+I)")
        index = state.turn_index + 1
        if index >= len(state.order):
            raise RulesError("every side has had its turn: begin the next round")
        state = dataclasses.replace(state, turn_index=index, in_turn=True,
                                    units=tuple(dataclasses.replace(u, moved_in=0.0) for u in state.units))
        state = state.log("turn", f"{state.order[index]}'s turn.")
        return Resolution(None, (state.events[-1].summary,), state)

    def end_turn(self, state: PebbleState) -> PebbleState:
        return dataclasses.replace(state, in_turn=False)

    def overlays(self, state: PebbleState, unit_id: int, *, weapon: str | None = None) -> tuple[Overlay, ...]:
        u = state.unit(unit_id)
        if u.status != "active":
            return ()
        return (Overlay("range", Reach(Circle(u.x_in, u.y_in, BASE_RADIUS_IN), RANGE_IN), f'Pebble {RANGE_IN:g}"',
                        u.side, (u.unit_id,)),)

    def explain(self, event: RulesEvent) -> tuple[str, ...]:
        return (event.summary,)

    def engagements(self, event: RulesEvent, game: Any = None) -> tuple[EngagementView, ...]:
        o = event.outcome
        if o.get("type") != "PebbleResult":
            return ()
        out = bool(o["knocked_out"])
        return (EngagementView(int(o["attacker"]), str(o["weapon"]), int(o["target"]), "killed" if out else "miss",
                               1, int(out), float(o["distance_in"]), f"rolled {o['roll']}"),)

    def recorded_rolls(self, event: RulesEvent, game: Any = None) -> tuple[RollView, ...]:
        """A throw's d6 against what it needed, a dig's d6 against 4, with the chance each had."""
        o = event.outcome
        if o.get("type") == "PebbleResult":
            need, out = int(o.get("need", 4)), bool(o["knocked_out"])
            return (RollView("pebble", "1d6", f"{need}+", (int(o["roll"]),), int(o["roll"]),
                             "knocked out" if out else "missed", out, Fraction(7 - need, 6), "knocks out"),)
        if o.get("type") == "DigResult":
            found = int(o["roll"]) >= 4
            return (RollView(f"{o['name']} digs", "1d6", "4+", (int(o["roll"]),), int(o["roll"]),
                             "a pebble" if found else "only sand", found, Fraction(1, 2), "finds a pebble"),)
        return ()

    def casualties(self, event: RulesEvent) -> tuple[CasualtyView, ...]:
        o = event.outcome
        if o.get("type") == "PebbleResult" and o["knocked_out"]:
            return (CasualtyView(int(o["target"]), "down", "a pebble"),)
        if event.kind == "edit":
            status = event.inputs["status"]
            change = {"down": "down", "removed": "removed", "active": "back in play"}[status]
            return (CasualtyView(int(event.inputs["unit_id"]), change, "set by hand"),)
        return ()


def scenario_toml() -> str:
    """:data:`SCENARIO` as a scenario file's text (docs/scenario-format.md)."""
    lines = [f'name = "{SCENARIO["name"]}"', f'ruleset = "{NAME}"', "", "[table]",
             f'width_in = {SCENARIO["table"]["width_in"]}', f'depth_in = {SCENARIO["table"]["depth_in"]}']
    for side in SCENARIO["sides"]:
        lines += ["", "[[sides]]", f'name = "{side["name"]}"', f'color = "{side["color"]}"']
    for u in SCENARIO["units"]:
        lines += ["", "[[units]]"] + [f"{k} = {v!r}".replace("'", '"') for k, v in u.items()]
    return "\n".join(lines) + "\n"


@contextmanager
def registered() -> Iterator[str]:
    """Pebbles in the registry of rule systems for the duration (its name is the scenario's ``ruleset``)."""
    register_ruleset(NAME, PebbleRules)
    try:
        yield NAME
    finally:
        unregister_ruleset(NAME)
