"""How long drawing one 1080p frame takes with 40 units and every overlay on (target: under 8 ms).

One run, side by side: the compositor as the companion uses it (draw items rebuilt only when the
game changed, projected outlines cached per view, the frame converted into a reused buffer) against
the naive way (a fresh compositor per frame: every outline rebuilt and re-projected through the lens
each frame). Also: one unit moving every frame (its outlines re-projected, the rest cached), the
top-down view with the rectified camera picture, and the projector output. Compare ratios within
this run, not absolute times across runs.

    .venv/bin/python bench/gui_draw.py [--frames N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from calibration.projector import ProjectorCalibration  # noqa: E402
from gui.compositor import Compositor, ensure_qt_app  # noqa: E402
from gui.overlay_shapes import build_items  # noqa: E402
from gui.session import AttackDraft, GameSession  # noqa: E402
from gui.settings import OverlayToggles  # noqa: E402
from gui.synthetic_feed import SyntheticFeed  # noqa: E402
from gui.transforms import CameraTransform, ProjectorTransform, TopDownTransform  # noqa: E402
from rules.downrange.examples.in_depth import load_scenario  # noqa: E402
from tracker.unit_pose import UnitPose, UnitState  # noqa: E402


def forty_units() -> GameSession:
    """The in-depth example's forces plus riflemen on both sides up to 40 units on the table, an EW
    unit jamming, the autocannon selected with a fan, a blast point, a tape and an attack with odds."""
    scenario = load_scenario()
    units = [u for u in scenario["units"]]
    rng = np.random.default_rng(5)
    tag = 50
    on_table = sum(1 for u in units if u.get("on_table", True) and "aboard" not in u and u.get("type") not in ("Black Hornet", "Small UAS"))
    while on_table < 40:
        side = "Marines" if tag % 2 else "PLA Marine Corps"
        x = float(rng.uniform(4, 30) if side == "Marines" else rng.uniform(42, 68))
        entry = {"tag_id": tag, "name": f"Rifleman {tag}", "side": side, "type": "average combatant",
                 "weapons": ["M4/M16" if side == "Marines" else "QBZ series"],
                 "equipment": ["radio"] if tag % 5 == 0 else [], "x_in": x, "y_in": float(rng.uniform(4, 44)),
                 "heading_deg": 0.0 if side == "Marines" else 180.0}
        if tag == 51:
            entry["equipment"] = ["EW equipment"]
        units.append(entry)
        tag += 1
        on_table += 1
    scenario["units"] = units
    session = GameSession.from_scenario(scenario, seed=1)
    try:
        from rules.downrange import actions as A

        session.apply_action(A.StartRound(__import__("rules.downrange.turns", fromlist=["x"]).roll_initiative(
            session.state, __import__("rules.dice", fromlist=["x"]).EnteredDice([7, 3]))))
        session.apply_action(A.StartTurn())
        session.apply_action(A.Jam(51))
    except Exception as exc:  # the bench still runs without the jamming zone
        print(f"(no jamming zone: {exc})")
    session.select_unit(40, weapon="Autocannon")
    session.set_blast_point((24.0, 30.0))
    session.measure((18.0, 21.0), (44.0, 25.0))
    session.set_attack(AttackDraft(40, "Autocannon", (15, 11, 10)))
    return session


def timed(fn, frames: int) -> tuple[float, float]:
    times = []
    for i in range(frames):
        t = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()
    ensure_qt_app()
    session = forty_units()
    snap = session.snapshot()
    feed = SyntheticFeed(session.table_size_in, width_px=1920, height_px=1080)
    frame = feed.render(session.units())
    camera = CameraTransform(feed.calibration)
    top = TopDownTransform(session.table_size_in, (1920, 1080))
    proj_cal = ProjectorCalibration(1920, 1080, np.array([[24.0, 0.5, 100.0], [-0.3, -21.0, 1040.0], [0.0002, 0.0004, 1.0]]),
                                    0.0, 0.0, 16)
    projector = ProjectorTransform(proj_cal)
    toggles = OverlayToggles()
    items = build_items(snap, toggles.names())
    on = sum(1 for u in snap.units if u.on_table)
    print(f"GUI drawing, 1920x1080, {on} units on the table, all {len(toggles.names())} overlays on "
          f"({len(items)} draw items, {sum(len(i.points_in) for i in items)} outline points); {args.frames} frames each")
    comp = Compositor()
    comp.compose(snap, camera, toggles, frame_bgr=frame)  # warm the caches once
    rows = []
    rows.append(("camera view (lens), cached", *timed(lambda i: comp.compose(snap, camera, toggles, frame_bgr=frame), args.frames)))
    flat = Compositor()
    flat.cache_layer = False
    flat.compose(snap, camera, toggles, frame_bgr=frame)
    rows.append(("camera view, outlines cached, no overlay layer", *timed(
        lambda i: flat.compose(snap, camera, toggles, frame_bgr=frame), args.frames)))
    rows.append(("camera view (lens), naive: no caches", *timed(
        lambda i: Compositor().compose(snap, camera, toggles, frame_bgr=frame), max(10, args.frames // 3))))

    mover = session.unit(13)

    def moving(i: int) -> None:
        x = mover.x_in + 0.05 * (i % 40)
        session.apply_poses([UnitPose(13, mover.name, mover.side, x, mover.y_in, 1.0, 0.0, UnitState.SEEN, i / 30, 0.05 * i)])
        comp.compose(session.snapshot(), camera, toggles, frame_bgr=frame)
    rows.append(("camera view, one unit moving each frame", *timed(moving, args.frames)))
    snap = session.snapshot()
    comp_top = Compositor()
    comp_top.compose(snap, top, toggles, frame_bgr=frame, calibration=feed.calibration)
    rows.append(("top-down view, rectified frame, cached", *timed(
        lambda i: comp_top.compose(snap, top, toggles, frame_bgr=frame, calibration=feed.calibration), args.frames)))
    comp_proj = Compositor(font_px=22)
    players = OverlayToggles.projector_default()
    comp_proj.compose(snap, projector, players, black=True)
    rows.append(("projector output (black, warped), cached", *timed(
        lambda i: comp_proj.compose(snap, projector, players, black=True), args.frames)))
    width = max(len(r[0]) for r in rows)
    print(f" {'case':<{width}} | median ms | p95 ms")
    for name, med, p95 in rows:
        print(f" {name:<{width}} | {med:9.2f} | {p95:6.2f}")
    cached, naive = rows[0][1], rows[2][1]
    print(f"cached / naive: {cached / naive:.2f}  (target: the cached camera view under 8 ms: "
          f"{'met' if cached < 8.0 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
