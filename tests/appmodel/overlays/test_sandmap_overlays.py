"""The sand-as-map overlays on a synthetic relief: contour lines lie on their level, the viewshed's
picture is the rules' viewshed cell by cell, the sculpting colours are the guidance for the true
difference, every unit gets its symbol where it stands, and the toggles know the new overlays."""
from __future__ import annotations

import numpy as np
import pytest

from appmodel.game_session import GameSession
from appmodel.overlays.registry import DEFAULT_OFF, OVERLAYS, OverlayToggles, build_items
from appmodel.overlays.sandmap import HIDDEN_RGBA, SEEN_RGBA, COVER_RGBA, sculpting_score, unit_viewshed
from appmodel.overlays.sand_map_model import SandMap
from calibration.sculpting import guidance_colours, match_score
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.terrain_sight import Ground
from rules.viewshed import Sight

CELL = 0.25
MAAWS = 13  # at (15, 29); the Carl Gustaf reaches 38"


def hill(cx: float = 40.0, cy: float = 24.0, radius: float = 10.0, height: float = 3.0) -> Ground:
    yy, xx = np.mgrid[0:int(48 / CELL) + 1, 0:int(72 / CELL) + 1] * CELL
    r = np.hypot(xx - cx, yy - cy)
    return Ground(np.where(r < radius, height * (1 + np.cos(np.pi * np.minimum(r / radius, 1))) / 2, 0.0), CELL)


@pytest.fixture()
def session() -> GameSession:
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.set_ground(hill())
    return s


def cells_of(item, rgba) -> dict[tuple[int, int], tuple[int, ...]]:
    """The raster's pixel at each grid node (row, col), from where the item says its corners are."""
    x0, y0 = item.points_in[0]
    c0, r0 = int(round(x0 / CELL + 0.5)), int(round(y0 / CELL + 0.5))
    rows, cols = rgba.shape[:2]
    return {(r0 + r, c0 + c): tuple(int(v) for v in rgba[r, c]) for r in range(rows) for c in range(cols)}


def test_contour_lines_lie_on_their_level_and_circle_the_hill(session) -> None:
    items = build_items(session.snapshot(), ("contours",))
    assert items, "no contour line over a 3\" hill"
    g = session.ground
    for item in items:
        h = g.height_at(item.points_in[:, 0], item.points_in[:, 1])
        assert np.ptp(h) < 0.1, "a contour line's points are not at one height"
        assert np.all(np.hypot(item.points_in[:, 0] - 40.0, item.points_in[:, 1] - 24.0) < 10.0)
    levels = sorted({round(float(np.mean(g.height_at(i.points_in[:, 0], i.points_in[:, 1]))), 1) for i in items})
    assert levels[0] <= 0.4 and levels[-1] >= 2.6  # every 0.3" from the foot to near the top
    assert any(i.label == '1.5"' for i in items)


def test_contours_of_the_target_when_no_scan_is_loaded() -> None:
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    assert build_items(s.snapshot(), ("contours",)) == []
    s.set_sand_map(SandMap(target_ground=hill(20.0, 20.0)))
    items = build_items(s.snapshot(), ("contours",))
    assert items and all(np.all(np.hypot(i.points_in[:, 0] - 20.0, i.points_in[:, 1] - 20.0) < 10.0) for i in items)


def test_the_viewshed_picture_is_the_rules_viewshed_cell_by_cell(session) -> None:
    session.select_unit(MAAWS)
    snap = session.snapshot()
    (item,) = build_items(snap, ("viewshed",))
    u = snap.unit(MAAWS)
    v = unit_viewshed(session.ground, round(u.x_in, 2), round(u.y_in, 2), 38.0)
    colour = {Sight.SEEN: SEEN_RGBA, Sight.COVER: COVER_RGBA, Sight.HIDDEN: HIDDEN_RGBA}
    pixels = cells_of(item, item.raster)
    rows, cols = v.sight.shape
    for r in range(rows):
        for c in range(cols):
            want = colour.get(Sight(int(v.sight[r, c])))
            got = pixels.get((r, c), (0, 0, 0, 0))
            assert got == (want or (0, 0, 0, 0)), f"node ({r}, {c}) drawn {got}, the rules say {Sight(int(v.sight[r, c])).name}"
    # the far side of the hill is hidden from the gunner at (15, 29); ground beside him is seen
    assert v.at(52.0, 22.0) == Sight.HIDDEN and v.at(20.0, 29.0) == Sight.SEEN
    assert v.range_in == 38.0 and v.at(15.0 + 39.0, 29.0) == Sight.OUT_OF_RANGE


def test_no_viewshed_without_a_selected_unit_or_a_relief() -> None:
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.select_unit(MAAWS)
    assert build_items(s.snapshot(), ("viewshed",)) == []  # no relief
    s.set_ground(hill())
    s.select_unit(None)
    assert build_items(s.snapshot(), ("viewshed",)) == []


def test_the_sculpting_colours_are_the_guidance_for_the_true_difference(session) -> None:
    target = hill(40.0, 24.0, 10.0, 4.0)  # the map wants the hill 1" higher at the top
    session.set_sand_map(session.sand.with_(target_ground=target))
    snap = session.snapshot()
    items = build_items(snap, ("sculpting",))
    raster = next(i for i in items if i.marker == "raster")
    want = guidance_colours(target.heights_in - session.ground.heights_in)
    assert np.array_equal(raster.raster[..., :3], want)
    assert raster.points_in[0].tolist() == [-CELL / 2, -CELL / 2]
    # blue (add) at the top of the hill, white off it
    assert tuple(raster.raster[int(24 / CELL), int(40 / CELL), :3]) == (0, 0, 255)
    assert tuple(raster.raster[int(5 / CELL), int(5 / CELL), :3]) == (255, 255, 255)
    score = match_score(session.ground.heights_in, target.heights_in, cell_in=CELL)
    assert sculpting_score(snap).rms_in == pytest.approx(score.rms_in)
    (label,) = [i for i in items if i.label.startswith("Sand vs target")]
    assert f"{100 * score.within_share:.0f}% within" in label.label


def test_every_unit_on_the_table_gets_its_symbol_where_it_stands(session) -> None:
    snap = session.snapshot()
    items = build_items(snap, ("symbols",))
    on_table = [u for u in snap.units if u.on_table]
    assert len(items) == len(on_table)
    for item, u in zip(items, on_table):
        assert item.marker == "symbol" and item.symbol_svg.lstrip().startswith("<svg")
        assert item.points_in[0].tolist() == [u.x_in, u.y_in]
    marines = [i for i, u in zip(items, on_table) if u.side == "Marines"]
    pla = [i for i, u in zip(items, on_table) if u.side != "Marines"]
    # friend (the first side) and hostile frames differ: the SIDC's affiliation digit
    assert {i.key[4][3] for i in marines} == {"3"} and {i.key[4][3] for i in pla} == {"6"}


def test_the_toggles_know_the_new_overlays_and_keep_the_busy_ones_off_by_default() -> None:
    assert {"contours", "viewshed", "sculpting", "symbols"} <= set(OVERLAYS)
    t = OverlayToggles()
    assert t.contours and not t.viewshed and not t.sculpting and not t.symbols
    assert OverlayToggles.all_on().viewshed and OverlayToggles.all_on().symbols
    assert t.with_("viewshed", True).viewshed
    assert not OverlayToggles.projector_default().sculpting
    assert DEFAULT_OFF == {"viewshed", "sculpting", "symbols"}


def test_the_session_reads_the_scenarios_target_terrain_and_draws_its_contours(tmp_path) -> None:
    yy, xx = np.mgrid[0:25, 0:37] * 2.0  # a 72" x 48" CSV at 2" cells: a 3" hill at (36, 24)
    heights = np.clip(3.0 - np.hypot(xx - 36.0, yy - 24.0) / 4.0, 0.0, None)
    np.savetxt(tmp_path / "target.csv", heights, delimiter=",", fmt="%.4f")
    scenario = tmp_path / "game.toml"
    scenario.write_text(SCENARIO_PATH.read_text() + '\n[target_terrain]\nfile = "target.csv"\ncell_in = 2.0\n')
    s = GameSession.from_scenario_file(scenario)
    target = s.sand.target_ground
    assert target is not None and target.cell_in == CELL
    # the CSV's cells are placed as areas (its node k at (k + 0.5) cells): the top within one CSV cell
    r, c = np.unravel_index(np.argmax(target.heights_in), target.heights_in.shape)
    assert np.hypot(c * CELL - 36.0, r * CELL - 24.0) <= 2.0 and target.heights_in.max() == pytest.approx(3.0, abs=0.3)
    assert float(target.height_at(10.0, 10.0)) == pytest.approx(0.0, abs=0.01)
    items = build_items(s.snapshot(), ("contours",))  # no scan: the target's contours
    assert items and all(np.all(np.hypot(i.points_in[:, 0] - 36.0, i.points_in[:, 1] - 24.0) < 12.5) for i in items)
