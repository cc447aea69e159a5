"""The faults of real footage, applied to a clean synthetic frame: blur, uneven light, noise, JPEG."""
from __future__ import annotations

import functools

import cv2
import numpy as np

from calibration.synthetic.scene import Faults


@functools.lru_cache(maxsize=4)
def _light_gain(width_px: int, height_px: int, strength: float) -> np.ndarray:
    """Vignetting (darker corners) times a side-to-side gradient (a window on one side), as 3-channel uint8
    gains in units of 1/255 so that cv2.multiply applies them in one pass."""
    x = (np.arange(width_px, dtype=np.float32) + 0.5) / width_px - 0.5
    y = (np.arange(height_px, dtype=np.float32) + 0.5) / height_px - 0.5
    xx, yy = np.meshgrid(x, y)
    rho2 = (xx**2 + yy**2) / 0.5
    gain = (1.0 - 0.5 * strength * rho2) * (1.0 - 0.4 * strength * (xx + 0.5))
    g = np.clip(np.rint(gain * 255.0), 0, 255).astype(np.uint8)
    out = np.repeat(g[:, :, None], 3, axis=2)
    out.setflags(write=False)
    return out


_BANK_MARGIN_PX = 64


@functools.lru_cache(maxsize=2)
def _noise_bank(height_px: int, width_px: int, sigma: float) -> np.ndarray:
    """Gaussian noise a little larger than the frame; each frame adds a randomly placed window of it.

    Drawing 6 million normal numbers per 1080p frame would cost more than the rest of the rendering;
    a random window (64 x 64 positions, and a random sign) gives every pixel an independent value per
    frame at the cost of one addition.
    """
    rng = np.random.default_rng(20240611)
    shape = (height_px + _BANK_MARGIN_PX, width_px + _BANK_MARGIN_PX, 3)
    bank = np.rint(rng.standard_normal(shape, dtype=np.float32) * sigma).astype(np.int16)
    bank.setflags(write=False)
    return bank


def apply_faults(image_bgr: np.ndarray, faults: Faults, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``image_bgr`` (uint8) as a real camera would deliver it; deterministic for a given ``rng``."""
    img = image_bgr
    if faults.blur_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), faults.blur_px)
    if faults.uneven_light > 0:
        h, w = img.shape[:2]
        img = cv2.multiply(img, _light_gain(w, h, round(float(faults.uneven_light), 4)), scale=1.0 / 255.0)
    if faults.noise_sigma > 0:
        h, w = img.shape[:2]
        bank = _noise_bank(h, w, round(float(faults.noise_sigma), 4))
        dy, dx = (int(v) for v in rng.integers(0, _BANK_MARGIN_PX + 1, size=2))
        window = bank[dy : dy + h, dx : dx + w]
        if rng.integers(0, 2):
            img = cv2.add(img, window, dtype=cv2.CV_8U)
        else:
            img = cv2.subtract(img, window, dtype=cv2.CV_8U)
    if faults.jpeg_quality > 0:
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(faults.jpeg_quality)])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:  # OpenCV's own encoding always decodes; None would keep the frame as it was
            img = decoded
    if img is image_bgr:
        img = image_bgr.copy()
    return img


# -- Webcam faults applied to any photograph (real or rendered) -------------------------------------
# Each takes a grey or BGR uint8 image and returns a new one; the set below is what the recall tests and
# bench/real_photos.py apply to the real photographs.


def jpeg_recompressed(image: np.ndarray, quality: int) -> np.ndarray:
    """The image after one JPEG round trip at ``quality`` (what a cheap webcam's MJPEG stream does)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"JPEG encoding failed at quality {quality}")
    decoded = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if decoded is None:
        raise ValueError(f"JPEG decoding failed at quality {quality}")
    return decoded


def downscaled(image: np.ndarray, factor: float) -> np.ndarray:
    """The image shrunk by ``factor`` (< 1) with area averaging, as a lower-resolution sensor sees it."""
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)


def blurred(image: np.ndarray, sigma_px: float) -> np.ndarray:
    """Out of focus: a Gaussian blur of ``sigma_px``."""
    return cv2.GaussianBlur(image, (0, 0), sigma_px)


def exposed(image: np.ndarray, gain: float, offset: float = 0.0) -> np.ndarray:
    """Exposure changed: ``gain`` x value + ``offset``, clipped (gain < 1 dark, > 1 bright and washed out)."""
    return cv2.convertScaleAbs(image, alpha=gain, beta=offset)


def with_glare(image: np.ndarray, *, centre_frac: tuple[float, float] = (0.6, 0.4), radius_frac: float = 0.35,
               strength: float = 170.0) -> np.ndarray:
    """A bright reflection (a lamp on a glossy print): a Gaussian spot added to every channel, clipped."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = radius_frac * max(h, w)
    spot = strength * np.exp(-((xx - centre_frac[0] * w) ** 2 + (yy - centre_frac[1] * h) ** 2) / (2 * r * r))
    if image.ndim == 3:
        spot = spot[:, :, None]
    return np.clip(image.astype(np.float32) + spot, 0, 255).astype(np.uint8)


def rotated(image: np.ndarray, angle_deg: float) -> np.ndarray:
    """The image turned by ``angle_deg`` about its centre (the camera rolled), borders replicated."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), angle_deg, 1.0)
    return cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def webcam_faults(median_tag_px: float | None = None) -> dict[str, "functools.partial[np.ndarray]"]:
    """The named faults a webcam adds to a photo, each a function image -> image.

    ``median_tag_px``: the typical tag edge in the photo; when given, ``small_tags`` shrinks the photo so
    that it becomes 24 px (between 20 and 30 px, what a 1" tag is at 1080p over a large table); photos
    whose tags are already smaller are left as they are by that fault.
    """
    faults: dict[str, functools.partial[np.ndarray]] = {
        "jpeg_q30": functools.partial(jpeg_recompressed, quality=30),
        "jpeg_q50": functools.partial(jpeg_recompressed, quality=50),
        "jpeg_q80": functools.partial(jpeg_recompressed, quality=80),
        "blur": functools.partial(blurred, sigma_px=1.2),
        "dark": functools.partial(exposed, gain=0.3),
        "bright": functools.partial(exposed, gain=1.8, offset=40.0),
        "glare": functools.partial(with_glare),
        "rotated_25deg": functools.partial(rotated, angle_deg=25.0),
    }
    if median_tag_px is not None:
        factor = min(1.0, 24.0 / max(1e-6, median_tag_px))
        faults["small_tags"] = functools.partial(downscaled, factor=factor)
        faults["small_tags_jpeg_q50"] = functools.partial(_small_then_jpeg, factor=factor, quality=50)
    return faults


def _small_then_jpeg(image: np.ndarray, *, factor: float, quality: int) -> np.ndarray:
    return jpeg_recompressed(downscaled(image, factor), quality)


# -- Faults of footage over time -------------------------------------------------------------------


def camera_bumped(image: np.ndarray, shift_px: tuple[float, float]) -> np.ndarray:
    """The frame as a camera knocked sideways by ``shift_px`` (dx, dy) sees it: the picture slides, the
    edge it uncovers repeats the border."""
    m = np.array([[1, 0, shift_px[0]], [0, 1, shift_px[1]]], dtype=np.float32)
    h, w = image.shape[:2]
    return cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def bump_shift_px(frame_index: int, *, start: int, frames: int, shift_px: tuple[float, float]) -> tuple[float, float]:
    """A bump that lasts ``frames`` frames from ``start`` (the camera wobbles out and springs back)."""
    return shift_px if start <= frame_index < start + frames else (0.0, 0.0)


def exposure_gain(t_s: float, *, swing: float = 0.25, period_s: float = 4.0) -> float:
    """Auto-exposure hunting: the brightness gain at ``t_s``, drifting by +-``swing`` over ``period_s``."""
    return 1.0 + swing * float(np.sin(2.0 * np.pi * t_s / period_s))


def webcam_frame(image: np.ndarray, *, t_s: float, jpeg_quality: int = 60, exposure_swing: float = 0.25) -> np.ndarray:
    """One frame of a cheap webcam's MJPEG stream: auto-exposure drift, then JPEG at ``jpeg_quality``."""
    out = exposed(image, exposure_gain(t_s, swing=exposure_swing)) if exposure_swing else image
    return jpeg_recompressed(out, jpeg_quality) if jpeg_quality else out
