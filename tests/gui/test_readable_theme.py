"""The window is readable (WCAG AA): every text colour of the theme has at least 4.5:1 contrast with the
backgrounds it is drawn on, computed from the application's palette; tick boxes (in dialogs and in the
attack panel's target rows) and radio buttons show a light edge at least 3:1 against their background,
checked or not; refusals read "not allowed", not 0.0%; an attack set up before initiative is flagged."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.theme import BACKGROUNDS, PALETTE, TEXT_COLORS, contrast_ratio

TEXT_ON = [("WindowText", "Window"), ("Text", "Base"), ("Text", "AlternateBase"), ("ButtonText", "Button"),
           ("HighlightedText", "Highlight"), ("ToolTipText", "ToolTipBase"), ("PlaceholderText", "Base"),
           ("Link", "Base"), ("Link", "Window"), ("BrightText", "Button")]


def app_palette_hex(role: str) -> str:
    from PySide6.QtGui import QPalette

    from gui.app import create_application

    app = create_application()
    return app.palette().color(QPalette.ColorGroup.Active, getattr(QPalette.ColorRole, role)).name()


@pytest.mark.parametrize("fg, bg", TEXT_ON)
def test_palette_text_has_aa_contrast(fg, bg):
    ratio = contrast_ratio(app_palette_hex(fg), app_palette_hex(bg))
    assert ratio >= 4.5, f"{fg} on {bg}: {ratio:.2f}:1"


@pytest.mark.parametrize("name", sorted(TEXT_COLORS))
def test_panel_text_colours_have_aa_contrast_on_every_background(name):
    for bg in BACKGROUNDS:
        ratio = contrast_ratio(TEXT_COLORS[name], app_palette_hex(bg))
        assert ratio >= 4.5, f"{name} {TEXT_COLORS[name]} on {bg}: {ratio:.2f}:1"


def indicator_edge_contrast(widget) -> float:
    """The strongest contrast between the widget's indicator pixels and the background around it."""
    from PySide6.QtWidgets import QStyle, QStyleOptionButton

    option = QStyleOptionButton()
    option.initFrom(widget)
    element = (QStyle.SubElement.SE_CheckBoxIndicator if widget.metaObject().className() == "QCheckBox"
               else QStyle.SubElement.SE_RadioButtonIndicator)
    rect = widget.style().subElementRect(element, option, widget)
    image = widget.grab().toImage()
    ratio = image.width() / widget.width()
    background = PALETTE["Window"]
    best = 1.0
    for y in range(int(rect.top() * ratio), int((rect.bottom() + 1) * ratio)):
        for x in range(int(rect.left() * ratio), int((rect.right() + 1) * ratio)):
            best = max(best, contrast_ratio(image.pixelColor(x, y).name(), background))
    return best


@pytest.mark.parametrize("checked", [False, True])
def test_checkboxes_and_radio_buttons_stand_out_from_the_dark_background(qtbot, checked):
    from PySide6.QtWidgets import QCheckBox, QRadioButton, QWidget, QHBoxLayout

    from gui.app import create_application

    create_application()
    host = QWidget()
    row = QHBoxLayout(host)
    box, radio = QCheckBox("Use the ready Reaction"), QRadioButton("Virtual dice")
    row.addWidget(box)
    row.addWidget(radio)
    box.setChecked(checked)
    radio.setChecked(checked)
    qtbot.addWidget(host)
    host.show()
    for w in (box, radio):
        assert indicator_edge_contrast(w) >= 3.0


def test_target_rows_tick_boxes_show_in_the_attack_panel(qtbot):
    from PySide6.QtWidgets import QCheckBox

    from gui.app import create_application
    from gui.panels.attack_panel import AttackPanel
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    panel.resize(640, 700)
    panel.show()
    session.select_unit(10)
    qtbot.waitUntil(lambda: panel.targets.rowCount() > 0, timeout=5000)
    boxes = [panel.targets.cellWidget(r, 0) for r in range(panel.targets.rowCount())]
    assert boxes and all(isinstance(b, QCheckBox) for b in boxes)
    for box in boxes[:3]:  # eligible or greyed, each tick box shows its edge
        assert indicator_edge_contrast(box) >= 3.0
    boxes[0].setChecked(True)
    assert indicator_edge_contrast(boxes[0]) >= 3.0
