"""Helpers of the tracker tests: AprilTag bitmaps pasted into images, a fake OpenCV camera.

Used where the synthetic table would be overkill (thread contracts, CLI shapes); the tests of tracking
quality run on the synthetic table itself.
"""
from __future__ import annotations

import threading
import time

import cv2
import numpy as np


def tag_bitmap(tag_id: int, *, px: int = 160) -> np.ndarray:
    """The black square of tag36h11 ``tag_id`` (``px`` wide), without its white margin."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    return cv2.aruco.generateImageMarker(dictionary, tag_id, px, borderBits=1)


def paste_tag(image: np.ndarray, tag_id: int, centre_px, edge_px: float, angle_deg: float = 0.0) -> np.ndarray:
    """Paste tag ``tag_id`` (black square ``edge_px`` wide, with a white margin) centred at ``centre_px``.

    Returns the four corners (OpenCV convention) in the detector's order, for checking.
    """
    tag = tag_bitmap(tag_id)
    margin = tag.shape[0] // 4
    framed = cv2.copyMakeBorder(tag, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)
    side = framed.shape[0]
    scale = edge_px / tag.shape[0]
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = side * scale / 2
    dst = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half) @ rot.T + np.asarray(centre_px, float)
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    h, w = image.shape[:2]
    warped = cv2.warpPerspective(framed, m, (w, h), flags=cv2.INTER_AREA, borderValue=0)
    mask = cv2.warpPerspective(np.full_like(framed, 255), m, (w, h), flags=cv2.INTER_NEAREST) > 0
    if image.ndim == 3:
        image[mask] = warped[mask][:, None]
    else:
        image[mask] = warped[mask]
    e = edge_px / 2
    corners = np.array([[e, -e], [-e, -e], [-e, e], [e, e]]) @ rot.T + np.asarray(centre_px, float)
    return corners


def textured_background(width: int, height: int, *, seed: int = 0, colour: bool = True) -> np.ndarray:
    """A sand-like grey/brown texture."""
    rng = np.random.default_rng(seed)
    base = cv2.GaussianBlur(rng.normal(150, 30, (height, width)).astype(np.float32), (0, 0), 4)
    base = np.clip(base, 60, 220).astype(np.uint8)
    if not colour:
        return base
    return cv2.merge([np.clip(base * 0.8, 0, 255).astype(np.uint8), base, np.clip(base * 1.1, 0, 255).astype(np.uint8)])


def add_noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    return np.clip(image.astype(np.float32) + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)


class FakeCapture:
    """A stand-in for cv2.VideoCapture driven by a shared script (``FakeCamera``)."""

    def __init__(self, camera: "FakeCamera") -> None:
        self.camera = camera
        self.opened = camera.plugged_in
        camera.opens += 1

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened

    def read(self):
        time.sleep(1.0 / self.camera.fps)
        if not (self.opened and self.camera.plugged_in):
            return False, None
        with self.camera.changed:
            self.camera.delivered += 1
            n = self.camera.delivered
            self.camera.changed.notify_all()
        image = np.full((48, 64, 3), n % 256, np.uint8)
        return True, image

    def release(self) -> None:
        self.opened = False


class FakeCamera:
    """A camera that can be unplugged and plugged back in by the test."""

    def __init__(self, *, fps: float = 200.0, plugged_in: bool = True) -> None:
        self.fps = fps
        self.plugged_in = plugged_in
        self.delivered = 0
        self.opens = 0
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)  # notified at each frame delivered

    def factory(self, spec):
        return FakeCapture(self)

    def wait_delivered(self, count: int, timeout_s: float = 120.0) -> None:
        """Until the camera has delivered ``count`` frames in all: what the test waits for, not a
        time that holds that many only on a quiet machine (``timeout_s`` only ends a broken test)."""
        with self.changed:
            if not self.changed.wait_for(lambda: self.delivered >= count, timeout_s):
                raise AssertionError(f"the fake camera delivered {self.delivered} frames, not {count}, in {timeout_s:.0f} s")


class CameraMapping:
    """The synthetic camera's true pixels <-> table mapping (what a perfect registration would give)."""

    def __init__(self, model, pose, layout=None) -> None:
        self.model = model
        self.pose = pose
        self.layout = layout

    def table_from_camera(self, pixels, *, z_in=0.0):
        from calibration.projection import table_from_camera

        return table_from_camera(np.asarray(pixels, float).reshape(-1, 2), self.model, self.pose, z_in=z_in)

    def camera_from_table(self, points, *, z_in=0.0):
        from calibration.projection import camera_from_table

        return camera_from_table(np.asarray(points, float), self.model, self.pose, z_in=z_in)
