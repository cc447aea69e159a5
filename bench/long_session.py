"""A long game in bounded memory: debrief and replay of a recording with 40 units all moving every frame.

    .venv/bin/python bench/long_session.py                 # 3 hours (13 million poses), cached under /tmp
    .venv/bin/python bench/long_session.py --hours 0.25    # a quicker look
    .venv/bin/python bench/long_session.py --old-minutes 10 --old-rev ffcf1d6

The recording is written once with the real recorder (``tracker.recording.Recorder``: 40 units, 30
frames a second, every unit moving every frame) and cached in ``--cache`` (it takes a few minutes and
about 2 GB). Then, each in a child process whose peak resident memory is measured (``ru_maxrss`` of the
child), side by side:

- today's code: ``debrief`` (the HTML report) and ``replay`` (open the recording for replay and jump to
  20 moments spread over the game, the slowest jump printed);
- the code of ``--old-rev`` (checked out with ``git archive`` into a temporary folder) doing the same
  on a shorter recording of ``--old-minutes`` (the old code loads every pose: on three hours it would
  need about 11 GB, more than this shared machine can spare), its memory per pose scaled to the long one.

Targets (issue 14): debrief and replay of three hours in at most 500 MB, the report in at most two
minutes, any moment reached in at most one second.
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNITS = 40
FPS = 30.0


def scenario_toml() -> str:
    """A Down Range scenario with 40 units on two sides (the replay rebuilds the game from it)."""
    lines = ['format = "sandtable-scenario"', "version = 1", 'name = "Long game: forty units"', 'ruleset = "down-range"',
             "[table]", "width_in = 72", "depth_in = 48",
             "[[sides]]", 'name = "Blue"', 'color = "#2f6fd0"', "[[sides]]", 'name = "Red"', 'color = "#c0392b"']
    for i in range(UNITS):
        lines += ["[[units]]", f"tag_id = {10 + i}", f'name = "Unit {i + 1}"', f'side = "{"Blue" if i < UNITS // 2 else "Red"}"',
                  'type = "average combatant"', 'weapons = ["M4/M16"]']
    return "\n".join(lines) + "\n"


def write_recording(path: Path, hours: float) -> None:
    sys.path.insert(0, str(ROOT))
    from tracker.recording import Recorder
    from tracker.unit_pose import UnitPose, UnitState

    frames = int(hours * 3600 * FPS)
    started = time.perf_counter()
    tmp = path.with_name(path.name + ".partial")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        p.unlink(missing_ok=True)
    with Recorder(tmp, metadata={"scenario_toml": scenario_toml(), "ruleset": "down-range", "source": "bench"},
                  queue_size=4096) as recorder:
        for i in range(frames):
            t = i / FPS
            poses = []
            for u in range(UNITS):
                # Every unit walks its own slow circle: it moves (and turns) a little every frame.
                a = 0.02 * t + u
                x = 36 + (10 + u % 7) * math.cos(a) + (u % 8) * 3 - 12
                y = 24 + (6 + u % 5) * math.sin(a)
                poses.append(UnitPose(10 + u, f"Unit {u + 1}", "Blue" if u < UNITS // 2 else "Red", x, y, 0.0,
                                      math.degrees(a) % 360, UnitState.SEEN, t, 0.0, last_seen_t_s=t, moving=True))
            recorder.record_frame(i, t, poses)
            if i % 9000 == 0:
                print(f"\r  writing: {t / 60:5.1f} of {hours * 60:.0f} min", end="", file=sys.stderr, flush=True)
    os.replace(tmp, path)
    print(f"\r  wrote {path} ({path.stat().st_size / 1e9:.2f} GB, {frames * UNITS / 1e6:.1f} million poses) "
          f"in {time.perf_counter() - started:.0f} s", file=sys.stderr)


CHILD = r"""
import json, random, resource, sys, time
sys.path.insert(0, sys.argv[1])
what, path, out = sys.argv[2], sys.argv[3], sys.argv[4]
t0 = time.perf_counter()
result = {}
if what == "debrief":
    try:
        from debrief.report import write_debrief_report
    except ImportError:
        from gui.debrief.report import write_debrief_report
    write_debrief_report(path, out)
else:
    try:
        from appmodel.replay_model import ReplayModel
    except ImportError:
        from gui.replay_model import ReplayModel
    model = ReplayModel(path)
    result["open_s"] = time.perf_counter() - t0
    random.seed(1)
    worst = 0.0
    for i in range(20):
        t = random.uniform(0, model.duration_s)
        s = time.perf_counter()
        model.seek(t)
        worst = max(worst, time.perf_counter() - s)
    result["worst_seek_s"] = worst
    model.close()
result["total_s"] = time.perf_counter() - t0
import tracker
result["code"] = tracker.__file__
result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


def measure(code_root: Path, what: str, recording: Path, workdir: Path) -> dict:
    import json

    done = subprocess.run([sys.executable, "-c", CHILD, str(code_root), what, str(recording), str(workdir / f"{what}.html")],
                          capture_output=True, text=True, cwd=workdir, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1][:120]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def old_code(rev: str, into: Path) -> Path:
    folder = into / f"old-{rev}"
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=3.0, help="length of the long game (default 3)")
    parser.add_argument("--old-minutes", type=float, default=10.0, help="length of the game the old code reads (default 10)")
    parser.add_argument("--old-rev", default="ffcf1d6", help="the old code's git revision (default ffcf1d6, before issue 14)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sandtable-bench", help="where recordings are kept")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    long_rec = args.cache / f"long-{args.hours:g}h.sqlite"
    short_rec = args.cache / f"long-{args.old_minutes:g}min.sqlite"
    for path, hours in ((long_rec, args.hours), (short_rec, args.old_minutes / 60)):
        if not path.exists():
            write_recording(path, hours)
    poses_long = int(args.hours * 3600 * FPS) * UNITS
    poses_short = int(args.old_minutes * 60 * FPS) * UNITS
    with tempfile.TemporaryDirectory(prefix="sandtable-bench-") as tmp:
        work = Path(tmp)
        old_root = old_code(args.old_rev, work)
        rows = []
        for what in ("debrief", "replay"):
            new_long = measure(ROOT, what, long_rec, work)
            new_short = measure(ROOT, what, short_rec, work)
            old_short = measure(old_root, what, short_rec, work)
            rows.append((what, new_long, new_short, old_short))
        shutil.rmtree(old_root, ignore_errors=True)

    def fmt(r: dict, key: str, unit: str) -> str:
        return r["error"] if "error" in r else f"{r[key]:.{0 if unit == 'MB' else 2}f} {unit}"

    print(f"long game: {args.hours:g} h, {UNITS} units moving every frame at {FPS:g} fps = {poses_long / 1e6:.1f} million poses "
          f"({long_rec.stat().st_size / 1e9:.2f} GB); short game for the old code: {args.old_minutes:g} min = {poses_short / 1e6:.2f} million")
    print(f"{'':28} {'today, long':>16} {'today, short':>16} {'old, short':>16} {'old, scaled to long':>20}")
    for what, new_long, new_short, old_short in rows:
        scaled = "—" if "error" in old_short else f"~{old_short['peak_mb'] * poses_long / poses_short / 1024:.1f} GB"
        print(f"{what + ' peak memory':28} {fmt(new_long, 'peak_mb', 'MB'):>16} {fmt(new_short, 'peak_mb', 'MB'):>16} "
              f"{fmt(old_short, 'peak_mb', 'MB'):>16} {scaled:>20}")
        print(f"{what + ' time':28} {fmt(new_long, 'total_s', 's'):>16} {fmt(new_short, 'total_s', 's'):>16} "
              f"{fmt(old_short, 'total_s', 's'):>16}")
        if what == "replay":
            print(f"{'replay: slowest of 20 jumps':28} {fmt(new_long, 'worst_seek_s', 's'):>16} {fmt(new_short, 'worst_seek_s', 's'):>16} "
                  f"{fmt(old_short, 'worst_seek_s', 's'):>16}")
    print("targets: peak memory <= 500 MB, debrief <= 120 s, any replay moment <= 1 s (three hours). "
          "Peak memory is the child process's ru_maxrss (Python, numpy, matplotlib and Qt included).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
