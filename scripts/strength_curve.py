"""What time and cores buy: the engine at several times a move and thread counts, each
played against one fixed reference, and the curve drawn.

    python -m scripts.strength_curve run FOLDER [--times S ...] [--threads T ...] [--games N ...]
                                     [--size S] [--seed N] [--engine ENGINE] [--reference PLAYER]
                                     [--reference-time S] [--cores C]
    python -m scripts.strength_curve plot FOLDER [--png FILE]

Example: python -m scripts.strength_curve run curve --games 20 && python -m scripts.strength_curve plot curve --png curve.png

``run`` plays one ``hinge-fast match`` per point (a time a move and a thread count):
``ENGINE:threads=T`` at that time against the reference at ``--reference-time``, from
the shipped opening book of the side, every point with the same seed (so the same
openings). By default the engine is ``alphabeta`` at 0.05, 0.2, 0.8 and 3.2 s a move
on 1 and 2 threads, and the reference release 0.2.0's alpha-beta at 0.2 s on one
thread, through the engine protocol from the baseline ``python -m scripts.baseline
install 0.2.0`` makes (a path relative to the project folder). Points are played
cheapest first: by time, then threads. Each point's games go to
``FOLDER/time-S-threads-T.hgn`` as they finish and its summary to the ``.json`` beside
it (``match --json``); the match is always started with ``--resume``, so running the
same command again goes on where it stopped and a finished point plays nothing more.
``--games`` is one count for every point, or one per point in that order. ``--cores
C`` (default 1): a point of T threads plays C // T games at once (at least one).

``plot`` reads every point file of FOLDER and draws the Elo of the engine over the
reference against the time a move (log-2 axis), one line per thread count, with the
95% intervals as error bars (``match``'s statistics by pairs of games sharing an
opening: ``hinge_fast.games.match``), into ``--png`` (default ``FOLDER/strength.png``),
and prints the points as a Markdown table. A point cut short counts its games in order
up to the first one missing.

A mistake (an unknown folder, a bad list) is one line ``error: ...``, exit status 2.
"""

from __future__ import annotations

import argparse
import math
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from hinge_fast.errors import HingeError
from scripts import run_script

DEFAULT_TIMES = (0.05, 0.2, 0.8, 3.2)
DEFAULT_THREADS = (1, 2)
DEFAULT_REFERENCE = "cmd:.baselines/0.2.0/.venv/bin/hinge-fast engine -o threads=1"
DEFAULT_REFERENCE_TIME = 0.2
#: A point's files: FOLDER/time-S-threads-T.hgn (and .json).
POINT_FILE = re.compile(r"^time-[0-9.e+-]+-threads-\d+\.hgn$")
_THREADS_OPTION = re.compile(r"(?:^|[:,])threads=(\d+)")
_LIMIT_TIME = re.compile(r"^time (?P<a>[0-9.eE+-]+)(?:; B time (?P<b>[0-9.eE+-]+))?$")


class _Parser(argparse.ArgumentParser):
    """argparse whose usage mistakes are HingeErrors (one line, status 2)."""

    def error(self, message):
        raise HingeError(f"{message} (see '{self.prog} --help')")


def _positive(kind, name):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} takes positive numbers, not {text!r}"
            ) from None
        if not value > 0 or not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{name} takes positive numbers, not {text!r}")
        return value

    return parse


@dataclass(frozen=True)
class Point:
    """One point of the curve: the engine at ``time`` seconds a move on ``threads``."""

    time: float
    threads: int

    @property
    def stem(self) -> str:
        return f"time-{self.time:g}-threads-{self.threads}"


def plan(times, threads, games) -> list[tuple[Point, int]]:
    """``(point, games)`` in the order ``run`` plays them: by time, then threads.
    ``games``: one count for all, or one per point in that order.

    >>> [(p.stem, n) for p, n in plan([0.2, 0.05], [1, 2], [10])]
    [('time-0.05-threads-1', 10), ('time-0.05-threads-2', 10), ('time-0.2-threads-1', 10), ('time-0.2-threads-2', 10)]
    """
    if len(set(times)) != len(times) or len(set(threads)) != len(threads):
        raise HingeError("--times and --threads must not repeat a value")
    points = [Point(t, n) for t in sorted(times) for n in sorted(threads)]
    if len(games) not in (1, len(points)):
        raise HingeError(
            f"--games takes one count, or one per point ({len(points)}: "
            f"{', '.join(f'{p.time:g} s x{p.threads}' for p in points)}), not {len(games)}"
        )
    return list(zip(points, games * len(points) if len(games) == 1 else games))


def engine_spec(engine: str, threads: int) -> str:
    """``engine`` with its ``threads`` option set.

    >>> engine_spec("alphabeta", 2), engine_spec("alphabeta:selective=0", 1)
    ('alphabeta:threads=2', 'alphabeta:selective=0,threads=1')
    """
    if _THREADS_OPTION.search(engine):
        raise HingeError(f"--engine {engine!r} sets threads: --threads gives them")
    return f"{engine}{',' if ':' in engine else ':'}threads={threads}"


def match_argv(point: Point, games: int, folder: Path, args) -> list[str]:
    """The ``hinge-fast match`` arguments that play (or resume) ``point``."""
    at_once = max(1, args.cores // point.threads)
    return [
        "match",
        engine_spec(args.engine, point.threads),
        args.reference,
        "--games",
        str(games),
        "--time",
        f"{point.time:g}",
        "--time-b",
        f"{args.reference_time:g}",
        "--size",
        str(args.size),
        "--seed",
        str(args.seed),
        "--resume",
        str(folder / f"{point.stem}.hgn"),
        "--json",
        str(folder / f"{point.stem}.json"),
        "--concurrency",
        str(at_once),
    ]


def run_curve(args) -> int:
    from hinge_fast.cli import main as hinge_fast

    points = plan(args.times, args.threads, args.games)
    folder = Path(args.folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise HingeError(f"cannot make the folder {folder}: {e.strerror or e}") from None
    for number, (point, games) in enumerate(points, start=1):
        print(
            f"strength_curve: point {number} of {len(points)}: {point.time:g} s a move, "
            f"{point.threads} thread{'s' if point.threads > 1 else ''}, {games} games",
            flush=True,
        )
        status = hinge_fast(match_argv(point, games, folder, args))
        if status == 130:
            print(
                "strength_curve: the same command goes on where this one stopped", file=sys.stderr
            )
        if status:
            return status
    return 0


# ----- reading a folder -----------------------------------------------------------------------------
@dataclass
class Measured:
    """A point as its file holds it: the match's figures (``MatchResult.figures``)."""

    time: float
    threads: int
    reference: str
    reference_time: float
    figures: dict


def read_point(path: Path) -> Measured | None:
    """The games of a point file counted as ``match`` counts them (in order, up to the
    first game missing); None for a point begun with no game finished."""
    from hinge_fast.games.matchfile import game_from_record, read_match_file
    from hinge_fast.games.results import MatchResult

    records, _ = read_match_file(path)
    if not records:
        return None
    tags = records[0].tags
    player_a, player_b, limit = tags.get("PlayerA"), tags.get("PlayerB"), tags.get("Limit", "")
    threads = _THREADS_OPTION.search(player_a or "")
    times = _LIMIT_TIME.match(limit)
    if player_b is None or threads is None or times is None:
        raise HingeError(
            f"{path} is not a point of a strength curve (PlayerA {player_a!r}, Limit {limit!r})"
        )
    games = {}
    for record in records:
        game = game_from_record(record)
        games[game.round - 1] = game
    result = MatchResult(player_a, player_b, records[0].size)
    while result.played in games:
        result.add(games[result.played])
    a_time = float(times["a"])
    return Measured(
        a_time, int(threads[1]), player_b, float(times["b"] or a_time), result.figures()
    )


def read_folder(folder) -> list[Measured]:
    """Every point of ``folder``, by threads then time."""
    folder = Path(folder)
    if not folder.is_dir():
        raise HingeError(
            f"no folder {folder}" if not folder.exists() else f"{folder} is not a folder"
        )
    read = (read_point(p) for p in sorted(folder.iterdir()) if POINT_FILE.match(p.name))
    points = [p for p in read if p is not None]
    if not points:
        raise HingeError(
            f"{folder} holds no point of a strength curve (time-S-threads-T.hgn files of run)"
        )
    if (
        len(
            {
                (
                    _engine_name(p.figures["player_a"]),
                    p.reference,
                    p.reference_time,
                    p.figures["size"],
                )
                for p in points
            }
        )
        > 1
    ):
        raise HingeError(f"the points of {folder} are of different engines, references or sides")
    return sorted(points, key=lambda p: (p.threads, p.time))


def reference_label(spec: str) -> str:
    """A short name for the reference: an installed baseline by its name.

    >>> reference_label("cmd:/x/.baselines/0.1.0/.venv/bin/hinge-fast engine -o threads=1")
    'baseline 0.1.0 -o threads=1'
    >>> reference_label("greedy")
    'greedy'
    """
    if not spec.startswith("cmd:"):
        return spec
    words = shlex.split(spec[4:])
    parts = Path(words[0]).parts if words else ()
    if ".baselines" in parts[:-1] and words[1:2] == ["engine"]:
        return " ".join([f"baseline {parts[parts.index('.baselines') + 1]}", *words[2:]])
    return spec


def _bound(x, infinite: str) -> str:
    return infinite if x is None else f"{x:+.0f}"


def table(points: list[Measured]) -> str:
    """The points as a Markdown table."""
    lines = [
        "| time a move | threads | games | score | Ptnml(0-2) | Elo | 95% interval |",
        "|---|---|---|---|---|---|---|",
    ]
    for p in points:
        f = p.figures
        low, high = f["elo_interval"]
        elo = f["elo"] if f["elo"] is not None else (math.inf if f["score"] > 0.5 else -math.inf)
        elo_cell = f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")
        interval = "" if not f["pairs"] else f"{_bound(low, '-inf')} to {_bound(high, '+inf')}"
        lines.append(
            f"| {p.time:g} s | {p.threads} | {f['games']} | {100 * f['score']:.1f}% | {f['ptnml']} | "
            f"{elo_cell} | {interval} |"
        )
    return "\n".join(lines)


def draw(points: list[Measured], path) -> None:
    """Elo against the time a move, a line per thread count, 95% error bars."""
    from hinge_fast.analysis.figures import pyplot, save_figure

    plt = pyplot("plot")
    first = points[0]
    thread_counts = sorted({p.threads for p in points})
    shown = [p for p in points if p.figures["elo"] is not None]
    # an interval open at one end (every pair won, or lost) is drawn up to the frame, with an arrow
    finite = [
        0.0,
        *(
            v
            for p in shown
            for v in (p.figures["elo"], *p.figures["elo_interval"])
            if v is not None
        ),
    ]
    margin = 0.08 * (max(finite) - min(finite) or 100.0)
    bottom, top = min(finite) - margin, max(finite) + margin
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for i, threads in enumerate(thread_counts):
        mine = [p for p in shown if p.threads == threads]
        # a small sideways shift per line, so that the error bars of equal times do not overlap
        shift = 2 ** (0.04 * (i - (len(thread_counts) - 1) / 2))
        xs = [p.time * shift for p in mine]
        ys = [p.figures["elo"] for p in mine]
        lows = [
            bottom if p.figures["elo_interval"][0] is None else p.figures["elo_interval"][0]
            for p in mine
        ]
        highs = [
            top if p.figures["elo_interval"][1] is None else p.figures["elo_interval"][1]
            for p in mine
        ]
        line = ax.errorbar(
            xs,
            ys,
            yerr=[[y - low for y, low in zip(ys, lows)], [high - y for y, high in zip(ys, highs)]],
            marker="o",
            capsize=4,
            label=f"{threads} thread{'s' if threads > 1 else ''}",
        )
        for p, x in zip(mine, xs):
            for bound, edge, marker in (
                (p.figures["elo_interval"][0], bottom, "v"),
                (p.figures["elo_interval"][1], top, "^"),
            ):
                if bound is None:
                    ax.plot([x], [edge], marker=marker, color=line[0].get_color(), clip_on=False)
    ax.set_ylim(bottom, top)
    ax.axhline(0, color="grey", linewidth=0.8, linestyle="--", label="the reference")
    ax.set_xscale("log", base=2)
    times = sorted({p.time for p in points})
    ax.set_xticks(times, [f"{t:g}" for t in times])
    ax.minorticks_off()
    ax.set_xlabel("seconds a move (log scale)")
    ax.set_ylabel("Elo over the reference (95% interval)")
    ax.set_title(
        f"{_engine_name(first.figures['player_a'])} on side {first.figures['size']} against "
        f"{reference_label(first.reference)} at {first.reference_time:g} s a move",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path)


def _engine_name(spec: str) -> str:
    """The engine of a spec without its threads option: ``alphabeta:threads=2`` -> ``alphabeta``."""
    name, _, options = spec.partition(":")
    rest = [o for o in options.split(",") if o and not o.startswith("threads=")]
    return name + (":" + ",".join(rest) if rest else "")


def plot_curve(args) -> int:
    points = read_folder(args.folder)
    png = Path(args.png) if args.png is not None else Path(args.folder) / "strength.png"
    draw(points, png)
    first = points[0]
    print(
        f"{_engine_name(first.figures['player_a'])} against {reference_label(first.reference)} at "
        f"{first.reference_time:g} s a move, side {first.figures['size']} (Elo by pairs of games)"
    )
    print(table(points))
    print(f"plot written to {png}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m scripts.strength_curve", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("run", help="play the points of the curve (resuming those begun)")
    r.add_argument(
        "folder", metavar="FOLDER", help="where the points' game records and summaries go"
    )
    r.add_argument(
        "--times",
        nargs="+",
        type=_positive(float, "--times"),
        default=list(DEFAULT_TIMES),
        metavar="S",
        help="seconds a move of the engine (default "
        + " ".join(f"{t:g}" for t in DEFAULT_TIMES)
        + ")",
    )
    r.add_argument(
        "--threads",
        nargs="+",
        type=_positive(int, "--threads"),
        default=list(DEFAULT_THREADS),
        metavar="T",
        help="thread counts of the engine (default " + " ".join(map(str, DEFAULT_THREADS)) + ")",
    )
    r.add_argument(
        "--games",
        nargs="+",
        type=_positive(int, "--games"),
        default=[20],
        metavar="N",
        help="games a point: one count, or one per point by time then threads (default 20)",
    )
    r.add_argument(
        "--size",
        type=_positive(int, "--size"),
        default=6,
        metavar="S",
        help="board side (default 6)",
    )
    r.add_argument(
        "--seed",
        type=_positive(int, "--seed"),
        default=1,
        metavar="N",
        help="the seed of every point (default 1)",
    )
    r.add_argument(
        "--engine",
        default="alphabeta",
        metavar="ENGINE",
        help="the engine measured, without threads (default alphabeta)",
    )
    r.add_argument(
        "--reference",
        default=DEFAULT_REFERENCE,
        metavar="PLAYER",
        help=f"the player every point plays against (default {DEFAULT_REFERENCE!r})",
    )
    r.add_argument(
        "--reference-time",
        type=_positive(float, "--reference-time"),
        default=DEFAULT_REFERENCE_TIME,
        metavar="S",
        help=f"the reference's seconds a move (default {DEFAULT_REFERENCE_TIME:g})",
    )
    r.add_argument(
        "--cores",
        type=_positive(int, "--cores"),
        default=1,
        metavar="C",
        help="cores to use: a point of T threads plays C // T games at once, at least one (default 1)",
    )
    r.set_defaults(run=run_curve)
    p = sub.add_parser("plot", help="draw the curve of a folder and print its table")
    p.add_argument("folder", metavar="FOLDER", help="a folder run wrote")
    p.add_argument(
        "--png", default=None, metavar="FILE", help="the picture (default FOLDER/strength.png)"
    )
    p.set_defaults(run=plot_curve)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    run_script(main)
