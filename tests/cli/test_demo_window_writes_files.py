"""With a display the demo writes the same video, recording and report as headless, into --out: a
headless run of the same scripted example plays in the background while the window shows it, and its
files are listed when the window closes (the README's next step, replaying the demo's recording, then
works)."""
from __future__ import annotations

import argparse

from browser_video import browser_verdict, chromium


def test_the_window_demo_writes_video_recording_and_report_into_out(tmp_path, capsys):
    from cli.commands.demo import finish_files_run, start_files_run
    from demo.examples import example_named

    out = tmp_path / "my-demo"
    args = argparse.Namespace(out=str(out), example="solo", until=None)
    files = start_files_run(args, example_named("solo"), short=True)
    assert finish_files_run(files) == 0
    said = capsys.readouterr()
    for name in ("demo.mp4", "demo.sqlite", "report.html"):
        assert (out / name).is_file() and (out / name).stat().st_size > 10_000
        assert f"wrote {out / name}" in said.out
    assert f"into {out}/" in said.err
    if chromium() is not None:
        assert browser_verdict(out / "demo.mp4").startswith("loaded ")
    from appmodel.replay_model import ReplayModel

    replay = ReplayModel(out / "demo.sqlite")  # the README's next step: sandtable replay sandtable-demo/demo.sqlite
    try:
        assert replay.duration_s > 5 and replay.moments
    finally:
        replay.close()
