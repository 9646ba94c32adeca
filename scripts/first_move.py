"""What a new user waits for: the first engine move on an empty kernel cache, a full
warmup, and how soon later commands start their work.

    python -m scripts.first_move [--size 6] [--time 1] [--repeats 5] [--json FILE]

Example: python -m scripts.first_move --size 6 --time 1

Three measures, each in fresh processes of ``hinge-fast`` with a kernel cache of its
own (a temporary ``HINGE_FAST_CACHE_DIR``, so the user's cache is untouched):

1. ``pip install`` of this checkout into a new virtual environment (its wall time, for
   the record), then ``hinge-fast move --size S --time T`` on the empty cache: its wall
   time, and the kernel versions it compiled (numba's compile events);
2. ``hinge-fast warmup`` on another empty cache: its wall time;
3. on the warm cache, the start-up of later commands: the wall time of ``move --time
   0.1`` (one thread and the default threads), ``moves`` and ``perft 1`` less the
   search time each reports (0.1 s for the moves), the median of ``--repeats`` runs.

The figures go to stdout as a table (and to ``--json FILE``); docs/performance.md
("Compile time") quotes them with the machine they ran on.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hinge_fast.records.files import write_text_file
from scripts import run_script

ROOT = Path(__file__).resolve().parent.parent


def timed(argv, env, cwd=ROOT) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    run = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=3600)
    seconds = time.perf_counter() - started
    if run.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({run.returncode}): {run.stderr.strip()[-500:]}")
    return seconds, run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.first_move", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--size", type=int, default=6, help="board side of the first move (default 6)"
    )
    parser.add_argument(
        "--time", type=float, default=1.0, help="seconds of the first move's search (default 1)"
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="runs of each start-up measure (default 5)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)

    figures = {"machine": f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"}
    with tempfile.TemporaryDirectory(prefix="hinge-fast-first-move-") as folder:
        folder = Path(folder)
        venv = folder / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip_seconds, _ = timed(
            [str(venv / "bin" / "pip"), "install", "-q", str(ROOT)], dict(os.environ)
        )
        figures["pip_install_s"] = round(pip_seconds, 1)
        hinge = str(venv / "bin" / "hinge-fast")
        base = {
            k: v
            for k, v in os.environ.items()
            if k not in ("NUMBA_CACHE_DIR", "HINGE_FAST_THREADS")
        }

        env = dict(base, HINGE_FAST_CACHE_DIR=str(folder / "cache-move"))
        seconds, run = timed(
            [hinge, "move", "--size", str(args.size), "--time", str(args.time)], env, folder
        )
        figures["first_move_s"] = round(seconds, 1)
        figures["first_move_said"] = next(
            (line for line in run.stderr.splitlines() if "compiling" in line), ""
        )

        env = dict(base, HINGE_FAST_CACHE_DIR=str(folder / "cache-warmup"))
        seconds, run = timed([hinge, "warmup"], env, folder)
        figures["warmup_s"] = round(seconds, 1)
        figures["warmup_said"] = run.stdout.strip()

        starts = {}
        for name, command, work in (
            (
                "move, 1 thread",
                ["move", "--size", str(args.size), "--time", "0.1", "-o", "threads=1"],
                0.1,
            ),
            ("move, default threads", ["move", "--size", str(args.size), "--time", "0.1"], 0.1),
            ("moves", ["moves", "--size", str(args.size)], 0.0),
            ("perft 1", ["perft", "1", "--size", str(args.size)], 0.0),
        ):
            walls = [timed([hinge, *command], env, folder)[0] for _ in range(args.repeats)]
            starts[name] = round(statistics.median(walls) - work, 2)
        figures["start_s"] = starts

    print(f"machine: {figures['machine']}")
    print(f"pip install .                              {figures['pip_install_s']:7.1f} s")
    print(
        f"first move, empty cache (side {args.size}, {args.time:g} s) {figures['first_move_s']:7.1f} s"
    )
    print(f"warmup, empty cache                         {figures['warmup_s']:7.1f} s")
    for name, seconds in figures["start_s"].items():
        print(f"start-up, warm cache: {name:22}{seconds:7.2f} s")
    if args.json:
        write_text_file(args.json, json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    run_script(main)
