"""The rows a session writes into a real SQLite recording, read back as the replay and the debrief read
them: the odds shown go with the attack's own event, the state after a change, the log as shown, the
selection, bookmarks; and a recording is never written over an existing file."""
from __future__ import annotations

from fractions import Fraction

import pytest

from appmodel.errors import UsageError
from appmodel.session.game_log import LogEntry
from appmodel.recording.rows import RecordingRows, recording_metadata
from rules.events import RulesEvent
from rules.ruleset import OddsLegend, TargetOdds
from tracker.recording import RecordingReader
from tracker.recording.schema import LOG_KIND, STATE_KIND_PREFIX, VIEW_KIND

ODDS = TargetOdds(30, "Cell 1", "Red", 1, True, "", Fraction(7, 16), Fraction(1), Fraction(7, 16), Fraction(7, 16), True)


class State:
    round = 2

    def to_json(self) -> dict:
        return {"round": self.round, "units": []}


def read_rows(path) -> tuple[list, list, dict]:
    with RecordingReader(path) as reader:
        return reader.rules_events(), reader.bookmarks(), dict(reader.meta)


def test_rows_read_back_as_a_replay_reads_them(tmp_path) -> None:
    path = tmp_path / "game.sqlite"
    rows = RecordingRows.open(path, metadata=recording_metadata("down-range"))
    warning = RulesEvent(1, "warning", 2, None, "Ruiz is out of command.", warnings=("Ruiz is out of command.",))
    shot = RulesEvent(2, "attack", 2, "Blue", "Ruiz fires at Cell 1.")
    rows.rules_events(10.0, [warning, shot], odds=[ODDS], legend=OddsLegend("wins", None))
    rows.state(10.0, "attack", State(), sentences=["Ruiz fires."])
    rows.log_line(LogEntry(10.0, "rules", "Ruiz fires.", 2))
    rows.view(11.0, 13, "M4", (3.0, 4.0))
    rows.bookmark(12.0, "Ambush")
    rows.close()

    events, bookmarks, meta = read_rows(path)
    by_kind = {r.kind: r for r in events}
    assert "odds" not in by_kind["warning"].payload, "a warning before the attack never carries its odds"
    assert by_kind["attack"].payload["odds"][0]["p_hit_exact"] == "7/16"
    assert by_kind["attack"].payload["odds"][0]["legend"] == {"hit": "wins", "kill": None}
    assert by_kind["attack"].payload["event"]["summary"] == "Ruiz fires at Cell 1."
    assert by_kind[f"{STATE_KIND_PREFIX}attack"].payload == {"state": {"round": 2, "units": []},
                                                             "sentences": ["Ruiz fires."]}
    assert by_kind[LOG_KIND].payload == {"kind": "rules", "text": "Ruiz fires.", "round": 2}
    assert by_kind[VIEW_KIND].payload == {"selected_unit": 13, "selected_weapon": "M4", "blast_point": [3.0, 4.0]}
    assert [(b.t_s, b.note) for b in bookmarks] == [(12.0, "Ambush")]
    assert meta["ruleset"] == "down-range"


def test_an_existing_file_is_never_recorded_over(tmp_path) -> None:
    path = tmp_path / "kept.sqlite"
    path.write_bytes(b"last week's game")
    with pytest.raises(UsageError, match="already exists: choose a new file name"):
        RecordingRows.open(path, metadata={})
    assert path.read_bytes() == b"last week's game"


def test_the_metadata_keeps_the_scenario_and_calibration_texts_it_can_read(tmp_path) -> None:
    scenario = tmp_path / "raid.toml"
    scenario.write_text('ruleset = "generic"\n', encoding="utf-8")
    meta = recording_metadata("generic", scenario_path=str(scenario), calibration_path=str(tmp_path / "gone.json"))
    assert meta["scenario_toml"] == 'ruleset = "generic"\n'
    assert meta["calibration_path"].endswith("gone.json") and "calibration_json" not in meta
    assert recording_metadata("generic") == {"ruleset": "generic", "command": "sandtable gui"}
