"""The printed look of a tag36h11 tag, shared by the synthetic table and the PDF tag sheets.

A tag is an 8 x 8 grid of cells: a one-cell black border around 6 x 6 data bits. Its ``size_in`` is the
edge of that black square. On paper (and on the synthetic table) it sits on a white card with a margin
of ``CARD_MARGIN_CELLS`` cells on every side, which the detector needs to find the black border.

Row 0 of :func:`tag_bitmap` is the tag's top edge: the edge a tag's heading points to, and the edge
pupil-apriltags reports as its first two corners (see ``calibration.table_layout.tag_corners_in``).
"""
from __future__ import annotations

import functools

import numpy as np

from calibration.errors import CalibrationError

#: Cells across the black square of a tag36h11 tag (6 data bits plus a one-cell black border each side).
TAG_CELLS = 8
#: White margin around the black square on a printed card, in cells (the detector needs at least one).
CARD_MARGIN_CELLS = 1.5
#: Largest id of the tag36h11 family.
MAX_TAG_ID = 586


def card_size_in(tag_size_in: float) -> float:
    """Edge of the white card carrying a tag of ``tag_size_in``.

    >>> card_size_in(1.0)
    1.375
    """
    return tag_size_in * (TAG_CELLS + 2 * CARD_MARGIN_CELLS) / TAG_CELLS


@functools.lru_cache(maxsize=1024)
def _bitmap(tag_id: int) -> bytes:
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    cells = cv2.aruco.generateImageMarker(dictionary, tag_id, TAG_CELLS, borderBits=1)
    return (cells > 127).astype(np.uint8).tobytes()


def tag_bitmap(tag_id: int) -> np.ndarray:
    """The 8 x 8 cells of tag ``tag_id``: 1 = white, 0 = black; row 0 is the tag's top edge.

    >>> bits = tag_bitmap(10)
    >>> bits.shape, int(bits[0].sum()), int(bits[:, 0].sum())   # the border is black
    ((8, 8), 0, 0)
    """
    if not 0 <= int(tag_id) <= MAX_TAG_ID:
        raise CalibrationError(f"tag id {tag_id} is not in the tag36h11 family; use ids 0-{MAX_TAG_ID}")
    return np.frombuffer(_bitmap(int(tag_id)), dtype=np.uint8).reshape(TAG_CELLS, TAG_CELLS).copy()
