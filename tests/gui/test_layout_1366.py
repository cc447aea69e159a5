"""Every panel fits a 1366x768 laptop screen in every mode (the newcomer's review, #4): the players'
dice prompt wraps and leaves the dice field and Resolve in view; the Force on Force turn panel's
buttons are all in view; the Log's buttons are not cut. Checked on the real window's widgets'
geometry; ``SANDTABLE_LAYOUT_SHOTS=folder`` also saves what each test looked at."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QScrollArea, QWidget

from gui_helpers import open_main_window, save_layout_shot as _shot, settle as _settle

from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH as IN_DEPTH

PATROL = Path(__file__).resolve().parents[2] / "rules" / "forceonforce" / "examples" / "patrol.toml"
SIZES = [(1366, 768), (1920, 1080)]


def _visible_rect(widget: QWidget) -> QRect:
    """The part of ``widget`` really on screen: cut by every scrolling viewport and the window."""
    rect = QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            port = parent.viewport()
            rect = rect.intersected(QRect(port.mapTo(widget.window(), QPoint(0, 0)), port.size()))
        parent = parent.parentWidget()
    return rect.intersected(widget.window().rect())


def _fully_visible(widget: QWidget) -> bool:
    return widget.isVisible() and _visible_rect(widget).size() == widget.size()


def _open(qtbot, tmp_path, scenario, size):
    session = GameSession.from_scenario_file(scenario, seed=1)
    w = open_main_window(qtbot, tmp_path, session)
    w.resize(*size)
    _settle()
    return w


@pytest.mark.parametrize("size", SIZES)
def test_players_dice_prompt_wraps_and_leaves_the_field_and_resolve_in_view(qtbot, tmp_path, size):
    w = _open(qtbot, tmp_path, IN_DEPTH, size)
    w.session.select_unit(10)
    w.session.set_attack(AttackDraft(10, "M4/M16", (35,)))
    w.attack.entered.setChecked(True)
    _settle()
    form = w.attack.dice_form
    assert form.prompt.isVisible() and "Next:" in form.prompt.text()
    assert _fully_visible(form.edit), "the dice field is cut off"
    assert form.edit.width() >= 80
    assert _fully_visible(w.attack.resolve_button)
    assert _fully_visible(form.prompt)
    _shot(w, f"players-dice-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", SIZES)
def test_the_force_on_force_turn_panel_shows_every_button(qtbot, tmp_path, size):
    w = _open(qtbot, tmp_path, PATROL, size)
    w.docks["Turn"].raise_()
    _settle()
    _shot(w, f"fof-turn-{size[0]}x{size[1]}")
    buttons = [b for b in w.turn.findChildren(QAbstractButton) if b.isVisible() and b.text()]
    assert buttons
    # Down the panel it may scroll (a laptop's 768 pixels); across, nothing may be out of view.
    scroll = w.docks["Turn"].widget()
    assert isinstance(scroll, QScrollArea)
    assert not scroll.horizontalScrollBar().isVisible()
    port = scroll.viewport()
    left = port.mapTo(w, QPoint(0, 0)).x()
    cut = [b.text() for b in buttons
           if b.mapTo(w, QPoint(0, 0)).x() < left or b.mapTo(w, QPoint(b.width(), 0)).x() > left + port.width()]
    assert not cut, f"turn panel buttons cut off at the side: {cut}"


@pytest.mark.parametrize("size", SIZES)
def test_the_log_buttons_are_whole(qtbot, tmp_path, size):
    w = _open(qtbot, tmp_path, IN_DEPTH, size)
    _shot(w, f"log-{size[0]}x{size[1]}")
    buttons = [b for b in w.log_panel.findChildren(QAbstractButton) if b.isVisible() and b.text()]
    assert buttons
    cut = [b.text() for b in buttons if not _fully_visible(b)]
    assert not cut, f"log buttons cut off: {cut}"
