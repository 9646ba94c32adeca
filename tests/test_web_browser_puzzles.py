"""The prover in the page, in a real headless Chromium (the server, browser and helpers
of tests/test_web_browser.py): the analysis shows a proven result, and the Puzzles
mode loads a shipped puzzle, takes the winning side, checks each move with the prover,
lets the engine reply, and says solved or failed."""

import re

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
from playwright.sync_api import expect  # noqa: E402

from hinge_fast import Board  # noqa: E402
from hinge_fast.search.prover import Prover  # noqa: E402
from hinge_fast.solving.puzzles import load_puzzles, proven_moves  # noqa: E402
from tests.test_web_browser import (  # noqa: E402  (the fixtures among them by name)
    board_position,
    browser_context_args,
    browser_type_launch_args,
    game_state,
    load,
    open_page,
    play_by_clicks,
    server,
)

GREEN_WINS_IN_3 = "4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g"
#: Milliseconds to wait for a proof or an engine reply on a loaded machine.
SLOW = 120_000


def test_the_analysis_shows_a_proven_result(page, server):
    open_page(page, server)
    load(page, GREEN_WINS_IN_3)
    page.fill("#analysis-time", "0.5")
    page.click("#analyse")
    expect(page.locator("#proof")).to_contain_text(
        "Green wins, proven within 3 moves", timeout=SLOW
    )
    expect(page.locator("#proof")).to_have_class(re.compile("green"))


def start_puzzle(page, number, puzzle):
    page.select_option("#puzzle-list", str(number))
    page.click("#puzzle-load")
    expect(board_position(page)).to_have_text(puzzle.position)
    expect(page.locator("#puzzle-status")).to_contain_text("Your move")
    assert page.input_value("#mode") == "engine" and page.input_value("#side") == puzzle.winner


def test_a_puzzle_failed_then_solved(page, server):
    puzzles = load_puzzles()
    number, puzzle = min(enumerate(puzzles, 1), key=lambda item: (item[1].distance, item[1].nodes))
    open_page(page, server, mode="engine")
    page.fill("#time", "0.1")
    expect(page.locator("#puzzle-list option")).to_have_count(len(puzzles))
    # the engine's own move does not keep the win proven: failed, and the engine does not reply
    start_puzzle(page, number, puzzle)
    play_by_clicks(page, puzzle.engine_move)
    expect(page.locator("#puzzle-status")).to_have_class("failed", timeout=SLOW)
    expect(page.locator("#puzzle-status")).to_contain_text("Failed")
    assert game_state(page)["ply"] == 1
    # taken back, the puzzle goes on: a proven winning move each turn, until the game is won
    page.click("#undo")
    expect(page.locator("#puzzle-status")).to_have_text("Taken back. Your move.")
    expect(page.locator("#puzzle-status")).not_to_have_class("failed")
    assert game_state(page)["ply"] == 0
    prover = Prover(table_mb=16)
    status = page.locator("#puzzle-status")
    # Each proven move keeps the win, but not necessarily the fastest one, and the
    # engine's defence decides the length: play on until the game ends.
    for _ in range(60):
        state = game_state(page)
        board = Board.from_fen(state["position"])
        result = prover.prove(board, nodes=10 * puzzle.nodes)
        move = proven_moves(board, result)[0]
        play_by_clicks(page, move)
        child = board.copy()
        child.push(board.parse_move(move))
        if child.outcome() is not None:
            break
        # the prover agreed, the engine replied: the player's turn again
        expect(status).to_have_attribute("data-ply", str(state["ply"] + 2), timeout=SLOW)
        expect(status).to_contain_text("Your move")
    expect(status).to_have_class("solved", timeout=SLOW)
    assert game_state(page)["outcome"]["winner"] == puzzle.winner
