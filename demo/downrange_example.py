"""Down Range's in-depth example (the rulebook's section 6) as the demo stages it: the default demo.

Items of ``rules/downrange/examples/in_depth.py``: ``Pose`` (a tracked move), ``Attack`` (an
``AttackSetup`` with the dice the text states, and where a missed explosive lands), ``Initiative``,
``Treat`` (a medic's roll) and the ruleset's actions. Gun-team members standing on one spot share the
token of the lowest tag id among them (``in_depth.gun_team_riders``).

>>> from rules.downrange.declarations import AttackSetup, TargetSpec, Level
>>> draft = draft_from_setup(AttackSetup(40, "Autocannon", (TargetSpec(15, shots=2), TargetSpec(11, shots=2,
...                          cover=Level.PARTIAL)), crew_assistants=1))
>>> draft.target_ids, dict(draft.declarations), dict(draft.target_declarations[11])
((15, 11), {'crew_assistants': 1}, {'shots': 2, 'cover': 'partial'})
"""
from __future__ import annotations

from typing import Any

from demo.examples import AimedAttack, DemoExample, ItemRole, Token, tag_size_in
from appmodel.game_session import AttackDraft


def draft_from_setup(setup: Any) -> AttackDraft:
    """The attack panel's draft for a Down Range ``AttackSetup`` (the script's declarations, keyed as
    ``DownRange.declarations()`` names them); only what differs from the defaults is declared."""
    decl: dict[str, Any] = {}
    if setup.mode.value != "attack":
        decl["mode"] = setup.mode.value
    if setup.payload != "HE":
        decl["payload"] = setup.payload
    if setup.assistants:
        decl["assistants"] = tuple(setup.assistants)
    for key, default in (("crew_assistants", 0), ("reaction", False), ("untrained", False), ("axis_deg", None),
                         ("linked", 1), ("distance_in", None)):
        if getattr(setup, key) != default:
            decl[key] = getattr(setup, key)
    for key in ("advantages", "disadvantages"):
        if getattr(setup, key):
            decl[key] = tuple(getattr(setup, key))
    targets: dict[int, dict[str, Any]] = {}
    for spec in setup.targets:
        td: dict[str, Any] = {}
        if spec.shots != 1:
            td["shots"] = spec.shots
        for key in ("cover", "concealment"):
            if getattr(spec, key).value != "none":
                td[key] = getattr(spec, key).value
        if spec.darkness is not None:
            td["darkness"] = spec.darkness.value
        if not spec.line_of_sight:
            td["line_of_sight"] = False
        if spec.spotter is not None:
            td["spotter"] = spec.spotter
        if spec.unaware:
            td["unaware"] = True
        if spec.stationary is not None:
            td["stationary"] = "yes" if spec.stationary else "no"
        if spec.head_on:
            td["head_on"] = True
        for key in ("advantages", "disadvantages"):
            if getattr(spec, key):
                td[key] = tuple(getattr(spec, key))
        targets[spec.unit_id] = td
    return AttackDraft(setup.attacker, setup.weapon, tuple(s.unit_id for s in setup.targets), decl, targets,
                       setup.aim)


#: The recording's ``state:<why>`` for Down Range actions (docs/gui.md).
_ACTION_KINDS = {"Signal": "signal", "ControlRpv": "signal", "ReleaseRpv": "signal", "DesignateMainEffort": "command",
                 "Board": "vehicle", "Disembark": "vehicle"}


class InDepthExample(DemoExample):
    name = "in-depth"
    module = "rules.downrange.examples.in_depth"
    ruleset = "down-range"
    title = "Down Range: the rulebook's in-depth example (section 6)"
    cast = ("A Marine mortar team, MAAWS gunner, corpsman and sergeant with a UTV and a Black Hornet against a "
            "PLA Marine Corps squad and its ZBL-09.")
    finale = "End of the example: the Marines call for extraction."
    expect_label = "Rulebook"
    expect_words = "The rulebook"
    introduction = ("Down Range, in-depth example (rulebook section 6): Marines with a mortar team, a MAAWS gunner, a\n"
                    "corpsman, a UTV and a Black Hornet against a PLA Marine Corps squad and its ZBL-09 IFV.")

    @property
    def bookmarks(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]  # a narrower bookmarks than the base class's
        from demo.example_recording import EXAMPLE_BOOKMARKS

        return tuple(EXAMPLE_BOOKMARKS)

    def heading(self, section: str, title: str) -> str:
        return f"{section}  {title}"

    def bookmark(self, section: str, step: Any) -> str | None:
        note = dict(self.bookmarks).get(section)
        return None if note is None else f"{section}: {note}"

    def riders(self, state: Any) -> frozenset[int]:
        from rules.downrange.examples.in_depth import gun_team_riders

        return gun_team_riders(state)

    def tokens(self, state: Any) -> dict[int, Token]:
        return {u.unit_id: Token(u.unit_id, float(u.x_in), float(u.y_in), float(u.heading_deg), bool(u.on_table),
                                 tag_size_in(u)) for u in state.units}

    def role(self, item: Any) -> ItemRole:
        s = self.script
        if isinstance(item, s.Pose):
            return ItemRole.MOVE
        if isinstance(item, s.Attack):
            return ItemRole.ATTACK
        if isinstance(item, s.Initiative):
            return ItemRole.INITIATIVE
        if isinstance(item, s.Treat):
            return ItemRole.TREAT
        return ItemRole.ACTION

    def attack_units(self, item: Any) -> tuple[int, ...]:
        return (item.setup.attacker, *(spec.unit_id for spec in item.setup.targets))

    def aim(self, item: Any, session: Any) -> AimedAttack:
        setup = item.setup
        return AimedAttack(draft_from_setup(setup), setup.weapon, setup.aim)

    def landing(self, item: Any) -> tuple[float, float] | None:
        return item.landing  # type: ignore[no-any-return]  # the landing comes from an untyped result record

    def treat(self, item: Any, session: Any) -> Any:
        """A medic's roll with the stated die, declared and resolved through the session's action path
        (the window's declaration panel plays it the same way); returns the rules' result."""
        from rules.ruleset import ActionRequest

        request = ActionRequest("treat", item.medic, {"patient": item.patient, "assistants": tuple(item.assistants)})
        return session.resolve_action(request, list(item.dice)).result

    def action_kind(self, action_name: str) -> str:
        return _ACTION_KINDS.get(action_name, "action")


__all__ = ["InDepthExample", "draft_from_setup"]
