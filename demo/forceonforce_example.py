"""Force on Force's market patrol (``rules/forceonforce/examples/patrol.py``) as the demo stages it.

Every figure carries its own tag; a fireteam is the figures whose ``group`` it is, and a request names
it by any of its figures' tags. Items: ``Pose`` (a figure moved), ``Fire`` (a unit fires: aimed in the
attack panel, then the opposed test rolled with the stated dice), ``Initiative`` (the initiative test,
or the scenario's first-turn override), ``Activate`` (an Irregular unit without its leader rolls its
Troop Quality check first), ``Test`` (a test the players call for: Morale here), ``Reinforce`` (the
Hot Spot die) and the ruleset's actions (turns, a leader joining, a split and a merge, and the
players' rulings entered as hand edits where the excerpt stops).

>>> from rules.forceonforce.examples.patrol import Fire
>>> aimed = fire_draft(Fire(10, 30, (6, 3), target_declarations={"target_shift": -1}))
>>> aimed.attacker_id, aimed.weapon, aimed.target_ids, dict(aimed.target_declarations[30])
(10, 'Fire', (30,), {'target_shift': -1})
"""
from __future__ import annotations

from typing import Any

from demo.examples import AimedAttack, DemoExample, ItemRole
from appmodel.game_session import AttackDraft

FIRE = "Fire"


def fire_draft(fire: Any) -> AttackDraft:
    """The attack panel's draft for a script's ``Fire`` (the firing unit and its target named by a
    figure's tag, the declarations as ``ForceOnForce.declarations()`` keys them)."""
    return AttackDraft(fire.firer, FIRE, (fire.target,), dict(fire.declarations),
                       {fire.target: dict(fire.target_declarations)})


class PatrolExample(DemoExample):
    name = "patrol"
    module = "rules.forceonforce.examples.patrol"
    ruleset = "force-on-force"
    title = "Force on Force: the market patrol"
    cast = ("Two US Army fireteams and their squad leader against two insurgent cells, an RPG gunner on a rooftop "
            "and reinforcements arriving at Hot Spots, with shoppers in the market. Every figure carries its own tag.")
    finale = "End of the example: turn 3 begins with the US Army holding the initiative and Alpha whole again."
    bookmarks = (
        ("From the rooftop", "Firing down 3\" from the rooftop: the shot passes over everyone near the line, so "
                             "the Regular gunner may fire past Bravo's friends."),
        ("Turn 2 initiative", "The initiative test: US Army 3D8 (2, 3, 7) gets 1 success, the Insurgents 2D6 (4, 6) "
                              "get 2; the insurgents take the initiative."),
    )

    def role(self, item: Any) -> ItemRole:
        s = self.script
        if isinstance(item, s.Pose):
            return ItemRole.MOVE
        if isinstance(item, s.Fire):
            return ItemRole.ATTACK
        if isinstance(item, s.Initiative):
            return ItemRole.INITIATIVE
        if isinstance(item, (s.Activate, s.Test, s.Reinforce)):
            return ItemRole.ROLL
        return ItemRole.ACTION

    def attack_units(self, item: Any) -> tuple[int, ...]:
        return (item.firer, item.target)

    def acting_units(self, item: Any, state: Any) -> tuple[int, ...]:
        """The figure an action names (a leader joining, a hand edit), or a unit's figures (an
        activation, a test, a split...)."""
        for name in ("leader_id", "figure_id"):
            figure = getattr(item, name, None)
            if isinstance(figure, int):
                return (figure,)
        team = getattr(item, "team", None)
        if isinstance(team, str) and state.has_team(team):
            return tuple(f.figure_id for f in state.members(state.team(team)))
        return ()

    def aim(self, item: Any, session: Any) -> AimedAttack:
        return AimedAttack(fire_draft(item), FIRE)

    def roll(self, item: Any, session: Any) -> Any:
        """An activation, a test or reinforcements, rolled by the ruleset on the session's game with the
        stated dice and committed by the session (log, recording), as the turn panel does."""
        s = self.script
        fof = session.ruleset
        if isinstance(item, s.Activate):
            res = session.run_procedure("activation", lambda state, dice: fof.activate(state, item.team, dice),
                                        item.dice)
        elif isinstance(item, s.Test):
            res = session.run_procedure("test", lambda state, dice: fof.test(
                state, item.purpose, fof.test_side(state, item.team, item.what), dice, about=item.team), item.dice)
        elif isinstance(item, s.Reinforce):
            res = session.run_procedure("reinforcement", lambda state, dice: fof.reinforce(state, item.team, dice),
                                        item.dice)
        else:
            raise ValueError(f"not a roll of the patrol script: {item!r}")
        return res.result

    def action_kind(self, action_name: str) -> str:
        if action_name.startswith("Edit"):
            return "edit"
        return {"JoinLeader": "leader", "DetachLeader": "leader", "Split": "unit", "Merge": "unit"}.get(action_name, "action")


__all__ = ["PatrolExample", "fire_draft"]
