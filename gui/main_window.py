"""The companion's main window: the table view in the middle, roster, attack, turn and log panels
around it, the projector/presenter window, recording, replay, and a keyboard shortcut for everything
used during play (F1 shows them over the view)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox, QScrollArea, QWidget

from appmodel.errors import UsageError
from appmodel.tracking.height_check import HeightCheck, heights_summary
from appmodel.overlays.registry import overlays_for
from appmodel.tracking.tracking_status import TrackingMonitor, roster_names
from gui.panels.attack_panel import AttackPanel
from gui.panels.log_panel import LogPanel
from gui.panels.recorded_attack_panel import RecordedAttackPanel
from gui.panels.roster_panel import RosterPanel
from gui.panels.ruleset_attack_panel import RulesetAttackPanel
from gui.panels.timeline_panel import TimelinePanel
from gui.panels.tracking_panel import TrackingPanel
from gui.panels.turn_panel import TurnPanel
from gui.projector_window import ProjectorWindow
from gui.result_card_view import ResultCardView
from gui.settings import AppSettings, save_settings
from gui.table_view import TableView
from gui.theme import TEXT_COLORS
from rules.errors import RulesError
from rules.ruleset import front_end

#: How often the UI polls the tracking thread (ms): faster than a 30 fps camera delivers.
POLL_MS = 25
#: How long the projector shows the calibration pattern before the camera frame is taken (ms).
PATTERN_SETTLE_MS = 1500
#: How long to wait after that for a camera frame before giving up (ms).
FRAME_WAIT_MS = 5000


def default_projector_path() -> str:
    """Where a projector calibration made from the GUI is kept when no file was given: the
    application's data folder (``~/.local/share/Sandtable/Sandtable Companion`` on Linux)."""
    from PySide6.QtCore import QStandardPaths

    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation) or str(Path.home())
    return str(Path(folder) / "projector.json")


#: How often a session without a tracked camera records its units' places (4 a second: moves by hand
#: or by the rules replay smoothly; unchanged poses cost the recorder nothing).
RULES_FRAME_MS = 250


def first_window_size(available: Any) -> tuple[int, int]:
    """The window's first size: 1600x960 where the screen has room, else what the screen offers (a
    1366x768 laptop gets its whole work area, so Resolve, the log and the roster are on screen)."""
    return min(1600, max(800, available.width())), min(960, max(560, available.height()))


class MainWindow(QMainWindow):
    def __init__(self, session: Any, *, settings: AppSettings | None = None, store: Any | None = None,
                 calibration: Any | None = None, projector_calibration: Any | None = None, live: Any | None = None,
                 replay: Any | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.class_view: Any | None = None
        self.settings = settings or AppSettings()
        self.store = store
        self.calibration = calibration
        self.projector_calibration = projector_calibration
        self.live = live
        self.replay = replay
        self.projector: ProjectorWindow | None = None
        #: compares camera frames with the relief scan's view of the sand (calibration.sand_change)
        self.sand_watch: Any | None = None
        self.sand_notice = ""
        self._sand_frames = 0
        self._calibration_run: dict[str, Any] | None = None
        #: How long the calibration pattern settles before a frame is taken (tests shorten it).
        self.pattern_settle_ms = PATTERN_SETTLE_MS
        self.last_message = ""
        self._message_box: QMessageBox | None = None
        self.setWindowTitle("Sandtable Companion" + (f" — replay of {Path(replay.path).name}" if replay else ""))
        self.view = TableView(session, calibration=calibration, toggles=self.settings.overlays, mode=self.settings.view_mode)
        self.setCentralWidget(self.view)
        self.view.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.roster = RosterPanel(session)
        # A ruleset with shots per target, an aim point and blasts gets that panel; another's is built
        # from its declarations.
        shots_and_aim = front_end(session.ruleset).attack_panel == "shots and aim"
        self.attack = AttackPanel(session) if shots_and_aim else RulesetAttackPanel(session)
        self.turn = TurnPanel(session)
        self.result_card = ResultCardView(self.view)
        self.attack.on_resolved.append(self.result_card.show_card)
        self.view.landed.connect(self.attack.landing_resolved)
        self.log_panel = LogPanel(session)
        self.docks: dict[str, QDockWidget] = {}
        # The right-hand column runs the full height (the roster sits under the view only): during
        # an attack its targets, odds, dice and Resolve button must be readable without scrolling.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        # A replay shows the attacks as recorded (what the rules said, the odds shown before the roll),
        # not the live panel, whose Resolve could change nothing in a recording.
        self.recorded_attack = RecordedAttackPanel(replay) if replay is not None else None
        self._dock("Attack", self.recorded_attack or self.attack, Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("Turn", self.turn, Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("Log", self.log_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("Roster", self.roster, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.tabifyDockWidget(self.docks["Attack"], self.docks["Turn"])
        self.docks["Attack"].raise_()
        self.timeline: TimelinePanel | None = None
        if replay is not None:
            self.timeline = TimelinePanel(replay, on_frame=self.view.set_frame)
            self.timeline.on_seek.append(self.recorded_attack.show_at)
            self._dock("Timeline", self.timeline, Qt.DockWidgetArea.BottomDockWidgetArea)
            self.tabifyDockWidget(self.docks["Roster"], self.docks["Timeline"])
            self.docks["Timeline"].raise_()
        self.tracking_panel: TrackingPanel | None = None
        self.tracking_monitor: TrackingMonitor | None = None
        self.height_check: HeightCheck | None = None  # tag size against base height, per unit
        if live is not None and hasattr(live, "tracker"):
            # Tracking you can see: a status strip, a panel with each unit's state, marks on the view.
            tracker = live.tracker
            # several cameras share one table layout (``MultiCameraTracker.layout``); one camera's is its calibration's
            layout = getattr(tracker, "layout", None) or getattr(getattr(tracker, "calibration", None), "layout", None)
            anchors = [(a.tag_id, a.x_in, a.y_in) for a in getattr(layout, "anchors", ())]
            # The units the game has on the table are expected in view (reserves join when first seen).
            self.tracking_monitor = TrackingMonitor(roster_names([u for u in session.units() if u.on_table]), anchors)
            self.height_check = HeightCheck.for_tracker(tracker)
            self.tracking_panel = TrackingPanel()
            self._dock("Tracking", self.tracking_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
            self.tabifyDockWidget(self.docks["Roster"], self.docks["Tracking"])
            self.docks["Roster"].raise_()
        self.actions_by_name: dict[str, QAction] = {}
        self._build_actions()
        if replay is not None:
            # A replay shows the game as it was: nothing here may change it (a resolve or an edit
            # would be overwritten by the next moment of the recording anyway).
            for panel in (self.attack, self.turn):
                panel.setEnabled(False)
            self.roster.edit_button.setEnabled(False)
            self.roster.identify_button.setEnabled(False)
            self.roster.read_only = True
            for name in ("initiative", "start_turn", "end_turn", "resolve", "edit_unit", "record", "bookmark"):
                self.actions_by_name[name].setEnabled(False)
        self.view.help_text = None
        self._disconnect = session.changed.connect(self._session_changed)
        self._disconnect_turn = session.turn_started.connect(self._turn_started)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll_live)
        if live is not None:
            self.timer.start()
            if hasattr(live, "show"):
                live.show(session.units())
        if self.settings.window_geometry:
            self.restoreGeometry(QByteArray(self.settings.window_geometry))
        else:
            self.resize(*first_window_size(self.screen().availableGeometry().size()))
        self.fit_docks()
        if self.settings.window_state:
            self.restoreState(QByteArray(self.settings.window_state))
        self.statusBar().showMessage("Click a unit to select it; F1 lists every shortcut.")
        self._build_recording_indicator()

    def fit_docks(self) -> None:
        """Share the window as a table-side screen needs it: the attack/turn column about a third of the
        width and most of its height, the log below it, the roster a strip under the view."""
        w, h = max(self.width(), 800), max(self.height(), 560)
        self.resizeDocks([self.docks["Attack"]], [int(min(680, max(430, w * 0.34)))], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["Attack"], self.docks["Log"]], [int(h * 0.8), int(h * 0.14)], Qt.Orientation.Vertical)
        bottom = self.docks.get("Timeline") or self.docks["Roster"]
        self.resizeDocks([bottom], [int(min(230, h * (0.24 if "Timeline" in self.docks else 0.2)))],
                         Qt.Orientation.Vertical)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if getattr(self, "result_card", None) is not None and self.result_card.showing:
            self.result_card.place()
        if not self.settings.window_state and not getattr(self, "_docks_fitted", False) and self.isVisible():
            self._docks_fitted = True
            self.fit_docks()

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title.lower()}")
        # Scrollable, so a 768-pixel laptop screen still fits the window.
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(widget)
        dock.setWidget(scroll)
        self.addDockWidget(area, dock)
        self.docks[title] = dock

    # -- actions and shortcuts ------------------------------------------------------------------
    def _action(self, name: str, text: str, shortcut: str, slot: Any, *, menu: Any, checkable: bool = False,
                checked: bool = False) -> QAction:
        action = QAction(text, self)
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
        self.addAction(action)
        self.actions_by_name[name] = action
        return action

    def _build_actions(self) -> None:
        bar = self.menuBar()
        game = bar.addMenu("&Game")
        view = bar.addMenu("&View")
        tools = bar.addMenu("&Tools")
        overlays = bar.addMenu("&Overlays")
        projector = bar.addMenu("&Projector")
        record = bar.addMenu("&Record")
        a = self._action
        a("initiative", "Roll initiative", "Ctrl+I", self.turn.roll_initiative, menu=game)
        a("start_turn", "Start turn", "Ctrl+T", self.turn.start_turn, menu=game)
        a("end_turn", "End turn", "Ctrl+E", self.turn.end_turn, menu=game)
        a("resolve", "Resolve the attack", "Ctrl+Return", self.attack.resolve, menu=game)
        a("next_unit", "Select the next unit", "N", lambda: self._cycle_unit(1), menu=game)
        a("prev_unit", "Select the previous unit", "Shift+N", lambda: self._cycle_unit(-1), menu=game)
        a("next_weapon", "Next weapon of the selected unit", "]", lambda: self._cycle_weapon(1), menu=game)
        a("prev_weapon", "Previous weapon", "[", lambda: self._cycle_weapon(-1), menu=game)
        a("edit_unit", "Edit the selected unit's tokens", "Ctrl+U", self.roster.edit_selected, menu=game)
        a("export_log", "Export the log…", "Ctrl+L", self.log_panel._export, menu=game)
        a("quit", "Quit", "Ctrl+Q", self.close, menu=game)
        a("switch_view", "Camera / top-down view", "Tab", self.view.toggle_mode, menu=view)
        a("zoom_in", "Zoom in", "+", lambda: self.view.zoom_by(1.25), menu=view)
        a("zoom_out", "Zoom out", "-", lambda: self.view.zoom_by(0.8), menu=view)
        a("zoom_reset", "Fit the table", "0", self.view.reset_zoom, menu=view)
        a("help", "Keyboard shortcuts", "F1", self.toggle_help, menu=view)
        a("full_screen", "Full screen (Esc leaves it)", "F11", self.toggle_full_screen, menu=view)
        a("select_tool", "Select units (clears the tool)", "Esc", lambda: self._escape(), menu=tools)
        a("tape_tool", "Tape measure (drag)", "T", lambda: self.view.set_tool("tape"), menu=tools)
        a("clear_tape", "Clear the tape", "Shift+T", self.session.clear_tape, menu=tools)
        a("blast_tool", "Blast point (click)", "B", lambda: self.view.set_tool("blast"), menu=tools)
        a("clear_blast", "Clear the blast point", "Shift+B", lambda: self.session.set_blast_point(None), menu=tools)
        a("landing_tool", "Landing point of a missed explosive", "L", lambda: self.view.set_tool("landing"), menu=tools)
        # Templates players place and keep (appmodel/overlays/placed_templates.py), like a VTT's measured templates.
        a("circle_template", "Place a circle template", "Ctrl+1", lambda: self.view.set_tool("circle"), menu=tools)
        a("fan_template", "Place a 45° fan template", "Ctrl+2", lambda: self.view.set_tool("fan"), menu=tools)
        a("line_template", "Place a line template", "Ctrl+3", lambda: self.view.set_tool("line"), menu=tools)
        a("tape_waypoints", "Tape with waypoints", "Ctrl+4", lambda: self.view.set_tool("waypoints"), menu=tools)
        a("rotate_template", "Turn the template 15° left", "R", lambda: self.view.change_current_template("rotate+"),
          menu=tools)
        a("rotate_template_back", "Turn the template 15° right", "Shift+R",
          lambda: self.view.change_current_template("rotate-"), menu=tools)
        a("pin_template", "Pin / unpin the template", "Ctrl+Shift+K", lambda: self.view.change_current_template("pin"),
          menu=tools)
        a("remove_template", "Remove the template", "Delete", lambda: self.view.change_current_template("remove"),
          menu=tools)
        # Only the overlays of this game's rule system (and the shared ones) are offered: a Force on
        # Force table has no fans or voice chains. Every toggle is still kept in the settings.
        offered = overlays_for(front_end(self.session.ruleset).overlays)
        for spec in offered:
            a(f"overlay_{spec.name}", spec.title, spec.shortcut, lambda on, n=spec.name: self.set_overlay(n, on),
              menu=overlays, checkable=True, checked=self.settings.overlays.is_on(spec.name))
        a("projector", "Projector window", "Ctrl+P", lambda: self.show_projector("projector"), menu=projector)
        a("presenter", "Presenter window (top-down, for a TV)", "Ctrl+Shift+P", lambda: self.show_projector("presenter"),
          menu=projector)
        a("calibrate_projector", "Calibrate the projector…", "", self.calibrate_projector, menu=projector)
        for kind, title in (("projector", "Projector screen"), ("presenter", "Presenter screen")):
            screens_menu = projector.addMenu(title)
            screens_menu.aboutToShow.connect(lambda m=screens_menu, k=kind: self._fill_screens(m, k))
            self._fill_screens(screens_menu, kind)
        shown = projector.addMenu("What the players see")
        for spec in offered:
            a(f"projector_{spec.name}", spec.title, "", lambda on, n=spec.name: self.set_projector_overlay(n, on),
              menu=shown, checkable=True, checked=self.settings.projector_overlays.is_on(spec.name))
        a("record", "Start / stop recording", "Ctrl+R", self.toggle_recording, menu=record)
        if getattr(self.live, "records_video", False):  # a camera is tracked and its picture can be kept
            a("record_video", "Keep the camera video in recordings", "", self.set_record_video, menu=record,
              checkable=True, checked=self.settings.record_video)
        a("bookmark", "Bookmark this moment", "Ctrl+B", lambda: self.session.bookmark(), menu=record)
        a("open_replay", "Open a recording…", "Ctrl+O", self.open_replay, menu=record)
        if self.timeline is not None:
            a("play", "Play / pause", "Space", self.timeline.toggle_play, menu=record)
            a("next_event", "Jump to the next event", ".", self.timeline.next_event, menu=record)
            a("prev_event", "Jump to the previous event", ",", self.timeline.previous_event, menu=record)

    def _fill_screens(self, menu: Any, kind: str) -> None:
        """One checkable entry per connected screen; the choice is kept in the settings."""
        from PySide6.QtGui import QActionGroup, QGuiApplication

        menu.clear()
        group = QActionGroup(menu)
        current = self.settings.projector_screen if kind == "projector" else self.settings.presenter_screen
        for i, screen in enumerate(QGuiApplication.screens()):
            g = screen.geometry()
            action = QAction(f"Screen {i + 1}: {screen.name() or 'unnamed'} ({g.width()}x{g.height()})", menu)
            action.setCheckable(True)
            action.setChecked(i == min(current, len(QGuiApplication.screens()) - 1))
            action.triggered.connect(lambda _=False, n=i, k=kind: self.choose_screen(k, n))
            group.addAction(action)
            menu.addAction(action)

    def choose_screen(self, kind: str, index: int) -> None:
        """Where the projector (or presenter) window goes full screen, from now on."""
        field_name = "projector_screen" if kind == "projector" else "presenter_screen"
        self.settings = replace(self.settings, **{field_name: int(index)})
        if self.projector is not None and self.projector.mode == kind and self.projector.isVisible():
            self.projector.show_on_screen(index)

    def help_lines(self) -> list[str]:
        lines = ["Keyboard shortcuts (F1 closes)", ""]
        for action in self.actions_by_name.values():
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if keys:
                lines.append(f"{keys}\t{action.text().replace('&', '')}")
        lines += ["", "Mouse: click a unit to select it · wheel zooms · right-drag pans"]
        return lines

    def toggle_help(self) -> None:
        self.view.help_text = None if self.view.help_text else "\n".join(self.help_lines())
        self.view.update()

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def _escape(self) -> None:
        if self.view.help_text:
            self.toggle_help()
        elif self.result_card.showing:
            self.result_card.dismiss()
        elif self.isFullScreen():
            self.showNormal()
        self.view.set_tool("select")

    def _cycle_unit(self, step: int) -> None:
        units = [u.unit_id for u in self.session.units() if u.on_table]
        if not units:
            return
        sel = self.session.snapshot().selected_unit
        i = units.index(sel) if sel in units else -step
        self.session.select_unit(units[(i + step) % len(units)])

    def _cycle_weapon(self, step: int) -> None:
        snap = self.session.snapshot()
        names = [w.name for w in snap.weapons]
        if snap.selected_unit is None or not names:
            return
        i = names.index(snap.selected_weapon) if snap.selected_weapon in names else 0
        self.session.select_weapon(names[(i + step) % len(names)])

    # -- overlays -------------------------------------------------------------------------------
    def set_overlay(self, name: str, on: bool) -> None:
        self.settings = self.settings.with_overlay(name, on)
        self.view.set_toggles(self.settings.overlays)

    def set_projector_overlay(self, name: str, on: bool) -> None:
        self.settings = self.settings.with_projector_overlay(name, on)
        if self.projector is not None and self.projector.mode == "projector":
            self.projector.set_toggles(self.settings.projector_overlays)
        if self.class_view is not None:  # the class sees what the players see
            self.class_view.set_toggles(self.settings.projector_overlays)

    # -- class view -----------------------------------------------------------------------------
    def attach_class_view(self, view: Any) -> None:
        """Show where the class view (``classview.live.LiveClassView``) is served, with its QR code,
        and keep it showing what the players see."""
        from gui.class_view_panel import ClassViewPanel

        self.class_view = view
        view.set_toggles(self.settings.projector_overlays)
        self.class_view_panel = ClassViewPanel(view)
        self._dock("Class view", self.class_view_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        # Beside the attack and turn panels, in front at first: the class scans its code as the game starts.
        self.tabifyDockWidget(self.docks["Attack"], self.docks["Class view"])
        self.docks["Class view"].raise_()
        self.statusBar().showMessage(f"Class view: {view.url}")

    # -- projector ------------------------------------------------------------------------------
    def show_projector(self, mode: str) -> ProjectorWindow | None:
        if mode == "projector" and self.projector_calibration is None:
            self.statusBar().showMessage("no projector calibration: calibrate the projector first (Projector menu), "
                                         "or use the presenter window", 8000)
            return None
        if self.projector is not None and self.projector.mode == mode and self.projector.isVisible():
            self.projector.close()
            self.projector = None
            return None
        if self.projector is not None:
            self.projector.close()
        toggles = self.settings.projector_overlays if mode == "projector" else self.settings.overlays
        self.projector = ProjectorWindow(self.session, projector_calibration=self.projector_calibration, toggles=toggles,
                                         mode=mode, calibration=self.calibration)
        self.projector.show_on_screen(self.settings.projector_screen if mode == "projector" else self.settings.presenter_screen)
        return self.projector

    def calibrate_projector(self) -> None:
        """Show the pattern full screen on the projector's screen, wait for it to settle, take the
        next camera frame, fit the mapping and report its error in inches (never blocks the UI)."""
        from calibration.projector import ProjectorPattern

        if self.calibration is None or self.live is None:
            self._notify("Projector calibration", "Calibrate the table and start the camera first: the camera must "
                         "see the pattern the projector throws onto the table.")
            return
        from PySide6.QtGui import QGuiApplication

        screens = QGuiApplication.screens()
        index = min(max(0, self.settings.projector_screen), len(screens) - 1)
        size = screens[index].geometry().size()
        pattern = ProjectorPattern(size.width(), size.height())
        window = ProjectorWindow(self.session, mode="presenter")
        window.show_on_screen(index)
        window.show_pattern(pattern.image())
        self._calibration_run = {"window": window, "pattern": pattern, "settled": False}
        self.statusBar().showMessage(f"showing the calibration pattern on screen {index + 1}; the camera takes a frame "
                                     f"in {PATTERN_SETTLE_MS / 1000:g} s…")
        QTimer.singleShot(self.pattern_settle_ms, self._pattern_settled)

    def _pattern_settled(self) -> None:
        """From now on the next camera frame shows the pattern (an older one may not)."""
        run = self._calibration_run
        if run is None:
            return
        run["settled"] = True
        QTimer.singleShot(FRAME_WAIT_MS, lambda r=run: self._no_pattern_frame(r))

    def _no_pattern_frame(self, run: dict[str, Any]) -> None:
        if self._calibration_run is run:
            self._calibration_run = None
            run["window"].close()
            self._notify("Projector calibration", "no camera frame arrived while the pattern was shown; check that the "
                         "camera is running", warning=True)

    def _finish_projector_calibration(self, frame: Any) -> None:
        from calibration.errors import CalibrationError
        from calibration.projector import calibrate_projector, save_projector_calibration
        from tracker.detections import detect_tags, detector_for_this_thread

        run, self._calibration_run = self._calibration_run, None
        if run is None:
            return
        run["window"].close()
        import cv2

        detections = detect_tags(detector_for_this_thread(), cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        try:
            result = calibrate_projector(run["pattern"], detections.tag_ids, detections.corners_px, self.calibration)
        except CalibrationError as exc:
            self._notify("Projector calibration", str(exc), warning=True)
            return
        path = self.settings.projector_calibration_path or default_projector_path()
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            save_projector_calibration(result, path)
        except OSError as exc:
            self._notify("Projector calibration", f"{result.summary()}\nbut it could not be saved to {path} ({exc}); "
                         "choose another file with --projector", warning=True)
        else:
            self.settings = replace(self.settings, projector_calibration_path=str(path))
        self.projector_calibration = result
        if self.projector is not None and self.projector.mode == "projector":
            self.projector.projector_calibration = result
            self.projector.update()
        self._notify("Projector calibration", f"{result.summary()}\nSaved to {path}.")

    def _notify(self, title: str, text: str, *, warning: bool = False) -> None:
        """Tell the user in the status bar and a message box that does not stop the live loop."""
        self.last_message = text
        self.statusBar().showMessage(text.replace("\n", " "), 15000)
        box = QMessageBox(QMessageBox.Icon.Warning if warning else QMessageBox.Icon.Information, title, text,
                          QMessageBox.StandardButton.Ok, self)
        box.setModal(False)
        box.show()
        self._message_box = box

    # -- recording and replay -------------------------------------------------------------------
    def toggle_recording(self) -> None:
        try:
            if self.session.recorder is not None:
                if self.live is not None and hasattr(self.live, "set_recorder"):
                    self.live.set_recorder(None)
                self.session.stop_recording()
                return
            folder = Path(self.settings.recordings_dir or Path.home())
            from datetime import datetime

            default = folder / f"game-{datetime.now():%Y%m%d-%H%M%S}.sqlite"
            path = default if self.store is None else Path(QFileDialog.getSaveFileName(
                self, "Record the session to", str(default), "Recordings (*.sqlite)")[0] or "")
            if not str(path) or str(path) == ".":
                return
            video = bool(getattr(self.live, "records_video", False)) and self.settings.record_video
            recorder = self.session.start_recording(path, video=video,
                                                    calibration_path=self.settings.calibration_path or None)
            if self.live is not None and hasattr(self.live, "set_recorder"):
                self.live.set_recorder(recorder, video=video)
            self.settings = replace(self.settings, recordings_dir=str(Path(path).parent))
        except (UsageError, RulesError, ValueError, OSError) as exc:
            self.statusBar().showMessage(str(exc), 10000)

    def set_record_video(self, on: bool) -> None:
        """Whether the next recording keeps the camera's picture (a recording under way keeps its choice)."""
        self.settings = replace(self.settings, record_video=bool(on))
        if self.store is not None:
            save_settings(self.settings, self.store)

    def open_replay(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a recording", self.settings.recordings_dir, "Recordings (*.sqlite)")
        if not path:
            return
        from appmodel.replay_model import ReplayModel

        try:
            replay = ReplayModel(path)
        except (UsageError, ValueError) as exc:
            self._notify("Open a recording", str(exc), warning=True)
            return
        window = MainWindow(replay.session, settings=self.settings, store=None, calibration=self.calibration, replay=replay)
        window.show()
        self._replay_window = window

    # -- the live loop ----------------------------------------------------------------------------
    def poll_live(self) -> None:
        """Take what the tracking thread produced since the last tick (never waits for it)."""
        if self.live is None:
            return
        update = self.live.poll()
        if update.frame_bgr is not None and self._calibration_run is not None and self._calibration_run["settled"]:
            self._finish_projector_calibration(update.frame_bgr)
        if update.frame_bgr is not None:
            self.view.set_frame(update.frame_bgr)
            if self.projector is not None:
                self.projector.set_frame(update.frame_bgr)
            self._sand_frames += 1
            if self.sand_watch is not None and self._sand_frames % 10 == 0:  # a look every 10 frames is plenty
                self.check_sand(update.frame_bgr)
        if update.tracked is not None:
            self.session.apply_poses(update.tracked.poses, t_s=update.tracked.t_s)
            if self.height_check is not None:
                self.height_check.add(update.tracked)
            if self.tracking_monitor is not None:
                import time

                delay = None if update.ready_at is None else (time.monotonic() - update.ready_at) + (update.tracked_in_s or 0.0)
                self.tracking_monitor.add(update.tracked, delay_s=delay, frame=update.frame_bgr)
        self._show_tracking()
        for event in update.events:
            self.session.on_tracker_event(event)
        if update.error:
            self.statusBar().showMessage(update.error, 15000)

    def _show_tracking(self) -> None:
        """The status strip, the Tracking panel and the view's marks, at most twice a second."""
        import time

        if self.tracking_monitor is None:
            return
        now = time.monotonic()
        if now - getattr(self, "_tracking_shown_at", 0.0) < 0.5:
            return
        self._tracking_shown_at = now
        status = self.tracking_monitor.status()
        heights = self.height_check.notes() if self.height_check is not None else ()
        self.tracking_strip.setText(" · ".join(part for part in (status.summary(), heights_summary(heights)) if part))
        self.tracking_strip.setStyleSheet(f"QLabel {{ color: {TEXT_COLORS['error'] if status.stalled else TEXT_COLORS['muted']};"
                                          " padding: 0 8px; }")
        self.tracking_strip.show()
        if self.tracking_panel is not None:
            self.tracking_panel.show_status(status)
            self.tracking_panel.show_heights(heights)
        self.view.tracking = status
        self.view.update()

    def check_sand(self, frame_bgr: Any) -> bool:
        """Compare a camera frame with the scan's view of the sand (units left out); once the sand has
        changed, say so in the status bar until it is rescanned. Returns whether it changed."""
        import cv2
        import numpy as np

        if self.sand_watch is None or self.calibration is None:
            return False
        ignore = np.zeros(frame_bgr.shape[:2], np.uint8)
        for u in self.session.snapshot().units:
            if u.on_table:
                ring = np.array([[u.x_in + 2.0 * np.cos(a), u.y_in + 2.0 * np.sin(a)] for a in np.linspace(0, 2 * np.pi, 12)])
                px = self.calibration.camera_from_table(ring, z_in=u.z_in)
                if np.all(np.isfinite(px)):
                    cv2.fillPoly(ignore, [np.rint(px).astype(np.int32)], 1)
        verdict = self.sand_watch.check(frame_bgr, ignore=ignore.astype(bool))
        if verdict.changed and not self.sand_notice:
            where = ""
            if verdict.centre_px is not None:
                x, y = self.calibration.table_from_camera(np.array([verdict.centre_px]), z_in=0.0)[0]
                where = f' around ({x:.0f}", {y:.0f}")' if np.isfinite(x) else ""
            self.sand_notice = (f"The sand has changed since the last scan{where}: heights and line of sight over the "
                                "ground are out of date; rescan (sandtable scan --quick)")
        if self.sand_notice:
            self.statusBar().showMessage(self.sand_notice)
        return verdict.changed

    def _turn_started(self) -> None:
        if self.live is not None and hasattr(self.live, "start_turn"):
            self.live.start_turn()

    def _session_changed(self, kind: str) -> None:
        if kind in ("state", "poses") and self.live is not None and hasattr(self.live, "show"):
            self.live.show(self.session.units())
        if kind == "attack" and self.session.pending is not None:
            self.view.set_tool("landing")
        if kind == "recording":
            self.actions_by_name["record"].setText("Stop recording" if self.session.recorder else "Start recording")
            self._recording_changed()

    # -- recording: what it holds and that it runs ------------------------------------------------
    def _build_recording_indicator(self) -> None:
        """A red "REC m:ss" in the status bar and the title while recording (nothing showed it did)."""
        self.rec_label = QLabel("")
        self.rec_label.setObjectName("rec-indicator")
        self.rec_label.setStyleSheet("QLabel { background: #b3261e; color: #ffffff; font-weight: bold; "
                                     "padding: 2px 10px; border-radius: 4px; }")
        self.rec_label.setToolTip("Recording: Ctrl+R stops it")
        self.rec_label.hide()
        self.statusBar().addPermanentWidget(self.rec_label)
        self.tracking_strip = QLabel("")
        self.tracking_strip.setObjectName("tracking-strip")
        self.tracking_strip.hide()
        self.statusBar().addPermanentWidget(self.tracking_strip)
        self._rec_timer = QTimer(self)
        self._rec_timer.setInterval(RULES_FRAME_MS)
        self._rec_timer.timeout.connect(self._recording_tick)
        self._rec_started = 0.0
        self._rec_frame = 0
        self._base_title = self.windowTitle()

    def _records_rules_frames(self) -> bool:
        """Without a tracked camera (the synthetic table), the units' places come from the game state:
        the window records them as the recording's frames, or the file holds no units and no poses."""
        return self.live is None or not hasattr(self.live, "set_recorder")

    def _recording_changed(self) -> None:
        import time

        if self.session.recorder is not None:
            self._rec_started, self._rec_frame = time.monotonic(), 0
            self._rec_timer.start()
            self._recording_tick()
        else:
            self._rec_timer.stop()
            self.rec_label.hide()
            self.setWindowTitle(self._base_title)

    def _recording_tick(self) -> None:
        import time

        recorder = self.session.recorder
        if recorder is None:
            return
        seconds = int(time.monotonic() - self._rec_started)
        self.rec_label.setText(f"\u25cf REC {seconds // 60}:{seconds % 60:02d}")
        self.rec_label.show()
        self.setWindowTitle(f"\u25cf REC — {self._base_title}")
        if self._records_rules_frames():
            from appmodel.tracking.units_as_poses import poses_from_units

            recorder.record_frame(self._rec_frame, self.session.now_s(), poses_from_units(self.session.units(),
                                                                                          self.session.now_s()))
            self._rec_frame += 1

    # -- closing --------------------------------------------------------------------------------
    def closeEvent(self, event: Any) -> None:  # noqa: N802
        self.timer.stop()
        if self.projector is not None:
            self.projector.close()
        self.settings = replace(self.settings, view_mode=self.view.mode,
                                window_geometry=bytes(self.saveGeometry().data()),
                                window_state=bytes(self.saveState().data()))
        if self.store is not None:
            save_settings(self.settings, self.store)
        if self.replay is None:
            self.session.close()  # a recording in progress is closed cleanly
        if self.live is not None:
            self.live.stop()
        self._disconnect()
        self._disconnect_turn()
        super().closeEvent(event)
