"""What happened in a recorded session, as plain facts: the model behind the debrief report (Qt-free).

``read_debrief_facts(path)`` reads a recording through the one reader the GUI replay uses too
(:mod:`appmodel.recording.reader`: the setup, typed rules rows, units in the session's side colours,
trails) and derives:

* the units (roster, side colours) and each unit's **trail** on the table, split where it was lifted;
* the tracker's events and the instructor's **bookmarks**;
* every **rule resolution** with the ruleset's own sentences (``ruleset.explain``), every die rolled
  with its exact odds (the ruleset's ``recorded_rolls``) and the odds shown before the roll;
* **engagements**: who fired at whom, from where to where, and how it came out (killed, hit without a
  kill, miss, suppressed; a test won, lost or drawn), with the odds shown in the ruleset's own words;
* **casualties** over time (down, back in play after treatment, removed, set by hand);
* **emissions**: who put an emission token on the table, until when, and which enemy EW unit could
  have located it (or did, with SIGINT).

What a logged event means -- its engagements, casualties, emissions and rolls -- is the rule system's
to say (:meth:`rules.ruleset.Ruleset.engagements`, ``casualties``, ``emissions``,
``recorded_rolls``); this module adds what only the recording knows: names from its
roster, places from the tracked poses at the time, the odds shown before each roll.

A recording that was cut off (the program killed mid-game, the disk full) still gives its facts; what
is missing is listed in ``problems``. A damaged table is reported there too instead of stopping.
"""
from __future__ import annotations

import enum
import json
import math
import sqlite3
from functools import partial
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appmodel.recording.reader import (TRAIL_STEP_S, UNKNOWN_SIDE_COLOR, OutAtStart, Trail, UnitFacts, out_at_start,
                                       position_at, recorded_setup, recorded_side_colors, rules_record, start_state_json,
                                       trail_of, units_of)
from appmodel.errors import UsageError
from appmodel.recording.contour_interval import read_contour_interval
from appmodel.recording.review import ReviewEvent, bookmark_event
from appmodel.recording.review_builder import planned_topics, review_of_rows
from appmodel.session import scenario_facts
from appmodel.session.tracked_poses import replayed_poses
from appmodel.session.review_topics import ReviewTopic, review_topics, split_topic
from rules.events import RulesEvent
from rules.ruleset import EmissionView, RollView, front_end
from tracker.recording.schema import is_bookkeeping

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
class RulesFact:
    """One recorded rule resolution."""

    t_s: float
    kind: str
    summary: str
    sentences: tuple[str, ...] = ()
    seq: int | None = None
    round: int | None = None
    side: str | None = None
    rolls: tuple[RollView, ...] = ()
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
    #: The review topic the instructor attached it to ("" for none, and in older recordings).
    topic: str = ""


@dataclass(frozen=True)
class TopicMoment:
    """One moment of a review topic: a bookmark attached to it or a recorded event that matches it."""

    t_s: float
    source: str  # "bookmark" or the recorded event's kind
    text: str


@dataclass(frozen=True)
class TopicFact:
    """A review topic planned in the scenario (``[[review_topics]]``) with its moments in time order."""

    name: str
    criteria: str  # what it matches, in words ("units Alpha; kinds attack; 0:00-10:00")
    moments: tuple[TopicMoment, ...]


@dataclass(frozen=True)
class ActionFact:
    """An action besides attacks (a treatment and whether the patient was saved, a Signal and who heard
    it, jamming and what it cut, a boarding), in the rule system's words
    (:meth:`rules.ruleset.Ruleset.action_summaries`), with the odds shown before its roll, if any."""

    t_s: float
    round: int | None
    side: str | None
    kind: str
    words: tuple[str, ...]
    odds: tuple[dict[str, Any], ...] = ()


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
    #: The actions besides attacks, in the rule system's words, in time order.
    actions: tuple[ActionFact, ...] = ()
    #: Whether the rule system has emissions at all (:attr:`~rules.ruleset.Ruleset.has_emissions`): a report
    #: for one without them has no "Signals and emissions" section rather than an empty one.
    emissions_apply: bool = True
    #: Each unit's poses as read for its trail, (N, 4) t_s, x_in, y_in, heading_deg (one per
    #: ``TRAIL_STEP_S``, every stop and lift): the report's timeline thins them into its tracks
    #: rather than reading millions of poses a second time.
    tracks: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)
    #: The scenario's review topics, each with its bookmarks and matching events (docs/debrief.md).
    topics: tuple[TopicFact, ...] = ()
    #: The scenario's target terrain on the table's grid (rules.terrain_sight.Ground) and the map it
    #: comes from (calibration.target_terrain.TargetTerrain), for the map's contour lines; None without one.
    relief: Any = None
    target: Any = None
    #: The rule system's MIL-STD-2525 symbols with the scenario's overrides
    #: (rules.military_symbols.SymbolTable) for the map's unit symbols; None for a system without them.
    symbols: Any = None
    #: The contour interval the window drew when the game was recorded, the map's unless
    #: ``--contour-interval`` says otherwise (:class:`appmodel.recording.contour_interval.RecordedContours`;
    #: None: a recording that does not say, then the map's own default).
    contours: Any = None
    #: The after-action review's events (:class:`appmodel.recording.review.ReviewEvent`), as the replay
    #: window lists them: kills, hits, signals with whom they reached, actions, bookmarks... in time order.
    review: tuple[Any, ...] = ()

    def unit(self, tag_id: int) -> UnitFacts | None:
        return next((u for u in self.units if u.tag_id == tag_id), None)

    def color_of(self, side: str) -> str:
        return self.side_colors.get(side, UNKNOWN_SIDE_COLOR)

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

    def rolls(self) -> list[tuple[RulesFact, RollView]]:
        return [(fact, roll) for fact in self.rules for roll in fact.rolls]

    def rules_until(self, t_s: float) -> tuple[RulesFact, ...]:
        return tuple(r for r in self.rules if r.t_s <= t_s)


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
    setup = recorded_setup(meta)
    if setup.problem:
        problems.append(setup.problem)
    scenario, ruleset_name, table_size = setup.scenario, setup.ruleset_name, setup.table_size_in

    recorded_units: dict[int, dict[str, Any]] = safely("units table", lambda: reader.units, {})
    game = _game(ruleset_name, scenario, meta, problems)
    side_colors = recorded_side_colors(scenario, recorded_units)
    units = units_of(recorded_units, scenario, side_colors)
    names = {u.tag_id: u for u in units}

    symbols = _symbols(ruleset_name, scenario, problems)
    _draw_map_symbols(symbols, units, tuple(side_colors))  # before the tracks: see _draw_map_symbols

    tracker_events = tuple(safely("tracker events", reader.events_between, []))
    trails: dict[int, Trail] = {}
    tracks: dict[int, Any] = {}
    unit_ids = sorted(recorded_units)
    # Every unit's track in one pass through the index, a stretch of the game at a time (the progress bar
    # follows the game's clock): a three-hour game is not read unit by unit, 40 times over.
    read = safely("poses", lambda: reader.tracks(step_s=TRAIL_STEP_S, tag_ids=unit_ids,
                                                 progress=lambda done, total: report("poses", int(done), int(total))), {})
    for tag_id in unit_ids:
        track = read.get(tag_id)
        if track is not None and len(track):
            tracks[tag_id] = track
            lifts = [e.t_s for e in tracker_events if e.tag_id == tag_id and e.kind.value == "lifted"]
            trail = trail_of(tag_id, track, lifts)
            if trail.runs:
                trails[tag_id] = trail

    # The session's full game states are left unread (in a long game they are most of the file): only
    # the first one, the game as it stood when the recording started, is read.
    every_row = safely("rules events", lambda: list(reader.iter_rules_events(states_later=True)), [])
    records = [r for r in every_row if not is_bookkeeping(r.kind)]
    ruleset = _ruleset(ruleset_name)
    # A recording started mid-game opens with the game as it stood: who was already out of the fight.
    already_out = out_at_start(ruleset, start_state_json(every_row, reader.rules_payload))
    rules: list[RulesFact] = []
    logged: list[tuple[RulesFact, RulesEvent | None]] = []
    for i, record in enumerate(records):
        recorded = rules_record(record.t_s, record.kind, record.payload)
        event = recorded.event
        fact = _rules_fact(record, event, recorded.odds_json, ruleset, game)
        rules.append(fact)
        logged.append((fact, event))
        report("rules events", i + 1, len(records))

    def where(tag_id: int | None, t_s: float) -> tuple[float, float] | None:
        if tag_id is None or tag_id not in trails:
            return None
        return position_at(trails[tag_id], t_s)

    engagements = tuple(e for fact, event in logged for e in _engagements(fact, event, ruleset, game, names, where))
    casualties = tuple(_casualties_at_start(already_out, names)) + tuple(_casualties(logged, names, ruleset,
                                                                                       down_at_start=already_out))
    actions = tuple(_actions(logged, ruleset))
    emissions = tuple(_emissions(logged, names, game, ruleset, casualties, where))
    recorded_bookmarks = safely("bookmarks", reader.bookmarks, [])
    bookmarks = tuple(BookmarkFact(b.t_s, split_topic(b.note)[1], split_topic(b.note)[0]) for b in recorded_bookmarks)
    review = _review(every_row, ruleset, game, scenario, reader, recorded_bookmarks, tracker_events)
    topics = _topics(scenario, names, rules, bookmarks, problems)
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
        actions=actions,
        emissions=emissions,
        emissions_apply=ruleset is not None and ruleset.has_emissions,
        bookmarks=bookmarks,
        **_target_terrain(scenario, meta.get("scenario_path", ""), ruleset_name, table_size, problems),
        symbols=symbols,
        problems=tuple(problems),
        tracks=tracks,
        topics=topics,
        contours=read_contour_interval(meta),
        review=review,
    )


def _review(rows: list[Any], ruleset: Any, game: Any, scenario: Mapping[str, Any], reader: Any,
            bookmarks: list[Any], tracker_events: tuple[Any, ...]) -> tuple[ReviewEvent, ...]:
    """The after-action review's events, built by the replay window's builder over the same rows
    (:mod:`appmodel.recording.review_builder`): a game state is read only after a signal whose reach the
    rule system does not say. Without a rule system or a game to read them by, the bookmarks alone."""
    if ruleset is None or game is None:
        return tuple(bookmark_event(b.t_s, b.note) for b in sorted(bookmarks, key=lambda b: b.t_s))

    def state_of(row_id: int) -> Any:
        try:
            data = reader.rules_payload(row_id)["state"]
        except sqlite3.DatabaseError as exc:  # a damaged state: that signal's reach stays unknown
            raise KeyError(row_id) from exc
        # Read without its history: who a signal reached is the signal and jamming overlays' (where the
        # units stand, what they carry), and rebuilding every earlier event of a three-hour game for
        # each of its signals took seconds (80 states: 8.7 s of 13 s).
        return ruleset.load_state({**data, "events": []} if isinstance(data, dict) else data)

    def state_at(t_s: float) -> Any:
        # a signal no recorded state follows: a recording of the rules alone, whose game is its start
        # with the units where the tracker saw them (as the replay shows that moment)
        try:
            poses = reader.poses_at(t_s)
        except sqlite3.DatabaseError as exc:
            raise KeyError(t_s) from exc
        return replayed_poses(ruleset, game, poses, base_height_in=partial(scenario_facts.base_height_in, scenario))

    return tuple(review_of_rows(rows, ruleset=ruleset, initial_state=game, topics=planned_topics(scenario),
                                state_of_row=state_of, bookmarks=bookmarks, tracker_events=tracker_events,
                                state_at=state_at))


def _topics(scenario: Mapping[str, Any], names: Mapping[int, UnitFacts], rules: list[RulesFact],
            bookmarks: tuple[BookmarkFact, ...], problems: list[str]) -> tuple[TopicFact, ...]:
    """Each planned review topic with its bookmarks (by topic name, any case) and the rules events that
    match all it names: of its kinds, in its window, naming one of its units (the rules' sentences
    name the units they resolve, so the unit's name in them is what ties an event to a unit). Bookmarks
    attached to a topic the scenario does not plan get a topic of their own, after the planned ones."""
    try:
        planned = list(review_topics(scenario))
    except UsageError as exc:
        problems.append(f"the scenario's review topics could not be read ({exc}); the report shows the rest")
        planned = []
    known = {t.name.casefold() for t in planned}
    planned += [ReviewTopic(name) for name in dict.fromkeys(b.topic for b in bookmarks if b.topic)
                if name.casefold() not in known]
    out = []
    for topic in planned:
        moments = [TopicMoment(b.t_s, "bookmark", b.note) for b in bookmarks if b.topic.casefold() == topic.name.casefold()]
        unit_names = [names[t].name for t in topic.unit_tags if t in names]
        if topic.unit_tags or topic.kinds or topic.from_s is not None or topic.until_s is not None:
            for r in rules:
                text = " ".join((r.summary, *r.sentences))
                if (topic.in_window(r.t_s) and topic.covers_kind(r.kind)
                        and (not unit_names or any(n and n in text for n in unit_names))):
                    moments.append(TopicMoment(r.t_s, r.kind, r.summary))
        out.append(TopicFact(topic.name, _criteria_words(topic, unit_names), tuple(sorted(moments, key=lambda m: m.t_s))))
    return tuple(out)


def _criteria_words(topic: ReviewTopic, unit_names: list[str]) -> str:
    def clock(t: float) -> str:
        return f"{int(t) // 60}:{int(t) % 60:02d}"

    parts = []
    if unit_names:
        parts.append("units " + ", ".join(unit_names))
    if topic.kinds:
        parts.append("kinds " + ", ".join(topic.kinds))
    if topic.from_s is not None or topic.until_s is not None:
        parts.append(f"{clock(topic.from_s or 0.0)}-{'end' if topic.until_s is None else clock(topic.until_s)}")
    return "; ".join(parts) or "bookmarks only"


def _target_terrain(scenario: Mapping[str, Any], path: str, ruleset_name: str, table_size: tuple[float, float],
                    problems: list[str]) -> dict[str, Any]:
    """The scenario's ``[target_terrain]`` for the map's contours (read from the scenario's folder; a
    map that moved since is a problem line, not a failed report)."""
    if not scenario.get("target_terrain") or not path:
        return {}
    from appmodel.overlays.sand_map_model import sand_map_from_scenario
    from calibration.errors import CalibrationError

    try:
        sand = sand_map_from_scenario({"target_terrain": scenario["target_terrain"]}, path, ruleset_name, table_size)
    except (CalibrationError, OSError, ValueError) as exc:
        problems.append(f"the scenario's target terrain could not be read ({exc}); the map has no contours")
        return {}
    return {"relief": sand.target_ground, "target": sand.target}


#: The map's unit symbols: milsymbol's size (about the frame's height, pixels) and white outline.
MAP_SYMBOL_PX, MAP_SYMBOL_OUTLINE_PX = 40.0, 2.0


def map_symbol(symbols: Any, unit: UnitFacts, sides: tuple[str, ...]) -> Any:
    """``unit``'s symbol as the debrief's map draws it (appmodel.overlays.unit_symbols.UnitSymbol)."""
    from appmodel.overlays.unit_symbols import unit_symbol

    return unit_symbol(symbols.sidc_for_unit(unit.type_name, unit.side, sides, tag_id=unit.tag_id),
                       size_px=MAP_SYMBOL_PX, outline_px=MAP_SYMBOL_OUTLINE_PX)


def _draw_map_symbols(symbols: Any, units: Iterable[UnitFacts], sides: tuple[str, ...]) -> None:
    """Draw every unit's map symbol now (they are kept, drawn) and free the symbol library's tables:
    drawn later, beside a long game's tracks, the tables' 130 MB were the debrief's peak."""
    if symbols is None:
        return
    from appmodel.overlays.unit_symbols import release_symbol_tables

    for unit in units:
        try:
            map_symbol(symbols, unit, sides)
        except UsageError:
            pass  # a code milsymbol does not know: the map says so when it draws the unit
    release_symbol_tables()


def _symbols(ruleset_name: str, scenario: Mapping[str, Any], problems: list[str]) -> Any:
    """The symbols the map draws the units with (None, and a problem line, when the scenario's
    [symbols] cannot be read: the map then shows dots only)."""
    from appmodel.overlays.sand_map_model import symbol_table
    from rules.errors import RulesError

    try:
        return symbol_table(ruleset_name, scenario)
    except RulesError as exc:
        problems.append(f"the scenario's military symbols could not be read ({exc}); the map shows dots")
        return None


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


def _rules_fact(record: Any, event: RulesEvent | None, odds: Any, ruleset: Any, game: Any) -> RulesFact:
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
    rolls: tuple[RollView, ...] = ()
    if ruleset is not None:
        try:
            rolls = tuple(ruleset.recorded_rolls(event, game))
        except (TypeError, ValueError, KeyError, AttributeError):  # a result this program does not know
            rolls = ()
    if not rolls and event.rolls:  # a result without a roll we know: every die as recorded, no odds
        rolls = tuple(RollView(r.label, f"{r.count}d{r.sides}", "", tuple(r.faces) if r.faces else None, r.dice_total,
                               "", None, None) for r in event.rolls)
    return RulesFact(record.t_s, event.kind, event.summary, sentences or (event.summary,), event.seq, event.round,
                     event.side, rolls, odds, tuple(event.warnings), payload)


Where = Callable[[int | None, float], tuple[float, float] | None]


def _actions(rules: Iterable[tuple[RulesFact, RulesEvent | None]], ruleset: Any) -> Iterable[ActionFact]:
    """The recorded actions besides attacks, as the ruleset words them (an event it cannot read is left out)."""
    if ruleset is None:
        return
    for fact, event in rules:
        if event is None:
            continue
        try:
            words = tuple(ruleset.action_summaries(event))
        except (TypeError, ValueError, KeyError, AttributeError):
            continue
        if words:
            yield ActionFact(fact.t_s, fact.round, fact.side, fact.kind, words, fact.odds)


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


def _engagements(fact: RulesFact, event: RulesEvent | None, ruleset: Any, game: Any, units: Mapping[int, UnitFacts],
                 where: Where) -> Iterable[Engagement]:
    """The engagements the ruleset declares for one logged event (:class:`rules.ruleset.EngagementView`),
    with what the recording adds: names and sides from its roster, places from the tracked poses at the
    time, and the odds shown before the roll."""
    if event is None or ruleset is None:
        return
    try:
        views = ruleset.engagements(event, game)
    except (KeyError, TypeError, ValueError):  # not an event of this program's: nothing to list
        return
    shown, words = _odds_of(fact)
    for v in views:
        odds: Mapping[str, Any] = {}
        if v.odds == "first shown":
            odds = next(iter(shown.values()), {})
        elif v.odds == "target":
            odds = shown.get(v.target_id, {}) if v.target_id is not None else \
                next((o for o in fact.odds if v.target_name and o.get("name") == v.target_name), {})
        target_id = v.target_id
        target_ids: tuple[int, ...] = (target_id,) if target_id is not None else ()
        if target_id is None and v.odds == "target" and "unit_id" in odds:  # named only: the unit the odds named so
            target_id = int(odds["unit_id"])
            target_ids = tuple(int(m) for m in odds.get("members") or ()) or (target_id,)
        attacker, target = units.get(v.attacker_id), units.get(target_id) if target_id is not None else None
        origin = v.from_in or _centre(v.attacker_ids or (v.attacker_id,), fact.t_s, where)
        to = v.to_in or _centre(target_ids, fact.t_s, where)
        if v.distance_in is not None:
            distance, measured = v.distance_in, v.measured or front_end(ruleset).measured
        elif v.measured:  # the rules measured none and say why ("adjacent", "in the blast")
            distance, measured = None, v.measured
        else:
            distance, measured = _measured(None, "", origin, to)
        name = v.attacker_name or (attacker.name if attacker else f"unit {v.attacker_id}")
        side = v.side or (attacker.side if attacker else "") or str(fact.side or "")
        target_name = v.target_name or (target.name if target else f"unit {target_id}" if target_id is not None else "nobody")
        target_side = v.target_side or (target.side if target else "")
        p_kill = odds.get("p_kill_any", odds.get("p_kill")) if words[1] is not None else None
        yield Engagement(fact.t_s, v.attacker_id, name, side, v.weapon, target_id, target_name, target_side,
                         EngagementOutcome(v.outcome), v.shots, v.hits, origin, to, v.impact_in, v.radius_in,
                         odds.get("p_hit"), p_kill, fact.round, words, v.detail, distance, measured)


def _casualties_at_start(out: Iterable[OutAtStart], units: Mapping[int, UnitFacts]) -> Iterable[CasualtyChange]:
    """Units already out of the fight when the recording started, at its time 0."""
    for o in out:
        u = units.get(o.unit_id)
        yield CasualtyChange(0.0, o.unit_id, u.name if u else f"unit {o.unit_id}", u.side if u else "", "down",
                             f"{o.status} before the recording started")


def _casualties(rules: Iterable[tuple[RulesFact, RulesEvent | None]], units: Mapping[int, UnitFacts],
                ruleset: Any, *, down_at_start: Iterable[OutAtStart] = ()) -> Iterable[CasualtyChange]:
    """The casualties the ruleset declares for its logged events (:class:`rules.ruleset.CasualtyView`),
    each change once: a unit already down does not go down again, only a unit out of the fight comes back."""
    if ruleset is None:
        return
    down: set[int] = {o.unit_id for o in down_at_start}
    removed: set[int] = set()
    for fact, event in rules:
        if event is None:
            continue
        try:
            views = ruleset.casualties(event)
        except (KeyError, TypeError, ValueError):  # not an event of this program's
            continue
        for v in views:
            if v.change == "back in play":
                if v.unit_id not in down:
                    continue
                down.discard(v.unit_id)
                removed.discard(v.unit_id)
            elif v.unit_id in (removed if v.change == "removed" else down):
                continue
            else:
                down.add(v.unit_id)
                if v.change == "removed":
                    removed.add(v.unit_id)
            u = units.get(v.unit_id)
            yield CasualtyChange(fact.t_s, v.unit_id, u.name if u else f"unit {v.unit_id}", u.side if u else "",
                                 v.change, v.cause)


def _emissions(rules: list[tuple[RulesFact, RulesEvent | None]], units: Mapping[int, UnitFacts], game: Any, ruleset: Any,
               casualties: tuple[CasualtyChange, ...], where: Where) -> Iterable[EmissionFact]:
    """Each emission token the ruleset declares (:class:`rules.ruleset.EmissionView`): until when it
    stayed on the table, and which enemy unit that locates emitters could have found it (or did)."""
    if ruleset is None or not ruleset.has_emissions:
        return
    declared: list[tuple[RulesFact, tuple[EmissionView, ...]]] = []
    for fact, event in rules:
        try:
            declared.append((fact, ruleset.emissions(event) if event is not None else ()))
        except (KeyError, TypeError, ValueError):  # not an event of this program's
            declared.append((fact, ()))
    try:
        locators = ruleset.locators(game) if game is not None else ()
    except (KeyError, TypeError, ValueError, AttributeError):  # a game from another program: nobody known to listen
        locators = ()
    for i, (fact, views) in enumerate(declared):
        for token in (v for v in views if v.change == "emits"):
            tag_id, purpose = token.unit_id, token.purpose
            u = units.get(tag_id)
            name, side = (u.name, u.side) if u else (f"unit {tag_id}", fact.side or "")
            # The token lifts at the start of its side's next turn (a hand-set one: of the side it names),
            # or when a player changes it by hand first.
            lifts_at = token.until_start_of or side
            later = declared[i + 1:]
            ends = [r.t_s for r, _ in later if r.kind == "turn" and r.side == lifts_at
                    and isinstance(r.payload.get("inputs"), Mapping) and r.payload["inputs"].get("side") == lifts_at][:1]
            ends += [r.t_s for r, vs in later if any(w.by_hand and w.unit_id == tag_id for w in vs)][:1]
            until = min(ends, default=None)
            down = {c.tag_id for c in casualties if c.t_s <= fact.t_s and c.change != "back in play"} - {
                c.tag_id for c in casualties if c.t_s <= fact.t_s and c.change == "back in play"}
            here = where(tag_id, fact.t_s)
            could = []
            for ear in locators:
                if ear.side == side or ear.unit_id in down:
                    continue
                if math.isinf(ear.reach_in):
                    could.append(ear)
                    continue
                there = where(ear.unit_id, fact.t_s)
                if here is not None and there is not None and math.dist(here, there) <= ear.reach_in:
                    could.append(ear)
            end = math.inf if until is None else until
            located = tuple(sorted({units[w.by_unit].name if w.by_unit in units else "EW unit"
                                    for r, vs in later if r.t_s <= end
                                    for w in vs if w.change == "located" and w.unit_id == tag_id}))
            if located:
                note = f"located by SIGINT ({', '.join(located)})"
            elif could:
                reach_in = max(ear.reach_in for ear in could)
                reach = "anywhere on the table" if math.isinf(reach_in) else f"within {reach_in:g}\""
                note = f"could have been located by {', '.join(ear.name for ear in could)} (SIGINT sees emitters {reach})"
            else:
                note = "no enemy EW unit in the fight: it could not be located"
            yield EmissionFact(fact.t_s, tag_id, name, side, purpose, until, tuple(ear.name for ear in could), located, note)
