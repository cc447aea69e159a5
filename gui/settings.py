"""The companion's settings as one typed value, and how they persist (QSettings, the platform's place).

:class:`AppSettings` is a frozen dataclass; :func:`load_settings` / :func:`save_settings` read and write
it through any store with QSettings' ``value(key)`` / ``setValue(key, value)`` (so this module does not
import Qt). :func:`open_store` opens the QSettings of the user (the platform's usual place: the registry
on Windows, ``~/.config/Sandtable/Sandtable Companion.conf`` on Linux, a plist on macOS) or an INI
file when a path is given — tests always pass a path and never touch the user's settings.

>>> s = AppSettings().with_overlay("fan", False)
>>> s.overlays.fan, AppSettings().overlays.fan
(False, True)
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from appmodel.overlays.registry import OverlayToggles

SETTINGS_VERSION = 1
ORGANIZATION = "Sandtable"
APPLICATION = "Sandtable Companion"
#: Environment variable pointing the application at an INI settings file (tests, kiosks).
SETTINGS_ENV = "SANDTABLE_SETTINGS"


@dataclass(frozen=True)
class AppSettings:
    """Everything the companion remembers between runs."""

    camera: str = "0"
    # several cameras over one table (empty: one camera): the local ones, the nodes (NAME=ADDRESS) and
    # each one's calibration file in that order
    cameras: tuple[str, ...] = ()
    camera_nodes: tuple[str, ...] = ()
    camera_calibrations: tuple[str, ...] = ()
    scenario_path: str = ""
    calibration_path: str = ""
    projector_calibration_path: str = ""
    projector_screen: int = 1
    presenter_screen: int = 1
    view_mode: str = "camera"  # "camera" or "table"
    overlays: OverlayToggles = field(default_factory=OverlayToggles)
    projector_overlays: OverlayToggles = field(default_factory=OverlayToggles.projector_default)
    dice_mode: str = "virtual"  # "virtual" or "entered"
    dice_seed: int | None = None
    recordings_dir: str = ""
    #: Recordings started in the window keep the camera's picture too (<name>.mp4, H.264): replay then
    #: shows what the camera saw. Off by default: about 15 MB a minute at 1080p.
    record_video: bool = False
    #: The contour interval last chosen in Overlays > Contour interval: in table inches (a target
    #: without a map scale, or none) and in a map's metres, each kept apart (None: the default).
    contour_interval_in: float | None = None
    contour_interval_m: float | None = None
    window_geometry: bytes = b""
    window_state: bytes = b""

    def with_overlay(self, name: str, on: bool) -> "AppSettings":
        return replace(self, overlays=self.overlays.with_(name, on))

    def with_projector_overlay(self, name: str, on: bool) -> "AppSettings":
        return replace(self, projector_overlays=self.projector_overlays.with_(name, on))


class SettingsStore(Protocol):
    def value(self, key: str, defaultValue: Any = None) -> Any: ...  # QSettings' name

    def setValue(self, key: str, value: Any) -> None: ...

    def sync(self) -> None: ...


def _as_bool(raw: Any, default: bool) -> bool:
    if raw is None:
        return default
    if isinstance(raw, bool):
        return raw
    return str(raw).strip().lower() in ("1", "true", "yes", "on")


def _as_int(raw: Any, default: int | None) -> int | None:
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except (TypeError, ValueError):
        return default


def _as_interval(raw: Any) -> float | None:
    """A positive number of inches or metres (anything else: none remembered)."""
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return value if 0 < value < float("inf") else None


def _toggles(store: SettingsStore, group: str, default: OverlayToggles) -> OverlayToggles:
    values = {name: _as_bool(store.value(f"{group}/{name}"), default.is_on(name)) for name in default.names()}
    return OverlayToggles(**values)


def _as_strings(raw: Any) -> tuple[str, ...]:
    """A list of strings kept as JSON text (a damaged entry reads as none)."""
    try:
        value = json.loads(str(raw)) if raw else []
    except ValueError:
        return ()
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def load_settings(store: SettingsStore) -> AppSettings:
    """The settings kept in ``store``; anything missing or unreadable keeps its default (a damaged
    settings file must never stop the companion from starting)."""
    d = AppSettings()
    mode = str(store.value("view/mode") or d.view_mode)
    dice = str(store.value("dice/mode") or d.dice_mode)
    geometry = store.value("window/geometry")
    state = store.value("window/state")
    return AppSettings(
        camera=str(store.value("camera/source") or d.camera),
        cameras=_as_strings(store.value("cameras/sources")),
        camera_nodes=_as_strings(store.value("cameras/nodes")),
        camera_calibrations=_as_strings(store.value("cameras/calibrations")),
        scenario_path=str(store.value("files/scenario") or ""),
        calibration_path=str(store.value("files/calibration") or ""),
        projector_calibration_path=str(store.value("files/projector_calibration") or ""),
        projector_screen=_as_int(store.value("screens/projector"), d.projector_screen) or 0,
        presenter_screen=_as_int(store.value("screens/presenter"), d.presenter_screen) or 0,
        view_mode=mode if mode in ("camera", "table") else d.view_mode,
        overlays=_toggles(store, "overlays", d.overlays),
        projector_overlays=_toggles(store, "projector_overlays", d.projector_overlays),
        dice_mode=dice if dice in ("virtual", "entered") else d.dice_mode,
        dice_seed=_as_int(store.value("dice/seed"), None),
        recordings_dir=str(store.value("files/recordings_dir") or ""),
        record_video=_as_bool(store.value("files/record_video"), d.record_video),
        contour_interval_in=_as_interval(store.value("sand_map/contour_interval_in")),
        contour_interval_m=_as_interval(store.value("sand_map/contour_interval_m")),
        window_geometry=bytes(geometry) if isinstance(geometry, (bytes, bytearray)) or hasattr(geometry, "data") else b"",
        window_state=bytes(state) if isinstance(state, (bytes, bytearray)) or hasattr(state, "data") else b"",
    )


def save_settings(settings: AppSettings, store: SettingsStore) -> None:
    """Write ``settings`` to ``store`` and flush it to disk."""
    store.setValue("version", SETTINGS_VERSION)
    store.setValue("camera/source", settings.camera)
    store.setValue("cameras/sources", json.dumps(list(settings.cameras)))
    store.setValue("cameras/nodes", json.dumps(list(settings.camera_nodes)))
    store.setValue("cameras/calibrations", json.dumps(list(settings.camera_calibrations)))
    store.setValue("files/scenario", settings.scenario_path)
    store.setValue("files/calibration", settings.calibration_path)
    store.setValue("files/projector_calibration", settings.projector_calibration_path)
    store.setValue("files/recordings_dir", settings.recordings_dir)
    store.setValue("files/record_video", settings.record_video)
    store.setValue("screens/projector", settings.projector_screen)
    store.setValue("screens/presenter", settings.presenter_screen)
    store.setValue("view/mode", settings.view_mode)
    store.setValue("dice/mode", settings.dice_mode)
    store.setValue("dice/seed", "" if settings.dice_seed is None else settings.dice_seed)
    for unit, interval in (("in", settings.contour_interval_in), ("m", settings.contour_interval_m)):
        store.setValue(f"sand_map/contour_interval_{unit}", "" if interval is None else float(interval))
    for group, toggles in (("overlays", settings.overlays), ("projector_overlays", settings.projector_overlays)):
        for name in toggles.names():
            store.setValue(f"{group}/{name}", toggles.is_on(name))
    if settings.window_geometry:
        store.setValue("window/geometry", settings.window_geometry)
    if settings.window_state:
        store.setValue("window/state", settings.window_state)
    store.sync()


def open_store(path: str | os.PathLike[str] | None = None) -> Any:
    """The QSettings to use: an INI file at ``path`` (or ``$SANDTABLE_SETTINGS``), else the user's
    settings in the platform's usual place."""
    from PySide6.QtCore import QSettings

    path = path or os.environ.get(SETTINGS_ENV) or None
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return QSettings(str(path), QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


__all__ = ["AppSettings", "load_settings", "save_settings", "open_store"]
