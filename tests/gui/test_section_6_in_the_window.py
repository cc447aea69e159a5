"""The rulebook's in-depth example, its whole section 6, played in the real window as players would:
every initiative roll and turn from the Turn panel, every attack from the Attack panel (attacker picked
on the table, weapon, targets ticked with their declarations, the assistant ticked by name, the aim
point and the landing point clicked on the map, the players' dice typed one roll at a time), every
other action -- the mortar team's Focus, the sandbags, the Black Hornet, the dismount, the Reactions,
the Main Effort, the sprint, the re-embarking, both treatments, the Signal -- from the Actions panel.
No token is edited by hand. Units move as the tracker reports them (``GameSession.apply_poses`` with
the tracker's ``UnitPose``, the live loop's path). The game is recorded, and the debrief read from the
recording must tell what the rulebook narrates: who went down to what, who the corpsman saved and how.
"""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, Qt

from appmodel.game_session import GameSession
from debrief.facts import read_debrief_facts
from gui_helpers import open_main_window
from rules.downrange.examples import in_depth
from rules.downrange.examples.in_depth import Attack, Initiative, Treat
from rules.scripted_game import Pose
from tracker.unit_pose import UnitPose, UnitState

import numpy as np


def click_table(window, qtbot, x_in: float, y_in: float) -> None:
    x, y = window.view.transform().device_from_table(np.array([[x_in, y_in]]))[0]
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=QPoint(int(round(x)), int(round(y))))


def dice_text(die) -> str:
    return " ".join(str(d) for d in die) if isinstance(die, (tuple, list)) else str(die)


def narrated_rolls() -> dict[str, list[tuple[str, str]]]:
    """Per section, every roll the rulebook's dice came to when the rules play the script: (the roll's
    words as the rules ask for it, what the dice show). Players at the window type, for each roll the
    dice form asks for, the die the narration gives that roll (the form may ask in another order: its
    targets are listed nearest first, the script's in the text's order)."""
    out = {}
    before = 0
    for record in in_depth.play():
        events = record.state.events[before:]
        before = len(record.state.events)
        out[record.step.section] = [(r.label, dice_text(r.faces) if r.faces and r.count > 1 else
                                     str(r.faces[0] if r.faces else r.dice_total))
                                    for e in events if e.kind != "initiative" for r in e.rolls]
    return out


class Table:
    """The players at the window."""

    def __init__(self, window, qtbot) -> None:
        self.w, self.qtbot = window, qtbot
        self.session = window.session
        self.t_s = 0.0
        self.rolls = narrated_rolls()
        self.section = ""

    def click(self, button) -> None:
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def tracked(self, pose: Pose) -> None:
        """The camera sees a unit moved (the tracker's pose, as the live loop hands it over)."""
        u = self.session.unit(pose.unit)
        self.t_s += 1.0
        heading = u.heading_deg if pose.heading_deg is None else pose.heading_deg
        self.session.apply_poses([UnitPose(u.unit_id, u.name, u.side, pose.x_in, pose.y_in, 0.0, heading,
                                           UnitState.SEEN, self.t_s, None)], t_s=self.t_s)
        got = self.session.unit(pose.unit)
        assert (got.x_in, got.y_in) == (pytest.approx(pose.x_in), pytest.approx(pose.y_in)), f"{u.name} not moved"

    def turn_button(self, button, dice: tuple[int, ...] = ()) -> None:
        turn = self.w.turn
        turn.initiative_dice.setText(" ".join(str(d) for d in dice))
        self.click(button)
        assert turn.error_label.text() == "", turn.error_label.text()

    def enter_dice(self, form) -> None:
        """Roll what the form asks for, as the narration rolled it, until it asks for no more."""
        pool = self.rolls[self.section]
        while form.needed is not None:
            label = form.needed.label
            # (the form's words add how the roll is made: "... (advantage: two dice)")
            k = next((k for k, (words, _) in enumerate(pool) if label == words or label.startswith(words + " (")), None)
            assert k is not None, f"{self.section}: the form asks for {label!r}, which the narration never rolls: {pool}"
            assert form.enter(pool.pop(k)[1]), form.status.text()

    def attack(self, item: Attack) -> None:
        setup, panel = item.setup, self.w.attack
        self.session.select_unit(setup.attacker)  # a click on the attacker in the table view
        assert panel.attacker.currentData() == setup.attacker
        panel.weapon.setCurrentIndex(panel.weapon.findData(setup.weapon))
        if setup.aim_x_in is not None:
            self.w.view.set_tool("blast")
            click_table(self.w, self.qtbot, setup.aim_x_in, setup.aim_y_in)
            assert self.session.snapshot().blast_point == (pytest.approx(setup.aim_x_in, abs=0.2),
                                                           pytest.approx(setup.aim_y_in, abs=0.2))
        if setup.assistants:
            box = panel.declared.widgets["assistants"]
            names = {b.text(): uid for uid, b in box.boxes.items()}
            wanted = tuple(names[self.session.unit(a).name] for a in setup.assistants)  # ticked by name
            panel.declared.set_value("assistants", wanted)
        if setup.crew_assistants:
            panel.declared.set_value("crew_assistants", setup.crew_assistants)
        if setup.reaction:
            panel.declared.set_value("reaction", True)
        for spec in setup.targets:
            declared = {}
            if spec.shots != 1:
                declared["shots"] = spec.shots
            if spec.cover.value != "none":
                declared["cover"] = spec.cover.value
            if not spec.line_of_sight:
                declared["line_of_sight"] = False
            if spec.spotter is not None:
                declared["spotter"] = spec.spotter
            panel.set_target(spec.unit_id, **declared)
        assert set(self.session.draft.target_ids) == {t.unit_id for t in setup.targets}
        panel.entered.setChecked(True)
        before = len(self.session.state.events)
        self.enter_dice(panel.dice_form)
        self.click(panel.resolve_button)
        if item.landing is not None:  # the miss waits for where it lands: the chooser clicks it
            assert self.session.pending is not None and self.w.view.tool == "landing", panel.message.text()
            said: list[str] = []
            self.w.view.message.connect(said.append)
            click_table(self.w, self.qtbot, *item.landing)
            assert self.session.pending.placed_in is not None, said
            self.enter_dice(panel.dice_form)
            self.click(panel.resolve_button)
        assert self.session.pending is None, panel.message.text()
        assert len(self.session.state.events) > before, panel.message.text()
        panel.virtual.setChecked(True)
        self.w.view.set_tool("select")

    def action(self, request) -> None:
        panel = self.w.actions_panel
        self.session.select_unit(request.unit_id)
        panel.select_unit(request.unit_id)
        panel.select_action(request.action)
        fields = {f.key: f for f in panel.form.fields} if panel.form is not None else {}
        for key, value in request.values.items():
            if key not in panel.widgets:
                continue
            offered = [c.value for c in fields[key].choices]
            if fields[key].kind == "choice" and value not in offered:
                # The script's own words ("set up the mortar"): the players pick the form's nearest
                # ("set up a weapon", "fill sandbags"), its first choice.
                value = offered[0]
            panel.set_value(key, value)
        form = panel.form
        assert form is not None and form.allowed, f"{request.action}: {form.reason if form else 'no form'}"
        before = len(self.session.state.events)
        if form.rolls:
            panel.entered.setChecked(True)
            self.enter_dice(panel.dice_form)
        self.click(panel.resolve_button)
        assert len(self.session.state.events) > before, panel.message.text()
        panel.virtual.setChecked(True)

    def play(self, item) -> None:
        name = type(item).__name__
        if isinstance(item, Pose):
            self.tracked(item)
        elif isinstance(item, Initiative):
            self.turn_button(self.w.turn.roll_button, item.dice)
        elif name == "StartTurn":
            self.turn_button(self.w.turn.start_button)
        elif name == "EndTurn":
            self.turn_button(self.w.turn.end_button)
        elif isinstance(item, Attack):
            self.attack(item)
        elif isinstance(item, Treat):
            from rules.ruleset import ActionRequest

            values = {"patient": item.patient, **({"assistants": item.assistants} if item.assistants else {})}
            self.action(ActionRequest("treat", item.medic, values))
        else:
            request = self.session.ruleset.action_request(item)
            assert request is not None, f"{name} has no form in the Actions panel"
            self.action(request)


def test_the_whole_of_section_6_is_played_in_the_window_and_debriefed_as_the_rulebook_tells_it(qtbot, tmp_path):
    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1)
    window = open_main_window(qtbot, tmp_path, session)
    recording = tmp_path / "section6.sqlite"
    session.start_recording(recording)
    table = Table(window, qtbot)
    for step in in_depth.STEPS:
        table.section = step.section
        for item in step.items:
            table.play(item)
    session.stop_recording()
    assert all(not left for left in table.rolls.values()), "every die the narration rolls was rolled in the window"

    # The window's game ends where the rules' own playing of the script does.
    script = list(in_depth.play())[-1].state
    for u in script.units:
        mine = session.state.unit(u.unit_id)
        assert (mine.status, mine.injured) == (u.status, u.injured), u.name
    assert {w.name: w.ammo_left for w in session.ruleset.weapons(session.state, 13)}["Carl Gustaf / MAAWS"] == 2

    facts = read_debrief_facts(recording)
    down = {c.name for c in facts.casualties if c.change == "down"}
    # 6.4.2-6.4.4 both riflemen; 6.5.1 the UTV and the mortar team; 6.5.2 the automatic rifleman;
    # 6.5.3 the AT missileman and a rifleman by his own missile; 6.6 b the ZBL-09 and everyone aboard.
    assert down == {"Rifleman 1", "Rifleman 2", "UTV", "Mortar gunner", "Assistant gunner", "Automatic rifleman",
                    "AT missileman", "Rifleman 3", "ZBL-09", "Officer", "Rifleman 4", "Rifleman 5"}
    assert {c.name for c in facts.casualties if c.change == "back in play"} == {"Mortar gunner", "Assistant gunner"}
    words = [w for a in facts.actions for w in a.words]
    assert "Corpsman treats Mortar gunner: saved (injured)" in words  # 6.6.1 a: 6 on the d8, Injured
    assert "Corpsman treats Assistant gunner: saved (restored)" in words  # 6.6.1 b: 8 + 1, no ill effects
    assert any(a.kind == "signal" and "Sergeant" in " ".join(a.words) for a in facts.actions)  # 6.6.1 c: extraction
    treat_odds = [a.odds for a in facts.actions if a.kind in ("medicine", "treatment") and a.odds]
    assert len(treat_odds) == 2  # each treatment recorded with the odds shown before its roll
