"""Several cameras, one table: each camera's detections fused into one pose per unit.

Every camera has its own lens and table calibration, registered to the same table frame from the
anchors it sees (corner anchors plus extra anchors 4-9 along the seams). Each frame:

1. **Per camera** (each camera's detector in its own thread; pupil-apriltags releases the GIL, so two
   cameras use two cores): tags are found in its picture, its anchors go to its own drift watch (a
   bumped camera is re-registered from its anchors while the others keep tracking; until then its
   units are not trusted), and its unit tags are mapped to table inches at their height.
2. **Fusion**: sightings of one tag id from several cameras that land within ``same_tag_in`` of each
   other are one tag. Their table corners are averaged with each camera's precision there
   (:func:`sighting_weight`): pixels per inch squared (the position's variance falls with the square of
   the scale), less toward the image's edge where the lens model is least sure, and fading to nothing
   within a tag's width of the picture's border, so that a unit walking out of one view has already
   been handed to the next camera before the first one loses it: no jump, no event, one identity.
   Sightings of one id far apart are two tags: a conflict.
3. **One unit tracker** (the same states, filter and events as with one camera) follows the fused
   tags. A unit that vanishes where no camera looks (a gap between views) stays stale and is never
   declared lost; the status lists it with the gap.

Lifted-vs-hidden needs a picture of the unit's surroundings, which fusion does not have: with several
cameras a lifted unit stays hidden/stale until it is put back or marked lifted by hand.
"""
from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tracker.detections import TagDetections
from tracker.errors import TrackerError
from tracker.events import EventBus, EventKind, TrackerEvent
from tracker.fast_detection import FastDetectorSettings, FastTagDetector
from tracker.frames import Frame
from tracker.roster import Roster
from tracker.unit_pose import HeightMap, UnitPose, UnitState, table_corners
from tracker.unit_tracker import TrackerSettings, UnitTracker

#: Weight of a sighting halves at this fraction of the image's half-diagonal from its centre.
LENS_HALF_WEIGHT_RADIUS = 0.8
#: A tag's weight fades from full to nothing over this many tag edges from the picture's border.
BORDER_FADE_EDGES = 1.5
#: A missing unit is "in a gap" when a point this far from its last place is seen by no camera.
GAP_PROBE_IN = 1.5
#: How far inside a picture's border a table point must land to count as seen (a tag is read whole).
GAP_MARGIN_PX = 10.0
#: Corrected-bit decodes (a tag partly covered) count this much.
CORRECTED_WEIGHT = 0.25


def sighting_weight(corners_px: np.ndarray, frame_size_px: tuple[int, int], tag_size_in: float, hamming: int = 0) -> float:
    """How much one camera's sighting of a tag counts in the fused pose (relative; larger = surer).

    >>> square = lambda c, e: np.array([[c + e, c - e], [c - e, c - e], [c - e, c + e], [c + e, c + e]], float)
    >>> centre = sighting_weight(square(540.0, 10.0), (1080, 1080), 1.0)
    >>> near_border = sighting_weight(square(1050.0, 10.0), (1080, 1080), 1.0)
    >>> bigger = sighting_weight(square(540.0, 20.0), (1080, 1080), 1.0)
    >>> near_border < centre < bigger
    True
    """
    c = np.asarray(corners_px, dtype=np.float64).reshape(1, 4, 2)
    return float(sighting_weights(c, frame_size_px, np.array([tag_size_in]), np.array([hamming]))[0])


def sighting_weights(corners_px: np.ndarray, frame_size_px: tuple[int, int], tag_sizes_in: np.ndarray, hammings: np.ndarray) -> np.ndarray:
    """:func:`sighting_weight` of N sightings in one camera's picture at once: (N, 4, 2) corners -> (N,)."""
    c = np.asarray(corners_px, dtype=np.float64).reshape(-1, 4, 2)
    w, h = frame_size_px
    edge = np.mean(np.linalg.norm(c - np.roll(c, 1, axis=1), axis=2), axis=1)
    ppi = edge / np.asarray(tag_sizes_in, dtype=np.float64)
    centre = c.mean(axis=1)
    r = np.hypot(centre[:, 0] - (w - 1) / 2, centre[:, 1] - (h - 1) / 2) / math.hypot(w / 2, h / 2)
    lens = 1.0 / (1.0 + (r / LENS_HALF_WEIGHT_RADIUS) ** 2)
    border = np.minimum.reduce([c[:, :, 0].min(axis=1), c[:, :, 1].min(axis=1), w - 1 - c[:, :, 0].max(axis=1), h - 1 - c[:, :, 1].max(axis=1)])
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip(border / (BORDER_FADE_EDGES * edge), 0.0, 1.0)
    fade = s * s * (3.0 - 2.0 * s)  # smoothstep: the weight's slope is zero at both ends
    trust = np.where(np.asarray(hammings) == 0, 1.0, CORRECTED_WEIGHT)
    out = ppi * ppi * lens * fade * trust
    # never exactly 0: a tag only one camera sees still counts; a degenerate quad counts for nothing
    return np.where(np.isfinite(out) & (edge > 0), out + 1e-12, 0.0)


@dataclass(frozen=True)
class CameraStatus:
    """One camera's part in the last frame."""

    name: str
    connected: bool = True
    anchors_seen: int = 0
    residual_in: float = math.nan
    drifting: bool = False
    tags_seen: int = 0
    re_registrations: int = 0
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "connected": self.connected, "anchors_seen": self.anchors_seen, "tags_seen": self.tags_seen}
        if math.isfinite(self.residual_in):
            out["residual_in"] = round(self.residual_in, 4)
        if self.drifting:
            out["drifting"] = True
        if self.re_registrations:
            out["re_registrations"] = self.re_registrations
        if self.message:
            out["message"] = self.message
        return out


@dataclass(frozen=True)
class MultiTrackedFrame:
    """What the cameras saw together at one moment: one pose per unit, events, each camera's status."""

    frame_index: int
    t_s: float
    poses: tuple[UnitPose, ...]
    events: tuple[TrackerEvent, ...]
    cameras: tuple[CameraStatus, ...]
    seen_by: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # unit tag id -> cameras seeing it
    in_gap: tuple[int, ...] = ()  # units missing where no camera looks (stale, not lost)
    detections: Mapping[str, TagDetections] = field(default_factory=dict)

    def pose(self, tag_id: int) -> UnitPose | None:
        for p in self.poses:
            if p.tag_id == tag_id:
                return p
        return None

    def to_json(self) -> dict[str, Any]:
        """The line ``sandtable track --jsonl`` prints with several cameras."""
        units = []
        for p in self.poses:
            entry = p.to_json()
            if p.tag_id in self.seen_by:
                entry["cameras"] = list(self.seen_by[p.tag_id])
            if p.tag_id in self.in_gap:
                entry["in_gap"] = True
            units.append(entry)
        out: dict[str, Any] = {"frame": self.frame_index, "t_s": round(self.t_s, 4), "units": units,
                               "cameras": [c.to_json() for c in self.cameras]}
        if self.events:
            out["events"] = [e.to_json() for e in self.events]
        return out


class _TableFrame:
    """The unit tracker's mapping when its "pixels" are already table inches (fused corners)."""

    def table_from_camera(self, pixels: np.ndarray, *, z_in: Any = 0.0) -> np.ndarray:
        return np.asarray(pixels, dtype=np.float64).reshape(-1, 2).copy()


@dataclass
class _Camera:
    """One camera's calibration, drift watch and detector (mutable, internal)."""

    name: str
    calibration: Any
    drift: Any
    detector: FastTagDetector | None
    connected: bool = True
    drifting: bool = False
    re_registrations: int = 0
    status: CameraStatus | None = None
    anchors_before: int = 0  # anchors seen in its previous batch


@dataclass(frozen=True)
class _Sighting:
    camera: str
    corners_in: np.ndarray  # (4, 2)
    z_in: float
    weight: float
    corners_px: np.ndarray
    hamming: int
    margin: float


class MultiCameraTracker:
    """Tracks one game through several calibrated cameras (mutable; ``close()`` stops its threads).

    ``remote`` names the cameras whose detections come from camera nodes (no detector here).
    ``calibrations`` maps each camera's name to its ``TableCalibration``; all must share one table
    layout (the same anchors at the same places). ``detect=False`` builds no detectors: detections come
    from elsewhere (camera nodes over the network) through :meth:`process_detections`.
    """

    def __init__(
        self,
        calibrations: Mapping[str, Any],
        *,
        roster: Roster | None = None,
        terrain: HeightMap | None = None,
        settings: TrackerSettings | None = None,
        detector_settings: FastDetectorSettings | None = None,
        drift_threshold_in: float = 0.1,
        same_tag_in: float = 1.5,
        detect: bool = True,
        remote: Collection[str] = (),
        bus: EventBus | None = None,
        cores: int = 2,
        parallel: bool = True,
    ) -> None:
        from calibration.drift import DriftWatch

        if not calibrations:
            raise TrackerError("several-camera tracking needs at least one calibrated camera")
        names = list(calibrations)
        layout = calibrations[names[0]].layout
        for name in names[1:]:
            other = calibrations[name].layout
            if (other.width_in, other.depth_in, other.anchors) != (layout.width_in, layout.depth_in, layout.anchors):
                raise TrackerError(
                    f"camera {name!r} was calibrated on another table layout than camera {names[0]!r}; "
                    "calibrate every camera with the same layout file (same table size and anchors)"
                )
        self.layout = layout
        self.bus = bus or EventBus()
        self.same_tag_in = float(same_tag_in)
        # Each camera on its own core: one detector thread per camera when there are as many cameras as
        # cores, more per camera when there are fewer.
        unknown_remote = set(remote) - set(names)
        if unknown_remote:
            raise TrackerError(f"camera node(s) {sorted(unknown_remote)} have no calibration; give one per camera")
        n_local = max(1, len([n for n in names if n not in remote]))
        per_camera = detector_settings or FastDetectorSettings(workers=max(1, cores // n_local))
        self._cameras = {
            name: _Camera(
                name,
                cal,
                DriftWatch(cal, threshold_in=drift_threshold_in) if cal.layout.anchors else None,
                FastTagDetector(settings=per_camera) if detect and name not in remote else None,
            )
            for name, cal in calibrations.items()
        }
        local = [n for n in names if n not in remote] if detect else []
        self._pool = ThreadPoolExecutor(max_workers=len(local), thread_name_prefix="sandtable-camera") if parallel and len(local) > 1 else None
        self.units = UnitTracker(roster, mapping=_TableFrame(), terrain=terrain, anchor_ids=layout.anchor_ids, settings=settings)
        self.units.unseen_at = self._unseen_at
        self._terrain = terrain
        self._best_px: dict[int, tuple[float, float]] = {}
        self._frames = 0
        self._last_t = 0.0
        self._lost_at_t_s: dict[str, float] = {}  # camera -> when it was noticed gone

    # -- what front ends read ----------------------------------------------------------------------
    @property
    def camera_names(self) -> tuple[str, ...]:
        return tuple(self._cameras)

    def calibration(self, name: str) -> Any:
        return self._cameras[name].calibration

    @property
    def poses(self) -> tuple[UnitPose, ...]:
        return self._with_pixels(self.units.poses())

    @property
    def frames_processed(self) -> int:
        return self._frames

    def units_in_gap(self) -> tuple[int, ...]:
        """Units missing where no camera looks (stale, not lost)."""
        return tuple(p.tag_id for p in self.units.poses() if p.state in (UnitState.STALE, UnitState.LOST) and self.units.in_gap(p.tag_id))

    def camera_statuses(self) -> tuple[CameraStatus, ...]:
        return tuple(c.status or CameraStatus(c.name, c.connected) for c in self._cameras.values())

    def coverage(self, *, cell_in: float = 2.0) -> Any:
        """Which part of the table each camera sees now (``calibration.coverage.CoverageMap``)."""
        from calibration.coverage import coverage_map

        return coverage_map([c.calibration for c in self._cameras.values()], list(self._cameras), cell_in=cell_in)

    def start_turn(self) -> TrackerEvent:
        event = self.units.start_turn()
        self.bus.publish(event)
        return event

    def mark_lifted(self, tag_id: int) -> TrackerEvent | None:
        event = self.units.mark_lifted(tag_id)
        if event is not None:
            self.bus.publish(event)
        return event

    # -- per frame ---------------------------------------------------------------------------------
    def process(
        self, frames: Mapping[str, Frame | None], *, detections: Mapping[str, TagDetections | None] | None = None
    ) -> MultiTrackedFrame:
        """Detect in every camera's frame (in parallel) and fuse; a camera given None saw nothing new.

        ``detections`` adds batches found elsewhere (camera nodes) to this round.
        """
        unknown = (set(frames) | set(detections or {})) - set(self._cameras)
        if unknown:
            raise TrackerError(f"frames from unknown camera(s) {sorted(unknown)}; cameras are {list(self._cameras)}")
        jobs = {name: f for name, f in frames.items() if f is not None}
        for name, f in jobs.items():
            cam = self._cameras[name]
            if cam.detector is None:
                raise TrackerError(f"camera {name!r} has no detector here (its detections come from a camera node)")
            if cam.calibration.model.size_px != f.size_px:
                self._set_calibration(cam, cam.calibration.for_frame_size(*f.size_px))
        if self._pool is not None and len(jobs) > 1:
            futures = {name: self._pool.submit(self._detect, name, f) for name, f in jobs.items()}
            batches = {name: fut.result() for name, fut in futures.items()}
        else:
            batches = {name: self._detect(name, f) for name, f in jobs.items()}
        t = max((f.t_s for f in jobs.values()), default=self._last_t)
        for name, batch in (detections or {}).items():
            if batch is not None:
                batches[name] = batch
                t = max(t, float(batch.t_s)) if not jobs else t
        return self.process_detections(batches, t_s=t)

    def process_detections(self, batches: Mapping[str, TagDetections | None], *, t_s: float) -> MultiTrackedFrame:
        """Fuse one round of detections (one batch per camera that delivered one) into unit poses."""
        events: list[TrackerEvent] = []
        frame = self._frames
        self._frames += 1
        self._last_t = t_s
        sightings: dict[int, list[_Sighting]] = {}
        for name, cam in self._cameras.items():
            batch = batches.get(name)
            if batch is None:
                continue
            if batch.frame_size_px != (0, 0) and tuple(batch.frame_size_px) != cam.calibration.model.size_px:
                self._set_calibration(cam, cam.calibration.for_frame_size(*batch.frame_size_px))
            is_anchor = np.array([int(i) in self.layout.anchor_ids for i in batch.tag_ids], dtype=bool)
            anchors, units = batch.filter(is_anchor), batch.filter(~is_anchor)
            events += self._check_drift(cam, anchors, t_s, frame)
            # Every anchor gone at once while tags are still found: the camera was jolted (the fast
            # detector's windows still catch some tags where they were, but the anchors vanish). Its
            # pixels cannot be trusted this frame; the whole next frame is searched for the anchors.
            jolted = cam.anchors_before >= 2 and len(anchors) == 0 and len(units) > 0
            cam.anchors_before = int(len(anchors))
            if jolted and cam.detector is not None:
                cam.detector.request_full_search()
            previous = cam.status or CameraStatus(name)
            cam.status = replace(
                previous, connected=cam.connected, anchors_seen=int(len(anchors)), tags_seen=int(len(units)),
                drifting=cam.drifting, re_registrations=cam.re_registrations,
                **({} if len(anchors) else {"residual_in": math.nan, "message": "no anchors in view"}),
            )
            if cam.drifting or jolted:
                continue  # its anchors say it moved: its pixels mean nothing until it is re-registered
            for s in self._table_sightings(cam, units):
                sightings.setdefault(int(s[0]), []).append(s[1])

        fused, seen_by, best_px = self._fuse(sightings, t_s, frame)
        update = self.units.update(fused)
        self._best_px.update(best_px)
        events += update.events
        poses = self._with_pixels(update.poses)
        result = MultiTrackedFrame(frame, t_s, poses, tuple(events), self.camera_statuses(), seen_by, self.units_in_gap(), dict(batches))
        self.bus.publish_all(result.events)
        return result

    def camera_status(self, name: str, connected: bool, *, t_s: float | None = None) -> TrackerEvent | None:
        """Tell the tracker whether camera ``name`` delivers; emits source_lost / source_back (with the
        camera's name) once each. The other cameras keep tracking meanwhile."""
        cam = self._cameras[name]
        if connected == cam.connected:
            return None
        cam.connected = connected
        if cam.status is not None:
            cam.status = replace(cam.status, connected=connected)
        if connected and cam.detector is not None:
            cam.detector.request_full_search()
        kind = EventKind.SOURCE_BACK if connected else EventKind.SOURCE_LOST
        at = self._last_t if t_s is None else t_s
        payload: dict[str, Any] = {"camera": name}
        lost_at = self._lost_at_t_s.pop(name, None)
        if connected and lost_at is not None:
            payload["outage_s"] = round(max(0.0, at - lost_at), 3)  # the outage's length, recorded with it
        elif not connected:
            self._lost_at_t_s[name] = at
        event = TrackerEvent(kind, at, self._frames, payload=payload)
        self.bus.publish(event)
        return event

    def close(self) -> None:
        for cam in self._cameras.values():
            if cam.detector is not None:
                cam.detector.close()
        if self._pool is not None:
            self._pool.shutdown(wait=True)

    def __enter__(self) -> "MultiCameraTracker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------------
    def _detect(self, name: str, frame: Frame) -> TagDetections:
        return self._cameras[name].detector.detect(frame.image_bgr, frame_index=frame.index, t_s=frame.t_s)  # type: ignore[union-attr]  # the caller raised for a camera without a detector

    def _set_calibration(self, cam: _Camera, cal: Any) -> None:
        cam.calibration = cal
        if cam.drift is not None:
            cam.drift.calibration = cal

    def _check_drift(self, cam: _Camera, anchors: TagDetections, t: float, frame: int) -> list[TrackerEvent]:
        if cam.drift is None or len(anchors) == 0:
            return []
        status = cam.drift.check(anchors.tag_ids, anchors.corners_px)
        events = []
        if status.drifted and not cam.drifting:
            events.append(TrackerEvent(EventKind.DRIFT, t, frame, payload={
                "camera": cam.name, "residual_in": round(float(status.residual_in), 4), "message": status.message}))
        cam.drifting = bool(status.drifted) and not status.re_registered
        if status.re_registered:
            cam.calibration = status.calibration
            cam.re_registrations += 1
            if cam.detector is not None:
                cam.detector.request_full_search()
            events.append(TrackerEvent(EventKind.REREGISTERED, t, frame, payload={
                "camera": cam.name, "residual_in": round(float(status.calibration.residual_in), 4), "message": status.message}))
        cam.status = CameraStatus(
            cam.name, cam.connected, anchors_seen=status.anchors_seen, residual_in=float(status.residual_in),
            drifting=cam.drifting, re_registrations=cam.re_registrations, message=status.message,
        )
        return events

    def _table_sightings(self, cam: _Camera, units: TagDetections) -> list[tuple[int, _Sighting]]:
        roster = self.units.roster
        rows = [i for i, tag_id in enumerate(units.tag_ids.tolist()) if roster.spec_for(tag_id) is not None or roster.is_open]
        if not rows:
            return []
        specs = [roster.spec_for(int(units.tag_ids[i])) for i in rows]
        heights = np.array([s.base_height_in if s is not None else 1.0 for s in specs])
        sizes = [(s.tag_size_in if s is not None and s.tag_size_in else self.layout.unit_tag_size_in) for s in specs]
        table, z = table_corners(units.corners_px[rows], cam.calibration, base_heights_in=heights, terrain=self._terrain)
        size_px = cam.calibration.model.size_px
        weights = sighting_weights(units.corners_px[rows], size_px, np.array(sizes), units.hammings[rows])
        finite = np.all(np.isfinite(table.reshape(len(rows), -1)), axis=1)
        out = []
        for k, i in enumerate(rows):
            if finite[k]:
                out.append((int(units.tag_ids[i]), _Sighting(cam.name, table[k], float(z[k]), float(weights[k]), units.corners_px[i],
                                                             int(units.hammings[i]), float(units.decision_margins[i]))))
        return out

    def _fuse(
        self, sightings: dict[int, list[_Sighting]], t: float, frame: int
    ) -> tuple[TagDetections, dict[int, tuple[str, ...]], dict[int, tuple[float, float]]]:
        ids, corners, hammings, margins = [], [], [], []
        seen_by: dict[int, tuple[str, ...]] = {}
        best_px: dict[int, tuple[float, float]] = {}
        known = {p.tag_id: p for p in self.units.poses()} if any(len(g) > 1 for g in sightings.values()) else {}
        for tag_id, group in sightings.items():
            clusters: list[list[_Sighting]] = []
            for s in sorted(group, key=lambda s: -s.weight):
                centre = s.corners_in.mean(axis=0)
                for cluster in clusters:
                    lead = cluster[0].corners_in.mean(axis=0)
                    if float(np.hypot(*(centre - lead))) <= self.same_tag_in and all(o.camera != s.camera for o in cluster):
                        cluster.append(s)
                        break
                else:
                    clusters.append([s])
            for cluster in clusters:
                w = np.array([s.weight for s in cluster])
                fused = np.tensordot(w / w.sum(), np.stack([s.corners_in for s in cluster]), axes=1)
                ids.append(tag_id)
                corners.append(fused)
                hammings.append(min(s.hamming for s in cluster))
                margins.append(max(s.margin for s in cluster))
            # the unit's cameras and the picture it is best seen in: of the cluster nearest to where it was
            main = clusters[0]
            if tag_id in known and len(clusters) > 1:
                p = known[tag_id]
                main = min(clusters, key=lambda c: math.hypot(c[0].corners_in.mean(axis=0)[0] - p.x_in, c[0].corners_in.mean(axis=0)[1] - p.y_in))
            seen_by[tag_id] = tuple(sorted(s.camera for s in main))
            best = main[0].corners_px.mean(axis=0)
            best_px[tag_id] = (float(best[0]), float(best[1]))
        if not ids:
            return TagDetections.empty(frame_index=frame, t_s=t), seen_by, best_px
        c = np.array(corners, dtype=np.float64)
        dets = TagDetections(
            tag_ids=np.array(ids, dtype=np.int64), corners_px=c, centers_px=c.mean(axis=1),
            decision_margins=np.array(margins, dtype=np.float64), hammings=np.array(hammings, dtype=np.int64),
            frame_index=frame, t_s=t,
        )
        return dets, seen_by, best_px

    def _with_pixels(self, poses: tuple[UnitPose, ...]) -> tuple[UnitPose, ...]:
        """Poses whose ``center_px`` is the unit's place in the camera that sees it best."""
        return tuple(replace(p, center_px=self._best_px.get(p.tag_id, p.center_px)) for p in poses)

    def _unseen_at(self, x_in: float, y_in: float) -> bool:
        """Whether a unit last seen at (x, y) may have left every view: some point of the ring where it
        would be a moment later is seen by no camera (a tag must be whole in a picture to be read, so a
        unit walking into a gap vanishes while its last place is still just inside the view)."""
        from calibration.coverage import seen_by

        ang = np.linspace(0.0, 2.0 * np.pi, 8, endpoint=False)
        ring = np.column_stack([x_in + GAP_PROBE_IN * np.cos(ang), y_in + GAP_PROBE_IN * np.sin(ang)])
        points = np.vstack([[x_in, y_in], ring])
        seen = np.zeros(len(points), dtype=bool)
        for cam in self._cameras.values():
            seen |= seen_by(cam.calibration, points, margin_px=GAP_MARGIN_PX)
        return not bool(np.all(seen))


def register_cameras(frames: Mapping[str, Frame], models: Mapping[str, Any], layout: Any) -> dict[str, Any]:
    """Each camera's table calibration from one frame of it (its anchors, found by the bare detector
    at full resolution), all in the table frame of ``layout``. ``RegistrationError`` names the camera
    that sees fewer than two anchors."""
    import cv2

    from calibration.errors import RegistrationError
    from calibration.table_registration import register_table
    from tracker.detections import detect_tags, make_detector

    detector = make_detector()
    out = {}
    for name, frame in frames.items():
        image = frame.image_bgr
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        dets = detect_tags(detector, gray)
        try:
            out[name] = register_table(dets.tag_ids, dets.corners_px, models[name], layout)
        except RegistrationError as exc:
            raise RegistrationError(f"camera {name!r}: {exc}") from None
    return out
