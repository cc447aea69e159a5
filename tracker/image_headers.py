"""The width and height an image file's header claims, read without decoding it.

``tracker.image_files.read_image`` refuses an image too small to hold a tag or too large for memory
before OpenCV decodes it; these readers give it the size. A file gives its size in the first bytes
(PNG, BMP, WebP, GIF, Sun raster, PNM/PAM/PFM, Radiance HDR), after a walk over its markers (JPEG),
at an offset its header names (TIFF, BigTIFF) or in a box near its start (JPEG 2000, AVIF). A header
that cannot be read gives None: OpenCV then judges the file (and refuses what it cannot read, in one
line).

>>> import io
>>> bmp = b"BM" + bytes(12) + (40).to_bytes(4, "little")  # the file header, then a 40-byte info header
>>> size_from_header(io.BytesIO(bmp + (40000).to_bytes(4, "little") + (-30000).to_bytes(4, "little", signed=True)))
(40000, 30000)
>>> size_from_header(io.BytesIO(b"P5\\n# a comment\\n640 480\\n255\\n"))
(640, 480)
>>> size_from_header(io.BytesIO(b"not an image")) is None
True
"""
from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import BinaryIO

Size = tuple[int, int]

#: How far into a file a text header (PNM, PFM, HDR) or a TIFF's first directory may be looked for.
MAX_TEXT_HEADER_BYTES = 4096
MAX_TIFF_ENTRIES = 4096
#: How far into a JPEG 2000 or AVIF file the box giving the size may be looked for (it comes first).
MAX_BOX_BYTES = 65536


def image_size_from_header(path: str | Path) -> Size | None:
    """(width, height) from the header of the image file at ``path``; None for a format not read here
    or a header that does not say."""
    with open(path, "rb") as fh:
        return size_from_header(fh)


def size_from_header(fh: BinaryIO) -> Size | None:
    """(width, height) from the header of an open binary file (read from its start)."""
    fh.seek(0)
    head = fh.read(64)
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(head)
    if head.startswith(b"\xff\xd8"):
        fh.seek(2)
        return _jpeg(fh)
    if head.startswith(b"BM"):
        return _bmp(head)
    if head[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"):
        return _tiff(fh, head)
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return _webp(head)
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return _gif(head)
    if head.startswith(b"\x59\xa6\x6a\x95"):
        return _sun_raster(head)
    if re.match(rb"P[1-7Ff]\s", head):
        fh.seek(0)
        return _netpbm(fh.read(MAX_TEXT_HEADER_BYTES))
    if head.startswith((b"#?RADIANCE", b"#?RGBE")):
        fh.seek(0)
        return _radiance(fh.read(MAX_TEXT_HEADER_BYTES))
    if head.startswith(b"\x00\x00\x00\x0cjP  \r\n\x87\n") or head.startswith(b"\xff\x4f\xff\x51"):
        fh.seek(0)
        return _jpeg2000(fh.read(MAX_BOX_BYTES))
    if head[4:8] == b"ftyp" and head[8:12] in (b"avif", b"avis", b"mif1", b"msf1"):
        fh.seek(0)
        return _avif(fh.read(MAX_BOX_BYTES))
    return None


def _png(head: bytes) -> Size | None:
    if len(head) < 24 or head[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def _jpeg(fh: BinaryIO) -> Size | None:
    # Walk the markers to the first start-of-frame (SOF0..SOF15 but DHT C4, JPG C8, DAC CC).
    for _ in range(10_000):
        byte = fh.read(1)
        while byte and byte != b"\xff":
            byte = fh.read(1)
        while byte == b"\xff":
            byte = fh.read(1)
        if not byte:
            return None
        marker = byte[0]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            continue
        if marker == 0xD9:
            return None
        length_bytes = fh.read(2)
        if len(length_bytes) < 2:
            return None
        length = struct.unpack(">H", length_bytes)[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            body = fh.read(5)
            if len(body) < 5:
                return None
            height, width = struct.unpack(">HH", body[1:5])
            return int(width), int(height)
        fh.seek(max(0, length - 2), 1)
    return None


def _bmp(head: bytes) -> Size | None:
    if len(head) < 26:
        return None
    dib_size = struct.unpack("<I", head[14:18])[0]
    if dib_size == 12:  # the OS/2 1.x core header: 16-bit sizes
        width, height = struct.unpack("<HH", head[18:22])
    elif dib_size >= 16:
        width, height = struct.unpack("<ii", head[18:26])  # a negative height: rows stored top-down
    else:
        return None
    return abs(int(width)), abs(int(height))


#: TIFF field types holding a whole number: SHORT, LONG, and BigTIFF's LONG8 (with their byte sizes).
_TIFF_INTS = {3: ("H", 2), 4: ("I", 4), 16: ("Q", 8)}


def _tiff(fh: BinaryIO, head: bytes) -> Size | None:
    order = "<" if head[:2] == b"II" else ">"
    big = head[2:4] in (b"+\x00", b"\x00+")
    if big:  # BigTIFF: 8-byte offsets and counts, 20-byte entries
        if len(head) < 16:
            return None
        first_ifd = struct.unpack(order + "Q", head[8:16])[0]
        count_format, entry_size, value_size = "Q", 20, 8
    else:
        first_ifd = struct.unpack(order + "I", head[4:8])[0]
        count_format, entry_size, value_size = "H", 12, 4
    fh.seek(first_ifd)
    raw = fh.read(struct.calcsize(count_format))
    if len(raw) < struct.calcsize(count_format):
        return None
    entries = min(struct.unpack(order + count_format, raw)[0], MAX_TIFF_ENTRIES)
    table = fh.read(entries * entry_size)
    found: dict[int, int] = {}
    for k in range(len(table) // entry_size):
        entry = table[k * entry_size:(k + 1) * entry_size]
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag not in (256, 257) or kind not in _TIFF_INTS:  # ImageWidth, ImageLength
            continue
        fmt, size = _TIFF_INTS[kind]
        value = entry[entry_size - value_size:entry_size - value_size + size]  # stored in the entry itself
        found[tag] = int(struct.unpack(order + fmt, value)[0])
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None


def _webp(head: bytes) -> Size | None:
    chunk, data = head[12:16], head[20:]
    if chunk == b"VP8 " and len(data) >= 10 and data[3:6] == b"\x9d\x01\x2a":  # lossy: 14-bit sizes
        width, height = struct.unpack("<HH", data[6:10])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 5 and data[0] == 0x2F:  # lossless: 14 bits each, minus one
        bits = struct.unpack("<I", data[1:5])[0]
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 10:  # extended: the canvas, 24 bits each, minus one
        return int.from_bytes(data[4:7], "little") + 1, int.from_bytes(data[7:10], "little") + 1
    return None


def _gif(head: bytes) -> Size | None:
    if len(head) < 10:
        return None
    width, height = struct.unpack("<HH", head[6:10])  # the logical screen
    return int(width), int(height)


def _sun_raster(head: bytes) -> Size | None:
    if len(head) < 12:
        return None
    width, height = struct.unpack(">II", head[4:12])
    return int(width), int(height)


def _netpbm(text: bytes) -> Size | None:
    """PBM/PGM/PPM (P1-P6), PFM (PF, Pf): whitespace-separated numbers after the magic, with # comments;
    PAM (P7): WIDTH and HEIGHT lines."""
    if text.startswith(b"P7"):
        width = re.search(rb"^WIDTH\s+(\d+)", text, re.M)
        height = re.search(rb"^HEIGHT\s+(\d+)", text, re.M)
        return (int(width.group(1)), int(height.group(1))) if width and height else None
    body = re.sub(rb"#[^\n]*", b" ", text[2:])
    numbers = re.match(rb"\s+(\d+)\s+(\d+)", body)
    return (int(numbers.group(1)), int(numbers.group(2))) if numbers else None


def _radiance(text: bytes) -> Size | None:
    """Radiance HDR: header lines, an empty line, then the resolution line ("-Y 480 +X 640")."""
    found = re.search(rb"\n\n([-+])([XY]) (\d+) ([-+])([XY]) (\d+)\n", text)
    if not found or found.group(2) == found.group(5):
        return None
    first, second = int(found.group(3)), int(found.group(6))
    return (second, first) if found.group(2) == b"Y" else (first, second)


def _jpeg2000(data: bytes) -> Size | None:
    """A JP2 file's image header box (height, then width), or a bare codestream's SIZ marker segment
    (the reference grid less the image's offset on it)."""
    if data.startswith(b"\xff\x4f\xff\x51"):
        if len(data) < 24:
            return None
        xsiz, ysiz, xosiz, yosiz = struct.unpack(">IIII", data[8:24])
        return max(0, xsiz - xosiz), max(0, ysiz - yosiz)
    at = data.find(b"ihdr")
    if at < 0 or len(data) < at + 12:
        return None
    height, width = struct.unpack(">II", data[at + 4:at + 12])
    return int(width), int(height)


def _avif(data: bytes) -> Size | None:
    """An AVIF (HEIF) file's image spatial extents properties ('ispe': version and flags, width, height);
    a grid image has one for the whole picture and one per tile, so the largest is the picture's."""
    sizes = []
    at = data.find(b"ispe")
    while at >= 0 and len(data) >= at + 16:
        width, height = struct.unpack(">II", data[at + 8:at + 16])
        sizes.append((int(width), int(height)))
        at = data.find(b"ispe", at + 4)
    return max(sizes, key=lambda s: s[0] * s[1]) if sizes else None


__all__ = ["image_size_from_header", "size_from_header"]
