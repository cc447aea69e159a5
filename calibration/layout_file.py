"""Table layout files (TOML, version 1): table size, anchor tags and the default unit tag size.

```toml
format = "sandtable-layout"
version = 1
width_in = 72            # table size, inches
depth_in = 48
unit_tag_size_in = 1.0   # default edge of unit tags' black square
[[anchors]]              # omit all [[anchors]] for the default four 2" anchors 1.5" in from the corners
tag_id = 0               # 0-9
x_in = 1.5               # centre, table inches
y_in = 1.5
size_in = 2.0            # edge of the black square (default 2)
heading_deg = 90         # direction the tag's top edge faces (default 90)
z_in = 0.0               # height of the anchor's surface (default 0)
```
"""
from __future__ import annotations

import re
from pathlib import Path

from calibration.errors import CalibrationError, LayoutFileError
from calibration.table_layout import (
    DEFAULT_ANCHOR_SIZE_IN,
    DEFAULT_TABLE_IN,
    DEFAULT_UNIT_TAG_SIZE_IN,
    MAX_ANCHOR_TAG_ID,
    AnchorTag,
    TableLayout,
)
from calibration.toml_fields import Fields, read_toml

LAYOUT_FORMAT = "sandtable-layout"
LAYOUT_VERSION = 1


def parse_table_size(text: str) -> tuple[float, float]:
    """``"72x48"`` -> (72.0, 48.0): a table size in inches as the command line takes it.

    >>> parse_table_size("72x48"), parse_table_size("60 x 44.5")
    ((72.0, 48.0), (60.0, 44.5))
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*", text)
    if not m or float(m.group(1)) <= 0 or float(m.group(2)) <= 0:
        raise CalibrationError(f"table size {text!r}: write it as WIDTHxDEPTH in inches, e.g. 72x48")
    return float(m.group(1)), float(m.group(2))


def layout_from_fields(f: Fields, *, default_size_in: tuple[float, float] = DEFAULT_TABLE_IN) -> TableLayout:
    """A layout from already parsed TOML fields (a layout file's top level)."""
    f.refuse_unknown({"format", "version", "width_in", "depth_in", "unit_tag_size_in", "anchors"})
    width = f.number("width_in", default_size_in[0], positive=True)
    depth = f.number("depth_in", default_size_in[1], positive=True)
    unit_size = f.number("unit_tag_size_in", DEFAULT_UNIT_TAG_SIZE_IN, positive=True)
    entries = f.tables("anchors")
    if not entries:
        base = TableLayout.default(width, depth)
        return TableLayout(width_in=width, depth_in=depth, anchors=base.anchors, unit_tag_size_in=unit_size)
    anchors = []
    for a in entries:
        a.refuse_unknown({"tag_id", "x_in", "y_in", "size_in", "heading_deg", "z_in"})
        anchors.append(
            AnchorTag(
                tag_id=a.integer("tag_id", minimum=0, maximum=MAX_ANCHOR_TAG_ID),
                x_in=a.number("x_in"),
                y_in=a.number("y_in"),
                size_in=a.number("size_in", DEFAULT_ANCHOR_SIZE_IN, positive=True),
                heading_deg=a.number("heading_deg", 90.0),
                z_in=a.number("z_in", 0.0),
            )
        )
    if len(anchors) < 2:
        raise LayoutFileError(f"{f.where}: only {len(anchors)} anchor; give at least 2 (4 in the corners is best)")
    try:
        return TableLayout(width_in=width, depth_in=depth, anchors=tuple(anchors), unit_tag_size_in=unit_size)
    except CalibrationError as exc:
        raise LayoutFileError(f"{f.where}: {exc}") from None


def load_layout(path: str | Path) -> TableLayout:
    """Read a layout file; errors name the file, the entry and the field and say how to fix it."""
    data = read_toml(path, error=LayoutFileError, what="layout")
    f = Fields(data, str(path), error=LayoutFileError)
    fmt = data.get("format")
    if fmt != LAYOUT_FORMAT:
        raise LayoutFileError(f"{path}: format = {fmt!r}; a layout file starts with format = \"{LAYOUT_FORMAT}\"")
    version = data.get("version")
    if version != LAYOUT_VERSION:
        raise LayoutFileError(
            f"{path}: version = {version!r}; this program reads layout version {LAYOUT_VERSION}"
        )
    return layout_from_fields(f)
