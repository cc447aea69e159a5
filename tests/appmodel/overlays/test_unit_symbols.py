"""Every symbol the rules name is one the symbol library draws, for every affiliation."""
from __future__ import annotations

import pytest

from appmodel.errors import UsageError
from appmodel.overlays.unit_symbols import unit_symbol
from rules.military_symbols import Affiliation, load_symbol_table, symbol_files, with_affiliation


@pytest.mark.parametrize("ruleset", sorted(symbol_files()))
def test_every_shipped_symbol_draws_for_every_affiliation(ruleset: str) -> None:
    table = load_symbol_table(ruleset)
    for code in {*table.by_type.values(), table.default_sidc}:
        for a in Affiliation:
            s = unit_symbol(with_affiliation(code, a), size_px=40)
            assert s.svg.startswith("<svg") and any(tag in s.svg for tag in ("<path", "<circle", "<rect"))
            assert s.width_px > 20 and s.height_px > 20


def test_friend_and_hostile_frames_differ() -> None:
    friend = unit_symbol("10031000001211000000")
    hostile = unit_symbol("10061000001211000000")
    assert friend.svg != hostile.svg
    assert friend.width_px > friend.height_px                 # a friendly unit's frame is a wide rectangle
    assert hostile.width_px == pytest.approx(hostile.height_px)   # a hostile one a diamond


def test_an_unknown_code_is_refused_with_where_to_fix_it() -> None:
    with pytest.raises(UsageError, match="symbols.toml"):
        unit_symbol("10031000009999990000")
