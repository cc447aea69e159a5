"""Starting the companion: the Qt application, the frame source, screenshots of the real window."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from appmodel.errors import UsageError


def create_application() -> Any:
    """The QApplication (one per process), with the Fusion style in dark colours: readable on a
    table-side laptop in a dim room, and the same on every platform."""
    from PySide6.QtWidgets import QApplication

    from gui.theme import apply_theme

    app = QApplication.instance()
    if app is None:
        app = QApplication(["sandtable"])
        app.setOrganizationName("Sandtable")
        app.setApplicationName("Sandtable Companion")
        _close_on_signals(app)
    if isinstance(app, QApplication) and not app.property("sandtable_themed"):
        # Also when another part (the compositor, PDF printing) created the application first.
        apply_theme(app)  # dark, WCAG AA contrast, tick boxes that show (gui/theme.py)
        app.setProperty("sandtable_themed", True)
    return app


class _StopOnSignals:
    """SIGTERM or SIGINT (a service manager, ``kill``, Ctrl+C in the terminal) close the windows as the
    user would, so a recording in progress is closed cleanly and checkpointed and the settings are saved.

    ``app.quit()`` does nothing before Qt's event loop runs, and start-up (reading the scenario, building
    the window) takes seconds on a busy machine: a signal then was lost and the window stayed up for good.
    So the handler only remembers the request until :func:`run_event_loop` says the loop is running, and
    the loop's first event acts on it."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.requested = False
        self.loop_running = False

    def __call__(self, signum: int, frame: object) -> None:
        # Python runs this in the main thread between bytecodes: never concurrently with loop_started.
        self.requested = True
        if self.loop_running:
            self.close()

    def loop_started(self) -> None:
        self.loop_running = True
        if self.requested:
            self.close()

    def close(self) -> None:
        self.app.closeAllWindows()
        self.app.quit()


def _close_on_signals(app: Any) -> None:
    """Install :class:`_StopOnSignals` for SIGTERM and SIGINT. Python runs signal handlers only between
    bytecodes, so a timer wakes it while Qt's event loop waits."""
    import signal
    import threading

    from PySide6.QtCore import QTimer

    if threading.current_thread() is not threading.main_thread():
        return
    stop = _StopOnSignals(app)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)
    app.setProperty("sandtable_stop_on_signals", stop)  # found again by run_event_loop
    wake = QTimer(app)
    wake.timeout.connect(lambda: None)
    wake.start(200)


def run_event_loop(app: Any, *, ready_line: str | None = None) -> int:
    """``app.exec()``, acting first on a SIGTERM/SIGINT that came during start-up (see
    :class:`_StopOnSignals`). ``ready_line``, printed (and flushed) once the loop runs, tells a terminal,
    a service manager or a test that the window is up."""
    from PySide6.QtCore import QTimer

    stop = app.property("sandtable_stop_on_signals")

    def started() -> None:
        if ready_line is not None:
            print(ready_line, flush=True)
        if isinstance(stop, _StopOnSignals):
            stop.loop_started()

    # A zero timer fires from inside exec(), not from a processEvents() during start-up.
    QTimer.singleShot(0, started)
    try:
        return int(app.exec())
    finally:
        if isinstance(stop, _StopOnSignals):
            stop.loop_running = False


def open_live_source(session: Any, *, source: str | None, calibration_path: str | None,
                     scenario_path: str | None, terrain: Any | None = None) -> tuple[Any, Any]:
    """(live loop, table calibration): a tracked camera/video when ``source`` is given, else the
    synthetic table rendering the game (its exact calibration). ``terrain`` (the scanned relief): units
    stand on it, so their parallax needs no typed heights."""
    from appmodel.tracking.live_tracking import LiveTracking, SyntheticLive
    from appmodel.tracking.synthetic_feed import SyntheticFeed

    if source is None:
        feed = SyntheticFeed(session.table_size_in)
        return SyntheticLive(feed).start(), feed.calibration
    from calibration.files import load_table_calibration
    from tracker.pipeline import Tracker
    from tracker.roster import load_roster
    from tracker.sources import open_source

    calibration = load_table_calibration(calibration_path) if calibration_path else None
    if calibration is None:
        raise UsageError(f"--source {source!r} needs --calibration table.json: without it positions are pixels and the "
                         "rules cannot measure (sandtable calibrate table makes one)")
    roster = load_roster(scenario_path) if scenario_path else None
    frames = open_source(source)
    tracker = Tracker(roster=roster, calibration=calibration, terrain=terrain)
    # The window's live loop owns the camera and the tracker: closing the window closes and joins them,
    # so no capture thread is still inside FFmpeg while the application ends.
    return LiveTracking(frames, tracker, owns_source=True).start(), calibration


def recording_calibration(replay: Any, path: str | None) -> Any:
    """The table calibration for a replay's camera view: the file given, else the one stored in the recording."""
    from calibration.files import load_table_calibration

    if path:
        return load_table_calibration(path)
    text = replay.reader.meta.get("calibration_json", "")
    if not text:
        return None
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "table.json"
        p.write_text(text, encoding="utf-8")
        try:
            return load_table_calibration(p)
        except ValueError:
            return None


def take_screenshot(window: Any, path: str | Path, *, size: tuple[int, int] = (1600, 960), live: Any | None = None,
                    settle_s: float = 0.0) -> Path:
    """Show ``window`` at ``size``, let it draw (and the live feed deliver a frame), save it as PNG."""
    import time

    from PySide6.QtWidgets import QApplication

    window.resize(*size)
    window.show()
    app = QApplication.instance()
    if live is not None and hasattr(live, "render_now"):
        window.view.set_frame(live.render_now(window.session.units()))
    end = time.monotonic() + settle_s
    while True:
        app.processEvents()
        if time.monotonic() >= end:
            break
        time.sleep(0.02)
    path = Path(path)
    if not window.grab().save(str(path)):
        raise UsageError(f"cannot write the screenshot {str(path)!r}: check the folder exists and the name ends in .png")
    window.close()
    return path


__all__ = ["create_application", "open_live_source", "recording_calibration", "run_event_loop", "take_screenshot"]
