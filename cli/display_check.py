"""Is there a screen to open a window on, and can Qt draw on it? (Asked before Qt is loaded: Qt aborts
the process when its platform plugin finds no display or misses a system library, which no ``try`` can
catch.)

>>> display_available({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, platform="linux")
False
>>> display_available({"DISPLAY": ":0"}, platform="linux"), display_available({}, platform="linux")
(True, False)
>>> display_available({}, platform="win32")
True
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

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


def x_display_reachable(display: str, *, timeout_s: float = 1.0) -> bool:
    """True when an X server answers at ``display`` (":0", "unix:1", "host:10.0"): a local one on its
    socket (the file under /tmp/.X11-unix or Linux's abstract name), a remote one on TCP 6000 + n."""
    match = re.fullmatch(r"(?:(?P<host>[^:]*)/)?(?P<name>[^:]*):(?P<num>\d+)(?:\.\d+)?", display.strip())
    if match is None:
        return Path(display).is_socket()  # macOS/XQuartz style: DISPLAY is the socket's path
    host, number = match["name"], int(match["num"])
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        for address in (path, "\0" + path):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout_s)
                try:
                    sock.connect(address)
                    return True
                except OSError:
                    continue
        if host == "unix":
            return False
        host = "localhost"
    try:
        with socket.create_connection((host, 6000 + number), timeout=timeout_s):
            return True
    except OSError:
        return False


def missing_libraries(ldd_output: str) -> list[str]:
    """The shared libraries ``ldd`` reports as "not found", each once, in order.

    >>> missing_libraries("\\tlibxcb-icccm.so.4 => not found\\n\\tlibc.so.6 => /lib/libc.so.6 (0x1)\\n"
    ...                   "\\tlibxcb-icccm.so.4 => not found\\n")
    ['libxcb-icccm.so.4']
    """
    found: list[str] = []
    for line in ldd_output.splitlines():
        name, sep, where = line.strip().partition("=>")
        if sep and where.strip() == "not found" and name.strip() not in found:
            found.append(name.strip())
    return found


#: Debian packages whose name does not follow from the library's soname by the packaging rule.
_PACKAGE_EXCEPTIONS = {"libX11-xcb.so.1": "libx11-xcb1", "libGL.so.1": "libgl1", "libEGL.so.1": "libegl1",
                       "libOpenGL.so.0": "libopengl0", "libGLX.so.0": "libglx0"}


def debian_packages(libraries: Iterable[str]) -> list[str]:
    """The Debian/Ubuntu packages that ship these shared libraries (Debian's rule: the soname's name,
    lower case, then its major version, with a hyphen when the name ends in a digit).

    >>> debian_packages(["libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libxcb-icccm.so.4", "libEGL.so.1"])
    ['libxcb-cursor0', 'libxkbcommon-x11-0', 'libxcb-icccm4', 'libegl1']
    """
    packages: list[str] = []
    for library in libraries:
        package = _PACKAGE_EXCEPTIONS.get(library)
        if package is None:
            match = re.fullmatch(r"(?P<name>.+?)\.so\.(?P<major>\d+)(?:\.\d+)*", library)
            if match is None:
                package = library
            else:
                name = match["name"].lower()
                package = name + ("-" if name[-1].isdigit() else "") + match["major"]
        if package not in packages:
            packages.append(package)
    return packages


def qt_platform_plugin(name: str) -> Path | None:
    """The file of one of PySide6's platform plugins ("xcb", "wayland"), found without importing Qt."""
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        for candidate in (Path(root) / "Qt" / "plugins" / "platforms" / f"libq{name}.so",
                          Path(root) / "plugins" / "platforms" / f"libq{name}.so"):
            if candidate.is_file():
                return candidate
    return None


def missing_qt_libraries(plugin: str = "xcb") -> list[str]:
    """System libraries Qt's platform plugin needs and this machine lacks (empty when all are there
    or when ``ldd`` cannot tell)."""
    path = qt_platform_plugin(plugin)
    ldd = shutil.which("ldd")
    if path is None or ldd is None:
        return []
    try:
        result = subprocess.run([ldd, str(path)], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    return missing_libraries(result.stdout)


def _qt_will_use_xcb(env: Mapping[str, str]) -> bool:
    plugin = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if plugin:
        return plugin == "xcb"
    return not env.get("WAYLAND_DISPLAY") and bool(env.get("DISPLAY"))


def window_problem(environ: Mapping[str, str] | None = None, *, platform: str | None = None) -> str | None:
    """Why a window cannot open here, in one line saying what to do; None when it can."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if not display_available(env, platform=platform):
        return why_no_display(env)
    if not platform.startswith("linux"):
        return None
    if _qt_will_use_xcb(env):
        display = env.get("DISPLAY", "")
        if display and not x_display_reachable(display):
            return f"no X server answers at DISPLAY={display} (is the desktop session still running?)"
        missing = missing_qt_libraries("xcb")
        if missing:
            packages = " ".join(debian_packages(missing))
            return (f"Qt cannot open windows on X11: missing system libraries {', '.join(missing)}; "
                    f"install them with `sudo apt install {packages}`")
    return None


def require_window(*, instead: str = "") -> None:
    """Raise one line (UsageError) when a window cannot open here; ``instead`` says what works without one."""
    plugin = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if plugin in HEADLESS_PLATFORMS:
        return  # asked for by name (tests, scripted pictures): Qt draws offscreen and never aborts
    problem = window_problem()
    if problem is not None:
        from appmodel.errors import UsageError

        raise UsageError(f"cannot open the window: {problem}" + (f"; {instead}" if instead else ""))


def offscreen_unless_displayed() -> None:
    """For pictures of a window: draw offscreen when no window could be shown (no display, or Qt's system
    libraries missing), so a screenshot never needs a screen."""
    if window_problem() is not None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


__all__ = ["debian_packages", "display_available", "missing_libraries", "missing_qt_libraries",
           "offscreen_unless_displayed", "qt_platform_plugin", "require_window", "why_no_display", "window_problem",
           "x_display_reachable"]
