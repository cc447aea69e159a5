"""Recall on real photographs: `sandtable detect`'s detection against the bare detector, per webcam fault.

The photos are the ones in ``../shared/real-photos`` (beside the clone; see their README): phone photos
of a wall of tags (ids in view shipped as ground truth), a robot camera, a lab table. Each is detected
clean and after each webcam fault (calibration.synthetic.faults.webcam_faults: JPEG q30/50/80, shrunk so
its median tag is 24 px, that plus JPEG q50, blur, dark, bright, glare, rotated 25 deg). Side by side:

* **bare**: pupil-apriltags on its own, quad_decimate=1, refine_edges=1, every decode it reports;
* **old detect**: what `sandtable detect` did before (exact decodes only, decoder sharpening 0.25);
* **detect**: tracker.image_detection.detect_in_image (two sharpening passes, DecodePolicy).

Counts are distinct ids per photo summed; 'missed' = ids the bare detector found in a photo that the
method did not; 'false' = ids not in view (photos with ground truth only). Then the negatives
(calibration.synthetic.negatives plus the photos with their tags painted out) under every fault.

    .venv/bin/python bench/real_photos.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2

from calibration.synthetic import negatives
from calibration.synthetic.faults import webcam_faults
from tracker.decode_policy import DecodePolicy
from tracker.detections import detect_tags, make_detector
from tracker.image_detection import detect_in_image
from tracker.recall import bare_detections, median_tag_edge_px, real_photos, real_photos_dir, tally_recall


def main() -> int:
    folder = real_photos_dir(ROOT)
    if folder is None:
        print(f"no real photographs beside the clone (looked for shared/real-photos above {ROOT})")
        return 1
    photos = real_photos(folder)
    greys = [(p, cv2.imread(str(p.path), cv2.IMREAD_GRAYSCALE)) for p in photos]
    truths = [p.truth_ids if p.truth_ids is not None else frozenset(int(i) for i in bare_detections(g).tag_ids) for p, g in greys]
    faults_of = [webcam_faults(median_tag_edge_px(bare_detections(g))) for _, g in greys]
    old = make_detector(decode_sharpening=0.25)
    methods = {
        "old detect": lambda g: detect_tags(old, g, max_hamming=0),
        "detect": detect_in_image,
    }
    print(f"{len(photos)} real photos from {folder}")
    print(f"{'condition':>20} | {'bare ids':>8} | {'old detect':>10} | {'missed':>6} | {'detect':>6} | {'missed':>6} | "
          f"{'false bare/old/new':>18}")
    names = ["clean", *faults_of[0]]
    totals = {"bare": 0, "old detect": 0, "detect": 0}
    t0 = time.perf_counter()
    for name in names:
        images = [((g if name == "clean" else f[name](g)), t) for (_, g), f, t in zip(greys, faults_of, truths)]
        tallies = {label: tally_recall(images, fn) for label, fn in methods.items()}
        o, n = tallies["old detect"], tallies["detect"]
        totals["bare"] += n.bare
        totals["old detect"] += o.ours
        totals["detect"] += n.ours
        print(f"{name:>20} | {n.bare:>8} | {o.ours:>10} | {o.missed_by_ours:>6} | {n.ours:>6} | {n.missed_by_ours:>6} | "
              f"{f'{n.false_bare}/{o.false_ours}/{n.false_ours}':>18}")
    print(f"{'all conditions':>20} | {totals['bare']:>8} | {totals['old detect']:>10} | {'':>6} | {totals['detect']:>6} |")
    loosest = DecodePolicy.knowing(range(587))
    count = false = 0
    negs = list(negatives.generated_negatives())
    for _, g in greys:
        found = bare_detections(g)
        if len(found):
            negs.append(("painted", negatives.tags_painted_out(g, found.corners_px)))
    for _, image in negs:
        for apply in [lambda x: x, *webcam_faults().values()]:
            faulted = apply(image)
            count += 1
            false += len(detect_in_image(faulted, policy=loosest)) + len(bare_detections(faulted))
    print(f"\nNegatives: {len(negs)} pictures without tags x {count // len(negs)} conditions = {count} images; "
          f"ids reported by bare + detect (every id expected, the loosest policy): {false}")
    print(f"({time.perf_counter() - t0:.0f} s; other developers' jobs shared the 2 cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
