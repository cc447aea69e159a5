"""The debrief's table timeline, opened offline in a real headless Chromium: the units where the
recording had them, play and pause, jump to the next engagement; and the thinned data behind it."""
from __future__ import annotations

import math
import re
import time
from pathlib import Path

import pytest

from classview_helpers import open_browser, page_errors, wait_for
from classview.timeline import MAX_FRAMES, build_timeline, report_timeline, sample_times
from classview.tracks import HEADING_BOUND_DEG, POSITION_BOUND_IN, pose_at
from demo.example_recording import record_in_depth_example
from debrief.report import write_debrief_report
from appmodel.recording.reader import TRAIL_STEP_S
from appmodel.replay_model import ReplayModel
from tracker.recording import RecordingReader

BASE_CENTRE_JS = """
const el = document.querySelector('#class-timeline svg.table path[data-unit="' + arguments[0] + '"]');
if (!el) return null;
const b = el.getBBox();
return [b.x + b.width / 2, b.y + b.height / 2];
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("timeline")
    recording = record_in_depth_example(folder / "in_depth.sqlite")
    facts = write_debrief_report(recording, folder / "report.html", timeline=report_timeline)  # as `sandtable debrief` does
    return recording, folder / "report.html", facts


def test_sampling_keeps_every_decision_and_bounds_a_long_game() -> None:
    assert sample_times(3.0, [1.26, 9.0]) == [0.0, 0.5, 1.0, 1.26, 1.5, 2.0, 2.5, 3.0]
    three_hours = sample_times(3 * 3600.0, [])
    assert len(three_hours) <= MAX_FRAMES + 2


def test_the_timeline_stores_each_shape_once_and_follows_the_recorded_poses(report) -> None:
    recording, _, facts = report
    timeline = build_timeline(recording, engagement_times=[e.t_s for e in facts.engagements])
    frames = timeline["frames"]
    assert frames[0]["t_s"] == 0.0 and [f["t_s"] for f in frames] == sorted(f["t_s"] for f in frames)
    shown = sum(len(f["i"]) for f in frames)
    assert len(timeline["items"]) < shown / 3  # items shared between frames are stored once
    tracks = {tr["id"]: tr for tr in timeline["tracks"]}
    replay = ReplayModel(recording)
    try:
        # Every sampled moment and every pose the debrief reads (one a half second, each stop and lift):
        # each unit rebuilt from its track stands within the bound of where the replay (the recording) has it.
        with RecordingReader(recording) as reader:
            read = [t for uid in reader.unit_ids for t in reader.track_of(uid, step_s=TRAIL_STEP_S)[:, 0].tolist()]
        times = sorted({f["t_s"] for f in frames} | set(read))
        for t in times:
            for u in replay.session.ruleset.units(replay.state_at(t)):
                x, y, heading = pose_at(tracks[u.unit_id], t)
                assert math.hypot(x - u.x_in, y - u.y_in) <= POSITION_BOUND_IN + 1e-9, (u.name, t)
                assert abs((heading - u.heading_deg + 180) % 360 - 180) <= HEADING_BOUND_DEG + 0.05, (u.name, t)
    finally:
        replay.close()
    assert timeline["engagements"][0] == pytest.approx(facts.engagements[0].t_s)


def test_the_report_plays_pauses_and_jumps_to_the_next_engagement_offline(report, tmp_path: Path) -> None:
    recording, html_path, facts = report
    text = html_path.read_text(encoding="utf-8")
    assert not re.search(r'<script[^>]+src=|<link[^>]+href=', text)  # one file: nothing fetched
    browser = open_browser(1366, 768)
    try:
        browser.get(html_path.as_uri())
        start = wait_for(lambda: browser.execute_script(BASE_CENTRE_JS, 11), what="the mortar gunner's base")
        replay = ReplayModel(recording)
        depth = replay.session.table_size_in[1]
        u0 = next(u for u in replay.session.ruleset.units(replay.state_at(0.0)) if u.unit_id == 11)
        assert start == pytest.approx([u0.x_in, depth - u0.y_in], abs=0.1)

        root = browser.find_element("id", "class-timeline")
        root.find_element("css selector", ".controls .next").click()
        first = facts.engagements[0].t_s
        assert float(root.get_attribute("data-t")) == pytest.approx(first, abs=0.01)
        assert "Round" in root.find_element("css selector", '[data-part="turn"]').text
        assert "fires" in root.find_element("css selector", '[data-part="roll"]').text
        at = browser.execute_script(BASE_CENTRE_JS, 11)
        u = next(u for u in replay.session.ruleset.units(replay.state_at(first)) if u.unit_id == 11)
        assert at == pytest.approx([u.x_in, depth - u.y_in], abs=0.1)
        replay.close()

        root.find_element("css selector", ".controls .play").click()
        wait_for(lambda: float(root.get_attribute("data-t")) > first + 1.0, what="the timeline to play")
        root.find_element("css selector", ".controls .play").click()  # pause
        paused = float(root.get_attribute("data-t"))
        time.sleep(0.5)
        assert float(root.get_attribute("data-t")) == paused
        assert root.get_attribute("data-playing") == "no"
        assert page_errors(browser) == []
        browser.save_screenshot(str(tmp_path / "timeline.png"))
    finally:
        browser.quit()


REBUILT_JS = """
const data = JSON.parse(document.getElementById('class-timeline-data').textContent);
const S = window.ClassViewScrub;
return arguments[0].map(function (t) {
  const scene = S.sceneAt(data, S.frameAt(data, t), t);
  const poses = {};
  scene.units.forEach(function (u) { poses[u.id] = S.poseAt(data, u.id, t); });
  return {units: scene.units, poses: poses,
          voice: scene.items.filter(function (i) { return i.layer === 'voice'; })};
});
"""


def test_the_page_rebuilds_the_recorded_scene_at_every_sampled_moment(report) -> None:
    """The compact timeline (tracks, shapes in units' frames, a moment only where something changed)
    turned back into scenes by the page, against the scene drawn directly from the replay at the same
    times: each unit where the recording has it (within the thinning bound), the same roster (who is
    down, wounded, out), the same voice links between the same units, in the same place."""
    from classview.scene import SceneBuilder, class_layers
    from classview.timeline import SHAPE_TOLERANCE_IN, _MOVING

    recording, html_path, _ = report
    timeline_times = [f["t_s"] for f in build_timeline(recording)["frames"]]
    replay = ReplayModel(recording)
    builder = SceneBuilder(class_layers())
    browser = open_browser(1366, 768)
    try:
        browser.get(html_path.as_uri())
        wait_for(lambda: browser.execute_script("return !!window.classTimeline"), what="the timeline")
        rebuilt = browser.execute_script(REBUILT_JS, timeline_times)
        assert page_errors(browser) == []
    finally:
        browser.quit()
    links_seen = 0
    try:
        for t, page in zip(timeline_times, rebuilt):
            replay.seek(t)
            want = builder.scene(replay.session.snapshot(), replay.session.log, t_s=t)
            rows = [{k: v for k, v in u.items() if k not in _MOVING} for u in want["units"]]
            assert page["units"] == rows, t
            for u in want["units"]:
                x, y, _ = page["poses"][str(u["id"])]
                assert math.hypot(x - u["x_in"], y - u["y_in"]) <= POSITION_BOUND_IN + 0.01, (u["name"], t)
            wanted = sorted((tuple(i.get("units") or ()), i["pts"]) for i in want["items"] if i["layer"] == "voice")
            shown = sorted((tuple(i.get("units") or ()), i["pts"]) for i in page["voice"])
            assert [owners for owners, _ in shown] == [owners for owners, _ in wanted], t
            for (_, a), (_, b) in zip(shown, wanted):
                assert len(a) == len(b)
                assert max(abs(p - q) for p, q in zip(a, b)) <= POSITION_BOUND_IN + SHAPE_TOLERANCE_IN + 0.01, t
            links_seen += len(wanted)
    finally:
        replay.close()
    assert links_seen > 0  # the example's radios link its units: the comparison saw links


def test_the_report_shows_every_moment_and_the_exposure_its_one_replay_gives_as_each_alone(report) -> None:
    """The report replays the game once for its timeline and its exposure: its timeline is frame for
    frame the one built on a replay of its own, with a moment at every engagement, and its exposure
    section the one measured on a replay of its own."""
    import json

    from debrief.exposure import exposure_of
    from debrief.report import render_report

    recording, html_path, facts = report
    text = html_path.read_text(encoding="utf-8")
    shown = json.loads(re.search(r'id="class-timeline-data">(.*?)</script>', text, re.S).group(1).replace("<\\/", "</"))
    alone = build_timeline(recording, engagement_times=[e.t_s for e in facts.engagements], tracks=facts.tracks,
                           report_dir=html_path.parent)
    assert shown == json.loads(json.dumps(alone))
    times = {f["t_s"] for f in shown["frames"]}
    assert facts.engagements and all(round(e.t_s, 3) in times for e in facts.engagements)

    def section(html: str) -> str:
        return re.search(r'<section id="exposure".*?</section>', html, re.S).group(0)

    assert section(text) == section(render_report(facts, exposure=exposure_of(recording, facts)))
