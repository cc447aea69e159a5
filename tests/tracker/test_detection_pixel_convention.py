"""Detected tag centres are reported in OpenCV's pixel convention (centres at integers)."""
from __future__ import annotations

import cv2
import numpy as np

from tracker.detections import detect_tags, make_detector


def test_detected_centre_matches_where_opencv_put_the_tag():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    tag = cv2.aruco.generateImageMarker(dictionary, 23, 800, borderBits=1)
    side = tag.shape[0]
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) - 0.5
    detector = make_detector()
    rng = np.random.default_rng(3)
    errors = []
    for _ in range(12):
        centre = np.array([320.0, 240.0]) + rng.uniform(-5, 5, 2)
        size = rng.uniform(40, 90)
        angle = rng.uniform(0, 2 * np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        dst = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * size / 2) @ rot.T + centre
        img = cv2.warpPerspective(tag, cv2.getPerspectiveTransform(src, dst.astype(np.float32)), (640, 480),
                                  flags=cv2.INTER_AREA, borderValue=255)
        found = detect_tags(detector, img)
        assert list(found.tag_ids) == [23]
        errors.append(found.centers_px[0] - centre)
    bias = np.mean(errors, axis=0)
    assert np.all(np.abs(bias) < 0.15), f"mean centre bias {bias} px: the half-pixel convention is off"
