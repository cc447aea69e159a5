"""Every command that opens a window says in one line why it cannot (no display, an X server that does
not answer, Qt's system libraries missing) instead of Qt aborting the process; pictures of windows need
no screen at all. The commands run as a user runs them: the installed `sandtable`, in its own process."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cli.display_check import debian_packages, missing_libraries, window_problem, x_display_reachable

SANDTABLE = Path(sys.executable).with_name("sandtable")


def run_sandtable(*argv: str, env_changes: dict[str, str | None], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for key in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        env.pop(key, None)
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([str(SANDTABLE), *argv], capture_output=True, text=True, env=env, cwd=cwd, timeout=240)


def assert_one_line_refusal(result: subprocess.CompletedProcess, *words: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])  # 134 is Qt's abort
    assert "Traceback" not in result.stderr and "Aborted" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from tracker.unit_pose import UnitPose, UnitState

    path = tmp_path_factory.mktemp("rec") / "game.sqlite"
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3)
    recorder = session.start_recording(path)
    for i in range(3):
        recorder.record_frame(i, float(i), [UnitPose(10, "Sergeant", "Marines", 18.0 + i, 21.0, 1.0, 0.0,
                                                     UnitState.SEEN, float(i), float(i))])
    session.stop_recording()
    return path


def free_display_number() -> int:
    for number in range(80, 200):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not x_display_reachable(f":{number}", timeout_s=0.2):
            return number
    raise RuntimeError("no free X display number")


@pytest.mark.parametrize("argv", [("gui", "--settings", "{settings}"), ("replay", "{recording}", "--settings", "{settings}"),
                                  ("run", "--camera", "0", "--settings", "{settings}"), ("demo", "--window")])
def test_window_commands_without_a_display_say_so_in_one_line(argv, recording, tmp_path):
    argv = tuple(a.format(recording=recording, settings=tmp_path / "s.ini") for a in argv)
    result = run_sandtable(*argv, env_changes={}, cwd=tmp_path)
    assert_one_line_refusal(result, "no display")


@pytest.mark.parametrize("argv", [("gui",), ("replay", "{recording}")])
def test_window_commands_with_a_display_nobody_answers_at_say_so(argv, recording, tmp_path):
    number = free_display_number()
    argv = tuple(a.format(recording=recording) for a in argv)
    result = run_sandtable(*argv, "--settings", str(tmp_path / "s.ini"), env_changes={"DISPLAY": f":{number}"},
                           cwd=tmp_path)
    assert_one_line_refusal(result, f"DISPLAY=:{number}")


def test_gui_screenshot_needs_no_display_and_no_qt_setting(tmp_path):
    from PySide6.QtGui import QImage

    out = tmp_path / "window.png"
    result = run_sandtable("gui", "--screenshot", str(out), "--size", "1366x768", "--settings",
                           str(tmp_path / "s.ini"), env_changes={}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)
    pixels = np.array([image.pixelColor(x, y).lightness() for x in range(0, 1366, 37) for y in range(0, 768, 29)])
    assert pixels.std() > 10  # a drawn window, not a blank picture


def test_replay_screenshot_needs_no_display(recording, tmp_path):
    out = tmp_path / "replay.png"
    result = run_sandtable("replay", str(recording), "--screenshot", str(out), "--settings", str(tmp_path / "s.ini"),
                           env_changes={}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert out.stat().st_size > 10_000


def test_missing_qt_libraries_name_the_debian_packages_to_install():
    ldd = ("\tlinux-vdso.so.1 (0x00007ffd)\n\tlibQt6XcbQpa.so.6 => /x/libQt6XcbQpa.so.6 (0x1)\n"
           "\tlibxcb-cursor.so.0 => not found\n\tlibxcb-icccm.so.4 => not found\n"
           "\tlibxkbcommon-x11.so.0 => not found\n\tlibxcb-icccm.so.4 => not found\n")
    missing = missing_libraries(ldd)
    assert missing == ["libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxkbcommon-x11.so.0"]
    assert debian_packages(missing) == ["libxcb-cursor0", "libxcb-icccm4", "libxkbcommon-x11-0"]


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb to stand in for a desktop")
def test_on_a_desktop_missing_qt_libraries_are_named_or_the_window_check_passes(tmp_path):
    """Under a real X server: the check's verdict must match what Qt does. Where it names missing
    libraries, Qt itself refuses to start (and `gui` says so in one line instead of aborting); where
    it finds none, Qt starts."""
    number = free_display_number()
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1366x768x24"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):
            if x_display_reachable(f":{number}", timeout_s=0.2):
                break
            subprocess.run(["sleep", "0.1"], check=False)
        env = {"DISPLAY": f":{number}"}
        problem = window_problem(env, platform="linux")
        qt = subprocess.run([sys.executable, "-c", "from PySide6.QtWidgets import QApplication; QApplication([])"],
                            capture_output=True, text=True, env={**os.environ, **env, "QT_QPA_PLATFORM": "xcb"},
                            timeout=60)
        if problem is None:
            assert qt.returncode == 0, qt.stderr
        else:
            assert qt.returncode != 0  # Qt really cannot start here
            assert "sudo apt install lib" in problem
            result = run_sandtable("gui", "--settings", str(tmp_path / "s.ini"), env_changes=env, cwd=tmp_path)
            assert_one_line_refusal(result, "sudo apt install", "missing system libraries")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_an_x_display_that_answers_is_reachable():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        if port < 6000:
            pytest.skip("the free port is below X's range")
        assert x_display_reachable(f"127.0.0.1:{port - 6000}")
    assert not x_display_reachable(f"127.0.0.1:{port - 6000}", timeout_s=0.5)
