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
"""
from __future__ import annotations

import math
import queue
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tracker.apriltag_native import detect_in_place
from tracker.detections import TagDetections, concat_detections, detections_from_crops, make_detector
from tracker.image_files import tag_search_possible


@dataclass(frozen=True)
class FastDetectorSettings:
    """How :class:`FastTagDetector` splits its work. Defaults measured by ``bench/tracking.py``."""

    workers: int = 2  # threads (and detectors); 2 = both cores of an ordinary laptop
    split_min_px: float = 40_000  # a frame's search smaller than this (full-resolution-equivalent pixels)
    # stays on one thread
    sweep_fraction: float = 1 / 384  # share of the tiles searched in round robin each frame whatever changed
    # (the safety net: a whole sweep in about 13 seconds at 30 frames/s; a tag put down is a change,
    # searched at once)
    changed_sweep_fraction: float = 1 / 8  # at most this share of the frame searched each frame because its
    # picture changed since it was last searched (a tag put down, a hand gone)
    change_threshold: float = 10.0  # grey levels on a 1/8-size thumbnail, after the frame's median change
    thumbnail_samples: int = 32  # frame pixels averaged into each thumbnail pixel, at least (see thumbnail())
    thumbnail_step: int = 8  # at 1920 px wide; scaled with the frame's width (a tag spans as many thumbnail pixels)
    reuse_still: bool = True  # False: every followed tag is searched in every frame (the old way; for comparison)
    still_change_threshold: float = 4.0  # a followed tag whose patch of the thumbnail changed less than this
    # (grey levels, after the patch's own exposure gain) since it was last detected has not moved: its last
    # detection is reported again without running the detector (a 1 px shift of a tag's edge changes its
    # thumbnail pixels by 15-20 levels)
    reverify_frames: int = 60  # ... but each such tag is detected for real at least once every this many
    # frames (spread over the frames by tag id), whatever its pixels say
    still_average: int = 4  # a still tag is reported again unchanged only once it has been detected this
    # many frames in a row at the same place (a unit just put down is searched for a seventh of a second);
    # from then on it is reported at the mean of its detections there (each within still_match_edges of the
    # mean)
    still_average_max: int = 32  # the mean's weight stops growing here, so that later detections still count
    still_match_edges: float = 0.02  # a detection whose corners all lie this close to the mean is the same
    # place (0.5 px for a 25 px tag); farther, the unit moved and the mean starts again
    change_mask_grow: float = 1.0  # change this many window sizes around a moving tag's window is its own
    moving_edges_per_s: float = 0.5  # a tag faster than this (tag edges per second) counts as moving
    tile_px: int = 480  # tile edge before the overlap is added (scaled with frame width / 1920)
    border_edges: float = 0.15  # white border kept around a tag in its window, in tag edges
    min_border_px: float = 6.0  # the detector needs a few of its 4x4 threshold tiles around a tag
    uncertainty_edges: float = 0.1  # margin for prediction error, in tag edges (plus half a frame's motion)
    min_decimated_edge_px: float = 12.5  # quads are found on the frame decimated by a step (1 to 4) that
    # keeps the tag at least this wide (edges and decoding stay at full resolution): 25 px tags at step 2.
    # The sweep for new tags keeps this; they are found nowhere else.
    window_min_decimated_edge_px: float = 11.0  # ... and a followed tag in its window this wide: 22 px tags at
    # step 2 (one in a hundred is missed there and found at once by the window's full-resolution retry)
    miss_growth_edges: float = 0.5  # the window grows this much per frame while its tag is missing
    max_growth_edges: float = 1.5
    forget_after_s: float = 10.0  # a tag missing this long is left to the sweep
    min_edge_px: float = 12.0  # smallest tag edge assumed when sizing windows and tile overlaps
    duplicate_px: float = 4.0  # same id closer than this: one tag found twice
    max_hamming: int = 2  # bits the detector may correct (its own limit; what the bare detector reports)
    new_tag_max_hamming: int = 0  # corrected bits reported at once for a tag not followed yet (see the module doc)
    candidate_forget_s: float = 0.5  # a tag seen once with corrected bits and not again is dropped after this
    velocity_gap_s: float = 0.5  # a missing tag is predicted along its velocity this long; after a longer gap
    # its velocity is unknown again
    retry_sharpening: float = 0.0  # a followed tag missing from its window is searched again with this
    # decoder sharpening (the windows use 0.25: it saves small soft tags and breaks some JPEG-ringed ones)
    bump_min_missing: int = 3  # this many tags seen in the last frame missing from their windows at once,
    bump_missing_share: float = 0.25  # and at least this share of them: the camera (or the board) moved;
    # the whole frame is searched in the same frame. So it is when any tag is missing while the tags
    bump_shift_px: float = 4.0  # found moved all alike by this much from where they were predicted


@dataclass
class _PixelTrack:
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


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive), full-frame pixels
Job = tuple[Box, float]  # a box, and the decimation step its quads are searched at (one of STEPS)
# pupil-apriltags decimates by whole steps, and by 1.5 (3x3 pixels into 2x2): a 1" tag at the far
# edge of a 1080p table (23 px) keeps 15 px at 1.5, where it would keep 11.5 px at 2 and be lost.
STEPS = (1.0, 1.5, 2.0, 3.0, 4.0)
# A followed tag's window, whose detection is what a still unit is reported at, skips 1.5: its corners
# come out a little less exact there (the demo's worst still unit 0.015" off its script against 0.011").
WINDOW_STEPS = (1.0, 2.0, 3.0, 4.0)


def step_for_edge(edge_px: float, min_decimated_edge_px: float = 12.5, steps: tuple[float, ...] = STEPS) -> float:
    """The largest decimation step of ``steps`` that keeps a tag of ``edge_px`` at least
    ``min_decimated_edge_px`` wide.

    >>> step_for_edge(25.4), step_for_edge(23.5), step_for_edge(50.8), step_for_edge(40.0), step_for_edge(17.0)
    (2.0, 1.5, 4.0, 3.0, 1.0)
    >>> step_for_edge(23.5, steps=WINDOW_STEPS)
    1.0
    """
    return max([s for s in steps if edge_px / s >= min_decimated_edge_px] or [1.0])


def block_px(step: float) -> int:
    """The pixels a decimation step takes in one block: 3 at 1.5 (3x3 into 2x2), else the step."""
    return 3 if step == 1.5 else int(step)


def grid_px(step: float) -> int:
    """The pixel grid a box searched at ``step`` starts on: the detector thresholds the decimated image
    in 4x4 tiles, 4 x step full pixels (a whole number for every step of STEPS; 6 at 1.5, whose 3x3
    blocks it holds)."""
    return int(round(4 * step))


def merge_boxes(boxes: list[Box]) -> list[Box]:
    """Merge overlapping boxes into their bounding boxes until none overlap.

    >>> merge_boxes([(0, 0, 10, 10), (5, 5, 20, 20), (30, 30, 40, 40)])
    [(0, 0, 20, 20), (30, 30, 40, 40)]
    """
    merged = list(boxes)
    changed = True
    while changed:
        changed = False
        out: list[Box] = []
        for box in merged:
            for i, other in enumerate(out):
                if box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]:
                    out[i] = (min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]), max(box[3], other[3]))
                    changed = True
                    break
            else:
                out.append(box)
        merged = out
    return sorted(merged)


def tile_grid(width: int, height: int, *, tile_px: int, overlap_px: int) -> list[Box]:
    """Tiles covering the frame, neighbours overlapping by ``overlap_px`` so no tag is cut in all of them.

    >>> tile_grid(100, 50, tile_px=50, overlap_px=10)
    [(0, 0, 55, 50), (45, 0, 100, 50)]
    """
    nx = max(1, math.ceil(width / tile_px))
    ny = max(1, math.ceil(height / tile_px))
    xs = [round(i * width / nx) for i in range(nx + 1)]
    ys = [round(j * height / ny) for j in range(ny + 1)]
    tiles = []
    for j in range(ny):
        for i in range(nx):
            tiles.append(
                (
                    max(0, xs[i] - overlap_px // 2),
                    max(0, ys[j] - overlap_px // 2),
                    min(width, xs[i + 1] + overlap_px - overlap_px // 2),
                    min(height, ys[j + 1] + overlap_px - overlap_px // 2),
                )
            )
    return tiles


def _bands(width: int, height: int, count: int, overlap_px: int) -> list[Box]:
    """``count`` vertical bands covering the frame, overlapping by ``overlap_px`` (a whole-frame search)."""
    edges = [round(i * width / count) for i in range(count + 1)]
    return [
        (max(0, edges[i] - overlap_px // 2), 0, min(width, edges[i + 1] + overlap_px - overlap_px // 2), height)
        for i in range(count)
    ]


def _balanced_split(jobs: list[Job], parts: int) -> list[list[Job]]:
    """Jobs dealt into ``parts`` lists of about equal cost (largest first, to the lightest list)."""
    lists: list[list[Job]] = [[] for _ in range(parts)]
    loads = [0.0] * parts

    for job in sorted(jobs, key=lambda j: -_job_cost(j)):
        k = loads.index(min(loads))
        lists[k].append(job)
        loads[k] += _job_cost(job)
    return lists


def _job_cost(job: Job) -> float:
    (x0, y0, x1, y1), step = job
    # Quad finding dominates and scales with the decimated area; decoding does not shrink.
    return (x1 - x0) * (y1 - y0) * (0.15 + 0.85 / (step * step))


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
        workers = max(1, int(self.settings.workers))
        # One detector per worker and step: quads on the decimated frame, edges refined and bits decoded
        # at full resolution (refine_edges), so the step costs no accuracy.
        self._step_detectors = {step: [make_detector(quad_decimate=step, nthreads=1) for _ in range(workers)] for step in STEPS}
        self._detectors = self._step_detectors[1.0]
        # Its own detectors for the windows started early on a worker (a detector serves one thread at a
        # time; the workers' own may be busy with the rest of the frame).
        self._early_detectors = {step: make_detector(quad_decimate=step, nthreads=1) for step in STEPS}
        self._retry_detector = make_detector(quad_decimate=1.0, nthreads=1, decode_sharpening=self.settings.retry_sharpening)
        self._pool = ThreadPoolExecutor(max_workers=workers - 1, thread_name_prefix="sandtable-detect") if workers > 1 else None
        # The safety sweep's tiles, searched on the other core between frames (while the next frame is
        # read); taken in at the next frame.
        self._background: Future[list[tuple[np.ndarray, int, int]]] | None = None
        self._tracks: list[_PixelTrack] = []
        self._tiles: list[Box] = []
        self._tile_cursor = 0
        # The thumbnail as it was when each part of the frame was last searched (parts searched at
        # different times hold pixels of different ages).
        self._reference: np.ndarray | None = None
        self._reference_mean: np.ndarray | None = None  # its cells' means (it changes only where searched)
        self._cells: tuple[Any, ...] | None = None  # the thumbnail's shape, and its cells' mean and spread
        self._frame_size: tuple[int, int] | None = None
        self._full_search = True
        self._sweep_credit = 0.0
        self._frame_no = 0
        self.last_work: DetectionWork | None = None

    def request_full_search(self) -> None:
        """Search the whole next frame (after a gap in the stream, a camera bump, a re-registration)."""
        self._full_search = True

    def settle(self) -> None:
        """Wait until the other core has finished the safety sweep it may still be doing for an earlier
        frame (its result is taken in at the next frame, as usual). For measuring: work of ours must not
        run on into time counted for something else."""
        if self._background is not None:
            wait([self._background])

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def __enter__(self) -> "FastTagDetector":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one frame -------------------------------------------------------------------------------
    def detect(self, image: np.ndarray, *, frame_index: int = 0, t_s: float = 0.0) -> TagDetections:
        """All tags of ``image`` (BGR or grey, uint8), corners in full-frame OpenCV pixels."""
        height, width = image.shape[:2]
        if self._frame_size != (width, height):
            self._frame_size = (width, height)
            self._tracks.clear()
            self._full_search = True
            self._tiles = []
            self._background = None  # tiles of a picture of another size
        if not self._tiles:
            self._tiles = tile_grid(width, height, tile_px=self._tile_px(width), overlap_px=self._overlap_px(width))
            self._tile_cursor = 0

        full = self._full_search
        self._frame_no += 1
        s = self.settings
        max_hamming = max(s.max_hamming, s.new_tag_max_hamming)
        size = (width, height)
        # One grey frame for every window, tile and the thumbnail (none of it when the source gives grey).
        image = _gray(image)
        unchanged = TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=size)
        early: Any = None
        background: list[Box] = []
        if self._background is not None and self._background.done():
            self._follow_background(self._background.result(), t_s, max_hamming)
            self._background = None
        # The other core, unless it is still on the safety sweep's tiles of an earlier frame.
        pool = self._pool if self._background is None else None
        if full:
            # Where each followed tag is expected: its window (on a whole-frame search it only decides
            # which corrected decodes to accept).
            expected = self._windows(t_s, width, height, self._tracks)
            thumb = self._thumbnail(image)
            coarse = self._coarse(thumb)
            windows: list[Box] = []
            tiles = _bands(width, height, len(self._detectors), self._overlap_px(width))
            self._full_search = False
            found = self._search(image, windows, tiles, 1, pool, frame_index=frame_index, t_s=t_s, max_hamming=max_hamming)
        else:
            # On a real table most units stand still most of the time: a tag whose pixels are as they
            # were when it was last detected is still there, exactly; only the others are searched.
            # The windows of tags that cannot be such (moving, missing, just put down, due for their
            # re-check) are searched on the other core while this one makes the thumbnail and checks
            # the rest.
            candidates = self._reuse_candidates()
            # Where each tag to search is expected: its window (a still tag's only if it must be searched).
            maybe_still = {id(t) for t in candidates}
            expected = self._windows(t_s, width, height, [t for t in self._tracks if id(t) not in maybe_still])
            sure = merge_boxes([box for _, box in expected])
            # The windows are dealt out one by one, largest first: the other core starts at once and
            # waits for the sweep's boxes that this one adds later; this one joins when it has checked
            # the rest. Neither waits on the other while there is work.
            jobs = _DealtJobs()
            dealt: list[Job] = []
            try:
                if self._pool is not None and sure:
                    # (Queued behind the safety sweep of an earlier frame if that still runs: this core
                    # then takes every job, unless the other one gets free in time to help.)
                    dealt = self._window_jobs(sure, width, height)
                    jobs.add(dealt)
                    early = self._pool.submit(_search_crops, self._early_detectors, _cut(image, jobs.until_closed()))
                thumb = self._thumbnail(image)
                coarse = self._coarse(thumb)
                # Change is expected only around units that are moving and seen (their blocks and shadows
                # sweep the sand); anywhere else - next to a still unit, where a tag went missing - a change
                # is news: a unit put down, or one that stopped where its window did not follow it.
                moving = {
                    t.tag_id
                    for t in self._tracks
                    if t.misses == 0 and t.velocity_known and math.hypot(*t.velocity) > self.settings.moving_edges_per_s * t.edge_px
                }
                moving_windows = [box for tag_id, box in expected if tag_id in moving]
                moving_windows += [box for _, box in self._windows(t_s, width, height, [t for t in candidates if t.tag_id in moving])]
                tiles, safety = self._next_tiles(coarse, moving_windows)
                if pool is not None:
                    # The safety net's tiles wait for the end of the frame, then go to the other core.
                    background = safety
                else:
                    tiles += safety
                if early is not None:
                    # The other core starts on the sweep's boxes while this one checks the still tags.
                    jobs.add(_sweep_jobs(tiles, width, height, self._sweep_step()))
                unchanged = self._unchanged_tags(thumb, candidates, frame_index=frame_index, t_s=t_s, frame_size=size)
                changed = self._windows(t_s, width, height, [t for t in candidates if not t.reused])
                expected += changed
                rest = merge_boxes([box for _, box in changed])
                if early is not None:
                    more = self._window_jobs(rest, width, height)
                    dealt += more
                    jobs.add(more)
                    jobs.close()
                    mine = _search_crops({step: d[0] for step, d in self._step_detectors.items()}, _cut(image, jobs.left()))
                    theirs = [] if early.cancel() else early.result()  # cancelled: it never started, this core took all
                    found = detections_from_crops(theirs + mine, frame_index=frame_index, t_s=t_s, frame_size_px=size, max_hamming=max_hamming)
                    windows = [box for box, _ in dealt]
                else:
                    windows = merge_boxes(sure + rest)
                    found = self._search(image, windows, tiles, self._sweep_step(), pool, frame_index=frame_index, t_s=t_s, max_hamming=max_hamming)
            finally:
                jobs.close()  # the other core's thread never waits past this frame, whatever went wrong
        if len(unchanged) and len(found) and not set(unchanged.tag_ids.tolist()).isdisjoint(found.tag_ids.tolist()):
            # A still tag found again by a sweep box keeps its steadier mean detection.
            again = np.array([
                any(math.dist(c, u) < s.duplicate_px for u in unchanged.centers_px[unchanged.tag_ids == tag_id])
                for tag_id, c in zip(found.tag_ids.tolist(), found.centers_px)
            ])
            found = found.filter(~again)
        found = concat_detections([unchanged, found], frame_index=frame_index, t_s=t_s, frame_size_px=size)
        missing = [] if full else self._missing(found, expected)
        rescue = bool(missing) and (
            len(missing) >= max(s.bump_min_missing, s.bump_missing_share * self._seen_last_frame())
            or self._common_shift_px(found, t_s) >= s.bump_shift_px
        )
        retried = 0
        if rescue:
            # A bumped camera or a board moved by hand: every window is in the wrong place. Searching
            # the whole frame now costs one slow frame; waiting for the sweep would report tags that are
            # in plain view as hidden, lost or lifted for several frames.
            step = self._sweep_step()
            bands = [
                (align_box(b, width, height, step=grid_px(step)), step)
                for b in _bands(width, height, len(self._detectors), self._overlap_px(width))
            ]
            extra = self._run(image, bands, pool, frame_index=frame_index, t_s=t_s, frame_size=size, max_hamming=max_hamming)
            found = concat_detections([found, extra], frame_index=frame_index, t_s=t_s, frame_size_px=size)
            tiles = tiles + [b for b, _ in bands]
        if full or rescue:
            self._mark_searched(coarse, None)
        elif missing:
            # A missing tag gets its window again at full resolution (if it was searched decimated), then
            # with the other sharpening (the one that helps one tag breaks another). Costs nothing
            # while every tag is found.
            decimated = {
                tag_id for tag_id, _ in missing
                if step_for_edge(self._edge_of(tag_id), s.window_min_decimated_edge_px, WINDOW_STEPS) > 1
            }
            for detector in (self._detectors[0], self._retry_detector):
                todo = [(tag_id, box) for tag_id, box in missing if detector is self._retry_detector or tag_id in decimated]
                if not todo:
                    continue
                boxes = [(align_box(box, width, height), 1.0) for _, box in todo]
                extra = _detect_boxes(
                    {1.0: detector}, image, boxes, frame_index=frame_index, t_s=t_s, frame_size=size, max_hamming=max_hamming
                )
                retried += len(todo)
                found = concat_detections([found, extra], frame_index=frame_index, t_s=t_s, frame_size_px=size)
                missing = self._missing(found, missing)
                if not missing:
                    break
        found = drop_duplicates(found, s.duplicate_px)
        if not full and np.any(found.hammings > s.new_tag_max_hamming):
            # A corrected decode is believed inside its own tag's window: the still tags' count too.
            expected = expected + self._windows(t_s, width, height, [t for t in self._tracks if t.reused])
        report = corrected_decodes_expected(
            found, expected, max_hamming=s.max_hamming, new_tag_max_hamming=s.new_tag_max_hamming, known_ids=self.known_ids
        )
        if report.all():
            reported, held = found, TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=size)
        else:
            reported, held = found.filter(report), found.filter(~report)
        rows = _rows_by_place(reported)
        self._update_tracks(reported, held, t_s, rows)
        reported = self._remember_patches(thumb, reported, t_s, rows)
        area = lambda boxes: sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)  # noqa: E731
        if background and not rescue and pool is not None:
            self._background = self._search_later(image, background)  # aligns them in place
        else:
            background = []
        self.last_work = DetectionWork(
            area(windows), area(tiles), len(windows), len(tiles) + len(background), width * height, held=len(held),
            retried=retried, whole_frame_rescue=rescue, unchanged=len(unchanged), background_px=area(background),
        )
        return reported

    def _window_jobs(self, windows: list[Box], width: int, height: int) -> list[Job]:
        """Merged windows with their decimation steps, aligned to the step's blocks.

        Not to the threshold tiles' grid as the sweep is (growing a 95 px window at step 4 to the 16 px
        grid adds a third to its area): a followed tag is found in a window binarised from another
        corner as well, and one that is not gets the window's full-resolution retry."""
        steps = self._window_steps(windows)
        return [(align_box(b, width, height, step=block_px(st)), st) for b, st in zip(windows, steps)]

    def _search(
        self, image: np.ndarray, windows: list[Box], tiles: list[Box], sweep_step: float, pool: ThreadPoolExecutor | None, *,
        frame_index: int, t_s: float, max_hamming: int
    ) -> TagDetections:
        """Search merged windows and sweep boxes (both lists are aligned in place: the work accounting)."""
        height, width = image.shape[:2]
        jobs = self._window_jobs(windows, width, height) + _sweep_jobs(tiles, width, height, sweep_step)
        windows[:] = [box for box, _ in jobs[: len(windows)]]
        return self._run(image, jobs, pool, frame_index=frame_index, t_s=t_s, frame_size=(width, height), max_hamming=max_hamming)

    def _search_later(self, image: np.ndarray, tiles: list[Box]) -> "Future[list[tuple[np.ndarray, int, int]]]":
        """The safety sweep's tiles searched on the other core after this frame (copies: the caller may
        reuse the frame's memory), for :meth:`_follow_background` at a later frame."""
        assert self._pool is not None
        height, width = image.shape[:2]
        crops = [(crop.copy(), x0, y0, step) for crop, x0, y0, step in _cut(image, _sweep_jobs(tiles, width, height, self._sweep_step()))]
        # The second worker's detectors: only a whole-frame search (:meth:`_run`) uses them besides, and
        # it never runs while this search does (it gets the other core only once this one is done).
        return self._pool.submit(_search_crops, {step: d[1] for step, d in self._step_detectors.items()}, crops)

    def _follow_background(self, crops: list[tuple[np.ndarray, int, int]], t_s: float, max_hamming: int) -> None:
        """Tags the safety sweep found that no track follows now: searched in their windows from this
        frame on, and reported once found there (one frame after the sweep saw them)."""
        found = detections_from_crops(crops, max_hamming=max_hamming)
        followed = {t.tag_id for t in self._tracks if t.misses == 0}
        for i, tag_id in enumerate(found.tag_ids.tolist()):
            if tag_id not in followed:
                followed.add(tag_id)
                self._tracks.append(
                    _PixelTrack(tag_id, found.centers_px[i].copy(), np.zeros(2), _edge_px(found.corners_px[i]), t_s, confirmed=False)
                )

    def _common_shift_px(self, found: TagDetections, t_s: float) -> float:
        """How far the tags found moved all alike from where they were predicted (median shift, px):
        the mark of a camera bumped or a board pushed, unlike units moved one by one."""
        s = self.settings
        shifts = []
        for track in self._tracks:
            if not (track.confirmed and track.misses == 0):
                continue
            if track.reused:
                shifts.append(np.zeros(2))  # its pixels had not changed: it is where it was
                continue
            idx = np.flatnonzero(found.tag_ids == track.tag_id)
            if len(idx) == 0:
                continue
            dt = min(max(0.0, t_s - track.last_seen_t), s.velocity_gap_s)
            predicted = track.center + track.velocity * dt
            shifts.append(found.centers_px[idx[np.argmin(np.linalg.norm(found.centers_px[idx] - predicted, axis=1))]] - predicted)
        if len(shifts) < 3:
            return 0.0
        median = np.median(np.array(shifts), axis=0)
        return float(np.linalg.norm(median))

    def _seen_last_frame(self) -> int:
        return sum(1 for t in self._tracks if t.confirmed and t.misses == 0)

    def _missing(self, found: TagDetections, expected: list[tuple[int, Box]]) -> list[tuple[int, Box]]:
        """The windows of tags seen in the last frame whose tag was not found in them now."""
        fresh = {t.tag_id for t in self._tracks if t.confirmed and t.misses == 0}
        where: dict[int, list[tuple[float, float]]] = {}
        for tag_id, (x, y) in zip(found.tag_ids.tolist(), found.centers_px.tolist()):
            where.setdefault(tag_id, []).append((x, y))
        out = []
        for tag_id, (x0, y0, x1, y1) in expected:
            if tag_id in fresh and not any(x0 <= x < x1 and y0 <= y < y1 for x, y in where.get(tag_id, ())):
                out.append((tag_id, (x0, y0, x1, y1)))
        return out

    def _tile_px(self, width: int) -> int:
        return max(96, round(self.settings.tile_px * width / 1920))

    def _overlap_px(self, width: int) -> int:
        # Wide enough that a 2" anchor seen close to the camera is whole in at least one tile.
        return max(48, round(80 * width / 1920))

    def _step(self, edge_px: float) -> float:
        return step_for_edge(edge_px, self.settings.min_decimated_edge_px)

    def _edge_of(self, tag_id: int) -> float:
        return min((t.edge_px for t in self._tracks if t.tag_id == tag_id), default=0.0)

    def _sweep_step(self) -> float:
        """The sweep looks for tags not seen yet: as small as the calibration says they can be; without
        one, as small as the smallest tag seen (and full resolution until a few tags were seen)."""
        if self.smallest_tag_px is not None:
            return self._step(self.smallest_tag_px)
        edges = [t.edge_px for t in self._tracks if t.confirmed]
        return self._step(min(edges)) if len(edges) >= 3 else 1.0

    def _window_steps(self, windows: list[Box]) -> list[float]:
        """Each merged window's step: that of the smallest tag whose last position lies in it."""
        steps = []
        for x0, y0, x1, y1 in windows:
            inside = [t.edge_px for t in self._tracks if x0 <= t.center[0] < x1 and y0 <= t.center[1] < y1]
            steps.append(step_for_edge(min(inside), self.settings.window_min_decimated_edge_px, WINDOW_STEPS) if inside else 1.0)
        return steps

    def _thumb_step(self) -> int:
        """Frame pixels per thumbnail pixel: a power of two near 8 per 1920 px of width (a tag spans as
        many thumbnail pixels at any resolution)."""
        width = self._frame_size[0] if self._frame_size else 1920
        return 1 << max(0, round(math.log2(max(1.0, self.settings.thumbnail_step * width / 1920))))

    def _thumbnail(self, gray: np.ndarray) -> np.ndarray:
        return thumbnail(gray, self._thumb_step(), samples=self.settings.thumbnail_samples).astype(np.float32)

    def _change_step(self) -> int:
        return 2 * self._thumb_step()

    def _coarse(self, thumb: np.ndarray) -> np.ndarray:
        """The thumbnail at half its resolution, where the frame is watched for change: what is put
        down or taken away (a unit and its base, a hand) covers several of its pixels, and comparing a
        quarter of the pixels costs a quarter as much."""
        import cv2

        h, w = max(2, thumb.shape[0]) // 2, max(2, thumb.shape[1]) // 2
        return cv2.resize(thumb[: 2 * h, : 2 * w], (w, h), interpolation=cv2.INTER_LINEAR)

    def _patch_slice(self, centre: np.ndarray, edge_px: float) -> tuple[slice, slice]:
        """The thumbnail pixels over a tag and a quarter of its width around it."""
        k = self._thumb_step()
        r = edge_px * (math.sqrt(0.5) + 0.25)
        return (
            slice(max(0, int((centre[1] - r) // k)), int(-(-(centre[1] + r) // k))),
            slice(max(0, int((centre[0] - r) // k)), int(-(-(centre[0] + r) // k))),
        )

    def _reuse_candidates(self) -> list[_PixelTrack]:
        """The followed tags that may be reported unsearched this frame, if their pixels have not changed:
        seen in the last frame, detected ``still_average`` times at one place, their re-check not due."""
        s = self.settings
        out = []
        for track in self._tracks:
            track.reused = False
            if not s.reuse_still:
                continue
            if not (track.confirmed and track.misses == 0 and track.ref_detection is not None and track.ref_patch is not None):
                continue
            if track.ref_count < s.still_average:
                continue
            if s.reverify_frames > 0 and (self._frame_no + track.tag_id * 7) % s.reverify_frames == 0:
                continue
            out.append(track)
        return out

    def _unchanged_tags(
        self, thumb: np.ndarray, candidates: list[_PixelTrack], *, frame_index: int, t_s: float, frame_size: tuple[int, int]
    ) -> TagDetections:
        """The last detection of each candidate (:meth:`_reuse_candidates`) whose thumbnail patch is as it
        was when the tag was last detected (after the patch's exposure gain)."""
        s = self.settings
        rows = []
        candidates = [t for t in candidates if t.ref_index is not None and t.ref_index.size]
        if candidates:
            # All the patches at once (this runs for every still tag in every frame): each patch's
            # gain, then its largest difference from before.
            sizes = np.array([t.ref_index.size for t in candidates])
            starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
            now = thumb.ravel()[np.concatenate([t.ref_index for t in candidates])]
            before = np.concatenate([t.ref_patch for t in candidates])
            gain = np.add.reduceat(now, starts) / sizes / np.array([t.ref_mean for t in candidates])
            worst = np.maximum.reduceat(np.abs(now - np.repeat(gain.astype(np.float32), sizes) * before), starts)
            for track, still in zip(candidates, (worst < s.still_change_threshold).tolist()):
                if still:
                    track.reused = True
                    rows.append((track.tag_id, *track.ref_detection))
        if not rows:
            return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size)
        return TagDetections(
            tag_ids=np.array([r[0] for r in rows], dtype=np.int64),
            corners_px=np.array([r[1] for r in rows], dtype=np.float64),
            centers_px=np.array([r[2] for r in rows], dtype=np.float64),
            decision_margins=np.array([r[3] for r in rows], dtype=np.float64),
            hammings=np.array([r[4] for r in rows], dtype=np.int64),
            frame_index=frame_index,
            t_s=t_s,
            frame_size_px=frame_size,
        )

    def _remember_patches(
        self, thumb: np.ndarray, reported: TagDetections, t_s: float, rows: dict[tuple[int, float, float], int]
    ) -> TagDetections:
        """Each tag detected for real in this frame keeps this detection and its thumbnail patch; a tag
        detected where it stood is reported at the mean of its detections there (returned). ``rows``:
        :func:`_rows_by_place` of ``reported``."""
        corners_out = centres_out = None  # copied at the first mean reported (most frames have none)
        for track in self._tracks:
            if track.reused or not track.confirmed or track.misses or track.last_seen_t != t_s:
                continue
            i = rows.get((track.tag_id, float(track.center[0]), float(track.center[1])))
            if i is None:
                continue
            corners, centre = reported.corners_px[i], reported.centers_px[i]
            margin, hamming = float(reported.decision_margins[i]), int(reported.hammings[i])
            before = track.ref_detection
            limit = self.settings.still_match_edges * track.edge_px
            if self.settings.reuse_still and before is not None and float(((corners - before[0]) ** 2).sum(axis=1).max()) <= limit * limit:
                # The same place again: the mean of the detections there is steadier than each of them.
                n = min(track.ref_count, self.settings.still_average_max)
                corners = (n * before[0] + corners) / (n + 1)
                centre = (n * before[1] + centre) / (n + 1)
                track.ref_count += 1
                if n >= self.settings.still_average:
                    # Reported from now on; until then the raw detections are (the pose filter
                    # averages a still unit's measurements itself, and this mean is theirs).
                    if corners_out is None:
                        corners_out, centres_out = reported.corners_px.copy(), reported.centers_px.copy()
                    corners_out[i], centres_out[i] = corners, centre
            else:
                track.ref_count = 1
            track.ref_detection = (corners.copy(), centre.copy(), margin, hamming)
            track.at_ref = False
            if not (self.settings.reuse_still and track.ref_count >= self.settings.still_average):
                # Its patch is looked at only once it may be reported unsearched; a moving tag (a new
                # place each frame) never is, and the detection that makes it eligible takes the patch.
                track.ref_index = track.ref_patch = None
                continue
            ys, xs = self._patch_slice(track.center, track.edge_px)
            track.ref_index = (np.arange(ys.start, min(ys.stop, thumb.shape[0]))[:, None] * thumb.shape[1]
                               + np.arange(xs.start, min(xs.stop, thumb.shape[1]))[None, :]).ravel()
            track.ref_patch = thumb.ravel()[track.ref_index]
            track.ref_mean = max(1.0, float(track.ref_patch.sum()) / track.ref_patch.size) if track.ref_patch.size else 1.0
        return reported if corners_out is None else replace(reported, corners_px=corners_out, centers_px=centres_out)

    def _next_tiles(self, coarse: np.ndarray, windows: list[Box]) -> tuple[list[Box], list[Box]]:
        """Boxes around the parts of the picture that changed since they were last searched (most
        changed first, at most ``changed_sweep_fraction`` of the frame), and the slow round robin's tiles
        (the safety net that searches every tile in turn). The searched parts of ``coarse``
        (:meth:`_coarse`) become their new reference."""
        s = self.settings
        k = self._change_step()
        picked: list[Box] = []
        width, height = self._frame_size or (coarse.shape[1] * k, coarse.shape[0] * k)
        if self._reference is not None:
            picked = self._changed_boxes(coarse, windows, width, height)
        self._sweep_credit += s.sweep_fraction * len(self._tiles)
        count = int(self._sweep_credit)
        self._sweep_credit -= count
        safety: list[Box] = []
        for _ in range(min(count, len(self._tiles))):
            safety.append(self._tiles[self._tile_cursor])
            self._tile_cursor = (self._tile_cursor + 1) % len(self._tiles)
        self._mark_searched(coarse, picked + safety)
        return picked, safety

    def _mark_searched(self, coarse: np.ndarray, boxes: list[Box] | None) -> None:
        """The coarse thumbnail under each box (less a margin where a tag could be cut by the box's edge) is
        now what was last searched there; ``None``: the whole frame was."""
        if boxes is None or self._reference is None or self._reference.shape != coarse.shape:
            self._reference = coarse.copy()
            self._reference_mean = None
            return
        k = self._change_step()
        m = self._overlap_px(self._frame_size[0] if self._frame_size else coarse.shape[1] * k) // 2
        width, height = coarse.shape[1] * k, coarse.shape[0] * k
        for x0, y0, x1, y1 in boxes:
            # A box at the frame's edge keeps its edge: no tag is cut there.
            a = 0 if x0 <= 0 else x0 + m
            b = 0 if y0 <= 0 else y0 + m
            c = width if x1 >= width else x1 - m
            d = height if y1 >= height else y1 - m
            if c > a and d > b:
                ys, xs = slice(-(-b // k), d // k), slice(-(-a // k), c // k)
                self._reference[ys, xs] = coarse[ys, xs]
                self._reference_mean = None

    def _changed_boxes(self, coarse: np.ndarray, windows: list[Box], width: int, height: int) -> list[Box]:
        import cv2

        s = self.settings
        k = self._change_step()
        reference = self._reference
        assert reference is not None
        # Auto-exposure scales every pixel alike (and uneven light makes that local): each tile is
        # compared with its reference at the tile's own gain, and only change beyond the tile's typical
        # change counts; a tag put down or a hand is a few coarse thumbnail pixels that stand out.
        if self._cells is None or self._cells[0] != coarse.shape:
            self._cells = (coarse.shape, *_cell_mean_and_spread(coarse.shape, self._cell_grid(coarse.shape)))
            self._reference_mean = None
        _, mean, spread = self._cells
        if self._reference_mean is None:
            self._reference_mean = np.maximum(1.0, mean(reference))
        gain = spread(mean(coarse) / self._reference_mean)
        diff = cv2.absdiff(coarse, gain * reference)
        diff -= spread(mean(diff))
        g = s.change_mask_grow
        for x0, y0, x1, y1 in windows:
            # Followed units move in and around their windows (a tag's block and shadow are bigger than
            # its card): not news.
            gx, gy = g * (x1 - x0), g * (y1 - y0)
            diff[max(0, int((y0 - gy) // k)) : int(-(-(y1 + gy) // k)), max(0, int((x0 - gx) // k)) : int(-(-(x1 + gx) // k))] = 0.0
        changed = (diff >= s.change_threshold).astype(np.uint8)
        if not changed.any():
            return []
        # Grown by half a tile overlap (wide enough for a 2" anchor close to the camera): a tag whose
        # card changed a few coarse thumbnail pixels lies whole in its box.
        r = max(1, -(-(self._overlap_px(width) // 2) // k))
        grown = cv2.dilate(changed, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
        # Each patch of change, the strongest first (its outline's bounding box: OpenCV's contours take a
        # tenth of the time of its connected components on a coarse thumbnail).
        contours, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        rects = [cv2.boundingRect(c) for c in contours]
        peaks = [float(diff[y : y + h, x : x + w].max()) for x, y, w, h in rects]
        budget = s.changed_sweep_fraction * width * height
        boxes: list[Box] = []
        for _, (x, y, w, h) in sorted(zip(peaks, rects), key=lambda pr: -pr[0]):
            box = (x * k, y * k, min(width, (x + w) * k), min(height, (y + h) * k))
            area = (box[2] - box[0]) * (box[3] - box[1])
            if boxes and area > budget:
                continue  # the rest waits for the next frames (their reference is not updated)
            budget -= area
            boxes.append(box)
        return boxes

    def _cell_grid(self, shape: tuple[int, ...]) -> tuple[int, int]:
        """How many cells (across, down) of about a tile each the coarse thumbnail is split into to
        measure the exposure gain."""
        k = self._change_step()
        tile = self._tile_px(shape[1] * k)
        return (max(1, round(shape[1] * k / tile)), max(1, round(shape[0] * k / tile)))

    def _windows(self, t_s: float, width: int, height: int, tracks: list[_PixelTrack]) -> list[tuple[int, Box]]:
        """Each of ``tracks``' tag id and the box it is searched in (before merging and grid alignment)."""
        s = self.settings
        boxes = []
        for track in tracks:
            edge = max(track.edge_px, s.min_edge_px)
            # A missing tag is predicted along its last velocity for a while (a fast slide blurs a tag
            # beyond decoding for a few frames), not forever (it has stopped, or was lifted).
            dt = min(max(0.0, t_s - track.last_seen_t), s.velocity_gap_s)
            centre = track.center + track.velocity * dt
            # A tag whose velocity is unknown (seen once, or again after a long gap) may be moving: its
            # window is as wide as if it had been missed once.
            unknown_motion = 0 if track.velocity_known else 1
            grow = min(s.max_growth_edges, s.miss_growth_edges * (track.misses + unknown_motion))
            # The detector thresholds in 4x4 tiles against their neighbours: a small tag needs a few
            # tiles of context around it whatever its size, hence the floors in pixels.
            border = max(edge * s.border_edges, s.min_border_px)
            slack = max(edge * s.uncertainty_edges, 3.0) + 0.5 * math.hypot(*track.velocity) * dt
            half = edge * (math.sqrt(0.5) + grow) + border + slack
            x0 = int(max(0, math.floor(centre[0] - half)))
            y0 = int(max(0, math.floor(centre[1] - half)))
            x1 = int(min(width, math.ceil(centre[0] + half) + 1))
            y1 = int(min(height, math.ceil(centre[1] + half) + 1))
            if x1 - x0 >= 8 and y1 - y0 >= 8:
                boxes.append((track.tag_id, (x0, y0, x1, y1)))
        return boxes

    def _run(
        self, image: np.ndarray, jobs: list[Job], pool: ThreadPoolExecutor | None, *, frame_index: int, t_s: float,
        frame_size: tuple[int, int], max_hamming: int
    ) -> TagDetections:
        # Handing work to the other thread costs more than a few small windows take.
        small = sum(_job_cost(j) for j in jobs) < self.settings.split_min_px
        parts = _balanced_split(jobs, 1 if small or pool is None else len(self._detectors))

        def work(k: int) -> TagDetections:
            detectors = {step: d[k] for step, d in self._step_detectors.items()}
            return _detect_boxes(
                detectors, image, parts[k], frame_index=frame_index, t_s=t_s, frame_size=frame_size, max_hamming=max_hamming
            )

        futures = [pool.submit(work, k) for k in range(1, len(parts)) if parts[k]] if pool else []
        results = [work(0)] + [f.result() for f in futures]
        return concat_detections(results, frame_index=frame_index, t_s=t_s, frame_size_px=frame_size)

    def _update_tracks(
        self, found: TagDetections, held: TagDetections, t_s: float, rows: dict[tuple[int, float, float], int]
    ) -> None:
        """Move each followed tag to its detection in ``found``; start following new ones.

        ``held`` are corrected decodes away from any window of their id: they start unconfirmed tracks,
        searched for in their windows like any other and reported once found there.
        """
        s = self.settings
        matched: set[int] = set()
        used: set[int] = set()
        ids = found.tag_ids.tolist()
        # A still tag reported unsearched is its own detection, repeated: nothing moved (``rows``:
        # :func:`_rows_by_place` of ``found``).
        for k, track in enumerate(self._tracks):
            if track.reused:
                i = rows.get((track.tag_id, *track.ref_detection[1].tolist()))
                if i is not None and i not in used:
                    used.add(i)
                    matched.add(k)
                    self._see_again(track, found.centers_px[i], found.corners_px[i], t_s)
        # Each other detection goes to the nearest track of its id (a tag may be followed twice for a
        # moment: the old track where it vanished and a new one where it was found again).
        by_id: dict[int, list[int]] = {}
        for k, t in enumerate(self._tracks):
            if k not in matched:
                by_id.setdefault(t.tag_id, []).append(k)
        order = sorted(
            (math.dist(found.centers_px[i], self._tracks[k].center), i, k)
            for i in range(len(found))
            if i not in used
            for k in by_id.get(ids[i], ())
        )
        for _, i, k in order:
            if i in used or k in matched:
                continue
            used.add(i)
            matched.add(k)
            self._see(self._tracks[k], found.centers_px[i], found.corners_px[i], t_s)
        for k, track in enumerate(self._tracks):
            if k not in matched:
                track.misses += 1
        for i in range(len(found)):
            if i not in used:
                self._tracks.append(
                    _PixelTrack(int(found.tag_ids[i]), found.centers_px[i].copy(), np.zeros(2), _edge_px(found.corners_px[i]), t_s)
                )
        for i in range(len(held)):
            self._tracks.append(
                _PixelTrack(
                    int(held.tag_ids[i]), held.centers_px[i].copy(), np.zeros(2), _edge_px(held.corners_px[i]), t_s, confirmed=False
                )
            )
        if all(t.last_seen_t == t_s for t in self._tracks) and len({t.tag_id for t in self._tracks}) == len(self._tracks):
            return  # the usual frame: every tag seen now, each once; nothing to forget or merge
        kept: list[_PixelTrack] = []
        kept_by_id: dict[int, list[_PixelTrack]] = {}
        for track in sorted(self._tracks, key=lambda t: t.last_seen_t, reverse=True):
            limit = s.forget_after_s if track.confirmed else s.candidate_forget_s
            if t_s - track.last_seen_t > limit:
                continue
            # A track of a tag found again elsewhere that has since caught up with it: one is enough.
            same = kept_by_id.setdefault(track.tag_id, [])
            if any(math.dist(o.center, track.center) < s.duplicate_px for o in same):
                continue
            same.append(track)
            kept.append(track)
        self._tracks = kept

    def _see_again(self, track: _PixelTrack, centre: np.ndarray, corners: np.ndarray, t_s: float) -> None:
        """:meth:`_see` for a still tag's repeated detection: its velocity decays as a zero displacement
        would make it, and its centre and size are the repeated mean's."""
        dt = t_s - track.last_seen_t
        if not (track.at_ref and track.velocity_known and 0 < dt <= self.settings.velocity_gap_s):
            self._see(track, centre, corners, t_s)
            track.at_ref = True
            return
        track.velocity *= 0.5
        track.last_seen_t = t_s
        track.misses = 0
        track.confirmed = True

    def _see(self, track: _PixelTrack, centre: np.ndarray, corners: np.ndarray, t_s: float) -> None:
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
        track.edge_px = _edge_px(corners)
        track.last_seen_t = t_s
        track.misses = 0
        track.confirmed = True


def _cell_mean_and_spread(shape: tuple[int, ...], cells: tuple[int, int]) -> tuple[Any, Any]:
    """Two functions for an image of ``shape`` cut into ``cells`` (across, down): each cell's mean, and
    a per-cell array spread back over the cells' pixels. (Sums of whole pixels: OpenCV's area resize to
    a size that does not divide the image takes ten times as long.)"""
    height, width = shape[:2]
    nx, ny = cells
    ys, xs = (np.arange(ny) * height) // ny, (np.arange(nx) * width) // nx
    ry, rx = np.diff(np.append(ys, height)), np.diff(np.append(xs, width))
    area = np.outer(ry, rx).astype(np.float32)

    def mean(a: np.ndarray) -> np.ndarray:
        return (np.add.reduceat(np.add.reduceat(a, ys, axis=0, dtype=np.float64), xs, axis=1) / area).astype(np.float32)

    def spread(c: np.ndarray) -> np.ndarray:
        return np.repeat(np.repeat(c, ry, axis=0), rx, axis=1)

    return mean, spread


def thumbnail(gray: np.ndarray, k: int, *, samples: int = 32) -> np.ndarray:
    """The mean of each k x k block of ``gray`` (k a power of two), from some of its rows.

    Each block gives at least ``samples`` pixels of its whole width on evenly spaced rows: reading
    every row of a 4K frame costs more than the rest of a frame's tracking, and a tag's edge or bits
    that move change the sampled rows as much as all of them; 32 samples average the sensor noise to a
    sixth. Means are taken by halving (OpenCV's linear resize at exactly half is a 2-pixel mean), three
    times faster than its area resize.

    >>> import numpy as np
    >>> thumbnail(np.arange(64, dtype=np.uint8).reshape(8, 8) * 2, 4).tolist()
    [[27, 35], [91, 99]]
    """
    import cv2

    rows = max(1, min(k, k * k // samples))
    tx, ty = max(1, gray.shape[1] // k), max(1, gray.shape[0] // k)
    img = gray[rows // 2 :: rows][: ty * (k // rows), : tx * k] if rows > 1 else gray[: ty * k, : tx * k]
    while img.shape[1] > tx or img.shape[0] > ty:
        img = cv2.resize(
            img, (max(tx, img.shape[1] // 2), max(ty, img.shape[0] // 2)), interpolation=cv2.INTER_LINEAR
        )
    return img


def _gray(image: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _edge_px(corners: np.ndarray) -> float:
    (a, b, c, d) = corners.tolist()
    return (math.dist(a, b) + math.dist(b, c) + math.dist(c, d) + math.dist(d, a)) / 4.0


def align_box(box: Box, width: int, height: int, *, step: int = 4) -> Box:
    """Grow a box to multiples of ``step`` pixels (clipped to the frame).

    The detector binarises in 4x4 tiles counted from the image's corner; a crop that starts on the
    same grid binarises its pixels exactly as the whole frame would, so a tag at the edge of
    detectability is found in the crop whenever it is found in the whole frame.

    >>> align_box((5, 6, 17, 18), 100, 100)
    (4, 4, 20, 20)
    """
    x0, y0, x1, y1 = box
    return (
        x0 - x0 % step,
        y0 - y0 % step,
        min(width, x1 + (-x1) % step),
        min(height, y1 + (-y1) % step),
    )


def corrected_decodes_expected(
    found: TagDetections,
    expected: list[tuple[int, Box]],
    *,
    max_hamming: int = 2,
    new_tag_max_hamming: int = 0,
    known_ids: frozenset[int] = frozenset(),
) -> np.ndarray:
    """Which detections to keep: exact decodes, and corrected ones inside a window of a tag with their id.

    ``expected`` lists (tag id, box) of the tags followed; a detection with up to ``new_tag_max_hamming``
    corrected bits is kept anywhere, one with up to ``max_hamming`` only if its centre lies in a box of
    its own id, or if its id is one of ``known_ids`` (the roster's and the anchors').

    >>> import numpy as np
    >>> from tracker.detections import TagDetections
    >>> found = TagDetections(np.array([7, 7, 8]), np.zeros((3, 4, 2)), np.array([[5.0, 5], [50, 50], [5, 5]]),
    ...                       np.ones(3), np.array([1, 1, 0]))
    >>> corrected_decodes_expected(found, [(7, (0, 0, 10, 10))]).tolist()
    [True, False, True]
    """
    keep = found.hammings <= new_tag_max_hamming
    for i in np.flatnonzero(~keep & (found.hammings <= max_hamming)):
        x, y = found.centers_px[i]
        tag_id = int(found.tag_ids[i])
        keep[i] = tag_id in known_ids or any(t == tag_id and b[0] <= x < b[2] and b[1] <= y < b[3] for t, b in expected)
    return keep


def _search_crops(detectors: dict[float, Any], crops: Iterable[tuple[np.ndarray, int, int, float]]) -> list[tuple[np.ndarray, int, int]]:
    """The detector's raw results in each grey crop (given with its top-left pixel in the frame and its
    step), for :func:`detections_from_crops` to convert at once: a worker thread does as little in
    Python as it can, so that it seldom waits for the other to let go of Python's lock."""
    out = []
    for crop, x0, y0, step in crops:
        if tag_search_possible(crop):  # a sliver at the frame's edge: no tag fits, and the detector would crash
            found = detect_in_place(detectors[step], crop)
            if len(found):
                out.append((found, x0, y0))
    return out


def _cut(image: np.ndarray, jobs: Iterable[Job]) -> Iterator[tuple[np.ndarray, int, int, float]]:
    """Each job's box of the (grey) frame, where it lies, with its top-left pixel and step."""
    for (x0, y0, x1, y1), step in jobs:
        yield image[y0:y1, x0:x1], x0, y0, step


def _detect_boxes(
    detectors: dict[float, Any],
    image: np.ndarray,
    jobs: list[Job],
    *,
    frame_index: int,
    t_s: float,
    frame_size: tuple[int, int],
    max_hamming: int,
) -> TagDetections:
    return detections_from_crops(
        _search_crops(detectors, _cut(image, jobs)), frame_index=frame_index, t_s=t_s, frame_size_px=frame_size, max_hamming=max_hamming
    )


def _rows_by_place(found: TagDetections) -> dict[tuple[int, float, float], int]:
    """Each detection's row by its tag id and exact centre: how a track finds the detection it was
    moved to (or repeated from)."""
    return {(tag_id, x, y): i for i, (tag_id, (x, y)) in enumerate(zip(found.tag_ids.tolist(), found.centers_px.tolist()))}


def _sweep_jobs(tiles: list[Box], width: int, height: int, step: float) -> list[Job]:
    """The sweep's boxes as jobs at ``step``, each grown onto the detector's threshold grid (the list is
    aligned in place: the work accounting counts what was searched)."""
    tiles[:] = [align_box(b, width, height, step=grid_px(step)) for b in tiles]
    return [(box, step) for box in tiles]


class _DealtJobs:
    """A frame's boxes to search, dealt one at a time, largest first, to whichever thread is free.

    The other core's thread takes them as they come (:meth:`until_closed`) until the frame's last one is
    in; this one takes only those still there (:meth:`left`)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._closed = False

    def add(self, jobs: list[Job]) -> None:
        for job in sorted(jobs, key=_job_cost, reverse=True):
            self._queue.put(job)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put(None)

    def until_closed(self) -> Iterator[Job]:
        while (job := self._queue.get()) is not None:
            yield job
        self._queue.put(None)  # the end, for the other taker too

    def left(self) -> Iterator[Job]:
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            if job is None:
                self._queue.put(None)
                return
            yield job


def drop_duplicates(found: TagDetections, radius_px: float) -> TagDetections:
    """Keep one detection per tag seen twice (overlapping windows/tiles): the one with the best margin."""
    if len(found) < 2:
        return found
    listed = found.tag_ids.tolist()
    if len(set(listed)) == len(listed):
        return found  # the usual frame: every id once, nothing to compare
    ids, counts = np.unique(found.tag_ids, return_counts=True)
    twice = ids[counts > 1]
    keep = np.ones(len(found), dtype=bool)
    order = np.argsort(-found.decision_margins)
    # Only detections of one id can be duplicates: each id seen more than once is settled on its own,
    # best margin first.
    for tag_id in twice.tolist():
        rows = order[found.tag_ids[order] == tag_id]
        for rank, i in enumerate(rows):
            if not keep[i]:
                continue
            for j in rows[rank + 1 :]:
                if keep[j] and np.linalg.norm(found.centers_px[j] - found.centers_px[i]) < radius_px:
                    keep[j] = False
    return found.filter(keep)
