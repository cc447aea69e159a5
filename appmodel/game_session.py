"""The game session the companion shows: rules state, tracked poses, selection, attack, log, recording.

:class:`GameSession` is the Qt-free model of the application (napari's layer models): it composes the
ruleset's game state, the tracker's poses and events, the dice, the log and the recorder, and tells
its views what changed through :class:`appmodel.observer.Signal` ``changed(kind)`` — kinds ``"state"``,
``"selection"``, ``"attack"``, ``"log"``, ``"recording"``. Widgets, the projector window, the
headless demo video and the tests all drive this one object; nothing here imports Qt.

The tracker never imports rules: the session turns its poses into ``ruleset.set_pose`` calls
(:meth:`GameSession.apply_poses`) and tells it when a turn starts (``turn_started``, which the live
loop forwards to ``Tracker.start_turn`` on its own thread). Every state change made by the rules is
logged in plain words and, while recording, handed to ``Recorder.record_rules_event`` together with
the state it produced, so a replay shows the overlays and log as they were.

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
>>> s.select_unit(13); s.snapshot().selected_weapon
'Carl Gustaf / MAAWS'
"""
from __future__ import annotations

import math
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from appmodel.errors import UsageError
from appmodel.observer import Signal
from appmodel.rules_payload import odds_json
from appmodel.session.attack_analysis import AttackAnalysis
from appmodel.session.attacks import AttackDraft, MissMarker, PendingLanding
from appmodel.session.dice_sources import CapturingDice, Entry, NeedDice, ProbeDice, ReplayThenDice
from appmodel.session.game_log import LogEntry, clock_text
from appmodel.session.procedures import Procedure
from appmodel.session.scenario_facts import DEFAULT_SIDE_COLORS
from appmodel.session.snapshot import Snapshot, SnapshotInputs
from appmodel.session.tape import TapeMeasure
from appmodel.session.tracked_poses import HEADING_EPS_DEG, POSE_EPS_IN, pose_state, set_tracked_pose, sharing_spot
from rules.dice import DiceSource, EnteredDice, RollRequest, SeededDice
from rules.errors import RulesError
from rules.events import RulesEvent
from rules.geometry import distance_to_point_in, gap_in
from rules.ruleset import GroupedRuleset, GroupHandEdits, GroupView, HandEdits, OddsLegend, Resolution, Ruleset, \
    TargetOdds, UnitView, get_ruleset
from tracker.recording.schema import LOG_KIND, STATE_KIND_PREFIX, VIEW_KIND

XY = tuple[float, float]
#: Names other modules imported from here before the session was split into parts.
_clock_text = clock_text
_pose_state = pose_state
_sharing_spot = sharing_spot
_NeedDice, _ProbeDice, _CapturingDice, _ReplayThenDice = NeedDice, ProbeDice, CapturingDice, ReplayThenDice


def _default_clock() -> Callable[[], float]:
    start = time.monotonic()
    return lambda: time.monotonic() - start


class GameSession:
    """One game at the table (mutable; single-threaded: call it from the UI thread or the demo loop).
    Other threads get frozen values only: a view's overlay worker builds the snapshot from
    :meth:`snapshot_inputs` and hands it back (:meth:`adopt_snapshot`)."""

    def __init__(self, ruleset: Ruleset, state: Any, *, scenario: Mapping[str, Any] | None = None,
                 scenario_path: str | None = None, table_size_in: XY | None = None,
                 dice: DiceSource | None = None, clock: Callable[[], float] | None = None) -> None:
        self.ruleset = ruleset
        self._state = state
        self.scenario: Mapping[str, Any] = dict(scenario or {})
        self.scenario_path = scenario_path
        table = self.scenario.get("table", {}) if isinstance(self.scenario.get("table"), Mapping) else {}
        self.table_size_in: XY = table_size_in or (float(table.get("width_in", 72.0)), float(table.get("depth_in", 48.0)))
        self.side_colors = self._side_colors()
        self.radio_units = frozenset(int(u["tag_id"]) for u in self.scenario.get("units", [])
                                     if any("radio" in str(e).lower() for e in u.get("equipment", ())))
        self.dice: DiceSource = dice or SeededDice()
        #: the ground's heights (rules.terrain_sight.Ground) for line of sight over the relief, or None
        self.ground: Any = None
        self._clock = clock or _default_clock()
        self._tracked_t_s: float | None = None
        self.changed = Signal()
        self.turn_started = Signal()
        self.log: list[LogEntry] = []
        self.recorder: Any | None = None
        self._selected: int | None = None
        self._weapon: str | None = None
        self._blast_point: XY | None = None
        self._tape: TapeMeasure | None = None
        #: Templates players placed and keep (appmodel.placed_templates.TemplateBoard); see set_templates.
        self.templates: Any = None
        self._draft: AttackDraft | None = None
        self._pending: PendingLanding | None = None
        self._miss: MissMarker | None = None
        self._moved_seen: dict[int, float] = {}
        #: Units whose own tag the tracker has seen: they move on their own, never as riders.
        self._tagged: set[int] = set()
        self._version = 0
        self._snapshot: Snapshot | None = None
        self._analysis: AttackAnalysis | None = None
        self._units_of: tuple[Any, tuple[UnitView, ...]] | None = None

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_scenario_file(cls, path: str | Path, *, seed: int | None = None,
                           clock: Callable[[], float] | None = None) -> "GameSession":
        """A session on the scenario file at ``path`` (docs/scenario-format.md)."""
        path = Path(path)
        try:
            with path.open("rb") as fh:
                scenario = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise UsageError(f"scenario {str(path)!r} is not valid TOML ({exc}); fix the line it names") from None
        return cls.from_scenario(scenario, source=str(path), base_dir=str(path.parent), seed=seed, clock=clock)

    @classmethod
    def from_scenario(cls, scenario: Mapping[str, Any], *, source: str = "<scenario>", base_dir: str | None = None,
                      seed: int | None = None, clock: Callable[[], float] | None = None) -> "GameSession":
        ruleset = get_ruleset(str(scenario.get("ruleset", "down-range")))
        state = ruleset.new_game(scenario, source=source, base_dir=base_dir)
        return cls(ruleset, state, scenario=scenario, scenario_path=source if source != "<scenario>" else None,
                   dice=SeededDice(seed), clock=clock)

    def _side_colors(self) -> dict[str, str]:
        colors: dict[str, str] = {}
        sides = [s for s in self.scenario.get("sides", []) if isinstance(s, Mapping)]
        for i, side in enumerate(sides):
            colors[str(side.get("name"))] = str(side.get("color") or DEFAULT_SIDE_COLORS[i % len(DEFAULT_SIDE_COLORS)])
        for u in self.ruleset.units(self._state):
            if u.side not in colors:
                colors[u.side] = DEFAULT_SIDE_COLORS[len(colors) % len(DEFAULT_SIDE_COLORS)]
        return colors

    # -- reading --------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._state

    @property
    def pending(self) -> PendingLanding | None:
        return self._pending

    def now_s(self) -> float:
        """Session time: the tracker's frame time when tracking, else the wall clock since the start."""
        return self._tracked_t_s if self._tracked_t_s is not None else self._clock()

    def units(self) -> tuple[UnitView, ...]:
        """Every unit as the ruleset shows it (computed once per game state: states are immutable)."""
        cached = self._units_of
        if cached is None or cached[0] is not self._state:
            cached = (self._state, self.ruleset.units(self._state))
            self._units_of = cached
        return cached[1]

    def unit(self, unit_id: int) -> UnitView:
        for u in self.units():
            if u.unit_id == unit_id:
                return u
        raise UsageError(f"no unit with tag id {unit_id}: the scenario's units are "
                         f"{', '.join(str(u.unit_id) for u in self.units())}")

    def unit_at(self, x_in: float, y_in: float, *, slack_in: float = 0.5) -> int | None:
        """The on-table unit whose base is nearest to a point, within ``slack_in`` of it."""
        best: tuple[float, int] | None = None
        for u in self.units():
            if not u.on_table:
                continue
            d = distance_to_point_in(u.footprint, x_in, y_in)
            if d <= slack_in and (best is None or d < best[0]):
                best = (d, u.unit_id)
        return best[1] if best else None

    @property
    def version(self) -> int:
        """Goes up by one with every change a view draws (what :attr:`Snapshot.version` holds)."""
        return self._version

    def snapshot(self) -> Snapshot:
        """What the views draw now (computed once per change)."""
        if self._snapshot is not None and self._snapshot.version == self._version:
            return self._snapshot
        snap = self.snapshot_inputs().build()
        self._snapshot = snap
        self._units_of = (snap.state, snap.units)
        return snap

    def _current_analysis(self) -> AttackAnalysis:
        if self._analysis is None or not self._analysis.matches(self._state, self._draft):
            self._analysis = AttackAnalysis(self.ruleset, self._state, self._draft)
        return self._analysis

    def snapshot_inputs(self) -> "SnapshotInputs":
        """Everything :meth:`snapshot` is made from, frozen (cheap): a view's worker thread builds the
        snapshot from it (:meth:`SnapshotInputs.build`) while this session goes on changing."""
        self._current_analysis()
        cached = self._units_of
        units = cached[1] if cached is not None and cached[0] is self._state else None
        return SnapshotInputs(self._version, self._state, self.ruleset, units, self.table_size_in,
                              dict(self.side_colors), self.radio_units, self._selected, self._weapon, self._blast_point,
                              self._tape, self._draft, self._analysis, self._miss, self.now_s(),
                              templates=self.templates, ground=self.ground)

    def adopt_snapshot(self, snapshot: Snapshot) -> bool:
        """Keep a snapshot a worker built from :meth:`snapshot_inputs` if nothing changed since (the
        panels then read it instead of building it again); returns whether it was kept."""
        if snapshot.version != self._version or snapshot.state is not self._state:
            return False
        if self._snapshot is None or self._snapshot.version != self._version:
            self._snapshot = snapshot
        self._units_of = (snapshot.state, snapshot.units)
        return True

    # -- changes --------------------------------------------------------------------------------
    def _touch(self, kind: str) -> None:
        self._version += 1
        self.changed.emit(kind)

    def set_ground(self, ground: Any) -> None:
        """The ground's heights (a rules.terrain_sight.Ground, e.g. from the relief scan), or None."""
        self.ground = ground
        self._touch("ground")

    def set_state(self, state: Any, *, kind: str = "state") -> None:
        """Replace the game state (replay, loading a saved game)."""
        self._state = state
        self._touch(kind)

    def select_unit(self, unit_id: int | None, *, weapon: str | None = None) -> None:
        """Select a unit (and one of its weapons: by default its first)."""
        if unit_id is not None:
            self.unit(unit_id)  # refuses an unknown id with the list of ids
            names = [w.name for w in self.ruleset.weapons(self._state, unit_id)]
            if weapon is not None and weapon not in names:
                raise UsageError(f"{self.unit(unit_id).name} has no weapon {weapon!r}: it has {', '.join(names) or 'none'}")
            weapon = weapon or (self._weapon if self._weapon in names and unit_id == self._selected else None) \
                or (names[0] if names else None)
        self._selected, self._weapon = unit_id, weapon if unit_id is not None else None
        self._record_view()
        self._touch("selection")

    def select_weapon(self, name: str) -> None:
        if self._selected is None:
            raise UsageError("select a unit first, then its weapon")
        self.select_unit(self._selected, weapon=name)

    def set_blast_point(self, point: XY | None) -> None:
        """Where a blast is shown (a point the user picked, or a unit's centre)."""
        self._blast_point = None if point is None else (float(point[0]), float(point[1]))
        self._record_view()
        self._touch("selection")

    def measure(self, start: XY, end: XY) -> TapeMeasure:
        """Set the tape measure between two points; a point on a unit's base snaps to that unit and the
        distance is then measured base to base, as the rules measure range."""
        a, b = self.unit_at(*start), self.unit_at(*end)
        views = {u.unit_id: u for u in self.units()}
        if a is not None and b is not None and a != b:
            d = gap_in(views[a].footprint, views[b].footprint)
            s, e = (views[a].x_in, views[a].y_in), (views[b].x_in, views[b].y_in)
        elif a is not None:
            d = distance_to_point_in(views[a].footprint, *end)
            s, e = (views[a].x_in, views[a].y_in), end
        elif b is not None:
            d = distance_to_point_in(views[b].footprint, *start)
            s, e = start, (views[b].x_in, views[b].y_in)
        else:
            d = math.hypot(end[0] - start[0], end[1] - start[1])
            s, e = start, end
        self._tape = TapeMeasure((float(s[0]), float(s[1])), (float(e[0]), float(e[1])), a, b, float(d))
        self._touch("selection")
        return self._tape

    def clear_tape(self) -> None:
        self._tape = None
        self._touch("selection")

    def set_templates(self, board: Any) -> None:
        """The placed templates now (a new TemplateBoard after every drop, drag, turn, pin or removal)."""
        self.templates = board
        self._touch("selection")

    # -- tracking -------------------------------------------------------------------------------
    def apply_poses(self, poses: Iterable[Any], *, t_s: float | None = None) -> int:
        """Move the rules' units to the tracker's poses (``tracker.unit_pose.UnitPose``); returns how many
        changed. The path length the tracker measured since the last pose is passed as ``moved_in``, so
        a unit carried around an obstacle is charged for the way it went.

        Gun teams: members standing on one spot share one token with one tag; the rules move the
        riders with it (``team`` in docs/rules-down-range.md). A member whose own tag the tracker has
        seen is not a rider: it moves alone, and a team-mate on its spot is not dragged along. A hidden
        tag's pose (stale, lost) is its last sighting, already applied: it never pulls a unit back.
        Emits ``changed("poses")``."""
        if t_s is not None:
            self._tracked_t_s = float(t_s)
        poses = list(poses)
        self._tagged.update(p.tag_id for p in poses if _pose_state(p) == "seen")
        views = {u.unit_id: u for u in self.units()}
        changed = 0
        state = self._state
        before = len(getattr(state, "events", ()))
        for p in poses:
            kind = _pose_state(p)
            if getattr(p, "x_in", None) is None or p.tag_id not in views or kind in ("stale", "lost"):
                continue
            u = views[p.tag_id]
            on_table = kind != "lifted"
            moved_now = p.moved_this_turn_in
            seen = self._moved_seen.get(p.tag_id)
            delta = None
            if moved_now is not None:
                delta = moved_now if seen is None or moved_now < seen else moved_now - seen
                self._moved_seen[p.tag_id] = moved_now
            turned = abs(((p.heading_deg - u.heading_deg) + 180.0) % 360.0 - 180.0)
            if math.hypot(p.x_in - u.x_in, p.y_in - u.y_in) > POSE_EPS_IN or turned > HEADING_EPS_DEG \
                    or on_table != u.on_table:
                alone = any(uid in self._tagged for uid in _sharing_spot(views, u))
                state = set_tracked_pose(self.ruleset, state, p, moved_in=delta, on_table=on_table, alone=alone,
                                         base_height_in=self.base_height_in(p.tag_id))
                changed += 1
        if changed:
            self._state = state
            self._note_new_events(before, ())
            self._touch("poses")
        return changed

    def base_height_in(self, unit_id: int) -> float:
        for u in self.scenario.get("units", ()):
            if isinstance(u, Mapping) and u.get("tag_id") == unit_id:
                return float(u.get("base_height_in", 1.0))
        return 1.0

    def on_tracker_event(self, event: Any) -> None:
        """Log what a player should hear about (a unit lifted, a camera lost, a duplicate tag)."""
        kind = getattr(event.kind, "value", str(event.kind))
        name = event.name or (f"tag {event.tag_id}" if event.tag_id is not None else "")
        words = {
            "lifted": f"{name} was lifted off the table.",
            "returned": f"{name} is back on the table.",
            "lost": f"{name} has not been seen for a while (lost).",
            "conflict": f"Two tags with id {event.tag_id} are in view: {event.payload.get('hint', 'remove the copy')}.",
            "unknown_tag": f"Tag {event.tag_id} is not in the scenario's roster.",
            "drift": f"The camera or table moved: {event.payload.get('message', 're-registering')}.",
            "reregistered": f"The table was registered again ({event.payload.get('residual_in', 0):.3f}\" residual).",
            "source_lost": "The camera stopped delivering frames; the game is kept and tracking resumes when it is back.",
            "source_back": "The camera is back.",
        }
        text = words.get(kind)
        if text:
            self._log(LogEntry(float(event.t_s), "tracker", text, getattr(self._state, "round", None)))

    # -- attacks --------------------------------------------------------------------------------
    def set_attack(self, draft: AttackDraft | None) -> None:
        """Set up (or clear) the attack the panel shows; odds and proposals follow in the snapshot."""
        if draft is not None:
            self.unit(draft.attacker_id)
            names = [w.name for w in self.ruleset.weapons(self._state, draft.attacker_id)]
            if draft.weapon not in names:
                raise UsageError(f"{self.unit(draft.attacker_id).name} has no weapon {draft.weapon!r}: "
                                 f"it has {', '.join(names) or 'none'}")
        self._draft = draft
        self._touch("attack")

    @property
    def draft(self) -> AttackDraft | None:
        return self._draft

    def dice_needed(self, entries: Sequence[Entry], *, what: str | Procedure = "attack") -> RollRequest | None:
        """The next roll the rules will ask for after ``entries`` (None when they are enough).

        ``what``: "attack" (the attack set up), "initiative", "turn", or a :data:`Procedure`. The
        entered-dice form lists exactly these, one at a time: which dice follow depends on the earlier
        ones (no Damage roll for a miss). An impossible entry raises the rules' message."""
        probe = _ProbeDice(entries)
        try:
            self._run_rolls(what, probe, landing=None)
        except _NeedDice as need:
            return need.request
        return None

    def _run_rolls(self, what: str | Procedure, dice: DiceSource, *, landing: XY | None) -> Resolution:
        if callable(what):
            return what(self._state, dice)
        if what == "attack":
            if self._draft is None:
                raise UsageError("no attack is set up: choose an attacker, a weapon and targets first")
            if not self._draft.target_ids and self._draft.aim_point is None:
                raise UsageError("tick at least one target (or pick an aim point for an explosive)")
            return self.ruleset.resolve_attack(self._state, self._draft.request(), dice, landing_point=landing)
        if what == "initiative":
            return self.ruleset.start_round(self._state, dice)
        if what == "turn":
            return self.ruleset.start_turn(self._state, dice)
        raise ValueError(what)

    def resolve_attack(self, entries: Sequence[Entry] | None = None) -> Resolution:
        """Resolve the attack set up: with the session's virtual dice, or with ``entries`` the players
        rolled (one per roll, as :meth:`dice_needed` lists them). A missed explosive whose landing point
        a player must choose stays pending until :meth:`choose_landing`."""
        shown = self._current_analysis().odds  # what the players saw before rolling: recorded with the attack
        dice = _CapturingDice(self.dice if entries is None else EnteredDice(list(entries)))
        res = self._run_rolls("attack", dice, landing=None)
        if entries is not None:
            dice.inner.check_all_used()  # type: ignore[attr-defined]
        assert self._draft is not None
        if res.pending:
            miss = getattr(res.result, "miss", None)
            marker = MissMarker((float(miss.intended_x_in), float(miss.intended_y_in)), float(miss.miss_radius_in),
                                str(miss.chooser)) if miss is not None else None
            if marker is None:
                raise RulesError(res.pending)
            self._pending = PendingLanding(self._draft, tuple(dice.entries), marker, res.pending, shown)
            self._miss = marker
            for line in res.sentences:
                self._log(LogEntry(self.now_s(), "rules", line, getattr(self._state, "round", None)))
            self._log(LogEntry(self.now_s(), "note", f"Waiting for the landing point: {res.pending}."))
            self._touch("attack")
            return res
        self._commit(res, "attack", odds=shown)
        return res

    def choose_landing(self, point: XY, entries: Sequence[Entry] | None = None) -> Resolution:
        """Where the pending missed explosive lands (the chooser clicked it); refused beyond the miss radius.

        The rolls the landing brings (Damage to each unit in the blast) use ``entries``, the players'
        dice in the order :meth:`dice_needed` would list them, or else the session's dice."""
        pending = self._pending
        if pending is None:
            raise UsageError("no missed explosive is waiting for a landing point")
        x, y = float(point[0]), float(point[1])
        ix, iy = pending.miss.intended_in
        if math.hypot(x - ix, y - iy) > pending.miss.miss_radius_in + 1e-6:
            raise UsageError(f"({x:.1f}, {y:.1f}) is {math.hypot(x - ix, y - iy):.1f}\" from the intended point; "
                             f"the round lands within {pending.miss.miss_radius_in:g}\" of ({ix:.1f}, {iy:.1f})")
        saved = self._draft
        self._draft = pending.draft
        try:
            then = EnteredDice(list(entries)) if entries is not None else self.dice
            res = self._run_rolls("attack", _ReplayThenDice(pending.entries, then), landing=(x, y))
            if entries is not None:
                then.check_all_used()  # type: ignore[attr-defined]
        finally:
            self._draft = saved
        self._pending = None
        self._miss = replace(pending.miss, landed_in=(x, y))
        self._commit(res, "attack", already_logged=True, odds=pending.odds)
        return res

    def cancel_pending(self) -> None:
        self._pending = None
        self._miss = None
        self._touch("attack")

    # -- turns ----------------------------------------------------------------------------------
    def start_round(self, entries: Sequence[Entry] | None = None) -> Resolution:
        """Roll initiative (virtual dice or the players' ``entries``) and start the round."""
        res = self._run_rolls("initiative", self.dice if entries is None else EnteredDice(list(entries)), landing=None)
        self._commit(res, "initiative")
        return res

    def start_turn(self, entries: Sequence[Entry] | None = None) -> Resolution:
        """The next player's turn: the rules expire tokens (an automated side of the generic rules rolls
        its tables, with the players' ``entries`` or virtual dice), and the tracker restarts movement
        accounting."""
        res = self._run_rolls("turn", self.dice if entries is None else EnteredDice(list(entries)), landing=None)
        self._commit(res, "turn")
        self._moved_seen.clear()
        self.turn_started.emit()
        return res

    def end_turn(self) -> None:
        before = len(getattr(self._state, "events", ()))
        self._state = self.ruleset.end_turn(self._state)
        self._note_new_events(before, ())
        self._record_state("turn")
        self._touch("state")

    def apply_action(self, action: Any, *, kind: str = "edit") -> None:
        """Apply one of the ruleset's own actions (a hand edit from the roster, a Signal...)."""
        self.apply_rules(lambda state: self.ruleset.apply(state, action), kind=kind)

    def apply_rules(self, change: Callable[[Any], Any], *, kind: str = "edit") -> None:
        """A change the ruleset makes without dice -- ``change(state) -> state`` (the generic rules'
        ``identify``, a Force on Force split...) --, logged and recorded as an action is."""
        before = len(getattr(self._state, "events", ()))
        self._state = change(self._state)
        self._note_new_events(before, ())
        self._record_state(kind)
        self._touch("state")

    def run_procedure(self, kind: str, procedure: Procedure, entries: Sequence[Entry] | None = None) -> Resolution:
        """Run one of the ruleset's own procedures -- ``procedure(state, dice)``: Force on Force's
        activation, tests, reinforcements or a declared initiative, the generic rules' automation tables
        -- with the session's virtual dice or the players' ``entries`` (every one must be used), and
        commit it as an attack or a turn is: the state, the log and the recording (``state:<kind>``)."""
        entered = EnteredDice(list(entries)) if entries is not None else None
        res = procedure(self._state, entered if entered is not None else self.dice)
        if entered is not None:
            entered.check_all_used()
        self._commit(res, kind)
        return res

    def groups(self) -> tuple[GroupView, ...]:
        """The units of several figures (Force on Force's fireteams); () for rulesets without them."""
        if not isinstance(self.ruleset, GroupedRuleset):
            return ()
        return self.ruleset.groups(self._state)

    def group_of(self, unit_id: int) -> GroupView | None:
        """The unit of several figures a tag belongs to (None: the tag is a unit of its own)."""
        return next((g for g in self.groups() if unit_id in g.member_ids), None)

    def edit_unit(self, unit_id: int, changes: Mapping[str, Any]) -> None:
        """Hand edits of what the camera cannot see, through the ruleset's edit action for one tag:
        Down Range's tokens and injuries (``EditUnit``), a Force on Force figure's status, elevation,
        leader qualities (``EditFigure``), a generic unit's status level, identification, shots left
        (``EditUnit``). The rules refuse a field or value they do not take, naming it."""
        self.unit(unit_id)
        if not isinstance(self.ruleset, HandEdits):
            raise UsageError(f"hand edits are not available for the {self.ruleset.name} ruleset")
        self.apply_action(self.ruleset.edit_action(unit_id, changes))

    def edit_group(self, unit_id: int, changes: Mapping[str, Any]) -> None:
        """Hand edits of the unit of several figures that ``unit_id`` belongs to (Force on Force's
        ``EditTeam``: defensive position, Supplies, Confidence, Troop Quality, Morale, Firepower)."""
        group = self.group_of(unit_id)
        if group is None:
            raise UsageError(f"{self.unit(unit_id).name} is not part of a unit of several figures: edit the figure itself")
        if not isinstance(self.ruleset, GroupHandEdits):
            raise UsageError(f"unit edits are not available for the {self.ruleset.name} ruleset")
        self.apply_action(self.ruleset.group_edit_action(group.name, changes))

    def _commit(self, res: Resolution, kind: str, *, already_logged: bool = False,
                odds: Sequence[TargetOdds] = ()) -> None:
        before = len(getattr(self._state, "events", ()))
        legend = self._current_analysis().legend if odds else None
        self._state = res.state
        lines = res.sentences
        if already_logged:
            lines = tuple(s for s in lines if s)  # the miss was logged when it happened; log the landing
        self._note_new_events(before, lines, odds=odds, legend=legend)
        self._record_state(kind, sentences=lines)
        self._touch("state")

    def _note_new_events(self, before: int, sentences: Sequence[str], *, odds: Sequence[TargetOdds] = (),
                         legend: OddsLegend | None = None) -> None:
        events: Sequence[RulesEvent] = tuple(getattr(self._state, "events", ())[before:])
        rnd = getattr(self._state, "round", None)
        if sentences:
            for line in sentences:
                self._log(LogEntry(self.now_s(), "rules", line, rnd))
            for e in events:
                for w in e.warnings:
                    self._log(LogEntry(self.now_s(), "warning", w, rnd))
        else:
            for e in events:
                self._log(LogEntry(self.now_s(), "warning" if e.warnings else "rules", e.summary, rnd))
                for w in e.warnings:
                    if w != e.summary:
                        self._log(LogEntry(self.now_s(), "warning", w, rnd))
        if self.recorder is not None:
            # The odds shown before the roll go with the attack's own event (the first the resolution
            # logged; a tracked move's warning is never one), so the debrief lists them.
            attack = next((e for e in events if e.kind != "warning"), None) if odds else None
            for e in events:
                payload: dict[str, Any] = {"event": e.to_json()}
                if e is attack:
                    payload["odds"] = [odds_json(o, legend=legend) for o in odds]
                self.recorder.record_rules_event(self.now_s(), e.kind, payload)

    # -- log ------------------------------------------------------------------------------------
    def _log(self, entry: LogEntry) -> None:
        self.log.append(entry)
        if self.recorder is not None:
            # The log as it was shown, so a replay shows the same lines at the same moments.
            self.recorder.record_rules_event(entry.t_s, LOG_KIND, {"kind": entry.kind, "text": entry.text, "round": entry.round})
        self.changed.emit("log")

    def note(self, text: str) -> None:
        self._log(LogEntry(self.now_s(), "note", text, getattr(self._state, "round", None)))

    def set_log(self, entries: Sequence[LogEntry]) -> None:
        self.log = list(entries)
        self.changed.emit("log")

    def export_log(self, path: str | Path) -> Path:
        """Write the log: JSON Lines for ``.jsonl``/``.json``, else plain text (one line per entry)."""
        path = Path(path)
        if path.suffix.lower() in (".jsonl", ".json"):
            text = "".join(json.dumps({"t_s": round(e.t_s, 3), "kind": e.kind, "round": e.round, "text": e.text}) + "\n"
                           for e in self.log)
        else:
            text = "".join(f"[{_clock_text(e.t_s)}]{f' R{e.round}' if e.round else ''} {e.text}\n" for e in self.log)
        path.write_text(text, encoding="utf-8")
        return path

    # -- recording ------------------------------------------------------------------------------
    def start_recording(self, path: str | Path, *, video: bool = False, calibration_path: str | None = None,
                        roster: Any | None = None) -> Any:
        """Record the session to a new SQLite file (refused if it exists: a recording is never overwritten)."""
        from tracker.recording import Recorder

        if self.recorder is not None:
            raise UsageError("already recording; stop the recording first")
        meta: dict[str, Any] = {"ruleset": self.ruleset.name, "command": "sandtable gui"}
        if self.scenario_path:
            meta["scenario_path"] = self.scenario_path
            try:
                meta["scenario_toml"] = Path(self.scenario_path).read_text(encoding="utf-8")
            except OSError:
                pass
        if calibration_path:
            meta["calibration_path"] = calibration_path
            try:
                meta["calibration_json"] = Path(calibration_path).read_text(encoding="utf-8")
            except OSError:
                pass
        if Path(path).exists():
            raise UsageError(f"{str(path)!r} already exists: choose a new file name (recordings are never overwritten)")
        self.recorder = Recorder(path, metadata=meta, roster=roster, video=video)
        self._record_state("start")
        self._record_view()
        self._log(LogEntry(self.now_s(), "note", f"Recording to {path}."))
        self.changed.emit("recording")
        return self.recorder

    def stop_recording(self) -> None:
        if self.recorder is None:
            return
        recorder, self.recorder = self.recorder, None
        path = recorder.path
        recorder.close()
        self._log(LogEntry(self.now_s(), "note", f"Recording saved: {path}."))
        self.changed.emit("recording")

    def bookmark(self, note: str = "") -> LogEntry:
        """Mark this moment for the debrief (kept in the recording when recording)."""
        text = note.strip() or f"Bookmark at {_clock_text(self.now_s())}"
        if self.recorder is not None:
            self.recorder.add_bookmark(self.now_s(), text)
        entry = LogEntry(self.now_s(), "bookmark", text, getattr(self._state, "round", None))
        self._log(entry)
        return entry

    def _record_state(self, kind: str, *, sentences: Sequence[str] = ()) -> None:
        if self.recorder is None:
            return
        to_json = getattr(self._state, "to_json", None)
        payload = {"state": to_json() if to_json else None, "sentences": list(sentences)}
        self.recorder.record_rules_event(self.now_s(), f"{STATE_KIND_PREFIX}{kind}", payload)

    def _record_view(self) -> None:
        if self.recorder is None:
            return
        self.recorder.record_rules_event(self.now_s(), VIEW_KIND, {
            "selected_unit": self._selected, "selected_weapon": self._weapon,
            "blast_point": list(self._blast_point) if self._blast_point else None})

    def restore_view(self, selected_unit: int | None, selected_weapon: str | None, blast_point: XY | None) -> None:
        """The selection as it was (replay)."""
        names = [w.name for w in self.ruleset.weapons(self._state, selected_unit)] if selected_unit is not None else []
        self._selected = selected_unit if selected_unit in {u.unit_id for u in self.units()} else None
        self._weapon = selected_weapon if selected_weapon in names else (names[0] if names and self._selected else None)
        self._blast_point = tuple(blast_point) if blast_point else None  # type: ignore[assignment]
        self._touch("selection")

    def set_time(self, t_s: float) -> None:
        """Pin the session clock (replay)."""
        self._tracked_t_s = float(t_s)

    def close(self) -> None:
        self.stop_recording()

