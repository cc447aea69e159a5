"""Still tags: a followed tag whose pixels are as they were when it was last detected is reported again,
unsearched.

On a real table most units stand still most of the time. A small grey thumbnail of the frame
(:func:`thumbnail`) is made once a frame; each still tag keeps the patch of it over the tag
(:func:`remember_patches`), and while that patch has not changed beyond its own exposure gain
(:func:`unchanged_tags`) the tag is reported at the mean of its detections there without running the
detector. Which tags may be (:func:`still_candidates`): detected ``still_average`` frames in a row at
one place, and not due for their re-check (every ``reverify_frames``).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from tracker.detections import TagDetections
from tracker.detector_settings import FastDetectorSettings
from tracker.pixel_tracks import PixelTrack


def thumbnail_step(settings: FastDetectorSettings, width: int) -> int:
    """Frame pixels per thumbnail pixel: a power of two near ``settings.thumbnail_step`` per 1920 px of
    width (a tag spans as many thumbnail pixels at any resolution).

    >>> thumbnail_step(FastDetectorSettings(), 1920), thumbnail_step(FastDetectorSettings(), 3840)
    (8, 16)
    """
    return 1 << max(0, round(math.log2(max(1.0, settings.thumbnail_step * width / 1920))))


def thumbnail(gray: np.ndarray, k: int, *, samples: int = 32) -> np.ndarray:
    """The mean of each k x k block of ``gray`` (k a power of two), from some of its rows.

    Each block gives at least ``samples`` pixels of its whole width on evenly spaced rows: reading
    every row of a 4K frame costs more than the rest of a frame's tracking, and a tag's edge or bits
    that move change the sampled rows as much as all of them; 32 samples average the sensor noise to a
    sixth. Means are taken by halving (OpenCV's linear resize at exactly half is a 2-pixel mean), three
    times faster than its area resize.

    >>> import numpy as np
    >>> thumbnail(np.arange(64, dtype=np.uint8).reshape(8, 8) * 2, 4).tolist()
    [[27, 35], [91, 99]]
    """
    import cv2

    rows = max(1, min(k, k * k // samples))
    tx, ty = max(1, gray.shape[1] // k), max(1, gray.shape[0] // k)
    img = gray[rows // 2 :: rows][: ty * (k // rows), : tx * k] if rows > 1 else gray[: ty * k, : tx * k]
    while img.shape[1] > tx or img.shape[0] > ty:
        img = cv2.resize(
            img, (max(tx, img.shape[1] // 2), max(ty, img.shape[0] // 2)), interpolation=cv2.INTER_LINEAR
        )
    return img


def patch_slice(centre: np.ndarray, edge_px: float, k: int) -> tuple[slice, slice]:
    """The thumbnail pixels over a tag and a quarter of its width around it."""
    r = edge_px * (math.sqrt(0.5) + 0.25)
    return (
        slice(max(0, int((centre[1] - r) // k)), int(-(-(centre[1] + r) // k))),
        slice(max(0, int((centre[0] - r) // k)), int(-(-(centre[0] + r) // k))),
    )


def still_candidates(tracks: list[PixelTrack], settings: FastDetectorSettings, frame_no: int) -> list[PixelTrack]:
    """The followed tags that may be reported unsearched this frame, if their pixels have not changed:
    seen in the last frame, detected ``still_average`` times at one place, their re-check not due.
    Every track's ``reused`` is cleared: :func:`unchanged_tags` sets it again for this frame."""
    out = []
    for track in tracks:
        track.reused = False
        if not settings.reuse_still:
            continue
        if not (track.confirmed and track.misses == 0 and track.ref_detection is not None and track.ref_patch is not None):
            continue
        if track.ref_count < settings.still_average:
            continue
        if settings.reverify_frames > 0 and (frame_no + track.tag_id * 7) % settings.reverify_frames == 0:
            continue
        out.append(track)
    return out


def unchanged_tags(
    thumb: np.ndarray, candidates: list[PixelTrack], settings: FastDetectorSettings, *, frame_index: int, t_s: float, frame_size: tuple[int, int]
) -> TagDetections:
    """The last detection of each candidate (:func:`still_candidates`) whose thumbnail patch is as it
    was when the tag was last detected (after the patch's exposure gain); each such track is marked
    ``reused``."""
    rows = []
    candidates = [t for t in candidates if t.ref_index is not None and t.ref_index.size]
    if candidates:
        # All the patches at once (this runs for every still tag in every frame): each patch's
        # gain, then its largest difference from before.
        sizes = np.array([t.ref_index.size for t in candidates])
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        now = thumb.ravel()[np.concatenate([t.ref_index for t in candidates])]
        before = np.concatenate([t.ref_patch for t in candidates])
        gain = np.add.reduceat(now, starts) / sizes / np.array([t.ref_mean for t in candidates])
        worst = np.maximum.reduceat(np.abs(now - np.repeat(gain.astype(np.float32), sizes) * before), starts)
        for track, still in zip(candidates, (worst < settings.still_change_threshold).tolist()):
            if still:
                track.reused = True
                rows.append((track.tag_id, *track.ref_detection))
    if not rows:
        return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size)
    return TagDetections(
        tag_ids=np.array([r[0] for r in rows], dtype=np.int64),
        corners_px=np.array([r[1] for r in rows], dtype=np.float64),
        centers_px=np.array([r[2] for r in rows], dtype=np.float64),
        decision_margins=np.array([r[3] for r in rows], dtype=np.float64),
        hammings=np.array([r[4] for r in rows], dtype=np.int64),
        frame_index=frame_index,
        t_s=t_s,
        frame_size_px=frame_size,
    )


def remember_patches(
    tracks: list[PixelTrack], thumb: np.ndarray, reported: TagDetections, t_s: float,
    rows: dict[tuple[int, float, float], int], settings: FastDetectorSettings, k: int
) -> TagDetections:
    """Each tag detected for real in this frame keeps this detection and its thumbnail patch; a tag
    detected where it stood is reported at the mean of its detections there (returned). ``k``: :func:`thumbnail_step`; ``rows``:
    :func:`~tracker.pixel_tracks.rows_by_place` of ``reported``."""
    corners_out = centres_out = None  # copied at the first mean reported (most frames have none)
    for track in tracks:
        if track.reused or not track.confirmed or track.misses or track.last_seen_t != t_s:
            continue
        i = rows.get((track.tag_id, float(track.center[0]), float(track.center[1])))
        if i is None:
            continue
        corners, centre = reported.corners_px[i], reported.centers_px[i]
        margin, hamming = float(reported.decision_margins[i]), int(reported.hammings[i])
        before = track.ref_detection
        limit = settings.still_match_edges * track.edge_px
        if settings.reuse_still and before is not None and float(((corners - before[0]) ** 2).sum(axis=1).max()) <= limit * limit:
            # The same place again: the mean of the detections there is steadier than each of them.
            n = min(track.ref_count, settings.still_average_max)
            corners = (n * before[0] + corners) / (n + 1)
            centre = (n * before[1] + centre) / (n + 1)
            track.ref_count += 1
            if n >= settings.still_average:
                # Reported from now on; until then the raw detections are (the pose filter
                # averages a still unit's measurements itself, and this mean is theirs).
                if corners_out is None:
                    corners_out, centres_out = reported.corners_px.copy(), reported.centers_px.copy()
                corners_out[i], centres_out[i] = corners, centre
        else:
            track.ref_count = 1
        track.ref_detection = (corners.copy(), centre.copy(), margin, hamming)
        track.at_ref = False
        if not (settings.reuse_still and track.ref_count >= settings.still_average):
            # Its patch is looked at only once it may be reported unsearched; a moving tag (a new
            # place each frame) never is, and the detection that makes it eligible takes the patch.
            track.ref_index = track.ref_patch = None
            continue
        ys, xs = patch_slice(track.center, track.edge_px, k)
        track.ref_index = (np.arange(ys.start, min(ys.stop, thumb.shape[0]))[:, None] * thumb.shape[1]
                           + np.arange(xs.start, min(xs.stop, thumb.shape[1]))[None, :]).ravel()
        track.ref_patch = thumb.ravel()[track.ref_index]
        track.ref_mean = max(1.0, float(track.ref_patch.sum()) / track.ref_patch.size) if track.ref_patch.size else 1.0
    return reported if corners_out is None else replace(reported, corners_px=corners_out, centers_px=centres_out)
