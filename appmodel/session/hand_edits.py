"""Hand edits of what the camera cannot see, as the ruleset's own actions.

A figure's edits go through ``Ruleset.edit_action`` (Down Range's tokens and injuries, a Force on
Force figure's status, a generic unit's status level...), a unit of several figures' through
``Ruleset.group_edit_action`` (Force on Force's defensive position, Supplies, Morale...). The
rules refuse a field or value they do not take, naming it; these functions refuse a ruleset without
such edits, naming it. Applying the action is the session's job.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appmodel.errors import UsageError
from rules.ruleset import GroupView, Ruleset


def groups(ruleset: Ruleset, state: Any) -> tuple[GroupView, ...]:
    """The units of several figures (Force on Force's fireteams); () for rulesets without them."""
    return ruleset.groups(state)


def group_of(ruleset: Ruleset, state: Any, unit_id: int) -> GroupView | None:
    """The unit of several figures a tag belongs to (None: the tag is a unit of its own)."""
    return next((g for g in groups(ruleset, state) if unit_id in g.member_ids), None)


def unit_edit(ruleset: Ruleset, unit_id: int, changes: Mapping[str, Any]) -> Any:
    """The ruleset's action that edits one figure by hand."""
    action = ruleset.edit_action(unit_id, changes)
    if action is None:
        raise UsageError(f"hand edits are not available for the {ruleset.name} ruleset")
    return action


def group_edit(ruleset: Ruleset, state: Any, unit_id: int, unit_name: str, changes: Mapping[str, Any]) -> Any:
    """The ruleset's action that edits the unit of several figures ``unit_id`` belongs to."""
    group = group_of(ruleset, state, unit_id)
    if group is None:
        raise UsageError(f"{unit_name} is not part of a unit of several figures: edit the figure itself")
    action = ruleset.group_edit_action(group.name, changes)
    if action is None:
        raise UsageError(f"unit edits are not available for the {ruleset.name} ruleset")
    return action
