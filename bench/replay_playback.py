"""Replay playback at 64x in the real (offscreen) window: how long one tick of the timeline takes on a
long game, and what the recording's camera video costs the window's thread.

    .venv/bin/python bench/replay_playback.py                          # a 10-minute game of 40 units (cached)
    .venv/bin/python bench/replay_playback.py --recording LONG.sqlite  # any recording (a 3-hour one from bench/long_session.py)
    .venv/bin/python bench/replay_playback.py --video-s 20             # a shorter video part

Part 1 (long game): the window replays at 64x with its clock driven tick by tick (50 ms of clock per
tick, as the timer does), 100 ticks from 10 places spread over the game; it prints the median and the
slowest tick (seek, the panels following, the map redrawn), the window's peak memory, and the same
ticks at 1x (a tick's work does not grow with the speed).

Part 2 (video): a recording of --video-s seconds with a 1280x720 30 fps camera video (the recorder's own
H.264 writer); 64x playback for 100 ticks, side by side: the old way (``ReplayModel.frame_at``, an OpenCV
seek and decode on the window's thread at every tick) against the video pane (the window's thread only
asks; a worker decodes): time on the window's thread per tick, and how many frames the pane showed.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


class Clock:
    def __init__(self) -> None:
        self.t_s = 0.0

    def __call__(self) -> float:
        return self.t_s


def window_for(path: Path, clock: Clock):
    from appmodel.replay_model import ReplayModel
    from gui.app import create_application
    from gui.main_window import MainWindow

    app = create_application()
    replay = ReplayModel(path)
    w = MainWindow(replay.session, replay=replay, replay_clock=clock)
    w.resize(1366, 768)
    w.show()
    app.processEvents()
    return app, replay, w


def ticks(app, w, clock: Clock, speed: float, starts: list[float], per_start: int) -> list[float]:
    t = w.timeline
    t.pause_kinds.clear()
    t.set_speed(speed)
    out = []
    for start in starts:
        t.seek(start)
        t.toggle_play()
        t.timer.setInterval(3_600_000)  # the bench ticks by hand: the timer must not tick in between
        for _ in range(per_start):
            clock.t_s += 0.05
            s = time.perf_counter()
            t._tick()
            app.processEvents()  # the map and panels repaint as they would between ticks
            out.append(time.perf_counter() - s)
        t.toggle_play()
    return out


def long_game(path: Path) -> None:
    clock = Clock()
    s = time.perf_counter()
    app, replay, w = window_for(path, clock)
    opened = time.perf_counter() - s
    d = replay.duration_s
    starts = [d * i / 10 for i in range(10)]
    fast = ticks(app, w, clock, 64.0, starts, 10)
    slow = ticks(app, w, clock, 1.0, starts, 10)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"long game: {path.name}, {d / 60:.0f} min, {len(replay.session.units())} units, "
          f"{len(replay.review)} review events; window opened in {opened:.1f} s")
    print(f"{'':34} {'64x':>12} {'1x':>12}")
    print(f"{'tick, median':34} {statistics.median(fast) * 1000:>9.1f} ms {statistics.median(slow) * 1000:>9.1f} ms")
    print(f"{'tick, slowest of 100':34} {max(fast) * 1000:>9.1f} ms {max(slow) * 1000:>9.1f} ms")
    print(f"{'replay time per tick':34} {64 * 0.05:>10.2f} s {0.05:>10.2f} s")
    print(f"{'peak memory (whole process)':34} {peak:>9.0f} MB")
    w.close()
    replay.close()


def video_recording(folder: Path, seconds: float) -> Path:
    import cv2
    import numpy as np

    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    path = folder / f"video-{seconds:g}s.sqlite"
    if path.exists():
        return path
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    recorder = session.start_recording(path, video=True)
    rng = np.random.default_rng(1)
    base = rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    for i in range(int(seconds * 30)):
        image = np.roll(base, i * 4, axis=1)
        cv2.putText(image, str(i), (40, 200), cv2.FONT_HERSHEY_SIMPLEX, 6, (255, 255, 255), 12)
        recorder.record_frame(i, i / 30, [], image_bgr=image)
    session.stop_recording()
    return path


def video(path: Path) -> None:
    clock = Clock()
    app, replay, w = window_for(path, clock)
    t = w.timeline
    t.pause_kinds.clear()
    t.set_speed(64.0)
    # the old way: the window's thread seeks and decodes at every tick
    old = []
    for i in range(100):
        when = (i * 3.2) % replay.duration_s
        s = time.perf_counter()
        replay.frame_at(when)
        old.append(time.perf_counter() - s)
    # the pane: the tick asks, the worker decodes
    shown = set()
    w.video.on_image.append(lambda image: shown.add(w.video.shown))
    ours = []
    t.seek(0.0)
    t.toggle_play()
    t.timer.setInterval(3_600_000)
    started = time.perf_counter()
    for _ in range(100):
        clock.t_s += 0.05
        s = time.perf_counter()
        t._tick()
        ours.append(time.perf_counter() - s)
        if not t.playing:
            t.seek(0.0)
            t.toggle_play()
            t.timer.setInterval(3_600_000)
        app.processEvents()
        # the timer's pace: 20 ticks a second of the window's time
        time.sleep(max(0.0, 0.05 - (time.perf_counter() - s)))
    wall = time.perf_counter() - started
    print(f"video: {path.name}, 1280x720 at 30 fps, {replay.duration_s:.0f} s; 100 ticks at 64x")
    print(f"{'':34} {'old (frame_at)':>16} {'video pane':>12}")
    print(f"{'window thread per tick, median':34} {statistics.median(old) * 1000:>13.1f} ms "
          f"{statistics.median(ours) * 1000:>9.1f} ms")
    print(f"{'window thread per tick, slowest':34} {max(old) * 1000:>13.1f} ms {max(ours) * 1000:>9.1f} ms")
    print(f"{'frames shown per second':34} {'(tick waits)':>16} {len(shown) / wall:>12.1f}")
    w.close()
    replay.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recording", type=Path, help="a long recording (default: a cached 10-minute game of 40 units)")
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the cached game (default 10)")
    parser.add_argument("--video-s", type=float, default=60.0, help="length of the video part's recording (default 60 s)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sandtable-bench-replay")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    path = args.recording
    if path is None:
        from bench.long_session import write_recording

        path = args.cache / f"long-{args.minutes:g}min.sqlite"
        if not path.exists():
            write_recording(path, args.minutes / 60)
    print(f"machine load (uptime): {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")
    long_game(path)
    video(video_recording(args.cache, args.video_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
