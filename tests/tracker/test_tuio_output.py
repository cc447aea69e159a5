"""TUIO 1.1 output as a TUIO client receives it: real UDP datagrams caught by a python-osc server,
decoded as OSC bundles and folded into objects the way reacTIVision's client libraries do."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from pythonosc.osc_bundle import OscBundle

from calibration.files import save_table_calibration
from calibration.synthetic import load_synthetic_scenario
from calibration.table_calibration import TableCalibration
from cli.main import main
from tracker.errors import TrackerError
from tracker.tuio import NETWORK_DATAGRAM_BYTES, TuioAddress, TuioSender, encode_frame, TuioObjects
from tracker.unit_pose import UnitPose, UnitState

from tuio_helpers import TuioClientModel, osc_server  # noqa: F401  (a real OSC server)

SCENARIO = Path(__file__).parents[1] / "data" / "tracker_occlusion.toml"


def _pose(tag_id, x, y, heading, t, state=UnitState.SEEN):
    return UnitPose(tag_id, f"unit {tag_id}", "Blue", x, y, 1.0, heading, state, t, 0.0, last_seen_t_s=t)


def test_units_arrive_as_tuio_objects_normalised_to_the_table_with_the_tag_as_class_id(osc_server):
    port, catch = osc_server
    client = TuioClientModel()
    with TuioSender(TuioAddress("127.0.0.1", port), table_size_in=(72.0, 48.0)) as tuio:
        tuio.send([_pose(12, 18.0, 12.0, 90.0, 0.0), _pose(20, 54.0, 36.0, 30.0, 0.0)], t_s=0.0)
        for datagram in catch.wait_for(1):
            client.feed(datagram)
    objects = client.by_class()
    assert set(objects) == {12, 20}
    a, b = objects[12], objects[20]
    # table x to the right, y up (a map) -> TUIO x right, y down
    assert (a["x"], a["y"]) == pytest.approx((18 / 72, 1 - 12 / 48), abs=1e-6)
    assert (b["x"], b["y"]) == pytest.approx((54 / 72, 1 - 36 / 48), abs=1e-6)
    # heading 90 deg (toward +y, "up" on the map) is straight up on a y-down screen: 3/2 pi clockwise
    assert a["a"] == pytest.approx(1.5 * math.pi, abs=1e-6) and b["a"] == pytest.approx(2 * math.pi - math.radians(30), abs=1e-6)
    assert a["session"] != b["session"]
    assert client.sources == {"sandtable-companion@127.0.0.1"}


def test_sessions_velocities_and_removals_follow_the_units_like_reactivision(osc_server):
    port, catch = osc_server
    client = TuioClientModel()
    frames = [
        [_pose(12, 10.0, 24.0, 0.0, 0.0), _pose(13, 40.0, 24.0, 0.0, 0.0)],
        [_pose(12, 10.0, 24.0, 0.0, 0.5), _pose(13, 40.0, 24.0, 0.0, 0.5)],
        # unit 12 moves 3.6" right in half a second while turning 9 degrees counter-clockwise
        [_pose(12, 13.6, 24.0, 9.0, 1.0), _pose(13, 40.0, 24.0, 0.0, 1.0, UnitState.STALE)],
        # unit 13 is lifted off the table; 12 is still
        [_pose(12, 13.6, 24.0, 9.0, 1.5), _pose(13, 40.0, 24.0, 0.0, 1.5, UnitState.LIFTED)],
        # 13 put back elsewhere: a new appearance, a new session id
        [_pose(12, 13.6, 24.0, 9.0, 2.0), _pose(13, 44.0, 30.0, 0.0, 2.0)],
    ]
    snapshots = []
    with TuioSender(TuioAddress("127.0.0.1", port), table_size_in=(72.0, 48.0), full_update_s=60.0) as tuio:
        for i, poses in enumerate(frames):
            tuio.send(poses, t_s=poses[0].t_s)
            for datagram in catch.wait_for(i + 1)[i:]:
                client.feed(datagram)
            snapshots.append(client.by_class())
    first_12, first_13 = snapshots[0][12]["session"], snapshots[0][13]["session"]
    moving = snapshots[2][12]
    assert moving["session"] == first_12
    assert moving["X"] == pytest.approx((3.6 / 72) / 0.5, rel=1e-5) and moving["Y"] == pytest.approx(0.0, abs=1e-7)
    assert moving["A"] == pytest.approx(-(9 / 360) / 0.5, rel=1e-4)  # clockwise on screen is positive
    assert snapshots[2][13]["session"] == first_13  # hidden under a hand: still on the table
    assert 13 not in snapshots[3] and client.removed == [first_13]  # lifted: gone from alive
    assert snapshots[4][13]["session"] not in (first_12, first_13)
    assert snapshots[4][13]["x"] == pytest.approx(44 / 72, abs=1e-6)
    assert snapshots[3][12]["X"] == 0.0  # at rest again
    assert client.frames == [1, 2, 3, 4, 5]
    # closing tells the client everything is gone
    for datagram in catch.wait_for(6)[5:]:
        client.feed(datagram)
    assert client.objects == {} and client.frames[-1] == 6


def test_only_changed_units_are_set_between_full_updates():
    objects = TuioObjects(table_size_in=(72.0, 48.0), full_update_s=1.0)
    still, mover = 12, 13
    sent = []
    for i in range(12):
        t = i / 10
        frame = objects.update([_pose(still, 10.0, 10.0, 0.0, t), _pose(mover, 20.0 + i, 10.0, 0.0, t)], t_s=t)
        sent.append({o.class_id for o in frame.updated})
        assert len(frame.alive) == 2
    assert sent[0] == {still, mover}
    assert all(s == {mover} for s in sent[1:10])
    assert sent[10] == {still, mover}  # the periodic full update after one second


def test_a_large_table_is_split_into_datagrams_that_each_carry_alive_and_the_same_fseq():
    objects = TuioObjects(table_size_in=(72.0, 48.0))
    poses = [_pose(10 + i, 1.0 + i, 2.0 + i / 2, 5.0 * i, 0.0) for i in range(60)]
    frame = objects.update(poses, t_s=0.0)
    datagrams = encode_frame(frame, source="sandtable-companion@10.0.0.2", max_bytes=NETWORK_DATAGRAM_BYTES)
    assert len(datagrams) > 1 and all(len(d) <= NETWORK_DATAGRAM_BYTES for d in datagrams)
    seen = set()
    for d in datagrams:
        bundle = OscBundle(d)
        params = [bundle.content(i).params for i in range(bundle.num_contents)]
        assert params[0] == ["source", "sandtable-companion@10.0.0.2"]
        assert params[1] == ["alive", *frame.alive]
        assert params[-1] == ["fseq", frame.fseq]
        seen |= {p[2] for p in params if p[0] == "set"}
    assert seen == {p.tag_id for p in poses}


def test_uncalibrated_units_are_normalised_to_the_camera_frame():
    pose = UnitPose(12, "tag 12", "", None, None, None, 0.0, UnitState.SEEN, 0.0, None, center_px=(320.0, 540.0))
    frame = TuioObjects().update([pose], t_s=0.0, frame_size_px=(1280, 720))
    (obj,) = frame.objects
    assert (obj.x, obj.y, obj.angle_rad) == pytest.approx((0.25, 0.75, 0.0))


@pytest.mark.parametrize(
    "text, message",
    [
        ("localhost:99999", "port 99999 is outside 1-65535"),
        ("host:abc", "port 'abc' is not a number"),
        ("0", "port 0 is outside 1-65535"),
        ("::1:3333", "IPv6 address in brackets"),
        ("http://x:3333", "not a host name or address"),
    ],
)
def test_a_malformed_address_is_refused_with_a_hint(text, message):
    with pytest.raises(TrackerError, match=message):
        TuioAddress.parse(text)


def test_addresses_users_write_are_understood():
    assert TuioAddress.parse("192.168.1.20:3334") == TuioAddress("192.168.1.20", 3334)
    assert TuioAddress.parse("3334") == TuioAddress("127.0.0.1", 3334)
    assert TuioAddress.parse("[::1]:4000") == TuioAddress("::1", 4000)
    assert TuioAddress.parse("[::1]:4000").is_loopback and not TuioAddress.parse("10.0.0.5").is_loopback
    assert TuioAddress.parse("tabletop.local") == TuioAddress("tabletop.local", 3333)


def test_sandtable_track_sends_the_tracked_units_over_tuio(osc_server, tmp_path, capsys):
    port, catch = osc_server
    scenario = load_synthetic_scenario(SCENARIO)
    cal = tmp_path / "table.json"
    save_table_calibration(TableCalibration(scenario.table.model, scenario.table.pose, scenario.layout, residual_in=0.0), cal)
    code = main(["track", str(SCENARIO), "--calibration", str(cal), "--scenario", str(SCENARIO), "--max-frames", "8",
                 "--jsonl", "--no-progress", "--tuio", f"127.0.0.1:{port}"])
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    datagrams = catch.wait_for(len(lines) + 1)
    assert len(datagrams) == len(lines) + 1  # one bundle per frame, and the final empty one
    client = TuioClientModel()
    for line, datagram in zip(lines, datagrams):
        client.feed(datagram)
        on_table = {u["tag_id"]: u for u in line["units"] if u["state"] in ("seen", "stale")}
        received = client.by_class()
        assert set(received) == set(on_table) and on_table
        for tag_id, unit in on_table.items():
            assert received[tag_id]["x"] * 72.0 == pytest.approx(unit["x_in"], abs=2e-3)
            assert (1.0 - received[tag_id]["y"]) * 48.0 == pytest.approx(unit["y_in"], abs=2e-3)
            assert math.degrees(-received[tag_id]["a"]) % 360 == pytest.approx(unit["heading_deg"] % 360, abs=0.02)
    client.feed(datagrams[-1])
    assert client.objects == {}


def test_a_bad_tuio_address_on_the_command_line_is_one_line_and_exit_code_2(capsys):
    assert main(["track", str(SCENARIO), "--tuio", "localhost:70000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "port 70000 is outside 1-65535" in err[0]
