"""The runnable examples in the recording modules' docstrings still run and give what they say."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "appmodel.recording.contour_interval",
    "appmodel.recording.payload",
    "appmodel.recording.reader",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no runnable example"
