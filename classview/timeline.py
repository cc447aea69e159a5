"""A recording as a timeline of class-view scenes, for the debrief's scrubbable table.

The replay model puts the session where it was at each sampled moment (units where the tracker saw
them, the rules state, the selection and the log as recorded); the scene builder draws each moment's
draw items, exactly as the live class view does. To keep one offline file small the timeline is
*thinned*: every distinct item, label and unit row is stored once and each frame lists the indexes it
shows; a frame identical to the one before is dropped; the log is stored once and each frame says how
many lines of it had been written. ``static/scrub.js`` turns it back into scenes for the same
renderer.

    timeline = build_timeline("game.sqlite", engagement_times=[12.0, 40.5])
"""
from __future__ import annotations

import bisect
import html
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from classview.scene import SceneBuilder, class_layers, last_roll_json, log_json

#: Samples at most this often (seconds) and never more than ``MAX_FRAMES`` for a whole game (a
#: three-hour game is sampled every 7 s, plus every moment something was decided).
STEP_S = 0.5
MAX_FRAMES = 1500

Progress = Callable[[int, int], None]


class _Interned:
    """Values stored once, referred to by index."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True, separators=(",", ":"))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.values)
            self.values.append(value)
        return found


def sample_times(duration_s: float, moments: Iterable[float], *, step_s: float = STEP_S,
                 max_frames: int = MAX_FRAMES) -> list[float]:
    """When to sample a recording: evenly (``step_s``, coarser for long games) and just after every
    moment something was decided, so each decision's picture is in the timeline.

    >>> sample_times(2.0, [0.7])
    [0.0, 0.5, 0.7, 1.0, 1.5, 2.0]
    """
    step = max(step_s, duration_s / max_frames) if duration_s > 0 else step_s
    times = {round(k * step, 3) for k in range(int(duration_s / step) + 1)}
    times.add(round(duration_s, 3))
    times.update(round(t, 3) for t in moments if 0.0 <= t <= duration_s)
    return sorted(times)


def build_timeline(recording: str | Path, *, engagement_times: Sequence[float] = (),
                   toggles: Any = None, progress: Progress | None = None) -> dict[str, Any]:
    """The thinned timeline of ``recording`` (JSON-ready)."""
    from appmodel.replay_model import ReplayModel

    replay = ReplayModel(recording)
    try:
        return _timeline(replay, engagement_times, toggles, progress)
    finally:
        replay.close()


def _timeline(replay: Any, engagement_times: Sequence[float], toggles: Any,
              progress: Progress | None) -> dict[str, Any]:
    builder = SceneBuilder(class_layers(toggles))
    recorded = _recorded_events(replay)
    event_times = [t for t, _ in recorded]
    # A recording made without the companion's session (``sandtable track``, the example) holds the
    # rules' events but no states or log lines: the card, the round and the log then come from them.
    from_events = bool(recorded) and not replay.log_at(replay.duration_s)
    log_source = [_EventLine(t, e) for t, e in recorded] if from_events else None
    items, labels, units, texts = _Interned(), _Interned(), _Interned(), _Interned()
    times = sample_times(replay.duration_s, [m.t_s for m in replay.moments] + list(engagement_times))
    frames: list[dict[str, Any]] = []
    last_key: Any = None
    scene: dict[str, Any] = {}
    for k, t in enumerate(times):
        replay.seek(t)
        scene = builder.scene(replay.session.snapshot(), replay.session.log, t_s=t)
        n_log = len(replay.session.log)
        if from_events:
            upto = bisect.bisect_right(event_times, t + 1e-6)
            scene["roll"] = _roll_before(recorded[:upto], getattr(replay.session, "ruleset", None))
            if upto and not scene["turn"]["round"]:
                last = recorded[upto - 1][1]
                # Whose turn it was is not in such a recording: the round is.
                scene["turn"] = {"round": last.round, "side": None, "order": [], "text": f"Round {last.round}"}
            n_log = upto
        frame = {"i": [items.add(i) for i in scene["items"]], "l": [labels.add(label) for label in scene["labels"]],
                 "u": [units.add(u) for u in scene["units"]], "turn": texts.add(scene["turn"]),
                 "roll": texts.add(scene["roll"]), "n": n_log}
        key = json.dumps(frame, sort_keys=True)
        if key != last_key:
            frames.append({"t_s": t, **frame})
            last_key = key
        if progress is not None:
            progress(k + 1, len(times))
    log = log_json(log_source if log_source is not None else replay.session.log, tail=None)
    return {"table_in": scene.get("table_in", [72.0, 48.0]), "font_in": scene.get("font_in", 0.7),
            "duration_s": round(replay.duration_s, 3), "items": items.values, "labels": labels.values,
            "units": units.values, "texts": texts.values, "frames": frames, "log": log,
            "engagements": sorted(round(float(t), 3) for t in engagement_times)}


class _EventLine:
    """A recorded rules event as a log line."""

    def __init__(self, t_s: float, event: Any) -> None:
        self.t_s, self.kind, self.text, self.round = t_s, "warning" if event.warnings else "rules", event.summary, event.round


def _recorded_events(replay: Any) -> list[tuple[float, Any]]:
    """The rules' own events in the recording, with their times."""
    from dataclasses import fields

    from rules.events import RulesEvent

    names = {f.name for f in fields(RulesEvent)}
    out = []
    for r in replay.reader.rules_events():
        payload = r.payload if isinstance(r.payload, dict) else {}
        # The session records {"event": ...}; the tracker-side recorders the event itself (with odds).
        data = payload.get("event") if isinstance(payload.get("event"), dict) else payload
        if "summary" in data and "seq" in data:
            data = {k: v for k, v in data.items() if k in names}
            try:
                out.append((float(r.t_s), RulesEvent.from_json(data)))
            except Exception:  # an event this version cannot read is left out, not fatal
                continue
    return out


def _roll_before(recorded: Sequence[tuple[float, Any]], ruleset: Any = None) -> dict[str, Any] | None:
    return last_roll_json([e for _, e in recorded], ruleset)


def timeline_json(timeline: dict[str, Any]) -> str:
    """The timeline as JSON safe to put inside an HTML ``<script>`` element."""
    text = json.dumps(timeline, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/")


def _asset(name: str) -> str:
    from importlib import resources

    return resources.files("classview").joinpath("static", name).read_text(encoding="utf-8")


def report_timeline(recording: str | Path, facts: Any, progress: Any = None) -> str:
    """The debrief report's timeline section (``write_debrief_report(..., timeline=report_timeline)``):
    the scrubbable table, or one sentence saying why the recording has none."""
    report = progress or (lambda stage, done, total: None)
    try:
        timeline = build_timeline(recording, engagement_times=[e.t_s for e in facts.engagements],
                                  progress=lambda done, total: report("timeline", done, total))
    except (ValueError, OSError) as exc:
        # The user errors of every layer are ValueErrors (a recording without a scenario, one SQLite
        # refuses: the rest of the report is what could be rescued): the report is still written.
        return f"<p>No timeline: {html.escape(str(exc).rstrip('.'))}.</p>"
    return ("<p>The table as it was, with the overlays the players saw: play, pause, drag the slider or jump to the "
            "next engagement.</p>" + scrub_html(timeline))


def scrub_html(timeline: dict[str, Any]) -> str:
    """The timeline as a self-contained piece of HTML: the live page's table, roll card, units and log
    with play, pause, a slider and "next engagement" under it; its style, the renderer, the player
    and the data all inline (the report opens offline)."""
    return f"""<style>{_asset("classview.css")}</style>
<div class="classview scrub" id="class-timeline">
  <header><span class="brand">The table as it was</span> <span class="turn" data-part="turn"></span></header>
  <main><svg class="table" role="img" aria-label="The table seen from above at the chosen moment"></svg></main>
  <aside><h2>Last roll</h2><div data-part="roll"></div><h2>Units</h2><ul class="units" data-part="units"></ul>
    <h2>Log</h2><ul class="log" data-part="log"></ul></aside>
  <div class="controls"><button type="button" class="play">Play</button>
    <button type="button" class="next">Next engagement</button>
    <input type="range" min="0" value="0" aria-label="Time in the game">
    <span class="clock"></span>
    <select class="speed" aria-label="Speed"><option value="1">1×</option><option value="4" selected>4×</option>
      <option value="16">16×</option></select></div>
</div>
<script>{_asset("classview.js")}</script>
<script>{_asset("zoom.js")}</script>
<script>{_asset("scrub.js")}</script>
<script type="application/json" id="class-timeline-data">{timeline_json(timeline)}</script>
<script>window.classTimeline = ClassViewScrub.init(document.getElementById("class-timeline"),
  JSON.parse(document.getElementById("class-timeline-data").textContent));</script>"""
