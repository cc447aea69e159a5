"""`sandtable calibrate camera|table|projector|coverage`: the lens, the table, the projector, several cameras' views.

    sandtable calibrate camera photos/*.jpg --out camera.json
    sandtable calibrate table frame.png --camera-model camera.json --out table.json
    sandtable calibrate table --camera 0 --camera-model camera.json --out table.json
    sandtable calibrate projector --write-pattern pattern.png --size 1920x1080
    sandtable calibrate projector --photo seen.png --calibration table.json --size 1920x1080 --out projector.json
    sandtable calibrate projector --camera 0 --calibration table.json --screen 1 --out projector.json
    sandtable calibrate coverage left.json right.json --out views.png     # several cameras: who sees what
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

from cli.commands.board import add_board_arguments, board_from_args
from appmodel.errors import UsageError

NAME = "calibrate"
HELP = "Calibrate the camera lens (board photos), the table (anchors) or the projector (projected pattern)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", metavar="WHAT")
    sub.required = True

    cam = sub.add_parser("camera", help="lens model from photos of the printed board (sandtable board)",
                         description="Fit the camera's lens (intrinsics and distortion) to photos of the printed board.")
    cam.add_argument("photos", nargs="+", metavar="PHOTO", help="10-20 photos of the board from different angles")
    cam.add_argument("--out", required=True, metavar="JSON", help="where to write the camera model")
    add_board_arguments(cam)

    table = sub.add_parser("table", help="register the table from its anchor tags",
                           description="Find the camera's pose over the table from the anchor tags in one frame.")
    table.add_argument("image", nargs="?", metavar="IMAGE", help="a camera frame showing the anchors")
    table.add_argument("--camera", type=int, metavar="INDEX", help="grab the frame from this camera instead")
    table.add_argument("--camera-model", metavar="JSON", help="the lens from `sandtable calibrate camera` (strongly advised)")
    table.add_argument("--layout", metavar="FILE", help="anchor layout file (default: four 2\" anchors in the corners)")
    table.add_argument("--table", metavar="WxD", help="table size in inches for the default layout (default 72x48)")
    table.add_argument("--out", required=True, metavar="JSON", help="where to write the table calibration")

    proj = sub.add_parser("projector", help="map table inches to projector pixels from a projected pattern",
                          description="Calibrate the projector: show the pattern, let the camera see it on the table.")
    proj.add_argument("--size", metavar="WxH", help="projector resolution in pixels, e.g. 1920x1080 (live: the screen's)")
    proj.add_argument("--write-pattern", metavar="PNG", help="write the pattern image to show full-screen, then stop")
    proj.add_argument("--photo", metavar="IMAGE", help="a camera frame of the pattern projected on the table")
    proj.add_argument("--camera", type=int, metavar="INDEX", help="show the pattern and grab the frame live (needs a display)")
    proj.add_argument("--screen", type=int, default=-1, metavar="N", help="with --camera: the projector's screen (default: the last)")
    proj.add_argument("--calibration", metavar="JSON", help="the table calibration of the camera that sees the table")
    proj.add_argument("--scenario", metavar="FILE", help="a scenario whose [terrain] the pattern falls on (default flat)")
    proj.add_argument("--out", metavar="JSON", help="where to write the projector calibration")


    cover = sub.add_parser("coverage", help="several cameras: which part of the table each sees, overlaps and gaps",
                           description="Say (and draw) which part of the table each camera's calibration sees.")
    cover.add_argument("calibrations", nargs="+", metavar="JSON", help="each camera's table calibration")
    cover.add_argument("--out", metavar="PNG", help="also draw the table from above: each view tinted, gaps hatched red")


def run(args: argparse.Namespace) -> int:
    return {"camera": _camera, "table": _table, "projector": _projector, "coverage": _coverage}[args.what](args)


def _coverage(args: argparse.Namespace) -> int:
    import cv2

    from calibration.coverage import coverage_image, coverage_map
    from calibration.files import load_table_calibration

    cals = [load_table_calibration(path) for path in args.calibrations]
    names = [Path(path).stem for path in args.calibrations]
    first = cals[0].layout
    for name, cal in zip(names[1:], cals[1:]):
        if (cal.layout.width_in, cal.layout.depth_in, cal.layout.anchors) != (first.width_in, first.depth_in, first.anchors):
            raise UsageError(f"{name} was calibrated on another table layout than {names[0]}; calibrate every camera with the same layout file")
    cover = coverage_map(cals, names, cell_in=1.0)
    print(cover.summary())
    for name, cal, seen in zip(names, cals, cover.by_camera):
        print(f"  {name}: anchors {', '.join(map(str, cal.anchors_used)) or 'none'} registered it "
              f"(residual {cal.residual_in:.3f} in); it sees {seen.mean():.0%} of the table")
    if args.out:
        if not cv2.imwrite(str(args.out), coverage_image(cover, cals)):
            raise UsageError(f"--out {args.out}: cannot write a PNG there; check the folder and the .png ending")
        print(f"wrote {args.out}")
    return 0


# ---------------------------------------------------------------------------------- helpers
def _read_image(path: str):
    from tracker.image_files import read_image

    return read_image(path)


def _grab(index: int):
    import cv2

    from tracker.sources import quiet_opencv_warnings

    quiet_opencv_warnings()
    capture = cv2.VideoCapture(index)
    try:
        if not capture.isOpened():
            raise UsageError(f"--camera {index}: no camera there; check the index (0 is the first camera)")
        frame = None
        for _ in range(10):  # let exposure settle
            ok, grabbed = capture.read()
            if ok:
                frame = grabbed
        if frame is None:
            raise UsageError(f"--camera {index} gave no picture; is another program using it?")
        return frame
    finally:
        capture.release()


def _detect(image):
    import cv2

    from tracker.detections import detect_tags, detector_for_this_thread

    return detect_tags(detector_for_this_thread(), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def _size(text: str | None, option: str) -> tuple[int, int]:
    if not text:
        raise UsageError(f"give {option} as WIDTHxHEIGHT in pixels, e.g. 1920x1080")
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts) or min(int(p) for p in parts) < 64:
        raise UsageError(f"{option} {text!r}: write WIDTHxHEIGHT in pixels, e.g. 1920x1080")
    return int(parts[0]), int(parts[1])


def _wide_angle_cost(model) -> str:
    """How far this lens bends the picture: what going without its calibration would cost."""
    import numpy as np

    from calibration.projection import _undistort_normalized

    w, h = model.size_px
    corners = np.array([[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1], [w / 2, 0], [0, h / 2]], float).reshape(-1, 1, 2)
    ideal = _undistort_normalized(corners, model) * [model.fx_px, model.fy_px] + [model.cx_px, model.cy_px]
    bend = float(np.max(np.linalg.norm(ideal - corners.reshape(-1, 2), axis=1)))
    return f"this lens bends the picture by up to {bend:.0f} px at its edges"


# ---------------------------------------------------------------------------------- camera
def _camera(args: argparse.Namespace) -> int:
    from calibration.files import save_camera_model
    from calibration.lens_calibration import calibrate_lens

    board = board_from_args(args)
    views, size = [], None
    for k, path in enumerate(args.photos, start=1):
        image = _read_image(path)
        shape = (image.shape[1], image.shape[0])
        if size is None:
            size = shape
        elif shape != size:
            raise UsageError(f"{path!r} is {shape[0]}x{shape[1]} but the first photo is {size[0]}x{size[1]}; use photos from one camera at one resolution")
        found = _detect(image)
        views.append((found.tag_ids, found.corners_px))
        print(f"\rreading photos: {k}/{len(args.photos)}", end="", flush=True)
    print()
    result = calibrate_lens(views, size, board=board)
    names = [args.photos[i] for i in result.photos_used]
    save_camera_model(
        result.model, args.out,
        details={
            "photos_used": names,
            "photos_rejected": [{"photo": args.photos[i], "reason": why} for i, why in result.photos_rejected],
            "per_photo_rms_px": list(result.per_photo_rms_px),
            "coverage": result.coverage,
            "board": board.to_dict(),
        },
    )
    m = result.model
    print(f"{len(result.photos_used)} of {result.photos_total} photos usable; reprojection error {result.rms_px:.3f} px RMS")
    for i, why in result.photos_rejected:
        print(f"  set aside {args.photos[i]}: {why}")
    print(f"lens: fx {m.fx_px:.1f} px, fy {m.fy_px:.1f} px, centre ({m.cx_px:.1f}, {m.cy_px:.1f}), "
          f"distortion {', '.join(f'{c:+.4f}' for c in m.dist_coeffs)}; board covered {result.coverage:.0%} of the picture")
    print(f"{_wide_angle_cost(m)}; without this file expect errors of several tenths of an inch")
    for line in result.advice():
        print(f"advice: {line}")
    print(f"wrote {args.out}")
    return 0


# ---------------------------------------------------------------------------------- table
def layout_from_args(args: argparse.Namespace):
    """The anchor layout from ``--layout FILE`` or ``--table WxD`` (default: 72x48 with corner anchors);
    shared with `sandtable tags --anchors`, which prints the anchors this layout expects."""
    from calibration.layout_file import load_layout, parse_table_size
    from calibration.table_layout import TableLayout

    if args.layout and args.table:
        raise UsageError("give either --layout FILE or --table WxD, not both (the layout file holds the table size)")
    if args.layout:
        return load_layout(args.layout)
    if args.table:
        return TableLayout.default(*parse_table_size(args.table))
    return TableLayout.default()


def _table(args: argparse.Namespace) -> int:
    from calibration.camera_model import CameraModel
    from calibration.files import load_camera_model, save_table_calibration
    from calibration.table_registration import register_table

    if (args.image is None) == (args.camera is None):
        raise UsageError("give the frame as IMAGE or grab it with --camera INDEX (one of the two)")
    layout = layout_from_args(args)
    image = _read_image(args.image) if args.image else _grab(args.camera)
    h, w = image.shape[:2]
    if args.camera_model:
        model = load_camera_model(args.camera_model)
        if model.size_px != (w, h):
            if abs(model.width_px / model.height_px - w / h) > 0.01:
                raise UsageError(
                    f"the frame is {w}x{h} but {args.camera_model} was calibrated at {model.width_px}x{model.height_px}, "
                    "another shape; calibrate the lens at this resolution"
                )
            model = model.scaled_to(w, h)
    else:
        model = CameraModel.default(w, h)
        print("no --camera-model: the lens is assumed and fitted to the anchors; for full accuracy run "
              "`sandtable board` and `sandtable calibrate camera` first")
    found = _detect(image)
    unknown = layout.unknown_anchor_ids(found.tag_ids)
    if unknown:
        # registering from the anchors it knows would put this camera in another table frame, silently
        ids = ", ".join(map(str, unknown))
        raise UsageError(f"the frame shows anchor{'s' if len(unknown) > 1 else ''} {ids}, which "
                         + (f"{args.layout}" if args.layout else "the default layout (four corner anchors 0-3)")
                         + " does not place: give the layout file the anchors were printed from with --layout FILE "
                           "(every camera of the table the same one)")
    cal = register_table(found.tag_ids, found.corners_px, model, layout)
    save_table_calibration(cal, args.out)
    cam = cal.pose.camera_position_in
    axis = cal.pose.rotation[2]
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, -axis[2]))))
    print(cal.summary())
    print(f"camera {cam[2]:.1f} in above the table at ({cam[0]:.1f}, {cam[1]:.1f}) in, tilted {tilt:.0f} degrees from straight down")
    for note in cal.notes:
        print(f"note: {note}")
    print(f"wrote {args.out}")
    return 0


# ---------------------------------------------------------------------------------- projector
def _projector(args: argparse.Namespace) -> int:
    import cv2

    from calibration.projector import ProjectorPattern, calibrate_projector, save_projector_calibration

    if args.camera is not None and not args.write_pattern:
        # live: the pattern must fill the projector's screen pixel for pixel
        width, height = _screen_size(args.screen)
        if args.size and _size(args.size, "--size") != (width, height):
            raise UsageError(f"--size {args.size} but the projector screen (--screen {args.screen}) is {width}x{height}; "
                             "leave out --size or set the projector to that resolution")
    else:
        width, height = _size(args.size, "--size")
    pattern = ProjectorPattern(width, height)
    if args.write_pattern:
        if not cv2.imwrite(args.write_pattern, pattern.image()):
            raise UsageError(f"cannot write {args.write_pattern!r}; give a .png path in a folder that exists")
        print(f"wrote {args.write_pattern}: {len(pattern.tag_ids)} tags (ids {pattern.tag_ids[0]}-{pattern.tag_ids[-1]}) "
              f"on {width}x{height}; show it full-screen on the projector, dim the room, photograph the table with the "
              "tracking camera and run `sandtable calibrate projector --photo ...`")
        return 0
    if not args.calibration or not args.out:
        raise UsageError("give --calibration table.json (the camera's) and --out projector.json")
    if (args.photo is None) == (args.camera is None):
        raise UsageError("give the camera's view of the pattern as --photo IMAGE or grab it live with --camera INDEX")
    from calibration.files import load_table_calibration

    table = load_table_calibration(args.calibration)
    image = _read_image(args.photo) if args.photo else _show_and_grab(pattern, args.camera, args.screen)
    table = table.for_frame_size(image.shape[1], image.shape[0])
    terrain = None
    if args.scenario:
        from calibration.table_setup import load_table_setup
        from appmodel.scenarios.check import check_scenario

        check_scenario(args.scenario)
        terrain = load_table_setup(args.scenario).terrain
    found = _detect(image)
    cal = calibrate_projector(pattern, found.tag_ids, found.corners_px, table, terrain=terrain)
    save_projector_calibration(cal, args.out)
    print(cal.summary())
    print(f"one table inch is about {cal.px_per_in_at(table.layout.width_in / 2, table.layout.depth_in / 2):.1f} projector pixels "
          "at the table centre")
    print(f"wrote {args.out}")
    return 0


def _screen(screen_index: int):
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        from cli.display_check import require_window

        require_window(instead="write the pattern with --write-pattern and use --photo")
        app = QApplication(["sandtable"])
    if not isinstance(app, QApplication):
        raise UsageError("this process has no window support; run `sandtable calibrate projector --camera ...` on its own")
    screens = QGuiApplication.screens()
    if not screens:
        raise UsageError("no display: write the pattern with --write-pattern and use --photo instead")
    if not -len(screens) <= screen_index < len(screens):
        raise UsageError(f"--screen {screen_index}: there are {len(screens)} screens (0-{len(screens) - 1})")
    return screens[screen_index]


def _screen_size(screen_index: int) -> tuple[int, int]:
    """The projector screen's size in device pixels."""
    screen = _screen(screen_index)
    ratio = screen.devicePixelRatio()
    size = screen.geometry().size()
    return int(round(size.width() * ratio)), int(round(size.height() * ratio))


def _show_and_grab(pattern, camera_index: int, screen_index: int):
    """Show the pattern full-screen on the projector's screen, let the camera adjust, grab a frame."""
    from PySide6.QtCore import QEventLoop, QTimer, Qt
    from PySide6.QtGui import QImage, QPixmap
    from PySide6.QtWidgets import QApplication, QLabel

    screen = _screen(screen_index)
    app = QApplication.instance()
    img = pattern.image()
    label = QLabel()
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setStyleSheet("background: white")
    qimage = QImage(img.data, img.shape[1], img.shape[0], img.strides[0], QImage.Format.Format_Grayscale8)
    pixmap = QPixmap.fromImage(qimage)
    pixmap.setDevicePixelRatio(screen.devicePixelRatio())  # one pattern pixel per projector pixel
    label.setPixmap(pixmap)
    label.setGeometry(screen.geometry())
    label.showFullScreen()
    loop = QEventLoop()
    QTimer.singleShot(1500, loop.quit)  # the projector and the camera's exposure need a moment
    loop.exec()
    try:
        return _grab(camera_index)
    finally:
        label.close()
        app.processEvents()
