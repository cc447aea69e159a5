"""The class view's scene carries the sand as a map: the selected unit's viewshed as a PNG that is the
rules' picture, the contour lines, and each unit's military symbol as SVG for the browser."""
from __future__ import annotations

import base64

import cv2
import numpy as np

from appmodel.game_session import GameSession
from appmodel.overlays.registry import OverlayToggles
from classview.scene import SceneBuilder, class_layers
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.terrain_sight import Ground
from rules.viewshed import Sight, viewshed

CELL = 0.25
MAAWS = 13


def hill() -> Ground:
    yy, xx = np.mgrid[0:int(48 / CELL) + 1, 0:int(72 / CELL) + 1] * CELL
    r = np.hypot(xx - 40.0, yy - 24.0)
    return Ground(np.where(r < 10.0, 3.0 * (1 + np.cos(np.pi * np.minimum(r / 10.0, 1))) / 2, 0.0), CELL)


def test_the_class_sees_the_viewshed_contours_and_symbols_of_the_selected_unit() -> None:
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    s.set_ground(hill())
    s.select_unit(MAAWS)
    layers = class_layers(OverlayToggles.projector_default().with_("viewshed", True).with_("symbols", True))
    scene = SceneBuilder(layers).scene(s.snapshot())
    by_layer: dict[str, list[dict]] = {}
    for item in scene["items"]:
        by_layer.setdefault(item["layer"], []).append(item)
    (shade,) = by_layer["viewshed"]
    png = base64.b64decode(shade["png"].split(",", 1)[1])
    bgra = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    x0, y0, x1, _, _, y1 = shade["pts"][:6]
    assert round((x1 - x0) / CELL) == bgra.shape[1] and round((y1 - y0) / CELL) == bgra.shape[0]
    # the picture's top line is the far edge: the node at (52, 22), hidden behind the hill, is dark red
    u = s.unit(MAAWS)
    v = viewshed(s.ground, (round(u.x_in, 2), round(u.y_in, 2)), range_in=38.0)
    assert v.at(52.0, 22.0) == Sight.HIDDEN
    row_from_top = int(round((y1 - 22.0) / CELL - 0.5))
    col = int(round((52.0 - x0) / CELL - 0.5))
    b, g, r, a = bgra[row_from_top, col]
    assert r > 2 * g and a > 100
    assert by_layer["contours"] and all(len(i["pts"]) >= 4 for i in by_layer["contours"])
    symbols = by_layer["symbols"]
    assert len(symbols) == sum(1 for u in s.units() if u.on_table)
    assert all(i["svg"].lstrip().startswith("<svg") for i in symbols)


def test_the_class_gets_the_contours_by_default_and_the_rest_when_the_instructor_shows_them() -> None:
    assert "contours" in class_layers() and not {"viewshed", "sculpting", "symbols"} & class_layers()
    assert "symbols" in class_layers(OverlayToggles.projector_default().with_("symbols", True))
