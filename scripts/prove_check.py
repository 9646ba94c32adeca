"""The prover against the solved side-4 board: every proven value must agree with the
tablebase, and every proof must pass the checker.

Draws side-4 positions, half of them at a uniformly random ply of uniformly random
games, half where the choice matters (at least one winning and one losing move, as
``scripts/ground_truth.py`` draws them), proves each with ``hinge_fast.search.prover``
(one prover, its table kept from position to position), compares the winner with the
tablebase and the proof's distance with the exact one (a proof's longest line is at
least the exact distance), writes each proof down and checks it with the reference
implementation (``hinge_fast.solving.proof``; ``--proofs N``: those of the first N
positions of the shuffled draw only, since the large proofs of early positions take the
reference seconds to a minute each). Prints the counts and the time of each part; the
exit status is 1 when any position disagrees, is left unproven or fails the checker.

    python -m scripts.prove_check                          # 10,000 positions
    python -m scripts.prove_check --positions 200 --seed 3
    python -m scripts.prove_check --part 1/2 &  python -m scripts.prove_check --part 2/2
    python -m scripts.prove_check --shortest --positions 1000

``--shortest`` proves each position's shortest win (``Prover.prove(..., shortest=True)``)
and writes the proof that follows it: every distance, the prover's and the checked
proof's, must then be exactly the tablebase's.

``--part K/N`` takes every N-th position of the shuffled draw, starting at the K-th, so
N processes (one a core) together cover the draw of one seed exactly once.

Example: python -m scripts.prove_check --positions 100 --tablebase side4.tb

Needs the tablebase (``hinge-fast solve --size 4``; ``--tablebase FILE`` elsewhere).
"""

from __future__ import annotations

import argparse
import random
import time

from hinge_fast import Board
from hinge_fast.search.prover import Prover
from hinge_fast.solving.proof import MoveCache, check_proof_text, write_proof_text
from hinge_fast.solving.tablebase import Tablebase, probe
from scripts import run_script


def random_positions(tb: Tablebase, count: int, rng: random.Random) -> list[Board]:
    """``count`` positions at a uniformly random ply of uniformly random games, the
    game still going."""
    out = []
    while len(out) < count:
        board = Board(4)
        plies = []
        while not board.is_game_over():
            plies.append(board.fen())
            board.push(rng.choice(board.legal_moves))
        out.append(Board.from_fen(rng.choice(plies)))
    return out


def choice_positions(
    tb: Tablebase, count: int, rng: random.Random, per_game: int = 3
) -> list[Board]:
    """``count`` positions with a winning and a losing move, at most ``per_game`` from
    each random game."""
    out = []
    while len(out) < count:
        board = Board(4)
        found = []
        while not board.is_game_over():
            answer = probe(board, tb)
            wins = sum(1 for m in answer.moves if m.win)
            if 0 < wins < len(answer.moves):
                found.append(board.fen())
            board.push(rng.choice(board.legal_moves))
        rng.shuffle(found)
        out.extend(Board.from_fen(f) for f in found[:per_game])
    return out[:count]


def run(args) -> int:
    if args.proofs is None:
        args.proofs = args.positions
    tb = Tablebase(args.tablebase)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    half = args.positions // 2
    boards = [("random", b) for b in random_positions(tb, args.positions - half, rng)]
    boards += [("choice", b) for b in choice_positions(tb, half, rng)]
    rng.shuffle(boards)
    print(
        f"drew {len(boards):,} side-4 positions ({args.positions - half:,} random, {half:,} where the choice "
        f"matters) in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    part, parts = args.part
    if parts > 1:
        boards = take_part(boards, part, parts)
        print(f"part {part} of {parts}: {len(boards):,} of them", flush=True)
    prover = Prover(table_mb=args.table_mb)
    cache = MoveCache(limit=args.cache)
    counts = dict(agree=0, disagree=0, unproven=0, exact_distance=0, checked=0, check_failed=0)
    seconds = dict(prove=0.0, proof=0.0, check=0.0)
    nodes = 0
    proof_positions = 0
    failures = []
    for number, (_kind, board) in enumerate(boards, start=1):
        exact = probe(board, tb)
        truth = board.turn if exact.win else board.turn.other
        t = time.perf_counter()
        result = prover.prove(board, nodes=args.nodes, interruptible=False, shortest=args.shortest)
        seconds["prove"] += time.perf_counter() - t
        nodes += result.nodes
        if result.winner is None:
            counts["unproven"] += 1
            failures.append(f"unproven: {board.fen()} ({result.text()})")
            continue
        if (
            result.winner != truth
            or result.distance < exact.distance
            or args.shortest
            and (not result.shortest or result.distance != exact.distance)
        ):
            counts["disagree"] += 1
            failures.append(
                f"disagrees: {board.fen()}: prover {result.text()}, tablebase "
                f"{'win' if exact.win else 'loss'} in {exact.distance} for the side to move"
            )
            continue
        counts["agree"] += 1
        counts["exact_distance"] += result.distance == exact.distance
        if args.no_check or number > args.proofs:
            continue
        t = time.perf_counter()
        proof = prover.proof(board, result.winner, nodes=args.nodes, shortest=args.shortest)
        seconds["proof"] += time.perf_counter() - t
        text = write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
        t = time.perf_counter()
        try:
            checked = check_proof_text(text, cache)
            assert checked.winner == str(truth) and checked.distance >= exact.distance
            assert not args.shortest or checked.distance == exact.distance
            counts["checked"] += 1
            proof_positions += checked.positions
        except Exception as e:  # noqa: BLE001  (counted and shown)
            counts["check_failed"] += 1
            failures.append(f"proof rejected: {board.fen()}: {e}")
        seconds["check"] += time.perf_counter() - t
        if number % args.every == 0:
            print(f"  {number:,} done: {counts}", flush=True)
    total = time.perf_counter() - started
    print(
        f"positions: {len(boards):,}; proven and agreeing with the tablebase: {counts['agree']:,} "
        f"(distance exactly the tablebase's: {counts['exact_distance']:,}); disagreeing: {counts['disagree']:,}; "
        f"unproven within {args.nodes:,} nodes: {counts['unproven']:,}"
    )
    if not args.no_check:
        print(
            f"proofs of the first {min(args.proofs, len(boards)):,} positions checked by the reference "
            f"implementation: {counts['checked']:,} accepted, {counts['check_failed']:,} rejected; "
            f"{proof_positions:,} positions replayed"
        )
    written = (
        ""
        if args.no_check
        else (
            f"; proofs written down in {seconds['proof']:.1f} s, checked in "
            f"{seconds['check']:.1f} s"
        )
    )
    print(f"prover: {nodes:,} nodes in {seconds['prove']:.1f} s{written}; {total:.1f} s in all")
    for line in failures[:20]:
        print(line)
    return 1 if failures else 0


def part_of(text: str) -> tuple[int, int]:
    """``'K/N'`` as ``(K, N)``, 1 <= K <= N."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, not {text!r}")
    return int(k), int(n)


def take_part(items: list, part: int, parts: int) -> list:
    """Part ``part`` of ``parts`` of ``items``: every ``parts``-th item from the
    ``part``-th; the parts of one list hold each item once."""
    return items[part - 1 :: parts]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.prove_check", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--positions", type=int, default=10_000, help="positions to prove (default 10,000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed of the draw (default 1)")
    parser.add_argument(
        "--nodes", type=int, default=10_000_000, help="node limit per position (default 10,000,000)"
    )
    parser.add_argument(
        "--table-mb", type=int, default=256, help="the prover's table, MB (default 256)"
    )
    parser.add_argument(
        "--tablebase", default=None, help="side-4 tablebase (default: where 'solve' writes it)"
    )
    parser.add_argument(
        "--part",
        type=part_of,
        default=(1, 1),
        metavar="K/N",
        help="check only every N-th position of the draw, from the K-th (default 1/1: all)",
    )
    parser.add_argument(
        "--shortest",
        action="store_true",
        help="prove each position's shortest win: its distance and its proof's must be exactly the "
        "tablebase's",
    )
    parser.add_argument(
        "--no-check", action="store_true", help="compare values only: no proofs written or checked"
    )
    parser.add_argument(
        "--proofs",
        type=int,
        default=None,
        help="write down and check the proofs of the first N positions only (default: all)",
    )
    parser.add_argument(
        "--cache",
        type=int,
        default=500_000,
        help="positions whose reference moves the checker keeps (default 500,000)",
    )
    parser.add_argument(
        "--every", type=int, default=1000, help="print the counts every N positions (default 1000)"
    )
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    run_script(main)
