"""From the session to the server: every change becomes a new scene, built off the session's thread.

The session is single-threaded (the UI thread or the demo loop owns it). On each ``changed`` signal the
feed takes what a scene is made of — the session's frozen :meth:`snapshot_inputs` and its log — which
costs microseconds, and hands it to its own builder thread through a one-slot mailbox: a newer change
replaces one not yet built, so the builder never falls behind the game. The builder makes the
snapshot, the draw items and the scene JSON and publishes it. Nobody watching: nothing is built.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from classview.scene import LABEL_SCALES, SceneBuilder, class_layers, scene_bytes

#: The builder makes at most one scene per this many seconds (a unit carried at 30 fps still reaches
#: the page every 50 ms, well inside the 200 ms the class notices).
MIN_INTERVAL_S = 0.04


class ClassViewFeed:
    """Follows ``session`` and calls ``publish(scene_json_bytes)`` from its builder thread.

    ``wanted()``: whether anyone watches (a server's viewer count); when not, changes are only noted
    and the next viewer's arrival (:meth:`wake`) builds the scene."""

    def __init__(self, session: Any, publish: Callable[[bytes], None], *, toggles: Any = None,
                 wanted: Callable[[], bool] | None = None) -> None:
        self.session = session
        self.publish = publish
        self.builder = SceneBuilder(class_layers(toggles), scales=LABEL_SCALES)  # phones too
        self.wanted = wanted or (lambda: True)
        self._cond = threading.Condition()
        self._pending: tuple[Any, tuple[Any, ...]] | None = None
        self._latest: tuple[Any, tuple[Any, ...]] | None = None
        self._built: tuple[Any, tuple[Any, ...]] | None = None
        self._closed = False
        self.built = 0
        self.last_build_s = 0.0
        #: Processor time the builder thread has spent making scenes, seconds (the bench's figure).
        self.cpu_s = 0.0
        self._disconnect = session.changed.connect(self._on_change)
        self._thread = threading.Thread(target=self._run, name="class view scenes", daemon=True)
        self._thread.start()
        self.poke()

    def set_toggles(self, projector_toggles: Any) -> None:
        """The instructor changed "what the players see" (the settings' overlay toggles): the class sees it too."""
        with self._cond:
            self.builder.set_layers(class_layers(projector_toggles))
        self.poke()

    def _on_change(self, kind: str = "") -> None:
        self.poke()

    def poke(self) -> None:
        """Take the session as it is now (call on the session's thread); built at once if anyone watches."""
        item = (self.session.snapshot_inputs(), tuple(self.session.log[-60:]))
        with self._cond:
            self._latest = item
            if self.wanted():
                self._pending = item
                self._cond.notify()

    def wake(self) -> None:
        """A viewer arrived (any thread): build the newest scene if the last one built is older."""
        with self._cond:
            if self._latest is not None and self._latest is not self._built:
                self._pending = self._latest
                self._cond.notify()

    def _run(self) -> None:
        last = 0.0
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
            wait = MIN_INTERVAL_S - (time.monotonic() - last)
            if wait > 0:
                time.sleep(wait)  # changes arriving meanwhile replace the pending one
            with self._cond:
                item, self._pending = self._pending, None
            if item is None:
                continue
            last = time.monotonic()
            cpu = time.thread_time()
            inputs, log = item
            try:
                with self._cond:
                    builder = self.builder
                scene = builder.scene(inputs.build(), log)
                self.publish(scene_bytes(scene))
                self._built = item
            except Exception as exc:  # a scene that fails must not stop the next one
                import sys

                print(f"class view: a scene could not be built ({type(exc).__name__}: {exc})", file=sys.stderr)
            self.built += 1
            self.last_build_s = time.monotonic() - last
            self.cpu_s += time.thread_time() - cpu

    def close(self) -> None:
        self._disconnect()
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=5)
