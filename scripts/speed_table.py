"""The speed tables of README.md and docs/performance.md, measured in one run.

Usage: python -m scripts.speed_table [--rounds R] [--size S] [--yardstick DIR]
Example: HINGE_YARDSTICK=PATH/yardstick python -m scripts.speed_table --rounds 3

Runs ``hinge-fast bench --json`` (one thread and every core, side by side) and then,
straight after, ``side_by_side.py`` of the compiled C yardstick on one thread
(``scripts/hinge-fast-1thread``), and prints both as Markdown tables,
headed by the machine, the time and the load average before and after. The yardstick
is not part of the project: its folder (holding ``side_by_side.py``) is ``--yardstick
DIR``, else the environment variable ``HINGE_YARDSTICK``; without either, or without
``side_by_side.py`` in it, the second table says so and the first is printed alone.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from scripts import run_script

ROOT = Path(__file__).resolve().parent.parent
HINGE_FAST = ROOT / ".venv" / "bin" / "hinge-fast"
ONE_THREAD = ROOT / "scripts" / "hinge-fast-1thread"

#: A data row of side_by_side.py: workload name, two rates, the ratio.
_ROW = re.compile(
    r"^(?P<name>\S.*?)\s+(?P<ours>[\d,]+)\s+(?P<theirs>[\d,]+)\s+(?P<ratio>\d+\.\d+)\s*$"
)


def parse_side_by_side(text: str) -> list[tuple[str, float]]:
    """The (workload, ratio) rows of side_by_side.py's output, in order."""
    rows = []
    for line in text.splitlines():
        match = _ROW.match(line)
        if match:
            rows.append((" ".join(match["name"].split()), float(match["ratio"])))
    return rows


def bench_table(report: dict) -> str:
    """Markdown rows of ``hinge-fast bench --json``: one thread, every core, the ratio."""
    threads = report.get("threads", 1)
    lines = [
        f"| measure | 1 thread | {threads} threads | speed-up | unit |",
        "|---|---|---|---|---|",
    ]
    for f in report["figures"]:
        many = f.get("rate_threads")
        many_text = f"{many:,.0f}" if many else ""
        ratio = f"{many / f['rate']:.2f}x" if many else ""
        lines.append(f"| {f['name']} | {f['rate']:,.0f} | {many_text} | {ratio} | {f['unit']} |")
    lines.append(
        f"| fast / reference (perft, leaves made) | {report['fast_over_reference']:,.0f}x | | | |"
    )
    return "\n".join(lines)


def ratio_table(rows: list[tuple[str, float]]) -> str:
    lines = ["| workload | hinge-fast / yardstick |", "|---|---|"]
    lines += [f"| {name} | {ratio:.2f} |" for name, ratio in rows]
    return "\n".join(lines)


def yardstick_folder(given: Path | None, environ) -> Path | None:
    """The yardstick's folder: ``--yardstick``, else ``HINGE_YARDSTICK``, else None.

    >>> yardstick_folder(None, {"HINGE_YARDSTICK": "ys"}), yardstick_folder(None, {})
    (PosixPath('ys'), None)
    """
    if given is not None:
        return Path(given)
    folder = environ.get("HINGE_YARDSTICK")
    return Path(folder) if folder else None


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.speed_table", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of side_by_side.py (default 3)"
    )
    parser.add_argument(
        "--size", type=int, default=6, help="board side of hinge-fast bench (default 6)"
    )
    parser.add_argument(
        "--yardstick",
        type=Path,
        default=None,
        help="folder of hinge-yardstick and side_by_side.py (default: the environment "
        "variable HINGE_YARDSTICK)",
    )
    args = parser.parse_args(argv)
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    before = load()
    bench = subprocess.run(
        [str(HINGE_FAST), "bench", "--json", "--size", str(args.size)],
        check=True,
        capture_output=True,
        text=True,
    )
    report = json.loads(bench.stdout)
    yardstick = yardstick_folder(args.yardstick, os.environ)
    script = None if yardstick is None else yardstick / "side_by_side.py"
    if script is not None and script.exists():
        side = subprocess.run(
            [sys.executable, str(script), str(ONE_THREAD), str(args.rounds)],
            check=True,
            capture_output=True,
            text=True,
        )
        ratios = ratio_table(parse_side_by_side(side.stdout))
    elif yardstick is None:
        ratios = "(no yardstick: give its folder with --yardstick DIR or HINGE_YARDSTICK)"
    else:
        ratios = f"(no yardstick at {yardstick})"
    print(
        f"Measured {started} on {report['machine']}; load average {before} before, {load()} after."
    )
    print(f"`hinge-fast bench`, side {report['size']}, {report['positions']} mid-game positions:\n")
    print(bench_table(report))
    print(
        f"\n`side_by_side.py scripts/hinge-fast-1thread {args.rounds}`, one thread each, same run:\n"
    )
    print(ratios)
    return 0


if __name__ == "__main__":
    run_script(main)
