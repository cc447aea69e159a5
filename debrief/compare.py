"""Two runs of one scenario side by side: one self-contained HTML report (Qt-free).

    write_comparison(["group_a.sqlite", "group_b.sqlite"], "compare.html")

What an instructor compares between two groups who played the same scenario: how long each took to
first contact (the first engagement), casualties per side over time (both runs on one plot: solid
the first, dashed the second), the rolls that decided it (the least likely kills and hits of each
run, with the odds the players were shown), and exposure when the recordings' facts carry it.

Two recordings of different scenarios are refused (``ScenarioMismatch``) unless ``force=True``: a
comparison of different games reads as a comparison of the groups.
"""
from __future__ import annotations

import dataclasses
import html
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appmodel.errors import UsageError
from debrief.facts import DebriefFacts, Engagement, EngagementOutcome, Progress, read_debrief_facts
from debrief.plots import OUTCOME_STYLE
from debrief.report import CSS, clock

#: Outcomes that went the attacker's way (what "decided it" looks for).
_SUCCESSES = (EngagementOutcome.KILLED, EngagementOutcome.HIT, EngagementOutcome.WON)
#: Line styles of the first and second run on the shared casualty plot.
RUN_STYLES = ("-", "--")


class ScenarioMismatch(UsageError):
    """The two recordings are not the same scenario."""


@dataclass(frozen=True)
class DecidingEngagement:
    """An attack that went the attacker's way against the odds: ``chance`` of what happened, as shown."""

    engagement: Engagement
    chance: float


@dataclass(frozen=True)
class RunSummary:
    label: str  # "A", "B"
    facts: DebriefFacts
    first_contact: Engagement | None
    deciding: tuple[DecidingEngagement, ...]
    #: How long each unit stood exposed, when the debrief measures it (None: this build does not).
    exposure: Any = None

    @property
    def first_contact_t_s(self) -> float | None:
        return None if self.first_contact is None else self.first_contact.t_s

    @property
    def name(self) -> str:
        return Path(self.facts.path).name

    def out_of_the_fight(self) -> dict[str, int]:
        """Per side, how many units were out of the fight at the end."""
        return {side: curve[-1][1] for side, curve in self.facts.casualties_over_time().items()}


def first_contact(facts: DebriefFacts) -> Engagement | None:
    """The first engagement of the session (None: nobody fired)."""
    return min(facts.engagements, key=lambda e: e.t_s, default=None)


def deciding_engagements(facts: DebriefFacts, *, count: int = 5) -> tuple[DecidingEngagement, ...]:
    """The least likely kills and hits: successes with the lowest chance shown before the roll (the
    chance of a kill for a kill, of a hit otherwise)."""
    found = []
    for e in facts.engagements:
        if e.outcome not in _SUCCESSES:
            continue
        chance = e.p_kill if e.outcome is EngagementOutcome.KILLED and e.p_kill is not None else e.p_hit
        if chance is not None:
            found.append(DecidingEngagement(e, float(chance)))
    found.sort(key=lambda d: (d.chance, d.engagement.t_s))
    return tuple(found[:count])


def scenario_of(facts: DebriefFacts) -> tuple[str, str, frozenset[tuple[int, str, str]]]:
    """What makes two recordings the same scenario: its name, its rules and its roster."""
    return facts.title, facts.ruleset, frozenset((u.tag_id, u.name, u.side) for u in facts.units)


def summarise(facts: DebriefFacts, label: str, exposure: Any = None) -> RunSummary:
    return RunSummary(label, facts, first_contact(facts), deciding_engagements(facts), exposure)


def exposure_of(recording: str | Path, facts: DebriefFacts) -> Any:
    """The run's exposure if the debrief measures it: a facts field, or the exposure module (issue 30's
    item 4, written in parallel); None when neither exists in this build."""
    carried = getattr(facts, "exposure", None)
    if carried is not None:
        return carried
    try:
        from debrief import exposure as measure  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    return measure.exposure_of(recording, facts)


def compare(first: DebriefFacts, second: DebriefFacts, *, force: bool = False,
            exposures: tuple[Any, Any] = (None, None)) -> tuple[RunSummary, RunSummary]:
    """The two runs summarised; ``ScenarioMismatch`` if they are different scenarios and not ``force``."""
    if not force and scenario_of(first) != scenario_of(second):
        a, b = Path(first.path).name, Path(second.path).name
        if scenario_of(first)[:2] != scenario_of(second)[:2]:  # the name or the rules differ, not only the roster
            what = f"{a} is {first.title!r} ({first.ruleset or 'no rules'}), {b} is {second.title!r} ({second.ruleset or 'no rules'})"
        else:
            what = f"{a} and {b} are both {first.title!r} but with different rosters"
        raise ScenarioMismatch(f"{what}: not the same scenario; compare two runs of one scenario, or add --force")
    return summarise(first, "A", exposures[0]), summarise(second, "B", exposures[1])


def write_comparison(recordings: Sequence[str | Path], out: str | Path, *, force: bool = False,
                     progress: Progress | None = None) -> tuple[RunSummary, RunSummary]:
    """Read two recordings and write their comparison to ``out`` (written whole or not at all)."""
    if len(recordings) != 2:
        raise UsageError(f"--compare takes exactly two recordings (got {len(recordings)}), e.g. "
                         "sandtable debrief A.sqlite B.sqlite --compare --out cmp.html")
    out = Path(out)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"--out {str(out)!r}: folder {str(folder)!r} does not exist; create it first")
    for recording in recordings:
        if Path(recording).resolve() == out.resolve():
            raise UsageError(f"--out {str(out)!r}: that is a recording itself; choose a .html file")
    first = read_debrief_facts(recordings[0], progress=_staged(progress, "A: "))
    second = read_debrief_facts(recordings[1], progress=_staged(progress, "B: "))
    compare(first, second, force=force)  # refused before measuring anything more
    runs = compare(first, second, force=force,
                   exposures=(exposure_of(recordings[0], first), exposure_of(recordings[1], second)))
    text = render_comparison(*runs)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a report is an ordinary file
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return runs


def _staged(progress: Progress | None, prefix: str) -> Progress | None:
    if progress is None:
        return None
    return lambda stage, done, total: progress(prefix + stage, done, total)


# ------------------------------------------------------------------------------------------ the page
def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def casualties_compared_png(a: RunSummary, b: RunSummary) -> bytes:
    """Units out of the fight per side over time, both runs on one plot (A solid, B dashed), first
    contact of each marked."""
    from debrief.plots import _png, _pyplot

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(11, 4.0))
    end = max(a.facts.duration_s, b.facts.duration_s, 1.0)
    top = 1
    for run, style in zip((a, b), RUN_STYLES):
        for side, curve in run.facts.casualties_over_time().items():
            xs = [t for t, _ in curve] + [max(run.facts.duration_s, curve[-1][0])]
            ys = [n for _, n in curve] + [curve[-1][1]]
            top = max(top, max(ys))
            ax.step(xs, ys, where="post", color=run.facts.color_of(side), linestyle=style, linewidth=2,
                    label=f"{run.label}: {side or '(no side)'}")
        if run.first_contact_t_s is not None:
            ax.axvline(run.first_contact_t_s, color="#e67e22", linestyle=style, linewidth=1.2, zorder=0)
            # written up the line, left of it: two runs' first contacts close together stay apart
            ax.annotate(f"{run.label}: first contact", (run.first_contact_t_s, 0.15), xytext=(-3, 0),
                        textcoords="offset points", rotation=90, ha="right", va="bottom", fontsize=8, color="#9a5410")
    ax.set_xlim(0, end)
    ax.set_ylim(0, top + 0.9)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("session time (s)")
    ax.set_ylabel("units out of the fight")
    ax.set_title("Casualties over time: run A solid, run B dashed (orange: first contact)", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=8, frameon=False, ncol=4)
    ax.grid(axis="y", color="#dddddd")
    return _png(fig)


def render_comparison(a: RunSummary, b: RunSummary) -> str:
    import base64

    png = base64.b64encode(casualties_compared_png(a, b)).decode("ascii")
    title = a.facts.title if a.facts.title == b.facts.title else f"{a.facts.title} / {b.facts.title}"
    parts = [f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
             f'<meta name="viewport" content="width=device-width, initial-scale=1">'
             f'<meta name="generator" content="sandtable-companion debrief --compare">'
             f"<title>Two runs compared: {_e(title)}</title><style>{CSS}{_CSS}</style></head><body><main>"
             f"<h1>Two runs compared: {_e(title)}</h1>"
             f'<p class="meta">run A <code>{_e(a.name)}</code> · run B <code>{_e(b.name)}</code>'
             f"{' · rules: ' + _e(a.facts.ruleset) if a.facts.ruleset else ''}</p>"]
    if scenario_of(a.facts) != scenario_of(b.facts):
        parts.append('<p class="notes">These recordings are not the same scenario (compared with --force): '
                     "differences between them are not only the groups'.</p>")
    parts.append(_section("summary", "At a glance", _glance(a, b)))
    parts.append(_section("casualties", "Casualties over time",
                          f'<img src="data:image/png;base64,{png}" alt="Units out of the fight per side over time, both runs">'))
    parts.append(_section("deciding", "The rolls that decided it",
                          "<p>The least likely kills and hits of each run: attacks that went the attacker's way with the "
                          "lowest chance the players were shown before rolling.</p>"
                          + '<div class="runs">' + "".join(_deciding(r) for r in (a, b)) + "</div>"))
    exposure = _exposure(a, b)
    if exposure:
        parts.append(_section("exposure", "Exposure", exposure))
    parts.append("</main></body></html>")
    return "\n".join(parts)


_CSS = """
.runs { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; } .runs h3 { margin: 6px 0; font-size: 16px; }
@media (max-width: 800px) { .runs { grid-template-columns: 1fr; } }
td.a, th.a { background: #f4f8fc; } td.b, th.b { background: #fcf6ef; }
"""


def _section(name: str, title: str, body: str) -> str:
    return f'<section id="{name}"><h2>{_e(title)}</h2>\n{body}\n</section>'


def _glance(a: RunSummary, b: RunSummary) -> str:
    def contact(run: RunSummary) -> str:
        e = run.first_contact
        if e is None:
            return "no contact: nobody fired"
        return (f"<b>{clock(e.t_s)}</b> — {_e(e.attacker_name)} fired at {_e(e.target_name)} "
                f"({_e(e.weapon)}): {_e(e.outcome.value)}")

    def losses(run: RunSummary) -> str:
        counts = run.out_of_the_fight()
        return ", ".join(f"{_e(side or '(no side)')} {n}" for side, n in counts.items()) or "—"

    def kills(run: RunSummary) -> int:
        return sum(e.outcome is EngagementOutcome.KILLED for e in run.facts.engagements)

    rows = [
        ("recording", _e(a.name), _e(b.name)),
        ("played", _when(a.facts.created_utc), _when(b.facts.created_utc)),
        ("length of play", clock(a.facts.duration_s), clock(b.facts.duration_s)),
        ("time to first contact", contact(a), contact(b)),
        ("attacks", str(len({(e.t_s, e.attacker_id) for e in a.facts.engagements})),
         str(len({(e.t_s, e.attacker_id) for e in b.facts.engagements}))),
        ("kills", str(kills(a)), str(kills(b))),
        ("out of the fight at the end", losses(a), losses(b)),
    ]
    body = "\n".join(f'<tr><th>{what}</th><td class="a">{x}</td><td class="b">{y}</td></tr>' for what, x, y in rows)
    return (f'<table class="glance"><thead><tr><th></th><th class="a">run A</th><th class="b">run B</th></tr></thead>'
            f"<tbody>{body}</tbody></table>")


def _when(created_utc: str) -> str:
    """"2026-11-28 14:26 UTC" from the recording's ISO time (the ISO form does not wrap on a phone).

    >>> _when("2026-11-28T14:26:31+00:00")
    '2026-11-28 14:26 UTC'
    """
    if not created_utc:
        return "—"
    return _e(created_utc[:16].replace("T", " ") + " UTC" if "T" in created_utc else created_utc)


def _deciding(run: RunSummary) -> str:
    head = f"<h3>Run {run.label}: <code>{_e(run.name)}</code></h3>"
    if not run.deciding:
        return f"<div>{head}<p>No kill or hit with odds shown in this run.</p></div>"
    rows = []
    for d in run.deciding:
        e = d.engagement
        color = OUTCOME_STYLE[e.outcome][0]
        rows.append(f"<tr><td>{clock(e.t_s)}</td><td>{_e(e.attacker_name)} → {_e(e.target_name)}"
                    f"<br><small>{_e(e.weapon)}</small></td><td>{d.chance:.0%}<br><small>{_e(e.odds_text())}</small></td>"
                    f'<td><span class="badge" style="background:{_e(color)}">{_e(e.outcome.value)}</span></td></tr>')
    return (f"<div>{head}<table><thead><tr><th>time</th><th>attack</th><th>chance</th><th>outcome</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _exposure(a: RunSummary, b: RunSummary) -> str:
    """Exposure per unit, when the facts carry it (a later DebriefFacts field): shown as its own rows,
    whatever their fields, so that this page follows the facts rather than guessing their shape."""
    runs = [(r, getattr(r.exposure, "units", r.exposure)) for r in (a, b)]
    if all(not value for _, value in runs):
        return ""
    parts = []
    assumed = getattr(a.exposure, "line_of_sight", "") or getattr(b.exposure, "line_of_sight", "")
    if assumed:
        parts.append(f"<p>Line of sight: {_e(assumed)}</p>")
    for run, value in runs:
        parts.append(f"<div><h3>Run {run.label}</h3>{_rows_of(value)}</div>")
    return parts[0] + '<div class="runs">' + "".join(parts[1:]) + "</div>" if assumed else \
        '<div class="runs">' + "".join(parts) + "</div>"


def _rows_of(value: Any) -> str:
    if not value:
        return "<p>Not recorded.</p>"
    items = list(value.values()) if isinstance(value, dict) else list(value) if isinstance(value, (list, tuple)) else [value]
    if not items or not dataclasses.is_dataclass(items[0]):
        return "<ul>" + "".join(f"<li>{_e(item)}</li>" for item in items) + "</ul>"
    names = [f.name for f in dataclasses.fields(items[0]) if _simple(getattr(items[0], f.name))]
    head = "".join(f"<th>{_e(n.replace('_', ' '))}</th>" for n in names)
    body = "".join("<tr>" + "".join(f"<td>{_fmt(getattr(item, n, ''))}</td>" for n in names) + "</tr>" for item in items)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _simple(value: Any) -> bool:
    return isinstance(value, (str, int, float)) or value is None


def _fmt(value: Any) -> str:
    return _e(f"{value:.1f}" if isinstance(value, float) else ("" if value is None else value))


__all__ = ["RunSummary", "DecidingEngagement", "ScenarioMismatch", "compare", "deciding_engagements", "first_contact",
           "render_comparison", "scenario_of", "summarise", "write_comparison"]
