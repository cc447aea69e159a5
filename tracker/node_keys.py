"""The keys that pair camera nodes with the table's computer (ZeroMQ's CURVE security).

Each computer makes its own key pair the first time it needs one (``zmq.auth.create_certificates``),
in its keys folder (``$SANDTABLE_KEYS_DIR``, else ``~/.config/sandtable/keys``):

* a camera node: ``node.key`` (public) and ``node.key_secret`` (never leaves it);
* the table's computer: ``table.key`` and ``table.key_secret``.

Pairing is copying the two public files, as ZeroMQ's "Ironhouse" pattern has it: the node's
``node.key`` goes to the table's ``nodes/NAME.key`` (NAME as in ``--node NAME=...``), the table's
``table.key`` to the node's ``tables/`` folder. The node then talks to no one but a paired table
(every other connection is refused during the handshake, and counted), the table to no one but
the node whose key it holds, and what travels between them is encrypted.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tracker.errors import TrackerError

#: A camera's name is also a file's name in ``nodes/``: letters, digits and - _ . only.
NODE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class KeyPair:
    """One computer's CURVE keys, Z85 text (40 characters each)."""

    public_z85: bytes
    secret_z85: bytes


def keys_folder(folder: str | os.PathLike[str] | None = None) -> Path:
    """The keys folder: ``folder`` if given, else ``$SANDTABLE_KEYS_DIR``, else ``~/.config/sandtable/keys``."""
    if folder is not None:
        return Path(folder)
    if os.environ.get("SANDTABLE_KEYS_DIR"):
        return Path(os.environ["SANDTABLE_KEYS_DIR"])
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "sandtable" / "keys"


def own_key_pair(folder: Path, role: str) -> tuple[KeyPair, bool]:
    """This computer's key pair for ``role`` ("node" or "table"), made on first use; (keys, made now)."""
    import zmq.auth

    secret_file = folder / f"{role}.key_secret"
    made = False
    if not secret_file.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.chmod(folder, 0o700)
            zmq.auth.create_certificates(str(folder), role)
            os.chmod(secret_file, 0o600)  # the secret key is this computer's alone
        except OSError as exc:
            raise TrackerError(f"cannot make this computer's {role} key in {folder} ({exc.strerror}); "
                               "give a folder it can write with SANDTABLE_KEYS_DIR") from None
        made = True
    try:
        public, secret = zmq.auth.load_certificate(str(secret_file))
    except (OSError, ValueError) as exc:
        raise TrackerError(f"{secret_file}: not a ZeroMQ key file ({exc}); delete it to make a new pair "
                           "(and pair again)") from None
    if secret is None:
        raise TrackerError(f"{secret_file}: holds no secret key; delete it to make a new pair (and pair again)")
    return KeyPair(public, secret), made


def public_key_file(path: Path) -> bytes:
    """The public key of a ``.key`` file (one line naming the file and what to do when it is not one)."""
    import zmq.auth

    try:
        public, _ = zmq.auth.load_certificate(str(path))
    except (OSError, ValueError):
        raise TrackerError(f"{path}: not a ZeroMQ public key file; copy the other computer's .key file here "
                           "(docs/tracker.md, 'Pairing a camera node')") from None
    if not public or len(public) != 40:
        raise TrackerError(f"{path}: not a ZeroMQ public key file (its key must be 40 characters)")
    return bytes(public)


def paired_tables(folder: Path) -> list[bytes]:
    """The public keys of the tables this node sends to (``tables/*.key``)."""
    tables = folder / "tables"
    return [public_key_file(p) for p in sorted(tables.glob("*.key"))] if tables.is_dir() else []


def paired_node(folder: Path, name: str) -> bytes:
    """The public key of node ``name`` (``nodes/NAME.key``), or one line saying how to pair it."""
    if not NODE_NAME.match(name):
        raise TrackerError(f"camera node name {name!r}: use letters, digits, '-', '_' or '.' (at most 64)")
    path = folder / "nodes" / f"{name}.key"
    if not path.exists():
        raise TrackerError(f"camera node {name!r} is not paired with this computer: copy node.key from the node's "
                           f"keys folder to {path} (the node prints where it is; docs/tracker.md, 'Pairing a camera node')")
    return public_key_file(path)


class Gatekeeper:
    """The node's side of the handshake (a ZAP credentials provider): admits paired tables only and
    counts the rest."""

    def __init__(self, allowed_z85: list[bytes]) -> None:
        self.allowed = {bytes(k) for k in allowed_z85}
        self.refused = 0

    def callback(self, domain: str, key: Any) -> bool:
        if bytes(key) in self.allowed:
            return True
        self.refused += 1
        return False
