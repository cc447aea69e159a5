"""The demo's timeline: an example game's script turned into moves on the table and beats for the rules.

An example script (``rules/downrange/examples/in_depth.py``, the rulebook's section 6, by default;
``rules/forceonforce/examples/patrol.py``; ``rules/generic/examples/solo.py``) lists what happens,
step by step: tracked moves (``Pose``), rolls with the dice the text states (attacks, initiative, a
medic's roll, an activation or test, an automated side's turn) and plain actions. What each item is
comes from the example's :class:`~demo.examples.DemoExample`. :func:`build_story` lays the items
out in time:

* **moves** become keyframed paths on the table (:class:`calibration.synthetic.scenario.UnitPath`):
  the units a step moves glide there together at a walking pace; units leaving one spot (a squad
  getting out of its vehicle's hatch) go one after another so their tags never pile up; a unit the
  rules put on the table (a disembark, a UAS launch) is set down just before it walks off;
* **beats** are the moments the rules act: an attack is first *aimed* (the weapon's overlays and the
  odds are shown for a while), then *resolved* with the stated dice, then its outcome stays on screen;
  a missed explosive waits a moment for its landing point; other rolls (initiative, a test, an
  automated side's turn) are made with the stated dice and their outcome stays on screen a while.

The physical table is derived from the rules themselves: each item is applied to a shadow game and
whatever it changed on the table (where a unit stands, whether it is on the table) becomes a move.
Nothing here looks at pixels or the tracker; the story is the script, laid out in time. The demo
director (:mod:`demo.director`) plays the beats, and the tracker supplies every position.

>>> story = build_story(timing=DemoTiming.short())
>>> story.caption_at(0.0).section, story.beats[-1].kind.value
('6.1', 'end')
>>> round(story.scripted_pose(40, story.duration_s)[0], 3)   # the ZBL-09 ends where the text leaves it
44.0
>>> patrol = build_story(example="patrol", timing=DemoTiming.short())
>>> patrol.caption_at(0.0).title, patrol.scripted_pose(17, patrol.duration_s)[:2]   # Bravo 4 back in cohesion
('Turn 1', (27.4, 26.0))
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from calibration.synthetic.scenario import Keyframe, UnitPath
from demo.examples import TROOP_TAG_IN, DemoExample, ItemRole, Token, example_named, tag_size_in

#: Height of every tag above the table (a 1" base or hull roof; the scenario's default).
TAG_HEIGHT_IN = 1.0


def _ease_points(ramp: float = 0.25, samples: int = 2) -> tuple[tuple[float, float], ...]:
    """(time fraction, distance fraction) along a move that accelerates over the first ``ramp`` of its
    time, glides, and brakes over the last ``ramp`` (peak speed 1 / (1 - ramp) of the mean).

    >>> [(round(u, 3), round(s, 3)) for u, s in _ease_points(0.25, 1)]
    [(0.25, 0.167), (0.75, 0.833), (1.0, 1.0)]
    """
    peak = 1.0 / (1.0 - ramp)
    out = []
    for k in range(1, samples + 1):
        u = ramp * k / samples
        out.append((u, 0.5 * peak * u * u / ramp))
    out.append((1.0 - ramp, 1.0 - 0.5 * peak * ramp))
    for k in range(1, samples + 1):
        u = ramp * k / samples
        out.append((1.0 - ramp + u, 1.0 - 0.5 * peak * ramp + peak * u - 0.5 * peak * u * u / ramp))
    return tuple(out)


_EASE = _ease_points()


@dataclass(frozen=True)
class DemoTiming:
    """How long each part of the story lasts (seconds) and how fast units are moved.

    The full demo (:meth:`full`) leaves time to read the captions and the odds; :meth:`short` is the
    version the test suite runs: every step and roll, little waiting. Moves keep a hand's pace (at
    most an inch between two frames at the peak) so the tracker follows them. ``settle_s`` must cover the
    tracker's rest detection (0.2 s of still measurements) plus a frame or two of lag, so the rules
    act on a unit only once the tracker reports it standing where it was put.
    """

    fps: float = 10.0
    intro_s: float = 2.5
    lead_s: float = 1.0
    speed_in_s: float = 6.0
    min_move_s: float = 0.7
    settle_s: float = 0.6
    appear_hold_s: float = 0.3
    clear_in: float = 2.2
    action_s: float = 0.5
    bookkeeping_s: float = 0.2
    initiative_s: float = 1.0
    aim_s: float = 2.2
    result_s: float = 2.2
    #: A roll other than an attack or initiative (an activation, a test, an automated side's turn).
    roll_s: float = 1.6
    landing_s: float = 1.4
    outro_s: float = 3.0
    #: Every n-th frame goes into the video (the tracker sees them all).
    video_every: int = 1

    @classmethod
    def full(cls) -> "DemoTiming":
        return cls()

    @classmethod
    def short(cls) -> "DemoTiming":
        """Every step and roll with little time to read: what the tests run."""
        return cls(fps=10.0, intro_s=0.8, lead_s=0.1, speed_in_s=7.5, min_move_s=0.5, settle_s=0.35,
                   appear_hold_s=0.2, clear_in=2.0, action_s=0.1, bookkeeping_s=0.1, initiative_s=0.1, aim_s=0.2,
                   result_s=0.2, roll_s=0.2, landing_s=0.2, outro_s=0.3, video_every=2)


class BeatKind(str, Enum):
    STEP = "step"              # a new step of the example begins (its caption)
    MOVE = "move"              # units start moving (the view follows the first of them)
    AIM = "aim"                # an attack is set up: the weapon's overlays and the odds are shown
    RESOLVE = "resolve"        # ... and resolved with the dice the text states
    LANDING = "landing"        # a missed explosive lands where the text has it
    INITIATIVE = "initiative"  # an initiative roll with the stated dice
    TREAT_AIM = "treat-aim"    # a medic gets to work
    TREAT = "treat"            # ... and rolls
    ROLL = "roll"              # another roll with the stated dice (an activation, a test, reinforcements)
    TURN = "turn"              # the next side's turn (an automated side rolls its tables)
    ACTION = "action"          # any other rules action (Focus, Signal, start or end of a turn...)
    END = "end"                # the example is over


@dataclass(frozen=True)
class Beat:
    """A moment the rules act. ``item`` is the script's item (an ``Attack``, an action...);
    ``units`` are the units the view should follow."""

    t_s: float
    step_index: int
    kind: BeatKind
    item: Any = None
    units: tuple[int, ...] = ()


@dataclass(frozen=True)
class Caption:
    """What a newcomer reads while a step plays: the rulebook's words, and what it says comes of it."""

    t_start_s: float
    t_end_s: float
    section: str
    title: str
    text: str
    expect: str


@dataclass(frozen=True)
class StoryMove:
    """One unit moved on the table (the script's moves and whatever the rules relocate)."""

    tag_id: int
    t_start_s: float
    t_end_s: float
    from_xy: tuple[float, float]
    to_xy: tuple[float, float]


@dataclass(frozen=True, eq=False)
class DemoStory:
    """The whole example laid out in time (see the module docstring)."""

    steps: tuple[Any, ...]
    beats: tuple[Beat, ...]
    captions: tuple[Caption, ...]
    paths: tuple[UnitPath, ...]
    moves: tuple[StoryMove, ...]
    duration_s: float
    timing: DemoTiming
    scenario: dict[str, Any] = field(repr=False)
    scenario_path: Path
    riders: frozenset[int]
    reference: tuple[Any, ...] = field(repr=False, default=())
    #: The example staged (what its items are, how players do them); None: the default example.
    example: DemoExample = field(repr=False, default=None)  # type: ignore[assignment]  # None: the default example (see the comment above)

    def __post_init__(self) -> None:
        if self.example is None:
            object.__setattr__(self, "example", example_named(None))

    @property
    def frame_count(self) -> int:
        return int(math.floor(self.duration_s * self.timing.fps)) + 1

    def path(self, tag_id: int) -> UnitPath | None:
        for p in self.paths:
            if p.tag_id == tag_id:
                return p
        return None

    def caption_at(self, t_s: float) -> Caption | None:
        """The step being played at ``t_s`` (the first one before it starts, the last one after the end)."""
        if not self.captions:
            return None
        for c in self.captions:
            if c.t_start_s <= t_s < c.t_end_s:
                return c
        return self.captions[0] if t_s < self.captions[0].t_start_s else self.captions[-1]

    def scripted_pose(self, tag_id: int, t_s: float) -> tuple[float, float, float, tuple[float, float]] | None:
        """(x_in, y_in, heading_deg, velocity_in_s) where the script has the unit's tag at ``t_s``;
        None while it is off the table."""
        p = self.path(tag_id)
        return None if p is None else p.pose_at(t_s)

    def moving_between(self, tag_id: int, t0_s: float, t1_s: float) -> bool:
        """True when the unit is moved (or set down, or lifted) at any time in [t0_s, t1_s]."""
        p = self.path(tag_id)
        if p is None:
            return False
        keys = p.keyframes
        for a, b in zip(keys, keys[1:]):
            changes = (a.x_in, a.y_in, a.heading_deg, a.on_table) != (b.x_in, b.y_in, b.heading_deg, b.on_table)
            if changes and a.t_s < t1_s and b.t_s > t0_s - 1e-9:
                return True
        return False

    def beats_of(self, kind: BeatKind) -> tuple[Beat, ...]:
        return tuple(b for b in self.beats if b.kind is kind)

    def step_start_s(self, section: str) -> float:
        for c in self.captions:
            if c.section == section:
                return c.t_start_s
        raise KeyError(section)


def demo_scenario(scenario: dict[str, Any], *, tag_sizes: dict[int, float]) -> dict[str, Any]:
    """The example's scenario with the demo table's tag sizes written into its units (for the
    tracker's roster; the rules ignore them)."""
    out = dict(scenario)
    out["units"] = [{**u, "tag_size_in": tag_sizes.get(int(u["tag_id"]), TROOP_TAG_IN),
                     "base_height_in": TAG_HEIGHT_IN} for u in scenario.get("units", [])]
    return out


class _Table:
    """The physical table while the story is laid out: keyframes per tag."""

    def __init__(self, tokens: dict[int, Token], riders: frozenset[int]) -> None:
        self.riders = riders
        self.keys: dict[int, list[Keyframe]] = {}
        self.sizes: dict[int, float] = {}
        self.moves: list[StoryMove] = []
        for tag, token in tokens.items():
            self.sizes[tag] = token.size_in
            if tag not in riders:
                self.keys[tag] = [Keyframe(0.0, *token.place)]

    def last(self, tag: int) -> Keyframe:
        return self.keys[tag][-1]

    def _hold_until(self, tag: int, t_s: float) -> None:
        last = self.last(tag)
        if t_s > last.t_s + 1e-9:
            self.keys[tag].append(replace(last, t_s=t_s))

    def move(self, tag: int, t0: float, t1: float, x: float, y: float, heading: float) -> None:
        """A hand sliding a miniature: it speeds up, glides, slows down (a trapezoidal speed profile,
        as keyframes), so it never jumps from standing to full speed between two frames."""
        self._hold_until(tag, t0)
        start = self.last(tag)
        t1 = max(t1, start.t_s + 1e-3)
        turn = (heading - start.heading_deg + 180.0) % 360.0 - 180.0
        for u, s in _EASE:
            self.keys[tag].append(Keyframe(t0 + u * (t1 - t0), start.x_in + s * (x - start.x_in),
                                           start.y_in + s * (y - start.y_in), (start.heading_deg + s * turn) % 360.0, True))
        self.keys[tag][-1] = Keyframe(t1, x, y, heading % 360.0, True)
        self.moves.append(StoryMove(tag, t0, t1, (start.x_in, start.y_in), (x, y)))

    def put_down(self, tag: int, t_s: float, x: float, y: float, heading: float) -> None:
        last = self.last(tag)
        self.keys[tag].append(Keyframe(max(t_s, last.t_s + 1e-3), x, y, heading, True))

    def lift(self, tag: int, t_s: float) -> None:
        last = self.last(tag)
        self.keys[tag].append(Keyframe(max(t_s, last.t_s + 1e-3), last.x_in, last.y_in, last.heading_deg, False))

    def paths(self) -> tuple[UnitPath, ...]:
        return tuple(UnitPath(tag, TAG_HEIGHT_IN, self.sizes[tag], tuple(keys)) for tag, keys in sorted(self.keys.items()))


Place = tuple[float, float, float, bool]


def _changes(before: dict[int, Token], after: dict[int, Token], riders: frozenset[int]) -> dict[int, tuple[Place, Place]]:
    """Tags whose place on the table an item changed (riders follow their token and are left out)."""
    out = {}
    for tag, token in after.items():
        if tag in riders:
            continue
        new = token.place
        if before[tag].place != new:
            out[tag] = (before[tag].place, new)
    return out


def _duration(distance_in: float, timing: DemoTiming) -> float:
    """How long a hand takes to slide a miniature ``distance_in`` (its mean speed is ``speed_in_s``;
    the peak, mid-move, a third more)."""
    return max(timing.min_move_s, distance_in / timing.speed_in_s)


def _turn_delta(a: float, b: float) -> float:
    return abs((b - a + 180.0) % 360.0 - 180.0)


def _example(example: DemoExample | str | None) -> DemoExample:
    return example if isinstance(example, DemoExample) else example_named(example)


def steps_until(section: str | None, *, example: DemoExample | str | None = None) -> tuple[Any, ...] | None:
    """The example's steps up to and including ``section`` (None: all of them); a section that is not
    a step is refused naming the steps."""
    return _example(example).steps_until(section)


def build_story(*, example: DemoExample | str | None = None, steps: Sequence[Any] | None = None,
                timing: DemoTiming | None = None) -> DemoStory:
    """Lay out an example (by default the in-depth example; all of its ``STEPS``, or the first
    ``steps``) in time."""
    ex = _example(example)
    timing = timing or DemoTiming()
    steps = tuple(ex.steps if steps is None else steps)
    state = ex.initial_state()
    riders = ex.riders(state)
    game = _ShadowGame(ex, state, steps)
    table = _Table(game.tokens, riders)
    beats: list[Beat] = []
    captions: list[Caption] = []
    t = timing.intro_s

    for index, step in enumerate(steps):
        step_start = t
        beats.append(Beat(t, index, BeatKind.STEP, step))
        t += timing.lead_s
        items = list(step.items)
        pending_appear: dict[int, tuple[float, float, float, float]] = {}
        k = 0
        while k < len(items):
            item = items[k]
            role = ex.role(item)
            if role is ItemRole.MOVE:
                group = []
                while k < len(items) and ex.role(items[k]) is ItemRole.MOVE:
                    group.append(items[k])
                    k += 1
                t = _lay_out_moves(group, index, t, game, table, pending_appear, riders, beats, timing)
                continue
            k += 1
            if role is ItemRole.ATTACK:
                units = ex.attack_units(item)
                beats.append(Beat(t, index, BeatKind.AIM, item, units))
                t += timing.aim_s
                before = game.play(item, index)
                beats.append(Beat(t, index, BeatKind.RESOLVE, item, units))
                if ex.landing(item) is not None:
                    t += timing.landing_s
                    beats.append(Beat(t, index, BeatKind.LANDING, item, units[:1]))
                t = _relocate(before, game.tokens, t, table, riders, pending_appear, timing, minimum_s=timing.result_s)
            elif role is ItemRole.INITIATIVE:
                game.play(item, index)
                beats.append(Beat(t, index, BeatKind.INITIATIVE, item))
                t += timing.initiative_s
            elif role is ItemRole.TREAT:
                beats.append(Beat(t, index, BeatKind.TREAT_AIM, item, (item.medic, item.patient)))
                t += timing.aim_s / 2
                game.play(item, index)
                beats.append(Beat(t, index, BeatKind.TREAT, item, (item.medic, item.patient)))
                t += timing.result_s
            elif role in (ItemRole.ROLL, ItemRole.TURN):
                acting = ex.acting_units(item, game.state)
                before = game.play(item, index)
                beats.append(Beat(t, index, BeatKind.ROLL if role is ItemRole.ROLL else BeatKind.TURN, item, acting))
                t = _relocate(before, game.tokens, t, table, riders, pending_appear, timing, minimum_s=timing.roll_s)
            else:
                acting = ex.acting_units(item, game.state)
                before = game.play(item, index)
                beats.append(Beat(t, index, BeatKind.ACTION, item, acting))
                # Turn bookkeeping and getting out of a vehicle (the unit is set down when it walks
                # off) need no time of their own.
                quick = type(item).__name__ in ("StartRound", "StartTurn", "EndTurn", "Disembark")
                t = _relocate(before, game.tokens, t, table, riders, pending_appear, timing,
                              minimum_s=timing.bookkeeping_s if quick else timing.action_s)
        for tag, (x, y, heading, at) in pending_appear.items():  # set down where the rules put them
            table.put_down(tag, at, x, y, heading)
        captions.append(Caption(step_start, t, ex.section(index, step), step.title, step.text, step.expect))
    beats.append(Beat(t, len(steps) - 1, BeatKind.END))
    if captions:
        last = captions[-1]
        captions[-1] = replace(last, t_end_s=t + timing.outro_s)
    duration = t + timing.outro_s
    sizes = {tag: table.sizes[tag] for tag in table.sizes}
    return DemoStory(steps, tuple(beats), tuple(captions), table.paths(), tuple(table.moves), duration, timing,
                     demo_scenario(ex.load_scenario(), tag_sizes=sizes), ex.scenario_path, riders,
                     game.records(), ex)


def _lay_out_moves(group: list[Any], index: int, t: float, game: "_ShadowGame", table: _Table,
                   pending_appear: dict[int, tuple[float, float, float, float]], riders: frozenset[int],
                   beats: list[Beat], timing: DemoTiming) -> float:
    """Moves of consecutive ``Pose`` items, together; returns when the rules may act again."""
    planned: list[tuple[int, tuple[float, float, float], tuple[float, float, float]]] = []
    for pose in group:
        before = game.play(pose, index)
        for tag, (old, new) in _changes(before, game.tokens, riders).items():
            if tag in pending_appear:  # set down at the hatch (the rules' spot), then walks off
                x, y, heading, _ = pending_appear.pop(tag)
                old = (x, y, heading, True)
            planned.append((tag, old[:3], new[:3]))
    # Units leaving one spot go one after another, each once the previous is clear of it.
    starts: list[tuple[float, float, float]] = []  # (x, y, when the spot is free again)
    end = t
    for tag, (x0, y0, h0), (x1, y1, h1) in planned:
        distance = math.hypot(x1 - x0, y1 - y0)
        duration = _duration(distance, timing) if distance > 1e-6 or _turn_delta(h0, h1) > 1e-6 else 0.0
        start = t
        crowded = [free for (sx, sy, free) in starts if math.hypot(sx - x0, sy - y0) < timing.clear_in]
        appearing = not table.last(tag).on_table
        if appearing:
            start += timing.appear_hold_s
        if crowded:
            start = max(start, max(crowded) + (timing.appear_hold_s if appearing else 0.0))
        if appearing:
            table.put_down(tag, start - timing.appear_hold_s, x0, y0, h0)
        if duration > 0:
            table.move(tag, start, start + duration, x1, y1, h1)
        speed = distance / duration if duration > 0 else timing.speed_in_s
        starts.append((x0, y0, start + min(duration, timing.clear_in / max(speed, 1e-6))))
        end = max(end, start + duration)
    beats.append(Beat(t, index, BeatKind.MOVE, tuple(group), tuple(p[0] for p in planned)))
    return end + timing.settle_s


def _relocate(before: dict[int, Token], after: dict[int, Token], t: float, table: _Table, riders: frozenset[int],
              pending_appear: dict[int, tuple[float, float, float, float]], timing: DemoTiming, *,
              minimum_s: float) -> float:
    """What a rules action changed on the table: a unit set down (deferred until it walks off, or the
    step ends), taken off (a unit boarding), or carried back (a UAS returning to its launch point)."""
    end = t + minimum_s
    for tag, (old, new) in _changes(before, after, riders).items():
        if not old[3] and new[3]:
            pending_appear[tag] = (new[0], new[1], new[2], t)
        elif old[3] and not new[3]:
            pending_appear.pop(tag, None)
            table.lift(tag, t)
        elif new[3]:
            duration = _duration(math.hypot(new[0] - old[0], new[1] - old[1]), timing)
            table.move(tag, t, t + duration, new[0], new[1], new[2])
            end = max(end, t + duration + timing.settle_s)
    return end


class _ShadowGame:
    """The example played item by item without any tracking: what each item changes on the table,
    and the script's own results (the reference the tracked demo must reproduce)."""

    def __init__(self, example: DemoExample, state: Any, steps: tuple[Any, ...]) -> None:
        self.example = example
        self.state = state
        self.steps = steps
        self.tokens = example.tokens(state)
        self._records: list[tuple[int, Any]] = []

    def play(self, item: Any, index: int) -> dict[int, Token]:
        """Apply one item of step ``index``; returns the tags as they stood before it."""
        record = self.example.play_item(self.state, self.steps[index], item)
        before, self.state = self.tokens, record.state
        self.tokens = self.example.tokens(self.state)
        self._records.append((index, record))
        return before

    def records(self) -> tuple[Any, ...]:
        """One StepRecord per step (lines, odds and results of all its items)."""
        by_step: dict[int, list[Any]] = {}
        for index, r in self._records:
            by_step.setdefault(index, []).append(r)
        return tuple(self.example.merge_records(step, by_step[i]) for i, step in enumerate(self.steps) if by_step.get(i))


__all__ = ["Beat", "BeatKind", "Caption", "DemoStory", "DemoTiming", "StoryMove", "build_story", "demo_scenario",
           "steps_until", "tag_size_in"]
