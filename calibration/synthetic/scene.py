"""What the synthetic table is asked to draw, and the ground truth it hands back."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError
from calibration.table_layout import DEFAULT_UNIT_TAG_SIZE_IN


@dataclass(frozen=True)
class TagPlacement:
    """A unit tag on the table.

    ``z_in`` is the absolute height of the tag's surface over the table plane (ground + base), so a 1"
    base on a 3" hill is ``z_in=4``. The renderer draws a block from the ground up to ``z_in`` with the
    tag's card on top. ``velocity_in_s`` smears the tag when the frame has motion blur; the tag is at
    (x_in, y_in) in the middle of the exposure.
    """

    tag_id: int
    x_in: float
    y_in: float
    z_in: float
    heading_deg: float
    size_in: float = DEFAULT_UNIT_TAG_SIZE_IN
    velocity_in_s: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if not self.size_in > 0:
            raise CalibrationError(f"tag {self.tag_id}: size_in={self.size_in}; give the tag's edge in inches (> 0)")


@dataclass(frozen=True)
class TagTruth:
    """Where a tag really is, in table inches and in the rendered image.

    ``corners_px`` (4, 2) are in the detector's corner order and OpenCV's pixel convention (pixel centres
    at integers), i.e. exactly what ``tracker.detections.detect_tags`` should report. ``in_view``: all
    four corners inside the image. ``occluded``: some of the tag is covered by a hand.
    """

    tag_id: int
    x_in: float
    y_in: float
    z_in: float
    heading_deg: float
    size_in: float
    corners_px: np.ndarray = field(compare=False, repr=False)
    center_px: np.ndarray = field(compare=False, repr=False)
    in_view: bool = True
    occluded: bool = False

    @property
    def visible(self) -> bool:
        """In view and not under a hand: a detector should find it."""
        return self.in_view and not self.occluded


@dataclass(frozen=True)
class Faults:
    """The faults of real footage, applied in the order light reaches the sensor.

    ``blur_px``: Gaussian blur sigma (focus, lens). ``motion_blur``: tags with a velocity smear over
    ``exposure_s``. ``uneven_light``: 0..1 strength of vignetting plus a side-to-side light gradient.
    ``noise_sigma``: Gaussian sensor noise in grey levels. ``jpeg_quality``: 1..100, 0 = no compression.
    """

    noise_sigma: float = 0.0
    blur_px: float = 0.0
    motion_blur: bool = False
    jpeg_quality: int = 0
    uneven_light: float = 0.0
    exposure_s: float = 1.0 / 30.0

    def __post_init__(self) -> None:
        if self.noise_sigma < 0 or self.blur_px < 0:
            raise CalibrationError(
                f"noise_sigma={self.noise_sigma}, blur_px={self.blur_px}: both must be 0 or more"
            )
        if not 0 <= self.jpeg_quality <= 100:
            raise CalibrationError(f"jpeg_quality={self.jpeg_quality}: use 1-100, or 0 for no compression")
        if not 0 <= self.uneven_light <= 1:
            raise CalibrationError(f"uneven_light={self.uneven_light}: use a strength from 0 to 1")
        if not self.exposure_s >= 0:
            raise CalibrationError(f"exposure_s={self.exposure_s}: give the shutter time in seconds (>= 0)")


@dataclass(frozen=True)
class Hand:
    """A hand reaching over the table: a palm of ``radius_in`` at height ``z_in``, its arm running off the
    nearest table edge. Whatever it covers in the image is hidden."""

    x_in: float
    y_in: float
    radius_in: float
    z_in: float = 6.0

    def __post_init__(self) -> None:
        if not self.radius_in > 0:
            raise CalibrationError(f"hand radius_in={self.radius_in}: give a positive radius in inches")


@dataclass(frozen=True, eq=False)
class Projector:
    """A projector over the table, throwing ``image_bgr`` onto it.

    ``model`` holds the projector's resolution and lens (as a camera model); ``pose`` is where it hangs,
    in the same convention as a camera's. The table's brightness is ``room_light + brightness * light``
    with ``light`` the projected colour in 0..1, so a dark room has a small ``room_light``.
    """

    model: CameraModel
    pose: CameraPose
    image_bgr: np.ndarray
    brightness: float = 0.9
    room_light: float = 0.45

    def __post_init__(self) -> None:
        img = np.asarray(self.image_bgr)
        want = (self.model.height_px, self.model.width_px)
        if img.ndim == 2:
            img = np.repeat(img[:, :, None], 3, axis=2)
        if img.shape[:2] != want or img.ndim != 3 or img.shape[2] != 3:
            raise CalibrationError(
                f"projector image is {img.shape}; it must be {want[0]}x{want[1]} (rows x cols) BGR like the projector model"
            )
        object.__setattr__(self, "image_bgr", np.ascontiguousarray(img, dtype=np.uint8))

    def showing(self, image_bgr: np.ndarray) -> "Projector":
        """The same projector showing another image."""
        return Projector(self.model, self.pose, image_bgr, brightness=self.brightness, room_light=self.room_light)


@dataclass(frozen=True, eq=False)
class RenderedFrame:
    """One synthetic camera frame and the truth about every tag placed (anchors included)."""

    image_bgr: np.ndarray
    truth: tuple[TagTruth, ...]
    t_s: float = 0.0
    frame_index: int = 0

    def truth_of(self, tag_id: int) -> TagTruth | None:
        for t in self.truth:
            if t.tag_id == tag_id:
                return t
        return None

    @property
    def visible_ids(self) -> frozenset[int]:
        """Ids a detector should find: in view and not under a hand."""
        return frozenset(t.tag_id for t in self.truth if t.visible)
