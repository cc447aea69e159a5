"""What the window says about tracking (Qt-free): the camera's frames per second and delay, each unit's
state -- seen, stale, lost, lifted, never seen -- and why, the anchors' health, and whether the feed has
stopped. With several cameras also each camera's part: its frames per second, the anchors it sees, and
which cameras see each unit (a unit in a gap no camera sees is stale there, and says so).
:class:`TrackingMonitor` is fed every tracked frame the window takes from the live loop and
answers :meth:`TrackingMonitor.status` at any moment (a stalled feed shows as such without a new frame).

While a unit of the roster is never seen or lost, the monitor looks at a frame every
``SQUARES_EVERY_S`` for what the tracker did not report (``tracker.undecoded_squares.frame_notices``:
a tag whose white border was trimmed, a tag-like square too small or too blurred to decode), on a
thread of its own (the look takes tens of milliseconds), and the status says so, as ``detect`` does.
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Below this many pixels across, a tag is read unreliably (AprilTag's 36h11 cells get under 1.5 px).
SMALL_TAG_PX = 12.0
#: No frame for this long: the feed has stopped (a camera unplugged, a video at its end).
STALLED_AFTER_S = 2.0
#: Frames per second over this window of the latest frames.
FPS_WINDOW = 30
#: While a roster unit is missing, a frame is searched for undecoded tag-like squares this often.
SQUARES_EVERY_S = 5.0


@dataclass(frozen=True)
class UnitStatus:
    tag_id: int
    name: str
    state: str  # "seen", "stale", "lost", "lifted" or "never seen"
    tag_px: float | None  # the tag's edge in the last frame that saw it, pixels
    why: str  # a few words a player can act on
    cameras: tuple[str, ...] = ()  # with several cameras: the ones that see it now


@dataclass(frozen=True)
class AnchorStatus:
    tag_id: int
    seen: bool
    x_in: float
    y_in: float


@dataclass(frozen=True)
class CameraLine:
    """One camera's part, with several cameras."""

    name: str
    fps: float | None
    delivering: bool  # frames (or a node's detections) arrive
    anchors_seen: tuple[int, ...]
    units_seen: int
    drifting: bool = False
    message: str = ""
    #: A camera node's messages that were skipped (damaged, too big, another camera's name).
    bad_messages: int = 0
    #: Tries to reopen this camera since it was lost (0 while it delivers).
    reconnect_attempts: int = 0

    def text(self) -> str:
        bad = f" · {self.bad_messages} bad message{'s' if self.bad_messages != 1 else ''} skipped" if self.bad_messages else ""
        if not self.delivering:
            retry = f", reconnecting (attempt {self.reconnect_attempts})" if self.reconnect_attempts else ""
            return f"{self.name}: NO FEED{retry} (the other cameras keep tracking){bad}"
        parts = [f"{self.fps:.1f} fps" if self.fps else "— fps",
                 "anchors " + (", ".join(str(a) for a in self.anchors_seen) if self.anchors_seen else "none in view"),
                 f"{self.units_seen} unit{'s' if self.units_seen != 1 else ''} in view"]
        if self.drifting:
            parts.append("MOVED: re-registering from its anchors")
        elif self.message and not self.anchors_seen:
            parts.append(self.message)
        return f"{self.name}: " + " · ".join(parts) + bad


@dataclass(frozen=True)
class TrackingStatus:
    fps: float | None
    delay_s: float | None
    frames: int
    stalled: bool
    seconds_since_frame: float | None
    units: tuple[UnitStatus, ...]
    anchors: tuple[AnchorStatus, ...]
    #: What the last look at a frame found that the tracker did not report (one line each; see the module).
    undecoded: tuple[str, ...] = ()
    cameras: tuple[CameraLine, ...] = ()  # several cameras only
    #: A scripted or file source that came to its end says so here ("The clip skirmish.mp4 has
    #: ended"): an end is an event of its own, not a stall (``stalled`` stays False after it).
    ended: str = ""
    #: Tries to reopen the one camera since it was lost (0 while it delivers).
    reconnect_attempts: int = 0

    def count(self, state: str) -> int:
        return sum(1 for u in self.units if u.state == state)

    @property
    def missing_anchors(self) -> tuple[AnchorStatus, ...]:
        """Anchors the latest frame did not show (none before the first frame: nothing is known yet)."""
        return tuple(a for a in self.anchors if not a.seen) if self.frames else ()

    def summary(self) -> str:
        """One line for the status strip."""
        if self.frames == 0:
            return "Camera: waiting for the first frame"
        parts = []
        if self.ended:
            parts.append(self.ended)
        elif self.stalled:
            retry = f", reconnecting (attempt {self.reconnect_attempts})" if self.reconnect_attempts else ""
            parts.append(f"NO FEED for {self.seconds_since_frame or 0.0:.0f} s{retry}")
        parts.append(f"{self.fps:.1f} fps" if self.fps else "— fps")
        if self.delay_s is not None:
            parts.append(f"delay {self.delay_s * 1000:.0f} ms")
        states = [(s, self.count(s)) for s in ("seen", "stale", "lost", "never seen")]
        parts.append("units " + ", ".join(f"{n} {s}" for s, n in states if n or s == "seen"))
        if self.anchors:
            seen = sum(a.seen for a in self.anchors)
            parts.append(f"anchors {seen}/{len(self.anchors)}" + (
                " (missing " + ", ".join(str(a.tag_id) for a in self.missing_anchors) + ")" if seen < len(self.anchors)
                else ""))
        if self.undecoded:
            n = len(self.undecoded)
            parts.append(f"{n} tag-like square{'s' if n > 1 else ''} in view not tracked (see Tracking)")
        if self.cameras:
            quiet = [c.name for c in self.cameras if not c.delivering]
            parts.append(f"{len(self.cameras)} cameras" + (f" ({', '.join(quiet)} NO FEED)" if quiet else ""))
        return " · ".join(parts)


def _edge_px(corners: np.ndarray) -> np.ndarray:
    """The mean edge length of each tag of ``corners`` ((N, 4, 2) pixels): one array operation for
    every tag of a frame (per tag it cost the UI thread a millisecond and a half a frame at 40 units)."""
    return np.asarray(np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2).mean(axis=1))


class TrackingMonitor:
    """Keeps what the status needs from the frames seen so far (mutable; bounded memory)."""

    def __init__(self, roster: Iterable[tuple[int, str]] = (), anchors: Iterable[tuple[int, float, float]] = (),
                 clock: Any = None, *, look: Callable[[Any, Any], list[str]] | None = None, background: bool = True) -> None:
        """``look(frame, detections)``: the undecoded-square search (``frame_notices`` by default);
        ``background=False`` runs it on the caller's thread (tests)."""
        import time

        self._clock = clock or time.monotonic
        self._look = look
        self._background = background
        self._looked_at: float | None = None
        self._looking: threading.Thread | None = None
        self._undecoded: tuple[str, ...] = ()
        #: How many times a frame was searched for undecoded squares, and why the last search failed.
        self.looks = 0
        self.look_error: str | None = None
        self._roster = dict(roster)
        self._anchors = tuple(anchors)
        self._arrivals: deque[float] = deque(maxlen=FPS_WINDOW)
        self._delay_s: float | None = None
        self._poses: dict[int, Any] = {}
        self._tag_px: dict[int, float] = {}
        self._anchors_seen: frozenset[int] = frozenset()
        self.frames = 0
        # several cameras: each one's arrivals, anchors in view and status; which cameras see each unit
        self._camera_arrivals: dict[str, deque[float]] = {}
        self._camera_anchors: dict[str, frozenset[int]] = {}
        self._camera_status: dict[str, Any] = {}
        self._seen_by: Mapping[int, tuple[str, ...]] = {}
        self._in_gap: frozenset[int] = frozenset()
        self._ended = ""
        # what the live loop says of its cameras at each poll (see note_feed)
        self._lost: frozenset[str] = frozenset()
        self._attempts: Mapping[str, int] = {}
        self._bad_messages: Mapping[str, int] = {}

    def mark_ended(self, words: str) -> None:
        """The source has come to its end (a video file, the demo's story): ``words`` say so, and no
        later silence counts as a stalled feed."""
        self._ended = words

    def note_feed(self, *, lost: Iterable[str] = (), reconnect_attempts: Mapping[str, int] | None = None,
                  bad_messages: Mapping[str, int] | None = None) -> None:
        """What the live loop knows of its cameras now (``LiveUpdate``): the ones lost (a stall shows at
        once, from the camera's own one-second threshold, not only after STALLED_AFTER_S without a
        frame), the tries to reopen each, and each camera node's bad messages."""
        self._lost = frozenset(lost)
        self._attempts = dict(reconnect_attempts or {})
        self._bad_messages = dict(bad_messages or {})

    def add(self, tracked: Any, *, delay_s: float | None = None, frame: Any = None) -> None:
        """One tracked frame (``tracker.pipeline.TrackedFrame``), as the window received it, and the
        camera frame it came from (for the undecoded-square look; optional)."""
        self._arrivals.append(self._clock())
        self.frames += 1
        self._delay_s = delay_s
        for pose in tracked.poses:
            self._poses[pose.tag_id] = pose
        if getattr(tracked, "cameras", None) is not None:
            self._add_cameras(tracked)
            return
        detections = getattr(tracked, "detections", None)
        if detections is not None and len(detections):
            ids = [int(t) for t in detections.tag_ids]
            self._tag_px.update(zip(ids, _edge_px(np.asarray(detections.corners_px, float).reshape(len(ids), 4, 2)).tolist()))
            self._anchors_seen = frozenset(ids) & {a[0] for a in self._anchors}
        else:
            self._anchors_seen = frozenset()
        self._maybe_look(frame, detections)

    def _missing_units(self) -> bool:
        for tag in self._roster:
            pose = self._poses.get(tag)
            if pose is None or getattr(pose.state, "value", str(pose.state)) == "lost":
                return True
        return False

    def _maybe_look(self, frame: Any, detections: Any) -> None:
        """Search this frame for undecoded squares if a roster unit is missing and the last look is old."""
        if not self._missing_units():
            self._undecoded = ()  # every unit is found: an old notice would only confuse
            return
        now = self._clock()
        if frame is None or (self._looked_at is not None and now - self._looked_at < SQUARES_EVERY_S):
            return
        if self._looking is not None and self._looking.is_alive():
            return
        self._looked_at = now
        self.looks += 1
        if detections is None:
            from tracker.detections import TagDetections

            detections = TagDetections.empty()
        if self._background:
            self._looking = threading.Thread(target=self._run_look, args=(frame, detections), name="sandtable-squares", daemon=True)
            self._looking.start()
        else:
            self._run_look(frame, detections)

    def _run_look(self, frame: Any, detections: Any) -> None:
        look = self._look
        if look is None:
            from tracker.undecoded_squares import frame_notices as look
        try:
            self._undecoded = tuple(look(frame, detections))
            self.look_error = None
        except Exception as exc:  # a failed look must not take the window down, nor pass for a finding
            self.look_error = str(exc)

    def _add_cameras(self, tracked: Any) -> None:
        """A round of several cameras (``tracker.multi_camera.MultiTrackedFrame``): each camera that
        delivered counts a frame; a tag's size is its size in the camera that sees it biggest."""
        now = self._clock()
        anchor_ids = {a[0] for a in self._anchors}
        biggest: dict[int, float] = {}
        for name, batch in tracked.detections.items():
            self._camera_arrivals.setdefault(name, deque(maxlen=FPS_WINDOW)).append(now)
            ids = [int(t) for t in batch.tag_ids]
            self._camera_anchors[name] = frozenset(ids) & anchor_ids
            edges = _edge_px(np.asarray(batch.corners_px, float).reshape(len(ids), 4, 2)).tolist()
            for tag, edge in zip(ids, edges):
                biggest[tag] = max(biggest.get(tag, 0.0), edge)
        self._tag_px.update(biggest)
        for camera in tracked.cameras:
            self._camera_status[camera.name] = camera
            self._camera_arrivals.setdefault(camera.name, deque(maxlen=FPS_WINDOW))
        self._anchors_seen = frozenset().union(*self._camera_anchors.values()) if self._camera_anchors else frozenset()
        self._seen_by = dict(tracked.seen_by)
        self._in_gap = frozenset(int(t) for t in tracked.in_gap)

    def _camera_lines(self, now: float) -> tuple[CameraLine, ...]:
        lines = []
        for name, arrivals in self._camera_arrivals.items():
            fps = None
            if len(arrivals) >= 2 and arrivals[-1] > arrivals[0]:
                fps = (len(arrivals) - 1) / (arrivals[-1] - arrivals[0])
            camera = self._camera_status.get(name)
            delivering = (bool(arrivals) and now - arrivals[-1] <= STALLED_AFTER_S and getattr(camera, "connected", True)
                          and name not in self._lost)
            units = sum(1 for cams in self._seen_by.values() if name in cams)
            lines.append(CameraLine(name, fps, delivering, tuple(sorted(self._camera_anchors.get(name, ()))), units,
                                    bool(getattr(camera, "drifting", False)), str(getattr(camera, "message", "")),
                                    int(self._bad_messages.get(name, 0)), int(self._attempts.get(name, 0))))
        return tuple(lines)

    def status(self) -> TrackingStatus:
        now = self._clock()
        fps = None
        if len(self._arrivals) >= 2 and self._arrivals[-1] > self._arrivals[0]:
            fps = (len(self._arrivals) - 1) / (self._arrivals[-1] - self._arrivals[0])
        since = now - self._arrivals[-1] if self._arrivals else None
        # The one camera lost (its source's own threshold, a second) or, for any feed, nothing for a while;
        # never after the source said it ended.
        stalled = since is not None and not self._ended and (
            since > STALLED_AFTER_S or (not self._camera_arrivals and bool(self._lost)))
        units = []
        for tag in sorted(set(self._roster) | set(self._poses)):
            units.append(self._unit(tag, stalled))
        anchors = tuple(AnchorStatus(t, t in self._anchors_seen, x, y) for t, x, y in self._anchors)
        undecoded = self._undecoded if self._missing_units() else ()
        attempts = sum(self._attempts.values()) if not self._camera_arrivals else 0
        return TrackingStatus(fps, self._delay_s, self.frames, stalled, since, tuple(units), anchors, undecoded,
                              self._camera_lines(now), ended=self._ended, reconnect_attempts=attempts)

    def _unit(self, tag: int, stalled: bool) -> UnitStatus:
        name = self._roster.get(tag) or getattr(self._poses.get(tag), "name", "") or f"tag {tag}"
        pose = self._poses.get(tag)
        px = self._tag_px.get(tag)
        if pose is None:
            why = ("no frame yet" if self.frames == 0 else
                   f"tag {tag} not found in any frame: in view, face up, printed at least {SMALL_TAG_PX:.0f} px across?")
            return UnitStatus(tag, name, "never seen", None, why)
        state = getattr(pose.state, "value", str(pose.state))
        if state == "stale" and tag in self._in_gap:  # where it went is known, whether the feed goes on or not
            why = "in a gap no camera sees: its last known place (stale, not lost, until a camera sees it again)"
        elif self._ended:
            why = "the source has ended: its last known place"
        elif stalled:
            why = "the feed has stopped: its last known place"
        elif state == "seen" and not getattr(pose, "measured", True):
            why = "held: not measured in the last frame, shown at its last measured place"
        elif state == "seen":
            why = (f"small in the picture ({px:.0f} px across; below {SMALL_TAG_PX:.0f} px it is read unreliably)"
                   if px is not None and px < SMALL_TAG_PX else "")
        elif state == "stale":
            why = "hidden for a moment (a hand over it?): its last known place"
        elif state == "lost":
            why = ("not seen for a while: picked up, covered, or out of every camera's view" if self._camera_arrivals
                   else "not seen for a while: picked up, covered, or out of the camera's view")
        else:
            why = "taken off the table"
        cameras = tuple(self._seen_by.get(tag, ())) if state == "seen" else ()
        return UnitStatus(tag, name, state, px, why, cameras)


def roster_names(roster: Any) -> Mapping[int, str]:
    """(tag id -> name) of a tracker roster (``tracker.roster.Roster``), or of a session's units."""
    units = getattr(roster, "units", roster) or ()
    return {int(getattr(u, "tag_id", getattr(u, "unit_id", -1))): str(getattr(u, "name", "")) for u in units}


__all__ = ["AnchorStatus", "CameraLine", "SMALL_TAG_PX", "STALLED_AFTER_S", "TrackingMonitor", "TrackingStatus", "UnitStatus",
           "roster_names"]
