"""`sandtable resolve`: resolve one attack, or any other action, described in JSON, step by step.

The declaration comes from a file or stdin (``-``) and is played through the game session's own path
(:meth:`appmodel.game_session.GameSession.resolve_attack` and ``resolve_action``: the window's). An
attack's units are described inline, or named by tag id or name in a ``--scenario`` (or a saved
``--state``); any other action names its unit and its fields as the rule system's form does, in a
scenario or saved state (``{"action": "treat", "unit": "Corpsman", "patient": "Mortar gunner",
"dice": [6]}``). Dice are the ones the players rolled (``"dice"`` in the file or ``--dice``), or virtual
dice from ``--seed``. See docs/rules-down-range.md for the format::

    {"attacker": {"name": "Henry", "type": "average combatant"},
     "weapon": "M4/M16",
     "targets": [{"name": "Enemy rifleman", "type": "average combatant", "distance_in": 20}],
     "dice": [5, 4]}

    sandtable resolve attack.json
    echo '{"attacker": 10, "weapon": "M4/M16", "targets": [31]}' | sandtable resolve - --scenario game.toml --seed 3
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from appmodel.errors import UsageError

NAME = "resolve"
HELP = ("Resolve one attack or other action (a treatment, a task roll, a Signal...) described in JSON (file or stdin), "
        "with entered or seeded dice, narrated step by step.")

ATTACK_KEYS = {"attacker", "weapon", "targets", "aim", "mode", "payload", "assistants", "crew_assistants", "reaction",
               "untrained", "axis_deg", "linked", "advantages", "disadvantages", "dice", "landing", "seed",
               "rules", "distance_in"}
TARGET_DECLARATIONS = {"shots", "cover", "concealment", "darkness", "line_of_sight", "spotter", "unaware",
                       "stationary", "head_on", "advantages", "disadvantages"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("attack", nargs="?", default="-",
                        help="JSON file describing the attack or action, or - for stdin")
    parser.add_argument("--scenario", help="scenario TOML whose units the attack names by tag id or name")
    parser.add_argument("--state", help="a saved game state (JSON) instead of a scenario")
    parser.add_argument("--save-state", metavar="FILE", help="write the game state after the attack to FILE")
    parser.add_argument("--dice", help="the dice rolled, in order: e.g. \"6,2 4,1 12 8\" or a JSON list [[6,2],12]")
    parser.add_argument("--seed", type=int, help="roll virtual dice from this seed instead")
    parser.add_argument("--landing", help="where a missed explosive lands, as X,Y in table inches")
    parser.add_argument("--data", action="append", default=[], metavar="FILE", help="an extra data file (TOML)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _read_attack(path: str) -> dict[str, Any]:
    if path == "-":
        text, name = sys.stdin.read(), "stdin"
    else:
        p = Path(path)
        if not p.is_file():
            raise UsageError(f"{path}: no such file; give the attack's JSON file, or - to read stdin")
        try:
            text, name = p.read_text(encoding="utf-8"), path
        except UnicodeDecodeError:
            raise UsageError(f"{path}: not a text file (a binary file?); give the attack as JSON") from None
    try:
        doc = json.loads(text)
    except RecursionError:
        raise UsageError(f"{name}: nested too deeply to be an attack; give a JSON object with \"attacker\", \"weapon\" and \"targets\"") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); fix the file") from None
    if not isinstance(doc, dict):
        raise UsageError(f"{name}: the attack must be a JSON object with \"attacker\", \"weapon\" and \"targets\"")
    if "action" in doc:
        if "unit" not in doc:
            raise UsageError(f"{name}: missing 'unit' (the tag id or name of the unit acting)")
        return doc
    unknown = sorted(set(doc) - ATTACK_KEYS)
    if unknown:
        raise UsageError(f"{name}: unknown key {unknown[0]!r}; the keys are {', '.join(sorted(ATTACK_KEYS))}")
    for key in ("attacker", "weapon"):
        if key not in doc:
            raise UsageError(f"{name}: missing {key!r}")
    return doc


def _parse_dice(text: str) -> list[Any]:
    text = text.strip()
    if text.startswith("["):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--dice {text!r}: not a JSON list ({exc.msg})") from None
        if not isinstance(value, list):
            raise UsageError(f"--dice {text!r}: give a list")
        return value
    out: list[Any] = []
    for token in text.replace(";", " ").split():
        try:
            faces = [int(v) for v in token.split(",") if v]
        except ValueError:
            raise UsageError(f"--dice: {token!r} is not a number or a comma-separated pair like 6,2") from None
        out.append(faces[0] if len(faces) == 1 else faces)
    return out


def _point(value: Any, what: str) -> tuple[float, float]:
    if isinstance(value, str):
        value = value.split(",")
    if isinstance(value, dict):
        value = [value.get("x_in"), value.get("y_in")]
    try:
        x, y = (float(v) for v in value)
    except (TypeError, ValueError):
        raise UsageError(f"{what} {value!r}: give a point as [x, y] in table inches") from None
    return (x, y)


def _inline_state(doc: dict[str, Any], data_files: list[str]) -> tuple[Any, dict[str, Any]]:
    """Build a small game from units described inline; returns the state and the attack with ids."""
    from rules.downrange.catalog import load_catalog
    from rules.downrange.scenario import game_from_scenario

    catalog = load_catalog(data_files)
    weapon = catalog.weapon(str(doc["weapon"]))
    units: list[dict[str, Any]] = []

    def unit(spec: Any, tag: int, side: str, role: str) -> dict[str, Any]:
        if not isinstance(spec, dict):
            raise UsageError(f"{role} {spec!r}: describe the unit as an object like "
                             "{\"name\": \"Ann\", \"type\": \"average combatant\"} (or give --scenario to name units)")
        u = {k: v for k, v in spec.items() if k not in TARGET_DECLARATIONS | {"distance_in", "x_in", "y_in"}}
        u.setdefault("name", f"{role} {tag}")
        u.setdefault("type", "average combatant")
        u.setdefault("side", side)
        u["tag_id"] = tag
        return u

    attacker = unit(doc["attacker"], 10, "Attacker", "attacker")
    attacker.setdefault("weapons", [])
    if weapon.name not in [catalog.weapon(w).name for w in attacker["weapons"]]:
        attacker["weapons"] = list(attacker["weapons"]) + [weapon.name]
    ax, ay = float(doc["attacker"].get("x_in", 0.0)), float(doc["attacker"].get("y_in", 0.0))
    attacker.update(x_in=ax, y_in=ay, heading_deg=float(doc["attacker"].get("heading_deg", 0.0)))
    units.append(attacker)
    targets = doc.get("targets", [])
    if not isinstance(targets, list):
        raise UsageError("\"targets\" must be a list of units")
    aim = _point(doc["aim"], "\"aim\"") if "aim" in doc else None
    out_targets = []
    for i, t in enumerate(targets):
        u = unit(t, 20 + i, "Defender", "target")
        if "x_in" in t and "y_in" in t:
            u.update(x_in=float(t["x_in"]), y_in=float(t["y_in"]))
        elif weapon.is_explosive and aim is not None:
            u.update(x_in=aim[0], y_in=aim[1] + 1.2 * i)
        else:
            distance = t.get("distance_in", min(weapon.range_in, 12.0) if weapon.range_in != float("inf") else 12.0)
            if isinstance(distance, bool) or not isinstance(distance, (int, float)) or distance < 0:
                raise UsageError(f"target {i + 1}: distance_in {distance!r} must be a distance in inches (0 or more)")
            # Targets stand on a line in front of the attacker, base to base at their distance.
            u.update(x_in=ax + float(distance) + 1.0 + 0.05 * i, y_in=ay + 0.6 * i * (1 if i % 2 else -1))
        u.setdefault("heading_deg", 180.0)
        units.append(u)
        # Inline units were never tracked: no "stationary target" Advantage unless declared.
        declared = {"stationary": "no", **{k: v for k, v in t.items() if k in TARGET_DECLARATIONS}}
        out_targets.append({"unit": u["tag_id"], **declared})
    assistants = []
    raw_assistants = doc.get("assistants", [])
    if isinstance(raw_assistants, int) and not isinstance(raw_assistants, bool):
        if raw_assistants < 0:
            raise UsageError(f"\"assistants\": {raw_assistants}: the number of assisting units cannot be negative")
        raw_assistants = [{} for _ in range(raw_assistants)]
    for i, a in enumerate(raw_assistants):
        u = unit(a, 30 + i, attacker["side"], "assistant")
        u.update(x_in=ax - 1.2 * (i + 1), y_in=ay)
        units.append(u)
        assistants.append(u["tag_id"])
    sides = [{"name": n} for n in dict.fromkeys(u["side"] for u in units)]
    scenario = {"format": "sandtable-scenario", "version": 1, "sides": sides, "units": units,
                "rules": dict(doc.get("rules", {}), data=data_files)}
    state = game_from_scenario(scenario, source="the attack's inline units")
    attack = dict(doc, attacker=10, targets=out_targets, assistants=assistants)
    return state, attack


def _draft(state: Any, attack: dict[str, Any]) -> Any:
    """The attack panel's draft of a JSON attack, units named by tag id or name."""
    from appmodel.session.attacks import AttackDraft

    attacker = state.unit(attack["attacker"]).unit_id
    ids, decls = [], {}
    for t in attack.get("targets", []):
        if isinstance(t, (int, str)):
            uid, declared = state.unit(t).unit_id, {}
        elif isinstance(t, dict) and "unit" in t:
            uid = state.unit(t["unit"]).unit_id
            declared = {k: v for k, v in t.items() if k != "unit"}
            unknown = set(declared) - TARGET_DECLARATIONS
            if unknown:
                raise UsageError(f"target {t['unit']!r}: unknown key {sorted(unknown)[0]!r}; use "
                                 f"{', '.join(sorted(TARGET_DECLARATIONS))}")
        else:
            raise UsageError(f"target {t!r}: name a unit (tag id or name) or give {{\"unit\": ..., declarations}}")
        if "spotter" in declared and declared["spotter"] is not None:
            declared["spotter"] = state.unit(declared["spotter"]).unit_id
        ids.append(uid)
        decls[uid] = declared
    keys = ("mode", "payload", "crew_assistants", "reaction", "untrained", "axis_deg", "linked", "advantages",
            "disadvantages", "distance_in")
    declarations = {k: attack[k] for k in keys if k in attack}
    declarations["assistants"] = [state.unit(a).unit_id for a in attack.get("assistants", [])]
    aim = _point(attack["aim"], "\"aim\"") if "aim" in attack else None
    return AttackDraft(attacker, str(attack["weapon"]), tuple(ids), declarations, decls, aim)


def _unit_ref(session: Any, value: Any) -> int:
    """A unit named by tag id or name, as the session's units list them."""
    for view in session.units():
        if value == view.unit_id or (isinstance(value, str) and value.strip().lower() == view.name.lower()):
            return int(view.unit_id)
    if isinstance(value, str) and value.strip().isdigit():
        return _unit_ref(session, int(value))
    names = ", ".join(f"{v.unit_id} {v.name}" for v in session.units())
    raise UsageError(f"no unit {value!r}: name one by tag id or name ({names})")


def _action_request(session: Any, doc: dict[str, Any]) -> Any:
    """The declaration of a JSON action: its fields as the ruleset's form names them, units by tag id or name."""
    from rules.ruleset import ActionRequest

    uid = _unit_ref(session, doc["unit"])
    key = str(doc["action"])
    forms = session.actions_for(uid)
    form = next((f for f in forms if f.key == key), None)
    if form is None:
        raise UsageError(f"{session.unit(uid).name} has no action {key!r} now; its actions are "
                         f"{', '.join(repr(f.key) for f in forms) or 'none'}")
    values: dict[str, Any] = {}
    for name, value in doc.items():
        if name in ("action", "unit", "dice", "seed"):
            continue
        try:
            f = form.field(name)
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
        if f.kind == "unit" and value is not None:
            value = _unit_ref(session, value)
        elif f.kind == "units":
            value = tuple(_unit_ref(session, v) for v in (value if isinstance(value, list) else [value]))
        elif f.kind == "point":
            value = _point(value, f"\"{name}\"")
        values[name] = value
    return ActionRequest(key, uid, values)


def _split(session: Any, entries: list[Any]) -> tuple[list[Any], list[Any]]:
    """The entered dice of an attack split into those rolled now and those rolled once a missed
    explosive has landed (the rules ask for no more until the landing point is chosen)."""
    for k in range(len(entries) + 1):
        if session.dice_needed(entries[:k]) is None:
            return entries[:k], entries[k:]
    return entries, []


def _session(args: argparse.Namespace, doc: dict[str, Any], dice: Any) -> tuple[Any, dict[str, Any]]:
    from appmodel.game_session import GameSession
    from rules.ruleset import DEFAULT_RULESET, get_ruleset

    if args.scenario and args.state:
        raise UsageError("give --scenario or --state, not both")
    if args.state:
        p = Path(args.state)
        if not p.is_file():
            raise UsageError(f"{args.state}: no such saved state")
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise UsageError(f"{args.state}: not a saved game state (JSON); save one with --save-state") from None
        ruleset = get_ruleset(str(data.get("ruleset") or DEFAULT_RULESET) if isinstance(data, dict) else DEFAULT_RULESET)
        return GameSession(ruleset, ruleset.load_state(data), dice=dice), doc
    if args.scenario:
        from appmodel.scenarios.check import check_scenario

        check_scenario(args.scenario)
        session = GameSession.from_scenario_file(args.scenario)
        session.dice = dice
        return session, doc
    if "action" in doc:
        raise UsageError("an action names units of a game: give --scenario or --state")
    state, attack = _inline_state(doc, args.data)
    return GameSession(get_ruleset(DEFAULT_RULESET), state, dice=dice), attack


def _odds_lines(odds: Any, legend: Any) -> list[str]:
    out = []
    for o in odds:
        if not o.allowed:
            out.append(f"  {o.name}: not allowed ({o.reason})")
            continue
        words = ", ".join(f"p({word}) {float(p):.3f}" for word, p in legend.values(o))
        if legend.shots and o.shots > 1:
            words += f", with {o.shots} attacks {float(o.p_kill_any):.3f}"
        if o.outcomes:
            words += "; " + ", ".join(f"{label} {float(p):.3f}" for label, p in o.outcomes)
        out.append(f"  {o.name}: {words}")
    return out


def run(args: argparse.Namespace) -> int:
    from rules.dice import SeededDice
    from rules.ruleset import odds_legend
    from rules.serialize import to_jsonable

    doc = _read_attack(args.attack)
    entered = None
    if args.dice is not None:
        entered = _parse_dice(args.dice)
    elif "dice" in doc:
        if not isinstance(doc["dice"], list):
            raise UsageError("\"dice\" must be a list such as [[6, 2], 12, 8]")
        entered = doc["dice"]
    seed = args.seed if args.seed is not None else doc.get("seed", random.SystemRandom().randrange(1, 10**6))
    how = "entered dice" if entered is not None else f"virtual dice, seed {seed}"
    session, attack = _session(args, doc, SeededDice(int(seed)))
    pending = None
    if "action" in doc:
        request = _action_request(session, doc)
        odds = session.action_odds(request)
        legend = session.ruleset.action_legend(session.state, request)
        res = session.resolve_action(request, entered)
        what: dict[str, Any] = {"action": request.to_json()}
    else:
        session.set_attack(_draft(session.state, attack))
        request = session.draft.request()
        odds = session.ruleset.attack_odds(session.state, request)
        legend = odds_legend(session.ruleset, session.state, request)
        landing = _point(args.landing, "--landing") if args.landing else (
            _point(doc["landing"], "\"landing\"") if "landing" in doc else None)
        now, later = _split(session, list(entered)) if entered is not None and landing is not None else (entered, None)
        res = session.resolve_attack(now)
        if session.pending is not None:
            miss = session.pending.miss
            if landing is not None:
                res = session.choose_landing(landing, later)
            else:
                pending = (f"{miss.chooser} must choose where it lands: a point within {miss.miss_radius_in:g}\" of "
                           f"({miss.intended_in[0]:.1f}, {miss.intended_in[1]:.1f}); run again with --landing X,Y "
                           "and the same dice")
        elif later:
            raise UsageError(f"{len(later)} dice entered beyond what the attack asked for ({later}): "
                             "give only the dice the rules ask for")
        what = {}
    sentences = [line for line in res.sentences if line]
    if args.save_state:
        Path(args.save_state).write_text(json.dumps(session.state.to_json()), encoding="utf-8")
    if args.json:
        print(json.dumps({**what, "result": to_jsonable(res.result), "sentences": sentences, "pending": pending,
                          "odds": [o.as_floats() for o in odds], "dice": how}))
        return 0
    print(f"Odds ({how}):" if odds else f"No dice to roll ({how} unused)." if "action" in doc else f"Odds ({how}):")
    for line in _odds_lines(odds, legend):
        print(line)
    for line in sentences:
        print(line)
    if pending:
        print(f"Pending: {pending}.")
    return 0
