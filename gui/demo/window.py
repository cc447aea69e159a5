"""The demo in the companion's window: the usual main window, plus a Story panel narrating the steps.

:func:`open_demo_window` builds everything the demo plays on (story, synthetic webcam, table
registration, session, tracker, director, :class:`~demo.live.DemoLive`) and opens the
:class:`~gui.main_window.MainWindow` on it with a "Story" dock: the step being played in the
rulebook's words, what the rulebook says comes of it, the reading taken where the text is unclear,
how far the story is, and Pause (Space). Any of the demo's examples plays here (``example``: Down
Range's in-depth example by default, Force on Force's patrol, the generic rules' solo game). Everything else is the companion as players use it: the
roster, the attack panel with the odds, the log, the camera and top-down views, recording.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from demo.story import DemoStory


class StoryPanel(QWidget):
    """What is happening in the example, refreshed a few times a second from the live demo."""

    def __init__(self, story: DemoStory, live: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.story = story
        self.live = live
        row = QHBoxLayout(self)
        words = QVBoxLayout()
        side = QVBoxLayout()
        row.addLayout(words, 5)
        row.addLayout(side, 1)
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: bold")
        self.text = QLabel()
        self.expect = QLabel()
        self.note = QLabel()
        self.progress = QLabel()
        for label, column in ((self.heading, words), (self.text, words), (self.expect, words), (self.note, words),
                              (self.progress, side)):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            column.addWidget(label)
        self.expect.setStyleSheet("color: #ffd24a")
        self.note.setStyleSheet("color: #9fb0c8; font-style: italic")
        self.pause_button = QPushButton("Pause (Space)")
        self.pause_button.clicked.connect(self.toggle_pause)
        side.addWidget(self.pause_button)
        words.addStretch(1)
        side.addStretch(1)
        self._shown: tuple[Any, ...] = ()
        self.timer = QTimer(self)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.refresh()

    def toggle_pause(self) -> None:
        self.live.toggle_pause()
        self.refresh()

    def refresh(self) -> None:
        t = float(self.live.story_t_s)
        caption = self.story.caption_at(t)
        first = self.story.captions[0].t_start_s if self.story.captions else 0.0
        steps = len(self.story.captions)
        index = next((i for i, c in enumerate(self.story.captions) if c is caption), 0)
        ended = self.live.finished and t >= self.story.beats[-1].t_s
        if ended:
            state = "The end of the example."
        elif self.live.paused:
            state = "Paused — Space plays on."
        else:
            state = "Playing — Space pauses."
        key = (id(caption), t < first, state, int(t))
        if key == self._shown:
            return
        self._shown = key
        example = self.story.example
        if caption is None or t < first:
            self.heading.setText(example.title)
            self.text.setText(f"{example.cast} The camera is the synthetic table's webcam; every position comes from "
                              "the tracker.")
            self.expect.setText("")
            self.note.setText("")
        else:
            step = self.story.steps[index] if index < len(self.story.steps) else None
            self.heading.setText(example.heading(caption.section, caption.title))
            self.text.setText(caption.text)
            self.expect.setText(f"{example.expect_words}: {caption.expect}")
            self.note.setText(f"Reading taken: {step.note}" if step is not None and step.note else "")
        if ended:  # in the wide column: the narrow one beside it cut this off at 1366x768
            self.note.setText(END_WORDS)
        done = f"{int(t) // 60}:{int(t) % 60:02d} of {int(self.story.duration_s) // 60}:{int(self.story.duration_s) % 60:02d}"
        self.progress.setText(f"Step {min(index + 1, steps)} of {steps} · {done}\n{state}")
        self.pause_button.setText("Play (Space)" if self.live.paused else "Pause (Space)")


#: What the Story panel says once the example has ended.
END_WORDS = "Look around: click units, switch views (Tab), open the log; Ctrl+Q closes the window."


def add_story_panel(window: Any, story: DemoStory, live: Any) -> StoryPanel:
    """Dock the Story panel under the view (tabbed with the roster) and bind Space to pause/play."""
    panel = StoryPanel(story, live)
    dock = QDockWidget("Story", window)
    dock.setObjectName("dock-story")
    # Scrollable like the window's other docks: a long step's words stay readable under a 768-pixel screen.
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setWidget(panel)
    dock.setWidget(scroll)
    # Under the view, in front of the roster (a tab away): the table keeps the window's width.
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    roster = getattr(window, "docks", {}).get("Roster")
    if roster is not None:
        window.tabifyDockWidget(roster, dock)
    dock.raise_()
    action = QAction("Pause / play the demo", window)
    action.setShortcut(QKeySequence("Space"))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.triggered.connect(panel.toggle_pause)
    window.addAction(action)
    window.actions_by_name["demo_pause"] = action
    window.story_panel = panel

    def back_to_select(kind: str) -> None:
        # The window switches to the landing tool while a missed round waits; the demo picks the
        # landing point itself, so hand the mouse back once it has.
        if kind == "attack" and window.session.pending is None and window.view.tool == "landing":
            window.view.set_tool("select")

    disconnect = window.session.changed.connect(back_to_select)
    window.destroyed.connect(lambda *_: disconnect())
    return panel


def open_demo_window(*, example: Any = None, until: str | None = None, realtime: bool = True,
                     pause_at_end: bool = False, progress: Any = None) -> tuple[Any, Any]:
    """(window, live demo), the window not yet shown. ``example``: a :class:`~demo.examples.DemoExample`
    or its name (None: the in-depth example). ``pause_at_end``: pause the story just after its last step
    ends (screenshots), instead of at the end of the outro."""
    from gui.app import create_application
    from demo.director import DemoDirector
    from demo.examples import DemoExample, example_named
    from demo.footage import demo_camera, register_demo_table
    from demo.live import DemoLive
    from demo.story import DemoTiming, build_story
    from gui.main_window import MainWindow
    from appmodel.game_session import GameSession
    from appmodel.overlays.registry import OverlayToggles
    from gui.settings import AppSettings
    from tracker.pipeline import Tracker
    from tracker.roster import roster_from_scenario

    create_application()
    report = progress or (lambda stage, done, total: None)
    ex = example if isinstance(example, DemoExample) else example_named(example)
    story = build_story(example=ex, steps=ex.steps_until(until), timing=DemoTiming.full())
    camera = demo_camera(story)
    report("setting up the table", 0, 1)
    calibration = register_demo_table(camera, camera.scenario.render_frame(0).image_bgr)
    report("setting up the table", 1, 1)
    session = GameSession.from_scenario(story.scenario, source=str(story.scenario_path),
                                        base_dir=str(story.scenario_path.parent), seed=1)
    tracker = Tracker(roster=roster_from_scenario(story.scenario, source=str(story.scenario_path)), calibration=calibration,
                      terrain=camera.terrain)
    director = DemoDirector(story, session)
    stop_at_s = story.beats[-1].t_s + 0.5 if pause_at_end else None
    live = DemoLive(story, camera, tracker, director, realtime=realtime, stop_at_s=stop_at_s)
    settings = AppSettings(overlays=OverlayToggles(grid=False))
    # store=None: the demo never changes the user's remembered scenario, calibration or layout.
    window = MainWindow(session, settings=settings, store=None, calibration=calibration, live=live)
    window.setWindowTitle(f"Sandtable Companion — demo: {ex.title}")
    add_story_panel(window, story, live)
    window.statusBar().showMessage(f"The demo plays {ex.title}; Space pauses, F1 lists the shortcuts.")
    return window, live.start()


__all__ = ["StoryPanel", "add_story_panel", "open_demo_window"]
