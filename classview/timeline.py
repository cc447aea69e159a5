"""A recording as a timeline of class-view scenes, for the debrief's scrubbable table.

The replay model puts the session where it was at each sampled moment (units where the tracker saw
them, the rules state, the selection and the log as recorded); the scene builder draws each moment's
draw items, exactly as the live class view does. To keep one offline file small the timeline is
*thinned*: every distinct item, label and unit row is stored once and each frame lists the indexes it
shows; a frame identical to the one before is dropped; the log is stored once and each frame says how
many lines of it had been written. What moves is not stored per moment: each unit's track is stored
once (:mod:`classview.tracks`: thinned within 0.05", quantised), the shapes riding on a unit (its base,
facing, rings) in the unit's own frame, its label as an offset from it: a unit that only walks keeps
the same shapes for the whole game. ``static/scrub.js`` turns it back into scenes for the same
renderer, the units where their tracks have them at the moment shown.

    timeline = build_timeline("game.sqlite", engagement_times=[12.0, 40.5])
"""
from __future__ import annotations

import bisect
import html
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from appmodel.recording.reader import TRAIL_STEP_S
from classview.scene import DECIMALS, LABEL_SCALES, SceneBuilder, class_layers, last_roll_json, log_json
from classview.tracks import POSITION_BOUND_IN, encode_track, thin, to_local

#: Samples at most this often (seconds) and never more than ``MAX_FRAMES`` evenly for a whole game (a
#: three-hour game every 45 s), plus every moment something changed (a decision, a log line, the
#: selection, a tracker event, a bookmark). The moves are not in the samples but in the units' tracks
#: (every pose the debrief reads, thinned within 0.05"): the even samples only catch what moves
#: with the units without being decided (a radio link coming into reach), and each sample costs a
#: replayed moment, so the timeline's cost follows what happened, not the game's length.
STEP_S = 0.5
MAX_FRAMES = 240

#: The label placements a report carries (the page takes the one for its own pixels per inch): a
#: laptop's (a report's table at 1366x768 is about 10 px per inch; larger screens and zooming in show it
#: larger) and a phone's. Two of the live class view's five: each placement adds its labels to every
#: moment (bench/long_session.py, one run each: a one-hour game's report 4.4 MB with one, 5.2 with these
#: two, 7.0 with all five; three hours 8.9 MB with these two, 9.5 with three, 10 allowed).
TIMELINE_LABEL_SCALES = (LABEL_SCALES[2], LABEL_SCALES[4])
#: The timeline's data layout (``static/scrub.js`` reads it): 2 = tracks and shapes in units' frames.
TIMELINE_FORMAT = 2

Progress = Callable[[int, int], None]


#: A shape in a unit's frame within this of one already stored (each point, each axis, inches) is
#: stored once: the moment's shapes come rounded to 1/100" and turning them into the unit's frame
#: jitters the last digit, which would otherwise store a "new" base at nearly every moment.
SHAPE_TOLERANCE_IN = 0.02


class _Shapes:
    """Shapes in units' frames, stored once within ``SHAPE_TOLERANCE_IN`` of one another."""

    def __init__(self, values: "_Interned") -> None:
        self.values = values
        self._recent: dict[str, list[tuple[np.ndarray, int]]] = {}

    def add(self, item: dict[str, Any], pts: np.ndarray) -> int:
        style = json.dumps({k: v for k, v in item.items() if k != "pts"}, sort_keys=True, separators=(",", ":"))
        bucket = self._recent.setdefault(f"{len(pts)}|{style}", [])
        for kept, index in bucket:
            if np.abs(kept - pts).max() <= SHAPE_TOLERANCE_IN:
                return index
        index = self.values.add({**item, "pts": np.round(pts, DECIMALS).ravel().tolist()})
        bucket.insert(0, (pts, index))
        del bucket[8:]  # the newest few: a shape comes back to one it had lately (a unit turning back)
        return index


class _Interned:
    """Values stored once, referred to by index."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True, separators=(",", ":"))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.values)
            self.values.append(value)
        return found


def sample_times(duration_s: float, moments: Iterable[float], *, step_s: float = STEP_S,
                 max_frames: int = MAX_FRAMES) -> list[float]:
    """When to sample a recording: evenly (``step_s``, coarser for long games) and just after every
    moment something was decided, so each decision's picture is in the timeline.

    >>> sample_times(2.0, [0.7])
    [0.0, 0.5, 0.7, 1.0, 1.5, 2.0]
    """
    step = max(step_s, duration_s / max_frames) if duration_s > 0 else step_s
    times = {round(k * step, 3) for k in range(int(duration_s / step) + 1)}
    times.add(round(duration_s, 3))
    times.update(round(t, 3) for t in moments if 0.0 <= t <= duration_s)
    return sorted(times)


def build_timeline(recording: str | Path, *, engagement_times: Sequence[float] = (),
                   toggles: Any = None, progress: Progress | None = None,
                   tracks: Mapping[int, np.ndarray] | None = None, report_dir: str | Path | None = None,
                   replay: Any = None) -> dict[str, Any]:
    """The thinned timeline of ``recording`` (JSON-ready). ``tracks``: the units' poses already read
    (the debrief's facts hold them), else they are read here. ``report_dir``: the folder of the page
    that shows it, which links the recording's camera video relative to itself (``video``; the
    recording's own folder when not given). ``replay``: the recording already opened for replay (an
    ``appmodel.replay_model.ReplayModel``, left open: the debrief's exposure replays it next), else
    it is opened here."""
    from appmodel.replay_model import ReplayModel

    opened = ReplayModel(recording) if replay is None else None
    shown = replay if opened is None else opened
    try:
        timeline = _timeline(shown, engagement_times, toggles, progress, tracks)
        video = video_link(shown.reader, report_dir)
        if video is not None:
            timeline["video"] = video
        return timeline
    finally:
        if opened is not None:
            opened.close()
        # The replayed session and its game states hold reference cycles: freed now, the debrief's
        # plots that follow reuse their memory instead of adding to the peak.
        import gc

        gc.collect()


def video_map(frames: np.ndarray, fps: float) -> list[list[float]]:
    """``[t_s, video_s]`` pairs that put any session time on the camera video's clock, linear between
    them within half a frame. ``frames``: (N, 3) frame index, t_s, video frame (-1: not in the video,
    as the recording's ``frames`` table has them): the video holds only the frames it was given, so a
    frame left out shifts the rest, and a camera's clock is not the video's even rate.

    >>> t = np.arange(21) / 10   # two seconds at 10 fps; frames 5 to 9 left out of the video
    >>> in_video = [k if k < 5 else (-1 if k < 10 else k - 5) for k in range(21)]
    >>> video_map(np.column_stack([np.arange(21), t, in_video]), 10.0)
    [[0.0, 0.0], [0.4, 0.4], [1.0, 0.5], [2.0, 1.5]]
    """
    rows = frames[frames[:, 2] >= 0] if len(frames) else frames
    if not len(rows) or fps <= 0:
        return []
    pairs = np.zeros((len(rows), 4))
    pairs[:, 0] = rows[:, 1]
    pairs[:, 1] = rows[:, 2] / fps
    keep = thin(pairs, bound_in=0.5 / fps, bound_deg=1e9)
    return [[round(float(t), 3), round(float(v), 3)] for t, v in pairs[keep, :2]]


def video_link(reader: Any, report_dir: str | Path | None = None) -> dict[str, Any] | None:
    """The recording's camera video for the timeline: ``src`` (its path relative to ``report_dir``, as
    a URL) and ``map`` (:func:`video_map`); None when the recording has no video or it is not there."""
    import os
    from urllib.parse import quote

    path = reader.video_path
    if path is None or not Path(path).is_file():
        return None
    try:
        fps = float(reader.meta.get("video_fps") or 0.0)
    except ValueError:
        fps = 0.0
    mapping = video_map(reader.frame_times(), fps)
    if not mapping:
        return None
    folder = Path(report_dir) if report_dir is not None else Path(path).parent
    try:
        relative = os.path.relpath(Path(path).resolve(), folder.resolve())
    except ValueError:  # another drive (Windows): the absolute file
        return {"src": Path(path).resolve().as_uri(), "map": mapping}
    return {"src": quote(Path(relative).as_posix()), "map": mapping}


def _timeline(replay: Any, engagement_times: Sequence[float], toggles: Any,
              progress: Progress | None, tracks_read: Mapping[int, np.ndarray] | None) -> dict[str, Any]:
    builder = SceneBuilder(class_layers(toggles), scales=TIMELINE_LABEL_SCALES)
    recorded = _recorded_events(replay)
    event_times = [t for t, _ in recorded]
    # A recording made without the companion's session (``sandtable track``, the example) holds the
    # rules' events but no states or log lines: the card, the round and the log then come from them.
    from_events = bool(recorded) and not replay.log_at(replay.duration_s)
    log_source = [_EventLine(t, e) for t, e in recorded] if from_events else None
    items, labels, units, texts, placements = _Interned(), _Interned(), _Interned(), _Interned(), _Interned()
    shapes = _Shapes(items)
    times = sample_times(replay.duration_s, replay.change_times() + list(engagement_times))
    frames: list[dict[str, Any]] = []
    # Where each unit stood at each sample, as the replay showed it: merged into its track.
    sampled: dict[int, list[tuple[float, float, float, float]]] = {}
    last_key: Any = None
    scene: dict[str, Any] = {}
    total = len(times) + 1
    for k, t in enumerate(times):
        replay.seek(t)
        snapshot = replay.session.snapshot()
        scene = builder.scene(snapshot, replay.session.log, t_s=t)
        n_log = len(replay.session.log)
        if from_events:
            upto = bisect.bisect_right(event_times, t + 1e-6)
            scene["roll"] = _roll_before(recorded[:upto], getattr(replay.session, "ruleset", None))
            if upto and not scene["turn"]["round"]:
                last = recorded[upto - 1][1]
                # Whose turn it was is not in such a recording: the round is.
                scene["turn"] = {"round": last.round, "side": None, "order": [], "text": f"Round {last.round}"}
            n_log = upto
        poses = {int(u["id"]): (float(u["x_in"]), float(u["y_in"]), float(u["heading_deg"])) for u in scene["units"]}
        for uid, (x, y, h) in poses.items():
            sampled.setdefault(uid, []).append((t, x, y, h))
        frame = _frame(scene, poses, items, labels, units, texts, shapes, placements)
        frame["n"] = n_log
        key = json.dumps(frame, sort_keys=True)
        if key != last_key:
            frames.append({"t_s": t, **frame})
            last_key = key
        if progress is not None:
            progress(k + 1, total)
    log = log_json(log_source if log_source is not None else replay.session.log, tail=None)
    tracks = unit_tracks(replay.reader, sampled, tracks_read)
    if progress is not None:
        progress(total, total)
    return {"format": TIMELINE_FORMAT, "table_in": scene.get("table_in", [72.0, 48.0]), "font_in": scene.get("font_in", 0.7),
            "duration_s": round(replay.duration_s, 3), "items": items.values, "labels": labels.values,
            "units": units.values, "texts": texts.values, "frames": frames, "log": log, "tracks": tracks,
            "bound_in": POSITION_BOUND_IN,
            "label_scales": [{"px_per_in": s["px_per_in"], "font_in": s["font_in"]} for s in scene.get("label_sets", [])],
            "placements": placements.values,
            "engagements": sorted(round(float(t), 3) for t in engagement_times)}


def _frame(scene: dict[str, Any], poses: dict[int, tuple[float, float, float]], items: _Interned, labels: _Interned,
           units: _Interned, texts: _Interned, shapes: _Shapes, placements: _Interned) -> dict[str, Any]:
    """One sampled moment as indexes into the interned values, in drawing order. A shape that belongs
    to one unit is stored in that unit's own frame (an entry ``[shape, unit]``) and so is the same shape
    at every moment while the unit only moves: the browser puts it where the unit's track says; a shape
    between units (``[shape, unit, unit...]``) has each point pinned to the nearest of them; a label
    that names one unit is stored as an offset from it (``[label, unit]``); ``l`` holds the nominal
    placement, ``ls`` each smaller screen's (the timeline's ``label_scales``) as an index into the
    timeline's ``placements`` (the same list at many moments while units only move: stored once)."""
    shown: list[Any] = []
    for item in scene["items"]:
        owners = [int(u) for u in item.get("units") or []]
        if len(owners) > 1 and not item.get("marker") and all(u in poses for u in owners):
            pin, offsets = _pinned(item, [poses[u] for u in owners])
            shown.append([shapes.add({**item, "pin": pin}, offsets), *owners])
            continue
        pose = poses.get(owners[0]) if len(owners) == 1 else None
        if pose is None:  # a marker of one unit (its centre dot) rides on it too: stored once, not per moment
            shown.append(items.add(item))
            continue
        pts = np.asarray(item["pts"], dtype=np.float64).reshape(-1, 2)
        radii = np.hypot(pts[:, 0] - pose[0], pts[:, 1] - pose[1])
        if len(pts) > 4 and float(radii.max() - radii.min()) <= SHAPE_TOLERANCE_IN:
            # A circle about the unit (its base, a ring): stored upright, only carried with the unit.
            shown.append([shapes.add({**item, "upright": True}, pts - pose[:2]), owners[0]])
        else:
            shown.append([shapes.add(item, to_local(pts, pose)), owners[0]])
    rows = [units.add({k: v for k, v in u.items() if k not in _MOVING}) for u in scene["units"]]
    frame = {"i": shown, "l": _frame_labels(scene["labels"], poses, labels), "u": rows, "turn": texts.add(scene["turn"]),
             "roll": texts.add(scene["roll"])}
    if scene.get("label_sets"):
        frame["ls"] = [placements.add(_frame_labels(s["labels"], poses, labels)) for s in scene["label_sets"][1:]]
    return frame


def _frame_labels(scene_labels: Sequence[dict[str, Any]], poses: dict[int, tuple[float, float, float]],
                  labels: _Interned) -> list[Any]:
    """One placement's labels as indexes into the interned labels: one that names a unit as an
    offset from it (``[label, unit]``), so it is the same label while the unit only moves."""
    shown: list[Any] = []
    for label in scene_labels:
        pose = poses.get(label["of"]) if "of" in label else None
        if pose is None:
            shown.append(labels.add(label))
            continue
        x, y = pose[0], pose[1]
        moved = {**label, "box": _offset(label["box"], x, y)}
        if "leader" in label:
            moved["leader"] = _offset(label["leader"], x, y)
        shown.append([labels.add(moved), int(label["of"])])
    return shown


def _pinned(item: dict[str, Any], poses: Sequence[tuple[float, float, float]]) -> tuple[list[int], np.ndarray]:
    """A shape between several units (a radio link, a side's net) with each point pinned to the
    nearest of them (``pin``: its index among the owners) and its offset from it: a link between two
    walking units is then the same shape all game."""
    pts = np.asarray(item["pts"], dtype=np.float64).reshape(-1, 2)
    centres = np.asarray([(x, y) for x, y, _ in poses], dtype=np.float64)
    nearest = np.argmin(((pts[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2), axis=1)
    return [int(k) for k in nearest], pts - centres[nearest]


#: What a unit's roster row loses in the timeline: its track says it.
_MOVING = ("x_in", "y_in", "heading_deg")


#: A label's place beside its unit is kept to this (inches): the labels are placed anew at each moment
#: and their offsets wander by hundredths; snapped, a walking unit's label is stored once, not per moment.
LABEL_SNAP_IN = 0.25


def _offset(values: Sequence[float], x: float, y: float) -> list[float]:
    """``values`` (x, y, x, y...) as offsets from (x, y), the first point snapped to ``LABEL_SNAP_IN``
    and the others kept at their distance from it (a box keeps its size)."""
    out = [float(v) - (x if k % 2 == 0 else y) for k, v in enumerate(values)]
    dx = round(out[0] / LABEL_SNAP_IN) * LABEL_SNAP_IN - out[0]
    dy = round(out[1] / LABEL_SNAP_IN) * LABEL_SNAP_IN - out[1]
    return [round(v + (dx if k % 2 == 0 else dy), DECIMALS) for k, v in enumerate(out)]


def unit_tracks(reader: Any, sampled: Mapping[int, list[tuple[float, float, float, float]]],
                tracks_read: Mapping[int, np.ndarray] | None = None) -> list[dict[str, Any]]:
    """Every unit's track: its recorded poses (``TRAIL_STEP_S`` apart at most, every stop and lift, as
    the debrief reads them for its trails; read one unit at a time when not given) merged with where the
    replay showed it at each sample (a unit the tracker never saw moves only with the rules' states),
    thinned within the bound."""
    out = []
    ids = sorted(set(sampled) | set(tracks_read or {}))
    for uid in ids:
        own = np.asarray(sampled.get(uid, ()), dtype=np.float64).reshape(-1, 4)
        if tracks_read is not None:
            recorded = np.asarray(tracks_read.get(uid, np.zeros((0, 4))), dtype=np.float64).reshape(-1, 4)
        else:
            recorded = reader.track_of(uid, step_s=TRAIL_STEP_S)
        rows = np.concatenate([recorded, own]) if len(recorded) else own
        if len(rows):
            out.append(encode_track(uid, rows))
    return out


class _EventLine:
    """A recorded rules event as a log line."""

    def __init__(self, t_s: float, event: Any) -> None:
        self.t_s, self.kind, self.text, self.round = t_s, "warning" if event.warnings else "rules", event.summary, event.round


def _recorded_events(replay: Any) -> list[tuple[float, Any]]:
    """The rules' own events in the recording, with their times."""
    from dataclasses import fields

    from rules.events import RulesEvent

    names = {f.name for f in fields(RulesEvent)}
    out = []
    for r in replay.reader.iter_rules_events(states_later=True):  # the full game states are not events
        payload = r.payload if isinstance(r.payload, dict) else {}
        # The session records {"event": ...}; the tracker-side recorders the event itself (with odds).
        data = payload.get("event") if isinstance(payload.get("event"), dict) else payload
        if "summary" in data and "seq" in data:
            data = {k: v for k, v in data.items() if k in names}
            try:
                out.append((float(r.t_s), RulesEvent.from_json(data)))
            except Exception:  # an event this version cannot read is left out, not fatal
                continue
    return out


def _roll_before(recorded: Sequence[tuple[float, Any]], ruleset: Any = None) -> dict[str, Any] | None:
    return last_roll_json([e for _, e in recorded], ruleset)


def timeline_json(timeline: dict[str, Any]) -> str:
    """The timeline as JSON safe to put inside an HTML ``<script>`` element."""
    text = json.dumps(timeline, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/")


def _asset(name: str) -> str:
    from importlib import resources

    return resources.files("classview").joinpath("static", name).read_text(encoding="utf-8")


def report_timeline(recording: str | Path, facts: Any, progress: Any = None, *,
                    report_dir: str | Path | None = None, replay: Any = None) -> str:
    """The debrief report's timeline section (``write_debrief_report(..., timeline=report_timeline)``):
    the scrubbable table, or one sentence saying why the recording has none. ``report_dir``: where the
    report is written (the camera video is linked relative to it); ``replay``: the recording already
    opened for replay (None: opened here)."""
    report = progress or (lambda stage, done, total: None)
    try:
        timeline = build_timeline(recording, engagement_times=[e.t_s for e in facts.engagements],
                                  progress=lambda done, total: report("timeline", done, total),
                                  tracks=getattr(facts, "tracks", None), report_dir=report_dir, replay=replay)
    except (ValueError, OSError) as exc:
        # The user errors of every layer are ValueErrors (a recording without a scenario, one SQLite
        # refuses: the rest of the report is what could be rescued): the report is still written.
        return f"<p>No timeline: {html.escape(str(exc).rstrip('.'))}.</p>"
    return ("<p>The table as it was, with the overlays the players saw: play, pause, drag the slider or jump to the "
            "next engagement.</p>" + scrub_html(timeline))


def scrub_html(timeline: dict[str, Any]) -> str:
    """The timeline as a self-contained piece of HTML: the live page's table, roll card, units and log
    with play, pause, a slider and "next engagement" under it; its style, the renderer, the player
    and the data all inline (the report opens offline)."""
    return f"""<style>{_asset("classview.css")}</style>
<div class="classview scrub" id="class-timeline">
  <header><span class="brand">The table as it was</span> <span class="turn" data-part="turn"></span></header>
  <main><svg class="table" role="img" aria-label="The table seen from above at the chosen moment"></svg></main>
  <aside><div class="camera" hidden><h2>Camera</h2><video muted playsinline preload="auto"
    aria-label="The recording's camera video at the moment shown"></video></div><h2>Last roll</h2><div data-part="roll"></div><h2>Units</h2><ul class="units" data-part="units"></ul>
    <h2>Log</h2><ul class="log" data-part="log"></ul></aside>
  <div class="controls"><button type="button" class="play">Play</button>
    <button type="button" class="next">Next engagement</button>
    <input type="range" min="0" value="0" aria-label="Time in the game">
    <span class="clock"></span>
    <select class="speed" aria-label="Speed"><option value="1">1×</option><option value="4" selected>4×</option>
      <option value="16">16×</option><option value="64">64×</option></select></div>
</div>
<script>{_asset("classview.js")}</script>
<script>{_asset("zoom.js")}</script>
<script>{_asset("scrub.js")}</script>
<script type="application/json" id="class-timeline-data">{timeline_json(timeline)}</script>
<script>window.classTimeline = ClassViewScrub.init(document.getElementById("class-timeline"),
  JSON.parse(document.getElementById("class-timeline-data").textContent));</script>"""
