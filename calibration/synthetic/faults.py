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
        if ok:
            img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if img is image_bgr:
        img = image_bgr.copy()
    return img
