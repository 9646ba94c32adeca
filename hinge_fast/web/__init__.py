"""The local web app: a board to click, a game against the engine, live analysis.

    >>> from hinge_fast.web import create_app
    >>> app = create_app(max_searches=2)
    >>> sorted(r.path for r in app.routes if r.path.startswith("/api/games/{game_id}/m"))
    ['/api/games/{game_id}/moves']

``create_app`` builds the FastAPI application (routes in ``app.py``, the games the
tabs play in ``games.py``, the searches in ``engine.py``); ``hinge-fast serve`` runs
it with uvicorn. The page itself is plain HTML, JavaScript and CSS under ``static/``.
This layer holds no game logic: it calls ``hinge_fast.board``, ``hinge_fast.search``
and the domain packages below it (``analysis``, ``records``, ``solving``). Docs:
docs/web.md.
"""

from .app import create_app

__all__ = ["create_app"]
