"""Zoom and pan on the class view's table, in a real headless Chromium driven with real input (the
DevTools protocol's touch, wheel and mouse events, as a phone or a mouse sends them): a pinch zooms
about the fingers, a drag pans, the wheel zooms about the pointer, the buttons zoom and fit the whole
table again; a live update redraws the units without throwing the student back to the whole table.
Over the whole table a finger drag still scrolls the page. The debrief's offline timeline zooms the
same way and keeps the view while it plays."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from classview_helpers import SyntheticTableMoves, open_browser, page_errors, wait_for
from classview.live import LiveClassView
from classview.server import ServeAddress
from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH

MAAWS = 13
#: The whole table's box in the SVG: the 72" x 48" table with a 1.5" margin.
FULL = [-1.5, -1.5, 75.0, 51.0]

BASE_ON_SCREEN_JS = """
const el = document.querySelector('svg.table path[data-unit="' + arguments[0] + '"]');
if (!el) return null;
const r = el.getBoundingClientRect();
return [r.left + r.width / 2, r.top + r.height / 2];
"""
VIEW_BOX_JS = "return document.querySelector('svg.table').getAttribute('viewBox').split(' ').map(Number);"
TABLE_RECT_JS = "const r = document.querySelector('svg.table').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"


def touch(browser, kind: str, points: list[tuple[float, float]]) -> None:
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": k + 1} for k, (x, y) in enumerate(points)]})


def pinch(browser, centre: tuple[float, float], from_px: float, to_px: float, steps: int = 6) -> None:
    cx, cy = centre
    touch(browser, "touchStart", [(cx - from_px / 2, cy), (cx + from_px / 2, cy)])
    for k in range(1, steps + 1):
        d = from_px + (to_px - from_px) * k / steps
        touch(browser, "touchMove", [(cx - d / 2, cy), (cx + d / 2, cy)])
    touch(browser, "touchEnd", [])


def finger_drag(browser, start: tuple[float, float], by: tuple[float, float], steps: int = 6) -> None:
    touch(browser, "touchStart", [start])
    for k in range(1, steps + 1):
        touch(browser, "touchMove", [(start[0] + by[0] * k / steps, start[1] + by[1] * k / steps)])
    touch(browser, "touchEnd", [])


def wheel(browser, at: tuple[float, float], delta_y: float) -> None:
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": at[0], "y": at[1],
                                                          "deltaX": 0, "deltaY": delta_y})


def mouse_drag(browser, start: tuple[float, float], by: tuple[float, float], steps: int = 5) -> None:
    send = lambda kind, x, y, **kw: browser.execute_cdp_cmd("Input.dispatchMouseEvent", {  # noqa: E731  (a one-line local helper reads better as a lambda)
        "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1, **kw})
    send("mouseMoved", *start, buttons=0)
    send("mousePressed", *start, buttons=1)
    for k in range(1, steps + 1):
        send("mouseMoved", start[0] + by[0] * k / steps, start[1] + by[1] * k / steps, buttons=1)
    send("mouseReleased", start[0] + by[0], start[1] + by[1], buttons=0)


def zoom_of(view_box: list[float]) -> float:
    return FULL[2] / view_box[2]


@pytest.fixture
def served():
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    session.start_round()
    view = LiveClassView.start(session, ServeAddress("127.0.0.1", 0))
    yield session, view
    view.close()


def test_on_a_phone_a_pinch_zooms_a_drag_pans_a_live_update_keeps_the_view_and_fit_shows_the_table(served, tmp_path: Path) -> None:
    session, view = served
    browser = open_browser(390, 844)
    try:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        browser.get(view.url)
        gunner = wait_for(lambda: browser.execute_script(BASE_ON_SCREEN_JS, MAAWS), what="the MAAWS gunner's base")
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(FULL)
        assert browser.find_element("css selector", ".zoom .hint").text == "Pinch to zoom, drag to move"

        # Two fingers spread over the gunner: closer in, and the gunner stays under the fingers.
        pinch(browser, gunner, 30, 120)
        zoomed = browser.execute_script(VIEW_BOX_JS)
        assert zoom_of(zoomed) == pytest.approx(4.0, rel=0.05)
        assert browser.execute_script(BASE_ON_SCREEN_JS, MAAWS) == pytest.approx(gunner, abs=3)

        # One finger drags the table 60 px left and 40 px up: the gunner follows the finger.
        finger_drag(browser, (200, 150), (-60, -40))
        assert browser.execute_script("return window.scrollY") == 0  # zoomed in, the drag moves the table, not the page
        after_drag = browser.execute_script(BASE_ON_SCREEN_JS, MAAWS)
        assert after_drag == pytest.approx([gunner[0] - 60, gunner[1] - 40], abs=3)
        panned = browser.execute_script(VIEW_BOX_JS)
        assert panned[2:] == pytest.approx(zoomed[2:]) and panned[0] > zoomed[0] and panned[1] > zoomed[1]

        # The gunner is carried 2" on the table: the page redraws him there, still zoomed in as it was.
        start = session.unit(MAAWS)
        px_per_in = browser.execute_script(TABLE_RECT_JS)[2] / panned[2]
        version = int(browser.find_element("id", "view").get_attribute("data-version"))
        SyntheticTableMoves(session).move(MAAWS, start.x_in + 2.0, start.y_in)
        wait_for(lambda: int(browser.find_element("id", "view").get_attribute("data-version")) > version
                 and (c := browser.execute_script(BASE_ON_SCREEN_JS, MAAWS)) and abs(c[0] - after_drag[0] - 2 * px_per_in) < 3,
                 what="the gunner to move 2\" right on the zoomed-in table")
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(panned)
        shot = tmp_path / "phone-zoomed.png"
        browser.save_screenshot(str(shot))
        if os.environ.get("SANDTABLE_SHOTS"):
            browser.save_screenshot(os.path.join(os.environ["SANDTABLE_SHOTS"], "classview-phone-zoomed.png"))

        browser.find_element("css selector", ".zoom .fit").click()
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(FULL)
        # Over the whole table, a finger drag scrolls the page down to the roll card and the units, as usual.
        finger_drag(browser, (200, 200), (0, -100))
        wait_for(lambda: browser.execute_script("return window.scrollY") > 50, what="the page to scroll")
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(FULL)
        assert page_errors(browser) == []
    finally:
        browser.quit()


def test_on_a_desktop_the_wheel_zooms_at_the_pointer_a_drag_pans_and_the_buttons_zoom_in_and_out(served) -> None:
    _, view = served
    browser = open_browser(1366, 768)
    try:
        browser.get(view.url)
        gunner = wait_for(lambda: browser.execute_script(BASE_ON_SCREEN_JS, MAAWS), what="the MAAWS gunner's base")
        assert browser.find_element("css selector", ".zoom .hint").text == "Scroll to zoom, drag to move"
        wheel(browser, gunner, -400)  # the wheel turned away from the user: closer
        zoomed = browser.execute_script(VIEW_BOX_JS)
        assert zoom_of(zoomed) > 1.5
        assert browser.execute_script(BASE_ON_SCREEN_JS, MAAWS) == pytest.approx(gunner, abs=3)

        mouse_drag(browser, (500, 400), (120, 50))
        assert browser.execute_script(BASE_ON_SCREEN_JS, MAAWS) == pytest.approx([gunner[0] + 120, gunner[1] + 50], abs=3)

        # The window is resized (the page redraws): the view stays as it was.
        before = browser.execute_script(VIEW_BOX_JS)
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": 700, "deviceScaleFactor": 1, "mobile": False})
        wait_for(lambda: browser.execute_script("return window.innerWidth") == 1200, what="the resize")
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(before)

        for _ in range(12):  # never closer than 8 times the whole table
            browser.find_element("css selector", ".zoom .in").click()
        assert zoom_of(browser.execute_script(VIEW_BOX_JS)) == pytest.approx(8.0)
        for _ in range(12):  # and never farther out than the whole table
            browser.find_element("css selector", ".zoom .out").click()
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(FULL)
        wheel(browser, (600, 300), 600)  # out, from the whole table: nothing to do
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(FULL)
        assert page_errors(browser) == []
    finally:
        browser.quit()


def test_the_debriefs_timeline_zooms_and_keeps_the_view_while_it_plays(tmp_path: Path) -> None:
    from classview.timeline import build_timeline, scrub_html
    from demo.example_recording import record_in_depth_example

    recording = record_in_depth_example(tmp_path / "in_depth.sqlite")
    page = tmp_path / "timeline.html"
    page.write_text("<!doctype html><meta charset='utf-8'><body>" + scrub_html(build_timeline(recording, engagement_times=[]))
                    + "</body>", encoding="utf-8")
    browser = open_browser(1366, 768)
    try:
        browser.get(page.as_uri())
        root = browser.find_element("id", "class-timeline")
        wait_for(lambda: browser.execute_script(BASE_ON_SCREEN_JS, 11), what="the mortar gunner's base")
        rect = browser.execute_script(TABLE_RECT_JS)
        wheel(browser, (rect[0] + rect[2] / 2, rect[1] + rect[3] / 2), -400)
        zoomed = browser.execute_script(VIEW_BOX_JS)
        assert zoom_of(zoomed) > 1.5
        root.find_element("css selector", ".controls .play").click()
        wait_for(lambda: int(root.get_attribute("data-frame")) >= 3, what="the timeline to play a few frames")
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(zoomed)
        root.find_element("css selector", ".zoom .fit").click()
        assert browser.execute_script(VIEW_BOX_JS) == pytest.approx(FULL)
        assert page_errors(browser) == []
    finally:
        browser.quit()
