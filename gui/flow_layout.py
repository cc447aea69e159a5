"""A row of widgets that wraps onto more lines when the panel is narrow (Qt's flow layout example,
with stretch).

A dock on a 1366-pixel laptop screen is about 420 pixels wide: a row of three buttons or a field
with its drop-down and a button ("Morale test | morale | Roll the test") does not fit on one line
there, and in a fixed row it pushed its last buttons off the side behind a scroll bar. Here the row
keeps its look where there is room (items added with ``stretch`` share what is left of their line,
as in a box layout) and wraps where there is not.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem


class FlowLayout(QLayout):
    """Items left to right, wrapping to a new line when the next one does not fit."""

    def __init__(self, parent: QWidget | None = None, *, spacing_px: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._stretch: list[int] = []
        self._spacing_px = spacing_px
        self.setContentsMargins(0, 0, 0, 0)

    # -- QLayout's interface ----------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt's name)
        self._items.append(item)
        self._stretch.append(0)

    def add_widget(self, widget: QWidget, stretch: int = 0) -> None:
        """Add ``widget``; a ``stretch`` above 0 takes a share of the room left on its line."""
        self.addChildWidget(widget)
        self._items.append(QWidgetItem(widget))
        self._stretch.append(int(stretch))
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        if 0 <= index < len(self._items):
            self._stretch.pop(index)
            return self._items.pop(index)
        return None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802
        return Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._do_layout(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._do_layout(rect, apply=True)

    def sizeHint(self) -> QSize:  # noqa: N802
        # One line when there is room: the width of every item side by side.
        shown = [i for i in self._items if not i.isEmpty()]
        w = sum(i.sizeHint().width() for i in shown) + self._spacing_px * max(0, len(shown) - 1)
        h = max((i.sizeHint().height() for i in shown), default=0)
        m = self.contentsMargins()
        return QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802
        # As narrow as its widest item: everything else wraps.
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize().expandedTo(QSize(min(item.sizeHint().width(), 160), 0)))
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # -- the layout itself ----------------------------------------------------------------------
    def _do_layout(self, rect: QRect, *, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        lines: list[list[int]] = [[]]
        used = 0
        for k, item in enumerate(self._items):
            if item.isEmpty():
                continue
            w = min(item.sizeHint().width(), area.width())
            if lines[-1] and used + self._spacing_px + w > area.width():
                lines.append([])
                used = 0
            used += (self._spacing_px if lines[-1] else 0) + w
            lines[-1].append(k)
        y = area.y()
        for line in lines:
            if not line:
                continue
            widths = [min(self._items[k].sizeHint().width(), area.width()) for k in line]
            left = area.width() - sum(widths) - self._spacing_px * (len(line) - 1)
            stretches = [self._stretch[k] for k in line]
            total = sum(stretches)
            if left > 0 and total:
                widths = [w + left * s // total for w, s in zip(widths, stretches)]
            height = max(self._items[k].sizeHint().height() for k in line)
            if apply:
                x = area.x()
                for k, w in zip(line, widths):
                    self._items[k].setGeometry(QRect(QPoint(x, y), QSize(w, height)))
                    x += w + self._spacing_px
            y += height + self._spacing_px
        return y - self._spacing_px - rect.y() + m.bottom() if y > area.y() else m.top() + m.bottom()


__all__ = ["FlowLayout"]
