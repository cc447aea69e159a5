"""The declaration panel's pictures for docs/gui.md: the window at 1366x768 with a medic's treatment
declared (odds before the roll, the players' die asked for), the same after Resolve (the result card over
the map), and the Actions dock for every other form the rules offer.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/action_shots.py
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from appmodel.game_session import GameSession  # noqa: E402
from rules.dice import SeededDice  # noqa: E402
from rules.downrange import pieces  # noqa: E402
from rules.downrange.examples import in_depth  # noqa: E402
from rules.ruleset import get_ruleset  # noqa: E402

OUT = Path(__file__).resolve().parent
CORPSMAN, GUNNER = 14, 11


def in_depth_before(section: str) -> GameSession:
    steps = list(in_depth.STEPS)
    state = None
    for record in in_depth.play(steps[:[s.section for s in steps].index(section)]):
        state = record.state
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(),
                       scenario_path=str(in_depth.SCENARIO_PATH), dice=SeededDice(2))


def squad() -> GameSession:
    """A small game with what the in-depth example lacks: an EW operator, a burning truck, a truck to board."""
    def unit(tag: int, name: str, side: str, x: float, y: float, type_: str = "average combatant", **kw: Any) -> dict:
        return {"tag_id": tag, "name": name, "side": side, "type": type_, "x_in": x, "y_in": y, "heading_deg": 0.0, **kw}
    units = [unit(1, "Sergeant", "Blue", 10, 10, equipment=["radio"], commander=1),
             unit(2, "Doc", "Blue", 12, 10, type_="specialist combatant", equipment=["medical kit"], reports_to=1),
             unit(3, "Rifleman", "Blue", 13.2, 10, status="down", reports_to=1),
             unit(4, "Sparks", "Blue", 8, 10, equipment=["EW equipment"], reports_to=1),
             unit(5, "Truck", "Blue", 10, 11.4, type_="Military truck", weapons=[]),
             unit(6, "Hornet", "Blue", 10, 10, type_="Black Hornet", weapons=[], on_table=False),
             unit(7, "Driver", "Blue", 10, 11.4),
             unit(8, "Grenadier", "Blue", 16, 14),
             unit(9, "Enemy radioman", "Red", 30, 10, equipment=["radio"])]
    ruleset = get_ruleset("down-range")
    scenario = {"format": "sandtable-scenario", "version": 1, "sides": [{"name": "Blue"}, {"name": "Red"}],
                "units": units, "table": {"width_in": 48, "height_in": 24}}
    state = ruleset.new_game(scenario)
    state = state.update_unit(9, emission=pieces.Emission("situational awareness", "Red"))
    state = state.update_unit(5, on_fire=True).update_unit(1, main_effort=True, carrying=None)
    state = state.update_unit(7, aboard=5, on_table=False, reaction_ready=True).update_unit(8, on_fire=True)
    return GameSession(ruleset, state, scenario=scenario, dice=SeededDice(2))


def open_window(session: GameSession, tmp: Path) -> Any:
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    app = create_application()
    store = open_store(tmp / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store)
    w.resize(1366, 768)
    w.show()
    w.view.set_mode("table")
    w.docks["Actions"].raise_()
    app.processEvents()
    return w


def settle(w: Any) -> None:
    from PySide6.QtWidgets import QApplication

    for _ in range(5):
        QApplication.processEvents()
    w.fit_docks()
    QApplication.processEvents()


def main() -> None:
    tmp = Path(tempfile.mkdtemp())
    session = in_depth_before("6.6.1 a")
    session.start_round([9, 1])
    session.start_turn()
    w = open_window(session, tmp)
    session.select_unit(CORPSMAN)
    settle(w)
    panel = w.actions_panel
    panel.select_unit(CORPSMAN)
    panel.select_action("treat")
    panel.entered.setChecked(True)
    settle(w)
    w.grab().save(str(OUT / "actions-treat-window.png"))
    panel.dice_form.enter("6")
    panel.resolve()
    settle(w)
    w.grab().save(str(OUT / "actions-treat-resolved.png"))
    w.result_card.dismiss()
    shot: set[str] = {"treat"}
    sessions = [(w, session)]
    w2 = open_window(squad(), tmp)
    sessions.append((w2, w2.session))
    start = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=2)
    w3 = open_window(start, tmp)
    sessions.append((w3, start))
    for window, s in sessions:
        for view in s.units():
            for form in s.actions_for(view.unit_id):
                if form.key in shot or not form.allowed:
                    continue
                window.actions_panel.select_unit(view.unit_id)
                window.actions_panel.select_action(form.key)
                settle(window)
                name = form.key.replace(" ", "-")
                window.docks["Actions"].grab().save(str(OUT / f"actions-{name}.png"))
                shot.add(form.key)
    attack_shot(tmp)
    print("shot:", ", ".join(sorted(shot)), "and the attack panel")


def attack_shot(tmp: Path) -> None:
    """The attack panel, one case of the common declaration panel, at 1366x768: 6.4.2's mortar aimed at
    37.5, 25 with the assistant gunner ticked by name, the five soldiers in the blast ticked on the
    sergeant's sighting (no line of sight of its own, spotter: the sergeant)."""
    session = in_depth_before("6.4.2-6.4.4")
    w = open_window(session, tmp)
    w.docks["Attack"].raise_()
    session.select_unit(GUNNER)
    session.set_blast_point((37.5, 25.0))
    panel = w.attack
    panel.weapon.setCurrentIndex(panel.weapon.findData("60 mm mortar"))
    panel.declared.set_value("assistants", (12,))
    for uid in (30, 31, 32, 33, 34):
        panel.set_target(uid, line_of_sight=False, spotter=10)
    settle(w)
    w.grab().save(str(OUT / "attack-panel-1366.png"))
    w.docks["Attack"].grab().save(str(OUT / "attack-panel-dock.png"))
    # The same panel for Force on Force: Alpha's fire at the RPG team, the test's declarations, the
    # target's box, the odds in its words.
    from rules.forceonforce.examples import patrol

    fof = GameSession.from_scenario_file(patrol.SCENARIO_PATH)
    w2 = open_window(fof, tmp)
    w2.docks["Attack"].raise_()
    fof.select_unit(12)
    settle(w2)
    if w2.attack._rows:
        w2.attack.set_target(w2.attack._rows[0])
    settle(w2)
    w2.grab().save(str(OUT / "fof-attack-panel-1366.png"))


if __name__ == "__main__":
    main()
