"""Puzzles (``solving/puzzles.py``, ``hinge-fast puzzles``): the shipped set parses, each
puzzle's win is proven again within its recorded node count and its proof passes the
reference checker of ``solving/proof.py``; bad puzzle files are one-line errors; the
command writes a puzzle file; and the engines, at a fixed node limit on one thread,
answer each puzzle with a legal move (how many they solve is reported, not asserted)."""

from __future__ import annotations

import json

import pytest

from hinge_fast import Board
from hinge_fast.errors import HingeError
from hinge_fast.search.prover import Prover
from hinge_fast.solving.proof import check_proof_text, write_proof_text
from hinge_fast.solving.puzzles import (
    FORMAT,
    TABLE_MB,
    Puzzle,
    engine_solve_counts,
    load_puzzles,
    parse_puzzles,
    puzzles_json,
    solves,
)

PUZZLES = load_puzzles()
#: The puzzle of the default suite's proof check: of the smallest side, the one proven in
#: the fewest nodes (the reference checker replays a side-6 proof of a thousand positions
#: in about half a minute on a loaded machine; every puzzle's proof is checked in the slow
#: suite).
EASIEST = min(PUZZLES, key=lambda p: (p.size, p.nodes))
#: Puzzles proven again in the default suite (without the checker): those of at most
#: this many nodes.
FAST_NODES = 50_000


def test_the_shipped_set_spans_the_big_boards():
    sides = {p.size for p in PUZZLES}
    assert len(PUZZLES) >= 10 and sides <= {6, 7, 8, 9} and len(sides) >= 2, [
        p.position for p in PUZZLES
    ]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.source or p.position)
def test_a_shipped_puzzle_is_consistent(puzzle):
    board = Board.from_fen(puzzle.position)
    assert board.outcome() is None and str(board.turn) == puzzle.winner
    assert puzzle.moves and all(board.parse_move(m) for m in puzzle.moves)
    assert puzzle.engine_move not in puzzle.moves and board.parse_move(puzzle.engine_move)
    assert puzzle.distance >= 1 and puzzle.distance % 2 == 1  # the winner makes the last move


def prove_again(puzzle):
    """The prover, from an empty table as the finder ran it, proves the puzzle's winner
    within its node count, and every move it proves winning is listed (so the puzzles
    mode takes it). Its bound on the distance is that of its own proof, which may be
    longer or shorter than the puzzle's: both are proven bounds, and the shortest win
    is no longer than either."""
    board = Board.from_fen(puzzle.position)
    prover = Prover(table_mb=TABLE_MB)
    result = prover.prove(board, nodes=puzzle.nodes)
    assert str(result.winner) == puzzle.winner and result.distance % 2 == 1, result.text()
    proven = {str(m.move) for m in result.root_moves if str(m.winner) == puzzle.winner}
    assert proven <= set(puzzle.moves)
    return prover, board, result


def prove_and_check(puzzle):
    prover, board, result = prove_again(puzzle)
    proof = prover.proof(board, result.winner, nodes=10 * puzzle.nodes)
    checked = check_proof_text(
        write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
    )
    assert checked.winner == puzzle.winner and checked.position == puzzle.position
    assert proof.strategy[puzzle.position] in puzzle.moves  # the proof's first move is a listed one


@pytest.mark.parametrize(
    "puzzle", [p for p in PUZZLES if p.nodes <= FAST_NODES], ids=lambda p: p.source
)
def test_a_shipped_puzzle_is_proven_again(puzzle):
    prove_again(puzzle)


def test_the_easiest_puzzles_proof_passes_the_reference_checker():
    prove_and_check(EASIEST)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.source)
def test_every_shipped_puzzles_proof_passes_the_reference_checker(puzzle):
    prove_and_check(puzzle)


def test_a_puzzle_file_round_trips():
    text = puzzles_json(PUZZLES[:2], {"command": "hinge-fast puzzles"})
    assert parse_puzzles(text) == PUZZLES[:2]


def test_bad_puzzle_files_are_one_line_errors(tmp_path):
    good = PUZZLES[0].to_dict()
    cases = {
        "not json": "not JSON",
        json.dumps({"puzzles": []}): "not a puzzle file",
        json.dumps(
            {"format": FORMAT, "puzzles": [{"position": good["position"]}]}
        ): "puzzle 1 needs",
        json.dumps(
            {
                "format": FORMAT,
                "puzzles": [{**good, "winner": "blue" if good["winner"] == "green" else "green"}],
            }
        ): "the side to move is not the winner",
        json.dumps({"format": FORMAT, "puzzles": [{**good, "position": "6/7 g"}]}): "puzzle 1:",
    }
    for text, message in cases.items():
        with pytest.raises(HingeError, match=message) as e:
            parse_puzzles(text)
        assert "\n" not in str(e.value)
    with pytest.raises(HingeError, match="does not exist"):
        load_puzzles(tmp_path / "missing.json")


def test_the_puzzles_command_writes_a_puzzle_file(cli, tmp_path):
    out = tmp_path / "p.json"
    run = cli(
        "puzzles",
        "--size",
        "5",
        "--games",
        "1",
        "--count",
        "1",
        "--nodes",
        "2000",
        "--play-nodes",
        "200",
        "--engine-time",
        "0.01",
        "--out",
        out,
    )
    assert run.status in (0, 1) and "side 5:" in run.err
    found = load_puzzles(out)
    assert len(found) == (1 if run.status == 0 else 0)
    for p in found:
        assert p.size == 5 and p.engine_move not in p.moves
    header = json.loads(out.read_text())
    assert header["command"].startswith("hinge-fast puzzles --size 5 --games 1")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--size", "10"], "--size must be from 4 to 9"),
        (["--games", "0"], "--games must be from 1"),
        (["--out", "/no/such/folder/p.json"], "cannot write /no/such/folder/p.json"),
    ],
)
def test_bad_options_are_one_line_and_status_2(cli, argv, message):
    run = cli("puzzles", *argv)
    assert run.status == 2 and message in run.err and len(run.err.strip().splitlines()) == 1


#: Nodes (alpha-beta) or playouts (MCTS) per puzzle of the engines' test.
ENGINE_NODES = 2000


def test_engines_answer_each_puzzle_with_a_legal_move_and_the_solve_counts_are_reported():
    """Deterministic: one thread and a node limit (MCTS seeded). The counts are printed
    (``pytest tests/test_puzzles.py -k engines -s``), not asserted: strength is never a
    test's claim."""
    counts = engine_solve_counts(PUZZLES, nodes=ENGINE_NODES)
    for engine, (solved, moves) in counts.items():
        assert 0 <= solved <= len(PUZZLES)
        for puzzle, move in zip(PUZZLES, moves):
            assert move in Board.from_fen(puzzle.position).legal_moves
        assert solved == sum(solves(p, m) for p, m in zip(PUZZLES, moves))
        print(f"{engine}: {solved} of {len(PUZZLES)} puzzles solved at {ENGINE_NODES} nodes")
    again = engine_solve_counts(PUZZLES[:3], nodes=ENGINE_NODES)
    assert all(again[e][1] == counts[e][1][:3] for e in counts)  # the same moves again


def test_puzzle_fields():
    p = Puzzle("4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g", "green", ["C2-C2xD2"], 3, 15, "B3", 0.1)
    assert p.size == 4 and p.to_dict()["moves"] == ["C2-C2xD2"]
