"""The generic miniatures rules' solo game (``rules/generic/examples/solo.py``) as the demo stages it.

One player's company against counters run by the automation tables. Every counter carries one tag;
the enemy's are anonymous until identified (two are dummies). Items: ``Pose`` (a counter moved),
``Shot`` (a ranged attack: to-hit, scatter when an area weapon misses, damage points), ``CloseCombat``
(two rounds), ``Turn`` (the next side acts: an automated side rolls its tables with the stated dice)
and the ruleset's actions (a new game turn, identifying a counter, the end of a turn).

>>> from rules.generic.examples.solo import Shot
>>> draft = shot_draft(Shot(12, 30, (2, 5, [3, 6], [4, 2])), "Mortar")
>>> draft.attacker_id, draft.weapon, draft.target_ids, dict(draft.declarations)
(12, 'Mortar', (30,), {'range_shift': 0})
"""
from __future__ import annotations

from typing import Any

from demo.examples import AimedAttack, DemoExample, ItemRole
from appmodel.game_session import AttackDraft

CLOSE_COMBAT = "Close combat"


def shot_draft(shot: Any, weapon: str) -> AttackDraft:
    """The attack panel's draft for a script's ``Shot`` with the attacker's ranged ``weapon``: at a
    unit, or at an aim point for an area weapon, with the range shift the players declared."""
    targets = (shot.target,) if shot.target is not None else ()
    return AttackDraft(shot.attacker, weapon, targets, {"range_shift": shot.range_shift}, {}, shot.aim)


def ranged_weapon(session: Any, unit_id: int, named: str) -> str:
    """The weapon a player picks in the attack panel for a script's shot: the script says "ranged" for
    the unit's one ranged attack, which the panel lists under the unit record's weapon name."""
    names = [w.name for w in session.ruleset.weapons(session.state, unit_id)]
    if named in names:
        return named
    return next((n for n in names if n != CLOSE_COMBAT), named)


class SoloExample(DemoExample):
    name = "solo"
    module = "rules.generic.examples.solo"
    ruleset = "generic"
    title = "Generic miniatures rules: holding the crossroads (solo)"
    cast = ("A rifle section, grenadiers, mortars and their HQ hold a crossroads against hidden counters played "
            "by the automation tables: a tank, a field gun, rifles, scouts and two dummies.")
    finale = "End of the example: Red's counters have moved as the tables suggested; Blue's turn comes next."
    in_the_fight = ("active", "removed")  # a dummy found out is removed, not beaten
    bookmarks = (
        ("Mortar miss", "A miss at Very Long range scatters 5\" East (under the 12.3\" cap): the field gun where it "
                        "lands takes half damage."),
        ("The tables play Red", "The automation tables decide Red's moves (route table) and fire (by range band): "
                                "one player against the table."),
    )

    def role(self, item: Any) -> ItemRole:
        s = self.script
        if isinstance(item, s.Pose):
            return ItemRole.MOVE
        if isinstance(item, (s.Shot, s.CloseCombat)):
            return ItemRole.ATTACK
        if isinstance(item, s.Turn):
            return ItemRole.TURN
        return ItemRole.ACTION

    def attack_units(self, item: Any) -> tuple[int, ...]:
        if isinstance(item, self.script.CloseCombat):
            return (item.attacker, item.defender)
        return (item.attacker,) + ((item.target,) if item.target is not None else ())

    def aim(self, item: Any, session: Any) -> AimedAttack:
        if isinstance(item, self.script.CloseCombat):
            return AimedAttack(AttackDraft(item.attacker, CLOSE_COMBAT, (item.defender,)), CLOSE_COMBAT)
        weapon = ranged_weapon(session, item.attacker, item.weapon)
        return AimedAttack(shot_draft(item, weapon), weapon, item.aim)

    def action_kind(self, action_name: str) -> str:
        if action_name.startswith("Edit"):
            return "edit"
        return {"Identify": "identify"}.get(action_name, "action")


__all__ = ["SoloExample", "ranged_weapon", "shot_draft"]
