"""The window's menus and keyboard shortcuts: one action per thing done during play, each in a menu
and on a key (F1 lists them over the view), after napari's ``_qapp_model/qactions``.

:func:`build_actions` fills ``window.actions_by_name``; the slots are the window's and its panels'.
Only the overlays of the game's rule system (and the shared ones) are offered.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu

from appmodel.game_session import GameSession
from appmodel.overlays.registry import overlays_for
from appmodel.scenarios import shipped_scenarios
from rules.ruleset import front_end
from gui.bookmark_dialog import ask_bookmark
from gui.sand_map_menu import build_sand_map_menu
from gui.scenario_opening import open_scenario
from gui.window_parts import WindowParts



def add_action(window: WindowParts, name: str, text: str, shortcut: str, slot: Callable[..., Any], *, menu: QMenu,
               checkable: bool = False, checked: bool = False) -> QAction:
    """An action in ``menu`` and on ``shortcut`` (anywhere in the window), kept as ``actions_by_name[name]``."""
    action = QAction(text, window)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.setCheckable(checkable)
    if checkable:
        action.setChecked(checked)
        action.toggled.connect(slot)
    else:
        action.triggered.connect(slot)
    menu.addAction(action)
    window.addAction(action)
    window.actions_by_name[name] = action
    return action


def build_actions(window: WindowParts) -> None:
    w = window
    bar = w.menuBar()
    game = bar.addMenu("&Game")
    view = bar.addMenu("&View")
    tools = bar.addMenu("&Tools")
    overlays = bar.addMenu("&Overlays")
    projector = bar.addMenu("&Projector")
    record = bar.addMenu("&Record")

    def a(name: str, text: str, shortcut: str, slot: Callable[..., Any], *, menu: QMenu, checkable: bool = False,
          checked: bool = False) -> QAction:
        return add_action(w, name, text, shortcut, slot, menu=menu, checkable=checkable, checked=checked)

    a("initiative", "Roll initiative", "Ctrl+I", w.turn.roll_initiative, menu=game)
    a("start_turn", "Start turn", "Ctrl+T", w.turn.start_turn, menu=game)
    a("end_turn", "End turn", "Ctrl+E", w.turn.end_turn, menu=game)
    a("resolve", "Resolve the attack", "Ctrl+Return", w.attack.resolve, menu=game)
    a("next_unit", "Select the next unit", "N", lambda: cycle_unit(w.session, 1), menu=game)
    a("prev_unit", "Select the previous unit", "Shift+N", lambda: cycle_unit(w.session, -1), menu=game)
    a("next_weapon", "Next weapon of the selected unit", "]", lambda: cycle_weapon(w.session, 1), menu=game)
    a("prev_weapon", "Previous weapon", "[", lambda: cycle_weapon(w.session, -1), menu=game)
    a("edit_unit", "Edit the selected unit's tokens", "Ctrl+U", w.roster.edit_selected, menu=game)
    # Another game of any rule system without the command line: the shipped ones by name, or a file.
    scenarios = game.addMenu("Open a scenario")
    for shipped in shipped_scenarios():
        action = QAction(f"{shipped.title} ({shipped.ruleset} rules)", scenarios)
        action.triggered.connect(lambda _=False, p=shipped.path: open_scenario(w, p))
        scenarios.addAction(action)
    scenarios.addSeparator()
    a("open_scenario", "Open a scenario file…", "Ctrl+Shift+O", w.open_scenario, menu=scenarios)
    game.addSeparator()
    a("export_log", "Export the log…", "Ctrl+L", w.log_panel._export, menu=game)
    a("quit", "Quit", "Ctrl+Q", w.close, menu=game)
    a("switch_view", "Camera / top-down view", "Tab", w.view.toggle_mode, menu=view)
    a("zoom_in", "Zoom in", "+", lambda: w.view.zoom_by(1.25), menu=view)
    a("zoom_out", "Zoom out", "-", lambda: w.view.zoom_by(0.8), menu=view)
    a("zoom_reset", "Fit the table", "0", w.view.reset_zoom, menu=view)
    a("help", "Keyboard shortcuts", "F1", w.toggle_help, menu=view)
    a("full_screen", "Full screen (Esc leaves it)", "F11", w.toggle_full_screen, menu=view)
    # Every panel, ticked while shown: a panel closed with its x comes back from here (before, only
    # a right-click on the menu bar listed them).
    view.addSeparator()
    panels = view.addMenu("Panels")
    for title, dock in w.docks.items():
        toggle = dock.toggleViewAction()
        toggle.setText(title)
        panels.addAction(toggle)
    w.panels_menu = panels
    a("select_tool", "Select units (clears the tool)", "Esc", lambda: w.escape(), menu=tools)
    a("tape_tool", "Tape measure (drag)", "T", lambda: w.view.set_tool("tape"), menu=tools)
    a("clear_tape", "Clear the tape", "Shift+T", w.session.clear_tape, menu=tools)
    a("blast_tool", "Blast point (click)", "B", lambda: w.view.set_tool("blast"), menu=tools)
    a("clear_blast", "Clear the blast point", "Shift+B", lambda: w.session.set_blast_point(None), menu=tools)
    a("landing_tool", "Landing point of a missed explosive", "L", lambda: w.view.set_tool("landing"), menu=tools)
    # Templates players place and keep (appmodel/overlays/placed_templates.py), like a VTT's measured templates.
    a("circle_template", "Place a circle template", "Ctrl+1", lambda: w.view.set_tool("circle"), menu=tools)
    a("fan_template", "Place a 45° fan template", "Ctrl+2", lambda: w.view.set_tool("fan"), menu=tools)
    a("line_template", "Place a line template", "Ctrl+3", lambda: w.view.set_tool("line"), menu=tools)
    a("tape_waypoints", "Tape with waypoints", "Ctrl+4", lambda: w.view.set_tool("waypoints"), menu=tools)
    a("rotate_template", "Turn the template 15° left", "R", lambda: w.view.change_current_template("rotate+"),
      menu=tools)
    a("rotate_template_back", "Turn the template 15° right", "Shift+R",
      lambda: w.view.change_current_template("rotate-"), menu=tools)
    a("pin_template", "Pin / unpin the template", "Ctrl+Shift+K", lambda: w.view.change_current_template("pin"),
      menu=tools)
    a("remove_template", "Remove the template", "Delete", lambda: w.view.change_current_template("remove"),
      menu=tools)
    # Only the overlays of this game's rule system (and the shared ones) are offered: a Force on
    # Force table has no fans or voice chains. Every toggle is still kept in the settings.
    offered = overlays_for(front_end(w.session.ruleset).overlays)
    for spec in offered:
        a(f"overlay_{spec.name}", spec.title, spec.shortcut, lambda on, n=spec.name: w.set_overlay(n, on),
          menu=overlays, checkable=True, checked=w.settings.overlays.is_on(spec.name))
    build_sand_map_menu(w, overlays)
    a("projector", "Projector window", "Ctrl+P", lambda: w.show_projector("projector"), menu=projector)
    a("presenter", "Presenter window (top-down, for a TV)", "Ctrl+Shift+P", lambda: w.show_projector("presenter"),
      menu=projector)
    a("calibrate_projector", "Calibrate the projector…", "", w.calibrate_projector, menu=projector)
    for kind, title in (("projector", "Projector screen"), ("presenter", "Presenter screen")):
        screens_menu = projector.addMenu(title)
        screens_menu.aboutToShow.connect(lambda m=screens_menu, k=kind: fill_screens(w, m, k))
        fill_screens(w, screens_menu, kind)
    shown = projector.addMenu("What the players see")
    for spec in offered:
        a(f"projector_{spec.name}", spec.title, "", lambda on, n=spec.name: w.set_projector_overlay(n, on),
          menu=shown, checkable=True, checked=w.settings.projector_overlays.is_on(spec.name))
    a("record", "Start / stop recording", "Ctrl+R", w.recording.toggle, menu=record)
    if getattr(w.live, "records_video", False):  # a camera is tracked and its picture can be kept
        a("record_video", "Keep the camera video in recordings", "", w.recording.set_record_video, menu=record,
          checkable=True, checked=w.settings.record_video)
    a("bookmark", "Bookmark this moment…", "Ctrl+B", lambda: ask_bookmark(w.session, w), menu=record)
    a("open_replay", "Open a recording…", "Ctrl+O", w.open_replay, menu=record)
    if w.timeline is not None:
        a("play", "Play / pause", "Space", w.timeline.toggle_play, menu=record)
        a("next_event", "Jump to the next event", ".", w.timeline.next_event, menu=record)
        a("prev_event", "Jump to the previous event", ",", w.timeline.previous_event, menu=record)
        a("next_engagement", "Jump to the next engagement (attack)", "Shift+.", w.timeline.next_engagement, menu=record)
        a("prev_engagement", "Jump to the previous engagement", "Shift+,", w.timeline.previous_engagement, menu=record)
        a("next_stop", "Jump to the next event of the kinds playback pauses at", "Ctrl+.", w.timeline.next_stop, menu=record)
        a("faster", "Replay faster (up to 64x)", "Ctrl+]", w.timeline.faster, menu=record)
        a("slower", "Replay slower", "Ctrl+[", w.timeline.slower, menu=record)


def fill_screens(window: WindowParts, menu: QMenu, kind: str) -> None:
    """One checkable entry per connected screen; the choice is kept in the settings."""
    menu.clear()
    group = QActionGroup(menu)
    current = window.settings.projector_screen if kind == "projector" else window.settings.presenter_screen
    for i, screen in enumerate(QGuiApplication.screens()):
        g = screen.geometry()
        action = QAction(f"Screen {i + 1}: {screen.name() or 'unnamed'} ({g.width()}x{g.height()})", menu)
        action.setCheckable(True)
        action.setChecked(i == min(current, len(QGuiApplication.screens()) - 1))
        action.triggered.connect(lambda _=False, n=i, k=kind: window.choose_screen(k, n))
        group.addAction(action)
        menu.addAction(action)


def help_lines(actions: Mapping[str, QAction]) -> list[str]:
    """The F1 overlay: every action that has a key, and the mouse."""
    lines = ["Keyboard shortcuts (F1 closes)", ""]
    for action in actions.values():
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if keys:
            lines.append(f"{keys}\t{action.text().replace('&', '')}")
    lines += ["", "Mouse: click a unit to select it · wheel zooms · right-drag pans"]
    return lines


def cycle_unit(session: GameSession, step: int) -> None:
    """Select the next (``step`` 1) or previous (-1) unit on the table, in roster order."""
    units = [u.unit_id for u in session.units() if u.on_table]
    if not units:
        return
    sel = session.snapshot().selected_unit
    i = units.index(sel) if sel in units else -step
    session.select_unit(units[(i + step) % len(units)])


def cycle_weapon(session: GameSession, step: int) -> None:
    """Select the selected unit's next (1) or previous (-1) weapon."""
    snap = session.snapshot()
    names = [w.name for w in snap.weapons]
    if snap.selected_unit is None or not names:
        return
    i = names.index(snap.selected_weapon) if snap.selected_weapon in names else 0
    session.select_weapon(names[(i + step) % len(names)])
