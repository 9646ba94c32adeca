"""Long runs of the prover: checkpoints (``search/checkpoint.py``) and the root's moves
proven on threads (``search/prover_split.py``), through the API and ``hinge-fast prove``."""

from __future__ import annotations

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast.errors import HingeError
from hinge_fast.search import prover as prover_module
from hinge_fast.search.checkpoint import load_checkpoint, save_checkpoint
from hinge_fast.search.dfpn import ProofTable, new_table
from hinge_fast.search.prover import Prover
from hinge_fast.solving.proof import check_proof, check_proof_text, write_proof_text
from tests.test_prove import BLUE_WINS_IN_3, GREEN_WINS_IN_3, late_positions

EMPTY4 = Board(4).fen()


def checked(proof):
    return check_proof_text(
        write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
    )


# ----- checkpoints -----------------------------------------------------------------------------
@pytest.mark.parametrize("stop", [2_000, 5_000])
def test_a_run_stopped_then_resumed_ends_as_one_run(tmp_path, stop):
    whole = Prover(table_mb=8).prove(Board(4), interruptible=False)
    path = tmp_path / "run.npz"
    first = Prover(table_mb=8).prove(Board(4), nodes=stop, checkpoint=path, interruptible=False)
    assert first.winner is None and first.nodes == stop
    assert load_checkpoint(path, EMPTY4).nodes == stop
    resumed = Prover(table_mb=8)
    second = resumed.prove(Board(4), checkpoint=path, interruptible=False)
    assert second.winner == whole.winner and second.complete
    # the nodes count those of the first part; the total is close to one run's
    assert second.nodes > stop
    assert 0.6 * whole.nodes < second.nodes < 1.5 * whole.nodes
    # the table came from the checkpoint, and a proof is drawn from it
    assert len(resumed.table.keys) == len(load_checkpoint(path, EMPTY4).table.keys)
    assert resumed.proof(Board(4), second.winner).distance >= 13


def test_a_run_saves_every_so_often_and_at_the_end(tmp_path, monkeypatch):
    saved = []

    def counting(path, position, table, nodes, seconds):
        saved.append(nodes)
        save_checkpoint(path, position, table, nodes, seconds)

    monkeypatch.setattr(prover_module, "save_checkpoint", counting)
    path = tmp_path / "run.npz"
    # Long enough for several saves on any machine: 300,000 nodes of the side-5 board.
    result = Prover(table_mb=8).prove(
        Board(5), nodes=300_000, checkpoint=path, checkpoint_every=0.02
    )
    assert result.nodes >= 300_000
    assert len(saved) >= 2 and saved == sorted(saved) and saved[-1] == result.nodes
    assert load_checkpoint(path, Board(5).fen()).nodes == result.nodes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.npz"]  # no temporary file left


def test_a_checkpoint_of_another_position_is_refused(tmp_path):
    path = tmp_path / "run.npz"
    Prover(table_mb=1).prove(Board(4), nodes=500, checkpoint=path, interruptible=False)
    with pytest.raises(
        HingeError, match=r"of the position 4/5/6/7/6/5/4 g \(side 4\), not of .* \(side 5\)"
    ):
        Prover(table_mb=1).prove(Board(5), checkpoint=path, interruptible=False)
    with pytest.raises(HingeError, match="side 4.*side 4"):
        Prover(table_mb=1).prove(
            Board.from_fen(GREEN_WINS_IN_3), checkpoint=path, interruptible=False
        )


@pytest.mark.parametrize("damage", ["truncated", "flipped", "text", "empty"])
def test_a_damaged_checkpoint_is_refused(tmp_path, damage):
    path = tmp_path / "run.npz"
    Prover(table_mb=1).prove(Board(4), nodes=2000, checkpoint=path, interruptible=False)
    data = bytearray(path.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "flipped":  # inside the arrays: the archive's checksum no longer matches
        for i in range(len(data) // 3, len(data) // 3 + 64):
            data[i] ^= 0xFF
    elif damage == "text":
        data = bytearray(b"hinge-fast proof 1\n")
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    with pytest.raises(HingeError, match="not a readable prover checkpoint"):
        Prover(table_mb=1).prove(Board(4), checkpoint=path, interruptible=False)


def test_a_checkpoint_with_wrong_arrays_is_refused(tmp_path):
    path = tmp_path / "run.npz"
    table = new_table(1)
    save_checkpoint(
        path,
        EMPTY4,
        ProofTable(table.keys, np.zeros(7, dtype=np.int64), table.dn, table.meta),
        1,
        0.1,
    )
    with pytest.raises(HingeError, match="not a readable prover checkpoint"):
        load_checkpoint(path, EMPTY4)
    with pytest.raises(HingeError, match="no checkpoint at"):
        load_checkpoint(tmp_path / "none.npz", EMPTY4)


def test_cli_checkpoint_then_resume(cli, tmp_path):
    path = tmp_path / "run.npz"
    first = cli("prove", "--size", "4", "--nodes", "2000", "--table-mb", "8", "--checkpoint", path)
    assert first.status == 1 and "checkpoint written to" in first.err
    refused = cli("prove", "--size", "4", "--table-mb", "8", "--checkpoint", path)
    assert refused.status == 2 and "holds its own table" in refused.err
    other = cli("prove", "--size", "5", "--checkpoint", path, "--quiet")
    assert other.status == 2 and "(side 4)" in other.err and "Traceback" not in other.err
    done = cli("prove", "--size", "4", "--checkpoint", path)
    assert done.status == 0 and "resuming the run saved in" in done.err
    assert done.out.startswith("Green wins in at most ")
    assert load_checkpoint(path, EMPTY4).nodes > 2_000
    both = cli("prove", "--size", "4", "--checkpoint", tmp_path / "other.npz", "--threads", "2")
    assert both.status == 2 and "one thread" in both.err


# ----- threads ---------------------------------------------------------------------------------
THREADED = [GREEN_WINS_IN_3, BLUE_WINS_IN_3, *late_positions(6, seed=11, before_end=9)]


@pytest.mark.parametrize("fen", THREADED)
def test_two_threads_prove_what_one_does(fen):
    board = Board.from_fen(fen)
    one = Prover(table_mb=4)
    alone = one.prove(board, interruptible=False)
    two = Prover(table_mb=4, threads=2)
    split = two.prove(board)
    assert split.winner == alone.winner is not None
    assert split.complete
    proof = checked(two.proof(board, split.winner))
    assert proof.winner == str(alone.winner) == checked(one.proof(board, alone.winner)).winner
    assert len(split.root_moves) == len(board.legal_moves)


@pytest.mark.parametrize("fen", THREADED[:5])
def test_the_root_moves_alone_prove_it_and_their_proofs_join(monkeypatch, fen):
    # thread 0 (the root searched as on one thread) left idle: the threads of the root's
    # moves decide, and the proof is joined from theirs
    from hinge_fast.search import prover_split

    monkeypatch.setattr(prover_split.Split, "work_root", lambda split, nodes, deadline: None)
    board = Board.from_fen(fen)
    alone = Prover(table_mb=4).prove(board, interruptible=False)
    three = Prover(table_mb=4, threads=3)
    split = three.prove(board)
    assert split.winner == alone.winner and not three.split.by_root
    assert sum(m.winner == split.winner for m in split.root_moves) >= 1
    proof = three.proof(board, split.winner)
    assert checked(proof).winner == str(alone.winner)
    assert proof.distance == prover_split.strategy_distance(board, split.winner, proof.strategy)
    # the walk refuses a strategy with a position of the winner left without a move
    broken = dict(proof.strategy)
    broken.pop(next(iter(broken)))
    with pytest.raises(HingeError, match="no move for the winner"):
        prover_split.strategy_distance(board, split.winner, broken)


def test_the_root_moves_of_a_symmetric_lost_root_are_proven_once_and_each_has_a_proof(monkeypatch):
    # After Green's centre move on side 4 Blue has 12 replies (the outer ring's corners and
    # middles), 2 classes under the board's symmetries: the threads prove one reply of
    # each class, and the joined proof still answers every one of the 12.
    from hinge_fast.search import prover_split

    monkeypatch.setattr(prover_split.Split, "work_root", lambda split, nodes, deadline: None)
    board = Board.from_fen("4/5/6/3g3/6/5/4 b")
    three = Prover(table_mb=4, threads=3)
    result = three.prove(board)
    assert str(result.winner) == "green" and not three.split.by_root
    assert len(result.root_moves) == 12 and all(str(m.winner) == "green" for m in result.root_moves)
    assert len({id(r) for r in three.split.results}) == 2
    proof = three.proof(board, result.winner)
    assert (
        proof.distance
        == result.distance
        == prover_split.strategy_distance(board, result.winner, proof.strategy)
    )
    for move in board.legal_moves:  # every reply leads to a position the proof answers
        child = board.copy()
        child.push(move)
        assert child.fen() in proof.strategy


def test_two_threads_prove_the_empty_side4_board(cli):
    run = cli("prove", "--size", "4", "--threads", "2", "--table-mb", "16", "--moves")
    assert run.status == 0 and run.out.startswith("Green wins in at most ")
    # a root move proven for Green, listed with --moves
    assert any("Green wins in at most" in line for line in run.out.splitlines()[1:])


@pytest.mark.slow
def test_two_threads_write_a_proof_of_the_empty_side4_board(tmp_path, cli):
    # the reference checker takes tens of seconds over this proof's 14,000 positions
    out = tmp_path / "side4.proof"
    run = cli("prove", "--size", "4", "--threads", "2", "--table-mb", "16", "--out", out)
    assert run.status == 0 and run.out.startswith("Green wins in at most ")
    assert check_proof(out).winner == "green"


def test_threads_prove_each_first_move_once_up_to_symmetry_stop_at_a_node_limit_and_sum_their_nodes():
    result = Prover(table_mb=1, threads=2).prove(Board(5), nodes=300)
    assert result.winner is None and not result.complete
    assert result.text() == "not proven within the limits"
    # The 37 first moves of side 5 fall into 6 classes under the board's symmetries (the
    # centre, the ring around it, two of the next ring, two of the outer one).
    classes = 6
    assert 300 * classes <= result.nodes <= 300 * (classes + 1)
    assert len(result.root_moves) == 37
    assert len({(m.pn, m.dn) for m in result.root_moves}) == classes
    assert all(m.winner is None for m in result.root_moves)


def test_threads_must_be_a_positive_whole_number():
    with pytest.raises(HingeError, match="threads must be"):
        Prover(threads=0)
