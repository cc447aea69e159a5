"""Screenshots of the window following the sculptor (issue 31), on the synthetic table of the rescan
tests: the sculpting guidance on, the projector lighting the sand; the moment a quick rescan's
patterns are up (the status bar counting them, the projector showing a stripe pattern) and the
guidance once the worker has computed it.

* ``sculptor-rescan-window-1366.png``, ``-1920.png`` — the window while the patterns run;
* ``sculptor-rescan-done-1366.png`` — the window with the new guidance and its match score.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/sculptor_rescan_shots.py
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))  # the rescan tests' synthetic table


OUT = Path(__file__).resolve().parent


def main() -> int:
    from PySide6.QtWidgets import QApplication

    from sculptor_helpers import filmed, sculpting_window

    filmed("hills")
    for size in ((1366, 768), (1920, 1080)):
        w, _feed = sculpting_window()
        app = QApplication.instance()
        for name in ("voice", "range", "bands", "movement"):
            w.set_overlay(name, False)
        w.set_overlay("sculpting", True)
        w.view.set_mode("table")
        w.resize(*size)
        w.show()
        w.show_projector("projector")
        w.set_projector_overlay("sculpting", True)
        rescans = w.live_presenter.rescans
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (rescans.scanning and rescans.follower.progress[0] >= 6):
            app.processEvents()
            time.sleep(0.01)
        path = OUT / f"sculptor-rescan-window-{size[0]}.png"
        w.grab().save(str(path))
        print(f"saved {path}")
        if size[0] == 1366:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and rescans.rescans < 1:
                app.processEvents()
                time.sleep(0.02)
            for _ in range(100):  # the overlay worker draws the new guidance
                app.processEvents()
                time.sleep(0.05)
            path = OUT / "sculptor-rescan-done-1366.png"
            w.grab().save(str(path))
            print(f"saved {path}")
        w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
