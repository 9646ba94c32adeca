"""``prove``: prove a position won for one side, by proof-number search."""

from __future__ import annotations

import sys
from contextlib import contextmanager

from ..solving.spread_settings import JOB_NODES, MAX_SPLIT_PLIES, SPLIT_PLIES
from . import (
    add_executor_arguments,
    add_position_arguments,
    board_from_args,
    executor_from_args,
    int_option,
    require_game_on,
    seconds,
)


def register(subparsers):
    p = subparsers.add_parser(
        "prove",
        help="prove which side wins a position, by proof-number search",
        description="Search the position with depth-first proof-number search (df-pn) until one side is proven "
        "to win whatever the other plays, or a limit is reached, and print the result: 'Green wins in at most N "
        "plies (proven)' (N: the longest line of the proof, a bound: the shortest win may be shorter), or "
        "'not proven within the limits' (exit status 1). The "
        "search's node count and time go to stderr, with a progress line after a second, then every few seconds. With --out, the "
        "winner's strategy is written to FILE as a proof file that 'hinge-fast check-proof' verifies "
        "(docs/solve.md). With --checkpoint, the search's table and counters are saved to FILE every few minutes, "
        "at the end and on Ctrl-C, and a later run given the same FILE continues from it. With --threads T, it "
        "searches on T threads: one as a single thread does, the others proving the root's moves. With "
        "--concurrency C or --ray, a master keeps the first --split-plies plies with their proof numbers and "
        "sends the most-proving positions below as jobs to worker processes or a Ray cluster, each worker "
        "keeping its own table; --checkpoint then saves the master after every job. With --shortest, the distance N is then made the shortest win (under "
        "the loser's longest defence) and the proof written follows it. Ctrl-C stops it (exit status 130).",
        epilog="Example: hinge-fast prove '4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g' --out proof.txt",
    )
    add_position_arguments(p)
    p.add_argument(
        "--time",
        type=seconds("S", high=30 * 24 * 3600.0),
        default=None,
        metavar="S",
        help="stop after S seconds (default: no limit)",
    )
    int_option(
        p,
        "--nodes",
        1,
        10**15,
        name="N",
        default=None,
        metavar="N",
        help="stop after N positions searched (default: no limit)",
    )
    int_option(
        p,
        "--table-mb",
        1,
        1 << 20,
        name="MB",
        default=None,
        metavar="MB",
        help="transposition table size in MB, per thread (default 256; a resumed run keeps its "
        "checkpoint's)",
    )
    p.add_argument(
        "--checkpoint",
        default=None,
        metavar="FILE",
        help="save the search to FILE (a .npz archive) every --checkpoint-every minutes, at the end and "
        "on Ctrl-C; with --concurrency or --ray, the master's tree and the jobs' results (JSON) after every "
        "job; if FILE exists, continue the run saved in it (it must be of the same position)",
    )
    int_option(
        p,
        "--checkpoint-every",
        1,
        10**6,
        name="MIN",
        default=None,
        metavar="MIN",
        help="minutes between two checkpoints (default 10; one thread)",
    )
    int_option(
        p,
        "--threads",
        1,
        256,
        name="T",
        default=1,
        metavar="T",
        help="search on T threads, each with its own table: one searches the position as a single "
        "thread does, the others prove the root's moves (default 1; not with --checkpoint); --nodes then "
        "limits each thread's search of a position",
    )
    add_executor_arguments(
        p,
        concurrency_help="prove the position by jobs in C worker processes, each with its own "
        "table (not with --threads); --nodes then limits the nodes of all jobs together",
    )
    int_option(
        p,
        "--split-plies",
        1,
        MAX_SPLIT_PLIES,
        name="P",
        default=None,
        metavar="P",
        help=f"with --concurrency or --ray: the plies below the position that the master keeps "
        f"(default {SPLIT_PLIES})",
    )
    int_option(
        p,
        "--job-nodes",
        1,
        10**15,
        name="N",
        default=None,
        metavar="N",
        help=f"with --concurrency or --ray: the nodes of a position's first job (default {JOB_NODES:,}); "
        "each later job of a position at the last split ply gets twice its last one's",
    )
    p.add_argument("--out", default=None, metavar="FILE", help="write the proof to FILE")
    p.add_argument(
        "--shortest",
        action="store_true",
        help="once a side is proven, find its shortest win by searches bounded in plies, and prove "
        "that: N is then the exact distance (one thread; not with --concurrency or --ray); exit "
        "status 1 when the limits stop it first",
    )
    p.add_argument(
        "--moves",
        action="store_true",
        help="then list every move of the position with what the search knows of it: proven for a side, "
        "or open with its proof and disproof numbers for the side to move",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines and no counts on stderr")
    p.set_defaults(run=run_prove)


def run_prove(args) -> int:
    from ..errors import HingeError
    from ..search.prover import Prover

    board = board_from_args(args)
    require_game_on(board)
    import os

    resuming = args.checkpoint is not None and os.path.exists(args.checkpoint)
    split = args.concurrency is not None or args.ray is not None
    if resuming and args.table_mb is not None and not split:
        raise HingeError(
            f"the checkpoint {args.checkpoint} holds its own table: resume it without --table-mb"
        )
    if args.checkpoint is not None and args.threads > 1:
        raise HingeError("--checkpoint works with one thread: leave out --threads")
    if args.shortest and args.threads > 1:
        raise HingeError("--shortest searches on one thread: leave out --threads")
    split = args.concurrency is not None or args.ray is not None
    if not split and (args.split_plies is not None or args.job_nodes is not None):
        raise HingeError(
            "--split-plies and --job-nodes set the jobs of --concurrency and --ray: add one of them"
        )
    if split:
        if args.shortest:
            raise HingeError("--shortest searches on one thread: leave out --concurrency and --ray")
        if args.threads > 1:
            raise HingeError(
                "--concurrency and --ray prove the position by jobs: leave out --threads"
            )
        if args.checkpoint_every is not None:
            raise HingeError(
                "--concurrency and --ray write the checkpoint after every job: leave out --checkpoint-every"
            )
        return run_prove_jobs(args, board)
    prover = Prover(table_mb=256 if args.table_mb is None else args.table_mb, threads=args.threads)
    if resuming and not args.quiet:
        print(f"resuming the run saved in {args.checkpoint}", file=sys.stderr, flush=True)
    progress = progress_printer(args)
    with _checkpoint_told(args):
        result = prover.prove(
            board,
            nodes=args.nodes,
            seconds=args.time,
            progress=progress,
            checkpoint=args.checkpoint,
            checkpoint_every=60.0 * (args.checkpoint_every or 10),
            shortest=args.shortest,
        )
    _print_counts(args, result)
    if args.shortest and result.winner is not None and not result.shortest:
        print(result.text())
        print("its shortest win is not proven within the limits")
        return 1
    proof = None
    if result.winner is not None and args.out is not None:
        proof = prover.proof(
            board, result.winner, nodes=args.nodes, seconds=args.time, shortest=args.shortest
        )
    return print_result(args, result, proof)


def run_prove_jobs(args, board) -> int:
    """``prove --concurrency C`` / ``--ray``: the position proven by jobs."""
    import os

    from ..solving.spread import prove_jobs

    resuming = args.checkpoint is not None and os.path.exists(args.checkpoint)
    with executor_from_args(args) as executor:
        executor.start()
        if not args.quiet:
            plies = SPLIT_PLIES if args.split_plies is None else args.split_plies
            print(
                f"proving by jobs on {executor.describe()}, the master keeping {plies} "
                f"{'ply' if plies == 1 else 'plies'}",
                file=sys.stderr,
                flush=True,
            )
            if resuming:
                print(f"resuming the run saved in {args.checkpoint}", file=sys.stderr, flush=True)
        with _checkpoint_told(args):
            result, proof = prove_jobs(
                board,
                executor,
                nodes=args.nodes,
                seconds=args.time,
                table_mb=256 if args.table_mb is None else args.table_mb,
                split_plies=SPLIT_PLIES if args.split_plies is None else args.split_plies,
                job_nodes=JOB_NODES if args.job_nodes is None else args.job_nodes,
                checkpoint=args.checkpoint,
                proof=args.out is not None,
                progress=progress_printer(args),
            )
    _print_counts(args, result)
    return print_result(args, result, proof)


@contextmanager
def _checkpoint_told(args):
    """A search that says where its checkpoint is written when Ctrl-C stops it."""
    try:
        yield
    except KeyboardInterrupt:
        if args.checkpoint is not None:
            print(f"checkpoint written to {args.checkpoint}", file=sys.stderr, flush=True)
        raise


def _print_counts(args, result) -> None:
    """Unless --quiet, the search's nodes and time on stderr, and where its checkpoint is."""
    if not args.quiet:
        print(f"{result.nodes:,} nodes in {result.seconds:.3f} s", file=sys.stderr)
        if args.checkpoint is not None:
            print(f"checkpoint written to {args.checkpoint}", file=sys.stderr)


#: Seconds of search before the first progress line, and between two later ones.
FIRST_PROGRESS, PROGRESS_EVERY = 1.0, 5.0


def progress_printer(args):
    """A progress callback printing a line to stderr after ``FIRST_PROGRESS`` seconds
    (the search has started), then at most every ``PROGRESS_EVERY`` seconds."""
    due = [FIRST_PROGRESS]

    def progress(nodes, pn, dn, elapsed):
        if not args.quiet and elapsed >= due[0]:
            due[0] = elapsed + PROGRESS_EVERY
            print(
                f"{nodes:,} nodes in {elapsed:.0f} s, pn {pn:,}, dn {dn:,}",
                file=sys.stderr,
                flush=True,
            )

    return progress


def print_result(args, result, proof) -> int:
    """Print the result, with the root's moves when asked, and write ``proof`` (None
    when there is none or no ``--out``) to ``--out``; the exit status."""
    from ..search.score import proof_text
    from ..solving.proof import write_proof

    if proof is None:
        print(result.text())
        if args.moves:
            for line in root_move_lines(result):
                print(line)
        return 1 if result.winner is None else 0
    size = write_proof(args.out, proof.position, str(proof.winner), proof.distance, proof.strategy)
    print(proof_text(proof.winner, proof.distance, result.shortest))
    if args.moves:
        for line in root_move_lines(result):
            print(line)
    print(
        f"proof written to {args.out}: {len(proof.strategy):,} positions with {str(proof.winner).capitalize()} "
        f"to move ({size:,} bytes)"
    )
    return 0


def root_move_lines(result) -> list[str]:
    """One line per root move: who it is proven for, or its numbers while open."""
    from ..search.score import proof_text

    width = max((len(str(m.move)) for m in result.root_moves), default=0)
    lines = []
    for m in result.root_moves:
        if m.winner is not None:
            state = proof_text(m.winner, m.distance)
        else:
            state = f"open: pn {m.pn} dn {m.dn}"
        lines.append(f"  {str(m.move):<{width}}  {state}")
    return lines
