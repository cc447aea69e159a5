"""Ctrl+O on a long recording: the file is read on a worker thread while the game window goes on, a
progress dialog says what is being read and how far, Cancel opens nothing, and a file that cannot be
read is refused in one line with the game on the table untouched."""
from __future__ import annotations

import os
import threading

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

SERGEANT, AR = 10, 31


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """A game of 40 seconds with a kill at 20 s (long enough for the reader to report progress)."""
    path = tmp_path_factory.mktemp("open") / "long game.sqlite"
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3)
    recorder = session.start_recording(path)
    for i in range(400):
        t = i * 0.1
        pose = UnitPose(SERGEANT, "Sergeant", "Marines", 18.0 + i * 0.01, 21.0, 1.0, 0.0, UnitState.SEEN, t, 0.0)
        recorder.record_frame(i, t, [pose])
        session.set_time(t)
        if i == 200:
            session.select_unit(SERGEANT)
            session.set_attack(AttackDraft(SERGEANT, "M4/M16", (AR,)))
            session.resolve_attack([[6, 2], 6])
        if i % 20 == 0:
            session.bookmark(f"moment {i}")
    session.stop_recording()
    return path


class HeldBack:
    """Reads with the real ReplayModel, but its first progress report waits until ``release`` (the
    test looks at the window while the worker is mid-read)."""

    def __init__(self) -> None:
        self.reporting = threading.Event()
        self.release = threading.Event()
        self.thread: str | None = None

    def __call__(self, path, *, progress):
        from appmodel.replay_model import ReplayModel

        def held(done_s, total_s):
            progress(done_s, total_s)
            self.thread = threading.current_thread().name
            if not self.reporting.is_set():
                self.reporting.set()
                assert self.release.wait(120), "the test never let the read go on"

        return ReplayModel(path, progress=held)


@pytest.fixture
def game(qtbot, tmp_path):
    from gui.main_window import MainWindow
    from gui.settings import AppSettings

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    window = MainWindow(session, settings=AppSettings(recordings_dir=str(tmp_path)))
    qtbot.addWidget(window)
    window.show()
    yield window
    replay_window = window._replay_window
    if replay_window is not None:
        replay_window.close()
        replay_window.replay.close()


def test_the_window_goes_on_while_a_recording_is_read_and_the_dialog_says_how_far(qtbot, game, recording) -> None:
    from PySide6.QtCore import QTimer

    from gui.recording_opening import open_recording

    held = HeldBack()
    opening = open_recording(game, recording, open_model=held)
    assert held.reporting.wait(120)
    # The read is stopped half-way on its own thread: this thread still runs timers and repaints.
    ticked = []
    QTimer.singleShot(0, lambda: ticked.append(True))
    qtbot.waitUntil(lambda: bool(ticked) and "Reading long game.sqlite: the game up to" in opening.dialog.labelText())
    assert held.thread != threading.main_thread().name
    assert opening.dialog.isVisible() and not opening.dialog.isModal()
    assert "of 0:39" in opening.dialog.labelText()
    assert "Opening long game.sqlite" in game.statusBar().currentMessage()
    game.session.select_unit(SERGEANT)  # the game on the table can still be played
    assert game.session.selection.unit_id == SERGEANT
    held.release.set()
    qtbot.waitUntil(lambda: opening.replay_window is not None)
    replay_window = opening.replay_window
    assert replay_window.isVisible() and replay_window.timeline is not None
    assert "long game.sqlite" in replay_window.windowTitle()
    assert not opening.dialog.isVisible()
    assert any(e.kind == "kill" for e in replay_window.replay.review)  # all of it was read


def test_cancel_stops_the_read_and_opens_nothing(qtbot, game, recording) -> None:
    from gui.recording_opening import open_recording

    held = HeldBack()
    opening = open_recording(game, recording, open_model=held)
    done = []
    opening.on_done.append(done.append)
    assert held.reporting.wait(120)
    from PySide6.QtWidgets import QPushButton

    button = opening.dialog.findChild(QPushButton)
    assert button.text() == "Cancel"
    button.click()
    held.release.set()
    qtbot.waitUntil(lambda: bool(done))
    assert done == [None] and opening.replay_window is None and game._replay_window is None
    assert "cancelled" in game.statusBar().currentMessage()
    opening.thread.join(120)
    assert not opening.thread.is_alive()


@pytest.mark.parametrize("content", [b"not a recording at all\n", None])
def test_a_file_that_cannot_be_read_is_one_line_and_the_game_goes_on(qtbot, game, recording, tmp_path, content) -> None:
    from gui.recording_opening import open_recording

    bad = tmp_path / "bad.sqlite"
    # garbage, or a recording cut short in its first page (nothing to rescue)
    bad.write_bytes(content if content is not None else recording.read_bytes()[:5000])
    game.session.start_recording(tmp_path / "live.sqlite")
    before = game.session.state
    opening = open_recording(game, bad)
    done = []
    opening.on_done.append(done.append)
    qtbot.waitUntil(lambda: bool(done))
    assert done == [None] and game._replay_window is None
    line = game.statusBar().currentMessage()
    assert "bad.sqlite was not opened (the game on the table goes on)" in line and "\n" not in line
    assert "Traceback" not in game.last_message
    assert game.session.state is before and game.session.recording_path is not None  # still recording
    game.session.stop_recording()


def test_a_damaged_recording_that_can_be_rescued_opens_with_a_note(qtbot, game, recording, tmp_path) -> None:
    from gui.recording_opening import open_recording

    cut = tmp_path / "cut.sqlite"
    data = recording.read_bytes()
    cut.write_bytes(data[: len(data) * 3 // 4])
    opening = open_recording(game, cut)
    done = []
    opening.on_done.append(done.append)
    qtbot.waitUntil(lambda: bool(done))
    assert done[0] is not None, game.statusBar().currentMessage()
    note = done[0].statusBar().currentMessage()
    assert note.startswith("Replaying cut.sqlite") and "damaged" in note and "\n" not in note
