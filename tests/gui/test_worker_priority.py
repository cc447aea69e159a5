"""The views' workers run at a lower OS priority than the UI and tracking threads (Linux), so the
threads a frame starts on win the cores; the rest of the program keeps its own priority."""
from __future__ import annotations

import os
import sys
import threading

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.compositor import Compositor, ensure_qt_app
from gui.overlay_worker import WORKER_NICENESS, BackgroundWorker, OverlayWorker

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own priority is Linux's")


def own_niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.parametrize("kind", [OverlayWorker, BackgroundWorker])
def test_a_views_worker_runs_nicer_and_the_ui_thread_keeps_its_priority(kind):
    ensure_qt_app()
    before = own_niceness(), os.getpriority(os.PRIO_PROCESS, 0)
    if before[0] >= 19:
        pytest.skip("the tests already run at the lowest priority")
    worker = kind(Compositor())
    try:
        worker.submit(own_niceness)
        assert worker.wait_idle(30.0)
        assert worker.latest() == min(19, before[0] + WORKER_NICENESS) != before[0]
    finally:
        worker.stop()
    assert (own_niceness(), os.getpriority(os.PRIO_PROCESS, 0)) == before  # this thread and the process as they were
