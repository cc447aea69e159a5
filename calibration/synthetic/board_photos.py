"""Synthetic photos of the printed lens-calibration board, held in front of a synthetic camera.

The same inverse mapping as the table renderer: each sub-pixel sample's ray is intersected with the
board's plane and the printed sheet is looked up there, so the board tags' corners land exactly where
the lens model puts them. ``board_photo_poses`` poses the board as a person calibrating would: tilted
at different angles, near the middle and near the corners of the picture.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.board import BoardSpec
from calibration.camera_model import CameraModel, CameraPose
from calibration.synthetic.faults import apply_faults
from calibration.synthetic.raycast import INK_BGR, PAPER_BGR
from calibration.synthetic.scene import Faults
from calibration.synthetic.view_geometry import ViewGeometry
from calibration.tag_bitmaps import TAG_CELLS, tag_bitmap

#: White paper around the tag grid, inches.
SHEET_MARGIN_IN = 0.6


@dataclass(frozen=True, eq=False)
class BoardPhoto:
    """A photo of the board and the true corners (OpenCV convention, detector order) of its tags."""

    image_bgr: np.ndarray
    tag_ids: np.ndarray
    corners_px: np.ndarray
    pose: CameraPose


def render_board_photo(
    model: CameraModel,
    pose: CameraPose,
    board: BoardSpec = BoardSpec(),
    *,
    faults: Faults = Faults(),
    rng: np.random.Generator | None = None,
    supersample: int = 2,
) -> BoardPhoto:
    """The board seen by a camera at ``pose`` (board frame: inches, the sheet in the plane z = 0)."""
    rng = rng if rng is not None else np.random.default_rng(0)
    geom = ViewGeometry(model, pose)
    w, h = model.size_px
    img = _room(w, h, rng)
    m = SHEET_MARGIN_IN
    sheet = np.array([[-m, -m, 0.0], [board.width_in + m, -m, 0.0], [board.width_in + m, board.height_in + m, 0.0], [-m, board.height_in + m, 0.0]])
    box = geom.pixel_bbox(sheet)
    if box is not None:
        x0, y0, x1, y1 = box
        n = supersample
        dirs = geom.sample_rays(box, n)
        cam = geom.center_in.astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            s = -cam[2] / dirs[..., 2]
        x = cam[0] + s * dirs[..., 0]
        y = cam[1] + s * dirs[..., 1]
        on_sheet = (s > 0) & (x >= -m) & (x <= board.width_in + m) & (y >= -m) & (y <= board.height_in + m)
        white = _board_is_white(board, x, y)
        colour = np.where(white[..., None], PAPER_BGR, INK_BGR).astype(np.float32) * on_sheet[..., None]
        size = (x1 - x0, y1 - y0)
        colour = cv2.resize(colour, size, interpolation=cv2.INTER_AREA)
        cover = cv2.resize(on_sheet.astype(np.float32), size, interpolation=cv2.INTER_AREA)
        region = img[y0:y1, x0:x1].astype(np.float32) * (1.0 - cover[..., None]) + colour
        img[y0:y1, x0:x1] = np.clip(np.rint(region), 0, 255).astype(np.uint8)
    ids = np.array(board.tag_ids)
    corners = []
    keep = []
    for k, tag_id in enumerate(ids):
        px, inside = geom.project(board.corners_in(int(tag_id)))
        if np.all(inside):
            keep.append(k)
            corners.append(px)
    image = apply_faults(img, faults, rng)
    return BoardPhoto(image, ids[keep], np.array(corners).reshape(-1, 4, 2), pose)


def _board_is_white(board: BoardSpec, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    pitch, size = board.pitch_in, board.tag_size_in
    col = np.floor(x / pitch).astype(np.int32)
    row_up = np.floor(y / pitch).astype(np.int32)
    u = x - col * pitch
    v = y - row_up * pitch
    in_grid = (col >= 0) & (col < board.cols) & (row_up >= 0) & (row_up < board.rows)
    in_tag = in_grid & (u < size) & (v < size)
    cell = size / TAG_CELLS
    cx = np.clip(np.floor(u / cell).astype(np.int32), 0, TAG_CELLS - 1)
    cy = np.clip(TAG_CELLS - 1 - np.floor(v / cell).astype(np.int32), 0, TAG_CELLS - 1)
    bits = np.stack([tag_bitmap(t) for t in board.tag_ids]).astype(bool)
    tag_index = np.clip((board.rows - 1 - row_up) * board.cols + col, 0, len(bits) - 1)
    white = np.ones(x.shape, bool)
    white[in_tag] = bits[tag_index[in_tag], cy[in_tag], cx[in_tag]]
    return white


def _room(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A dim, blotchy wall behind the board."""
    grey = rng.uniform(60, 120, (5, 7, 1)).astype(np.float32)
    coarse = grey * np.array([1.0, 1.04, 1.1], np.float32) + rng.normal(0, 4, (5, 7, 3)).astype(np.float32)
    wall = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(wall, 0, 255).astype(np.uint8)


def board_photo_poses(model: CameraModel, board: BoardSpec, count: int, *, seed: int = 0) -> list[CameraPose]:
    """``count`` board poses as a careful person would take them: the board filling a third to a half
    of the picture, tilted up to 45 degrees, and moved around so that its corners reach every part of
    the picture (lens distortion is strongest in the corners)."""
    rng = np.random.default_rng(seed)
    w, h = model.size_px
    centre = np.array([board.width_in / 2, board.height_in / 2, 0.0])
    spots = [(0.0, 0.0)] + [(sx, sy) for sx in (-1, 1) for sy in (-1, 1)] + [(sx, 0) for sx in (-1, 1)] + [(0, sy) for sy in (-1, 1)]
    poses = []
    for k in range(count):
        fill = rng.uniform(0.38, 0.55)
        distance = model.fx_px * board.width_in / (fill * w)
        tilt = math.radians(rng.uniform(15.0, 45.0))
        azimuth = rng.uniform(0.0, 2 * math.pi)
        direction = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)])
        eye = centre + distance * direction
        # aim the camera beside the board so that the board appears toward a corner or edge of the picture
        sx, sy = spots[k % len(spots)]
        view_w = w * distance / model.fx_px
        view_h = h * distance / model.fy_px
        aim = centre + np.array([-sx * 0.3 * view_w + rng.normal(0, 0.03 * view_w), -sy * 0.3 * view_h + rng.normal(0, 0.03 * view_h), 0.0])
        poses.append(CameraPose.looking_at(tuple(eye), tuple(aim), roll_deg=float(rng.uniform(-25, 25))))
    return poses
