"""Screenshots of the sand-as-map overlays through the front ends (issue 31's wiring):

* ``sand-map-projector.png``  — the projector's image (ProjectorWindow.render_image, warped for a
  projector calibration, on black) with the target's sculpting guidance and contour lines over the
  synthetic relief of bench/viewshed.py, the target being the same table with its hills moved and raised;
* ``sand-map-window-1366.png``, ``sand-map-window-1920.png`` — the window's top-down view with the
  contours, the selected Carl Gustaf gunner's viewshed and military symbols on;
* ``sand-map-contour-menu-1366.png``, ``-1920.png`` — a real map (25 m per inch, 3x exaggerated) as the
  target: its contours every 5 m labelled in metres over elevation tints, with the Overlays menu's
  Contour interval list beside the window (a menu pops up in a window of its own).

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
    contour_menu_shots(session)
    return 0


def contour_menu_shots(session) -> None:  # type: ignore[no-untyped-def]
    """The target as a real map in metres, its contours every 5 m over tints, and the interval menu."""
    import time

    from PySide6.QtGui import QPainter, QPixmap
    from PySide6.QtWidgets import QApplication, QMenu

    from calibration.elevation_files import ElevationModel
    from calibration.target_terrain import TargetTerrain
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from rules.terrain_sight import Ground

    per_in, exaggeration = 25.0, 3.0
    g = target_relief()
    dem = ElevationModel(180.0 + g.heights_in[::-1] * per_in / exaggeration, g.cell_in * per_in, g.cell_in * per_in)
    target = TargetTerrain(dem, per_in, exaggeration)
    heights, covered = target.sample(*session.table_size_in, cell_in=0.25)
    session.set_ground(None)
    session.select_unit(None)
    session.set_sand_map(session.sand.with_(target=target, target_ground=Ground(heights, 0.25), target_covered=covered,
                                            contour_interval_m=5.0, tints=True))
    app = QApplication.instance()
    with tempfile.TemporaryDirectory() as tmp:
        for size in ((1366, 768), (1920, 1080)):
            store = open_store(Path(tmp) / f"m{size[0]}.ini")
            w = MainWindow(session, settings=load_settings(store), store=store)
            for name in ("viewshed", "voice", "range", "bands", "movement"):
                w.set_overlay(name, False)
            for name in ("contours", "symbols"):
                w.set_overlay(name, True)
            w.view.set_mode("table")
            w.resize(*size)
            w.show()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                app.processEvents()
                time.sleep(0.05)
            menu = w.findChild(QMenu, "contour-interval-menu")
            menu.aboutToShow.emit()
            menu.popup(w.mapToGlobal(w.rect().center()))
            for _ in range(20):
                app.processEvents()
            window, listed = w.grab(), menu.grab()
            menu.hide()
            out = QPixmap(window.width() + listed.width() + 16, window.height())
            out.fill()
            p = QPainter(out)
            p.drawPixmap(0, 0, window)
            p.drawPixmap(window.width() + 8, 60, listed)
            p.end()
            path = OUT / f"sand-map-contour-menu-{size[0]}.png"
            out.save(str(path))
            print(f"saved {path}")
            w.close()


if __name__ == "__main__":
    raise SystemExit(main())
