"""What the window's workflow modules (menus, live polling, recording) may reach of the main window.

They are parts of one window, but typed against this protocol rather than against ``MainWindow`` itself,
so that ``gui/main_window.py`` can import them without the type checker seeing a circle.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenuBar, QStatusBar

from appmodel.game_session import GameSession
from gui.settings import AppSettings


class WindowParts(Protocol):
    session: GameSession
    settings: AppSettings
    store: Any
    live: Any
    #: The recording replayed (``appmodel.replay_model.ReplayModel``; None in a live game's window)
    replay: Any
    calibration: Any
    calibration_run: Any
    projector_calibration: Any
    actions_by_name: dict[str, QAction]
    view: Any
    projector: Any
    tracking_panel: Any
    timeline: Any
    turn: Any
    attack: Any
    roster: Any
    log_panel: Any
    recording: Any
    tracked_live: Any
    docks: dict[str, Any]
    #: View > Panels: one ticked entry per dock (a dock added later joins it)
    panels_menu: Any

    def statusBar(self) -> QStatusBar: ...  # Qt's own name
    def menuBar(self) -> QMenuBar: ...  # Qt's own name
    def windowTitle(self) -> str: ...  # Qt's own name
    def setWindowTitle(self, title: str) -> None: ...  # Qt's own name
    def addAction(self, action: QAction) -> None: ...  # Qt's own name
    def close(self) -> bool: ...
    def escape(self) -> None: ...
    def toggle_help(self) -> None: ...
    def toggle_full_screen(self) -> None: ...
    def open_replay(self) -> None: ...
    def open_scenario(self) -> None: ...
    def calibrate_projector(self) -> None: ...
    def show_projector(self, kind: str) -> None: ...
    def choose_screen(self, kind: str, index: int) -> None: ...
    def set_overlay(self, name: str, on: bool) -> None: ...
    def set_projector_overlay(self, name: str, on: bool) -> None: ...
