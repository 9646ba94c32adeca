"""The page locked down: security headers on every answer, only the server's own origin
may change anything, proofs share the searches' limit, every read of a game waits for
its lock, a stopping server ends its streams at once, and ``serve --open`` keeps the
token off the browser's command line."""

import os
import socket
import stat
import threading
import time

import pytest

pytest.importorskip("fastapi")
uvicorn = pytest.importorskip("uvicorn")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from hinge_fast.web import create_app  # noqa: E402
from tests.conftest import LOCAL, events, new_game  # noqa: E402
from tests.test_web_api import MIDGAME, WatchedLock  # noqa: E402

TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
CSP = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'"


@pytest.fixture()
def guarded():
    with TestClient(create_app(max_searches=1, token=TOKEN), base_url="http://localhost:8000") as c:
        yield c


def test_every_answer_carries_the_security_headers(guarded):
    gid = guarded.post("/api/games", json={"size": 4}, headers=AUTH).json()["id"]
    answers = [
        guarded.get("/", headers=AUTH),
        guarded.get("/static/app.js"),
        guarded.get("/static/style.css"),
        guarded.get("/rules"),
        guarded.get("/api/engines", headers=AUTH),
        guarded.get(f"/api/games/{gid}", headers=AUTH),
        guarded.get("/api/engines"),  # 403: no token
        guarded.get("/api/games/nosuchgame", headers=AUTH),  # 404
        guarded.post(f"/api/games/{gid}/moves", json={"move": "A1"}, headers=AUTH),  # 400
        guarded.get("/api/engines", headers={**AUTH, "Host": "evil.example"}),  # 400 from the guard
        guarded.get("/static/no-such-file.js"),  # 404 of the static files
    ]
    assert [a.status_code for a in answers] == [
        200,
        200,
        200,
        200,
        200,
        200,
        403,
        404,
        400,
        400,
        404,
    ]
    for answer in answers:
        assert answer.headers["content-security-policy"] == CSP, answer.request.url
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"


def test_the_page_has_no_inline_script_style_or_handler(guarded):
    """The policy lets no inline code run: the page's own code is all in its files."""
    import re

    for path in ("/", "/rules"):
        html = guarded.get(path, headers=AUTH).text
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), path
        assert "<style" not in html and not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path


@pytest.mark.parametrize(
    "origin",
    [
        "http://localhost:3000",
        "http://localhost",
        "https://localhost:8000",
        "http://127.0.0.1:8000",
        "http://localhost:8000/",
    ],
)
def test_only_the_servers_own_origin_may_change_anything(guarded, origin):
    before = len(guarded.app.state.store)
    answer = guarded.post("/api/games", json={"size": 4}, headers={**AUTH, "Origin": origin})
    assert answer.status_code == 403 and "other sites" in answer.json()["error"]
    # a page of another port of this machine is "same-site" to the browser, not "same-origin"
    answer = guarded.post(
        "/api/games",
        json={"size": 4},
        headers={**AUTH, "Origin": origin, "Sec-Fetch-Site": "same-site"},
    )
    assert answer.status_code == 403
    assert len(guarded.app.state.store) == before
    for ok in (
        {"Origin": "http://localhost:8000"},
        {"Origin": "http://LOCALHOST:8000"},
        {"Origin": origin, "Sec-Fetch-Site": "same-origin"},
    ):
        assert (
            guarded.post("/api/games", json={"size": 4}, headers={**AUTH, **ok}).status_code == 200
        )


def test_a_page_without_the_token_explains_where_to_go_instead_of_json(guarded):
    answer = guarded.get(
        "/?game=abc", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    )
    assert answer.status_code == 403 and answer.headers["content-type"].startswith("text/html")
    assert "Open the address the server printed" in answer.text and "?token=" in answer.text
    assert "{" not in answer.text.split("<body", 1)[1]  # no raw JSON
    # the API still answers JSON
    assert (
        guarded.get("/api/engines", headers={"Accept": "text/html"})
        .json()["error"]
        .startswith("no access token")
    )


def test_proofs_count_against_the_searches_limit():
    with TestClient(create_app(max_searches=1), base_url=LOCAL) as client:
        a, b = new_game(client, size=9)["id"], new_game(client, position=MIDGAME)["id"]
        # an analysis with its proof takes one slot, one thread
        with client.stream(
            "POST",
            f"/api/games/{a}/analysis",
            json={"engine": "mcts", "time": 60, "prove": 100_000},
        ) as running:
            stream = events(running)
            assert next(stream)[0] == "start"
            assert client.get("/api/engines").json()["running"] == 1
            workers = [
                t.name for t in threading.enumerate() if t.name.startswith(("search-", "prove-"))
            ]
            assert workers == [f"search-{a}"]
            # no slot left: neither a proof nor a search starts
            proof = client.post(f"/api/games/{b}/prove", json={"nodes": 1000})
            assert proof.status_code == 503 and "proofs count as searches" in proof.json()["error"]
            assert (
                client.post(
                    f"/api/games/{b}/analysis", json={"engine": "mcts", "time": 1}
                ).status_code
                == 503
            )
            client.post(f"/api/games/{a}/stop")
            list(stream)
        assert client.app.state.pool.wait_idle(30)
        # the slot free again: the proof runs, and gives its slot back
        assert client.post(f"/api/games/{b}/prove", json={"nodes": 1000}).status_code == 200
        assert not client.app.state.pool.running


def test_reading_a_game_waits_for_its_lock(client):
    gid = new_game(client, size=4)["id"]
    game = client.app.state.store.get(gid)
    held, release = threading.Event(), threading.Event()

    def hold():
        with game.lock:
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(30)
    game.lock = WatchedLock(game.lock, waiting=2)
    answers = {}
    readers = [
        threading.Thread(
            target=lambda p=path: answers.__setitem__(p, client.get(f"/api/games/{gid}{p}"))
        )
        for path in ("", "/legal")
    ]
    try:
        for thread in readers:
            thread.start()
        assert game.lock.all_waiting.wait(30)  # both reads wait for the lock
        assert not answers
    finally:
        release.set()
        holder.join()
        for thread in readers:
            thread.join(60)
    assert answers[""].status_code == 200 and answers["/legal"].status_code == 200


def test_a_stopping_server_ends_its_searches_and_streams_within_two_seconds():
    import signal

    from hinge_fast.commands.serve import make_server

    app = create_app(max_searches=2)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = make_server(app, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    got, opened = {}, threading.Barrier(3)

    def follow(kind, gid):
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            with http.stream(
                "POST", f"/api/games/{gid}/{kind}", json={"engine": "mcts", "time": 100}
            ) as response:
                lines = response.iter_lines()
                assert next(lines) == "event: start"
                opened.wait(30)
                got[kind] = [line for line in lines if line.startswith("event: ")]

    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            a, b = (
                http.post("/api/games", json={"position": MIDGAME}).json()["id"] for _ in range(2)
            )
            # the engine made ready for this side first (its kernels loaded, which no stop cuts short)
            with http.stream(
                "POST", f"/api/games/{a}/analysis", json={"engine": "mcts", "time": 0.05}
            ) as warm:
                assert list(warm.iter_lines())[-3] == "event: done"
        readers = [
            threading.Thread(target=follow, args=args)
            for args in (("analysis", a), ("engine-move", b))
        ]
        for reader in readers:
            reader.start()
        opened.wait(30)
        started = time.monotonic()
        server.handle_exit(signal.SIGINT, None)  # as Ctrl-C does
        thread.join(10)
        took = time.monotonic() - started
        for reader in readers:
            reader.join(10)
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()
    assert not thread.is_alive() and took < 2.5, f"the server took {took:.1f} s to stop"
    assert got["analysis"][-1] == "event: done" and got["engine-move"][-1] == "event: done"
    assert not app.state.pool.running


def test_serve_open_goes_through_a_file_only_its_user_can_read(monkeypatch):
    import webbrowser
    from pathlib import Path
    from urllib.parse import urlsplit

    from hinge_fast.commands.serve import open_in_browser

    opened = []
    monkeypatch.setattr(webbrowser, "open", opened.append)
    url = "http://localhost:8000/?token=abc-DEF_123"
    folder = open_in_browser(url)
    try:
        (file_url,) = opened
        assert file_url.startswith("file://") and "token" not in file_url
        path = Path(urlsplit(file_url).path)
        assert (
            stat.S_IMODE(path.stat().st_mode) == 0o600
            and stat.S_IMODE(os.stat(folder).st_mode) == 0o700
        )
        assert f'content="0; url={url}"' in path.read_text(encoding="utf-8")
    finally:
        import shutil

        shutil.rmtree(folder)


def test_serve_on_the_network_warns_that_the_token_travels_in_clear(monkeypatch, capsys):
    import hinge_fast.commands.serve as serve
    from hinge_fast.cli import main

    monkeypatch.setattr(serve, "_run_with_announcement", lambda server, announce: None)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    err = capsys.readouterr().err
    assert "warning: listening on 0.0.0.0" in err and "the token" in err and "in clear" in err
