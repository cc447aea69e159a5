"""The application model the class view reads (Qt-free): the session, its snapshot's draw items, the
settings' overlay toggles, the label placement and the replay model. One import point, so the rest
of the package names no front end."""
from __future__ import annotations

from gui.draw_item import REQUIRED_PRIORITY, DrawItem
from gui.draw_memo import Memo
from gui.label_placement import LabelRequest, PlacedLabel, place_labels
from gui.overlay_shapes import build_items
from gui.settings import OverlayToggles

__all__ = ["DrawItem", "LabelRequest", "Memo", "OverlayToggles", "PlacedLabel", "REQUIRED_PRIORITY", "build_items",
           "place_labels"]
