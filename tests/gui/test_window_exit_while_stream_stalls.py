"""The real window (`sandtable gui --source URL`, offscreen) tracking a live MJPEG stream served on
loopback, closed (SIGTERM closes it as a user would) while the stream is stalled and while it is being
reconnected: the process ends with exit 0, never a segmentation fault (`run --camera URL` used to end
with exit 139 in that state, 7 runs of 7). What the test waits for is what the server sees (frames
sent, the stall reached, a reconnect accepted), never a time."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
from test_track_stream_outage import WAIT_S, MjpegCamera  # noqa: E402  (the same loopback camera)

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "data" / "tracker_occlusion.toml"


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> tuple[bytes, Path]:
    """A frame of a synthetic table as the camera's JPEG, and that camera's table calibration."""
    import cv2

    from calibration.files import save_table_calibration
    from calibration.synthetic import load_synthetic_scenario
    from calibration.table_calibration import TableCalibration

    scenario = load_synthetic_scenario(SCENARIO)
    path = tmp_path_factory.mktemp("table") / "table.json"
    save_table_calibration(TableCalibration(scenario.table.model, scenario.table.pose, scenario.layout, residual_in=0.0), path)
    return cv2.imencode(".jpg", scenario.render_frame(0).image_bgr)[1].tobytes(), path


def _wait(predicate, what: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if predicate():
            return
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"{what} never happened; exit {process.wait(WAIT_S)}: {process.stderr.read()[-2000:]}")


def _window(command: str, url: str, calibration: Path, tmp_path: Path) -> subprocess.Popen:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if command == "gui":
        args = ["gui", "--source", url]
    else:  # as in the report: a recording with its video, closed before the window
        args = ["run", "--camera", url, "--record", str(tmp_path / "game.sqlite"), "--video"]
    args += ["--calibration", str(calibration), "--scenario", str(SCENARIO), "--settings", str(tmp_path / "settings.ini")]
    return subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _close(window: subprocess.Popen) -> tuple[int, str]:
    window.send_signal(signal.SIGTERM)  # closes the window as the user would (gui/app.py)
    try:
        _, err = window.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        window.kill()
        raise AssertionError("the window did not close") from None
    return window.returncode, err


@pytest.mark.parametrize("state", ["stalled", "reconnecting"])
@pytest.mark.parametrize("command", ["run", "gui"])
def test_the_window_closes_cleanly_while_its_stream_is_stalled_or_reconnecting(command: str, state: str, table,
                                                                                tmp_path: Path) -> None:
    jpeg, calibration = table
    camera = MjpegCamera(jpeg)
    window = _window(command, camera.url, calibration, tmp_path)
    silent: socket.socket | None = None
    try:
        _wait(lambda: camera.frames_sent >= 30, "30 frames sent to the window", window)
        camera.stall()
        _wait(camera.stall_reached.is_set, "the stall", window)
        if state == "reconnecting":
            # The camera's server gone, and in its place one that accepts and never answers: the
            # window's reopen waits inside OpenCV's open (up to its timeout) when it is closed.
            port = camera.port
            camera.kill()
            silent = socket.create_server(("127.0.0.1", port))
            silent.settimeout(WAIT_S)
            accepted, _ = silent.accept()  # the window is reconnecting now
            accepted.settimeout(WAIT_S)
        code, err = _close(window)
    finally:
        camera.kill()
        if silent is not None:
            silent.close()
        if window.poll() is None:
            window.kill()
    assert "Segmentation fault" not in err and code != -signal.SIGSEGV and code != 139, err[-2000:]
    assert code == 0, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    if command == "run":  # the recording was kept, frames and all
        from tracker.recording import RecordingReader

        with RecordingReader(tmp_path / "game.sqlite") as reading:
            assert reading.frame_count > 0
