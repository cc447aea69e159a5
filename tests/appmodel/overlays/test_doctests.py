"""The runnable examples in the overlay modules' docstrings still run and give what they say."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "appmodel.overlays.registry",
    "appmodel.overlays.shared",
    "appmodel.overlays.downrange",
    "appmodel.overlays.forceonforce",
    "appmodel.overlays.generic",
    "appmodel.overlays.draw_item",
    "appmodel.overlays.draw_memo",
    "appmodel.overlays.clip_geometry",
    "appmodel.overlays.label_placement",
    "appmodel.overlays.view_region",
    "appmodel.overlays.sand_map_model",
    "appmodel.overlays.unit_symbols",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no runnable example"
