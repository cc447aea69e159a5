"""Reading an image file safely: its size is checked from the header before any library decodes it.

The AprilTag detector crashes the process on an image one pixel high or wide, and OpenCV refuses (or
tries to allocate gigabytes for) an image whose header claims tens of thousands of pixels a side. So
``read_image`` reads the width and height from the file's header first (PNG, JPEG, BMP, TIFF, WebP,
GIF and the others ``tracker.image_headers`` knows) and refuses, with one line naming the file, an
image too small to hold a tag or larger than ``MAX_IMAGE_PIXELS``; only then does OpenCV decode it.
``check_image_size`` is the same check for a frame already in memory (a video, a camera), and
``tag_search_possible`` is the detector's own last guard.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tracker.errors import SourceError
from tracker.image_headers import image_size_from_header

#: The smallest side a tag can be found in: an AprilTag 36h11 is 10 modules across with its border,
#: and the detector needs at least about one pixel per module.
MIN_IMAGE_SIDE_PX = 16
#: 250 megapixels: a 20000 x 12500 photograph, 750 MB as colour; far beyond any camera over a table.
MAX_IMAGE_PIXELS = 250_000_000


def size_problem(width: int, height: int) -> str | None:
    """What is wrong with an image of this size for finding tags, or None."""
    if width < MIN_IMAGE_SIDE_PX or height < MIN_IMAGE_SIDE_PX:
        return (f"is {width}x{height} pixels, too small to hold a tag (at least {MIN_IMAGE_SIDE_PX} pixels a side); "
                "give the camera's photograph")
    if width * height > MAX_IMAGE_PIXELS:
        return (f"is {width}x{height} pixels ({width * height / 1e6:.0f} megapixels), more than this program reads "
                f"({MAX_IMAGE_PIXELS / 1e6:.0f} megapixels); scale it down first")
    return None


def check_image_size(image: np.ndarray, where: str) -> None:
    """Refuse a frame in memory that no tag fits in (``where`` names its file or source)."""
    height, width = image.shape[:2]
    problem = size_problem(int(width), int(height))
    if problem:
        raise SourceError(f"{where} {problem}")


def tag_search_possible(image: np.ndarray) -> bool:
    """Whether the detector may be run on ``image`` (a crop of a frame may be too thin: no tag there)."""
    return image.ndim >= 2 and image.shape[0] >= MIN_IMAGE_SIDE_PX and image.shape[1] >= MIN_IMAGE_SIDE_PX


def read_image(path: str | Path, *, grayscale: bool = False) -> np.ndarray:
    """Decode the image at ``path`` (BGR, or grey) after checking its size; ``SourceError`` with a fix
    when it is missing, not an image, too small or too large."""
    import cv2

    p = Path(path)
    if not p.is_file():
        raise SourceError(f"no image at '{p}'; check the path")
    try:
        size = image_size_from_header(p)
    except OSError as exc:
        raise SourceError(f"cannot read image '{p}' ({exc.strerror or exc}); check the file") from None
    if size is not None:
        problem = size_problem(*size)
        if problem:
            raise SourceError(f"image '{p}' {problem}")
    try:
        image = cv2.imread(str(p), cv2.IMREAD_GRAYSCALE if grayscale else cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None:
        raise SourceError(f"cannot read '{p}' as an image; give a PNG or JPEG photograph")
    check_image_size(image, f"image '{p}'")
    return image
