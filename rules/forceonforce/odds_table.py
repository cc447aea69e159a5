"""Exact odds of Force on Force's tests and initiative, as data and plain lines (``sandtable odds
--ruleset force-on-force``).

>>> data, lines = test_odds("d8", against="d6")
>>> data["p_first"], lines[-1]
('1/2', '  nobody wins          1/4   25.0%')
>>> round(initiative_table([(8, 8), (11, 6)], previous=0)[0]["p_second_float"], 4)  # the rulebook's example
0.4968
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.errors import RulesError
from rules.forceonforce.catalog import load_data
from rules.forceonforce.checks import opposed_odds, p_pass, shifted
from rules.forceonforce.initiative import InitiativePool, initiative_odds
from rules.record_fields import parse_die


def _die(text: str, what: str) -> int:
    sides = parse_die(text)
    ladder = load_data().ladder
    if sides not in ladder:
        raise RulesError(f"{what} {text!r} is not a Force on Force die: use " + ", ".join(f"d{s}" for s in ladder))
    return int(sides or 0)


def _line(label: str, p: Fraction) -> str:
    return f"  {label:<16}{str(p):>8}  {float(p) * 100:5.1f}%"


def test_odds(die: str, *, shift: int = 0, modifier: int = 0, against: str | None = None, against_shift: int = 0,
              against_modifier: int = 0) -> tuple[dict[str, Any], list[str]]:
    """An unopposed test (4+), or an opposed one when ``against`` names the other side's die."""
    ladder = load_data().ladder
    a = shifted(ladder, _die(die, "--die"), shift)
    head = f"D{a}" + (f" {modifier:+d}" if modifier else "")
    if against is None:
        p = p_pass(a, modifier=modifier)
        return ({"test": "unopposed", "die": f"d{a}", "modifier": modifier, "p_pass": str(p), "p_pass_float": float(p)},
                [f"Unopposed test on {head}: 4+ passes.", _line("passes", p), _line("fails", 1 - p)])
    b = shifted(ladder, _die(against, "--against"), against_shift)
    o = opposed_odds(a, b, first_modifier=modifier, second_modifier=against_modifier)
    other = f"D{b}" + (f" {against_modifier:+d}" if against_modifier else "")
    data = {"test": "opposed", "die": f"d{a}", "against": f"d{b}", "p_first": str(o.p_first),
            "p_second": str(o.p_second), "p_nobody": str(o.p_nobody), "p_first_float": float(o.p_first),
            "p_second_float": float(o.p_second), "p_nobody_float": float(o.p_nobody)}
    return data, [f"Opposed test, {head} against {other}: 4+ and higher than the other wins.",
                  _line("first wins", o.p_first), _line("second wins", o.p_second), _line("nobody wins", o.p_nobody)]


def initiative_table(pools: list[tuple[int, int]], *, previous: int | None) -> tuple[dict[str, Any], list[str]]:
    """Two forces' initiative dice as (count, sides); ``previous`` is the index of last turn's holder."""
    if len(pools) != 2:
        raise RulesError("give the two forces' initiative dice, e.g. --initiative 8d8 11d6")
    names = ("first", "second")
    ladder = load_data().ladder
    for count, sides in pools:
        if sides not in ladder:
            raise RulesError(f"{count}d{sides} is not an Initiative Level: use " + ", ".join(f"d{s}" for s in ladder))
    p = tuple(InitiativePool(n, 0, 0, c, c, (), c, s) for n, (c, s) in zip(names, pools))
    odds = initiative_odds(p, previous=names[previous] if previous is not None else None)
    data = {"p_first": str(odds["first"]), "p_second": str(odds["second"]),
            "p_first_float": float(odds["first"]), "p_second_float": float(odds["second"])}
    keep = f"ties stay with the {names[previous]}" if previous is not None else "ties are rolled again"
    return data, [f"Initiative test {pools[0][0]}D{pools[0][1]} against {pools[1][0]}D{pools[1][1]} ({keep}):",
                  _line("first has it", odds["first"]), _line("second has it", odds["second"])]
