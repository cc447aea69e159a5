"""Which decodes to believe: exact ones always, corrected ones where a wrong id is very unlikely.

The detector corrects up to two wrong bits of a tag's 36-bit code and says how many it corrected (the
hamming distance). The bare detector reports every such decode. Corrected decodes are what is left of a
real tag under JPEG blocking, blur, glare or a neighbour's card over its corner, so dropping them loses
tags the bare detector finds (measured on real photos: bench/real_photos.py). Accepting them blindly is
not free either: a random quad matches some tag36h11 code within one bit 37 times, within two bits 667
times as often as exactly. So:

* an id the game knows (a roster unit, an anchor, a tag already followed) is accepted with up to two
  corrected bits: a texture quad decoding to that very id is vanishingly unlikely;
* any other id with one corrected bit;
* any other id with two corrected bits only when the decode is confident (``min_margin_two_bits``):
  every true two-bit decode in the real photos under every webcam fault had a decision margin of 18 or
  more, a ghost in texture is a low-contrast quad whose margin is small.

Negatives (checkerboards, random black-and-white grids, tag-like squares with random bits, our sand, the
real photos with their tags painted out, each under every webcam fault) give no id at all under this
policy, nor under the loosest one (tests/tracker/test_real_photo_recall.py).

Two policies, side by side:

* :class:`DecodePolicy`, for a still picture (``tracker.image_detection``, ``sandtable detect``): it has
  only the picture, so it judges each decode by its id, bits and margin;
* :func:`corrected_decodes_expected`, for video (``tracker.fast_detection``): it knows where each followed
  tag is expected, so a corrected decode is believed inside its own tag's window; anywhere else (unless
  its id is known) it is held back one sighting until it is found in its own window again.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from tracker.detections import TagDetections
from tracker.search_boxes import Box


@dataclass(frozen=True)
class DecodePolicy:
    """``known_ids``: ids the game expects (roster, anchors). Bits and margins as in the module doc."""

    known_ids: frozenset[int] = field(default_factory=frozenset)
    known_max_hamming: int = 2
    unknown_max_hamming: int = 1
    min_margin_two_bits: float = 15.0

    @classmethod
    def knowing(cls, *id_sets: Iterable[int]) -> "DecodePolicy":
        ids: set[int] = set()
        for s in id_sets:
            ids.update(int(i) for i in s)
        return cls(known_ids=frozenset(ids))

    def accepts(self, found: TagDetections) -> np.ndarray:
        """A boolean mask over ``found``: the decodes this policy believes."""
        known = np.fromiter((int(t) in self.known_ids for t in found.tag_ids), dtype=bool, count=len(found))
        limit = np.where(known, self.known_max_hamming, self.unknown_max_hamming)
        ok = found.hammings <= limit
        confident_two = (~known) & (found.hammings == 2) & (found.decision_margins >= self.min_margin_two_bits)
        return ok | confident_two


def corrected_decodes_expected(
    found: TagDetections,
    expected: list[tuple[int, Box]],
    *,
    max_hamming: int = 2,
    new_tag_max_hamming: int = 0,
    known_ids: frozenset[int] = frozenset(),
) -> np.ndarray:
    """Which detections to keep: exact decodes, and corrected ones inside a window of a tag with their id.

    ``expected`` lists (tag id, box) of the tags followed; a detection with up to ``new_tag_max_hamming``
    corrected bits is kept anywhere, one with up to ``max_hamming`` only if its centre lies in a box of
    its own id, or if its id is one of ``known_ids`` (the roster's and the anchors').

    >>> import numpy as np
    >>> from tracker.detections import TagDetections
    >>> found = TagDetections(np.array([7, 7, 8]), np.zeros((3, 4, 2)), np.array([[5.0, 5], [50, 50], [5, 5]]),
    ...                       np.ones(3), np.array([1, 1, 0]))
    >>> corrected_decodes_expected(found, [(7, (0, 0, 10, 10))]).tolist()
    [True, False, True]
    """
    keep = found.hammings <= new_tag_max_hamming
    for i in np.flatnonzero(~keep & (found.hammings <= max_hamming)):
        x, y = found.centers_px[i]
        tag_id = int(found.tag_ids[i])
        keep[i] = tag_id in known_ids or any(t == tag_id and b[0] <= x < b[2] and b[1] <= y < b[3] for t, b in expected)
    return keep
