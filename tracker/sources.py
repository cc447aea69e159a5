"""Frame sources: a camera (index or URL), a video file, a folder of images, the synthetic table.

(A recording being replayed is in ``tracker/replay.py``.) ``open_source(spec)`` picks the right one
from what the user typed. A source that cannot be opened raises :class:`SourceError` naming it.

Thread contract of live sources: one named thread per camera reads frames as fast as the camera
delivers them and keeps only the newest, so the tracker never works on a backlog (no growing lag).
When the camera stops delivering (unplugged, Wi-Fi stream gone) the thread reopens it every
``retry_interval_s`` until it comes back; meanwhile ``connected`` is False and ``latest_frame`` returns
None after its timeout, so the game state is kept. ``close()`` stops and joins the thread.

Files are read ahead in their own thread too (decoding overlaps tracking) through a bounded queue,
without ever dropping a frame.
"""
from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tracker.errors import SourceError
from tracker.frames import Frame
from tracker.image_files import read_image

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
RECORDING_SUFFIXES = (".sqlite", ".sqlite3", ".db", ".sandtable")
DEFAULT_FOLDER_FPS = 30.0
_END = object()  # the read-ahead queue's sentinel: no more frames


def quiet_opencv_warnings() -> None:
    """OpenCV's own warnings about a missing camera would print before our one-line message; keep
    its errors."""
    import cv2

    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    except AttributeError:  # pragma: no cover - an OpenCV without its logging module
        pass


#: A stream URL that stops sending makes FFmpeg's read wait this long at most (its own default is 30 s,
#: during which a read cannot be interrupted -- nor the capture safely released).
STREAM_READ_TIMEOUT_MS = 2000
#: Opening a stream (also each try to reopen a lost one) waits this long at most: a camera on the local
#: network answers well within it, and closing the source waits for an open in progress to end.
STREAM_OPEN_TIMEOUT_MS = 5000
#: How an RTSP camera's video may travel: over the RTSP connection itself (TCP, OpenCV's default,
#: passes firewalls and NAT) or as separate UDP packets (what some cameras require; less delay).
RTSP_TRANSPORTS = ("tcp", "udp")
_FFMPEG_OPTIONS_ENV = "OPENCV_FFMPEG_CAPTURE_OPTIONS"


def ffmpeg_capture_options(existing: str | None, rtsp_transport: str) -> str:
    """OpenCV's FFmpeg options (``key;value|key;value``) with ``rtsp_transport`` set, the user's own
    other options kept.

    >>> ffmpeg_capture_options("stimeout;5000000|rtsp_transport;tcp", "udp")
    'stimeout;5000000|rtsp_transport;udp'
    """
    if rtsp_transport not in RTSP_TRANSPORTS:
        raise SourceError(f"RTSP transport {rtsp_transport!r}: give one of {', '.join(RTSP_TRANSPORTS)}")
    kept = [part for part in (existing or "").split("|") if part and part.split(";", 1)[0] != "rtsp_transport"]
    return "|".join(kept + [f"rtsp_transport;{rtsp_transport}"])


def _default_capture_factory(spec: int | str, rtsp_transport: str | None = None) -> Any:
    import os

    import cv2

    quiet_opencv_warnings()
    if rtsp_transport is not None and isinstance(spec, str) and spec.lower().startswith("rtsp"):
        # OpenCV's FFmpeg backend reads its options from this variable at each open (there is no
        # argument for them): set here, so that users need no environment variable of their own.
        os.environ[_FFMPEG_OPTIONS_ENV] = ffmpeg_capture_options(os.environ.get(_FFMPEG_OPTIONS_ENV), rtsp_transport)
    if isinstance(spec, str) and "://" in spec:
        return cv2.VideoCapture(spec, cv2.CAP_ANY, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STREAM_OPEN_TIMEOUT_MS,
                                                    cv2.CAP_PROP_READ_TIMEOUT_MSEC, STREAM_READ_TIMEOUT_MS])
    return cv2.VideoCapture(spec)


class CameraSource:
    """A live camera, by OpenCV index (``0``) or stream URL (``rtsp://...``, ``http://...``).

    ``capture_factory(spec)`` returns an object with ``isOpened()``, ``read()`` and ``release()``
    (``cv2.VideoCapture`` by default; tests pass a fake). ``dropout_after_s``: how long without a good
    frame before the camera counts as gone and is reopened. ``rtsp_transport``: "tcp" or "udp" for an
    ``rtsp://`` stream (None: OpenCV's default, TCP).

    While the camera is gone, ``reopen_attempts`` counts the tries to open it again (0 once it
    delivers) and ``outage_s`` says for how long it has been gone.
    """

    is_live = True

    def __init__(
        self,
        spec: int | str,
        *,
        capture_factory: Callable[[int | str], Any] | None = None,
        retry_interval_s: float = 1.0,
        dropout_after_s: float = 1.0,
        fps: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        rtsp_transport: str | None = None,
    ) -> None:
        self.spec = spec
        if rtsp_transport is not None:
            ffmpeg_capture_options(None, rtsp_transport)  # refused at once if it is not tcp or udp
        self.name = f"camera {spec}"
        self.fps = float(fps)
        self.retry_interval_s = float(retry_interval_s)
        self.dropout_after_s = float(dropout_after_s)
        if capture_factory is None:
            def capture_factory(spec: int | str) -> Any:
                return _default_capture_factory(spec, rtsp_transport)
        self._factory = capture_factory
        self._clock = clock
        capture = self._factory(spec)
        if capture is None or not capture.isOpened():
            if capture is not None:
                capture.release()
            hint = (
                "check the URL and that the stream is running"
                if isinstance(spec, str)
                else "check that it is plugged in and not used by another program; try index 0, 1, 2..."
            )
            raise SourceError(f"cannot open {self.name!s}: {hint}")
        self._capture = capture
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._latest: Frame | None = None
        self._handed_index = -1
        self._connected = True
        self._reconnects = 0
        self._attempts = 0  # tries to reopen it in the current outage
        self._start = clock()
        self._last_good = self._start  # of the newest good frame: a stalled read is noticed from it
        stream = isinstance(spec, str) and "://" in spec
        self._join_timeout_s = (STREAM_OPEN_TIMEOUT_MS + STREAM_READ_TIMEOUT_MS) / 1000 + 1.0 if stream else 5.0
        self._thread = threading.Thread(target=self._run, name=f"sandtable-capture-{spec}", daemon=True)
        self._thread.start()

    # -- the capture thread -------------------------------------------------------------------
    def _run(self) -> None:
        index = 0
        last_good = self._clock()
        while not self._stop.is_set():
            try:
                ok, image = self._capture.read()
            except Exception:  # a driver error is a dropout like any other
                ok, image = False, None
            now = self._clock()
            if ok and image is not None:
                last_good = now
                frame = Frame(image_bgr=image, index=index, t_s=now - self._start)
                index += 1
                with self._cond:
                    self._latest = frame
                    self._connected = True
                    self._attempts = 0
                    self._last_good = now
                    self._cond.notify_all()
                continue
            if now - last_good < self.dropout_after_s:
                self._stop.wait(0.005)  # a transient read failure: try again shortly
                continue
            with self._cond:
                self._connected = False
                self._cond.notify_all()
            self._reopen()
            last_good = self._clock()
        self._release()  # here, on its own thread: never while a read is still running

    def _release(self) -> None:
        try:
            self._capture.release()
        except Exception:
            pass

    def _reopen(self) -> None:
        try:
            self._capture.release()
        except Exception:
            pass
        while not self._stop.wait(self.retry_interval_s):
            with self._cond:
                self._attempts += 1
            try:
                capture = self._factory(self.spec)
            except Exception:
                continue
            if capture is not None and capture.isOpened():
                self._capture = capture
                self._reconnects += 1
                return
            if capture is not None:
                capture.release()

    # -- the consumer side --------------------------------------------------------------------
    @property
    def frame_count(self) -> int | None:
        return None

    @property
    def connected(self) -> bool:
        """False once no frame has come for ``dropout_after_s``: a stream that stalls (its read blocked,
        nothing failing) is noticed as soon as one that fails."""
        with self._cond:
            return self._connected and self._clock() - self._last_good < self.dropout_after_s

    @property
    def now_t_s(self) -> float:
        """The time now on this source's frames' clock (``Frame.t_s``): when a change of state is noticed."""
        return self._clock() - self._start

    @property
    def reopen_attempts(self) -> int:
        """Tries to open the camera again since it was last delivering (0 while it delivers)."""
        with self._cond:
            return self._attempts

    @property
    def outage_s(self) -> float:
        """How long since the newest good frame (or since the camera was opened)."""
        with self._cond:
            return max(0.0, self._clock() - self._last_good)

    @property
    def reconnects(self) -> int:
        """How many times the camera was reopened after dropping out."""
        return self._reconnects

    def latest_frame(self, timeout_s: float) -> Frame | None:
        """The newest frame not handed over yet, waiting up to ``timeout_s``; None if none came."""
        deadline = self._clock() + max(0.0, timeout_s)
        with self._cond:
            while not self._stop.is_set():
                latest = self._latest
                if latest is not None and latest.index > self._handed_index:
                    self._handed_index = latest.index
                    return latest
                remaining = deadline - self._clock()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)
        return None

    def read(self) -> Frame | None:
        """The next new frame, waiting as long as it takes; None only once the source is closed."""
        while not self._stop.is_set():
            frame = self.latest_frame(0.5)
            if frame is not None:
                return frame
        return None

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        # A read or an open in progress is waited for (FFmpeg's own timeouts bound them): a capture thread
        # still inside FFmpeg while the process exits can crash it on the way out.
        self._thread.join(timeout=self._join_timeout_s)
        # A read still blocked in the driver: the capture thread releases the camera when it returns.
        # Releasing it from here meanwhile crashed the process (a segfault on exit, stream stalled).
        if not self._thread.is_alive():
            self._release()

    def __enter__(self) -> "CameraSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _ReadAheadSource:
    """Base of the file-like sources: a producer thread fills a bounded queue, ``read()`` drains it."""

    is_live = False

    def __init__(self, name: str, *, fps: float, frame_count: int | None, read_ahead: int = 4) -> None:
        self.name = name
        self.fps = float(fps)
        self._frame_count = frame_count
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=max(1, read_ahead))
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._done = False
        self._thread = threading.Thread(target=self._produce, name=f"sandtable-read-{Path(name).name}", daemon=True)

    def _start(self) -> None:
        self._thread.start()

    def _frames(self) -> Any:  # an iterator of Frame, implemented by subclasses
        raise NotImplementedError

    def _produce(self) -> None:
        try:
            for frame in self._frames():
                if not self._put(frame):
                    return
        except BaseException as exc:  # handed to the reader, which re-raises it on its own thread
            self._error = exc
        self._put(_END)

    def _put(self, item: Any) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    @property
    def frame_count(self) -> int | None:
        return self._frame_count

    @property
    def connected(self) -> bool:
        return True

    def read(self) -> Frame | None:
        if self._done:
            return None
        item = self._queue.get()
        if item is _END:
            self._done = True
            if self._error is not None:
                raise self._error
            return None
        return item

    def latest_frame(self, timeout_s: float) -> Frame | None:  # files: every frame, in order
        return self.read()

    def close(self) -> None:
        self._stop.set()
        while True:  # unblock a producer waiting on a full queue
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)

    def __enter__(self) -> "_ReadAheadSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def gray_video_frames(path: str | Path, *, threaded: bool = True) -> Iterator[np.ndarray]:
    """Each frame of a video file as a grey image, straight from the decoder: the luma plane of a YUV
    video as it was decoded (a view, no colour conversion, no copy; about half a 4K frame's decode time
    goes into the conversion to BGR). Other pixel formats are converted to grey.

    ``threaded``: FFmpeg decodes several frames at once on the cores it has (False: one frame at a
    time, on the caller's thread, so that its cost can be timed)."""
    import av

    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        if threaded:
            stream.thread_type = "AUTO"
        else:
            stream.codec_context.thread_count = 1
        for frame in container.decode(stream):
            if frame.format.name in ("yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "yuvj444p", "nv12", "gray"):
                plane = frame.planes[0]
                yield np.frombuffer(plane, np.uint8).reshape(frame.height, plane.line_size)[:, : frame.width]
            else:
                yield frame.to_ndarray(format="gray")


class VideoFileSource(_ReadAheadSource):
    """Every frame of a video file, in order; ``t_s`` = index / fps (the file's, or ``fps`` if given).

    ``gray=True``: frames are grey images straight from the decoder (:func:`gray_video_frames`), for
    tracking alone (``Frame.image_bgr`` is then 2-D): no colour conversion, half a 4K frame's decoding.
    """

    def __init__(self, path: str | Path, *, fps: float | None = None, read_ahead: int = 4, gray: bool = False) -> None:
        import cv2

        path = Path(path)
        if not path.is_file():
            raise SourceError(f"no video file at '{path}'; check the path")
        capture = cv2.VideoCapture(str(path))
        if not capture.isOpened():
            raise SourceError(
                f"cannot open '{path}' as a video: OpenCV could not decode it; convert it to MP4 (H.264) "
                "or give a folder of images"
            )
        file_fps = capture.get(cv2.CAP_PROP_FPS) or 0.0
        count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        super().__init__(
            str(path), fps=fps or (file_fps if file_fps > 0 else 30.0), frame_count=count or None, read_ahead=read_ahead
        )
        self._capture = capture
        self._path = path
        self.gray = bool(gray)
        if self.gray:
            capture.release()  # opened only to check the file and read its rate and length
        self._start()

    def _frames(self) -> Any:
        index = 0
        if self.gray:
            for image in gray_video_frames(self._path):
                if self._stop.is_set():
                    return
                yield Frame(image_bgr=image, index=index, t_s=index / self.fps)
                index += 1
            return
        try:
            while not self._stop.is_set():
                ok, image = self._capture.read()
                if not ok or image is None:
                    return
                yield Frame(image_bgr=image, index=index, t_s=index / self.fps)
                index += 1
        finally:
            self._capture.release()


def _natural_key(path: Path) -> list[Any]:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class ImageFolderSource(_ReadAheadSource):
    """Every image of a folder (png, jpg, bmp, tif, webp) in natural order (frame2 before frame10)."""

    def __init__(self, path: str | Path, *, fps: float | None = None, read_ahead: int = 4) -> None:
        path = Path(path)
        if not path.is_dir():
            raise SourceError(f"no folder at '{path}'; check the path")
        files = sorted((p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=_natural_key)
        if not files:
            raise SourceError(
                f"folder '{path}' holds no images ({', '.join(IMAGE_SUFFIXES)}); point at the folder with the frames"
            )
        super().__init__(str(path), fps=fps or DEFAULT_FOLDER_FPS, frame_count=len(files), read_ahead=read_ahead)
        self.files: tuple[Path, ...] = tuple(files)
        self._start()

    def _frames(self) -> Any:
        for index, file in enumerate(self.files):
            if self._stop.is_set():
                return
            try:
                image = read_image(file)
            except SourceError as exc:
                raise SourceError(f"{exc}; or remove it from the folder") from None
            yield Frame(image_bgr=image, index=index, t_s=index / self.fps)


class SyntheticSource(_ReadAheadSource):
    """Frames rendered by the synthetic table from a scenario file, with ground truth in ``Frame.truth``."""

    def __init__(self, scenario: Any, *, read_ahead: int = 2, max_frames: int | None = None) -> None:
        from calibration.synthetic import load_synthetic_scenario

        if isinstance(scenario, (str, Path)):
            path = Path(scenario)
            if not path.is_file():
                raise SourceError(f"no scenario file at '{path}'; check the path")
            name = str(path)
            scenario = load_synthetic_scenario(path)
        else:
            name = "synthetic table"
        self.scenario = scenario
        count = int(scenario.frame_count)
        if max_frames is not None:
            count = min(count, int(max_frames))
        super().__init__(name, fps=float(scenario.fps), frame_count=count, read_ahead=read_ahead)
        self._start()

    def _frames(self) -> Any:
        for index in range(self.frame_count or 0):
            if self._stop.is_set():
                return
            rendered = self.scenario.render_frame(index)
            yield Frame(image_bgr=rendered.image_bgr, index=index, t_s=index / self.fps, truth=tuple(rendered.truth))


class ArraySource(_ReadAheadSource):
    """Frames from images already in memory (tests, demos); ``t_s`` = index / fps."""

    def __init__(self, images: Sequence[np.ndarray], *, fps: float = 30.0, name: str = "images") -> None:
        super().__init__(name, fps=fps, frame_count=len(images), read_ahead=2)
        self._images = list(images)
        self._start()

    def _frames(self) -> Any:
        for index, image in enumerate(self._images):
            yield Frame(image_bgr=image, index=index, t_s=index / self.fps)


def open_source(spec: str | int, *, fps: float | None = None, gray: bool = False,
                rtsp_transport: str | None = None) -> Any:
    """The frame source a user means by ``spec``.

    An integer (``0``) is a camera index; a URL (``rtsp://``, ``http://``) a camera stream; a folder a
    folder of images; a ``.toml`` file a synthetic scenario; ``.sqlite``/``.db``/``.sandtable`` a
    recording to replay; any other file a video. ``gray``: a video file gives its frames grey, straight
    from the decoder (for tracking alone; other sources give what they have). ``rtsp_transport``:
    "tcp" or "udp" for an ``rtsp://`` camera.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CameraSource(int(spec), fps=fps or 30.0)
    text = str(spec)
    if "://" in text:
        return CameraSource(text, fps=fps or 30.0, rtsp_transport=rtsp_transport)
    path = Path(text).expanduser()
    if path.is_dir():
        return ImageFolderSource(path, fps=fps)
    if not path.exists():
        raise SourceError(
            f"no file or folder '{text}'; give a camera index (0), a stream URL, a video, a folder of images, "
            "a scenario .toml or a recording"
        )
    suffix = path.suffix.lower()
    if suffix == ".toml":
        return SyntheticSource(path)
    if suffix in RECORDING_SUFFIXES:
        from tracker.replay import ReplaySource

        return ReplaySource(path)
    if suffix in IMAGE_SUFFIXES:
        return _single_image(path)
    return VideoFileSource(path, fps=fps, gray=gray)


def _single_image(path: Path) -> ArraySource:
    image = read_image(path)
    return ArraySource([image], name=str(path))
