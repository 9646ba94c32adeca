"""The commands of ``hinge-fast``, one module each (see ``hinge_fast.cli``)."""

from __future__ import annotations

import argparse

from ..board import Board
from ..errors import HingeError


def add_position_arguments(parser, required_side=False):
    """POSITION (a position string or 'start') and --size S for the empty board."""
    parser.add_argument(
        "position",
        nargs="?",
        default="start",
        metavar="POSITION",
        help="a position string (quote it: it holds a space) or 'start' (default): the empty board",
    )
    parser.add_argument("--size", type=positive_int("S", 4, 9), default=None, metavar="S", help="side of the empty board for 'start' (4 to 9, default 6)")


def board_from_args(args) -> Board:
    """The Board named by POSITION and --size."""
    text = args.position.strip()
    if text.lower() == "start":
        return Board(6 if args.size is None else args.size)
    board = Board.from_fen(text)
    if args.size is not None and args.size != board.size:
        raise HingeError(f"--size {args.size} disagrees with the position string, which is of side {board.size}")
    return board


def positive_int(name, low, high):
    """An argparse type: a whole number from low to high, with a message naming ``name``."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be from {low} to {high}, not {value}")
        return value

    parse.__name__ = name
    return parse


def seconds(name="time", high=24 * 3600.0):
    """An argparse type: a number of seconds, more than 0 and at most ``high``."""

    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number of seconds, not {text!r}") from None
        if not 0 < value <= high:  # also rejects nan
            raise argparse.ArgumentTypeError(f"{name} must be more than 0 and at most {high:g} seconds, not {text}")
        return value

    parse.__name__ = name
    return parse


def add_executor_arguments(parser, concurrency_help="jobs run at once on this machine, in worker processes (default 1)", concurrency=True):
    """``--concurrency C`` (unless ``concurrency=False``) and ``--ray [ADDRESS]``:
    where a command's jobs run (``hinge_fast.tools.executor``). A command taking them
    calls :func:`executor_from_args` and hands the Executor to its runner."""
    if concurrency:
        parser.add_argument("--concurrency", type=positive_int("--concurrency", 1, 4096), default=None, metavar="C", help=concurrency_help)
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="run on a Ray cluster (ADDRESS as 'ray start --head' prints it; 'auto': the one started on this machine); "
        "without ADDRESS, a Ray started here with one worker per core"
        + ("; with --concurrency C, at most C workers" if concurrency else "")
        + " (needs pip install 'hinge-fast[cluster]')",
    )


def executor_from_args(args):
    """The Executor that ``--concurrency`` and ``--ray`` ask for (close it when done)."""
    from ..tools.executor import Executor

    return Executor(concurrency=getattr(args, "concurrency", None), ray=getattr(args, "ray", None))


def add_engine_arguments(parser, default_help="", seed=True):
    """--engine NAME (the registry's engines; default its DEFAULT_ENGINE), -o/--option
    NAME=VALUE (the engine's options, checked by the registry), --tablebase FILE (the
    ``tablebase`` option) and --seed N (bounds of the registry's seed option: -1 is a
    fresh seed each search)."""
    from ..search.registry import DEFAULT_ENGINE, ENGINES, REGISTRY, all_options

    described = "; ".join(f"{name}: {spec.description}" for name, spec in REGISTRY.items())
    parser.add_argument("--engine", choices=tuple(REGISTRY), default=None,
                        help=f"searcher (default {DEFAULT_ENGINE}{default_help}). {described}")
    names = ", ".join(all_options())
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help=f"an engine option (repeatable): {names}")
    add_tablebase_argument(parser)
    if seed:
        spec = all_options()["seed"]
        parser.add_argument("--seed", type=positive_int("seed", spec.low, spec.high), default=None, metavar="N",
                            help=f"random seed ({spec.low} to {spec.high}; {spec.low}: a fresh one each search); "
                            "the same seed and node limit give the same move")


def add_tablebase_argument(parser):
    """--tablebase FILE: the engines' ``tablebase`` option (search/tablebase.py)."""
    parser.add_argument(
        "--tablebase", default=None, metavar="FILE",
        help="side-4 tablebase to play from ('off': none; default 'auto': the file 'hinge-fast solve --size 4' "
        "writes, when it exists): a side-4 position in it gets the table's move and exact value (win in N, loss in N)",
    )


def engine_options(engine: str, args) -> dict:
    """The options of ``-o NAME=VALUE`` (and --seed) for ``engine``, parsed and checked
    by the registry; HingeError naming a bad one."""
    from ..search.registry import engine_spec

    spec = engine_spec(engine)
    options = {}
    for item in getattr(args, "option", []) or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise HingeError(f"--option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = spec.option(name.strip()).parse(value.strip())
    if getattr(args, "seed", None) is not None and "seed" in spec.option_names:
        options["seed"] = args.seed
    if getattr(args, "tablebase", None) is not None:
        options["tablebase"] = spec.option("tablebase").parse(args.tablebase)
    return options


class ProgressBar:
    """A tqdm bar on stderr for long counts, shown only when stderr is a terminal and
    the work lasts more than a second; ``show(done, total)`` is the counts' progress
    callback. tqdm is loaded on entering, not inside a timed count."""

    def __init__(self, unit: str):
        self.unit = unit
        self.bar = None

    def __enter__(self):
        from tqdm import tqdm

        self.tqdm = tqdm
        return self

    def show(self, done: int, total: int) -> None:
        if self.bar is None:
            import sys

            self.bar = self.tqdm(total=total, unit=self.unit, file=sys.stderr, disable=None, delay=1.0, leave=False)
        self.bar.update(done - self.bar.n)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()
