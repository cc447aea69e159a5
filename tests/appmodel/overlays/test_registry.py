"""The overlay registry is the one list of overlay kinds: the menus' flags, the drawing order and the
players' defaults all follow it, so a new overlay is one builder and one entry."""
from __future__ import annotations

import pytest

from appmodel.overlays.registry import DEFAULT_OFF, DRAW_ORDER, OVERLAYS, PLAYERS_DEFAULT_HIDDEN, OverlayToggles, build_items


def test_every_overlay_has_a_flag_and_every_flag_an_overlay():
    assert OverlayToggles().names() == tuple(OVERLAYS)
    # on unless the registry keeps it off until asked for (the viewshed, the sculpting colours, symbols)
    assert all(OverlayToggles().is_on(name) != (name in DEFAULT_OFF) for name in OVERLAYS)
    assert all(OverlayToggles.all_on().is_on(name) for name in OVERLAYS)


def test_every_overlay_is_drawn_once_in_the_drawing_order():
    assert sorted(DRAW_ORDER) == sorted(OVERLAYS)


def test_the_players_default_hides_exactly_what_the_registry_says():
    shown = OverlayToggles.projector_default()
    assert {name for name in shown.names() if not shown.is_on(name)} == PLAYERS_DEFAULT_HIDDEN | DEFAULT_OFF


def test_an_unknown_overlay_name_is_refused():
    with pytest.raises(TypeError):
        OverlayToggles(nosuch=False)
    with pytest.raises(KeyError):
        OverlayToggles().with_("nosuch", True)


def test_toggles_are_values():
    off = OverlayToggles(fan=False)
    assert off == OverlayToggles().toggled("fan") and hash(off) == hash(OverlayToggles(fan=False))
    assert not off.fan and off.with_("fan", True) == OverlayToggles()


def test_only_the_overlays_switched_on_are_built():
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.select_unit(13)
    only_units = OverlayToggles(**{name: name == "units" for name in OVERLAYS})
    items = build_items(s.snapshot(), [n for n in only_units.names() if only_units.is_on(n)])
    assert items and {i.layer for i in items} == {"units"}
