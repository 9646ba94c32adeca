"""One test per numbered rule of docs/rules.md (sections 3-8), on tiny
hand-built positions, asserting exact move sets by their notation.

Every rule test goes through the ``impl`` fixture, so the same tests run against the
reference implementation and the fast engine (``tests/conftest.py``).
Positions are written as position strings (rules.md 7) built by :func:`board` below,
which is independent of both implementations.

Coordinates (rules.md 1): cell ``F6`` is (c, r) = (5, 5); its neighbours, in D order,
are (c+1,r) (c+1,r+1) (c,r+1) (c-1,r) (c-1,r-1) (c,r-1), i.e. G6 G7 F7 E6 E5 F5.
On S=6 the interior cells have 1 <= c, r <= 9 and |c - r| <= 4.
"""

import pytest

from hinge_fast import reference as ref
from hinge_fast.errors import HingeError

# ---------------------------------------------------------------------------
# Position builder (independent of the implementations under test)
# ---------------------------------------------------------------------------


def _cell(name: str) -> tuple[int, int]:
    return (ord(name[0].upper()) - ord("A"), int(name[1:]) - 1)


def board(size: int, g: str = "", b: str = "", to_move: str = "g") -> str:
    """Position string of side ``size`` with Green on the cells named in ``g`` and Blue
    on those in ``b`` (space-separated names like "F6 G6")."""
    tokens = {_cell(n): "g" for n in g.split()}
    tokens.update({_cell(n): "b" for n in b.split()})
    assert len(tokens) == len(g.split()) + len(b.split()), "a cell is listed twice"
    rows = []
    for r in range(2 * size - 2, -1, -1):
        text, run = "", 0
        for c in range(max(0, r - size + 1), min(2 * size - 2, r + size - 1) + 1):
            if (c, r) in tokens:
                text += (str(run) if run else "") + tokens.pop((c, r))
                run = 0
            else:
                run += 1
        rows.append(text + (str(run) if run else ""))
    assert not tokens, f"cells off the board: {tokens}"
    return "/".join(rows) + " " + to_move


def swipes(impl, fen: str) -> set[str]:
    return {m for m in impl.moves(fen) if "-" in m}


def placements(impl, fen: str) -> set[str]:
    return {m for m in impl.moves(fen) if "-" not in m}


def test_board_builder_agrees_with_reference_parser():
    # Guards the helper itself: the cells we name are the cells the reference reads.
    pos = ref.parse_position(board(6, g="G6 H8", b="G3 I7", to_move="b"))
    assert dict(pos.tokens) == {(6, 5): "g", (7, 7): "g", (6, 2): "b", (8, 6): "b"}
    assert pos.to_move == "b" and pos.size == 6
    assert board(6) == "6/7/8/9/10/11/10/9/8/7/6 g"


# ---------------------------------------------------------------------------
# Section 1-2: board, coordinates, Green first
# ---------------------------------------------------------------------------


def test_1_coordinates_and_edges():
    assert len(ref.cells(6)) == 91 and len(ref.cells(9)) == 217
    assert sum(not ref.is_edge(6, c) for c in ref.cells(6)) == 61
    assert sum(not ref.is_edge(9, c) for c in ref.cells(9)) == 169
    assert ref.cell_name((2, 3)) == "C4"
    assert ref.is_edge(6, (2, 7))  # C8: |2 - 7| = 5
    assert not ref.is_edge(6, (5, 5))
    # neighbours in D order, off-board ones dropped
    assert ref.neighbours(6, (5, 5)) == ((6, 5), (6, 6), (5, 6), (4, 5), (4, 4), (5, 4))
    assert ref.neighbours(6, (0, 0)) == ((1, 0), (1, 1), (0, 1))
    for size in range(4, 10):
        for c in ref.cells(size):
            assert ref.is_edge(size, c) == (len(ref.neighbours(size, c)) < 6)


def test_2_green_moves_first_and_turns_alternate(impl):
    start = board(6)
    assert start.endswith(" g")
    # Green opens anywhere on the 61 interior cells; then it is Blue's turn.
    assert len(impl.moves(start)) == 61
    after = impl.play(start, "F6")
    assert after == board(6, g="F6", to_move="b")
    # Blue may not place next to the lone Green token (its 6 neighbours).
    assert len(impl.moves(after)) == 61 - 1 - 6


# ---------------------------------------------------------------------------
# Section 3: placement
# ---------------------------------------------------------------------------


def test_3_placement_seed_diagram(impl):
    # rules.md 1 / seed diagram: Green G6 H8, Blue G3 I7, Green to move.
    fen = board(6, g="G6 H8", b="G3 I7")
    moves = impl.moves(fen)
    assert "C4" in moves  # singleton touching nothing
    assert "H4" not in moves  # singleton touching Blue G3
    assert "C8" not in moves  # edge cell
    assert "H7" in moves  # joins G6 and H8, so it may touch Blue I7
    assert "G6" not in moves and "G3" not in moves  # occupied
    assert swipes(impl, fen) == set()  # G6 and H8 are singletons: no pivot


def test_3_placement_exact_set(impl):
    # S=4: Blue D4 in the centre, Green singleton E4 beside it. Of D4's empty
    # neighbours, E5 and D3 also touch Green E4 (legal); D5, C4, C3 touch only
    # Blue (illegal). Every other empty interior cell touches no Blue (legal).
    fen = board(4, g="E4", b="D4")
    assert impl.moves(fen) == {
        "B2",
        "B3",
        "B4",
        "C2",
        "C5",
        "D2",
        "D3",
        "D6",
        "E3",
        "E5",
        "E6",
        "F4",
        "F5",
        "F6",
    }


# ---------------------------------------------------------------------------
# Section 4: swipe
# ---------------------------------------------------------------------------


def test_4_one_step_swipe(impl):
    # Green F6 G6, Blue E4. F5 touches E4, and is one step from F6 (around G6)
    # and from G6 (around F6). No other cell next to E4 is reachable.
    fen = board(6, g="F6 G6", b="E4")
    assert swipes(impl, fen) == {"F6-F5xE4", "G6-F5xE4"}
    # the token moves, the enemy group flips
    assert impl.play(fen, "F6-F5xE4") == board(6, g="F5 G6 E4", to_move="b")


def test_4_onward_two_step_swipe(impl):
    # Green F6 G6, Blue I7. F6 turns around G6: G7 (touches no Blue) then onward
    # to H7, which touches I7. Nothing reaches a cell next to I7 in one step.
    fen = board(6, g="F6 G6", b="I7")
    assert swipes(impl, fen) == {"F6-H7xI7"}
    assert impl.play(fen, "F6-H7xI7") == board(6, g="G6 H7 I7", to_move="b")


def test_4_reversing_swipe(impl):
    # Green F6 G6, Blue E5 (touching F6). F6 around G6: one way F5 touches E5 and
    # ends there; the other way G7 touches no Blue, and stepping back ends on F6,
    # which touches E5: F6-F6xE5. G6 around F6 reaches F5 in one step.
    fen = board(6, g="F6 G6", b="E5")
    assert swipes(impl, fen) == {"F6-F5xE5", "F6-F6xE5", "G6-F5xE5"}
    assert impl.play(fen, "F6-F6xE5") == board(6, g="F6 G6 E5", to_move="b")


def test_4_reversing_swipe_with_no_empty_cell_touching_the_enemy(impl):
    # S=5, Blue to move. Every Green token (B4 B5 B6 C5) is walled in by Blue and
    # the rim: no empty interior cell touches Green, so every swipe must end back
    # on its own cell. Five Blue tokens touching Green can do that (a fast
    # generator once skipped all swipes here, finding no landing cell).
    fen = "5/1bb1b1/1bbbbb1/1gbbbbb1/1ggbbbb2/1gb2bb1/1bbbb2/1b1bb1/5 b"
    assert swipes(impl, fen) == {"B3-B3xB4", "C4-C4xB4", "D5-D5xB4", "D6-D6xB4", "D7-D7xB4"}


def test_4_pass_over_friendly_token(impl):
    # Green triangle F6 G6 G7, Blue I7 (touching only H7). F6 reaches H7 in two
    # steps around G6 passing over G7 (or around G7 passing over G6): one move.
    # G6 and G7 reach H7 in one step.
    fen = board(6, g="F6 G6 G7", b="I7")
    assert swipes(impl, fen) == {"F6-H7xI7", "G6-H7xI7", "G7-H7xI7"}
    # the friendly token passed over stays where it is
    assert impl.play(fen, "F6-H7xI7") == board(6, g="G6 G7 H7 I7", to_move="b")
    # two paths, one move: perft counts it once
    assert impl.perft(fen, 1) == len(impl.moves(fen))


def test_4_reversing_swipe_through_edge(impl):
    # Green B2 C2 near the bottom-left edge; Blue B3 (touching B2 and C3) and
    # Blue D2 (touching C2 and edge cell C1).
    # B2 around C2: one way C3 touches B3 (ends there); the other way is edge cell
    # B1, onward C1 is an edge cell (never final, although it touches D2), back to
    # B2 touches B3: B2-B2xB3.
    # C2 around B2: C3 one step; the other way B1 (edge), onward A1 (edge), back
    # to C2, which touches D2: C2-C2xD2.
    fen = board(6, g="B2 C2", b="B3 D2")
    assert swipes(impl, fen) == {"B2-C3xB3", "B2-B2xB3", "C2-C3xB3", "C2-C2xD2"}


def test_4_1_lift_that_splits_forbids_any_swipe(impl):
    # Green E6 F6 F5: E6 and F5 touch only through F6 (and through empty E5).
    # Blue D4 touches E5. Lifting F6 splits its group, so F6 cannot swipe, not
    # even to E5 (one step around E6 or F5) which would reconnect the group.
    # E6 and F5 can each be lifted and reach E5 in one step around F6.
    fen = board(6, g="E6 F6 F5", b="D4")
    assert swipes(impl, fen) == {"E6-E5xD4", "F5-E5xD4"}


def test_4_2_step_one_onto_enemy_is_blocked(impl):
    # Green F6 G6, Blue G7 and G5 (both touch G6; G5 also touches F5). F6 around
    # G6: step 1 onto G7 (enemy): no. Step 1 onto F5, which touches G5: ends.
    # G6 around F6: step 1 onto G7 (enemy): no; step 1 onto F5 touches G5: ends.
    # (Stepping over the enemy G7 would wrongly give F6-H7xG7, F6-F6xG7, G6-F7xG7.)
    fen = board(6, g="F6 G6", b="G7 G5")
    assert swipes(impl, fen) == {"F6-F5xG5", "G6-F5xG5"}
    assert "F6-H7xG7" not in impl.moves(fen)


def test_4_3_stop_at_step_one_forbids_longer_swipe(impl):
    # Green F6 G6, Blue H8 touching both G7 and H7. F6 around G6 reaches G7 in one
    # step, which touches H8: the swipe must end there. F6-H7 (onward) and F6-F6
    # (back) are not moves, although H7 touches H8.
    fen = board(6, g="F6 G6", b="H8")
    assert swipes(impl, fen) == {"F6-G7xH8", "G6-G7xH8"}


def test_4_4_step_two_blocked_after_merge(impl):
    # Same as the onward test (F6 G6 vs I7, where F6-H7xI7 is legal), plus a Green
    # singleton H8 touching G7 only. Step 1 F6->G7 now merges G6 with H8;
    # lifting from G7 again would split that merged group: no step 2, no move.
    assert swipes(impl, board(6, g="F6 G6", b="I7")) == {"F6-H7xI7"}
    fen = board(6, g="F6 G6 H8", b="I7")
    assert swipes(impl, fen) == set()


def test_4_5_choose_between_two_enemy_groups(impl):
    # Green F6 G6; Blue H6 (touching G6) and the group I8 I9 (I8 touches H7).
    # F6 -> G7 -> H7 touches both Blue groups: two moves, one per group, the
    # target written as the group's first cell (I8, not I9). Also F6 -> F5 -> G5
    # touches H6, and G6 -> G7 -> back to G6 touches H6.
    fen = board(6, g="F6 G6", b="H6 I8 I9")
    assert swipes(impl, fen) == {"F6-H7xH6", "F6-H7xI8", "F6-G5xH6", "G6-G6xH6"}
    # only the chosen group flips, all of it
    assert impl.play(fen, "F6-H7xI8") == board(6, g="G6 H7 I8 I9", b="H6", to_move="b")
    assert impl.play(fen, "F6-H7xH6") == board(6, g="G6 H7 H6", b="I8 I9", to_move="b")


def test_4_5_two_tokens_of_one_group_are_one_choice(impl):
    # Green F6 G6, Blue E4 F4 (one group, both touch F5): one move to F5 per token.
    fen = board(6, g="F6 G6", b="E4 F4")
    assert swipes(impl, fen) == {"F6-F5xE4", "G6-F5xE4"}
    assert impl.play(fen, "G6-F5xE4") == board(6, g="F6 F5 E4 F4", to_move="b")


# ---------------------------------------------------------------------------
# Section 5: notation and move identity
# ---------------------------------------------------------------------------


def test_5_notation():
    assert ref.move_name(("place", (2, 3))) == "C4"
    assert ref.move_name(("swipe", (4, 4), (5, 5), frozenset({(6, 7), (6, 6)}))) == "E5-F6xG7"
    assert ref.move_name(("swipe", (4, 4), (4, 4), frozenset({(5, 6)}))) == "E5-E5xF7"
    assert ref.parse_cell(6, "c4") == (2, 3) == ref.parse_cell(6, "C4")
    for bad in ["", "C", "4C", "C0", "C04", "Z1", "A7", "C4x", "-C4"]:
        with pytest.raises(HingeError):
            ref.parse_cell(6, bad)


def test_5_move_input():
    pos = ref.parse_position(board(6, g="F6 G6", b="H6 I8 I9"))
    # case-insensitive; target may be any cell of the group
    m = ref.parse_move(pos, "f6-h7xi9")
    assert ref.move_name(m) == "F6-H7xI8"
    # xtarget may be omitted only when one enemy group touches `to`
    assert ref.move_name(ref.parse_move(pos, "F6-G5")) == "F6-G5xH6"
    with pytest.raises(HingeError):
        ref.parse_move(pos, "F6-H7")  # ambiguous: H6 and I8 both touch H7
    with pytest.raises(HingeError):
        ref.parse_move(pos, "F6-H7xG6")  # G6 is not an enemy group touching H7
    with pytest.raises(HingeError):
        ref.parse_move(pos, "I7")  # a singleton touching only Blue: illegal
    with pytest.raises(HingeError):
        ref.parse_move(pos, "G6")  # occupied
    assert ref.parse_move(pos, "h7") == ("place", (7, 6))  # touches Green G6
    assert ref.parse_move(pos, "c4") == ("place", (2, 3))


def test_5_distinct_moves_counted_once(impl):
    # Some moves arise from several pivots/paths (F6-H7xI7 around G6 and around G7
    # in the triangle; G6-G6xH6 reversing either way round F6): perft counts
    # distinct moves, so perft(1) equals the size of the move set.
    for fen in [
        board(6, g="F6 G6 G7", b="I7"),
        board(6, g="F6 G6", b="H6 I8 I9"),
        board(6, g="F6 G6", b="E5"),
    ]:
        assert impl.perft(fen, 1) == len(impl.moves(fen))


# ---------------------------------------------------------------------------
# Section 6: end of the game
# ---------------------------------------------------------------------------


def test_6_elimination_by_swipe(impl):
    # Flipping Blue's only group leaves Blue with no tokens: Green wins.
    fen = board(6, g="F6 G6", b="E4")
    assert impl.outcome(fen) is None
    after = impl.play(fen, "F6-F5xE4")
    assert impl.outcome(after) == ("g", "elimination")
    assert impl.moves(after) == set()
    assert impl.perft(after, 1) == 0


def test_6_elimination_from_position_string(impl):
    # Side to move has no tokens while the board holds >= 2 tokens: game over.
    assert impl.outcome(board(6, g="C4 H8", to_move="b")) == ("g", "elimination")
    assert impl.outcome(board(4, b="C3 D4 E4", to_move="g")) == ("b", "elimination")
    # ...but not with fewer than two tokens on the board (the opening).
    assert impl.outcome(board(6)) is None
    assert impl.outcome(board(6, g="F6", to_move="b")) is None
    # A placement never eliminates: Blue may still place away from Green.
    assert len(impl.moves(board(6, g="F6", to_move="b"))) == 54


def test_6_no_legal_move_loses(impl):
    # S=4, Blue to move. Blue's only token B2 is a singleton (no pivot, no swipe)
    # whose interior neighbours C2 C3 B3 are all Green. Every empty interior cell
    # touches Green and not Blue, so Blue cannot place either: Blue loses.
    fen = board(4, g="B3 C2 C3 C5 D4 E4 E5", b="B2", to_move="b")
    assert impl.moves(fen) == set()
    assert impl.outcome(fen) == ("g", "no legal move")
    assert impl.perft(fen, 1) == 0
    # With Green to move the same board is a game going on.
    assert impl.outcome(fen[:-1] + "g") is None


# ---------------------------------------------------------------------------
# Section 7: position string
# ---------------------------------------------------------------------------


EMPTY = {
    4: "4/5/6/7/6/5/4 g",
    5: "5/6/7/8/9/8/7/6/5 g",
    6: "6/7/8/9/10/11/10/9/8/7/6 g",
    7: "7/8/9/10/11/12/13/12/11/10/9/8/7 g",
    8: "8/9/10/11/12/13/14/15/14/13/12/11/10/9/8 g",
    9: "9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/9 g",
}

ROUND_TRIP = [
    "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g",
    "6/2bbb2/2b2g2/2bb2gg1/1gggg1gg2/1g2g1g1g2/1gggggg1g1/2g1g1g2/2gg1g2/2g1g2/6 g",
    "6/1bb2b1/1b1bbbb1/1b4bb1/1b3bb3/2bb2bbb2/3bb1b1b1/3b2b2/1b3bb1/1b2b2/6 g",
    "4/1g3/6/7/6/5/4 b",
    "4/1gb2/1bgb2/1bgbg2/1gbg2/1bg2/4 b",
]


@pytest.mark.parametrize("size", range(4, 10))
def test_7_empty_positions(size):
    pos = ref.empty_position(size)
    assert ref.format_position(pos) == EMPTY[size]
    assert ref.parse_position(EMPTY[size]) == pos
    assert pos.to_move == "g" and len(pos.tokens) == 0


@pytest.mark.parametrize("fen", ROUND_TRIP)
def test_7_round_trip(fen):
    pos = ref.parse_position(fen)
    assert ref.format_position(pos) == fen
    assert ref.parse_position("  " + fen + "\n") == pos  # surrounding whitespace
    assert hash(pos) == hash(ref.parse_position(fen))


def test_7_rows_top_to_bottom():
    # Top row is r = 2S-2; cells in increasing c. S=4 top row spans c = 3..6.
    pos = ref.parse_position("4/1g3/6/7/6/5/4 b")
    assert dict(pos.tokens) == {(3, 5): "g"}  # second row r=5 spans c=2..6
    assert pos.to_move == "b"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "4/5/6/7/6/5/4",  # missing side to move
        "4/5/6/7/6/5/4 ",  # missing side to move
        "4/5/6/7/6/5/4 x",  # bad side to move
        "4/5/6/7/6/5/4 G",  # upper case side (lower case only)
        "4/5/6/7/6/5/4 g b",  # extra field
        "4/5/6/7/6/5/4  g",  # two spaces
        "4/5/6/7/6/5 g",  # even row count
        "6/7 g",  # too few rows
        "3/4/5/4/3 g",  # S=3 unsupported
        "10/11/12/13/14/15/16/17/18/19/18/17/16/15/14/13/12/11/10 g",  # S=10
        "4/5/6/7/6/5/5 g",  # bottom row too long
        "4/5/6/6/6/5/4 g",  # middle row too short
        "4/5/6/7/6/5/ g",  # empty row
        "g3/5/6/7/6/5/4 g",  # token on an edge cell (top row)
        "4/5/6/g6/6/5/4 g",  # token on an edge cell (c = 0)
        "4/5/6/6g/6/5/4 g",  # token on an edge cell (c = 2S-2)
        "4/1G3/6/7/6/5/4 g",  # upper-case token
        "4/1x3/6/7/6/5/4 g",  # unknown character
        "4/5/6/7/6/5/4 g\x00",  # unknown character
        "4/5/6/07/6/5/4 g",  # leading zero
        "4/5/6/0g7/6/5/4 g",  # zero run
        "4/5/6/99999999999999999999/6/5/4 g",  # huge run count
        "4/5/6/1" + "9" * 5000 + "/6/5/4 g",  # enormous run count
        "4/5/6/7/6/5/4/ g",  # trailing slash
        "4/5/6/7/6/5/4\ng",  # newline instead of space
        "4/5/6/7/6/5/4 g\n4/5/6/7/6/5/4 g",  # two lines
        "４/5/6/7/6/5/4 g",  # non-ASCII digit
    ],
)
def test_7_rejections(text):
    with pytest.raises(HingeError) as info:
        ref.parse_position(text)
    assert "\n" not in str(info.value) and str(info.value)


def test_7_position_value_semantics():
    with pytest.raises(HingeError):
        ref.empty_position(3)
    with pytest.raises(HingeError):
        ref.empty_position(10)
    with pytest.raises(HingeError):
        ref.RefPosition(6, {(0, 0): "g"}, "g")  # edge cell
    a = ref.RefPosition(6, {(5, 5): "g"}, "b")
    assert a == ref.parse_position(board(6, g="F6", to_move="b"))
    assert len({a, ref.parse_position(board(6, g="F6", to_move="b"))}) == 1
    assert ref.groups(ref.parse_position(board(6, g="F6 G6", b="H6 I8 I9")), "b") == [
        frozenset({(7, 5)}),
        frozenset({(8, 7), (8, 8)}),
    ]


# ---------------------------------------------------------------------------
# Section 8: perft
# ---------------------------------------------------------------------------

PERFT = [
    (EMPTY[4], [19, 258, 3450]),
    (EMPTY[5], [37, 1152]),
    (EMPTY[6], [61, 3348]),
    (EMPTY[7], [91, 7710]),
    (EMPTY[8], [127]),
    (EMPTY[9], [169]),
    (ROUND_TRIP[0], [34, 1114]),
    (ROUND_TRIP[1], [30, 265]),
    (ROUND_TRIP[2], [0, 0]),  # Green eliminated
]


@pytest.mark.parametrize("fen,counts", PERFT, ids=[f"perft{i}" for i in range(len(PERFT))])
def test_8_perft(impl, fen, counts):
    assert impl.perft(fen, 0) == 1
    for depth, expected in enumerate(counts, start=1):
        assert impl.perft(fen, depth) == expected, (fen, depth)
