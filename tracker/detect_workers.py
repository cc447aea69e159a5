"""The two cores: one AprilTag detector per thread and decimation step, and the boxes dealt between them.

Like apriltag's ``workerpool.c``, threading lives apart from what is searched: :class:`DetectWorkers` is
handed boxes (:data:`~tracker.search_boxes.Job`) and gives back detections; which boxes, the caller decides.
Each thread has its own detectors, called directly (``tracker.apriltag_native``: Python's lock is let go
once per search).
"""
from __future__ import annotations

import queue
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

import numpy as np

from tracker.apriltag_native import detect_in_place
from tracker.detections import TagDetections, concat_detections, detections_from_crops, make_detector
from tracker.image_files import tag_search_possible
from tracker.search_boxes import STEPS, Box, Job, cut_jobs, sweep_jobs

# A detector's raw results in one crop, with the crop's top-left pixel in the frame.
RawCrop = tuple[np.ndarray, int, int]


class DetectWorkers:
    """``workers`` threads (this one and ``workers - 1`` in a pool), each with a detector per step.

    Also the safety sweep's background search: tiles searched on the other core between frames.
    ``close()`` stops the pool.
    """

    def __init__(self, *, workers: int, retry_sharpening: float) -> None:
        workers = max(1, int(workers))
        # One detector per worker and step: quads on the decimated frame, edges refined and bits decoded
        # at full resolution (refine_edges), so the step costs no accuracy.
        self.by_step = {step: [make_detector(quad_decimate=step, nthreads=1) for _ in range(workers)] for step in STEPS}
        self.count = workers
        # Its own detectors for the windows started early on a worker (a detector serves one thread at a
        # time; the workers' own may be busy with the rest of the frame).
        self.early = {step: make_detector(quad_decimate=step, nthreads=1) for step in STEPS}
        #: a missing tag's window searched again with another decoder sharpening
        self.retry = make_detector(quad_decimate=1.0, nthreads=1, decode_sharpening=retry_sharpening)
        self._retry_sharpening = retry_sharpening
        # The whole-frame search for tags that went missing from their windows: each worker's detectors
        # with the retry's sharpening (made on first use).
        self._retry_by_step: dict[float, list[Any]] | None = None
        self.pool = ThreadPoolExecutor(max_workers=workers - 1, thread_name_prefix="sandtable-detect") if workers > 1 else None
        # The safety sweep's tiles, searched on the other core between frames (while the next frame is
        # read); taken in at the next frame.
        self._background: Future[list[RawCrop]] | None = None

    def of_worker(self, k: int, *, retry: bool = False) -> dict[float, Any]:
        """Worker ``k``'s detectors by step (``retry``: those with the retry's decoder sharpening)."""
        by_step = self.by_step
        if retry:
            if self._retry_by_step is None:
                self._retry_by_step = {
                    step: [make_detector(quad_decimate=step, nthreads=1, decode_sharpening=self._retry_sharpening) for _ in range(self.count)]
                    for step in STEPS
                }
            by_step = self._retry_by_step
        return {step: d[k] for step, d in by_step.items()}

    def full_resolution(self) -> Any:
        """This thread's step-1 detector."""
        return self.by_step[1.0][0]

    def free_pool(self) -> ThreadPoolExecutor | None:
        """The other core, unless it is still on the safety sweep's tiles of an earlier frame."""
        return self.pool if self._background is None else None

    def search(
        self, image: np.ndarray, jobs: list[Job], pool: ThreadPoolExecutor | None, *, split_min_px: float,
        frame_index: int, t_s: float, frame_size: tuple[int, int], max_hamming: int, retry: bool = False
    ) -> TagDetections:
        """Search ``jobs``, split between this thread and ``pool``'s (if any) at about equal cost
        (``retry``: with the retry's decoder sharpening)."""
        # Handing work to the other thread costs more than a few small windows take.
        small = sum(job_cost(j) for j in jobs) < split_min_px
        parts = balanced_split(jobs, 1 if small or pool is None else self.count)

        def work(k: int) -> TagDetections:
            return detect_boxes(
                self.of_worker(k, retry=retry), image, parts[k], frame_index=frame_index, t_s=t_s, frame_size=frame_size, max_hamming=max_hamming
            )

        futures = [pool.submit(work, k) for k in range(1, len(parts)) if parts[k]] if pool else []
        results = [work(0)] + [f.result() for f in futures]
        return concat_detections(results, frame_index=frame_index, t_s=t_s, frame_size_px=frame_size)

    def search_later(self, image: np.ndarray, tiles: list[Box], step: float) -> None:
        """The safety sweep's tiles searched on the other core after this frame (copies: the caller may
        reuse the frame's memory), for :meth:`take_background` at a later frame. ``tiles`` are aligned in
        place."""
        assert self.pool is not None
        height, width = image.shape[:2]
        crops = [(crop.copy(), x0, y0, st) for crop, x0, y0, st in cut_jobs(image, sweep_jobs(tiles, width, height, step))]
        # The second worker's detectors: only a whole-frame search (:meth:`search`) uses them besides, and
        # it never runs while this search does (it gets the other core only once this one is done).
        self._background = self.pool.submit(search_crops, self.of_worker(1), crops)

    def take_background(self) -> list[RawCrop] | None:
        """What the background search found, once it has finished (then only once); else None."""
        if self._background is not None and self._background.done():
            crops = self._background.result()
            self._background = None
            return crops
        return None

    def drop_background(self) -> None:
        """Forget the background search (its tiles were of a picture of another size)."""
        self._background = None

    def settle(self) -> None:
        """Wait until the background search, if any, has finished (it is still taken in as usual)."""
        if self._background is not None:
            wait([self._background])

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None


class DealtJobs:
    """A frame's boxes to search, dealt one at a time, largest first, to whichever thread is free.

    The other core's thread takes them as they come (:meth:`until_closed`) until the frame's last one is
    in; this one takes only those still there (:meth:`left`)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._closed = False

    def add(self, jobs: list[Job]) -> None:
        for job in sorted(jobs, key=job_cost, reverse=True):
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


def balanced_split(jobs: list[Job], parts: int) -> list[list[Job]]:
    """Jobs dealt into ``parts`` lists of about equal cost (largest first, to the lightest list)."""
    lists: list[list[Job]] = [[] for _ in range(parts)]
    loads = [0.0] * parts

    for job in sorted(jobs, key=lambda j: -job_cost(j)):
        k = loads.index(min(loads))
        lists[k].append(job)
        loads[k] += job_cost(job)
    return lists


def job_cost(job: Job) -> float:
    (x0, y0, x1, y1), step = job
    # Quad finding dominates and scales with the decimated area; decoding does not shrink.
    return (x1 - x0) * (y1 - y0) * (0.15 + 0.85 / (step * step))


def search_crops(detectors: dict[float, Any], crops: Iterable[tuple[np.ndarray, int, int, float]]) -> list[RawCrop]:
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


def detect_boxes(
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
        search_crops(detectors, cut_jobs(image, jobs)), frame_index=frame_index, t_s=t_s, frame_size_px=frame_size, max_hamming=max_hamming
    )


