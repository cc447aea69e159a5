"""Sand-as-map set-ups shared by the window's contour tests and the debrief's: a map with a real scale
(metres) in a session, and a scenario whose target terrain is a bare CSV cone (table inches)."""
from __future__ import annotations

from pathlib import Path

import numpy as np


def map_session():
    """A 300 m hill over 100 m ground, 30 m cells, 25 m per inch, 3x exaggerated."""
    from appmodel.game_session import GameSession
    from calibration.elevation_files import ElevationModel
    from calibration.target_terrain import Placement, TargetTerrain
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from rules.terrain_sight import Ground

    r, c = np.mgrid[0:40, 0:60]
    dem = ElevationModel(100.0 + np.maximum(0.0, 300.0 - 20.0 * np.hypot(r - 20, c - 30)), 30.0, 30.0)
    target = TargetTerrain(dem, 25.0, 3.0, Placement.from_rotation(25.0, offset_in=(0.0, 0.0)))
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    heights, covered = target.sample(*s.table_size_in, cell_in=0.25)
    s.set_sand_map(s.sand.with_(target=target, target_ground=Ground(heights, 0.25), target_covered=covered,
                                contour_interval_m=25.0))
    return s


def hill_scenario(tmp_path: Path) -> Path:
    """A generic game on a 72" x 48" table whose target terrain is a 3" cone near (36, 24): a CSV at 2"
    cells (table inches, no map scale)."""
    yy, xx = np.mgrid[0:25, 0:37] * 2.0
    np.savetxt(tmp_path / "target.csv", np.clip(3.0 - np.hypot(xx - 36.0, yy - 24.0) / 4.0, 0.0, None),
               delimiter=",", fmt="%.4f")
    path = tmp_path / "game.toml"
    path.write_text('format = "sandtable-scenario"\nversion = 1\nruleset = "generic"\n[target_terrain]\n'
                    'file = "target.csv"\ncell_in = 2.0\n')
    return path
