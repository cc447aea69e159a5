"""Military symbols drawn: a unit's MIL-STD-2525 / APP-6 code (rules/military_symbols.py) as SVG.

The drawing is milsymbol's (the JavaScript library most map software uses, in its Python form: the
symbols milsymbol.js composes, replayed without a JavaScript engine), so the window (Qt's SVG
renderer), the projector, the class view (the SVG as it is) and the debrief draw the same symbol.
A code milsymbol does not know is refused here, once, rather than drawn as an empty box.

>>> s = unit_symbol("10031000001211000000", size_px=40)          # friendly infantry
>>> s.svg.startswith("<svg") and s.width_px > s.height_px > 0
True
>>> 0 < s.anchor_xy_px[0] < s.width_px
True
"""
from __future__ import annotations

import functools
import gc
import sys
from dataclasses import dataclass

from appmodel.errors import UsageError


@dataclass(frozen=True)
class UnitSymbol:
    """One drawn symbol: its SVG text, size, and the point of it that stands on the unit (the
    frame's centre, milsymbol's anchor) in the SVG's pixels."""

    sidc: str
    svg: str
    width_px: float
    height_px: float
    anchor_xy_px: tuple[float, float]


@functools.lru_cache(maxsize=512)
def unit_symbol(sidc: str, *, size_px: float = 40.0, outline_px: float = 0.0) -> UnitSymbol:
    """The symbol of ``sidc`` at ``size_px`` (milsymbol's size: about the frame's height); cached,
    since a table shows the same few symbols over and over. ``outline_px``: a white outline that
    keeps the symbol readable on sand or busy overlays."""
    import milsymbol  # type: ignore[import-untyped]  # the symbol library (no type information); only the front ends that draw symbols load it

    symbol = milsymbol.Symbol(sidc, size=size_px, outline_width=outline_px)
    if not symbol.is_valid():
        raise UsageError(f"symbol code {sidc!r} is not a symbol milsymbol knows; check the SIDC in the rules' "
                            "symbols.toml or the scenario's [symbols]")
    size = symbol.get_size()
    anchor = symbol.get_anchor()
    return UnitSymbol(sidc, symbol.as_svg(), float(size["width"]), float(size["height"]),
                      (float(anchor["x"]), float(anchor["y"])))


#: milsymbol's module-level tables, loaded whole by its first symbol and kept (its own lazy cache).
_MILSYMBOL_TABLES = ("_number_data", "_letter_data", "_modifier_data")


def release_symbol_tables() -> None:
    """Let go of milsymbol's code tables: once its first symbol is drawn it holds them as Python objects
    (130 MB for the 2525D number codes, 270 MB with the letter codes), and a symbol not drawn yet loads
    them again. The debrief draws its few symbols before it reads a long game's tracks and then frees
    them, so the two never share the memory (a three-hour game: 339 MB at peak with them kept)."""
    module = sys.modules.get("milsymbol.symbol")
    if module is None:
        return
    for name in _MILSYMBOL_TABLES:
        if getattr(module, name, None) is not None:
            setattr(module, name, None)
    gc.collect()

