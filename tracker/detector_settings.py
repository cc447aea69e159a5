"""How the fast detector (:mod:`tracker.fast_detection`) splits its work: one settings object for every stage.

A field's comment stands above it when it takes more than the field's own line.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class FastDetectorSettings:
    """How :class:`~tracker.fast_detection.FastTagDetector` splits its work. Defaults measured by ``bench/tracking.py``."""

    # -- threads (tracker.detect_workers)
    workers: int = 2  # threads (and detectors); 2 = both cores of an ordinary laptop
    # A frame's search smaller than this (full-resolution-equivalent pixels) stays on one thread.
    split_min_px: float = 40_000

    # -- the sweep for new tags (tracker.change_sweep)
    # Share of the tiles searched in round robin each frame whatever changed (the safety net: a whole
    # sweep in about 13 seconds at 30 frames/s; a tag put down is a change, searched at once).
    sweep_fraction: float = 1 / 384
    # At most this share of the frame searched each frame because its picture changed since it was last
    # searched (a tag put down, a hand gone).
    changed_sweep_fraction: float = 1 / 8
    change_threshold: float = 10.0  # grey levels on a 1/8-size thumbnail, after the frame's median change
    change_mask_grow: float = 1.0  # change this many window sizes around a moving tag's window is its own
    moving_edges_per_s: float = 0.5  # a tag faster than this (tag edges per second) counts as moving
    tile_px: int = 480  # tile edge before the overlap is added (scaled with frame width / 1920)

    # -- the thumbnail (tracker.still_tags)
    thumbnail_samples: int = 32  # frame pixels averaged into each thumbnail pixel, at least (see thumbnail())
    thumbnail_step: int = 8  # at 1920 px wide; scaled with the frame's width (a tag spans as many thumbnail pixels)

    # -- still tags (tracker.still_tags)
    reuse_still: bool = True  # False: every followed tag is searched in every frame (the old way; for comparison)
    # A followed tag whose patch of the thumbnail changed less than this (grey levels, after the patch's
    # own exposure gain) since it was last detected has not moved: its last detection is reported again
    # without running the detector (a 1 px shift of a tag's edge changes its thumbnail pixels by 15-20 levels).
    still_change_threshold: float = 4.0
    # ... but each such tag is detected for real at least once every this many frames (spread over the
    # frames by tag id), whatever its pixels say.
    reverify_frames: int = 60
    # A still tag is reported again unchanged only once it has been detected this many frames in a row at
    # the same place (a unit just put down is searched for a seventh of a second); from then on it is
    # reported at the mean of its detections there (each within still_match_edges of the mean).
    still_average: int = 4
    still_average_max: int = 32  # the mean's weight stops growing here, so that later detections still count
    # A detection whose corners all lie this close to the mean is the same place (0.5 px for a 25 px tag);
    # farther, the unit moved and the mean starts again.
    still_match_edges: float = 0.02

    # -- windows around followed tags (tracker.pixel_tracks)
    border_edges: float = 0.15  # white border kept around a tag in its window, in tag edges
    min_border_px: float = 6.0  # the detector needs a few of its 4x4 threshold tiles around a tag
    uncertainty_edges: float = 0.1  # margin for prediction error, in tag edges (plus half a frame's motion)
    # Quads are found on the frame decimated by a step (1 to 4) that keeps the tag at least this wide
    # (edges and decoding stay at full resolution): 25 px tags at step 2. The sweep for new tags keeps
    # this; they are found nowhere else.
    min_decimated_edge_px: float = 12.5
    # ... and a followed tag in its window this wide: 22 px tags at step 2 (one in a hundred is missed
    # there and found at once by the window's full-resolution retry).
    window_min_decimated_edge_px: float = 11.0
    miss_growth_edges: float = 0.5  # the window grows this much per frame while its tag is missing
    max_growth_edges: float = 1.5  # ... up to this
    forget_after_s: float = 10.0  # a tag missing this long is left to the sweep
    min_edge_px: float = 12.0  # smallest tag edge assumed when sizing windows and tile overlaps
    duplicate_px: float = 4.0  # same id closer than this: one tag found twice
    # A missing tag is predicted along its velocity this long; after a longer gap its velocity is unknown again.
    velocity_gap_s: float = 0.5
    # A followed tag missing from its window is searched again with this decoder sharpening (the windows
    # use 0.25: it saves small soft tags and breaks some JPEG-ringed ones).
    retry_sharpening: float = 0.0

    # -- corrected decodes (tracker.decode_policy.corrected_decodes_expected)
    max_hamming: int = 2  # bits the detector may correct (its own limit; what the bare detector reports)
    new_tag_max_hamming: int = 0  # corrected bits reported at once for a tag not followed yet (see fast_detection)
    candidate_forget_s: float = 0.5  # a tag seen once with corrected bits and not again is dropped after this

    # -- a bumped camera: the whole frame is searched in the same frame when this many tags seen in the
    # last frame are missing from their windows at once, and at least this share of them; or when any tag
    # is missing while the tags found moved all alike by bump_shift_px from where they were predicted.
    bump_min_missing: int = 3
    bump_missing_share: float = 0.25
    bump_shift_px: float = 4.0

    # -- tags lost a few at a time (a general motion: blur, rolling shutter, a hand-held camera): the whole
    # frame is searched as soon as the tags missing over the last escalate_frames frames are at least
    # escalate_missing_share of those seen within escalate_for_s; each missing tag asks for it at most
    # once every escalate_every_frames frames (1: every frame while the share stays high).
    escalate_frames: int = 3
    escalate_for_s: float = 1.0
    escalate_every_frames: int = 1
    escalate_missing_share: float = 0.1
    escalate_min_edge_px: float = 40.0  # ... at the largest step keeping the smallest missing tag this wide
