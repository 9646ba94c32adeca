"""Load or compile every numba kernel ahead of use (``hinge-fast warmup``)."""

from __future__ import annotations


def warm_up() -> bool:
    """Run every kernel once on a small position, with the argument types the
    engine uses, so numba loads each from its cache or compiles it now. Returns
    whether anything had to be compiled."""
    import numpy as np

    from ..core import kernels
    from ..board import Board
    from ..search import Limits, create_searcher
    from ..search.registry import ENGINES
    from ..core.geometry import MAX_SIZE, MIN_SIZE
    from ..core.tables import workspace

    board = Board.from_fen("4/5/2gg2/2b1b2/2g3/5/4 g")
    own, enemy = board.own, board.enemy
    work = workspace(3)
    kernels.perft_kernel(board.size, own, enemy, 2, True, work)
    kernels.perft_kernel(board.size, own, enemy, 2, False, work)
    for size in range(MIN_SIZE, MAX_SIZE + 1):  # the shift layout's word counts
        side = Board(size)
        for bulk in (True, False):
            kernels.perft_kernel(size, side.own, side.enemy, 2, bulk, work)
        kernels.random_games(size, side.own, side.enemy, 0, 1, 8, 1, np.zeros(1, dtype=np.int64),
                             np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int8))
        kernels.make_unmake_loop(size, side.own, side.enemy, 1, work)
    from ..core import parallel

    for bulk in (True, False):
        parallel.perft(board.size, own, enemy, 2, bulk, 2)
    parallel.playouts(board.size, own, enemy, 2, 50, 1, 2)
    kernels.random_games(board.size, own, enemy, 0, 1, 50, 1, np.zeros(1, dtype=np.int64),
                         np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int8))
    board.legal_moves
    board.push(board.legal_moves[0])
    board.groups(board.turn)
    kernels.zobrist_hash(board.size, own, enemy, True)
    from ..search.prover import Prover

    prover = Prover(table_mb=1)
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        prover.prove(Board(size), nodes=1, interruptible=False)
    for engine in ENGINES:
        # tablebase off: a side-4 position in the table would be looked up, not searched
        create_searcher(engine, seed=1, tablebase="off").go(board, Limits(nodes=20))
    return kernels.COMPILE_NOTICE.said
