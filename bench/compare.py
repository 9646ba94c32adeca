"""Fast engine and reference implementation side by side, measured in one run.

    python -m bench.compare [--size S] [--depth D]      (from the project folder)

Prints perft nodes/s of the reference implementation, of the fast engine with every
leaf move made and with bulk counting, on the same positions, and the ratios.
"""

import argparse

from hinge_fast.measure.benchmark import (
    machine,
    mid_game_positions,
    perft_rate,
    reference_perft_rate,
)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument(
        "--depth", type=int, default=2, help="reference perft depth (fast uses depth+1 too)"
    )
    args = parser.parse_args()
    positions = mid_game_positions(args.size)
    reference = reference_perft_rate(positions, args.depth)
    rows = [
        reference,
        perft_rate(positions, args.depth, bulk=False),
        perft_rate(positions, args.depth + 1, bulk=False),
        perft_rate(positions, args.depth + 1, bulk=True),
    ]
    print(f"machine: {machine()}; side {args.size}, {len(positions)} positions")
    print(f"{'implementation':<22} {'detail':<40} {'nodes/s':>14} {'x reference':>12}")
    for figure in rows:
        print(
            f"{figure.name:<22} {figure.detail:<40} {figure.rate:>14,.0f} {figure.rate / reference.rate:>12,.0f}"
        )


if __name__ == "__main__":
    main()
