"""Force on Force's line of sight from the ground (A.7): centre to centre for the unit, figure by figure
for how many of the target are visible and how many firers see it; proposed for the players to confirm."""
from __future__ import annotations

from collections.abc import Iterable

from rules.forceonforce.state import FofState
from rules.terrain_sight import Ground, GroundDeclarations, propose_sight


def propose_from_ground(state: FofState, attacker_id: int, target_ids: Iterable[int], ground: Ground, *,
                        eye_height_in: float = 1.0, target_height_in: float = 1.0) -> GroundDeclarations:
    """Per target unit: ``line_of_sight`` (centre to centre) and ``target_visible`` (its figures in play
    whose top the firing unit's centre sees); for the attack: ``firers_seeing`` (the firing unit's
    figures that see the target's centre, the most over the targets)."""
    firer = state.team(attacker_id)
    fc = state.centre(firer)
    out = GroundDeclarations()
    seeing_most = 0
    for tid in target_ids:
        target = state.team(tid)
        tc = state.centre(target)
        p = propose_sight(ground, fc.xy, tc.xy, eye_height_in=eye_height_in, target_height_in=target_height_in)
        visible = sum(propose_sight(ground, fc.xy, (f.x_in, f.y_in), eye_height_in=eye_height_in,
                                    target_height_in=target_height_in).line_of_sight for f in state.in_play_members(target))
        seeing = sum(propose_sight(ground, (f.x_in, f.y_in), tc.xy, eye_height_in=eye_height_in,
                                   target_height_in=target_height_in).line_of_sight for f in state.in_play_members(firer))
        seeing_most = max(seeing_most, seeing)
        key = state.team_id(target)
        out.targets[key] = {"line_of_sight": p.line_of_sight, "target_visible": visible}
        out.reasons[key] = f"{p.reason}; {visible} of {len(state.in_play_members(target))} figures visible"
        out.sights[key] = p.sight
    out.attack["firers_seeing"] = seeing_most
    return out
