"""A camera knocked while a hand slides two units (issue 27, item 2): the whole-frame rescue of the bump
searches coarsely, so a blurred unit can stay missing after it; the search for tags lost a few at a time
runs after the rescue too, and every tag the bare detector finds is measured in that same frame.
Rendered and seeded; the safety sweep is waited for each frame (``settle``), so no timing counts."""
from __future__ import annotations

import cv2
import pytest

from bench.motion_scenes import bump_slide
from tracker.fast_detection import FastTagDetector
from tracker.frames import Frame
from tracker.pipeline import Tracker
from tracker.recall import bare_detections

KNOCK = 45


def missed_frames() -> tuple[list[tuple[int, list[int]]], int]:
    """(frame, ids the bare detector finds that ours does not report measured) for every frame with such
    ids, and how many frames ours searched the whole frame in (a rescue or the escalation)."""
    missed, whole = [], 0
    with Tracker() as tracker:
        for f in bump_slide(knock_frame=KNOCK):
            result = tracker.process(Frame(f.image_bgr, f.frame_index, f.t_s))
            tracker.settle()
            bare = {t for t in bare_detections(cv2.cvtColor(f.image_bgr, cv2.COLOR_BGR2GRAY)).tag_ids.tolist() if t >= 10}
            measured = {p.tag_id for p in result.poses if p.measured}
            if bare - measured:
                missed.append((f.frame_index, sorted(bare - measured)))
            whole += bool(result.work and result.work.whole_frame_rescue and f.frame_index >= KNOCK)
    return missed, whole


def test_a_knocked_camera_with_units_sliding_loses_no_tag_the_bare_detector_sees() -> None:
    missed, whole = missed_frames()
    assert whole >= 3  # the knock and the shake were rescued by whole-frame searches
    assert missed == []


def test_without_the_search_after_a_rescue_a_sliding_unit_is_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: when a bump rescue stands in for the search for tags lost a few at a time
    (as before), the blurred unit the coarse rescue missed is not measured in that frame."""
    rescued: set[int] = set()
    bumped, escalate = FastTagDetector._camera_bumped, FastTagDetector._escalate

    def note_bump(self, missing, found, t_s):  # type: ignore[no-untyped-def]
        hit = bumped(self, missing, found, t_s)
        if hit:
            rescued.add(self._frame_no)
        return hit

    def not_after_a_rescue(self, found, whole, t_s):  # type: ignore[no-untyped-def]
        step = escalate(self, found, whole, t_s)
        return None if self._frame_no in rescued else step

    monkeypatch.setattr(FastTagDetector, "_camera_bumped", note_bump)
    monkeypatch.setattr(FastTagDetector, "_escalate", not_after_a_rescue)
    missed, _ = missed_frames()
    assert any(frame >= KNOCK and set(ids) & {30, 31} for frame, ids in missed), missed
