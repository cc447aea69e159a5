"""`sandtable debrief RECORDING --out report.html`: the session's debrief as one self-contained HTML file.

    sandtable debrief game.sqlite --out report.html
    sandtable debrief --example --out example.html      # the rulebook's in-depth example, no recording needed
    sandtable debrief game.sqlite --pdf pack.pdf         # the take-home pack: a printable PDF
    sandtable debrief A.sqlite B.sqlite --compare --out cmp.html   # two runs of one scenario side by side

The report shows the table with every unit's trail, engagements coloured by outcome, casualties over
time, every roll with its odds, signals and emissions, and the instructor's bookmarks (docs/debrief.md).
A recording that was cut off still reports, with a note of what is missing. Progress goes to stderr.
"""
from __future__ import annotations

import argparse

NAME = "debrief"
HELP = "Write the debrief report (self-contained HTML) of a recorded session."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recording", nargs="*", metavar="RECORDING",
                        help="the session's recording (.sqlite); two with --compare")
    parser.add_argument("--out", metavar="FILE", help="where to write the report (default: RECORDING with .html)")
    parser.add_argument("--example", action="store_true",
                        help="report on the rulebook's in-depth example (recorded for you next to --out)")
    parser.add_argument("--pdf", metavar="FILE", help="also print the take-home pack (PDF) to FILE")
    parser.add_argument("--paper", choices=("letter", "a4"), default="letter", help="the pack's paper (default letter)")
    parser.add_argument("--compare", action="store_true",
                        help="compare two recordings of the same scenario in one HTML report (--out)")
    parser.add_argument("--force", action="store_true", help="with --compare: compare even different scenarios")
    parser.add_argument("--contour-interval", type=float, metavar="N",
                        help="the map's contour lines every N: metres of the map when the scenario's target terrain "
                             "has a scale, else table inches (default: the interval the window drew, kept in the recording; else about "
                             "ten lines over its relief)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from appmodel.errors import UsageError
    from classview.timeline import report_timeline
    from debrief.report import write_debrief_report

    if args.contour_interval is not None and not 0 < args.contour_interval < float("inf"):
        raise UsageError(f"--contour-interval {args.contour_interval:g}: give a positive interval, e.g. --contour-interval 5 "
                         "(metres of a scaled map) or 0.3 (table inches)")
    bar = _Bar(enabled=not args.no_progress)
    if args.compare:
        return _compare(args, bar)
    if args.force:
        raise UsageError("--force only applies to --compare (comparing recordings of different scenarios)")
    if len(args.recording) > 1:
        raise UsageError(f"{len(args.recording)} recordings given: one per report, or two with --compare "
                         "(sandtable debrief A.sqlite B.sqlite --compare --out cmp.html)")
    if args.example == bool(args.recording):
        raise UsageError("give a RECORDING (e.g. sandtable debrief game.sqlite --out report.html) or --example, not both")
    if args.example:
        from demo.example_recording import record_in_depth_example

        out = Path(args.out or "in-depth-example.html")
        recording = out.with_suffix(".sqlite")
        if recording.exists():
            raise UsageError(f"{recording} exists; remove it or choose another --out (a recording is never overwritten)")
        if not (out.parent if str(out.parent) else Path(".")).is_dir():
            raise UsageError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not exist; create it first")
        record_in_depth_example(recording, progress=lambda done, total: bar("recording the example", done, total))
    else:
        recording = Path(args.recording[0])
        if args.pdf and not args.out:  # --pdf alone: just the pack
            return _pack(recording, Path(args.pdf), args.paper, bar, args.contour_interval)
        out = Path(args.out) if args.out else recording.with_suffix(".html")
        if out.resolve() == recording.resolve():
            raise UsageError(f"--out {args.out}: that is the recording itself; choose a .html file")
    if args.pdf:
        _check_pdf(recording, Path(args.pdf))
    facts = write_debrief_report(recording, out, progress=bar, timeline=report_timeline,
                                 contour_interval=args.contour_interval)
    bar.done()
    for problem in facts.problems:
        print(f"note: {problem}", file=sys.stderr)
    attacks = len({(e.t_s, e.attacker_id) for e in facts.engagements})
    counts = ", ".join(_counted(n, word) for n, word in ((len(facts.units), "unit"), (attacks, "attack"),
                                                         (len(facts.rolls()), "roll"), (len(facts.emissions), "emission"),
                                                         (len(facts.bookmarks), "bookmark")))
    print(f"wrote {out}: {facts.title}, {facts.duration_s:.0f} s, {counts}")
    if args.pdf:
        return _pack(recording, Path(args.pdf), args.paper, bar, args.contour_interval)
    return 0


def _check_pdf(recording, pdf) -> None:
    from appmodel.errors import UsageError

    if pdf.resolve() == recording.resolve():
        raise UsageError(f"--pdf {str(pdf)!r}: that is the recording itself; choose a .pdf file")


def _pack(recording, pdf, paper: str, bar: "_Bar", contour_interval: float | None = None) -> int:
    import sys

    from cli.debrief_pack import write_debrief_pack

    _check_pdf(recording, pdf)
    facts, summary = write_debrief_pack(recording, pdf, paper=paper, progress=bar, contour_interval=contour_interval)
    bar.done()
    for problem in facts.problems:
        print(f"note: {problem}", file=sys.stderr)
    print(f"wrote {pdf}: the take-home pack of {facts.title}, {summary.pages} pages, "
          f"{len(facts.engagements)} engagements, {len(facts.bookmarks)} bookmarks")
    return 0


def _compare(args: argparse.Namespace, bar: "_Bar") -> int:
    from pathlib import Path

    from appmodel.errors import UsageError
    from debrief.compare import write_comparison

    if args.example or args.pdf:
        raise UsageError("--compare takes two recordings and --out; --example and --pdf are for one recording")
    if len(args.recording) != 2:
        raise UsageError(f"--compare takes exactly two recordings (got {len(args.recording)}), e.g. "
                         "sandtable debrief A.sqlite B.sqlite --compare --out cmp.html")
    out = Path(args.out or "comparison.html")
    a, b = write_comparison(args.recording, out, force=args.force, progress=bar)
    bar.done()

    def contact(run) -> str:
        from debrief.report import clock

        return "no contact" if run.first_contact_t_s is None else f"first contact {clock(run.first_contact_t_s)}"

    print(f"wrote {out}: {a.facts.title}, run A {a.name} ({contact(a)}) beside run B {b.name} ({contact(b)})")
    return 0


class _Bar:
    """One progress line on stderr per stage, redrawn at most five times a second."""

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        self.stage = ""
        self.last = 0.0
        self.drawn = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        import sys
        import time

        if not self.enabled:
            return
        now = time.monotonic()
        if stage == self.stage and now - self.last < 0.2 and done < total:
            return
        self.last = now
        if stage != self.stage and self.drawn:
            sys.stderr.write("\n")
        self.stage = stage
        filled = int(30 * done / total) if total else 30
        sys.stderr.write(f"\r{stage:<22} [{'#' * filled}{'-' * (30 - filled)}] {done}/{total}")
        sys.stderr.flush()
        self.drawn = True

    def done(self) -> None:
        import sys

        if self.enabled and self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _counted(n: int, word: str) -> str:
    """``1 attack``, ``2 attacks``, ``0 bookmarks``."""
    return f"{n} {word}" + ("" if n == 1 else "s")
