"""The rows a game session writes into a recording, so a replay shows the game as it was shown.

Four kinds of row (docs/recording-format.md): every rules event (with the odds players saw before an
attack's roll), the game state after each change (``state:<kind>``), the log's lines as shown, and the
selection (``view``). :class:`RecordingRows` wraps one open :class:`tracker.recording.Recorder`; it
knows the rows' payloads, not the session.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from appmodel.errors import UsageError
from appmodel.recording.contour_interval import CONTOUR_INTERVAL_KEY, contour_interval_json
from appmodel.recording.payload import odds_json
from appmodel.session.game_log import LogEntry
from rules.events import RulesEvent
from rules.ruleset import OddsLegend, RulesState, TargetOdds
from tracker.recording.schema import LOG_KIND, STATE_KIND_PREFIX, VIEW_KIND


def recording_metadata(ruleset_name: str, *, scenario_path: str | None = None,
                       calibration_path: str | None = None, sand: Any = None) -> dict[str, Any]:
    """What a recording keeps of how the game was set up: the ruleset, the scenario and calibration
    files' paths and texts (a file that cannot be read is named without its text), and the contour
    interval of ``sand`` (a ``SandMap``) the window draws."""
    meta: dict[str, Any] = {"ruleset": ruleset_name, "command": "sandtable gui"}
    if sand is not None:
        meta[CONTOUR_INTERVAL_KEY] = contour_interval_json(sand)
    for key, path in (("scenario", scenario_path), ("calibration", calibration_path)):
        if not path:
            continue
        meta[f"{key}_path"] = path
        try:
            meta[f"{key}_{'toml' if key == 'scenario' else 'json'}"] = Path(path).read_text(encoding="utf-8")
        except OSError:
            pass
    return meta


class RecordingRows:
    """Writes a session's rows into ``recorder`` (a ``tracker.recording.Recorder`` or anything with
    ``record_rules_event``, ``add_bookmark``, ``close`` and ``path``)."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder

    @classmethod
    def open(cls, path: str | Path, *, metadata: Mapping[str, Any], roster: Any | None = None,
             video: bool = False) -> "RecordingRows":
        """A new SQLite recording at ``path`` (refused if it exists: a recording is never overwritten)."""
        from tracker.recording import Recorder  # the SQLite writer loads only when a game is recorded

        if Path(path).exists():
            raise UsageError(f"{str(path)!r} already exists: choose a new file name (recordings are never overwritten)")
        return cls(Recorder(path, metadata=dict(metadata), roster=roster, video=video))

    @property
    def path(self) -> Any:
        return self.recorder.path

    def close(self) -> None:
        self.recorder.close()

    def log_line(self, entry: LogEntry) -> None:
        """The log as it was shown, so a replay shows the same lines at the same moments."""
        self.recorder.record_rules_event(entry.t_s, LOG_KIND, entry.payload())

    def rules_events(self, t_s: float, events: Sequence[RulesEvent], *, odds: Sequence[TargetOdds] = (),
                     legend: OddsLegend | None = None) -> None:
        """Each rules event; the odds shown before the roll go with the attack's own event (the first
        one that is not a warning: a tracked move's warning is never one), so the debrief lists them."""
        attack = next((e for e in events if e.kind != "warning"), None) if odds else None
        for e in events:
            payload: dict[str, Any] = {"event": e.to_json()}
            if e is attack:
                payload["odds"] = [odds_json(o, legend=legend) for o in odds]
            self.recorder.record_rules_event(t_s, e.kind, payload)

    def state(self, t_s: float, kind: str, state: RulesState, *, sentences: Sequence[str] = ()) -> None:
        """The game state a change produced (``state:<kind>``), what a replay restores."""
        payload = {"state": state.to_json(), "sentences": list(sentences)}
        self.recorder.record_rules_event(t_s, f"{STATE_KIND_PREFIX}{kind}", payload)

    def view(self, t_s: float, selected_unit: int | None, selected_weapon: str | None,
             blast_point: tuple[float, float] | None) -> None:
        """What was selected on the map, so a replay selects it again."""
        self.recorder.record_rules_event(t_s, VIEW_KIND, {
            "selected_unit": selected_unit, "selected_weapon": selected_weapon,
            "blast_point": list(blast_point) if blast_point else None})

    def bookmark(self, t_s: float, text: str) -> None:
        self.recorder.add_bookmark(t_s, text)

    def contour_interval(self, sand: Any) -> None:
        """The contour interval chosen now (:mod:`appmodel.recording.contour_interval`), replacing the last."""
        self.recorder.set_meta(CONTOUR_INTERVAL_KEY, contour_interval_json(sand))
