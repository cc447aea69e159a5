"""`sandtable demo --headless [--example NAME]`: the whole pipeline offscreen, written to a folder.

Per frame: the synthetic webcam renders the table (in a read-ahead thread), the tracker finds the
tags and measures the units, the director plays the beats that are due, the session takes the tracked
poses, the recorder keeps frames, poses and events, and the compositor draws the overlays onto the
picture, which goes into the video with the caption band below it. At the end the debrief report is
written from the recording. The example is any of :data:`demo.examples.EXAMPLES` (Down Range's
in-depth example by default, Force on Force's patrol, the generic rules' solo game); the rule system
comes from its scenario, and the scenario's terrain is both filmed and given to the tracker. Nothing from the script reaches the session except the beats (what the
players decide and the dice they roll): every position comes from the tracker.

Outputs in the folder: ``demo.mp4`` (the overlaid camera view, MPEG-4, readable by OpenCV and common
players), ``demo.sqlite`` (the recording, docs/recording-format.md) and ``report.html`` (the debrief).
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from demo.director import DemoDirector, PlayedBeat, poses_for_session
from demo.examples import DemoExample, example_named
from demo.footage import DEMO_SIZE_PX, demo_camera, register_demo_table
from demo.story import BeatKind, DemoStory, DemoTiming, build_story
from appmodel.errors import UsageError

VIDEO_NAME = "demo.mp4"
STORY_VIDEO_NAME = "demo-story.mp4"
RECORDING_NAME = "demo.sqlite"
REPORT_NAME = "report.html"
#: The video's camera picture (the camera films in 1080p; the video is drawn at 720p).
VIDEO_SIZE_PX = (1280, 720)
BAND_HEIGHT_PX = 128
#: What ``meta.command`` of a recording this demo wrote starts with: only such a file is replaced.
COMMAND = "sandtable demo"

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class TrackingSample:
    """A unit in one frame: where the tracker has it and where the script put it.

    ``still``: the script has not moved it for ``STILL_AFTER_S``; ``crowded``: another tag's card
    overlaps its card on the table (one hides part of the other), now or in the last ``RECOVER_S``."""

    t_s: float
    tag_id: int
    state: str | None
    x_in: float | None
    y_in: float | None
    script_x_in: float
    script_y_in: float
    still: bool
    crowded: bool

    @property
    def error_in(self) -> float | None:
        if self.x_in is None or self.y_in is None:
            return None
        return math.hypot(self.x_in - self.script_x_in, self.y_in - self.script_y_in)


#: A unit counts as standing still this long after the script last moved it.
STILL_AFTER_S = 0.5
#: Two tags may be crowded when their centres are closer than this times the sum of their sizes: their
#: cards (1.375 x the tag, a white border of 1.5 cells each side) may then overlap, whichever way
#: they are turned (half-diagonals: 0.97 x the sum). :func:`cards_overlap` decides for the actual turns.
CROWDED = 0.97
#: How long after being crowded a tag is still counted as crowded (the sweep's time to find it again).
RECOVER_S = 2.0


@dataclass
class DemoRun:
    """What a headless run produced and measured."""

    out_dir: Path
    video: Path
    recording: Path
    report: Path
    story: DemoStory
    frames: int
    calibration: Any
    final_state: Any
    played: list[PlayedBeat]
    samples: list[TrackingSample]
    seconds: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0

    def resolutions(self, kind: BeatKind = BeatKind.RESOLVE) -> list[PlayedBeat]:
        return [p for p in self.played if p.beat.kind is kind]

    @property
    def out_of_fight(self) -> list[str]:
        """Names of the units out of the fight at the end (as the example's rules count them)."""
        from rules.ruleset import get_ruleset

        return self.story.example.out_of_fight(get_ruleset(self.story.example.ruleset).units(self.final_state))


def _card_corners(x_in: float, y_in: float, heading_deg: float, size_in: float) -> list[tuple[float, float]]:
    from calibration.tag_bitmaps import card_size_in

    half = card_size_in(size_in) / 2.0
    c, s = math.cos(math.radians(heading_deg)), math.sin(math.radians(heading_deg))
    return [(x_in + c * dx - s * dy, y_in + s * dx + c * dy) for dx, dy in ((-half, -half), (half, -half),
                                                                          (half, half), (-half, half))]


def cards_overlap(a: Any, b: Any) -> bool:
    """Whether two tags' white cards overlap on the table (each has ``x_in``, ``y_in``, ``heading_deg``,
    ``size_in``): then one card hides part of the other in the picture. Two squares are apart exactly
    when one of their four edge directions separates them.

    >>> from types import SimpleNamespace as T
    >>> cards_overlap(T(x_in=0, y_in=0, heading_deg=0, size_in=1), T(x_in=1.5, y_in=0, heading_deg=0, size_in=1))
    False
    >>> cards_overlap(T(x_in=0, y_in=0, heading_deg=0, size_in=1), T(x_in=1.5, y_in=0, heading_deg=45, size_in=1))
    True
    """
    if math.hypot(a.x_in - b.x_in, a.y_in - b.y_in) >= CROWDED * (a.size_in + b.size_in):
        return False
    pa = _card_corners(a.x_in, a.y_in, a.heading_deg, a.size_in)
    pb = _card_corners(b.x_in, b.y_in, b.heading_deg, b.size_in)
    for corners in (pa, pb):
        for (x0, y0), (x1, y1) in zip(corners, corners[1:3]):
            ax, ay = x1 - x0, y1 - y0
            da = [px * ax + py * ay for px, py in pa]
            db = [px * ax + py * ay for px, py in pb]
            if max(da) <= min(db) or max(db) <= min(da):
                return False
    return True


def prepare_output_folder(out_dir: str | Path) -> Path:
    """Create ``out_dir``; a previous demo's files in it are replaced, anything else is refused."""
    folder = Path(out_dir).expanduser()
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--out {str(out_dir)!r} is a file; give a folder for the demo's video, recording and report")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {str(out_dir)!r}: cannot create the folder ({exc.strerror}); choose another place") from None
    recording = folder / RECORDING_NAME
    if recording.exists():
        if not _written_by_demo(recording):
            raise UsageError(f"{recording} exists and is not a recording of the demo; choose another --out folder "
                             "(recordings are never overwritten)")
        for p in (recording, Path(f"{recording}-wal"), Path(f"{recording}-shm")):
            p.unlink(missing_ok=True)
    return folder


def _written_by_demo(path: Path) -> bool:
    import sqlite3

    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'command'").fetchone()
    except sqlite3.Error:
        return False
    return bool(row) and str(row[0]).startswith(COMMAND)


def run_headless_demo(out_dir: str | Path, *, example: DemoExample | str | None = None, timing: DemoTiming | None = None,
                      until: str | None = None, camera_size_px: tuple[int, int] = DEMO_SIZE_PX,
                      video_size_px: tuple[int, int] = VIDEO_SIZE_PX, progress: Progress | None = None,
                      command: str = COMMAND, on_session: Callable[[Any], Any] | None = None,
                      camera_video: bool = False) -> DemoRun:
    """Play ``example`` (by default the in-depth example) offscreen into ``out_dir``;
    ``progress(stage, done, total)`` follows it; ``on_session(session)`` is called once the game's
    session exists (the class view follows it). ``camera_video``: the recording keeps the synthetic
    camera's picture too (then ``demo.mp4`` is the recording's camera video, and the overlaid story is ``demo-story.mp4``), as a
    recording made with ``--video`` does: what the replay's video pane shows."""
    import cv2
    import numpy as np

    from calibration.files import table_calibration_to_dict
    from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app
    from gui.demo.caption import CaptionBand
    from appmodel.game_session import GameSession
    from appmodel.overlays.registry import OverlayToggles
    from appmodel.overlays.transforms import CameraTransform
    from tracker.h264_video import H264Writer
    from tracker.pipeline import Tracker
    from tracker.roster import roster_from_scenario
    from tracker.sources import SyntheticSource

    report = progress or (lambda stage, done, total: None)
    started = time.perf_counter()
    _offscreen()
    ex = example if isinstance(example, DemoExample) else example_named(example)
    steps = ex.steps_until(until)  # a wrong step is refused before the folder is touched
    folder = prepare_output_folder(out_dir)
    story = build_story(example=ex, steps=steps, timing=timing or DemoTiming.full())
    camera = demo_camera(story, size_px=camera_size_px)
    report("setting up the table", 0, 1)
    first = camera.scenario.render_frame(0)
    calibration = register_demo_table(camera, first.image_bgr)
    report("setting up the table", 1, 1)
    video_cal = calibration.for_frame_size(*video_size_px)

    ensure_qt_app()
    session = GameSession.from_scenario(story.scenario, source=str(story.scenario_path),
                                        base_dir=str(story.scenario_path.parent), seed=1)
    roster = roster_from_scenario(story.scenario, source=str(story.scenario_path))
    tracker = Tracker(roster=roster, calibration=calibration, terrain=camera.terrain)
    session.turn_started.connect(tracker.start_turn)
    if on_session is not None:
        on_session(session)
    recording = folder / RECORDING_NAME
    recorder = session.start_recording(recording, roster=roster, video=camera_video)
    for key, value in (("command", command), ("source", f"synthetic table, {camera_size_px[0]}x{camera_size_px[1]} webcam "
                                                        f"(the {ex.name} example, tracked)"),
                       ("calibration_json", json.dumps(table_calibration_to_dict(calibration)))):
        recorder.set_meta(key, value)
    recorder.attach(tracker.bus)
    director = DemoDirector(story, session)  # the session records the odds shown with each attack

    writer = None
    # the recording's own camera video takes <recording>.mp4: the story's overlaid one steps aside
    video = folder / (STORY_VIDEO_NAME if camera_video else VIDEO_NAME)
    band = CaptionBand(video_size_px[0], BAND_HEIGHT_PX)
    compositor = Compositor(font_px=14.0)
    transform = CameraTransform(video_cal)
    toggles = OverlayToggles(grid=False)
    caption = _Captioner(story, session, calibration)
    samples: list[TrackingSample] = []
    last_crowded: dict[int, float] = {}
    in_view: set[int] = set()
    seconds = {"track": 0.0, "rules": 0.0, "draw": 0.0, "video": 0.0, "wait for frames": 0.0}
    total = story.frame_count
    source = SyntheticSource(camera.scenario, read_ahead=3)
    frames = 0
    try:
        every = max(1, int(story.timing.video_every))
        picture = np.zeros((video_size_px[1] + BAND_HEIGHT_PX, video_size_px[0], 3), np.uint8)
        # H.264 MP4, which browsers play (OpenCV's MPEG-4 Part 2 they refuse).
        writer = H264Writer(video, story.timing.fps / every, (video_size_px[0], video_size_px[1] + BAND_HEIGHT_PX))
        while True:
            a = time.perf_counter()
            frame = source.read()
            b = time.perf_counter()
            seconds["wait for frames"] += b - a
            if frame is None:
                break
            tracked = tracker.process(frame)
            c = time.perf_counter()
            session.set_time(frame.t_s)
            director.advance(frame.t_s)
            session.apply_poses(poses_for_session(tracked.poses), t_s=frame.t_s)
            for event in tracked.events:
                session.on_tracker_event(event)
            recorder.record_frame(tracked.frame_index, tracked.t_s, tracked.poses,
                                  image_bgr=frame.image_bgr if camera_video else None)
            d = time.perf_counter()
            if frames % every == 0:
                small = cv2.resize(frame.image_bgr, video_size_px, interpolation=cv2.INTER_LINEAR)
                image = compositor.compose(session.snapshot(), transform, toggles, frame_bgr=small)
                picture[:video_size_px[1]] = bgr_from_qimage(image)
                picture[video_size_px[1]:] = band.render(caption.at(frame.t_s))
                e = time.perf_counter()
                writer.write(picture)
            else:
                e = time.perf_counter()
            f = time.perf_counter()
            seconds["track"] += c - b
            seconds["rules"] += d - c
            seconds["draw"] += e - d
            seconds["video"] += f - e
            samples += _samples(story, frame, tracked, last_crowded, in_view)
            frames += 1
            report("playing the example", frames, total)
        director.advance(math.inf)
    finally:
        source.close()
        tracker.close()
        if writer is not None:
            writer.close()
        session.stop_recording()
    report_path = folder / REPORT_NAME
    from classview.timeline import report_timeline
    from debrief.report import write_debrief_report

    write_debrief_report(recording, report_path, progress=lambda stage, done, total_: report(f"report: {stage}", done, total_),
                         timeline=report_timeline)
    return DemoRun(folder, video, recording, report_path, story, frames, calibration, session.state, director.played,
                   samples, seconds, time.perf_counter() - started)


def _offscreen() -> None:
    """Draw without a screen: Qt must not look for one (it aborts the process when it finds none)."""
    import os

    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


class _Captioner:
    """The caption band's text at a moment of the story."""

    def __init__(self, story: DemoStory, session: Any, calibration: Any) -> None:
        self.story = story
        self.session = session
        w, h = calibration.model.size_px
        self.example = story.example
        self.intro = (f"{self.example.cast} A synthetic {w}x{h} webcam films the table; it was registered "
                      f"from its anchors ({calibration.residual_in:.3f}\" residual) and every position shown comes from "
                      "the tracker.")

    def at(self, t_s: float) -> Any:
        from gui.demo.caption import CaptionText

        state = self.session.state
        side, rnd = state.active_side, state.round
        clock = f"{int(t_s) // 60}:{int(t_s) % 60:02d}"
        turn = f"{side}' turn" if side and side.endswith("s") else f"{side}'s turn" if side else ""
        status = " · ".join(x for x in (f"round {rnd}" if rnd else "", turn, clock) if x)
        first = self.story.captions[0] if self.story.captions else None
        if first is None or t_s < first.t_start_s:
            return CaptionText(self.example.title, status, self.intro)
        c = self.story.caption_at(t_s)
        assert c is not None
        lines = tuple(e.text for e in self.session.log if e.kind in ("rules", "warning") and e.t_s >= c.t_start_s - 1e-6)
        if t_s >= self.story.beats[-1].t_s:
            return CaptionText("The end of the example", status,
                               self.example.out_of_fight_sentence(self.session.units()) + " The debrief report lists "
                               "every roll with its odds.", lines[-2:])
        return CaptionText(self.example.heading(c.section, c.title), status, c.text, lines[-2:])


def _samples(story: DemoStory, frame: Any, tracked: Any, last_crowded: dict[int, float],
             in_view: set[int] | None = None) -> list[TrackingSample]:
    """Tracked against scripted, for every unit tag the camera has in view in this frame.

    ``last_crowded`` (updated here) remembers when each tag last had a neighbour's card overlapping
    its own (:func:`cards_overlap`), or came into view after the first frame (set down on the table:
    a reinforcement, a squad leaving its vehicle): such a tag stays ``crowded`` for ``RECOVER_S`` more,
    the time the tracker's sweep takes to find a tag it lost or never saw (1/16 of the picture per
    frame). ``in_view`` (updated here) holds the tags in view in the previous frame."""
    out = []
    truths = [t for t in (frame.truth or ()) if t.tag_id >= 10 and t.in_view]
    for truth in truths:
        if any(other.tag_id != truth.tag_id and cards_overlap(other, truth) for other in truths):
            last_crowded[truth.tag_id] = frame.t_s
    if in_view is not None:
        now = {t.tag_id for t in truths}
        if frame.index > 0:
            for tag in now - in_view:
                last_crowded[tag] = frame.t_s
        in_view.clear()
        in_view.update(now)
    for truth in truths:
        scripted = story.scripted_pose(truth.tag_id, frame.t_s)
        if scripted is None:
            continue
        pose = tracked.pose(truth.tag_id)
        crowded = frame.t_s - last_crowded.get(truth.tag_id, -math.inf) <= RECOVER_S
        still = not story.moving_between(truth.tag_id, frame.t_s - STILL_AFTER_S, frame.t_s)
        out.append(TrackingSample(frame.t_s, truth.tag_id, pose.state.value if pose is not None else None,
                                  pose.x_in if pose is not None else None, pose.y_in if pose is not None else None,
                                  scripted[0], scripted[1], still, crowded))
    return out


__all__ = ["DemoRun", "TrackingSample", "cards_overlap", "prepare_output_folder", "run_headless_demo", "VIDEO_NAME", "RECORDING_NAME",
           "REPORT_NAME"]
