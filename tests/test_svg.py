"""SVG pictures (hinge_fast.tools.svg): rendered to PNG with cairosvg, pixels checked at cell centres."""

import io
import xml.etree.ElementTree as ET

import cairosvg
import pytest
from PIL import Image

from hinge_fast import Board
from hinge_fast.errors import HingeError
from hinge_fast.tools.svg import COLORS, board as board_svg, cell_center, to_png

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
    svg = board_svg(position, arrows=[("F6", "E5"), "G7-G7xD4"], highlight=["C3"], outlines=[["F6", "G7"]])
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
