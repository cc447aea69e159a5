"""The demo in the companion's window runs on the live-tracking loop (DemoLive is a LiveTracking whose
frames come from the story): its frames are tracked on the `sandtable-demo` thread, the story's beats
reach the session, a recording switched on mid-story gets the tracked poses, and stopping joins the
thread."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


class _Recorder:
    """Stands in for tracker.recording.Recorder: what the live loop hands it."""

    def __init__(self) -> None:
        self.frames: list[tuple[int, float, int, object]] = []
        self.events: list[object] = []

    def record_event(self, event: object) -> None:
        self.events.append(event)

    def record_frame(self, frame_index: int, t_s: float, poses: tuple[object, ...], image_bgr: object = None) -> None:
        self.frames.append((frame_index, t_s, len(poses), image_bgr))


def test_the_windowed_demo_tracks_the_story_and_stops_cleanly(qtbot) -> None:
    from gui.demo.window import open_demo_window

    window, live = open_demo_window(until="6.1", realtime=False, pause_at_end=True)
    qtbot.addWidget(window)
    assert live.running and live._thread.name == "sandtable-demo"
    recorder = _Recorder()
    live.set_recorder(recorder, video=True)  # the demo never stores its footage

    seen = []

    def paused_at_the_end() -> bool:
        update = live.poll()
        if update.tracked is not None:
            seen.append(update.tracked.t_s)
        return live.paused and update.error is None

    qtbot.waitUntil(paused_at_the_end, timeout=60000)
    assert live.frames_processed > 10 and seen == sorted(seen)
    assert recorder.frames and all(image is None for *_, image in recorder.frames)
    assert any(n > 0 for _, _, n, _ in recorder.frames)
    # The story played its beats on the session: the initiative was rolled, a turn started.
    assert window.session.state.round == 1 and window.session.state.active_side == "Marines"
    live.stop()
    assert not live.running
    window.close()
