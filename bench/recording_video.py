"""What keeping the camera video of a recording costs: the crash-safe H.264 MP4 the recorder writes now
against the Motion-JPEG AVI it wrote before (OpenCV's writer), side by side on the same 1080p frames.

The frames are the synthetic skirmish (``calibration/synthetic/scenarios/skirmish.toml``) rendered at
1920x1080 with its sensor noise (noise is what makes camera video expensive to compress), rendered once
before timing. Each writer then writes the same frames into its own file, the writers taking turns
round by round (the order alternating) so that load from other programs slows each alike. Per writer:

* **wall ms/frame**: the time of ``write()`` over a round plus its ``close()`` (the encoder's delayed
  frames are encoded there), divided by the frames: what the recorder's writer thread spends;
* **CPU ms/frame**: the process's CPU time over the same span (libx264 encodes on threads of its own,
  so this is the work, wall time is how long the writer thread waits for it);
* **MB/minute**: the file size at 30 frames per second.

The recorder's writer thread has to keep up with the camera: at 30 frames/s a frame's budget is 33 ms.

    .venv/bin/python bench/recording_video.py [--frames 60] [--rounds 3]
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2

from calibration.synthetic import load_synthetic_scenario
from tracker.h264_video import H264Writer
from tracker.recording.writer import VIDEO_CRF, VIDEO_PRESET

SCENARIO = ROOT / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"
SIZE_PX = (1920, 1080)
FPS = 30.0


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _mjpeg(path: Path):
    writer = cv2.VideoWriter(str(path.with_suffix(".avi")), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE_PX)
    if not writer.isOpened():
        raise SystemExit("OpenCV cannot write Motion-JPEG here")
    return writer, path.with_suffix(".avi")


def _h264(preset: str):
    def make(path: Path):
        out = path.with_suffix(".mp4")
        return H264Writer(out, FPS, SIZE_PX, crf=VIDEO_CRF, preset=preset, crash_safe=True), out
    return make


#: The recorder's writer against the old one, and another x264 preset to show what the choice trades.
OTHER_PRESET = "veryfast" if VIDEO_PRESET == "ultrafast" else "ultrafast"
WRITERS = {"MJPEG AVI (before)": _mjpeg, f"H.264 MP4 crash-safe ({VIDEO_PRESET}, crf {VIDEO_CRF}): now": _h264(VIDEO_PRESET),
           f"H.264 MP4 crash-safe ({OTHER_PRESET}, crf {VIDEO_CRF})": _h264(OTHER_PRESET)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60, help="distinct 1080p frames per round (default 60)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per writer (default 3)")
    args = parser.parse_args()
    scenario = load_synthetic_scenario(SCENARIO, width_px=SIZE_PX[0], height_px=SIZE_PX[1])
    print(f"rendering {args.frames} frames of {SCENARIO.name} at {SIZE_PX[0]}x{SIZE_PX[1]}...", flush=True)
    frames = [scenario.render_frame(i).image_bgr for i in range(min(args.frames, scenario.frame_count))]
    wall = {name: 0.0 for name in WRITERS}
    cpu = {name: 0.0 for name in WRITERS}
    size = {name: 0 for name in WRITERS}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = list(WRITERS) if r % 2 == 0 else list(reversed(WRITERS))
            for name in order:
                writer, out = WRITERS[name](Path(tmp) / f"round{r}")
                c0, t0 = _cpu_s(), time.perf_counter()
                for image in frames:
                    writer.write(image)
                writer.release()
                wall[name] += time.perf_counter() - t0
                cpu[name] += _cpu_s() - c0
                size[name] += out.stat().st_size
                out.unlink()
    n = len(frames) * args.rounds
    base = next(iter(WRITERS))
    print(f"\n{n} frames per writer at {SIZE_PX[0]}x{SIZE_PX[1]}, {args.rounds} alternating rounds; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'writer':<52} {'wall ms/frame':>13} {'CPU ms/frame':>13} {'MB/minute':>10} {'wall vs MJPEG':>14}")
    for name in WRITERS:
        mb_min = size[name] / n * FPS * 60 / 1e6
        print(f"{name:<52} {1000 * wall[name] / n:>13.1f} {1000 * cpu[name] / n:>13.1f} {mb_min:>10.0f} "
              f"{wall[name] / wall[base]:>13.2f}x")
    print(f"budget at {FPS:g} frames/s: {1000 / FPS:.1f} ms/frame")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
