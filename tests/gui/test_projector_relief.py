"""The projector window through the 3-D projector model on relief: a ring on a hillside is lit on the
hillside, where a plane mapping would miss it, and the picture stays black over every unit's tag."""
from __future__ import annotations

import math
import os

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.ground_projection import GroundProjection
from calibration.projector_model import ProjectorModel
from calibration.synthetic.projected_light import ceiling_projector
from calibration.table_layout import TableLayout
from calibration.terrain import Hill, Terrain
from gui.compositor import bgr_from_qimage
from appmodel.game_session import GameSession
from appmodel.overlays.registry import OverlayToggles
from rules.downrange.examples.in_depth import SCENARIO_PATH

MAAWS = 13


def lit(img, xy, r=2):
    x, y = int(round(xy[0])), int(round(xy[1]))
    return img[max(0, y - r): y + r + 1, max(0, x - r): x + r + 1].max() > 60


def test_a_range_ring_over_a_hill_is_lit_on_the_hillside_and_tags_stay_dark(qtbot):
    from gui.projector_window import ProjectorWindow

    model = ProjectorModel(*ceiling_projector(TableLayout.default()))
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    session.select_unit(MAAWS)
    u = session.unit(MAAWS)
    # a 4" hill straddling the ring 38.5" away, straight ahead of the gunner
    ahead = [(u.x_in + 38.5 * math.cos(math.radians(a)), u.y_in + 38.5 * math.sin(math.radians(a))) for a in range(-70, 71, 5)]
    inside = [p for p in ahead if 4 < p[0] < 68 and 4 < p[1] < 44]
    assert inside, "the ring crosses the table"
    hx, hy = inside[len(inside) // 2]
    hills = Terrain(hills=(Hill(hx, hy, 6.0, 4.0),))
    ground = GroundProjection(model, hills)
    only_range = OverlayToggles(**{n: n == "range" for n in OverlayToggles().names()})
    window = ProjectorWindow(session, projector_calibration=ground, toggles=only_range)
    qtbot.addWidget(window)
    img = bgr_from_qimage(window.render_image())
    assert img.shape == (model.height_px, model.width_px, 3)
    on_hill = [p for p in inside if hills.height_at(*p) > 2.5]
    assert on_hill
    for p in on_hill:
        right = model.projector_from_table(np.array([p]), z_in=float(hills.height_at(*p)))[0]
        plane = model.projector_from_table(np.array([p]), z_in=0.0)[0]
        assert np.linalg.norm(right - plane) > 10  # the two really differ here
        assert lit(img, right) and not lit(img, plane)
    # every unit's tag (at its ground + base) is black
    for v in session.snapshot().units:
        if v.on_table:
            px = ground.projector_from_table(np.array([[v.x_in, v.y_in]]), z_in=v.z_in + 1.0)[0]
            if 0 <= px[0] < model.width_px and 0 <= px[1] < model.height_px:
                assert not lit(img, px, r=3)


def test_sandtable_gui_takes_the_relief_and_the_3d_projector_file(tmp_path, capsys):
    from calibration.projector_model import save_projector_model
    from calibration.relief_scan import ReliefScan, save_relief
    from cli.main import main

    rows, cols = 193, 289
    yy, xx = np.mgrid[0:rows, 0:cols] * 0.25
    hills = Terrain(hills=(Hill(36.0, 24.0, 8.0, 3.0),))
    heights = hills.height_at(xx, yy)
    save_relief(ReliefScan(heights, 0.25, 0.01, np.full(heights.shape, 0.01), points=1000), tmp_path / "relief.json")
    save_projector_model(ProjectorModel(*ceiling_projector(TableLayout.default())), tmp_path / "p3d.json")
    shot = tmp_path / "window.png"
    assert main(["gui", "--settings", str(tmp_path / "s.ini"), "--relief", str(tmp_path / "relief.json"),
                 "--projector", str(tmp_path / "p3d.json"), "--size", "1000x700", "--screenshot", str(shot)]) == 0
    assert shot.is_file()
    (tmp_path / "bad.json").write_text("{}")
    assert main(["gui", "--settings", str(tmp_path / "s.ini"), "--relief", str(tmp_path / "bad.json")]) == 2
    assert "sandtable scan" in capsys.readouterr().err
