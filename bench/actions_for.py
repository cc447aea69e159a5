"""What a unit may declare besides attacks: the cost of listing its forms, old way and new, in one run.

The Actions panel asks :func:`rules.downrange.table_actions.actions_for` for the selected unit's forms
every time the figures move (at most every 150 ms). Each form is tried on the state as it starts (the
rules' refusal is the reason shown). Side by side, on the in-depth example's table before 6.5.1 (17
units) and after the whole section 6:

* **old**: each try looked its form up again by building *every* form of the unit (the code before
  this change: the list cost the square of its length);
* **new**: each try takes the form just built;
* **session**: ``GameSession.actions_for``, what the panel calls (the new path and the unit's check).

Both give the same forms (checked). Figures: median over ``--repeat`` runs, per unit, milliseconds.

    .venv/bin/python bench/actions_for.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appmodel.game_session import GameSession
from rules.action_forms import ActionForm, ActionRequest
from rules.dice import HighestDice
from rules.downrange import table_actions as T
from rules.downrange.examples import in_depth
from rules.downrange.pieces import Status
from rules.errors import RulesError
from rules.ruleset import get_ruleset


def old_actions_for(state: Any, unit_id: int) -> tuple[ActionForm, ...]:
    """The listing as it was: every try builds all of the unit's forms again to find its own."""
    unit = state.unit(unit_id)
    if unit.status is Status.REMOVED:
        return ()
    out = []
    for form in T._forms(state, unit):
        try:
            T._play(state, ActionRequest(form.key, unit_id, form.defaults()), HighestDice())  # no form=: looked up
        except (RulesError, ValueError, KeyError) as exc:
            form = ActionForm(form.key, form.label, form.unit_id, form.fields, form.rolls, False, str(exc), form.notes,
                              form.help, form.kind)
        out.append(form)
    return tuple(out)


def per_unit_ms(listing: Any, ids: list[int], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for uid in ids:
            listing(uid)
        runs.append((time.perf_counter() - t0) * 1000 / len(ids))
    return statistics.median(runs)


def state_before(section: str | None) -> Any:
    steps = list(in_depth.STEPS)
    upto = steps if section is None else steps[:[s.section for s in steps].index(section)]
    state = None
    for record in in_depth.play(upto):
        state = record.state
    return state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'table':<28}{'units':>6}{'forms':>7}{'old ms/unit':>13}{'new ms/unit':>13}{'session':>9}{'speed-up':>10}")
    for label, section in (("in-depth, before 6.5.1", "6.5.1"), ("in-depth, after section 6", None)):
        state = state_before(section)
        ids = [u.unit_id for u in state.units]
        for uid in ids:
            if old_actions_for(state, uid) != T.actions_for(state, uid):
                print(f"the two listings differ for unit {uid}", file=sys.stderr)
                return 1
        session = GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario())
        old = per_unit_ms(lambda uid: old_actions_for(state, uid), ids, args.repeat)
        new = per_unit_ms(lambda uid: T.actions_for(state, uid), ids, args.repeat)
        via = per_unit_ms(session.actions_for, ids, args.repeat)
        forms = sum(len(T.actions_for(state, uid)) for uid in ids)
        print(f"{label:<28}{len(ids):>6}{forms:>7}{old:>13.2f}{new:>13.2f}{via:>9.2f}{old / new:>9.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
