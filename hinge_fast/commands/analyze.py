"""``analyze``: the engine's view of a position (logic in ``hinge_fast.analysis.position``)."""

from __future__ import annotations

import sys

from . import (
    add_engine_arguments,
    add_json_argument,
    add_limit_arguments,
    add_position_arguments,
    add_seed_argument,
    board_from_args,
    engine_options,
    int_option,
    require_game_on,
    seconds_option,
)

#: The prover's table for ``--prove``, MB.
PROVE_TABLE_MB = 64


def register(subparsers):
    p = subparsers.add_parser(
        "analyze",
        help="best moves, scores, principal variation and threats of a position",
        description="Analyse a position: side to move, tokens and groups of each side, the engine's top "
        "moves with scores (alpha-beta: centi-tokens shown as tokens, or win/loss in N plies; MCTS: win rate "
        "and visits), the principal variation, every group either side could flip with one move, and any "
        "elimination available. A finished game is an error (exit status 2) naming the winner. "
        "--time is the search's own time, as for 'move': loading the engine and the threat scan come before it.",
        epilog="Example: hinge-fast analyze '6/1gg1b2/5b2/2g2gg2/1b1g1g2b1/1b1gg3b2/4g1bbg1/3bb1bg1/1b2bgg1/1b3g1/6 g' "
        "--time 1 --top 3 --svg board.svg",
    )
    add_position_arguments(p)
    add_engine_arguments(p, seed=False)
    add_limit_arguments(
        p,
        "seconds in all (default 1 unless --nodes or --depth)",
        "node (MCTS: playout) limit",
        "depth limit (engines with depths; the default engine becomes the first that has them)",
    )
    int_option(
        p,
        "--top",
        1,
        1000,
        name="K",
        default=5,
        metavar="K",
        help="how many top moves to list (default 5; alpha-beta: its MultiPV lines, each scored at the same depth)",
    )
    add_seed_argument(p, "random seed (-1: a fresh one): same seed and --nodes, same answer")
    add_json_argument(p)
    p.add_argument(
        "--svg",
        metavar="FILE",
        default=None,
        help="write a picture: best move arrow, threatened groups outlined",
    )
    seconds_option(
        p,
        "--prove",
        default=None,
        metavar="S",
        help="then run the prover ('hinge-fast prove') for up to S seconds and add its result: a line "
        "'proof: Green wins in at most N plies (proven)' (JSON: key 'proof')",
    )
    p.set_defaults(run=run_analyze)


def run_analyze(args) -> int:
    import json

    from ..analysis.position import analyze
    from ..search import Limits
    from ..search.registry import choose_engine

    board = board_from_args(args)
    require_game_on(board)
    budget = args.time
    if budget is None and args.nodes is None and args.depth is None:
        budget = 1.0
    engine = choose_engine(args.engine, Limits(time=budget, nodes=args.nodes, depth=args.depth))
    if sys.stderr.isatty():  # a person waiting: say what runs and how to stop it
        limit = ", ".join(
            f"{v:g} {unit}"
            for v, unit in ((budget, "s"), (args.nodes, "nodes"), (args.depth, "plies deep"))
            if v is not None
        )
        print(f"analysing with {engine}, {limit} (Ctrl-C stops)", file=sys.stderr, flush=True)
    report = analyze(
        board,
        engine=engine,
        time=budget,
        nodes=args.nodes,
        depth=args.depth,
        top=args.top,
        seed=args.seed,
        **{k: v for k, v in engine_options(engine, args).items() if k != "seed"},
    )
    from ..games.game import check_stop

    check_stop()  # Ctrl-C during the search: the search returned early, the command stops
    if args.svg:
        from ..analysis.position import analysis_svg
        from ..records.files import write_text_file

        write_text_file(args.svg, analysis_svg(report))
    proof = None
    if args.prove is not None:
        from ..search.prover import Prover

        proof = Prover(table_mb=PROVE_TABLE_MB).prove(board, seconds=args.prove)
    if args.json:
        out = report.to_dict()
        if proof is not None:
            out["proof"] = {
                "winner": None if proof.winner is None else str(proof.winner),
                "distance": proof.distance,
                "text": proof.text(),
                "nodes": proof.nodes,
                "seconds": round(proof.seconds, 3),
            }
        print(json.dumps(out))
    else:
        print(report.to_text())
        if proof is not None:
            print(f"proof: {proof.text()}, {proof.nodes:,} nodes in {proof.seconds:.2f} s")
    if args.svg:
        sys.stdout.flush()
        print(f"wrote {args.svg}", file=sys.stderr)
    return 0
