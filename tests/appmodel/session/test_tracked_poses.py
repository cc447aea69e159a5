"""Tracked poses into the rules, with a recording stand-in for a ruleset: a unit is charged the path the
tracker measured since the last pose, jitter and hidden tags never move it, a lifted figure leaves the
table, a gun-team member seen on its own tag moves alone, and the height under a figure is its tag's
minus its base's."""
from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

from appmodel.session.tracked_poses import TrackedPoses
from rules.geometry import Circle
from rules.ruleset import UnitView
from tracker.unit_pose import UnitState


@dataclass(frozen=True)
class Calls:
    """A 'game state' that is the list of set_pose calls made on it."""

    made: tuple[tuple, ...] = ()


class RecordingRules:
    pose_options = ("alone", "z_in")

    def set_pose(self, state: Calls, unit_id: int, x_in: float, y_in: float, heading_deg: float, **kw) -> Calls:
        return replace(state, made=state.made + ((unit_id, x_in, y_in, heading_deg, kw),))


def view(unit_id: int, x_in: float = 10.0, y_in: float = 10.0, heading_deg: float = 0.0, on_table: bool = True) -> UnitView:
    return UnitView(unit_id, f"U{unit_id}", "Blue", "rifle", x_in, y_in, heading_deg, Circle(x_in, y_in, 0.5),
                    on_table, "active", (), 6.0, 6.0, ())


def pose(tag_id: int, x_in: float, y_in: float, *, heading_deg: float = 0.0, state: UnitState = UnitState.SEEN,
         moved: float | None = None, z_in: float | None = None) -> SimpleNamespace:
    return SimpleNamespace(tag_id=tag_id, x_in=x_in, y_in=y_in, z_in=z_in, heading_deg=heading_deg, state=state,
                           moved_this_turn_in=moved)


def apply(poses_glue: TrackedPoses, views: list[UnitView], poses: list) -> tuple[tuple, int]:
    state, changed = poses_glue.apply(Calls(), {v.unit_id: v for v in views}, poses)
    return state.made, changed


def glue(heights: dict[int, float] | None = None) -> TrackedPoses:
    return TrackedPoses(RecordingRules(), lambda uid: (heights or {}).get(uid, 1.0))


def test_each_move_is_charged_the_path_walked_since_the_last_pose() -> None:
    g = glue()
    made, changed = apply(g, [view(1)], [pose(1, 12, 10, moved=2.5)])
    assert changed == 1 and made[0][4]["moved_in"] == 2.5
    made, _ = apply(g, [view(1, 12, 10)], [pose(1, 15, 10, moved=6.0)])
    assert made[0][4]["moved_in"] == 3.5, "6 inches this turn, 2.5 of them already charged"


def test_a_new_turn_starts_the_path_again() -> None:
    g = glue()
    apply(g, [view(1)], [pose(1, 12, 10, moved=4.0)])
    g.start_turn()
    made, _ = apply(g, [view(1, 12, 10)], [pose(1, 13, 10, moved=1.0)])
    assert made[0][4]["moved_in"] == 1.0


def test_jitter_and_hidden_tags_never_move_a_unit() -> None:
    g = glue()
    made, changed = apply(g, [view(1), view(2), view(3)], [
        pose(1, 10.005, 10.0, heading_deg=0.3),  # tracking noise
        pose(2, 30, 30, state=UnitState.STALE),  # a hand over the tag: its last sighting
        pose(3, 30, 30, state=UnitState.LOST),
        pose(99, 5, 5),  # a tag the game does not know
    ])
    assert (made, changed) == ((), 0)


def test_a_turn_on_the_spot_is_a_change() -> None:
    made, changed = apply(glue(), [view(1, heading_deg=350.0)], [pose(1, 10, 10, heading_deg=5.0)])
    assert changed == 1 and made[0][3] == 5.0


def test_a_lifted_figure_is_taken_off_the_table_where_it_was_last_seen() -> None:
    made, _ = apply(glue(), [view(1)], [pose(1, 10, 10, state=UnitState.LIFTED)])
    assert made[0][4]["on_table"] is False


def test_a_gun_team_member_seen_on_its_own_tag_moves_alone() -> None:
    team = [view(1, 10, 10), view(2, 10, 10)]  # one token, two figures
    made, _ = apply(glue(), team, [pose(1, 14, 10)])
    assert "alone" not in made[0][4], "the token carries its riders"
    g = glue()
    made, _ = apply(g, team, [pose(2, 10, 10), pose(1, 14, 10)])
    assert made[-1][0] == 1 and made[-1][4]["alone"] is True, "unit 2 has its own tag: it is not dragged along"


def test_the_ground_under_a_figure_is_its_tags_height_minus_its_base() -> None:
    made, _ = apply(glue({1: 0.75}), [view(1)], [pose(1, 12, 10, z_in=3.25)])
    assert made[0][4]["z_in"] == 2.5
    made, _ = apply(glue({1: 2.0}), [view(1)], [pose(1, 12, 10, z_in=1.5)])
    assert made[0][4]["z_in"] == 0.0, "never below the table"


def test_a_pose_held_through_a_miss_is_not_applied_as_a_move() -> None:
    """A pose the tracker did not measure this frame (held at its last place while still "seen") is no
    fresh measurement: the rules keep the unit where they have it; the next measured pose moves it."""
    glue = TrackedPoses(RecordingRules(), lambda unit_id: 1.0)
    held = SimpleNamespace(**vars(pose(11, 12.0, 10.0, moved=2.0)), measured=False)
    state, changed = glue.apply(Calls(), {11: view(11)}, [held])
    assert changed == 0 and state.made == ()
    measured = SimpleNamespace(**vars(pose(11, 12.0, 10.0, moved=2.0)), measured=True)
    state, changed = glue.apply(Calls(), {11: view(11)}, [measured])
    assert changed == 1 and state.made[0][4]["moved_in"] == 2.0
