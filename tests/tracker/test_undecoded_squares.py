"""Tags users make: a tag with its white border trimmed off is still found (the ArUco fallback), and a
tag-like square that nothing decodes is reported with the likely reason instead of silence."""
from __future__ import annotations

import cv2
import numpy as np

from calibration.synthetic import negatives
from tracker_helpers import paste_tag, tag_bitmap
from tracker.image_detection import examine_image
from tracker.recall import bare_detections


def trimmed_tag_on_dark_base(tag_id: int, edge_px: int, base: int = 60) -> np.ndarray:
    """A tag cut at its black square, glued to a dark base: no white border at all."""
    image = np.full((240, 320), base, np.uint8)
    image[100 : 100 + edge_px, 140 : 140 + edge_px] = cv2.resize(tag_bitmap(tag_id), (edge_px, edge_px), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(image, (0, 0), 0.7)


def test_a_small_tag_with_its_white_border_trimmed_is_found_by_the_fallback() -> None:
    image = trimmed_tag_on_dark_base(17, 24)
    assert len(bare_detections(image)) == 0  # pupil-apriltags alone sees nothing
    result = examine_image(image)
    assert result.detections.tag_ids.tolist() == [17] and result.fallback_ids == {17}
    centre = result.detections.centers_px[0]
    assert np.allclose(centre, [140 + 12 - 0.5, 100 + 12 - 0.5], atol=1.0)


def test_fallback_corners_are_in_the_detectors_order() -> None:
    image = np.full((300, 400), 200, np.uint8)
    paste_tag(image, 23, (200, 150), 80, 20)
    from tracker.undecoded_squares import aruco_detections

    by_aruco, _ = aruco_detections(image)
    assert np.allclose(by_aruco.corners_px[0], bare_detections(image).corners_px[0], atol=1.5)


def damaged_tag(edge_px: int, *, blur_px: float = 0.5) -> np.ndarray:
    """A tag whose inside was scribbled over (half its bits flipped): tag-like, but no code."""
    bitmap = tag_bitmap(5, px=160).copy()
    cell = 160 // 8
    bitmap[2 * cell : 6 * cell, 2 * cell : 6 * cell] = 255 - bitmap[2 * cell : 6 * cell, 2 * cell : 6 * cell]
    framed = cv2.copyMakeBorder(bitmap, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    scale = edge_px / 160
    small = cv2.resize(framed, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    image = np.full((240, 320), 120, np.uint8)
    image[60 : 60 + small.shape[0], 80 : 80 + small.shape[1]] = small
    return cv2.GaussianBlur(image, (0, 0), blur_px) if blur_px else image


def test_a_tag_like_square_that_does_not_decode_is_reported_with_a_reason() -> None:
    result = examine_image(damaged_tag(60))
    assert len(result.detections) == 0
    assert len(result.undecoded) == 1
    assert "trimmed white border or a damaged print" in result.undecoded[0].describe()


def test_a_blurred_tag_like_square_is_called_too_blurred() -> None:
    result = examine_image(damaged_tag(60, blur_px=3.0))
    assert len(result.detections) == 0
    assert [s.reason.split(" (")[0] for s in result.undecoded] == ["too blurred"]


def test_checkerboards_random_grids_and_sand_give_no_tag_like_squares() -> None:
    reported = []
    for name, image in negatives.generated_negatives(seeds=2):
        if name.startswith("tag_like_squares"):
            continue  # those are tag-like by design
        result = examine_image(image)
        reported += [(name, s.describe()) for s in result.undecoded]
        assert len(result.detections) == 0, name
    assert reported == []
