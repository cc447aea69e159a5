"""The overlays a view keeps between frames are exactly a full rebuild's: after units move, the
selection, the weapon, the blast point and the tape change, and overlays are switched off and on,
every draw item built through a view's memo equals, field by field and point by point, the one
built from nothing; and every view is handed the same snapshot for one game change, built once."""
from __future__ import annotations

import threading
from dataclasses import fields

import numpy as np

from appmodel.game_session import AttackDraft, GameSession
from appmodel.overlays.draw_item import DrawItem
from appmodel.overlays.draw_memo import Memo
from appmodel.overlays.registry import OverlayToggles, build_items
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

MAAWS, SERGEANT, GUNNER, AR, ZBL = 13, 10, 11, 31, 40


def game() -> GameSession:
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.select_unit(ZBL, weapon="Autocannon")
    s.set_attack(AttackDraft(ZBL, "Autocannon", (15, 11)))
    s.set_blast_point((24.0, 30.0))
    s.measure((18.0, 21.0), (47.0, 32.0))
    return s


def carry(s: GameSession, t: float, **where: tuple[float, float, float]) -> None:
    ids = {"maaws": MAAWS, "sergeant": SERGEANT, "gunner": GUNNER, "ar": AR, "zbl": ZBL}
    s.apply_poses([UnitPose(ids[k], "", "", x, y, 1.0, h, UnitState.SEEN, t, None) for k, (x, y, h) in where.items()],
                  t_s=t)


def same_value(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is not None and b is not None and np.array_equal(np.asarray(a), np.asarray(b))
    return a == b


def differences(kept: list[DrawItem], fresh: list[DrawItem]) -> list[str]:
    """What differs between two lists of draw items (empty: the same overlays, in the same order)."""
    if len(kept) != len(fresh):
        return [f"{len(kept)} items kept, {len(fresh)} built afresh"]
    out = []
    for i, (a, b) in enumerate(zip(kept, fresh)):
        for f in fields(DrawItem):
            if not same_value(getattr(a, f.name), getattr(b, f.name)):
                out.append(f"item {i} ({a.layer} {a.key!r}): {f.name} differs")
    return out


def test_a_views_memoised_overlays_equal_a_full_rebuild_through_moves_selections_and_toggles():
    s = game()
    memo = Memo()
    every = OverlayToggles()
    no_fan_no_labels = every.with_("fan", False).with_("labels", False).with_("voice", False)
    steps = [
        ("one unit carried", lambda: carry(s, 1.0, maaws=(15.3, 29.1, 10.0))),
        ("carried on", lambda: carry(s, 2.0, maaws=(15.6, 29.2, 20.0))),
        ("three at once", lambda: carry(s, 3.0, maaws=(16.0, 29.0, 25.0), gunner=(14.4, 23.8, 0.0),
                                        ar=(49.5, 21.0, 180.0))),
        ("the selected vehicle moves", lambda: carry(s, 4.0, zbl=(52.5, 25.0, 180.0))),
        ("another unit selected", lambda: s.select_unit(MAAWS)),
        ("selection moved while selected", lambda: carry(s, 5.0, maaws=(17.0, 28.5, 30.0))),
        ("a blast point", lambda: s.set_blast_point((26.0, 31.0))),
        ("the tape", lambda: s.measure((10.0, 10.0), (30.0, 12.0))),
        ("nothing selected", lambda: s.select_unit(None)),
        ("the vehicle again, its other weapon", lambda: s.select_unit(ZBL)),
        ("a unit carried back where it stood", lambda: carry(s, 6.0, maaws=(15.3, 29.1, 10.0))),
    ]
    toggles = every
    build_items(s.snapshot(), [n for n in toggles.names() if toggles.is_on(n)], memo=memo)
    for k, (what, change) in enumerate(steps):
        change()
        if k in (4, 8):  # overlays switched off, then on again, with the same memo
            toggles = no_fan_no_labels if toggles is every else every
        names = [n for n in toggles.names() if toggles.is_on(n)]
        hits = memo.hits
        kept = build_items(s.snapshot(), names, memo=memo)
        fresh = build_items(s.snapshot(), names)
        assert differences(kept, fresh) == [], what
        if what.startswith(("one unit", "carried on", "three at once")):
            assert memo.hits > hits, f"{what}: the memo kept what did not change"


def test_every_view_gets_the_same_snapshot_of_a_game_change_built_once():
    from appmodel.session.snapshot import SnapshotInputs

    s = game()
    carry(s, 0.5, ar=(49.5, 21.0, 180.0))  # tracking: the session's clock is the frame's
    calls = []
    build = SnapshotInputs._build

    def counted(inputs):
        calls.append(inputs.version)
        return build(inputs)

    first, second = s.snapshot_inputs(), s.snapshot_inputs()
    assert first is second, "two views asking after one change get the same inputs"
    cls = SnapshotInputs
    cls._build = counted  # type: ignore[method-assign]  # counts the rules' calls; restored below
    try:
        got: list[object] = []
        threads = [threading.Thread(target=lambda: got.append(first.build())) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert len(got) == 4 and all(g is got[0] for g in got)
        assert calls == [first.version], "the rules were asked once for four views"
        assert s.snapshot() is got[0], "the session's own snapshot is that one too"
        carry(s, 1.0, ar=(49.0, 21.0, 180.0))
        after = s.snapshot_inputs()
        assert after is not first and after.build().version == s.version
        assert calls == [first.version, after.version]
    finally:
        cls._build = build
