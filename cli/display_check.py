"""Is there a screen to open a window on? (Asked before Qt is loaded: Qt aborts the process when its
platform plugin finds no display, which no ``try`` can catch.)

>>> display_available({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, platform="linux")
False
>>> display_available({"DISPLAY": ":0"}, platform="linux"), display_available({}, platform="linux")
(True, False)
>>> display_available({}, platform="win32")
True
"""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping

#: Qt platform plugins that draw nowhere a person can see.
HEADLESS_PLATFORMS = ("offscreen", "minimal", "minimalegl")


def display_available(environ: Mapping[str, str] | None = None, *, platform: str | None = None) -> bool:
    """True when a window would be seen: not forced offscreen, and on Linux/BSD an X11 or Wayland
    display is set (Windows and macOS always have their desktop)."""
    env = os.environ if environ is None else environ
    plugin = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if plugin in HEADLESS_PLATFORMS:
        return False
    platform = platform or sys.platform
    if platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    return True


def why_no_display(environ: Mapping[str, str] | None = None) -> str:
    """A few words on why :func:`display_available` said no (for one-line messages)."""
    env = os.environ if environ is None else environ
    plugin = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if plugin in HEADLESS_PLATFORMS:
        return f"QT_QPA_PLATFORM={plugin} draws offscreen"
    return "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"


__all__ = ["display_available", "why_no_display"]
