"""What each player's moves cost, by a deeper alpha-beta: the games of a match file
replayed, every move scored against the referee's best.

    python -m scripts.move_loss GAMES.hgn [--games N] [--depth D] [--big 500]

Example: python -m scripts.move_loss games.hgn --games 20 --depth 7

The referee is this version's alpha-beta on one thread, the tablebase off. At each
position of a game it searches ``--depth`` plies for the best score, then ``--depth``
minus one after the move played (so both scores see the same distance ahead); the
move's loss is the difference from the mover's side, at least 0, in centi-tokens, a
proven win or loss counted as 5,000 (and no loss above it). The referee is an engine,
not the truth: its own kind of play is favoured.

The two players are told apart by the round, as the match file's reader does
(``hinge-fast match`` plays the first engine as Green in odd rounds), so two players of
the same name are still counted apart; they are named by the ``PlayerA`` and ``PlayerB``
tags. Printed per player: moves scored, the mean
loss, and the share of moves losing ``--big`` centi-tokens or more.
"""

from __future__ import annotations

import argparse
import statistics

from hinge_fast import Board, HingeError
from hinge_fast.games.matchfile import game_from_record
from hinge_fast.records.record import read_records
from hinge_fast.search import Limits, create_searcher
from scripts import run_script

#: The loss of a move that turns a proven result, and the most a move can lose.
PROVEN = 5000


def centi(score) -> int:
    """A search score in centi-tokens from the side to move, a proven result +-PROVEN."""
    if score.is_mate:
        return PROVEN if score.mate > 0 else -PROVEN
    return max(-PROVEN, min(PROVEN, score.centi_tokens))


def move_losses(records, depth: int) -> dict[str, list[int]]:
    """``{"A": losses, "B": losses}`` of the moves of ``records`` (match games: the first
    player Green in odd rounds), each scored by alpha-beta to ``depth`` plies."""
    if depth < 2:
        raise HingeError(f"--depth must be at least 2, not {depth}")
    referee = create_searcher("alphabeta", threads=1, tablebase="off")
    losses: dict[str, list[int]] = {"A": [], "B": []}
    for number, record in enumerate(records, 1):
        game = game_from_record(record, f"game {number}")
        board = Board.from_fen(game.start) if game.start else Board(game.size)
        for move in game.moves:
            if board.is_game_over():
                break
            mover = "A" if board.turn == game.a_color else "B"
            best = centi(referee.go(board, Limits(depth=depth)).score)
            board.push_str(move)
            after = (
                PROVEN
                if board.is_game_over()
                else -centi(referee.go(board, Limits(depth=depth - 1)).score)
            )
            losses[mover].append(min(PROVEN, max(0, best - after)))
    return losses


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.move_loss",
        description="The loss of each player's moves in match games, by a deeper alpha-beta.",
    )
    parser.add_argument("games", help="a match file (hinge-fast match --out)")
    parser.add_argument("--games", type=int, default=None, dest="count", metavar="N",
                        help="the first N games only (default: all)")  # fmt: skip
    parser.add_argument("--depth", type=int, default=7, help="the referee's depth (default 7)")
    parser.add_argument("--big", type=int, default=500, metavar="CENTI",
                        help="a loss counted as big from this many centi-tokens (default 500)")  # fmt: skip
    args = parser.parse_args(argv)
    records = read_records(args.games)
    if args.count is not None:
        records = records[: args.count]
    losses = move_losses(records, args.depth)
    names = {"A": "PlayerA", "B": "PlayerB"}
    for who, values in losses.items():
        name = records[0].tags.get(names[who], who) if records else who
        if not values:
            print(f"{who} ({name}): no moves")
            continue
        big = sum(v >= args.big for v in values)
        print(
            f"{who} ({name}): {len(values)} moves, mean loss {statistics.mean(values):.0f} "
            f"centi-tokens, {100 * big / len(values):.1f}% losing {args.big} or more"
        )
    return 0


if __name__ == "__main__":
    run_script(main)
