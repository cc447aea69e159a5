"""The real main window under the offscreen platform: view switching, shortcuts and their help
overlay, tools, settings that persist (in a temporary INI file, never the user's), the CLI."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from gui.settings import AppSettings, load_settings, open_store, save_settings
from rules.downrange.examples.in_depth import SCENARIO_PATH


@pytest.fixture
def window(qtbot, tmp_path):
    from gui.app import create_application
    from appmodel.tracking.live_tracking import SyntheticLive
    from gui.main_window import MainWindow
    from appmodel.tracking.synthetic_feed import SyntheticFeed

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    feed = SyntheticFeed(session.table_size_in, width_px=640, height_px=360)
    live = SyntheticLive(feed).start()
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store, calibration=feed.calibration, live=live)
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    return w


def test_the_synthetic_camera_frame_arrives_without_blocking_the_ui(window, qtbot):
    qtbot.waitUntil(lambda: window.view.frame_bgr is not None, timeout=10000)
    assert window.view.frame_bgr.shape == (360, 640, 3)


def test_tab_switches_views_and_f1_lists_every_shortcut(window, qtbot):
    from PySide6.QtCore import Qt

    assert window.view.mode == "camera"
    window.actions_by_name["switch_view"].trigger()
    assert window.view.mode == "table"
    window.actions_by_name["help"].trigger()
    text = window.view.help_text
    assert "Tape measure" in text and "Ctrl+R" in text and "Ctrl+Return" in text and "Tab" in text
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert window.view.help_text is None


def test_clicking_a_unit_selects_it_and_the_tape_measures_base_to_base(window, qtbot):
    from PySide6.QtCore import QPoint, Qt

    window.view.set_mode("table")
    t = window.view.transform()
    sergeant, rifleman = window.session.unit(10), window.session.unit(31)
    p = t.device_from_table(np.array([[sergeant.x_in, sergeant.y_in], [rifleman.x_in, rifleman.y_in]]))
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=QPoint(int(p[0, 0]), int(p[0, 1])))
    assert window.session.snapshot().selected_unit == 10
    assert window.roster.table.selectionModel().selectedRows()[0].row() == [u.unit_id for u in window.session.units()].index(10)
    window.actions_by_name["tape_tool"].trigger()
    qtbot.mousePress(window.view, Qt.MouseButton.LeftButton, pos=QPoint(int(p[0, 0]), int(p[0, 1])))
    qtbot.mouseMove(window.view, QPoint(int(p[1, 0]), int(p[1, 1])))
    qtbot.mouseRelease(window.view, Qt.MouseButton.LeftButton, pos=QPoint(int(p[1, 0]), int(p[1, 1])))
    tape = window.session.snapshot().tape
    assert (tape.start_unit, tape.end_unit) == (10, 31)
    assert tape.distance_in == pytest.approx(31.0, abs=0.01)  # centres 32" apart, two 0.5" bases


def test_overlay_toggles_and_view_persist_between_runs(window, tmp_path):
    window.actions_by_name["overlay_voice"].trigger()  # off
    window.actions_by_name["projector_odds"].trigger()  # the instructor shows the odds
    window.actions_by_name["switch_view"].trigger()
    window.close()
    again = load_settings(open_store(tmp_path / "settings.ini"))
    assert again.overlays.voice is False and again.overlays.range is True
    assert again.projector_overlays.odds is True
    assert again.view_mode == "table"


def test_settings_round_trip_and_a_damaged_file_falls_back_to_defaults(tmp_path):
    from gui.compositor import ensure_qt_app

    ensure_qt_app()
    store = open_store(tmp_path / "s.ini")
    s = AppSettings(camera="2", projector_screen=2, dice_mode="entered", dice_seed=7).with_overlay("fan", False)
    save_settings(s, store)
    assert load_settings(open_store(tmp_path / "s.ini")) == s
    (tmp_path / "bad.ini").write_text("[view]\nmode=sideways\n[screens]\nprojector=two\n")
    bad = load_settings(open_store(tmp_path / "bad.ini"))
    assert bad.view_mode == "camera" and bad.projector_screen == AppSettings().projector_screen


def test_recording_from_the_window_and_turns_restart_movement(window, tmp_path):
    window.settings = window.settings.__class__(**{**window.settings.__dict__, "recordings_dir": str(tmp_path)})
    window.store = None  # no file dialog: record to the default name in recordings_dir
    window.actions_by_name["record"].trigger()
    assert window.session.recorder is not None
    started = []
    window.session.turn_started.connect(lambda: started.append(True))
    window.actions_by_name["initiative"].trigger()
    window.actions_by_name["start_turn"].trigger()
    assert started and window.session.state.active_side
    window.actions_by_name["bookmark"].trigger()
    from gui.bookmark_dialog import BookmarkDialog

    window.findChild(BookmarkDialog).reject()  # Esc: bookmarked all the same, without a note
    window.actions_by_name["record"].trigger()
    assert window.session.recorder is None
    files = list(tmp_path.glob("game-*.sqlite"))
    assert len(files) == 1
    from tracker.recording import RecordingReader

    with RecordingReader(files[0]) as reader:
        kinds = {r.kind for r in reader.rules_events()}
        assert {"log", "view"} <= kinds and any(k.startswith("state:") for k in kinds)
        assert len(reader.bookmarks()) == 1


def test_cli_screenshot_of_the_real_window_and_a_bad_scenario_is_one_line(tmp_path, capsys):
    from cli.main import main

    out = tmp_path / "window.png"
    assert main(["gui", "--settings", str(tmp_path / "s.ini"), "--select", "40", "--size", "1000x700",
                 "--screenshot", str(out)]) == 0
    import cv2

    img = cv2.imread(str(out))
    assert img.shape == (700, 1000, 3) and img.std() > 20
    assert main(["gui", "--settings", str(tmp_path / "s.ini"), "--scenario", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.toml" in err[0]


def test_hand_edits_of_focus_and_movement_reach_the_rules(window):
    window.session.select_unit(13)
    window.roster.edit_selected(changes={"focused": "set by hand", "moved_in": 3.0, "injured": True})
    unit = window.session.unit(13)
    assert "focused" in unit.tokens and "injured" in unit.tokens
    assert unit.move_left_in == 1.0  # injured: Move 8" halved to 4", 3" of it used
    row = [u.unit_id for u in window.session.units()].index(13)
    assert "focused" in window.roster.table.item(row, 7).text()


def test_nothing_on_the_table_shows_through_the_f1_list(window):
    from PySide6.QtGui import QColor, QImage, QPainter

    from gui.compositor import bgr_from_qimage

    window.actions_by_name["help"].trigger()
    # The list painted over white (names and ring labels are white): its background stays its own colour.
    image = QImage(window.view.width(), window.view.height(), QImage.Format.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    window.view._paint_help(painter)
    painter.end()
    box = window.view.help_box_px.toRect().adjusted(6, 6, -6, -6)
    inside = bgr_from_qimage(image)[box.top():box.bottom(), box.left():box.right()].reshape(-1, 3)
    background = np.all(inside == (16, 12, 10), axis=1)  # BGR of the list's #0a0c10
    assert background.mean() > 0.5  # most of the list is its background, not a blend with what is beneath
