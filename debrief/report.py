"""The debrief report: one self-contained HTML file (plots embedded as base64 PNG, no external assets).

    facts = write_debrief_report("game.sqlite", "report.html")   # -> the DebriefFacts it showed

Sections (each an ``<section id=...>``): ``summary``, ``notes`` (what a cut-off recording lost),
``table`` (trails and engagements on the table), ``engagements``, ``casualties``, ``rolls`` (every die
with its odds), ``emissions`` (signals and who could have located them), ``bookmarks``, ``log`` (every
rule resolution in the ruleset's words) and ``tracker`` (the tracker's events).
"""
from __future__ import annotations

import base64
import datetime as _dt
import html
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from debrief.facts import DebriefFacts, Engagement, EngagementOutcome, Progress, read_debrief_facts, ruleset_front_end
from debrief.plots import OUTCOME_STYLE, TableMap, casualties_png, table_map

SECTIONS = ("summary", "notes", "topics", "table", "timeline", "exposure", "engagements", "casualties", "rolls", "emissions", "bookmarks", "log", "tracker")


#: Makes the timeline section's body: ``timeline(recording, facts, progress, report_dir=folder, replay=replay) -> html``
#: (the class view's ``classview.timeline.report_timeline``, which the command line and the demo pass
#: in: the debrief itself knows no front end; ``report_dir``: where the report goes, for the video's link;
#: ``replay``: the recording already opened for replay, None to open it).
Timeline = Callable[..., str]
NO_TIMELINE = ("<p>No timeline in this report: <code>sandtable debrief RECORDING --out report.html</code> writes the table "
               "moment by moment with play, pause and the next engagement.</p>")


def write_debrief_report(recording: str | Path, out: str | Path, *, progress: Progress | None = None,
                         timeline: Timeline | None = None, exposure: bool = True,
                         contour_interval: float | None = None) -> DebriefFacts:
    """Read ``recording`` and write its report to ``out`` (written whole or not at all); ``exposure``:
    measure how long each unit stood within an enemy weapon's reach (:mod:`debrief.exposure`)."""
    from appmodel.errors import UsageError

    out = Path(out)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"--out {str(out)!r}: folder {str(folder)!r} does not exist; create it first")
    facts = read_debrief_facts(recording, progress=progress)
    # One replay of the game serves the timeline and the exposure (opening one reads the whole recording).
    replay = _replay_of(recording) if timeline is not None or exposure else None
    try:
        body = timeline(recording, facts, progress, report_dir=folder, replay=replay) if timeline is not None else ""
        measured = None
        if exposure:
            from debrief.exposure import exposure_of

            report = progress or (lambda stage, done, total: None)
            measured = exposure_of(recording, facts, progress=lambda done, total: report("exposure", done, total), replay=replay)
    finally:
        if replay is not None:
            replay.close()
            del replay
            # The replayed session and its game states hold reference cycles: freed now, the plots
            # that follow reuse their memory instead of adding to the peak.
            import gc

            gc.collect()
    text = render_report(facts, progress=progress, timeline=body, exposure=measured, contour_interval=contour_interval)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; a report is an ordinary file
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return facts


def _replay_of(recording: str | Path) -> Any:
    """The recording opened for replay, or None when it cannot be (the timeline and the exposure then
    say why, or leave their sections out)."""
    from appmodel.replay_model import ReplayModel

    try:
        return ReplayModel(recording)
    except (ValueError, OSError):
        return None


def render_report(facts: DebriefFacts, *, progress: Progress | None = None, timeline: str = "",
                  exposure: Any = None, contour_interval: float | None = None) -> str:
    """The report of ``facts`` as one HTML document (``timeline``: the table's timeline section's body;
    ``exposure``: a :class:`debrief.exposure.Exposure`, None to leave the section out)."""
    report = progress or (lambda stage, done, total: None)
    report("plots", 0, 2)
    table = table_map(facts, contour_interval=contour_interval)
    report("plots", 1, 2)
    casualties_image = casualties_png(facts)
    report("plots", 2, 2)
    parts = [
        _head(facts),
        _summary(facts),
        _notes(facts),
        _topics(facts),
        _section("table", "The table", f'<p>Each unit\'s movement trail in its side\'s colour (hollow dot: where it started, '
                 f'filled dot: where it ended, dashed: lifted and put down elsewhere); engagements as arrows from shooter '
                 f'to target, coloured by outcome{_symbols_said(table)}.</p>'
                 f'{_map_picture(table, "Map of the table with movement trails and engagements")}'),
        _section("timeline", "The game on the table, moment by moment",
                 timeline + _review(facts) if timeline else NO_TIMELINE),
        _exposure(facts, exposure),
        _engagements(facts),
        _casualties(facts, casualties_image),
        _actions(facts),
        _rolls(facts),
        _emissions(facts),
        _bookmarks(facts),
        _log(facts),
        _tracker(facts),
        "</main></body></html>\n",
    ]
    return "\n".join(parts)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ----------------------------------------------------------------------------------------- pieces
def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def clock(t_s: float) -> str:
    """Session time as m:ss.s.

    >>> clock(75.25)
    '1:15.2'
    """
    minutes, seconds = divmod(max(0.0, float(t_s)), 60.0)
    return f"{int(minutes)}:{seconds:04.1f}"


def _pct(p: float | None) -> str:
    return "—" if p is None else f"{p:.0%}"


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{_e(alt)}">'


def _symbols_said(table: TableMap) -> str:
    return "; each unit's military symbol (MIL-STD-2525) where it ended" if table.symbols else ""


def _map_picture(table: TableMap, alt: str) -> str:
    """The map picture with each unit's symbol laid over it as inline SVG, placed in percentages of
    the picture so it stays on its unit at any width (phone or laptop)."""
    if not table.symbols:
        return _img(table.png, alt)
    marks = "".join(
        f'<div class="sym" title="{_e(s.name)}" style="left:{100 * s.box[0]:.3f}%;top:{100 * s.box[1]:.3f}%;'
        f'width:{100 * s.box[2]:.3f}%;height:{100 * s.box[3]:.3f}%">{s.svg}</div>' for s in table.symbols)
    return f'<div class="map">{_img(table.png, alt)}{marks}</div>'


def _section(name: str, title: str, body: str) -> str:
    return f'<section id="{name}"><h2>{_e(title)}</h2>\n{body}\n</section>'


def _table(headers: Iterable[str], rows: Iterable[Iterable[str]], *, cls: str = "") -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>'


def _unit(facts: DebriefFacts, name: str, side: str) -> str:
    color = facts.color_of(side)
    return f'<span class="unit" style="border-color:{_e(color)}">{_e(name)}</span>'


def _badge(outcome: EngagementOutcome) -> str:
    color = OUTCOME_STYLE[outcome][0]
    return f'<span class="badge" style="background:{_e(color)}">{_e(outcome.value)}</span>'


CSS = """
body { font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #1d1d1d; background: #f6f4ef; margin: 0; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 60px; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 19px; border-bottom: 2px solid #e4dccb; padding-bottom: 4px; margin-top: 34px; }
.meta { color: #555; margin: 0 0 12px; } img { max-width: 100%; height: auto; display: block; margin: 8px 0; }
.map { position: relative; margin: 8px 0; } .map img { margin: 0; width: 100%; }
.map .sym { position: absolute; pointer-events: none; } .map .sym svg { width: 100%; height: 100%; display: block; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 13px; }
table.topic th:nth-child(1) { width: 5em; } table.topic th:nth-child(2) { width: 7em; }  /* topics' tables line up */
th, td { border-bottom: 1px solid #e8e3d8; padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: #f3efe6; position: sticky; top: 0; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.unit { border-left: 4px solid #666; padding-left: 4px; white-space: nowrap; }
.badge { color: #fff; border-radius: 3px; padding: 1px 6px; font-size: 12px; white-space: nowrap; }
.notes { background: #fff4e0; border: 1px solid #f0c36d; padding: 8px 12px; border-radius: 4px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; } .card { background: #f3efe6; border-radius: 6px; padding: 8px 12px; min-width: 130px; }
.card b { display: block; font-size: 20px; } .side { border-left: 6px solid #666; }
.event { margin: 6px 0 10px; } .event .when { color: #666; font-variant-numeric: tabular-nums; }
.warn { color: #a15c00; } details summary { cursor: pointer; color: #2f5d9a; }
.success { color: #1e7a34; font-weight: 600; } .failure { color: #9c2a1b; font-weight: 600; }
/* A phone: a wide table scrolls within its own width instead of widening (and shrinking) the page. */
@media (max-width: 820px) { main { padding: 12px 10px 40px; } table { display: block; overflow-x: auto; } }
"""


def _head(facts: DebriefFacts) -> str:
    made = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    meta = [f"recording <code>{_e(Path(facts.path).name)}</code>"]
    if facts.created_utc:
        meta.append(f"played {_e(facts.created_utc)}")
    meta.append(f"{clock(facts.duration_s)} of play, {facts.frame_count} frames")
    if facts.ruleset:
        meta.append(f"rules: {_e(facts.ruleset)}")
    if facts.source:
        meta.append(f"source: {_e(facts.source)}")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="generator" content="sandtable-companion debrief">'
            f"<title>Debrief: {_e(facts.title)}</title><style>{CSS}</style></head><body><main>"
            f"<h1>Debrief: {_e(facts.title)}</h1><p class=\"meta\">{' · '.join(meta)} · report made {made}</p>")


def _summary(facts: DebriefFacts) -> str:
    down_end = facts.down_at(float("inf"))
    cards = []
    for side in facts.sides:
        units = [u for u in facts.units if u.side == side]
        lost = sum(1 for u in units if u.tag_id in down_end)
        cards.append(f'<div class="card side" style="border-color:{_e(facts.color_of(side))}">{_e(side or "(no side)")}'
                     f"<b>{len(units) - lost} of {len(units)}</b>units still in the fight</div>")
    attacks = len({(e.t_s, e.attacker_id) for e in facts.engagements})
    rolls = facts.rolls()
    counts = [("attacks", attacks), ("rolls", len(rolls)), ("casualties", sum(1 for c in facts.casualties if c.change == "down")),
              *([("emissions", len(facts.emissions))] if facts.emissions_apply else []), ("bookmarks", len(facts.bookmarks)), ("rule resolutions", len(facts.rules))]
    cards += [f'<div class="card">{_e(label)}<b>{n}</b></div>' for label, n in counts]
    body = f'<div class="cards">{"".join(cards)}</div>'
    kills = [e for e in facts.engagements if e.outcome is EngagementOutcome.KILLED and e.p_kill is not None]
    if kills:
        luckiest = min(kills, key=lambda e: e.p_kill or 1.0)
        body += (f"<p>Least likely kill: {_unit(facts, luckiest.attacker_name, luckiest.side)} with the {_e(luckiest.weapon)} "
                 f"on {_unit(facts, luckiest.target_name, luckiest.target_side)} at {clock(luckiest.t_s)} "
                 f"(odds shown before the roll: {_pct(luckiest.p_kill)}).</p>")
    return _section("summary", "Summary", body)


def _notes(facts: DebriefFacts) -> str:
    if not facts.problems:
        return _section("notes", "Notes", "<p>The recording is complete: the session was closed cleanly and nothing is missing.</p>")
    items = "".join(f"<li>{_e(p)}</li>" for p in facts.problems)
    return _section("notes", "Notes: what this recording lacks",
                    f'<div class="notes"><p>The report shows everything that was saved. These parts are missing or damaged:</p>'
                    f"<ul>{items}</ul></div>")


def _engagements(facts: DebriefFacts) -> str:
    if not facts.engagements:
        return _section("engagements", "Engagements", "<p>No attack was resolved in this session.</p>")
    if ruleset_front_end(facts.ruleset).engagement_table != "shots":
        return _procedure_engagements(facts)
    rows = []
    for e in facts.engagements:
        rows.append([clock(e.t_s), _e(e.round if e.round is not None else ""), _unit(facts, e.attacker_name, e.side), _e(e.weapon),
                     _unit(facts, e.target_name, e.target_side) if e.target_id is not None else "<i>nobody hit</i>",
                     _distance(e, "base to base"), f"{e.hits}/{e.shots}", _pct(e.p_hit), _pct(e.p_kill), _badge(e.outcome)])
    return _section("engagements", "Engagements",
                    "<p>Every attack on every target, with the distance the rules measured (base to base, or from a "
                    "blast's centre to a unit it caught) and the odds the players were shown before rolling "
                    "(p(hit) per shot, p(kill) with all the shots spent on that target).</p>"
                    + _table(["time", "round", "shooter", "weapon", "target", "distance (base to base)", "hits", "p(hit)",
                              "p(kill)", "outcome"], rows))


def _distance(e: Engagement, usual: str) -> str:
    """The distance the rules measured; the way it was measured only where it is not the column's."""
    text = e.distance_text()
    if e.distance_in is not None and e.measured == usual:
        return f"{e.distance_in:.1f}\""
    if e.measured == "tracked":  # not what the rules said: an older recording, or a point nobody recorded
        return f"<i>{e.distance_in:.1f}\" (tracked)</i>"
    return _e(text)


def _procedure_engagements(facts: DebriefFacts) -> str:
    """Engagements of a rule system with its own procedure (a Force on Force fire's test, the generic
    rules' shots and close combats): the result in its own words and the odds shown under its names."""
    usual = ruleset_front_end(facts.ruleset).measured
    rows = []
    for e in facts.engagements:
        rows.append([clock(e.t_s), _e(e.round if e.round is not None else ""), _unit(facts, e.attacker_name, e.side),
                     _e(e.weapon), _unit(facts, e.target_name, e.target_side) if e.target_id is not None else "<i>nobody</i>",
                     _distance(e, usual), _e(e.detail), _e(e.odds_text()), _badge(e.outcome)])
    return _section("engagements", "Engagements",
                    "<p>Every fire, shot and close combat on every unit it reached, with the distance the rules "
                    "measured (the number in their sentence) and the odds the players were shown before rolling, "
                    "in the ruleset's words.</p>"
                    + _table(["time", "round", "attacker", "weapon", "target", f"distance ({usual})" if usual else "distance",
                              "result", "odds shown", "outcome"], rows))


def _asset(name: str) -> str:
    from importlib import resources

    return resources.files("debrief").joinpath("static", name).read_text(encoding="utf-8")


def _json_script(value: Any) -> str:
    """JSON safe inside an HTML ``<script>`` element."""
    import json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")


def _review(facts: DebriefFacts) -> str:
    """The after-action review under the table's timeline (``static/aar.js``): pause by itself at the
    kinds of event chosen, filters by side, unit and kind, the events and the comms on lanes under the
    table and in a list beside it. Drives the timeline's player (``window.classTimeline``)."""
    from debrief.aar import aar_data

    return (f'<div class="aar" id="aar" aria-label="After-action review">'
            f'<div class="lanes"><div class="lane events" data-lane="events"><span class="name">Events</span></div>'
            f'<div class="lane comms" data-lane="comms"><span class="name">Comms</span></div></div>'
            f'<div class="choices"><fieldset class="pause"><legend>Pause at</legend></fieldset>'
            f'<fieldset class="show"><legend>Show</legend><span class="sides"></span> '
            f'<label>unit <select class="unit"><option value="">every unit</option></select></label> '
            f'<span class="kinds"></span></fieldset></div>'
            f'<div class="lists"><div><h3>Events <small class="count"></small></h3><ol class="events"></ol></div>'
            f'<div><h3>Comms: who signalled whom, what jamming cut</h3><ol class="comms"></ol></div></div></div>'
            f"<style>{_asset('aar.css')}</style>"
            f'<script type="application/json" id="aar-data">{_json_script(aar_data(facts))}</script>'
            f"<script>{_asset('aar.js')}</script>"
            f'<script>window.classReview = AfterActionReview.init(document.getElementById("aar"), window.classTimeline, '
            f'JSON.parse(document.getElementById("aar-data").textContent));</script>')


def _exposure(facts: DebriefFacts, exposure: Any) -> str:
    if exposure is None:
        return ""
    from debrief.plots import exposure_png

    rows = []
    for u in sorted(exposure.units, key=lambda u: (-u.share, u.name)):
        rows.append([_unit(facts, u.name, u.side), _e(u.side), f'<span class="num">{clock(u.exposed_s)}</span>',
                     f'<span class="num">{clock(u.on_table_s)}</span>', f"{u.share:.0%}", _e(u.most_from or "—")])
    intro = (f"<p>How long each unit stood within reach of an enemy weapon: in its range, a weapon that can hurt it, "
             f"with a line of sight ({_e(exposure.line_of_sight)}). Facing is not held against the shooter (a unit turns to "
             f"fire). Measured from the rules' own target proposal every {exposure.step_s:g} s "
             f"({exposure.samples} moments); times are multiples of that step.</p>")
    table = _table(["unit", "side", "in enemy reach", "on the table", "share", "longest in reach of"], rows)
    return _section("exposure", "Exposure: time in the enemy's reach",
                    intro + _img(exposure_png(facts, exposure), "Heat maps of the table per side: where units were in enemy "
                                 "reach, where fire came from, where it landed") + table)


def _casualties(facts: DebriefFacts, png: bytes) -> str:
    rows = [[clock(c.t_s), _unit(facts, c.name, c.side), _e(c.change), _e(c.cause)] for c in facts.casualties]
    listing = _table(["time", "unit", "what", "how"], rows) if rows else "<p>Nobody was hurt.</p>"
    return _section("casualties", "Casualties over time", _img(png, "Units out of the fight per side over time") + listing)


def _rolls(facts: DebriefFacts) -> str:
    rows = []
    for fact, roll in facts.rolls():
        rolled = "—" if roll.total is None else str(roll.total)
        if roll.faces and roll.total is not None and (len(roll.faces) > 1 or roll.faces[0] != roll.total):
            faces = ", ".join(str(f) for f in roll.faces)
            rolled = f"({faces}) → {roll.total}" if len(roll.faces) > 1 else f"{faces} → {roll.total}"
        cls = "success" if roll.success else ("failure" if roll.success is False else "")
        odds = roll.p_text + (f" <small>{_e(roll.odds_note)}</small>" if roll.odds_note and roll.p_success is not None else "")
        rows.append([clock(fact.t_s), _e(roll.label), _e(roll.dice), _e(roll.needed), odds, _e(rolled),
                     f'<span class="{cls}">{_e(roll.result)}</span>'])
    if not rows:
        return _section("rolls", "Every roll", "<p>No dice were rolled.</p>")
    return _section("rolls", "Every roll, with its odds",
                    "<p>The chance each roll had before it was made, computed exactly from the dice, modifiers and "
                    "target number it was rolled with.</p>"
                    + _table(["time", "roll", "dice", "against", "odds", "rolled", "result"], rows, cls="rolls"))


def _actions(facts: DebriefFacts) -> str:
    """Treatments and who was saved, Signals and who heard them, jamming and what it cut, boardings."""
    if not facts.actions:
        return _section("actions", "Other actions", "<p>No action besides attacks was resolved.</p>")
    rows = []
    for a in facts.actions:
        odds = "; ".join(f"{o.get('name', '')}: {(o.get('legend') or {}).get('hit', 'succeeds')} {_pct(o.get('p_hit'))}"
                         + (" (" + ", ".join(f"{label} {_pct(p)}" for label, p in o.get("outcomes", [])) + ")"
                            if o.get("outcomes") else "") for o in a.odds) or "—"
        rows.append([clock(a.t_s), _e(a.round if a.round is not None else ""), _e(a.side or ""),
                     "<br>".join(_e(w) for w in a.words), _e(odds)])
    return _section("actions", "Other actions",
                    "<p>Treatments and repairs, task rolls, Signals and who heard them, jamming and what it cut, "
                    "boardings and the rest, in the rules' words, with the odds shown before the roll.</p>"
                    + _table(["time", "round", "side", "what happened", "odds before the roll"], rows))


def _emissions(facts: DebriefFacts) -> str:
    if not facts.emissions_apply:
        return ""
    if not facts.emissions:
        return _section("emissions", "Signals and emissions", "<p>Nobody Signalled: no emission token was put on the table.</p>")
    rows = []
    for m in facts.emissions:
        until = clock(m.until_t_s) if m.until_t_s is not None else "end of the recording"
        rows.append([clock(m.t_s), _unit(facts, m.name, m.side), _e(m.purpose), until, _e(m.note)])
    return _section("emissions", "Signals and emissions",
                    "<p>Who emitted, for how long the emission token stood, and which enemy electronic-warfare unit "
                    "could have located the emitter with signals intelligence.</p>"
                    + _table(["time", "emitter", "why", "token until", "could be located?"], rows))


def _bookmarks(facts: DebriefFacts) -> str:
    if not facts.bookmarks:
        return _section("bookmarks", "Instructor bookmarks", "<p>No bookmarks were set during play.</p>")
    rows = []
    for i, b in enumerate(facts.bookmarks, 1):
        nearby = [r for r in facts.rules if abs(r.t_s - b.t_s) <= 5.0 and r.kind not in ("turn", "initiative")]
        closest = min(nearby, key=lambda r: abs(r.t_s - b.t_s), default=None)
        context = f"{clock(closest.t_s)}: {(closest.sentences or (closest.summary,))[0]}" if closest else ""
        rows.append([f"B{i}", clock(b.t_s), _e(b.note), _e(b.topic), _e(context)])
    return _section("bookmarks", "Instructor bookmarks",
                    _table(["", "time", "note", "topic", "what was resolved around then"], rows))


def _topics(facts: DebriefFacts) -> str:
    """The debrief by topic: each planned review topic with its bookmarks and matching events, in time order."""
    if not facts.topics:
        return _section("topics", "Review topics",
                        "<p>No review topics were planned (a scenario's <code>[[review_topics]]</code>), and no "
                        "bookmark was attached to one.</p>")
    parts = ["<p>What the instructor planned to look at, each with the bookmarks attached to it during play "
             "and the recorded events that match it.</p>"]
    for topic in facts.topics:
        parts.append(f'<h3>{_e(topic.name)} <small>({_e(topic.criteria)})</small></h3>')
        if not topic.moments:
            parts.append("<p>Nothing was recorded for this topic.</p>")
            continue
        rows = [[clock(m.t_s), "bookmark" if m.source == "bookmark" else _e(m.source),
                 f"<b>{_e(m.text)}</b>" if m.source == "bookmark" else _e(m.text)] for m in topic.moments]
        parts.append(_table(["time", "what", "moment"], rows, cls="topic"))
    return _section("topics", "Review topics", "\n".join(parts))


def _log(facts: DebriefFacts) -> str:
    if not facts.rules:
        return _section("log", "Game log", "<p>No rule resolutions were recorded (tracking only).</p>")
    items = []
    for r in facts.rules:
        head = f'<span class="when">{clock(r.t_s)}</span>'
        if r.round:
            head += f" · round {r.round}"
        if r.side:
            head += f" · {_e(r.side)}"
        head += f" · <b>{_e(r.kind)}</b>"
        body = " ".join(_e(s) for s in r.sentences) if r.sentences else _e(r.summary)
        warn = "".join(f'<div class="warn">⚠ {_e(w)}</div>' for w in r.warnings)
        items.append(f'<div class="event">{head}<br>{body}{warn}</div>')
    return _section("log", "Game log", "\n".join(items))


def _tracker(facts: DebriefFacts) -> str:
    events = facts.tracker_events
    if not events:
        return _section("tracker", "Tracker events", "<p>No tracker events were recorded.</p>")
    kinds: dict[str, int] = {}
    for e in events:
        kinds[e.kind.words] = kinds.get(e.kind.words, 0) + 1
    summary = ", ".join(f"{k}: {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    rows = []
    for e in events:
        p = e.payload
        where = f"({p['x_in']:.1f}, {p['y_in']:.1f})" if "x_in" in p and "y_in" in p else ""
        extra = f"{p['distance']:.1f}\"" if isinstance(p.get("distance"), (int, float)) else _e(p.get("message") or p.get("hint") or "")
        rows.append([clock(e.t_s), _e(e.kind.words), _e(e.name or (e.tag_id if e.tag_id is not None else "")), where, extra])
    return _section("tracker", "Tracker events",
                    f"<p>{_e(summary)}.</p><details><summary>All {len(events)} events</summary>"
                    + _table(["time", "event", "unit", "where (in)", "detail"], rows) + "</details>")

