"""The class view in a real headless Chromium (Selenium), as a student would use it: open the address
the instructor's screen shows, see the units, watch a unit carried on the synthetic table move, and a
page opened without the address's key is refused."""
from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from classview_helpers import SyntheticTableMoves, open_browser, page_errors, set_viewport, wait_for
from classview.live import LiveClassView
from classview.server import ServeAddress
from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH

BASE_CENTRE_JS = """
const el = document.querySelector('svg.table path[data-unit="' + arguments[0] + '"]');
if (!el) return null;
const b = el.getBBox();
return [b.x + b.width / 2, b.y + b.height / 2];
"""


@pytest.fixture
def served():
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    session.start_round()
    view = LiveClassView.start(session, ServeAddress("0.0.0.0", 0))  # the network: the address carries a key
    yield session, view
    view.close()


@pytest.fixture
def browser():
    driver = open_browser(1366, 768)
    yield driver
    driver.quit()


def test_the_page_shows_the_units_and_a_unit_carried_on_the_table_moves_on_it(served, browser, tmp_path: Path) -> None:
    session, view = served
    depth = session.table_size_in[1]
    browser.get(view.url)
    roster = wait_for(lambda: browser.find_element("css selector", '[data-part="units"]').text, what="the roster")
    assert "MAAWS gunner" in roster and "Officer" in roster
    assert "Round 1" in browser.find_element("css selector", '[data-part="turn"]').text
    start = wait_for(lambda: browser.execute_script(BASE_CENTRE_JS, 13), what="the MAAWS gunner's base")
    u = session.unit(13)
    assert start == pytest.approx([u.x_in, depth - u.y_in], abs=0.1)  # SVG in table inches, y down

    SyntheticTableMoves(session).move(13, 40.0, 12.0)
    moved = wait_for(lambda: (c := browser.execute_script(BASE_CENTRE_JS, 13)) and abs(c[0] - 40.0) < 0.2 and c,
                     what="the base to reach x = 40\"")
    assert moved == pytest.approx([40.0, depth - 12.0], abs=0.2)
    assert browser.find_element("css selector", "#status").text == "live"
    assert page_errors(browser) == []
    browser.save_screenshot(str(tmp_path / "moved.png"))


def test_a_page_or_socket_without_the_key_is_refused(served, browser) -> None:
    _, view = served
    root = view.url.split(view.server.token)[0]
    for url in (root, root + "index.html", root + "ws", root + "not-the-key/", view.url.replace(view.server.token, "x" * 24)):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(url, timeout=5)
        assert err.value.code == 403, url
        err.value.close()
    browser.get(root)
    assert "needs its full address" in browser.find_element("tag name", "body").text
    assert browser.find_elements("css selector", "svg.table") == []
    with urllib.request.urlopen(view.url, timeout=5) as ok:
        assert ok.status == 200


def test_the_table_fits_a_phone_and_the_panels_follow_below(served, browser) -> None:
    session, view = served
    set_viewport(browser, 390, 844)
    browser.get(view.url)
    wait_for(lambda: browser.execute_script(BASE_CENTRE_JS, 13), what="the units on a phone")
    svg = browser.execute_script("const r = document.querySelector('svg.table').getBoundingClientRect();"
                                 "return [r.left, r.width, r.height];")
    assert svg[0] >= 0 and 300 <= svg[1] <= 390 and svg[2] >= 180
    roster_top = browser.execute_script("return document.querySelector('[data-part=units]').getBoundingClientRect().top")
    assert roster_top > svg[2]  # under the table, not squeezed beside it
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
