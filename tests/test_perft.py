"""Perft tables: counts that the fast engine must reproduce exactly.

``tests/data/perft.json`` holds counts agreed on by the fast engine and the
reference implementation (``python -m scripts.make_perft_table``), and the independent
counts of an independent implementation. Every run checks all the independent counts
(up to the 690 million leaves of the empty S=9 board at depth 4) and the agreed
counts up to ``FAST_BUDGET`` nodes, with and without bulk counting; ``-m slow``
checks the rest.
"""

import json
from pathlib import Path

import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core import kernels
from hinge_fast.core.tables import workspace

TABLE = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())
FAST_BUDGET = 3_000_000
MADE_BUDGET = 500_000


def fast_perft(fen: str, depth: int, bulk: bool = True) -> int:
    board = Board.from_fen(fen)
    own, enemy = board.own, board.enemy
    return int(kernels.perft_kernel(board.size, own, enemy, depth, bulk, workspace(depth + 1)))


def cases(budget, slow_budget=None, key="counts"):
    return list(_cases(budget, slow_budget, key))


def _cases(budget, slow_budget, key):
    for entry in TABLE:
        for depth, count in enumerate(entry.get(key) or [], start=1):
            if count <= budget:
                yield pytest.param(entry["position"], depth, count, id=f"{entry['name']} d{depth}")
            elif slow_budget is not None and count <= slow_budget:
                yield pytest.param(
                    entry["position"],
                    depth,
                    count,
                    id=f"{entry['name']} d{depth}",
                    marks=pytest.mark.slow,
                )


def test_table_covers_random_play_on_every_side():
    sizes = {
        Board.from_fen(e["position"]).size for e in TABLE if e["name"].startswith("random play")
    }
    assert sizes == {4, 5, 6, 7, 8, 9}
    assert sum(e["name"].startswith("random play") for e in TABLE) >= 10
    for entry in TABLE:
        independent = entry.get("independent")
        if independent:
            assert entry["counts"] == independent[: len(entry["counts"])], entry["name"]


@pytest.mark.parametrize("fen, depth, expected", cases(FAST_BUDGET, slow_budget=10**9))
def test_fast_perft_bulk(fen, depth, expected):
    assert fast_perft(fen, depth, bulk=True) == expected


@pytest.mark.parametrize("fen, depth, expected", cases(MADE_BUDGET, slow_budget=50_000_000))
def test_fast_perft_every_leaf_made(fen, depth, expected):
    assert fast_perft(fen, depth, bulk=False) == expected


# Bulk counting makes even the 690 million leaves of the empty S=9 board at depth 4
# cheap (about a second: 4.4 million move generations), so every run checks them all.
@pytest.mark.parametrize("fen, depth, expected", cases(10**10, key="independent"))
def test_independent_counts(fen, depth, expected):
    assert fast_perft(fen, depth) == expected


@pytest.mark.parametrize("fen, depth, expected", cases(20_000))
def test_reference_perft(fen, depth, expected):
    assert ref.perft(ref.parse_position(fen), depth) == expected


def test_perft_divide_sums_to_total():
    from hinge_fast.core import parallel

    fen = TABLE[6]["position"]
    board = Board.from_fen(fen)
    counts, codes = parallel.perft_divide(board.size, board.own, board.enemy, 3, True, threads=1)
    assert len(codes) == len(board.legal_moves)
    assert int(counts.sum()) == TABLE[6]["counts"][2]
    for code, count in zip(codes, counts):
        child = board.copy()
        child.push(board.move_from_code(code))
        assert fast_perft(child.fen(), 2) == count
