"""The companion's main window: the table view in the middle, roster, attack, turn and log panels
around it, the projector/presenter window, recording, replay, and a keyboard shortcut for everything
used during play (F1 shows them over the view).

The window lays the panels out and wires them; its workflows live beside it, after napari's
``qt_main_window.py`` and ``_qapp_model/qactions``:

* :mod:`gui.window_actions`: the menus and shortcuts;
* :mod:`gui.projector_calibration`: calibrating the projector from the menu;
* :mod:`gui.recording_controls`: recording start/stop, the REC indicator and its tick;
* :mod:`gui.live_presenter`: the live loop's poll, the tracking status and the sand-change watch.

Three modes, told apart by the arguments: ``live`` a feed (a tracked camera, :class:`LiveTracking`,
or the synthetic table, :class:`SyntheticLive`), ``replay`` a recording, or neither (a plain board).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMessageBox, QScrollArea, QWidget

from appmodel.game_session import GameSession
from appmodel.tracking.live_tracking import LiveTracking, SyntheticLive
from calibration.projector import ProjectorCalibration, save_projector_calibration
from calibration.table_calibration import TableCalibration
from gui import window_actions
from gui.live_presenter import POLL_MS, LivePresenter
from gui.panels.action_panel import ActionPanel
from gui.panels.attack_panel import AttackPanel
from gui.panels.log_panel import LogPanel
from gui.panels.recorded_attack_panel import RecordedAttackPanel
from gui.panels.review_panel import ReviewPanel
from gui.panels.roster_panel import RosterPanel
from gui.panels.timeline_panel import TimelinePanel
from gui.panels.tracking_panel import TrackingPanel
from gui.panels.turn_panel import TurnPanel
from gui.projector_calibration import PATTERN_SETTLE_MS, ProjectorCalibrationRun, default_projector_path
from gui.projector_window import ProjectorWindow
from gui.recording_controls import RecordingControls
from gui.result_card_view import ResultCardView
from gui.settings import AppSettings, save_settings
from gui.table_view import TableView
from gui.video_pane import VideoPane

__all__ = ["MainWindow", "default_projector_path", "first_window_size"]

#: How long the first window waits for the window manager's frame before it fits it to the screen:
#: FRAME_TRIES looks, FRAME_RETRY_MS apart (a frameless session, e.g. a kiosk, just waits this out).
FRAME_TRIES, FRAME_RETRY_MS = 50, 100


def first_window_size(available: Any, *, frame_px: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """The window's first size (its inside, without the window manager's frame): 1600x960 where the
    screen has room, else what the screen's work area offers once the frame (``frame_px``: its
    width and height, title bar included) is taken off — a 1366x768 laptop gets its whole work area
    and the status bar and the Log's buttons stay above the screen's bottom edge."""
    fw, fh = frame_px
    return min(1600, max(800, available.width() - fw)), min(960, max(560, available.height() - fh))


class MainWindow(QMainWindow):
    def __init__(self, session: GameSession, *, settings: AppSettings | None = None, store: Any | None = None,
                 calibration: TableCalibration | None = None,
                 projector_calibration: ProjectorCalibration | None = None,
                 live: LiveTracking | SyntheticLive | None = None, replay: Any | None = None,
                 replay_clock: Callable[[], float] = time.monotonic, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.class_view: Any | None = None
        #: The window that took this one's place when another scenario was opened (gui/scenario_opening.py).
        self.replaced_by: MainWindow | None = None
        self.settings = settings or AppSettings()
        self.store = store
        self.calibration = calibration
        self.projector_calibration = projector_calibration
        self.live = live
        #: the feed when it tracks a camera (it records and restarts turns on the tracking thread)
        self.tracked_live = live if isinstance(live, LiveTracking) else None
        self.replay = replay
        self.projector: ProjectorWindow | None = None
        self.calibration_run: ProjectorCalibrationRun | None = None
        #: How long the calibration pattern settles before a frame is taken (tests shorten it).
        self.pattern_settle_ms = PATTERN_SETTLE_MS
        self.last_message = ""
        self._message_box: QMessageBox | None = None
        #: A recording being read for Ctrl+O (gui/recording_opening.py), and the replay window it opened.
        self.recording_opening: Any | None = None
        self._replay_window: QMainWindow | None = None
        self.setWindowTitle("Sandtable Companion" + (f" — replay of {Path(replay.path).name}" if replay else ""))
        self.view = TableView(session, calibration=calibration, toggles=self.settings.overlays, mode=self.settings.view_mode)
        self.setCentralWidget(self.view)
        self.view.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.roster = RosterPanel(session)
        # One declaration panel for every ruleset's attack, built from the ruleset's form.
        self.attack = AttackPanel(session)
        self.turn = TurnPanel(session)
        self.result_card = ResultCardView(self.view)
        self.attack.on_resolved.append(self.result_card.show_card)
        self.view.landed.connect(self.attack.landing_resolved)
        self.view.landing_by_hand = self.attack.entered.isChecked
        # Every other action a unit can take (a treatment, a Signal, a boarding...), as the ruleset lists them.
        self.actions_panel = ActionPanel(session) if replay is None else None
        if self.actions_panel is not None:
            self.actions_panel.on_resolved.append(self.result_card.show_card)
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
        if self.actions_panel is not None:
            self._dock("Actions", self.actions_panel, Qt.DockWidgetArea.RightDockWidgetArea)
            self.tabifyDockWidget(self.docks["Attack"], self.docks["Actions"])
        self.docks["Attack"].raise_()
        self.timeline: TimelinePanel | None = None
        self.review: ReviewPanel | None = None
        self.video: VideoPane | None = None
        if replay is not None:
            self._build_replay(replay, replay_clock)
        # A feed that tracks a camera hands its tracker over (LiveTracking; the tests' scripted feeds too).
        self.live_presenter = LivePresenter(self, getattr(live, "tracker", None))
        self.tracking_panel: TrackingPanel | None = None
        if self.live_presenter.tracking_monitor is not None:
            # Tracking you can see: a status strip, a panel with each unit's state, marks on the view.
            self.tracking_panel = TrackingPanel()
            self._dock("Tracking", self.tracking_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
            self.tabifyDockWidget(self.docks["Roster"], self.docks["Tracking"])
            self.docks["Roster"].raise_()
        self.actions_by_name: dict[str, QAction] = {}
        # (built before the actions: Ctrl+R and the camera-video toggle are its slots)
        self.recording = RecordingControls(self)
        window_actions.build_actions(self)
        if replay is not None:
            # A replay shows the game as it was: nothing here may change it (a resolve or an edit
            # would be overwritten by the next moment of the recording anyway).
            for panel in (self.attack, self.turn):
                panel.setEnabled(False)
            self.attack.stop_following()  # the Attack dock holds the recorded attack instead
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
            if isinstance(live, SyntheticLive):
                live.show(session.units())
        if self.settings.window_geometry:
            self.restoreGeometry(QByteArray(self.settings.window_geometry))
            # Kept as it was saved, but brought inside the work area once framed (fit_frame_to_screen):
            # a window saved with its frame past the screen's edge came back at a size Qt chose.
            self._first_size, self._restored = (self.width(), self.height()), True
        else:
            self._first_size = first_window_size(self.screen().availableGeometry().size())
            self.resize(*self._first_size)
        self.fit_docks()
        if self.settings.window_state:
            self.restoreState(QByteArray(self.settings.window_state))
        self.statusBar().showMessage("Click a unit to select it; F1 lists every shortcut.")
        # the recording indicator first, then the tracking strip (their order in the status bar)
        self.statusBar().addPermanentWidget(self.recording.label)
        self.statusBar().addPermanentWidget(self.live_presenter.strip)
        self.rec_label = self.recording.label
        self.tracking_strip = self.live_presenter.strip

    def _build_replay(self, replay: Any, clock: Callable[[], float]) -> None:
        """The replay's after-action review: the timeline (speeds, pause at events, comms lane) under the
        view, the filtered event list with its result cards beside it, and the recording's own camera
        video when it has one."""
        assert self.recorded_attack is not None
        self.timeline = TimelinePanel(replay, clock=clock)
        # Playing, each tick's state is drawn by the view's worker; a jump the user makes, at once.
        self.view.renderer.states_in_background = lambda: self.timeline.playing
        self.review = ReviewPanel(replay)
        timeline, review = self.timeline, self.review
        timeline.set_filters(kinds=review.kinds, side=review.side, unit_id=review.unit_id)
        review.on_filters.append(lambda kinds, side, unit_id: (timeline.set_filters(kinds=kinds, side=side, unit_id=unit_id),
                                                               self._highlight(timeline.replay.t_s)))
        review.on_jump.append(timeline.seek)
        timeline.on_seek.append(self.recorded_attack.show_at)
        timeline.on_seek.append(review.follow)
        timeline.on_seek.append(self._highlight)
        timeline.on_paused_at.append(self._paused_at)
        self._dock("Timeline", timeline, Qt.DockWidgetArea.BottomDockWidgetArea)
        # Never so short that its buttons scroll out of view (the window's docks share a shrinking window).
        scroll = self.docks["Timeline"].widget()
        scroll.setMinimumHeight(timeline.sizeHint().height() + 2 * scroll.frameWidth())
        self.tabifyDockWidget(self.docks["Roster"], self.docks["Timeline"])
        self.docks["Timeline"].raise_()
        self._dock("Events", review, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.docks["Attack"], self.docks["Events"])
        self.docks["Events"].raise_()
        if replay.video_path is not None:
            from appmodel.recording.video_frames import RecordedVideo

            try:
                video = RecordedVideo(replay.video_path, replay.reader.frame_times())
            except ValueError as exc:
                self.statusBar().showMessage(f"{exc}: the replay goes on without it", 15000)
            else:
                self.video = VideoPane(video)
                self.video.on_image.append(self.view.set_frame)
                timeline.on_seek.append(self.video.request)
                self._dock("Camera video", self.video, Qt.DockWidgetArea.LeftDockWidgetArea)
        timeline.seek(replay.t_s)

    def _highlight(self, t_s: float) -> None:
        if self.review is not None:
            self.view.set_highlights(self.review.highlighted_units(t_s))

    def _paused_at(self, event: Any) -> None:
        """Playback stopped by itself at ``event``: its card over the table, as after a live roll."""
        if self.review is not None:
            self.review.show_event(event)
        if event.card is not None:
            self.result_card.show_card(event.card)
        self.statusBar().showMessage(f"Paused at: {event.text[:160]} (Space plays on)", 8000)

    def fit_docks(self) -> None:
        """Share the window as a table-side screen needs it: the attack/turn column about a third of the
        width and most of its height, the log below it, the roster a strip under the view."""
        w, h = max(self.width(), 800), max(self.height(), 560)
        self.resizeDocks([self.docks["Attack"]], [int(min(680, max(430, w * 0.34)))], Qt.Orientation.Horizontal)
        # The log gets at least its list's two lines and its buttons (a dock title, ~22 px, included).
        log_px = max(int(h * 0.14), self.log_panel.minimumSizeHint().height() + 30)
        self.resizeDocks([self.docks["Attack"], self.docks["Log"]], [h - log_px, log_px], Qt.Orientation.Vertical)
        if "Timeline" in self.docks:  # just its slider, lane and buttons: the event list is in the Events dock
            dock, scroll = self.docks["Timeline"], self.docks["Timeline"].widget()
            title_px = dock.sizeHint().height() - scroll.sizeHint().height()  # (its scroll area hints less than it holds)
            panel_px = self.timeline.sizeHint().height() if self.timeline is not None else 0
            self.resizeDocks([dock], [title_px + 2 * scroll.frameWidth() + panel_px], Qt.Orientation.Vertical)
        else:
            self.resizeDocks([self.docks["Roster"]], [int(min(230, h * 0.2))], Qt.Orientation.Vertical)
        if "Camera video" in self.docks:  # beside the table, a quarter of the width
            self.resizeDocks([self.docks["Camera video"]], [int(min(520, max(240, w * 0.24)))], Qt.Orientation.Horizontal)

    def resizeEvent(self, event: Any) -> None:  # Qt's name
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
        menu = getattr(self, "panels_menu", None)
        if menu is not None:  # a dock added after the menus were built (the class view) joins View > Panels
            toggle = dock.toggleViewAction()
            toggle.setText(title)
            menu.addAction(toggle)


    # -- keys and view ----------------------------------------------------------------------------
    def help_lines(self) -> list[str]:
        return window_actions.help_lines(self.actions_by_name)

    def toggle_help(self) -> None:
        self.view.help_text = None if self.view.help_text else "\n".join(self.help_lines())
        self.view.update()

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def escape(self) -> None:
        """Esc: close the help, then the result card, then full screen; and back to selecting units."""
        if self.view.help_text:
            self.toggle_help()
        elif self.result_card.showing:
            self.result_card.dismiss()
        elif self.isFullScreen():
            self.showNormal()
        self.view.set_tool("select")

    def set_overlay(self, name: str, on: bool) -> None:
        self.settings = self.settings.with_overlay(name, on)
        self.view.set_toggles(self.settings.overlays)

    def set_projector_overlay(self, name: str, on: bool) -> None:
        self.settings = self.settings.with_projector_overlay(name, on)
        self.live_presenter.rescans.hold_off()  # the sand's new light is no sculptor's hands
        if self.projector is not None and self.projector.mode == "projector":
            self.projector.set_toggles(self.settings.projector_overlays)
        if self.class_view is not None:  # the class sees what the players see
            self.class_view.set_toggles(self.settings.projector_overlays)

    def choose_screen(self, kind: str, index: int) -> None:
        """Where the projector (or presenter) window goes full screen, from now on."""
        field_name = "projector_screen" if kind == "projector" else "presenter_screen"
        self.settings = replace(self.settings, **{field_name: int(index)})
        if self.projector is not None and self.projector.mode == kind and self.projector.isVisible():
            self.projector.show_on_screen(index)

    # -- class view -----------------------------------------------------------------------------
    def attach_class_view(self, view: Any) -> None:
        """Show where the class view (``classview.live.LiveClassView``) is served, with its QR code,
        and keep it showing what the players see."""
        from gui.class_view_panel import ClassViewPanel

        self.class_view = view
        view.set_toggles(self.settings.projector_overlays)
        if getattr(view, "takes_bookmarks", False) and self.replay is None:
            # The instructor's link's bookmarks are made here, on the session's thread (Ctrl+B's path).
            self.class_view_requests = QTimer(self)
            self.class_view_requests.setInterval(100)
            self.class_view_requests.timeout.connect(view.run_requests)
            self.class_view_requests.start()
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
        if self.calibration is None or self.live is None:
            self.notify("Projector calibration", "Calibrate the table and start the camera first: the camera must "
                         "see the pattern the projector throws onto the table.")
            return
        run = ProjectorCalibrationRun(self.session, self.calibration, screen_index=self.settings.projector_screen,
                                      settle_ms=self.pattern_settle_ms, on_result=self._projector_calibrated,
                                      on_failure=self._projector_calibration_failed)
        self.calibration_run = run
        self.statusBar().showMessage(f"showing the calibration pattern on screen {run.screen_index + 1}; the camera "
                                     f"takes a frame in {PATTERN_SETTLE_MS / 1000:g} s…")

    def _projector_calibration_failed(self, reason: str) -> None:
        self.calibration_run = None
        self.notify("Projector calibration", reason, warning=True)

    def _projector_calibrated(self, result: ProjectorCalibration) -> None:
        self.calibration_run = None
        path = self.settings.projector_calibration_path or default_projector_path()
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            save_projector_calibration(result, path)
        except OSError as exc:
            self.notify("Projector calibration", f"{result.summary()}\nbut it could not be saved to {path} ({exc}); "
                         "choose another file with --projector", warning=True)
        else:
            self.settings = replace(self.settings, projector_calibration_path=str(path))
        self.projector_calibration = result
        if self.projector is not None and self.projector.mode == "projector":
            self.projector.projector_calibration = result
            self.projector.update()
        self.notify("Projector calibration", f"{result.summary()}\nSaved to {path}.")

    def notify(self, title: str, text: str, *, warning: bool = False) -> None:
        """Tell the user in the status bar and a message box that does not stop the live loop."""
        self.last_message = text
        self.statusBar().showMessage(text.replace("\n", " "), 15000)
        box = QMessageBox(QMessageBox.Icon.Warning if warning else QMessageBox.Icon.Information, title, text,
                          QMessageBox.StandardButton.Ok, self)
        box.setModal(False)
        box.show()
        self._message_box = box

    def open_scenario(self) -> None:
        """Game > Open a scenario… (gui/scenario_opening.py)."""
        from gui.scenario_opening import ask_and_open_scenario

        ask_and_open_scenario(self)

    # -- replay ---------------------------------------------------------------------------------
    def open_replay(self) -> None:
        """Record > Open a recording… (Ctrl+O): read on a worker thread with its progress shown
        (gui/recording_opening.py), then replayed in a window of its own."""
        from gui.recording_opening import ask_and_open_recording

        ask_and_open_recording(self)

    # -- the live loop (gui/live_presenter.py) ----------------------------------------------------
    def poll_live(self) -> None:
        """Take what the tracking thread produced since the last tick (never waits for it)."""
        self.live_presenter.poll()

    def check_sand(self, frame_bgr: Any) -> bool:
        return self.live_presenter.check_sand(frame_bgr)

    @property
    def sand_watch(self) -> Any | None:
        """Compares camera frames with the relief scan's view of the sand (``calibration.sand_change``)."""
        return self.live_presenter.sand_watch

    @sand_watch.setter
    def sand_watch(self, watch: Any | None) -> None:
        self.live_presenter.sand_watch = watch

    @property
    def tracking_monitor(self) -> Any | None:
        return self.live_presenter.tracking_monitor

    def _turn_started(self) -> None:
        if self.tracked_live is not None:
            self.tracked_live.start_turn()

    def _session_changed(self, kind: str) -> None:
        if kind in ("state", "poses") and isinstance(self.live, SyntheticLive):
            self.live.show(self.session.units())
        if kind == "attack" and self.session.pending is not None:
            self.view.set_tool("landing")
        if kind == "recording":
            self.recording.changed()

    # -- closing --------------------------------------------------------------------------------
    def showEvent(self, event: Any) -> None:  # Qt's name
        super().showEvent(event)
        if getattr(self, "_first_size", None) and not getattr(self, "_frame_fitted", False):
            self._frame_fitted = True
            # The frame (title bar, borders) is known only once the window manager has framed the
            # window: then the window is shrunk so that frame and all fit the work area.
            self._frame_tries = 0
            QTimer.singleShot(0, self.fit_frame_to_screen)

    def fit_frame_to_screen(self) -> None:
        """Shrink and move the window so that its frame lies inside the screen's work area."""
        from PySide6.QtGui import QGuiApplication

        screen = self.screen()
        if screen is None or (self.width(), self.height()) != getattr(self, "_first_size", None):
            return  # sized by someone else since (a screenshot's --size, a test): theirs stands
        area = screen.availableGeometry()
        frame, inside = self.frameGeometry(), self.geometry()
        margins = (frame.width() - inside.width(), frame.height() - inside.height())
        if margins == (0, 0) and QGuiApplication.platformName() not in ("offscreen", "minimal") \
                and self._frame_tries < FRAME_TRIES:
            # A window manager (openbox, X11) frames the window some time after it is shown: until it
            # has, Qt knows no frame, and the title bar then pushed the bottom 20 px off the screen.
            self._frame_tries += 1
            QTimer.singleShot(FRAME_RETRY_MS, self.fit_frame_to_screen)
            return
        if getattr(self, "_restored", False):  # the user's size, only what lies off the work area taken in
            if QGuiApplication.platformName() in ("offscreen", "minimal"):
                return  # no screen edge to keep inside (a screenshot, a test)
            w, h = min(inside.width(), area.width() - margins[0]), min(inside.height(), area.height() - margins[1])
        else:
            w, h = first_window_size(area.size(), frame_px=margins)
            w, h = min(w, inside.width()), min(h, inside.height())
        if (w, h) != (inside.width(), inside.height()):
            self.resize(w, h)
        x = min(max(frame.x(), area.x()), area.x() + area.width() - (w + margins[0]))
        y = min(max(frame.y(), area.y()), area.y() + area.height() - (h + margins[1]))
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

    def closeEvent(self, event: Any) -> None:
        self.timer.stop()
        self.live_presenter.rescans.close()
        if self.projector is not None:
            self.projector.close()
        self.settings = replace(self.settings, view_mode=self.view.mode,
                                window_geometry=bytes(self.saveGeometry().data()),
                                window_state=bytes(self.saveState().data()))
        if self.store is not None:
            save_settings(self.settings, self.store)
        if self.replay is None:
            self.session.close()  # a recording in progress is closed cleanly
        if self.video is not None:
            self.video.close_video()
        if self.timeline is not None:
            self.timeline.timer.stop()
        if self.live is not None:
            self.live.stop()
        self._disconnect()
        self._disconnect_turn()
        super().closeEvent(event)
