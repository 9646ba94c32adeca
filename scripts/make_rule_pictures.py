"""Draw the pictures of docs/rules.md with hinge_fast.analysis.svg, and copy the rules with
their pictures into the web app (hinge_fast/web/static/rules/), which serves them.

    python -m scripts.make_rule_pictures          # write docs/rules/*.svg and the app's copy
    python -m scripts.make_rule_pictures --check  # exit 1 if anything is out of date

Example: python -m scripts.make_rule_pictures --check

Every picture is a real position: the moves drawn are legal moves the engine finds
there (``build`` checks it), so the pictures cannot teach a rule the engine does not
play. tests/test_rules_doc.py runs the check.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from hinge_fast import Board
from hinge_fast.analysis.svg import COLORS
from hinge_fast.analysis.svg import board as board_svg
from hinge_fast.core.atomic import write_atomic
from hinge_fast.core.fen import format_fen
from hinge_fast.core.geometry import geometry
from scripts import run_script

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PICTURES = DOCS / "rules"
APP_COPY = ROOT / "hinge_fast" / "web" / "static" / "rules"

PIVOT = "#6a4c93"
GREY = "#8a8a8a"


def position(size: int, green, blue, turn: str = "g") -> Board:
    geo = geometry(size)
    cells = lambda names: [geo.parse_cell(n) for n in names]  # noqa: E731
    return Board.from_fen(format_fen(size, cells(green), cells(blue), 0 if turn == "g" else 1))


def legal(board: Board, move: str) -> str:
    """``move`` as the engine writes it; an error if it is not legal (the pictures must
    show real rules)."""
    found = board.parse_move(move)
    if str(found) != move:
        raise SystemExit(f"make_rule_pictures: {move} is written {found}")
    return move


def build() -> dict[str, str]:
    """{file name: SVG text} of every picture."""
    out = {}
    out["board.svg"] = board_svg(Board(5), labels=True, caption=False)

    # Placement: the rules' own check position (side 6: Green on G6 and H8, Blue on G3 and I7)
    b = position(6, ["G6", "H8"], ["G3", "I7"])
    places = [str(m) for m in b.legal_moves if not m.is_swipe]
    assert "C4" in places and "H7" in places and "H4" not in places and "C8" not in places
    out["placing.svg"] = board_svg(
        b,
        highlight=places,
        labels=True,
        caption=True,
        legend=[
            (COLORS["highlight"], "tinted: where Green may place"),
            (GREY, "not H4: alone, next to blue G3"),
        ],
    )

    # Swipes: one step (D4 round the pivot E4 to E5) and two steps (D4 over D3 to E3)
    b = position(5, ["D4", "E4"], ["E6", "E2"])
    one, two = legal(b, "D4-E5xE6"), legal(b, "D4-E3xE2")
    out["swipe-one-step.svg"] = board_svg(
        b,
        arrows=[one],
        outlines=[(["E4"], PIVOT, "outlined purple: the pivot E4")],
        labels=True,
        legend=[
            (PIVOT, "outlined purple: the pivot, E4"),
            (COLORS["arrow"], f"{one}: one step, stops by blue"),
        ],
    )
    out["swipe-two-steps.svg"] = board_svg(
        b,
        arrows=[("D4", "D3", GREY), ("D3", "E3")],
        outlines=[(["E4"], PIVOT, "pivot")],
        labels=True,
        legend=[
            (PIVOT, "outlined purple: the pivot, E4"),
            (GREY, "step 1: D4 to D3, no blue next to it"),
            (COLORS["arrow"], f"step 2: D3 to E3, so {two}"),
        ],
    )

    # Reversing: out onto the edge cell B1 and back onto B2
    b = position(5, ["B2", "C2"], ["B3"])
    back = legal(b, "B2-B2xB3")
    out["swipe-reversing.svg"] = board_svg(
        b,
        arrows=[back],
        outlines=[(["C2"], PIVOT, "pivot")],
        labels=True,
        legend=[
            (PIVOT, "outlined purple: the pivot, C2"),
            (COLORS["arrow"], f"{back}: out to B1 and back"),
        ],
    )

    # Flipping, with a choice: D3-D4 touches two blue groups
    b = Board.from_fen("5/1g4/2bb3/8/4b4/2b5/2gg3/1g4/5 g")
    choices = [str(m) for m in b.legal_moves if m.frm == "D3" and m.to == "D4"]
    assert choices == ["D3-D4xC4", "D3-D4xE5"], choices
    out["flip-choice.svg"] = board_svg(
        b,
        arrows=[("D3", "D4")],
        labels=True,
        outlines=[(b_group, COLORS["outline_attack"]) for b_group in (["C4"], ["E5"])],
        legend=[
            (COLORS["arrow"], "D3-D4, round the pivot C3"),
            (COLORS["outline_attack"], "two blue groups touch D4: flip one"),
        ],
    )
    after = b.copy()
    after.push_str("D3-D4xE5")
    out["flip-after.svg"] = board_svg(after, labels=True)

    # The end: a swipe that flips Blue's last tokens
    b = Board.from_fen("6/7/8/9/10/4gg5/5b4/9/8/7/6 g")
    win = legal(b, "E6-E5xF5")
    out["end-elimination.svg"] = board_svg(
        b,
        best=win,
        best_text="wins",
        labels=True,
        legend=[(COLORS["arrow"], "E6-E5 flips F5, Blue's last token")],
    )

    # Position string: a small side-4 position, read row by row from the top
    b = position(4, ["C3", "D3", "E6"], ["D5"], "b")
    assert b.fen() == POSITION_EXAMPLE, b.fen()
    out["position-string.svg"] = board_svg(b, labels=True, legend=[("#4a4a4a", POSITION_EXAMPLE)])
    return out


#: The position of position-string.svg (docs/rules.md reads it out row by row).
POSITION_EXAMPLE = "4/2g2/2b3/7/2gg2/5/4 b"


def expected_files() -> dict[Path, str]:
    """Every file the script writes, with its text."""
    pictures = build()
    files = {PICTURES / name: text for name, text in pictures.items()}
    files.update({APP_COPY / name: text for name, text in pictures.items()})
    files[APP_COPY / "rules.md"] = (DOCS / "rules.md").read_text(encoding="utf-8")
    return files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.make_rule_pictures", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--check", action="store_true", help="only check that the files are up to date"
    )
    args = parser.parse_args(argv)
    stale = []
    for path, text in expected_files().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text)
    for path in stale:
        print(f"{'out of date' if args.check else 'wrote'}: {path.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    run_script(main)
