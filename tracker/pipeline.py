"""The whole tracking pipeline for one camera: frame -> tags -> units -> events.

:class:`Tracker` composes the fast detector (``tracker/fast_detection.py``), the unit tracker
(``tracker/unit_tracker.py``), the anchors' drift watch (``calibration.drift``, when calibrated) and the
event bus the GUI and the recorder subscribe to. It is the one object a front end needs.

    tracker = Tracker(roster=load_roster("game.toml"), calibration=cal)
    unsubscribe = tracker.bus.subscribe(print)
    for frame in frames:
        result = tracker.process(frame)      # result.poses, result.events
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tracker.detections import TagDetections, detect_tags, make_detector
from tracker.events import EventBus, EventKind, TrackerEvent
from tracker.fast_detection import DetectionWork, FastDetectorSettings, FastTagDetector
from tracker.frames import Frame
from tracker.never_seen import smallest_tag_px
from tracker.roster import Roster
from tracker.unit_pose import HeightMap, UnitPose
from tracker.unit_tracker import DEFAULT_ANCHOR_IDS, TrackerSettings, UnitTracker


@dataclass(frozen=True)
class TrackedFrame:
    """Everything the tracker learned from one frame."""

    frame_index: int
    t_s: float
    poses: tuple[UnitPose, ...]
    events: tuple[TrackerEvent, ...]
    detections: TagDetections
    work: DetectionWork | None = None

    def pose(self, tag_id: int) -> UnitPose | None:
        for p in self.poses:
            if p.tag_id == tag_id:
                return p
        return None

    def to_json(self) -> dict[str, Any]:
        """The line ``sandtable track --jsonl`` prints for this frame."""
        return {
            "frame": self.frame_index,
            "t_s": round(self.t_s, 4),
            "units": [p.to_json() for p in self.poses],
            **({"events": [e.to_json() for e in self.events]} if self.events else {}),
        }


class Tracker:
    """Tracks the units of one game through one camera (mutable; ``close()`` stops its worker threads).

    ``calibration``: a ``TableCalibration`` (poses in table inches) or None (poses in pixels).
    ``fast=False`` runs the bare detector on every whole frame instead of the fast detector (slower;
    for comparison and for single images).
    """

    def __init__(
        self,
        *,
        roster: Roster | None = None,
        calibration: Any | None = None,
        terrain: HeightMap | None = None,
        settings: TrackerSettings | None = None,
        detector_settings: FastDetectorSettings | None = None,
        drift_threshold_in: float = 0.1,
        fast: bool = True,
        bus: EventBus | None = None,
    ) -> None:
        self.bus = bus or EventBus()
        self.calibration = calibration
        layout = getattr(calibration, "layout", None)
        anchor_ids = layout.anchor_ids if layout is not None and layout.anchors else DEFAULT_ANCHOR_IDS
        self.units = UnitTracker(roster, mapping=calibration, terrain=terrain, anchor_ids=anchor_ids, settings=settings)
        known = frozenset(anchor_ids) | (roster.tag_ids if roster is not None else frozenset())
        self._fast = (
            FastTagDetector(settings=detector_settings, known_ids=known, smallest_tag_px=smallest_tag_px(calibration, roster))
            if fast
            else None
        )
        self._bare = None if fast else make_detector(nthreads=2)
        self._drift = _make_drift_watch(calibration, drift_threshold_in)
        self._drifting = False
        self._anchors_in_place: bytes | None = None  # the anchors' detections last found in place (bytes)
        self._connected = True
        self._last_index = -1
        self._last_t = 0.0
        self._lost_at_t_s: float | None = None  # when the camera was noticed gone (None: it delivers)
        #: every tag id detected so far, and the smallest tag edge seen (px): what `track` says at the end
        self.seen_tag_ids: set[int] = set()
        self.smallest_tag_px: float | None = None

    # -- per frame -------------------------------------------------------------------------------
    def process(self, frame: Frame) -> TrackedFrame:
        """Track one frame: detect, update units, check the anchors; events go to the bus and the result."""
        image = frame.image_bgr
        if self._fast is not None:
            detections = self._fast.detect(image, frame_index=frame.index, t_s=frame.t_s)
            work = self._fast.last_work
        else:
            import cv2

            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
            detections = detect_tags(self._bare, gray, frame_index=frame.index, t_s=frame.t_s)
            work = None
        self._note_seen(detections)
        update = self.units.update(detections, image=image)
        events = list(update.events)
        events += self._check_drift(update.anchors, frame)
        self._last_index, self._last_t = frame.index, frame.t_s
        result = TrackedFrame(frame.index, frame.t_s, update.poses, tuple(events), detections, work)
        self.bus.publish_all(result.events)
        return result

    def _note_seen(self, detections: TagDetections) -> None:
        if len(detections) == 0:
            return
        self.seen_tag_ids.update(detections.tag_ids.tolist())
        c = detections.corners_px
        edges = c - c[:, [3, 0, 1, 2]]  # each corner minus the one before it (every frame: kept cheap)
        smallest = float(np.sqrt((edges * edges).sum(axis=2)).mean(axis=1).min())
        self.smallest_tag_px = smallest if self.smallest_tag_px is None else min(self.smallest_tag_px, smallest)

    def source_status(self, connected: bool, *, t_s: float | None = None) -> TrackerEvent | None:
        """Tell the tracker whether the camera delivers frames; emits source_lost / source_back once each.

        The game state is kept while the camera is away; when it is back the whole next frame is searched.
        """
        if connected == self._connected:
            return None
        self._connected = connected
        kind = EventKind.SOURCE_BACK if connected else EventKind.SOURCE_LOST
        if connected and self._fast is not None:
            self._fast.request_full_search()
        at = self._last_t if t_s is None else t_s
        payload = {}
        if connected and self._lost_at_t_s is not None:
            payload["outage_s"] = round(max(0.0, at - self._lost_at_t_s), 3)  # the outage's length, recorded with it
        self._lost_at_t_s = None if connected else at
        event = TrackerEvent(kind, at, self._last_index, payload=payload)
        self.bus.publish(event)
        return event

    # -- what the GUI calls ----------------------------------------------------------------------
    @property
    def poses(self) -> tuple[UnitPose, ...]:
        return self.units.poses()

    def start_turn(self) -> TrackerEvent:
        """Reset every unit's movement this turn (the rules say a player's turn begins)."""
        event = self.units.start_turn()
        self.bus.publish(event)
        return event

    def mark_lifted(self, tag_id: int) -> TrackerEvent | None:
        event = self.units.mark_lifted(tag_id)
        if event is not None:
            self.bus.publish(event)
        return event

    def settle(self) -> None:
        """Wait for detection work that runs on after a frame returns (see ``FastTagDetector.settle``)."""
        if self._fast is not None:
            self._fast.settle()

    def close(self) -> None:
        if self._fast is not None:
            self._fast.close()

    def __enter__(self) -> "Tracker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- anchors -------------------------------------------------------------------------------
    def _check_drift(self, anchors: TagDetections, frame: Frame) -> list[TrackerEvent]:
        if self._drift is None or len(anchors) == 0:
            return []
        seen = anchors.tag_ids.tobytes() + anchors.corners_px.tobytes()
        if seen == self._anchors_in_place:
            # The detector repeated the anchors' detections that were in place last time: the watch
            # would find the same, and say nothing (about 45 us an anchor, every frame).
            return []
        status = self._drift.check(anchors.tag_ids, anchors.corners_px)
        self._anchors_in_place = None if status.drifted else seen
        events = []
        if status.drifted and not self._drifting:
            events.append(
                TrackerEvent(
                    EventKind.DRIFT,
                    frame.t_s,
                    frame.index,
                    payload={"residual_in": round(float(status.residual_in), 4), "message": status.message},
                )
            )
        self._drifting = bool(status.drifted) and not status.re_registered
        if status.re_registered:
            self.calibration = status.calibration
            self.units.set_mapping(status.calibration)
            if self._fast is not None:
                self._fast.request_full_search()
            events.append(
                TrackerEvent(
                    EventKind.REREGISTERED,
                    frame.t_s,
                    frame.index,
                    payload={"residual_in": round(float(status.calibration.residual_in), 4), "message": status.message},
                )
            )
        return events


def _make_drift_watch(calibration: Any | None, threshold_in: float) -> Any | None:
    from calibration.table_calibration import TableCalibration

    if not isinstance(calibration, TableCalibration) or not calibration.layout.anchors:
        return None  # a bare mapping (tests, benchmarks) has no anchors to watch
    from calibration.drift import DriftWatch

    return DriftWatch(calibration, threshold_in=threshold_in)
