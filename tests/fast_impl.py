"""The fast engine behind the adapter that tests/test_rules.py runs every rule test on."""

from hinge_fast import Board


class FastImpl:
    name = "fast"

    def moves(self, fen: str) -> set[str]:
        return {str(m) for m in Board.from_fen(fen).legal_moves}

    def play(self, fen: str, move: str) -> str:
        board = Board.from_fen(fen)
        board.push_str(move)
        return board.fen()

    def outcome(self, fen: str):
        outcome = Board.from_fen(fen).outcome()
        return None if outcome is None else (outcome.winner.letter, outcome.reason)

    def perft(self, fen: str, depth: int) -> int:
        from hinge_fast.core import kernels
        from hinge_fast.core.tables import workspace

        board = Board.from_fen(fen)
        own, enemy = board.own, board.enemy
        return int(kernels.perft_kernel(board.size, own, enemy, depth, False, workspace(depth + 1)))
