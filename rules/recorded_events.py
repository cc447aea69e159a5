"""Reading what a logged event recorded, for the rule systems' debrief readers (``rules/<system>/debriefed.py``).

An event's ``inputs`` and ``outcome`` are JSON data (a recording may come from an older or newer
program), so these helpers read them defensively: a number that is not one is None, a hand edit is
recognised by its shape, the units a result put down are found wherever they are nested.

>>> number(3), number("3"), number(True)
(3.0, None, None)
>>> went_down({"targets": [{"went_down": [4, 5]}, {"shots": [{"went_down": [6]}]}]})
[4, 5, 6]
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules.events import RulesEvent

#: A status a hand edit sets, and the change it is to the debrief's casualties.
HAND_SET_CHANGES = {"casualty": ("down", "casualty"), "down": ("down", "casualty"), "removed": ("removed", "removed"),
                    "active": ("back in play", "active")}


def number(value: Any) -> float | None:
    """``value`` as a float when it is a JSON number (not a bool), else None."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a JSON object, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def nodes(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every JSON object inside ``node``, depth first, ``node`` itself first."""
    if isinstance(node, Mapping):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from nodes(item)


def went_down(node: Any) -> list[int]:
    """The tag ids listed under every ``went_down`` key inside ``node``, in order."""
    out: list[int] = []
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "went_down" and isinstance(value, list):
                out += [int(v) for v in value if isinstance(v, int)]
            else:
                out += went_down(value)
    elif isinstance(node, list):
        for item in node:
            out += went_down(item)
    return out


def hand_set_status(event: RulesEvent, ref_key: str) -> tuple[int, str, str] | None:
    """(tag id, the debrief's change, the status in words) of a hand edit that took a unit out of the
    fight or brought it back (its ``inputs[ref_key]`` names the tag, ``inputs["changes"]["status"]``
    the status); None for any other event.

    >>> e = RulesEvent(0, "edit", 1, None, "", inputs={"figure": 12, "changes": {"status": "casualty"}})
    >>> hand_set_status(e, "figure")
    (12, 'down', 'casualty')
    """
    inputs = mapping(event.inputs)
    if event.kind != "edit":
        return None
    ref, changes = inputs.get(ref_key), inputs.get("changes")
    if not isinstance(ref, int) or not isinstance(changes, Mapping):
        return None
    found = HAND_SET_CHANGES.get(str(changes.get("status")))
    return (ref, *found) if found else None
