"""The delay a player sees: from a camera frame handed to the tracker to the paint, in the window and
on the projector, that shows the moved unit where that frame put it — this tree against the code as
it was before (a git revision, by default where this branch left main), side by side in one run.

The real live path, nothing stubbed past the camera: a 1080p camera (the synthetic table's pictures
of the 40-unit game of ``bench/gui_draw.py``, rendered beforehand, handed out on a 30 fps clock,
newest only, as a USB camera does) -> the tracking loop on its thread (``LiveTracking``: AprilTag
detection, poses, the ``tracker.pipeline.Tracker``) -> the window's poll (``LivePresenter``: the
poses into the session) -> each view's overlay worker (snapshot, rules' shapes, overlay image) -> the
paint of the real ``MainWindow``'s camera view and of its ``ProjectorWindow`` (full screen on a second
1920x1080 screen, through a projector homography, the tags masked), offscreen (Qt's offscreen
platform given two 1920x1080 screens), every overlay on, in Qt's own event loop.

One unit (the Sergeant) is carried back and forth over 9" of the table, 0.15" a frame (a hand at
4.5"/s), drifting on 0.03" a frame so that no pose comes twice (a picture for every frame of the
run); the other 39 stand. A sample is the time from the moment the camera handed a frame to the tracker to the end
of the paint event (the widget's whole ``paintEvent``) of the first paint of each view showing the
carried unit's own overlays at the pose that frame gave it ("shown frames"): moved there on the UI
thread from the pose the last exact image drew them at (the preview: ``appmodel.overlays.moved_layer``),
or the exact image of that frame's game. The measure before the preview — the first paint of the
exact image of that game version, every overlay where the frame put it (voice links, lines of sight
and hulls follow only with it) — is printed beside it. Frames a later one overtook before any paint
showed them are not samples there; "every tracked frame" counts them too, each until the first paint
showing it or a newer one (how old what a player sees is).

Each case runs in a process of its own (``--child``), the old code from ``git archive REV`` in a
temporary folder; with ``--rounds`` above 1 the two alternate, so both meet the same load. CPU time
per tracked frame (the whole process and per thread: the UI thread, tracking, overlay and background
workers) reads the same on a loaded machine as on a quiet one, where the delays do not.

    .venv/bin/python bench/overlay_latency.py [--seconds 15] [--rounds 2] [--old REV | --new-only] [--quick]

Target: 95th percentile under 50 ms.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from bisect import bisect_left
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

FPS = 30.0
MOVER = 10  # the Sergeant
STEP_IN = 0.15
#: How far the carried unit's back-and-forth drifts on each frame (in; 13.5" over a 15 s run).
DRIFT_IN = 0.03
#: The first second of each run is not sampled: the window's first paints, the detector's first
#: whole-frame search.
WARM_UP_S = 1.0
VIEWS = ("window", "projector")
#: Rings around the carried unit at whose farthest point in view the preview's error is measured
#: (a rifle's 24" range; the mortar's 72", whose far edge the camera sees past the table).
RINGS_IN = (24.0, 72.0)


# -- the child: one run of one tree's code -------------------------------------------------------------

class CameraClock:
    """A live camera of pre-rendered pictures: frame k is due at k / FPS after the first request; the
    tracker gets the newest due frame (older ones are dropped, as a camera's driver does), and the
    moment it was handed over is kept."""

    is_live = True
    connected = True
    name = "bench camera"

    def __init__(self, pictures: list[Any], *, seconds: float) -> None:
        self.pictures = pictures
        self.frames = int(seconds * FPS)
        self.start: float | None = None
        self.handed: dict[int, float] = {}
        self.last = -1
        self.ended = threading.Event()

    def latest_frame(self, timeout_s: float) -> Any:
        from tracker.frames import Frame

        now = time.perf_counter()
        if self.start is None:
            self.start = now
        k = int((now - self.start) * FPS)
        if k <= self.last:  # wait for the next frame, as a camera does
            due = self.start + (self.last + 1) / FPS
            if due - now > timeout_s:
                time.sleep(timeout_s)
                return None
            time.sleep(max(0.0, due - now))
            k = self.last + 1
        if k >= self.frames:
            self.ended.set()
            time.sleep(timeout_s)
            return None
        self.last = k
        self.handed[k] = time.perf_counter()
        return Frame(self.pictures[k % len(self.pictures)], k, k / FPS)

    def read(self) -> Any:
        return self.latest_frame(1.0)

    def close(self) -> None:
        pass


def carried(session: Any, k: int) -> tuple[float, float]:
    """Where the carried unit stands in frame k: back and forth over 9" of the table's empty middle,
    drifting on by ``DRIFT_IN`` a frame, so that no pose comes twice (a camera looping over one trip
    would show the tracker and the overlays the same poses again, and what they remember of them)."""
    u = session.unit(MOVER)
    phase = k % 120
    offset = STEP_IN * (phase if phase < 60 else 120 - phase)
    return u.x_in + offset + DRIFT_IN * k, u.y_in + 0.3 * offset


def pictures_of(session: Any, feed: Any, count: int) -> list[Any]:
    start = session.units()
    out = []
    for k in range(count):
        x, y = carried(session, k)
        units = [replace(u, x_in=x, y_in=y) if u.unit_id == MOVER else u for u in start]
        out.append(feed.render(units))
    return out


def thread_cpu_s() -> dict[int, float]:
    """Processor time of each of this process's threads so far (Linux /proc), by native thread id."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return out


def thread_group(name: str) -> str:
    if name == "MainThread":
        return "UI thread"
    if "overlay" in name:
        return "overlay workers"
    if "background" in name:
        return "background workers"
    return ""


def child(seconds: float) -> dict[str, Any]:
    """One run of the code on sys.path; returns the raw figures."""
    if "QT_QPA_PLATFORM" not in os.environ:
        # Two 1920x1080 screens, as at the table: the window on the first, the projector full screen on
        # the second (Qt's offscreen platform alone has one 800x800 screen, where the projector window
        # took 800x800 and saw a third of the table).
        screens = Path(tempfile.mkdtemp(prefix="overlay-latency-screens-")) / "screens.json"
        screens.write_text(json.dumps({"screens": [
            {"name": name, "x": x, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96,
             "dpr": 1} for name, x in (("window", 0), ("projector", 1920))]}))
        os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={screens}"
    import numpy as np
    from PySide6.QtCore import QTimer

    from appmodel.overlays.registry import OverlayToggles
    from appmodel.tracking.live_tracking import LiveTracking
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from calibration.projector import ProjectorCalibration
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from gui_draw import forty_units
    from tracker.pipeline import Tracker
    from tracker.roster import Roster

    app = create_application()
    session = forty_units()
    feed = SyntheticFeed(session.table_size_in, width_px=1920, height_px=1080)
    pictures = pictures_of(session, feed, int(seconds * FPS) + 1)  # a picture for every frame of the run

    camera = CameraClock(pictures, seconds=seconds)
    tracker = Tracker(roster=Roster(), calibration=feed.calibration)
    tracked_at: dict[int, float] = {}
    process = tracker.process

    def timed_process(frame: Any) -> Any:
        out = process(frame)
        tracked_at[frame.index] = time.perf_counter()
        return out

    tracker.process = timed_process  # type: ignore[method-assign]
    live = LiveTracking(camera, tracker, realtime=True)
    folder = tempfile.mkdtemp(prefix="overlay-latency-")
    store = open_store(Path(folder) / "settings.ini")
    settings = replace(load_settings(store), projector_overlays=OverlayToggles(), overlays=OverlayToggles(),
                       projector_screen=1)
    w, h = 1920, 1080
    projector = ProjectorCalibration(1920, 1080, np.array([[w / 72.0, 0, 0], [0, -h / 48.0, h], [0, 0, 1]]), 0.0, 0.0, 16)
    window = MainWindow(session, settings=settings, store=store, calibration=feed.calibration,
                        projector_calibration=projector, live=live)
    window.resize(w, h)
    window.show()
    window.view.set_mode("camera")
    beamer = window.show_projector("projector")
    assert beamer is not None
    if (beamer.width(), beamer.height()) != (w, h):
        raise RuntimeError(f"the projector window is {beamer.width()}x{beamer.height()}, not {w}x{h}: "
                           "its screen is not 1920x1080")

    # Which tracked frame each game version comes from: the poses of frame k go into the session here.
    frame_of_version: dict[int, int] = {}
    applied_at: dict[int, float] = {}
    apply_cpu_s: list[float] = []
    apply = session.apply_poses

    def applied(poses: Any, *, t_s: float | None = None) -> int:
        c0 = time.thread_time()
        n = apply(poses, t_s=t_s)  # with every listener of the change: views, panels
        if t_s is not None and n:
            if t_s >= WARM_UP_S:
                apply_cpu_s.append(time.thread_time() - c0)
            k = int(round(t_s * FPS))
            applied_at.setdefault(k, time.perf_counter())
            frame_of_version.setdefault(session.version, k)
        return n

    session.apply_poses = applied  # type: ignore[method-assign]

    # Per view: each overlay job (start, end, the version it made) and each paint (end, version shown).
    # (With the processor time each took on its thread: what it costs whatever the machine's load.)
    jobs: dict[str, list[tuple[float, float, int, float]]] = {name: [] for name in VIEWS}
    paints: dict[str, list[tuple[float, int, float, int]]] = {name: [] for name in VIEWS}
    #: Per view: each preview's move of the carried unit (the pose it was drawn at, the pose painted).
    moved: dict[str, list[tuple[list[float], list[float]]]] = {name: [] for name in VIEWS}

    def watch(name: str, widget: Any) -> None:
        renderer = widget.renderer
        compositor = renderer.compositor
        paint_image = compositor.paint_overlay_image
        painting: list[int] = []

        def painted_image(p: Any, overlay: Any, *a: Any, **kw: Any) -> Any:
            if overlay is not None:
                painting.append(int(overlay.version))
            return paint_image(p, overlay, *a, **kw)

        compositor.paint_overlay_image = painted_image
        paint_event = widget.paintEvent

        shown_overlay: list[Any] = []

        def painted_kept(p: Any, overlay: Any, *a: Any, **kw: Any) -> Any:
            shown_overlay[:] = [overlay]
            return painted_image(p, overlay, *a, **kw)

        compositor.paint_overlay_image = painted_kept

        def paint_event_timed(event: Any) -> None:
            painting.clear()
            c0 = time.thread_time()
            paint_event(event)
            if painting:  # the paint ends when the widget's paintEvent does; Qt flushes after it
                t, cpu = time.perf_counter(), time.thread_time() - c0
                # the game version whose poses the carried unit's overlays were painted at (the old
                # code has no preview: the overlay image's own)
                pose_version = int(getattr(renderer, "shown_pose_version", painting[-1]))
                paints[name].append((t, painting[-1], cpu, max(pose_version, painting[-1])))
                overlay = shown_overlay[0] if shown_overlay else None
                if pose_version > painting[-1] and overlay is not None and len(moved[name]) < 2000:
                    now = {u.unit_id: u for u in session.units()}
                    for uid, was in getattr(overlay, "poses", ()):
                        if uid in now:
                            u = now[uid]
                            moved[name].append((list(was), [u.x_in, u.y_in, u.heading_deg, u.z_in]))

        widget.paintEvent = paint_event_timed
        worker = renderer.overlays
        submit = worker.submit

        def timed_submit(job: Any) -> None:
            def timed_job() -> Any:
                t0, c0 = time.perf_counter(), time.thread_time()
                out = job()
                jobs[name].append((t0, time.perf_counter(), int(out[0].version), time.thread_time() - c0))
                return out
            submit(timed_job)

        worker.submit = timed_submit

    watch("window", window.view)
    watch("projector", beamer)

    load_before = os.getloadavg()
    cpu0, wall0, threads0 = time.process_time(), time.perf_counter(), thread_cpu_s()
    live.start()

    names: dict[int, str] = {}

    def check() -> None:
        # Thread names read while every view is still open: quitting closes the windows, which ends
        # the projector's workers, whose time would then count as "tracking and the rest".
        names.update({t.native_id: t.name for t in threading.enumerate() if t.native_id is not None})
        if camera.ended.is_set():
            app.quit()

    timer = QTimer()
    timer.timeout.connect(check)
    timer.start(100)
    app.exec()
    cpu_s, wall_s, threads1 = time.process_time() - cpu0, time.perf_counter() - wall0, thread_cpu_s()
    names.update({t.native_id: t.name for t in threading.enumerate() if t.native_id is not None})
    groups: dict[str, float] = {}
    for tid, s in threads1.items():
        group = thread_group(names.get(tid, ""))
        if group:
            groups[group] = groups.get(group, 0.0) + s - threads0.get(tid, 0.0)
    # the tracker's threads, native ones and those that ended meanwhile: what the others leave
    groups["tracking and the rest"] = cpu_s - sum(groups.values())
    live.stop()
    tracker.close()
    load_after = os.getloadavg()
    # How far the preview puts the farthest point in view of a ring around the unit from the exact drawing.
    errors: dict[str, dict[str, list[float]]] = {name: {str(r): [] for r in RINGS_IN} for name in VIEWS}
    carried_in: dict[str, list[float]] = {name: [] for name in VIEWS}
    try:
        from appmodel.overlays.moved_layer import preview_error_px
    except ImportError:  # the old code: no preview
        preview_error_px = None
    for name, widget in (("window", window.view), ("projector", beamer)):
        spec = widget.renderer.spec()
        for was, now in moved[name] if preview_error_px is not None else ():
            for radius in RINGS_IN:
                err = preview_error_px(spec.transform, tuple(was), tuple(now), radius, spec.size)
                if err is not None:
                    errors[name][str(radius)].append(err)
            carried_in[name].append(float(np.hypot(now[0] - was[0], now[1] - was[1])))
    window.close()
    beamer.close()
    return {"handed": {str(k): v for k, v in camera.handed.items()}, "due": camera.frames,
            "camera_start": camera.start if camera.start is not None else wall0,
            "tracked": {str(k): v for k, v in tracked_at.items()},
            "applied": {str(k): v for k, v in applied_at.items()},
            "frame_of_version": {str(v): k for v, k in frame_of_version.items()},
            "jobs": jobs, "paints": paints, "apply_cpu_s": apply_cpu_s, "preview_error_px": errors,
            "preview_carried_in": carried_in, "cpu_s": cpu_s, "wall_s": wall_s, "threads_cpu_s": groups,
            "load_before": load_before, "load_after": load_after}


# -- the figures ---------------------------------------------------------------------------------------

def percentiles(values: list[float]) -> tuple[float, float, float] | None:
    if not values:
        return None
    v = sorted(values)
    return statistics.median(v), v[int(round(0.95 * (len(v) - 1)))], v[-1]


def cell(values: list[float], *, worst: bool = True) -> str:
    found = percentiles(values)
    if found is None:
        return "no samples"
    med, p95, top = found
    text = f"{med:6.1f} / {p95:6.1f}"
    return text + (f" / {top:6.1f}" if worst else "") + f"  ({len(values)})"


class Run:
    """The figures of one or more child runs of one tree."""

    def __init__(self) -> None:
        #: by the pose the carried unit's overlays were painted at (its preview or the exact image)
        self.shown: dict[str, list[float]] = {n: [] for n in VIEWS}
        self.every: dict[str, list[float]] = {n: [] for n in VIEWS}
        #: by the game version of the exact overlay image painted (the measure before the preview)
        self.shown_exact: dict[str, list[float]] = {n: [] for n in VIEWS}
        self.every_exact: dict[str, list[float]] = {n: [] for n in VIEWS}
        self.preview_error_px: dict[str, dict[str, list[float]]] = {n: {str(r): [] for r in RINGS_IN} for n in VIEWS}
        self.preview_carried_in: dict[str, list[float]] = {n: [] for n in VIEWS}
        self.stages: dict[str, list[float]] = {}
        self.cpu_s = self.wall_s = 0.0
        self.threads: dict[str, float] = {}
        self.handed = self.tracked = self.versions = 0
        self.due = 0
        self.loads: list[tuple[float, float, float]] = []
        #: processor time of each step on its own thread, ms
        self.cpu_ms: dict[str, list[float]] = {}

    def stage(self, name: str, ms: float) -> None:
        self.stages.setdefault(name, []).append(ms)

    def add(self, raw: dict[str, Any]) -> None:
        handed = {int(k): v for k, v in raw["handed"].items() if int(k) >= WARM_UP_S * FPS}
        tracked = {int(k): v for k, v in raw["tracked"].items()}
        applied = {int(k): v for k, v in raw["applied"].items()}
        frame_of = {int(v): k for v, k in raw["frame_of_version"].items()}
        self.handed += len(handed)
        self.tracked += len(tracked)
        self.versions += len(frame_of)
        self.due += raw["due"]
        self.cpu_s += raw["cpu_s"]
        self.wall_s += raw["wall_s"]
        for g, s in raw["threads_cpu_s"].items():
            self.threads[g] = self.threads.get(g, 0.0) + s
        self.loads += [tuple(raw["load_before"]), tuple(raw["load_after"])]
        self.cpu_ms.setdefault("poses into the session (UI thread)", []).extend(1000 * c for c in raw["apply_cpu_s"])
        since = raw["camera_start"] + WARM_UP_S
        for name in VIEWS:
            self.cpu_ms.setdefault(f"{name}: overlay job (its worker)", []).extend(
                1000 * j[3] for j in raw["jobs"][name] if j[0] >= since)
            self.cpu_ms.setdefault(f"{name}: paint (UI thread)", []).extend(
                1000 * q[2] for q in raw["paints"][name] if q[0] >= since)
            for radius, errs in raw.get("preview_error_px", {}).get(name, {}).items():
                self.preview_error_px[name][radius].extend(errs)
            self.preview_carried_in[name].extend(raw.get("preview_carried_in", {}).get(name, []))
            job_of: dict[int, tuple[float, float]] = {}
            for t0, t1, v, _ in raw["jobs"][name]:
                if v in frame_of:
                    job_of.setdefault(frame_of[v], (t0, t1))
            for column, shown, every in ((1, self.shown_exact, self.every_exact), (-1, self.shown, self.every)):
                paints = [(q[0], frame_of[q[column]]) for q in raw["paints"][name] if q[column] in frame_of]
                first: dict[int, float] = {}
                for t, k in paints:
                    first.setdefault(k, t)
                for k, t in first.items():
                    if k not in handed:
                        continue
                    shown[name].append((t - handed[k]) * 1000.0)
                    if name != "window" or k not in tracked or k not in applied:
                        continue
                    if column == -1:
                        self.stage("in the session -> painted at its pose", (t - applied[k]) * 1000)
                    elif k in job_of:
                        j0, j1 = job_of[k]
                        self.stage("handed -> tracked (detection, poses)", (tracked[k] - handed[k]) * 1000)
                        self.stage("tracked -> in the session (UI poll)", (applied[k] - tracked[k]) * 1000)
                        self.stage("in the session -> overlay job starts", (j0 - applied[k]) * 1000)
                        self.stage("overlay job (snapshot, shapes, image)", (j1 - j0) * 1000)
                        self.stage("job done -> painted", (t - j1) * 1000)
                # Every tracked frame: until the first paint showing it or a newer one.
                times = [t for t, _ in paints]
                newest: list[int] = []
                for _, k in paints:
                    newest.append(max(k, newest[-1]) if newest else k)
                for k in tracked:
                    if k not in handed:
                        continue
                    i = bisect_left(newest, k)
                    if i < len(times):
                        every[name].append((times[i] - handed[k]) * 1000.0)


def run_child(code: Path, seconds: float) -> dict[str, Any]:
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "--code", str(code),
                          "--seconds", str(seconds)], capture_output=True, text=True, timeout=seconds * 10 + 300)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not lines:
        tail = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the run of {code} failed: {tail}")
    return json.loads(lines[-1])


def old_tree(rev: str) -> Path:
    """The code at ``rev`` in a temporary folder (git archive)."""
    folder = Path(tempfile.mkdtemp(prefix="overlay-latency-old-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True)
    if archive.returncode != 0:
        raise RuntimeError(f"git archive {rev} failed: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def say(line: str) -> None:
    print(line.rstrip())


def report(runs: dict[str, Run], seconds: float, rounds: int) -> None:
    titles = list(runs)
    width = 36
    say(f"\n{seconds:.0f} s of camera at {FPS:.0f} fps per run, {rounds} run(s) each, alternating; 1920x1080, "
          f"40 units, every overlay on, one unit carried {STEP_IN}\" a frame")
    say("\nframe handed to the tracker -> paint showing the unit where that frame put it, ms: median / p95 / worst "
          "(samples); target p95 < 50 ms")
    say(f" {'':40s} | " + " | ".join(f"{t:{width}s}" for t in titles))
    say(" the carried unit's own overlays painted at the frame's pose (moved there on the UI thread, or the exact image):")
    for name in VIEWS:
        say(f" {name + ', shown frames':40s} | " + " | ".join(f"{cell(runs[t].shown[name]):{width}s}" for t in titles))
        say(f" {name + ', every tracked frame':40s} | " + " | ".join(f"{cell(runs[t].every[name]):{width}s}" for t in titles))
    say(" the exact overlay image of the frame's game (every overlay where the frame put it; the measure before the preview):")
    for name in VIEWS:
        say(f" {name + ', shown frames':40s} | " + " | ".join(f"{cell(runs[t].shown_exact[name]):{width}s}" for t in titles))
        say(f" {name + ', every tracked frame':40s} | " + " | ".join(
            f"{cell(runs[t].every_exact[name]):{width}s}" for t in titles))
    say("\nthe preview: how far it carried the unit's picture, inches, and how far from the exact drawing it put the "
        "farthest point in view of a ring around the unit, px: median / p95 / worst (previews)")
    for name in VIEWS:
        say(f" {name + ', carried':40s} | " + " | ".join(f"{cell(runs[t].preview_carried_in[name]):{width}s}" for t in titles))
        for radius in RINGS_IN:
            label = f'{name}, {radius:.0f}" ring off'
            say(f" {label:40s} | " + " | ".join(
                f"{cell(runs[t].preview_error_px[name][str(radius)]):{width}s}" for t in titles))
    say("\nwhere the time goes, each shown window frame, ms: median / p95")
    for stage in next(iter(runs.values())).stages or ():
        say(f" {stage:40s} | " + " | ".join(f"{cell(runs[t].stages.get(stage, []), worst=False):{width}s}" for t in titles))
    say("\nprocessor time per tracked frame, ms (compare within a run: it does not depend on the load as the delays do)")
    groups = ("UI thread", "overlay workers", "background workers", "tracking and the rest")
    for label, value in [("whole process", lambda r: r.cpu_s)] + [(g, lambda r, g=g: r.threads.get(g, 0.0)) for g in groups]:
        say(f" {label:40s} | " + " | ".join(
            f"{1000.0 * value(runs[t]) / max(1, runs[t].tracked):{width}.1f}" for t in titles))
    views = ("UI thread", "overlay workers", "background workers")
    say(f" {'the views per game version (UI + workers)':40s} | " + " | ".join(
        f"{1000.0 * sum(runs[t].threads.get(g, 0.0) for g in views) / max(1, runs[t].versions):{width}.1f}" for t in titles))
    say("\nprocessor time of each step on its own thread, ms: median / p95 (the steps of one frame's path)")
    for step in next(iter(runs.values())).cpu_ms:
        say(f" {step:40s} | " + " | ".join(f"{cell(runs[t].cpu_ms.get(step, []), worst=False):{width}s}" for t in titles))
    say(f" {'share of one core the process got':40s} | " + " | ".join(
        f"{runs[t].cpu_s / max(runs[t].wall_s, 1e-9):{width}.0%}" for t in titles))
    say(f" {'frames due / handed / tracked':40s} | " + " | ".join(
        f"{f'{runs[t].due} / {runs[t].handed} / {runs[t].tracked}':{width}s}" for t in titles))
    say(f" {'game versions / shown (window, projector)':40s} | " + " | ".join(
        f"{f'{runs[t].versions} / {len(runs[t].shown[VIEWS[0]])}, {len(runs[t].shown[VIEWS[1]])}':{width}s}"
        for t in titles))
    say(f" {'  of them as exact images':40s} | " + " | ".join(
        f"{f'{len(runs[t].shown_exact[VIEWS[0]])}, {len(runs[t].shown_exact[VIEWS[1]])}':{width}s}" for t in titles))
    loads = [x for r in runs.values() for x in r.loads]
    say(f"\nload average (1 min) before and after each run: {min(x[0] for x in loads):.1f}-{max(x[0] for x in loads):.1f}"
          f" (5 min {min(x[1] for x in loads):.1f}-{max(x[1] for x in loads):.1f}); {os.cpu_count()} cores")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="how long the camera runs per run (default 15)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each tree, alternating (default 2)")
    parser.add_argument("--old", default=None, help="the git revision to compare with (default: where this branch left "
                        "main; on main itself give one: 87e3b74 is the code before the latency work)")
    parser.add_argument("--new-only", action="store_true", help="measure this tree only")
    parser.add_argument("--quick", action="store_true", help="one 8 s run of each")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--code", default=str(ROOT), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seconds <= 0 or args.rounds < 1:
        print("overlay_latency: --seconds must be positive and --rounds at least 1", file=sys.stderr)
        return 2

    if args.child:
        code = Path(args.code)
        sys.path[:0] = [str(code), str(code / "bench")]
        print(json.dumps(child(args.seconds)))
        return 0
    if args.quick:
        args.seconds, args.rounds = 8.0, 1
    trees: dict[str, Path] = {}
    if not args.new_only:
        rev = args.old
        if rev is None:
            found = subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], capture_output=True, text=True)
            rev = found.stdout.strip() if found.returncode == 0 else ""
        if not rev:
            print("overlay_latency: no revision to compare with (no 'main' branch here): give --old REV or --new-only",
                  file=sys.stderr)
            return 2
        short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], capture_output=True, text=True)
        try:
            trees[f"old ({short.stdout.strip() or rev})"] = old_tree(rev)
        except (RuntimeError, subprocess.CalledProcessError) as exc:
            print(f"overlay_latency: {exc}: give --old REV or --new-only", file=sys.stderr)
            return 2
    trees["new (this tree)"] = ROOT
    runs = {title: Run() for title in trees}
    for r in range(args.rounds):
        order = list(trees.items()) if r % 2 == 0 else list(reversed(trees.items()))
        for title, code in order:
            print(f"round {r + 1} of {args.rounds}: {title} ...", flush=True)
            try:
                runs[title].add(run_child(code, args.seconds))
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                print(f"overlay_latency: {exc}", file=sys.stderr)
                return 1
    report(runs, args.seconds, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
