"""The prover (``search/prover.py``, ``search/dfpn.py``), proof files and their checker
(``solving/proof.py``), ``hinge-fast prove`` and ``hinge-fast check-proof``.

The prover's values are compared with a brute-force minimax of the reference
implementation on late side-4 positions; its proofs must pass the checker, which
replays them with the reference implementation alone, and a tampered proof must not.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.errors import HingeError
from hinge_fast.search.prover import Prover
from hinge_fast.solving.proof import check_proof, check_proof_text, write_proof_text
from hinge_fast.solving.tablebase import default_tablebase_path

#: Green to move wins in 3 plies (docs/solve.md); Blue to move in the position before.
GREEN_WINS_IN_3 = "4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g"
BLUE_WINS_IN_3 = "4/1bgg1/2bb2/2bgg2/1ggb2/2gb1/4 b"


@pytest.fixture(scope="module")
def prover():
    return Prover(table_mb=16)


# ----- brute force through the reference implementation ----------------------------------------
@cache
def legal(pos):
    return tuple(ref.play(pos, m) for m in sorted(ref.legal_moves(pos), key=ref.move_name))


@cache
def wins_within(pos, plies):
    """The side to move can force the end of the game, won, within ``plies`` plies."""
    return plies > 0 and any(loses_within(child, plies - 1) for child in legal(pos))


@cache
def loses_within(pos, plies):
    """Whatever the side to move plays, it has lost within ``plies`` plies."""
    children = legal(pos)
    if not children:
        return True
    return plies > 0 and all(wins_within(child, plies - 1) for child in children)


def exact_value(pos, most):
    """(side-to-move wins, distance) by brute force, or None if the game lasts longer
    than ``most`` plies under best play."""
    for plies in range(most + 1):
        if wins_within(pos, plies):
            return True, plies
        if loses_within(pos, plies):
            return False, plies
    return None


def late_positions(count, seed, before_end=5, tokens=9):
    """Positions of seeded random side-4 games, up to ``before_end`` plies before the
    end, still going, with at least ``tokens`` tokens on the board."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board(4)
        fens = []
        while not board.is_game_over():
            if sum(ch in "gb" for ch in board.fen()[:-2]) >= tokens:
                fens.append(board.fen())
            board.push(rng.choice(board.legal_moves))
        if fens:
            out.append(rng.choice(fens[-before_end:]))
    return out


LATE = late_positions(50, seed=7)


def test_prover_agrees_with_brute_force(prover):
    compared = 0
    for fen in LATE:
        board = Board.from_fen(fen)
        result = prover.prove(board, nodes=2_000_000, interruptible=False)
        assert result.winner is not None, fen
        truth = exact_value(ref.parse_position(fen), 5)
        if truth is None:
            continue
        win, distance = truth
        assert result.winner == (board.turn if win else board.turn.other), fen
        assert result.distance >= distance, fen
        # The proof's distance is a real bound: the winner wins within it.
        if result.distance <= 5:
            pos = ref.parse_position(fen)
            assert (
                wins_within(pos, result.distance) if win else loses_within(pos, result.distance)
            ), fen
        compared += 1
    assert compared >= 30


def test_every_proof_passes_the_checker(prover):
    for fen in LATE[:20]:
        board = Board.from_fen(fen)
        result = prover.prove(board, interruptible=False)
        proof = prover.proof(board, result.winner)
        checked = check_proof_text(
            write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
        )
        assert checked.winner == str(result.winner)
        assert checked.distance == proof.distance
        assert checked.unused == 0


def test_known_wins(prover):
    green = prover.prove(Board.from_fen(GREEN_WINS_IN_3), interruptible=False)
    assert (green.text(), green.complete) == ("Green wins in at most 3 plies (proven)", True)
    blue = prover.prove(Board.from_fen(BLUE_WINS_IN_3), interruptible=False)
    assert blue.text() == "Blue wins in at most 3 plies (proven)"
    # The root moves: the one winning move of Blue is proven, and some losing ones are.
    won = [str(m.move) for m in blue.root_moves if m.winner == blue.winner]
    assert won == ["D6-D6xE6"]


def test_symmetric_positions_have_one_value(prover):
    from hinge_fast.core.fen import format_fen, parse_fen
    from hinge_fast.core.symmetry import symmetry_permutations

    perms = symmetry_permutations(4)
    for fen in LATE[:10]:
        parsed = parse_fen(fen)
        values = set()
        for perm in perms:
            image = format_fen(
                4,
                [int(perm[c]) for c in parsed.green],
                [int(perm[c]) for c in parsed.blue],
                parsed.turn,
            )
            result = Prover(table_mb=1).prove(Board.from_fen(image), interruptible=False)
            values.add(str(result.winner))
        assert len(values) == 1, fen


@pytest.mark.parametrize("size, classes", [(4, 4), (5, 6)])
def test_moves_to_images_of_one_position_share_their_numbers(size, classes):
    # On the empty board the first moves fall into classes under the board's symmetries
    # (side 4: the centre, the ring around it, the corners and the middles of the outer
    # ring); the moves of a class lead to one position up to symmetry and are counted once.
    board = Board(size)
    prover = Prover(table_mb=1)
    result = prover.prove(board, nodes=3000, interruptible=False)
    assert result.winner is None
    by_class = {}
    for move in result.root_moves:
        child = board.copy()
        child.push(move.move)
        by_class.setdefault(prover.position_key(child), set()).add((move.pn, move.dn))
    assert len(by_class) == classes
    assert all(len(numbers) == 1 for numbers in by_class.values())
    # The root's disproof number sums each class once (its proof number is the least).
    firsts = [next(iter(numbers)) for numbers in by_class.values()]
    assert result.pn == min(pn for pn, _ in firsts)
    assert result.dn == sum(dn for _, dn in firsts)


def test_node_limit_leaves_it_unproven():
    result = Prover(table_mb=1).prove(Board(5), nodes=200, interruptible=False)
    assert result.winner is None and not result.complete
    assert result.text() == "not proven within the limits"
    assert 200 <= result.nodes < 400


def test_empty_side4_board_is_a_green_win(prover):
    result = prover.prove(Board(4), interruptible=False)
    assert str(result.winner) == "green"
    assert result.distance >= 13  # the tablebase's exact distance is 13


# ----- the shortest win -------------------------------------------------------------------------
#: Blue wins in 3 plies at best; the plain search proves a win in 5.
SHORTER_THAN_FOUND = "4/1ggg1/3g2/1g2bb1/2bb2/5/4 b"


def test_shortest_proves_the_brute_force_distance_and_its_proof_has_it(prover):
    compared = 0
    for fen in LATE + late_positions(30, seed=11, before_end=9):
        board = Board.from_fen(fen)
        result = prover.prove(board, interruptible=False, shortest=True)
        assert result.shortest, fen
        proof = prover.proof(board, result.winner, shortest=True)
        checked = check_proof_text(
            write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
        )
        assert checked.winner == str(result.winner) and checked.unused == 0, fen
        assert checked.distance == proof.distance == result.distance, fen
        truth = exact_value(ref.parse_position(fen), 7)
        if truth is not None:
            assert (result.winner == board.turn, result.distance) == truth, fen
            compared += 1
    assert compared >= 60


def test_shortest_finds_a_shorter_win_than_the_plain_search():
    board = Board.from_fen(SHORTER_THAN_FOUND)
    assert Prover(table_mb=1).prove(board, interruptible=False).distance == 5
    result = Prover(table_mb=1).prove(board, interruptible=False, shortest=True)
    assert (result.text(), result.shortest) == (
        "Blue wins in 3 plies (proven, the shortest win)",
        True,
    )
    assert exact_value(ref.parse_position(SHORTER_THAN_FOUND), 3) == (True, 3)


def test_the_empty_side4_board_is_won_in_13_plies_at_best():
    result = Prover(table_mb=16).prove(Board(4), interruptible=False, shortest=True)
    assert (result.text(), result.shortest) == (
        "Green wins in 13 plies (proven, the shortest win)",
        True,
    )


def test_shortest_stopped_by_a_limit_says_so(cli):
    result = Prover(table_mb=1).prove(Board(4), nodes=30_000, interruptible=False, shortest=True)
    assert str(result.winner) == "green" and not result.shortest
    run = cli(
        "prove", "--size", "4", "--shortest", "--nodes", "30000", "--quiet", "--table-mb", "1"
    )
    assert run.status == 1
    assert run.out.splitlines()[1] == "its shortest win is not proven within the limits"
    run = cli("prove", "--size", "4", "--shortest", "--threads", "2")
    assert run.status == 2 and "--shortest searches on one thread" in run.err


def test_cli_prove_shortest_writes_the_shortest_proof(cli, tmp_path):
    out = tmp_path / "proof.txt"
    run = cli("prove", SHORTER_THAN_FOUND, "--shortest", "--out", out, "--quiet", "--table-mb", "4")
    assert run.status == 0, run.err
    assert run.out.splitlines()[0] == "Blue wins in 3 plies (proven, the shortest win)"
    run = cli("check-proof", out)
    assert run.status == 0, run.err
    assert run.out.splitlines()[0].endswith("in at most 3 plies")


@pytest.mark.slow
def test_shortest_proof_of_the_empty_side4_board_is_13_plies(tmp_path, cli):
    out = tmp_path / "side4.proof"
    run = cli("prove", "--size", "4", "--shortest", "--out", out, "--quiet", "--table-mb", "64")
    assert run.status == 0, run.err
    assert run.out.splitlines()[0] == "Green wins in 13 plies (proven, the shortest win)"
    checked = check_proof(out)
    assert (checked.winner, checked.distance, checked.unused) == ("green", 13, 0)


# ----- proof files and the checker ------------------------------------------------------------------
def proof_text(prover, fen):
    board = Board.from_fen(fen)
    proof = prover.proof(board)
    return write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)


def test_checker_rejects_a_tampered_proof(prover):
    text = proof_text(prover, BLUE_WINS_IN_3)
    lines = text.splitlines()
    assert check_proof_text(text).winner == "blue"
    # A reply of the loser left uncovered: the last line of the strategy removed.
    with pytest.raises(HingeError, match="no move for the winner"):
        check_proof_text("\n".join(lines[:-1]) + "\n")
    # A move that loses: the root's winning move replaced by a placement.
    root_line = next(i for i, line in enumerate(lines) if line.startswith(BLUE_WINS_IN_3))
    bad = list(lines)
    bad[root_line] = f"{BLUE_WINS_IN_3} B4"
    with pytest.raises(HingeError):
        check_proof_text("\n".join(bad) + "\n")
    # An illegal move.
    bad[root_line] = f"{BLUE_WINS_IN_3} D6"
    with pytest.raises(HingeError, match="illegal move"):
        check_proof_text("\n".join(bad) + "\n")
    # A wrong distance, a wrong winner.
    with pytest.raises(HingeError, match="claims 2 plies"):
        check_proof_text(text.replace("distance 3", "distance 2"))
    with pytest.raises(HingeError):
        check_proof_text(text.replace("winner blue", "winner green"))
    with pytest.raises(HingeError, match="not a proof file"):
        check_proof_text("hello\n")


def test_checker_reads_any_spelling_of_a_move_the_rules_accept(prover):
    # The moves lower-cased, as a person might write them: the same proof.
    text = proof_text(prover, BLUE_WINS_IN_3)
    header, body = text.splitlines()[:4], text.splitlines()[4:]
    lowered = [" ".join(line.split(" ")[:2] + [line.split(" ")[2].lower()]) for line in body]
    assert any(line != low for line, low in zip(body, lowered))
    checked = check_proof_text("\n".join(header + lowered) + "\n")
    assert (checked.winner, checked.distance) == (
        check_proof_text(text).winner,
        check_proof_text(text).distance,
    )


# ----- the command line ---------------------------------------------------------------------------
def test_prove_and_check_proof_commands(cli, tmp_path):
    out = tmp_path / "proof.txt"
    run = cli("prove", GREEN_WINS_IN_3, "--out", out, "--table-mb", "4")
    assert run.status == 0, run.err
    assert run.out.splitlines()[0] == "Green wins in at most 3 plies (proven)"
    assert "proof written to" in run.out
    run = cli("check-proof", out)
    assert run.status == 0, run.err
    assert (
        run.out.splitlines()[0]
        == f"proof accepted: Green wins {GREEN_WINS_IN_3} in at most 3 plies"
    )
    run = cli("prove", BLUE_WINS_IN_3, "--quiet", "--table-mb", "4")
    assert (run.status, run.out, run.err) == (0, "Blue wins in at most 3 plies (proven)\n", "")


def test_prove_unproven_is_status_1(cli):
    run = cli("prove", "--size", "5", "--nodes", "100", "--quiet", "--table-mb", "1")
    assert (run.status, run.out) == (1, "not proven within the limits\n")


@pytest.mark.parametrize(
    "argv, message",
    [
        (("prove", "4/5/6/7/6/5 g"), "rows"),
        (("prove", "--nodes", "0"), "N must be from"),
        (("prove", "4/5/6/7/1b2b1/5/4 g"), "the game is over"),
        (("check-proof", "no-such-file.txt"), "proof file no-such-file.txt does not exist"),
    ],
)
def test_bad_input_is_one_line_and_status_2(cli, argv, message):
    run = cli(*argv)
    assert run.status == 2
    assert run.err.count("\n") == 1 and run.err.startswith("error: ") and message in run.err


def test_check_proof_of_a_bad_file_is_status_2(cli, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("hinge-fast proof 1\nposition 4/5/6/7/6/5/4 g\nwinner green\ndistance 1\n")
    run = cli("check-proof", path)
    assert run.status == 2 and run.err.startswith("error: the proof has no move for the winner")


@pytest.mark.slow
def test_empty_side4_board_proof_passes_the_checker(tmp_path):
    prover = Prover(table_mb=64)
    board = Board(4)
    proof = prover.proof(board)
    path = tmp_path / "side4.proof"
    from hinge_fast.solving.proof import write_proof

    write_proof(path, proof.position, str(proof.winner), proof.distance, proof.strategy)
    checked = check_proof(path)
    assert checked.winner == "green" and checked.distance >= 13


# ----- the protocol -------------------------------------------------------------------------------
def test_protocol_prove():
    from hinge_fast.protocol.server import EngineSession

    session = EngineSession(strict=True)
    session.handle(f"newgame {GREEN_WINS_IN_3}")
    out = session.handle("prove nodes 100000")
    assert out[0].startswith("info nodes 1 time ") and out[1:] == ["proven green 3", "ok"]
    assert session.handle("prove depth 3")[0] == "err prove takes nodes N and time S, not depth"
    session.handle("newgame 5")
    out = session.handle("prove nodes 300")
    assert out[1:] == ["unproven", "ok"]
    stopped = EngineSession(should_stop=lambda: True, strict=True)
    stopped.handle("newgame 5")
    assert stopped.handle("prove")[1:] == ["unproven", "ok"]
    assert EngineSession().handle("prove") == ["err no game in progress: send newgame first", "ok"]


def test_proof_of_a_loss_for_the_side_to_move_within_a_node_limit(cli, tmp_path):
    # Green to move loses: the proof is Blue's, made by a second run with Blue attacking.
    board = Board.from_fen(BLUE_WINS_IN_3)
    board.push("D6-D6xE6")
    out = tmp_path / "loss.txt"
    run = cli("prove", board.fen(), "--nodes", "1000", "--out", out, "--quiet", "--table-mb", "4")
    assert run.status == 0, run.err
    assert run.out.startswith("Blue wins in at most 2 plies (proven)\n")
    assert cli("check-proof", out).status == 0


def test_analyze_shows_a_proven_result(cli):
    import json

    run = cli("analyze", GREEN_WINS_IN_3, "--depth", "1", "--prove", "30")
    assert run.status == 0, run.err
    assert run.out.splitlines()[-1].startswith(
        "proof: Green wins in at most 3 plies (proven), 1 nodes in "
    )
    run = cli("analyze", GREEN_WINS_IN_3, "--depth", "1", "--prove", "30", "--json")
    proof = json.loads(run.out)["proof"]
    assert (proof["winner"], proof["distance"], proof["nodes"]) == ("green", 3, 1)


@pytest.mark.slow
@pytest.mark.skipif(
    not default_tablebase_path().is_file(),
    reason="no side-4 tablebase at the default location",
)
def test_shortest_distances_are_the_tablebase_distances():
    from scripts.prove_check import main

    assert main(["--shortest", "--positions", "300", "--proofs", "100"]) == 0


#: Positions of seeded random side-4 games where the side to move cannot flip every enemy
#: token but has a move that leaves the other side with tokens and no legal move (the
#: prover settles such children when it lists them); and the position one ply before
#: each, the other side to move.
LEAVES_STUCK = (
    "4/1bg2/1ggg2/1bb1g2/1bbg2/1gb2/4 b",
    "4/5/1gggg1/2gbgb1/2gbb1/1bbg1/4 b",
    "4/1bbg1/1bggg1/1gbggg1/1bg1g1/1ggg1/4 b",
    "4/1gbg1/1bbgg1/2b2g1/4g1/1b3/4 b",
)
BEFORE_STUCK = (
    "4/1b3/1ggg2/1bb1g2/1bbg2/1gb2/4 g",
    "4/5/2ggg1/2gbgb1/2gbb1/1bbg1/4 g",
    "4/1bbg1/1bgg2/1gbggg1/1bg1g1/1ggg1/4 g",
    "4/1gbg1/1bb1g1/2b2g1/4g1/1b3/4 g",
)


def checked_proof(prover, board, winner):
    """The proof ``prover`` writes that ``winner`` wins ``board``, as the reference
    checker reads it back (it raises on a wrong proof)."""
    proof = prover.proof(board, winner)
    return check_proof_text(
        write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
    )


@pytest.mark.parametrize("fen", LEAVES_STUCK)
def test_a_move_that_leaves_the_other_side_without_a_move_wins_in_one_ply(fen):
    board = Board.from_fen(fen)
    ends = []
    for move in board.legal_moves:
        child = Board.from_fen(fen)
        child.push(move)
        if child.is_game_over():
            ends.append(child.token_count(child.turn))
    # What the test is about: a move leaves the other side tokens but no move, and no
    # move flips every enemy token.
    assert ends and min(ends) > 0
    prover = Prover(table_mb=1)
    result = prover.prove(board, interruptible=False)
    assert (result.winner, result.distance) == (board.turn, 1)
    checked = checked_proof(prover, board, result.winner)
    assert (checked.winner, checked.distance) == (str(board.turn), 1)


@pytest.mark.parametrize("fen", BEFORE_STUCK)
def test_positions_before_a_move_that_leaves_a_side_stuck_have_the_brute_force_value(fen):
    board = Board.from_fen(fen)
    prover = Prover(table_mb=1)
    result = prover.prove(board, interruptible=False)
    win, distance = exact_value(ref.parse_position(fen), 7)
    assert result.winner == (board.turn if win else board.turn.other)
    assert result.distance >= distance
    checked = checked_proof(prover, board, result.winner)
    assert checked.winner == str(result.winner)


#: Positions of seeded random side-4 games where the side to move has no win in one ply
#: but a move after which it threatens to flip every enemy token and no reply stops it:
#: the prover settles that child as won in two plies when it lists it.
THREAT_UNANSWERED = (
    "4/1g1b1/6/1gg2b1/1gg1b1/1gbb1/4 b",
    "4/5/1ggb2/4b2/1b4/2g2/4 g",
    "4/3b1/2b3/5g1/3gg1/1gg2/4 b",
    "4/1bb2/1b2g1/1g1g3/1gggg1/1gg2/4 b",
)
#: Positions where the side to move can make such a threat, but each one has an answer,
#: and whose value lies more than three plies ahead.
THREAT_ANSWERED = (
    "4/1g1b1/4b1/2g1bb1/3b2/1b3/4 b",
    "4/2b2/6/2b1g2/4g1/5/4 g",
    "4/1gb2/1g4/5g1/3b2/2b2/4 g",
    "4/2bb1/1g1bb1/7/2g3/2gg1/4 g",
)


@pytest.mark.parametrize("fen", THREAT_UNANSWERED)
def test_a_threat_without_an_answer_is_a_win_in_three_plies_found_by_listing_the_moves(fen):
    assert exact_value(ref.parse_position(fen), 3) == (True, 3)
    board = Board.from_fen(fen)
    prover = Prover(table_mb=1)
    # One node: the root's moves listed, no child searched.
    result = prover.prove(board, nodes=1, interruptible=False)
    assert (result.winner, result.distance, result.nodes) == (board.turn, 3, 1)
    checked = checked_proof(prover, board, result.winner)
    assert (checked.winner, checked.distance) == (str(board.turn), 3)


@pytest.mark.parametrize("fen", THREAT_ANSWERED)
def test_a_threat_with_an_answer_is_searched_and_the_value_is_the_brute_force_one(fen):
    board = Board.from_fen(fen)
    win, distance = exact_value(ref.parse_position(fen), 7)
    assert distance > 3  # no result to find by listing the moves
    prover = Prover(table_mb=1)
    assert prover.prove(board, nodes=1, interruptible=False).winner is None
    result = prover.prove(board, interruptible=False)
    assert result.winner == (board.turn if win else board.turn.other)
    assert result.distance >= distance
    checked = checked_proof(prover, board, result.winner)
    assert checked.winner == str(result.winner)


def test_of_children_tied_on_the_least_number_the_hardest_to_refute_is_searched():
    import numpy as np

    from hinge_fast.search.dfpn import INFINITY, most_proving

    numbers = np.array([3, 1, 2, 1, 1, 9], dtype=np.int64)
    others = np.array([5, 2, 1, 7, 7, 4], dtype=np.int64)
    # The least is 1 (three children): the first of those with the largest other number.
    assert most_proving(numbers, others, 6) == (1, 1, 3, 26)
    assert most_proving(numbers, others, 3) == (1, 2, 1, 8)
    assert most_proving(numbers, others, 0) == (INFINITY, INFINITY, 0, 0)
