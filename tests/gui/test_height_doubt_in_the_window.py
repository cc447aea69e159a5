"""The window says when a unit's tag size and base height disagree: the real tracker on the synthetic
table, whose vehicles carry 1.5" tags where the scenario's roster gives no size (the layout's 1"
then): the Tracking panel names both vehicles with the two heights, the status strip counts them, and
the infantry, as the roster describes them, are not named."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from gui_helpers import ScriptedLive
from rules.downrange.examples.in_depth import SCENARIO_PATH


@pytest.mark.parametrize("sizes_in_roster", [False, True])
def test_the_tracking_panel_names_units_whose_tag_size_and_base_height_disagree(qtbot, tmp_path, monkeypatch, sizes_in_roster):
    import appmodel.tracking.height_check as hc
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from tracker.frames import Frame
    from tracker.pipeline import Tracker
    from tracker.roster import load_roster

    monkeypatch.setattr(hc, "LOOK_EVERY_S", 0.0)
    scenario = SCENARIO_PATH
    if sizes_in_roster:  # the scenario says what was printed: the vehicles' tags are 1.5"
        text = SCENARIO_PATH.read_text(encoding="utf-8")
        for tag in (15, 40):
            text = text.replace(f"tag_id = {tag}\n", f"tag_id = {tag}\ntag_size_in = 1.5\n", 1)
        scenario = tmp_path / "in_depth.toml"
        scenario.write_text(text, encoding="utf-8")
    create_application()
    session = GameSession.from_scenario_file(scenario, seed=1)
    feed = SyntheticFeed(session.table_size_in, width_px=1280, height_px=720)
    tracker = Tracker(roster=load_roster(scenario), calibration=feed.calibration)
    image = feed.render(session.units())
    live = ScriptedLive(tracker, image)
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store, calibration=feed.calibration, live=live)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    w.docks["Tracking"].raise_()
    for i in range(4):
        live.feed(tracker.process(Frame(image, i, i / 10)))
        qtbot.wait(150)
    qtbot.waitUntil(lambda: "fps" in w.tracking_strip.text(), timeout=3000)
    qtbot.wait(600)  # the status is redrawn at most twice a second
    panel = w.tracking_panel
    if sizes_in_roster:
        assert (panel.heights is None or not panel.heights.isVisible()) and "in doubt" not in w.tracking_strip.text()
        return
    qtbot.waitUntil(lambda: panel.heights is not None and panel.heights.isVisible(), timeout=3000)
    text = panel.heights.text()
    for name, tag in (("UTV", 15), ("ZBL-09", 40)):
        assert f"{name} (tag {tag}): the tag size says " in text
    assert 'the base height says 1"' in text and "check the roster's tag_size_in (1\" now)" in text
    assert "Sergeant" not in text and "Rifleman" not in text
    assert "2 unit heights in doubt (see Tracking)" in w.tracking_strip.text()
    if os.environ.get("SANDTABLE_SHOTS"):
        w.grab().save(os.path.join(os.environ["SANDTABLE_SHOTS"], "height-doubt.png"))
