"""The replay's after-action review for docs/gui.md: the in-depth example played by the headless demo
with the synthetic camera's picture kept in its recording, replayed at 64x until playback pauses by
itself at the mortar's kill (its card over the map, the event list, the comms lane, the camera video
beside the table), then the event list filtered to one side later in the game. Run it under Xvfb at
each size (the window is shown, as a user sees it):

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python docs/screenshots/replay_aar_shots.py 1366x768
    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python docs/screenshots/replay_aar_shots.py 1920x1080
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
OUT = Path(__file__).resolve().parent
CACHE = Path(tempfile.gettempdir()) / "sandtable-replay-aar-shots"


class Clock:
    def __init__(self) -> None:
        self.t_s = 0.0

    def __call__(self) -> float:
        return self.t_s


def recording() -> Path:
    """The short demo's recording with the camera's picture (made once, kept in the temporary folder)."""
    path = CACHE / "demo.sqlite"
    if not path.exists():
        from demo.story import DemoTiming
        from gui.demo.headless import run_headless_demo

        run_headless_demo(CACHE, timing=DemoTiming.short(), camera_size_px=(1280, 720), camera_video=True)
    return path


def main() -> int:
    size = sys.argv[1] if len(sys.argv) > 1 else "1366x768"
    w_px, h_px = (int(v) for v in size.split("x"))
    path = recording()
    from PySide6.QtCore import QCoreApplication

    from appmodel.replay_model import ReplayModel
    from gui.app import create_application, recording_calibration
    from gui.main_window import MainWindow

    create_application()
    clock = Clock()
    replay = ReplayModel(path)
    window = MainWindow(replay.session, replay=replay, replay_clock=clock, calibration=recording_calibration(replay, None))
    window.resize(w_px, h_px)
    window.show()

    def settle(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            QCoreApplication.processEvents()
            time.sleep(0.01)

    settle(1.0)
    timeline = window.timeline
    timeline.set_speed(64)
    timeline.toggle_play()
    timeline.timer.setInterval(3_600_000)  # ticked by hand, on the replay's own clock
    while timeline.playing:
        clock.t_s += 0.05
        timeline._tick()
    settle(2.0)  # the video worker's frame, the overlays
    window.grab().save(str(OUT / f"replay-aar-paused-{size}.png"))
    window.result_card.dismiss()
    window.review.set_side("PLA Marine Corps")
    timeline.seek(30.5)
    settle(2.0)
    window.grab().save(str(OUT / f"replay-aar-filtered-{size}.png"))
    window.close()
    replay.close()
    print(f"saved {OUT}/replay-aar-*-{size}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
