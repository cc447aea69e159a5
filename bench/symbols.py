"""The military symbols of every shipped unit type, friend and hostile, on one sheet to look at
(issue 31): an SVG per ruleset and a PNG contact sheet drawn by Qt's SVG renderer (what the window
and the projector use), with the time to draw a symbol the first time and from the cache.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/symbols.py [--out docs/screenshots]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from appmodel.overlays.unit_symbols import unit_symbol
from rules.military_symbols import Affiliation, load_symbol_table, symbol_files

CELL_W, CELL_H, SIZE = 210, 120, 44


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    _app = QGuiApplication.instance() or QGuiApplication([])
    rows = []
    for ruleset in sorted(symbol_files()):
        table = load_symbol_table(ruleset)
        for name, code in table.by_type.items():
            rows.append((ruleset, name, code))
    cols = 4
    lines = -(-len(rows) // cols)
    img = QImage(cols * CELL_W, lines * CELL_H, QImage.Format.Format_RGB32)
    img.fill(QColor(232, 214, 170))            # sand
    painter = QPainter(img)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setFont(QFont("DejaVu Sans", 7))
    first, cached = [], []
    for i, (ruleset, name, code) in enumerate(rows):
        x0, y0 = (i % cols) * CELL_W, (i // cols) * CELL_H
        for j, a in enumerate((Affiliation.FRIEND, Affiliation.HOSTILE)):
            sidc = code[:3] + a.value + code[4:]
            t0 = time.perf_counter()
            s = unit_symbol(sidc, size_px=SIZE, outline_px=2)
            first.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            unit_symbol(sidc, size_px=SIZE, outline_px=2)
            cached.append(time.perf_counter() - t0)
            r = QSvgRenderer(QByteArray(s.svg.encode()))
            scale = min(90 / s.width_px, 80 / s.height_px, 1.0)
            r.render(painter, QRectF(x0 + 8 + j * 100, y0 + 4, s.width_px * scale, s.height_px * scale))
        painter.setPen(Qt.GlobalColor.black)
        painter.drawText(QRectF(x0 + 4, y0 + 88, CELL_W - 8, 30), Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap,
                         f"{ruleset}: {name}\n{code}")
    painter.end()
    img.save(str(args.out / "military-symbols.png"))
    for ruleset in sorted(symbol_files()):
        table = load_symbol_table(ruleset)
        parts = [unit_symbol(c, size_px=SIZE) for c in table.by_type.values()]
        x = 0.0
        body = []
        for p in parts:
            body.append(f'<g transform="translate({x:.1f},0)">{p.svg}</g>')
            x += p.width_px + 10
        h = max(p.height_px for p in parts)
        (args.out / f"military-symbols-{ruleset}.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{x:.0f}" height="{h:.0f}">{"".join(body)}</svg>\n')
    print(f"{len(rows)} unit types x 2 affiliations; first draw median {1000 * sorted(first)[len(first) // 2]:.2f} ms, "
          f"cached {1e6 * sorted(cached)[len(cached) // 2]:.1f} us; sheet {args.out / 'military-symbols.png'}")


if __name__ == "__main__":
    main()
