"""One call into the AprilTag C library behind pupil-apriltags, for the tracker's windows and sweep.

pupil-apriltags' ``Detector.detect`` copies the picture into a C image, then builds a Python object per
detection, and calls into C five times on the way; each call lets go of Python's global lock and takes
it back. The tracker detects on two threads while one of them also runs the frame's bookkeeping in
Python, so every one of those hand-overs could wait for the other thread: in one 4K run two threads were
no faster than one. Here the picture is handed to C where it lies (a crop of the frame with the
frame's own row stride, no copy), the lock is let go once, around the detection itself, and the
results are read in one copy.

The results are the detector's own: the same C function with the same detector, tested against
pupil-apriltags' ``detect`` on the same pictures.
"""
from __future__ import annotations

import ctypes
import functools
from typing import Any

import numpy as np

#: ``apriltag_detection_t`` as laid out by the C library (64-bit): the fields read here.
DETECTION = np.dtype({
    "names": ["id", "hamming", "decision_margin", "c", "p"],
    "formats": [np.int32, np.int32, np.float32, (np.float64, (2,)), (np.float64, (4, 2))],
    "offsets": [8, 12, 16, 32, 48],
    "itemsize": 112,
})


class _Image(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("stride", ctypes.c_int), ("buf", ctypes.c_void_p)]


class _ZArray(ctypes.Structure):
    _fields_ = [("el_sz", ctypes.c_size_t), ("size", ctypes.c_int), ("alloc", ctypes.c_int), ("data", ctypes.c_void_p)]


@functools.cache
def _calls(library_path: str) -> tuple[Any, Any]:
    # The detection runs without the lock (CDLL); freeing its results is quick and keeps it (PyDLL),
    # so a thread gives the lock up once per picture.
    detect = ctypes.CDLL(library_path).apriltag_detector_detect
    detect.restype = ctypes.POINTER(_ZArray)
    detect.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Image)]
    destroy = ctypes.PyDLL(library_path).apriltag_detections_destroy
    destroy.restype = None
    destroy.argtypes = [ctypes.POINTER(_ZArray)]
    return detect, destroy


def detect_in_place(detector: Any, gray: np.ndarray) -> np.ndarray:
    """The tags a pupil-apriltags ``detector`` finds in ``gray`` (2-D uint8; rows may be a crop of a
    larger picture), as a structured array of :data:`DETECTION` (pupil-apriltags' pixel convention)."""
    if gray.dtype != np.uint8 or gray.ndim != 2 or gray.strides[1] != 1:
        gray = np.ascontiguousarray(gray, dtype=np.uint8)
    detect, destroy = _calls(detector.libc._name)
    image = _Image(gray.shape[1], gray.shape[0], gray.strides[0], gray.ctypes.data)
    found = detect(ctypes.cast(detector.tag_detector_ptr, ctypes.c_void_p), ctypes.byref(image))
    try:
        n = found.contents.size
        if n == 0:
            return np.zeros(0, DETECTION)
        pointers = (ctypes.c_void_p * n).from_address(found.contents.data)
        return np.frombuffer(b"".join(ctypes.string_at(p, DETECTION.itemsize) for p in pointers), DETECTION)
    finally:
        destroy(found)
