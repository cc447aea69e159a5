"""Class view: how long a tracked move takes to reach the page, and what viewers cost the tracker.

One unit of the in-depth example is carried back and forth across the synthetic table; every frame
is rendered, tracked by the real tracker and applied to the session, which the class view serves on
loopback. Viewers are WebSocket clients in a separate process (as phones would be other devices),
each noting when a scene arrives and where the unit stands in it. The delay of a move is from the
frame being handed to the tracker to the first scene at a viewer showing the unit where that frame
put it (frames whose scenes were skipped for a newer one are not counted: a viewer gets the newest).

Rows: the tracking loop alone (no class view), serving with 0, 1, 10 and 30 viewers, and alone again
(on a shared machine the spread between the two "alone" rows is the noise). The loop runs as fast as
it can, so its frames per second is what serving costs the tracker.

    .venv/bin/python bench/class_view.py [--seconds 60] [--viewers 1,10,30]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

UNIT = 13  # the MAAWS gunner
CLIENTS = r"""
import asyncio, json, re, sys, time
import aiohttp
url, n, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
pattern = re.compile(r'"id":%d,[^{}]*?"x_in":(-?[0-9.]+)')
got = [[] for _ in range(n)]
async def viewer(k, http):
    async with http.ws_connect(url, max_msg_size=0) as ws:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                msg = await asyncio.wait_for(ws.receive(), max(0.05, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            m = pattern.search(msg.data)
            if m:
                got[k].append((time.monotonic(), float(m.group(1))))
async def main():
    async with aiohttp.ClientSession() as http:
        await asyncio.gather(*(viewer(k, http) for k in range(n)))
print("ready", flush=True)
asyncio.run(main())
print(json.dumps(got))
"""


def tracking_loop(seconds: float, *, serve: bool, viewers: int) -> dict:
    from classview.live import LiveClassView
    from classview.server import ServeAddress
    from appmodel.game_session import GameSession
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from tracker.frames import Frame
    from tracker.pipeline import Tracker
    from tracker.roster import roster_from_scenario

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    feed = SyntheticFeed(session.table_size_in)
    tracker = Tracker(roster=roster_from_scenario(dict(session.scenario)), calibration=feed.calibration)
    view = LiveClassView.start(session, ServeAddress("127.0.0.1", 0)) if serve else None
    clients = None
    if view is not None and viewers:
        clients = subprocess.Popen([sys.executable, "-c", CLIENTS % UNIT, view.url + "ws", str(viewers), str(seconds + 3)],
                                   stdout=subprocess.PIPE, text=True)
        assert clients.stdout is not None and clients.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 10
        while view.viewers < viewers and time.monotonic() < deadline:
            time.sleep(0.02)
    units = list(session.units())
    x0 = next(u for u in units if u.unit_id == UNIT).x_in
    applied: dict[float, list[float]] = {}  # the unit's x in the session -> when frames putting it there went in
    track_ms: list[float] = []
    frames = 0
    start = time.monotonic()
    try:
        while time.monotonic() - start < seconds:
            k = frames % 160
            x = x0 + (k if k < 80 else 160 - k) * 0.4  # 0.4" a frame, 32" out and back
            image = feed.render([replace(u, x_in=x) if u.unit_id == UNIT else u for u in units])
            t0 = time.monotonic()
            tracked = tracker.process(Frame(image, frames, frames / 30.0))
            if session.apply_poses(tracked.poses, t_s=tracked.t_s):
                applied.setdefault(round(session.unit(UNIT).x_in, 2), []).append(t0)
            track_ms.append((time.monotonic() - t0) * 1000)
            frames += 1
        elapsed = time.monotonic() - start
    finally:
        out = ""
        if clients is not None:
            out, _ = clients.communicate(timeout=seconds + 30)
        if view is not None:
            view.close()
        tracker.close() if hasattr(tracker, "close") else None
    delays: list[float] = []
    if out:
        for per_viewer in json.loads(out.strip().splitlines()[-1]):
            for t_recv, x in per_viewer:
                # the unit passes each spot every 160 frames: the frame is the last one before the scene
                sent = [t for t in applied.get(round(x, 2), ()) if t <= t_recv]
                if sent:
                    delays.append((t_recv - sent[-1]) * 1000)
    cpu = (view.feed.cpu_s + view.server.cpu_s) if view is not None else 0.0
    return {"fps": frames / elapsed, "track_ms": statistics.median(track_ms), "delays": delays,
            "scenes": view.feed.built if view is not None else 0, "cpu_pct": 100 * cpu / elapsed,
            "scene_ms": 1000 * view.feed.cpu_s / max(1, view.feed.built) if view is not None else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="length of each row with viewers (default 60); rows without viewers take half")
    parser.add_argument("--viewers", default="1,10,30", help="viewer counts to measure (default 1,10,30)")
    args = parser.parse_args()
    counts = [int(v) for v in args.viewers.split(",") if v.strip()]
    idle_s = args.seconds / 2  # frames per second settles sooner than the worst delay: the run stays under 5 minutes
    rows = [("tracking alone (no class view)", tracking_loop(idle_s, serve=False, viewers=0)),
            ("serving, 0 viewers", tracking_loop(idle_s, serve=True, viewers=0))]
    for n in counts:
        rows.append((f"serving, {n} viewer{'s' if n != 1 else ''}", tracking_loop(args.seconds, serve=True, viewers=n)))
    # The machine is shared: the same row again shows how much the figures move without any change.
    rows.append(("tracking alone again (noise check)", tracking_loop(idle_s, serve=False, viewers=0)))
    base = rows[0][1]["fps"]
    print(f"Class view: a unit carried across the synthetic table (in-depth example, {args.seconds:g} s per row with "
          f"viewers, {idle_s:g} s without); "
          "delay from the frame handed to the tracker to the scene at a WebSocket viewer on loopback")
    print(f" {'case':34} | {'loop fps':>8} | {'vs alone':>8} | {'track ms':>8} | {'scenes':>6} | {'ms/scene':>8} | "
          f"{'view CPU':>8} | {'moves seen':>10} | {'delay median':>12} | {'p95':>7} | {'worst':>7}")
    for name, r in rows:
        d = sorted(r["delays"])
        if d:
            med, p95, worst = statistics.median(d), d[int(0.95 * (len(d) - 1))], d[-1]
            delay = f"{med:9.1f} ms | {p95:4.0f} ms | {worst:4.0f} ms"
        else:
            delay = f"{'':>12} | {'':>7} | {'':>7}"
        print(f" {name:34} | {r['fps']:8.1f} | {r['fps'] / base:8.2f} | {r['track_ms']:8.1f} | {r['scenes']:6d} | "
              f"{r['scene_ms']:8.1f} | {r['cpu_pct']:7.1f}% | {len(d):10d} | {delay}")
    print("ms/scene: processor time to build one scene (snapshot, draw items, labels, JSON) on the feed's thread; "
          "view CPU: processor time of the feed's and the server's threads, % of one core over the row")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
