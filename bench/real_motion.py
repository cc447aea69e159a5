"""The tracker on motion (issue 27): the real hand-held clip and rendered hand-and-unit sequences, ours beside
the bare detector and ``--bare``.

On the same frames, in lockstep:

* **bare detector**: pupil-apriltags, ``quad_decimate=1``, every whole frame (``tracker.recall``): the yardstick;
* **ours**: ``tracker.pipeline.Tracker`` as ``sandtable track`` runs it (the fast detector);
* **--bare**: the same unit tracker fed by the bare detector on every whole frame.

Per side: tag-frames the bare detector sees (unit tags, ids 10 and up), how many of them the side reports
*measured in that frame* (``UnitPose.measured``), misses, false ids (ids the bare detector never finds in the
sequence, nor the truth holds), the centre error against the bare detector's centre where both see a tag
(median, p99, max) split by the tag's motion that frame (the bare centre's step from the frame before),
held frames (a pose held at its last measured place while the bare detector sees the tag) and their error,
what extrapolating them along their last velocity would have given instead ("predicted", not used), held
poses unmarked (a pose called measured whose tag the side did not detect: must be 0), and the time spent
(per frame, both cores as ``track`` uses them). Rendered sequences also give the error against the truth.

    .venv/bin/python bench/real_motion.py                  # the real clip (if ../shared/real-video/ is there) and every sequence
    .venv/bin/python bench/real_motion.py --only push carry
    .venv/bin/python bench/real_motion.py --real-frames 300
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.motion_scenes import FPS, SEQUENCES  # noqa: E402
from tracker.frames import Frame  # noqa: E402
from tracker.pipeline import Tracker  # noqa: E402
from tracker.recall import bare_detections  # noqa: E402

_ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the repository (a clone one folder deeper looks one further up).
REAL_CLIP = next((p for p in (_ROOT.parent / "shared" / "real-video" / "handheld-sheet.mp4",
                              _ROOT.parent.parent / "shared" / "real-video" / "handheld-sheet.mp4") if p.exists()),
                 _ROOT.parent / "shared" / "real-video" / "handheld-sheet.mp4")
SPEEDS = (("still <0.5", 0.0, 0.5), ("slow 0.5-3", 0.5, 3.0), ("fast 3-10", 3.0, 10.0), ("v.fast >10", 10.0, math.inf))
UNIT_MIN_ID = 10


@dataclass
class Tally:
    """One side's figures over a sequence (mutable while counting)."""

    name: str
    bare_tag_frames: int = 0
    measured: int = 0  # of the bare detector's tag-frames, reported measured in that frame
    extra: int = 0  # measured where the bare detector did not see the tag
    ids: set[int] = field(default_factory=set)
    errors: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name, *_ in SPEEDS})
    truth_errors: list[float] = field(default_factory=list)
    held: int = 0
    held_errors: list[float] = field(default_factory=list)
    predicted_errors: list[float] = field(default_factory=list)
    unmarked: int = 0
    seconds: float = 0.0
    frames: int = 0

    @property
    def misses(self) -> int:
        return self.bare_tag_frames - self.measured


def speed_class(step_px: float | None) -> str | None:
    if step_px is None:
        return None
    for name, lo, hi in SPEEDS:
        if lo <= step_px < hi:
            return name
    return None


class Side:
    """A tracker and what it remembers for the tally (each id's last two measured centres)."""

    def __init__(self, name: str, *, fast: bool) -> None:
        self.tally = Tally(name)
        self.tracker = Tracker(fast=fast)
        self.last: dict[int, list[tuple[float, np.ndarray]]] = {}

    def close(self) -> None:
        self.tracker.close()

    def step(self, frame: Frame, bare: dict[int, np.ndarray], steps: dict[int, float | None],
             truth: dict[int, np.ndarray] | None) -> None:
        tally = self.tally
        start = time.perf_counter()
        result = self.tracker.process(frame)
        tally.seconds += time.perf_counter() - start
        tally.frames += 1
        detected = set(result.detections.tag_ids.tolist())
        for pose in result.poses:
            tag = pose.tag_id
            if tag < UNIT_MIN_ID:
                continue
            centre = np.array(pose.center_px, dtype=np.float64)
            if pose.measured:
                tally.ids.add(tag)
                if tag not in detected:
                    tally.unmarked += 1
                if tag in bare:
                    tally.measured += 1
                    cls = speed_class(steps.get(tag))
                    if cls is not None:
                        tally.errors[cls].append(float(np.linalg.norm(centre - bare[tag])))
                else:
                    tally.extra += 1
                if truth is not None and tag in truth:
                    tally.truth_errors.append(float(np.linalg.norm(centre - truth[tag])))
                history = self.last.setdefault(tag, [])
                history.append((frame.t_s, centre))
                del history[:-2]
            elif pose.state.value == "seen" and tag in bare:
                tally.held += 1
                tally.held_errors.append(float(np.linalg.norm(centre - bare[tag])))
                history = self.last.get(tag, [])
                if len(history) == 2:
                    (t0, c0), (t1, c1) = history
                    guess = c1 + (c1 - c0) / max(t1 - t0, 1e-9) * (frame.t_s - t1)
                    tally.predicted_errors.append(float(np.linalg.norm(guess - bare[tag])))


def run(frames: Iterable[tuple[np.ndarray, float, dict[int, np.ndarray] | None]]) -> tuple[list[Tally], float, set[int]]:
    """Every side over ``frames`` (BGR image, t_s, true unit centres or None): the tallies, the bare
    detector's seconds, and the ids the bare detector or the truth ever holds."""
    sides = [Side("ours", fast=True), Side("--bare", fast=False)]
    bare_seconds = 0.0
    known: set[int] = set()
    previous: dict[int, np.ndarray] = {}
    try:
        for index, (image, t_s, truth) in enumerate(frames):
            start = time.perf_counter()
            found = bare_detections(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
            bare_seconds += time.perf_counter() - start
            bare = {int(t): c for t, c in zip(found.tag_ids.tolist(), found.centers_px) if t >= UNIT_MIN_ID}
            known |= set(bare) | set(truth or ())
            steps = {t: (float(np.linalg.norm(c - previous[t])) if t in previous else None) for t, c in bare.items()}
            previous = bare
            frame = Frame(image, index, t_s)
            for side in sides:
                side.tally.bare_tag_frames += len(bare)
                side.step(frame, bare, steps, truth)
    finally:
        for side in sides:
            side.close()
    return [s.tally for s in sides], bare_seconds, known


def real_frames(path: Path, limit: int | None) -> Iterator[tuple[np.ndarray, float, None]]:
    capture = cv2.VideoCapture(str(path))
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    index = 0
    try:
        while limit is None or index < limit:
            ok, image = capture.read()
            if not ok:
                break
            yield image, index / fps, None
            index += 1
    finally:
        capture.release()


def rendered_frames(name: str) -> Iterator[tuple[np.ndarray, float, dict[int, np.ndarray]]]:
    for f in SEQUENCES[name]():
        truth = {t.tag_id: np.asarray(t.center_px, dtype=np.float64) for t in f.truth
                 if t.visible and t.tag_id >= UNIT_MIN_ID}
        yield f.image_bgr, f.t_s, truth


def _stats(values: list[float]) -> str:
    if not values:
        return "        -"
    a = np.array(values)
    return f"{np.median(a):5.2f} {np.percentile(a, 99):5.2f} {a.max():6.2f} ({len(a)})"


def report(title: str, tallies: list[Tally], bare_seconds: float, known_ids: set[int]) -> None:
    frames = tallies[0].frames
    print(f"\n== {title}: {frames} frames, bare detector {tallies[0].bare_tag_frames} unit tag-frames, "
          f"{bare_seconds / max(frames, 1) * 1000:.1f} ms/frame")
    print(f"{'side':8} {'measured':>16} {'misses':>7} {'extra':>6} {'false ids':>9} {'held':>5} {'unmarked':>8} "
          f"{'ms/frame':>9} {'x bare':>7}")
    for t in tallies:
        share = 100.0 * t.measured / max(t.bare_tag_frames, 1)
        false_ids = len(t.ids - known_ids)
        print(f"{t.name:8} {t.measured:7d} {share:7.2f}% {t.misses:7d} {t.extra:6d} {false_ids:9d} {t.held:5d} "
              f"{t.unmarked:8d} {t.seconds / max(t.frames, 1) * 1000:9.1f} {t.seconds / max(bare_seconds, 1e-9):7.2f}")
    print("centre error against the bare detector's (px): median p99 max (tag-frames), by the tag's motion that frame")
    for t in tallies:
        for name, *_ in SPEEDS:
            print(f"  {t.name:8} {name:11} {_stats(t.errors[name])}")
        if t.truth_errors:
            print(f"  {t.name:8} {'vs truth':11} {_stats(t.truth_errors)}")
        print(f"  {t.name:8} {'held':11} {_stats(t.held_errors)}   predicted instead: {_stats(t.predicted_errors)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=["real", *SEQUENCES], help="run only these")
    parser.add_argument("--real-frames", type=int, default=None, help="frames of the real clip (default: all)")
    parser.add_argument("--real-clip", type=Path, default=REAL_CLIP)
    args = parser.parse_args(argv)
    names = args.only or ["real", *SEQUENCES]
    print(f"machine load (1, 5, 15 min): {os.getloadavg()}, {os.cpu_count()} cores")
    for name in names:
        if name == "real":
            if not args.real_clip.exists():
                print(f"\n== real clip: {args.real_clip} is not there; skipped")
                continue
            tallies, bare_s, known = run(real_frames(args.real_clip, args.real_frames))
            report(f"real clip {args.real_clip.name}", tallies, bare_s, known)
        else:
            tallies, bare_s, known = run(rendered_frames(name))
            report(f"rendered: {name} ({FPS:.0f} fps, 960x540)", tallies, bare_s, known)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
