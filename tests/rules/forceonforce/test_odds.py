"""Force on Force exact odds checked by enumeration: every face of every die, counted by hand, against
the engine's convolutions -- for the tests and checks, the opposed test, and the initiative test."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import EnteredDice
from rules.distributions import compare_pmfs, dice_sum_pmf, successes_pmf
from rules.forceonforce.catalog import load_data
from rules.forceonforce.checks import CheckSide, opposed_odds, p_pass, resolve_opposed
from rules.forceonforce.initiative import InitiativePool, dice_pool, initiative_odds

dice = st.sampled_from((6, 8, 10, 12))
small_dice = st.sampled_from((6, 8))


def brute_opposed(a: int, b: int, ma: int, mb: int) -> tuple[Fraction, Fraction, Fraction]:
    first = second = 0
    for x, y in product(range(1, a + 1), range(1, b + 1)):
        x, y = x + ma, y + mb
        first += x >= 4 and x > y
        second += y >= 4 and y > x
    n = a * b
    return Fraction(first, n), Fraction(second, n), Fraction(n - first - second, n)


@given(a=dice, b=dice, ma=st.integers(-3, 3), mb=st.integers(-3, 3))
@settings(max_examples=120, deadline=None)
def test_opposed_test_odds_equal_counting_every_pair_of_faces(a: int, b: int, ma: int, mb: int) -> None:
    o = opposed_odds(a, b, first_modifier=ma, second_modifier=mb)
    assert (o.p_first, o.p_second, o.p_nobody) == brute_opposed(a, b, ma, mb)
    assert o.p_first + o.p_second + o.p_nobody == 1


@given(a=dice, b=dice, ma=st.integers(-2, 2), mb=st.integers(-2, 2))
@settings(max_examples=40, deadline=None)
def test_the_share_of_entered_dice_the_firer_wins_is_its_odds(a: int, b: int, ma: int, mb: int) -> None:
    wins = sum(resolve_opposed(CheckSide("A", "TQ", a, modifier=ma), CheckSide("B", "TQ", b, modifier=mb),
                               EnteredDice([x, y]), label="t").winner == "A"
               for x, y in product(range(1, a + 1), range(1, b + 1)))
    assert Fraction(wins, a * b) == opposed_odds(a, b, first_modifier=ma, second_modifier=mb).p_first


@given(s=dice, m=st.integers(-5, 5))
def test_unopposed_odds_equal_counting_faces(s: int, m: int) -> None:
    assert p_pass(s, modifier=m) == Fraction(sum(1 for f in range(1, s + 1) if f + m >= 4), s)


@given(n=st.integers(0, 5), s=small_dice)
@settings(max_examples=40, deadline=None)
def test_success_counts_equal_counting_every_face(n: int, s: int) -> None:
    pmf = successes_pmf(n, s, 4)
    counts = [0] * (n + 1)
    for faces in product(range(1, s + 1), repeat=n) if n else [()]:
        counts[sum(1 for f in faces if f >= 4)] += 1
    assert [pmf.count(k) for k in range(n + 1)] == counts


@given(a=st.integers(1, 3), sa=st.sampled_from((4, 6)), b=st.integers(1, 3), sb=st.sampled_from((4, 6, 8)))
@settings(max_examples=30, deadline=None)
def test_comparing_two_rolls_equals_counting_pairs(a: int, sa: int, b: int, sb: int) -> None:
    pa, pb = dice_sum_pmf(a, sa), dice_sum_pmf(b, sb)
    gt = eq = 0
    for x in product(range(1, sa + 1), repeat=a):
        for y in product(range(1, sb + 1), repeat=b):
            gt += sum(x) > sum(y)
            eq += sum(x) == sum(y)
    n = sa**a * sb**b
    assert compare_pmfs(pa, pb) == (Fraction(gt, n), Fraction(eq, n), Fraction(n - gt - eq, n))


def pool(side: str, n: int, s: int) -> InitiativePool:
    return InitiativePool(side, 0, 0, n, n, (), n, s)


def brute_initiative(na: int, sa: int, nb: int, sb: int, previous: str) -> Fraction:
    a_wins = 0
    for x in product(range(1, sa + 1), repeat=na):
        ka = sum(1 for f in x if f >= 4)
        for y in product(range(1, sb + 1), repeat=nb):
            kb = sum(1 for f in y if f >= 4)
            a_wins += ka > kb or (ka == kb and previous == "A")
    return Fraction(a_wins, sa**na * sb**nb)


@given(na=st.integers(0, 3), sa=small_dice, nb=st.integers(0, 2), sb=small_dice, previous=st.sampled_from("AB"))
@settings(max_examples=25, deadline=None)
def test_initiative_odds_equal_rolling_every_face_of_both_pools(na: int, sa: int, nb: int, sb: int, previous: str) -> None:
    odds = initiative_odds((pool("A", na, sa), pool("B", nb, sb)), previous=previous)
    assert odds["A"] == brute_initiative(na, sa, nb, sb, previous)
    assert odds["A"] + odds["B"] == 1


def test_with_no_holder_a_tie_is_rolled_again_so_the_odds_are_of_the_decisive_rolls() -> None:
    odds = initiative_odds((pool("A", 2, 6), pool("B", 2, 6)), previous=None)
    assert odds == {"A": Fraction(1, 2), "B": Fraction(1, 2)}
    lopsided = initiative_odds((pool("A", 3, 8), pool("B", 1, 6)), previous=None)
    strict_a = brute_initiative(3, 8, 1, 6, "B")  # A wins only outright
    strict_b = 1 - brute_initiative(3, 8, 1, 6, "A")
    assert lopsided["A"] == strict_a / (strict_a + strict_b)


def test_the_rulebook_initiative_example_odds_beat_the_expected_success_counts() -> None:
    """Red 8D8 (had initiative) expects 5.0 successes, Blue 11D6 5.5; Blue wins the test a little less
    than half the time because a tie keeps it with Red."""
    data = load_data()
    red = dice_pool(data, "Red", infantry_units=6, vehicles=3, previous=True, positive_leader=1, outnumbers=False, sides=8)
    blue = dice_pool(data, "Blue", infantry_units=10, vehicles=6, previous=False, positive_leader=0, outnumbers=True,
                     sides=6)
    odds = initiative_odds((red, blue), previous="Red")
    r, b = successes_pmf(8, 8, 4), successes_pmf(11, 6, 4)
    assert sum(k * r.prob(k) for k in range(9)) == 5 and sum(k * b.prob(k) for k in range(12)) == Fraction(11, 2)
    blue_ahead = sum(r.prob(i) * b.prob(j) for i in range(9) for j in range(12) if j > i)
    assert odds["Blue"] == blue_ahead and Fraction(2, 5) < odds["Blue"] < Fraction(1, 2)


# -- the same odds from the command line ---------------------------------------------------------------

def sandtable(capsys: "pytest.CaptureFixture[str]", *argv: str) -> tuple[int, str, str]:
    from cli.main import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sandtable_odds_gives_force_on_force_tests_and_the_initiative_example(capsys: "pytest.CaptureFixture[str]") -> None:
    import json

    code, out, _ = sandtable(capsys, "odds", "--ruleset", "force-on-force", "--die", "d8", "--against", "d6", "--json")
    assert code == 0 and (json.loads(out)["p_first"], json.loads(out)["p_nobody"]) == ("1/2", "1/4")
    code, out, _ = sandtable(capsys, "odds", "--ruleset", "force-on-force", "--die", "d6", "--shift", "1", "--modifier", "-1")
    assert code == 0 and "Unopposed test on D8 -1" in out and "1/2" in out
    code, out, _ = sandtable(capsys, "odds", "--ruleset", "force-on-force", "--initiative", "8d8", "11d6", "--previous",
                             "first", "--json")
    data = json.loads(out)
    assert Fraction(data["p_second"]) == initiative_odds((pool("a", 8, 8), pool("b", 11, 6)), previous="a")["b"]


def test_sandtable_odds_refuses_impossible_force_on_force_dice_in_one_line(capsys: "pytest.CaptureFixture[str]") -> None:
    for argv, message in ((("--die", "d7"), "'d7' is not a Force on Force die"),
                          (("--initiative", "8d8", "11d7"), "11d7 is not an Initiative Level"),
                          ((), "give --die d8")):
        code, _, err = sandtable(capsys, "odds", "--ruleset", "force-on-force", *argv)
        assert code == 2 and message in err and err.count("\n") == 1
