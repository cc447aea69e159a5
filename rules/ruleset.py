"""The ruleset-neutral interface the GUI and the recorder use, and the registry of rule systems.

A rule system (Down Range, Force on Force, the generic miniatures rules) subclasses :class:`Ruleset`
and is registered by name (:func:`register_ruleset`). Callers never import a rule system directly: they
ask :func:`get_ruleset` for it by the name a scenario gives (``ruleset = "down-range"``) and work with
the neutral types below.

The game state a ruleset returns is its own frozen dataclass; front ends read of it only what
:class:`RulesState` lists (round, order, whose turn, sides, the log) and everything else through the
ruleset's views (:class:`UnitView`, :class:`GroupView`, :class:`WeaponView`...). Positions come in through
:meth:`Ruleset.set_pose` (the tracker never imports rules; the GUI composes them).

Rule systems differ in what a "unit" is and in what an attack comes to. :class:`Ruleset` gives every
such difference a method with a neutral default, which a rule system overrides, and a few ``has_*``
flags for parts of a front end that show only for some systems; front ends call the methods on any
rule system and never ask what it is:

* **Units of several figures** (Force on Force fireteams, ``has_groups``): every figure has its own tag
  and its own :class:`UnitView` (``group`` names its unit); :meth:`Ruleset.groups` lists the units as
  :class:`GroupView` (members, cohesion, rough centre). Attack requests, proposals and odds name a unit
  by the tag id of any of its figures; proposals and odds carry the unit's figures in ``members``.
* **Procedures that are not hit-and-damage**: :class:`TargetOdds` keeps ``p_hit``/``p_kill`` filled
  with the ruleset's closest meaning (its docs say which) and lists its own exact outcomes in
  ``outcomes`` (label, probability), which a panel shows as they are.
* **Options of the pose call**: a ruleset lists in its ``pose_options`` attribute the keywords of
  :data:`POSE_OPTIONS` its :meth:`Ruleset.set_pose` takes: ``z_in`` (elevation: the height of the
  ground under the figure, table inches, given back in :attr:`UnitView.z_in` so renderers draw the
  figure's own overlays at that height; such a ruleset also has ``uses_elevation``) and ``alone``.
* **Hand edits**: :meth:`Ruleset.edit_form` describes the form (:class:`EditForm`: sections of typed
  fields, :class:`EditField`, with the unit's values), :meth:`Ruleset.form_changes` reads it back, and
  :meth:`Ruleset.edit_action` and :meth:`Ruleset.group_edit_action` give the action (None: no edits).
* **The turn panel's own part** (``has_turn_box``): :meth:`Ruleset.turn_box` describes it
  (:class:`TurnBox`: text, tables, fields and buttons), :meth:`Ruleset.turn_command` says what a button does.
* **Every other action a unit can take now** (medicine, task rolls, Signals, boarding...):
  :meth:`Ruleset.actions_for` describes them as forms (:class:`ActionForm`, defined in
  :mod:`rules.action_forms`) whose choices come from the measured geometry, :meth:`Ruleset.action_odds`
  gives a declaration's exact odds before the roll (with :meth:`Ruleset.action_legend`'s words) and
  :meth:`Ruleset.resolve_action` plays it; the debrief lists them with :meth:`Ruleset.action_summaries`.
* **The debrief**: :meth:`Ruleset.engagements`, :meth:`Ruleset.casualties`, :meth:`Ruleset.emissions`
  and :meth:`Ruleset.locators` (``has_emissions``), :meth:`Ruleset.recorded_rolls` (every roll's odds, again).

The forms and boxes are defined in :mod:`rules.front_end_forms`, the debrief's views in
:mod:`rules.debrief_views` and the results in :mod:`rules.resolution`; this module re-exports them, so
callers import everything from here.

* **Presentation**: the ruleset's ``front_end`` (:class:`FrontEnd`, read with :func:`front_end`) says
  which attack panel front ends show, the words of its buttons, the overlays it offers, and how the
  debrief lists engagements.
* **Shapes of a drafted attack** (the line-of-fire corridor with who is in it, where a miss may
  scatter): :meth:`Ruleset.attack_overlays`.
* **What the odds mean**: :meth:`Ruleset.odds_legend` names ``p_hit`` and ``p_kill_any`` for an
  attack (Force on Force: "wins", the test; the generic rules: "caught" and "destroyed"), says whether
  targets take a number of shots and how many targets one attack takes; by default Down Range's "hit"
  and "kill". Panels and the table's odds labels use it.

Overlay kinds beyond Down Range's ("range", "blast reach", "fan", "movement", "voice", "jamming",
"smoke", "illumination", "fires observation", "emission", "blast"): "range band" (a :class:`Reach`
ring at the far edge of a range band, labelled with its to-hit number), "cohesion" (a
:class:`~rules.geometry.Cluster`: the figures of a unit and their links; ``label`` says whether it
holds together), "leader" (a :class:`~rules.geometry.Segment` from an attached leader to his unit's
centre), "line of fire" (a :class:`~rules.geometry.Corridor`; ``unit_ids`` are the figures in it), "line
of sight" (a :class:`~rules.geometry.Segment` centre to centre), "minimum range" (a :class:`Reach`:
no fire inside it), "hot spot" (a
:class:`~rules.geometry.Circle`: the counter, or the 4" placement area), "scatter" (a
:class:`~rules.geometry.Segment` from the intended point to where a miss landed), "scatter reach" (a
:class:`~rules.geometry.Circle`: how far a miss may land), "area of effect" (a
:class:`~rules.geometry.Circle`), "command range" (a :class:`Reach`), "automation move" (a
:class:`~rules.geometry.Segment`: the move the solo-play tables suggest). Every shape has
``outline_in()``.

>>> sorted(available_rulesets())
['down-range', 'force-on-force', 'generic']
>>> get_ruleset("down-range").name
'down-range'
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.action_forms import ActionChoice, ActionField, ActionForm, ActionRequest, with_defaults
from rules.debrief_views import XY, CasualtyView, CommsView, EmissionView, EngagementView, LocatorView, RollView
from rules.front_end_forms import (EditChanges, EditField, EditForm, EditSection, TurnBox, TurnButton, TurnCommand,
                                   TurnSection, TurnTable, same_value)
from rules.dice import DiceSource
from rules.errors import IllegalActionError, UnknownNameError
from rules.events import RulesEvent
from rules.resolution import LandingChoice, Resolution, RulesState
from rules.geometry import CommsGraph, Footprint, Shape

def set_up_words(state: RulesState) -> str:
    """The game's set-up in words while it lasts (:attr:`RulesState.setting_up`; a game before its
    first round is in it too), "" once the first turn has begun.

    >>> from types import SimpleNamespace as S
    >>> set_up_words(S(setting_up=True, round=0)), set_up_words(S(setting_up=True, round=1))
    ('Set-up (no round started)', 'Round 1 · set-up (before the first turn)')
    >>> set_up_words(S(setting_up=False, round=2))
    ''
    """
    if not (getattr(state, "setting_up", False) or state.round == 0):
        return ""
    return f"Round {state.round} · set-up (before the first turn)" if state.round else "Set-up (no round started)"


def last_event(state: RulesState, kind: str) -> RulesEvent | None:
    """The last event of ``kind`` in ``state``'s log ("initiative": the last initiative roll), or None."""
    return next((e for e in reversed(state.events) if e.kind == kind), None)


@dataclass(frozen=True)
class UnitView:
    """What a renderer or roster shows of a unit, whatever the rule system."""

    unit_id: int
    name: str
    side: str
    type_name: str
    x_in: float
    y_in: float
    heading_deg: float
    footprint: Footprint
    on_table: bool
    status: str
    tokens: tuple[str, ...]
    move_in: float
    move_left_in: float
    weapons: tuple[str, ...]
    #: The unit of several figures this figure belongs to (a Force on Force fireteam); None when every
    #: tag is a unit of its own.
    group: str | None = None
    #: The height of the ground the figure stands on, table inches (a rooftop, a hill): renderers draw
    #: its base, rings and labels there. 0.0 for the table plane and for rule systems without elevation.
    z_in: float = 0.0
    #: What the players know of a counter the rules may keep anonymous (:meth:`Ruleset.identify`): "hidden:
    #: counter only", "identified", "dummy", "dummy, found out"; "" for a unit known from the start.
    identity: str = ""
    #: The other side sees only its counter (hidden, not yet identified): front ends give nothing more of
    #: it away (the rules already leave out its type and weapons; a roster shows no movement either).
    counter_only: bool = False


@dataclass(frozen=True)
class GroupView:
    """A unit made of several figures (a Force on Force fireteam or vehicle), for rosters and overlays.

    ``group_id`` is the id requests use for it (the lowest tag id of its figures); ``member_ids`` its
    figures; ``in_cohesion`` whether they hold together; the centre is the unit's rough centre.
    """

    group_id: int
    name: str
    side: str
    member_ids: tuple[int, ...]
    in_cohesion: bool
    centre_x_in: float
    centre_y_in: float
    status: str = "active"
    tokens: tuple[str, ...] = ()
    leader_id: int | None = None
    #: Its leader in words ("led by Sgt. Hale", "Sgt. Hale out of cohesion"); "" without one.
    leader_words: str = ""
    #: Its figures too far from the rest to hold together (a roster names them).
    astray_ids: tuple[int, ...] = ()
    #: What a roster lists of it besides cohesion and its leader (ratings, turn state); None: its tokens.
    ratings: tuple[str, ...] | None = None


@dataclass(frozen=True)
class WeaponView:
    """A weapon as a panel lists it; fields a rule system does not use stay None."""

    name: str
    range_in: float
    difficulty: int | None = None
    damage: str | None = None
    fan: int | None = None
    radius_in: float | None = None
    ammo_left: int | None = None
    focus: bool = False
    payloads: tuple[str, ...] = ()


@dataclass(frozen=True)
class Declaration:
    """A modifier the players may declare for an attack (a checkbox or a choice in the attack panel).

    ``scope`` is "attack" (about the attacker) or "target" (per target); ``kind`` is "bool", "choice",
    "int" or "units" (tick the units of ``proposals``); the GUI passes the values back under ``key``.
    """

    key: str
    label: str
    scope: str
    kind: str
    choices: tuple[str, ...] = ()
    default: Any = None
    help: str = ""
    #: A few words for a narrow form under a heading that names whose it is ("Die shift"); "": ``label``.
    short: str = ""
    #: A "units" declaration's units as the table proposes them (by name, whether the rules would take
    #: each now and why: "0.4\" from Sergeant", "3.0\" away: beyond the reach of 1\"").
    proposals: tuple[ActionChoice, ...] = ()
    #: The range of an "int" declaration.
    minimum: int = -12
    maximum: int = 12


@dataclass(frozen=True)
class AttackRequest:
    """An attack as the GUI sets it up, ruleset-neutral.

    ``declarations`` holds attack-level keys and ``target_declarations`` per-target keys, both from
    :meth:`Ruleset.declarations`.
    """

    attacker_id: int
    weapon: str
    target_ids: tuple[int, ...] = ()
    shots: tuple[int, ...] = ()
    aim_point: tuple[float, float] | None = None
    mode: str = "attack"
    declarations: Mapping[str, Any] = field(default_factory=dict)
    target_declarations: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class TargetProposal:
    """A unit the geometry allows (or not) as a target for an attacker, weapon and aim."""

    unit_id: int
    name: str
    side: str
    distance_in: float
    in_range: bool
    in_cone: bool
    in_blast: bool
    can_damage: bool
    eligible: bool
    reason: str = ""
    #: The figures of a multi-figure target (empty when the target is one tag).
    members: tuple[int, ...] = ()


@dataclass(frozen=True)
class TargetOdds:
    """Exact odds for one target: ``p_hit`` (the Skill roll succeeds), ``p_kill`` (it hits and the
    Damage succeeds), per shot, and ``p_kill_any`` over all ``shots`` spent on it."""

    unit_id: int
    name: str
    side: str
    shots: int
    allowed: bool
    reason: str
    p_hit: Fraction
    p_damage: Fraction
    p_kill: Fraction
    p_kill_any: Fraction
    can_damage: bool
    roll: str = "normal"
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    distance_in: float | None = None
    #: The procedure's own exact outcomes, (label, probability), for rulesets whose attack is not
    #: hit-then-damage (Force on Force's opposed test, the generic ruleset's status levels).
    outcomes: tuple[tuple[str, Fraction], ...] = ()
    #: The figures of a multi-figure target (empty when the target is one tag).
    members: tuple[int, ...] = ()

    def as_floats(self) -> dict[str, Any]:
        return {"unit_id": self.unit_id, "name": self.name, "side": self.side, "shots": self.shots,
                "allowed": self.allowed, "reason": self.reason, "p_hit": float(self.p_hit),
                "p_damage": float(self.p_damage), "p_kill": float(self.p_kill),
                "p_kill_any": float(self.p_kill_any), "can_damage": self.can_damage, "roll": self.roll,
                "advantages": list(self.advantages), "disadvantages": list(self.disadvantages),
                "distance_in": self.distance_in,
                "outcomes": [[label, float(p)] for label, p in self.outcomes], "members": list(self.members)}


@dataclass(frozen=True)
class OddsLegend:
    """What an attack's :class:`TargetOdds` figures mean in a rule system, in the words a panel's
    columns and the table's odds labels use.

    ``hit`` names ``p_hit``; ``kill`` names ``p_kill_any`` (None when the procedure has one figure
    only: ``p_kill`` is ``p_hit`` and is shown once); the ``*_help`` sentences say it in full.
    ``shots``: a target takes a number of shots (``p_hit`` is per shot); ``max_targets``: how many
    targets one attack takes (None: any); ``refused``: the words for an attack the rules forbid.

    >>> o = TargetOdds(30, "Cell 1", "Insurgents", 1, True, "", Fraction(7, 16), Fraction(1), Fraction(7, 16),
    ...                Fraction(7, 16), True)
    >>> OddsLegend("wins", None).label(o), OddsLegend("wins", None).short(o)
    ('wins 44%', '44%')
    >>> HIT_AND_KILL.label(o), HIT_AND_KILL.short(o)
    ('hit 44%  kill 44%', '44%/44%')
    """

    hit: str = "hit"
    kill: str | None = "kill"
    hit_help: str = "the attack roll succeeds (per shot)"
    kill_help: str = "the target is taken out, with all the shots spent on it"
    shots: bool = True
    max_targets: int | None = None
    refused: str = "no shot"
    #: Whose figure ``hit`` is when it is not the target's ("the firing unit" wins the test): the result
    #: card then says "The firing unit wins 50.0% against RPG team", never a bare "RPG team: wins".
    whose: str = ""

    def card_line(self, odds: TargetOdds) -> str:
        """One target's odds as the result card says them, whose they are included.

        >>> o = TargetOdds(30, "RPG team", "Insurgents", 1, True, "", Fraction(1, 2), Fraction(1), Fraction(1, 2),
        ...                Fraction(1, 2), True)
        >>> OddsLegend("wins", None, whose="the firing unit").card_line(o)
        'The firing unit wins 50.0% against RPG team'
        >>> HIT_AND_KILL.card_line(o)
        'RPG team: hit 50.0%, kill 50.0%'
        """
        figures = ", ".join(f"{word} {float(p):.1%}" for word, p in self.values(odds))
        if self.whose:
            return f"{self.whose[:1].upper()}{self.whose[1:]} {figures} against {odds.name}"
        return f"{odds.name}: {figures}"

    def values(self, odds: TargetOdds) -> tuple[tuple[str, Fraction], ...]:
        """(word, probability) of each figure the legend names, in order."""
        out = [(self.hit, odds.p_hit)]
        if self.kill is not None:
            out.append((self.kill, odds.p_kill_any))
        return tuple(out)

    def label(self, odds: TargetOdds) -> str:
        """The table's odds label for one target ("hit 33%  kill 12%", "wins 44%", or why not)."""
        if not odds.allowed:
            return f"{self.refused}: {odds.reason}"
        return "  ".join(f"{word} {float(p):.0%}" for word, p in self.values(odds))

    def short(self, odds: TargetOdds) -> str:
        """The label's short form, when the long one does not fit ("33%/12%")."""
        if not odds.allowed:
            return self.refused
        return "/".join(f"{float(p):.0%}" for _, p in self.values(odds))


#: Down Range's odds (and any ruleset's that does not describe its own): hit per shot, kill over all shots.
HIT_AND_KILL = OddsLegend()


@dataclass(frozen=True)
class FrontEnd:
    """How a front end presents a rule system, as data, so the window and the debrief never branch on
    a ruleset's name. A ruleset gives its own as the ``front_end`` attribute; :func:`front_end` falls
    back to :data:`PLAIN_FRONT_END`.

    ``target_columns``: the target declarations the attack panel shows as columns of its targets table,
    a value per row (Down Range's shots, cover, concealment, darkness, unaware); the others are set in
    a box for the target picked. ``aim_with_targets``: an area weapon is aimed at the blast point even
    with targets ticked (they are the units it means to catch); otherwise only when none is ticked.
    ``dice_hint``: what to type in the players' dice field. ``round_button``: the words of the button
    that opens a round. ``initiative_rolls``: the turn panel lists the last initiative roll;
    ``ready``: (the words of a turn-panel row, a token) -- the row lists the units holding the token
    (Down Range: "Reactions ready", "reaction ready"). A rule system with more to show has a box of its
    own (:meth:`Ruleset.turn_box`). ``edit_button``: the words of the roster's hand-edit button (the form it opens is the
    rule system's :class:`EditForm`). ``engagement_table``: the debrief's
    engagements as "shots" (hits of shots, p(hit), p(kill) per target) or "procedure" (the procedure's
    own outcomes). ``measured``: how the rules measure an attack's distance ("base to base", "centre
    to centre"). ``outcomes_always``: outcomes the debrief's map legend lists even when no attack came
    to them ("killed", "hit, no kill", "miss", "suppressed"). ``overlays``: the overlay toggles worth
    offering for the shapes it produces, beyond those every game has (bases, names, the tape, templates,
    lines of sight, odds): "range", "bands", "fan", "movement", "blast", "scatter", "cohesion",
    "line_of_fire", "hot_spots", "command", "automation", "voice", "jamming", "emissions", "areas";
    None offers every one.

    >>> front_end(object()).target_columns, front_end(object()).edit_button
    ((), 'Edit by hand…')
    """

    target_columns: tuple[str, ...] = ()
    aim_with_targets: bool = False
    dice_hint: str = "the players' dice as the rules ask, e.g. 4 [2 6] (empty: virtual dice)"
    round_button: str = "Roll initiative"
    initiative_rolls: bool = False
    ready: tuple[str, str] | None = None
    edit_button: str = "Edit by hand…"
    engagement_table: str = "procedure"
    measured: str = "base to base"
    outcomes_always: tuple[str, ...] = ()
    overlays: tuple[str, ...] | None = None


#: The front end of a ruleset that does not describe its own.
PLAIN_FRONT_END = FrontEnd()


def front_end(ruleset: Any) -> FrontEnd:
    """How front ends present ``ruleset`` (its ``front_end``, or :data:`PLAIN_FRONT_END`)."""
    own = getattr(ruleset, "front_end", None)
    return own if isinstance(own, FrontEnd) else PLAIN_FRONT_END


@dataclass(frozen=True)
class Overlay:
    """A shape to draw (from :mod:`rules.geometry`), what it means and whose it is."""

    kind: str
    shape: Shape | CommsGraph  # a comms graph is drawn as its links (segments_in), not as an outline
    label: str
    side: str | None = None
    unit_ids: tuple[int, ...] = ()


class Ruleset:
    """A rule system, as the GUI, tracker glue, recorder and debrief see it: the base every rule system
    subclasses, as python-chess's variants subclass ``Board``.

    The first group of methods every rule system implements (the base raises
    :class:`NotImplementedError`). The rest have neutral defaults -- no units of several figures, no
    shapes for a drafted attack, Down Range's hit and kill, the tokens as listed, a status-only edit
    form, nothing to debrief -- so front ends call them on any rule system instead of probing what it
    has; a rule system overrides what it does differently. The ``has_*`` flags say which parts of a
    front end to show at all (a roster's figures column, an Identify button, the turn panel's box).

    >>> class Bare(Ruleset):
    ...     name, title = "bare", "A bare rule system"
    >>> Bare().groups(None), Bare().attack_overlays(None, AttackRequest(1, "rock")), Bare().has_turn_box
    ((), (), False)
    """

    name: str = ""
    title: str = ""
    #: How front ends present it (:class:`FrontEnd`).
    front_end: FrontEnd = PLAIN_FRONT_END
    #: The :data:`POSE_OPTIONS` its :meth:`set_pose` takes.
    pose_options: tuple[str, ...] = ()
    #: Its units may stand on raised ground (:attr:`UnitView.z_in`).
    uses_elevation: bool = False
    #: Its units are several figures, each with its own tag (:meth:`groups`).
    has_groups: bool = False
    #: It has counters the other side sees only as counters until identified (:meth:`identify`).
    has_hidden_units: bool = False
    #: It has a part of its own in the turn panel (:meth:`turn_box`, :meth:`turn_command`).
    has_turn_box: bool = False
    #: It puts emission tokens on the table that the enemy may locate (:meth:`emissions`, :meth:`locators`).
    has_emissions: bool = False

    # -- what every rule system implements -------------------------------------------------------

    def new_game(self, scenario: Mapping[str, Any], *, source: str = "<scenario>",
                 base_dir: str | None = None) -> RulesState:
        """A game state from a scenario dict (the parsed TOML)."""
        raise NotImplementedError

    def load_state(self, data: Mapping[str, Any]) -> RulesState:
        """A game state from its saved JSON data."""
        raise NotImplementedError

    def apply(self, state: Any, action: Any) -> Any:
        """The state after one of the rule system's actions (what ``state.apply(action)`` runs)."""
        raise NotImplementedError

    def units(self, state: Any) -> tuple[UnitView, ...]:
        raise NotImplementedError

    def weapons(self, state: Any, unit_id: int) -> tuple[WeaponView, ...]:
        raise NotImplementedError

    def declarations(self) -> tuple[Declaration, ...]:
        raise NotImplementedError

    def attack_form(self, state: Any, attacker_id: int, weapon: str) -> tuple[Declaration, ...]:
        """What the attack panel asks the players for this attacker and weapon: the declarations a
        form draws ("bool", "choice", "int", "units"), choices and proposals taken from the table
        (the weapon's payloads, who stands within reach to assist). By default every one of
        :meth:`declarations` of those kinds."""
        return tuple(d for d in self.declarations() if d.kind in ("bool", "choice", "int", "units"))

    def set_pose(self, state: Any, unit_id: int, x_in: float, y_in: float, heading_deg: float, *,
                 moved_in: float | None = None, on_table: bool = True) -> Any:
        """The state with a unit's tracked position (movement is accounted)."""
        raise NotImplementedError

    def set_poses(self, state: Any, poses: Sequence["PoseUpdate"]) -> Any:
        """The state with each of ``poses`` set in turn as :meth:`set_pose` sets it (a replay moves every
        unit at every moment it shows: a rule system may set them all at once, to the same state)."""
        for pose in poses:
            state = set_one_pose(self, state, pose)
        return state

    def propose_targets(self, state: Any, attacker_id: int, weapon: str, *,
                        aim_point: tuple[float, float] | None = None,
                        axis_deg: float | None = None) -> tuple[TargetProposal, ...]:
        raise NotImplementedError

    def attack_odds(self, state: Any, request: AttackRequest) -> tuple[TargetOdds, ...]:
        raise NotImplementedError

    def resolve_attack(self, state: Any, request: AttackRequest, dice: DiceSource, *,
                       landing_point: tuple[float, float] | None = None) -> Resolution:
        raise NotImplementedError

    def start_round(self, state: Any, dice: DiceSource) -> Resolution:
        raise NotImplementedError

    def start_turn(self, state: Any, dice: DiceSource) -> Resolution:
        raise NotImplementedError

    def end_turn(self, state: Any) -> Any:
        raise NotImplementedError

    def overlays(self, state: Any, unit_id: int, *, weapon: str | None = None) -> tuple[Overlay, ...]:
        raise NotImplementedError

    def explain(self, event: RulesEvent) -> tuple[str, ...]:
        """Sentences for a logged event (replay and debrief)."""
        raise NotImplementedError

    # -- neutral defaults a rule system overrides -------------------------------------------------

    def groups(self, state: Any) -> tuple[GroupView, ...]:
        """Every unit of several figures, with its figures and whether it holds together (none here)."""
        return ()

    def attack_overlays(self, state: Any, request: AttackRequest) -> tuple[Overlay, ...]:
        """Shapes of a drafted attack, before it is rolled: the line of fire and who is in it, where a
        miss may land (none here)."""
        return ()

    def odds_legend(self, state: Any, request: AttackRequest) -> OddsLegend:
        """What ``attack_odds(state, request)``'s ``p_hit`` and ``p_kill_any`` stand for (here Down
        Range's hit and kill)."""
        return HIT_AND_KILL

    def token_texts(self, state: Any, view: UnitView) -> tuple[str, str]:
        """(the tokens of ``view``'s unit in words, a tooltip saying until when): here the tokens as listed."""
        return ", ".join(view.tokens), ""

    def identify(self, state: Any, unit_id: int) -> Any:
        """The state after the players identify ``unit_id``'s counter (a dummy is removed); only a rule
        system with :attr:`has_hidden_units` has counters to identify."""
        raise IllegalActionError(f"the {self.name} rules have no hidden units to identify")

    def edit_action(self, unit_id: int, changes: Mapping[str, Any]) -> Any:
        """The action that applies ``changes`` (field -> value, as the edit form names them) to one tag's
        unit; None: this rule system takes no hand edits."""
        return None

    def group_edit_action(self, group_name: str, changes: Mapping[str, Any]) -> Any:
        """The action that applies ``changes`` to the unit of several figures named ``group_name``;
        None: this rule system edits no units of several figures as a whole."""
        return None

    def edit_form(self, state: Any, unit_id: int) -> EditForm:
        """The fields a player may edit of ``unit_id`` (and of its unit of several figures), with their
        current values: here its status alone."""
        view = next(v for v in self.units(state) if v.unit_id == unit_id)
        statuses = PLAIN_STATUSES if view.status in PLAIN_STATUSES else (view.status, *PLAIN_STATUSES)
        return EditForm(f"Edit {view.name}", (EditSection("", (
            EditField("status", "Status", "choice", view.status, tuple((s, s) for s in statuses)),)),))

    def form_changes(self, form: EditForm, values: Mapping[str, Any]) -> EditChanges:
        """What ``values`` (field key -> value, as a front end read the form) change: here every field
        whose value is not its starting one, under its own key."""
        unit: dict[str, Any] = {}
        group: dict[str, Any] = {}
        for section in form.sections:
            for f in section.fields:
                if f.key in values and not same_value(f, values[f.key]):
                    (group if section.group else unit)[f.change_name] = values[f.key]
        return EditChanges(unit, group)

    def turn_box(self, state: Any, values: Mapping[str, Any]) -> TurnBox | None:
        """The rule system's own part of the turn panel, with the fields as the players set them
        (``values``, by key; empty the first time); None without one (:attr:`has_turn_box`)."""
        return None

    def turn_command(self, state: Any, button: str, values: Mapping[str, Any]) -> TurnCommand | None:
        """What pressing ``button`` of the turn box does with the fields' ``values`` (None: nothing)."""
        return None

    def actions_for(self, state: Any, unit_id: int) -> tuple[ActionForm, ...]:
        """Every action besides attacks ``unit_id`` may declare now, as forms whose choices the rules
        propose from the table's geometry (none here: the rule system offers attacks and turns only)."""
        return ()

    def action_form(self, state: Any, request: ActionRequest) -> ActionForm:
        """The form ``request`` fills in (refused, naming the actions there are, when the unit has none
        of that name)."""
        forms = self.actions_for(state, request.unit_id)
        for form in forms:
            if form.key == request.action:
                return form
        names = ", ".join(f.key for f in forms) or "none"
        raise IllegalActionError(f"unit {request.unit_id} has no action {request.action!r} now: its actions are {names}")

    def action_odds(self, state: Any, request: ActionRequest) -> tuple[TargetOdds, ...]:
        """The exact odds of a declared action before its roll, one row per unit it may change (the
        patient, each unit in a hazard), ``outcomes`` listing the table's results; () for an action
        without dice."""
        return ()

    def action_legend(self, state: Any, request: ActionRequest) -> OddsLegend:
        """What ``action_odds``' ``p_hit`` and ``p_kill_any`` stand for, in the rules' words."""
        return OddsLegend("succeeds", None, "the roll succeeds", "", shots=False, refused="not allowed")

    def resolve_action(self, state: Any, request: ActionRequest, dice: DiceSource) -> Resolution:
        """Play a declared action with ``dice`` (nothing is rolled for an action without dice)."""
        raise IllegalActionError(f"the {self.name} rules have no action {request.action!r}")

    def action_request(self, action: Any) -> ActionRequest | None:
        """The declaration that plays one of the rule system's own action values (a scripted Signal) through
        :meth:`resolve_action`, so a script takes the path a player does; None: no form offers it."""
        return None

    def action_summaries(self, event: RulesEvent) -> tuple[str, ...]:
        """What a logged action (not an attack) did, in the rules' words, for the debrief and the replay:
        a treatment and whether the patient was saved, a Signal and who heard it, jamming and what it
        cut, a boarding (none here)."""
        return ()

    def engagements(self, event: RulesEvent, game: Any = None) -> tuple[EngagementView, ...]:
        """The attacks ``event`` records, one per target, for the debrief (none here). ``game`` is the game
        the recording's scenario starts (None when it cannot be built): what an event names only by name
        (a unit of several figures) is looked up in it."""
        return ()

    def casualties(self, event: RulesEvent) -> tuple[CasualtyView, ...]:
        """The units a logged event put down or took out, for the debrief (none here)."""
        return ()

    def emissions(self, event: RulesEvent) -> tuple[EmissionView, ...]:
        """The emission tokens a logged event put on the table (none here)."""
        return ()

    def locators(self, game: Any) -> tuple[LocatorView, ...]:
        """The units that could locate emitters (none here)."""
        return ()

    def comms(self, event: RulesEvent) -> tuple[CommsView, ...]:
        """What a logged event sent over the radio, heard or cut (a Signal and who it reached, jamming
        and whose radio it cut), for the debrief's comms lane (none here)."""
        return ()

    def recorded_rolls(self, event: RulesEvent, game: Any = None) -> tuple[RollView, ...]:
        """Every roll of ``event`` in the order it was made, with its odds under ``game``'s options and
        data, computed again (none here: the debrief lists the dice as recorded)."""
        return ()


#: The statuses the plain form offers (a rule system without its own :class:`EditForm`).
PLAIN_STATUSES = ("active", "down", "removed")


def edit_form(ruleset: Ruleset, state: RulesState, view: UnitView) -> EditForm:
    """The hand-edit form of ``view``'s unit (:meth:`Ruleset.edit_form`)."""
    return ruleset.edit_form(state, view.unit_id)


def form_changes(ruleset: Ruleset, form: EditForm, values: Mapping[str, Any]) -> EditChanges:
    """What ``values`` (field key -> value, as a front end read the form) change (:meth:`Ruleset.form_changes`).

    >>> form = EditForm("Edit Ann", (EditSection("", (EditField("status", "Status", "choice", "active"),
    ...                                                EditField("hidden", "Hidden", "bool", False))),))
    >>> form_changes(Ruleset(), form, {"status": "down", "hidden": False})
    EditChanges(unit={'status': 'down'}, group={})
    """
    return ruleset.form_changes(form, values)


#: Options :meth:`Ruleset.set_pose` may take beyond ``moved_in`` and ``on_table``: ``alone`` (move
#: only this tag, not the figures riding on its token) and ``z_in`` (the ground's height under it).
POSE_OPTIONS = ("alone", "z_in")


def pose_options(ruleset: Any) -> frozenset[str]:
    """The :data:`POSE_OPTIONS` ``ruleset.set_pose`` takes (its ``pose_options`` attribute)."""
    return frozenset(getattr(ruleset, "pose_options", ())) & frozenset(POSE_OPTIONS)


@dataclass(frozen=True)
class PoseUpdate:
    """One unit's tracked position for :meth:`Ruleset.set_poses`; ``alone`` and ``z_in`` (the ground's
    height under it) are passed only to a ruleset that takes them (:func:`pose_options`)."""

    unit_id: int
    x_in: float
    y_in: float
    heading_deg: float
    moved_in: float | None = None
    on_table: bool = True
    alone: bool = False
    z_in: float | None = None


def set_one_pose(ruleset: Any, state: Any, pose: PoseUpdate) -> Any:
    """``ruleset.set_pose`` for one :class:`PoseUpdate`, with the options the ruleset takes."""
    kwargs: dict[str, Any] = {"moved_in": pose.moved_in, "on_table": pose.on_table}
    options = pose_options(ruleset)
    if pose.alone and "alone" in options:
        kwargs["alone"] = True
    if "z_in" in options and pose.z_in is not None:
        kwargs["z_in"] = pose.z_in
    return ruleset.set_pose(state, pose.unit_id, pose.x_in, pose.y_in, pose.heading_deg, **kwargs)


def odds_legend(ruleset: Ruleset, state: RulesState, request: AttackRequest) -> OddsLegend:
    """The legend of ``ruleset``'s odds for an attack (:meth:`Ruleset.odds_legend`)."""
    return ruleset.odds_legend(state, request)


#: The rule system of a scenario or recording that names none (they predate the others).
DEFAULT_RULESET = "down-range"


#: The rule systems by name: a factory of a :class:`Ruleset`, or "module:factory" for the built-in ones,
#: imported when first asked for (each imports this module, so this module cannot import them). The one
#: mutable table of the package, changed only through :func:`register_ruleset`, as python-chess keeps
#: its ``VARIANTS``.
_REGISTERED: dict[str, Callable[[], Ruleset] | str] = {
    "down-range": "rules.downrange.ruleset:DownRange",
    "force-on-force": "rules.forceonforce.ruleset:ForceOnForce",
    "generic": "rules.generic.ruleset:GenericMiniatures",
}
#: One instance per name: rulesets hold no game (the state does), and ``state.apply`` asks for its
#: ruleset at every action.
_BUILT: dict[str, Ruleset] = {}


def register_ruleset(name: str, factory: Callable[[], Ruleset] | str) -> None:
    """Make ``factory`` the rule system that scenarios, recordings and ``--ruleset`` name ``name``
    (lower case; a name registered already is replaced). ``factory`` is a callable giving a
    :class:`Ruleset` (usually its class) or "module:factory", imported when first asked for.

    >>> class Bare(Ruleset):
    ...     name, title = "bare", "A bare rule system"
    >>> register_ruleset("bare", Bare)
    >>> get_ruleset("Bare").title
    'A bare rule system'
    >>> unregister_ruleset("bare"); "bare" in available_rulesets()
    False
    """
    key = name.strip().lower()
    if not key:
        raise UnknownNameError("a rule system needs a name to be registered under, e.g. 'down-range'")
    _REGISTERED[key] = factory
    _BUILT.pop(key, None)


def unregister_ruleset(name: str) -> None:
    """Forget the rule system registered as ``name`` (nothing happens if there is none)."""
    key = name.strip().lower()
    _REGISTERED.pop(key, None)
    _BUILT.pop(key, None)


def available_rulesets() -> tuple[str, ...]:
    """The names of the registered rule systems, in the order they were registered."""
    return tuple(_REGISTERED)


def get_ruleset(name: str = DEFAULT_RULESET) -> Ruleset:
    """The rule system registered under ``name`` (case and surrounding spaces do not matter)."""
    key = name.strip().lower() if isinstance(name, str) else ""
    built = _BUILT.get(key)
    if built is not None:
        return built
    factory = _REGISTERED.get(key)
    if factory is None:
        raise UnknownNameError(f"unknown ruleset {name!r}: use one of {', '.join(_REGISTERED)}")
    if isinstance(factory, str):
        module_name, attr = factory.split(":")
        factory = getattr(importlib.import_module(module_name), attr)
    ruleset = factory()
    _BUILT[key] = ruleset
    return ruleset


def ruleset_of(state: Any) -> Ruleset:
    """The rule system a saved or live state belongs to."""
    return get_ruleset(getattr(state, "ruleset_name", None) or DEFAULT_RULESET)


__all__: Sequence[str] = (
    "ActionChoice", "ActionField", "ActionForm", "ActionRequest", "with_defaults", "AttackRequest", "Declaration", "FrontEnd", "PLAIN_FRONT_END", "front_end",
    "TurnBox", "TurnButton", "TurnCommand", "TurnSection", "TurnTable",
    "LandingChoice", "CasualtyView", "DEFAULT_RULESET", "EditChanges", "EditField", "EditForm", "EditSection",
    "PLAIN_STATUSES", "edit_form", "form_changes", "same_value", "RulesState", "last_event", "set_up_words", "EmissionView", "CommsView",
    "EngagementView", "LocatorView", "RollView", "XY", "POSE_OPTIONS", "pose_options", "PoseUpdate", "set_one_pose", "GroupView", "HIT_AND_KILL",
    "OddsLegend", "Overlay", "Resolution", "Ruleset", "TargetOdds", "TargetProposal", "UnitView", "WeaponView",
    "available_rulesets", "get_ruleset", "odds_legend", "register_ruleset", "ruleset_of", "unregister_ruleset",
)
