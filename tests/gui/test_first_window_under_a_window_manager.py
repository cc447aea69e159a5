"""Under a real window manager (openbox on Xvfb, a 1366x768 laptop's screen), the first `sandtable gui`
window fits the screen with its frame: the title bar on top and the status bar and the Log's buttons
above the screen's bottom edge, without maximizing (the title bar had pushed the bottom 20 px off)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from classview_helpers import wait_for

from cli.display_check import x_display_reachable

TOOLS = ("Xvfb", "openbox", "xdotool", "xprop", "xwininfo")
pytestmark = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason=f"needs {', '.join(TOOLS)} (apt-get install xvfb openbox xdotool x11-utils)")
PATIENCE_S = 120.0  # a deadline that only ends a broken test


def _start_x_server(started: list[subprocess.Popen]) -> int:
    """A 1366x768 Xvfb on a display number the server itself picks (-displayfd): two servers started at
    once (a parallel worker, another user's xvfb-run) can never race for one number."""
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd) as pipe:
        try:
            started.append(subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1366x768x24",
                                             "-nolisten", "tcp"], pass_fds=(write_fd,),
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        finally:
            os.close(write_fd)
        line = pipe.readline()  # the server writes its number once it listens (EOF if it died)
    if not line.strip().isdigit():
        raise RuntimeError("Xvfb did not start (no display number from -displayfd)")
    return int(line)


def _x(env: dict[str, str], *argv: str) -> str:
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=30).stdout


def _frame_box(env: dict[str, str], window: str) -> tuple[int, int, int, int] | None:
    """The window with its frame: (left, top, right, bottom) on the screen, once the window manager framed it."""
    info = _x(env, "xwininfo", "-id", window)  # (xdotool's position counts the frame in twice)
    extents = re.search(r"_NET_FRAME_EXTENTS\(CARDINAL\) = (\d+), (\d+), (\d+), (\d+)",
                        _x(env, "xprop", "-id", window, "_NET_FRAME_EXTENTS"))
    fields = [re.search(rf"{name}:\s+(-?\d+)", info) for name in ("Absolute upper-left X", "Absolute upper-left Y",
                                                                   "Width", "Height")]
    if not extents or not all(fields):
        return None
    left, right, top, bottom = map(int, extents.groups())
    x, y, w, h = (int(f[1]) for f in fields if f)
    return (x - left, y - top, x + w + right, y + h + bottom)


def test_the_first_window_and_its_frame_fit_a_1366x768_screen(tmp_path) -> None:
    started: list[subprocess.Popen] = []
    try:
        number = _start_x_server(started)
        env = {**os.environ, "DISPLAY": f":{number}", "HOME": str(tmp_path)}
        env.pop("QT_QPA_PLATFORM", None)
        wait_for(lambda: x_display_reachable(f":{number}", timeout_s=0.2)
                 and "_NET" not in _x(env, "xprop", "-root") and subprocess.run(
                     ["xprop", "-root"], env=env, capture_output=True, timeout=30).returncode == 0, what="the X server")
        started.append(subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(lambda: "window id" in _x(env, "xprop", "-root", "_NET_SUPPORTING_WM_CHECK"), what="openbox")
        gui = subprocess.Popen([sys.executable, "-m", "cli.main", "gui", "--settings", str(tmp_path / "s.ini")], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path)
        started.append(gui)
        assert gui.stdout is not None
        assert "the window is open" in gui.stdout.readline()
        def fitted():
            # the framed one of the application's windows (Qt also keeps a 1x1 leader window)
            boxes = [b for w in _x(env, "xdotool", "search", "--name", "Sandtable Companion").split()
                     if (b := _frame_box(env, w))]
            box = max(boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), default=None)
            return box if box and box[0] >= 0 and box[1] >= 0 and box[2] <= 1366 and box[3] <= 768 else None


        left, top, right, bottom = wait_for(fitted, what="the window and its frame to fit the screen")
        assert right - left >= 1300 and bottom - top >= 720  # and it still uses the screen
        # Closed (it saves its size) and opened again: the same size, still inside the screen.
        gui.terminate()
        assert gui.wait(timeout=PATIENCE_S) == 0
        again = subprocess.Popen([sys.executable, "-m", "cli.main", "gui", "--settings", str(tmp_path / "s.ini")],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path)
        started.append(again)
        assert again.stdout is not None and "the window is open" in again.stdout.readline()
        box = wait_for(fitted, what="the window opened again to fit the screen")
        assert box[2] - box[0] >= 1300 and box[3] - box[1] >= 720, box
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
