"""The web app's routes: the page, the rules, and the JSON API (OpenAPI at
``/openapi.json``, browsable at ``/api`` as a plain list; docs/web.md).

FastAPI (on Starlette) because it derives the OpenAPI schema from the same typed
request and response models that check the requests, so the documentation cannot
drift from the code; Starlette's ``SchemaGenerator`` would need the schema written by
hand in docstrings.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any, Literal

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from .. import __version__
from ..analysis.position import eliminations, ranked_root_moves, root_move_text, threats
from ..analysis.svg import COLORS, last_flipped
from ..analysis.svg import board as board_svg
from ..errors import HingeError
from ..search import engine_spec
from ..search.score import green_view
from ..solving.puzzles import load_puzzles
from .engine import (
    DEFAULT_PROVE_NODES,
    ENGINE_NAMES,
    MAX_PROVE_NODES,
    MAX_SECONDS,
    MIN_SECONDS,
    PoolFull,
    SearchPool,
    SearchRequest,
    ServerStopping,
    check_prove_nodes,
    new_prover,
    prove_json,
)
from .games import MAX_NAME, MAX_TEXT, Game, GameStore
from .guard import GUARD_ERRORS, LocalGuard
from .rules_page import rules_html

#: Searches at once across all games, by default: one per core is the most that helps.
DEFAULT_MAX_SEARCHES = 2
#: Seconds between two interim results sent to the page.
PROGRESS_EVERY = 0.2
#: Root moves listed by the analysis, by default.
DEFAULT_TOP = 5


# ----- request and response models (they are the OpenAPI schema) --------------------------
# The bounds below are documented in the schema; the game checks them itself and answers
# a value outside them with 400 and the project's message.
SIDES: JsonDict = {"minimum": 4, "maximum": 9}
NAME: JsonDict = {"maxLength": MAX_NAME}
TEXT: JsonDict = {"maxLength": MAX_TEXT}


def text_field(description: str, default=..., limit: JsonDict = TEXT, examples=None):
    """A string field of a request body (required unless given a ``default``), with its
    length bound ``limit`` in the schema."""
    return Field(default, description=description, examples=examples, json_schema_extra=limit)


class Body(BaseModel):
    """A request body: each field of the JSON type the schema says (no ``true`` taken
    for 1, no ``"3"`` for 3; 422 otherwise)."""

    model_config = ConfigDict(strict=True)


class NewGame(Body):
    size: int = Field(6, description="board side, 4 to 9", json_schema_extra=SIDES)
    position: str | None = text_field(
        "a position string to start from instead of the empty board", None
    )
    record: str | None = text_field(
        "a game record (docs/usage.md) to start from instead: its first game, at its last move",
        None,
    )


class MoveRequest(Body):
    move: str = text_field(
        "a move in notation: C4, E5-F6xG7 (the target may be left out when only one group can be flipped)",
        limit=NAME,
        examples=["F6"],
    )


class GotoRequest(Body):
    ply: int = Field(
        ...,
        description="moves from the start of the game (0: the start)",
        json_schema_extra={"minimum": 0},
    )


class SizeRequest(Body):
    size: int = Field(6, description="board side, 4 to 9", json_schema_extra=SIDES)


class PositionRequest(Body):
    position: str = text_field("a position string", examples=["6/7/8/9/10/11/10/9/8/7/6 g"])


class RecordRequest(Body):
    record: str = text_field(
        "a game record (docs/usage.md); the first game is loaded, at its last move"
    )


class ResignRequest(Body):
    side: Literal["green", "blue"] | None = Field(
        None, description="the side that resigns (default: the side to move)"
    )


class EditRequest(Body):
    cell: str | None = text_field(
        "the cell to change, e.g. F6 (null: change only the side to move)", None, NAME
    )
    piece: Literal["green", "blue"] | None = Field(
        None, description="the token to put there; null: empty it"
    )
    turn: Literal["green", "blue"] | None = Field(
        None, description="the side to move afterwards (default: unchanged)"
    )


class SearchBody(Body):
    engine: str = Field(
        ENGINE_NAMES[0],
        description=f"one of {', '.join(ENGINE_NAMES)}",
        json_schema_extra={"enum": list(ENGINE_NAMES)},
    )
    time: float = Field(
        1.0,
        description=f"seconds, from {MIN_SECONDS:g} to the server's max_seconds (GET /api/engines; "
        f"{MAX_SECONDS:g} unless the server was started with less)",
        json_schema_extra={"minimum": MIN_SECONDS, "maximum": MAX_SECONDS},
    )
    top: int = Field(
        DEFAULT_TOP,
        description="root moves to list (analysis)",
        json_schema_extra={"minimum": 1, "maximum": 50},
    )
    prove: int = Field(
        0,
        description="analysis: also run the prover for at most this many nodes, its result the "
        "'proof' event (0: no proof; at most the server's max_prove_nodes, GET /api/engines)",
        json_schema_extra={"minimum": 0, "maximum": MAX_PROVE_NODES},
    )


class ProveBody(Body):
    nodes: int = Field(
        DEFAULT_PROVE_NODES,
        description="the most positions the prover searches (at most the "
        "server's max_prove_nodes, GET /api/engines)",
        json_schema_extra={"minimum": 1, "maximum": MAX_PROVE_NODES},
    )


class ProofAnswer(BaseModel):
    winner: str | None = Field(
        ..., description="the side proven to win ('green' or 'blue'); null: not proven"
    )
    distance: int | None = Field(
        ..., description="moves (one side's turn each) of the proof's longest line"
    )
    text: str = Field(..., description="the result in words: 'Green wins, proven within 11 moves'")
    moves: list[str] = Field(..., description="the side to move's moves proven to win")
    nodes: int
    seconds: float


class PuzzleInfo(BaseModel):
    number: int = Field(..., description="the puzzle's number, from 1")
    size: int
    position: str = Field(..., description="the position string; its side to move wins by force")
    winner: str
    distance: int = Field(
        ..., description="moves (one side's turn each) of the proof's longest line"
    )
    moves: list[str] = Field(..., description="the winning moves the prover proved")
    engine_move: str = Field(
        ..., description="the default engine's move at engine_time seconds, which misses the win"
    )
    engine_time: float


class LegalMove(BaseModel):
    move: str
    from_: str | None = Field(
        None, alias="from", description="the cell a swiped token comes from (null: a placement)"
    )
    to: str
    flips: list[str] = Field(..., description="the enemy tokens the move flips")


class Outcome(BaseModel):
    winner: str
    reason: str


class GameState(BaseModel):
    id: str
    size: int
    position: str = Field(..., description="the position string")
    turn: str
    ply: int = Field(..., description="moves played from the start")
    moves: list[str] = Field(..., description="the moves played, in order")
    redo: list[str] = Field(..., description="moves taken back, the next one first")
    start: str = Field(..., description="the position string of the start")
    outcome: Outcome | None
    legal: list[LegalMove]
    last_flipped: list[str] = Field(..., description="tokens the last move flipped")
    searching: bool
    svg: str = Field(..., description="the board picture (hinge_fast.analysis.svg)")


class Error(BaseModel):
    error: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": Error,
        "description": "a malformed position, an illegal move, a bad option: the project's error "
        "text (or a Host header that names another machine)",
    },
    404: {"model": Error, "description": "no such game"},
    422: {
        "model": Error,
        "description": "a request that does not fit its model (a field missing or of the wrong "
        "type): the field and the problem",
    },
    **{code: {"model": Error, "description": text} for code, text in GUARD_ERRORS.items()},
}
#: The same, for a route whose own answer is not JSON: the errors still are.
JSON_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {**answer, "content": {"application/json": {}}} for code, answer in ERRORS.items()
}


def add_game_links(schema: dict) -> dict:
    """OpenAPI links in ``schema``: a new game's answer, and the game and its legal moves
    read back, lead to every route of that game (the same id), and to playing the first
    of its legal moves. Clients and schemathesis's stateful tests follow them from one
    request to the next."""
    paths = schema["paths"]
    targets = [
        (method, path, operation["operationId"])
        for path, operations in paths.items()
        for method, operation in operations.items()
        if "{game_id}" in path
    ]

    def links(game_id: str, legal_move: str | None) -> dict:
        out = {}
        for method, path, operation_id in targets:
            name = f"{method}_{path.split('{game_id}', 1)[1].strip('/') or 'game'}".replace(
                "-", "_"
            )
            out[name] = {"operationId": operation_id, "parameters": {"game_id": game_id}}
            if name == "post_moves" and legal_move is not None:
                out["post_a_legal_move"] = {
                    "operationId": operation_id,
                    "parameters": {"game_id": game_id},
                    "requestBody": {"move": legal_move},
                }
        return out

    for path, operations in paths.items():
        for method, operation in operations.items():
            answer = operation.get("responses", {}).get("200")
            if answer is None or not (
                path == "/api/games" and method == "post" or "{game_id}" in path and method == "get"
            ):
                continue
            model = answer.get("content", {}).get("application/json", {}).get("schema", {})
            if model.get("$ref", "").endswith("/GameState"):
                legal_move = "$response.body#/legal/0/move"
            elif model.get("items", {}).get("$ref", "").endswith("/LegalMove"):
                legal_move = "$response.body#/0/move"
            else:
                legal_move = None
            game_id = "$request.path.game_id" if "{game_id}" in path else "$response.body#/id"
            answer["links"] = links(game_id, legal_move)
    return schema


def _state(game: Game) -> dict:
    board = game.board
    outcome = game.outcome()
    return {
        "id": game.id,
        "size": board.size,
        "position": board.fen(),
        "turn": str(board.turn),
        "ply": len(board.move_stack),
        "moves": [str(m) for m in board.move_stack],
        "redo": list(reversed(game.redo)),
        "start": game.start_board().fen(),
        "outcome": outcome,
        "legal": game.legal_moves(),
        "last_flipped": last_flipped(board),
        "searching": game.search is not None,
        "svg": board_svg(
            board,
            labels=True,
            result=None if game.resigned is None else (str(game.resigned.other), game.over_text()),
        ),
    }


def _sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def _result_json(board, result, top: int, outlines, final: bool) -> dict:
    best = result.move
    root = ranked_root_moves(result)[:top]
    green = green_view(result.score, board.turn)
    return {
        "final": final,
        "engine": result.engine,
        "depth": result.depth,
        "nodes": result.nodes,
        "nps": round(result.nps),
        "seconds": round(result.seconds, 3),
        "best": None if best is None else str(best),
        "score": result.score.to_dict(),
        "score_text": str(result.score),
        "mate": result.mate,
        "green": green,
        "green_share": green["green_share"],
        "pv": [str(m) for m in result.pv],
        "top": [
            {
                "move": str(rm.move),
                "score_text": root_move_text(rm, result.depth),
                "green_text": green_view(rm.score, board.turn)["text"],
                "line": [str(m) for m in (rm.pv or [rm.move])],
            }
            for rm in root
        ],
        # the last move stays tinted under the analysis's arrow
        "svg": board_svg(board, best=best, best_text=green["text"], outlines=outlines, labels=True),
    }


def create_app(
    max_searches: int = DEFAULT_MAX_SEARCHES,
    max_games: int | None = None,
    *,
    hosts=(),
    token: str | None = None,
    max_seconds: float = MAX_SECONDS,
    max_prove_nodes: int = MAX_PROVE_NODES,
) -> FastAPI:
    """The application: ``uvicorn.run(create_app(), host="127.0.0.1", port=8000)``.
    ``max_searches``: searches at once across every tab (more get a 503 answer);
    ``max_games``: games kept (the least recently used is dropped); ``hosts``: host
    names the server answers to besides this machine's; ``token``: the access token
    every page and API request must carry (``guard.py``; None: none asked);
    ``max_seconds``: the longest search asked for (longer ones get 400);
    ``max_prove_nodes``: the most nodes a proof may be asked for (more get 400)."""
    if (
        isinstance(max_seconds, bool)
        or not isinstance(max_seconds, (int, float))
        or not MIN_SECONDS <= max_seconds <= MAX_SECONDS
    ):
        raise HingeError(
            f"the longest search must be from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds, not {max_seconds!r}"
        )
    check_prove_nodes(max_prove_nodes)
    app = FastAPI(
        title="hinge-fast",
        version=__version__,
        description="Play and analyse Hinge. Each game has an id (the page keeps it in its address). Errors answer "
        '{"error": "..."} with the project\'s message; a rejected request changes nothing.',
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(LocalGuard, hosts=tuple(hosts), token=token)
    store = GameStore() if max_games is None else GameStore(max_games)
    pool = SearchPool(max_searches)  # searches and proofs alike
    app.state.store, app.state.pool = store, pool
    # the server stopping: every search and proof stops (engine moves play their best so
    # far, analyses end), so that every stream ends within moments; nothing new starts
    app.state.shutdown = pool.close
    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            add_game_links(default_openapi())
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented override
    static = resources.files("hinge_fast.web") / "static"

    @app.exception_handler(HingeError)
    async def hinge_error(request, exc: HingeError):
        if isinstance(exc, ServerStopping):  # the page then says the server is gone
            return JSONResponse({"error": str(exc), "server_stopping": True}, status_code=503)
        if isinstance(exc, PoolFull):
            return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "1"})
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.exception_handler(KeyError)
    async def no_game(request, exc: KeyError):
        return JSONResponse(
            {"error": f"no game {exc.args[0]!r}: start one with POST /api/games"}, status_code=404
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc: StarletteHTTPException):
        # The framework's own refusals (a body that is not JSON, a method a route does not
        # take) answer as every other error does: {"error": "..."} on one line.
        text = exc.detail if isinstance(exc.detail, str) else "malformed request"
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:
            # every method of the path, not only those of the first route that matched it
            allowed: set[str] = set()
            for route in app.router.routes:
                if route.matches(request.scope)[0] != Match.NONE:
                    allowed |= getattr(route, "methods", None) or set()
            if allowed:
                headers["Allow"] = ", ".join(sorted(allowed))
        return JSONResponse(
            {"error": text[:200].splitlines()[0] if text else "malformed request"},
            status_code=exc.status_code,
            headers=headers or None,
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
        return JSONResponse(
            {"error": f"{where}: {first.get('msg', 'malformed request')}"}, status_code=422
        )

    def game_of(game_id: str) -> Game:
        return store.get(game_id)

    @contextmanager
    def locked(game_id: str) -> Iterator[Game]:
        """The game ``game_id``, held under its lock for the block."""
        game = game_of(game_id)
        with game.lock:
            yield game

    def change(game_id: str, action) -> dict:
        with locked(game_id) as game:
            action(game)
            return _state(game)

    # ----- pages ---------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page():
        return (static / "index.html").read_text(encoding="utf-8")

    @app.get("/rules", response_class=HTMLResponse, include_in_schema=False)
    def rules(game: str | None = None):
        return rules_html(game)

    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    # ----- games ---------------------------------------------------------------------------
    @app.post("/api/games", response_model=GameState, responses=ERRORS, summary="Start a game")
    def new_game(body: NewGame):
        game = store.create(size=body.size, position=body.position, record=body.record)
        return _state(game)

    @app.get(
        "/api/games/{game_id}",
        response_model=GameState,
        responses=ERRORS,
        summary="The game as it stands",
    )
    def get_game(game_id: str):
        return change(
            game_id, lambda g: None
        )  # read under the game's lock, as every change is made

    @app.get(
        "/api/games/{game_id}/legal",
        response_model=list[LegalMove],
        responses=ERRORS,
        summary="The legal moves",
    )
    def legal(game_id: str):
        with locked(game_id) as game:
            return game.legal_moves()

    def changing(name: str, path: str, summary: str, body_type, action) -> None:
        """A POST route ``/api/games/{game_id}/PATH`` named ``name`` that changes a game
        by ``action(game, body)`` (``body``: a ``body_type`` request, or None) under its
        lock and answers with the game's new state."""

        def without_body(game_id: str):
            return change(game_id, lambda g: action(g, None))

        def with_body(game_id: str, body):
            return change(game_id, lambda g: action(g, body))

        with_body.__annotations__ = {"game_id": str, "body": body_type}
        endpoint = without_body if body_type is None else with_body
        endpoint.__name__ = endpoint.__qualname__ = name
        app.post(
            f"/api/games/{{game_id}}/{path}",
            response_model=GameState,
            responses=ERRORS,
            summary=summary,
        )(endpoint)

    for name, path, summary, body_type, action in (
        ("play", "moves", "Play a move", MoveRequest, lambda g, b: g.play(b.move)),
        ("undo", "undo", "Take back the last move", None, lambda g, _: g.undo()),
        ("redo", "redo", "Play the move taken back again", None, lambda g, _: g.redo_move()),
        (
            "resign",
            "resign",
            "A side resigns (undo takes it back)",
            ResignRequest,
            lambda g, b: g.resign(b.side),
        ),
        ("goto", "goto", "Go to a ply of the game", GotoRequest, lambda g, b: g.goto(b.ply)),
        ("new", "new", "A new game on the empty board", SizeRequest, lambda g, b: g.new(b.size)),
        (
            "load_position",
            "position",
            "Load a position string",
            PositionRequest,
            lambda g, b: g.load_position(b.position),
        ),
        (
            "load_record",
            "record",
            "Load a game record",
            RecordRequest,
            lambda g, b: g.load_record(b.record),
        ),
        (
            "edit",
            "edit",
            "Position editor: set or empty one cell, or change the side to move",
            EditRequest,
            lambda g, b: g.edit(b.cell, b.piece, b.turn),
        ),
    ):
        changing(name, path, summary, body_type, action)

    @app.get(
        "/api/games/{game_id}/record",
        response_class=PlainTextResponse,
        responses=JSON_ERRORS,
        summary="The game as a record (docs/usage.md)",
    )
    def get_record(game_id: str):
        with locked(game_id) as game:
            return PlainTextResponse(
                game.record_text(), headers={"Content-Disposition": 'inline; filename="game.hgn"'}
            )

    # ----- searches --------------------------------------------------------------------------
    def start_search(game: Game, body: SearchBody, analysis: bool):
        if not isinstance(body.top, int) or not 1 <= body.top <= 50:
            raise HingeError(f"top must be from 1 to 50 moves, not {body.top}")
        request = SearchRequest(body.engine, body.time, body.top if analysis else 1, max_seconds)
        if body.prove:
            check_prove_nodes(body.prove, max_prove_nodes)
        with game.lock:
            if game.outcome() is not None:
                raise HingeError(f"nothing to search: the game is over ({game.over_text()})")
            if game.search is not None:
                raise HingeError("this game is already searching: stop that search first")
            run = pool.acquire(request)
            game.search = run
            return run, game.board.copy(), game.version

    def stream(game: Game, run, board, version, body: SearchBody, play_it: bool, found, ends):
        """Server-sent events of a search: ``start`` (threats), ``stage`` (``preparing``
        the engine for the board's side, which takes a while the first time, then
        ``searching``), ``progress`` (about every PROGRESS_EVERY s), then ``done`` (the result, and for an engine move the
        game after it) or ``error``. The search starts at once in its own thread,
        which alone gives its slot back, however the stream goes (read or not)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        outlines = [
            (t.group, COLORS["outline_attack"] if t.to_move else COLORS["outline"]) for t in found
        ]

        def put(item):
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the server closed its loop: no one is listening
                pass

        proving = not play_it and body.prove > 0

        def worker():
            # The search's slot is given back before its last message is sent, so that
            # a page starting the next search on hearing "done" finds the game free.
            # An analysis's proof runs first, in the same thread and slot: a proof counts
            # as a search.
            message = ("error", "search ended without a result")
            try:
                if proving:
                    run_proof()
                result = run.run(
                    board, lambda r: put(("progress", r)), lambda stage: put(("stage", stage))
                )
                state = None
                if play_it and result.move is not None:
                    with game.lock:
                        if game.version == version:
                            game.search = None
                            game.play(str(result.move))
                            state = _state(game)
                message = ("done", (result, state))
            except HingeError as e:
                message = ("error", str(e))
            except Exception as e:  # a bug: report it to the page rather than hang the stream
                message = ("error", f"search failed: {type(e).__name__}: {e}")
            finally:
                free(game, run)
                put(message)

        def run_proof():
            if run.stopped:  # stopped already: no proof, the analysis ends at once
                return
            try:
                prover = new_prover()
                prover.position_key(
                    board
                )  # made ready for the side first: the long part, which no stop cuts short
                run.also_stop(prover)
                if run.stopped:
                    return
                proof = prove_json(board, body.prove, prover)
                if not run.stopped:  # a stopped analysis drops its proof
                    put(("proof", proof))
            except Exception as e:  # the analysis goes on without its proof
                put(("proof", {"error": f"proof failed: {e}".splitlines()[0]}))

        threading.Thread(target=worker, name=f"search-{game.id}", daemon=True).start()

        async def events():
            nonlocal proving
            try:
                yield _sse(
                    "start",
                    {
                        "position": board.fen(),
                        "engine": body.engine,
                        "time": body.time,
                        "threats": [t.to_dict() for t in found],
                        "eliminations": [e.to_dict() for e in ends],
                    },
                )
                last_sent = 0.0
                held = None  # the "done" event, held until the proof is sent
                while True:
                    kind, payload = await queue.get()
                    if kind == "proof":
                        proving = False
                        yield _sse("proof", payload)
                        if held is not None:
                            yield held
                            return
                    elif kind == "stage":
                        yield _sse("stage", {"stage": payload, "size": board.size})
                    elif kind == "progress":
                        if not queue.empty() or time.monotonic() - last_sent < PROGRESS_EVERY:
                            continue  # a newer one is waiting, or the page had one just now
                        last_sent = time.monotonic()
                        # the board picture is drawn off the event loop
                        data = await run_in_threadpool(
                            _result_json, board, payload, body.top, outlines, False
                        )
                        yield _sse("progress", data)
                    elif kind == "done":
                        result, state = payload
                        data = await run_in_threadpool(
                            _result_json, board, result, body.top, outlines, True
                        )
                        data["stopped"] = run.stopped
                        data["played"] = None if state is None else str(result.move)
                        data["state"] = state
                        data["server_stopping"] = (
                            pool.closed
                        )  # stopped because the server is stopping
                        held = _sse("done", data)
                        if (
                            not proving or run.stopped
                        ):  # a stopped analysis ends at once, its proof dropped
                            yield held
                            return
                    else:
                        yield _sse("error", {"error": payload})
                        return
            except (
                Exception
            ) as e:  # a bug while streaming: stop the search (its thread frees the slot), say so
                run.stop()
                yield _sse(
                    "error", {"error": f"search failed: {type(e).__name__}: {e}".splitlines()[0]}
                )
            finally:
                if not play_it:
                    run.stop()  # the page left or the stream ended: an analysis has no one to tell

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    def free(game: Game, run) -> None:
        """Give a search's slot back and leave its game free to search again."""
        with game.lock:
            if game.search is run:
                game.search = None
        pool.release(run)

    async def search(game_id: str, body: SearchBody, analysis: bool):
        """Start a search of the game's position and stream it; an engine move (not an
        analysis) plays the move found. The blocking work (the game's lock, the
        threats) runs in a worker thread, never on the event loop."""
        game = game_of(game_id)
        run, board, version = await run_in_threadpool(start_search, game, body, analysis)
        try:
            found, ends = await run_in_threadpool(lambda: (threats(board), eliminations(board)))
            return stream(game, run, board, version, body, not analysis, found, ends)
        except BaseException:
            run.stop()
            free(game, run)
            raise

    stream_doc = {
        200: {
            "content": {"text/event-stream": {}},
            "description": "server-sent events: start, stage (preparing, then searching), "
            "progress (repeated), then done or error",
        },
        **ERRORS,
        503: {"model": Error, "description": "every search slot is taken"},
    }

    def streamed(action: str, summary: str):
        """The route of a game's search streamed as server-sent events (``stream``)."""
        return app.post(
            f"/api/games/{{game_id}}/{action}",
            responses=stream_doc,
            response_class=StreamingResponse,
            summary=summary,
        )

    @streamed("analysis", "Analyse the position, streamed (stop it with /stop)")
    async def analysis(game_id: str, body: SearchBody):
        return await search(game_id, body, analysis=True)

    @streamed(
        "engine-move",
        "The engine thinks and plays, streamed (/stop makes it play its best move so far)",
    )
    async def engine_move(game_id: str, body: SearchBody):
        return await search(game_id, body, analysis=False)

    @app.post(
        "/api/games/{game_id}/stop",
        response_model=GameState,
        responses=ERRORS,
        summary="Stop this game's search (an engine move then plays its best so far)",
    )
    def stop(game_id: str):
        with locked(game_id) as game:
            run = game.search
            if run is not None:
                run.stop()
                if run not in pool.running:  # its slot is back already: nothing will clear it
                    game.search = None
            return _state(game)

    @app.post(
        "/api/games/{game_id}/prove",
        response_model=ProofAnswer,
        responses={
            **ERRORS,
            503: {
                "model": Error,
                "description": "every search slot is taken (a proof counts as a search)",
            },
        },
        summary="Prove which side wins the position, within a node budget (df-pn)",
    )
    def prove(game_id: str, body: ProveBody):
        nodes = check_prove_nodes(body.nodes, max_prove_nodes)
        with locked(game_id) as game:
            board = game.board.copy()
        if board.outcome() is not None:
            raise HingeError("nothing to prove: the game is over")
        run = pool.acquire(None)
        try:
            prover = new_prover()
            run.also_stop(prover)
            return prove_json(board, nodes, prover)
        finally:
            pool.release(run)

    @app.get(
        "/api/puzzles",
        response_model=list[PuzzleInfo],
        responses={403: {"model": Error, "description": GUARD_ERRORS[403]}},
        summary="The shipped puzzles: positions whose side to move wins by force",
    )
    def puzzles():
        return [
            {
                "number": i,
                "size": p.size,
                **{k: v for k, v in p.to_dict().items() if k in PuzzleInfo.model_fields},
            }
            for i, p in enumerate(load_puzzles(), 1)
        ]

    @app.get(
        "/api/engines",
        summary="The engines and the limits of this server",
        responses={403: {"model": Error, "description": GUARD_ERRORS[403]}},
    )
    def engines():
        return {
            "engines": [
                {"name": name, "description": engine_spec(name).description}
                for name in ENGINE_NAMES
            ],
            "max_seconds": max_seconds,
            "max_prove_nodes": max_prove_nodes,
            "max_searches": pool.limit,
            "running": len(pool.running),
        }

    return app
