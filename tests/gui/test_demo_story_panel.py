"""The demo window's Story panel says the example ended in its wide column (beside it, the narrow
column cut the sentence off on a 1366x768 screen), and stays readable however long a step's words."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


class _Live:
    def __init__(self, t_s: float, finished: bool) -> None:
        self.story_t_s, self.finished, self.paused = t_s, finished, False

    def toggle_pause(self) -> None:
        self.paused = not self.paused


def test_the_end_of_the_example_is_said_where_it_has_room(qtbot) -> None:
    from demo.story import DemoTiming, build_story
    from gui.app import create_application
    from gui.demo.window import END_WORDS, StoryPanel

    create_application()
    story = build_story(timing=DemoTiming.short())
    end = story.beats[-1].t_s + 1.0
    playing = StoryPanel(story, _Live(story.beats[-1].t_s - 5.0, False))
    ended = StoryPanel(story, _Live(end, True))
    for panel in (playing, ended):
        qtbot.addWidget(panel)
        panel.resize(890, 110)  # the Story dock under the view of a 1366x768 window
        panel.show()
    assert END_WORDS not in playing.note.text() and "Playing" in playing.progress.text()
    assert ended.note.text() == END_WORDS and "The end of the example." in ended.progress.text()
    # the narrow column holds the step count and a short state, never a sentence to cut off
    assert all(len(line) <= 32 for line in ended.progress.text().splitlines()), ended.progress.text()
    assert ended.note.width() >= 4 * ended.progress.width()
