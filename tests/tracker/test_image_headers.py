"""Every image format the program reads has its size checked from the header before OpenCV decodes
it: the size read from files real encoders wrote matches the picture, and a tiny crafted file whose
header claims a huge (or a one-pixel) picture is refused in one line naming the file, without OpenCV
ever seeing it (it would have allocated the claimed gigabytes first)."""
from __future__ import annotations

import struct
from contextlib import redirect_stderr
from io import StringIO
from pathlib import Path

import cv2
import numpy as np
import pytest

from tracker.errors import SourceError
from tracker.image_files import MAX_IMAGE_PIXELS, read_image
from tracker.image_headers import image_size_from_header

PICTURE = np.random.default_rng(0).integers(0, 255, (23, 37, 3)).astype(np.uint8)  # 37 wide, 23 high


@pytest.mark.parametrize("ext", ["png", "jpg", "bmp", "tif", "webp", "gif", "ppm", "pgm", "pbm", "pam", "pfm", "hdr", "ras", "avif"])
def test_the_size_in_the_header_of_a_file_opencv_wrote_is_the_pictures(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"photo.{ext}"
    data = PICTURE.astype(np.float32) / 255 if ext in ("pfm", "hdr") else PICTURE[:, :, 0] if ext in ("pgm", "pbm") else PICTURE
    if not cv2.imwrite(str(path), data):
        pytest.skip(f"this OpenCV writes no .{ext}")
    decoded = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    assert image_size_from_header(path) == (37, 23) == (decoded.shape[1], decoded.shape[0])


@pytest.mark.parametrize("name, options", [("lossy.webp", {"lossless": False}), ("lossless.webp", {"lossless": True}),
                                           ("alpha.webp", {"exact": True}), ("big.tif", {"big_tiff": True}),
                                           ("packbits.tif", {"compression": "packbits"}), ("core.jp2", {}), ("bare.j2k", {})])
def test_the_size_in_the_header_of_the_variants_other_encoders_write_is_the_pictures(tmp_path: Path, name: str, options) -> None:
    image = pytest.importorskip("PIL.Image")
    path = tmp_path / name
    pixels = np.dstack([PICTURE, PICTURE[:, :, :1]]) if name.startswith("alpha") else PICTURE  # alpha: the extended VP8X form
    image.fromarray(pixels).save(path, **options)
    decoded = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    assert image_size_from_header(path) == (37, 23) == (decoded.shape[1], decoded.shape[0])


def bmp(width: int, height: int, *, core: bool = False) -> bytes:
    if core:  # OS/2 1.x: 16-bit sizes
        return b"BM" + struct.pack("<IHHI", 26, 0, 0, 26) + struct.pack("<IHHHH", 12, width, height, 1, 24)
    return b"BM" + struct.pack("<IHHI", 54, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 2835, 2835, 0, 0)


def tiff(width: int, height: int, *, order: str = "<", kind: int = 4, big: bool = False) -> bytes:
    magic = b"II" if order == "<" else b"MM"
    fmt = {3: "H", 4: "I", 16: "Q"}[kind]
    if big:
        head = magic + struct.pack(order + "HHHQ", 43, 8, 0, 16)
        value = lambda v: struct.pack(order + fmt, v).ljust(8, b"\0")  # noqa: E731  (a one-line local helper reads better as a lambda)
        entries = [struct.pack(order + "HHQ", tag, kind, 1) + value(v) for tag, v in ((256, width), (257, height))]
        return head + struct.pack(order + "Q", len(entries)) + b"".join(entries) + struct.pack(order + "Q", 0)
    head = magic + struct.pack(order + "HI", 42, 8)
    value = lambda v: struct.pack(order + fmt, v).ljust(4, b"\0")  # noqa: E731  (a one-line local helper reads better as a lambda)
    entries = [struct.pack(order + "HHI", tag, kind, 1) + value(v) for tag, v in ((256, width), (257, height))]
    return head + struct.pack(order + "H", len(entries)) + b"".join(entries) + struct.pack(order + "I", 0)


def webp(chunk: str, width: int, height: int) -> bytes:
    if chunk == "VP8 ":
        body = b"\x10\x02\x00" + b"\x9d\x01\x2a" + struct.pack("<HH", width, height) + bytes(8)
    elif chunk == "VP8L":
        body = b"\x2f" + struct.pack("<I", (width - 1) | ((height - 1) << 14)) + bytes(8)
    else:
        body = b"\x10\x00\x00\x00" + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + 8 + len(body)) + b"WEBP" + chunk.encode() + struct.pack("<I", len(body)) + body


def avif(width: int, height: int) -> bytes:
    ispe = struct.pack(">I4sIII", 20, b"ispe", 0, width, height)
    return struct.pack(">I4s4sI4s4s", 24, b"ftyp", b"avif", 0, b"mif1", b"avif") + struct.pack(">I4s", 8 + 4 + len(ispe), b"meta") + bytes(4) + ispe


# Each is a few dozen bytes claiming a picture over 250 megapixels, most under OpenCV's own limit of
# 2^30 pixels, which it would have allocated (at 3 bytes a pixel) before finding no data.
HUGE = {
    "info.bmp": bmp(20000, -15000),
    "core.bmp": bmp(65535, 65535, core=True),
    "little.tif": tiff(20000, 15000),
    "big-endian.tif": tiff(18000, 18000, order=">", kind=3),
    "bigtiff.tif": tiff(30000, 30000, kind=16, big=True),
    "lossy.webp": webp("VP8 ", 16383, 16383),
    "lossless.webp": webp("VP8L", 16384, 16384),
    "extended.webp": webp("VP8X", 20000, 15000),
    "screen.gif": b"GIF89a" + struct.pack("<HH", 20000, 15000) + b"\xf7\x00\x00" + bytes(16),
    "grey.pgm": b"P5\n# scanned\n20000 15000\n255\n" + bytes(16),
    "table.pam": b"P7\nWIDTH 20000\nHEIGHT 15000\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n",
    "float.pfm": b"PF\n20000 15000\n-1.0\n",
    "sun.ras": b"\x59\xa6\x6a\x95" + struct.pack(">IIIIIII", 20000, 15000, 24, 0, 1, 0, 0),
    "light.hdr": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 15000 +X 20000\n" + bytes(16),
    "box.jp2": b"\x00\x00\x00\x0cjP  \r\n\x87\n" + struct.pack(">I4s", 45, b"jp2h") + struct.pack(">I4sIIHBBBB", 22, b"ihdr", 15000, 20000, 3, 7, 7, 0, 0),
    "bare.j2k": b"\xff\x4f\xff\x51" + struct.pack(">HHIIIIIIII", 47, 0, 20000, 15000, 0, 0, 20000, 15000, 0, 0),
    "heif.avif": avif(20000, 15000),
}


@pytest.fixture
def opencv_never_decodes(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"OpenCV was asked to decode {args[0]}")

    monkeypatch.setattr(cv2, "imread", refuse)


@pytest.mark.parametrize("name", sorted(HUGE))
def test_a_tiny_file_claiming_a_huge_picture_is_refused_in_one_line_before_opencv_sees_it(tmp_path: Path, name: str,
                                                                                           opencv_never_decodes) -> None:
    path = tmp_path / name
    path.write_bytes(HUGE[name])
    width, height = image_size_from_header(path)
    assert width * height > MAX_IMAGE_PIXELS
    with pytest.raises(SourceError) as refused:
        read_image(path)
    message = str(refused.value)
    assert "\n" not in message and str(path) in message
    assert f"is {width}x{height} pixels" in message and "megapixels" in message and "scale it down first" in message


@pytest.mark.parametrize("name, data", [("dot.bmp", bmp(1, 1)), ("line.tif", tiff(100_000, 1)), ("dot.webp", webp("VP8L", 1, 1)),
                                        ("thin.gif", b"GIF89a" + struct.pack("<HH", 3000, 2) + bytes(16))])
def test_a_file_claiming_a_picture_too_small_for_a_tag_is_refused_before_opencv_sees_it(tmp_path: Path, name: str, data: bytes,
                                                                                        opencv_never_decodes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SourceError, match="too small to hold a tag"):
        read_image(path)


@pytest.mark.parametrize("name", ["info.bmp", "little.tif", "extended.webp"])
def test_detect_refuses_the_huge_claim_in_one_line_with_exit_2(tmp_path: Path, name: str, opencv_never_decodes) -> None:
    from cli.main import main

    path = tmp_path / name
    path.write_bytes(HUGE[name])
    err = StringIO()
    with redirect_stderr(err):
        code = main(["detect", str(path)])
    lines = [line for line in err.getvalue().splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, err.getvalue()
    assert lines[0].startswith("sandtable detect: error: ") and "megapixels" in lines[0] and name in lines[0]


def test_the_modules_docstring_examples_run() -> None:
    import doctest

    import tracker.image_headers

    result = doctest.testmod(tracker.image_headers)
    assert result.failed == 0 and result.attempted >= 3
