"""The instructor's link of the class view: its page adds a bookmark with a note and a review topic
that lands in the live SQLite recording exactly as Ctrl+B's does; a student's page cannot (403); a
hostile request is refused in one sentence and never reaches the game."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from appmodel.game_session import GameSession
from classview.instructor import MAX_NOTE_CHARS, RATE_COUNT
from classview.live import LiveClassView
from classview.server import ServeAddress
from classview_helpers import open_browser, wait_for
from debrief.facts import read_debrief_facts
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.recording import RecordingReader


@pytest.fixture
def recorded(tmp_path: Path):
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    session.start_round()
    path = tmp_path / "game.sqlite"
    session.start_recording(path)
    view = LiveClassView.start(session, ServeAddress("0.0.0.0", 0), bookmarks=True)  # the network: keyed addresses
    yield session, view, path
    view.close()
    session.stop_recording()


def post(url: str, body: bytes, *, origin: str | None = None) -> tuple[int, str]:
    headers = {"Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin
    request = urllib.request.Request(url.replace("0.0.0.0", "127.0.0.1"), data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8")


def loopback(url: str) -> str:
    """The served address as this computer reaches it (the network address may be unroutable here)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return url.replace(parts.netloc, f"127.0.0.1:{parts.port}")


def drained(view: LiveClassView, call, *args):
    """Run ``call(*args)`` on another thread while this one -- the session's -- takes the bookmarks it asks for."""
    with ThreadPoolExecutor(1) as pool:
        done = pool.submit(call, *args)
        wait_for(lambda: (view.run_requests(), done.done())[1], timeout_s=60, what="the request to be answered")
        return done.result()


def bookmarks_in(path: Path) -> list[tuple[float, str]]:
    with RecordingReader(path) as reader:
        return [(b.t_s, b.note) for b in reader.bookmarks()]


def test_the_instructors_page_adds_a_bookmark_with_note_and_topic_to_the_live_recording(recorded) -> None:
    session, view, path = recorded
    browser = open_browser(1366, 768)
    try:
        browser.get(loopback(view.instructor_url))
        button = wait_for(lambda: browser.find_elements("css selector", "button.bookmark-button"), what="the Bookmark button")[0]
        wait_for(lambda: "MAAWS gunner" in browser.find_element("css selector", '[data-part="units"]').text, what="the roster")
        pressed_at = session.now_s()
        button.click()
        browser.find_element("css selector", ".bookmark-panel [name=note]").send_keys("Alpha fired before the order")
        browser.find_element("css selector", ".bookmark-panel [name=new_topic]").send_keys("First contact")
        browser.find_element("css selector", ".bookmark-panel .add").click()
        # This thread is the session's: it takes the page's bookmark, as the window's timer does.
        said = wait_for(lambda: (view.run_requests(), browser.find_element("css selector", ".bookmark-panel .result").text)[1],
                        what="the page to say the bookmark was made")
        assert said.startswith("Bookmarked at") and "First contact" in said
        assert any(e.kind == "bookmark" and "Alpha fired before the order" in e.text for e in session.log)
        browser.save_screenshot(str(path.parent / "instructor.png"))

        # A student's page has no Bookmark button, and what it sends is refused.
        browser.get(loopback(view.url))
        wait_for(lambda: "MAAWS gunner" in browser.find_element("css selector", '[data-part="units"]').text, what="the roster")
        assert browser.find_elements("css selector", "button.bookmark-button") == []
        statuses = browser.execute_async_script("""
            const done = arguments[arguments.length - 1], body = JSON.stringify({note: "student was here"});
            const send = (url) => fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body})
                .then(r => r.status);
            Promise.all([send("bookmark"), send("instructor/not-the-key/bookmark")]).then(done);""")
        assert statuses == [403, 403]
        view.run_requests()
    finally:
        browser.quit()
    session.stop_recording()
    stored = bookmarks_in(path)
    assert [note for _, note in stored] == ["[First contact] Alpha fired before the order"]
    assert pressed_at - 1.0 <= stored[0][0] <= session.now_s()  # the moment the button was pressed
    facts = read_debrief_facts(path)
    assert [(b.topic, b.note) for b in facts.bookmarks] == [("First contact", "Alpha fired before the order")]


def test_without_the_instructors_key_a_bookmark_is_refused_and_nothing_is_recorded(recorded) -> None:
    session, view, path = recorded
    body = json.dumps({"note": "sneaky"}).encode()
    wrong = loopback(view.instructor_url).replace(view.server.instructor_token, "x" * len(view.server.instructor_token))
    for url in (loopback(view.url) + "bookmark", wrong + "bookmark", loopback(view.url) + "instructor/bookmark"):
        status, text = post(url, body)
        assert status in (403, 404, 405) and "Traceback" not in text, (url, status, text)
    status, text = post(wrong + "bookmark", body)
    assert status == 403 and "instructor's link" in text and text.count("\n") == 1
    status, _ = post(loopback(view.url).replace(view.server.token or "", "not-the-key") + "instructor/"
                     + view.server.instructor_token + "/bookmark", body)
    assert status == 403  # the class's key first
    view.run_requests()
    session.stop_recording()
    assert bookmarks_in(path) == []


def test_hostile_bookmarks_are_refused_in_one_line_and_bounded_in_length_and_rate(recorded) -> None:
    session, view, path = recorded
    url = loopback(view.instructor_url) + "bookmark"
    refusals = [
        (b"{not json", 400),
        (json.dumps({"note": "x" * (MAX_NOTE_CHARS + 1)}).encode(), 413),
        (json.dumps({"note": "fine", "topic": "t" * 500}).encode(), 413),
        (json.dumps({"note": ["a list"]}).encode(), 400),
        (json.dumps({"note": "fine", "ago_s": "soon"}).encode(), 400),
        (b"[" * 100_000, 413),  # bigger than any bookmark: not even parsed
    ]
    for body, expected in refusals:
        status, text = post(url, body)
        assert status == expected, (body[:40], status, text)
        assert text.startswith("Bookmark not made: ") and text.count("\n") == 1 and "Traceback" not in text
    status, text = post(url, json.dumps({"note": "x"}).encode(), origin="http://evil.example")
    assert status == 403 and text.count("\n") == 1

    # Control characters are spaces, a topic's brackets are dropped; then the rate bound holds.
    made = [drained(view, post, url, json.dumps({"note": f"moment {k}\x00\nnext", "topic": "[Jammer]"}).encode())
            for k in range(RATE_COUNT)]
    assert [s for s, _ in made] == [200] * RATE_COUNT
    status, text = post(url, json.dumps({"note": "one too many"}).encode())
    assert status == 429 and "wait a moment" in text and text.count("\n") == 1
    session.stop_recording()
    assert [note for _, note in bookmarks_in(path)] == [f"[Jammer] moment {k} next" for k in range(RATE_COUNT)]


def test_a_bookmark_the_game_never_takes_is_reported_as_not_made_and_never_made_later(recorded, monkeypatch) -> None:
    import classview.server as server_module

    session, view, path = recorded
    monkeypatch.setattr(server_module, "BOOKMARK_WAIT_S", 0.5)
    status, text = post(loopback(view.instructor_url) + "bookmark", json.dumps({"note": "late"}).encode())
    assert status == 503 and "try again" in text
    assert view.run_requests() == 0  # the server gave up on it: not made behind the instructor's back
    session.stop_recording()
    assert bookmarks_in(path) == []


def test_the_instructors_link_is_announced_only_where_the_front_end_takes_bookmarks() -> None:
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    plain = LiveClassView.start(session, ServeAddress("127.0.0.1", 0))
    keyed = LiveClassView.start(session, ServeAddress("127.0.0.1", 0), bookmarks=True)
    try:
        assert "Instructor" not in plain.announce()
        assert keyed.instructor_url in keyed.announce() and keyed.server.token is None  # loopback: still its own key
        status, _ = post(plain.instructor_url + "bookmark", b"{}")
        assert status == 404  # no instructor's page where nobody takes the bookmarks
        status, _ = post(keyed.url + "bookmark", b"{}")
        assert status == 403
    finally:
        plain.close()
        keyed.close()
