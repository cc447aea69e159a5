"""Rescuing what can be read from a recording whose file was cut short (a copy interrupted, a truncated
download, a disk that failed): SQLite refuses such a file outright, though most of its pages are intact.

``salvage_recording(src, dst)`` copies the file, tells SQLite the pages that are really there (the
header's page count), and copies every table row by row into a fresh recording at ``dst`` until a
missing page stops it. The result says how many rows of each table were rescued and which tables
could not be read. The damaged file itself is never changed.
"""
from __future__ import annotations

import shutil
import sqlite3
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tracker.errors import RecordingError
from tracker.recording.schema import SCHEMA, TABLES




@dataclass(frozen=True)
class SalvageResult:
    rows: dict[str, int]  # rows rescued per table
    damaged: tuple[str, ...]  # tables read only in part (or not at all): what was lost

    def notes(self) -> tuple[str, ...]:
        return tuple(f"{table}: {self.rows.get(table, 0)} rows rescued, the rest is damaged" for table in self.damaged)


def salvage_recording(src: str | Path, dst: str | Path) -> SalvageResult:
    """Copy what is readable of recording ``src`` into a new recording ``dst`` (which must not exist)."""
    src, dst = Path(src), Path(dst)
    if dst.exists():
        raise RecordingError(f"cannot salvage into '{dst}': it exists; choose another file name")
    data = bytearray(src.read_bytes())
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        raise RecordingError(f"'{src}' holds no SQLite database to rescue anything from")
    page_size = struct.unpack(">H", data[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    pages = len(data) // page_size
    if pages < 1:
        raise RecordingError(f"'{src}' is cut off before its first page; nothing can be rescued")
    data = data[: pages * page_size]
    data[28:32] = struct.pack(">I", pages)  # the page count SQLite trusts; the real file is shorter
    data[18:20] = b"\x01\x01"  # rollback journal: a WAL file of the original is not part of the copy
    with tempfile.TemporaryDirectory(prefix="sandtable-salvage-") as tmp:
        patched = Path(tmp) / "patched.sqlite"
        patched.write_bytes(bytes(data))
        source = sqlite3.connect(f"file:{patched}?mode=ro", uri=True)
        target = sqlite3.connect(str(dst))
        rows: dict[str, int] = {}
        damaged: list[str] = []
        try:
            target.executescript(SCHEMA)
            for table in TABLES:
                count, complete = _copy_table(source, target, table)
                rows[table] = count
                if not complete:
                    damaged.append(table)
            target.commit()
        finally:
            source.close()
            target.close()
    if rows.get("meta", 0) == 0:
        for p in (dst, Path(f"{dst}-journal")):
            p.unlink(missing_ok=True)
        raise RecordingError(f"'{src}' is damaged where it says what it is (its meta table); nothing can be rescued")
    return SalvageResult(rows, tuple(damaged))


def _copy_table(source: sqlite3.Connection, target: sqlite3.Connection, table: str) -> tuple[int, bool]:
    """Copy every row whose pages survive (a row whose long text sits on a lost page is skipped)."""
    try:
        width = len(source.execute(f"SELECT * FROM {table} LIMIT 0").description)  # SQL built from fixed table and column names only
        cursor = source.execute(f"SELECT rowid FROM {table}")  # SQL built from fixed table and column names only
    except sqlite3.DatabaseError:
        return 0, False
    rowids: list[int] = []
    complete = True
    try:
        for (rowid,) in cursor:
            rowids.append(rowid)
    except sqlite3.DatabaseError:
        complete = False
    insert = f"INSERT OR REPLACE INTO {table} VALUES ({', '.join('?' * width)})"  # SQL built from fixed table and column names only
    count = 0
    for rowid in rowids:
        try:
            row = source.execute(f"SELECT * FROM {table} WHERE rowid = ?", (rowid,)).fetchone()  # SQL built from fixed table and column names only
        except sqlite3.DatabaseError:
            complete = False
            continue
        target.execute(insert, row)
        count += 1
    return count, complete


def copy_of(src: str | Path) -> Path:
    """A temporary path next to nothing the user owns, for a salvaged copy of ``src``."""
    folder = Path(tempfile.mkdtemp(prefix="sandtable-rescued-"))
    return folder / Path(src).name


def remove_copy(path: str | Path) -> None:
    shutil.rmtree(Path(path).parent, ignore_errors=True)
