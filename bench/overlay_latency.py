"""The delay a player sees: from a camera frame handed to the tracker to the paint, in the window and
on the projector, that shows the moved unit where that frame put it.

The real live path, nothing stubbed past the camera: a 1080p camera (the synthetic table's pictures
of the 40-unit game of ``bench/gui_draw.py``, rendered beforehand, handed out on a 30 fps clock,
newest only, as a USB camera does) -> the tracking loop on its thread (``LiveTracking``: AprilTag
detection, poses, the ``tracker.pipeline.Tracker``) -> the window's poll (``LivePresenter``: the
poses into the session) -> each view's overlay worker (snapshot, rules' shapes, overlay image) -> the
paint of the real ``MainWindow``'s camera view (1920x1080) and of its ``ProjectorWindow`` (1920x1080,
through a projector homography), offscreen, every overlay on, in Qt's own event loop.

One unit (the Sergeant) is carried across the table, 0.15" a frame (a hand at 4.5"/s); the other
39 stand. For every frame whose poses changed the game, the time from the moment the camera handed
it to the tracker to the end of the first paint of each view showing that game version is one
sample. Frames the tracker never took (the camera moved on while it was busy: newest only) and
versions a later one overtook before a paint are not samples: what a player sees is the paints.

    .venv/bin/python bench/overlay_latency.py [--seconds 20]

Prints median, 95th percentile and worst for each view, how many frames were handed, tracked and
shown, and the machine's load average before and after (2 cores shared: compare within a run).
Target: 95th percentile under 50 ms.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402

FPS = 30.0
MOVER = 10  # the Sergeant
STEP_IN = 0.15


class CameraClock:
    """A live camera of pre-rendered pictures: frame k is due at k / FPS after the first request; the
    tracker gets the newest due frame (older ones are dropped, as a camera's driver does), and the
    moment it was handed over is kept."""

    is_live = True
    connected = True
    name = "bench camera"

    def __init__(self, pictures: list[np.ndarray], *, seconds: float) -> None:
        self.pictures = pictures
        self.frames = int(seconds * FPS)
        self.start: float | None = None
        self.handed: dict[int, float] = {}
        self.last = -1
        self.ended = threading.Event()

    def latest_frame(self, timeout_s: float) -> Any:
        from tracker.frames import Frame

        now = time.perf_counter()
        if self.start is None:
            self.start = now
        k = int((now - self.start) * FPS)
        if k <= self.last:  # wait for the next frame, as a camera does
            due = self.start + (self.last + 1) / FPS
            if due - now > timeout_s:
                time.sleep(timeout_s)
                return None
            time.sleep(max(0.0, due - now))
            k = self.last + 1
        if k >= self.frames:
            self.ended.set()
            time.sleep(timeout_s)
            return None
        self.last = k
        self.handed[k] = time.perf_counter()
        return Frame(self.pictures[k % len(self.pictures)], k, k / FPS)

    def read(self) -> Any:
        return self.latest_frame(1.0)

    def close(self) -> None:
        pass


def carried(session: Any, k: int) -> tuple[float, float]:
    """Where the carried unit stands in frame k: back and forth along the table."""
    u = session.unit(MOVER)
    phase = k % 120
    offset = STEP_IN * (phase if phase < 60 else 120 - phase)
    return u.x_in + offset, u.y_in + 0.3 * offset


def pictures_of(session: Any, feed: Any, count: int) -> list[np.ndarray]:
    start = session.units()
    out = []
    for k in range(count):
        x, y = carried(session, k)
        units = [replace(u, x_in=x, y_in=y) if u.unit_id == MOVER else u for u in start]
        out.append(feed.render(units))
    return out


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    v = sorted(values)
    p95 = v[int(round(0.95 * (len(v) - 1)))]
    return f"median {statistics.median(v):6.1f} ms · p95 {p95:6.1f} ms · worst {v[-1]:6.1f} ms · {len(v)} samples"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the camera runs (default 20)")
    args = parser.parse_args()
    if args.seconds <= 0:
        print("overlay_latency: --seconds must be positive", file=sys.stderr)
        return 2

    from PySide6.QtCore import QTimer

    from appmodel.overlays.registry import OverlayToggles
    from appmodel.tracking.live_tracking import LiveTracking
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from calibration.projector import ProjectorCalibration
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from gui_draw import forty_units
    from tracker.pipeline import Tracker
    from tracker.roster import Roster

    load_before = os.getloadavg()
    app = create_application()
    session = forty_units()
    feed = SyntheticFeed(session.table_size_in, width_px=1920, height_px=1080)
    t0 = time.perf_counter()
    pictures = pictures_of(session, feed, 120)  # one trip there and back (9"); the camera loops over it
    print(f"rendered {len(pictures)} 1080p pictures in {time.perf_counter() - t0:.1f} s")

    camera = CameraClock(pictures, seconds=args.seconds)
    tracker = Tracker(roster=Roster(), calibration=feed.calibration)
    # Where the time goes: when the tracker finished each frame (tracking thread), when its poses
    # went into the session (UI thread's poll).
    tracked_at: dict[int, float] = {}
    process = tracker.process

    def timed_process(frame: Any) -> Any:
        out = process(frame)
        tracked_at[frame.index] = time.perf_counter()
        return out

    tracker.process = timed_process  # type: ignore[method-assign]
    live = LiveTracking(camera, tracker, realtime=True)
    folder = tempfile.mkdtemp(prefix="overlay-latency-")
    store = open_store(Path(folder) / "settings.ini")
    settings = replace(load_settings(store), projector_overlays=OverlayToggles(), overlays=OverlayToggles())
    w, h = 1920, 1080
    projector = ProjectorCalibration(1920, 1080, np.array([[w / 72.0, 0, 0], [0, -h / 48.0, h], [0, 0, 1]]), 0.0, 0.0, 16)
    window = MainWindow(session, settings=settings, store=store, calibration=feed.calibration,
                        projector_calibration=projector, live=live)
    window.resize(w, h)
    window.show()
    window.view.set_mode("camera")
    beamer = window.show_projector("projector")
    assert beamer is not None
    beamer.resize(w, h)

    # Which tracked frame each game version comes from: the poses of frame k go into the session here.
    frame_of_version: dict[int, int] = {}
    applied_at: dict[int, float] = {}
    apply = session.apply_poses

    def applied(poses: Any, *, t_s: float | None = None) -> int:
        n = apply(poses, t_s=t_s)
        if t_s is not None:
            k = int(round(t_s * FPS))
            applied_at.setdefault(k, time.perf_counter())
            frame_of_version.setdefault(session.version, k)
        return n

    session.apply_poses = applied  # type: ignore[method-assign]

    samples: dict[str, list[float]] = {"window": [], "projector": []}
    shown: dict[str, set[int]] = {"window": set(), "projector": set()}

    def watch(name: str, renderer: Any) -> None:
        compositor = renderer.compositor
        paint = compositor.paint_overlay_image

        def painted(p: Any, overlay: Any, *a: Any, **kw: Any) -> Any:
            out = paint(p, overlay, *a, **kw)
            version = getattr(overlay, "version", None)
            k = frame_of_version.get(version) if version is not None else None
            if k is not None and version not in shown[name] and k in camera.handed:
                shown[name].add(version)
                # the paint ends when the painter's work is done: Qt flushes after paintEvent returns
                samples[name].append((time.perf_counter() - camera.handed[k]) * 1000.0)
            return out

        compositor.paint_overlay_image = painted

    watch("window", window.view.renderer)
    watch("projector", beamer.renderer)

    cpu0, wall0 = time.process_time(), time.perf_counter()
    live.start()

    def check() -> None:
        if camera.ended.is_set():
            app.quit()

    timer = QTimer()
    timer.timeout.connect(check)
    timer.start(100)
    app.exec()
    cpu_s, wall_s = time.process_time() - cpu0, time.perf_counter() - wall0
    live.stop()
    tracker.close()
    load_after = os.getloadavg()

    versions = len(frame_of_version)
    print(f"\n{args.seconds:.0f} s of camera at {FPS:.0f} fps, 1920x1080, 40 units, every overlay on, one unit carried "
          f"{STEP_IN}\" a frame")
    print(f"frames handed to the tracker: {len(camera.handed)} (of {camera.frames} due); game versions from tracked "
          f"poses: {versions}")
    print(f"load average before: {load_before[0]:.1f} / {load_before[1]:.1f} / {load_before[2]:.1f} (1/5/15 min), "
          f"after: {load_after[0]:.1f} / {load_after[1]:.1f} / {load_after[2]:.1f}; {os.cpu_count()} cores")
    print(f"this process got {cpu_s / wall_s:.0%} of one core while the camera ran ({cpu_s:.1f} s of processor in "
          f"{wall_s:.1f} s): with other jobs on the cores every stage waits its turn")
    print("\nframe handed to the tracker -> paint showing the unit where that frame put it (target p95 < 50 ms)")
    for name in ("window", "projector"):
        print(f"  {name:9s} {summary(samples[name])}")
    print("\nwhere the time goes (every tracked frame)")
    track_ms = [(tracked_at[k] - camera.handed[k]) * 1000 for k in tracked_at if k in camera.handed]
    poll_ms = [(applied_at[k] - tracked_at[k]) * 1000 for k in applied_at if k in tracked_at]
    print(f"  handed -> tracked (detection, poses)  {summary(track_ms)}")
    print(f"  tracked -> in the session (UI poll)  {summary(poll_ms)}")
    print(f"  tracked frames the UI took: {len(applied_at)} of {len(tracked_at)} (it takes the newest only)")
    window.close()
    beamer.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
