"""The ruleset-neutral interface the GUI and the recorder use, and the registry of rule systems.

A rule system (Down Range today; Force on Force and a generic ruleset later) implements
:class:`Ruleset`. Callers never import a rule system directly: they ask :func:`get_ruleset` for it by
the name a scenario gives (``ruleset = "down-range"``) and work with the neutral types below.

The game state a ruleset returns is its own frozen dataclass; front ends read of it only what
:class:`RulesState` lists (round, order, whose turn, sides, the log) and everything else through the
ruleset's views (:class:`UnitView`, :class:`GroupView`, :class:`WeaponView`...). Positions come in through
:meth:`Ruleset.set_pose` (the tracker never imports rules; the GUI composes them).

Rule systems differ in what a "unit" is and in what an attack comes to, so a few things are optional
(fields with defaults, and methods a ruleset may have; check with ``isinstance(ruleset, GroupedRuleset)``
or ``isinstance(ruleset, DraftOverlays)``):

* **Units of several figures** (Force on Force fireteams): every figure has its own tag and its own
  :class:`UnitView` (``group`` names its unit); :meth:`GroupedRuleset.groups` lists the units as
  :class:`GroupView` (members, cohesion, rough centre). Attack requests, proposals and odds name a unit
  by the tag id of any of its figures; proposals and odds carry the unit's figures in ``members``.
* **Procedures that are not hit-and-damage**: :class:`TargetOdds` keeps ``p_hit``/``p_kill`` filled
  with the ruleset's closest meaning (its docs say which) and lists its own exact outcomes in
  ``outcomes`` (label, probability), which a panel shows as they are.
* **Options of the pose call**: a ruleset lists in its ``pose_options`` attribute the keywords of
  :data:`POSE_OPTIONS` its :meth:`Ruleset.set_pose` takes: ``z_in`` (elevation: the height of the
  ground under the figure, table inches, given back in :attr:`UnitView.z_in` so renderers draw the
  figure's own overlays at that height; such a ruleset also has ``uses_elevation``) and ``alone``.
* **Hand edits**: :meth:`HandEditForms.edit_form` describes the form (:class:`EditForm`: sections of
  typed fields, :class:`EditField`, with the unit's values), :func:`form_changes` reads it back (a ruleset
  whose edits take values built from several fields says how: :class:`ComposedEdits`), and
  :meth:`HandEdits.edit_action` and :meth:`GroupHandEdits.group_edit_action` give the action.
* **The turn panel's own part**: :meth:`TurnBoxes.turn_box` describes it (:class:`TurnBox`: text,
  tables, fields and buttons), :meth:`TurnBoxes.turn_command` says what a button does.
* **The debrief**: :class:`DebriefedEvents` (engagements, casualties), :class:`DebriefedEmissions`
  (emission tokens, who could locate them), :class:`RecordedRolls` (every roll's odds, again).

The forms and boxes are defined in :mod:`rules.front_end_forms` and the debrief's views in
:mod:`rules.debrief_views`; this module re-exports them, so callers import everything from here.
* **Presentation**: the ruleset's ``front_end`` (:class:`FrontEnd`, read with :func:`front_end`) says
  which attack panel front ends show, the words of its buttons, the overlays it offers, and how the
  debrief lists engagements.
* **Shapes of a drafted attack** (the line-of-fire corridor with who is in it, where a miss may
  scatter): :meth:`DraftOverlays.attack_overlays`.
* **What the odds mean**: :meth:`DescribedOdds.odds_legend` names ``p_hit`` and ``p_kill_any`` for an
  attack (Force on Force: "wins", the test; the generic rules: "caught" and "destroyed"), says whether
  targets take a number of shots and how many targets one attack takes; :func:`odds_legend` gives
  Down Range's "hit" and "kill" for a ruleset without it. Panels and the table's odds labels use it.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from rules.debrief_views import (XY, CasualtyView, DebriefedEmissions, DebriefedEvents, EmissionView, EngagementView,
                                 LocatorView, RecordedRolls, RollView)
from rules.front_end_forms import (EditChanges, EditField, EditForm, EditSection, TurnBox, TurnButton, TurnCommand,
                                   TurnSection, TurnTable, same_value)
from rules.dice import DiceSource
from rules.errors import UnknownNameError
from rules.events import RulesEvent
from rules.geometry import Footprint, Shape

#: Registered rule systems: name -> "module:factory". Add a line to register another one.
RULESETS: Mapping[str, str] = {
    "down-range": "rules.downrange.ruleset:DownRange",
    "force-on-force": "rules.forceonforce.ruleset:ForceOnForce",
    "generic": "rules.generic.ruleset:GenericMiniatures",
}


@runtime_checkable
class RulesState(Protocol):
    """What a front end may read of any rule system's game state, whatever else the state holds.

    Every rule system's state is its own frozen dataclass mixing in
    :class:`rules.ruleset_state.RulesetState`, which has all of these; the rest of a state (units,
    tokens, the rule system's own records) front ends read through the :class:`Ruleset`'s views
    (:class:`UnitView`, :class:`GroupView`, :class:`WeaponView`...), never field by field.

    ``round``: the round being played (0: none started yet); ``order``: the sides' order this round
    (empty until it is decided); ``active_side``: whose turn it is (None between turns); ``sides``:
    the sides, each with its ``name``; ``events``: the game's log (:class:`RulesEvent`, the last
    initiative among them, kind "initiative"); ``ruleset_name``: the registry's name of its rule system.
    """

    ruleset_name: str

    @property
    def round(self) -> int: ...

    @property
    def order(self) -> tuple[str, ...]: ...

    @property
    def active_side(self) -> str | None: ...

    @property
    def sides(self) -> tuple[Any, ...]: ...

    @property
    def events(self) -> tuple[RulesEvent, ...]: ...

    def apply(self, action: Any) -> Any:
        """The state after one of its rule system's actions."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The state as saved (JSON data with its format, version and ruleset)."""
        ...


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
    #: What the players know of a counter the rules may keep anonymous (:class:`Identifies`): "hidden:
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

    ``scope`` is "attack" (about the attacker) or "target" (per target); ``kind`` is "bool", "choice"
    or "int"; the GUI passes the values back under ``key``.
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

    ``attack_panel``: "declarations" (a panel built from :meth:`Ruleset.declarations`, one figure per
    target) or "shots and aim" (shots per target, an aim point, a blast: Down Range's panel).
    ``dice_hint``: what to type in the players' dice field. ``round_button``: the words of the button
    that opens a round. ``initiative_rolls``: the turn panel lists the last initiative roll;
    ``ready``: (the words of a turn-panel row, a token) -- the row lists the units holding the token
    (Down Range: "Reactions ready", "reaction ready"). A rule system with more to show has a box of its
    own (:class:`TurnBoxes`). ``edit_button``: the words of the roster's hand-edit button (the form it opens is the
    rule system's :class:`EditForm`). ``engagement_table``: the debrief's
    engagements as "shots" (hits of shots, p(hit), p(kill) per target) or "procedure" (the procedure's
    own outcomes). ``measured``: how the rules measure an attack's distance ("base to base", "centre
    to centre"). ``outcomes_always``: outcomes the debrief's map legend lists even when no attack came
    to them ("killed", "hit, no kill", "miss", "suppressed"). ``overlays``: the overlay toggles worth
    offering for the shapes it produces, beyond those every game has (bases, names, the tape, templates,
    lines of sight, odds): "range", "bands", "fan", "movement", "blast", "scatter", "cohesion",
    "line_of_fire", "hot_spots", "command", "automation", "voice", "jamming", "emissions", "areas";
    None offers every one.

    >>> front_end(object()).attack_panel, front_end(object()).edit_button
    ('declarations', 'Edit by hand…')
    """

    attack_panel: str = "declarations"
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
    shape: Shape
    label: str
    side: str | None = None
    unit_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class LandingChoice:
    """A missed explosive waiting for a player to say where it lands: it was aimed at
    (``intended_x_in``, ``intended_y_in``) and lands within ``radius_in`` of it, where ``chooser``
    (the attacker's opponent, in the rules' words) puts it."""

    intended_x_in: float
    intended_y_in: float
    radius_in: float
    chooser: str


@dataclass(frozen=True)
class Resolution:
    """What an attack came to: the result data, the sentences, the new state, and whether a player
    must still choose something (``pending`` says what; ``landing``: where a missed explosive lands,
    to be resolved again with that ``landing_point``)."""

    result: Any
    sentences: tuple[str, ...]
    state: RulesState
    pending: str | None = None
    landing: LandingChoice | None = None


@runtime_checkable
class Ruleset(Protocol):
    """A rule system, as the GUI, tracker glue and recorder see it."""

    name: str
    title: str

    def new_game(self, scenario: Mapping[str, Any], *, source: str = "<scenario>",
                 base_dir: str | None = None) -> RulesState:
        """A game state from a scenario dict (the parsed TOML)."""
        ...

    def load_state(self, data: Mapping[str, Any]) -> RulesState:
        """A game state from its saved JSON data."""
        ...

    def apply(self, state: RulesState, action: Any) -> RulesState:
        """The state after one of the rule system's actions (``state.apply(action)``)."""
        ...

    def units(self, state: RulesState) -> tuple[UnitView, ...]:
        ...

    def weapons(self, state: RulesState, unit_id: int) -> tuple[WeaponView, ...]:
        ...

    def declarations(self) -> tuple[Declaration, ...]:
        ...

    def set_pose(self, state: RulesState, unit_id: int, x_in: float, y_in: float, heading_deg: float, *,
                 moved_in: float | None = None, on_table: bool = True) -> RulesState:
        """The state with a unit's tracked position (movement is accounted)."""
        ...

    def propose_targets(self, state: RulesState, attacker_id: int, weapon: str, *,
                        aim_point: tuple[float, float] | None = None,
                        axis_deg: float | None = None) -> tuple[TargetProposal, ...]:
        ...

    def attack_odds(self, state: RulesState, request: AttackRequest) -> tuple[TargetOdds, ...]:
        ...

    def resolve_attack(self, state: RulesState, request: AttackRequest, dice: DiceSource, *,
                       landing_point: tuple[float, float] | None = None) -> Resolution:
        ...

    def start_round(self, state: RulesState, dice: DiceSource) -> Resolution:
        ...

    def start_turn(self, state: RulesState, dice: DiceSource) -> Resolution:
        ...

    def end_turn(self, state: RulesState) -> RulesState:
        ...

    def overlays(self, state: RulesState, unit_id: int, *, weapon: str | None = None) -> tuple[Overlay, ...]:
        ...

    def explain(self, event: RulesEvent) -> tuple[str, ...]:
        """Sentences for a logged event (replay and debrief)."""
        ...


@runtime_checkable
class GroupedRuleset(Protocol):
    """A rule system whose units are several figures, each with its own tag (Force on Force)."""

    def groups(self, state: RulesState) -> tuple[GroupView, ...]:
        """Every multi-figure unit, with its figures and whether it holds together."""
        ...


@runtime_checkable
class DraftOverlays(Protocol):
    """A rule system that draws shapes for an attack being set up (before it is rolled)."""

    def attack_overlays(self, state: RulesState, request: AttackRequest) -> tuple[Overlay, ...]:
        """Shapes of the drafted attack: the line of fire and who is in it, where a miss may land..."""
        ...


@runtime_checkable
class DescribedOdds(Protocol):
    """A rule system whose odds are not Down Range's hit and kill says what they mean."""

    def odds_legend(self, state: RulesState, request: AttackRequest) -> OddsLegend:
        """What ``attack_odds(state, request)``'s ``p_hit`` and ``p_kill_any`` stand for."""
        ...


@runtime_checkable
class TokenWords(Protocol):
    """A rule system whose tokens say more than their names (Down Range: who suppresses a unit, why
    it emits), for the roster's Tokens cell."""

    def token_texts(self, state: RulesState, view: UnitView) -> tuple[str, str]:
        """(the tokens of ``view``'s unit in words, a tooltip saying until when)."""
        ...


@runtime_checkable
class Identifies(Protocol):
    """A rule system with counters the other side sees only as counters until the players identify them
    (the generic rules' hidden units and dummies): the roster shows :attr:`UnitView.identity` and an
    Identify button."""

    def identify(self, state: RulesState, unit_id: int) -> RulesState:
        """The state after the players identify ``unit_id``'s counter (a dummy is removed)."""
        ...


@runtime_checkable
class HandEdits(Protocol):
    """A rule system whose players may edit by hand what the camera cannot see (tokens, status...)."""

    def edit_action(self, unit_id: int, changes: Mapping[str, Any]) -> Any:
        """The action that applies ``changes`` (field -> value, as the ruleset's edit form names them)
        to one tag's unit; the rules refuse a field or value they do not take, naming it."""
        ...


@runtime_checkable
class HandEditForms(Protocol):
    """A rule system that describes its hand-edit form as data (:class:`EditForm`); without
    :meth:`form_changes`, every field whose value changed is a change under its own key."""

    def edit_form(self, state: RulesState, unit_id: int) -> EditForm:
        """The fields a player may edit of ``unit_id`` (and of its unit of several figures), with their
        current values."""
        ...


@runtime_checkable
class ComposedEdits(Protocol):
    """A rule system whose edit takes values built from several fields (a token with a purpose and an
    end), so it says itself what a filled-in form changes."""

    def form_changes(self, form: EditForm, values: Mapping[str, Any]) -> EditChanges:
        ...


@runtime_checkable
class TurnBoxes(Protocol):
    """A rule system with a part of its own in the turn panel, below the round, the order and the
    players' dice: Force on Force's initiative test and a force's procedures, the solo tables' decisions."""

    def turn_box(self, state: RulesState, values: Mapping[str, Any]) -> TurnBox:
        """The box for ``state``, with the fields as the players set them (``values``, by key; empty the
        first time): previews such as a test's odds follow what is chosen."""
        ...

    def turn_command(self, state: RulesState, button: str, values: Mapping[str, Any]) -> TurnCommand | None:
        """What pressing ``button`` does with the fields' ``values`` (None: nothing, with what is chosen);
        what was typed wrong raises the rules' error, naming it."""
        ...


#: The statuses the plain form offers (a rule system without its own :class:`EditForm`).
PLAIN_STATUSES = ("active", "down", "removed")


def edit_form(ruleset: Any, state: RulesState, view: UnitView) -> EditForm:
    """The hand-edit form of ``view``'s unit: the rule system's own, or its status alone."""
    if isinstance(ruleset, HandEditForms):
        return ruleset.edit_form(state, view.unit_id)
    statuses = PLAIN_STATUSES if view.status in PLAIN_STATUSES else (view.status, *PLAIN_STATUSES)
    return EditForm(f"Edit {view.name}", (EditSection("", (
        EditField("status", "Status", "choice", view.status, tuple((s, s) for s in statuses)),)),))


def form_changes(ruleset: Any, form: EditForm, values: Mapping[str, Any]) -> EditChanges:
    """What ``values`` (field key -> value, as a front end read the form) change: the rule system's
    reading (:class:`ComposedEdits`) or every field whose value is not its starting one.

    >>> form = EditForm("Edit Ann", (EditSection("", (EditField("status", "Status", "choice", "active"),
    ...                                                EditField("hidden", "Hidden", "bool", False))),))
    >>> form_changes(object(), form, {"status": "down", "hidden": False})
    EditChanges(unit={'status': 'down'}, group={})
    """
    if isinstance(ruleset, ComposedEdits):
        return ruleset.form_changes(form, values)
    unit: dict[str, Any] = {}
    group: dict[str, Any] = {}
    for section in form.sections:
        for f in section.fields:
            if f.key in values and not same_value(f, values[f.key]):
                (group if section.group else unit)[f.change_name] = values[f.key]
    return EditChanges(unit, group)


@runtime_checkable
class GroupHandEdits(Protocol):
    """A rule system whose units of several figures are edited by hand as a whole (Force on Force)."""

    def group_edit_action(self, group_name: str, changes: Mapping[str, Any]) -> Any:
        """The action that applies ``changes`` to the unit of several figures named ``group_name``."""
        ...


#: Options :meth:`Ruleset.set_pose` may take beyond ``moved_in`` and ``on_table``: ``alone`` (move
#: only this tag, not the figures riding on its token) and ``z_in`` (the ground's height under it).
POSE_OPTIONS = ("alone", "z_in")


def pose_options(ruleset: Any) -> frozenset[str]:
    """The :data:`POSE_OPTIONS` ``ruleset.set_pose`` takes (its ``pose_options`` attribute)."""
    return frozenset(getattr(ruleset, "pose_options", ())) & frozenset(POSE_OPTIONS)


def odds_legend(ruleset: Any, state: RulesState, request: AttackRequest) -> OddsLegend:
    """The legend of ``ruleset``'s odds for an attack: its own, or Down Range's hit and kill."""
    if isinstance(ruleset, DescribedOdds):
        return ruleset.odds_legend(state, request)
    return HIT_AND_KILL


#: The rule system of a scenario or recording that names none (they predate the others).
DEFAULT_RULESET = "down-range"


def available_rulesets() -> tuple[str, ...]:
    return tuple(RULESETS)


def get_ruleset(name: str = "down-range") -> Ruleset:
    """The rule system registered under ``name``."""
    target = RULESETS.get(name.strip().lower()) if isinstance(name, str) else None
    if target is None:
        raise UnknownNameError(f"unknown ruleset {name!r}: use one of {', '.join(RULESETS)}")
    module_name, attr = target.split(":")
    factory = getattr(importlib.import_module(module_name), attr)
    ruleset: Ruleset = factory()
    return ruleset


def ruleset_of(state: Any) -> Ruleset:
    """The rule system a saved or live state belongs to."""
    name = getattr(state, "ruleset_name", None) or "down-range"
    return get_ruleset(name)


__all__: Sequence[str] = (
    "AttackRequest", "Declaration", "DescribedOdds", "DraftOverlays", "FrontEnd", "PLAIN_FRONT_END", "front_end",
    "TurnBox", "TurnBoxes", "TurnButton", "TurnCommand", "TurnSection", "TurnTable",
    "LandingChoice", "CasualtyView", "ComposedEdits", "DEFAULT_RULESET", "EditChanges", "EditField", "EditForm", "EditSection",
    "HandEditForms", "PLAIN_STATUSES", "edit_form", "form_changes", "same_value", "Identifies", "RulesState", "last_event", "DebriefedEmissions", "DebriefedEvents", "EmissionView", "EngagementView",
    "LocatorView", "RecordedRolls", "RollView", "XY", "GroupHandEdits", "HandEdits", "TokenWords", "POSE_OPTIONS", "pose_options", "GroupView", "GroupedRuleset", "HIT_AND_KILL",
    "OddsLegend", "Overlay", "Resolution", "Ruleset", "TargetOdds", "TargetProposal", "UnitView", "WeaponView",
    "available_rulesets", "get_ruleset", "odds_legend", "ruleset_of", "RULESETS",
)
