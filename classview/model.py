"""The application model the class view reads (Qt-free): the snapshot's draw items, the overlay
registry and the label placement. One import point, so the rest of the package names no other layer."""
from __future__ import annotations

from appmodel.overlays.draw_item import REQUIRED_PRIORITY, DrawItem
from appmodel.overlays.draw_memo import Memo
from appmodel.overlays.label_placement import LabelRequest, PlacedLabel, place_labels
from appmodel.overlays.registry import OVERLAYS, build_items

__all__ = ["DrawItem", "LabelRequest", "Memo", "OVERLAYS", "PlacedLabel", "REQUIRED_PRIORITY", "build_items",
           "place_labels"]
