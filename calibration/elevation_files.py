"""Real elevation models from files: ESRI ASCII grids (.asc) and GeoTIFFs (.tif), as metres on a map.

An :class:`ElevationModel` is a raster of elevations (metres) with where its pixels stand on the map:
``x_m`` east and ``y_m`` north of the raster's lower-left corner, pixel centres at
``((col + 0.5) * cell_x_m, (rows - row - 0.5) * cell_y_m)`` (row 0 is the north edge, as both formats
store it). Missing samples (the file's nodata value) are NaN. The map's own coordinates (its easting
and northing) are kept in ``origin_m`` for labels, not used for placing.

GeoTIFFs are decoded by tifffile (with imagecodecs for the LZW and Deflate compression that published
elevation models use); the ASCII grid is a six-line text header over rows of numbers, read here.
A GeoTIFF in degrees (a geographic CRS) is converted to metres at its centre latitude, which is exact
enough for a sand table (a few tenths of a percent over a map a few kilometres wide).

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "hill.asc"
>>> _ = p.write_text("ncols 3\\nnrows 2\\nxllcorner 500000\\nyllcorner 4100000\\ncellsize 30\\n"
...                  "NODATA_value -9999\\n1 2 3\\n4 -9999 6\\n")
>>> dem = read_elevation_file(p)
>>> dem.heights_m.shape, dem.cell_x_m, dem.width_m, dem.origin_m, bool(np.isnan(dem.heights_m[1, 1]))
((2, 3), 30.0, 90.0, (500000.0, 4100000.0), True)
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from calibration.errors import CalibrationError


class ElevationFileError(CalibrationError):
    """An elevation model file cannot be read; the message names the file and what to fix."""


@dataclass(frozen=True, eq=False)
class ElevationModel:
    """Elevations in metres (NaN where the file has none) on a regular map grid."""

    heights_m: np.ndarray = field(repr=False)
    cell_x_m: float
    cell_y_m: float
    origin_m: tuple[float, float] = (0.0, 0.0)
    source: str = ""

    def __post_init__(self) -> None:
        h = np.asarray(self.heights_m, dtype=np.float64)
        if h.ndim != 2 or min(h.shape) < 2:
            raise ElevationFileError(f"{self.source or 'elevation model'}: {h.shape} samples; it needs a 2-D grid of at least 2x2")
        if not (self.cell_x_m > 0 and self.cell_y_m > 0):
            raise ElevationFileError(f"{self.source or 'elevation model'}: cell size {self.cell_x_m} x {self.cell_y_m} m; it must be positive")
        if not np.isfinite(h).any():
            raise ElevationFileError(f"{self.source or 'elevation model'}: every sample is nodata; choose a file with elevations")
        object.__setattr__(self, "heights_m", h)

    @property
    def width_m(self) -> float:
        return self.heights_m.shape[1] * self.cell_x_m

    @property
    def depth_m(self) -> float:
        return self.heights_m.shape[0] * self.cell_y_m

    def elevation_at(self, x_m: np.ndarray, y_m: np.ndarray) -> np.ndarray:
        """Bilinear elevation at map points (metres from the lower-left corner) between pixel
        centres, the edge pixels' own in the outer half pixel; NaN off the raster and next to nodata."""
        rows, cols = self.heights_m.shape
        x = np.asarray(x_m, dtype=np.float64)
        y = np.asarray(y_m, dtype=np.float64)
        inside = (x >= 0) & (x <= self.width_m) & (y >= 0) & (y <= self.depth_m)
        fc = x / self.cell_x_m - 0.5
        fr = rows - 0.5 - y / self.cell_y_m
        fc, fr = np.clip(fc, 0, cols - 1), np.clip(fr, 0, rows - 1)
        c0 = np.minimum(np.floor(fc).astype(np.intp), cols - 2)
        r0 = np.minimum(np.floor(fr).astype(np.intp), rows - 2)
        ax, ay = fc - c0, fr - r0
        h = self.heights_m
        top = h[r0, c0] * (1 - ax) + h[r0, c0 + 1] * ax
        bottom = h[r0 + 1, c0] * (1 - ax) + h[r0 + 1, c0 + 1] * ax
        return np.where(inside, top * (1 - ay) + bottom * ay, np.nan)


def read_elevation_file(path: str | Path) -> ElevationModel:
    """An ESRI ASCII grid (.asc, .grd, .txt) or a GeoTIFF (.tif, .tiff), chosen by its suffix."""
    p = Path(path)
    if not p.is_file():
        raise ElevationFileError(f"elevation file {str(p)!r} does not exist; check the path")
    suffix = p.suffix.lower()
    if suffix in (".tif", ".tiff"):
        return read_geotiff(p)
    if suffix in (".asc", ".grd", ".txt"):
        return read_esri_ascii(p)
    raise ElevationFileError(f"{p.name}: unknown elevation format {suffix!r}; give an ESRI ASCII grid (.asc) or a GeoTIFF (.tif)")


_ASCII_KEYS = {"ncols", "nrows", "xllcorner", "yllcorner", "xllcenter", "yllcenter", "cellsize", "dx", "dy", "nodata_value"}


def read_esri_ascii(path: str | Path) -> ElevationModel:
    """An ESRI ASCII grid: ``ncols``, ``nrows``, ``xllcorner``/``xllcenter``, ``yllcorner``/``yllcenter``,
    ``cellsize`` (or ``dx`` and ``dy``), optional ``NODATA_value``, then the rows north to south."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="ascii", errors="strict").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ElevationFileError(f"{p.name}: cannot be read as an ESRI ASCII grid ({exc.__class__.__name__})") from None
    header: dict[str, float] = {}
    body = 0
    for body, line in enumerate(lines):  # noqa: B007 - body is read after the loop: where the grid rows start
        parts = line.split()
        if not parts:
            continue
        key = parts[0].lower()
        if key not in _ASCII_KEYS:
            break
        try:
            header[key] = float(parts[1])
        except (IndexError, ValueError):
            raise ElevationFileError(f"{p.name}: header line {line!r} has no number; write e.g. 'cellsize 30'") from None
    for needed in ("ncols", "nrows"):
        if needed not in header:
            raise ElevationFileError(f"{p.name}: the header has no {needed!r}; an ESRI ASCII grid starts with ncols, nrows, "
                                     "xllcorner, yllcorner, cellsize")
    cell_x = header.get("dx", header.get("cellsize"))
    cell_y = header.get("dy", header.get("cellsize"))
    if cell_x is None or cell_y is None:
        raise ElevationFileError(f"{p.name}: the header has no 'cellsize' (nor 'dx' and 'dy'); give the cell size in metres")
    try:
        values = np.array(" ".join(lines[body:]).split(), dtype=np.float64)
    except ValueError as exc:
        raise ElevationFileError(f"{p.name}: the grid has a value that is not a number ({exc})") from None
    rows, cols = int(header["nrows"]), int(header["ncols"])
    if values.size != rows * cols:
        raise ElevationFileError(f"{p.name}: {values.size} values for nrows {rows} x ncols {cols} = {rows * cols}; "
                                 "the file is truncated or its header is wrong")
    grid = values.reshape(rows, cols)
    if "nodata_value" in header:
        grid[grid == header["nodata_value"]] = np.nan
    x0 = header.get("xllcorner", header.get("xllcenter", 0.0) - cell_x / 2)
    y0 = header.get("yllcorner", header.get("yllcenter", 0.0) - cell_y / 2)
    return ElevationModel(grid, cell_x, cell_y, (x0, y0), p.name)


# GeoTIFF tags and keys (OGC GeoTIFF 1.1)
_PIXEL_SCALE, _TIEPOINT, _TRANSFORM, _GEOKEYS, _GDAL_NODATA = 33550, 33922, 34264, 34735, 42113
_MODEL_TYPE, _RASTER_TYPE = 1024, 1025
_GEOGRAPHIC, _PIXEL_IS_POINT = 2, 2


def read_geotiff(path: str | Path) -> ElevationModel:
    """The first band of a GeoTIFF's first image, placed by its pixel scale and tie point (or its
    transformation matrix when it has no rotation)."""
    import tifffile  # only a GeoTIFF needs it (and its codecs), not every import of the calibration

    p = Path(path)
    try:
        with tifffile.TiffFile(p) as tif:
            page = tif.pages.first  # a TiffPage (pages[0] is typed as page or frame)
            data = page.asarray()
            tags = {tag.code: tag.value for tag in page.tags.values()}
    except Exception as exc:  # tifffile raises many kinds for corrupt or unsupported files
        raise ElevationFileError(f"{p.name}: cannot be read as a GeoTIFF ({exc})") from None
    if data.ndim == 3:
        data = data[..., 0] if data.shape[-1] <= 4 else data[0]
    if data.ndim != 2:
        raise ElevationFileError(f"{p.name}: an image of shape {data.shape}; an elevation model is one band")
    grid = data.astype(np.float64)
    nodata = tags.get(_GDAL_NODATA)
    if nodata is not None:
        try:
            grid[grid == float(str(nodata).strip("\x00 "))] = np.nan
        except ValueError:
            pass  # an unreadable nodata value marks nothing
    keys = _geokeys(tags.get(_GEOKEYS))
    if _PIXEL_SCALE in tags and _TIEPOINT in tags:
        sx, sy = float(tags[_PIXEL_SCALE][0]), float(tags[_PIXEL_SCALE][1])
        i, j, _, x, y, _ = (float(v) for v in tags[_TIEPOINT][:6])
    elif _TRANSFORM in tags:
        m = [float(v) for v in tags[_TRANSFORM]]
        if abs(m[1]) > 1e-12 or abs(m[4]) > 1e-12:
            raise ElevationFileError(f"{p.name}: the raster is rotated on its map; export it north-up (e.g. gdalwarp)")
        sx, sy, i, j, x, y = m[0], -m[5], 0.0, 0.0, m[3], m[7]
    else:
        raise ElevationFileError(f"{p.name}: a TIFF without GeoTIFF placement (no pixel scale and tie point); "
                                 "export the elevation model as a GeoTIFF")
    if keys.get(_RASTER_TYPE) == _PIXEL_IS_POINT:  # the tie point is a pixel's centre, not its corner
        i, j = i - 0.5, j - 0.5
    left = x - i * sx
    top = y + j * sy
    bottom = top - grid.shape[0] * sy
    if keys.get(_MODEL_TYPE) == _GEOGRAPHIC:  # degrees: metres at the centre latitude
        metres_per_deg = 111_320.0
        sx, sy = sx * metres_per_deg * math.cos(math.radians((top + bottom) / 2)), sy * metres_per_deg
    # origin_m: the lower-left corner in the file's own map units (degrees for a geographic file)
    return ElevationModel(grid, sx, sy, (left, bottom), p.name)


def _geokeys(directory: Sequence[int] | None) -> dict[int, int]:
    """The GeoKeyDirectory's short keys (id -> value)."""
    if directory is None or len(directory) < 4:
        return {}
    out = {}
    for k in range(int(directory[3])):
        key, location, _, value = (int(v) for v in directory[4 + 4 * k: 8 + 4 * k])
        if location == 0:
            out[key] = value
    return out
