"""Down Range's visibility from the ground (2.4.1): the relief proposes the target's line of sight and
partial cover, which the players confirm in the attack panel (the declarations stay theirs)."""
from __future__ import annotations

from collections.abc import Iterable

from rules.downrange.state import GameState
from rules.terrain_sight import Ground, GroundDeclarations, propose_sight


def propose_from_ground(state: GameState, attacker_id: int, target_ids: Iterable[int], ground: Ground, *,
                        eye_height_in: float = 1.0, target_height_in: float = 1.0) -> GroundDeclarations:
    """Per target: ``line_of_sight`` (the ground hides the whole figure: False) and ``cover`` ("partial"
    when a crest hides its lower part: a Disadvantage, 2.4.1.1.1)."""
    attacker = state.unit(attacker_id)
    out = GroundDeclarations()
    for tid in target_ids:
        target = state.unit(tid)
        p = propose_sight(ground, attacker.footprint.center.xy, target.footprint.center.xy,
                          eye_height_in=eye_height_in, target_height_in=target_height_in)
        out.targets[target.unit_id] = {"line_of_sight": p.line_of_sight, "cover": "partial" if p.partly_hidden else "none"}
        out.reasons[target.unit_id] = p.reason
        out.sights[target.unit_id] = p.sight
    return out
