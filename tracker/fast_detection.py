"""Full-resolution AprilTag detection at camera rate: search where tags move, sweep where the picture changed.

The bare detector at ``quad_decimate=1`` spends its time on every pixel of the frame, although the tags
cover a few percent of it. Decimating the frame (the detector's default of 2) makes it fast but loses
small tags: a 1" tag on a 72" table is about 26 px wide at 1080p, 13 px after decimation. So instead:

* **still tags**: a tag standing still whose pixels (a patch of a small grey thumbnail of the frame)
  are as they were when it was last detected is reported at the mean of its detections there, without
  searching; it is searched again when its patch changes, and once every ``reverify_frames`` anyway.
  On a real table most units stand still most of the time.
* **regions**: every other tag seen recently is searched for at full resolution in a small window
  around where it is predicted to be (last centre + velocity), sized from its apparent size plus a
  margin that grows while it is missing. Overlapping windows are merged.
* **sweep**: new tags are looked for where the picture changed since that part was last searched
  (boxes around the changed thumbnail pixels, in the same frame), and in overlapping tiles in a slow
  round robin (a whole sweep takes ``1 / sweep_fraction`` frames; its tiles are searched on the other
  core after the frame, and what it finds is followed from the next frame), quads found at a
  decimation step the smallest tag allows, edges and bits at full resolution. The first frame, and any
  frame after ``request_full_search()`` (a camera that came back), is searched whole.
* **two cores**: the windows of tags that must be searched are dealt one at a time from a queue,
  largest first: the second core starts on them at once and waits for more until the frame's last box
  is in; the first adds the sweep's boxes once it has the thumbnail and the change, then the windows of
  still tags whose patch changed, and joins. Each thread has its own detectors, called directly
  (``tracker.apriltag_native``: Python's lock is let go once per search). A whole-frame search is
  split into bands of equal area. The frame is made grey once, or comes grey from the source.

Detections of the same tag found twice (a window overlapping a tile) are merged, keeping the one with
the larger decision margin.

**Corrected decodes.** The detector corrects up to two wrong bits of a tag's code and says how many
it corrected; the bare detector's output includes such decodes. They are what is left of a tag when
part of its card is under a neighbour's block or miniature, or when a fast slide blurs it, so they are
reported here too, where they are safe: for a tag already followed, inside its own window (a texture
quad that decodes to that very id just there is vanishingly unlikely). A corrected decode anywhere
else is held back one sighting: its tag is searched for in its own window from the next frame on and
reported once found there again. Random texture matches some code within two bits about 670 times as
often as exactly (1 + 36 + 630 patterns per code); such a ghost, flickering with the sensor noise,
would otherwise show up as an unknown tag or a second copy of a unit.

**Prediction.** A window is centred where the tag's velocity takes it. A tag missing for a few frames
(blurred by a fast slide, covered for a moment) is predicted along its last velocity for up to
``velocity_gap_s`` while its window grows; when it is found again, the displacement over the gap is
its new velocity (not the stale one, not zero). A tag whose velocity is unknown (seen once) gets a
window as wide as if it had been missed once.

**Where each stage lives.** This module holds the orchestrator, :meth:`FastTagDetector.detect`; the
stages are modules of their own: ``search_boxes`` (what a box and a step are), ``detect_workers`` (the
two cores), ``pixel_tracks`` (windows and prediction), ``still_tags``, ``change_sweep``, and
``decode_policy.corrected_decodes_expected`` (which corrected decodes to report).
"""
from __future__ import annotations

import math
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from tracker.change_sweep import ChangeSweep, coarse_thumbnail
from tracker.decode_policy import corrected_decodes_expected
from tracker.detect_workers import DealtJobs, DetectWorkers, RawCrop, detect_boxes, search_crops
from tracker.detections import TagDetections, concat_detections, detections_from_crops, one_per_tag
from tracker.detector_settings import FastDetectorSettings
from tracker.pixel_tracks import PixelTracks, rows_by_place
from tracker.search_boxes import (
    STEPS,
    WINDOW_STEPS,
    Box,
    Job,
    align_box,
    area_px,
    block_px,
    cut_jobs,
    frame_bands,
    grid_px,
    merge_boxes,
    step_for_edge,
    sweep_jobs,
    tile_overlap_px,
)
from tracker.still_tags import remember_patches, still_candidates, thumbnail, thumbnail_step, unchanged_tags

# Re-exported: where callers have always found them.
__all__ = ["STEPS", "DetectionWork", "FastDetectorSettings", "FastTagDetector", "drop_duplicates"]


@dataclass(frozen=True)
class DetectionWork:
    """What one frame cost: the pixels searched in windows and in sweep tiles.

    ``held``: corrected decodes not reported because no tag with their id was expected there (each is
    searched for in its own window from the next frame on, and reported once found there again).
    """

    window_px: int
    sweep_px: int
    windows: int
    tiles: int
    frame_px: int
    held: int = 0
    retried: int = 0  # windows searched again with the other sharpening (their tag was missing)
    whole_frame_rescue: bool = False  # many tags missed their windows: the whole frame was searched too
    unchanged: int = 0  # followed tags whose pixels had not changed: their last detection reported again
    background_px: int = 0  # the safety sweep's tiles, searched on the other core after the frame (not in sweep_px)

    @property
    def searched_share(self) -> float:
        return (self.window_px + self.sweep_px + self.background_px) / max(1, self.frame_px)


@dataclass(frozen=True)
class _Frame:
    """The frame being searched, grey, and what every batch of its detections is stamped with."""

    gray: np.ndarray
    index: int
    t_s: float
    size: tuple[int, int]  # width, height in pixels

    def empty(self) -> TagDetections:
        return TagDetections.empty(frame_index=self.index, t_s=self.t_s, frame_size_px=self.size)

    def concat(self, parts: list[TagDetections]) -> TagDetections:
        return concat_detections(parts, frame_index=self.index, t_s=self.t_s, frame_size_px=self.size)

    def from_crops(self, crops: list[RawCrop], max_hamming: int) -> TagDetections:
        return detections_from_crops(crops, frame_index=self.index, t_s=self.t_s, frame_size_px=self.size, max_hamming=max_hamming)

    def stamp(self) -> dict[str, object]:
        return {"frame_index": self.index, "t_s": self.t_s, "frame_size": self.size}


@dataclass
class _Searched:
    """What the first search of a frame found and where it looked (mutable, internal)."""

    found: TagDetections
    unchanged: TagDetections  # still tags reported unsearched
    expected: list[tuple[int, Box]]  # each followed tag's id and window (before merging)
    thumb: np.ndarray
    coarse: np.ndarray
    windows: list[Box]  # merged windows searched, aligned
    tiles: list[Box]  # sweep boxes (or whole-frame bands) searched, aligned
    background: list[Box] = field(default_factory=list)  # safety tiles left for the other core after the frame


class FastTagDetector:
    """Finds every tag36h11 tag of a frame at full resolution, spending time where tags are.

    Mutable (it remembers where tags were); one per video stream. ``close()`` stops its threads.
    """

    def __init__(
        self,
        *,
        settings: FastDetectorSettings | None = None,
        known_ids: frozenset[int] = frozenset(),
        smallest_tag_px: float | None = None,
    ) -> None:
        self.settings = settings or FastDetectorSettings()
        #: ids the game expects (roster, anchors): their corrected decodes are believed anywhere at once.
        self.known_ids = frozenset(int(i) for i in known_ids)
        #: the smallest a new tag can look (from the calibration: px per inch at the table's far edge x the
        #: roster's smallest tag); sets the sweep's decimation step. None: learnt from the tags seen.
        self.smallest_tag_px = smallest_tag_px
        self._workers = DetectWorkers(workers=self.settings.workers, retry_sharpening=self.settings.retry_sharpening)
        self._tracks = PixelTracks(self.settings)
        self._sweep = ChangeSweep(self.settings)
        self._frame_size: tuple[int, int] | None = None
        self._thumb_step = 8  # frame pixels per thumbnail pixel (set with the frame size)
        self._full_search = True
        self._frame_no = 0
        self.last_work: DetectionWork | None = None
        #: Tags followed until lately and missing now, each frame's set, the last few frames.
        self._gone: deque[set[int]] = deque(maxlen=self.settings.escalate_frames)
        #: The frame (``_frame_no``) each missing tag was last looked for by a whole-frame search.
        self._searched_whole_for: dict[int, int] = {}

    def request_full_search(self) -> None:
        """Search the whole next frame (after a gap in the stream, a camera bump, a re-registration)."""
        self._full_search = True

    def settle(self) -> None:
        """Wait until the other core has finished the safety sweep it may still be doing for an earlier
        frame (its result is taken in at the next frame, as usual). For measuring: work of ours must not
        run on into time counted for something else."""
        self._workers.settle()

    def close(self) -> None:
        self._workers.close()

    def __enter__(self) -> "FastTagDetector":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one frame -------------------------------------------------------------------------------
    def detect(self, image: np.ndarray, *, frame_index: int = 0, t_s: float = 0.0) -> TagDetections:
        """All tags of ``image`` (BGR or grey, uint8), corners in full-frame OpenCV pixels."""
        height, width = image.shape[:2]
        self._fit(width, height)
        full, self._full_search = self._full_search, False
        self._frame_no += 1
        settings = self.settings
        max_hamming = max(settings.max_hamming, settings.new_tag_max_hamming)
        # One grey frame for every window, tile and the thumbnail (none of it when the source gives grey).
        frame = _Frame(_gray(image), frame_index, t_s, (width, height))
        crops = self._workers.take_background()
        if crops is not None:
            # Tags the safety sweep found behind the last frame: followed from this frame on.
            self._tracks.follow_unconfirmed(detections_from_crops(crops, max_hamming=max_hamming), t_s)
        pool = self._workers.free_pool()

        # 1. Search: the whole frame, or the windows of tags that may have moved and the sweep's boxes.
        if full:
            searched = self._search_whole_frame(frame, pool, max_hamming)
        else:
            searched = self._search_windows_and_sweep(frame, pool, max_hamming)
        found = self._with_still_tags(frame, searched.unchanged, searched.found)

        # 2. Tags missing from their windows: a bumped camera (search the whole frame now), or retry.
        missing = [] if full else self._tracks.missing(found, searched.expected)
        rescue = bool(missing) and self._camera_bumped(missing, found, t_s)
        retried = 0
        if rescue:
            # A bumped camera or a board moved by hand: every window is in the wrong place. Searching
            # the whole frame now costs one slow frame; waiting for the sweep would report tags that are
            # in plain view as hidden, lost or lifted for several frames.
            bands = self._band_jobs(width, height, self._sweep_step())
            found = frame.concat([found, self._search_jobs(frame, bands, pool, max_hamming)])
            searched.tiles = searched.tiles + [box for box, _ in bands]
        if full or rescue:
            self._sweep.mark_searched(searched.coarse, None)
        elif missing:
            found, retried = self._retry_missing(frame, found, missing, max_hamming)
        # 2b. Tags lost a few at a time (a general motion, not a common shift): searched for in the whole
        # frame as soon as many have gone missing over the last few frames.
        # Also after a bump rescue: it searched at the sweep's step with the windows' sharpening, and
        # tags lost in motion (blurred, each moved its own way) can stay missing after it.
        escalate = self._escalate(found, full, t_s)
        if escalate is not None:
            bands = self._band_jobs(width, height, escalate)
            # With the retry's sharpening: the windows' own missed these tags (as the retry does).
            found = frame.concat([found, self._search_jobs(frame, bands, pool, max_hamming, retry=True)])
            searched.tiles = searched.tiles + [box for box, _ in bands]
            self._sweep.mark_searched(searched.coarse, None)
            rescue = True
        found = drop_duplicates(found, settings.duplicate_px)

        # 3. Report: corrected decodes away from their own windows are held back a frame.
        reported, held = self._hold_unexpected(frame, found, searched.expected, full)
        rows = rows_by_place(reported)
        self._tracks.update(reported, held, t_s, rows)
        reported = remember_patches(self._tracks.tracks, searched.thumb, reported, t_s, rows, settings, self._thumb_step)

        # 4. The safety sweep's tiles go to the other core, to search while the next frame is read.
        background = searched.background if not rescue and pool is not None else []
        if background:
            self._workers.search_later(frame.gray, background, self._sweep_step())  # aligns them in place
        self.last_work = DetectionWork(
            area_px(searched.windows), area_px(searched.tiles), len(searched.windows), len(searched.tiles) + len(background),
            width * height, held=len(held), retried=retried, whole_frame_rescue=rescue, unchanged=len(searched.unchanged),
            background_px=area_px(background),
        )
        return reported

    # -- the stages of a frame, in order ---------------------------------------------------------
    def _fit(self, width: int, height: int) -> None:
        """A picture of another size: forget where tags were and search it whole."""
        if self._frame_size != (width, height):
            self._frame_size = (width, height)
            self._thumb_step = thumbnail_step(self.settings, width)
            self._tracks.clear()
            self._full_search = True
            self._workers.drop_background()  # tiles of a picture of another size
        self._sweep.fit(width, height, self._thumb_step)

    def _search_whole_frame(self, frame: _Frame, pool: ThreadPoolExecutor | None, max_hamming: int) -> _Searched:
        """The first frame, or one after :meth:`request_full_search`: bands of equal area, one a core."""
        width, height = frame.size
        # Where each followed tag is expected: its window (on a whole-frame search it only decides
        # which corrected decodes to accept).
        expected = self._tracks.windows(self._tracks.tracks, frame.t_s, width, height)
        thumb = self._thumbnail(frame.gray)
        coarse = coarse_thumbnail(thumb)
        windows: list[Box] = []
        tiles = frame_bands(width, height, self._workers.count, self._band_overlap_px(width))
        found = self._search_boxes(frame, windows, tiles, 1.0, pool, max_hamming)
        return _Searched(found, frame.empty(), expected, thumb, coarse, windows, tiles)

    def _search_windows_and_sweep(self, frame: _Frame, pool: ThreadPoolExecutor | None, max_hamming: int) -> _Searched:
        """The windows of tags that may have moved, and the boxes where the picture changed.

        On a real table most units stand still most of the time: a tag whose pixels are as they were
        when it was last detected is still there, exactly; only the others are searched. The windows of
        tags that cannot be such (moving, missing, just put down, due for their re-check) are dealt out
        one by one, largest first: the other core starts at once and waits for the sweep's boxes that
        this one adds once it has made the thumbnail; this one joins when it has checked the still tags.
        Neither waits on the other while there is work.
        """
        width, height = frame.size
        t_s = frame.t_s
        candidates = still_candidates(self._tracks.tracks, self.settings, self._frame_no)
        # Where each tag to search is expected: its window (a still tag's only if it must be searched).
        maybe_still = {id(t) for t in candidates}
        expected = self._tracks.windows([t for t in self._tracks.tracks if id(t) not in maybe_still], t_s, width, height)
        sure = merge_boxes([box for _, box in expected])
        jobs = DealtJobs()
        dealt: list[Job] = []
        early = None
        background: list[Box] = []
        try:
            if self._workers.pool is not None and sure:
                # (Queued behind the safety sweep of an earlier frame if that still runs: this core
                # then takes every job, unless the other one gets free in time to help.)
                dealt = self._window_jobs(sure, width, height)
                jobs.add(dealt)
                early = self._workers.pool.submit(search_crops, self._workers.early, cut_jobs(frame.gray, jobs.until_closed()))
            thumb = self._thumbnail(frame.gray)
            coarse = coarse_thumbnail(thumb)
            # Change is expected only around units that are moving and seen (their blocks and shadows
            # sweep the sand); anywhere else - next to a still unit, where a tag went missing - a change
            # is news: a unit put down, or one that stopped where its window did not follow it.
            moving = self._tracks.moving_ids()
            moving_windows = [box for tag_id, box in expected if tag_id in moving]
            moving_windows += [box for _, box in self._tracks.windows([t for t in candidates if t.tag_id in moving], t_s, width, height)]
            tiles, safety = self._sweep.next_boxes(coarse, moving_windows)
            if pool is not None:
                background = safety  # the safety net's tiles wait for the end of the frame, then go to the other core
            else:
                tiles += safety
            if early is not None:
                # The other core starts on the sweep's boxes while this one checks the still tags.
                jobs.add(sweep_jobs(tiles, width, height, self._sweep_step()))
            unchanged = unchanged_tags(thumb, candidates, self.settings, **frame.stamp())
            changed = self._tracks.windows([t for t in candidates if not t.reused], t_s, width, height)
            expected += changed
            rest = merge_boxes([box for _, box in changed])
            if early is not None:
                more = self._window_jobs(rest, width, height)
                dealt += more
                jobs.add(more)
                jobs.close()
                mine = search_crops(self._workers.of_worker(0), cut_jobs(frame.gray, jobs.left()))
                theirs = [] if early.cancel() else early.result()  # cancelled: it never started, this core took all
                found = frame.from_crops(theirs + mine, max_hamming)
                windows = [box for box, _ in dealt]
            else:
                windows = merge_boxes(sure + rest)
                found = self._search_boxes(frame, windows, tiles, self._sweep_step(), pool, max_hamming)
        finally:
            jobs.close()  # the other core's thread never waits past this frame, whatever went wrong
        return _Searched(found, unchanged, expected, thumb, coarse, windows, tiles, background)

    def _with_still_tags(self, frame: _Frame, unchanged: TagDetections, found: TagDetections) -> TagDetections:
        """The still tags reported unsearched, and the tags found (less any still tag found again by a
        sweep box: it keeps its steadier mean detection)."""
        if len(unchanged) and len(found) and not set(unchanged.tag_ids.tolist()).isdisjoint(found.tag_ids.tolist()):
            again = np.array([
                any(math.dist(c, u) < self.settings.duplicate_px for u in unchanged.centers_px[unchanged.tag_ids == tag_id])
                for tag_id, c in zip(found.tag_ids.tolist(), found.centers_px)
            ])
            found = found.filter(~again)
        return frame.concat([unchanged, found])

    def _camera_bumped(self, missing: list[tuple[int, Box]], found: TagDetections, t_s: float) -> bool:
        """Many tags missing from their windows at once, or the tags found all moved alike."""
        settings = self.settings
        return (
            len(missing) >= max(settings.bump_min_missing, settings.bump_missing_share * self._tracks.seen_last_frame())
            or self._tracks.common_shift_px(found, t_s) >= settings.bump_shift_px
        )

    def _escalate(self, found: TagDetections, whole: bool, t_s: float) -> float | None:
        """The step to search the whole frame at now, or None: when tags seen within ``escalate_for_s``
        are missing, and the tags missing over the last ``escalate_frames`` frames are at least
        ``escalate_missing_share`` of those. Each missing tag asks for a whole-frame search at most once
        every ``escalate_every_frames`` frames (a tag under a hand, alone, stays below the share)."""
        settings = self.settings
        recent = [t for t in self._tracks.tracks if t.confirmed and t_s - t.last_seen_t <= settings.escalate_for_s]
        seen = set(found.tag_ids.tolist())
        gone = {t.tag_id for t in recent} - seen
        self._gone.append(gone)
        if whole:
            self._searched_whole_for.update(dict.fromkeys(gone, self._frame_no))
            return None
        due = {g for g in gone if self._frame_no - self._searched_whole_for.get(g, -1_000_000) >= settings.escalate_every_frames}
        lately = set().union(*self._gone)
        if not due or len(lately) < max(1.0, settings.escalate_missing_share * len(recent)):
            return None
        self._searched_whole_for.update(dict.fromkeys(gone, self._frame_no))
        # At the step the smallest missing tag allows wide enough even blurred (they are what is looked
        # for, and a tag lost in motion is soft: at the sweep's step the real hand-held clip kept losing them).
        smallest = min(t.edge_px for t in recent if t.tag_id in gone)
        return step_for_edge(smallest, settings.escalate_min_edge_px)

    def _retry_missing(
        self, frame: _Frame, found: TagDetections, missing: list[tuple[int, Box]], max_hamming: int
    ) -> tuple[TagDetections, int]:
        """A missing tag gets its window again at full resolution (if it was searched decimated), then
        with the other sharpening (the one that helps one tag breaks another). Costs nothing while every
        tag is found. Returns the detections with what was found, and the windows searched again."""
        width, height = frame.size
        retry = self._workers.retry
        decimated = {
            tag_id for tag_id, _ in missing
            if step_for_edge(self._tracks.edge_of(tag_id), self.settings.window_min_decimated_edge_px, WINDOW_STEPS) > 1
        }
        retried = 0
        for detector in (self._workers.full_resolution(), retry):
            todo = [(tag_id, box) for tag_id, box in missing if detector is retry or tag_id in decimated]
            if not todo:
                continue
            boxes = [(align_box(box, width, height), 1.0) for _, box in todo]
            extra = detect_boxes({1.0: detector}, frame.gray, boxes, **frame.stamp(), max_hamming=max_hamming)
            retried += len(todo)
            found = frame.concat([found, extra])
            missing = self._tracks.missing(found, missing)
            if not missing:
                break
        return found, retried

    def _hold_unexpected(
        self, frame: _Frame, found: TagDetections, expected: list[tuple[int, Box]], full: bool
    ) -> tuple[TagDetections, TagDetections]:
        """(reported, held): corrected decodes are reported only inside their own tag's window
        (:func:`~tracker.decode_policy.corrected_decodes_expected`); the others are held back a frame."""
        settings = self.settings
        if not full and np.any(found.hammings > settings.new_tag_max_hamming):
            # A corrected decode is believed inside its own tag's window: the still tags' count too.
            expected = expected + self._tracks.windows(self._tracks.reused(), frame.t_s, *frame.size)
        report = corrected_decodes_expected(
            found, expected, max_hamming=settings.max_hamming, new_tag_max_hamming=settings.new_tag_max_hamming,
            known_ids=self.known_ids,
        )
        if report.all():
            return found, frame.empty()
        return found.filter(report), found.filter(~report)

    # -- boxes and searching ---------------------------------------------------------------------
    def _window_jobs(self, windows: list[Box], width: int, height: int) -> list[Job]:
        """Merged windows with their decimation steps, aligned to the step's blocks.

        Not to the threshold tiles' grid as the sweep is (growing a 95 px window at step 4 to the 16 px
        grid adds a third to its area): a followed tag is found in a window binarised from another
        corner as well, and one that is not gets the window's full-resolution retry."""
        steps = self._tracks.window_steps(windows)
        return [(align_box(b, width, height, step=block_px(st)), st) for b, st in zip(windows, steps)]

    def _band_jobs(self, width: int, height: int, step: float) -> list[Job]:
        """The whole frame as one band a core, on the threshold grid of ``step``."""
        return [
            (align_box(b, width, height, step=grid_px(step)), step)
            for b in frame_bands(width, height, self._workers.count, self._band_overlap_px(width))
        ]

    def _band_overlap_px(self, width: int) -> int:
        """How far the whole-frame search's bands overlap: more than the largest tag followed can span
        (turned 45 degrees, with its border), so that no tag lies across the seam whole in neither band.
        Before any tag is known, a quarter of the frame's width: a tag wider than that is too close."""
        edges = [t.edge_px for t in self._tracks.tracks]
        if not edges:
            return max(tile_overlap_px(width), width // 4)
        largest = max(edges)
        span = largest * math.sqrt(2.0) + 2 * max(largest * self.settings.border_edges, self.settings.min_border_px)
        return max(tile_overlap_px(width), int(math.ceil(span)) + 8)

    def _search_boxes(
        self, frame: _Frame, windows: list[Box], tiles: list[Box], sweep_step: float, pool: ThreadPoolExecutor | None,
        max_hamming: int
    ) -> TagDetections:
        """Search merged windows and sweep boxes (both lists are aligned in place: the work accounting)."""
        width, height = frame.size
        jobs = self._window_jobs(windows, width, height) + sweep_jobs(tiles, width, height, sweep_step)
        windows[:] = [box for box, _ in jobs[: len(windows)]]
        return self._search_jobs(frame, jobs, pool, max_hamming)

    def _search_jobs(
        self, frame: _Frame, jobs: list[Job], pool: ThreadPoolExecutor | None, max_hamming: int, *, retry: bool = False
    ) -> TagDetections:
        return self._workers.search(
            frame.gray, jobs, pool, split_min_px=self.settings.split_min_px, **frame.stamp(), max_hamming=max_hamming,
            retry=retry,
        )

    def _sweep_step(self) -> float:
        """The sweep looks for tags not seen yet: as small as the calibration says they can be; without
        one, as small as the smallest tag seen (and full resolution until a few tags were seen)."""
        if self.smallest_tag_px is not None:
            return step_for_edge(self.smallest_tag_px, self.settings.min_decimated_edge_px)
        edges = self._tracks.confirmed_edges_px()
        return step_for_edge(min(edges), self.settings.min_decimated_edge_px) if len(edges) >= 3 else 1.0

    def _thumbnail(self, gray: np.ndarray) -> np.ndarray:
        return thumbnail(gray, self._thumb_step, samples=self.settings.thumbnail_samples).astype(np.float32)


def _gray(image: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def drop_duplicates(found: TagDetections, radius_px: float) -> TagDetections:
    """Keep one detection per tag seen twice (overlapping windows, tiles or bands): the one with the best
    margin. Two of one id closer than ``radius_px`` or half the tag's edge are one tag
    (:func:`tracker.detections.one_per_tag`)."""
    return one_per_tag(found, radius_px)
