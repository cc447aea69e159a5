"""The one tracking loop: several cameras' files in lockstep, every frame of each, until the last one ends;
its subscribers (the recorder, TUIO) get one stream."""
import math

import cv2
import numpy as np
import pytest

from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, seam_layout
from tracker.frames import Frame
from tracker.multi_camera import MultiCameraTracker, register_cameras
from tracker.roster import Roster, UnitSpec
from tracker.sources import ImageFolderSource
from tracker.tracking_loop import Listener, TrackingLoop
from tuio_helpers import osc_server  # noqa: F401  (a real OSC server)


def test_two_videos_are_tracked_frame_by_frame_until_the_longer_one_ends(tmp_path):
    layout = seam_layout(96.0, 48.0)
    rig = CameraRig.side_by_side(layout, cameras=2, size_px=(1280, 720), faults=Faults(noise_sigma=2.0))
    placements = [TagPlacement(10, 48.0, 24.0, 1.0, 30.0), TagPlacement(11, 14.0, 30.0, 1.0, 90.0)]
    frames = [rig.render(placements, t_s=i / 10, frame_index=i, rng=np.random.default_rng(i)) for i in range(6)]
    for name, count in (("cam0", 6), ("cam1", 3)):  # camera 1's video is shorter
        (tmp_path / name).mkdir()
        for i in range(count):
            cv2.imwrite(str(tmp_path / name / f"{i:03d}.png"), frames[i].views[name].image_bgr)
    cals = register_cameras({n: Frame(v.image_bgr, 0, 0.0) for n, v in frames[0].views.items()}, {c.name: c.model for c in rig.cameras}, layout)
    roster = Roster(units=(UnitSpec(10, "seam"), UnitSpec(11, "left")))
    results = []
    with MultiCameraTracker(cals, roster=roster) as tracker, \
            ImageFolderSource(tmp_path / "cam0", fps=10.0) as a, ImageFolderSource(tmp_path / "cam1", fps=10.0) as b:
        loop = TrackingLoop(tracker, {"cam0": a, "cam1": b})
        loop.subscribe(Listener(on_frame=lambda r: results.append(r.tracked)))
        rounds = loop.run()
    assert rounds == 6 and [r.t_s for r in results] == [i / 10 for i in range(6)]
    assert [r.seen_by[10] for r in results] == [("cam0", "cam1")] * 3 + [("cam0",)] * 3
    for r in results:
        for p in r.poses:
            truth = next(q for q in placements if q.tag_id == p.tag_id)
            assert math.hypot(p.x_in - truth.x_in, p.y_in - truth.y_in) < 0.03


def test_the_recorder_and_tuio_get_the_same_stream_as_every_other_subscriber(tmp_path, osc_server):
    """One loop, three subscribers: a real recording file, real TUIO over UDP, and a plain listener; a
    turn started between two rounds (as the window asks for one) reaches all of them too."""
    from calibration.files import load_table_calibration
    from loop_footage import ONE_CAMERA_FPS, OCCLUSION, one_camera_footage
    from tracker.pipeline import Tracker
    from tracker.recording import Recorder, RecordingReader
    from tracker.roster import load_roster
    from tracker.tracking_loop import RecorderFeed, TuioFeed
    from tracker.tuio import TuioAddress, TuioSender
    from tuio_helpers import TuioClientModel

    port, catch = osc_server
    folder, calibration_file = one_camera_footage(tmp_path, frames=18)
    calibration = load_table_calibration(calibration_file)
    roster = load_roster(OCCLUSION)
    heard, rounds = [], []
    layout = calibration.layout
    with Tracker(roster=roster, calibration=calibration) as tracker, ImageFolderSource(folder, fps=ONE_CAMERA_FPS) as source, \
            Recorder(tmp_path / "game.sqlite", roster=roster) as recorder:
        tuio = TuioSender(TuioAddress("127.0.0.1", port), table_size_in=(layout.width_in, layout.depth_in))
        loop = TrackingLoop(tracker, source)
        loop.subscribe(RecorderFeed(recorder))
        loop.subscribe(TuioFeed(tuio))

        def on_frame(r):
            rounds.append(r)
            if r.frame_index == 9:
                loop.call_soon(tracker.start_turn)  # runs before the next round, on the loop's thread

        loop.subscribe(Listener(on_frame=on_frame, on_event=heard.append))
        assert loop.run() == 18
        loop.close()
        tuio.close()
    with RecordingReader(tmp_path / "game.sqlite") as reader:
        recorded = [(e.kind.value, e.tag_id, e.frame_index, round(e.t_s, 4)) for e in reader.events_between()]
        assert reader.frame_count == len(rounds) == 18
        final = {p.tag_id: p for p in reader.poses_at(rounds[-1].t_s)}
    assert recorded == [(e.kind.value, e.tag_id, e.frame_index, round(e.t_s, 4)) for e in heard]
    kinds = [e.kind.value for e in heard]
    assert {"appeared", "hidden", "lifted"} <= set(kinds) and kinds.count("turn_started") == 1
    assert [r.frame_index for r in rounds] == list(range(18))
    # TUIO: one frame per round (then the goodbye), the units where the recording has them
    client = TuioClientModel()
    datagrams = catch.wait_for(19)
    for datagram in datagrams[:-1]:
        client.feed(datagram)
    assert len(client.frames) == 18
    on_table = {p.tag_id: p for p in rounds[-1].poses if p.state.value in ("seen", "stale")}
    assert set(client.by_class()) == set(on_table)
    for tag, obj in client.by_class().items():
        assert obj["x"] == pytest.approx(final[tag].x_in / layout.width_in, abs=1e-3)
        assert obj["y"] == pytest.approx(1 - final[tag].y_in / layout.depth_in, abs=1e-3)
    client.feed(datagrams[-1])
    assert client.objects == {}
