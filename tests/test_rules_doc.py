"""docs/rules.md: its pictures are up to date, its examples are what the engine says."""

import re
from pathlib import Path

import pytest

from hinge_fast import Board

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def test_pictures_and_the_app_copy_are_up_to_date():
    from scripts.make_rule_pictures import expected_files

    stale = [
        str(p.relative_to(ROOT))
        for p, text in expected_files().items()
        if not p.exists() or p.read_text(encoding="utf-8") != text
    ]
    assert not stale, f"run python -m scripts.make_rule_pictures: {stale}"


def test_every_picture_linked_exists_and_every_picture_is_linked():
    linked = set(re.findall(r"\]\(rules/([\w-]+\.svg)\)", RULES))
    on_disk = {p.name for p in (ROOT / "docs" / "rules").glob("*.svg")}
    assert linked == on_disk


@pytest.mark.parametrize(
    "position, moves",
    [
        ("5/6/7/3b4/9/3gg3/7/4b1/5 g", ["D4-E5xE6", "D4-E3xE2"]),
        ("5/6/7/8/9/8/1b5/1gg3/5 g", ["B2-B2xB3"]),
        ("5/1g4/2bb3/8/4b4/2b5/2gg3/1g4/5 g", ["D3-D4xC4", "D3-D4xE5"]),
        ("6/7/8/9/10/4gg5/5b4/9/8/7/6 g", ["E6-E5xF5"]),
    ],
)
def test_moves_named_in_the_rules_are_legal_there(position, moves):
    board = Board.from_fen(position)
    for move in moves:
        assert move in RULES
        assert str(board.parse_move(move)) == move


def test_examples_in_the_text():
    assert "`4/2g2/2b3/7/2gg2/5/4 b`" in RULES
    board = Board.from_fen("4/2g2/2b3/7/2gg2/5/4 b")
    assert board.tokens(board.turn.other) == ["C3", "D3", "E6"] and board.tokens(board.turn) == [
        "D5"
    ]
    assert "`6/7/8/9/10/11/10/9/8/7/6 g`" in RULES and Board().fen() == "6/7/8/9/10/11/10/9/8/7/6 g"
    # the placement example: the rules' own check position
    from scripts.make_rule_pictures import position

    board = position(6, ["G6", "H8"], ["G3", "I7"])
    legal = {str(m) for m in board.legal_moves}
    assert {"C4", "H7"} <= legal and not {"H4", "C8"} & legal
    # elimination wins
    board = Board.from_fen("6/7/8/9/10/4gg5/5b4/9/8/7/6 g")
    board.push_str("E6-E5")
    assert board.outcome() is not None and board.outcome().reason == "elimination"
