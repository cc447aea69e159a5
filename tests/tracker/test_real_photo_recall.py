"""`sandtable detect` on real photographs, clean and under each webcam fault, against the bare detector.

The bare detector is pupil-apriltags on its own (quad_decimate=1, refine_edges=1, any hamming). Per fault,
detect finds every id the bare detector finds in each photo, and no id that is not in view.
"""
from __future__ import annotations

import numpy as np
import pytest
from real_photo_cases import FAULT_NAMES, faulted, photos_or_skip, truth_of

from calibration.synthetic import negatives
from calibration.synthetic.faults import webcam_faults
from tracker.decode_policy import DecodePolicy
from tracker.image_detection import detect_in_image
from tracker.recall import bare_detections, tally_recall


@pytest.mark.parametrize("fault", FAULT_NAMES)
def test_detect_finds_every_tag_the_bare_detector_finds_and_no_false_id(fault: str) -> None:
    photos = photos_or_skip()
    tally = tally_recall(((faulted(p, fault), truth_of(p)) for p in photos), detect_in_image)
    assert tally.photos >= 60
    assert tally.missed_by_ours == 0, f"{fault}: detect missed {tally.missed_by_ours} ids the bare detector found"
    assert tally.ours >= tally.bare
    assert tally.false_ours == 0, f"{fault}: detect reported {tally.false_ours} ids not in view"


def test_detect_beats_exact_decodes_only_where_webcam_compression_corrupts_bits() -> None:
    """The old detect (exact decodes only, sharpening 0.25) lost tags on JPEG q30; the new path does not."""
    from tracker.detections import detect_tags, make_detector

    old = make_detector(decode_sharpening=0.25)
    photos = photos_or_skip()
    images = [(faulted(p, "jpeg_q30"), truth_of(p)) for p in photos]
    old_tally = tally_recall(images, lambda g: detect_tags(old, g, max_hamming=0))
    new_tally = tally_recall(images, detect_in_image)
    assert new_tally.ours > old_tally.ours, (new_tally, old_tally)


NEGATIVE_FAULTS = {"clean": lambda x: x, **webcam_faults()}


@pytest.fixture(scope="module")
def negative_images() -> list[tuple[str, np.ndarray]]:
    """Generated pictures without tags, and a third of the real photos with their tags painted out
    (made once: each fault below is a test of its own, so that the sweep spreads over the workers)."""
    from real_photo_cases import grey

    images = list(negatives.generated_negatives(seeds=2))
    for photo in photos_or_skip()[::3]:
        g = grey(photo.path)
        found = bare_detections(g)
        if len(found):
            images.append((f"{photo.name} with its tags painted out", negatives.tags_painted_out(g, found.corners_px)))
    return images


@pytest.mark.parametrize("fault", NEGATIVE_FAULTS)
def test_no_id_on_pictures_without_tags_even_when_every_id_is_expected(negative_images, fault: str) -> None:
    """The loosest policy (every id known, so two corrected bits accepted everywhere) still sees nothing."""
    loosest = DecodePolicy.knowing(range(587))
    apply = NEGATIVE_FAULTS[fault]
    false = [(name, int(i)) for name, image in negative_images
             for i in detect_in_image(apply(image), policy=loosest).tag_ids]
    assert len(negative_images) > 20
    assert false == []


def test_painted_out_photos_really_lose_their_tags() -> None:
    """The negatives built from photos are negatives: the bare detector finds nothing in them either."""
    photos = photos_or_skip()[:6]
    from real_photo_cases import grey

    for photo in photos:
        g = grey(photo.path)
        found = bare_detections(g)
        assert len(bare_detections(negatives.tags_painted_out(g, found.corners_px))) == 0, photo.name
        assert np.any(found.tag_ids >= 0) or len(found) == 0


def test_no_id_on_any_real_photo_with_its_tags_painted_out() -> None:
    """Every real photograph, not only the third of them the fault sweep above takes: real optics and
    compression with the tags gone (the real-photos folder holds no tag-free photographs of its own)."""
    from real_photo_cases import grey

    loosest = DecodePolicy.knowing(range(587))
    false = []
    checked = 0
    for k, photo in enumerate(photos_or_skip()):
        if k % 3 == 0:
            continue  # already under every fault in the test above
        g = grey(photo.path)
        found = bare_detections(g)
        if len(found) == 0:
            continue
        checked += 1
        found_now = detect_in_image(negatives.tags_painted_out(g, found.corners_px), policy=loosest)
        false += [(photo.name, int(i)) for i in found_now.tag_ids]
    assert checked >= 40
    assert false == []
