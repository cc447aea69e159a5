"""What the GUI tests of the rulesets' panels share (not a test module): a session at a step of a scripted
example, panels shown as a player sees them, and the roster's hand-edit dialog driven as a player
drives it (modal: filled in and closed from a timer while ``edit_selected`` waits)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def scripted_records(example: Any) -> dict[str, Any]:
    """Each step of a scripted example (rules/*/examples/*.py), by title, with the state after it."""
    return {r.step.title: r for r in example.play()}


def session_before(example: Any, ruleset: str, title: str) -> Any:
    """A session of ``ruleset`` at the state the example's script reaches just before step ``title``
    (seeded dice, so a virtual roll is the same in every run)."""
    from appmodel.game_session import GameSession
    from rules.dice import SeededDice
    from rules.ruleset import get_ruleset

    steps = list(example.STEPS)
    state = example.initial_state()
    for record in example.play(steps[:[s.title for s in steps].index(title)]):
        state = record.state
    return GameSession(get_ruleset(ruleset), state, scenario=example.load_scenario(), dice=SeededDice(3))


def show(qtbot: Any, widgets: tuple[Any, ...], *, width: int, height: int = 900) -> tuple[Any, ...]:
    """The widgets shown at ``width`` x ``height`` (closed by qtbot at the end of the test)."""
    for widget in widgets:
        qtbot.addWidget(widget)
        widget.resize(width, height)
        widget.show()
    return widgets


def edit_in_dialog(roster: Any, unit_id: int, fill: Callable[[Any], None], *, ok: bool = True) -> None:
    """Select the unit, open its dialog as a player does (modal), fill it in, press OK (or Cancel)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialogButtonBox

    roster.session.select_unit(unit_id)
    seen: list[Any] = []

    def play() -> None:
        dialog = QApplication.activeModalWidget()
        seen.append(dialog)
        fill(dialog)
        which = QDialogButtonBox.StandardButton.Ok if ok else QDialogButtonBox.StandardButton.Cancel
        dialog.findChild(QDialogButtonBox).button(which).click()

    QTimer.singleShot(0, play)
    roster.edit_selected()
    assert seen and seen[0] is not None, "no modal dialog opened"


def open_main_window(qtbot: Any, tmp_path: Any, session: Any, *, mode: str | None = "table", **window_args: Any) -> Any:
    """The companion window on ``session`` at a 1366x768 laptop's size, with settings kept in ``tmp_path``
    (never the user's), shown offscreen; ``mode`` the view's ("table" or "camera"; None leaves it)."""
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    create_application()
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store, **window_args)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    if mode is not None:
        w.view.set_mode(mode)
    return w


class ScriptedLive:
    """A live loop whose tracked frames the test hands in (``feed``); ``poll`` as LiveTracking's, each
    handed-in frame once, with ``frame_bgr`` as its picture."""

    def __init__(self, tracker: Any, frame_bgr: Any) -> None:
        self.tracker = tracker
        self.frame = frame_bgr
        self.pending: list[Any] = []

    def feed(self, tracked: Any) -> None:
        self.pending.append(tracked)

    def poll(self) -> Any:
        from appmodel.tracking.live_tracking import LiveUpdate

        if not self.pending:
            return LiveUpdate(None, None, ())
        return LiveUpdate(self.frame, self.pending.pop(0), (), None, False, None, None)

    def stop(self, timeout_s: float = 5.0) -> None:
        pass


def settle() -> None:
    """Let the window lay itself out (a few rounds of Qt's events)."""
    from PySide6.QtWidgets import QApplication

    for _ in range(5):
        QApplication.processEvents()


def save_layout_shot(window: Any, name: str) -> None:
    """``SANDTABLE_LAYOUT_SHOTS=folder``: the layout tests also save what they looked at, as ``name``.png."""
    import os
    from pathlib import Path

    folder = os.environ.get("SANDTABLE_LAYOUT_SHOTS")
    if folder:
        window.grab().save(str(Path(folder) / f"{name}.png"))


def hold_overlay_jobs(compositor: Any) -> Any:
    """Make ``compositor``'s overlay images wait, on any thread but the UI thread, until the returned
    ``threading.Event`` is set: a view's worker held up as on a busy machine, while what the UI thread
    draws (a user's click) goes on."""
    import threading

    gate = threading.Event()
    make = compositor.overlay_image

    def held(*a: Any, **k: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            gate.wait(10)
        return make(*a, **k)

    compositor.overlay_image = held
    return gate


def wait_until(app: Any, until: Callable[[], bool], timeout_s: float = 10.0) -> None:
    """Run Qt's events until ``until()`` holds (a view's workers done, its paint made); fails after ``timeout_s``."""
    import time

    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        app.processEvents()
        if until():
            return
        time.sleep(0.002)
    raise AssertionError("the view did not get there in time")
