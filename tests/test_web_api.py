"""The web app's JSON API (hinge_fast.web), through FastAPI's test client: games,
moves, errors that change nothing, records, the editor, streamed searches and their
bounds."""

import json
import threading

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from hinge_fast import Board  # noqa: E402
from hinge_fast.errors import HingeError  # noqa: E402
from hinge_fast.search.score import Score, percent  # noqa: E402
from hinge_fast.web import create_app  # noqa: E402
from tests.conftest import LOCAL, events, new_game, svg_text  # noqa: E402

# Green's D3-D4 can flip the blue token on C4 or the one on E5: a choice.
CHOICE = "5/1g4/2bb3/8/4b4/2b5/2gg3/1g4/5 g"
MIDGAME = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"


def test_new_game_play_undo_redo(client):
    game = new_game(client, size=4)
    assert game["position"] == Board(4).fen() and game["turn"] == "green" and game["ply"] == 0
    assert len(game["legal"]) == len(Board(4).legal_moves)
    gid = game["id"]
    state = client.post(f"/api/games/{gid}/moves", json={"move": "c3"}).json()
    assert state["moves"] == ["C3"] and state["turn"] == "blue"
    state = client.post(f"/api/games/{gid}/moves", json={"move": "F6"}).json()
    state = client.post(f"/api/games/{gid}/undo").json()
    assert state["moves"] == ["C3"] and state["redo"] == ["F6"]
    state = client.post(f"/api/games/{gid}/goto", json={"ply": 0}).json()
    assert state["moves"] == [] and state["redo"] == ["C3", "F6"]
    state = client.post(f"/api/games/{gid}/redo").json()
    assert state["moves"] == ["C3"] and state["redo"] == ["F6"]
    # a different move drops what was taken back
    state = client.post(f"/api/games/{gid}/moves", json={"move": "E6"}).json()
    assert state["moves"] == ["C3", "E6"] and state["redo"] == []
    assert client.get(f"/api/games/{gid}").json()["position"] == state["position"]


def test_each_game_is_its_own(client):
    a, b = new_game(client), new_game(client, size=5)
    assert a["id"] != b["id"]
    client.post(f"/api/games/{a['id']}/moves", json={"move": "F6"})
    assert client.get(f"/api/games/{b['id']}").json()["moves"] == []


def test_illegal_move_answers_the_project_error_and_changes_nothing(client):
    gid = new_game(client)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "F6"})
    before = client.get(f"/api/games/{gid}").json()
    board = Board()
    board.push_str("F6")
    for text in ("F6", "A1", "F6-G7", "zz", ""):
        response = client.post(f"/api/games/{gid}/moves", json={"move": text})
        assert response.status_code == 400
        with pytest.raises(HingeError) as expected:
            board.push(board.parse_move(text))
        assert response.json() == {"error": str(expected.value)}
    assert client.get(f"/api/games/{gid}").json() == before


def test_malformed_position_and_record_change_nothing(client):
    gid = new_game(client)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "F6"})
    before = client.get(f"/api/games/{gid}").json()
    response = client.post(f"/api/games/{gid}/position", json={"position": "6/7/8 g"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("position string has 3 rows")
    response = client.post(f"/api/games/{gid}/record", json={"record": "1. F6 F6 unfinished"})
    assert response.status_code == 400 and "ply 2" in response.json()["error"]
    response = client.post(f"/api/games/{gid}/new", json={"size": 12})
    assert response.status_code == 400 and "12" in response.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == before


def test_malformed_requests_and_unknown_games(client):
    gid = new_game(client)["id"]
    response = client.post(f"/api/games/{gid}/moves", json={"mov": "F6"})
    assert response.status_code == 422 and response.json()["error"].startswith("move:")
    response = client.get("/api/games/nope")
    assert response.status_code == 404 and "no game 'nope'" in response.json()["error"]
    assert client.post("/api/games", json={"position": "x g"}).status_code == 400


def test_position_and_record_out_and_in(client):
    gid = new_game(client)["id"]
    for move in ("F6", "D4", "G7"):
        client.post(f"/api/games/{gid}/moves", json={"move": move})
    record = client.get(f"/api/games/{gid}/record").text
    assert "1. F6 D4 2. G7 unfinished" in record
    other = new_game(client, size=4)["id"]
    state = client.post(f"/api/games/{other}/record", json={"record": record}).json()
    assert state["moves"] == ["F6", "D4", "G7"] and state["size"] == 6
    state = client.post(f"/api/games/{other}/position", json={"position": CHOICE}).json()
    assert state["position"] == CHOICE and state["moves"] == [] and state["start"] == CHOICE
    # a game from a position string keeps its start in the record
    client.post(f"/api/games/{other}/moves", json={"move": "D3-D4xE5"})
    record = client.get(f"/api/games/{other}/record").text
    assert f'[Start "{CHOICE}"]' in record and "D3-D4xE5" in record


def test_legal_moves_show_the_flip_choice(client):
    gid = new_game(client, position=CHOICE)["id"]
    legal = client.get(f"/api/games/{gid}/legal").json()
    choice = sorted((m["move"], m["flips"]) for m in legal if m["from"] == "D3" and m["to"] == "D4")
    assert choice == [("D3-D4xC4", ["C4"]), ("D3-D4xE5", ["E5"])]
    response = client.post(f"/api/games/{gid}/moves", json={"move": "D3-D4"})
    assert response.status_code == 400 and response.json()["error"].startswith(
        "ambiguous move D3-D4"
    )
    state = client.post(f"/api/games/{gid}/moves", json={"move": "D3-D4xE5"}).json()
    assert state["last_flipped"] == ["E5"]
    assert 'class="flipped"' in state["svg"]


def test_position_editor(client):
    gid = new_game(client, size=4)["id"]
    state = client.post(f"/api/games/{gid}/edit", json={"cell": "C3", "piece": "blue"}).json()
    assert Board.from_fen(state["position"]).piece_at("C3").name == "BLUE"
    state = client.post(f"/api/games/{gid}/edit", json={"cell": None, "turn": "blue"}).json()
    assert state["turn"] == "blue"
    before = state
    response = client.post(f"/api/games/{gid}/edit", json={"cell": "A1", "piece": "green"})
    assert response.status_code == 400 and "edge cell" in response.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == before
    state = client.post(f"/api/games/{gid}/edit", json={"cell": "C3", "piece": None}).json()
    assert state["position"] == "4/5/6/7/6/5/4 b"


def test_analysis_streams_progress_and_a_best_move(client):
    gid = new_game(client, position=MIDGAME)["id"]
    with client.stream(
        "POST", f"/api/games/{gid}/analysis", json={"engine": "alphabeta", "time": 0.5, "top": 3}
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        got = list(events(response))
    names = [name for name, _ in got]
    assert names[0] == "start" and names[-1] == "done"
    start, done = got[0][1], got[-1][1]
    assert {t["side"] for t in start["threats"]} == {"green", "blue"}
    legal = {str(m) for m in Board.from_fen(MIDGAME).legal_moves}
    assert done["best"] in legal and done["pv"][0] == done["best"]
    assert 1 <= len(done["top"]) <= 3 and 0 <= done["green_share"] <= 1
    assert done["score"]["text"] == done["score_text"] and done["engine"] == "alphabeta"
    assert 'class="arrow"' in done["svg"] and f"best move: {done['best']}" in svg_text(done["svg"])
    # analysis plays nothing
    assert client.get(f"/api/games/{gid}").json()["moves"] == []


def test_engine_move_plays_a_legal_move(client):
    gid = new_game(client, size=5)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "E5"})
    with client.stream(
        "POST", f"/api/games/{gid}/engine-move", json={"engine": "mcts", "time": 0.2}
    ) as response:
        done = [data for name, data in events(response) if name == "done"][0]
    assert done["played"] == done["state"]["moves"][-1]
    assert client.get(f"/api/games/{gid}").json()["ply"] == 2


def test_bad_search_options_are_refused(client):
    gid = new_game(client)["id"]
    for body, text in (
        ({"engine": "stockfish"}, "unknown engine"),
        ({"time": 0}, "time must be"),
        ({"time": 10**6}, "time must be"),
        ({"time": 1e-300}, "time must be from 0.001"),
    ):
        response = client.post(f"/api/games/{gid}/analysis", json=body)
        assert response.status_code == 400 and text in response.json()["error"]
    over = new_game(client, position="6/7/8/9/10/11/10/9/8/2bb3/6 g")  # green has no tokens: over
    assert client.post(f"/api/games/{over['id']}/analysis", json={}).status_code == 400


def test_a_search_can_be_stopped_and_does_not_block_another_game():
    with TestClient(create_app(max_searches=2), base_url=LOCAL) as client:
        slow, quick = new_game(client, position=MIDGAME)["id"], new_game(client, size=4)["id"]
        with client.stream(
            "POST", f"/api/games/{slow}/analysis", json={"engine": "alphabeta", "time": 60}
        ) as long_run:
            stream = events(long_run)
            assert next(stream)[0] == "start"
            assert (
                next(e for e in stream if e[0] != "stage")[0] == "progress"
            )  # the long search runs
            # meanwhile another tab's search, with the same engine, starts and finishes
            with client.stream(
                "POST", f"/api/games/{quick}/engine-move", json={"engine": "alphabeta", "time": 0.2}
            ) as other:
                assert [name for name, _ in events(other)][-1] == "done"
            assert client.get(f"/api/games/{slow}").json()["searching"] is True
            # a second search of the same game is refused
            again = client.post(f"/api/games/{slow}/analysis", json={"engine": "mcts", "time": 1})
            assert again.status_code == 400 and "already searching" in again.json()["error"]
            client.post(f"/api/games/{slow}/stop")
            rest = list(stream)
        assert (
            rest[-1][0] == "done" and rest[-1][1]["stopped"] is True and rest[-1][1]["seconds"] < 60
        )
        assert client.get(f"/api/games/{slow}").json()["searching"] is False


def test_searches_at_once_are_bounded():
    with TestClient(create_app(max_searches=1), base_url=LOCAL) as client:
        a, b = new_game(client, position=MIDGAME)["id"], new_game(client)["id"]
        with client.stream(
            "POST", f"/api/games/{a}/analysis", json={"engine": "mcts", "time": 60}
        ) as running:
            stream = events(running)
            assert next(stream)[0] == "start"
            full = client.post(f"/api/games/{b}/analysis", json={"engine": "mcts", "time": 1})
            assert full.status_code == 503
            assert "already running 1 searches, its limit" in full.json()["error"]
            assert client.get("/api/engines").json()["running"] == 1
            client.post(f"/api/games/{a}/stop")
            list(stream)
        # the slot is free again
        with client.stream(
            "POST", f"/api/games/{b}/analysis", json={"engine": "mcts", "time": 0.1}
        ) as response:
            assert [name for name, _ in events(response)][-1] == "done"


def test_a_search_asked_as_the_server_stops_is_refused_as_stopping(client):
    """Once the server has begun to stop (its searches closed), a new search is refused
    with 503 and ``server_stopping``, which the page reads as the server going away; a
    full pool is a 503 without it (try again)."""
    gid = new_game(client)["id"]
    client.app.state.shutdown()
    refused = client.post(f"/api/games/{gid}/engine-move", json={"engine": "mcts", "time": 1})
    assert refused.status_code == 503
    assert refused.json() == {"error": "the server is shutting down", "server_stopping": True}


def test_a_change_of_position_stops_the_game_search(client):
    gid = new_game(client, position=MIDGAME)["id"]
    with client.stream(
        "POST", f"/api/games/{gid}/engine-move", json={"engine": "mcts", "time": 60}
    ) as response:
        stream = events(response)
        assert next(stream)[0] == "start"
        client.post(f"/api/games/{gid}/moves", json={"move": "G5-G4xF3"})
        done = [data for name, data in stream if name == "done"][0]
    # the engine's search was for the old position: it plays nothing into the new one
    assert done["played"] is None
    assert client.get(f"/api/games/{gid}").json()["moves"] == ["G5-G4xF3"]


def test_pages_rules_and_openapi(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="board"' in page.text and 'href="/rules"' in page.text
    assert client.get("/static/app.js").status_code == 200
    rules = client.get("/rules")
    assert rules.status_code == 200 and "<h1>" in rules.text and 'src="/static/rules/' in rules.text
    picture = rules.text.split('src="/static/rules/')[1].split('"')[0]
    assert client.get(f"/static/rules/{picture}").text.startswith("<svg")
    schema = client.get("/openapi.json").json()
    for path in (
        "/api/games",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/analysis",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/position",
        "/api/games/{game_id}/legal",
    ):
        assert path in schema["paths"]


def test_serve_reports_a_busy_port(capsys):
    import socket

    from hinge_fast.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        # in a thread of its own: the server starts an event loop, and this test may share
        # its process with the browser tests, whose Playwright runs one in this thread
        result = []
        thread = threading.Thread(
            target=lambda: result.append(main(["serve", "--port", str(busy.getsockname()[1])]))
        )
        thread.start()
        thread.join(timeout=60)
    assert result == [2]
    assert "error: cannot listen on 127.0.0.1" in capsys.readouterr().err


def test_serve_prints_and_opens_an_address_whose_token_the_api_asks_for(monkeypatch, capsys):
    import re
    import webbrowser
    from pathlib import Path
    from urllib.parse import urlsplit

    import httpx
    import uvicorn

    from hinge_fast.cli import main

    servers, opened, got = [], [], threading.Event()

    class Recorded(uvicorn.Server):
        def __init__(self, config):
            super().__init__(config)
            servers.append(self)

    monkeypatch.setattr(uvicorn, "Server", Recorded)
    monkeypatch.setattr(webbrowser, "open", lambda url: (opened.append(url), got.set()))
    result = []
    thread = threading.Thread(
        target=lambda: result.append(main(["serve", "--port", "0", "--open"]))
    )
    thread.start()
    try:
        assert got.wait(60)
        (opened_url,) = (
            opened  # a redirect file, readable by its user only: no token on a command line
        )
        assert opened_url.startswith("file://") and "token" not in opened_url
        redirect = Path(urlsplit(opened_url).path)
        url = re.search(r'content="0; url=([^"]+)"', redirect.read_text(encoding="utf-8")).group(1)
        assert re.fullmatch(r"http://localhost:\d+/\?token=[\w-]{32}", url), url
        base, token = url.split("/?token=")
        with httpx.Client(base_url=base, timeout=30) as http:
            assert http.get("/api/engines").status_code == 403
            assert (
                http.get("/api/engines", headers={"Authorization": f"Bearer {token}"}).status_code
                == 200
            )
            page = http.get(url)
            assert page.status_code == 200 and "SameSite=Strict" in page.headers["set-cookie"]
            assert http.get("/api/engines").status_code == 200  # the cookie the page set
    finally:
        servers[0].should_exit = True
        thread.join(60)
    assert result == [0]
    assert f"hinge-fast serving on {url} (Ctrl-C to stop)" in capsys.readouterr().out
    assert not redirect.exists()  # removed when the server stopped


def test_the_examples_of_docs_web_md(client):
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "web.md").read_text(encoding="utf-8")
    gid = new_game(client, size=4)["id"]
    state = client.post(f"/api/games/{gid}/moves", json={"move": "C3"}).json()
    assert f"`position` is `{state['position']}`" in doc
    error = client.post(f"/api/games/{gid}/moves", json={"move": "C3"}).json()
    assert f"`{json.dumps(error)}`" in doc
    missing = client.post(f"/api/games/{gid}/moves", json={}).json()
    assert f"`{json.dumps(missing)}`" in doc
    assert client.post(f"/api/games/{gid}/moves", json={"move": "A1"}).json()["error"] in doc
    from hinge_fast.web import engine

    assert (
        f"table is {engine.TABLE_MB} MB" in doc and f"tree is\n  {engine.TREE_NODES:,} nodes" in doc
    )


# ----- limits ---------------------------------------------------------------------------------
def test_over_long_fields_are_refused_and_change_nothing(client):
    gid = new_game(client, size=4)["id"]
    for route, body, text in [
        ("moves", {"move": "C3" * 100}, "the move is 200 characters long; the most accepted is 40"),
        ("edit", {"cell": "C" * 50, "piece": "green"}, "the cell name is 50 characters long"),
        (
            "position",
            {"position": "4/" * 150_000},
            "the position string is 300,000 characters long",
        ),
    ]:
        answer = client.post(f"/api/games/{gid}/{route}", json=body)
        assert answer.status_code == 400 and text in answer.json()["error"], answer.text
    big = client.post("/api/games", json={"position": "4/" * 150_000})
    assert big.status_code == 400 and "300,000 characters" in big.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["position"] == Board(4).fen()


def test_a_game_holds_at_most_max_moves(client, monkeypatch):
    from hinge_fast.web import games

    monkeypatch.setattr(games, "MAX_MOVES", 2)
    gid = new_game(client, size=4)["id"]
    for move in ("C3", "F6"):
        assert client.post(f"/api/games/{gid}/moves", json={"move": move}).status_code == 200
    third = client.post(f"/api/games/{gid}/moves", json={"move": "B2"})
    assert third.status_code == 400 and "at most 2 moves" in third.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["moves"] == ["C3", "F6"]
    text = client.get(f"/api/games/{gid}/record").text
    head, tail = text.rsplit("unfinished", 1)
    record = head + "B2 unfinished" + tail  # a third move
    other = new_game(client, size=4)["id"]
    loaded = client.post(f"/api/games/{other}/record", json={"record": record})
    assert loaded.status_code == 400 and "at most 2 moves" in loaded.json()["error"]


def test_a_search_that_fails_before_streaming_gives_its_slot_back(monkeypatch):
    from hinge_fast.web import app as web_app

    def broken(board):
        raise RuntimeError("threats failed")

    monkeypatch.setattr(web_app, "threats", broken)
    with TestClient(
        create_app(max_searches=1), base_url=LOCAL, raise_server_exceptions=False
    ) as client:
        gid = new_game(client, position=MIDGAME)["id"]
        assert (
            client.post(
                f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 0.1}
            ).status_code
            == 500
        )
        assert client.get("/api/engines").json()["running"] == 0
        assert client.get(f"/api/games/{gid}").json()["searching"] is False


def test_a_stream_never_read_still_ends_and_frees_its_slot():
    with TestClient(create_app(max_searches=1), base_url=LOCAL) as client:
        gid = new_game(client, position=MIDGAME)["id"]
        with client.stream(
            "POST", f"/api/games/{gid}/engine-move", json={"engine": "mcts", "time": 0.1}
        ):
            pass  # the page went away without reading a single event
        pool = client.app.state.pool
        for run in list(pool.running):
            run.stop()
        assert pool.wait_idle(60)  # the search's own thread gave the slot back
        with client.stream(
            "POST", f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 0.1}
        ) as again:
            assert [name for name, _ in events(again)][-1] == "done"


class WatchedLock:
    """A game's lock that tells when ``waiting`` requests are blocked on it."""

    def __init__(self, lock, waiting: int):
        self.lock, self.count, self.waiting = lock, 0, waiting
        self.guard, self.all_waiting = threading.Lock(), threading.Event()

    def __enter__(self):
        if not self.lock.acquire(blocking=False):
            with self.guard:
                self.count += 1
                if self.count >= self.waiting:
                    self.all_waiting.set()
            self.lock.acquire()
        return self

    def __exit__(self, *exc):
        self.lock.release()


def test_the_server_answers_while_a_games_lock_is_held(client):

    gid = new_game(client, size=4)["id"]
    game = client.app.state.store.get(gid)
    assert client.get("/api/engines").status_code == 200  # its imports done
    held, release = threading.Event(), threading.Event()

    def hold():
        with game.lock:
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(30)
    # three requests to that game block on its lock: a move, a record, a search
    game.lock = WatchedLock(game.lock, waiting=3)
    answers = {}

    def ask(name, method, path, **kwargs):
        answers[name] = client.request(method, f"/api/games/{gid}/{path}", **kwargs)

    blocked = [
        threading.Thread(target=ask, args=args, kwargs=kwargs)
        for args, kwargs in [
            (("move", "POST", "moves"), {"json": {"move": "C3"}}),
            (("record", "GET", "record"), {}),
            (("search", "POST", "analysis"), {"json": {"engine": "mcts", "time": 0.1}}),
        ]
    ]
    try:
        for thread in blocked:
            thread.start()
        assert game.lock.all_waiting.wait(30)
        # while the game's lock is still held: an answer proves it waited on no game
        engines = client.get("/api/engines")
        assert not release.is_set() and game.lock.all_waiting.is_set()
        assert engines.json()["max_searches"] == 2
        other = new_game(client, size=5)["id"]
        assert client.post(f"/api/games/{other}/moves", json={"move": "E5"}).status_code == 200
    finally:
        release.set()
        holder.join()
        for thread in blocked:
            thread.join(60)
    assert answers["move"].status_code == 200 and answers["record"].status_code == 200
    assert answers["search"].status_code == 200


def test_a_search_that_raises_mid_stream_frees_its_slot(monkeypatch):
    import hinge_fast.search

    real = hinge_fast.search.create_searcher
    broken = {"on": True}

    class BreaksAfterItsFirstResult:
        def __init__(self, searcher):
            self.searcher = searcher

        def stop(self):
            self.searcher.stop()

        def prepare(self, board):
            self.searcher.prepare(board)

        def go(self, board, limits, on_progress=None):
            result = self.searcher.go(board, limits)
            on_progress(result)
            raise RuntimeError("the searcher broke")

    def create(name, **options):
        searcher = real(name, **options)
        return BreaksAfterItsFirstResult(searcher) if broken["on"] else searcher

    monkeypatch.setattr("hinge_fast.web.engine.create_searcher", create)
    with TestClient(create_app(max_searches=1), base_url=LOCAL) as client:
        gid = new_game(client, position=MIDGAME)["id"]
        with client.stream(
            "POST", f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 0.1}
        ) as response:
            got = list(events(response))
        assert got[0][0] == "start" and got[-1] == (
            "error",
            {"error": "search failed: RuntimeError: the searcher broke"},
        )
        assert client.get("/api/engines").json()["running"] == 0
        assert client.get(f"/api/games/{gid}").json()["searching"] is False
        broken["on"] = False
        with client.stream(
            "POST", f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 0.1}
        ) as again:
            assert [name for name, _ in events(again)][-1] == "done"


def test_a_stream_that_fails_to_send_a_result_stops_its_search_and_frees_the_slot(monkeypatch):
    from hinge_fast.web import app as web_app

    def unrenderable(board, result, top, outlines, final):
        raise ValueError("cannot draw this")

    monkeypatch.setattr(web_app, "_result_json", unrenderable)
    with TestClient(create_app(max_searches=1), base_url=LOCAL) as client:
        gid = new_game(client, position=MIDGAME)["id"]
        # an engine move goes on when its page leaves; a stream that breaks stops it
        with client.stream(
            "POST", f"/api/games/{gid}/engine-move", json={"engine": "mcts", "time": 100}
        ) as response:
            got = list(events(response))
        assert got[-1] == ("error", {"error": "search failed: ValueError: cannot draw this"})
        assert client.app.state.pool.wait_idle(30)  # long before the search's 100 s
        assert client.get(f"/api/games/{gid}").json()["searching"] is False


def test_the_move_bound_is_the_protocols():
    from hinge_fast.protocol import wire
    from hinge_fast.web import games

    # test_a_game_holds_at_most_max_moves refuses move MAX_MOVES + 1 (with a small bound)
    assert games.MAX_MOVES == 5000 == wire.MAX_GAME_MOVES


def test_web_searches_use_one_thread_each(monkeypatch):
    from hinge_fast.web import engine

    made = []
    real = __import__("hinge_fast.search", fromlist=["create_searcher"]).create_searcher

    def spy(name, **options):
        made.append(options)
        return real(name, **options)

    monkeypatch.setattr(engine, "create_searcher", spy)
    for name in engine.ENGINE_NAMES:
        engine.RunningSearch(engine.SearchRequest(name, 0.05)).run(Board(4))
    assert made and all(options.get("threads") == 1 for options in made)


# ----- the score from Green's side, resigning, the rules page's way back ---------------------------
def analysis_done(client, gid, engine="alphabeta", time=0.3):
    with client.stream(
        "POST", f"/api/games/{gid}/analysis", json={"engine": engine, "time": time, "top": 3}
    ) as response:
        assert response.status_code == 200
        return list(events(response))[-1][1]


def test_the_score_is_given_from_greens_side_too(client):
    for position in (MIDGAME, MIDGAME[:-1] + "b"):
        done = analysis_done(client, new_game(client, position=position)["id"])
        mover = done["score"]["value"] if done["score"]["kind"] == "centi" else None
        if mover is not None:
            green = mover if position.endswith("g") else -mover
            share = done["green"]["green_share"]
            assert (
                done["green"]["text"] == f"Green {green / 100:+.2f} tokens, {percent(share)} to win"
            )
            assert share == pytest.approx(Score.centi(green).win_chance)
            assert (done["green"]["green_share"] > 0.5) == (green > 0)
            assert done["green_share"] == done["green"]["green_share"]
            assert done["green"]["text"] in svg_text(
                done["svg"]
            )  # the line under the board says the same
        # every line of the top three scored at the same depth, each with its own line
        assert len(done["top"]) == 3 and len({row["move"] for row in done["top"]}) == 3
        for row in done["top"]:
            assert (
                row["green_text"].startswith(("Green ", "Blue ")) and row["line"][0] == row["move"]
            )
    # proven: the winner by name, whoever is to move
    for position, text, share in (
        ("6/7/8/9/10/4gg5/5b4/9/8/7/6 g", "Green wins in 1", 1.0),
        ("6/7/8/9/10/4bb5/5g4/9/8/7/6 b", "Blue wins in 1", 0.0),
    ):
        done = analysis_done(client, new_game(client, position=position)["id"])
        assert done["green"] == {
            "text": text,
            "winner": text.split()[0].lower(),
            "moves": 1,
            "green_share": share,
        }
    # MCTS: a chance to win, in per cent
    done = analysis_done(client, new_game(client, position=MIDGAME)["id"], engine="mcts")
    assert done["green"]["text"].endswith("% to win") or " wins in " in done["green"]["text"]


def test_a_side_resigns_and_takes_it_back(client):
    gid = new_game(client, size=4)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "C3"})
    state = client.post(f"/api/games/{gid}/resign", json={}).json()  # Blue, to move
    assert state["outcome"] == {"winner": "green", "reason": "resignation"}
    assert "green wins by resignation" in state["svg"]
    record = client.get(f"/api/games/{gid}/record").text
    assert '[Result "green"]' in record and '[Termination "resignation"]' in record
    # over: no move, no search, no second resignation; each refusal changes nothing
    for path, body in (
        ("/moves", {"move": "D4"}),
        ("/resign", {"side": "green"}),
        ("/analysis", {"time": 0.2}),
    ):
        answer = client.post(f"/api/games/{gid}{path}", json=body)
        assert answer.status_code == 400 and "over" in answer.json()["error"]
        assert client.get(f"/api/games/{gid}").json() == state
    bad = client.post(f"/api/games/{gid}/resign", json={"side": "red"})
    assert bad.status_code == 422 and client.get(f"/api/games/{gid}").json() == state
    # going to the same ply takes the resignation back and keeps the moves
    state = client.post(f"/api/games/{gid}/goto", json={"ply": 1}).json()
    assert state["outcome"] is None and state["moves"] == ["C3"]
    state = client.post(f"/api/games/{gid}/resign", json={"side": "green"}).json()
    assert state["outcome"] == {"winner": "blue", "reason": "resignation"}


def test_the_rules_page_leads_back_to_its_game(client):
    gid = new_game(client)["id"]
    page = client.get(f"/rules?game={gid}").text
    assert f'href="/?game={gid}"' in page and "python -m" not in page
    assert 'href="/"' in client.get("/rules").text
    assert 'href="/"' in client.get('/rules?game="><script>alert(1)</script>').text


def test_a_405_names_every_method_of_its_path(client):
    gid = new_game(client, size=4)["id"]
    answer = client.request("PUT", f"/api/games/{gid}/record", json={"record": ""})
    assert answer.status_code == 405 and answer.json() == {"error": "Method Not Allowed"}
    assert {m.strip() for m in answer.headers["allow"].split(",")} >= {"GET", "POST"}


def test_the_longest_search_is_the_servers_to_set():
    with TestClient(create_app(max_seconds=0.5), base_url=LOCAL) as client:
        assert client.get("/api/engines").json()["max_seconds"] == 0.5
        gid = new_game(client, position=MIDGAME)["id"]
        refused = client.post(f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 1})
        assert refused.status_code == 400
        assert refused.json()["error"] == "time must be from 0.001 to 0.5 seconds, not 1.0"
        assert client.get(f"/api/games/{gid}").json()["searching"] is False
    with pytest.raises(HingeError, match="the longest search must be from 0.001 to 120 seconds"):
        create_app(max_seconds=500)


def test_the_schema_links_a_new_game_to_its_routes(client):
    schema = client.get("/openapi.json").json()
    links = schema["paths"]["/api/games"]["post"]["responses"]["200"]["links"]
    game_routes = {
        (method, path)
        for path, ops in schema["paths"].items()
        if "{game_id}" in path
        for method in ops
    }
    by_id = {
        op["operationId"]: (method, path)
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
    }
    assert {by_id[link["operationId"]] for link in links.values()} == game_routes
    assert all(link["parameters"] == {"game_id": "$response.body#/id"} for link in links.values())
    assert links["post_a_legal_move"]["requestBody"] == {"move": "$response.body#/legal/0/move"}
    # the link's expressions give a working request
    state = new_game(client, size=4)
    played = client.post(
        f"/api/games/{state['id']}/moves", json={"move": state["legal"][0]["move"]}
    )
    assert played.status_code == 200


def test_an_analysis_ends_when_its_page_goes():
    """Over a real connection (the test client cannot leave mid-stream): the page reads
    the first event and closes the connection; the search stops and gives its slot back."""
    import socket

    import httpx
    import uvicorn

    app = create_app(max_searches=1)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()  # connections wait in the backlog until the server takes them
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            gid = http.post("/api/games", json={"position": MIDGAME}).json()["id"]
            with http.stream(
                "POST", f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 100}
            ) as response:
                assert next(response.iter_lines()) == "event: start"
            # the connection is closed: the search stops, long before its 100 s
            assert app.state.pool.wait_idle(30)
            assert http.get(f"/api/games/{gid}").json()["searching"] is False
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def test_the_games_kept_are_bounded_and_the_least_recently_used_goes():
    with TestClient(create_app(max_games=3), base_url=LOCAL) as client:
        a, b, c = (new_game(client, size=4)["id"] for _ in range(3))
        assert (
            client.get(f"/api/games/{a}").status_code == 200
        )  # a is used again: b is the oldest now
        d = new_game(client, size=4)["id"]
        assert len(client.app.state.store) == 3
        gone = client.get(f"/api/games/{b}")
        assert (
            gone.status_code == 404
            and gone.json()["error"] == f"no game {b!r}: start one with POST /api/games"
        )
        assert all(client.get(f"/api/games/{g}").status_code == 200 for g in (a, c, d))


def test_stop_frees_a_game_whose_search_ended_without_clearing_it(client):
    from hinge_fast.web.engine import RunningSearch, SearchRequest

    gid = new_game(client, position=MIDGAME)["id"]
    game = client.app.state.store.get(gid)
    game.search = RunningSearch(
        SearchRequest("mcts", 1)
    )  # holds no slot: nothing else would clear it
    refused = client.post(f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 0.1})
    assert refused.status_code == 400 and "already searching" in refused.json()["error"]
    assert client.post(f"/api/games/{gid}/stop").json()["searching"] is False
    with client.stream(
        "POST", f"/api/games/{gid}/analysis", json={"engine": "mcts", "time": 0.1}
    ) as again:
        assert [name for name, _ in events(again)][-1] == "done"


def test_a_new_game_from_a_record_starts_where_the_record_starts(client):
    state = new_game(client, record='[Size "5"]\n\n1. E5 C3 2. F6')
    assert (
        state["size"] == 5
        and state["moves"] == ["E5", "C3", "F6"]
        and state["start"] == Board(5).fen()
    )
    before = len(client.app.state.store)
    for body, text in (
        ({"record": "this is no record"}, None),
        (
            {"record": '[Size "5"]\n\n1. E5', "position": Board(5).fen()},
            "start a game from a position string or from a record, not both",
        ),
    ):
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 400, answer.text
        assert text is None or answer.json()["error"] == text
    assert len(client.app.state.store) == before  # a refused game is not kept
