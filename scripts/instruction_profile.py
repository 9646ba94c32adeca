"""Instructions and branch mispredictions per counted position, hinge-fast against the
compiled yardstick, under valgrind (docs/performance.md, issue 9).

Usage: python -m scripts.instruction_profile [--yardstick DIR] [--sides 6 9] [--ours-only]

This machine's virtual CPU exposes no hardware counters (``perf stat`` says "not
supported"), and perf cannot name numba's compiled functions. Valgrind's cachegrind
can count every instruction either program executes and simulate a branch predictor
(``--branch-sim=yes``), whatever compiled the code. Start-up (Python, numba's cache
loading, the C program's tables) is removed by difference: bulk perft at depth d + 1
minus bulk perft at depth d is the work of counting the moves of the ``perft(d)``
positions at depth d (and making the moves that lead to them). Dividing by
``perft(d)`` gives the cost of one counted position, the unit of the bulk workloads
of ``side_by_side.py`` (on its mid-game positions).

Valgrind cannot run AVX-512 code, which numba emits for a host that has it, and a
CPU seen through valgrind differs from the host, so numba would miss its cache and
compile every kernel under valgrind (an hour). So hinge-fast's kernels are compiled
for ``haswell`` (``NUMBA_CPU_NAME``, with that CPU's own features: AVX2, BMI2,
popcount, lzcnt), the level the yardstick is built for (``-march=x86-64-v3``), once
outside valgrind (numba keeps them in its cache beside the host's own), then run
under it. After a source change the first run of either kind drops the whole kernel
cache (``core/kernels.py``), so the next ordinary command recompiles once. Valgrind runs programs about 50 times slower; the counts do not depend on
the machine's load.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HINGE_FAST = ROOT / ".venv" / "bin" / "hinge-fast"

#: side_by_side.py's mid-game positions, and the depths whose difference is measured.
POSITIONS = {
    6: ("6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g", 3),
    9: ("9/3gggg1b1/1ggg1g3b1/1g4g1b3/1gg4g5/4b3g1g1b1/1b1g1bb2gg1b2/5b1b4b1b1/"
        "1b2g1bb5bb2/3b2bb8/2b3b2b1b1g1/1b7bb3/2b1bg2b1g2/3bggbb4/4ggg4/4g1bb2/9 g", 2),
}

_SUMMARY = {
    "instructions": re.compile(r"I\s+refs:\s+([\d,]+)"),
    "branches": re.compile(r"Branches:\s+[\d,]+\s+\(\s*([\d,]+) cond"),
    "mispredicts": re.compile(r"Mispredicts:\s+[\d,]+\s+\(\s*([\d,]+) cond"),
}


def parse_cachegrind(text: str) -> dict[str, int]:
    """Total instructions, conditional branches and their simulated mispredictions
    from cachegrind's summary (on stderr)."""
    counts = {}
    for name, pattern in _SUMMARY.items():
        match = pattern.search(text)
        if not match:
            raise ValueError(f"no {name} in valgrind's summary")
        counts[name] = int(match.group(1).replace(",", ""))
    return counts


#: What hinge-fast says on stderr when it compiles.
COMPILING = "compiling the numba kernels"
#: numba compiles for x86-64-v3, as the yardstick is built (see above).
NUMBA_ENV = {"NUMBA_CPU_NAME": "haswell", "NUMBA_CPU_FEATURES": "", "NUMBA_NUM_THREADS": "1"}


def cachegrind(command: list[str]) -> tuple[dict[str, int], str]:
    """Run ``command`` under cachegrind: its counts and its own output."""
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
             f"--cachegrind-out-file={folder}/out", *command],
            capture_output=True, text=True, env={**os.environ, **NUMBA_ENV},
        )
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:3])}: exit {run.returncode}: {run.stderr.strip()[-400:]}")
    return parse_cachegrind(run.stderr), run.stdout + run.stderr


def per_position(low: dict[str, int], high: dict[str, int], positions: int) -> dict[str, float]:
    """The cost of one counted position: (depth d + 1 - depth d) / perft(d)."""
    return {name: (high[name] - low[name]) / positions for name in low}


def measure(program: str, position: str, depth: int, yardstick: bool) -> tuple[dict[str, float], int]:
    def command(d):
        if yardstick:
            return [program, "perft", position, str(d)]
        return [program, "perft", str(d), position, "--threads", "1"]

    def counted(d):
        counts, out = cachegrind(command(d))
        if COMPILING in out:  # numba compiled under valgrind after all: that run's count is no use
            counts, out = cachegrind(command(d))
            if COMPILING in out:
                raise RuntimeError("hinge-fast compiled its kernels under valgrind twice")
        return counts, out

    if not yardstick:  # compile (or load) the x86-64-v3 kernels outside valgrind first
        subprocess.run([program, "warmup"], capture_output=True, check=True, env={**os.environ, **NUMBA_ENV})
    low, out = counted(depth)
    leaves = re.search(r"perft\(\d+\) = (\d+)" if yardstick else r"perft \d+: (\d+) nodes", out)
    high, _ = counted(depth + 1)
    return per_position(low, high, int(leaves.group(1))), int(leaves.group(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.instruction_profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--yardstick", type=Path, default=ROOT.parent / "shared" / "yardstick",
                        help="folder of hinge-yardstick (default ../shared/yardstick)")
    parser.add_argument("--sides", type=int, nargs="+", default=[6, 9], choices=sorted(POSITIONS))
    parser.add_argument("--ours-only", action="store_true",
                        help="measure hinge-fast alone (its counts do not depend on the load: compare a change with the last run)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("instruction_profile: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    programs = [("hinge-fast", str(HINGE_FAST), False)]
    if not args.ours_only:
        programs.append(("yardstick", str(args.yardstick / "hinge-yardstick"), True))
    print("bulk perft, per counted position (depth d+1 minus depth d, over perft(d)), under valgrind")
    print(f"{'side':>4} {'program':<11} {'positions':>9} {'instructions':>12} {'cond. branches':>14} {'mispredicted':>12}")
    for side in args.sides:
        position, depth = POSITIONS[side]
        rows = []
        for name, program, is_yardstick in programs:
            cost, positions = measure(program, position, depth, is_yardstick)
            rows.append(cost)
            print(f"{side:>4} {name:<11} {positions:>9,} {cost['instructions']:>12,.0f} "
                  f"{cost['branches']:>14,.1f} {cost['mispredicts']:>12,.2f}", flush=True)
        if len(rows) < 2:
            continue
        ratio = {k: rows[0][k] / rows[1][k] for k in rows[0]}
        print(f"{side:>4} {'ratio':<11} {'':>9} {ratio['instructions']:>11.2f}x {ratio['branches']:>13.2f}x "
              f"{ratio['mispredicts']:>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
