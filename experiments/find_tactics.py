"""Find small positions with forced eliminations, for tests/test_mcts.py.

Plays seeded random games and prints positions where the side to move
* can eliminate in one (kind 'win1'),
* cannot win in one but forces an elimination in three plies (kind 'win3'),
* cannot win in one, has moves that allow an elimination in one and safe moves (kind 'trap').

Usage: python -m experiments.find_tactics SIZE GAMES SEED
Example: python -m experiments.find_tactics 4 50 1
"""

import argparse
import random

from hinge_fast import Board
from scripts import run_script


def eliminating_moves(board):
    out = []
    for m in board.legal_moves:
        board.push(m)
        if board.is_eliminated() or board.outcome() is not None:
            out.append(m)
        board.pop()
    return out


def forced_win3(board):
    """Moves m1 after which every reply allows an immediate win (game not over after m1)."""
    wins = []
    for m1 in board.legal_moves:
        board.push(m1)
        replies = board.legal_moves
        ok = bool(replies)
        for m2 in replies:
            board.push(m2)
            if not eliminating_moves(board):
                ok = False
            board.pop()
            if not ok:
                break
        board.pop()
        if ok:
            wins.append(m1)
    return wins


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.find_tactics", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("size", type=int, help="board side")
    parser.add_argument("games", type=int, help="random games to play")
    parser.add_argument("seed", type=int, help="seed of the random games")
    args = parser.parse_args(argv)
    size, games, seed = args.size, args.games, args.seed
    rng = random.Random(seed)
    for _g in range(games):
        board = Board(size)
        while not board.is_game_over():
            moves = board.legal_moves
            if len(moves) <= 40 and not eliminating_moves(board):
                unsafe, safe = [], []
                for m in moves:
                    board.push(m)
                    (unsafe if eliminating_moves(board) else safe).append(m)
                    board.pop()
                w3 = forced_win3(board) if len(moves) <= 25 else []
                if w3:
                    print("win3", board.fen(), len(moves), [str(m) for m in w3], flush=True)
                elif unsafe and safe and len(safe) <= len(unsafe):
                    print("trap", board.fen(), len(moves), len(safe), len(unsafe), flush=True)
            elif eliminating_moves(board) and len(moves) > 5:
                print(
                    "win1",
                    board.fen(),
                    len(moves),
                    [str(m) for m in eliminating_moves(board)],
                    flush=True,
                )
            board.push(rng.choice(moves))


if __name__ == "__main__":
    run_script(main)
