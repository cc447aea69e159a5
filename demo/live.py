"""The demo in the companion's window: footage and tracking on a thread, the story's beats on the UI thread.

:class:`DemoLive` is a :class:`appmodel.tracking.live_tracking.LiveTracking` whose frames come from the story, so
the :class:`~gui.main_window.MainWindow` drives it like a camera: a thread (``sandtable-demo``) renders
the synthetic webcam's frames at the story's pace and tracks them; ``poll()`` hands the UI the newest
frame and tracked poses, and first plays the story's beats that are due by that frame (on the UI
thread, which owns the session). The window then applies the tracked poses itself, exactly as in a
live game. ``pause()`` stops the story clock; requests that touch the tracker (a turn started,
recording switched on) are queued and run on the thread between two frames. Qt-free.
"""
from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

from demo.director import DemoDirector, poses_for_session
from appmodel.tracking.live_tracking import LiveTracking, LiveUpdate


class DemoLive(LiveTracking):
    """Plays ``story`` frame by frame (mutable; ``stop()`` joins the thread).

    ``realtime``: pace frames at the story's frame rate (a machine too slow for it plays in slow
    motion; nothing is skipped). ``stop_at_s``: pause once the story reaches this time (screenshots).
    """

    def __init__(self, story: Any, camera: Any, tracker: Any, director: DemoDirector, *, realtime: bool = True,
                 stop_at_s: float | None = None) -> None:
        super().__init__(None, tracker, realtime=realtime, thread_name="sandtable-demo")
        self.story = story
        self.camera = camera
        self.director = director
        self.stop_at_s = stop_at_s
        self._running = threading.Event()
        self._running.set()
        self.story_t_s = 0.0

    # -- the story clock --------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self.stop_at_s = None if self.stop_at_s is not None and self.story_t_s >= self.stop_at_s else self.stop_at_s
        self._running.set()

    def toggle_pause(self) -> bool:
        """Pause or resume; returns True when now paused."""
        if self.paused:
            self.resume()
        else:
            self.pause()
        return self.paused

    #: The story's last frame is its end, not a camera failing.
    end_words = "The demo has ended"

    @property
    def finished(self) -> bool:
        return self._finished

    # -- requests from the UI thread (the window calls these as it does for a camera) ---------------
    records_video = False  # the demo's footage is the story's, rendered again at will

    def set_recorder(self, recorder: Any | None, *, video: bool = False) -> None:
        """Record frames' poses and the tracker's events to ``recorder`` from the next frame on (the
        demo's footage is rendered again from the story, never stored)."""
        super().set_recorder(recorder, video=False)

    # -- the UI's poll ----------------------------------------------------------------------------
    def poll(self) -> LiveUpdate:
        """The newest frame and poses (older ones are dropped) and every event since the last poll;
        the story's beats due by that frame are played on the session first."""
        frame, tracked, events = self._take()
        if tracked is not None:
            self.director.session.set_time(tracked.t_s)
            self.director.advance(tracked.t_s)
            tracked = replace(tracked, poses=tuple(poses_for_session(tracked.poses)))
        elif self._finished and not self.director.finished and self.stop_at_s is None:
            self.director.advance(float("inf"))
        return LiveUpdate(frame, tracked, events, self._error, self._finished,
                          *(self._timing if tracked is not None else (None, None)))

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        self._running.set()  # a paused story wakes up to see the stop
        super().stop(timeout_s)
        self.tracker.close()

    # -- the demo thread --------------------------------------------------------------------------
    def _run(self) -> None:
        from tracker.sources import SyntheticSource

        fps = self.story.timing.fps
        clock_start = time.monotonic()
        source = None
        try:
            # Rendering runs ahead in the source's own thread while this one tracks (two cores).
            source = SyntheticSource(self.camera.scenario, read_ahead=2)
            while not self._stop.is_set():
                if not self._running.is_set():
                    paused_at = time.monotonic()
                    while not self._running.wait(0.1):
                        if self._stop.is_set():
                            return
                    clock_start += time.monotonic() - paused_at  # the story clock stood still
                    continue
                self._run_commands()
                frame = source.read()
                if frame is None:
                    break
                self._track(frame)
                self.story_t_s = frame.t_s
                if self.stop_at_s is not None and frame.t_s >= self.stop_at_s:
                    self._running.clear()
                if self.realtime:
                    wait = (frame.t_s + 1.0 / fps) - (time.monotonic() - clock_start)
                    if wait > 0 and self._stop.wait(wait):
                        return
        except Exception as exc:  # shown in the status bar; the game in the window is kept
            self._error = f"the demo stopped: {exc}"
        finally:
            if source is not None:
                source.close()
            self._finished = True


__all__ = ["DemoLive"]
