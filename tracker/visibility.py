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

import functools
from dataclasses import dataclass

import numpy as np

MIN_RING_PIXELS = 40
#: Below this standard deviation (grey levels) the ring is too plain for correlation; compare levels.
PLAIN_RING_STD = 4.0


@dataclass(frozen=True)
class RingPlace:
    """Where a ring is snapshotted: the crop box, the centre and the radii (full-frame pixels).

    Its masks are worked out when first needed: a unit's snapshots are read only when it goes missing,
    and all snapshots of a unit standing at exactly the same place share them.
    """

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 of the crop
    center_px: tuple[float, float]
    inner_px: float
    outer_px: float
    spot_px: float

    @functools.cached_property
    def masks(self) -> tuple[np.ndarray, np.ndarray | None]:
        """(ring, spot): bool masks of the crop's shape; the spot's is None when it is too small to compare."""
        x0, y0, x1, y1 = self.box
        cx, cy = self.center_px
        # Squared distances of the crop's pixel centres, from a row and a column (no full index grids).
        d2 = (np.arange(x0, x1) - cx) ** 2 + ((np.arange(y0, y1) - cy) ** 2)[:, None]
        ring = (d2 >= self.inner_px**2) & (d2 <= self.outer_px**2)
        spot = d2 <= self.spot_px**2
        return ring, spot if int(np.count_nonzero(spot)) >= 9 else None

    def enough_ring_pixels(self) -> bool:
        """Whether the ring has at least ``MIN_RING_PIXELS`` pixels in the image."""
        x0, y0, x1, y1 = self.box
        cx, cy = self.center_px
        r = int(np.ceil(self.outer_px)) + 1
        whole = cx >= 0 and cy >= 0 and (x0, y0, x1, y1) == (int(cx) - r, int(cy) - r, int(cx) + r + 1, int(cy) + r + 1)
        if whole and self.outer_px - self.inner_px >= 2.0 and 4.0 * self.inner_px - 2.0 >= MIN_RING_PIXELS:
            # The whole annulus is in the crop. Each of the 2 * inner - 1 or more pixel columns within the
            # inner radius crosses the ring above and below the centre over outer - inner >= 2 px or more,
            # so holds a ring pixel in each (one clear of rounding at the ends): enough, without counting.
            return True
        return int(np.count_nonzero(self.masks[0])) >= MIN_RING_PIXELS


@dataclass(frozen=True, eq=False)
class RingSnapshot:
    """The grey crop around a unit as it was at ``t_s`` (a copy), and where it was taken; the grey values
    of the ring and of the spot the unit covers are picked out of it when first asked for."""

    place: RingPlace
    gray: np.ndarray  # uint8, the crop's grey values
    t_s: float

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.place.box

    @property
    def mask(self) -> np.ndarray:
        """Which pixels of the crop are in the ring."""
        return self.place.masks[0]

    @property
    def spot_mask(self) -> np.ndarray | None:
        """Which pixels of the crop are the tag itself (None: too few to compare)."""
        return self.place.masks[1]

    @functools.cached_property
    def values(self) -> np.ndarray:
        """The ring's grey values (float32)."""
        return self.gray[self.mask].astype(np.float32)

    @functools.cached_property
    def spot_values(self) -> np.ndarray | None:
        """The spot's grey values (float32), or None when the spot is too small to compare."""
        spot = self.spot_mask
        return None if spot is None else self.gray[spot].astype(np.float32)


def _gray_crop(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    return _gray_crop_u8(image, box).astype(np.float32)


def _gray_crop_u8(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    crop = image[y0:y1, x0:x1]
    if crop.ndim == 3:
        import cv2

        return cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    return crop


def take_ring(
    image: np.ndarray,
    center_px: np.ndarray,
    *,
    inner_px: float,
    outer_px: float,
    t_s: float,
    spot_px: float = 0.0,
    like: RingSnapshot | None = None,
) -> RingSnapshot | None:
    """Snapshot the ring between ``inner_px`` and ``outer_px`` around ``center_px``, and the spot within
    ``spot_px`` of it; None if mostly off-image.

    ``like``: an earlier snapshot of the unit; when it was taken at exactly the same place with the same
    radii (a still unit whose tag the detector reported at the same corners), it shares its masks.
    """
    h, w = image.shape[:2]
    cx, cy = float(center_px[0]), float(center_px[1])
    r = int(np.ceil(outer_px)) + 1
    box = (max(0, int(cx) - r), max(0, int(cy) - r), min(w, int(cx) + r + 1), min(h, int(cy) + r + 1))
    if box[2] - box[0] < 4 or box[3] - box[1] < 4:
        return None
    place = RingPlace(box, (cx, cy), float(inner_px), float(outer_px), float(spot_px))
    if like is not None and like.place == place:
        place = like.place
    elif not place.enough_ring_pixels():
        return None
    gray = _gray_crop_u8(image, box)
    if gray.base is not None:
        gray = gray.copy()  # a view of the frame, which the camera may reuse for the next one
    return RingSnapshot(place, gray, t_s)


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
