"""Games saved by an earlier version load again, and save back to the same bytes, for every ruleset;
a file of one ruleset handed to another is refused with a message naming both.

The files in tests/data/saved_states/ were written before the rulesets shared their save code
(rules/ruleset_state.py): the Down Range in-depth example after 4 steps (the sergeant's emission token
is on), the Force on Force patrol after 5, the generic solo game after 3.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.downrange.state import GameState
from rules.errors import SaveFileError
from rules.forceonforce.state import FofState
from rules.generic.state import GenericState
from rules.ruleset import ruleset_of

SAVED = Path(__file__).parents[1] / "data" / "saved_states"
STATES = {"downrange": GameState, "forceonforce": FofState, "generic": GenericState}
EVENTS_LOGGED = {"downrange": 7, "forceonforce": 7, "generic": 4}


@pytest.mark.parametrize("name", sorted(STATES))
def test_a_game_saved_by_the_earlier_version_loads_and_saves_back_unchanged(name: str) -> None:
    text = (SAVED / f"{name}.json").read_text(encoding="utf-8")
    state = STATES[name].loads(text)
    assert state.dumps() == text
    assert ruleset_of(state).name == json.loads(text)["ruleset"]
    assert len(state.events) == EVENTS_LOGGED[name]


def test_the_saved_down_range_tokens_come_back() -> None:
    state = GameState.loads((SAVED / "downrange.json").read_text(encoding="utf-8"))
    sergeant = state.unit("Sergeant")
    assert sergeant.emission is not None and sergeant.emission.until_start_of == "Marines"
    assert "signalling" in sergeant.tokens()


@pytest.mark.parametrize("loader, other, title", [
    (GameState, "forceonforce", "Down Range"),
    (FofState, "generic", "Force on Force"),
    (GenericState, "downrange", "generic miniatures rules"),
])
def test_a_file_of_another_ruleset_is_refused_naming_the_ruleset(loader: type, other: str, title: str) -> None:
    text = (SAVED / f"{other}.json").read_text(encoding="utf-8")
    fmt = json.loads(text)["format"]
    with pytest.raises(SaveFileError) as info:
        loader.loads(text)
    assert str(info.value) == (f"not a {title} game state (format {fmt!r}); expected format "
                               f"{loader.state_format!r}")


@pytest.mark.parametrize("name", sorted(STATES))
def test_a_newer_or_damaged_save_is_refused_with_what_to_do(name: str) -> None:
    text = (SAVED / f"{name}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    with pytest.raises(SaveFileError, match=r"game state version 2 is not supported \(this program reads version 1\); "
                                            "save it again with a matching version"):
        STATES[name].from_json({**data, "version": 2})
    with pytest.raises(SaveFileError, match=r"the saved game is not valid JSON \(.* at line \d+\); the file is damaged"):
        STATES[name].loads(text[: len(text) // 2])
