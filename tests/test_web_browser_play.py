"""The web page as a player meets it, in a real headless Chromium (the server, browser
and helpers of tests/test_web_browser.py): settings that stay, games that are never
wiped, a finger's drags, a long wait explained, the server going away, readable
analysis lines, a board that stays put, take-backs of a full move, moves counted one
way, and the page working under its Content Security Policy."""

import re
import socket
import threading

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
from playwright.sync_api import expect  # noqa: E402

from hinge_fast import Board  # noqa: E402
from hinge_fast.web import create_app  # noqa: E402
from tests.test_web_browser import (  # noqa: E402  (the fixtures among them by name)
    MIDGAME,
    board_position,
    browser_context_args,
    browser_type_launch_args,
    click_cell,
    game_state,
    load,
    open_page,
    phone,
    server,
)

EMPTY_BLUE = "6/7/8/9/10/11/10/9/8/7/6 b"
#: Green to move; after Green's E4, Blue's E6-E5xE4 eliminates Green.
BLUE_ELIMINATES = "6/7/8/9/10/4bb5/5g4/9/8/7/6 g"


def moves_shown(page):
    return page.locator("#moves li button")


# ----- settings ------------------------------------------------------------------------------------------
def test_the_players_settings_outlast_a_reload_the_rules_and_a_new_game(page, server):
    open_page(page, server, mode="engine")
    page.select_option("#engine", "mcts")
    page.fill("#time", "0.2")
    page.dispatch_event("#time", "change")
    page.select_option("#side", "blue")  # the engine plays Green's first move
    expect(moves_shown(page)).to_have_count(1)
    page.click("#flip")
    page.check("#sound")
    click_cell(page, a_placement(page))  # Blue's move; the engine replies
    expect(moves_shown(page)).to_have_count(3)

    def same_settings():
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#mode")).to_have_value("engine")
        expect(page.locator("#side")).to_have_value("blue")
        expect(page.locator("#engine")).to_have_value("mcts")
        expect(page.locator("#time")).to_have_value("0.2")
        expect(page.locator("#flip")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#board g.turned")).to_have_count(1)
        expect(page.locator("#sound")).to_be_checked()

    page.click("#rules-link")
    page.click("#back")
    same_settings()
    expect(moves_shown(page)).to_have_count(3)
    click_cell(page, a_placement(page))  # still Blue's move: played, and the engine replies
    expect(page.locator("#hint")).to_have_text("")
    expect(moves_shown(page)).to_have_count(5)
    page.reload()
    same_settings()
    # a new game: the engine, Green, opens it at once
    page.click("#new-game")
    page.click("#confirm-yes")
    expect(moves_shown(page)).to_have_count(1)
    expect(page.locator("#status")).to_have_text("blue to move")
    same_settings()
    # the board side chosen is the next new game's, in a new tab too
    page.select_option("#size", "5")
    other = page.context.new_page()
    other.goto(server.split("?")[0])
    expect(other.locator("body")).to_have_attribute("data-ready", "true")
    expect(other.locator("#size")).to_have_value("5")
    expect(other.locator("#side")).to_have_value("blue")
    other.close()


def a_placement(page):
    """The placement farthest from every token: a lone token, which no swipe flips with
    another, so that the game cannot end within a few moves."""
    from hinge_fast.board import Color

    state = game_state(page)
    board = Board.from_fen(state["position"])
    tokens = [cell(name) for side in (Color.GREEN, Color.BLUE) for name in board.tokens(side)]
    placements = [m["move"] for m in state["legal"] if m["from"] is None]
    return max(
        placements, key=lambda name: min((hex_distance(cell(name), t) for t in tokens), default=0)
    )


def cell(name):
    return ord(name[0]) - ord("A"), int(name[1:])


def hex_distance(a, b):
    dc, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dc), abs(dr), abs(dc - dr))


# ----- a game is never wiped --------------------------------------------------------------------------------
def test_loading_or_editing_a_position_makes_a_new_game_and_keeps_the_old_one(page, server):
    open_page(page, server)
    click_cell(page, "F6")
    expect(moves_shown(page)).to_have_count(1)  # shown before the next click, as a player sees it
    click_cell(page, "E4")
    expect(moves_shown(page)).to_have_count(2)
    first = game_state(page)
    # asked first; kept when the player says no
    page.fill("#position", EMPTY_BLUE)
    page.click("#load-position")
    expect(page.locator("#confirm-new")).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text(
        "Load this as a new game? This one (2 moves)"
    )
    page.click("#confirm-no")
    assert game_state(page) == first
    page.click("#load-position")
    page.click("#confirm-yes")
    expect(board_position(page)).to_have_text(EMPTY_BLUE)
    loaded = game_state(page)
    assert loaded["id"] != first["id"] and loaded["start"] == EMPTY_BLUE and loaded["moves"] == []
    page.click("#undo")
    expect(page.locator("#message")).to_have_text("no move to take back")
    old = page.locator(f'#recent a[data-game="{first["id"]}"]')
    expect(old).to_contain_text("side 6, 2 moves")
    old.click()
    expect(moves_shown(page)).to_have_text(["F6", "E4"])

    # the position editor: a game with moves is edited as a new game, asked first
    page.locator("summary", has_text="Position editor").click()
    page.click("#edit")
    expect(page.locator("#confirm-text")).to_contain_text("Edit the board as a new game?")
    page.click("#confirm-yes")
    expect(page.locator("#edit")).to_have_text("Done editing")
    page.check("input[name=piece][value=blue]")
    click_cell(page, "F8")
    expect(page.locator('#board circle.token.blue[data-cell="F8"]')).to_have_count(1)
    edited = game_state(page)
    assert edited["id"] != first["id"] and edited["moves"] == []
    assert game_state_of(page, first["id"])["moves"] == ["F6", "E4"]  # the old game whole

    # a record: a new game whose history is the record's, from its start
    page.click("#edit")
    page.fill("#record", '[Size "6"]\n\n1. F6 E4 2. G7')
    page.click("#load-record")
    expect(moves_shown(page)).to_have_text(["F6", "E4", "G7"])
    assert game_state(page)["start"] == Board().fen()


def game_state_of(page, game_id):
    return page.evaluate("id => fetch('/api/games/' + id).then(r => r.json())", game_id)


def test_a_loaded_position_with_the_engine_to_move_gets_its_move(page, server):
    open_page(page, server, mode="engine")
    page.select_option("#engine", "mcts")
    page.fill("#time", "0.1")
    # you play Green: Blue, the engine, is to move; it may have moved before the board is read
    load(page, EMPTY_BLUE, expect_it=False)
    expect(moves_shown(page)).to_have_count(1)
    expect(page.locator("#status")).to_have_text("green to move")
    assert game_state(page)["start"] == EMPTY_BLUE


# ----- touch ------------------------------------------------------------------------------------------------
def touch_drag(page, frm, to, steps=8):
    """A finger's drag from the centre of one cell to another's, as touch events."""
    cdp = page.context.new_cdp_session(page)
    a = page.locator(f'#board polygon[data-cell="{frm}"]').bounding_box()
    b = page.locator(f'#board polygon[data-cell="{to}"]').bounding_box()
    (x0, y0), (x1, y1) = ((r["x"] + r["width"] / 2, r["y"] + r["height"] / 2) for r in (a, b))
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def one_way_swipe(state, vertical):
    """A swipe with one group to flip, between cells of one row (or of different rows)."""
    legal = state["legal"]
    for m in legal:
        if m["from"] and m["from"] != m["to"] and (m["from"][1:] != m["to"][1:]) == vertical:
            if sum(1 for n in legal if (n["from"], n["to"]) == (m["from"], m["to"])) == 1:
                return m
    raise AssertionError("no such swipe")


def test_a_finger_drags_a_token_sideways_and_up_without_scrolling(phone, server):
    page = phone
    open_page(page, server)
    load(page, MIDGAME)
    page.evaluate("window.scrollTo(0, 0)")
    for vertical in (False, True):
        state = game_state(page)
        swipe = one_way_swipe(state, vertical)
        touch_drag(page, swipe["from"], swipe["to"])
        expect(page.locator("#moves li.current button")).to_have_text(swipe["move"])
        assert page.evaluate("window.scrollY") == 0  # the page did not scroll under the finger
    # a finger's drag that starts on an empty cell still scrolls the page
    touch_drag(page, "F2", "F10")
    page.wait_for_function("window.scrollY > 0")
    expect(moves_shown(page)).to_have_count(2)


def test_on_a_touch_screen_the_hints_say_tap(phone, server):
    page = phone
    open_page(page, server)
    expect(page.locator("#help")).to_contain_text(
        "Tap an empty cell to place a token of your colour; drag or tap your token"
    )
    load(page, MIDGAME)
    token = next(m["from"] for m in game_state(page)["legal"] if m["from"])
    page.locator(f'#board circle.token[data-cell="{token}"]').tap()
    expect(page.locator("#hint")).to_contain_text(f"{token} picked: tap a highlighted cell")


# ----- a long wait ------------------------------------------------------------------------------------------
def test_a_long_wait_for_the_engine_says_it_is_being_prepared(page, server, monkeypatch):
    import hinge_fast.web.engine as engine

    real, release = engine.prepare, threading.Event()

    def slow(searcher, board):  # as the first search on a side, whose kernels compile
        release.wait(60)
        real(searcher, board)

    monkeypatch.setattr(engine, "prepare", slow)
    try:
        open_page(page, server, mode="engine")
        page.select_option("#engine", "mcts")
        page.fill("#time", "0.1")
        click_cell(page, "F6")
        expect(page.locator("#status")).to_contain_text(
            re.compile(
                r"^the engine is thinking… preparing the engine for side 6 \(done once per board side\): \d+ s$"
            )
        )
    finally:
        release.set()
    expect(moves_shown(page)).to_have_count(2)
    expect(page.locator("#status")).to_have_text("green to move")


# ----- puzzles ----------------------------------------------------------------------------------------------
def test_moves_are_counted_one_way_everywhere(page, server):
    open_page(page, server)
    for played, move in enumerate(("F6", "E4", "G7", "D5"), start=1):
        click_cell(page, move)
        expect(moves_shown(page)).to_have_count(played)
    expect(page.locator("#moves .number")).to_have_text(["1.", "2.", "3.", "4."])
    expect(page.locator("#recent li.current")).to_contain_text("side 6, 4 moves")
    expect(page.locator("#counting")).to_contain_text("A move is one side's turn")
    page.click("#new-game")
    expect(page.locator("#confirm-text")).to_contain_text("This one (4 moves)")
    page.click("#confirm-no")
    # the puzzles and the prover count the same way
    puzzles = page.evaluate("fetch('/api/puzzles').then(r => r.json())")
    expect(page.locator("#puzzle-list option").first).to_have_text(
        f"1: side {puzzles[0]['size']}, {puzzles[0]['winner'].capitalize()} to move wins within "
        f"{puzzles[0]['distance']} moves"
    )
    expect(page.locator("#panel")).not_to_contain_text("plies")


# ----- the server goes away ---------------------------------------------------------------------------------
@pytest.fixture
def restartable():
    """A server on a port of its own that a test can stop and start again (a new token)."""
    from hinge_fast.commands.serve import make_server

    port, running = None, {}

    def start(token):
        nonlocal port
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port or 0))
        listener.listen()
        port = listener.getsockname()[1]
        server = make_server(create_app(max_searches=2, token=token), "127.0.0.1", port)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
        thread.start()
        running.update(server=server, thread=thread, listener=listener)
        return f"http://127.0.0.1:{port}/?token={token}"

    def stop():
        import signal

        running["server"].handle_exit(signal.SIGINT, None)
        running["thread"].join(30)
        running["listener"].close()

    start.stop = stop
    yield start
    running["server"].should_exit = True
    running["thread"].join(30)
    running["listener"].close()


def test_the_page_says_when_the_server_is_gone_and_when_it_came_back_as_another_run(
    page, restartable
):
    url = restartable("first-token")
    open_page(page, url, mode="engine")
    page.select_option("#engine", "mcts")
    page.fill("#time", "60")
    click_cell(page, "F6")
    expect(page.locator("#status")).to_contain_text("the engine is thinking")
    # stopped while the engine thinks: the page says the server is gone and waits no more.
    # The engine's best move so far comes too when the server sends it within its 2 s of
    # shutting down (a loaded machine may not): the page shows the game either way.
    restartable.stop()
    expect(page.locator("#connection")).to_be_visible()
    expect(page.locator("#connection-text")).to_contain_text("The server is not answering")
    expect(page.locator("#status")).not_to_contain_text("thinking")
    assert moves_shown(page).count() in (1, 2)
    click_cell(page, "E4")
    expect(page.locator("#message")).to_have_text("the server is not answering")
    # started again (a new token): Retry says what to do; a reload explains it too, as a page
    restartable("second-token")
    page.click("#connection-retry")
    expect(page.locator("#connection-text")).to_contain_text(
        "The server was started again, with a new access token"
    )
    page.reload()
    expect(page.locator("h1")).to_have_text("Open the address the server printed")
    expect(page.locator("body")).not_to_contain_text('{"error"')


def test_a_request_that_meets_the_server_stopping_shows_it_is_gone(page, server):
    """A move asked of the engine just as the server begins to stop is refused with
    503 and ``server_stopping``: the page says the server is not answering (and does
    not wait for an answer), as when the stream itself breaks."""
    import json

    open_page(page, server, mode="engine")
    page.route(
        "**/engine-move",
        lambda route: route.fulfill(
            status=503,
            content_type="application/json",
            body=json.dumps({"error": "the server is shutting down", "server_stopping": True}),
        ),
    )
    click_cell(page, "F6")
    expect(page.locator("#connection")).to_be_visible()
    expect(page.locator("#connection-text")).to_contain_text("The server is not answering")
    expect(page.locator("#status")).not_to_contain_text("thinking")
    click_cell(page, "E4")  # until Retry, the board says so rather than sending a move
    expect(page.locator("#message")).to_have_text("the server is not answering")


def test_a_server_killed_mid_search_is_said_and_nothing_waits_for_ever(page):
    import os
    import signal
    import subprocess
    import sys

    serve = subprocess.Popen(
        [sys.executable, "-m", "hinge_fast.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        env={**os.environ, "HINGE_FAST_THREADS": "1"},
        text=True,
    )
    try:
        url = re.search(r"serving on (\S+) ", serve.stdout.readline()).group(1)
        open_page(page, url, mode="engine")
        page.select_option("#engine", "mcts")
        page.fill("#time", "60")
        click_cell(page, "F6")
        expect(page.locator("#status")).to_contain_text(
            "the engine is thinking… best so far", timeout=60_000
        )
        os.kill(serve.pid, signal.SIGKILL)  # a hard kill: the stream breaks mid-search
        serve.wait(30)
        expect(page.locator("#connection")).to_be_visible()
        expect(page.locator("#connection-text")).to_contain_text("The server is not answering")
        expect(page.locator("#status")).to_have_text("blue to move")
        expect(page.locator("#stop")).to_be_hidden()
    finally:
        serve.kill()
        serve.wait(30)


# ----- analysis ---------------------------------------------------------------------------------------------
def test_the_analysis_lines_are_readable_at_1280x800(page, server):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, server)
    load(page, MIDGAME)
    page.select_option("#engine", "alphabeta")
    page.fill("#analysis-time", "1")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("(done)", timeout=20_000)
    lines = page.locator("#top-moves tr.line td")
    expect(lines).not_to_have_count(0)
    table = page.locator("#top-moves").bounding_box()
    for i in range(lines.count()):
        box = lines.nth(i).bounding_box()
        assert box["width"] >= 0.9 * table["width"]  # each line the table's whole width
    # every move of a line whole on one row: broken only between moves
    assert page.evaluate(
        "[...document.querySelectorAll('#top-moves tr.line span')]"
        ".every(s => s.getClientRects().length === 1)"
    )
    assert page.evaluate(
        "(() => { const p = document.querySelector('#panel');"
        " return p.scrollWidth <= p.clientWidth; })()"
    )


def test_stop_analysis_stays_while_the_analysis_follows_the_moves(page, server):
    open_page(page, server)
    page.select_option("#engine", "mcts")
    page.fill("#analysis-time", "0.2")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("(done)")
    expect(page.locator("#stop-analysis")).to_be_visible()  # still following: it can be stopped
    click_cell(page, "F6")
    expect(moves_shown(page)).to_have_count(1)
    expect(page.locator("#analysis-info")).to_contain_text("(done)")  # the new position's
    expect(page.locator("#stop-analysis")).to_be_visible()
    page.click("#stop-analysis")
    expect(page.locator("#analyse")).to_be_visible()
    click_cell(page, "E4")
    expect(moves_shown(page)).to_have_count(2)
    expect(page.locator("#analysis-info")).to_have_text("")
    expect(page.locator("#analyse")).to_be_visible()


def test_taking_back_a_resignation_does_not_leave_the_result_on_the_bar(page, server):
    open_page(page, server)
    load(page, MIDGAME)
    page.fill("#analysis-time", "0.3")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("(done)")
    score = page.locator("#score").text_content()
    page.uncheck("#live")
    page.click("#resign")
    expect(page.locator("#evaltext")).to_have_text("Blue won by resignation")
    page.click("#banner-undo")
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#evalbar")).to_have_class("eval")
    expect(page.locator("#evaltext")).to_have_text(score)


# ----- the board stays put ----------------------------------------------------------------------------------
def centre(page, cell="F6"):
    """Where the cell's centre is on the page (not the window: a phone's page scrolls)."""
    box = page.locator(f'#board polygon[data-cell="{cell}"]').bounding_box()
    scroll = page.evaluate("[window.scrollX, window.scrollY]")
    return round(box["x"] + scroll[0] + box["width"] / 2, 1), round(
        box["y"] + scroll[1] + box["height"] / 2, 1
    )


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["wide", "phone"])
def test_the_board_does_not_move_while_you_play(browser, server, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        open_page(page, server)
        where = centre(page)
        click_cell(page, "F6")  # a move: the last move tinted, its legend line
        expect(moves_shown(page)).to_have_count(1)
        assert centre(page) == where
        click_cell(page, "A1")  # an error under the board
        expect(page.locator("#message")).not_to_have_text("")
        assert centre(page) == where
        page.fill("#analysis-time", "0.5")
        page.click("#analyse")  # the best move, its arrow and legend
        expect(page.locator("#analysis-info")).to_contain_text("(done)")
        assert centre(page) == where
        page.uncheck("#live")
        page.click("#resign")  # the game-over banner
        expect(page.locator("#banner")).to_be_visible()
        assert centre(page) == where
        page.click("#banner-undo")
        expect(page.locator("#banner")).to_be_hidden()
        assert centre(page) == where
    finally:
        context.close()


# ----- take-backs -------------------------------------------------------------------------------------------
def test_against_the_engine_a_take_back_takes_back_a_full_move(page, server):
    open_page(page, server, mode="engine")
    page.select_option("#engine", "alphabeta")
    page.fill("#time", "0.2")
    click_cell(page, "F6")
    expect(moves_shown(page)).to_have_count(2)
    expect(page.locator("#status")).to_have_text("green to move")
    page.click("#undo")  # your move and the engine's reply
    expect(page.locator("#moves li.future button")).to_have_count(2)
    expect(page.locator("#status")).to_have_text("green to move")
    assert game_state(page)["ply"] == 0
    # the engine's reply ends the game: one take-back gives you your move again
    load(page, BLUE_ELIMINATES)
    click_cell(page, "E4")
    expect(page.locator("#banner-text")).to_have_text("Blue wins by elimination.")
    expect(page.locator("#banner-undo")).to_have_text("Take back your last move")
    page.click("#banner-undo")
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("green to move")
    state = game_state(page)
    assert state["ply"] == 0 and len(state["redo"]) == 2


# ----- the page under its security policy -------------------------------------------------------------------
def test_the_page_works_under_its_content_security_policy(page, server):
    refused, missing = [], []
    page.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    answer = page.goto(server)
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.select_option("#mode", "people")
    click_cell(page, "F6")
    page.fill("#analysis-time", "0.3")
    page.click("#analyse")
    expect(page.locator("#analysis-info")).to_contain_text("(done)")
    expect(page.locator("#evalbar")).to_have_class("eval")
    assert (
        page.locator("#evalfill").evaluate("e => e.style.width") != "50%"
    )  # the bar's width is set
    page.click("#rules-link")
    expect(page.locator("h1")).to_have_text("The rules of Hinge")
    # its icon is its own (a browser that looks for /favicon.ico would log a 404)
    expect(page.locator('link[rel="icon"]')).to_have_attribute("href", "data:,")
    expect(page.locator("main img").first).to_be_visible()
    assert page.locator("main img").first.evaluate("img => img.complete && img.naturalWidth > 0")
    assert refused == [] and missing == []  # nothing refused, no favicon (or other) 404
