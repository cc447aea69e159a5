"""The class view shows every action's card, not only rolls: a Signal (no dice) resolved through the
session's action path becomes the card the students see, with who heard it; a treatment's card shows
its die."""
from __future__ import annotations

from appmodel.game_session import GameSession
from classview.scene import SceneBuilder, class_layers
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.downrange.pieces import Status
from rules.ruleset import ActionRequest

SERGEANT, CORPSMAN, GUNNER = 10, 14, 11


def test_the_class_view_card_follows_every_action() -> None:
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=5)
    builder = SceneBuilder(class_layers())
    assert builder.scene(session.snapshot(), session.log)["roll"] is None
    session.resolve_action(ActionRequest("signal", SERGEANT))
    card = builder.scene(session.snapshot(), session.log)["roll"]
    assert card["kind"] == "signal" and card["rolls"] == [] and "Heard by: " in card["summary"]
    corpsman = session.unit(CORPSMAN)
    session.set_state(session.state.update_unit(GUNNER, status=Status.DOWN, x_in=corpsman.x_in + 1.2,
                                                y_in=corpsman.y_in))
    session.resolve_action(ActionRequest("treat", CORPSMAN, {"patient": GUNNER}), [7])
    card = builder.scene(session.snapshot(), session.log)["roll"]
    assert card["kind"] == "medicine" and [r["faces"] for r in card["rolls"]] == [[7]]
