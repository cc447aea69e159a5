"""The sweep for new tags: where the picture changed since that part was last searched, and a slow round robin.

A coarse thumbnail (half the still tags' thumbnail: what is put down or taken away covers several of
its pixels) is compared, cell by cell at each cell's own exposure gain, with what it was when each part
was last searched; boxes around the strongest change are searched in the same frame, up to
``changed_sweep_fraction`` of the frame. Apart from that, ``sweep_fraction`` of the tiles are searched
in turn every frame, whatever changed: the safety net. The moving tags' own surroundings are not news.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tracker.detector_settings import FastDetectorSettings
from tracker.search_boxes import Box, tile_edge_px, tile_grid, tile_overlap_px


def coarse_thumbnail(thumb: np.ndarray) -> np.ndarray:
    """The thumbnail at half its resolution, where the frame is watched for change: what is put
    down or taken away (a unit and its base, a hand) covers several of its pixels, and comparing a
    quarter of the pixels costs a quarter as much."""
    import cv2

    h, w = max(2, thumb.shape[0]) // 2, max(2, thumb.shape[1]) // 2
    return cv2.resize(thumb[: 2 * h, : 2 * w], (w, h), interpolation=cv2.INTER_LINEAR)


class ChangeSweep:
    """What each part of the frame looked like when it was last searched, and the round robin's place
    (mutable; one per video stream)."""

    def __init__(self, settings: FastDetectorSettings) -> None:
        self.settings = settings
        self.frame_size: tuple[int, int] = (0, 0)
        self.tiles: list[Box] = []
        self._tile_cursor = 0
        self._sweep_credit = 0.0
        self._change_step = 1  # frame pixels per coarse thumbnail pixel
        # The thumbnail as it was when each part of the frame was last searched (parts searched at
        # different times hold pixels of different ages).
        self._reference: np.ndarray | None = None
        self._reference_mean: np.ndarray | None = None  # its cells' means (it changes only where searched)
        self._cells: tuple[Any, ...] | None = None  # the thumbnail's shape, and its cells' mean and spread

    def fit(self, width: int, height: int, thumb_step: int) -> None:
        """Tiles for frames of this size (the round robin starts again when the size changes);
        ``thumb_step``: frame pixels per pixel of the thumbnail that :func:`coarse_thumbnail` halves."""
        if self.frame_size == (width, height):
            return
        self.frame_size = (width, height)
        self.tiles = tile_grid(width, height, tile_px=tile_edge_px(self.settings.tile_px, width), overlap_px=tile_overlap_px(width))
        self._tile_cursor = 0
        self._change_step = 2 * thumb_step

    def next_boxes(self, coarse: np.ndarray, windows: list[Box]) -> tuple[list[Box], list[Box]]:
        """Boxes around the parts of the picture that changed since they were last searched (most
        changed first, at most ``changed_sweep_fraction`` of the frame), and the slow round robin's tiles
        (the safety net that searches every tile in turn). The searched parts of ``coarse``
        (:func:`coarse_thumbnail`) become their new reference."""
        settings = self.settings
        picked: list[Box] = []
        width, height = self.frame_size
        if self._reference is not None:
            picked = self._changed_boxes(coarse, windows, width, height)
        self._sweep_credit += settings.sweep_fraction * len(self.tiles)
        count = int(self._sweep_credit)
        self._sweep_credit -= count
        safety: list[Box] = []
        for _ in range(min(count, len(self.tiles))):
            safety.append(self.tiles[self._tile_cursor])
            self._tile_cursor = (self._tile_cursor + 1) % len(self.tiles)
        self.mark_searched(coarse, picked + safety)
        return picked, safety

    def mark_searched(self, coarse: np.ndarray, boxes: list[Box] | None) -> None:
        """The coarse thumbnail under each box (less a margin where a tag could be cut by the box's edge) is
        now what was last searched there; ``None``: the whole frame was."""
        if boxes is None or self._reference is None or self._reference.shape != coarse.shape:
            self._reference = coarse.copy()
            self._reference_mean = None
            return
        k = self._change_step
        m = tile_overlap_px(self.frame_size[0]) // 2
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

        settings = self.settings
        k = self._change_step
        reference = self._reference
        assert reference is not None
        # Auto-exposure scales every pixel alike (and uneven light makes that local): each tile is
        # compared with its reference at the tile's own gain, and only change beyond the tile's typical
        # change counts; a tag put down or a hand is a few coarse thumbnail pixels that stand out.
        if self._cells is None or self._cells[0] != coarse.shape:
            self._cells = (coarse.shape, *cell_mean_and_spread(coarse.shape, self._cell_grid(coarse.shape)))
            self._reference_mean = None
        _, mean, spread = self._cells
        if self._reference_mean is None:
            self._reference_mean = np.maximum(1.0, mean(reference))
        gain = spread(mean(coarse) / self._reference_mean)
        diff = cv2.absdiff(coarse, gain * reference)
        diff -= spread(mean(diff))
        g = settings.change_mask_grow
        for x0, y0, x1, y1 in windows:
            # Followed units move in and around their windows (a tag's block and shadow are bigger than
            # its card): not news.
            gx, gy = g * (x1 - x0), g * (y1 - y0)
            diff[max(0, int((y0 - gy) // k)) : int(-(-(y1 + gy) // k)), max(0, int((x0 - gx) // k)) : int(-(-(x1 + gx) // k))] = 0.0
        changed = (diff >= settings.change_threshold).astype(np.uint8)
        if not changed.any():
            return []
        # Grown by half a tile overlap (wide enough for a 2" anchor close to the camera): a tag whose
        # card changed a few coarse thumbnail pixels lies whole in its box.
        r = max(1, -(-(tile_overlap_px(width) // 2) // k))
        grown = cv2.dilate(changed, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
        # Each patch of change, the strongest first (its outline's bounding box: OpenCV's contours take a
        # tenth of the time of its connected components on a coarse thumbnail).
        contours, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        rects = [cv2.boundingRect(c) for c in contours]
        peaks = [float(diff[y : y + h, x : x + w].max()) for x, y, w, h in rects]
        budget = settings.changed_sweep_fraction * width * height
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
        k = self._change_step
        tile = tile_edge_px(self.settings.tile_px, shape[1] * k)
        return (max(1, round(shape[1] * k / tile)), max(1, round(shape[0] * k / tile)))


def cell_mean_and_spread(shape: tuple[int, ...], cells: tuple[int, int]) -> tuple[Any, Any]:
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
