"""The three rulesets' scripted example games run on one step runner (rules/scripted_game.py): a die
the text states but the rules never ask for is an error in the script, and the keyframes they give
the synthetic table start at time 0 and change at every keyframe."""
from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from rules.downrange.declarations import AttackSetup, TargetSpec
from rules.downrange.examples import in_depth
from rules.errors import EnteredDiceError
from rules.forceonforce.examples import patrol
from rules.generic.examples import solo

SCRIPTS = {"down-range": in_depth, "force-on-force": patrol, "generic": solo}
#: A step of each script with an attack, and the same attack with one die too many.
EXTRA_DIE = {
    # The sergeant fires in the enemy's turn (6.5.2): with his Reaction, or the rules refuse it before any die.
    "down-range": (in_depth.Attack(AttackSetup(in_depth.SERGEANT, "M4/M16", (TargetSpec(in_depth.AR),), reaction=True),
                                   (6, 6, 6))),
    "force-on-force": patrol.Fire(10, 30, (6, 3, 1)),
    "generic": solo.Shot(solo.I1, solo.R1, (5, [3], 4)),
}
#: How far into each script the attack above is legal (the attacker sees the target, in its turn).
BEFORE = {"down-range": 12, "force-on-force": 4, "generic": 1}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_die_left_over_after_an_attack_is_an_error_in_the_script(name: str) -> None:
    script: ModuleType = SCRIPTS[name]
    state = script.initial_state()
    for record in script.play(script.STEPS[: BEFORE[name]], state):
        state = record.state
    step = replace(script.STEPS[BEFORE[name]], items=(EXTRA_DIE[name],))
    with pytest.raises(EnteredDiceError):
        script.play_step(state, step)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_keyframes_start_at_zero_and_only_record_changes(name: str) -> None:
    frames = SCRIPTS[name].synthetic_keyframes(step_s=2.0)
    assert frames and all(path[0]["t_s"] == 0.0 for path in frames.values())
    moved = 0
    for path in frames.values():
        for before, after in zip(path, path[1:]):
            assert after["t_s"] > before["t_s"] and after["t_s"] % 2.0 == 0.0
            assert any(after[k] != before[k] for k in ("x_in", "y_in", "heading_deg", "on_table"))
            moved += 1
    assert moved >= 3  # the scripts move, lift and set down several tokens
