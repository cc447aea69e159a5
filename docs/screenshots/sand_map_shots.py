"""Screenshots of the sand-as-map overlays through the front ends (issue 31's wiring):

* ``sand-map-projector.png``  — the projector's image (ProjectorWindow.render_image, warped for a
  projector calibration, on black) with the target's sculpting guidance and contour lines over the
  synthetic relief of bench/viewshed.py, the target being the same table with its hills moved and raised;
* ``sand-map-window-1366.png``, ``sand-map-window-1920.png`` — the window's top-down view with the
  contours, the selected Carl Gustaf gunner's viewshed and military symbols on.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/sand_map_shots.py
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import numpy as np  # noqa: E402

from viewshed import table_relief  # noqa: E402

OUT = Path(__file__).resolve().parent
MAAWS = 13


def target_relief():  # type: ignore[no-untyped-def]
    """The map the sculptor works towards: the relief's hills 4" high and 3" further right."""
    from rules.terrain_sight import Ground

    g = table_relief()
    y, x = np.mgrid[0:g.heights_in.shape[0], 0:g.heights_in.shape[1]] * g.cell_in
    h = np.zeros(x.shape)
    for cx, cy, radius, height in ((51.0, 32.0, 9.0, 4.0), (23.0, 14.0, 7.0, 4.0)):
        r = np.hypot(x - cx, y - cy)
        h = np.maximum(h, np.where(r < radius, height * (1 + np.cos(np.pi * np.minimum(r / radius, 1))) / 2, 0))
    return Ground(h, g.cell_in)


def main() -> int:
    from calibration.projector import ProjectorCalibration
    from appmodel.game_session import GameSession
    from appmodel.overlays.registry import OverlayToggles
    from gui.app import create_application
    from gui.projector_window import ProjectorWindow
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from PySide6.QtWidgets import QApplication

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    session.set_ground(table_relief())
    session.set_sand_map(session.sand.with_(target_ground=target_relief()))
    cal = ProjectorCalibration(1280, 800, np.array([[15.0, 1.2, 80.0], [-0.8, -14.0, 760.0], [0.0004, 0.0009, 1.0]]),
                               0.0, 0.0, 16)
    toggles = OverlayToggles.projector_default().with_("sculpting", True).with_("contours", False)
    projector = ProjectorWindow(session, projector_calibration=cal, toggles=toggles)
    projector.render_image().save(str(OUT / "sand-map-projector.png"))
    print(f"saved {OUT / 'sand-map-projector.png'}")
    projector.close()

    session.set_sand_map(session.sand.with_(target_ground=None))
    session.select_unit(MAAWS)
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    with tempfile.TemporaryDirectory() as tmp:
        for size in ((1366, 768), (1920, 1080)):
            store = open_store(Path(tmp) / f"s{size[0]}.ini")
            w = MainWindow(session, settings=load_settings(store), store=store)
            for name in ("viewshed", "symbols", "contours"):
                w.set_overlay(name, True)
            for name in ("voice", "range", "bands", "movement"):
                w.set_overlay(name, False)
            w.view.set_mode("table")
            w.resize(*size)
            w.show()
            app = QApplication.instance()
            for _ in range(40):
                app.processEvents()
                w.view.repaint()
            import time
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:  # the overlay worker draws off the UI thread
                app.processEvents()
                time.sleep(0.05)
            path = OUT / f"sand-map-window-{size[0]}.png"
            w.grab().save(str(path))
            print(f"saved {path}")
            w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
