"""SVG pictures (hinge_fast.analysis.svg): rendered to PNG with cairosvg, pixels checked at cell centres."""

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from hinge_fast import Board
from hinge_fast.analysis.svg import COLORS, cell_center, to_png
from hinge_fast.analysis.svg import board as board_svg
from hinge_fast.errors import HingeError

# Green F6 G7, Blue D4 (S=6); last move: Blue's D4.
POSITION_MOVES = ["F6", "D4", "G7"]


def rgb(hex_color):
    return tuple(int(hex_color[i : i + 2], 16) for i in (1, 3, 5))


def close(pixel, hex_color, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], rgb(hex_color)))


def render(svg):
    return Image.open(io.BytesIO(to_png(svg))).convert("RGB")


def pixel_at(image, size, cell):
    c, r = ord(cell[0]) - ord("A"), int(cell[1:]) - 1
    x, y = cell_center(size, c, r)
    return image.getpixel((int(round(x)), int(round(y))))


@pytest.fixture(scope="module")
def position():
    board = Board()
    for move in POSITION_MOVES:
        board.push_str(move)
    return board


def test_cell_colours_at_centres(position):
    image = render(board_svg(position, lastmove=None))
    assert close(pixel_at(image, 6, "F6"), COLORS["green"])
    assert close(pixel_at(image, 6, "G7"), COLORS["green"])
    assert close(pixel_at(image, 6, "D4"), COLORS["blue"])
    assert close(pixel_at(image, 6, "C3"), COLORS["interior"])  # empty interior
    assert close(pixel_at(image, 6, "A1"), COLORS["edge"])  # edge ring
    assert close(pixel_at(image, 6, "K6"), COLORS["edge"])


def test_orientation_rows_up_columns_up_right_of_row():
    """Cell (c, r+1) is above (c, r) and half a cell to the left; (c+1, r) is right."""
    x0, y0 = cell_center(6, 3, 3)
    x1, y1 = cell_center(6, 3, 4)
    x2, y2 = cell_center(6, 4, 3)
    assert y1 < y0 and x1 < x0
    assert y2 == y0 and x2 > x0


def test_last_move_is_tinted_by_default(position):
    image = render(board_svg(position))
    # the last move (G7, a placement) is covered by its token; the tint shows at the cell's rim
    c, r = 6, 6
    x, y = cell_center(6, c, r)
    assert close(image.getpixel((int(x), int(y - 20))), COLORS["lastmove"])
    image = render(board_svg(position, lastmove=None))
    assert close(image.getpixel((int(x), int(y - 20))), COLORS["interior"])


def test_highlight_arrows_and_outlines(position):
    svg = board_svg(
        position, arrows=[("F6", "E5"), "G7-G7xD4"], highlight=["C3"], outlines=[["F6", "G7"]]
    )
    image = render(svg)
    assert close(pixel_at(image, 6, "C3"), COLORS["highlight"])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    classes = [e.get("class") for e in root.iter() if e.get("class")]
    assert classes.count("arrow") == 2
    assert classes.count("outline") == 1
    # the group outline passes the mid-point of F6's left side (not shared with G7)
    x, y = cell_center(6, 5, 5)
    assert close(image.getpixel((int(x - 20.5), int(y))), COLORS["outline"], tolerance=40)
    assert root.tag == ns + "svg"


def test_coordinates_and_size(position):
    svg = board_svg(position, size=300)
    root = ET.fromstring(svg)
    assert root.get("width") == "300"
    texts = [e.text for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "A" in texts and "K" in texts and "1" in texts and "11" in texts
    plain = ET.fromstring(board_svg(position, coordinates=False, caption=False))
    assert not list(plain.iter("{http://www.w3.org/2000/svg}text"))


def test_every_size_renders():
    for size in range(4, 10):
        svg = board_svg(Board(size))
        assert svg.count('class="cell ') == 3 * size * (size - 1) + 1


def test_bad_cells_are_hinge_errors(position):
    with pytest.raises(HingeError, match="arrow: Z9"):
        board_svg(position, arrows=[("Z9", "F6")])
    with pytest.raises(HingeError, match="outline"):
        board_svg(position, outlines=[["F66"]])
    with pytest.raises(HingeError, match="picture size"):
        board_svg(position, size=-1)


SVG = "{http://www.w3.org/2000/svg}"
MIDGAME = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"


def test_coordinates_at_both_ends_of_rows_and_columns(position):
    texts = [e.text for e in ET.fromstring(board_svg(position, caption=False)).iter(SVG + "text")]
    for r in range(1, 12):
        assert texts.count(str(r)) == 2
    for letter in "ABCDEFGHIJK":
        assert texts.count(letter) == 2


def test_best_move_arrow_reaches_its_destination_and_crosses_out_the_flipped_group():
    board = Board.from_fen(MIDGAME)
    svg = board_svg(board, best="G5-G4xF3", best_text="+3.78")
    root = ET.fromstring(svg)
    arrow = next(e for e in root.iter(SVG + "g") if e.get("class") == "arrow")
    tip = arrow.find(SVG + "polygon").get("points").split()[0]
    x, y = cell_center(6, 6, 3)  # G4
    assert tuple(round(float(v), 1) for v in tip.split(",")) == (round(x, 1), round(y, 1))
    marks = [e for e in root.iter(SVG + "path") if e.get("class") == "flip-mark"]
    assert len(marks) == 2  # one token (F3), a halo and a cross
    texts = ["".join(e.itertext()) for e in root.iter(SVG + "text")]
    assert "best move: G5-G4xF3  +3.78" in texts
    # the whole group is crossed out: B2's group has four tokens
    svg = board_svg(board, best="B4-C4xC3")
    assert svg.count('class="flip-mark"') == 2 * 4


def test_legend_names_what_is_drawn():
    board = Board.from_fen(MIDGAME)
    svg = board_svg(
        board, outlines=[(["F3"], COLORS["outline_attack"]), (["B4", "C5"], COLORS["outline"])]
    )
    texts = [e.text for e in ET.fromstring(svg).iter(SVG + "text")]
    assert "outlined orange: blue groups green can flip now" in texts
    assert "outlined red: green groups blue threatens to flip" in texts
    assert not any(
        t and t.startswith("outlined")
        for t in (e.text for e in ET.fromstring(board_svg(board)).iter(SVG + "text"))
    )
    svg = board_svg(board, legend=[("#123456", "my own entry")])
    assert "my own entry" in svg


def test_last_move_flips_are_ringed_and_a_reversing_swipe_gets_a_loop():
    board = Board.from_fen(MIDGAME)
    board.push_str("H4-I6xG6")
    svg = board_svg(board)
    flipped = sorted(
        float(e.get("cx"))
        for e in ET.fromstring(svg).iter(SVG + "circle")
        if e.get("class") == "flipped"
    )
    assert len(flipped) == 3  # G6 H6 H7 turned green
    assert "lastmove-reverse" not in svg
    blue_to_move = MIDGAME[:-1] + "b"
    reversing = next(
        m for m in Board.from_fen(blue_to_move).legal_moves if m.is_swipe and m.frm == m.to
    )
    board = Board.from_fen(blue_to_move)
    board.push(reversing)
    svg = board_svg(board)
    assert svg.count('class="lastmove-reverse"') == 1
    assert "swiped out and back onto its own cell" in svg
    # as an arrow, a reversing swipe is a loop with a head, a placement a plain ring
    root = ET.fromstring(board_svg(Board.from_fen(MIDGAME), arrows=[str(reversing), "F6"]))
    kinds = sorted(e.tag.replace(SVG, "") for e in root.iter() if e.get("class") == "arrow")
    assert kinds == ["circle", "g"]


def test_cells_and_tokens_carry_their_names():
    svg = board_svg(Board.from_fen(MIDGAME), labels=True)
    root = ET.fromstring(svg)
    named = {e.get("data-cell") for e in root.iter() if e.get("data-cell")}
    assert "F3" in named and "A1" in named and len(named) == 91
    assert any(e.get("class") == "label" and e.text == "C4" for e in root.iter(SVG + "text"))


@pytest.mark.parametrize("size", [4, 6, 9])
def test_a_long_caption_is_wrapped_inside_the_picture(size):
    """A best-move text longer than the picture is broken into lines at spaces: every
    word is drawn, and no text reaches the picture's right edge (the last columns of
    the rendered picture stay background)."""
    from hinge_fast.analysis.svg import natural_size

    board = Board(size)
    words = [f"word{i}" for i in range(40)]
    svg = board_svg(board, best=board.legal_moves[0], best_text=" ".join(words))
    texts = [
        t.text
        for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")
        if t.text and "word" in t.text
    ]
    assert len(texts) > 1 and " ".join(texts).split()[-40:] == words
    image = render(svg)
    _, board_height = natural_size(size)
    strip = image.crop((image.width - 6, int(board_height), image.width, image.height))
    pixels = [strip.getpixel((x, y)) for y in range(strip.height) for x in range(strip.width)]
    assert pixels and all(close(p, COLORS["background"]) for p in pixels)
