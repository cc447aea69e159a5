"""The View menu offers the overlays a rule system draws: each rule system names its own in its
``FrontEnd.overlays`` (rules/ruleset.py), so a Force on Force table offers no fans or voice chains and a
Down Range table no Hot Spots -- and every name it gives is an overlay the window knows."""
from __future__ import annotations

import pytest

from appmodel.overlays.registry import OVERLAYS, overlays_for
from rules.ruleset import available_rulesets, front_end, get_ruleset


@pytest.mark.parametrize("name", available_rulesets())
def test_every_overlay_a_rule_system_offers_is_one_the_window_draws(name: str) -> None:
    offered = front_end(get_ruleset(name)).overlays
    assert offered, f"{name} offers no overlay of its own"
    assert set(offered) <= {spec.name for spec in OVERLAYS.values() if spec.own}


def test_each_rule_systems_menu_has_its_own_overlays_and_the_shared_ones_only() -> None:
    menus = {name: [spec.name for spec in overlays_for(front_end(get_ruleset(name)).overlays)]
             for name in available_rulesets()}
    assert "fan" in menus["down-range"] and "voice" in menus["down-range"] and "hot_spots" not in menus["down-range"]
    assert "hot_spots" in menus["force-on-force"] and "fan" not in menus["force-on-force"]
    assert "bands" in menus["generic"] and "voice" not in menus["generic"]
    for menu in menus.values():
        assert {"units", "tape", "odds", "other"} <= set(menu)


def test_every_own_overlay_is_offered_by_some_rule_system() -> None:
    offered = {o for name in available_rulesets() for o in front_end(get_ruleset(name)).overlays or ()}
    assert {spec.name for spec in OVERLAYS.values() if spec.own} == offered


def test_a_rule_system_that_names_none_is_offered_every_overlay() -> None:
    assert [spec.name for spec in overlays_for(None)] == list(OVERLAYS)
