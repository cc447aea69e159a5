"""Game > Open a scenario…: another game, of any rule system, without restarting from the command line.

The window is built for one game (its attack panel, turn panel and overlay menus come from the rule
system), so a scenario opens in a new window that takes this one's place, size and class view; this
one closes as the user would close it (a recording in progress is closed cleanly). The file is read
and checked first, as ``sandtable scenarios --check`` reads it: a file with a mistake is refused in one
line and the game on the table goes on untouched.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from appmodel.errors import user_error_types


def scenario_folder(window: Any) -> str:
    """Where the file dialog opens: the current scenario's folder (the shipped examples at first)."""
    current = window.settings.scenario_path or window.session.scenario_path or ""
    return str(Path(current).parent) if current else ""


def ask_and_open_scenario(window: Any) -> Any | None:
    """The file dialog, then :func:`open_scenario` (None when cancelled or refused)."""
    path, _ = QFileDialog.getOpenFileName(window, "Open a scenario", scenario_folder(window), "Scenarios (*.toml)")
    return open_scenario(window, path) if path else None


def refusal(window: Any) -> str:
    """Why this window cannot change its game, or "" when it can."""
    from appmodel.tracking.live_tracking import SyntheticLive

    if window.replay is not None:
        return "this window replays a recording: open a scenario from the window of a game"
    if window.live is not None and not isinstance(window.live, SyntheticLive):
        return ("the camera is tracking this scenario's tags: to play another, close the window and start "
                "sandtable gui --source ... --scenario FILE")
    return ""


def open_scenario(window: Any, path: str | Path) -> Any | None:
    """Open the scenario at ``path`` in a new window in ``window``'s place; returns the new window, or
    None after saying in one line (status bar and a message) why the file was refused."""
    from appmodel.game_session import GameSession
    from appmodel.scenarios.check import check_scenario
    from gui.app import open_live_source
    from gui.settings import save_settings

    why = refusal(window)
    if why:
        window.notify("Open a scenario", why, warning=True)
        return None
    try:
        check_scenario(path)  # the same checks as `sandtable scenarios --check`
        session = GameSession.from_scenario_file(path, seed=window.settings.dice_seed)
    except (*user_error_types(), ValueError, OSError) as exc:
        text = str(exc) if Path(path).name in str(exc) else f"{path}: {exc}"
        window.notify("Open a scenario", f"not opened (the game on the table goes on): {text}", warning=True)
        return None
    if window.session.ground is not None and session.table_size_in == window.session.table_size_in:
        session.set_ground(window.session.ground)  # the same sand under another game
    live = calibration = None
    if window.live is not None:  # the synthetic table, drawn at the new table's size
        live, calibration = open_live_source(session, source=None, calibration_path=None, scenario_path=str(path))
    # The same kind of window (gui.main_window.MainWindow), built for the new game's rule system.
    settings = replace(window.settings, scenario_path=str(Path(path).resolve()),
                       window_geometry=bytes(window.saveGeometry().data()), view_mode=window.view.mode)
    new = type(window)(session, settings=settings, store=window.store, calibration=calibration or window.calibration,
                     projector_calibration=window.projector_calibration, live=live)
    class_view = window.class_view
    if class_view is not None:  # the class keeps its address and key, and sees the new game
        class_view.follow(session, toggles=settings.projector_overlays)
        new.attach_class_view(class_view)
        window.class_view = None
    recording = window.session.recording_path
    new.show()  # before this one closes, so the application does not end with its last window
    window.close()
    if window.store is not None:
        save_settings(new.settings, window.store)  # the next `sandtable gui` opens this scenario
    window.replaced_by = new
    said = f"Opened {session.scenario.get('name') or Path(path).name} ({session.ruleset.title} rules)."
    if recording:
        said += f" The recording of the last game was closed: {recording}."
    new.statusBar().showMessage(said, 15000)
    new.last_message = said
    return new

