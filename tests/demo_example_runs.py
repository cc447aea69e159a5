"""What the demo tests share (not a test module).

* :func:`run_once`: one run of ``sandtable demo ...`` per test session, shared by the pytest-xdist workers
  through a lock file (the first worker runs it, the other reads what it wrote);
* :func:`crowded_times`: when each tag's card overlapped another's in the script (the tracker cannot
  be asked to see a tag another card half covers);
* :func:`same_words`: two sentences say the same, numbers read off the table allowed a tenth apart;
* :func:`scripted_poses`: what a perfect tracker would report (for playing a story without a camera),
  :func:`play_from_scripted_poses`: a story played that way on a real session;
* :func:`check_demo_video`: the checks a viewer makes of a demo's video.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import re
from pathlib import Path
from typing import Any

from gui.demo.headless import cards_overlap

TOLERANCE_IN = 0.1
LAG_FRAMES = 2


def run_once(request: Any, tmp_path_factory: Any, name: str, argv: list[str]) -> tuple[int, Path, str, str]:
    """(exit code, output folder, stdout, stderr) of ``sandtable <argv> --out <folder>``, run once."""
    from cli.main import main

    worker = getattr(request.config, "workerinput", None)
    root = tmp_path_factory.getbasetemp().parent if worker is not None else tmp_path_factory.getbasetemp()
    out = root / name
    with _exclusive(root / f"{name}.lock"):
        done = root / f"{name}.json"
        if not done.exists():
            stdout, stderr = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                code = main([*argv, "--out", str(out)])
            done.write_text(json.dumps({"code": code, "stdout": stdout.getvalue(), "stderr": stderr.getvalue()}))
        ran = json.loads(done.read_text())
    return ran["code"], out, ran["stdout"], ran["stderr"]


@contextlib.contextmanager
def _exclusive(path: Path):
    """A lock file between test processes (POSIX; elsewhere each worker runs the demo itself)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


class _Card:
    def __init__(self, x_in: float, y_in: float, heading_deg: float, size_in: float) -> None:
        self.x_in, self.y_in, self.heading_deg, self.size_in = x_in, y_in, heading_deg, size_in


def crowded_times(story: Any) -> dict[int, list[float]]:
    """The frame times at which each tag's card overlapped another tag's card, or the tag was set down
    on the table after the first frame (the tracker's sweep has not had the time to find it yet), from
    the script."""
    out: dict[int, list[float]] = {}
    sizes = {p.tag_id: p.tag_size_in for p in story.paths}
    before: set[int] = set()
    for i in range(story.frame_count):
        t = i / story.timing.fps
        cards = {}
        for p in story.paths:
            pose = p.pose_at(t)
            if pose is not None:
                cards[p.tag_id] = _Card(pose[0], pose[1], pose[2], sizes[p.tag_id])
        for a, ca in cards.items():
            if any(b != a and cards_overlap(ca, cb) for b, cb in cards.items()) or (i > 0 and a not in before):
                out.setdefault(a, []).append(t)
        before = set(cards)
    return out


def settled_s(story: Any, move: Any) -> float:
    """When the tracker may be asked where a moved tag stands: half a second after the move ends (rest
    detection, a frame of lag), and not before a sweep's time after the tag was set down."""
    from gui.demo.headless import RECOVER_S

    appeared = max((t for t in crowded_times(story).get(move.tag_id, ()) if t <= move.t_end_s), default=-math.inf)
    return max(move.t_end_s + 0.5, appeared + RECOVER_S)


_NUMBER = re.compile(r"-?\d+\.\d+")


def same_words(a: str, b: str) -> bool:
    """The same sentence, where decimal numbers (distances, points measured from tracked positions) may
    differ by a tenth.

    >>> same_words('fires at Cell 1 (28.7" centre to centre)', 'fires at Cell 1 (28.8" centre to centre)')
    True
    >>> same_words("Alpha wins", "Cell 1 wins")
    False
    """
    if _NUMBER.split(a) != _NUMBER.split(b):
        return False
    return all(abs(float(x) - float(y)) <= TOLERANCE_IN + 1e-9 for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b)))


def check_tracking(story: Any, recording: Path, *, crowded: dict[int, list[float]] | None = None) -> dict[str, Any]:
    """Tracked against scripted, frame by frame, the way tests/demo/test_headless.py judges it: a tag
    the script has not moved for half a second and whose card no other card has overlapped for
    ``RECOVER_S`` must be seen within 0.1" of the script; a moving tag seen in the frame (or at rest by the
    tracker's account) must be within 0.1" of where the script had it at some moment of the last two
    frames. Returns the failures and
    how many sightings each kind of check covered, per tag. ``crowded``: when each tag counts as crowded
    (by default :func:`crowded_times`, cards that actually overlap)."""
    from gui.demo.headless import RECOVER_S, STILL_AFTER_S
    from tracker.recording import RecordingReader

    crowded = crowded_times(story) if crowded is None else crowded
    fps = story.timing.fps
    failures: list[tuple[int, float, str]] = []
    still: dict[int, int] = {}
    moving: dict[int, int] = {}
    with RecordingReader(recording) as reader:
        for i in range(story.frame_count):
            t = i / fps
            tracked = {p.tag_id: p for p in reader.poses_at(t + 1e-6)}
            for path in story.paths:
                scripted = path.pose_at(t)
                if scripted is None or any(t - RECOVER_S <= c <= t for c in crowded.get(path.tag_id, ())):
                    continue
                pose = tracked.get(path.tag_id)
                if not story.moving_between(path.tag_id, t - STILL_AFTER_S, t):
                    if pose is None or pose.state.value != "seen":
                        failures.append((path.tag_id, t, "not seen"))
                    elif math.hypot(pose.x_in - scripted[0], pose.y_in - scripted[1]) > TOLERANCE_IN:
                        failures.append((path.tag_id, t, f"{math.hypot(pose.x_in - scripted[0], pose.y_in - scripted[1]):.3f}\" off"))
                    still[path.tag_id] = still.get(path.tag_id, 0) + 1
                elif pose is not None and pose.state.value == "seen" and (pose.last_seen_t_s >= t - 1e-6 or not pose.moving):
                    # Seen in this frame; or at rest, where the recording keeps a pose only when it changes
                    # (the row before it holds, and its place must be right as well)
                    lagged = [path.pose_at(t - k / (4 * fps)) for k in range(4 * LAG_FRAMES + 1)]
                    off = min(math.hypot(pose.x_in - p[0], pose.y_in - p[1]) for p in lagged if p is not None)
                    if off > TOLERANCE_IN:
                        failures.append((path.tag_id, t, f"{off:.3f}\" behind while moving"))
                    moving[path.tag_id] = moving.get(path.tag_id, 0) + 1
    return {"failures": failures, "still": still, "moving": moving}


def scripted_poses(story: Any, t_s: float, *, z_in: float | None = None) -> list[Any]:
    """What a perfect tracker would report at ``t_s``: the story's own positions, ``z_in`` the tags' height
    (None: not measured)."""
    from tracker.unit_pose import UnitPose, UnitState

    out = []
    for path in story.paths:
        pose = path.pose_at(t_s)
        if pose is not None:
            x, y, heading, _ = pose
            out.append(UnitPose(path.tag_id, "", "", x, y, z_in, heading, UnitState.SEEN, t_s, None, last_seen_t_s=t_s))
    return out


def play_from_scripted_poses(story: Any, *, z_in: float | None = None) -> tuple[Any, Any]:
    """(session, director) after the story's beats were played on a real GameSession fed, frame by frame,
    the story's own positions (``z_in`` the tags' height, as :func:`scripted_poses` takes it)."""
    from demo.director import DemoDirector
    from appmodel.game_session import GameSession

    session = GameSession.from_scenario(story.scenario, source=str(story.scenario_path), seed=1)
    director = DemoDirector(story, session)
    for i in range(story.frame_count):
        t = i / story.timing.fps
        session.set_time(t)
        director.advance(t)
        session.apply_poses(scripted_poses(story, t, z_in=z_in), t_s=t)
    director.advance(math.inf)
    return session, director


def check_demo_video(video_path: Path, story: Any) -> None:
    """What a viewer checks of a demo's video: one frame per ``video_every`` of the story, 1280x848 (the
    camera picture over a caption band); mid-way the sand table in view, text on the caption, and the
    sides' saturated colours drawn over the table (sand never has them)."""
    import cv2
    import numpy as np

    video = cv2.VideoCapture(str(video_path))
    assert video.isOpened(), f"{video_path} does not open"
    count = int(video.get(cv2.CAP_PROP_FRAME_COUNT))
    expected = math.ceil(story.frame_count / story.timing.video_every)
    assert abs(count - expected) <= 1, f"{count} frames, expected {expected}"
    size = (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT))
    assert size == (1280, 848), size
    video.set(cv2.CAP_PROP_POS_FRAMES, count // 2)
    ok, frame = video.read()
    assert ok, "the middle frame cannot be read"
    picture, band = frame[:720], frame[720:]
    sand = picture[300:420, 560:720].reshape(-1, 3).mean(axis=0)
    assert sand[2] > sand[0] + 30, f"no sand table in view (mean BGR {sand})"  # yellow-brown: more red than blue
    contrast = np.abs(band.astype(int) - band[0, 0].astype(int)).sum(axis=2).max()
    assert contrast > 150, f"the caption band is blank (contrast {contrast})"
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    saturated = (hsv[:, :, 1] > 150).mean()
    assert saturated > 0.002, f"no overlays in the sides' colours ({saturated:.4f} of the picture saturated)"
    from browser_video import browser_verdict, chromium

    if chromium() is not None:  # a user opens it in a browser: H.264, not MPEG-4 Part 2
        assert browser_verdict(video_path) == "loaded 1280x848"
