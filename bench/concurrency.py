"""Games per second of one short match, played one at a time, in threads, in worker
processes and on a local Ray: which backend ``match --concurrency`` and ``--ray``
should use, and what Ray costs per game.

Usage: python -m bench.concurrency [--games 16] [--runs 3] [--size 6] [--a mcts] [--b alphabeta]
                                   [--nodes-a 300] [--nodes-b 1000] [--workers 2] [--no-ray]
Example: python -m bench.concurrency --games 16 --workers 2

Every backend plays the same games (node limits, one seed); the script checks that.
Pools and Ray are started, and their workers given a game each to load the kernels,
before the clock starts; their start-up time is printed apart (Ray's: ray.init and
the actors). Each backend plays the match ``--runs`` times, interleaved with the
others; the median time is shown.
"""

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

from hinge_fast.games.match import RunSettings, play_match
from hinge_fast.games.players import PlayerSpec
from hinge_fast.jobs.executor import Executor


class _Threads:
    """A thread pool behind the Executor interface (for this measurement only: the
    MCTS kernel and the Python game loop hold the GIL)."""

    kind = "threads"

    def __init__(self, workers):
        self.pool = ThreadPoolExecutor(workers)

    def run(self, fn, jobs):
        futures = {self.pool.submit(fn, job): i for i, job in enumerate(jobs)}
        for future in as_completed(futures):
            yield futures[future], future.result()

    def close(self):
        self.pool.shutdown()


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m bench.concurrency", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--a", default="mcts")
    parser.add_argument("--b", default="alphabeta")
    parser.add_argument("--nodes-a", type=int, default=300)
    parser.add_argument("--nodes-b", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--runs", type=int, default=3, help="runs of each backend, interleaved; the median is shown"
    )
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args(argv)
    a = PlayerSpec(args.a, nodes=args.nodes_a, size=args.size)
    b = PlayerSpec(args.b, nodes=args.nodes_b, size=args.size)

    def match(executor):
        start = time.perf_counter()
        result = play_match(a, b, args.games, args.size, seed=args.seed, run=RunSettings(executor))
        return time.perf_counter() - start, [g.moves for g in result.games]

    play_match(a, b, 2, args.size, seed=args.seed + 1)  # kernels loaded here
    backends = {"1 process": None}
    ready = {}
    for name, make in [
        (f"threads x{args.workers}", lambda: _Threads(args.workers)),
        (f"processes x{args.workers}", lambda: Executor(concurrency=args.workers)),
    ]:
        started = time.perf_counter()
        backends[name] = make()
        play_match(
            a, b, 2 * args.workers, args.size, seed=args.seed + 1, run=RunSettings(backends[name])
        )  # warm every worker
        ready[name] = time.perf_counter() - started
    if not args.no_ray:
        import ray

        started = time.perf_counter()
        ray.init(
            num_cpus=args.workers,
            include_dashboard=False,
            log_to_driver=False,
            logging_level="error",
        )
        for name, count in (("ray 1", 1), (f"ray {args.workers}", args.workers)):
            backends[name] = Executor(ray="auto", concurrency=count).start()
            play_match(
                a, b, 2 * count, args.size, seed=args.seed + 1, run=RunSettings(backends[name])
            )
            ready[name] = time.perf_counter() - started
            backends[name].close()  # its actors wait, loaded, for the next Executor
    times = {name: [] for name in backends}
    reference = match(None)[1]
    for _ in range(args.runs):  # interleaved, so that the others' load falls on every backend alike
        for name, executor in backends.items():
            if name.startswith("ray"):
                executor = Executor(
                    ray="auto", concurrency=1 if name == "ray 1" else args.workers
                ).start()
            seconds, moves = match(executor)
            if name.startswith("ray"):
                executor.close()
            assert moves == reference, f"{name} played other games"
            times[name].append(seconds)
    for name, executor in backends.items():
        if executor is not None and not name.startswith("ray"):
            executor.close()
    rows = [(name, statistics.median(t), ready.get(name)) for name, t in times.items()]
    serial = rows[0][1]
    label = lambda name, nodes: name if name in ("random", "greedy") else f"{name} ({nodes} nodes)"  # noqa: E731
    print(
        f"{args.games} games {label(args.a, args.nodes_a)} vs {label(args.b, args.nodes_b)}, side {args.size}, seed {args.seed}"
    )
    print(f"{'backend':<14} {'seconds':>8} {'games/s':>8} {'vs 1 process':>13} {'start-up s':>11}")
    for name, seconds, ready in rows:
        start_up = "" if ready is None else f"{ready:.1f}"
        print(
            f"{name:<14} {seconds:8.2f} {args.games / seconds:8.2f} {serial / seconds:12.2f}x {start_up:>11}"
        )
    ray1 = [s for n, s, _ in rows if n == "ray 1"]
    if ray1:
        print(
            f"Ray overhead per game (1 Ray worker against 1 process): {1000 * (ray1[0] - serial) / args.games:+.1f} ms"
        )


if __name__ == "__main__":
    main()
