"""The replay's comms lane follows the event list's filters: a side chosen keeps that side's signals and
orders (their marks drawn, the others' gone, its words naming the filter), a unit chosen keeps the comms
it sent or that reached it, and the kinds unticked in the list leave the lane too. Read from the
in-depth example's recording: the Marines' sergeant signals at 0:12 and 1:24 and orders the MAAWS gunner
at 1:04; the PLA officer signals at 0:20 and orders the ZBL-09 at 0:40."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

MARINES_SIGNALS = (12.01, 84.03)
MARINES_ORDER = 64.03
PLA_SIGNAL, PLA_ORDER = 20.07, 40.02


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    from demo.example_recording import record_in_depth_example

    return record_in_depth_example(tmp_path_factory.mktemp("lane") / "example.sqlite")


@pytest.fixture
def window(qtbot, example):
    from appmodel.replay_model import ReplayModel
    from gui.app import create_application
    from gui.main_window import MainWindow

    create_application()
    replay = ReplayModel(example)
    w = MainWindow(replay.session, replay=replay)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitUntil(lambda: w.timeline.lane.width() > 400)
    yield w
    w.close()
    replay.close()


def marks_drawn(lane) -> dict[float, bool]:
    """For every comms moment of the recording, whether the lane's picture has a mark there."""
    from PySide6.QtGui import QColor

    from gui.panels.comms_lane import COLORS, STRIP_PX

    image = lane.grab().toImage()
    colors = {QColor(c).rgb() & 0xFFFFFF for c in COLORS.values()}
    out = {}
    for t in (*MARINES_SIGNALS, MARINES_ORDER, PLA_SIGNAL, PLA_ORDER):
        x = int(round(lane._x(t)))
        out[t] = any(image.pixel(x + dx, STRIP_PX // 2) & 0xFFFFFF in colors for dx in (-1, 0, 1))
    return out


def times(lane) -> list[float]:
    return [round(link.t_s, 2) for link in lane.links]


def test_all_comms_are_on_the_lane_until_a_filter_is_chosen(window) -> None:
    lane = window.timeline.lane
    assert times(lane) == sorted((*MARINES_SIGNALS, MARINES_ORDER, PLA_SIGNAL, PLA_ORDER))
    assert all(marks_drawn(lane).values())
    window.timeline.seek(5.0)
    assert lane.caption() == "Comms: 5 signals and jamming later"


def test_choosing_a_side_keeps_that_sides_comms_on_the_lane(window) -> None:
    lane = window.timeline.lane
    window.review.set_side("PLA Marine Corps")
    assert times(lane) == [PLA_SIGNAL, PLA_ORDER]
    drawn = marks_drawn(lane)
    assert drawn[PLA_SIGNAL] and drawn[PLA_ORDER]
    assert not any(drawn[t] for t in (*MARINES_SIGNALS, MARINES_ORDER))
    window.timeline.seek(15.0)  # after the sergeant's signal, before the officer's: nothing of the PLA's yet
    assert lane.caption() == "Comms (PLA Marine Corps): 2 signals and jamming later"
    window.timeline.seek(70.0)  # the sergeant's order at 1:04 is hidden: the officer's at 0:40 is the last
    assert lane.caption().startswith("Comms (PLA Marine Corps): 0:40  Officer → ZBL-09")
    window.review.set_side(None)
    assert len(lane.links) == 5


def test_choosing_a_unit_keeps_what_it_sent_or_received_and_unticked_kinds_leave(window) -> None:
    lane = window.timeline.lane
    gunner = next(uid for uid in range(1, 200) if window.timeline.replay.unit_name(uid) == "MAAWS gunner")
    window.review.set_unit(gunner)
    assert times(lane) == [MARINES_SIGNALS[0], MARINES_ORDER, MARINES_SIGNALS[1]]
    assert not marks_drawn(lane)[PLA_SIGNAL]
    window.timeline.seek(70.0)
    assert lane.caption().startswith("Comms (MAAWS gunner): 1:04  Sergeant → MAAWS gunner")
    window.review.set_kind("signal", False)  # signals unticked in the event list: its orders stay
    assert times(lane) == [MARINES_ORDER]
    assert window.review.shown and all(e.kind != "signal" for e in window.review.shown)
    window.review.set_side("PLA Marine Corps")  # nothing of the gunner's on that side
    assert lane.links == []
    assert "no signal or jamming (the event list's filters hide the others)" in lane.caption()
    assert lane.isVisible()  # the lane stays where it was, saying why it is empty
