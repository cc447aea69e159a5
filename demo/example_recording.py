"""A recording of the rulebook's in-depth example, written without a camera: what a debrief looks like.

The units move as ``rules/downrange/examples/in_depth.py`` scripts them (each step takes ``step_s``
seconds and its moves happen within it), every rule resolution is recorded through the GUI session's own
writer (:class:`appmodel.recording.rows.RecordingRows`: the event and the odds shown before the roll), and
two instructor bookmarks are set.
Poses are the scripted ones (no tracking noise); the full demo records the same session from tracked
synthetic camera frames instead. Used by ``sandtable debrief --example`` and by the tests.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from appmodel.recording.rows import RecordingRows

#: Bookmarks an instructor might have set during the example (section, note).
EXAMPLE_BOOKMARKS = (
    ("6.4.2-6.4.4", "Mortar fire on the sergeant's sighting passed by voice: no Signal, no emission token."),
    ("6.5.1", "ZBL-09 as Main Effort: Advantage on the UTV, cancelled by the sandbags' cover on the mortar team."),
)


def record_in_depth_example(
    path: str | Path,
    *,
    step_s: float = 4.0,
    fps: float = 10.0,
    progress: Callable[[int, int], None] | None = None,
    video_frame: Callable[[int, float], Any] | None = None,
) -> Path:
    """Write the in-depth example as a recording at ``path`` (refused if it exists); returns the path.
    ``video_frame(frame_index, t_s)``: a BGR picture for each frame, recorded as the camera video
    beside it (``<name>.mp4``, as ``--video`` records a camera's)."""
    from calibration.synthetic.scenario import Keyframe, UnitPath
    from rules.downrange.examples import in_depth
    from tracker.events import EventKind, TrackerEvent
    from tracker.recording import Recorder
    from tracker.roster import load_roster
    from tracker.unit_pose import UnitPose, UnitState

    scenario_text = in_depth.SCENARIO_PATH.read_text(encoding="utf-8")
    roster = load_roster(in_depth.SCENARIO_PATH)
    records = list(in_depth.play())
    keyframes = _step_keyframes(in_depth.synthetic_keyframes(step_s=step_s), step_s)
    paths = {tag: UnitPath(tag, 1.0, 1.0, tuple(Keyframe(k["t_s"], k["x_in"], k["y_in"], k["heading_deg"], k["on_table"]) for k in ks))
             for tag, ks in keyframes.items()}
    names = {u.tag_id: (u.name, u.side) for u in roster.units}
    duration_s = (len(records) + 1) * step_s
    metadata = {
        "source": "in-depth example (scripted poses, no camera)",
        "command": "sandtable debrief --example",
        "scenario_path": str(in_depth.SCENARIO_PATH),
        "scenario_toml": scenario_text,
        "ruleset": "down-range",
    }
    # rule resolutions at the end of the step they belong to (after its moves), a hundredth apart
    timed: list[tuple[float, Any, tuple[Any, ...]]] = []
    sections: dict[str, float] = {}
    seen = 0
    for i, record in enumerate(records):
        t_step = (i + 1) * step_s
        sections[record.step.section] = t_step
        new = record.state.events[seen:]
        seen = len(record.state.events)
        odds = list(record.odds)
        for k, event in enumerate(new):
            shown = odds.pop(0) if event.kind == "attack" and odds else None
            timed.append((t_step + 0.01 * (k + 1), event, tuple(shown or ())))
    frame_count = int(round(duration_s * fps)) + 1
    path = Path(path)
    video = {"video": True, "video_fps": fps, "video_backpressure": True} if video_frame is not None else {}
    with Recorder(path, metadata=metadata, roster=roster, **video) as recorder:
        rows = RecordingRows(recorder)
        next_rule = 0
        was_on: dict[int, bool] = {}
        moving: dict[int, bool] = {}
        last: dict[int, tuple[float, float, float]] = {}
        moved_in: dict[int, float] = {}
        for frame in range(frame_count):
            t = frame / fps
            poses = []
            for tag, unit_path in sorted(paths.items()):
                name, side = names.get(tag, (f"tag {tag}", ""))
                where = unit_path.pose_at(t)
                on = where is not None
                if on:
                    x, y, heading, velocity = where  # type: ignore[misc]  # on: where is not None (mypy cannot narrow through the flag)
                    if tag in last:
                        moved_in[tag] = moved_in.get(tag, 0.0) + math.hypot(x - last[tag][0], y - last[tag][1])
                    last[tag] = (x, y, heading)
                    now_moving = math.hypot(*velocity) > 0
                    if not was_on.get(tag, False):
                        kind = EventKind.APPEARED if tag not in was_on else EventKind.RETURNED
                        recorder.record_event(TrackerEvent(kind, t, frame, tag, name, {"x_in": x, "y_in": y, "heading_deg": heading}))
                    elif now_moving != moving.get(tag, False):
                        kind = EventKind.MOVED if now_moving else EventKind.STOPPED
                        recorder.record_event(TrackerEvent(kind, t, frame, tag, name, {"x_in": x, "y_in": y, "heading_deg": heading}))
                    moving[tag] = now_moving
                    poses.append(UnitPose(tag, name, side, x, y, 1.0, heading, UnitState.SEEN, t, moved_in.get(tag, 0.0),
                                          last_seen_t_s=t, moving=now_moving))
                elif was_on.get(tag, False):
                    x, y, heading = last[tag]
                    recorder.record_event(TrackerEvent(EventKind.LIFTED, t, frame, tag, name, {"x_in": x, "y_in": y, "heading_deg": heading}))
                    poses.append(UnitPose(tag, name, side, x, y, 1.0, heading, UnitState.LIFTED, t, moved_in.get(tag, 0.0),
                                          last_seen_t_s=t))
                if tag in was_on or on:
                    was_on[tag] = on
            recorder.record_frame(frame, t, poses, None if video_frame is None else video_frame(frame, t))
            while next_rule < len(timed) and timed[next_rule][0] <= t:
                t_rule, event, shown = timed[next_rule]
                rows.rules_events(t_rule, [event], odds=shown)
                next_rule += 1
            if progress is not None:
                progress(frame + 1, frame_count)
        for t_rule, event, shown in timed[next_rule:]:
            rows.rules_events(t_rule, [event], odds=shown)
        for section, note in EXAMPLE_BOOKMARKS:
            recorder.add_bookmark(sections[section] + 0.5, f"{section}: {note}")
    return path


def _step_keyframes(frames: dict[int, list[dict[str, Any]]], step_s: float) -> dict[int, list[dict[str, Any]]]:
    """Keyframes whose moves happen within their own step: a unit holds its place until the step
    it moves in begins (the script's keyframes interpolate from the unit's previous change)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for tag, keys in frames.items():
        held: list[dict[str, Any]] = []
        for k in keys:
            if held and k["t_s"] - step_s > held[-1]["t_s"] and held[-1]["on_table"] and k["on_table"]:
                held.append({**held[-1], "t_s": k["t_s"] - step_s})
            held.append(k)
        out[tag] = held
    return out
