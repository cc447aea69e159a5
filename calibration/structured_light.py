"""Structured light: Gray code with phase shifting, to learn which projector pixel lights each camera pixel.

The projector shows, for its columns and then its rows: a Gray code of stripes ``gray_step_px`` wide
(each bit followed by its inverse, so a bit is read by comparing the two frames rather than against a
guessed threshold), then ``phase_steps`` sinusoids of period ``period_px`` shifted by a fraction of a
period each. The Gray code says which stripe a camera pixel sees (coarse, robust); the phase says where
within a period (sub-pixel). The two are joined by unwrapping the phase to the period the Gray code
points at, and a pixel whose phase and Gray code disagree by more than a stripe is refused.

Why not OpenCV's ``structured_light`` module (opencv-contrib): its ``GrayCodePattern.decode`` builds a
disparity map for a *pair of cameras*, and its camera-projector path, ``getProjPixel``, answers one
pixel per Python call (a million calls per frame); its ``SinusoidalPattern`` unwraps its own
Fourier-transform patterns. Adding contrib would also replace the headless OpenCV the project ships
(both provide ``cv2``). The decoding here is a few vectorised numpy lines over whole frames.

Coordinates are OpenCV's (pixel centres at integers), in projector and camera alike.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from calibration.errors import CalibrationError


class ScanDecodeError(CalibrationError):
    """The camera frames of a scan cannot be decoded (wrong count, size, or nothing lit)."""


def _bits_for(size_px: int, step_px: int) -> int:
    return max(1, math.ceil(math.log2(math.ceil(size_px / step_px))))


@dataclass(frozen=True)
class ScanPatterns:
    """The projected images of a scan of a ``width_px`` x ``height_px`` projector.

    >>> p = ScanPatterns(1280, 800)
    >>> len(p.images()), p.column_bits, p.row_bits
    (40, 8, 7)
    """

    width_px: int
    height_px: int
    gray_step_px: int = 8
    period_px: int = 32
    phase_steps: int = 4
    axes: tuple[str, ...] = ("columns", "rows")

    def __post_init__(self) -> None:
        if self.width_px < 64 or self.height_px < 64:
            raise CalibrationError(f"projector {self.width_px}x{self.height_px} px is too small to scan with")
        if self.phase_steps < 3:
            raise CalibrationError("phase shifting needs at least 3 steps")
        if self.period_px < 2 * self.gray_step_px + 2:
            raise CalibrationError("the sinusoid's period must exceed two Gray-code stripes, or unwrapping is ambiguous")
        if not self.axes or any(a not in ("columns", "rows") for a in self.axes):
            raise CalibrationError("axes: 'columns', 'rows' or both")

    @property
    def column_bits(self) -> int:
        return _bits_for(self.width_px, self.gray_step_px)

    @property
    def row_bits(self) -> int:
        return _bits_for(self.height_px, self.gray_step_px)

    @property
    def frame_count(self) -> int:
        per = {"columns": self.column_bits, "rows": self.row_bits}
        return 2 + sum(2 * per[a] + self.phase_steps for a in self.axes)

    def images(self) -> list[np.ndarray]:
        """The patterns, grey uint8 (height, width), in the order the camera must see them: full white,
        black, then per axis the Gray-code bits (each with its inverse) and the phase shifts."""
        h, w = self.height_px, self.width_px
        out = [np.full((h, w), 255, np.uint8), np.zeros((h, w), np.uint8)]
        for axis in self.axes:
            n = w if axis == "columns" else h
            coord = np.arange(n)
            gray = (coord // self.gray_step_px) ^ ((coord // self.gray_step_px) >> 1)
            bits = self.column_bits if axis == "columns" else self.row_bits
            for b in range(bits - 1, -1, -1):
                line = (((gray >> b) & 1) * 255).astype(np.uint8)
                img = np.broadcast_to(line[None, :], (h, w)) if axis == "columns" else np.broadcast_to(line[:, None], (h, w))
                out += [np.ascontiguousarray(img), np.ascontiguousarray(255 - img)]
            for k in range(self.phase_steps):
                wave = 127.5 + 127.0 * np.cos(2 * np.pi * coord / self.period_px - 2 * np.pi * k / self.phase_steps)
                line = np.rint(wave).astype(np.uint8)
                img = np.broadcast_to(line[None, :], (h, w)) if axis == "columns" else np.broadcast_to(line[:, None], (h, w))
                out.append(np.ascontiguousarray(img))
        return out

    def pattern_names(self) -> list[str]:
        """What each of :meth:`images` shows, in order ("white", "black", "columns-bit7", "columns-bit7-inverse",
        ..., "columns-phase0", ...): the names ``--write-patterns`` gives its files.

        >>> ScanPatterns(1280, 800, axes=("rows",)).pattern_names()[:4]
        ['white', 'black', 'rows-bit6', 'rows-bit6-inverse']
        """
        out = ["white", "black"]
        for axis in self.axes:
            bits = self.column_bits if axis == "columns" else self.row_bits
            for b in range(bits - 1, -1, -1):
                out += [f"{axis}-bit{b}", f"{axis}-bit{b}-inverse"]
            out += [f"{axis}-phase{k}" for k in range(self.phase_steps)]
        return out

    def sequence_problems(self, frames: list[np.ndarray], *, min_contrast: float = 12.0) -> tuple[str, ...]:
        """What is wrong with the camera frames of a scan, before decoding them (empty when nothing is).

        Every Gray-code bit and its inverse light each pixel once between them, so in frames taken in
        order the pair adds up to the white frame plus the black one, pixel by pixel; the phase shifts
        average to half of that. Frames in the wrong order break the pixel-by-pixel sum (a bit paired
        with a sinusoid or another bit); a camera whose automatic exposure followed the patterns keeps
        the picture's shape but scales it (a half-lit stripe frame brightened to look like white).
        """
        if len(frames) != self.frame_count:
            return (f"a scan has {self.frame_count} frames; got {len(frames)}",)
        grey = [_grey(f) for f in frames]
        white, black = grey[0], grey[1]
        contrast = white - black
        lit = contrast >= min_contrast
        if np.mean(lit) < 0.01:
            return ("the first frame is not the lit white one and the second the black one: give the frames in the order "
                    "the patterns are numbered, or the projector did not light the table",)
        ref = (white + black)[lit]
        c = contrast[lit]
        checks: list[tuple[int, str, np.ndarray, np.ndarray]] = []  # (frame index, what, measured, expected)
        k = 2
        for axis in self.axes:
            bits = self.column_bits if axis == "columns" else self.row_bits
            for _ in range(bits):
                checks.append((k, "a stripe pattern and its inverse", (grey[k] + grey[k + 1])[lit], ref))
                k += 2
            waves = np.mean(np.stack(grey[k : k + self.phase_steps]), axis=0)[lit]
            checks.append((k, "the phase shifts", waves, ref / 2))
            k += self.phase_steps
        worst_order = (0.0, 0)
        worst_gain = (1.0, 0)
        for index, _what, measured, expected in checks:
            gain = float(np.median(measured / np.maximum(expected, 1e-6)))
            mismatch = float(np.median(np.abs(measured - gain * expected) / c))
            if mismatch > worst_order[0]:
                worst_order = (mismatch, index)
            if abs(gain - 1.0) > abs(worst_gain[0] - 1.0):
                worst_gain = (gain, index)
        # measured on the test scans: frames in order 0.015, frames sorted img_1, img_10, img_11... 0.3-0.9
        if worst_order[0] > 0.15:
            return (f"the scan's frames are not in pattern order (frame {worst_order[1] + 1} does not match the pattern "
                    "shown then): name them so they sort in order (pattern-000, pattern-001, ...)",)
        if abs(worst_gain[0] - 1.0) > 0.15:
            return (f"the camera's exposure changed during the scan (frame {worst_gain[1] + 1} is "
                    f"{100 * (worst_gain[0] - 1):+.0f}% against the white and black frames): lock the camera's exposure, "
                    "gain and white balance before scanning",)
        return ()

    def decode(self, frames: list[np.ndarray], *, min_contrast: float = 12.0) -> "DecodedScan":
        """Projector coordinates seen by every camera pixel, from the camera frames of :meth:`images`."""
        if len(frames) != self.frame_count:
            raise ScanDecodeError(f"a scan has {self.frame_count} frames; got {len(frames)}")
        grey = [_grey(f) for f in frames]
        shape = grey[0].shape
        if any(g.shape != shape for g in grey):
            raise ScanDecodeError("the scan's camera frames differ in size; did the camera change resolution mid-scan?")
        white, black = grey[0], grey[1]
        contrast = white - black
        valid = contrast >= min_contrast
        coords: dict[str, np.ndarray] = {}
        k = 2
        for axis in self.axes:
            bits = self.column_bits if axis == "columns" else self.row_bits
            size = self.width_px if axis == "columns" else self.height_px
            gray = np.zeros(shape, np.int32)
            for _ in range(bits):
                on, off = grey[k], grey[k + 1]
                k += 2
                gray = (gray << 1) | (on > off)
                # a bit read from two frames that barely differ is a guess (shadow, edge of the picture)
                valid &= np.abs(on - off) >= 0.15 * np.maximum(contrast, 1e-6)
            stripe = _gray_to_binary(gray, bits)
            waves = np.stack(grey[k : k + self.phase_steps])
            k += self.phase_steps
            delta = 2 * np.pi * np.arange(self.phase_steps) / self.phase_steps
            s = np.tensordot(np.sin(delta), waves, axes=1)
            c = np.tensordot(np.cos(delta), waves, axes=1)
            modulation = 2.0 / self.phase_steps * np.hypot(s, c)
            valid &= modulation >= 0.2 * np.maximum(contrast, 1e-6)
            fine = np.mod(np.arctan2(s, c), 2 * np.pi) * self.period_px / (2 * np.pi)
            coarse = stripe * self.gray_step_px + (self.gray_step_px - 1) / 2.0
            coord = fine + self.period_px * np.rint((coarse - fine) / self.period_px)
            valid &= np.abs(coord - coarse) <= self.gray_step_px
            valid &= (coord > -0.5) & (coord < size - 0.5)
            coords[axis] = coord
        u = coords.get("columns")
        v = coords.get("rows")
        return DecodedScan(
            u_px=np.where(valid, u, np.nan) if u is not None else None,
            v_px=np.where(valid, v, np.nan) if v is not None else None,
            valid=valid,
            white=white,
            contrast=contrast,
        )


def _gray_to_binary(gray: np.ndarray, bits: int) -> np.ndarray:
    out = gray.copy()
    shift = 1
    while shift < bits:
        out ^= out >> shift
        shift <<= 1
    return out


def _grey(frame: np.ndarray) -> np.ndarray:
    f = np.asarray(frame)
    if f.ndim == 3:
        f = f[..., 0] * 0.114 + f[..., 1] * 0.587 + f[..., 2] * 0.299
    return f.astype(np.float32)


@dataclass(frozen=True, eq=False)
class DecodedScan:
    """Per camera pixel (rows, cols): the projector column ``u_px`` and row ``v_px`` lighting it (NaN
    where unreadable), whether it was read, and the fully lit frame (the sand under white light)."""

    u_px: np.ndarray | None
    v_px: np.ndarray | None
    valid: np.ndarray
    white: np.ndarray = field(repr=False)
    contrast: np.ndarray = field(repr=False)

    @property
    def coverage(self) -> float:
        return float(np.mean(self.valid))

    def correspondences(self) -> tuple[np.ndarray, np.ndarray]:
        """(camera pixels (N, 2), projector pixels (N, 2)) of every decoded pixel (both axes needed)."""
        if self.u_px is None or self.v_px is None:
            raise ScanDecodeError("camera-projector correspondences need both column and row patterns")
        rows, cols = np.nonzero(self.valid)
        cam = np.column_stack([cols, rows]).astype(np.float64)
        proj = np.column_stack([self.u_px[rows, cols], self.v_px[rows, cols]]).astype(np.float64)
        return cam, proj
