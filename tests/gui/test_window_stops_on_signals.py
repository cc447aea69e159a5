"""SIGTERM to the window (a service manager, `kill`) closes it as the user would - exit code 0, the
settings saved - instead of killing the process mid-write."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_sigterm_closes_the_window_cleanly(tmp_path):
    settings = tmp_path / "settings.ini"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "gui", "--settings", str(settings)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(10)  # the window is up
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err  # closed by the handler; the default action would be -15
    assert "Traceback" not in err
    assert settings.is_file()  # written by the window's close, which the default action would skip
