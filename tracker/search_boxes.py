"""The boxes a frame is searched in: decimation steps, merging, tiles, bands, and the grid they align to.

Pure geometry in full-frame pixels, no detector: :mod:`tracker.detect_workers` searches the boxes,
:mod:`tracker.fast_detection` decides which.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

import numpy as np

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


def frame_bands(width: int, height: int, count: int, overlap_px: int) -> list[Box]:
    """``count`` vertical bands covering the frame, overlapping by ``overlap_px`` (a whole-frame search)."""
    edges = [round(i * width / count) for i in range(count + 1)]
    return [
        (max(0, edges[i] - overlap_px // 2), 0, min(width, edges[i + 1] + overlap_px - overlap_px // 2), height)
        for i in range(count)
    ]


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


def tile_edge_px(tile_px: int, width: int) -> int:
    """A sweep tile's edge before its overlap: ``tile_px`` at 1920 px wide, scaled with the frame's width."""
    return max(96, round(tile_px * width / 1920))


def tile_overlap_px(width: int) -> int:
    """How far neighbouring tiles (and bands) overlap: wide enough that a 2" anchor seen close to the
    camera is whole in at least one of them."""
    return max(48, round(80 * width / 1920))


def area_px(boxes: Iterable[Box]) -> int:
    """The pixels of ``boxes``, counted once per box (the work accounting)."""
    return sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)


def cut_jobs(image: np.ndarray, jobs: Iterable[Job]) -> Iterator[tuple[np.ndarray, int, int, float]]:
    """Each job's box of the (grey) frame, where it lies, with its top-left pixel and step."""
    for (x0, y0, x1, y1), step in jobs:
        yield image[y0:y1, x0:x1], x0, y0, step


def sweep_jobs(tiles: list[Box], width: int, height: int, step: float) -> list[Job]:
    """The sweep's boxes as jobs at ``step``, each grown onto the detector's threshold grid (the list is
    aligned in place: the work accounting counts what was searched)."""
    tiles[:] = [align_box(b, width, height, step=grid_px(step)) for b in tiles]
    return [(box, step) for box in tiles]
