"""Where each tag was last seen in the image, where it is expected next, and what its absence means.

One :class:`PixelTrack` a tag: its centre, velocity and size in camera pixels, how many frames it has
been missed, and (for :mod:`tracker.still_tags`) its last real detection. :class:`PixelTracks` predicts
each tag's window (:meth:`PixelTracks.windows`), moves the tracks to a frame's detections
(:meth:`PixelTracks.update`), and says which tags are missing from their windows and whether the tags
found all moved alike (a bumped camera).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tracker.detections import TagDetections
from tracker.detector_settings import FastDetectorSettings
from tracker.search_boxes import WINDOW_STEPS, Box, step_for_edge

@dataclass
class PixelTrack:
    """Where one tag was last seen in the image (mutable, internal)."""

    tag_id: int
    center: np.ndarray
    velocity: np.ndarray  # px per second
    edge_px: float
    last_seen_t: float
    misses: int = 0
    velocity_known: bool = False
    confirmed: bool = True  # False: seen only with corrected bits outside any window so far; not reported
    # Its last real detection (corners, centre, margin, hamming) and the thumbnail patch around it then:
    # while the patch stays the same the tag has not moved, and that detection is reported again.
    ref_detection: tuple[np.ndarray, np.ndarray, float, int] | None = None
    ref_index: np.ndarray | None = None  # the thumbnail pixels around it (flat indices)
    ref_patch: np.ndarray | None = None  # their values then
    ref_mean: float = 1.0  # the patch's mean grey level (at least 1)
    ref_count: int = 0  # real detections averaged into ref_detection
    reused: bool = False  # its detection of this frame is the last real one, reported again
    at_ref: bool = False  # its centre is ref_detection's (set by a repeated detection)


class PixelTracks:
    """The tags followed in one video stream (mutable)."""

    def __init__(self, settings: FastDetectorSettings) -> None:
        self.settings = settings
        self.tracks: list[PixelTrack] = []

    def clear(self) -> None:
        self.tracks.clear()

    def moving_ids(self) -> set[int]:
        """Tags seen in the last frame and moving faster than ``moving_edges_per_s``."""
        return {
            t.tag_id
            for t in self.tracks
            if t.misses == 0 and t.velocity_known and math.hypot(*t.velocity) > self.settings.moving_edges_per_s * t.edge_px
        }

    def confirmed_edges_px(self) -> list[float]:
        """The edge of every confirmed tag followed (how small a new tag may look)."""
        return [t.edge_px for t in self.tracks if t.confirmed]

    def reused(self) -> list[PixelTrack]:
        """The still tags reported unsearched in this frame."""
        return [t for t in self.tracks if t.reused]

    def windows(self, tracks: list[PixelTrack], t_s: float, width: int, height: int) -> list[tuple[int, Box]]:
        """Each of ``tracks``' tag id and the box it is searched in (before merging and grid alignment)."""
        settings = self.settings
        boxes = []
        for track in tracks:
            edge = max(track.edge_px, settings.min_edge_px)
            # A missing tag is predicted along its last velocity for a while (a fast slide blurs a tag
            # beyond decoding for a few frames), not forever (it has stopped, or was lifted).
            dt = min(max(0.0, t_s - track.last_seen_t), settings.velocity_gap_s)
            centre = track.center + track.velocity * dt
            # A tag whose velocity is unknown (seen once, or again after a long gap) may be moving: its
            # window is as wide as if it had been missed once.
            unknown_motion = 0 if track.velocity_known else 1
            grow = min(settings.max_growth_edges, settings.miss_growth_edges * (track.misses + unknown_motion))
            # The detector thresholds in 4x4 tiles against their neighbours: a small tag needs a few
            # tiles of context around it whatever its size, hence the floors in pixels.
            border = max(edge * settings.border_edges, settings.min_border_px)
            slack = max(edge * settings.uncertainty_edges, 3.0) + 0.5 * math.hypot(*track.velocity) * dt
            half = edge * (math.sqrt(0.5) + grow) + border + slack
            x0 = int(max(0, math.floor(centre[0] - half)))
            y0 = int(max(0, math.floor(centre[1] - half)))
            x1 = int(min(width, math.ceil(centre[0] + half) + 1))
            y1 = int(min(height, math.ceil(centre[1] + half) + 1))
            if x1 - x0 >= 8 and y1 - y0 >= 8:
                boxes.append((track.tag_id, (x0, y0, x1, y1)))
        return boxes

    def window_steps(self, windows: list[Box]) -> list[float]:
        """Each merged window's step: that of the smallest tag whose last position lies in it."""
        steps = []
        for x0, y0, x1, y1 in windows:
            inside = [t.edge_px for t in self.tracks if x0 <= t.center[0] < x1 and y0 <= t.center[1] < y1]
            steps.append(step_for_edge(min(inside), self.settings.window_min_decimated_edge_px, WINDOW_STEPS) if inside else 1.0)
        return steps

    def missing(self, found: TagDetections, expected: list[tuple[int, Box]]) -> list[tuple[int, Box]]:
        """The windows of tags seen in the last frame whose tag was not found in them now."""
        fresh = {t.tag_id for t in self.tracks if t.confirmed and t.misses == 0}
        where: dict[int, list[tuple[float, float]]] = {}
        for tag_id, (x, y) in zip(found.tag_ids.tolist(), found.centers_px.tolist()):
            where.setdefault(tag_id, []).append((x, y))
        out = []
        for tag_id, (x0, y0, x1, y1) in expected:
            if tag_id in fresh and not any(x0 <= x < x1 and y0 <= y < y1 for x, y in where.get(tag_id, ())):
                out.append((tag_id, (x0, y0, x1, y1)))
        return out

    def seen_last_frame(self) -> int:
        return sum(1 for t in self.tracks if t.confirmed and t.misses == 0)

    def common_shift_px(self, found: TagDetections, t_s: float) -> float:
        """How far the tags found moved all alike from where they were predicted (median shift, px):
        the mark of a camera bumped or a board pushed, unlike units moved one by one."""
        settings = self.settings
        shifts = []
        for track in self.tracks:
            if not (track.confirmed and track.misses == 0):
                continue
            if track.reused:
                shifts.append(np.zeros(2))  # its pixels had not changed: it is where it was
                continue
            idx = np.flatnonzero(found.tag_ids == track.tag_id)
            if len(idx) == 0:
                continue
            dt = min(max(0.0, t_s - track.last_seen_t), settings.velocity_gap_s)
            predicted = track.center + track.velocity * dt
            shifts.append(found.centers_px[idx[np.argmin(np.linalg.norm(found.centers_px[idx] - predicted, axis=1))]] - predicted)
        if len(shifts) < 3:
            return 0.0
        median = np.median(np.array(shifts), axis=0)
        return float(np.linalg.norm(median))

    def edge_of(self, tag_id: int) -> float:
        return min((t.edge_px for t in self.tracks if t.tag_id == tag_id), default=0.0)

    def follow_unconfirmed(self, found: TagDetections, t_s: float) -> None:
        """Tags the safety sweep found that no track follows now: searched in their windows from this
        frame on, and reported once found there (one frame after the sweep saw them)."""
        followed = {t.tag_id for t in self.tracks if t.misses == 0}
        for i, tag_id in enumerate(found.tag_ids.tolist()):
            if tag_id not in followed:
                followed.add(tag_id)
                self.tracks.append(
                    PixelTrack(tag_id, found.centers_px[i].copy(), np.zeros(2), mean_edge_px(found.corners_px[i]), t_s, confirmed=False)
                )

    def update(
        self, found: TagDetections, held: TagDetections, t_s: float, rows: dict[tuple[int, float, float], int]
    ) -> None:
        """Move each followed tag to its detection in ``found``; start following new ones.

        ``held`` are corrected decodes away from any window of their id: they start unconfirmed tracks,
        searched for in their windows like any other and reported once found there.
        """
        settings = self.settings
        matched: set[int] = set()
        used: set[int] = set()
        ids = found.tag_ids.tolist()
        # A still tag reported unsearched is its own detection, repeated: nothing moved (``rows``:
        # :func:`rows_by_place` of ``found``).
        for k, track in enumerate(self.tracks):
            if track.reused:
                i = rows.get((track.tag_id, *track.ref_detection[1].tolist()))
                if i is not None and i not in used:
                    used.add(i)
                    matched.add(k)
                    self._repeat_at(track, found.centers_px[i], found.corners_px[i], t_s)
        # Each other detection goes to the nearest track of its id (a tag may be followed twice for a
        # moment: the old track where it vanished and a new one where it was found again).
        by_id: dict[int, list[int]] = {}
        for k, t in enumerate(self.tracks):
            if k not in matched:
                by_id.setdefault(t.tag_id, []).append(k)
        order = sorted(
            (math.dist(found.centers_px[i], self.tracks[k].center), i, k)
            for i in range(len(found))
            if i not in used
            for k in by_id.get(ids[i], ())
        )
        for _, i, k in order:
            if i in used or k in matched:
                continue
            used.add(i)
            matched.add(k)
            self._move_to(self.tracks[k], found.centers_px[i], found.corners_px[i], t_s)
        for k, track in enumerate(self.tracks):
            if k not in matched:
                track.misses += 1
        for i in range(len(found)):
            if i not in used:
                self.tracks.append(
                    PixelTrack(int(found.tag_ids[i]), found.centers_px[i].copy(), np.zeros(2), mean_edge_px(found.corners_px[i]), t_s)
                )
        for i in range(len(held)):
            self.tracks.append(
                PixelTrack(
                    int(held.tag_ids[i]), held.centers_px[i].copy(), np.zeros(2), mean_edge_px(held.corners_px[i]), t_s, confirmed=False
                )
            )
        if all(t.last_seen_t == t_s for t in self.tracks) and len({t.tag_id for t in self.tracks}) == len(self.tracks):
            return  # the usual frame: every tag seen now, each once; nothing to forget or merge
        kept: list[PixelTrack] = []
        kept_by_id: dict[int, list[PixelTrack]] = {}
        for track in sorted(self.tracks, key=lambda t: t.last_seen_t, reverse=True):
            limit = settings.forget_after_s if track.confirmed else settings.candidate_forget_s
            if t_s - track.last_seen_t > limit:
                continue
            # A track of a tag found again elsewhere that has since caught up with it: one is enough.
            same = kept_by_id.setdefault(track.tag_id, [])
            if any(math.dist(o.center, track.center) < settings.duplicate_px for o in same):
                continue
            same.append(track)
            kept.append(track)
        self.tracks = kept

    def _repeat_at(self, track: PixelTrack, centre: np.ndarray, corners: np.ndarray, t_s: float) -> None:
        """:meth:`_move_to` for a still tag's repeated detection: its velocity decays as a zero displacement
        would make it, and its centre and size are the repeated mean'settings."""
        dt = t_s - track.last_seen_t
        if not (track.at_ref and track.velocity_known and 0 < dt <= self.settings.velocity_gap_s):
            self._move_to(track, centre, corners, t_s)
            track.at_ref = True
            return
        track.velocity *= 0.5
        track.last_seen_t = t_s
        track.misses = 0
        track.confirmed = True

    def _move_to(self, track: PixelTrack, centre: np.ndarray, corners: np.ndarray, t_s: float) -> None:
        dt = t_s - track.last_seen_t
        if 0 < dt <= self.settings.velocity_gap_s:
            measured = (centre - track.center) / dt
            if track.misses == 0 and track.velocity_known:
                # Smoothed so that one noisy corner fit does not fling the next window off.
                track.velocity = 0.5 * track.velocity + 0.5 * measured
            else:
                # Its first motion, or motion over a gap (a blurred or covered tag): the old velocity is
                # unknown or stale, the displacement over the gap is the best estimate.
                track.velocity = measured
            track.velocity_known = True
        else:
            track.velocity = np.zeros(2)
            track.velocity_known = False
        track.center = centre.copy()
        track.at_ref = False
        track.edge_px = mean_edge_px(corners)
        track.last_seen_t = t_s
        track.misses = 0
        track.confirmed = True


def mean_edge_px(corners: np.ndarray) -> float:
    (a, b, c, d) = corners.tolist()
    return (math.dist(a, b) + math.dist(b, c) + math.dist(c, d) + math.dist(d, a)) / 4.0


def rows_by_place(found: TagDetections) -> dict[tuple[int, float, float], int]:
    """Each detection's row by its tag id and exact centre: how a track finds the detection it was
    moved to (or repeated from)."""
    return {(tag_id, x, y): i for i, (tag_id, (x, y)) in enumerate(zip(found.tag_ids.tolist(), found.centers_px.tolist()))}


