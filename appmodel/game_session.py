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

import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from appmodel.errors import UsageError
from appmodel.observer import Signal
from appmodel.session import hand_edits, scenario_facts
from appmodel.session.attack_analysis import AttackAnalysis, analysis_for
from appmodel.session.attacks import AttackDraft, MissMarker, PendingLanding, landing_point, miss_marker
from appmodel.session.clock import SessionClock
from appmodel.session.dice_sources import CapturingDice, Entry, ReplayThenDice, check_all_used, entered_or
from appmodel.session.game_log import GameLog, LogEntry, bookmark_text, clock_text, rules_lines, tracker_event_text
from appmodel.session.procedures import Procedure, What, dice_needed, landing_dice_needed, run_rolls
from appmodel.session.review_topics import ReviewTopic, bookmark_note, review_topics
from appmodel.recording.rows import RecordingRows, recording_metadata
from appmodel.session.scenario_facts import DEFAULT_SIDE_COLORS
from appmodel.session.selection import Selection
from appmodel.session.snapshot import Snapshot, SnapshotInputs
from appmodel.overlays.sand_map_model import NO_SAND_MAP, SandMap, sand_map_from_scenario
from appmodel.session.tape import TapeMeasure, measure_tape, unit_at
from appmodel.session.tracked_poses import HEADING_EPS_DEG, POSE_EPS_IN, TrackedPoses, pose_state, set_tracked_pose, \
    sharing_spot
from rules.dice import DiceSource, RollRequest, SeededDice
from rules.events import RulesEvent
from rules.ruleset import ActionForm, ActionRequest, GroupView, OddsLegend, Resolution, Ruleset, RulesState, TargetOdds, UnitView, get_ruleset

XY = tuple[float, float]

__all__ = [
    "AttackAnalysis", "AttackDraft", "DEFAULT_SIDE_COLORS", "Entry", "GameSession", "HEADING_EPS_DEG", "LogEntry",
    "MissMarker", "POSE_EPS_IN", "PendingLanding", "Procedure", "Snapshot", "SnapshotInputs", "TapeMeasure",
    "set_tracked_pose",
]
#: Names other modules imported from here before the session was split into parts.
_clock_text = clock_text
_pose_state = pose_state
_sharing_spot = sharing_spot


class GameSession:
    """One game at the table (mutable; single-threaded: call it from the UI thread or the demo loop).
    Other threads get frozen values only: a view's overlay worker builds the snapshot from
    :meth:`snapshot_inputs` and hands it back (:meth:`adopt_snapshot`).

    A façade over the parts in :mod:`appmodel.session`: it holds the game state and the version the
    views draw, hands each part what it needs, and commits what they return (the state, the log, the
    recording's rows, the ``changed`` signal)."""

    def __init__(self, ruleset: Ruleset, state: RulesState, *, scenario: Mapping[str, Any] | None = None,
                 scenario_path: str | None = None, table_size_in: XY | None = None,
                 dice: DiceSource | None = None, clock: Callable[[], float] | None = None) -> None:
        self.ruleset = ruleset
        self._state = state
        self.scenario: Mapping[str, Any] = dict(scenario or {})
        self.scenario_path = scenario_path
        self.table_size_in: XY = table_size_in or scenario_facts.table_size_in(self.scenario)
        self.side_colors = scenario_facts.side_colors(self.scenario, (u.side for u in ruleset.units(state)))
        self.radio_units = scenario_facts.radio_units(self.scenario)
        #: What the instructor planned to review (a topic naming an unknown unit or kind is refused here).
        self.review_topics: tuple[ReviewTopic, ...] = review_topics(self.scenario)
        self.dice: DiceSource = dice or SeededDice()
        #: the ground's heights (rules.terrain_sight.Ground) for line of sight over the relief, or None
        self.ground: Any = None
        #: the sand as a map (appmodel.overlays.sand_map_model.SandMap: target terrain, symbols, contour settings)
        self.sand: Any = NO_SAND_MAP
        #: Templates players placed and keep (appmodel.overlays.placed_templates.TemplateBoard); see set_templates.
        self.templates: Any = None
        self.changed = Signal()
        self.turn_started = Signal()
        self.game_log = GameLog()
        self._clock = SessionClock(clock)
        self._rows: RecordingRows | None = None
        self._selection = Selection()
        self._tape: TapeMeasure | None = None
        self._draft: AttackDraft | None = None
        self._pending: PendingLanding | None = None
        self._miss: MissMarker | None = None
        self._poses = TrackedPoses(ruleset, partial(scenario_facts.base_height_in, self.scenario))
        self._version = 0
        self._snapshot: Snapshot | None = None
        self._inputs: SnapshotInputs | None = None
        self._analysis: AttackAnalysis | None = None
        #: The card of the last action resolved through :meth:`resolve_action` (appmodel.result_card).
        self.last_card: Any = None
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
        session = cls(ruleset, state, scenario=scenario, scenario_path=source if source != "<scenario>" else None,
                      dice=SeededDice(seed), clock=clock)
        session.sand = sand_map_from_scenario(scenario, session.scenario_path, ruleset.name, session.table_size_in)
        return session

    # -- reading --------------------------------------------------------------------------------
    @property
    def state(self) -> RulesState:
        return self._state

    @property
    def pending(self) -> PendingLanding | None:
        return self._pending

    @property
    def draft(self) -> AttackDraft | None:
        return self._draft

    @property
    def selection(self) -> Selection:
        """The selected unit, its weapon and the blast point (a frozen value)."""
        return self._selection

    @property
    def log(self) -> list[LogEntry]:
        """The log's lines in order (read-only for callers: :meth:`note`, :meth:`set_log` change it)."""
        return self.game_log.entries

    @property
    def recorder(self) -> Any | None:
        """The open recording's ``Recorder`` (None when not recording)."""
        return self._rows.recorder if self._rows is not None else None

    @property
    def recording_path(self) -> Any | None:
        """The file being recorded to (None when not recording)."""
        return self._rows.path if self._rows is not None else None

    def now_s(self) -> float:
        """Session time: the tracker's frame time when tracking, else the wall clock since the start."""
        return self._clock.now_s()

    def _round(self) -> int | None:
        return self._state.round

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
        return unit_at(self.units(), x_in, y_in, slack_in=slack_in)

    def _weapon_names(self, unit_id: int) -> list[str]:
        return [w.name for w in self.ruleset.weapons(self._state, unit_id)]

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
        self._analysis = analysis_for(self._analysis, self.ruleset, self._state, self._draft)
        return self._analysis

    def snapshot_inputs(self) -> SnapshotInputs:
        """Everything :meth:`snapshot` is made from, frozen (cheap): a view's worker thread builds the
        snapshot from it (:meth:`SnapshotInputs.build`) while this session goes on changing."""
        analysis = self._current_analysis()
        cached = self._units_of
        units = cached[1] if cached is not None and cached[0] is self._state else None
        sel = self._selection
        inputs = SnapshotInputs(self._version, self._state, self.ruleset, units, self.table_size_in,
                                dict(self.side_colors), self.radio_units, sel.unit_id, sel.weapon, sel.blast_point,
                                self._tape, self._draft, analysis, self._miss, self.now_s(),
                                templates=self.templates, ground=self.ground, sand=self.sand)
        # The same inputs as last time (every view asks after one change; the clock is the frame's
        # while tracking): hand out the same object, which builds its snapshot once for all of them.
        last = self._inputs
        if last is not None and last.version == inputs.version and last.t_s == inputs.t_s and last == inputs:
            return last
        self._inputs = inputs
        return inputs

    def adopt_snapshot(self, snapshot: Snapshot) -> bool:
        """Keep a snapshot a worker built from :meth:`snapshot_inputs` if nothing changed since (the
        panels then read it instead of building it again); returns whether it was kept."""
        if snapshot.version != self._version or snapshot.state is not self._state:
            return False
        if self._snapshot is None or self._snapshot.version != self._version:
            self._snapshot = snapshot
        self._units_of = (snapshot.state, snapshot.units)
        return True

    # -- what the views show: selection, tape, templates, ground ----------------------------------
    def _touch(self, kind: str) -> None:
        self._version += 1
        self.changed.emit(kind)

    def set_ground(self, ground: Any) -> None:
        """The ground's heights (a rules.terrain_sight.Ground, e.g. from the relief scan), or None."""
        self.ground = ground
        self._touch("ground")

    def set_sand_map(self, sand: SandMap) -> None:
        """The target terrain, symbols and contour/sculpting settings the views draw (appmodel.overlays.sand_map_model)."""
        before, self.sand = self.sand, sand
        if self._rows is not None and (before.contour_interval_in, before.contour_interval_m) != \
                (sand.contour_interval_in, sand.contour_interval_m):
            self._rows.contour_interval(sand)  # the debrief draws the interval the instructor chose last
        self._touch("ground")

    def set_state(self, state: RulesState, *, kind: str = "state") -> None:
        """Replace the game state (replay, loading a saved game)."""
        self._state = state
        self._touch(kind)

    def _set_selection(self, selection: Selection) -> None:
        self._selection = selection
        if self._rows is not None:
            self._rows.view(self.now_s(), selection.unit_id, selection.weapon, selection.blast_point)
        self._touch("selection")

    def select_unit(self, unit_id: int | None, *, weapon: str | None = None) -> None:
        """Select a unit (and one of its weapons: by default its first)."""
        if unit_id is None:
            self._set_selection(self._selection.with_unit(None, None))
            return
        name = self.unit(unit_id).name  # refuses an unknown id with the list of ids
        self._set_selection(self._selection.with_unit(unit_id, weapon, unit_name=name,
                                                      weapon_names=self._weapon_names(unit_id)))

    def select_weapon(self, name: str) -> None:
        if self._selection.unit_id is None:
            raise UsageError("select a unit first, then its weapon")
        self.select_unit(self._selection.unit_id, weapon=name)

    def set_blast_point(self, point: XY | None) -> None:
        """Where a blast is shown (a point the user picked, or a unit's centre)."""
        self._set_selection(self._selection.with_blast_point(point))

    def restore_view(self, selected_unit: int | None, selected_weapon: str | None, blast_point: XY | None) -> None:
        """The selection as it was (replay)."""
        names = self._weapon_names(selected_unit) if selected_unit is not None else []
        selection = Selection.restored(selected_unit, selected_weapon, blast_point,
                                       unit_ids={u.unit_id for u in self.units()}, weapon_names=names)
        if selection == self._selection:
            return  # the same selection: the panels are not refreshed again at every tick of a replay
        self._selection = selection
        self._touch("selection")

    def measure(self, start: XY, end: XY) -> TapeMeasure:
        """Set the tape measure between two points; a point on a unit's base snaps to that unit and the
        distance is then measured base to base, as the rules measure range."""
        self._tape = measure_tape(self.units(), start, end)
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
        changed (:meth:`appmodel.session.tracked_poses.TrackedPoses.apply` says how gun teams, hidden
        tags and the path length are treated). ``t_s`` pins the session clock to the frame's time.
        Emits ``changed("poses")``."""
        if t_s is not None:
            self._clock.pin(t_s)
        before = len(self._state.events)
        state, changed = self._poses.apply(self._state, {u.unit_id: u for u in self.units()}, poses)
        if changed:
            self._state = state
            self._note_new_events(before, ())
            self._touch("poses")
        return changed

    def base_height_in(self, unit_id: int) -> float:
        return scenario_facts.base_height_in(self.scenario, unit_id)

    def on_tracker_event(self, event: Any) -> None:
        """Log what a player should hear about (a unit lifted, a camera lost, a duplicate tag)."""
        text = tracker_event_text(event)
        if text:
            self._add_log(LogEntry(float(event.t_s), "tracker", text, self._round()))

    # -- attacks --------------------------------------------------------------------------------
    def set_attack(self, draft: AttackDraft | None) -> None:
        """Set up (or clear) the attack the panel shows; odds and proposals follow in the snapshot."""
        if draft is not None:
            attacker = self.unit(draft.attacker_id)
            names = self._weapon_names(draft.attacker_id)
            if draft.weapon not in names:
                raise UsageError(f"{attacker.name} has no weapon {draft.weapon!r}: it has {', '.join(names) or 'none'}")
        self._draft = draft
        self._touch("attack")

    def dice_needed(self, entries: Sequence[Entry], *, what: What = "attack") -> RollRequest | None:
        """The next roll the rules will ask for after ``entries`` (None when they are enough).

        ``what``: "attack" (the attack set up), "initiative", "turn", a declared action
        (:class:`ActionRequest`) or a :data:`Procedure`. The
        entered-dice form lists exactly these, one at a time: which dice follow depends on the earlier
        ones (no Damage roll for a miss). An impossible entry raises the rules' message."""
        pending = self._pending
        if what == "attack" and pending is not None:
            if pending.placed_in is None:
                raise self._in_the_air()
            return landing_dice_needed(self.ruleset, self._state, pending.draft, pending.entries, entries,
                                       pending.placed_in)
        return dice_needed(self.ruleset, self._state, what, entries, draft=self._draft)

    def resolve_attack(self, entries: Sequence[Entry] | None = None) -> Resolution:
        """Resolve the attack set up: with the session's virtual dice, or with ``entries`` the players
        rolled (one per roll, as :meth:`dice_needed` lists them). A missed explosive whose landing point
        a player must choose stays pending until :meth:`choose_landing`; while it waits no new attack
        is rolled (the round in the air is that attack, and pressing Resolve again must not fire another)."""
        if self._pending is not None:
            if self._pending.placed_in is not None:  # placed on the map: these are the dice its landing brings
                return self.choose_landing(self._pending.placed_in, entries)
            raise self._in_the_air()
        self._miss = None  # the last round's landing mark goes with a new attack
        shown = self._current_analysis().odds  # what the players saw before rolling: recorded with the attack
        dice = CapturingDice(entered_or(entries, self.dice))
        res = run_rolls(self.ruleset, self._state, "attack", dice, draft=self._draft)
        check_all_used(entries, dice.inner)
        assert self._draft is not None
        if res.pending:
            marker = miss_marker(res)
            self._pending = PendingLanding(self._draft, tuple(dice.entries), marker, res.pending, shown)
            self._miss = marker
            for line in res.sentences:
                self._add_log(LogEntry(self.now_s(), "rules", line, self._round()))
            self._add_log(LogEntry(self.now_s(), "note", f"Waiting for the landing point: {res.pending}."))
            self._touch("attack")
            return res
        self._commit(res, "attack", odds=shown)
        self._aim_spent()
        return res

    def _aim_spent(self) -> None:
        """The blast point was the resolved attack's aim: left on the table it would silently aim the
        next area weapon there (the MAAWS after the mortar), so the next one is picked afresh (B)."""
        if self._selection.blast_point is not None:
            self.set_blast_point(None)

    def choose_landing(self, point: XY, entries: Sequence[Entry] | None = None) -> Resolution:
        """Where the pending missed explosive lands (the chooser clicked it); refused beyond the miss radius.

        The rolls the landing brings (Damage to each unit in the blast) use ``entries``, the players'
        dice in the order :meth:`dice_needed` would list them, or else the session's dice."""
        pending = self._pending
        if pending is None:
            raise UsageError("no missed explosive is waiting for a landing point")
        landed = landing_point(pending.miss, point)
        then = entered_or(entries, self.dice)
        res = run_rolls(self.ruleset, self._state, "attack", ReplayThenDice(pending.entries, then),
                        draft=pending.draft, landing=landed)
        check_all_used(entries, then)
        self._pending = None
        self._miss = replace(pending.miss, landed_in=landed)
        self._commit(res, "attack", already_logged=True, odds=pending.odds)
        self._aim_spent()
        return res

    def _in_the_air(self) -> UsageError:
        assert self._pending is not None
        miss = self._pending.miss
        return UsageError(f"the missed round is still in the air: {miss.chooser} chooses where it lands, within "
                          f"{miss.miss_radius_in:g}\" -- click that point on the map, inside the red circle (the "
                          "landing tool, L, is on)")

    def place_landing(self, point: XY) -> None:
        """Where the pending missed explosive lands, clicked while the players roll their own dice: the
        dice form then asks for the rolls the landing brings, and Resolve (:meth:`resolve_attack` with
        them) lands it. Refused beyond the miss radius."""
        pending = self._pending
        if pending is None:
            raise UsageError("no missed explosive is waiting for a landing point")
        landed = landing_point(pending.miss, point)
        self._pending = replace(pending, placed_in=landed)
        self._miss = replace(pending.miss, landed_in=landed)
        self._touch("attack")

    def cancel_pending(self) -> None:
        self._pending = None
        self._miss = None
        self._touch("attack")

    # -- every other action: treatments, task rolls, Signals, boardings... ----------------------
    def actions_for(self, unit_id: int) -> tuple[ActionForm, ...]:
        """What ``unit_id`` may declare now besides attacks, as the ruleset's forms (proposals from the
        tracked geometry, each with whether the rules would take it as it starts)."""
        self.unit(unit_id)
        return self.ruleset.actions_for(self._state, unit_id)

    def action_odds(self, request: ActionRequest) -> tuple[TargetOdds, ...]:
        """The exact odds of a declared action before its roll (() for one without dice)."""
        return self.ruleset.action_odds(self._state, request)

    def resolve_action(self, request: ActionRequest, entries: Sequence[Entry] | None = None) -> Resolution:
        """Play a declared action -- the one path every front end takes (the window's declaration panel,
        ``sandtable resolve``, the demo): with the session's virtual dice or the players' ``entries``
        (one per roll, as :meth:`dice_needed` with ``what=request`` lists them; every one must be used).
        It is logged, recorded with the odds shown before the roll, and its card kept in :attr:`last_card`."""
        form = self.ruleset.action_form(self._state, request)
        shown = self.ruleset.action_odds(self._state, request)
        legend = self.ruleset.action_legend(self._state, request)
        before = len(self._state.events)
        dice = entered_or(entries, self.dice)
        res = run_rolls(self.ruleset, self._state, request, dice)
        check_all_used(entries, dice)
        self._commit(res, form.kind, odds=shown, legend=legend)
        self._card(res, before, shown, legend)
        return res

    def _card(self, res: Resolution, before: int, odds: Sequence[TargetOdds], legend: OddsLegend | None) -> None:
        from appmodel.result_card import result_card

        self.last_card = result_card(tuple(res.state.events[before:]), res.sentences, odds, legend)
        self.changed.emit("card")

    # -- turns and procedures -------------------------------------------------------------------
    def start_round(self, entries: Sequence[Entry] | None = None) -> Resolution:
        """Roll initiative (virtual dice or the players' ``entries``) and start the round."""
        res = run_rolls(self.ruleset, self._state, "initiative", entered_or(entries, self.dice))
        self._commit(res, "initiative")
        return res

    def start_turn(self, entries: Sequence[Entry] | None = None) -> Resolution:
        """The next player's turn: the rules expire tokens (an automated side of the generic rules rolls
        its tables, with the players' ``entries`` or virtual dice), and the tracker restarts movement
        accounting."""
        res = run_rolls(self.ruleset, self._state, "turn", entered_or(entries, self.dice))
        self._commit(res, "turn")
        self._poses.start_turn()
        self.turn_started.emit()
        return res

    def end_turn(self) -> None:
        self.apply_rules(self.ruleset.end_turn, kind="turn")

    def apply_action(self, action: Any, *, kind: str = "edit") -> None:
        """Apply one of the ruleset's own actions (a hand edit from the roster, a Signal...)."""
        self.apply_rules(lambda state: self.ruleset.apply(state, action), kind=kind)

    def apply_rules(self, change: Callable[[Any], Any], *, kind: str = "edit") -> None:
        """A change the ruleset makes without dice -- ``change(state) -> state`` (the generic rules'
        ``identify``, a Force on Force split...) --, logged and recorded as an action is."""
        before = len(self._state.events)
        self._state = change(self._state)
        self._note_new_events(before, ())
        self._record_state(kind)
        self._touch("state")

    def run_procedure(self, kind: str, procedure: Procedure, entries: Sequence[Entry] | None = None) -> Resolution:
        """Run one of the ruleset's own procedures -- ``procedure(state, dice)``: Force on Force's
        activation, tests, reinforcements or a declared initiative, the generic rules' automation tables
        -- with the session's virtual dice or the players' ``entries`` (every one must be used), and
        commit it as an attack or a turn is: the state, the log and the recording (``state:<kind>``)."""
        dice = entered_or(entries, self.dice)
        res = procedure(self._state, dice)
        check_all_used(entries, dice)
        self._commit(res, kind)
        return res

    # -- hand edits -----------------------------------------------------------------------------
    def groups(self) -> tuple[GroupView, ...]:
        """The units of several figures (Force on Force's fireteams); () for rulesets without them."""
        return hand_edits.groups(self.ruleset, self._state)

    def group_of(self, unit_id: int) -> GroupView | None:
        """The unit of several figures a tag belongs to (None: the tag is a unit of its own)."""
        return hand_edits.group_of(self.ruleset, self._state, unit_id)

    def edit_unit(self, unit_id: int, changes: Mapping[str, Any]) -> None:
        """Hand edits of what the camera cannot see, through the ruleset's edit action for one tag
        (:mod:`appmodel.session.hand_edits`). The rules refuse a field or value they do not take, naming it."""
        self.unit(unit_id)
        self.apply_action(hand_edits.unit_edit(self.ruleset, unit_id, changes))

    def edit_group(self, unit_id: int, changes: Mapping[str, Any]) -> None:
        """Hand edits of the unit of several figures that ``unit_id`` belongs to (Force on Force's
        ``EditTeam``: defensive position, Supplies, Confidence, Troop Quality, Morale, Firepower)."""
        name = self.unit(unit_id).name
        self.apply_action(hand_edits.group_edit(self.ruleset, self._state, unit_id, name, changes))

    # -- committing what the rules did ------------------------------------------------------------
    def _commit(self, res: Resolution, kind: str, *, already_logged: bool = False,
                odds: Sequence[TargetOdds] = (), legend: OddsLegend | None = None) -> None:
        before = len(self._state.events)
        if odds and legend is None:
            legend = self._current_analysis().legend
        self._state = res.state
        lines = res.sentences
        if already_logged:
            lines = tuple(s for s in lines if s)  # the miss was logged when it happened; log the landing
        self._note_new_events(before, lines, odds=odds, legend=legend)
        self._record_state(kind, sentences=lines)
        self._touch("state")

    def _note_new_events(self, before: int, sentences: Sequence[str], *, odds: Sequence[TargetOdds] = (),
                         legend: OddsLegend | None = None) -> None:
        events: Sequence[RulesEvent] = tuple(self._state.events[before:])
        for entry in rules_lines(events, sentences, self.now_s(), self._round()):
            self._add_log(entry)
        if self._rows is not None:
            self._rows.rules_events(self.now_s(), events, odds=odds, legend=legend)

    def _record_state(self, kind: str, *, sentences: Sequence[str] = ()) -> None:
        if self._rows is not None:
            self._rows.state(self.now_s(), kind, self._state, sentences=sentences)

    # -- log ------------------------------------------------------------------------------------
    def _add_log(self, entry: LogEntry) -> None:
        if self._state.setting_up and not entry.setting_up:
            entry = replace(entry, setting_up=True)  # a line of the set-up says so, not its round
        self.game_log.add(entry)
        if self._rows is not None:
            self._rows.log_line(entry)
        self.changed.emit("log")

    def note(self, text: str) -> None:
        self._add_log(LogEntry(self.now_s(), "note", text, self._round()))

    def set_log(self, entries: Sequence[LogEntry]) -> None:
        self.game_log.replace(entries)
        self.changed.emit("log")

    def export_log(self, path: str | Path) -> Path:
        """Write the log: JSON Lines for ``.jsonl``/``.json``, else plain text (one line per entry)."""
        return self.game_log.export(path)

    def bookmark(self, note: str = "", topic: str = "", *, at_s: float | None = None) -> LogEntry:
        """Mark this moment for the debrief (kept in the recording when recording), with the player's note
        and the review topic it belongs to, if any (the debrief lists it under that topic). ``at_s``: the
        session time the mark was asked for (the window's note dialog takes a while to fill in)."""
        t_s = self.now_s() if at_s is None else float(at_s)
        text = bookmark_note(bookmark_text(note, t_s), topic)
        if self._rows is not None:
            self._rows.bookmark(t_s, text)
        entry = LogEntry(t_s, "bookmark", text, self._round())
        self._add_log(entry)
        return entry

    # -- recording ------------------------------------------------------------------------------
    def start_recording(self, path: str | Path, *, video: bool = False, calibration_path: str | None = None,
                        roster: Any | None = None) -> Any:
        """Record the session to a new SQLite file (refused if it exists: a recording is never overwritten)."""
        if self._rows is not None:
            raise UsageError("already recording; stop the recording first")
        meta = recording_metadata(self.ruleset.name, scenario_path=self.scenario_path,
                                  calibration_path=calibration_path, sand=self.sand)
        self._rows = RecordingRows.open(path, metadata=meta, roster=roster, video=video)
        self._record_state("start")
        sel = self._selection
        self._rows.view(self.now_s(), sel.unit_id, sel.weapon, sel.blast_point)
        self._add_log(LogEntry(self.now_s(), "note", f"Recording to {path}."))
        self.changed.emit("recording")
        return self._rows.recorder

    def stop_recording(self) -> None:
        if self._rows is None:
            return
        rows, self._rows = self._rows, None
        path = rows.path
        rows.close()
        self._add_log(LogEntry(self.now_s(), "note", f"Recording saved: {path}."))
        self.changed.emit("recording")

    def set_time(self, t_s: float) -> None:
        """Pin the session clock (replay)."""
        self._clock.pin(t_s)

    def close(self) -> None:
        self.stop_recording()
