"""The one reader of a recording's game: its setup from the metadata, its rules rows as typed records,
its units and their trails (Qt-free).

The GUI replay (:class:`appmodel.replay_model.ReplayModel`, and through it the class-view timeline),
the replay's attack panel (:mod:`appmodel.recording.attacks`) and the debrief (:mod:`debrief.facts`)
all read through here, so a recording means the same everywhere:

* :func:`recorded_setup`: the scenario stored in the metadata, parsed once, with its source, the ruleset's
  name and the table's size;
* :func:`rules_record`: one ``rules_events`` row as a :class:`RecordedRules` -- the rules event (either
  payload shape ever written is migrated here, once: see :mod:`appmodel.recording.payload`) and the odds
  shown before the roll as :class:`RecordedOdds`, so no reader picks keys out of dicts;
* :func:`units_of`, :func:`trail_of`, :func:`position_at`: who was on the table, in which colour (the
  session's own palette, :func:`appmodel.session.scenario_facts.side_colors`), and where they went.

>>> setup = recorded_setup({"scenario_toml": '[table]\\nwidth_in = 60\\n[[sides]]\\nname = "Blue"'})
>>> setup.table_size_in, setup.ruleset_name, setup.problem
((60.0, 48.0), 'down-range', '')
>>> recorded_setup({"scenario_toml": "[[sides"}).problem.startswith("the scenario stored in the recording is not valid TOML")
True
>>> RecordedOdds.from_json({"name": "Cell 1", "unit_id": 30, "p_hit": 0.4375, "legend": {"hit": "wins", "kill": None}})
RecordedOdds(name='Cell 1', allowed=True, reason='', p_hit=0.4375, p_kill_any=0.0, shots=1, distance_in=None, unit_id=30, members=(), p_kill=None, hit_word='wins', kill_word=None)
"""
from __future__ import annotations

import bisect
import json
import math
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from appmodel.recording.payload import read_rules_payload
from appmodel.session import scenario_facts
from rules.events import RulesEvent
from rules.ruleset import DEFAULT_RULESET

#: A trail keeps one pose per this many seconds (and every lift): a three-hour game of 40 units is then
#: a few million points, not 13 million, and a trail drawn at the report's size looks the same.
TRAIL_STEP_S = 0.5
#: The colour of a unit whose side has none (no side at all).
UNKNOWN_SIDE_COLOR = "#666666"


# ------------------------------------------------------------------------------ the state at the start
#: The row the session writes first when a recording starts: the whole game state at that moment (a
#: recording started mid-game begins with the casualties, round and tokens the game already had).
START_STATE_KIND = "state:start"


def start_state_json(rows: Iterable[Any], payload_of: Callable[[int], Mapping[str, Any]] | None = None) -> Mapping[str, Any] | None:
    """The game state the recording started from (the first ``state:start`` row's), or None for a
    recording written before the session wrote one (then the scenario's own start is all there is).
    ``payload_of(row_id)``: reads the payload of a row read without it (``states_later``)."""
    for row in rows:
        if row.kind != START_STATE_KIND:
            continue
        payload = row.payload if getattr(row, "read", True) or payload_of is None else payload_of(row.row_id)
        if isinstance(payload.get("state"), Mapping):
            return payload["state"]
    return None


@dataclass(frozen=True)
class OutAtStart:
    """A unit already out of the fight when the recording started, and its status then."""

    unit_id: int
    status: str


def out_at_start(ruleset: Any, state_json: Mapping[str, Any] | None) -> tuple[OutAtStart, ...]:
    """Units the recorded start state has out of the fight (status other than "active", as every view
    draws them); () without a start state, or one this ruleset cannot read."""
    if ruleset is None or state_json is None:
        return ()
    try:
        state = ruleset.load_state(state_json)
        return tuple(OutAtStart(int(u.unit_id), str(u.status)) for u in ruleset.units(state) if u.status != "active")
    except (KeyError, TypeError, ValueError):  # a damaged row: the events alone are read
        return ()


# ------------------------------------------------------------------------------------------ the setup
@dataclass(frozen=True)
class RecordedSetup:
    """How the recorded game was set up, as its metadata says."""

    #: The scenario stored in the recording ({} when it holds none or it is damaged: see ``problem``).
    scenario: Mapping[str, Any]
    #: Where the scenario file was when the game was recorded ("" when not said).
    scenario_path: str
    ruleset_name: str
    #: The scenario's table, else the calibration's layout, else 72 x 48.
    table_size_in: tuple[float, float]
    #: Whether the recording holds a scenario's text at all.
    has_scenario: bool = False
    #: Why the stored scenario could not be read (the TOML error; "" when it could, or there is none).
    scenario_error: str = ""

    @property
    def problem(self) -> str:
        """What a reader that shows the rest should say about a damaged scenario ("" when there is nothing to say)."""
        if not self.scenario_error:
            return ""
        return f"the scenario stored in the recording is not valid TOML ({self.scenario_error}); units are shown as recorded"

    @property
    def base_dir(self) -> str | None:
        """The folder the scenario's relative paths (a catalog, a relief) are read from."""
        return str(Path(self.scenario_path).parent) if self.scenario_path else None


def recorded_setup(meta: Mapping[str, Any]) -> RecordedSetup:
    """The game's setup from a recording's metadata (never raises: a damaged scenario is a ``problem``)."""
    text = meta.get("scenario_toml", "") or ""
    scenario: dict[str, Any] = {}
    error = ""
    if text:
        try:
            scenario = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            error = str(exc)
    ruleset_name = meta.get("ruleset") or str(scenario.get("ruleset", "")) or DEFAULT_RULESET
    table = scenario.get("table") if isinstance(scenario.get("table"), Mapping) else None
    table_size = scenario_facts.table_size_in(scenario)
    if not table and meta.get("calibration_json"):
        try:
            layout = json.loads(meta["calibration_json"]).get("layout", {})
            table_size = (float(layout["width_in"]), float(layout["depth_in"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
    return RecordedSetup(scenario, str(meta.get("scenario_path", "") or ""), str(ruleset_name), table_size, bool(text), error)


# ------------------------------------------------------------------------------------------ rules rows
@dataclass(frozen=True)
class RecordedOdds:
    """One target's odds as shown before the roll (fractions 0-1; ``allowed`` False: the rules refused it),
    in the words of the rule system that recorded them (``hit_word``, ``kill_word``; None: no second figure)."""

    name: str
    allowed: bool
    reason: str
    p_hit: float
    p_kill_any: float
    shots: int
    distance_in: float | None
    unit_id: int | None = None
    #: The figures of a unit of several figures (a Force on Force fireteam); () for a single figure.
    members: tuple[int, ...] = ()
    #: The odds of killing with the shots aimed at this target alone, when recorded.
    p_kill: float | None = None
    hit_word: str = "hit"
    kill_word: str | None = "kill"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "RecordedOdds":
        """From ``appmodel.recording.payload.odds_json`` (fields an older program did not write keep defaults)."""
        distance = data.get("distance_in")
        unit_id = data.get("unit_id")
        p_kill = data.get("p_kill")
        legend = data.get("legend") if isinstance(data.get("legend"), Mapping) else {}
        return cls(str(data.get("name", "?")), bool(data.get("allowed", True)), str(data.get("reason", "")),
                   float(data.get("p_hit", 0.0)), float(data.get("p_kill_any", data.get("p_kill", 0.0)) or 0.0),
                   int(data.get("shots", 1)), None if distance is None else float(distance),
                   None if unit_id is None else int(unit_id), tuple(int(m) for m in data.get("members") or ()),
                   None if p_kill is None else float(p_kill),
                   str(legend.get("hit") or "hit") if legend else "hit", legend.get("kill", "kill") if legend else "kill")

    @property
    def unit_ids(self) -> tuple[int, ...]:
        """The tags these odds are shown under: the unit's, and each of its figures'."""
        return (() if self.unit_id is None else (self.unit_id,)) + self.members


@dataclass(frozen=True)
class RecordedRules:
    """One rules row of a recording: the rules event (None for a front end's own record) and the odds shown."""

    t_s: float
    kind: str
    event: RulesEvent | None
    odds: tuple[RecordedOdds, ...] = ()
    #: The event's JSON as recorded (or the whole payload of a row that is no rules event), one shape.
    body: Mapping[str, Any] = field(default_factory=dict)
    #: The odds as they were recorded, for a reader that shows them as they are.
    odds_json: tuple[Mapping[str, Any], ...] = ()

    @property
    def odds_words(self) -> tuple[str, str | None]:
        """The words the rule system used for the odds ("hit"/"kill" unless it recorded others)."""
        return (self.odds[0].hit_word, self.odds[0].kill_word) if self.odds else ("hit", "kill")


def rules_record(t_s: float, kind: str, payload: Mapping[str, Any]) -> RecordedRules:
    """A ``rules_events`` row as a :class:`RecordedRules`, whichever payload shape wrote it.

    >>> r = rules_record(3.0, "note", {"note": "free text"})
    >>> r.event is None, dict(r.body)
    (True, {'note': 'free text'})
    """
    event, odds = read_rules_payload(payload)
    inner = payload.get("event")
    body = dict(inner) if event is not None and isinstance(inner, Mapping) else dict(payload)
    return RecordedRules(float(t_s), event.kind if event is not None else str(kind), event,
                         tuple(RecordedOdds.from_json(o) for o in odds), body, odds)


# ------------------------------------------------------------------------------------------ units and trails
@dataclass(frozen=True)
class UnitFacts:
    tag_id: int
    name: str
    side: str
    type_name: str
    color: str


@dataclass(frozen=True)
class Trail:
    """Where a unit went: runs of (t_s, x_in, y_in) while on the table, and the jumps between them
    (lifted here, put down there)."""

    tag_id: int
    runs: tuple[tuple[tuple[float, float, float], ...], ...]
    jumps: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()

    @property
    def length_in(self) -> float:
        """Path length on the table (jumps not counted)."""
        return sum(math.hypot(b[1] - a[1], b[2] - a[2]) for run in self.runs for a, b in zip(run, run[1:]))


def recorded_side_colors(scenario: Mapping[str, Any], recorded: Mapping[int, Mapping[str, Any]]) -> dict[str, str]:
    """Each side's colour as the window drew it (the session's palette, sides in the scenario's order),
    sides only the recorded roster names following.

    >>> recorded_side_colors({"sides": [{"name": "Blue"}]}, {7: {"side": "Red"}})
    {'Blue': '#2f6fd0', 'Red': '#d03a2f'}
    """
    sides = [str(u.get("side", "")) for u in scenario.get("units", []) or [] if isinstance(u, Mapping)]
    sides += [str(u.get("side", "")) for _, u in sorted(recorded.items())]
    return scenario_facts.side_colors(scenario, dict.fromkeys(sides))


def units_of(recorded: Mapping[int, Mapping[str, Any]], scenario: Mapping[str, Any],
             colors: Mapping[str, str]) -> tuple[UnitFacts, ...]:
    """Every unit of the recorded roster and the scenario, by tag: the roster's names and sides first."""
    types = {}
    for u in scenario.get("units", []) or []:
        if isinstance(u, Mapping) and isinstance(u.get("tag_id"), int):
            types[u["tag_id"]] = (str(u.get("name", "")), str(u.get("side", "")), str(u.get("type", "")))
    out = {}
    for tag_id, u in recorded.items():
        name, side = str(u.get("name", f"tag {tag_id}")), str(u.get("side", ""))
        type_name = str(u.get("type") or types.get(tag_id, ("", "", ""))[2])
        out[tag_id] = UnitFacts(tag_id, name, side, type_name, colors.get(side, UNKNOWN_SIDE_COLOR))
    for tag_id, (name, side, type_name) in types.items():
        out.setdefault(tag_id, UnitFacts(tag_id, name, side, type_name, colors.get(side, UNKNOWN_SIDE_COLOR)))
    return tuple(out[k] for k in sorted(out))


#: A trail keeps its unit's path within this (inches) of every pose read (the timeline's bound).
TRAIL_BOUND_IN = 0.05


def trail_of(tag_id: int, track: Any, lift_times: Iterable[float], *, bound_in: float = TRAIL_BOUND_IN) -> Trail:
    """A unit's trail from its recorded track (rows of t_s, x_in, y_in, heading), split where it was
    lifted, each stretch thinned within ``bound_in`` (:func:`appmodel.recording.thinning.thin`): a
    three-hour walk is a few thousand points, not tens of thousands (0 keeps every pose)."""
    from appmodel.recording.thinning import thin

    rows = np.asarray(track, dtype=np.float64).reshape(-1, 4)
    rows = rows[~(np.isnan(rows[:, 1]) | np.isnan(rows[:, 2]))]
    if not len(rows):
        return Trail(tag_id, ())
    # A stretch begins at the first pose after a lift (a pose at the lift's own moment is before it).
    stretch = np.searchsorted(np.sort(np.asarray(list(lift_times), dtype=np.float64)), rows[:, 0], side="left")
    starts = np.flatnonzero(np.r_[True, stretch[1:] != stretch[:-1]])
    ends = np.r_[starts[1:], len(rows)]
    runs: list[tuple[tuple[float, float, float], ...]] = []
    jumps: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for a, b in zip(starts.tolist(), ends.tolist()):
        part = rows[a:b]
        if runs:
            last = runs[-1][-1]
            if math.hypot(part[0, 1] - last[1], part[0, 2] - last[2]) > 1e-6:
                jumps.append(((last[1], last[2]), (float(part[0, 1]), float(part[0, 2]))))
        if bound_in > 0:
            part = part[thin(part, bound_in=bound_in, bound_deg=math.inf)]
        runs.append(tuple((float(t), float(x), float(y)) for t, x, y in part[:, :3].tolist()))
    return Trail(tag_id, tuple(runs), tuple(jumps))


def position_at(trail: Trail, t_s: float) -> tuple[float, float] | None:
    """Where the trail's unit was at ``t_s``: on a stretch on the table, between its kept points (within
    the trail's bound of the recorded pose); after a stretch, where it ended; None before it appeared."""
    best = None
    for run in trail.runs:
        if run[0][0] > t_s + 1e-9:
            break
        if run[-1][0] <= t_s + 1e-9:
            best = (run[-1][1], run[-1][2])
            continue
        times = [p[0] for p in run]
        k = bisect.bisect_right(times, t_s + 1e-9)
        (t0, x0, y0), (t1, x1, y1) = run[k - 1], run[k]
        f = (t_s - t0) / (t1 - t0) if t1 > t0 else 0.0
        return (x0 + f * (x1 - x0), y0 + f * (y1 - y0))
    return best


__all__ = ["RecordedOdds", "RecordedRules", "RecordedSetup", "TRAIL_STEP_S", "Trail", "UNKNOWN_SIDE_COLOR", "UnitFacts",
           "position_at", "recorded_setup", "recorded_side_colors", "rules_record", "trail_of", "units_of"]
