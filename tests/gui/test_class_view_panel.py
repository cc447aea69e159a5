"""The window tells the instructor where the class view is: the address with its key, a QR code a
phone reads to that same address, how many watch; and the class follows "what the players see"."""
from __future__ import annotations

import json
import os
import urllib.request

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from classview.live import LiveClassView
from classview.server import ServeAddress
from gui.compositor import bgr_from_qimage
from appmodel.game_session import AttackDraft, GameSession
from gui.settings import AppSettings
from rules.downrange.examples.in_depth import SCENARIO_PATH



def decoded_qr(image_bgr):
    """The text of the QR code in a picture, as a phone's camera app reads it. (OpenCV's classic
    detector misread about 3 in 100 of these random links in segno's codes with their quiet zone;
    the ArUco-based one read 300 of 300.)"""
    import cv2

    big = cv2.resize(image_bgr, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(big)
    return text

def test_the_qr_code_reads_back_as_the_address_with_its_key(qtbot) -> None:

    from gui.class_view_panel import ClassViewPanel, qr_image

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    view = LiveClassView.start(session, ServeAddress("0.0.0.0", 0))
    try:
        panel = ClassViewPanel(view)
        qtbot.addWidget(panel)
        assert view.server.token in panel.link.text()
        image = bgr_from_qimage(qr_image(view.url))
        assert decoded_qr(image) == view.url
        assert "nobody is watching" in panel.watching.text()
    finally:
        view.close()


def test_the_class_sees_what_the_instructor_lets_the_players_see(qtbot, tmp_path) -> None:
    from gui.main_window import MainWindow

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    window = MainWindow(session, settings=AppSettings())
    qtbot.addWidget(window)
    session.set_attack(AttackDraft(10, "M4/M16", (31,)))  # set up at the table: its odds are on the panel
    view = LiveClassView.start(session, ServeAddress("127.0.0.1", 0))
    try:
        window.attach_class_view(view)
        assert "Class view" in window.docks

        def odds_labels() -> list[str]:
            view.feed.wake()
            qtbot.wait(300)
            with urllib.request.urlopen(view.url + "scene.json", timeout=5) as r:
                scene = json.loads(r.read())
            return [label["text"] for label in scene.get("labels", []) if label["layer"] == "odds"]

        view.server.on_viewer = None  # the test reads scene.json: build whatever is asked
        view.feed.wanted = lambda: True
        assert odds_labels() == []  # the players' default hides the odds
        window.set_projector_overlay("odds", True)
        qtbot.waitUntil(lambda: bool(odds_labels()), timeout=5000)
        assert any("%" in text for text in odds_labels())
    finally:
        view.close()


def test_the_window_makes_the_instructors_bookmarks_in_its_recording(qtbot, tmp_path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from gui.main_window import MainWindow
    from tracker.recording import RecordingReader

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    window = MainWindow(session, settings=AppSettings())
    qtbot.addWidget(window)
    session.start_recording(tmp_path / "game.sqlite")
    view = LiveClassView.start(session, ServeAddress("127.0.0.1", 0), bookmarks=True)
    try:
        window.attach_class_view(view)
        request = urllib.request.Request(view.instructor_url + "bookmark", method="POST",
                                         data=json.dumps({"note": "from the phone", "topic": "First contact"}).encode(),
                                         headers={"Content-Type": "application/json"})

        def send() -> int:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status

        with ThreadPoolExecutor(1) as pool:  # the window's own timer takes it on this, the session's, thread
            sent = pool.submit(send)
            qtbot.waitUntil(sent.done, timeout=20_000)
            assert sent.result() == 200
    finally:
        view.close()
    session.stop_recording()
    with RecordingReader(tmp_path / "game.sqlite") as reader:
        assert [b.note for b in reader.bookmarks()] == ["[First contact] from the phone"]


def test_the_panel_shows_the_instructors_link_to_copy_with_who_must_not_get_it(qtbot) -> None:

    from gui.class_view_panel import ClassViewPanel
    from PySide6.QtGui import QGuiApplication

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    view = LiveClassView.start(session, ServeAddress("0.0.0.0", 0), bookmarks=True)
    try:
        panel = ClassViewPanel(view)
        qtbot.addWidget(panel)
        panel.show()
        link = panel.instructor
        assert link is not None and link.field.toPlainText() == view.instructor_url
        assert view.server.instructor_token in link.field.toPlainText() and link.field.isReadOnly()
        assert "phone" in link.note.text() and "Do not give it to the students" in link.note.text()
        assert "Only this computer" not in link.note.text()
        link.copy_button.click()
        assert QGuiApplication.clipboard().text() == view.instructor_url
        assert not link.qr.isVisible()  # the window may be where the class sees it: the code only when asked
        link.qr_button.click()
        assert link.qr.isVisible() and link.qr_button.text() == "Hide QR code"
        image = bgr_from_qimage(link.qr.pixmap().toImage())
        assert decoded_qr(image) == view.instructor_url
        link.qr_button.click()
        assert not link.qr.isVisible()
    finally:
        view.close()


def test_the_copied_instructors_link_opens_the_instructors_page_and_the_students_have_none(qtbot) -> None:
    from gui.class_view_panel import ClassViewPanel
    from PySide6.QtGui import QGuiApplication

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    teacher = LiveClassView.start(session, ServeAddress("127.0.0.1", 0), bookmarks=True)
    students = LiveClassView.start(session, ServeAddress("127.0.0.1", 0))
    try:
        panel = ClassViewPanel(teacher)
        qtbot.addWidget(panel)
        assert "Only this computer can open it" in panel.instructor.note.text()
        panel.instructor.copy_button.click()
        with urllib.request.urlopen(QGuiApplication.clipboard().text(), timeout=30) as page:
            assert page.status == 200 and b"instructor.js" in page.read()
        plain = ClassViewPanel(students)  # a class view without bookmarks (a replay's): no instructor's link
        qtbot.addWidget(plain)
        assert plain.instructor is None
    finally:
        teacher.close()
        students.close()
