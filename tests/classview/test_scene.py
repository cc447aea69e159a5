"""What the class view shows, as data: the same draw items the Qt views draw, the instructor's choice
of overlays (hidden odds stay hidden), readable labels, the turn, the last roll as a card, the log;
and the feed that keeps it up to date off the session's thread."""
from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

from classview.feed import ClassViewFeed
from classview.scene import SceneBuilder, class_layers
from appmodel.overlays.registry import build_items
from appmodel.game_session import AttackDraft, GameSession
from appmodel.overlays.registry import OverlayToggles
from rules.downrange.examples.in_depth import SCENARIO_PATH

MAAWS = 13


@pytest.fixture
def session() -> GameSession:
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    s.select_unit(MAAWS)
    return s


def test_the_scene_holds_the_draw_items_the_qt_views_draw_in_table_inches(session) -> None:
    layers = class_layers(OverlayToggles.projector_default())
    snap = session.snapshot()
    items = [i for i in build_items(snap, layers) if len(i.points_in)]
    scene = SceneBuilder(layers).scene(snap, session.log)
    assert len(scene["items"]) == len(items) > 20
    for mine, theirs in zip(scene["items"], items):
        assert (mine["layer"], mine["color"], mine["width_px"], mine.get("closed", False), mine.get("dashed", False)) == \
            (theirs.layer, theirs.color, theirs.width_px, theirs.closed, theirs.dashed)
        assert np.allclose(np.reshape(mine["pts"], (-1, 2)), theirs.points_in, atol=0.006)
    base = next(i for i in scene["items"] if i.get("base_of") == MAAWS)
    u = session.unit(MAAWS)
    assert np.allclose(np.reshape(base["pts"], (-1, 2)).mean(axis=0), (u.x_in, u.y_in), atol=0.05)


def test_the_class_sees_what_the_players_see_so_hidden_odds_stay_hidden(session) -> None:
    # Without the window's settings (a headless demo), the players' default: the same as the settings'.
    assert class_layers() == class_layers(OverlayToggles.projector_default())
    session.set_attack(AttackDraft(10, "M4/M16", (31,)))
    hidden = SceneBuilder(class_layers(OverlayToggles.projector_default())).scene(session.snapshot())
    assert not any(i["layer"] == "odds" for i in hidden["items"] + hidden["labels"])
    assert not any("%" in label["text"] for label in hidden["labels"])
    shown = SceneBuilder(class_layers(OverlayToggles.projector_default().with_("odds", True))).scene(session.snapshot())
    assert any(label["layer"] == "odds" and "%" in label["text"] for label in shown["labels"])
    # Names are always on for the class (the projector leaves them to the figures on the table).
    assert any(label["text"].startswith("MAAWS gunner") for label in hidden["labels"])


def test_labels_do_not_cover_each_other(session) -> None:
    scene = SceneBuilder(class_layers(OverlayToggles())).scene(session.snapshot())
    boxes = [label["box"] for label in scene["labels"]]
    assert len(boxes) > 10
    for k, a in enumerate(boxes):
        assert a[0] < a[2] and a[1] < a[3]
        for b in boxes[k + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_the_turn_the_last_roll_and_the_log_are_in_the_scene(session) -> None:
    builder = SceneBuilder(class_layers())
    before = builder.scene(session.snapshot(), session.log)
    assert before["turn"]["text"].startswith("Set-up") and before["roll"] is None
    session.start_round()
    after = builder.scene(session.snapshot(), session.log)
    assert after["turn"]["text"] == "Round 1 · set-up (before the first turn)" and len(after["turn"]["order"]) == 2
    card = after["roll"]
    assert card["kind"] == "initiative" and "initiative" in card["summary"]
    assert all(r["faces"] and sum(r["faces"]) == r["total"] for r in card["rolls"])
    assert after["log"][-1]["text"] == session.log[-1].text
    session.start_turn()
    turn = builder.scene(session.snapshot(), session.log)["turn"]
    assert turn["side"] == turn["order"][0] and turn["text"] == "Round 1 · PLA Marine Corps' turn"
    units = {u["id"]: u for u in after["units"]}
    assert units[MAAWS]["name"] == "MAAWS gunner" and units[MAAWS]["status"] == "active"


def test_the_feed_publishes_each_change_off_the_session_thread_and_nothing_when_nobody_watches(session) -> None:
    got: list[tuple[dict, str]] = []
    arrived = threading.Event()
    watching = [False]

    def publish(data: bytes) -> None:
        got.append((json.loads(data), threading.current_thread().name))
        arrived.set()

    feed = ClassViewFeed(session, publish, wanted=lambda: watching[0])
    try:
        session.select_unit(10)
        time.sleep(0.3)
        assert got == []  # nobody watching: nothing built
        watching[0] = True
        feed.wake()  # a viewer arrived
        assert arrived.wait(120)  # only a broken feed waits this long
        assert got[-1][0]["version"] == session.version and got[-1][1] != threading.current_thread().name
        arrived.clear()
        for _ in range(20):  # a burst of changes: the newest is built, the rest skipped
            session.select_unit(MAAWS)
            session.select_unit(10)
        deadline = time.monotonic() + 120
        while got[-1][0]["version"] != session.version and time.monotonic() < deadline:
            time.sleep(0.02)
        assert got[-1][0]["version"] == session.version
        assert len(got) < 20
    finally:
        feed.close()
