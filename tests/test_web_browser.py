"""The web app in a real headless Chromium (Debian's ``chromium`` package; .ci/run
installs it), driven by Playwright: a short game by clicking, a swipe with a choice of
groups to flip, live analysis, undo, position strings, and the screenshot of the README
(docs/web.png). Every wait is Playwright's auto-waiting ``expect``."""

import os
import shutil
import socket
import threading
from pathlib import Path

import pytest

pytest.importorskip("playwright")
uvicorn = pytest.importorskip("uvicorn")
from playwright.sync_api import expect  # noqa: E402

from hinge_fast import Board  # noqa: E402
from hinge_fast.web import create_app  # noqa: E402

# One browser and one server: under pytest-xdist these tests share one worker.
pytestmark = pytest.mark.xdist_group("browser")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: docs/web.png, the README's picture of the page: rewritten only when asked
#: (``HINGE_FAST_SCREENSHOT=1 pytest tests/test_web_browser.py``), so that a test run
#: leaves the work tree as it found it. Otherwise the screenshot goes to a temporary file.
DOCS_SCREENSHOT = Path(__file__).resolve().parent.parent / "docs" / "web.png"
# Green's D3-D4 can flip Blue's C4 or Blue's E5.
CHOICE = "5/1g4/2bb3/8/4b4/2b5/2gg3/1g4/5 g"
MIDGAME = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure, not a skip
        raise RuntimeError("the browser tests need Debian's chromium, which .ci/run failed to install")
    pytest.skip("needs Debian's chromium (apt-get install chromium; .ci/run does it)", allow_module_level=True)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 860}}


#: The access token of the test server: the page is opened with it, as serve prints it.
TOKEN = "browser-test-token"


@pytest.fixture(scope="module")
def server():
    """The app on a free localhost port, in a background thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app_server = uvicorn.Server(uvicorn.Config(create_app(max_searches=2, token=TOKEN), log_level="warning"))
    thread = threading.Thread(target=app_server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}/?token={TOKEN}"
    app_server.should_exit = True
    thread.join(timeout=30)
    sock.close()


def click_cell(page, cell):
    """Click the token on ``cell`` if there is one, else the cell."""
    token = page.locator(f'#board circle.token[data-cell="{cell}"]')
    (token if token.count() else page.locator(f'#board polygon[data-cell="{cell}"]')).click()


def play_by_clicks(page, move):
    """Play ``move`` as a person would: click the cell, or the token then its destination
    (and the group to flip when the page asks)."""
    if "-" not in move:
        click_cell(page, move)
        return
    frm, rest = move.split("-")
    to = rest.split("x")[0]
    click_cell(page, frm)
    expect(page.locator(f'#board [data-cell="{to}"].dest')).not_to_have_count(0)
    click_cell(page, to)
    choice = page.locator(f'#choice button[data-move="{move}"]')
    if page.locator("#choice").is_visible():
        choice.click()


def board_position(page):
    return page.locator("#board svg title")


def test_a_game_in_the_browser(page, server, tmp_path):
    page.goto(server)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(board_position(page)).to_have_text(Board().fen())
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules")

    # against the engine: a click places a token, the engine answers
    page.select_option("#mode", "engine")
    page.select_option("#side", "green")
    page.select_option("#engine", "mcts")
    page.fill("#time", "0.2")
    click_cell(page, "F6")
    expect(page.locator("#moves li button")).to_have_count(2)
    expect(page.locator("#moves li button").first).to_have_text("F6")
    expect(page.locator("#status")).to_have_text("green to move")

    # an illegal click is explained and changes nothing
    click_cell(page, "A1")
    expect(page.locator("#message")).to_have_text("illegal move A1: A1 is an edge cell")
    expect(page.locator("#moves li button")).to_have_count(2)

    # two people; a position loaded by its string; a swipe with two groups to choose from
    page.select_option("#mode", "people")
    page.fill("#position", CHOICE)
    page.click("#load-position")
    expect(board_position(page)).to_have_text(CHOICE)
    click_cell(page, "D3")
    expect(page.locator('#board polygon.selected[data-cell="D3"]')).to_have_count(1)
    expect(page.locator("#board polygon.dest")).to_have_count(1)  # D4, with two groups to flip there
    click_cell(page, "D4")
    expect(page.locator("#choice")).to_be_visible()
    expect(page.locator("#choice button.flip-choice")).to_have_text(
        ["D3-D4xC4: flip C4 (1)", "D3-D4xE5: flip E5 (1)"])
    page.locator('#choice button[data-move="D3-D4xE5"]').click()
    expect(page.locator("#choice")).to_be_hidden()
    expect(page.locator('#board circle.token.green[data-cell="E5"]')).to_have_count(1)
    expect(page.locator('#board circle.token.blue[data-cell="C4"]')).to_have_count(1)
    expect(page.locator("#board circle.flipped")).to_have_count(1)  # the flipped token is ringed
    expect(page.locator("#moves li.current button")).to_have_text("D3-D4xE5")

    # a malformed position string: the project's message, nothing changes
    after_swipe = page.locator("#position").input_value()
    page.fill("#position", "6/7/8 g")
    page.click("#load-position")
    expect(page.locator("#message")).to_have_text("position string has 3 rows; a board of side S has 2S-1 rows (7 to 17)")
    expect(board_position(page)).to_have_text(after_swipe)

    # analysis: the evaluation, the best move's arrow; they follow the moves
    page.fill("#position", MIDGAME)
    page.click("#load-position")
    expect(board_position(page)).to_have_text(MIDGAME)
    page.select_option("#engine", "alphabeta")
    page.fill("#analysis-time", "3")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("depth")
    expect(page.locator("#board g.arrow")).to_have_count(1)
    expect(page.locator("#top-moves tbody tr")).not_to_have_count(0)
    expect(page.locator("#threats li")).not_to_have_count(0)
    score = page.locator("#score").text_content()
    best = score.split()[0]
    assert best in {str(m) for m in Board.from_fen(MIDGAME).legal_moves}
    bar = page.locator("#evalfill").get_attribute("style")
    assert "height" in bar

    page.fill("#analysis-time", "30")  # long enough to be stopped below
    play_by_clicks(page, best)
    expect(page.locator("#moves li.current button")).to_have_text(best)
    after = Board.from_fen(MIDGAME)
    after.push_str(best)
    expect(board_position(page)).to_have_text(after.fen())
    expect(page.locator("#analysis-info")).to_contain_text("depth")
    expect(page.locator("#board g.arrow, #board circle.arrow")).to_have_count(1)
    expect(page.locator("#score")).not_to_have_text(score)  # a new evaluation and best move
    new_best = page.locator("#score").text_content().split()[0]
    assert new_best in {str(m) for m in after.legal_moves}

    # stopped, the analysis keeps what it found
    page.click("#stop-analysis")
    expect(page.locator("#analyse")).to_be_visible()
    expect(page.locator("#analysis-info")).to_contain_text("(done)")
    expect(page.locator("#board g.arrow, #board circle.arrow")).to_have_count(1)

    # undo: back to the position before, analysed again (the analysis follows the moves)
    page.fill("#analysis-time", "2")
    page.click("#undo")
    expect(board_position(page)).to_have_text(MIDGAME)
    expect(page.locator("#moves li.future button")).to_have_text([best])
    page.keyboard.press("ArrowRight")  # the arrow keys walk through the game too
    expect(board_position(page)).to_have_text(after.fen())
    page.keyboard.press("ArrowLeft")
    expect(board_position(page)).to_have_text(MIDGAME)
    expect(page.locator("#board g.arrow")).to_have_count(1)
    expect(page.locator("#analysis-info")).to_contain_text("(done)", timeout=20_000)
    shot = DOCS_SCREENSHOT if os.environ.get("HINGE_FAST_SCREENSHOT") else tmp_path / "web.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000  # a rendered page, not an empty image

    # a new game on another side, and the position editor
    page.select_option("#size", "4")
    page.click("#new-game")
    expect(board_position(page)).to_have_text(Board(4).fen())
    expect(page.locator("#moves li")).to_have_count(0)
    page.locator("summary", has_text="Position editor").click()
    page.click("#edit")
    page.check("input[name=piece][value=blue]")
    click_cell(page, "D4")
    expect(page.locator('#board circle.token.blue[data-cell="D4"]')).to_have_count(1)
    page.select_option("#edit-turn", "blue")
    expect(board_position(page)).to_have_text("4/5/6/3b3/6/5/4 b")
    page.click("#edit")
    click_cell(page, "C3")  # editing is over: a click plays again
    expect(page.locator("#moves li.current button")).to_have_text("C3")


def test_a_click_survives_a_redraw_of_the_board_between_press_and_release(page, server):
    """A running analysis redraws the board; a person's click that straddles a redraw
    still plays (it was lost when the page listened for the browser's click event)."""
    page.goto(server)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.select_option("#mode", "people")
    box = page.locator('#board polygon[data-cell="F6"]').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("document.querySelector('#board').innerHTML = document.querySelector('#board').innerHTML")
    page.mouse.up()
    expect(page.locator("#moves li.current button")).to_have_text("F6")
    # pressed on one cell, released on another: no move
    a = page.locator('#board polygon[data-cell="C4"]').bounding_box()
    b = page.locator('#board polygon[data-cell="D6"]').bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    page.mouse.up()
    expect(page.locator("#moves li button")).to_have_count(1)


def test_the_rules_page_is_linked_and_shows_its_pictures(page, server):
    page.goto(server.split("?")[0] + "rules")
    expect(page.locator("h1")).to_have_text("The rules of Hinge")
    expect(page.locator("main img")).not_to_have_count(0)
    first = page.locator("main img").first
    expect(first).to_have_attribute("src", "/static/rules/board.svg")
    assert first.evaluate("img => img.complete && img.naturalWidth > 0")
