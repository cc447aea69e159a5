"""Pictures without any AprilTag in them, for proving that the detector reports no false ids.

Each generator is seeded and returns a grey uint8 image. They are the things a table camera sees that
look most like tags: checkerboards (square black-and-white cells, at any angle and perspective), random
black-and-white grids (the worst case: cells like a tag's bits), printed text-like blocks, our own sand,
and real photographs with their tags painted out.
"""
from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np


def checkerboard(cell_px: int, size_px: tuple[int, int] = (640, 480), *, angle_deg: float = 0.0, tilt: float = 0.0) -> np.ndarray:
    """A checkerboard of ``cell_px`` cells, turned by ``angle_deg`` and seen with a perspective ``tilt`` (0..0.4)."""
    w, h = size_px
    big = max(w, h) * 2
    yy, xx = np.mgrid[0:big, 0:big]
    board = (((xx // cell_px) + (yy // cell_px)) % 2 * 255).astype(np.uint8)
    board = cv2.copyMakeBorder(board, 0, 0, 0, 0, cv2.BORDER_CONSTANT)
    m = cv2.getRotationMatrix2D((big / 2, big / 2), angle_deg, 1.0)
    board = cv2.warpAffine(board, m, (big, big), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32) + np.array([(big - w) / 2, (big - h) / 2], dtype=np.float32)
    d = tilt * w
    dst = np.array([[d, 0], [w - d, 0], [w, h], [0, h]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(board, warp, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)


def random_grid(cell_px: int, seed: int, size_px: tuple[int, int] = (640, 480), *, blur_px: float = 0.6) -> np.ndarray:
    """Random black and white cells (like a tag's bits, but no tag's code), softened by ``blur_px``."""
    w, h = size_px
    rng = np.random.default_rng([seed, 31337])
    cells = (rng.random((h // cell_px + 1, w // cell_px + 1)) < 0.5).astype(np.uint8) * 255
    img = cv2.resize(cells, None, fx=cell_px, fy=cell_px, interpolation=cv2.INTER_NEAREST)[:h, :w]
    return cv2.GaussianBlur(img, (0, 0), blur_px) if blur_px > 0 else img


def bordered_noise_squares(seed: int, size_px: tuple[int, int] = (640, 480), *, count: int = 24) -> np.ndarray:
    """Tag-like squares: a black ring with random 6x6 inner bits, on white, at random sizes and angles.

    Their codes are random, so almost none is within a few bits of a tag36h11 code; the ones that are
    are exactly the false ids a lenient decoder would report.
    """
    w, h = size_px
    rng = np.random.default_rng([seed, 4242])
    img = np.full((h, w), 235, np.uint8)
    for _ in range(count):
        bits = np.zeros((10, 10), np.uint8) + 255
        bits[1:9, 1:9] = 0
        bits[2:8, 2:8] = (rng.random((6, 6)) < 0.5) * 255
        edge = int(rng.integers(16, 70))
        tile = cv2.resize(bits, (edge, edge), interpolation=cv2.INTER_NEAREST)
        m = cv2.getRotationMatrix2D((edge / 2, edge / 2), float(rng.uniform(0, 360)), 1.0)
        x, y = int(rng.integers(0, w - edge)), int(rng.integers(0, h - edge))
        patch = img[y : y + edge, x : x + edge]
        rot = cv2.warpAffine(tile, m, (edge, edge), flags=cv2.INTER_LINEAR, borderValue=235)
        patch[...] = rot
    return cv2.GaussianBlur(img, (0, 0), 0.5)


def sand(seed: int, size_px: tuple[int, int] = (640, 480), *, px_per_in: float = 20.0) -> np.ndarray:
    """Our synthetic table's sand (no tags), grey, with a dark rim across one corner."""
    from calibration.synthetic.texture import TableLook

    w, h = size_px
    look = TableLook(w / px_per_in, h / px_per_in, seed=seed)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    bgr = look.sample((xs + 0.5) / px_per_in - 0.5, (ys + 0.5) / px_per_in - 0.5)
    return cv2.cvtColor(np.clip(bgr, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)


def tags_painted_out(gray: np.ndarray, corners_px: np.ndarray, *, grow: float = 0.6) -> np.ndarray:
    """A photo with each tag (quad corners, N x 4 x 2, plus ``grow`` edges of margin) painted out by inpainting."""
    mask = np.zeros(gray.shape[:2], np.uint8)
    for quad in corners_px:
        c = quad.mean(axis=0)
        grown = c + (quad - c) * (1.0 + 2.0 * grow)
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 255)
    return cv2.inpaint(gray, mask, 5, cv2.INPAINT_TELEA)


def generated_negatives(seeds: int = 4) -> Iterator[tuple[str, np.ndarray]]:
    """(name, grey image) for every generated negative: checkerboards, random grids, tag-like squares, sand."""
    for cell in (6, 9, 14, 22):
        for angle, tilt in ((0.0, 0.0), (17.0, 0.2), (40.0, 0.35)):
            yield f"checkerboard_{cell}px_{angle:.0f}deg_tilt{tilt}", checkerboard(cell, angle_deg=angle, tilt=tilt)
    for seed in range(seeds):
        for cell in (3, 4, 6):
            yield f"random_grid_{cell}px_seed{seed}", random_grid(cell, seed)
        yield f"tag_like_squares_seed{seed}", bordered_noise_squares(seed)
        yield f"sand_seed{seed}", sand(seed)
