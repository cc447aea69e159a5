"""A 144x72" table: two 1080p cameras against one 4K camera and one 1080p camera, one run.

The same scene for all three: 1" unit tags on a 12" grid over the whole table plus three columns along
the middle (where the two cameras' views overlap), two units walking across the middle at 8 in/s,
sensor noise and focus blur. Every camera is the same wide-angle webcam lens (78 deg across), hung
straight down as low as lets it see its share of the table (the whole table, or one half plus 10" of
overlap); the table is registered from the anchors each camera sees (the corner anchors plus two
extra anchors, 4 and 5, on the seam) with its known lens.

Printed side by side:

* **1" tag size**: median and smallest apparent edge of the unit tags in pixels (in the camera that
  sees each best);
* **recall**: share of (frame, unit) pairs where the unit was seen in that frame, over every frame
  after the first; split into units inside one view (seen by one camera of the pair) and on the
  seam (seen by both), the same units for every setup (the middle band |x - 72| <= 6 in, where the pair hands over, and elsewhere);
* **error**: distance of the reported pose from the truth for still units (median / max), inside one
  view and on the seam, poses measured in that frame; and for the walking units while they cross (max
  of the poses measured in that frame; a pose held from an earlier frame, ``measured`` False, is no
  measurement: counted apart, with its error), with the count of spurious events (hidden, reappeared,
  a second identity) during the crossing;
* **frames/s**: tracking only (detection, fusion, filtering; not rendering). For the pair, two ways on
  the same frames: each camera's detector in its own thread (one core each; pupil-apriltags releases
  the GIL), the same with two detector threads per camera ("x2": four threads on two cores), and the
  cameras one after another (each detector with two threads). Frames go to every
  tracker in turn, the order rotating, so that load from other programs slows all alike: compare
  ratios within one run.

    .venv/bin/python bench/multicamera.py [--frames 20] [--only "two 1080p"]
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np

from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, seam_layout
from tracker.events import EventKind
from tracker.fast_detection import FastDetectorSettings
from tracker.frames import Frame
from tracker.multi_camera import MultiCameraTracker, register_cameras
from tracker.roster import Roster, UnitSpec
from tracker.unit_pose import UnitState

FPS = 10.0
WIDTH_IN, DEPTH_IN = 144.0, 72.0
WALK_SPEED_IN_S = 8.0
SEAM_HALF_IN = 6.0
FAULTS = Faults(noise_sigma=2.0, blur_px=0.6)


def scene() -> tuple[list[TagPlacement], list[int]]:
    """Still units and the ids of the two walkers (placed by ``walkers_at``)."""
    rng = np.random.default_rng(7)
    still = []
    tag = 10
    for y in np.arange(6.0, DEPTH_IN, 12.0):
        for x in np.arange(6.0, WIDTH_IN, 12.0):
            still.append(TagPlacement(tag, float(x), float(y), 1.0, float(rng.uniform(0, 360))))
            tag += 1
    for y in (12.0, 28.0, 60.0):
        for x in (70.0, 72.0, 74.0):
            still.append(TagPlacement(tag, x, y + (0 if x == 72.0 else 4.0), 1.0, float(rng.uniform(0, 360))))
            tag += 1
    return still, [tag, tag + 1]


def walkers_at(t: float, ids: list[int]) -> list[TagPlacement]:
    d = WALK_SPEED_IN_S * t
    return [
        TagPlacement(ids[0], 62.0 + d, 24.0, 1.0, 0.0, velocity_in_s=(WALK_SPEED_IN_S, 0.0)),
        TagPlacement(ids[1], 82.0 - d, 48.0, 1.0, 180.0, velocity_in_s=(-WALK_SPEED_IN_S, 0.0)),
    ]


def gil_check(rig: CameraRig, still: list[TagPlacement]) -> str:
    """Does pupil-apriltags release the GIL while it detects? Two detectors on one camera's frame, one
    after the other and in two threads; and how fast a pure-Python thread counts during a detection."""
    import threading

    import cv2

    from tracker.detections import make_detector

    image = rig.render(still).views[rig.cameras[0].name].image_bgr
    gray = cv2.cvtColor(image[: image.shape[0] // 2, : image.shape[1] // 2], cv2.COLOR_BGR2GRAY)
    detectors = [make_detector(), make_detector()]

    def work(d: object, n: int = 3) -> None:
        for _ in range(n):
            d.detect(gray)  # type: ignore[attr-defined]  # the detector's class is chosen at run time

    t0 = time.perf_counter()
    work(detectors[0])
    work(detectors[1])
    one_after_other = time.perf_counter() - t0
    threads = [threading.Thread(target=work, args=(d,)) for d in detectors]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    two_threads = time.perf_counter() - t0
    count, stop = [0], threading.Event()

    def spin() -> None:
        while not stop.is_set():
            count[0] += 1

    t0 = time.perf_counter()
    counting = threading.Thread(target=spin)
    counting.start()
    work(detectors[0])
    stop.set()
    counting.join()
    rate = count[0] / (time.perf_counter() - t0) / 1e6
    return (f"GIL: 2x3 detections of a quarter frame took {one_after_other:.2f} s one after the other, {two_threads:.2f} s in two threads "
            f"({one_after_other / two_threads:.2f}x); a Python thread counted {rate:.1f} M/s while one detected (it would stall if the GIL were held)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=20, help="frames per setup (10 frames/s of scene time)")
    parser.add_argument("--only", nargs="+", metavar="SETUP", help="only these setups (e.g. 'two 1080p')")
    args = parser.parse_args()
    started = time.perf_counter()
    layout = seam_layout(WIDTH_IN, DEPTH_IN, cols=2, rows=2)
    setups = {
        "two 1080p": CameraRig.side_by_side(layout, cameras=2, size_px=(1920, 1080), overlap_in=10.0, faults=FAULTS),
        "four 1080p (2x2)": CameraRig.grid(layout, cols=2, rows=2, size_px=(1920, 1080), overlap_in=10.0, faults=FAULTS),
        "one 4K": CameraRig.side_by_side(layout, cameras=1, size_px=(3840, 2160), faults=FAULTS),
        "one 1080p": CameraRig.side_by_side(layout, cameras=1, size_px=(1920, 1080), faults=FAULTS),
    }
    unknown = set(args.only or ()) - set(setups)
    if unknown:
        parser.error(f"no setup {sorted(unknown)}; the setups are {sorted(setups)}")
    setups = {label: rig for label, rig in setups.items() if not args.only or label in args.only}
    still, walker_ids = scene()
    roster = Roster(units=tuple(UnitSpec(tag_id=p.tag_id, name=f"u{p.tag_id}") for p in still)
                    + tuple(UnitSpec(tag_id=i, name=f"walker {i}") for i in walker_ids))
    # the middle band, where the pair hands over (the two views' weights are equal at x = 72)
    seam_ids = {p.tag_id for p in still if abs(p.x_in - WIDTH_IN / 2) <= SEAM_HALF_IN}
    inside_ids = {p.tag_id for p in still} - seam_ids

    # trackers: the pair two ways, the single cameras one way each
    trackers = {}
    for label, rig in setups.items():
        frame0 = rig.render(still)
        cals = register_cameras({n: Frame(v.image_bgr, 0, 0.0) for n, v in frame0.views.items()}, {c.name: c.model for c in rig.cameras}, layout)
        if label == "two 1080p":
            trackers["two 1080p, a thread per camera"] = (rig, MultiCameraTracker(cals, roster=roster))
            trackers["two 1080p, thread per camera x2"] = (
                rig, MultiCameraTracker(cals, roster=roster, detector_settings=FastDetectorSettings(workers=2)))
            trackers["two 1080p, one after another"] = (
                rig, MultiCameraTracker(cals, roster=roster, parallel=False, detector_settings=FastDetectorSettings(workers=2)))
        else:
            trackers[label] = (rig, MultiCameraTracker(cals, roster=roster))
    sizes = {label: tag_sizes(rig, still) for label, rig in setups.items()}
    gil = gil_check(setups["two 1080p"], still) if "two 1080p" in setups else ""

    stats = {name: {"seen": {"inside": 0, "seam": 0}, "total": {"inside": 0, "seam": 0}, "err": {"inside": [], "seam": []},
                    "walk_err": [], "walk_held": [], "spurious": 0, "appeared": {}, "time": 0.0} for name in trackers}
    names = list(trackers)
    for i in range(args.frames):
        t = i / FPS
        placements = still + walkers_at(t, walker_ids)
        rendered = {label: rig.render(placements, t_s=t, frame_index=i, rng=np.random.default_rng(i)) for label, rig in setups.items()}
        order = names[i % len(names):] + names[: i % len(names)]
        for name in order:
            rig, tracker = trackers[name]
            label = next(lbl for lbl, r in setups.items() if r is rig)
            frames = {n: Frame(v.image_bgr, i, t) for n, v in rendered[label].views.items()}
            t0 = time.perf_counter()
            result = tracker.process(frames)
            elapsed = time.perf_counter() - t0
            s = stats[name]
            if i > 0:
                s["time"] += elapsed
            for e in result.events:
                if e.tag_id in walker_ids and e.kind in (EventKind.HIDDEN, EventKind.REAPPEARED, EventKind.CONFLICT, EventKind.LOST):
                    s["spurious"] += 1
                if e.kind is EventKind.APPEARED:
                    s["appeared"][e.tag_id] = s["appeared"].get(e.tag_id, 0) + 1
            if i == 0:
                continue
            for p in still:
                where = "seam" if p.tag_id in seam_ids else "inside" if p.tag_id in inside_ids else None
                if where is None:
                    continue
                pose = result.pose(p.tag_id)
                s["total"][where] += 1
                if pose is not None and pose.measured:
                    s["seen"][where] += 1
                    if i >= 5:  # the filter has settled
                        s["err"][where].append(math.hypot(pose.x_in - p.x_in, pose.y_in - p.y_in))
            for w in walkers_at(t, walker_ids):
                pose = result.pose(w.tag_id)
                if pose is not None and pose.state is UnitState.SEEN:
                    error = math.hypot(pose.x_in - w.x_in, pose.y_in - w.y_in)
                    s["walk_err" if pose.measured else "walk_held"].append(error)
    for _, tracker in trackers.values():
        tracker.close()

    print(f"Several cameras over one {WIDTH_IN:g}x{DEPTH_IN:g} in table, one run ({time.perf_counter() - started:.0f} s), "
          f"{args.frames} frames each, {len(still)} still 1\" unit tags ({len(seam_ids)} in the middle band x {WIDTH_IN / 2 - SEAM_HALF_IN:g}-{WIDTH_IN / 2 + SEAM_HALF_IN:g} in "
          f"where the pair hands over, {len(inside_ids)} elsewhere) + 2 walking across it at {WALK_SPEED_IN_S:g} in/s; noise sigma 2, blur 0.6 px")
    for label, rig in setups.items():
        cams = trackers_of(trackers, rig)
        print(f"  {label}: {len(rig.cameras)} camera(s) {rig.cameras[0].model.width_px}x{rig.cameras[0].model.height_px} "
              f"{rig.cameras[0].pose.camera_position_in[2]:.0f} in over the table; {cams.coverage().summary()}")
    print()
    header = f"{'setup':34} | {'1-inch tag px med/min':>22} | {'recall elsewhere':>16} | {'recall middle':>13} | {'err elsewhere med/max':>21} | {'err middle med/max':>19} | {'walkers max err in':>18} | {'held (max err)':>14} | {'spurious events':>15} | {'ms/frame':>8} | {'frames/s':>8}"
    print(header)
    print("-" * len(header))
    base_fps = None
    for name in names:
        s = stats[name]
        label = next(lbl for lbl, r in setups.items() if r is trackers[name][0])
        fps = (args.frames - 1) / s["time"] if s["time"] > 0 else float("nan")
        base_fps = base_fps or fps
        rec = {k: s["seen"][k] / max(1, s["total"][k]) for k in ("inside", "seam")}
        err = {k: (float(np.median(v)), float(np.max(v))) if v else (math.nan, math.nan) for k, v in s["err"].items()}
        walk = max(s["walk_err"]) if s["walk_err"] else math.nan
        held = f"{len(s['walk_held'])} ({max(s['walk_held']):.3f})" if s["walk_held"] else "0"
        extra = sum(c - 1 for c in s["appeared"].values()) + s["spurious"]
        med, small = sizes[label]
        print(f"{name:34} | {med:12.1f} / {small:7.1f} | {rec['inside']:16.4f} | {rec['seam']:13.4f} | {err['inside'][0]:9.4f} / {err['inside'][1]:9.4f} | "
              f"{err['seam'][0]:8.4f} / {err['seam'][1]:8.4f} | {walk:18.4f} | {held:>14} | {extra:15d} | {1000.0 / fps:8.1f} | {fps:8.2f}")
    print()
    print("frames/s: tracking only, 2 cores shared with other developers' work (compare within this run)")
    print(gil)
    return 0


def trackers_of(trackers: dict, rig: CameraRig) -> MultiCameraTracker:
    return next(t for r, t in trackers.values() if r is rig)


def tag_sizes(rig: CameraRig, still: list[TagPlacement]) -> tuple[float, float]:
    """Median and smallest edge (px) of the unit tags, each in the camera that shows it largest."""
    truth = rig.render(still)
    best = []
    for p in still:
        edges = []
        for view in truth.views.values():
            tt = view.truth_of(p.tag_id)
            if tt is not None and tt.in_view:
                c = tt.corners_px
                edges.append(float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1))))
        if edges:
            best.append(max(edges))
    return float(np.median(best)), float(np.min(best))


if __name__ == "__main__":
    sys.exit(main())
