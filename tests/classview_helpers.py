"""Helpers of the class view's tests: a unit moved on the synthetic table through the real tracker,
and a headless Chromium driven by Selenium (skipped, in one line, where the browser is missing)."""
from __future__ import annotations

import shutil
import time
from dataclasses import replace
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


class SyntheticTableMoves:
    """The session's units on the synthetic table, seen by the real tracker: :meth:`move` carries one
    unit to a spot frame by frame and feeds the tracked poses to the session."""

    def __init__(self, session: Any) -> None:
        from appmodel.tracking.synthetic_feed import SyntheticFeed
        from tracker.pipeline import Tracker
        from tracker.roster import roster_from_scenario

        self.session = session
        self.feed = SyntheticFeed(session.table_size_in)
        self.tracker = Tracker(roster=roster_from_scenario(dict(session.scenario)), calibration=self.feed.calibration)
        self.index = 0
        self.step()  # the tracker meets every unit where it stands

    def step(self, units: Any = None) -> int:
        from tracker.frames import Frame

        units = list(self.session.units()) if units is None else units
        tracked = self.tracker.process(Frame(self.feed.render(units), self.index, self.index / 30.0))
        self.index += 1
        return self.session.apply_poses(tracked.poses, t_s=tracked.t_s)

    def move(self, unit_id: int, x_in: float, y_in: float, *, steps: int = 6, settle: int = 12) -> None:
        """Carry ``unit_id`` to (x_in, y_in) over ``steps`` frames, then hold it there until the
        session has it within 0.1"."""
        units = list(self.session.units())
        start = next(u for u in units if u.unit_id == unit_id)
        for k in range(1, steps + 1):
            f = k / steps
            spot = (start.x_in + (x_in - start.x_in) * f, start.y_in + (y_in - start.y_in) * f)
            self.step([replace(u, x_in=spot[0], y_in=spot[1]) if u.unit_id == unit_id else u for u in units])
        held = [replace(u, x_in=x_in, y_in=y_in) if u.unit_id == unit_id else u for u in units]
        for _ in range(settle):
            u = self.session.unit(unit_id)
            if abs(u.x_in - x_in) < 0.1 and abs(u.y_in - y_in) < 0.1:
                return
            self.step(held)
        u = self.session.unit(unit_id)
        raise AssertionError(f"the tracker put unit {unit_id} at ({u.x_in:.2f}, {u.y_in:.2f}), not ({x_in}, {y_in})")


def browser_missing() -> str:
    """Why the browser tests cannot run here ('' when they can)."""
    if not (shutil.which("chromium") or shutil.which(CHROMIUM)):
        return "chromium is not installed (apt-get install chromium chromium-driver)"
    if not (shutil.which("chromedriver") or shutil.which(CHROMEDRIVER)):
        return "chromedriver is not installed (apt-get install chromium-driver)"
    try:
        import selenium  # noqa: F401  (only whether it imports)
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return ""


def open_browser(width: int = 1366, height: int = 768) -> Any:
    """A headless Chromium whose page area is ``width`` x ``height``."""
    reason = browser_missing()
    if reason:
        pytest.skip(f"browser tests skipped: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or CHROMEDRIVER), options=options)
    set_viewport(driver, width, height)
    return driver


def set_viewport(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def wait_for(predicate: Any, timeout_s: float = 120.0, what: str = "the page") -> Any:
    """Poll ``predicate`` until it returns something true; fail naming ``what`` after ``timeout_s``
    (long: only a broken page waits it out, and a loaded machine's browser can take more than 10 s)."""
    end = time.monotonic() + timeout_s
    last: Any = None
    while time.monotonic() < end:
        last = predicate()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what} (last seen: {last!r})")


def page_errors(driver: Any) -> list[str]:
    """The page's own script errors (a missing favicon is not one)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
