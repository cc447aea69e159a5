"""`sandtable track` on a live MJPEG stream served for real on loopback, as a phone app or an IP camera
serves it, while the stream stalls, its server is killed and started again: each change is a line of
its own in ``--jsonl`` (source_lost, source_retry with a count, source_back with the outage's length),
the tries to reconnect are counted on stderr, ``--give-up-after`` and ``--max-frames`` end a dead stream
with one line and exit 3, and the recording keeps everything tracked until then."""
from __future__ import annotations

import http.server
import json
import queue
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tracker.recording import RecordingReader

ROOT = Path(__file__).resolve().parents[2]
JPEG = cv2.imencode(".jpg", np.full((120, 160, 3), 90, np.uint8))[1].tobytes()
#: Every wait below is bounded by this; none of the assertions depends on how fast the machine is.
WAIT_S = 60.0


class MjpegCamera:
    """An MJPEG camera on loopback: ``serve`` frames, ``stall`` (connections open, silent), ``kill``
    (the server gone, connections closed) and ``start`` again on the same port."""

    def __init__(self, jpeg: bytes = JPEG) -> None:
        self.jpeg = jpeg
        self.stalled = threading.Event()
        self.killed = threading.Event()
        self.stall_reached = threading.Event()  # a connection is open and silent now
        self.frames_sent = 0
        self.port = 0
        self.server: socketserver.TCPServer | None = None
        self.start()

    def start(self) -> None:
        camera = self
        self.stalled.clear()
        self.killed.clear()
        self.stall_reached.clear()

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                try:
                    for _ in range(30 * 120):  # bounded: two minutes of frames at most
                        if camera.killed.is_set():
                            return
                        if camera.stalled.is_set():
                            camera.stall_reached.set()
                            camera.killed.wait(WAIT_S)  # open and silent until killed
                            return
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                         + str(len(camera.jpeg)).encode() + b"\r\n\r\n" + camera.jpeg + b"\r\n")
                        camera.frames_sent += 1
                        time.sleep(1 / 30)
                except OSError:
                    pass

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", self.port), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/video.mjpg"

    def stall(self) -> None:
        self.stalled.set()

    def kill(self) -> None:
        self.killed.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


class Track:
    """``sandtable track URL --jsonl ...`` in a process of its own, its stdout lines read as they come."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "cli.main", "track", *args, "--jsonl"], cwd=ROOT,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[dict] = []
        self._queue: queue.Queue[dict | None] = queue.Queue()
        self._stderr: list[str] = []
        self._stderr_done = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self._stderr.extend(self.process.stderr)
        self._stderr_done.set()

    @property
    def stderr(self) -> str:
        return "".join(self._stderr)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                self._queue.put(json.loads(line))
            except ValueError:
                self._queue.put({"not_json": line})
        self._queue.put(None)

    def until(self, predicate, what: str) -> dict:
        """The first line from now on for which ``predicate`` holds (the test fails after WAIT_S)."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=1.0)
            except queue.Empty:
                continue
            if line is None:
                break
            self.lines.append(line)
            if predicate(line):
                return line
        self.process.kill()
        self.process.wait(WAIT_S)
        raise AssertionError(f"no {what} line; stderr: {self.stderr[-2000:]}")

    def frames(self, count: int) -> None:
        seen = [0]

        def enough(line: dict) -> bool:
            seen[0] += "frame" in line and "type" not in line
            return seen[0] >= count
        self.until(enough, f"{count} frame")

    def finish(self) -> tuple[int, str]:
        try:
            self.process.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("sandtable track did not end") from None
        while True:
            line = self._queue.get(timeout=WAIT_S)
            if line is None:
                break
            self.lines.append(line)
        assert self.process.stderr is not None
        deadline = time.monotonic() + WAIT_S
        while not self.process.stderr.closed and time.monotonic() < deadline:
            time.sleep(0.05)  # the stderr reader reaches the end of the pipe
            if self._stderr_done.is_set():
                break
        return self.process.returncode, self.stderr


def _typed(lines: list[dict], kind: str) -> list[dict]:
    return [line for line in lines if line.get("type") == kind]


def test_a_killed_stream_is_retried_with_a_count_comes_back_and_give_up_after_ends_it_keeping_the_recording(tmp_path):
    camera = MjpegCamera()
    record = tmp_path / "game.sqlite"
    # Long enough for the restarted camera to be back on a busy machine (the test waits for what happens,
    # not for a time); the end then takes that long after the last kill.
    track = Track(camera.url, "--record", str(record), "--give-up-after", "12")
    try:
        track.frames(10)
        camera.kill()
        lost = track.until(lambda line: line.get("type") == "source_lost", "source_lost")
        last_frame = [line for line in track.lines if "type" not in line][-1]
        retries = [track.until(lambda line: line.get("type") == "source_retry", "source_retry") for _ in range(2)]
        assert [r["attempt"] for r in retries] == [1, 2]  # a count the user can follow
        camera.start()  # the phone app started again, same address
        back = track.until(lambda line: line.get("type") == "source_back", "source_back")
        track.frames(5)  # tracking resumed
        camera.kill()  # and now gone for good
        code, err = track.finish()
    finally:
        camera.kill()
        if track.process.poll() is None:
            track.process.kill()
    assert code == 3, err
    assert lost["camera"] == back["camera"] and "127.0.0.1" in lost["camera"]
    assert lost["t_s"] >= last_frame["t_s"]
    # The outage has its own length: from when it was noticed to when frames came again.
    assert back["outage_s"] == pytest.approx(back["t_s"] - lost["t_s"], abs=0.01) and back["outage_s"] > 0
    (gave_up,) = _typed(track.lines, "gave_up")
    assert gave_up["waited_s"] >= 12.0 and gave_up["attempts"] >= 1
    assert "reconnecting (attempt 1)" in err and "reconnecting (attempt 2)" in err
    last_line = err.strip().splitlines()[-1]  # one line says it gave up, then where the recording went
    assert "gave up: no frame from camera http://127.0.0.1" in err and last_line == f"recorded to {record}"
    assert "Traceback" not in err
    frames = [line for line in track.lines if "type" not in line]
    with RecordingReader(record) as reading:
        assert reading.frame_count == len(frames)  # every frame tracked was recorded
        kinds = [(e.kind.value, e.payload.get("outage_s")) for e in reading.events_between()]
    assert ("source_back", back["outage_s"]) in kinds and kinds.count(("source_lost", None)) == 2


def test_a_stalled_stream_is_a_jsonl_line_at_once_and_max_frames_ends_it_when_it_never_comes_back(tmp_path):
    camera = MjpegCamera()
    record = tmp_path / "game.sqlite"
    track = Track(camera.url, "--record", str(record), "--max-frames", "100000")
    try:
        track.frames(10)
        camera.stall()  # the connection stays open, nothing comes
        lost = track.until(lambda line: line.get("type") == "source_lost", "source_lost")
        code, err = track.finish()
    finally:
        camera.kill()
        if track.process.poll() is None:
            track.process.kill()
    frames = [line for line in track.lines if "type" not in line]
    # Noticed from the newest frame's time, on the stream's own clock: its threshold is 1 s; a busy
    # machine may add to it, never the 30 s FFmpeg would wait on its own.
    assert lost["t_s"] - frames[-1]["t_s"] < 10.0
    assert code == 3 and "gave up: no frame from camera" in err, err  # --max-frames' default: 10 s lost
    (gave_up,) = _typed(track.lines, "gave_up")
    assert gave_up["waited_s"] >= 10.0
    with RecordingReader(record) as reading:
        assert reading.frame_count == len(frames)
        assert [e.kind.value for e in reading.events_between()].count("source_lost") == 1


def test_max_frames_still_ends_a_live_stream_that_delivers(tmp_path):
    camera = MjpegCamera()
    try:
        track = Track(camera.url, "--max-frames", "15")
        code, err = track.finish()
    finally:
        camera.kill()
    assert code == 0, err
    assert len([line for line in track.lines if "type" not in line]) == 15
