"""The web app in a real headless Chromium (Debian's ``chromium`` package; .ci/run
installs it), driven by Playwright: a short game by clicking, a swipe with a choice of
groups to flip, live analysis, undo, position strings; the score from Green's side, a
game that is never lost (links, the rules page and back, recent games), feedback on
the board, following the moves, big boards and a phone-sized window; and the
screenshots of docs/web.md. Every wait is Playwright's auto-waiting ``expect``."""

import os
import re
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

# One server per test file and one browser per test worker (pytest-playwright's); under
# pytest-xdist each file runs on one worker (--dist loadfile).

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: docs/web.png and the other pictures of docs/web.md: rewritten only when asked
#: (``HINGE_FAST_SCREENSHOTS=1 pytest tests/test_web_browser.py``), so that a test run
#: leaves the work tree as it found it. Otherwise each screenshot goes to a temporary file.
DOCS = Path(__file__).resolve().parent.parent / "docs"
# Green's D3-D4 can flip Blue's C4 or Blue's E5.
CHOICE = "5/1g4/2bb3/8/4b4/2b5/2gg3/1g4/5 g"
MIDGAME = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure, not a skip
        raise RuntimeError(
            "the browser tests need Debian's chromium, which .ci/run failed to install"
        )
    pytest.skip(
        "needs Debian's chromium (apt-get install chromium; .ci/run does it)",
        allow_module_level=True,
    )


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
    app_server = uvicorn.Server(
        uvicorn.Config(create_app(max_searches=2, token=TOKEN), log_level="warning")
    )
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


def screenshot(page, name, tmp_path):
    """A screenshot of the page: docs/NAME when HINGE_FAST_SCREENSHOTS=1, else a temporary file."""
    shot = DOCS / name if os.environ.get("HINGE_FAST_SCREENSHOTS") else tmp_path / name
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000  # a rendered page, not an empty image


def open_page(page, server, mode="people"):
    page.goto(server)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.select_option("#mode", mode)


def load(page, position, expect_it=True):
    """Load a position string as a new game (confirmed when the game on screen has moves)."""
    state = game_state(page)
    page.fill("#position", position)
    page.click("#load-position")
    if state["ply"] + len(state["redo"]) and not state["outcome"]:
        expect(page.locator("#confirm-new")).to_be_visible()
        page.click("#confirm-yes")
    if expect_it:
        expect(board_position(page)).to_have_text(position)


def game_state(page):
    """The game as the server has it (through the page's own session)."""
    game = re.search(r"game=([\w-]+)", page.url).group(1)
    return page.evaluate("id => fetch('/api/games/' + id).then(r => r.json())", game)


def test_a_game_in_the_browser(page, server, tmp_path):
    page.goto(server)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(board_position(page)).to_have_text(Board().fen())
    expect(page.locator("#rules-link")).to_have_attribute(
        "href", re.compile(r"^/rules\?game=[\w-]+$")
    )

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
    load(page, CHOICE)
    click_cell(page, "D3")
    expect(page.locator('#board polygon.selected[data-cell="D3"]')).to_have_count(1)
    expect(page.locator("#board polygon.dest")).to_have_count(
        1
    )  # D4, with two groups to flip there
    click_cell(page, "D4")
    expect(page.locator("#choice")).to_be_visible()
    expect(page.locator("#choice button.flip-choice")).to_have_text(
        ["D3-D4xC4: flip C4 (1)", "D3-D4xE5: flip E5 (1)"]
    )
    page.locator('#choice button[data-move="D3-D4xE5"]').click()
    expect(page.locator("#choice")).to_be_hidden()
    expect(page.locator('#board circle.token.green[data-cell="E5"]')).to_have_count(1)
    expect(page.locator('#board circle.token.blue[data-cell="C4"]')).to_have_count(1)
    expect(page.locator("#board circle.flipped")).to_have_count(1)  # the flipped token is ringed
    expect(page.locator("#moves li.current button")).to_have_text("D3-D4xE5")

    # a malformed position string: the project's message, nothing changes
    after_swipe = page.locator("#position").input_value()
    load(page, "6/7/8 g", expect_it=False)
    expect(page.locator("#message")).to_have_text(
        "position string has 3 rows; a board of side S has 2S-1 rows (7 to 17)"
    )
    expect(board_position(page)).to_have_text(after_swipe)

    # analysis: the evaluation, the best move's arrow; they follow the moves
    load(page, MIDGAME)
    page.select_option("#engine", "alphabeta")
    page.fill("#analysis-time", "3")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("depth")
    expect(page.locator("#board g.arrow")).to_have_count(1)
    expect(page.locator("#top-moves tbody tr")).not_to_have_count(0)
    expect(page.locator("#threats li")).not_to_have_count(0)
    score = page.locator("#score").text_content()
    best = page.locator("#best").text_content()
    assert best in {str(m) for m in Board.from_fen(MIDGAME).legal_moves}
    expect(page.locator("#evalbar")).to_have_class("eval")

    page.fill("#analysis-time", "30")  # long enough to be stopped below
    play_by_clicks(page, best)
    expect(page.locator("#moves li.current button")).to_have_text(best)
    after = Board.from_fen(MIDGAME)
    after.push_str(best)
    expect(board_position(page)).to_have_text(after.fen())
    expect(page.locator("#analysis-info")).to_contain_text("depth")
    expect(page.locator("#board g.arrow, #board circle.arrow")).to_have_count(1)
    expect(page.locator("#best")).not_to_have_text(best)  # a new best move, for the other side
    new_best = page.locator("#best").text_content()
    assert new_best in {str(m) for m in after.legal_moves}
    assert score  # (its score may be the same: both are from Green's side)

    # stopped, the analysis keeps what it found
    page.click("#stop-analysis")
    expect(page.locator("#analyse")).to_be_visible()
    expect(page.locator("#analysis-info")).to_contain_text("(done)")
    expect(page.locator("#board g.arrow, #board circle.arrow")).to_have_count(1)

    # undo: back to the position before; stopped, the analysis does not start again
    # until asked
    page.fill("#analysis-time", "2")
    page.click("#undo")
    expect(board_position(page)).to_have_text(MIDGAME)
    expect(page.locator("#moves li.future button")).to_have_text([best])
    page.keyboard.press("ArrowRight")  # the arrow keys walk through the game too
    expect(board_position(page)).to_have_text(after.fen())
    page.keyboard.press("ArrowLeft")
    expect(board_position(page)).to_have_text(MIDGAME)
    expect(page.locator("#analyse")).to_be_visible()
    expect(page.locator("#analysis-info")).to_have_text("")
    expect(page.locator("#evalbar")).to_have_class("none")
    page.click("#analyse")
    expect(page.locator("#board g.arrow")).to_have_count(1)
    expect(page.locator("#analysis-info")).to_contain_text("(done)", timeout=20_000)
    screenshot(page, "web.png", tmp_path)

    # a new game on another side (this one has moves: the page asks first), and the
    # position editor
    page.select_option("#size", "4")
    page.click("#new-game")
    page.click("#confirm-yes")
    expect(board_position(page)).to_have_text(Board(4).fen())
    expect(page.locator("#moves li")).to_have_count(0)
    # by the keyboard: a click lands where the summary was when the page last settled
    page.locator("summary", has_text="Position editor").press("Enter")
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
    page.evaluate(
        "document.querySelector('#board').innerHTML = document.querySelector('#board').innerHTML"
    )
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


def test_a_picked_token_stays_picked_when_the_same_game_is_drawn_again(page, server):
    """The page fetches the game again after the engine's move; a token the player picked
    in between stays picked, so the swipe's second click still plays it."""
    open_page(page, server)
    load(page, CHOICE)
    click_cell(page, "D3")
    expect(page.locator("#board polygon.dest")).to_have_count(1)
    page.evaluate("async () => render(await api('GET', gamePath()))")
    expect(page.locator('#board polygon.selected[data-cell="D3"]')).to_have_count(1)
    click_cell(page, "D4")
    page.evaluate("async () => render(await api('GET', gamePath()))")
    expect(page.locator("#choice")).to_be_visible()
    page.locator('#choice button[data-move="D3-D4xE5"]').click()
    expect(page.locator("#moves li.current button")).to_have_text("D3-D4xE5")


def test_the_rules_page_is_linked_and_shows_its_pictures(page, server):
    page.goto(server.split("?")[0] + "rules")
    expect(page.locator("h1")).to_have_text("The rules of Hinge")
    expect(page.locator("main img")).not_to_have_count(0)
    first = page.locator("main img").first
    expect(first).to_have_attribute("src", "/static/rules/board.svg")
    assert first.evaluate("img => img.complete && img.naturalWidth > 0")


# ----- the score, from Green's side ----------------------------------------------------------------
#: Green to move eliminates Blue at once (E6-E5xF5); the same with the colours swapped.
GREEN_WINS = "6/7/8/9/10/4gg5/5b4/9/8/7/6 g"
BLUE_WINS = "6/7/8/9/10/4bb5/5g4/9/8/7/6 b"
#: Side 4, Green has no token left: Blue has won.
BLUE_HAS_WON = "4/5/6/7/1b2b1/5/4 g"
TOKENS = re.compile(r"^Green [+-]\d+\.\d\d tokens, \d+% to win$")


def analyse_once(page, seconds="1"):
    page.fill("#analysis-time", seconds)
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("(done)", timeout=20_000)


def bar_share(page):
    return float(page.locator("#evalfill").evaluate("e => parseFloat(e.style.width)")) / 100


def test_the_score_is_from_greens_side_with_its_unit(page, server):
    open_page(page, server)
    expect(page.locator("#convention")).to_contain_text("Scores are from Green's side")
    # no evaluation yet: the bar is grey and says so
    expect(page.locator("#evalbar")).to_have_class("none")
    expect(page.locator("#evaltext")).to_have_text("no evaluation: press Analyse")

    # alpha-beta's score in tokens, Green's side, whoever is to move; the bar agrees
    page.uncheck("#live")  # one analysis a position, each asked for
    page.select_option("#engine", "alphabeta")
    for position in (MIDGAME, MIDGAME[:-1] + "b"):
        load(page, position)
        expect(page.locator("#evalbar")).to_have_class("none")
        analyse_once(page)
        text = page.locator("#score").text_content()
        assert TOKENS.match(text), text
        expect(page.locator("#evaltext")).to_have_text(text)
        expect(page.locator("#evalbar")).to_have_class("eval")
        green_ahead = float(text.split()[1]) > 0
        assert (bar_share(page) > 0.5) == green_ahead
        for row in page.locator("#top-moves tbody tr td:nth-child(2)").all_text_contents():
            assert (
                TOKENS.match(row)
                or re.match(r"^(Green|Blue) wins in \d+$", row)
                or row == "not fully searched"
            ), row

    # MCTS: Green's chance to win, in per cent
    page.select_option("#engine", "mcts")
    analyse_once(page, "0.5")
    expect(page.locator("#score")).to_have_text(
        re.compile(r"^(Green \d+% to win|(Green|Blue) wins in \d+)$")
    )

    # a proven result names the winner, from either side to move
    page.select_option("#engine", "alphabeta")
    for position, words, share in (
        (GREEN_WINS, "Green wins in 1", 1.0),
        (BLUE_WINS, "Blue wins in 1", 0.0),
    ):
        load(page, position)
        analyse_once(page)
        expect(page.locator("#score")).to_have_text(words)
        expect(page.locator("#evaltext")).to_have_text(words)
        assert bar_share(page) == share

    # the game is over: the bar shows the result, a banner says what to do next
    load(page, BLUE_HAS_WON)
    expect(page.locator("#evalbar")).to_have_class("over")
    expect(page.locator("#evaltext")).to_have_text("Blue won by elimination")
    assert bar_share(page) == 0.0
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#banner-text")).to_have_text("Blue wins by elimination.")
    expect(page.locator("#banner-new")).to_be_visible()
    expect(page.locator("#size")).to_have_value("4")  # the side selector follows the position


# ----- a game is never lost ---------------------------------------------------------------------------
def test_a_game_is_never_lost(page, server):
    open_page(page, server)
    for played, move in enumerate(("F6", "E4", "G7"), start=1):
        click_cell(page, move)
        # each move shown before the next click, as a player sees it (a click while the
        # last move is on its way to the server lands on the board it replaces)
        expect(page.locator("#moves li button")).to_have_count(played)
    first = game_state(page)
    assert f"game={first['id']}" in page.url  # the address names the game
    expect(page.locator("#game-link")).to_have_attribute("href", f"/?game={first['id']}")

    # the rules open in this tab, and their way back leads to the same game
    page.click("#rules-link")
    expect(page.locator("h1")).to_have_text("The rules of Hinge")
    assert page.url.endswith(f"/rules?game={first['id']}")
    page.click("#back")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#moves li button")).to_have_text(["F6", "E4", "G7"])

    # "New game" asks first; keeping the game changes nothing
    page.click("#new-game")
    expect(page.locator("#confirm-new")).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text("3 moves")
    page.click("#confirm-no")
    expect(page.locator("#confirm-new")).to_be_hidden()
    expect(page.locator("#moves li button")).to_have_count(3)
    assert game_state(page)["position"] == first["position"]
    # a new game: the old one is listed under the recent games, and reopens from there
    page.click("#new-game")
    page.click("#confirm-yes")
    expect(page.locator("#moves li")).to_have_count(0)
    assert first["id"] not in page.url
    expect(page.locator("#recent li")).to_have_count(2)
    expect(page.locator("#recent li.current")).to_contain_text("side 6, 0 moves")
    old = page.locator(f'#recent a[data-game="{first["id"]}"]')
    expect(old).to_contain_text("side 6, 3 moves, blue to move")
    old.click()
    expect(page.locator("#moves li button")).to_have_text(["F6", "E4", "G7"])

    # a link opens its game in another tab too
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator("#moves li button")).to_have_text(["F6", "E4", "G7"])
    expect(board_position(other)).to_have_text(first["position"])

    # a game the server does not know: said so, and a new game offered
    other.goto(server.split("?")[0] + "?game=no-such-game")
    expect(other.locator("#missing")).to_be_visible()
    expect(other.locator("#missing-text")).to_contain_text(
        "There is no game “no-such-game” on this server"
    )
    expect(other.locator("#board-area")).to_be_hidden()
    other.keyboard.press("ArrowLeft")  # no game: the keys do nothing, and say nothing
    expect(other.locator("#message")).to_have_text("")
    other.click("#missing-new")
    expect(other.locator("#board-area")).to_be_visible()
    expect(board_position(other)).to_have_text(Board().fen())
    other.close()


# ----- feedback on the board ---------------------------------------------------------------------------
def colour(locator, what):
    return locator.evaluate(f"e => getComputedStyle(e).{what}")


SIDES = {
    "rgb(31, 154, 58)",
    "rgb(35, 88, 214)",
    "rgb(159, 216, 239)",
}  # green, blue, the light blue


def test_feedback_on_the_board(page, server, tmp_path):
    open_page(page, server)
    expect(page.locator("#help")).to_contain_text(
        "Click an empty cell to place a token of your colour"
    )
    # hovering a legal empty cell marks it faintly, in the colour of neither side
    page.locator('#board polygon[data-cell="F6"]').hover()
    marked = page.locator('#board polygon.legal[data-cell="F6"]')
    expect(marked).to_have_count(1)
    assert colour(marked, "fill") not in SIDES and colour(marked, "stroke") not in SIDES
    page.locator('#board polygon[data-cell="A1"]').hover()  # an edge cell: nothing to mark
    expect(page.locator("#board polygon.legal")).to_have_count(0)

    # a picked token: its destinations marked; the hint beside the board, not in red
    load(page, CHOICE)
    click_cell(page, "D3")
    dest = page.locator("#board polygon.dest")
    expect(dest).to_have_count(1)
    assert colour(dest, "fill") not in SIDES and colour(dest, "stroke") not in SIDES
    expect(page.locator("#hint")).to_contain_text("D3 picked")
    assert colour(page.locator("#hint"), "color") != colour(page.locator("#message"), "color")
    expect(page.locator("#help")).to_be_hidden()  # the hint takes its place
    # the move: the hint is gone, the flipped token turns over (once, briefly)
    click_cell(page, "D4")
    page.locator('#choice button[data-move="D3-D4xE5"]').click()
    expect(page.locator("#hint")).to_have_text("")
    flipped = page.locator('#board circle.token.flip-anim[data-cell="E5"]')
    expect(flipped).to_have_count(1)
    expect(flipped).to_have_css("animation-name", "flip-over")

    # less motion asked for: no animation; the sound is off until asked for
    page.emulate_media(reduced_motion="reduce")
    page.click("#undo")
    # the take-back drawn (the board before it still shows the flipped token turning)
    expect(page.locator("#board circle.token.flip-anim")).to_have_count(0)
    expect(page.locator("#sound")).not_to_be_checked()
    page.check("#sound")
    page.click("#redo")
    flipped = page.locator('#board circle.token.flip-anim[data-cell="E5"]')
    expect(flipped).to_have_count(1)
    expect(flipped).to_have_css("animation-name", "none")
    expect(page.locator("body")).to_have_attribute("data-sounds", "1")

    # resigning ends the game: a banner with the result and what to do next
    page.click("#resign")  # Blue, to move, resigns (two people at this screen)
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#banner-text")).to_have_text("Green wins by resignation.")
    expect(page.locator("#status")).to_have_text("green wins by resignation")
    expect(page.locator("#evaltext")).to_have_text("Green won by resignation")
    expect(page.locator("#legend .line.caption")).to_have_text("green wins by resignation")
    assert game_state(page)["outcome"] == {"winner": "green", "reason": "resignation"}
    screenshot(page, "web-game-over.png", tmp_path)
    click_cell(page, "F6")  # no move after the end: a hint says why
    expect(page.locator("#hint")).to_have_text(
        "the game is over (green wins by resignation): take back the resignation or start a new game"
    )
    page.click("#banner-undo")  # takes back the resignation, not a move
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#moves li button")).to_have_text(["D3-D4xE5"])
    assert game_state(page)["outcome"] is None


# ----- following the moves -------------------------------------------------------------------------------
def a_placement(page):
    return next(m["to"] for m in game_state(page)["legal"] if m["from"] is None)


def test_follow_the_moves_follows_whoever_moves_and_stops_when_told(page, server):
    open_page(page, server, mode="engine")
    page.select_option("#side", "green")
    page.select_option("#engine", "mcts")
    page.fill("#time", "0.3")
    page.fill("#analysis-time", "30")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("mcts")
    # against the engine: after its reply, the analysis goes on in the new position
    click_cell(page, "F6")
    expect(page.locator("#moves li button")).to_have_count(2)
    expect(page.locator("#status")).to_have_text("green to move")
    expect(page.locator("#stop-analysis")).to_be_visible()
    expect(page.locator("#analysis-info")).to_contain_text("mcts")
    replied = game_state(page)["position"]
    expect(board_position(page)).to_have_text(replied)

    # two people: it follows each move
    page.select_option("#mode", "people")
    click_cell(page, a_placement(page))
    expect(page.locator("#moves li button")).to_have_count(3)
    expect(page.locator("#stop-analysis")).to_be_visible()
    expect(page.locator("#analysis-info")).to_contain_text("mcts")
    # stopped, it stays stopped, whoever moves next
    page.click("#stop-analysis")
    expect(page.locator("#analyse")).to_be_visible()
    click_cell(page, a_placement(page))
    expect(page.locator("#moves li button")).to_have_count(4)
    expect(page.locator("#analyse")).to_be_visible()
    expect(page.locator("#analysis-info")).to_have_text("")
    page.select_option("#mode", "engine")
    page.select_option("#side", "blue")  # the engine is Green, to move: it moves at once
    expect(page.locator("#moves li button")).to_have_count(5)
    expect(page.locator("#status")).to_have_text("blue to move")
    expect(page.locator("#analysis-info")).to_have_text("")
    assert not game_state(page)["searching"]


# ----- any screen ------------------------------------------------------------------------------------------
def cell_width(page, cell="F6"):
    return page.locator(f'#board polygon[data-cell="{cell}"]').bounding_box()["width"]


def test_the_board_fills_the_window_on_side_9(page, server):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, server)
    page.select_option("#size", "9")
    page.click("#new-game")
    expect(board_position(page)).to_have_text(Board(9).fen())
    # the whole board within the window, as large as its height allows
    box = page.locator("#board svg").bounding_box()
    assert box["y"] + box["height"] <= 800
    assert box["height"] >= 560
    assert cell_width(page) >= 34
    assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1")
    expect(page.locator("#board text.label").first).to_be_visible()  # the cells' names are readable
    # a taller window: a bigger board
    width = cell_width(page)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.wait_for_function(
        f"document.querySelector('#board polygon[data-cell=F6]').getBoundingClientRect().width > {width + 3}"
    )


def test_the_board_turns_around_and_still_plays(page, server):
    open_page(page, server)
    low = page.locator('#board polygon[data-cell="F2"]').bounding_box()["y"]
    high = page.locator('#board polygon[data-cell="F10"]').bounding_box()["y"]
    assert low > high  # row 2 below row 10
    page.click("#flip")
    expect(page.locator("#flip")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board g.turned")).to_have_count(1)
    assert (
        page.locator('#board polygon[data-cell="F2"]').bounding_box()["y"]
        < page.locator('#board polygon[data-cell="F10"]').bounding_box()["y"]
    )
    click_cell(page, "F2")
    expect(page.locator("#moves li button")).to_have_text(["F2"])
    expect(page.locator("#board g.turned")).to_have_count(1)  # it stays turned after a move
    page.reload()
    expect(page.locator("#board g.turned")).to_have_count(1)  # and after a reload of the tab


@pytest.fixture
def phone(browser, server):
    """A page in a phone-sized window (390 x 844) with a touch screen."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    phone = context.new_page()
    yield phone
    context.close()


def test_on_a_phone(phone, server, tmp_path):
    page = phone
    open_page(page, server)
    assert page.evaluate(
        "document.scrollingElement.scrollWidth <= window.innerWidth"
    )  # nothing wider than the screen
    box = page.locator("#board svg").bounding_box()
    assert box["width"] >= 370  # the board takes the screen's width
    assert cell_width(page) >= 28
    expect(page.locator("#board text.label").first).to_be_visible()
    page.locator('#board polygon[data-cell="F6"]').tap()
    expect(page.locator("#moves li button")).to_have_text(["F6"])

    # side 9: the cells' names are too small to read, so they give way to larger
    # coordinates around the board; Zoom makes the cells a finger wide
    page.select_option("#size", "9")
    page.locator("#new-game").tap()
    page.locator("#confirm-yes").tap()
    expect(board_position(page)).to_have_text(Board(9).fen())
    expect(page.locator("#board")).to_have_class(re.compile("small"))
    expect(page.locator("#board text.label").first).to_be_hidden()
    assert page.locator("#board text.coordinate").first.bounding_box()["height"] >= 10
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    page.locator("#zoom").tap()
    expect(page.locator("#board")).not_to_have_class(re.compile("small"))
    page.locator('#board polygon[data-cell="I9"]').scroll_into_view_if_needed()
    assert cell_width(page, "I9") >= 40
    page.locator('#board polygon[data-cell="I9"]').tap()
    expect(page.locator("#moves li button")).to_have_text(["I9"])
    page.locator("#zoom").tap()
    expect(page.locator("#board")).to_have_class(re.compile("small"))
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "web-phone.png", tmp_path)


# ----- the smaller things -------------------------------------------------------------------------------------
def test_the_engine_thinking_message_goes_once_it_moved(page, server):
    open_page(page, server, mode="engine")
    page.select_option("#engine", "mcts")
    page.fill("#time", "3")
    click_cell(page, "F6")
    expect(page.locator("#status")).to_contain_text("the engine is thinking")
    click_cell(page, "D4")  # too early: a hint, not a move
    expect(page.locator("#hint")).to_have_text("the engine is thinking: wait, or press Stop")
    page.click("#stop")
    expect(page.locator("#moves li button")).to_have_count(2)
    expect(page.locator("#status")).to_have_text("green to move")
    expect(page.locator("#hint")).to_have_text("")
    expect(page.locator("#message")).to_have_text("")


def test_a_double_click_places_one_token_and_no_error(page, server):
    open_page(page, server)
    page.locator('#board polygon[data-cell="F6"]').dblclick()
    expect(page.locator("#moves li button")).to_have_text(["F6"])
    expect(page.locator("#message")).to_have_text("")
    expect(page.locator("#status")).to_have_text("blue to move")


def test_analysis_keeps_the_last_move_and_draws_a_placement_as_its_legend_says(page, server):
    open_page(page, server)
    click_cell(page, "F6")
    page.fill("#analysis-time", "30")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("depth")
    # the last move stays tinted under the analysis
    expect(page.locator('#board polygon[data-cell="F6"]')).to_have_attribute("fill", "#f4d35e")
    # on an almost empty board the best move is a placement: a ring, and the legend says ring
    best = page.locator("#best").text_content()
    assert "-" not in best
    expect(page.locator("#board circle.arrow")).to_have_count(1)
    expect(page.locator("#board g.arrow")).to_have_count(0)
    expect(
        page.locator("#legend .line.legend", has_text="ring: the best move, a placement")
    ).to_have_count(1)
    expect(page.locator("#legend .line.legend circle.legend-ring")).to_have_count(1)
    expect(page.locator("#legend")).not_to_contain_text("arrow: the best move")
    page.click("#stop-analysis")


def test_loading_a_position_or_record(page, server):
    open_page(page, server)
    click_cell(page, "F6")
    expect(page.locator("#moves li button")).to_have_text(["F6"])
    # a side-4 position: the side selector says 4
    load(page, "4/5/6/7/2g3/5/4 b")
    expect(page.locator("#size")).to_have_value("4")
    before = game_state(page)
    # rejected: the text stays in its box, marked, with the reason; the game is unchanged
    page.fill("#position", "6/7/8 g")
    page.click("#load-position")
    expect(page.locator("#message")).to_have_text(
        "position string has 3 rows; a board of side S has 2S-1 rows (7 to 17)"
    )
    expect(page.locator("#position")).to_have_value("6/7/8 g")
    expect(page.locator("#position")).to_have_attribute("aria-invalid", "true")
    expect(board_position(page)).to_have_text(before["position"])
    expect(page.locator("#size")).to_have_value("4")
    assert game_state(page) == before
    page.fill("#record", "this is no record")
    page.click("#load-record")
    expect(page.locator("#message")).not_to_have_text("")
    expect(page.locator("#record")).to_have_value("this is no record")
    assert game_state(page) == before
    # the next move puts the board's own string back in the box
    click_cell(page, a_placement(page))
    expect(page.locator("#position")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#message")).to_have_text("")
    expect(page.locator("#position")).to_have_value(game_state(page)["position"])


def test_choosing_blue_lets_the_engine_move(page, server):
    open_page(page, server, mode="engine")
    page.select_option("#engine", "mcts")
    page.fill("#time", "0.2")
    page.select_option("#side", "blue")
    expect(page.locator("#moves li button")).to_have_count(
        1
    )  # the engine played Green's first move
    expect(page.locator("#status")).to_have_text("blue to move")


def test_the_rules_page_is_for_players(page, server):
    page.goto(server.split("?")[0] + "rules")
    expect(page.locator("main")).not_to_contain_text("python -m")
    expect(page.locator("#back")).to_have_attribute("href", "/")
    page.goto(server.split("?")[0] + 'rules?game="><script>')
    expect(page.locator("#back")).to_have_attribute("href", "/")


def test_a_swipe_by_dragging_a_token(page, server):
    open_page(page, server)
    load(page, MIDGAME)
    legal = game_state(page)["legal"]
    swipe = next(
        m
        for m in legal
        if m["from"]
        and m["from"] != m["to"]
        and sum(1 for n in legal if (n["from"], n["to"]) == (m["from"], m["to"])) == 1
    )
    token = page.locator(f'#board circle.token[data-cell="{swipe["from"]}"]').bounding_box()
    target = page.locator(f'#board polygon[data-cell="{swipe["to"]}"]').bounding_box()
    page.mouse.move(token["x"] + token["width"] / 2, token["y"] + token["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
    page.mouse.up()
    expect(page.locator("#moves li.current button")).to_have_text(swipe["move"])
