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
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from tracker.detections import TagDetections


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
