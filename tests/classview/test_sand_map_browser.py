"""The class view's page in a real headless Chromium draws the selected unit's viewshed (an image over
the table) and each unit's military symbol, without script errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from classview_helpers import browser_missing, open_browser, page_errors, wait_for
from classview.live import LiveClassView
from classview.server import ServeAddress
from appmodel.game_session import GameSession
from appmodel.overlays.registry import OverlayToggles
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.terrain_sight import Ground

pytestmark = pytest.mark.skipif(bool(browser_missing()), reason=browser_missing() or "")
CELL = 0.25


def hill() -> Ground:
    yy, xx = np.mgrid[0:int(48 / CELL) + 1, 0:int(72 / CELL) + 1] * CELL
    r = np.hypot(xx - 40.0, yy - 24.0)
    return Ground(np.where(r < 10.0, 3.0 * (1 + np.cos(np.pi * np.minimum(r / 10.0, 1))) / 2, 0.0), CELL)


def test_the_page_draws_the_viewshed_and_the_symbols(tmp_path: Path) -> None:
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    session.set_ground(hill())
    session.select_unit(13)
    toggles = OverlayToggles.projector_default().with_("viewshed", True).with_("symbols", True)
    view = LiveClassView.start(session, ServeAddress("127.0.0.1", 0), toggles=toggles)
    driver = open_browser(1366, 768)
    try:
        driver.get(view.url)
        box = wait_for(lambda: driver.execute_script(
            "const e = document.querySelector('svg.table image[data-layer=\"viewshed\"]');"
            "if (!e) return null; const b = e.getBBox(); return [b.x, b.y, b.width, b.height];"), what="the viewshed")
        assert box[2] > 40 and box[3] > 40  # inches: the 38" reach, cut by the table's edges
        symbols = wait_for(lambda: driver.execute_script(
            "return document.querySelectorAll('svg.table image[data-layer=\"symbols\"]').length"), what="the symbols")
        assert symbols == sum(1 for u in session.units() if u.on_table)
        assert page_errors(driver) == []
        driver.save_screenshot(str(tmp_path / "class-view-sand-map.png"))
    finally:
        driver.quit()
        view.close()
