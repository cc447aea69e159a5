"""`sandtable odds`: exact Down Range odds for one attack, from numbers or from the data files.

    sandtable odds --skill d6 --difficulty 3 --damage 1d6 --defense 4 --json
    sandtable odds --weapon "M4/M16" --target "average combatant" --body-armor
    sandtable odds --weapon M240 --assist 1 --target "average combatant" --shots 4
    sandtable odds --list weapons
    sandtable odds --ruleset force-on-force --die d8 --against d6
    sandtable odds --ruleset force-on-force --initiative 8d8 11d6 --previous first
    sandtable odds --ruleset generic --delivery rifle --distance 10 --damage 1 --defense 0
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from appmodel.errors import UsageError
from rules.ruleset import DEFAULT_RULESET, available_rulesets

NAME = "odds"
HELP = "Exact odds of an attack or test (Down Range, Force on Force, generic rules), by enumeration, not sampling."

#: The rule systems this command has odds tables for (the rest of the registry's have none yet).
CALCULATED = ("down-range", "force-on-force", "generic")

LISTS = ("weapons", "units", "vehicles", "equipment", "payloads", "hazards", "variants", "records", "deliveries")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--skill", help="attacker's Skill die: d4, d6, d8 or d10 (default: the --attacker type's, d6)")
    parser.add_argument("--difficulty", type=int, help="Difficulty to meet or beat (default: the --weapon's)")
    parser.add_argument("--damage", help="Damage dice, e.g. 1d6, 2d10+3 (default: the --weapon's)")
    parser.add_argument("--defense", help="target's Defense: a number or dice such as 2d6 (default: the --target's)")
    parser.add_argument("--weapon", help="a weapon from the data files, e.g. \"M4/M16\"")
    parser.add_argument("--target", help="a unit type or vehicle from the data files, e.g. \"average combatant\"")
    parser.add_argument("--attacker", help="the attacker's unit type (its Skill die), default average combatant")
    parser.add_argument("--body-armor", action="store_true", help="the target wears body armor (+1 Defense)")
    parser.add_argument("--advantage", action="count", default=0,
                        help="one source of Advantage (repeat for several; they never stack)")
    parser.add_argument("--disadvantage", action="count", default=0,
                        help="one source of Disadvantage (repeat for several; any of each cancel completely)")
    parser.add_argument("--assist", type=int, default=0, help="assisting units, +1 each (limited per weapon)")
    parser.add_argument("--shots", type=int, default=1, help="attacks on this target (a Fan's shots, linked weapons)")
    parser.add_argument("--auto-failure", choices=("kept die", "both dice"), default="kept die",
                        help="with Advantage/Disadvantage, judge the automatic failure on the kept die (default) or on both")
    parser.add_argument("--data", action="append", default=[], metavar="FILE", help="an extra data file (TOML)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME", help="a data variant, see --list variants")
    parser.add_argument("--list", choices=LISTS, help="list the names in the data files and exit")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    other = parser.add_argument_group("other rule systems (--ruleset force-on-force | generic)")
    other.add_argument("--ruleset", default=DEFAULT_RULESET, choices=available_rulesets(),
                       help=f"the rule system (default {DEFAULT_RULESET}); odds are worked out for "
                            f"{', '.join(CALCULATED)}")
    other.add_argument("--die", help="Force on Force: the die of the test, e.g. d8 (its Troop Quality or Morale)")
    other.add_argument("--shift", type=int, default=0, help="Force on Force: die shifts (+1 up, -1 down)")
    other.add_argument("--modifier", type=int, default=0, help="Force on Force: added to the roll")
    other.add_argument("--against", help="Force on Force: the opponent's die for an opposed test")
    other.add_argument("--against-shift", type=int, default=0)
    other.add_argument("--against-modifier", type=int, default=0)
    other.add_argument("--initiative", nargs=2, metavar="NdS", help="Force on Force: both forces' initiative dice")
    other.add_argument("--previous", choices=("first", "second", "none"), default="none",
                       help="Force on Force: who had initiative last turn (keeps it on a tie)")
    other.add_argument("--delivery", help="generic: the delivery type (thrown, handgun, rifle, mortar, artillery, missile)")
    other.add_argument("--distance", type=float, help="generic: the distance to the target, inches")
    other.add_argument("--adjacent", action="store_true", help="generic: bases in contact (automatic hit)")
    other.add_argument("--range-shift", type=int, default=0, help="generic: range levels to shift (+ farther)")
    other.add_argument("--status", help="generic: the target's status level (default Undamaged)")


def _listing(catalog: Any, what: str) -> list[str]:
    from rules.downrange.options import VARIANTS

    if what == "weapons":
        return [f"{w.name}: Range {w.range_in:g}\", Difficulty {w.difficulty}, Damage {w.damage}"
                + (f", Fan {w.fan}" if w.fan else "") + (f", Radius {w.radius_in:g}\"" if w.radius_in else "")
                + (f", Ammunition {w.ammunition}" if w.ammunition else "") + (", Focus" if w.focus else "")
                for w in catalog.weapons.values()]
    if what == "units":
        return [f"{u.name}: Move {u.move_in:g}\", Skill {u.skill}, Defense {u.defense}"
                + (f", specialty {u.specialty_skill}" if u.specialty_skill else "") for u in catalog.unit_types.values()]
    if what == "vehicles":
        return [f"{v.name}: Move {v.move_in:g}\", crew {v.crew}, Defense {v.defense}, passengers {v.passengers}, "
                f"{v.mobility}" + (f", {v.control}" if v.control != "crewed" else "") for v in catalog.vehicles.values()]
    if what == "equipment":
        return [e.name for e in catalog.equipment.values()]
    if what == "payloads":
        return [f"{p.name}: {p.effect}" for p in catalog.payloads.values()]
    if what == "hazards":
        return [f"{h.name}: Damage {h.damage}, {h.nature}" for h in catalog.hazards.values()]
    return [f"{name}: " + "; ".join(f"{w} {f}" for w, f in changes.items()) for name, changes in VARIANTS.items()]


def _pct(p: Any) -> str:
    return f"{float(p) * 100:5.1f}%"


def _other_ruleset(args: argparse.Namespace) -> int:
    """Force on Force's tests and initiative, the generic rules' shots (tables in rules/*/odds_table.py)."""
    if args.ruleset == "force-on-force":
        from rules.forceonforce.odds_table import initiative_table, test_odds

        if args.initiative:
            pools = []
            for text in args.initiative:
                count, _, sides = text.lower().partition("d")
                if not (count.isdigit() and sides.isdigit()) or not 0 <= int(count) <= 20:
                    raise UsageError(f"--initiative {text!r}: write a force's dice as NdS, e.g. 8d8 (0 to 20 dice)")
                pools.append((int(count), int(sides)))
            data, lines = initiative_table(pools, previous={"first": 0, "second": 1}.get(args.previous))
        elif args.die:
            data, lines = test_odds(args.die, shift=args.shift, modifier=args.modifier, against=args.against,
                                    against_shift=args.against_shift, against_modifier=args.against_modifier)
        else:
            raise UsageError("give --die d8 (and --against d6 for an opposed test), or --initiative 8d8 11d6")
    else:
        from rules.generic.odds_table import listing, shot_table

        if args.list in ("records", "deliveries"):
            print("\n".join(listing(args.list)))
            return 0
        if not args.delivery or (args.distance is None and not args.adjacent):
            raise UsageError("give --delivery (e.g. rifle) and --distance in inches (or --adjacent)")
        try:
            damage = int(args.damage or 1)
            defence = int(args.defense or 0)
            if not (0 <= defence <= 6 and 0 <= damage <= 1000):
                raise ValueError
        except ValueError:
            raise UsageError(f"--damage {args.damage} / --defense {args.defense}: the generic rules use whole numbers "
                             "of damage points and a ranged defence 0-6") from None
        data, lines = shot_table(args.delivery, args.distance or 0.0, damage=damage, defence=defence,
                                 status=args.status, range_shift=args.range_shift, adjacent=args.adjacent)
    print(json.dumps(data) if args.json else "\n".join(lines))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.ruleset not in CALCULATED:
        raise UsageError(f"sandtable odds has no odds tables for the {args.ruleset} rule system: "
                         f"use --ruleset {' or '.join(CALCULATED)}")
    if args.ruleset != "down-range":
        return _other_ruleset(args)
    if args.list in ("records", "deliveries"):
        raise UsageError(f"--list {args.list} belongs to the generic rules: add --ruleset generic")
    from rules.dice import Dice
    from rules.downrange.catalog import SIDES, load_catalog
    from rules.downrange.modifiers import net_mode
    from rules.downrange.odds import p_at_least_one, shot_odds
    from rules.downrange.options import RulesOptions
    from rules.errors import DiceError

    catalog = load_catalog(args.data, variants=args.variant)
    if args.list:
        print("\n".join(_listing(catalog, args.list)))
        return 0
    if args.assist < 0:
        raise UsageError(f"--assist {args.assist}: the number of assisting units cannot be negative; use 0 or more")
    if args.shots < 1:
        raise UsageError(f"--shots {args.shots}: an attack makes at least one shot; use 1 or more")
    weapon = catalog.weapon(args.weapon) if args.weapon else None
    if args.skill:
        skill = Dice.parse(args.skill, allowed_sides=SIDES)
        if skill.count != 1 or skill.bonus:
            raise DiceError(f"--skill {args.skill}: a Skill is one die (d4, d6, d8 or d10); add bonuses with --assist")
    else:
        attacker = catalog.unit_type(args.attacker or "average combatant")
        skill = attacker.skill
    if args.difficulty is not None:
        difficulty = args.difficulty
        if difficulty < 1:
            raise UsageError(f"--difficulty {difficulty}: a Difficulty is 1 or more (Table 2-1 uses 2 to 10)")
    elif weapon is not None:
        difficulty = weapon.difficulty
    else:
        raise UsageError("give --difficulty N, or a --weapon to take it from")
    if args.damage:
        damage = Dice.parse(args.damage, allowed_sides=SIDES)
    elif weapon is not None:
        damage = weapon.damage
    else:
        raise UsageError("give --damage (e.g. 1d6), or a --weapon to take it from")
    if args.defense is not None:
        if args.defense.strip().startswith("-"):
            raise UsageError(f"--defense {args.defense}: a Defense cannot be negative; give 0 or more, or dice such as 2d6")
        defense = Dice.parse(args.defense, allowed_sides=SIDES)
    elif args.target:
        if catalog.is_vehicle(args.target):
            defense = catalog.vehicle(args.target).defense
        else:
            defense = catalog.unit_type(args.target).defense
    else:
        raise UsageError("give --defense (a number or dice), or a --target unit type to take it from")
    if args.body_armor:
        defense = defense.plus(catalog.equipment_item("body armor").defense_bonus)
    if weapon is not None:
        if args.assist > weapon.max_assistants:
            raise UsageError(f"--assist {args.assist}: the {weapon.name} takes at most {weapon.max_assistants} "
                             f"assistant{'s' if weapon.max_assistants != 1 else ''} (2.6.3)")
        most = (weapon.fan or 1)
        if args.shots > most:
            raise UsageError(f"--shots {args.shots}: the {weapon.name} makes at most {most} attack"
                             f"{'s' if most > 1 else ''} per Action" + (" (its Fan)" if weapon.fan else ""))
    mode = net_mode(args.advantage, args.disadvantage)
    options = RulesOptions(auto_failure=args.auto_failure)
    odds = shot_odds(skill.sides, mode, args.assist, difficulty, damage, defense, options)
    any_kill = p_at_least_one(odds.p_kill, args.shots)
    data = {
        "p_hit": float(odds.p_hit), "p_kill": float(odds.p_kill), "p_damage": float(odds.p_damage),
        "p_hit_exact": str(odds.p_hit), "p_kill_exact": str(odds.p_kill), "p_damage_exact": str(odds.p_damage),
        "shots": args.shots, "p_kill_any": float(any_kill), "p_kill_any_exact": str(any_kill),
        "roll": mode, "skill": str(skill), "bonus": args.assist, "difficulty": difficulty,
        "damage": str(damage), "defense": str(defense), "can_damage": odds.can_damage,
        "weapon": weapon.name if weapon else None, "target": args.target,
    }
    if args.json:
        print(json.dumps(data))
        return 0
    head = f"Skill {skill}" + {"normal": "", "advantage": " with Advantage", "disadvantage": " with Disadvantage"}[mode]
    if args.assist:
        head += f" +{args.assist}"
    print(f"{head} against Difficulty {difficulty}; Damage {damage} against Defense {defense}"
          + (f" ({weapon.name})" if weapon else ""))
    if args.advantage and args.disadvantage:
        print(f"  {args.advantage} Advantage(s) and {args.disadvantage} Disadvantage(s) cancel: one die.")
    print(f"  p(hit)     {str(odds.p_hit):>12}  {_pct(odds.p_hit)}")
    print(f"  p(damage)  {str(odds.p_damage):>12}  {_pct(odds.p_damage)}  once hit")
    print(f"  p(kill)    {str(odds.p_kill):>12}  {_pct(odds.p_kill)}")
    if args.shots > 1:
        print(f"  p(kill) with {args.shots} attacks  {_pct(any_kill)}")
    if not odds.can_damage:
        print(f"  Damage {damage} cannot hurt Defense {defense}: its die has fewer sides (2.6.4.1).")
    return 0
