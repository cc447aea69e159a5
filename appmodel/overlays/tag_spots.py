"""Where each unit's tag lies on the table, as the projector must keep it dark (Qt-free).

The projector's picture is black over every tag (``calibration.projector_mask``); the patch must
cover the tag actually printed and lie at the height the tag actually is. So each unit's spot takes the
tag size the scenario's roster gives it (else the layout's unit tag size), its base height, the ground
under it (the rules' elevation, else the scanned relief), and the tag's own turn (the unit's heading
less the roster's facing offset).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from appmodel.session import scenario_facts
from calibration.projector_mask import TagSpot
from calibration.table_layout import DEFAULT_UNIT_TAG_SIZE_IN

if TYPE_CHECKING:
    from appmodel.session.snapshot import Snapshot


def tag_spots(snapshot: Snapshot, scenario: Mapping[str, Any], *,
              default_tag_size_in: float = DEFAULT_UNIT_TAG_SIZE_IN) -> list[TagSpot]:
    """One spot per unit on the table of ``snapshot`` (``appmodel.session.snapshot.Snapshot``)."""
    ground = snapshot.ground
    out = []
    for u in snapshot.units:
        if not u.on_table:
            continue
        z = u.z_in or (float(ground.height_at(u.x_in, u.y_in)) if ground is not None else 0.0)
        out.append(TagSpot(u.x_in, u.y_in, z + scenario_facts.base_height_in(scenario, u.unit_id),
                           scenario_facts.tag_size_in(scenario, u.unit_id) or default_tag_size_in,
                           u.heading_deg - scenario_facts.facing_offset_deg(scenario, u.unit_id)))
    return out


__all__ = ["tag_spots"]
