"""`sandtable demo`: an example game played on the synthetic table through the whole pipeline.

    sandtable demo                          # the window where a display exists (writing --out's files too), else as --headless
    sandtable demo --headless [--out DIR]   # demo.mp4, demo.sqlite and report.html into DIR (./sandtable-demo)
    sandtable demo --headless --short       # every step and roll with little time to read (what the tests run)
    sandtable demo --text                   # the rules walkthrough: each step's odds, dice and outcome as text
    sandtable demo --screenshot demo.png --until 6.5.1     # a picture of the window at the end of a step
    sandtable demo --example patrol --headless             # Force on Force's market patrol
    sandtable demo --example solo --headless               # the generic rules' solo game against the tables

By default the example is Down Range's in-depth example: the units move as section 6 of the rulebook
narrates. ``--example`` picks another rule system's scripted game. The synthetic table films the
units with a 1080p webcam; the tracker follows them from those frames; the companion's session takes
the tracked poses and resolves every roll with the dice the script states (docs/demo.md).
"""
from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from classview.serve_option import add_serve_argument, check_serve

NAME = "demo"
HELP = ("Play an example game on the synthetic table (Down Range's in-depth example; --example patrol or solo for "
        "Force on Force and the generic rules): tracked units, overlays, every roll (a window, or video + recording + "
        "report with --headless; --text for the rules walkthrough).")
DEFAULT_OUT = "sandtable-demo"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from demo.examples import DEFAULT_EXAMPLE, EXAMPLES

    parser.add_argument("--example", metavar="NAME", default=None,
                        help=f"which example game: {', '.join(EXAMPLES)} (default {DEFAULT_EXAMPLE}: Down Range; patrol: "
                             "Force on Force; solo: the generic rules against the automation tables)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--headless", action="store_true",
                      help="no window: write the overlaid video, the recording and the debrief report into --out")
    mode.add_argument("--window", action="store_true", help="open the window even where no display was detected")
    mode.add_argument("--text", action="store_true", help="the rules walkthrough as text: each step's odds, dice and outcome")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help=f"folder for demo.mp4, demo.sqlite and report.html (default ./{DEFAULT_OUT})")
    parser.add_argument("--short", action="store_true", help="with --headless: every step and roll, little time to read")
    parser.add_argument("--until", metavar="STEP", help="stop after this step of the example (e.g. 6.5.1; for patrol and "
                        "solo the step's number or title)")
    parser.add_argument("--screenshot", metavar="PNG", help="save a picture of the demo window when --until's step "
                        "ends (or at the end), then exit; works offscreen")
    parser.add_argument("--size", default="1600x960", metavar="WxH", help="window size for --screenshot (default 1600x960)")
    parser.add_argument("--save-state", metavar="FILE", help="(walkthrough) write the final game state (JSON) to FILE")
    parser.add_argument("--json", action="store_true", help="(walkthrough) print the game's event log as JSON lines")
    add_serve_argument(parser)


def run(args: argparse.Namespace) -> int:
    from appmodel.errors import UsageError
    from demo.examples import example_named

    example = example_named(args.example)  # a wrong name is refused before anything else is said or done
    if args.json or args.save_state:
        args.text = True  # options of the rules walkthrough
    example.steps_until(args.until)  # so is a wrong step
    check_serve(args.serve)
    if args.text:
        if args.short or args.screenshot or args.out or args.serve:
            raise UsageError("--text prints the rules walkthrough; --out, --short, --screenshot and --serve belong to the "
                             "played demo")
        return _walkthrough(args, example)
    if args.screenshot:
        if args.headless or args.short:
            raise UsageError("--screenshot pictures the demo window; leave out --headless and --short")
        return _screenshot(args, example)
    if args.short and not args.headless and not _headless_by_default():
        raise UsageError("--short is for --headless runs (the window plays the full example)")
    if args.headless or (not args.window and _headless_by_default()):
        return _headless(args, example)
    return _window(args, example)


def _headless_by_default() -> bool:
    from cli.display_check import window_problem

    return window_problem() is not None


# ------------------------------------------------------------------------------------------ headless
def _headless(args: argparse.Namespace, example: Any) -> int:
    import sys

    from classview.live import serve_session
    from gui.demo.headless import run_headless_demo
    from cli.display_check import window_problem
    from demo.story import DemoTiming

    out = args.out or DEFAULT_OUT
    if not args.headless:
        print(f"sandtable demo: {window_problem()}; running headless into {out}/ (--window forces the window)",
              file=sys.stderr)
    bar = _ProgressBar()
    command = ("sandtable demo --headless" + (f" --example {example.name}" if args.example else "")
               + (" --short" if args.short else "") + (f" --until {args.until}" if args.until else ""))
    views: list[Any] = []

    def serve(session: Any) -> None:
        views.append(serve_session(session, args.serve, say=lambda line: (bar.done(), print(line, flush=True))))

    try:
        run = run_headless_demo(out, example=example, timing=DemoTiming.short() if args.short else DemoTiming.full(),
                                until=args.until, progress=bar.update, command=command,
                                on_session=serve if args.serve else None)
    finally:
        for view in views:
            if view is not None:
                view.close()
    bar.done()
    seen = [s for s in run.samples if s.state == "seen"]
    clear_still = [s for s in run.samples if s.still and not s.crowded]
    errors = [s.error_in for s in clear_still if s.state == "seen" and s.error_in is not None]
    fps = run.story.timing.fps / max(1, run.story.timing.video_every)
    print(f"The {example.name} example, {run.frames} frames ({run.story.duration_s:.0f} s of story) in {run.wall_s:.0f} s.")
    print(f"Table registered from its anchors: {run.calibration.residual_in:.3f}\" residual.")
    if run.samples:
        print(f"Tracker: {len(seen) / len(run.samples):.1%} of unit sightings; units standing clear of others: "
              f"{sum(s.state == 'seen' for s in clear_still)}/{len(clear_still)} seen, "
              f"within {max(errors, default=0.0):.3f}\" of the script.")
    from rules.ruleset import get_ruleset

    print("At the end: " + example.out_of_fight_sentence(get_ruleset(example.ruleset).units(run.final_state)))
    print(f"wrote {run.video} (overlaid camera view, {fps:g} frames/s)")
    print(f"wrote {run.recording} (the recording: sandtable replay {run.recording})")
    print(f"wrote {run.report} (the debrief report: open it in a browser)")
    return 0


class _ProgressBar:
    """One line on stderr per stage, redrawn at most five times a second, with the rate and the time
    left once a second of the stage has gone by (earlier, one frame in a few microseconds would claim
    a million a second)."""

    MIN_ELAPSED_S = 1.0

    def __init__(self, stream: Any = None, clock: Any = None) -> None:
        import sys
        import time

        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock if clock is not None else time.perf_counter
        self.stage = ""
        self.last = 0.0
        self.start = self.clock()
        self.start_done = 0

    def update(self, stage: str, done: int, total: int) -> None:
        now = self.clock()
        if stage != self.stage:
            if self.stage:
                self.stream.write("\n")
            self.stage, self.start, self.last, self.start_done = stage, now, 0.0, done
        if now - self.last < 0.2 and done < total:
            return
        self.last = now
        filled = int(30 * min(1.0, done / total)) if total else 30
        self.stream.write(f"\r{stage:<24} [{'#' * filled}{'-' * (30 - filled)}] {done}/{total}"
                          f"{self._pace(now, done, total)}")
        self.stream.flush()

    def _pace(self, now: float, done: int, total: int) -> str:
        elapsed = now - self.start
        if total <= 20 or done >= total or elapsed < self.MIN_ELAPSED_S or done <= self.start_done:
            return " " * 24 if total > 20 else ""  # blank where the rate goes: no stale characters
        rate = (done - self.start_done) / elapsed
        left_s = int(round((total - done) / rate))
        return f", {rate:.1f}/s, {left_s // 60}:{left_s % 60:02d} left".ljust(24)

    def done(self) -> None:
        if self.stage:
            self.stream.write("\n")
            self.stream.flush()


# ------------------------------------------------------------------------------------------ window
def _window(args: argparse.Namespace, example: Any) -> int:
    from cli.display_check import require_window

    require_window(instead="run `sandtable demo --headless` to write the video, recording and report instead")
    from classview.live import serve_session
    from gui.demo.window import open_demo_window

    files = start_files_run(args, example)
    bar = _ProgressBar()
    window, _live = open_demo_window(example=example, until=args.until, progress=bar.update)  # the window polls it
    bar.done()
    view = serve_session(window.session, args.serve, window=window)
    window.show()
    from PySide6.QtWidgets import QApplication

    from gui.app import run_event_loop

    try:
        code = run_event_loop(QApplication.instance())
    finally:
        if view is not None:
            view.close()
    return finish_files_run(files) or code


def start_files_run(args: argparse.Namespace, example: Any, *, short: bool = False) -> Any:
    """The same video, recording and report as ``--headless``, written into --out by a headless run of the
    same example in a background process while the window plays (the story is scripted: both play the same
    game). Its progress goes to a log file in the folder, not over the terminal."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import cli.main as dispatcher

    out = Path(args.out or DEFAULT_OUT)
    out.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", dispatcher.__name__, "demo", "--headless", "--out", str(out)]
    argv += (["--example", example.name] if args.example else []) + (["--until", args.until] if args.until else [])
    argv += ["--short"] if short else []
    log = open(out / "demo-files.log", "w", encoding="utf-8")  # closed in finish_files_run
    lower = (lambda: os.nice(10)) if hasattr(os, "nice") else None  # the window keeps the machine first
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, text=True, preexec_fn=lower)
    print(f"sandtable demo: writing the video, recording and report into {out}/ as the window plays", file=sys.stderr)
    return process, log, out


def finish_files_run(files: Any) -> int:
    """Wait for :func:`start_files_run`'s process; print the files it wrote (0) or its last error line."""
    import sys

    process, log, out = files
    if process.poll() is None:
        print(f"sandtable demo: finishing the video, recording and report in {out}/ (Ctrl+C stops it)",
              file=sys.stderr)
    try:
        stdout, _ = process.communicate()
    except KeyboardInterrupt:
        process.terminate()
        process.wait()
        raise
    finally:
        log.close()
    lines = [line for line in stdout.splitlines() if line.startswith("wrote ")]
    if process.returncode != 0:
        errors = [line for line in (out / "demo-files.log").read_text(encoding="utf-8").splitlines() if "error" in line]
        print(f"sandtable demo: the files were not written: {errors[-1] if errors else 'see ' + str(out / 'demo-files.log')}",
              file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


def _screenshot(args: argparse.Namespace, example: Any) -> int:
    import time
    from pathlib import Path

    from cli.display_check import offscreen_unless_displayed

    offscreen_unless_displayed()  # a picture needs no screen

    from cli.commands.gui import _size
    from gui.demo.window import open_demo_window
    from appmodel.errors import UsageError

    size = _size(args.size)
    bar = _ProgressBar()
    # Played as fast as the machine goes, paused at the end of --until's step.
    window, live = open_demo_window(example=example, until=args.until, realtime=False, pause_at_end=True,
                                    progress=bar.update)
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    window.resize(*size)
    window.show()
    frames = live.story.frame_count
    while not (live.finished or (live.paused and live.stop_at_s is not None)):
        app.processEvents()
        bar.update("playing the example", live.frames_processed, frames)
        time.sleep(0.02)
    bar.done()
    end = time.monotonic() + 0.5
    while time.monotonic() < end:  # the last frame reaches the view, the panels catch up
        app.processEvents()
        time.sleep(0.02)
    path = Path(args.screenshot)
    ok = window.grab().save(str(path))
    window.close()
    if not ok:
        raise UsageError(f"cannot write the screenshot {str(path)!r}: check the folder exists and the name ends in .png")
    print(f"saved {path}")
    return 0


# ------------------------------------------------------------------------------------------ walkthrough
def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent)


def _walkthrough(args: argparse.Namespace, example: Any) -> int:
    from pathlib import Path

    from rules.ruleset import get_ruleset

    steps = example.steps_until(args.until) or example.steps
    state = None
    if not args.json:
        print(example.introduction + "\n")
    for index, record in enumerate(example.play(steps)):
        state = record.state
        if args.json:
            continue
        step = record.step
        print(f"== {example.heading(example.section(index, step), step.title)}")
        print(_wrap(step.text, "   "))
        for line in record.lines:
            print(_wrap(line, "   | ") if not line.startswith("  ") else "   |" + line)
        print(_wrap(f"{example.expect_label}: {step.expect}", "   = "))
        if step.note:
            print(_wrap(f"Reading taken: {step.note}", "   ~ "))
        print()
    assert state is not None
    if args.json:
        for event in state.events:
            print(json.dumps(event.to_json()))
    else:
        print(f"End of the example after round {state.round}: {len(state.events)} events logged. "
              + example.out_of_fight_sentence(get_ruleset(example.ruleset).units(state)))
    if args.save_state:
        Path(args.save_state).write_text(state.dumps(), encoding="utf-8")
    return 0
