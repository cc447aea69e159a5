"""The recording's own camera video beside the table, synced to the replay: the frame recorded at the
replay time, decoded on a worker thread (PyAV: QtMultimedia is not in every PySide6 wheel, and a
player's clock would drift from the replay's at 64x), so scrubbing and fast playback never wait for
the decoder. Requests are latest-wins: at 64x the pane shows as many frames as the decoder can make,
always the newest asked for."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from appmodel.recording.video_frames import RecordedVideo
from appmodel.session.game_log import clock_text


class VideoWorker:
    """Decodes the frame at the newest requested time on a thread of its own; ``deliver(t_s, number,
    image)`` is called there (the pane turns it into a queued Qt signal)."""

    def __init__(self, video: RecordedVideo, deliver: Callable[[float, int, np.ndarray], None]) -> None:
        self.video = video
        self.deliver = deliver
        self._wanted: float | None = None
        self._stop = False
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="replay-video", daemon=True)
        self._thread.start()

    def request(self, t_s: float) -> None:
        with self._wake:
            self._wanted = float(t_s)
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._wanted is None and not self._stop:
                    self._wake.wait()
                if self._stop:
                    return
                t_s, self._wanted = self._wanted, None
            try:
                found = self.video.image_at(t_s)
            except Exception:  # a damaged stretch of video: the pane keeps its last frame, the replay goes on
                found = None
            if found is not None:
                try:
                    self.deliver(t_s, found[0], found[1])
                except RuntimeError:  # the pane was destroyed while this frame was decoded
                    return

    def stop(self) -> None:
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join(timeout=5.0)
        if not self._thread.is_alive():
            self.video.close()


class VideoPane(QWidget):
    """``on_image`` callbacks get each BGR frame shown (the camera view draws the table over it)."""

    frame_ready = Signal(float, int, object)

    def __init__(self, video: RecordedVideo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.picture = QLabel("decoding the camera video…")
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.picture.setMinimumSize(160, 90)
        self.picture.setStyleSheet("background: #000000;")
        self.caption = QLabel()
        self.caption.setStyleSheet("color: #c8c8c8;")
        self.caption.setWordWrap(True)  # a narrow dock wraps it rather than scrolling sideways
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.picture, 1)
        layout.addWidget(self.caption)
        self.on_image: list[Callable[[np.ndarray], None]] = []
        #: (replay time asked for, video frame number) of the frame on show; None before the first.
        self.shown: tuple[float, int] | None = None
        self.image: np.ndarray | None = None
        self.frame_ready.connect(self._show, Qt.ConnectionType.QueuedConnection)
        self.worker = VideoWorker(video, lambda t, n, image: self.frame_ready.emit(t, n, image))

    def request(self, t_s: float) -> None:
        self.worker.request(t_s)

    def settle(self, t_s: float, *, timeout_s: float = 10.0) -> bool:
        """Let Qt run until the frame for ``t_s`` is on show (a screenshot waits for it); False if it
        did not come within ``timeout_s``."""
        import time

        from PySide6.QtCore import QCoreApplication

        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.shown is not None and abs(self.shown[0] - t_s) < 1e-6:
                return True
            QCoreApplication.processEvents()
            time.sleep(0.01)
        return False

    def _show(self, t_s: float, number: int, image: Any) -> None:
        self.shown, self.image = (t_s, number), image
        self._draw()
        self.caption.setText(f"Camera · frame {number} · {clock_text(t_s)}")
        for callback in self.on_image:
            callback(image)

    def _draw(self) -> None:
        image = self.image
        if image is None:
            return
        h, w = image.shape[:2]
        rgb = np.ascontiguousarray(image[:, :, ::-1])
        qimage = QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888)
        pixmap = QPixmap.fromImage(qimage).scaled(self.picture.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                                   Qt.TransformationMode.FastTransformation)
        self.picture.setPixmap(pixmap)

    def resizeEvent(self, event: Any) -> None:  # Qt's name
        super().resizeEvent(event)
        self._draw()

    def close_video(self) -> None:
        self.worker.stop()
