"""The Overlays menu's sand-map part: the contour interval (round metres of the map when the target
terrain has a scale, else table inches), elevation tints under the contours, and whether the lines
follow the scanned sand or the target. The choice is the session's (``GameSession.sand``), so the
projector and the class view draw what the window draws; the interval is kept in the settings (the
next run opens with it, where that run's map offers it) and in the recording, whose debrief draws it."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from appmodel.overlays.sand_map_model import ContourChoice, SandMap
from appmodel.recording.contour_interval import read_contour_interval
from gui.window_parts import WindowParts


def build_sand_map_menu(window: WindowParts, menu: QMenu) -> None:
    """The contour submenus and the tints toggle, at the end of ``menu``; a live game's window starts
    at the interval chosen last time, a replay at the one its recording says was drawn."""
    start_at_remembered_interval(window)
    menu.addSeparator()
    intervals = menu.addMenu("Contour interval")
    intervals.setObjectName("contour-interval-menu")
    intervals.aboutToShow.connect(lambda: fill_intervals(window, intervals))
    fill_intervals(window, intervals)
    source = menu.addMenu("Contours of")
    source.setObjectName("contour-source-menu")
    source.aboutToShow.connect(lambda: fill_sources(window, source))
    fill_sources(window, source)
    tints = QAction("Elevation tints under the contours", menu)
    tints.setCheckable(True)
    tints.setChecked(window.session.sand.tints)
    tints.toggled.connect(lambda on: _set(window, window.session.sand.with_(tints=bool(on))))
    menu.addAction(tints)
    window.actions_by_name["contour_tints"] = tints


def start_at_remembered_interval(window: WindowParts) -> None:
    """The interval the settings remember (a live game) or the recording says was drawn (a replay),
    when this game's map offers it."""
    if window.replay is None:
        interval_in, interval_m = window.settings.contour_interval_in, window.settings.contour_interval_m
    else:
        recorded = read_contour_interval(window.replay.reader.meta)
        if recorded is None:
            return
        interval_in, interval_m = recorded.interval_in, recorded.interval_m
    sand = window.session.sand
    remembered = sand.with_remembered_interval(interval_in=interval_in, interval_m=interval_m)
    if remembered is not sand:
        window.session.set_sand_map(remembered)


def fill_intervals(window: WindowParts, menu: QMenu) -> None:
    """One ticked choice per offered interval (the list depends on the target's scale and relief)."""
    menu.clear()
    group = QActionGroup(menu)
    sand = window.session.sand
    now = sand.contour_choice()
    for choice in sand.contour_choices():
        action = QAction(choice.label, menu)
        action.setCheckable(True)
        action.setChecked(choice == now)
        action.triggered.connect(lambda _=False, c=choice: choose_interval(window, c))
        group.addAction(action)
        menu.addAction(action)


def choose_interval(window: WindowParts, choice: ContourChoice) -> None:
    """Contours every ``choice`` in every view, remembered for the next run (in its own unit)."""
    _set(window, window.session.sand.with_contours(choice))
    unit = "contour_interval_m" if choice.interval_m is not None else "contour_interval_in"
    window.settings = replace(window.settings, **{unit: choice.interval_m if choice.interval_m is not None else choice.interval_in})


def fill_sources(window: WindowParts, menu: QMenu) -> None:
    menu.clear()
    group = QActionGroup(menu)
    sand = window.session.sand
    for source, text in (("relief", "The scanned sand (else the target)"), ("target", "The target terrain")):
        action = QAction(text, menu)
        action.setCheckable(True)
        action.setChecked(sand.contour_source == source)
        action.setEnabled(source == "relief" or sand.target_ground is not None)
        action.triggered.connect(lambda _=False, s=source: _set(window, window.session.sand.with_(contour_source=s)))
        group.addAction(action)
        menu.addAction(action)


def _set(window: WindowParts, sand: SandMap) -> None:
    """New contour settings for every view; the window's contours come on if they were off (a choice
    about contours is a wish to see them)."""
    window.session.set_sand_map(sand)
    if not window.settings.overlays.contours:
        window.set_overlay("contours", True)
        action = window.actions_by_name.get("overlay_contours")
        if action is not None:
            action.setChecked(True)
