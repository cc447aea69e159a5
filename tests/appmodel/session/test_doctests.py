"""The runnable examples in the session's modules' docstrings still run and give what they say."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "appmodel.game_session",
    "appmodel.session.clock",
    "appmodel.session.dice_sources",
    "appmodel.session.game_log",
    "appmodel.session.scenario_facts",
    "appmodel.session.selection",
    "appmodel.session.tape",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no runnable example"
