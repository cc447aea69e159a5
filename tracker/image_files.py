"""Reading an image file safely: its size is checked from the header before any library decodes it.

The AprilTag detector crashes the process on an image one pixel high or wide, and OpenCV refuses (or
tries to allocate gigabytes for) an image whose header claims tens of thousands of pixels a side. So
``read_image`` reads the width and height from the PNG or JPEG header first and refuses, with one line
naming the file, an image too small to hold a tag or larger than ``MAX_IMAGE_PIXELS``; only then does
OpenCV decode it. ``check_image_size`` is the same check for a frame already in memory (a video, a
camera), and ``tag_search_possible`` is the detector's own last guard.
"""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from tracker.errors import SourceError

#: The smallest side a tag can be found in: an AprilTag 36h11 is 10 modules across with its border,
#: and the detector needs at least about one pixel per module.
MIN_IMAGE_SIDE_PX = 16
#: 250 megapixels: a 20000 x 12500 photograph, 750 MB as colour; far beyond any camera over a table.
MAX_IMAGE_PIXELS = 250_000_000


def image_size_from_header(path: str | Path) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header without decoding; None for other formats."""
    with open(path, "rb") as fh:
        head = fh.read(32)
        if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24 and head[12:16] == b"IHDR":
            width, height = struct.unpack(">II", head[16:24])
            return int(width), int(height)
        if head.startswith(b"\xff\xd8"):
            fh.seek(2)
            return _jpeg_size(fh)
    return None


def _jpeg_size(fh) -> tuple[int, int] | None:  # noqa: ANN001 - a binary file
    # Walk the markers to the first start-of-frame (SOF0..SOF15 but DHT C4, JPG C8, DAC CC).
    for _ in range(10_000):
        byte = fh.read(1)
        while byte and byte != b"\xff":
            byte = fh.read(1)
        while byte == b"\xff":
            byte = fh.read(1)
        if not byte:
            return None
        marker = byte[0]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            continue
        if marker == 0xD9:
            return None
        length_bytes = fh.read(2)
        if len(length_bytes) < 2:
            return None
        length = struct.unpack(">H", length_bytes)[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            body = fh.read(5)
            if len(body) < 5:
                return None
            height, width = struct.unpack(">HH", body[1:5])
            return int(width), int(height)
        fh.seek(max(0, length - 2), 1)
    return None


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
