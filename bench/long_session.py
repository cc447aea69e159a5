"""A long game in bounded memory: debrief and replay of a recording with 40 units all moving every frame.

    .venv/bin/python bench/long_session.py                    # 2 min, 1 h and 3 h; the old code on 2 min
    .venv/bin/python bench/long_session.py --minutes 2 20     # a quicker look
    .venv/bin/python bench/long_session.py --old-rev ffcf1d6 --old-up-to 60

The game is played through the game session as the window plays it (an attack every 30 s on the nearest
enemy, a Signal every 2 min, a new turn every 3 min, a bookmark every 10 min, a unit taken out back as a
reinforcement 5 min later; recorded by the session's own writer, ``appmodel.recording.rows``), and every
unit's pose at every frame (40 units, 30 fps, all moving) is then written in bulk in the recorder's row
shape: three hours (13 million poses, 1.9 GB) in about five minutes, cached in ``--cache``. Then, each
in a child process whose peak resident memory is measured (the child's own ``VmHWM``), side by side:

- ``debrief``: the HTML report as ``sandtable debrief RECORDING --out report.html`` writes it (timeline
  and exposure included), its size, and the time headless Chromium takes to show its timeline's first
  moment (``bench/debrief_report.py``'s measure);
- ``replay``: open the recording for replay and jump to 20 moments spread over the game (the slowest);
- for today's code and for ``--old-rev`` (checked out with ``git archive``), the old code only on the
  games up to ``--old-up-to`` minutes (it takes minutes per minute of game: said in the table).

Targets (issue 30): three hours debriefed in at most 300 MB and 60 s, the report at most 10 MB and
opening in Chromium in under 3 s.
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
from typing import Any

import numpy as np
from child_memory import PEAK_MB_SOURCE

ROOT = Path(__file__).resolve().parents[1]
UNITS = 40
FPS = 30.0


def scenario_toml() -> str:
    """A Down Range scenario with 40 units on two sides, each with a rifle and a radio (the replay rebuilds
    the game from it)."""
    lines = ['format = "sandtable-scenario"', "version = 1", 'name = "Long game: forty units"', 'ruleset = "down-range"',
             "[table]", "width_in = 72", "depth_in = 48",
             "[[sides]]", 'name = "Blue"', 'color = "#2f6fd0"', "[[sides]]", 'name = "Red"', 'color = "#c0392b"']
    for i in range(UNITS):
        lines += ["[[units]]", f"tag_id = {10 + i}", f'name = "Unit {i + 1}"', f'side = "{"Blue" if i < UNITS // 2 else "Red"}"',
                  'type = "average combatant"', 'weapons = ["M4/M16"]', 'equipment = ["radio"]']
    return "\n".join(lines) + "\n"


#: How often the game's decisions come (seconds of play): an attack, a Signal, a bookmark, a new turn;
#: a unit taken out comes back as a reinforcement after ``BACK_AFTER_S`` so forty units stay in play.
ATTACK_EVERY_S = 30.0
SIGNAL_EVERY_S = 120.0
BOOKMARK_EVERY_S = 600.0
TURN_EVERY_S = 180.0
BACK_AFTER_S = 300.0


def positions(t_s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every unit's (x_in, y_in, heading_deg) at the times ``t_s``, arrays (len(t_s), UNITS): each unit
    walks its own slow circle (0.2-0.3"/s), moving and turning a little every frame."""
    u = np.arange(UNITS)
    a = 0.02 * t_s[:, None] + u[None, :]
    x = 36 + (10 + u % 7) * np.cos(a) + (u % 8) * 3 - 12
    y = 24 + (6 + u % 5) * np.sin(a)
    return x, y, np.degrees(a) % 360


def _poses_at(t_s: float) -> list[Any]:
    from tracker.unit_pose import UnitPose, UnitState

    x, y, h = (v[0] for v in positions(np.array([t_s])))
    return [UnitPose(10 + u, f"Unit {u + 1}", "Blue" if u < UNITS // 2 else "Red", float(x[u]), float(y[u]), 0.0, float(h[u]),
                     UnitState.SEEN, t_s, 0.0, last_seen_t_s=t_s, moving=True) for u in range(UNITS)]


def _play(session: Any, clock: list[float], duration_s: float) -> dict[str, int]:
    """The game's decisions, through the session as the window plays them (recorded by its own writer,
    ``appmodel.recording.rows``): attacks on the nearest enemy, Signals, turns, bookmarks, and a unit taken
    out back in play a while later."""
    from appmodel.errors import UsageError
    from appmodel.game_session import AttackDraft
    from rules.action_forms import ActionRequest
    from rules.errors import RulesError

    counts = {"attacks": 0, "signals": 0, "bookmarks": 0, "turns": 0, "back": 0, "refused": 0}
    refused = (UsageError, RulesError, ValueError, KeyError)
    plan = sorted([(k * ATTACK_EVERY_S + 7.0, "attack") for k in range(int(duration_s / ATTACK_EVERY_S))]
                  + [(k * SIGNAL_EVERY_S + 11.0, "signal") for k in range(int(duration_s / SIGNAL_EVERY_S))]
                  + [(k * BOOKMARK_EVERY_S + 13.0, "bookmark") for k in range(int(duration_s / BOOKMARK_EVERY_S))]
                  + [(k * TURN_EVERY_S + 3.0, "turn") for k in range(int(duration_s / TURN_EVERY_S))])
    down_since: dict[int, float] = {}
    k = 0
    for t, what in plan:
        if t > duration_s:
            break
        clock[0] = t
        session.set_time(t)
        session.apply_poses(_poses_at(t), t_s=t)
        for uid, since in list(down_since.items()):
            if t - since >= BACK_AFTER_S:
                try:
                    session.edit_unit(uid, {"status": "active"})
                    counts["back"] += 1
                except refused:
                    pass
                del down_since[uid]
        units = [u for u in session.units() if u.status == "active" and u.on_table]
        k += 1
        side = getattr(session.state, "active_side", None)
        shooters = [u for u in units if u.side == side] or units  # the side whose turn it is acts
        try:
            if what == "attack" and units:
                a = shooters[k % len(shooters)]
                enemies = sorted((u for u in units if u.side != a.side), key=lambda u: math.dist((u.x_in, u.y_in), (a.x_in, a.y_in)))
                if enemies:
                    session.set_attack(AttackDraft(a.unit_id, "M4/M16", (enemies[0].unit_id,)))
                    session.resolve_attack()
                    session.set_attack(None)
                    counts["attacks"] += 1
            elif what == "signal" and units:
                session.resolve_action(ActionRequest("signal", shooters[(7 * k) % len(shooters)].unit_id))
                counts["signals"] += 1
            elif what == "bookmark":
                session.bookmark(f"the instructor's mark at {t / 60:.0f} min")
                counts["bookmarks"] += 1
            elif what == "turn":
                try:
                    session.end_turn()
                    session.start_turn()
                except refused:  # every side has had its turn: a new round, its initiative rolled
                    session.start_round()
                    session.start_turn()
                counts["turns"] += 1
        except refused:  # the rules refused it (a unit that already acted this turn): as at a table
            counts["refused"] += 1
            session.set_attack(None)
        for u in session.units():
            if u.status != "active" and u.unit_id not in down_since:
                down_since[u.unit_id] = t
    return counts


def write_recording(path: Path, hours: float, *, fps: float = FPS) -> None:
    """A game of ``hours`` with 40 units moving every frame at ``fps``: the decisions played through the
    game session (recorded by the session's own writer), then every frame and pose written in bulk, in
    one transaction, in the recorder's own row shape (``tracker.recording.schema.POSE_COLUMNS``) -- a
    pose per unit per frame as the recorder writes a unit in motion; the recorder's per-frame thread
    took 41 minutes for three hours on a loaded machine, the bulk insert a few."""
    import sqlite3

    sys.path.insert(0, str(ROOT))
    from appmodel.game_session import GameSession
    from tracker.recording.writer import _INSERT_POSE
    from tracker.roster import load_roster

    started = time.perf_counter()
    duration_s = hours * 3600.0
    frames = int(duration_s * fps) + 1
    tmp = path.with_name(path.name + ".partial")
    scenario = path.with_suffix(".toml")
    scenario.write_text(scenario_toml(), encoding="utf-8")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        p.unlink(missing_ok=True)
    clock = [0.0]
    session = GameSession.from_scenario_file(scenario, seed=1, clock=lambda: clock[0])
    session.set_time(0.0)
    session.apply_poses(_poses_at(0.0), t_s=0.0)
    session.start_recording(tmp, roster=load_roster(scenario))
    counts = _play(session, clock, duration_s)
    session.stop_recording()
    print(f"\r  played: {counts} in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    db = sqlite3.connect(str(tmp))
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    names = [f"Unit {u + 1}" for u in range(UNITS)]
    sides = ["Blue" if u < UNITS // 2 else "Red" for u in range(UNITS)]
    chunk = int(60 * fps)
    with db:
        db.executemany("INSERT INTO events (t_s, frame_index, kind, tag_id, name, payload_json) VALUES (0, 0, 'appeared', ?, ?, '{}')",
                       [(10 + u, names[u]) for u in range(UNITS)])
        for first in range(0, frames, chunk):
            index = np.arange(first, min(frames, first + chunk))
            t = index / fps
            db.executemany("INSERT INTO frames (frame_index, t_s, video_frame) VALUES (?, ?, NULL)", zip(index.tolist(), t.tolist()))
            x, y, h = positions(t)
            tl, il = t.tolist(), index.tolist()
            xl, yl, hl = x.tolist(), y.tolist(), h.tolist()
            db.executemany(_INSERT_POSE, ((tl[f], il[f], 10 + u, names[u], sides[u], "seen", xl[f][u], yl[f][u], 0.0, hl[f][u],
                                           0.0, 0.0, 0.0, 0.0, 1, 0, tl[f]) for f in range(len(il)) for u in range(UNITS)))
            if first % (chunk * 10) == 0:
                print(f"\r  writing: {first / fps / 60:5.1f} of {hours * 60:.0f} min", end="", file=sys.stderr, flush=True)
    db.close()
    os.replace(tmp, path)
    print(f"\r  wrote {path} ({path.stat().st_size / 1e9:.2f} GB, {frames * UNITS / 1e6:.1f} million poses) "
          f"in {time.perf_counter() - started:.0f} s", file=sys.stderr)


CHILD = PEAK_MB_SOURCE + r"""
import json, random, resource, sys, time
sys.path.insert(0, sys.argv[1])
what, path, out = sys.argv[2], sys.argv[3], sys.argv[4]
t0 = time.perf_counter()
result = {}
if what == "debrief":  # as `sandtable debrief RECORDING --out report.html` writes it: with the timeline
    from debrief.report import write_debrief_report
    from classview.timeline import report_timeline
    write_debrief_report(path, out, timeline=report_timeline)
else:
    from appmodel.replay_model import ReplayModel
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
usage = resource.getrusage(resource.RUSAGE_SELF)
result["cpu_s"] = usage.ru_utime + usage.ru_stime
result["peak_mb"] = peak_mb()
print(json.dumps(result))
"""


def measure(code_root: Path, what: str, recording: Path, workdir: Path, timeout_s: float) -> dict[str, Any]:
    """One step in a child process (its peak resident memory is its own ``VmHWM``)."""
    import json

    out = workdir / f"{what}.html"
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(code_root), what, str(recording), str(out)], capture_output=True,
                              text=True, cwd=workdir, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return {"error": f"stopped after {timeout_s:.0f} s"}
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1][:120]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if what == "debrief" and out.exists():
        from debrief_report import open_time_s

        result["size_mb"] = out.stat().st_size / 1e6
        result["open_s"] = open_time_s(out)
        out.unlink()
    return result


def old_code(rev: str, into: Path) -> Path:
    folder = into / f"old-{rev}"
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def recording_for(cache: Path, minutes: float) -> Path:
    """The bench's recording of a game of ``minutes`` (written once, kept in ``cache``)."""
    path = cache / f"game-{minutes:g}min.sqlite"
    if not path.exists():
        write_recording(path, minutes / 60)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, nargs="+", default=[2.0, 60.0, 180.0], help="game lengths (default 2 60 180)")
    parser.add_argument("--old-rev", default="main", help="the old code's git revision (default main)")
    parser.add_argument("--old-up-to", type=float, default=2.0,
                        help="run the old code only on games up to this many minutes (default 2: it takes minutes per minute of game)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="stop a step after this many seconds (default 1800)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sandtable-bench", help="where recordings are kept")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "bench"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="sandtable-bench-") as tmp:
        work = Path(tmp)
        old_root = old_code(args.old_rev, work)
        for minutes in args.minutes:
            recording = recording_for(args.cache, minutes)
            for label, root in (("new", ROOT), (f"old ({args.old_rev})", old_root)):
                if label != "new" and minutes > args.old_up_to:
                    rows.append((minutes, label, {"error": "not run"}, {"error": "not run"}))
                    continue
                debrief = measure(root, "debrief", recording, work, args.timeout)
                replay = measure(root, "replay", recording, work, args.timeout)
                print(f"  {minutes:g} min, {label}: debrief {debrief}, replay {replay}", file=sys.stderr, flush=True)
                rows.append((minutes, label, debrief, replay))
        shutil.rmtree(old_root, ignore_errors=True)

    def cell(r: dict[str, Any], key: str, fmt: str) -> str:
        if "error" in r:
            return r["error"]
        return "—" if r.get(key) is None else format(r[key], fmt)

    print(f"40 units moving every frame at {FPS:g} fps; decisions: an attack every {ATTACK_EVERY_S:g} s, a Signal every "
          f"{SIGNAL_EVERY_S:g} s, a turn every {TURN_EVERY_S:g} s, a bookmark every {BOOKMARK_EVERY_S:g} s")
    print(f"machine load (uptime) at the end: {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")
    print(f"{'game':>7} {'code':>12} {'debrief peak':>13} {'time':>9} {'CPU':>8} {'report':>9} {'opens in':>9} {'replay open':>12} "
          f"{'peak':>8} {'worst jump':>11}")
    for minutes, label, d, r in rows:
        if d.get("error") == "not run":
            print(f"{minutes:>5g} m {label:>12} not run (longer than --old-up-to {args.old_up_to:g} min: the old code takes "
                  "minutes per minute of game)")
            continue
        print(f"{minutes:>5g} m {label:>12} {cell(d, 'peak_mb', '.0f'):>10} MB {cell(d, 'total_s', '.1f'):>7} s "
              f"{cell(d, 'cpu_s', '.1f'):>6} s {cell(d, 'size_mb', '.1f'):>6} MB {cell(d, 'open_s', '.1f'):>7} s {cell(r, 'open_s', '.1f'):>10} s "
              f"{cell(r, 'peak_mb', '.0f'):>5} MB {cell(r, 'worst_seek_s', '.2f'):>9} s")
    print("debrief: `sandtable debrief RECORDING --out report.html` (timeline and exposure included) in a child process, "
          "peak = its own VmHWM (not ru_maxrss, which counts the bench's memory at the fork); CPU: its user + system time (what the time would be on an idle machine); opens in: headless Chromium 1366x768 until the timeline drew its first moment; replay: "
          "open the recording and jump to 20 moments. Targets (issue 30, 3 h): <= 300 MB, <= 60 s, <= 10 MB, < 3 s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
