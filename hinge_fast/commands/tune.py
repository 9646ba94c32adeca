"""``tune``: SPSA over named engine options through self-play matches."""

from __future__ import annotations

import sys

from ..core.text import count
from . import (
    ProgressBar,
    add_executor_arguments,
    add_move_limit_arguments,
    add_option_argument,
    executor_from_args,
    int_option,
)


def register(subparsers):
    p = subparsers.add_parser(
        "tune",
        help="tune engine options by SPSA self-play (as fishtest tunes Stockfish)",
        description="Tune numeric options of ENGINE by SPSA: each iteration plays the engine with every "
        "parameter nudged up or down at random against the opposite nudge, and moves the parameters "
        "towards the winner. Prints one line per iteration (the games won and lost by the side whose nudges "
        "are named, and the parameters after it) and the final values; a progress bar goes to stderr on a terminal. Reproducible with --nodes and --seed.",
        epilog="Example: hinge-fast tune mcts -p exploration=0.4,0.05,2 -p fpu=1,0,3 --iterations 200 --nodes 1000 --seed 1",
    )
    p.add_argument("engine", metavar="ENGINE", help="the engine tuned (mcts, alphabeta, ...)")
    p.add_argument(
        "-p",
        "--param",
        action="append",
        default=[],
        metavar="NAME=START,LOW,HIGH[,STEP]",
        help="a tuned option (repeatable); STEP: the perturbation at the last iteration (default 5%% of the range)",
    )
    add_option_argument(
        p,
        "a fixed option of both sides (repeatable)",
    )
    int_option(
        p, "--iterations", 1, 10**7, default=100, metavar="N", help="SPSA iterations (default 100)"
    )
    int_option(
        p,
        "--games",
        1,
        1000,
        default=2,
        metavar="G",
        help="games per iteration (default 2: one pair)",
    )
    add_move_limit_arguments(p, "seconds per move", "nodes or playouts per move (default 500)")
    int_option(p, "--size", 4, 9, default=6, metavar="S", help="board side (default 6)")
    int_option(
        p, "--openings", 0, 1000, default=4, metavar="K", help="random opening plies (default 4)"
    )
    int_option(
        p,
        "--max-plies",
        1,
        10**6,
        default=400,
        metavar="M",
        help="unfinished after M plies (default 400)",
    )
    p.add_argument(
        "--learning-rate",
        type=float,
        default=None,
        metavar="R",
        help="r_end, the learning rate at the last iteration (default 0.002, fishtest's)",
    )
    int_option(p, "--seed", 0, 2**63 - 1, default=None, metavar="N", help="seed (default: random)")
    add_executor_arguments(
        p, concurrency_help="games of an iteration played at once, in worker processes (default 1)"
    )
    p.set_defaults(run=run_tune)


def run_tune(args) -> int:
    import random

    from ..errors import HingeError
    from ..games.tune import DEFAULT_R_END, TuneSettings, parse_param, spsa
    from ..search.registry import engine_spec

    spec = engine_spec(args.engine)
    if not args.param:
        raise HingeError("tune needs at least one --param NAME=START,LOW,HIGH[,STEP]")
    r_end = DEFAULT_R_END if args.learning_rate is None else args.learning_rate
    params = [parse_param(spec.name, text, r_end) for text in args.param]
    fixed = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise HingeError(f"an option looks like NAME=VALUE, not {item!r}")
        fixed[key.strip()] = spec.option(key.strip()).parse(value.strip())
    if args.openings >= args.max_plies:
        raise HingeError(
            f"--openings ({args.openings}) must be less than --max-plies ({args.max_plies})"
        )
    nodes = args.nodes if args.nodes is not None or args.time is not None else 500
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    limit = (
        f"{args.time:g} s per move" if args.time is not None else f"{count(nodes, 'node')} per move"
    )
    settings = TuneSettings(
        games=args.games,
        time=args.time,
        nodes=None if args.time is not None else nodes,
        size=args.size,
        openings=args.openings,
        max_plies=args.max_plies,
        seed=seed,
        options=fixed,
    )
    start = " ".join(f"{p.name}={p.start:g}" for p in params)
    print(
        f"tune {spec.name}: {count(args.iterations, 'iteration')} of {count(args.games, 'game')} on side {args.size}, {limit}, seed {seed}; start {start}",
        flush=True,
    )
    executor = executor_from_args(args)

    done = []

    def progress(step):
        done.append(
            " ".join(
                f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                for k, v in step.values.items()
            )
        )
        bar.write(step.line(args.iterations))
        bar.show(step.iteration, args.iterations)

    try:
        with ProgressBar("iter") as bar:
            result = spsa(
                spec.name, params, args.iterations, settings, progress=progress, executor=executor
            )
    except KeyboardInterrupt:
        print(
            f"stopped during iteration {len(done) + 1} of {args.iterations}"
            + (f"; the values after iteration {len(done)}: {done[-1]}" if done else ""),
            file=sys.stderr,
            flush=True,
        )
        raise
    finally:
        executor.close()
    print(
        "final: "
        + " ".join(
            f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in result.values.items()
        )
    )
    print(f"as a player: {result.spec}")
    return 0
