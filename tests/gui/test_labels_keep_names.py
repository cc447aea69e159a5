"""Labels keep their names: where a unit's name does not fit, its label is the name abbreviated, never
a bare tag number ("31", "11+12"); distances in labels are given to a tenth of an inch, the movement
ring's label like the unit's own "(move left ...)"."""
from __future__ import annotations

import os
import re

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def placed_labels(session, size):
    from gui.compositor import Compositor, ensure_qt_app
    from appmodel.overlays.registry import OverlayToggles
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from appmodel.overlays.transforms import CameraTransform

    ensure_qt_app()
    feed = SyntheticFeed(session.table_size_in, width_px=size[0], height_px=size[1])
    comp = Compositor()
    comp.compose(session.snapshot(), CameraTransform(feed.calibration), OverlayToggles(),
                 frame_bgr=np.zeros((feed.table.model.height_px, feed.table.model.width_px, 3), np.uint8))
    return comp.painter.placed_labels


def test_crowded_unit_labels_fall_back_to_shortened_names_not_tag_numbers():
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from tracker.unit_pose import UnitPose, UnitState

    session = GameSession.from_scenario_file(SCENARIO_PATH)
    # Players crowd every unit into the middle of the table, 1.1" apart: the names cannot all fit.
    units = [u for u in session.units() if u.on_table]
    session.apply_poses([UnitPose(u.unit_id, u.name, u.side, 30.0 + 1.1 * (i % 5), 20.0 + 1.1 * (i // 5), 1.0, 0.0,
                                  UnitState.SEEN, 1.0, 0.0) for i, u in enumerate(units)], t_s=1.0)
    placed = [p for p in placed_labels(session, (640, 360)) if p.key[0] == "labels"]
    assert placed
    for p in placed:  # what is shown, full or short, names the unit
        assert re.search(r"[A-Za-z]{2}", p.text) and not re.fullmatch(r"[\d+ ]+", p.text), p.text
    forms = {p.request.text: p.request.short_text for p in placed_labels(session, (1280, 720)) if p.key[0] == "labels"}
    # The short form a crowded label falls back to: the names abbreviated, shorter than the full text.
    assert forms["Automatic rifleman"] == "Auto. rifleman"
    assert forms["Mortar gunner"] == "Mort. gunner" or forms.get("Mortar gunner + Assistant gunner") == \
        "Mort. gunner + Assi. gunner"
    for full, short in forms.items():
        assert len(short) <= len(full) and re.search(r"[A-Za-z]{2}", short), (full, short)


def test_movement_left_is_said_once_to_a_tenth_of_an_inch():
    from appmodel.game_session import GameSession
    from appmodel.overlays.registry import OverlayToggles, build_items
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from tracker.unit_pose import UnitPose, UnitState

    session = GameSession.from_scenario_file(SCENARIO_PATH)
    session.start_round()
    session.start_turn()  # in play: the walk spends Movement (in the set-up it only places him)
    session.select_unit(10)
    u = session.unit(10)
    # The sergeant walked an awkward distance: Move left is not a round number.
    session.apply_poses([UnitPose(10, u.name, u.side, u.x_in + 1.2345, u.y_in + 0.6789, 1.0, 0.0, UnitState.SEEN, 1.0,
                                  float(np.hypot(1.2345, 0.6789)))], t_s=1.0)
    texts = [p.text for p in placed_labels(session, (1920, 1080))]
    moves = [t for t in texts if "ove left" in t]
    # Once, on the unit's own label, not again on its ring a few pixels away (the demo video showed both).
    assert len(moves) == 1 and "Sergeant (move left" in moves[0], texts
    assert re.search(r'move left \d+\.\d"', moves[0]) and not re.search(r"\d\.\d{2,}", moves[0])
    # Without the names (the players' table), the ring says it, to the same tenth.
    players = OverlayToggles.projector_default()
    ring = [i.label for i in build_items(session.snapshot(), [n for n in players.names() if players.is_on(n)])
            if i.layer == "movement"]
    assert ring and re.search(r'Move left (\d+\.\d)"', ring[0])[1] == re.search(r'move left (\d+\.\d)"', moves[0])[1]
