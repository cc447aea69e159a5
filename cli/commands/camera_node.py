"""`sandtable camera-node SOURCE`: this computer runs one camera and sends its detections to the table's.

    sandtable camera-node 0 --name left                          # on the Raspberry Pi beside the left camera
    sandtable camera-node 0 --name left --publish tcp://0.0.0.0:5557
    sandtable track --node left=tcp://pi-left.local:5556 --node right=tcp://pi-right.local:5556 \\
        --calibration left.json --calibration right.json --scenario game.toml      # on the table's computer

Only the tags found (ids and corners in pixels, a few hundred bytes a frame) travel, over ZeroMQ; the
table's computer holds each camera's calibration and fuses them (docs/tracker.md, "Camera nodes").
A camera runs until Ctrl+C; a video, folder or scenario is sent frame by frame, waiting for the table.
"""
from __future__ import annotations

import argparse

NAME = "camera-node"
HELP = "Run one camera here and send its tag detections (not its video) to the table's computer over the network."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="SOURCE", help="camera index (0), stream URL, video file, image folder or scenario .toml")
    parser.add_argument("--name", default=None, help="the camera's name, as the table's --node NAME=... gives it (default: this computer's name)")
    parser.add_argument("--publish", default="tcp://0.0.0.0:5556", metavar="ADDRESS",
                        help="where the table's computer connects (default tcp://0.0.0.0:5556: every network interface, port 5556)")
    parser.add_argument("--max-frames", type=int, default=None, metavar="N", help="stop after N frames")
    parser.add_argument("--fps", type=float, default=None, help="frame rate of an image folder or a video without one")


def run(args: argparse.Namespace) -> int:
    import socket
    import sys
    import threading

    from appmodel.errors import UsageError
    from tracker.camera_node import DetectionSender, run_camera_node
    from tracker.sources import open_source

    if args.max_frames is not None and args.max_frames < 1:
        raise UsageError(f"--max-frames {args.max_frames}: give a positive number of frames")
    if "://" not in args.publish:
        raise UsageError(f"--publish {args.publish}: write it as tcp://HOST:PORT, e.g. tcp://0.0.0.0:5556")
    name = args.name or socket.gethostname()
    source = open_source(args.source, fps=args.fps)
    sender = None
    stop = threading.Event()
    try:
        sender = DetectionSender(args.publish)
        port = args.publish.rsplit(":", 1)[-1]
        print(f"camera node {name!r}: sending the detections of {args.source} on {args.publish}; on the table's computer: "
              f"sandtable track --node {name}=tcp://{socket.gethostname()}:{port} --calibration {name}.json ...", file=sys.stderr)
        try:
            sent = run_camera_node(source, sender, camera=name, stop=stop, max_frames=args.max_frames)
        except KeyboardInterrupt:
            stop.set()
            sent = None
            print("sandtable camera-node: stopped (Ctrl+C)", file=sys.stderr)
        if sent is not None:
            dropped = f" ({sender.dropped} dropped while the table was busy)" if sender.dropped else ""
            print(f"camera node {name!r}: {sent} frames sent{dropped}", file=sys.stderr)
    finally:
        if sender is not None:
            sender.close()
        source.close()
    return 0
