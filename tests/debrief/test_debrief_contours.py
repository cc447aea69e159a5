"""The debrief's map shows the scenario's target terrain as contour lines: read from the scenario's
[target_terrain] next to the recorded scenario path, drawn on the table at their heights; a map that
cannot be read is one problem line, not a failed report."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np

from debrief.facts import _target_terrain
from debrief.plots import _contours, _pyplot
from sand_map_helpers import hill_scenario


def test_the_debrief_map_draws_the_targets_contours_at_their_heights(tmp_path: Path) -> None:
    path = hill_scenario(tmp_path)
    problems: list[str] = []
    got = _target_terrain({"target_terrain": {"file": "target.csv", "cell_in": 2.0}}, str(path), "generic",
                          (72.0, 48.0), problems)
    assert problems == [] and got["relief"] is not None
    relief = got["relief"]
    fig, ax = _pyplot().subplots()
    _contours(ax, SimpleNamespace(relief=relief, target=got["target"], contours=None))
    lines = [line for line in ax.get_lines()]
    assert len(lines) >= 5  # the cone's 3": a line every 0.3" at least from 0.3" to 2.7"
    for line in lines:
        xs, ys = line.get_data()
        h = relief.height_at(np.asarray(xs), np.asarray(ys))
        assert np.ptp(h) < 0.15, "a contour line's points are not at one height"
        assert np.all(np.hypot(np.asarray(xs) - 36.0, np.asarray(ys) - 24.0) < 14.0)


def test_a_target_map_that_cannot_be_read_is_one_problem_line(tmp_path: Path) -> None:
    path = hill_scenario(tmp_path)
    (tmp_path / "target.csv").unlink()
    problems: list[str] = []
    assert _target_terrain({"target_terrain": {"file": "target.csv"}}, str(path), "generic", (72.0, 48.0), problems) == {}
    assert len(problems) == 1 and "target terrain could not be read" in problems[0] and "\n" not in problems[0]


def test_the_debrief_map_draws_contours_at_the_interval_the_instructor_asks(tmp_path: Path) -> None:
    path = hill_scenario(tmp_path)
    got = _target_terrain({"target_terrain": {"file": "target.csv", "cell_in": 2.0}}, str(path), "generic",
                          (72.0, 48.0), [])
    relief = got["relief"]

    def heights(interval: float | None) -> list[float]:
        fig, ax = _pyplot().subplots()
        _contours(ax, SimpleNamespace(relief=relief, target=got["target"], contours=None), interval=interval)
        out = []
        for line in ax.get_lines():
            xs, ys = line.get_data()
            out.append(float(np.median(relief.height_at(np.asarray(xs), np.asarray(ys)))))
        return out

    every_half = heights(0.5)  # a bare CSV target: inches
    assert every_half and all(abs(h / 0.5 - round(h / 0.5)) < 0.15 for h in every_half)
    assert {round(h / 0.5) for h in every_half} >= {1, 2, 3, 4, 5}  # 0.5" to 2.5" up the 3" cone
    assert len(heights(None)) > len(every_half)  # the default (0.3") draws more lines


def test_a_contour_interval_that_is_not_positive_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    from cli.main import main

    assert main(["debrief", str(tmp_path / "game.sqlite"), "--contour-interval", "0", "--no-progress"]) != 0
    err = capsys.readouterr().err.strip()
    assert "--contour-interval 0" in err and "positive" in err and "\n" not in err
