"""Speed measurements on a fixed set of positions, shared by ``hinge-fast bench``,
``bench/compare.py`` and the pytest-benchmark suite in ``bench/``.

Every figure is nodes (or moves, or games) per second of wall clock on one thread,
and for perft, playouts and the searches also on every core (``threads``), measured in the same run
as the others, after a warm-up call that loads or compiles
the kernels. Each measurement repeats its work ``repeat`` times and keeps the
median rate, since the machines this runs on are small and noisy.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from dataclasses import dataclass

from .. import reference as ref
from ..board import Board
from ..core.tables import workspace
from ..games.positions import random_position
from ..search import Limits, create_searcher, engine_spec
from ..search.registry import ENGINES

#: Mid-game positions of the side-6 board (seeded random play, plies 16 to 40, and
#: two hand-picked mid-game positions, the last two).
MID_GAME_S6 = [
    "6/1gg4/5g2/9/3b4g1/3b3g3/1b2ggg1g1/1b7/3b4/3b3/6 g",
    "6/1g1g1g1/6g1/4g2g1/2gbbb2g1/1b1g5b1/3g1b2b1/1gg4b1/8/3g3/6 g",
    "6/1g3g1/4g3/4gggg1/1g4gg2/1ggg2b2g1/3g1b4/2gg1bb2/5b2/1b1bb2/6 g",
    "6/1gg2b1/1gg2b2/1ggg2b2/1gg1g2b2/2g5bb1/1g4gbg1/3ggg1g1/1g1g1bg1/1g3b1/6 g",
    "6/1b2g2/2bbbg2/1gg1gg3/1g1gggggg1/4g2g1g1/3g2ggg1/1b1ggg1g1/1gg2gg1/3gg2/6 g",
    "6/2bg1g1/2b5/1bb2gb2/1b2b2bb1/2bbb1b4/2b1b1b1g1/1g2bb3/1g4b1/2g2b1/6 g",
    "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g",
    "6/2bbb2/2b2g2/2bb2gg1/1gggg1gg2/1g2g1g1g2/1gggggg1g1/2g1g1g2/2gg1g2/2g1g2/6 g",
]


def mid_game_positions(size: int = 6) -> list[str]:
    """The benchmark positions of one board side: the fixed S=6 set, or for another
    side positions reached by seeded random play (plies 2S to 6S)."""
    if size == 6:
        return list(MID_GAME_S6)

    out: list[str] = []
    seed = 0
    while len(out) < 8:
        rng = random.Random(1000 * size + seed)
        seed += 1
        board = random_position(size, rng.randrange(2 * size, 6 * size), rng)
        if board.legal_moves:
            out.append(board.fen())
    return out


@dataclass
class Figure:
    name: str
    rate: float  # per second, one thread
    unit: str
    detail: str = ""
    threaded: float | None = None  # per second on ``threads`` threads, where measured
    threads: int = 1


def _median_rate(work, count, repeat):
    """Median of count / seconds over ``repeat`` timed calls of ``work()``."""
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def _sides(fen: str) -> tuple[int, tuple, tuple]:
    board = Board.from_fen(fen)
    return board.size, board.own, board.enemy


def perft_rate(positions, depth, bulk, repeat=3, threads=1) -> Figure:
    """Perft nodes per second over ``positions``; ``bulk`` counts the last ply
    without playing it. With ``threads`` > 1, also on that many threads (root moves
    shared), measured alternately with the one-thread figure."""
    from ..core import parallel

    sides = [_sides(fen) for fen in positions]
    parallel.perft(*sides[0], 2, bulk, 2)  # load or compile first
    nodes = sum(parallel.perft(*s, depth, bulk, 1) for s in sides)

    def run(t):
        for s in sides:
            parallel.perft(*s, depth, bulk, t)

    kind = "bulk counting at the last ply" if bulk else "every leaf move made"
    name = "perft, bulk" if bulk else "perft, leaves made"
    one, many = _alternated(run, nodes, repeat, threads)
    return Figure(name, one, "nodes/s", f"depth {depth}, {kind}", many, threads)


def _alternated(run, count, repeat, threads):
    """Median rates of ``run(1)`` and ``run(threads)``, timed in turn."""
    ones, manys = [], []
    for _ in range(repeat):
        ones.append(_median_rate(lambda: run(1), count, 1))
        if threads > 1:
            manys.append(_median_rate(lambda: run(threads), count, 1))
    return statistics.median(ones), (statistics.median(manys) if manys else None)


def make_unmake_rate(positions, rounds=2000, repeat=3) -> Figure:
    """Moves played and taken back per second: every legal move of each position,
    ``rounds`` times (copy-make: taking back is keeping the old words)."""
    from ..core import kernels

    work = workspace(1)
    sides = [_sides(fen) for fen in positions]
    total = sum(int(kernels.make_unmake_loop(*s, 1, work)[0]) for s in sides)

    def run():
        for s in sides:
            kernels.make_unmake_loop(*s, rounds, work)

    return Figure(
        "make/unmake",
        _median_rate(run, total * rounds, repeat),
        "moves/s",
        "every legal move, copy-make",
    )


def playout_rate(size=6, games=2000, repeat=3, seed=1, threads=1) -> Figure:
    """Uniformly random games from the empty board per second, on one thread and on
    ``threads`` threads (games shared; the same games either way)."""
    from ..core import parallel

    board = Board(size)
    own, enemy = board.own, board.enemy
    parallel.playouts(size, own, enemy, 2, 10_000, seed, 2)  # load or compile first
    mean_plies = parallel.playouts(size, own, enemy, games, 10_000, seed, 1).mean_plies

    def run(t):
        parallel.playouts(size, own, enemy, games, 10_000, seed, t)

    one, many = _alternated(run, games, repeat, threads)
    return Figure(
        "random playouts",
        one,
        "games/s",
        f"empty S={size}, {mean_plies:.1f} plies a game",
        many,
        threads,
    )


def reference_perft_rate(positions, depth, repeat=1) -> Figure:
    """The reference implementation's perft nodes per second (slow: a few seconds)."""
    poss = [ref.parse_position(fen) for fen in positions]
    nodes = sum(ref.perft(p, depth) for p in poss)

    def run():
        for p in poss:
            ref.perft(p, depth)

    return Figure(
        "reference perft",
        _median_rate(run, nodes, repeat),
        "nodes/s",
        f"depth {depth}, pure Python",
    )


def machine() -> str:
    """CPU model and core count, for the table's heading."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def search_rate(engine: str, positions, seconds=1.0, threads=1) -> Figure:
    """The engine's progress units (nodes, playouts) per second of a timed search,
    median over the positions; one searcher object per thread count for all of them.
    With ``threads`` > 1 also with that many search threads (registry option
    ``threads``), each position searched with 1 and with ``threads`` in turn."""
    spec = engine_spec(engine)
    options: dict[str, object] = {"seed": 1} if "seed" in spec.option_names else {}
    if "tablebase" in spec.option_names:
        options["tablebase"] = "off"  # the search's speed, not the table's (side 4)
    counts = (1, threads) if threads > 1 else (1,)
    searchers = {t: create_searcher(engine, threads=t, **options) for t in counts}
    for searcher in searchers.values():
        searcher.go(Board.from_fen(positions[0]), Limits(nodes=50))  # load or compile first
    rates: dict[int, list[float]] = {t: [] for t in counts}
    depths = []
    for fen in positions:
        for t in counts:
            result = searchers[t].go(Board.from_fen(fen), Limits(time=seconds))
            rates[t].append(result.nodes / max(result.seconds, 1e-9))
            if t == 1:
                depths.append(result.depth)
    unit = f"{spec.progress_unit}/s"
    return Figure(
        f"{engine} search",
        statistics.median(rates[1]),
        unit,
        f"{seconds:g} s a position, median depth {statistics.median(depths):g} (1 thread)",
        statistics.median(rates[threads]) if threads > 1 else None,
        threads,
    )


def run_all(size: int = 6, quick: bool = False, progress=None, threads: int | None = None) -> dict:
    """Every figure of ``hinge-fast bench`` as a dict (the ``--json`` output).

    ``progress(step, total, name)`` is called before each measurement. ``threads``
    (default: every core this process may use) is the all-thread column of perft,
    playouts and the searches.
    """
    from ..core.parallel import available_threads

    threads = threads or available_threads()
    positions = mid_game_positions(size)
    repeat = 1 if quick else 3
    searched = positions[:2] if quick else positions[:4]
    search_seconds = 0.2 if quick else 1.0
    steps = [
        (
            "perft, leaves made",
            lambda: perft_rate(
                positions, 3 if quick else 4, bulk=False, repeat=repeat, threads=threads
            ),
        ),
        (
            "perft, bulk",
            lambda: perft_rate(
                positions, 3 if quick else 5, bulk=True, repeat=repeat, threads=threads
            ),
        ),
        (
            "make/unmake",
            lambda: make_unmake_rate(positions, rounds=200 if quick else 2000, repeat=repeat),
        ),
        (
            "random playouts",
            lambda: playout_rate(
                size, games=200 if quick else 2000, repeat=repeat, threads=threads
            ),
        ),
        ("reference perft", lambda: reference_perft_rate(positions[:2] if quick else positions, 2)),
    ] + [
        (
            f"{engine} search",
            lambda engine=engine: search_rate(engine, searched, search_seconds, threads),
        )
        for engine in ENGINES
    ]
    figures = []
    for i, (name, measure) in enumerate(steps):
        if progress:
            progress(i, len(steps), name)
        figures.append(measure())
    if progress:
        progress(len(steps), len(steps), "done")
    by_name = {f.name: f for f in figures}
    ratio = by_name["perft, leaves made"].rate / by_name["reference perft"].rate
    return {
        "machine": machine(),
        "size": size,
        "positions": len(positions),
        "quick": quick,
        "threads": threads,
        "figures": [_figure_dict(f) for f in figures],
        "fast_over_reference": round(ratio, 1),
        "system_load": _system_load(),
    }


def _system_load() -> float | None:
    """The system's mean count of runnable processes over the last minute (None where
    it is not known)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def slower_threads_note(report: dict) -> str | None:
    """A line on why more threads measured slower than one, when some did: a busy
    machine (processes wanting to run against its cores) or quick runs too short for threads.

    >>> slower_threads_note({"threads": 2, "quick": True, "system_load": 0.1,
    ...                      "figures": [{"rate": 10.0, "rate_threads": 8.0}]})
    'note: 2 threads measured slower than 1 on some rows: --quick runs are too short to gain from threads (starting them costs more than they save)'
    """
    slower = [
        f for f in report["figures"] if f.get("rate_threads") and f["rate_threads"] < f["rate"]
    ]
    if not slower:
        return None

    cores = os.cpu_count() or 1
    load = report.get("system_load")
    why = []
    if load is not None and load >= 0.75 * cores:
        why.append(
            f"the machine was busy ({load:g} processes wanting to run on {cores} cores): other work takes the threads' cores"
        )
    if report.get("quick"):
        why.append(
            "--quick runs are too short to gain from threads (starting them costs more than they save)"
        )
    if not why:
        why.append("the work measured is too small to share well, or other programs ran meanwhile")
    return (
        f"note: {report.get('threads')} threads measured slower than 1 on some rows: "
        + "; ".join(why)
    )


def _figure_dict(f: Figure) -> dict:
    out = {"name": f.name, "rate": round(f.rate, 1), "unit": f.unit, "detail": f.detail}
    if f.threaded is not None:
        out["threads"] = f.threads
        out["rate_threads"] = round(f.threaded, 1)
    return out


def format_table(report: dict) -> str:
    """The bench report as a plain-text table."""
    lines = [
        f"hinge-fast bench: side {report['size']}, {report['positions']} mid-game positions"
        + (" (quick)" if report["quick"] else ""),
        f"machine: {report['machine']}",
        "",
        f"{'measure':<20} {'1 thread':>16} {str(report.get('threads', 1)) + ' threads':>16} {'x':>5}  {'unit':<11} detail",
        f"{'-' * 20} {'-' * 16} {'-' * 16} {'-' * 5}  {'-' * 11} {'-' * 30}",
    ]
    for f in report["figures"]:
        many = f.get("rate_threads")
        many_text = f"{many:>16,.0f} {many / f['rate']:>4.2f}x" if many else f"{'':>16} {'':>5}"
        lines.append(
            f"{f['name']:<20} {f['rate']:>16,.0f} {many_text}  {f['unit']:<11} {f['detail']}"
        )
    lines.append("")
    lines.append(f"fast / reference (perft, leaves made): {report['fast_over_reference']:,.0f}x")
    note = slower_threads_note(report)
    if note is not None:
        lines.append(note)
    return "\n".join(lines)
