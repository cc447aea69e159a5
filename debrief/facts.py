"""What happened in a recorded session, as plain facts: the model behind the debrief report and the
GUI replay (Qt-free, so both show the same facts).

``read_debrief_facts(path)`` reads a recording (``tracker.replay.RecordingReader``) and derives:

* the units (roster, side colours) and each unit's **trail** on the table, split where it was lifted;
* the tracker's events and the instructor's **bookmarks**;
* every **rule resolution** with the ruleset's own sentences (``ruleset.explain``), every die rolled
  with its exact odds (``roll_odds.py``) and the odds shown before the roll;
* **engagements**: who fired at whom, from where to where, and how it came out (killed, hit without a
  kill, miss, suppressed; a Force on Force fire's test won, lost or drawn), with the odds shown in the
  ruleset's own words -- Down Range's attacks, Force on Force's fires, the generic rules' shots and
  close combats;
* **casualties** over time (down, back in play after treatment, removed; a Force on Force figure made a
  casualty by hand, a generic unit destroyed);
* **emissions**: who put an emission token on the table, until when, and which enemy EW unit could
  have located it (or did, with SIGINT).

A recording that was cut off (the program killed mid-game, the disk full) still gives its facts; what
is missing is listed in ``problems``. A damaged table is reported there too instead of stopping.
"""
from __future__ import annotations

import enum
import json
import math
import sqlite3
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debrief.roll_odds import RollFact, rolls_of
from appmodel.rules_payload import read_rules_payload
from rules.events import RulesEvent
from rules.ruleset import DEFAULT_RULESET, DebriefedEvents, front_end
from tracker.recording.schema import is_bookkeeping

#: Colours of sides without one in the scenario (and of units whose side is unknown).
FALLBACK_COLORS = ("#2f6fd0", "#d03a2f", "#2e9e5b", "#b8860b", "#8e44ad", "#16a0a0")
DEFAULT_TABLE_IN = (72.0, 48.0)

Progress = Callable[[str, int, int], None]


class EngagementOutcome(str, enum.Enum):
    """How one attack on one target came out (the colour of its line in the report)."""

    KILLED = "killed"
    HIT = "hit, no kill"
    MISS = "miss"
    SUPPRESSED = "suppressed"
    #: A Force on Force fire: the test the text names for firing (what a win does is not in its excerpt).
    WON = "won the test"
    LOST = "lost the test"
    NO_WINNER = "nobody won"


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


@dataclass(frozen=True)
class RulesFact:
    """One recorded rule resolution."""

    t_s: float
    kind: str
    summary: str
    sentences: tuple[str, ...] = ()
    seq: int | None = None
    round: int | None = None
    side: str | None = None
    rolls: tuple[RollFact, ...] = ()
    odds: tuple[dict[str, Any], ...] = ()
    warnings: tuple[str, ...] = ()
    payload: dict[str, Any] = field(default_factory=dict)  # what was recorded, as it was


@dataclass(frozen=True)
class Engagement:
    """One attack on one target (or at a point, when nothing was hit)."""

    t_s: float
    attacker_id: int
    attacker_name: str
    side: str
    weapon: str
    target_id: int | None
    target_name: str
    target_side: str
    outcome: EngagementOutcome
    shots: int
    hits: int
    from_in: tuple[float, float] | None
    to_in: tuple[float, float] | None
    impact_in: tuple[float, float] | None = None
    radius_in: float | None = None
    p_hit: float | None = None  # the odds shown before the roll (per shot)
    p_kill: float | None = None  # ... of killing with all the shots spent on this target
    round: int | None = None
    #: What p_hit and p_kill stand for in the ruleset ("wins" for a Force on Force fire; kill None: none).
    odds_words: tuple[str, str | None] = ("hit", "kill")
    #: The procedure's own result in a few words ("Alpha 6 against Cell 1 3", "Undamaged -> Damaged").
    detail: str = ""
    #: The distance the rules measured for this target (the number in their sentence), None when they
    #: measured none (close combat: adjacent) or the recording does not say.
    distance_in: float | None = None
    #: How the rules measured it: "centre to centre" (Force on Force), "base to base" (Down Range, the
    #: generic rules; for an untracked unit the distance the players measured), "to the aim point", "from
    #: the blast centre" (a unit a Down Range blast caught), "adjacent" (close combat, no number), "in the
    #: blast" (a unit a generic shot caught where it came down, no number), or "tracked" (the rules
    #: recorded none: the tracked positions' centres at the time -- an older recording, a missed explosive).
    measured: str = ""

    def distance_text(self) -> str:
        """The distance as the rules measured it, in their words (empty when nothing is known).

        >>> Engagement(0.0, 10, "Alpha", "US", "Fire", 30, "Cell 1", "I", EngagementOutcome.WON, 1, 1, None, None,
        ...            distance_in=38.64, measured="centre to centre").distance_text()
        '38.6" centre to centre'
        >>> Engagement(0.0, 1, "Orc", "R", "Close combat", 2, "Elf", "B", EngagementOutcome.MISS, 1, 0, None, None,
        ...            measured="adjacent").distance_text()
        'adjacent'
        """
        if self.distance_in is None:
            return self.measured
        return f"{self.distance_in:.1f}\"" + (f" {self.measured}" if self.measured else "")

    def odds_text(self) -> str:
        """The odds shown before the roll, in the ruleset's words ("wins 50%", "caught 66%, destroyed 2%").

        >>> Engagement(0.0, 10, "Alpha", "US", "Fire", 30, "Cell 1", "I", EngagementOutcome.WON, 1, 1, None, None,
        ...            p_hit=0.5, odds_words=("wins", None)).odds_text()
        'wins 50%'
        """
        if self.p_hit is None:
            return "—"
        hit, kill = self.odds_words
        text = f"{hit} {self.p_hit:.0%}"
        if kill is not None and self.p_kill is not None:
            text += f", {kill} {self.p_kill:.0%}"
        return text


@dataclass(frozen=True)
class CasualtyChange:
    t_s: float
    tag_id: int
    name: str
    side: str
    change: str  # "down", "back in play", "removed"
    cause: str


@dataclass(frozen=True)
class EmissionFact:
    """An emission token: who Signalled, why, until when, and who could have located it."""

    t_s: float
    tag_id: int
    name: str
    side: str
    purpose: str
    until_t_s: float | None
    could_locate: tuple[str, ...]
    located_by: tuple[str, ...]
    note: str


@dataclass(frozen=True)
class BookmarkFact:
    t_s: float
    note: str


@dataclass(frozen=True)
class DebriefFacts:
    """Everything the report shows about one recording."""

    path: str
    title: str
    ruleset: str
    created_utc: str
    ended_utc: str
    source: str
    duration_s: float
    frame_count: int
    table_size_in: tuple[float, float]
    side_colors: dict[str, str]
    units: tuple[UnitFacts, ...]
    trails: dict[int, Trail]
    tracker_events: tuple[Any, ...]
    rules: tuple[RulesFact, ...]
    engagements: tuple[Engagement, ...]
    casualties: tuple[CasualtyChange, ...]
    emissions: tuple[EmissionFact, ...]
    bookmarks: tuple[BookmarkFact, ...]
    problems: tuple[str, ...]

    def unit(self, tag_id: int) -> UnitFacts | None:
        return next((u for u in self.units if u.tag_id == tag_id), None)

    def color_of(self, side: str) -> str:
        return self.side_colors.get(side, "#666666")

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.side_colors)

    def down_at(self, t_s: float) -> frozenset[int]:
        """Units out of the fight at ``t_s`` (the replay greys them out)."""
        down: set[int] = set()
        for c in self.casualties:
            if c.t_s > t_s:
                break
            (down.discard if c.change == "back in play" else down.add)(c.tag_id)
        return frozenset(down)

    def casualties_over_time(self) -> dict[str, list[tuple[float, int]]]:
        """Per side, (t_s, units out of the fight from then on), starting at 0."""
        curves: dict[str, list[tuple[float, int]]] = {side: [(0.0, 0)] for side in self.sides}
        down: dict[str, set[int]] = {side: set() for side in self.sides}
        for c in self.casualties:
            group = down.setdefault(c.side, set())
            (group.discard if c.change == "back in play" else group.add)(c.tag_id)
            curves.setdefault(c.side, [(0.0, 0)]).append((c.t_s, len(group)))
        return curves

    def rolls(self) -> list[tuple[RulesFact, RollFact]]:
        return [(fact, roll) for fact in self.rules for roll in fact.rolls]

    def rules_until(self, t_s: float) -> tuple[RulesFact, ...]:
        return tuple(r for r in self.rules if r.t_s <= t_s)


#: A trail keeps one pose per this many seconds (and every lift): a three-hour game of 40 units is then
#: a few million points, not 13 million, and a trail drawn at the report's size looks the same.
TRAIL_STEP_S = 0.5


# ------------------------------------------------------------------------------------------ reading
def read_debrief_facts(path: str | Path, *, progress: Progress | None = None) -> DebriefFacts:
    """The facts of the recording at ``path`` (``tracker.errors.RecordingError`` if it is no recording;
    a damaged file is rescued as every command rescues it, with a note of what was lost)."""
    from tracker.recording import open_recording

    with open_recording(path) as reader:
        return facts_from_reader(reader, progress=progress)


def facts_from_reader(reader: Any, *, progress: Progress | None = None) -> DebriefFacts:
    problems: list[str] = list(reader.problems)
    opened_with = len(problems)
    report = progress or (lambda stage, done, total: None)

    def safely(what: str, read: Callable[[], Any], default: Any) -> Any:
        try:
            return read()
        except (sqlite3.DatabaseError, json.JSONDecodeError) as exc:
            problems.append(f"the {what} could not be read ({exc}); the report shows the rest")
            return default

    meta = dict(reader.meta)
    if meta.get("stop_reason"):  # the recorder stopped on a write error (a full disk): say so, not "killed"
        problems = [p for p in problems if "not closed cleanly" not in p]
        problems.insert(0, f"the recording stopped early: {meta['stop_reason']}")
    scenario, scenario_problem = _scenario(meta)
    if scenario_problem:
        problems.append(scenario_problem)
    ruleset_name = meta.get("ruleset") or str(scenario.get("ruleset", "")) or DEFAULT_RULESET
    table = scenario.get("table", {}) if isinstance(scenario.get("table"), Mapping) else {}
    table_size = (float(table.get("width_in", DEFAULT_TABLE_IN[0])), float(table.get("depth_in", DEFAULT_TABLE_IN[1])))
    if not table and meta.get("calibration_json"):
        try:
            layout = json.loads(meta["calibration_json"]).get("layout", {})
            table_size = (float(layout["width_in"]), float(layout["depth_in"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            pass

    recorded_units: dict[int, dict[str, Any]] = safely("units table", lambda: reader.units, {})
    game = _game(ruleset_name, scenario, meta, problems)
    side_colors = _side_colors(scenario, recorded_units, game)
    units = _units(recorded_units, scenario, game, side_colors)
    names = {u.tag_id: u for u in units}

    tracker_events = tuple(safely("tracker events", reader.events_between, []))
    trails: dict[int, Trail] = {}
    unit_ids = sorted(recorded_units)
    for i, tag_id in enumerate(unit_ids):
        track = safely(f"poses of unit {tag_id}", lambda tag=tag_id: reader.track_of(tag, step_s=TRAIL_STEP_S), None)
        if track is not None and len(track):
            lifts = [e.t_s for e in tracker_events if e.tag_id == tag_id and e.kind.value == "lifted"]
            trail = _trail(tag_id, track, lifts)
            if trail.runs:
                trails[tag_id] = trail
        report("poses", i + 1, len(unit_ids))

    records = [r for r in safely("rules events", reader.rules_events, []) if not is_bookkeeping(r.kind)]
    ruleset = _ruleset(ruleset_name)
    options = getattr(game, "options", None)
    catalog = _catalog(game)
    rules: list[RulesFact] = []
    for i, record in enumerate(records):
        rules.append(_rules_fact(record, ruleset, options, catalog, roll_odds=front_end(ruleset).roll_odds))
        report("rules events", i + 1, len(records))

    def where(tag_id: int | None, t_s: float) -> tuple[float, float] | None:
        if tag_id is None or tag_id not in trails:
            return None
        return position_at(trails[tag_id], t_s)

    engagements = tuple(e for fact in rules for e in _engagements(fact, names, where, game, ruleset))
    casualties = tuple(_declared_casualties(rules, names, ruleset) if isinstance(ruleset, DebriefedEvents)
                       else _casualties(rules, names))
    emissions = tuple(_emissions(rules, names, game, casualties, where))
    bookmarks = tuple(BookmarkFact(b.t_s, b.note) for b in safely("bookmarks", reader.bookmarks, []))
    duration = safely("session length", lambda: reader.duration_s, 0.0)
    problems += [p for p in reader.problems[opened_with:] if p not in problems]  # what reading the rows found damaged
    return DebriefFacts(
        path=str(reader.path),
        title=str(scenario.get("name") or Path(reader.path).stem),
        ruleset=ruleset_name,
        created_utc=meta.get("created_utc", ""),
        ended_utc=meta.get("ended_utc", ""),
        source=meta.get("source", ""),
        duration_s=float(duration),
        frame_count=int(safely("frames", lambda: reader.frame_count, 0)),
        table_size_in=table_size,
        side_colors=side_colors,
        units=units,
        trails=trails,
        tracker_events=tracker_events,
        rules=tuple(rules),
        engagements=engagements,
        casualties=casualties,
        emissions=emissions,
        bookmarks=bookmarks,
        problems=tuple(problems),
    )


def _scenario(meta: Mapping[str, str]) -> tuple[dict[str, Any], str]:
    text = meta.get("scenario_toml", "")
    if not text:
        return {}, ""
    try:
        return tomllib.loads(text), ""
    except tomllib.TOMLDecodeError as exc:
        return {}, f"the scenario stored in the recording is not valid TOML ({exc}); units are shown as recorded"


def _game(ruleset_name: str, scenario: Mapping[str, Any], meta: Mapping[str, str], problems: list[str]) -> Any:
    """The game at its start, for what the roster alone does not say (unit types, EW equipment, options)."""
    if not scenario.get("units"):
        return None
    from rules.errors import RulesError

    try:
        ruleset = _ruleset(ruleset_name)
        if ruleset is None:
            return None
        path = meta.get("scenario_path", "")
        base = str(Path(path).parent) if path else None
        return ruleset.new_game(scenario, source=path or "<recorded scenario>", base_dir=base)
    except (RulesError, OSError) as exc:
        problems.append(f"the recorded scenario could not be set up as a game ({exc}); odds use the default rules options")
        return None


def ruleset_front_end(name: str) -> Any:
    """How the report presents a recording of the rule system ``name`` (a plain one when unknown)."""
    return front_end(_ruleset(name))


def _ruleset(name: str) -> Any:
    from rules.errors import RulesError
    from rules.ruleset import get_ruleset

    try:
        return get_ruleset(name)
    except RulesError:
        return None


def _catalog(game: Any) -> Any:
    try:
        return game.catalog if game is not None else None
    except Exception:  # a missing data file: odds of medicine fall back to Table 2-2's defaults
        return None


def _side_colors(scenario: Mapping[str, Any], recorded: Mapping[int, Mapping[str, Any]], game: Any) -> dict[str, str]:
    colors: dict[str, str] = {}
    for side in scenario.get("sides", []) or []:
        if isinstance(side, Mapping) and side.get("name"):
            colors[str(side["name"])] = str(side.get("color") or "")
    for unit in recorded.values():
        colors.setdefault(str(unit.get("side", "")), "")
    palette = iter(c for c in FALLBACK_COLORS if c not in colors.values())
    return {side: color or next(palette, "#666666") for side, color in colors.items()}


def _units(recorded: Mapping[int, Mapping[str, Any]], scenario: Mapping[str, Any], game: Any, colors: Mapping[str, str]) -> tuple[UnitFacts, ...]:
    types = {}
    for u in scenario.get("units", []) or []:
        if isinstance(u, Mapping) and isinstance(u.get("tag_id"), int):
            types[u["tag_id"]] = (str(u.get("name", "")), str(u.get("side", "")), str(u.get("type", "")))
    out = {}
    for tag_id, u in recorded.items():
        name, side = str(u.get("name", f"tag {tag_id}")), str(u.get("side", ""))
        type_name = str(u.get("type") or types.get(tag_id, ("", "", ""))[2])
        out[tag_id] = UnitFacts(tag_id, name, side, type_name, colors.get(side, "#666666"))
    for tag_id, (name, side, type_name) in types.items():
        out.setdefault(tag_id, UnitFacts(tag_id, name, side, type_name, colors.get(side, "#666666")))
    return tuple(out[k] for k in sorted(out))


def _trail(tag_id: int, track: Any, lift_times: Iterable[float]) -> Trail:
    lifts = sorted(lift_times)
    runs: list[list[tuple[float, float, float]]] = [[]]
    jumps = []
    li = 0
    for t, x, y, _ in track.tolist():
        if math.isnan(x) or math.isnan(y):
            continue
        if li < len(lifts) and t > lifts[li]:
            while li < len(lifts) and t > lifts[li]:
                li += 1
            if runs[-1]:
                last = runs[-1][-1]
                if math.hypot(x - last[1], y - last[2]) > 1e-6:
                    jumps.append(((last[1], last[2]), (x, y)))
                runs.append([])
        runs[-1].append((t, x, y))
    return Trail(tag_id, tuple(tuple(r) for r in runs if r), tuple(jumps))


def position_at(trail: Trail, t_s: float) -> tuple[float, float] | None:
    """Where the trail's unit was at ``t_s`` (its last recorded position), or None before it appeared."""
    best = None
    for run in trail.runs:
        for t, x, y in run:
            if t <= t_s + 1e-9:
                best = (x, y)
            else:
                break
    return best


def _rules_fact(record: Any, ruleset: Any, options: Any, catalog: Any, *, roll_odds: bool = True) -> RulesFact:
    event, odds = read_rules_payload(record.payload)
    payload = dict(record.payload["event"]) if event is not None and isinstance(record.payload.get("event"), Mapping) \
        else dict(record.payload)
    if event is None:
        text = str(payload.get("summary") or payload.get("text") or json.dumps(payload, sort_keys=True)[:300])
        return RulesFact(record.t_s, record.kind, text, payload=payload)
    sentences: tuple[str, ...] = ()
    if ruleset is not None:
        try:
            sentences = tuple(ruleset.explain(event))
        except Exception:  # a payload from a newer program: its own summary still tells it
            sentences = ()
    rolls: tuple[RollFact, ...] = ()
    try:
        rolls = rolls_of(event.kind, event.outcome, options=options if roll_odds else None,
                         catalog=catalog if roll_odds else None)
    except (TypeError, ValueError, KeyError):
        rolls = ()
    if not rolls and event.rolls:  # a result without a roll we know: every die as recorded, no odds
        rolls = tuple(RollFact(r.label, f"{r.count}d{r.sides}", "", tuple(r.faces) if r.faces else None, r.dice_total,
                               "", None, None) for r in event.rolls)
    return RulesFact(record.t_s, event.kind, event.summary, sentences or (event.summary,), event.seq, event.round,
                     event.side, rolls, odds, tuple(event.warnings), payload)


Where = Callable[[int | None, float], tuple[float, float] | None]


def _engagements(fact: RulesFact, units: Mapping[int, UnitFacts], where: Where, game: Any = None,
                 ruleset: Any = None) -> Iterable[Engagement]:
    if isinstance(ruleset, DebriefedEvents):
        yield from _declared_engagements(fact, ruleset, units, where)
        return
    outcome = fact.payload.get("outcome") or {}
    kind = outcome.get("type") if isinstance(outcome, Mapping) else None
    if kind == "FireResult":
        yield from _fof_fire(fact, outcome, where, game)
        return
    if kind == "ShotResult":
        yield from _generic_shot(fact, outcome, units, where)
        return
    if kind == "CloseCombatResult":
        yield from _generic_close_combat(fact, outcome, units, where)
        return
    if fact.kind != "attack" or not isinstance(outcome, Mapping) or kind != "AttackResult":
        return
    attacker = int(outcome.get("attacker", -1))
    side = str(outcome.get("side") or fact.side or "")
    name = str(outcome.get("attacker_name") or (units[attacker].name if attacker in units else f"unit {attacker}"))
    weapon = str(outcome.get("weapon", ""))
    suppress = outcome.get("mode") == "suppress"
    impact = None
    if outcome.get("impact_x_in") is not None and outcome.get("impact_y_in") is not None:
        impact = (float(outcome["impact_x_in"]), float(outcome["impact_y_in"]))
    radius = outcome.get("radius_in")
    origin = where(attacker, fact.t_s)
    shown = {int(o["unit_id"]): o for o in fact.odds if "unit_id" in o}
    targets = [t for t in outcome.get("targets", []) if isinstance(t, Mapping) and t.get("allowed", True)]
    down_all = {int(u) for t in targets for u in t.get("went_down", [])}
    for target in targets:
        tid = int(target["unit_id"])
        shots = [s for s in target.get("shots", []) if isinstance(s, Mapping)]
        hits = sum(1 for s in shots if s.get("outcome") == "hit")
        if target.get("killed") or tid in down_all:
            result = EngagementOutcome.KILLED
        elif target.get("suppressed") or suppress:
            result = EngagementOutcome.SUPPRESSED
        elif hits:
            result = EngagementOutcome.HIT
        else:
            result = EngagementOutcome.MISS
        odds = shown.get(tid, {})
        to = where(tid, fact.t_s)
        # What the rules measured (2.3): base to base to the target (or the players' measured distance of
        # an untracked unit), and for a unit in a blast from the blast's centre to its base.
        how = "from the blast centre" if target.get("in_blast") else "base to base"
        yield Engagement(fact.t_s, attacker, name, side, weapon, tid, str(target.get("name", "")), str(target.get("side", "")),
                         result, len(shots), hits, origin, to, impact, float(radius) if radius is not None else None,
                         odds.get("p_hit"), odds.get("p_kill_any", odds.get("p_kill")), fact.round, ("hit", "kill"), "",
                         *_measured(_number(target.get("distance_in")), how, origin, to))
    if not targets:
        miss = outcome.get("miss") or {}
        aim = None
        if isinstance(miss, Mapping) and miss.get("intended_x_in") is not None:
            aim = (float(miss["intended_x_in"]), float(miss["intended_y_in"]))
        # A miss: the odds the players had against the unit aimed at (listed first) are still worth seeing.
        single = next(iter(shown.values()), {})
        # The attack records no distance to the point it aimed at: the tracked one, marked so.
        yield Engagement(fact.t_s, attacker, name, side, weapon, None, "nobody", "",
                         EngagementOutcome.SUPPRESSED if suppress else EngagementOutcome.MISS, 1, 0, origin, aim or impact,
                         impact, float(radius) if radius is not None else None, single.get("p_hit"),
                         single.get("p_kill_any", single.get("p_kill")), fact.round, ("hit", "kill"), "",
                         *_measured(None, "", origin, aim or impact))


def _odds_of(fact: RulesFact) -> tuple[dict[int, Mapping[str, Any]], tuple[str, str | None]]:
    """The odds shown per unit id (a unit of several figures also under each figure's tag), and the
    words the ruleset used for them."""
    shown: dict[int, Mapping[str, Any]] = {}
    words: tuple[str, str | None] = ("hit", "kill")
    for o in fact.odds:
        if "unit_id" not in o:
            continue
        for uid in (int(o["unit_id"]), *(int(m) for m in o.get("members") or ())):
            shown.setdefault(uid, o)
        legend = o.get("legend")
        if isinstance(legend, Mapping) and legend.get("hit"):
            words = (str(legend["hit"]), legend.get("kill"))
    return shown, words


def _centre(ids: Iterable[int], t_s: float, where: Where) -> tuple[float, float] | None:
    """Where a unit of several figures was at ``t_s``: the middle of its figures."""
    points = [p for p in (where(i, t_s) for i in ids) if p is not None]
    if not points:
        return None
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def _fof_fire(fact: RulesFact, outcome: Mapping[str, Any], where: Where, game: Any) -> Iterable[Engagement]:
    """A Force on Force unit's fire: the opposed (or unopposed) test it won, lost or drew."""
    check = outcome.get("check") or {}
    test = outcome.get("test") or None
    firer, target = str(check.get("firer", "")), str(check.get("target", ""))
    _, words = _odds_of(fact)
    odds = next((o for o in fact.odds if o.get("name") == target), {})
    target_ids = tuple(int(m) for m in odds.get("members") or ()) or ((int(odds["unit_id"]),) if "unit_id" in odds else ())
    firer_ids: tuple[int, ...] = ()
    try:
        if game is not None and game.has_team(firer):
            firer_ids = tuple(f.figure_id for f in game.members(firer))
    except Exception:  # noqa: BLE001 (a game from another program: positions are then unknown)
        firer_ids = ()
    if not isinstance(test, Mapping):
        result, detail = EngagementOutcome.NO_WINNER, "no test: line of sight and line of fire only"
    elif test.get("type") == "OpposedResult":
        a, b = test.get("first") or {}, test.get("second") or {}
        winner = test.get("winner")
        result = EngagementOutcome.WON if winner == firer else EngagementOutcome.LOST if winner else EngagementOutcome.NO_WINNER
        detail = f"{a.get('name')} {a.get('total')} against {b.get('name')} {b.get('total')}"
    else:
        roll = test.get("roll") or {}
        result = EngagementOutcome.WON if roll.get("success") else EngagementOutcome.LOST
        detail = f"{roll.get('name')} {roll.get('total')}: {'passes' if roll.get('success') else 'fails'}"
    distance = _number(check.get("centre_distance_in"))
    # The centres the rules measured between (the ends of the line of fire), with the units' figures as
    # they were at that moment: the scenario's teams are out of date once an element has split or merged.
    corridor = check.get("corridor") if isinstance(check.get("corridor"), Mapping) else {}
    ends = [_number(corridor.get(k)) for k in ("ax_in", "ay_in", "bx_in", "by_in")]
    if all(v is not None for v in ends):
        origin, aim = (ends[0], ends[1]), (ends[2], ends[3])
    else:  # an older recording: the tracked figures' middle
        origin, aim = _centre(firer_ids, fact.t_s, where), _centre(target_ids, fact.t_s, where)
    yield Engagement(fact.t_s, min(firer_ids, default=-1), firer, str(check.get("firer_side") or fact.side or ""), "Fire",
                     int(odds["unit_id"]) if "unit_id" in odds else None, target, str(check.get("target_side", "")),
                     result, 1, 1 if result is EngagementOutcome.WON else 0, origin, aim, None, None, odds.get("p_hit"),
                     odds.get("p_kill_any") if words[1] is not None else None, fact.round, words, detail,
                     *_measured(distance, "centre to centre", origin, aim))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _measured(distance: float | None, how: str, origin: tuple[float, float] | None,
              to: tuple[float, float] | None) -> tuple[float | None, str]:
    """(distance, how it was measured): the rules' own, or the tracked positions' when they recorded none.

    >>> _measured(12.25, "base to base", (0.0, 0.0), (3.0, 4.0))
    (12.25, 'base to base')
    >>> _measured(None, "base to base", (0.0, 0.0), (3.0, 4.0))
    (5.0, 'tracked')
    """
    if distance is not None:
        return distance, how
    if origin is not None and to is not None:
        return math.dist(origin, to), "tracked"
    return None, ""


def _declared_engagements(fact: RulesFact, ruleset: Any, units: Mapping[int, UnitFacts],
                          where: Where) -> Iterable[Engagement]:
    """The engagements a ruleset declares for its own logged event (:class:`rules.ruleset.EngagementView`)."""
    try:
        views = ruleset.engagements(RulesEvent.from_json(fact.payload))
    except (KeyError, TypeError, ValueError):  # not an event of this program's: nothing to list
        return
    shown, words = _odds_of(fact)
    for v in views:
        attacker = units.get(v.attacker_id)
        target = units.get(v.target_id) if v.target_id is not None else None
        origin, to = where(v.attacker_id, fact.t_s), where(v.target_id, fact.t_s)
        odds = shown.get(v.target_id, {}) if v.target_id is not None else {}
        distance, measured = _measured(v.distance_in, front_end(ruleset).measured, origin, to)
        yield Engagement(fact.t_s, v.attacker_id, attacker.name if attacker else f"unit {v.attacker_id}",
                         attacker.side if attacker else str(fact.side or ""), v.weapon, v.target_id,
                         target.name if target else "nobody", target.side if target else "", EngagementOutcome(v.outcome),
                         v.shots, v.hits, origin, to, None, None, odds.get("p_hit"), odds.get("p_kill_any"), fact.round,
                         words, v.detail, distance, measured)


def _generic_shot(fact: RulesFact, outcome: Mapping[str, Any], units: Mapping[int, UnitFacts],
                  where: Where) -> Iterable[Engagement]:
    """A generic-rules shot: each unit it caught (the target hit, or everyone where it came down) and
    how far down the status ladder it went; a miss that caught nobody."""
    plan = outcome.get("plan") or {}
    attacker = int(plan.get("attacker", -1))
    name = str(plan.get("attacker_name") or (units[attacker].name if attacker in units else f"unit {attacker}"))
    side = str(plan.get("side") or fact.side or "")
    weapon = str(plan.get("weapon", ""))
    shown, words = _odds_of(fact)
    origin = where(attacker, fact.t_s)
    impact = None
    if outcome.get("impact_x_in") is not None and outcome.get("impact_y_in") is not None:
        impact = (float(outcome["impact_x_in"]), float(outcome["impact_y_in"]))
    aoe = float(plan.get("aoe_in") or 0.0)
    radius = aoe if aoe > 0 else None
    damages = [d for d in outcome.get("damages") or () if isinstance(d, Mapping)]
    target = plan.get("target")
    caught = {int(d["unit_id"]) for d in damages}
    rows: list[tuple[int, str, str, EngagementOutcome, int, str]] = []
    for d in damages:
        uid = int(d["unit_id"])
        result = EngagementOutcome.KILLED if d.get("destroyed") else EngagementOutcome.HIT
        change = f"{d.get('status_before')} -> {d.get('status_after')}" if d.get("applied") else "no damage got through"
        rows.append((uid, str(d.get("name", "")), str(d.get("side", "")), result, 1, change))
    if target is not None and int(target) not in caught:
        u = units.get(int(target))
        miss = not outcome.get("hit")
        detail = "a dummy: the shot was wasted" if outcome.get("dummy_removed") else ("missed" if miss else "no damage")
        rows.insert(0, (int(target), str(plan.get("target_name") or (u.name if u else "")), u.side if u else "",
                        EngagementOutcome.MISS if miss else EngagementOutcome.HIT, 0 if miss else 1, detail))
    # The plan's distance is to what was aimed at (base to base, or to the point); a unit caught elsewhere
    # in the area of effect was measured from where the shot came down, not from the firer.
    distance = _number(plan.get("distance_in"))
    aimed_how = "base to base" if target is not None else "to the aim point"
    for uid, target_name, target_side, result, hits, detail in rows:
        odds = shown.get(uid, {})
        to = where(uid, fact.t_s)
        how = _measured(distance, aimed_how, origin, to) if target is not None and uid == int(target) else (None, "in the blast")
        yield Engagement(fact.t_s, attacker, name, side, weapon, uid, target_name, target_side, result, 1, hits, origin,
                         to, impact, radius, odds.get("p_hit"), odds.get("p_kill_any"), fact.round,
                         words, detail, *how)
    if not rows:
        aim = (float(plan.get("intended_x_in", 0.0)), float(plan.get("intended_y_in", 0.0)))
        yield Engagement(fact.t_s, attacker, name, side, weapon, None, "nobody", "", EngagementOutcome.MISS, 1, 0, origin,
                         impact or aim, impact, radius, None, None, fact.round, words, "caught nobody",
                         *_measured(distance, aimed_how, origin, aim))


def _generic_close_combat(fact: RulesFact, outcome: Mapping[str, Any], units: Mapping[int, UnitFacts],
                          where: Where) -> Iterable[Engagement]:
    """A generic-rules close combat: the attacker's round against the defender and the return round."""
    shown, words = _odds_of(fact)
    a, d = int(outcome.get("attacker", -1)), int(outcome.get("defender", -1))

    def unit(uid: int, fallback: str) -> tuple[str, str]:
        u = units.get(uid)
        return (str(outcome.get(fallback) or (u.name if u else f"unit {uid}")), u.side if u else "")

    for striker, struck, levels, destroyed, status, odds in (
            (a, d, "defender_levels", "defender_destroyed", "defender_status", shown.get(d, {})),
            (d, a, "attacker_levels", "attacker_destroyed", "attacker_status", {})):
        if struck == a and not outcome.get(levels):
            continue  # the return round only when it did something
        s_name, s_side = unit(striker, "attacker_name" if striker == a else "defender_name")
        t_name, t_side = unit(struck, "defender_name" if struck == d else "attacker_name")
        lost = int(outcome.get(levels) or 0)
        result = EngagementOutcome.KILLED if outcome.get(destroyed) else EngagementOutcome.HIT if lost else EngagementOutcome.MISS
        before_after = outcome.get(status) or ("", "")
        detail = f"{before_after[0]} -> {before_after[1]}" if lost else "no effect"
        if striker == d:
            detail = "return round: " + detail
        # Close combat needs the bases adjacent (B.5); the rules record no distance, so none is made up.
        yield Engagement(fact.t_s, striker, s_name, s_side, "Close combat", struck, t_name, t_side, result, 1,
                         1 if lost else 0, where(striker, fact.t_s), where(struck, fact.t_s), None, None,
                         odds.get("p_hit"), odds.get("p_kill_any"), fact.round, words, detail, None, "adjacent")


def _hand_set_status(fact: RulesFact) -> tuple[int, str] | None:
    """(unit, new status) of a hand edit that took a unit out of the fight or brought it back: a Force
    on Force figure's ``casualty``/``removed``/``active``, a Down Range unit's ``down``/``removed``/``active``."""
    inputs = fact.payload.get("inputs") or {}
    if fact.kind != "edit" or not isinstance(inputs, Mapping):
        return None
    ref = inputs.get("figure", inputs.get("unit_id"))
    changes = inputs.get("changes")
    if not isinstance(ref, int) or not isinstance(changes, Mapping):
        return None
    status = {"casualty": "casualty", "down": "casualty", "removed": "removed", "active": "active"}.get(
        str(changes.get("status")))
    return (ref, status) if status else None


def _destroyed(outcome: Mapping[str, Any]) -> tuple[list[int], str]:
    """Units a generic-rules shot or close combat destroyed, and how."""
    if outcome.get("type") == "ShotResult":
        plan = outcome.get("plan") or {}
        ids = [int(d["unit_id"]) for d in outcome.get("damages") or () if isinstance(d, Mapping) and d.get("destroyed")]
        return ids, f"{plan.get('attacker_name', '')} with the {plan.get('weapon', '')}"
    if outcome.get("type") == "CloseCombatResult":
        ids = [int(outcome[k]) for k, flag in (("defender", "defender_destroyed"), ("attacker", "attacker_destroyed"))
               if outcome.get(flag)]
        return ids, f"close combat: {outcome.get('attacker_name', '')} against {outcome.get('defender_name', '')}"
    return [], ""


def _declared_casualties(rules: Iterable[RulesFact], units: Mapping[int, UnitFacts], ruleset: Any) -> Iterable[CasualtyChange]:
    """The casualties a ruleset declares for its own logged events (:class:`rules.ruleset.CasualtyView`)."""
    for fact in rules:
        try:
            views = ruleset.casualties(RulesEvent.from_json(fact.payload))
        except (KeyError, TypeError, ValueError):  # not an event of this program's
            continue
        for v in views:
            u = units.get(v.unit_id)
            yield CasualtyChange(fact.t_s, v.unit_id, u.name if u else f"unit {v.unit_id}", u.side if u else "",
                                 v.change, v.cause)


def _casualties(rules: Iterable[RulesFact], units: Mapping[int, UnitFacts]) -> Iterable[CasualtyChange]:
    down: set[int] = set()

    def unit(tag_id: int) -> tuple[str, str]:
        u = units.get(tag_id)
        return (u.name, u.side) if u else (f"unit {tag_id}", "")

    for fact in rules:
        outcome = fact.payload.get("outcome") or {}
        if not isinstance(outcome, Mapping):
            continue
        if outcome.get("type") == "TreatmentResult":
            patient = int(outcome.get("patient", -1))
            result = str(outcome.get("outcome", ""))
            medic = outcome.get("medic_name", "")
            if result in ("injured", "restored") and patient in down:
                down.discard(patient)
                yield CasualtyChange(fact.t_s, patient, *unit(patient), "back in play", f"treated by {medic} ({result})")
            elif result == "removed":
                down.add(patient)
                yield CasualtyChange(fact.t_s, patient, *unit(patient), "removed", f"treatment by {medic} failed")
            continue
        hand = _hand_set_status(fact)
        if hand is not None:  # a Force on Force casualty: the players' ruling after a fire, entered by hand
            tag_id, status = hand
            if status in ("casualty", "removed") and tag_id not in down:
                down.add(tag_id)
                yield CasualtyChange(fact.t_s, tag_id, *unit(tag_id), "down" if status == "casualty" else "removed",
                                     f"set by hand ({status})")
            elif status == "active" and tag_id in down:
                down.discard(tag_id)
                yield CasualtyChange(fact.t_s, tag_id, *unit(tag_id), "back in play", "set by hand")
            continue
        destroyed, how = _destroyed(outcome)
        for tag_id in destroyed:
            if tag_id not in down:
                down.add(tag_id)
                yield CasualtyChange(fact.t_s, tag_id, *unit(tag_id), "down", how)
        cause = fact.kind
        if outcome.get("type") == "AttackResult":
            cause = f"{outcome.get('attacker_name', '')} with the {outcome.get('weapon', '')}"
        for tag_id in _went_down(outcome):
            if tag_id not in down:
                down.add(tag_id)
                yield CasualtyChange(fact.t_s, tag_id, *unit(tag_id), "down", cause)


def _went_down(node: Any) -> list[int]:
    out: list[int] = []
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "went_down" and isinstance(value, list):
                out += [int(v) for v in value if isinstance(v, int)]
            else:
                out += _went_down(value)
    elif isinstance(node, list):
        for item in node:
            out += _went_down(item)
    return out


def _hand_set_emission(fact: RulesFact) -> tuple[int, Mapping[str, Any] | None] | None:
    """(unit, the emission token it was given, or None when it was taken away) of a hand edit that set
    or cleared one (Down Range's ``EditUnit`` with ``emission``); None for any other record."""
    inputs = fact.payload.get("inputs") or {}
    if fact.kind != "edit" or not isinstance(inputs, Mapping) or "unit_id" not in inputs:
        return None
    changes = inputs.get("changes")
    if not isinstance(changes, Mapping) or "emission" not in changes:
        return None
    token = changes["emission"]
    return int(inputs["unit_id"]), token if isinstance(token, Mapping) else None


#: Rule resolutions that put an emission token on the table (Down Range 5.1): kind -> (who, purpose),
#: and the hand edits that set one (who, its purpose "(set by hand)").
def _emitter(fact: RulesFact) -> tuple[int, str] | None:
    inputs = fact.payload.get("inputs") or {}
    outcome = fact.payload.get("outcome") or {}
    if not isinstance(inputs, Mapping) or not isinstance(outcome, Mapping):
        return None
    hand = _hand_set_emission(fact)
    if hand is not None:
        unit_id, token = hand
        if token is None:
            return None
        purpose = str(token.get("purpose") or "emission")
        if token.get("jamming"):
            purpose += ", jamming"
        return unit_id, purpose if "by hand" in purpose else f"{purpose} (set by hand)"
    if fact.kind == "signal" and "unit_id" in inputs:
        purpose = "fires observation" if "observation" in outcome else str(outcome.get("emission") or inputs.get("purpose", "signal"))
        return int(inputs["unit_id"]), purpose
    if fact.kind == "rpv" and inputs.get("type") == "ControlRpv":
        return int(inputs["operator_id"]), "RPV control"
    if fact.kind == "main effort" and outcome.get("by_radio") and "commander_id" in inputs:
        return int(inputs["commander_id"]), "Main Effort by radio"
    if fact.kind == "sigint" and outcome.get("shared") and "unit_id" in inputs:
        return int(inputs["unit_id"]), "SIGINT share"
    if fact.kind == "jamming" and "unit_id" in inputs:
        return int(inputs["unit_id"]), "jamming"
    return None


def _emissions(rules: list[RulesFact], units: Mapping[int, UnitFacts], game: Any, casualties: tuple[CasualtyChange, ...],
               where: Callable[[int | None, float], tuple[float, float] | None]) -> Iterable[EmissionFact]:
    ew_units = _ew_units(game)
    sigint_range = float(getattr(getattr(game, "options", None), "sigint_range_in", math.inf))
    for i, fact in enumerate(rules):
        found = _emitter(fact)
        if found is None:
            continue
        tag_id, purpose = found
        u = units.get(tag_id)
        name, side = (u.name, u.side) if u else (f"unit {tag_id}", fact.side or "")
        # The token lifts at the start of its side's next turn (a hand-set one: of the side it names),
        # or when a player takes it away by hand first.
        hand = _hand_set_emission(fact)
        lifts_at = str((hand[1] or {}).get("until_start_of") or side) if hand is not None else side
        ends = [r.t_s for r in rules[i + 1:] if r.kind == "turn" and r.side == lifts_at
                and isinstance(r.payload.get("inputs"), Mapping) and r.payload["inputs"].get("side") == lifts_at][:1]
        ends += [r.t_s for r in rules[i + 1:] if (_hand_set_emission(r) or (None, {}))[0] == tag_id][:1]
        until = min(ends, default=None)
        down = {c.tag_id for c in casualties if c.t_s <= fact.t_s and c.change != "back in play"} - {
            c.tag_id for c in casualties if c.t_s <= fact.t_s and c.change == "back in play"}
        here = where(tag_id, fact.t_s)
        could = []
        for ew_id, ew_name, ew_side in ew_units:
            if ew_side == side or ew_id in down:
                continue
            if math.isinf(sigint_range):
                could.append(ew_name)
                continue
            there = where(ew_id, fact.t_s)
            if here is not None and there is not None and math.dist(here, there) <= sigint_range:
                could.append(ew_name)
        end = math.inf if until is None else until
        located = tuple(sorted({units[int(r.payload["inputs"]["unit_id"])].name if int(r.payload["inputs"]["unit_id"]) in units else "EW unit"
                                for r in rules[i + 1:] if r.kind == "sigint" and r.t_s <= end
                                and tag_id in (r.payload.get("outcome") or {}).get("found", [])}))
        if located:
            note = f"located by SIGINT ({', '.join(located)})"
        elif could:
            reach = "anywhere on the table" if math.isinf(sigint_range) else f"within {sigint_range:g}\""
            note = f"could have been located by {', '.join(could)} (SIGINT sees emitters {reach})"
        else:
            note = "no enemy EW unit in the fight: it could not be located"
        yield EmissionFact(fact.t_s, tag_id, name, side, purpose, until, tuple(could), located, note)


def _ew_units(game: Any) -> list[tuple[int, str, str]]:
    if game is None:
        return []
    try:
        from rules.downrange.command import is_ew

        return [(u.unit_id, u.name, u.side) for u in game.units if is_ew(game, u)]
    except Exception:  # another ruleset: no EW notion the debrief knows of
        return []
