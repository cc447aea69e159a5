"""An abbreviated label still says a unit is down (the newcomer's review, #10: "Auto. rifleman"
shown without its [down] after it was killed)."""
from __future__ import annotations

from appmodel.game_session import GameSession
from appmodel.overlays.shared import label_items
from rules.downrange.examples.in_depth import SCENARIO_PATH

AUTO_RIFLEMAN = 31


def test_the_short_label_of_a_unit_down_keeps_down():
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    assert session.unit(AUTO_RIFLEMAN).name == "Automatic rifleman"
    session.edit_unit(AUTO_RIFLEMAN, {"status": "down"})
    (item,) = [i for i in label_items(session.snapshot()) if i.units and AUTO_RIFLEMAN in i.units]
    assert "[down]" in item.label
    assert item.short_label is not None and "[down]" in item.short_label and len(item.short_label) < len(item.label)
