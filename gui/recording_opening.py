"""Record > Open a recording… (Ctrl+O): a recording read on a worker thread while the window goes on.

A three-hour recording takes seconds to read (more on a cold disk or a busy laptop); read on the
window's own thread it froze the game on the table and showed nothing. Here the file is read by
:class:`appmodel.replay_model.ReplayModel` on a thread of its own, which reports through its
``progress`` callback what it has read (the game's time so far, of the recording's length); a
progress dialog that does not block the window says so, with Cancel. The replay model is handed
back to the window's thread, which alone builds the replay window (Qt widgets live there). A file
that cannot be read is refused in one line (status bar and a message that does not stop the live
loop) and the game on the table is untouched; a damaged file that could be partly rescued opens
with that one line in the replay's status bar.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QProgressDialog, QWidget

from appmodel.session.game_log import clock_text

#: Reads a recording: ``open_model(path, progress=callback(seconds read, seconds in all))``.
OpenModel = Callable[..., Any]


class Cancelled(Exception):
    """Raised inside the reading thread's progress callback to stop a read the user cancelled."""


def reading_words(name: str, done_s: int, total_s: int) -> str:
    """What the dialog says while the game is read.

    >>> reading_words("game.sqlite", 65, 10800)
    'Reading game.sqlite: the game up to 1:05 of 3:00:00'
    >>> reading_words("game.sqlite", 10800, 10800)
    "Reading game.sqlite: the tracker's events and the bookmarks"
    """
    if done_s >= total_s:
        return f"Reading {name}: the tracker's events and the bookmarks"
    return f"Reading {name}: the game up to {clock_text(done_s)} of {clock_text(total_s)}"


class RecordingOpening(QObject):
    """One recording being opened for ``window`` (a MainWindow): the dialog, the reading thread, and
    the replay window once read (``replay_window``). ``open_model(path, progress=...)`` reads the
    recording (:class:`~appmodel.replay_model.ReplayModel`; the tests pass one they hold back);
    ``on_done`` callbacks get the replay window, or None when the file was refused or the user cancelled."""

    _progressed = Signal(int, int)
    _finished = Signal(object, str)

    def __init__(self, window: Any, path: str | Path, *, open_model: OpenModel | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.path = Path(path)
        self.name = self.path.name
        self._open_model = open_model
        self.cancelled = False
        self.replay_window: Any | None = None
        self.refusal = ""
        self.on_done: list[Callable[[Any | None], None]] = []
        self.dialog = QProgressDialog(f"Opening {self.name}: checking the file…", "Cancel", 0, 0, window)
        self.dialog.setWindowTitle("Opening a recording")
        # Not modal: the game on the table goes on (the live loop, Ctrl+B, the projector) while it reads.
        self.dialog.setWindowModality(Qt.WindowModality.NonModal)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.setMinimumDuration(0)
        self.dialog.setMinimumWidth(460)
        self.dialog.canceled.connect(self.cancel)
        self._progressed.connect(self._show_progress)
        self._finished.connect(self._done)
        self.thread = threading.Thread(target=self._read, name=f"reading {self.name}", daemon=True)

    def start(self) -> "RecordingOpening":
        self.dialog.show()
        self.window.statusBar().showMessage(f"Opening {self.name}… (the game on the table goes on)")
        self.thread.start()
        return self

    @property
    def reading(self) -> bool:
        return self.thread.is_alive()

    def cancel(self) -> None:
        """Stop reading (the thread stops at its next progress report) and open nothing."""
        if self.cancelled or self.replay_window is not None:
            return
        self.cancelled = True
        self.dialog.hide()
        self.window.statusBar().showMessage(f"Opening {self.name} cancelled: the game on the table goes on.", 15000)

    # -- the reading thread -----------------------------------------------------------------------
    def _read(self) -> None:
        if self._open_model is None:
            from appmodel.replay_model import ReplayModel

            self._open_model = ReplayModel
        replay: Any = None
        try:
            replay = self._open_model(self.path, progress=self._report)
        except Cancelled:
            pass
        except Exception as exc:  # noqa: BLE001 -- any failure is told in one line, never a dialog left waiting
            self._hand_over(None, _refusal_line(exc))
            return
        self._hand_over(replay, "")

    def _report(self, done_s: int, total_s: int) -> None:
        if self.cancelled or not self._emit(self._progressed, done_s, total_s):
            raise Cancelled()  # cancelled, or the window that asked is gone

    def _hand_over(self, replay: Any, refusal: str) -> None:
        if not self._emit(self._finished, replay, refusal) and replay is not None:
            replay.close()  # the window closed while it read: nobody will show it

    @staticmethod
    def _emit(signal: Any, *args: Any) -> bool:
        try:
            signal.emit(*args)  # queued to the window's thread
        except RuntimeError:  # this object was deleted with its window
            return False
        return True

    # -- the window's thread ----------------------------------------------------------------------
    def _show_progress(self, done_s: int, total_s: int) -> None:
        if self.cancelled:
            return
        total_s = max(1, total_s)
        self.dialog.setMaximum(total_s)
        self.dialog.setValue(min(done_s, total_s))
        self.dialog.setLabelText(reading_words(self.name, done_s, total_s))

    def _done(self, replay: Any, refusal: str) -> None:
        if self.cancelled:
            if replay is not None:
                replay.close()
            self._finish(None)
            return
        if replay is None:
            self.dialog.hide()
            self.refusal = f"{self.name} was not opened (the game on the table goes on): {refusal}"
            self.window.notify("Open a recording", self.refusal, warning=True)
            self._finish(None)
            return
        self.dialog.setRange(0, 0)
        self.dialog.setLabelText(f"Opening {self.name}: laying out the replay…")
        self.dialog.repaint()  # the one step on this thread: say so before it runs
        try:
            new = type(self.window)(replay.session, settings=self.window.settings, store=None,
                                    calibration=self.window.calibration, replay=replay)
        except Exception as exc:  # noqa: BLE001
            replay.close()
            self.dialog.hide()
            self.refusal = f"{self.name} was not opened (the game on the table goes on): {_refusal_line(exc)}"
            self.window.notify("Open a recording", self.refusal, warning=True)
            self._finish(None)
            return
        new.show()
        said = f"Replaying {self.name} ({clock_text(replay.duration_s)})."
        if replay.problems:
            said += " Note: " + "; ".join(" ".join(str(p).split()) for p in replay.problems)
        new.statusBar().showMessage(said, 30000)
        new.last_message = said
        self.window.statusBar().showMessage(f"{self.name} opened in a replay window.", 15000)
        self.replay_window = new
        self.dialog.hide()
        self._finish(new)

    def _finish(self, replay_window: Any | None) -> None:
        for callback in self.on_done:
            callback(replay_window)


def _refusal_line(exc: BaseException) -> str:
    """The error as one line (the reader's and the model's messages already say what to do)."""
    text = " ".join(str(exc).split())
    return text if text else f"{type(exc).__name__} while reading it"


def ask_and_open_recording(window: Any, *, parent: QWidget | None = None) -> RecordingOpening | None:
    """The file dialog, then :class:`RecordingOpening` (None when cancelled, or while one is read)."""
    busy = window.recording_opening
    if busy is not None and busy.replay_window is None and not busy.cancelled and busy.reading:
        busy.dialog.show()
        busy.dialog.raise_()
        window.statusBar().showMessage(f"Still opening {busy.name}: cancel it first to open another.", 8000)
        return None
    path, _ = QFileDialog.getOpenFileName(parent or window, "Open a recording", window.settings.recordings_dir,
                                          "Recordings (*.sqlite)")
    return open_recording(window, path) if path else None


def open_recording(window: Any, path: str | Path, *, open_model: OpenModel | None = None) -> RecordingOpening:
    """Start reading ``path`` for ``window``; the replay window opens when it is read."""
    if window.recording_opening is not None and not window.recording_opening.reading:
        window.recording_opening.deleteLater()  # the last one's dialog with it
    opening = RecordingOpening(window, path, open_model=open_model)
    window.recording_opening = opening

    def keep(new: Any | None) -> None:
        if new is not None:
            window._replay_window = new  # a window without a parent lives while it is referenced

    opening.on_done.append(keep)
    return opening.start()
