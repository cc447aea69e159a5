"""Reading a debrief report as a user sees it: its sections, tables and embedded pictures (shared by the debrief and demo tests)."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path


class ReportParser(HTMLParser):
    """Collects what a reader sees: sections with their text, images, links, table rows."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, str] = {}
        self.images: list[dict[str, str]] = []
        self.external: list[str] = []
        self.rows: dict[str, list[list[str]]] = {}
        self._section: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self._section = a.get("id")
            self.sections[self._section] = ""
        if tag == "img":
            self.images.append(a)
        for key in ("src", "href"):
            if key in a and not str(a[key]).startswith(("data:", "#")):
                self.external.append(a[key])
        if tag == "link":  # inline scripts are part of the file (the timeline); a src= is caught above
            self.external.append(tag)
        if tag == "tr":
            self._row = []
        if tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        if tag == "tr" and self._row is not None and self._section:
            self.rows.setdefault(self._section, []).append(self._row)
            self._row = None
        if tag == "section":
            self._section = None

    def handle_data(self, data):
        if self._section:
            self.sections[self._section] += data
        if self._cell is not None:
            self._cell.append(data)


def parse(path: Path) -> ReportParser:
    parser = ReportParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser
