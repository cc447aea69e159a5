"""Is the place where a unit stood visible now? Tells a lifted unit from one hidden under a hand.

When a tag vanishes, either something covers it (a hand, an arm, a player leaning over), or the unit is
gone, or the tag is still there but the detector missed it (blur, glare). A cover hides the table
*around* the unit too; a lifted unit leaves the table around it as it was but not the spot itself; a
missed tag leaves both as they were. So while a unit is seen, the tracker keeps a grey snapshot of the
spot (the tag) and of a ring of table around it (outside its base); when the tag is missing both are
compared with the snapshot:

=============  ============  ===========
ring           spot          verdict
=============  ============  ===========
as before      changed       lifted
as before      as before     still there, not detected: stay hidden
changed        any           covered: hidden
=============  ============  ===========

Zero-mean normalised cross-correlation makes the test indifferent to a change of brightness (a cloud,
the projector).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MIN_RING_PIXELS = 40
#: Below this standard deviation (grey levels) the ring is too plain for correlation; compare levels.
PLAIN_RING_STD = 4.0


@dataclass(frozen=True, eq=False)
class RingSnapshot:
    """Grey values of a ring of pixels around a unit and of the spot it covers, and where they were
    taken (full-frame pixels)."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 of the crop
    mask: np.ndarray  # bool, the crop's shape: which pixels are in the ring
    values: np.ndarray  # float32, the ring's grey values
    t_s: float
    spot_mask: np.ndarray | None = None  # bool: the pixels of the tag itself
    spot_values: np.ndarray | None = None


def _gray_crop(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    crop = image[y0:y1, x0:x1]
    if crop.ndim == 3:
        import cv2

        crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    return crop.astype(np.float32)


def take_ring(
    image: np.ndarray, center_px: np.ndarray, *, inner_px: float, outer_px: float, t_s: float, spot_px: float = 0.0
) -> RingSnapshot | None:
    """Snapshot the ring between ``inner_px`` and ``outer_px`` around ``center_px``, and the spot within
    ``spot_px`` of it; None if mostly off-image."""
    h, w = image.shape[:2]
    cx, cy = float(center_px[0]), float(center_px[1])
    r = int(np.ceil(outer_px)) + 1
    box = (max(0, int(cx) - r), max(0, int(cy) - r), min(w, int(cx) + r + 1), min(h, int(cy) + r + 1))
    if box[2] - box[0] < 4 or box[3] - box[1] < 4:
        return None
    yy, xx = np.mgrid[box[1] : box[3], box[0] : box[2]]
    d2 = (xx - cx) ** 2 + (yy - cy) ** 2
    mask = (d2 >= inner_px**2) & (d2 <= outer_px**2)
    if int(mask.sum()) < MIN_RING_PIXELS:
        return None
    gray = _gray_crop(image, box)
    spot = d2 <= spot_px**2
    has_spot = int(spot.sum()) >= 9
    return RingSnapshot(
        box=box,
        mask=mask,
        values=gray[mask],
        t_s=t_s,
        spot_mask=spot if has_spot else None,
        spot_values=gray[spot] if has_spot else None,
    )


def ring_similarity(snapshot: RingSnapshot, image: np.ndarray) -> tuple[float, float]:
    """How much the ring and the spot now look like the snapshot: 1 = the same, about 0 or less =
    something else. (ring, spot); the spot's is 1.0 when the snapshot has no spot.

    Textured areas use zero-mean normalised cross-correlation; plain ones (a flat mat) compare grey
    levels, mapping a mean absolute difference of 0 to 1 and of 40 grey levels or more to 0.
    """
    now = _gray_crop(image, snapshot.box)
    if now.shape != snapshot.mask.shape:
        return 0.0, 0.0
    ring = _similarity(snapshot.values, now[snapshot.mask])
    if snapshot.spot_mask is None or snapshot.spot_values is None:
        return ring, 1.0
    return ring, _similarity(snapshot.spot_values, now[snapshot.spot_mask])


def _similarity(ref: np.ndarray, values: np.ndarray) -> float:
    ref_std = float(ref.std())
    if ref_std < PLAIN_RING_STD:
        return float(max(0.0, 1.0 - np.mean(np.abs(values - ref)) / 40.0))
    a = ref - ref.mean()
    b = values - values.mean()
    denom = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / denom) if denom > 0 else 0.0
