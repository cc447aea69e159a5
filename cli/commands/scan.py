"""`sandtable scan`: measure the sand's relief with the projector and the camera (structured light).

    sandtable scan --write-patterns patterns/ --size 1280x800             # the images to project, in order
    sandtable scan --frames shots/ --calibration table.json --projector projector3d.json --out relief.json
    sandtable scan --camera 0 --screen 1 --calibration table.json --projector projector3d.json --out relief.json
    sandtable scan --write-patterns quick/ --quick --calibration table.json --projector projector3d.json
    sandtable scan --quick --frames quick-shots/ --calibration table.json --projector projector3d.json --out relief.json
    sandtable scan --calibrate-projector --frames flat/ --board-frames board/ --board-height-in 4 \\
                   --calibration table.json --size 1280x800 --out projector3d.json

The relief is written as ``relief.json`` (its figures and the unseen area), ``relief.heights.csv`` (the
height grid a scenario's ``[terrain] height_map`` reads, with ``cell_in``) and ``relief.reference.png``
(the sand as the camera saw it, to notice later that it was reshaped).

Before filming the patterns, lock the camera's exposure, gain and white balance (automatic exposure
brightens the darker patterns and spoils the scan; the scan says so when it sees it). Frames are taken
in natural name order (img_2 before img_10). A quick rescan shows white, black and one projector axis
only (which one depends on where the camera and projector stand, so ``--write-patterns --quick`` needs
the two calibrations); its pattern files are named after what they show.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from appmodel.errors import UsageError

NAME = "scan"
HELP = "Scan the sand's relief with the projector and camera (Gray code + phase shift), or calibrate the projector in 3-D."

_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--write-patterns", metavar="DIR", help="write the scan's pattern images (numbered, in order) and stop")
    parser.add_argument("--size", metavar="WxH", help="projector resolution, e.g. 1280x800 (default: the projector calibration's)")
    parser.add_argument("--quick", action="store_true",
                        help="a quick rescan: white, black and one projector axis only (about half the patterns; the axis "
                             "depends on the camera and projector, so --write-patterns --quick needs --calibration and "
                             "--projector and writes exactly the patterns --quick then expects)")
    parser.add_argument("--frames", metavar="DIR",
                        help="camera frames of the patterns, one per pattern, in natural name order (img_2 before img_10); "
                             "lock the camera's exposure before filming them")
    parser.add_argument("--camera", type=int, metavar="INDEX", help="show the patterns and film them live (needs a display)")
    parser.add_argument("--screen", type=int, default=-1, metavar="N", help="with --camera: the projector's screen (default: the last)")
    parser.add_argument("--calibration", metavar="JSON", help="the table calibration of the camera")
    parser.add_argument("--projector", metavar="JSON", help="the projector's 3-D calibration (from --calibrate-projector)")
    parser.add_argument("--cell-in", type=float, default=0.25, metavar="IN", help="height grid cell, inches (default 0.25)")
    parser.add_argument("--out", metavar="JSON", help="where to write the relief (or, with --calibrate-projector, the projector)")
    parser.add_argument("--calibrate-projector", action="store_true",
                        help="calibrate the projector as an inverse camera from a scan of the flat table (--frames) and "
                             "of a flat board on blocks (--board-frames, --board-height-in)")
    parser.add_argument("--board-frames", metavar="DIR", action="append", default=[], help="frames with the board laid down (repeatable)")
    parser.add_argument("--board-height-in", type=float, action="append", default=[], metavar="IN",
                        help="the board's height over the table, inches (one per --board-frames)")


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts) or min(int(p) for p in parts) < 64:
        raise UsageError(f"--size {text!r}: write WIDTHxHEIGHT in pixels, e.g. 1280x800")
    return int(parts[0]), int(parts[1])


def natural_key(name: str) -> tuple:
    """Sort key reading runs of digits as numbers, so img_2 comes before img_10 (as a person numbers shots).

    >>> sorted(["img_10.png", "img_2.png", "img_1.png"], key=natural_key)
    ['img_1.png', 'img_2.png', 'img_10.png']
    """
    return tuple((0, int(part), part) if part.isdigit() else (1, 0, part.lower()) for part in re.split(r"(\d+)", name) if part)


def _read_frames(folder: str, count: int, *, quick_hint: str = "") -> list:
    import cv2

    d = Path(folder)
    if not d.is_dir():
        raise UsageError(f"{folder!r}: no such folder of camera frames")
    files = sorted((p for p in d.iterdir() if p.suffix.lower() in _IMAGE_SUFFIXES), key=lambda p: natural_key(p.name))
    if len(files) != count:
        raise UsageError(f"{folder!r} holds {len(files)} images; the scan has {count} patterns (one frame per pattern, "
                         f"in the order `--write-patterns` numbers them){quick_hint}")
    frames = []
    for p in files:
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            raise UsageError(f"{str(p)!r} is not an image OpenCV can read")
        frames.append(img)
    return frames


def _out_folder_ready(out: str) -> None:
    """Make --out's folder now: finding it missing after the whole scan would lose the scan."""
    folder = Path(out).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot make its folder {str(folder)!r} ({exc.strerror or exc}); choose another place") from None
    if not folder.is_dir():
        raise UsageError(f"--out {out}: {str(folder)!r} is not a folder; choose another place")


def _write_patterns(pattern, out: Path, *, what: str = "") -> None:
    import cv2

    out.mkdir(parents=True, exist_ok=True)
    names = pattern.pattern_names()
    for k, (img, name) in enumerate(zip(pattern.images(), names)):
        # numbered for the order, named for what the projector shows (the camera's frames keep their own names)
        cv2.imwrite(str(out / f"pattern-{k:03d}-{name}.png"), img)
    print(f"wrote {pattern.frame_count} patterns{what} to {out}/ (pattern-000-white.png ...). Lock the camera's exposure, "
          "gain and white balance first; then show each full-screen on the projector in a dim room, in order, take one "
          "camera frame of each, and give the frames with --frames")


def _write_quick_patterns(args: argparse.Namespace) -> int:
    from calibration.files import load_table_calibration
    from calibration.projector_model import load_projector_model
    from calibration.relief_scan import quick_scan_axis

    if not args.calibration or not args.projector:
        raise UsageError("--write-patterns --quick: which projector axis a quick rescan shows depends on where the camera and "
                         "projector stand; give --calibration table.json and --projector projector3d.json too")
    table = load_table_calibration(args.calibration)
    projector = load_projector_model(args.projector)
    size = (projector.width_px, projector.height_px)
    if args.size and _size(args.size) != size:
        raise UsageError(f"--size {args.size} but {args.projector} was calibrated at {size[0]}x{size[1]}")
    axis = quick_scan_axis(table, projector)
    _write_patterns(_patterns(size, (axis,)), Path(args.write_patterns),
                    what=f" for a quick rescan (white, black and the projector's {axis})")
    return 0


def _patterns(size: tuple[int, int], axes: tuple[str, ...] = ("columns", "rows")):
    from calibration.structured_light import ScanPatterns

    return ScanPatterns(size[0], size[1], axes=axes)


def run(args: argparse.Namespace) -> int:

    from calibration.files import load_table_calibration

    if args.write_patterns:
        if args.quick:
            return _write_quick_patterns(args)
        if not args.size:
            raise UsageError("give the projector's --size WxH with --write-patterns")
        _write_patterns(_patterns(_size(args.size)), Path(args.write_patterns))
        return 0
    if not args.calibration or not args.out:
        raise UsageError("give --calibration table.json (the camera's) and --out FILE")
    _out_folder_ready(args.out)
    if not 0 < args.cell_in <= 1.0:
        raise UsageError(f"--cell-in {args.cell_in}: give a cell of at most 1 inch (0.25 is the default)")
    table = load_table_calibration(args.calibration)
    if not table.height_aware:
        raise UsageError(f"{args.calibration} is a flat homography calibration; calibrate the table with a camera model "
                         "(`sandtable calibrate table ... --camera-model camera.json`) to measure heights")
    if args.calibrate_projector:
        return _calibrate_projector(args, table)
    return _scan(args, table)


def _calibrate_projector(args: argparse.Namespace, table) -> int:
    from calibration.projector_model import calibrate_projector_3d, save_projector_model

    if not args.size:
        raise UsageError("give the projector's --size WxH")
    if not args.frames or not args.board_frames:
        raise UsageError("give --frames (the flat table) and --board-frames with --board-height-in (the board on blocks)")
    if len(args.board_frames) != len(args.board_height_in):
        raise UsageError("give one --board-height-in per --board-frames")
    if any(not h > 0 for h in args.board_height_in):
        raise UsageError("--board-height-in: the board's height over the table, in inches (> 0)")
    size = _size(args.size)
    pattern = _patterns(size)
    flat = pattern.decode(_read_frames(args.frames, pattern.frame_count))
    raised = [(pattern.decode(_read_frames(d, pattern.frame_count)), h) for d, h in zip(args.board_frames, args.board_height_in)]
    cal = calibrate_projector_3d(flat, raised, table, size[0], size[1])
    save_projector_model(cal, args.out)
    print(cal.summary())
    print(f"wrote {args.out}")
    return 0


def _scan(args: argparse.Namespace, table) -> int:
    from calibration.projector_model import load_projector_model
    from calibration.relief_scan import quick_scan_axis, save_relief, scan_relief

    if not args.projector:
        raise UsageError("give --projector projector3d.json (from `sandtable scan --calibrate-projector`)")
    projector = load_projector_model(args.projector)
    size = (projector.width_px, projector.height_px)
    if args.size and _size(args.size) != size:
        raise UsageError(f"--size {args.size} but {args.projector} was calibrated at {size[0]}x{size[1]}")
    axes = (quick_scan_axis(table, projector),) if args.quick else ("columns", "rows")
    pattern = _patterns(size, axes)
    if (args.frames is None) == (args.camera is None):
        raise UsageError("give the camera frames of the patterns as --frames DIR, or film them live with --camera INDEX")
    hint = ""
    if args.quick:
        hint = (f"; a quick rescan shows white, black and the projector's {axes[0]}: write exactly those with "
                "`sandtable scan --write-patterns DIR --quick --calibration ... --projector ...`")
    frames = (_read_frames(args.frames, pattern.frame_count, quick_hint=hint) if args.frames
              else _show_and_film(pattern, args.camera, args.screen))
    w, h = table.model.width_px, table.model.height_px
    if frames[0].shape[:2] != (h, w):
        raise UsageError(f"the frames are {frames[0].shape[1]}x{frames[0].shape[0]}, the camera was calibrated at {w}x{h}")
    problems = pattern.sequence_problems(frames)
    if problems:
        raise UsageError(problems[0])
    decoded = pattern.decode(frames)
    relief = scan_relief(decoded, table, projector, cell_in=args.cell_in)
    problem = relief.problem()
    if problem is not None:
        raise UsageError(f"{problem}; nothing was written")
    csv = save_relief(relief, args.out, reference_bgr=frames[1])
    print(relief.summary())
    print(f"wrote {args.out} and {csv.name} (a scenario's [terrain]: height_map = \"{csv.name}\", cell_in = {relief.cell_in:g})")
    return 0


def _show_and_film(pattern, camera_index: int, screen_index: int) -> list:
    """Show each pattern full-screen on the projector's screen and grab one camera frame of it."""
    import cv2
    from PySide6.QtCore import QEventLoop, QTimer, Qt
    from PySide6.QtGui import QImage, QPixmap
    from PySide6.QtWidgets import QLabel

    from cli.commands.calibrate import _screen, _screen_size
    from tracker.sources import quiet_opencv_warnings

    quiet_opencv_warnings()
    screen = _screen(screen_index)
    geometry = screen.geometry()
    width, height = _screen_size(screen_index)
    if (width, height) != (pattern.width_px, pattern.height_px):
        raise UsageError(f"the projector screen is {width}x{height}, the projector calibration {pattern.width_px}x{pattern.height_px}")
    capture = cv2.VideoCapture(camera_index)
    if not capture.isOpened():
        raise UsageError(f"--camera {camera_index}: no camera there; check the index (0 is the first camera)")
    label = QLabel()
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setStyleSheet("background: black")
    label.setGeometry(geometry)
    label.showFullScreen()
    frames = []
    try:
        images = pattern.images()
        for k, img in enumerate(images):
            qimage = QImage(img.data, img.shape[1], img.shape[0], img.strides[0], QImage.Format.Format_Grayscale8)
            pixmap = QPixmap.fromImage(qimage)
            pixmap.setDevicePixelRatio(screen.devicePixelRatio())
            label.setPixmap(pixmap)
            loop = QEventLoop()
            QTimer.singleShot(250, loop.quit)  # the projector's frame and the camera's exposure catch up
            loop.exec()
            frame = None
            for _ in range(3):  # drop frames the camera buffered before the pattern changed
                ok, grabbed = capture.read()
                if ok:
                    frame = grabbed
            if frame is None:
                raise UsageError(f"--camera {camera_index} gave no picture; is another program using it?")
            frames.append(frame)
            print(f"\rscanning: pattern {k + 1}/{len(images)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    finally:
        capture.release()
        label.close()
    return frames
