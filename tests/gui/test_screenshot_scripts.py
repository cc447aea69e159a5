"""The screenshots the docs show can be made again from the real window: docs/screenshots/make_screenshots.py
(with panel_shots.py) drives the panels the way a player does, so a panel whose API changed breaks
it here rather than leaving the docs showing the old panel."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "docs" / "screenshots" / "make_screenshots.py"
#: What the script writes (its docstring and panel_shots.py's), each at the script's window size but the projector's.
WINDOW_SHOTS = ("main-camera-view.png", "attack-panel-odds.png", "attack-panel-resolved.png",
                "top-down-voice-chains.png", "turn-panel.png", "replay-timeline.png", "fof-cohesion-corridor.png",
                "generic-bands-scatter.png", "fof-attack-panel.png", "fof-turn-panel.png", "generic-attack-panel.png",
                "generic-turn-panel.png")


@pytest.mark.slow
def test_make_screenshots_writes_every_shot_the_docs_show(tmp_path):
    import cv2

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path / "out")], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in (*WINDOW_SHOTS, "projector-output.png"):
        image = cv2.imread(str(tmp_path / "out" / name))
        assert image is not None, f"{name} not written"
        if name in WINDOW_SHOTS:
            assert image.shape[:2] == (960, 1600), name
