"""Projection never costs tracking: the projector's picture is dark over every tag, with a margin.

Bright light on a tag (a fill, a line or a label crossing it) changes its black-and-white pattern as
the camera sees it; an overlay's edge across a tag can cost the detector the tag. Before a frame goes
to the projector, every tag's card (its black square and white quiet zone) plus ``margin_in`` is
painted black, at the tag's height, through the projector's model, so the dark patch follows the unit
wherever the tracker last saw it (a moving unit gets a wider margin: where it may be by the next frame).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from calibration.table_layout import tag_corners_in
from calibration.tag_bitmaps import card_size_in


class TableToProjector(Protocol):
    """What the mask needs of a projector: the 3-D model, a GroundProjection or a plane homography calibration
    (the last takes no ``z_in``: the TypeError fallback below)."""

    def projector_from_table(self, points_in: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray: ...

#: Default margin around a tag's card, inches: the projector's error plus the tracker's latency.
DEFAULT_MARGIN_IN = 0.4


@dataclass(frozen=True)
class TagSpot:
    """A tag to keep dark: centre, height of its surface, edge of its black square, heading; and its
    speed (inches/s, 0 when still) so the dark patch covers where it will be."""

    x_in: float
    y_in: float
    z_in: float
    size_in: float
    heading_deg: float = 90.0
    speed_in_s: float = 0.0


def tag_mask_polygons(projector: TableToProjector, tags: Sequence[TagSpot], *, margin_in: float = DEFAULT_MARGIN_IN,
                      lead_s: float = 0.1) -> list[np.ndarray]:
    """Projector-pixel polygons (each (K, 2)) covering every tag's card plus the margin.

    ``projector``: the 3-D model or a :class:`~calibration.ground_projection.GroundProjection`
    (``projector_from_table(points (N, 2), z_in=...)``), or a plane homography calibration (heights ignored).
    """
    out = []
    for t in tags:
        half = card_size_in(t.size_in) / 2 + margin_in + t.speed_in_s * lead_s
        ring = tag_corners_in((t.x_in, t.y_in), 2 * half, t.heading_deg)
        # subdivide the edges: through a lens a straight edge on the table may bow in the picture
        s = np.linspace(0.0, 1.0, 5, endpoint=False)[:, None]
        pts = np.vstack([ring[k] + s * (ring[(k + 1) % 4] - ring[k]) for k in range(4)])
        try:
            px = projector.projector_from_table(pts, z_in=t.z_in)
        except TypeError:  # a plane homography knows no heights
            px = projector.projector_from_table(pts)
        if np.all(np.isfinite(px)):
            out.append(px)
    return out


def mask_tags(image_bgr: np.ndarray, projector: TableToProjector, tags: Sequence[TagSpot], *, margin_in: float = DEFAULT_MARGIN_IN) -> np.ndarray:
    """A copy of the projector's picture, black over every tag (with the margin)."""
    img = np.array(image_bgr, copy=True)
    polys = [np.rint(p).astype(np.int32) for p in tag_mask_polygons(projector, tags, margin_in=margin_in)]
    if polys:
        cv2.fillPoly(img, polys, (0, 0, 0) if img.ndim == 3 else 0, lineType=cv2.LINE_8)
    return img
