"""Keep a still unit still, follow a moved one at once: a hysteresis filter for one unit's pose.

Raw tag poses jitter by a few hundredths of an inch and about a degree from frame to frame (sensor
noise, the detector's sub-pixel corner fit). Smoothing all of it away would make a moved unit lag for
many frames; passing it through would make range readouts flicker. So the filter has two modes:

* **still**: the output is the mean of the measurements since the unit came to rest (it gets *more*
  accurate the longer the unit stands), and it ignores changes smaller than a deadband. A change
  beyond the deadband in two consecutive frames, or beyond the jump threshold in one, means the unit
  is being moved.
* **following** (motion onset): a still unit pushed slowly (a fraction of the deadband a frame) would
  be reported at its old mean, trailing by up to the deadband, until the deadband is crossed. So each
  measurement is also compared with the mean against the measurement noise (the still samples'
  scatter as their second differences tell it, which a slow drift does not inflate; at least
  ``onset``): offsets beyond it running one way and growing mean the unit has begun to move, and the
  output is the latest measurement from then on. No move is counted yet (nothing for the rules or the
  events): that waits for the deadband as before, measured from where it stood; if it comes to rest
  inside the deadband, the mean restarts there.
* **moving**: the output is the latest measurement (no lag). When the last ``settle_s`` of
  measurements fit inside a small circle (and a small heading band) without drifting one way, the
  unit is at rest again, its mean started from the samples where it already stands (not the whole
  window's, which trails a unit that slowed to a stop).

A measurement may be marked untrusted: a tag decoded with corrected bits, most often because part
of its card is under a neighbour's block or miniature, whose corners can then be off by a pixel or
two (a few degrees on a 1" tag). A still unit ignores such a measurement unless it is beyond the jump
threshold, and only two of those in a row (or one followed by a trusted change beyond the
deadband) start a move. A moving unit follows every measurement.

All lengths are in the caller's unit (table inches when calibrated, pixels otherwise: the caller
passes thresholds in that unit). Translation and rotation are judged separately, so turning in place
is a pose change that adds no path length.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class FilterSettings:
    """Thresholds of :class:`PoseFilter` (lengths in the caller's unit, angles in degrees, times in s)."""

    deadband: float = 0.06  # a still unit must be displaced this much for two frames to count as moving
    jump: float = 0.2  # ... or this much in one frame
    deadband_deg: float = 2.5
    jump_deg: float = 8.0
    rest_radius: float = 0.03  # measurements of the last settle_s within this radius: at rest
    rest_band_deg: float = 1.5
    settle_s: float = 0.2
    still_samples: int = 60  # the still pose averages at most this many measurements (then it is frozen)
    # Motion onset: a measurement this far from the still mean (or onset_sigmas times the still samples'
    # scatter, if larger) twice running in one direction means the unit has begun to move.
    onset: float = 0.005
    onset_sigmas: float = 5.0

    def scaled(self, factor: float) -> "FilterSettings":
        """The same settings with lengths multiplied by ``factor`` (e.g. inches to pixels)."""
        return FilterSettings(
            deadband=self.deadband * factor,
            jump=self.jump * factor,
            deadband_deg=self.deadband_deg,
            jump_deg=self.jump_deg,
            rest_radius=self.rest_radius * factor,
            rest_band_deg=self.rest_band_deg,
            settle_s=self.settle_s,
            still_samples=self.still_samples,
            onset=self.onset * factor,
            onset_sigmas=self.onset_sigmas,
        )


def angle_diff_deg(a: float, b: float) -> float:
    """Signed smallest difference a - b in degrees, in (-180, 180].

    >>> angle_diff_deg(10.0, 350.0)
    20.0
    >>> angle_diff_deg(350.0, 10.0)
    -20.0
    """
    d = (a - b) % 360.0
    return d - 360.0 if d > 180.0 else d


@dataclass(frozen=True)
class FilterStep:
    """What one measurement did: the filtered pose, and whether motion started or stopped."""

    x: float
    y: float
    heading_deg: float
    moving: bool
    started: bool  # the unit began to move in this step
    stopped: bool  # the unit came to rest in this step
    travelled: float  # translation of the output caused by motion in this step (not by refinement)


class PoseFilter:
    """Hysteresis filter for one unit (mutable: one per unit, fed one measurement per frame seen)."""

    def __init__(self, x: float, y: float, heading_deg: float, t_s: float, *, settings: FilterSettings) -> None:
        self.settings = settings
        self.moving = False
        self._pending = 0
        #: Following a motion onset: where it stood (x, y, heading) before; None: not following.
        self._anchor: tuple[float, float, float] | None = None
        self._onset_radius = 0.0
        self._noise_radius = max(settings.onset, settings.deadband / 2)
        self._noise_known = False  # whether _noise_radius was measured (else the guess above)
        self._qn = 0
        self._qq = 0.0
        self._q1: tuple[float, float] | None = None
        self._q2: tuple[float, float] | None = None
        self._departure: tuple[float, float] | None = None  # last frame's offset beyond the onset, if any
        self._reset_still([(t_s, x, y, heading_deg)])
        self._recent: deque[tuple[float, float, float, float]] = deque([(t_s, x, y, heading_deg)])

    # -- still-mode mean --------------------------------------------------------------------
    def _reset_still(self, samples: list[tuple[float, float, float, float]]) -> None:
        self._n = 0
        self._sx = self._sy = 0.0
        self._sc = self._ss = 0.0
        self._ref_heading = samples[-1][3]
        for _, x, y, h in samples:
            self._add_still(x, y, h)
        # The measurement noise, for the onset test: from the still samples that come from now on (not
        # the samples it came to rest with, which may hold the end of a slow motion).
        self._qn = 0
        self._qq = 0.0
        self._q1 = self._q2 = None

    def _add_still(self, x: float, y: float, heading_deg: float) -> None:
        if self._n >= self.settings.still_samples:
            return  # frozen: a unit standing for minutes does not creep with slow light changes
        self._n += 1
        self._sx += x
        self._sy += y
        # The noise, from the samples' second differences (counted afresh after a _reset_still's own
        # samples): a slow drift the rest test let through (a unit still creeping, a hand-held camera)
        # has almost none, so it is not taken for noise; its scatter about the mean would be, and would
        # widen the onset radius until the drift itself never crossed it.
        q1, q2 = self._q1, self._q2
        if q1 is not None and q2 is not None:
            ddx, ddy = x - 2.0 * q1[0] + q2[0], y - 2.0 * q1[1] + q2[1]
            self._qn += 1
            self._qq += ddx * ddx + ddy * ddy
        self._q2, self._q1 = q1, (x, y)
        # Average headings as offsets from a reference, so 359 and 1 average to 0, not 180.
        self._sc += angle_diff_deg(heading_deg, self._ref_heading)
        self.x = self._sx / self._n
        self.y = self._sy / self._n
        self.heading_deg = (self._ref_heading + self._sc / self._n) % 360.0

    @property
    def following(self) -> bool:
        """Whether the output follows a motion onset (not yet a move: inside the deadband)."""
        return self._anchor is not None

    @property
    def rest_xy(self) -> tuple[float, float]:
        """Where the unit stood before its current motion began (its pose when still)."""
        return (self._anchor[0], self._anchor[1]) if self._anchor is not None else (self.x, self.y)

    def _onset_px(self) -> float:
        """How far from the still mean a measurement must be to count towards a motion onset: the
        measurement noise (``onset_sigmas`` times the still samples' scatter), at least ``onset``; until
        five still samples tell, the noise of the last still period (at first half the deadband)."""
        s = self.settings
        if self._qn < 3:
            return self._noise_radius
        # White noise of scatter var (x and y together) gives second differences of mean square 6 var.
        var = self._qq / self._qn / 6.0
        self._noise_radius = max(s.onset, s.onset_sigmas * math.sqrt(var))
        self._noise_known = True
        return self._noise_radius

    def _same_way(self, dx: float, dy: float) -> bool:
        """Whether this offset from the mean continues last frame's: within 60 degrees of it, and farther
        by half the onset radius at least. A motion's offset grows frame by frame; a step in the
        measurement that stays, or a drift slower than that (light changing slowly), does not, and leaves
        the still pose as it is."""
        d = self._departure
        if d is None:
            return False
        now, before = math.hypot(dx, dy), math.hypot(d[0], d[1])
        return dx * d[0] + dy * d[1] > 0.5 * now * before and now >= before + 0.5 * self._noise_radius

    # -- one measurement ----------------------------------------------------------------------
    def update(self, x: float, y: float, heading_deg: float, t_s: float, *, trusted: bool = True) -> FilterStep:
        """Take one measurement; ``trusted=False`` for one whose corners may be off (see the module doc)."""
        if self.refine(x, y, heading_deg, t_s, trusted=trusted):
            return FilterStep(self.x, self.y, self.heading_deg, False, False, False, 0.0)
        if self._anchor is not None:
            return self._creep(x, y, heading_deg, t_s)
        # What refine() leaves: a still unit displaced beyond the deadband (or, untrusted, beyond the
        # jump threshold), or a moving one.
        s = self.settings
        d = math.hypot(x - self.x, y - self.y)
        dh = abs(angle_diff_deg(heading_deg, self.heading_deg))
        if not self.moving and not trusted:
            self._recent.append((t_s, x, y, heading_deg))
            if self._pending >= 1:
                return self._follow(x, y, heading_deg, started=True)
            self._pending += 1
            return FilterStep(self.x, self.y, self.heading_deg, False, False, False, 0.0)
        self._recent.append((t_s, x, y, heading_deg))
        while len(self._recent) > 2 and self._recent[0][0] < t_s - s.settle_s - 1e-9:
            self._recent.popleft()
        if not self.moving:
            same_way = self._same_way(x - self.x, y - self.y)
            if d > s.jump or dh > s.jump_deg or self._pending >= 1 or (same_way and d > s.deadband):
                return self._follow(x, y, heading_deg, started=True)
            if d <= s.deadband and dh <= s.deadband_deg:
                # refine() found a motion onset: follow the measurements, count no move yet.
                self._anchor = (self.x, self.y, self.heading_deg)
                self._onset_radius = self._onset_px()  # the still noise it departed from: at rest within it
                self._departure = None
                self.x, self.y, self.heading_deg = x, y, heading_deg % 360.0
                return FilterStep(self.x, self.y, self.heading_deg, False, False, False, 0.0)
            self._pending += 1
            self._departure = (x - self.x, y - self.y)
            return FilterStep(self.x, self.y, self.heading_deg, False, False, False, 0.0)
        step = self._follow(x, y, heading_deg, started=False)
        # At rest: within rest_radius, or closer where the noise is known to be small (a big tag pushed
        # slowly moves less than rest_radius in settle_s, and must not be taken for one at rest).
        if self._at_rest(t_s, radius=min(s.rest_radius, max(self._noise_radius, s.rest_radius / 4))):
            before = (self.x, self.y)
            self._reset_still(self._standing(list(self._recent)))
            self.moving = False
            self._pending = 0
            settle = math.hypot(self.x - before[0], self.y - before[1])
            return FilterStep(self.x, self.y, self.heading_deg, False, False, True, step.travelled + settle)
        return step

    def refine(self, x: float, y: float, heading_deg: float, t_s: float, *, trusted: bool = True) -> bool:
        """The commonest measurement, a still unit's, without building a step: True when the unit stays
        still (the measurement refined the still pose, or was ignored as an untrusted one inside the jump
        threshold). False, changing nothing, for any other measurement: then call :meth:`update`, which
        starts here too.

        Forty units at camera rate make this the tracker's most frequent call.
        """
        if self.moving or self._anchor is not None:
            return False
        s = self.settings
        d = math.hypot(x - self.x, y - self.y)
        dh = (heading_deg - self.heading_deg) % 360.0  # abs(angle_diff_deg(...)), inline: this runs 40 times a frame
        if dh > 180.0:
            dh = 360.0 - dh
        if d > s.jump or dh > s.jump_deg:
            return False
        if not trusted:
            return True
        if d > s.deadband or dh > s.deadband_deg:
            return False
        if d > s.onset and d > self._onset_px():  # (which also sets _noise_radius, read by _same_way)
            dx, dy = x - self.x, y - self.y
            if self._same_way(dx, dy):
                return False  # twice beyond the noise, one way: a motion onset (update() follows it)
            self._departure = (dx, dy)  # kept out of the mean until the next frame tells
            self._pending = 0
            return True
        self._departure = None
        recent = self._recent
        recent.append((t_s, x, y, heading_deg))
        while len(recent) > 2 and recent[0][0] < t_s - s.settle_s - 1e-9:
            recent.popleft()
        self._pending = 0
        self._add_still(x, y, heading_deg)
        return True

    def _creep(self, x: float, y: float, heading_deg: float, t_s: float) -> FilterStep:
        """A measurement while following an onset: beyond the deadband from where it stood it is a move
        (counted from there); at rest inside it, the mean restarts where it stopped (no move)."""
        s = self.settings
        assert self._anchor is not None
        ax, ay, ah = self._anchor
        self._recent.append((t_s, x, y, heading_deg))
        while len(self._recent) > 2 and self._recent[0][0] < t_s - s.settle_s - 1e-9:
            self._recent.popleft()
        if math.hypot(x - ax, y - ay) > s.deadband or abs(angle_diff_deg(heading_deg, ah)) > s.deadband_deg:
            self._anchor = None
            self.x, self.y, self.heading_deg = ax, ay, ah  # the move is counted from where it stood
            return self._follow(x, y, heading_deg, started=True)
        self.x, self.y, self.heading_deg = x, y, heading_deg % 360.0
        # At rest again: the last settle_s of measurements as close together as the still ones were (a
        # slow push moves farther than that in settle_s; rest_radius would take it for a unit at rest).
        if self._at_rest(t_s, radius=self._onset_radius):
            self._anchor = None
            window = [r for r in self._recent if r[0] >= t_s - s.settle_s - 1e-9]
            self._reset_still(self._standing(window))
        return FilterStep(self.x, self.y, self.heading_deg, False, False, False, 0.0)

    def _follow(self, x: float, y: float, heading_deg: float, *, started: bool) -> FilterStep:
        travelled = math.hypot(x - self.x, y - self.y)
        self.moving = True
        self._anchor = None
        self._departure = None
        self._pending = 0
        self.x, self.y, self.heading_deg = x, y, heading_deg % 360.0
        return FilterStep(self.x, self.y, self.heading_deg, True, started, False, travelled)

    def _standing(self, window: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
        """The samples of a rest window where the unit already stood where it stands now: the newest ones
        within the measurement noise of the newest (at least ``onset``). The whole window's mean would
        trail a unit that slowed to a stop (or still creeps) by up to the rest radius.

        The window also tells the noise, if nothing did yet (a unit first seen moving): its second
        differences, as in the still samples; else the first guess (half the deadband) would let a unit
        creeping on after it came to rest trail by up to that much."""
        if not self._noise_known and len(window) >= 6:
            dd = [(c[1] - 2.0 * b[1] + a[1]) ** 2 + (c[2] - 2.0 * b[2] + a[2]) ** 2
                  for a, b, c in zip(window, window[1:], window[2:])]
            s = self.settings
            # The median, robust to the few big ones of a unit slowing down (for white noise it is
            # 6 ln 2 times the scatter, x and y together).
            self._noise_radius = max(s.onset, s.onset_sigmas * math.sqrt(sorted(dd)[len(dd) // 2] / (6.0 * math.log(2.0))))
            self._noise_known = True
        newest = window[-1]
        radius = self._noise_radius if self._noise_known else self.settings.onset
        kept = [newest]
        for r in reversed(window[:-1]):
            if math.hypot(r[1] - newest[1], r[2] - newest[2]) > radius:
                break
            kept.append(r)
        kept.reverse()
        return kept

    def _at_rest(self, t_s: float, *, radius: float | None = None) -> bool:
        s = self.settings
        window = [r for r in self._recent if r[0] >= t_s - s.settle_s - 1e-9]
        if len(window) < 3 or window[-1][0] - window[0][0] < s.settle_s * 0.99:
            return False
        mx = sum(r[1] for r in window) / len(window)
        my = sum(r[2] for r in window) / len(window)
        radius = s.rest_radius if radius is None else radius
        if max(math.hypot(r[1] - mx, r[2] - my) for r in window) > radius:
            return False
        # Within the circle but still going one way (a slow creep): not at rest. The window's first and
        # last halves of a unit at rest differ by the noise only.
        half = len(window) // 2
        early, late = window[:half], window[-half:]
        drift = math.hypot(sum(r[1] for r in late) - sum(r[1] for r in early), sum(r[2] for r in late) - sum(r[2] for r in early)) / half
        if drift > 0.25 * radius:
            return False
        ref = window[-1][3]
        offsets = [angle_diff_deg(r[3], ref) for r in window]
        return max(offsets) - min(offsets) <= 2 * s.rest_band_deg

    def relocate(self, x: float, y: float, heading_deg: float, t_s: float) -> float:
        """Jump to a pose measured after a gap (the unit was hidden or lifted); returns the distance."""
        distance = math.hypot(*(a - b for a, b in zip((x, y), self.rest_xy)))
        self.moving = False
        self._anchor = None
        self._departure = None
        self._pending = 0
        self._recent.clear()
        self._recent.append((t_s, x, y, heading_deg))
        self._reset_still([(t_s, x, y, heading_deg)])
        return distance
