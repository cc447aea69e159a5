"""What to draw, in table inches: the overlay registry, the builders shared by every rule system and one
module per rule system, the draw items, label placement, clipping and placed templates (Qt-free)."""
