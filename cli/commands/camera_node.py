"""`sandtable camera-node SOURCE`: this computer runs one camera and sends its detections to the table's.

    sandtable camera-node 0 --name left                          # on the Raspberry Pi beside the left camera
    sandtable camera-node 0 --name left --publish tcp://0.0.0.0:5557
    sandtable track --node left=tcp://pi-left.local:5556 --node right=tcp://pi-right.local:5556 \\
        --calibration left.json --calibration right.json --scenario game.toml      # on the table's computer

Only the tags found (ids and corners in pixels, a few hundred bytes a frame) travel, over ZeroMQ; the
table's computer holds each camera's calibration and fuses them (docs/tracker.md, "Camera nodes").
The node sends to paired tables only, encrypted (ZeroMQ CURVE): its first run makes its key pair, and
pairing is copying public key files both ways (docs/tracker.md, "Pairing a camera node").
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
    parser.add_argument("--keys", default=None, metavar="DIR",
                        help="this node's keys folder: its key pair and, under tables/, the tables it sends to "
                             "(default $SANDTABLE_KEYS_DIR or ~/.config/sandtable/keys)")
    parser.add_argument("--max-frames", type=int, default=None, metavar="N", help="stop after N frames")
    parser.add_argument("--fps", type=float, default=None, help="frame rate of an image folder or a video without one")


def run(args: argparse.Namespace) -> int:
    import socket
    import sys
    import threading

    from appmodel.errors import UsageError
    from tracker.camera_node import DetectionSender, run_camera_node
    from tracker.node_keys import NODE_NAME, keys_folder, own_key_pair, paired_tables
    from tracker.sources import open_source

    if args.max_frames is not None and args.max_frames < 1:
        raise UsageError(f"--max-frames {args.max_frames}: give a positive number of frames")
    if "://" not in args.publish:
        raise UsageError(f"--publish {args.publish}: write it as tcp://HOST:PORT, e.g. tcp://0.0.0.0:5556")
    name = args.name or socket.gethostname()
    if not NODE_NAME.match(name):
        raise UsageError(f"--name {name!r}: use letters, digits, '-', '_' or '.' (at most 64)")
    folder = keys_folder(args.keys)
    keys, made = own_key_pair(folder, "node")
    public = folder / "node.key"
    if made:
        print(f"camera node {name!r}: made this node's key pair in {folder}", file=sys.stderr)
    tables = paired_tables(folder)
    if not tables:
        raise UsageError(f"camera node {name!r} is paired with no table: copy {public} to the table's computer as "
                         f"nodes/{name}.key in its keys folder, and the table's table.key here into {folder / 'tables'}/ "
                         "(docs/tracker.md, 'Pairing a camera node')")
    source = open_source(args.source, fps=args.fps)
    sender = None
    stop = threading.Event()
    try:
        sender = DetectionSender(args.publish, keys=keys, tables=tables)
        port = args.publish.rsplit(":", 1)[-1]
        print(f"camera node {name!r}: sending the detections of {args.source} on {args.publish}; on the table's computer: "
              f"sandtable track --node {name}=tcp://{socket.gethostname()}:{port} --calibration {name}.json ... "
              f"(sending only to the {len(tables)} paired table(s); this node's public key: {public})", file=sys.stderr)
        try:
            told = [0]

            def on_batch(_dets: object) -> None:
                if sender.refused > told[0]:  # said as it happens: someone is trying this node
                    told[0] = sender.refused
                    print(f"camera node {name!r}: refused a connection from a computer that is not a paired table "
                          f"({sender.refused} so far)", file=sys.stderr)

            sent = run_camera_node(source, sender, camera=name, stop=stop, max_frames=args.max_frames, on_batch=on_batch)
        except KeyboardInterrupt:
            stop.set()
            sent = None
            print("sandtable camera-node: stopped (Ctrl+C)", file=sys.stderr)
        if sent is not None:
            dropped = f" ({sender.dropped} dropped while the table was busy)" if sender.dropped else ""
            print(f"camera node {name!r}: {sent} frames sent{dropped}", file=sys.stderr)
        if sender.refused:
            print(f"camera node {name!r}: refused {sender.refused} connection(s) from computers that are not a paired "
                  "table", file=sys.stderr)
    finally:
        if sender is not None:
            sender.close()
        source.close()
    return 0
