"""Small things a new user meets first: `sandtable --version`, and a progress bar that never claims a
million frames a second and says how long is left."""
from __future__ import annotations

import io
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

SANDTABLE = Path(sys.executable).with_name("sandtable")


def test_version_prints_the_installed_version():
    result = subprocess.run([str(SANDTABLE), "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.strip() == f"sandtable {version('sandtable-companion')}"


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def last_line(stream: io.StringIO) -> str:
    return stream.getvalue().split("\r")[-1]


def test_the_progress_bar_gives_no_rate_before_a_second_then_rate_and_time_left():
    from cli.commands.demo import _ProgressBar

    clock, stream = Clock(), io.StringIO()
    bar = _ProgressBar(stream=stream, clock=clock)
    clock.t += 0.000001
    bar.update("rendering frames", 1, 1000)  # the first frame, microseconds after the start
    assert "/s" not in last_line(stream) and "left" not in last_line(stream)
    clock.t += 2.0
    bar.update("rendering frames", 101, 1000)  # 100 frames in 2 s
    line = last_line(stream)
    assert "101/1000" in line and ", 50.0/s, 0:18 left" in line  # 899 frames at 50/s
    clock.t += 20.0
    bar.update("rendering frames", 1000, 1000)
    assert "left" not in last_line(stream)
    bar.done()
    assert stream.getvalue().endswith("\n")
