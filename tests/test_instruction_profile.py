"""scripts/instruction_profile.py reads cachegrind's summary and removes start-up by
difference."""

import pytest

from scripts.instruction_profile import parse_cachegrind, per_position

# cachegrind's summary of the yardstick's bulk perft (S6 mid-game, depths 3 and 4).
LOW = """\
==8863== I   refs:      2,852,114
==8863== Branches:         88,537  (88,140 cond + 397 ind)
==8863== Mispredicts:       7,600  ( 7,391 cond + 209 ind)
==8863== Mispred rate:        8.6% (   8.4%     + 52.6%   )
"""
HIGH = """\
perft(4) = 1197070  S=6  bulk  1.145 s  1045814 nodes/s (leaves)
==8881== I   refs:      89,893,504
==8881== Branches:       1,877,021  (1,876,624 cond + 397 ind)
==8881== Mispredicts:       90,793  (   90,584 cond + 209 ind)
"""


def test_the_summary_gives_instructions_and_conditional_branches():
    assert parse_cachegrind(LOW) == {"instructions": 2_852_114, "branches": 88_140, "mispredicts": 7_391}


def test_start_up_cancels_out_and_the_rest_is_shared_by_the_counted_positions():
    cost = per_position(parse_cachegrind(LOW), parse_cachegrind(HIGH), 37_491)
    assert cost["instructions"] == pytest.approx((89_893_504 - 2_852_114) / 37_491)
    assert round(cost["branches"], 1) == 47.7
    assert round(cost["mispredicts"], 2) == 2.22


def test_a_run_without_a_summary_is_refused():
    with pytest.raises(ValueError, match="no mispredicts"):
        parse_cachegrind(LOW.replace("Mispredicts", "Mispredicted"))


def test_without_valgrind_it_says_so_and_exits_2(monkeypatch, capsys):
    import scripts.instruction_profile as profile

    monkeypatch.setattr(profile.shutil, "which", lambda name: None)
    assert profile.main(["--ours-only"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err
