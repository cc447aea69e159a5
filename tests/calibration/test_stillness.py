"""The picture is still only when nothing has moved over the sand for a while."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.stillness import StillnessWatch


def sand(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(128 + rng.normal(0, 3, (240, 320)), 0, 255).astype(np.uint8)


def test_sensor_noise_is_still_and_a_hand_is_not() -> None:
    w = StillnessWatch(still_frames=5)
    verdicts = [w.update(sand(s)) for s in range(8)]          # a new noise draw every frame
    assert [v.still for v in verdicts] == [False] * 5 + [True] * 3
    hand = sand(9)
    hand[60:180, 100:200] = 60
    moving = w.update(hand)
    assert not moving.still and moving.moving_share > 0.1 and moving.quiet_frames == 0


def test_what_the_caller_changes_itself_is_ignored() -> None:
    w = StillnessWatch(still_frames=2)
    overlay = np.zeros((240, 320), bool)
    overlay[:, :80] = True
    frames = [sand(s) for s in range(4)]
    for i, f in enumerate(frames):
        f[:, :80] = 40 + 60 * (i % 2)                          # the projector's overlay blinking
    assert [w.update(f, ignore=overlay).still for f in frames] == [False, False, True, True]


def test_a_reset_starts_the_count_again_and_bad_options_are_refused() -> None:
    w = StillnessWatch(still_frames=2)
    for s in range(3):
        w.update(sand(s))
    w.reset()
    assert not w.update(sand(5)).still
    with pytest.raises(CalibrationError, match="still_frames=0"):
        StillnessWatch(still_frames=0)
