"""One printed tag found twice a few pixels apart (a band's seam, overlapping searches) is one tag; two
prints of one id inches apart are still a conflict (issue 27, item 4)."""
from __future__ import annotations

import numpy as np

from tracker.detections import TagDetections, one_per_tag
from tracker.events import EventKind
from tracker.unit_tracker import UnitTracker
from tracker.roster import Roster, UnitSpec


def square(cx: float, cy: float, edge: float = 40.0) -> np.ndarray:
    h = edge / 2
    return np.array([[cx + h, cy + h], [cx - h, cy + h], [cx - h, cy - h], [cx + h, cy - h]])


def detections(*tags: tuple[int, float, float, float], frame: int = 0) -> TagDetections:
    corners = np.array([square(x, y) for _, x, y, _ in tags])
    return TagDetections(
        tag_ids=np.array([t for t, *_ in tags]), corners_px=corners, centers_px=corners.mean(axis=1),
        hammings=np.zeros(len(tags), dtype=int), decision_margins=np.array([m for *_, m in tags]),
        frame_index=frame, t_s=frame / 30.0,
    )


def test_the_same_tag_found_twice_beside_a_seam_is_one_detection() -> None:
    both = detections((49, 300.0, 200.0, 50.0), (49, 305.0, 201.0, 70.0), (12, 500.0, 200.0, 60.0))
    one = one_per_tag(both)
    assert sorted(one.tag_ids.tolist()) == [12, 49]
    assert one.centers_px[one.tag_ids == 49].tolist() == [[305.0, 201.0]]  # the better margin kept


def test_two_prints_of_one_id_are_both_kept() -> None:
    both = detections((49, 300.0, 200.0, 50.0), (49, 420.0, 200.0, 70.0))
    assert len(one_per_tag(both)) == 2


def conflicts(second_dx: float) -> list:
    tracker = UnitTracker(Roster(units=(UnitSpec(49, "Haas"),)))
    events = []
    for i in range(30):
        events += tracker.update(detections((49, 300.0, 200.0, 50.0), (49, 300.0 + second_dx, 201.0, 60.0), frame=i)).events
    return [e for e in events if e.kind is EventKind.CONFLICT]


def test_a_tag_detected_twice_5_px_apart_raises_no_conflict() -> None:
    assert conflicts(5.0) == []


def test_a_real_duplicate_inches_apart_is_a_conflict() -> None:
    assert conflicts(150.0) != []
