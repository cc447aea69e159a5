"""A camera stream that stalls (the connection stays open, no frame comes) and one that is killed,
served for real over HTTP on loopback as an MJPEG camera serves it: the stall is noticed within a
second or two, and closing the source in that state ends the process cleanly (it used to crash)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Runs in a process of its own, so that a crash on exit shows as its exit status.
SCRIPT = textwrap.dedent("""
    import sys, threading, time
    import http.server, socketserver
    import cv2, numpy as np
    sys.path.insert(0, sys.argv[1])
    from tracker.sources import CameraSource

    mode = sys.argv[2]
    stall = threading.Event()   # from now on the server sends nothing (and keeps the connection open)
    done = threading.Event()
    jpeg = cv2.imencode(".jpg", np.full((120, 160, 3), 90, np.uint8))[1].tobytes()

    class Camera(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            try:
                for _ in range(30 * 60):  # bounded: a minute of frames at most
                    if stall.is_set():
                        if mode == "killed":
                            return  # the camera went away: the connection closes
                        done.wait(60)  # stalled: open, silent
                        return
                    self.wfile.write(b"--frame\\r\\nContent-Type: image/jpeg\\r\\nContent-Length: "
                                     + str(len(jpeg)).encode() + b"\\r\\n\\r\\n" + jpeg + b"\\r\\n")
                    time.sleep(1 / 30)
            except OSError:
                pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Camera)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    source = CameraSource(f"http://127.0.0.1:{server.server_address[1]}/stream.mjpg", retry_interval_s=0.5)
    frames = 0
    deadline = time.monotonic() + 30
    while frames < 10 and time.monotonic() < deadline:
        frames += source.latest_frame(1.0) is not None
    assert frames >= 10, "no frames from the stream"
    stall.set()
    stalled_at = time.monotonic()
    if mode == "closed while stalled":  # the window closed at once, the read still blocked
        time.sleep(0.5)
    else:
        while source.connected and time.monotonic() < stalled_at + 30:
            time.sleep(0.02)
    print(f"noticed {time.monotonic() - stalled_at:.2f}", flush=True)
    source.close()   # in the stalled (or reconnecting) state
    done.set()
    print("closed", flush=True)
""")


@pytest.mark.parametrize("mode", ["stalled", "killed", "closed while stalled"])
def test_a_stream_that_stalls_or_is_killed_is_noticed_promptly_and_closing_it_then_exits_cleanly(mode: str) -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT), mode], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"exit {run.returncode}: {run.stderr[-2000:]}"
    lines = run.stdout.split()
    assert lines[-1] == "closed"
    noticed_s = float(lines[lines.index("noticed") + 1])
    # The source's own threshold is 1 s without a frame; a busy machine may add to it, never the
    # 30 s FFmpeg would wait on its own.
    assert noticed_s < 10.0
