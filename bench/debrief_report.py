"""The debrief report with its table timeline, today's code beside an older revision, on long games.

    .venv/bin/python bench/debrief_report.py                        # 10 and 30 minutes of 40 moving units
    .venv/bin/python bench/debrief_report.py --minutes 10 30 180    # add three hours (writes ~2 GB once)
    .venv/bin/python bench/debrief_report.py --old-rev 3ac52fc      # the timeline of a scene per moment

Each report is written as ``sandtable debrief RECORDING --out report.html`` writes it (with the
timeline) in a child process whose peak resident memory is measured (its own ``VmHWM``); then the report
is opened in headless Chromium (1366x768) and timed until the timeline has drawn its first moment.
Recordings are the ones of ``bench/long_session.py`` (40 units, 30 frames a second, every unit moving
every frame, the game's decisions played through the session), cached under ``--cache``.

Targets (issue 30): three hours in at most 300 MB and 60 s, the report at most 10 MB, opening in under 3 s.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from child_memory import PEAK_MB_SOURCE

CHILD = PEAK_MB_SOURCE + r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
path, out = sys.argv[2], sys.argv[3]
t0 = time.perf_counter()
from debrief.report import write_debrief_report
from classview.timeline import report_timeline
write_debrief_report(path, out, timeline=report_timeline)
print(json.dumps({"total_s": time.perf_counter() - t0,
                  "peak_mb": peak_mb()}))
"""


def write_report(code_root: Path, recording: Path, out: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(code_root), str(recording), str(out)],
                          capture_output=True, text=True, cwd=out.parent, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1][:100]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["size_mb"] = out.stat().st_size / 1e6
    return result


def open_time_s(report: Path) -> float | None:
    """Seconds from asking Chromium for the report to its timeline showing the first moment."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from classview_helpers import browser_missing, open_browser
    except ImportError:
        return None
    if browser_missing():
        return None
    browser = open_browser(1366, 768)
    try:
        browser.set_page_load_timeout(300)
        start = time.perf_counter()
        browser.get(report.as_uri())
        while time.perf_counter() - start < 300:
            if browser.execute_script("var r = document.getElementById('class-timeline'); return r && r.getAttribute('data-t');"):
                return time.perf_counter() - start
            time.sleep(0.02)
        return None
    finally:
        browser.quit()


def main() -> int:
    import long_session

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, nargs="+", default=[10.0, 30.0], help="game lengths (default 10 30)")
    parser.add_argument("--old-rev", default="3ac52fc", help="the older code (default 3ac52fc: a whole scene per moment)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sandtable-bench")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="sandtable-bench-") as tmp:
        work = Path(tmp)
        old_root = long_session.old_code(args.old_rev, work)
        for minutes in args.minutes:
            recording = long_session.recording_for(args.cache, minutes)
            for label, root in (("today", ROOT), (f"old {args.old_rev}", old_root)):
                out = work / f"{label.split()[0]}-{minutes:g}.html"
                result = write_report(root, recording, out)
                if "error" not in result:
                    result["open_s"] = open_time_s(out)
                    out.unlink()
                rows.append((minutes, label, result))
                print(f"  {minutes:g} min, {label}: {result}", file=sys.stderr)
        shutil.rmtree(old_root, ignore_errors=True)
    print(f"{'game':>8} {'code':>14} {'peak memory':>12} {'time':>9} {'report':>10} {'opens in':>9}")
    for minutes, label, r in rows:
        if "error" in r:
            print(f"{minutes:>6g} m {label:>14} {r['error']}")
            continue
        opened = "—" if r.get("open_s") is None else f"{r['open_s']:.1f} s"
        print(f"{minutes:>6g} m {label:>14} {r['peak_mb']:>9.0f} MB {r['total_s']:>7.1f} s {r['size_mb']:>7.1f} MB {opened:>9}")
    print("peak memory: the child's own VmHWM (Python, numpy, matplotlib included); opens in: headless Chromium, "
          "until the timeline drew its first moment. Targets for 3 h: <= 300 MB, <= 60 s, <= 10 MB, < 3 s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
