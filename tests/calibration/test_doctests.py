"""The runnable examples in the calibration modules' docstrings still run and give what they say."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "calibration.board",
    "calibration.camera_model",
    "calibration.layout_file",
    "calibration.lens_calibration",
    "calibration.projector",
    "calibration.sculptor_rescan",
    "calibration.stillness",
    "calibration.synthetic",
    "calibration.synthetic.renderer",
    "calibration.table_layout",
    "calibration.tag_bitmaps",
    "calibration.table_setup",
    "calibration.terrain",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no runnable example"
