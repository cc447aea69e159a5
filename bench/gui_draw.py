"""How long drawing one 1080p frame takes with 40 units and every overlay on (target: under 8 ms),
while nothing moves and while units move.

One run, side by side, camera view through the lens unless said otherwise:

* static: a new camera frame, the game unchanged (the overlay layer is blended as it is);
* one unit / five units moving: each frame the tracker's poses go into the session (the rules move
  the units), the overlays are rebuilt where their inputs changed and the layer is repainted only
  where something changed (dirty rectangles);
* the same with a full repaint of the layer whenever anything changed (no dirty rectangles);
* naive: a fresh compositor per frame (every shape rebuilt, re-projected through the lens and
  repainted), one unit moving;
* the top-down view with the rectified camera picture, and the projector output, with a unit moving.

Every moving case includes the session's update (``apply_poses`` and the snapshot). Compare ratios
within this run, not absolute times across runs.

    .venv/bin/python bench/gui_draw.py [--frames N]
"""
from __future__ import annotations

import argparse
import gc
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


def timed(fn, frames: int) -> tuple[float, float, float]:
    times = []
    for i in range(frames):
        t = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], times[-1]


class Movers:
    """Units carried across the table: each frame they move 0.15" (a hand at ~4.5"/s, 30 fps) along
    a back-and-forth path, as tracker poses."""

    def __init__(self, session: GameSession, ids: list[int]) -> None:
        self.session = session
        self.start = {uid: session.unit(uid) for uid in ids}
        self.frame = 0

    def step(self) -> None:
        self.frame += 1
        i = self.frame
        poses = []
        for k, (uid, u) in enumerate(self.start.items()):
            phase = (i + 7 * k) % 80
            offset = 0.15 * (phase if phase < 40 else 80 - phase)
            heading = (u.heading_deg + 2.0 * (phase if phase < 40 else 80 - phase)) % 360.0
            poses.append(UnitPose(uid, u.name, u.side, u.x_in + offset, u.y_in + 0.4 * offset, 1.0, heading,
                                  UnitState.SEEN, i / 30, 0.15 * i))
        self.session.apply_poses(poses, t_s=i / 30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()
    n = args.frames
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
    players = OverlayToggles.projector_default()
    items = build_items(snap, toggles.names())
    on = sum(1 for u in snap.units if u.on_table)
    print(f"GUI drawing, 1920x1080, {on} units on the table, all {len(toggles.names())} overlays on "
          f"({len(items)} draw items, {sum(len(i.points_in) for i in items)} outline points, "
          f"{sum(1 for i in items if i.label)} labels); {n} frames each; every moving case includes the session's "
          "update (apply_poses, snapshot)")
    rows = []

    def case(name: str, ids: list[int], transform, *, kw: dict, incremental: bool = True, frames: int = n,
             fresh_compositor: bool = False) -> None:
        """One case on a fresh game (the same start for every case) and a warmed-up compositor."""
        gc.collect()
        game = forty_units()
        compositor = Compositor(font_px=22 if transform is projector else 15)
        compositor.incremental = incremental
        compositor.compose(game.snapshot(), transform, kw.get("toggles", toggles), frame_bgr=kw.get("frame"),
                           calibration=kw.get("calibration"), black=kw.get("black", False))
        movers = Movers(game, ids) if ids else None
        updates, repainted = [], []

        def one(i: int) -> None:
            nonlocal compositor
            if movers is not None:
                movers.step()
            if fresh_compositor:
                compositor = Compositor()
            compositor.compose(game.snapshot(), transform, kw.get("toggles", toggles), frame_bgr=kw.get("frame"),
                               calibration=kw.get("calibration"), black=kw.get("black", False))
            updates.append(compositor.last_update)
            repainted.append(compositor.last_repainted_px)
        med, p95, worst = timed(one, frames)
        note = ""
        if ids and not fresh_compositor:
            size = kw.get("size", (1920, 1080))
            note = (f"{updates.count('full')} full repaints, median {statistics.median(repainted) / (size[0] * size[1]):.1%} "
                    "of the cached image repainted")
        rows.append((name, med, p95, worst, note))

    camera_kw = {"frame": frame}
    case("camera view, static (new frame, game unchanged)", [], camera, kw=camera_kw)
    case("camera view, one unit moving", [13], camera, kw=camera_kw)
    case("camera view, five units moving", [13, 31, 50, 57, 64], camera, kw=camera_kw)
    case("camera view, the selected vehicle moving", [40], camera, kw=camera_kw)
    case("camera view, one unit moving, whole image repainted", [13], camera, kw=camera_kw, incremental=False)
    case("camera view, one unit moving, naive: no caches", [13], camera, kw=camera_kw, frames=max(8, n // 4),
         fresh_compositor=True)
    case("top-down view (rectified frame), one unit moving", [13], top,
         kw={"frame": frame, "calibration": feed.calibration})
    case("projector output (black, warped), one unit moving", [13], projector, kw={"toggles": players, "black": True})
    width = max(len(r[0]) for r in rows)
    print(f" {'case':<{width}} | median ms | p95 ms | max ms")
    for name, med, p95, worst, note in rows:
        print(f" {name:<{width}} | {med:9.2f} | {p95:6.2f} | {worst:6.1f}" + (f"  ({note})" if note else ""))
    by = {r[0]: r[1] for r in rows}
    static, one, five = rows[0][1], rows[1][1], rows[2][1]
    naive = by["camera view, one unit moving, naive: no caches"]
    print(f"one unit moving / naive: {one / naive:.3f}; static / naive: {static / naive:.3f}")
    print(f"target under 8 ms per frame: static {'met' if static < 8 else 'NOT met'}, one unit moving "
          f"{'met' if one < 8 else 'NOT met'}, five units moving {'met' if five < 8 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
