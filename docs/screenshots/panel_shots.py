"""The attack, turn and roster panels of Force on Force and the generic rules, from the real window
(offscreen), for docs/gui.md; made by ``make_screenshots.py`` (``--only fof-panels generic-panels``):

* ``fof-attack-panel.png``   — the market patrol: Alpha (led by Sgt. Hale) fires at Cell 1, the
  shoppers in the line of fire; the odds as the firing unit winning its test, every outcome exact
  (the panel scrolled down to them), the players' D8 typed in; the roster's fireteams with their
  cohesion under the view;
* ``fof-turn-panel.png``     — the turn-2 initiative test with the script's dice: each force's dice
  and where they come from, the exact chance before the roll, the dice thrown and who holds it;
* ``generic-attack-panel.png`` — the solo game: M1's mortar at the counter T1 at Very Long, every unit
  the shell can reach with its chance of being caught and destroyed, the scatter reach on the table;
* ``generic-turn-panel.png`` — the automation tables' decisions for Red, the suggested moves on the table.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any


def _session(example: Any, ruleset: str, title: str, *, through: bool = False) -> Any:
    from appmodel.game_session import GameSession
    from rules.dice import SeededDice
    from rules.ruleset import get_ruleset

    steps = list(example.STEPS)
    index = [s.title for s in steps].index(title) + (1 if through else 0)
    state = example.initial_state()
    for record in example.play(steps[:index]):
        state = record.state
    return GameSession(get_ruleset(ruleset), state, scenario=example.load_scenario(),
                       scenario_path=str(example.SCENARIO_PATH), dice=SeededDice(1))


def fof_panel_shots(out: Path, tmp: Path, shots: Any) -> None:
    """``shots``: make_screenshots (its window_for, settle and save)."""
    from rules.forceonforce.examples import patrol

    window_for, settle, save = shots.window_for, shots.settle, shots.save
    session = _session(patrol, "force-on-force", "Alpha fires")
    session.run_procedure("activation", lambda state, dice: session.ruleset.activate(state, "Alpha", dice), [])
    window, feed = window_for(session, tmp)
    window.docks["Attack"].raise_()
    session.select_unit(10)
    panel = window.attack
    panel.set_target(30)
    panel.entered.setChecked(True)
    shots.type_dice(panel, "6")
    settle(window, feed)
    bar = panel.setup_scroll.verticalScrollBar()  # scrolled down to every outcome, as a player reads them
    bar.setValue(bar.maximum())
    settle(window, feed)
    save(window, out / "fof-attack-panel.png")
    window.close()

    session = _session(patrol, "force-on-force", "Turn 2 initiative")
    window, feed = window_for(session, tmp)
    window.docks["Turn"].raise_()
    window.turn.initiative_dice.setText("[2 3 7] [4 6]")
    window.turn.roll_initiative()
    box = window.turn.extra
    unit = box.widgets["unit"]  # the turn box the rule system describes: its "Unit" choice
    unit.setCurrentIndex(unit.findData("Bravo"))
    settle(window, feed)
    save(window, out / "fof-turn-panel.png")
    window.close()


def generic_panel_shots(out: Path, tmp: Path, shots: Any) -> None:
    from rules.generic.examples import solo

    window_for, settle, save = shots.window_for, shots.settle, shots.save
    session = _session(solo, "generic", "Mortar miss")
    window, feed = window_for(session, tmp)
    window.docks["Attack"].raise_()
    session.select_unit(solo.M1)
    window.attack.set_target(solo.T1)
    settle(window, feed)
    save(window, out / "generic-attack-panel.png")
    window.close()

    session = _session(solo, "generic", "The tables play Red")
    window, feed = window_for(session, tmp, view="table")
    window.view.set_mode("table")
    window.docks["Turn"].raise_()
    window.turn.initiative_dice.setText("3 [2 6] 2 [4 1] 1 6 1 [6 3] [3 3] [1 2] 6 5")
    window.turn.start_turn()
    settle(window, feed)
    save(window, out / "generic-turn-panel.png")
    window.close()
