"""``serve``: the local web app (hinge_fast.web) on uvicorn."""

from __future__ import annotations

import os
import shutil
import sys

from ..core.text import install_hint
from . import (
    int_option,
)

LOCALHOST = "127.0.0.1"


def register(subparsers):
    p = subparsers.add_parser(
        "serve",
        help="play and analyse in the browser (a local web app)",
        description="Start the web app: a board to click, games against the engine, live analysis, "
        "position strings and records in and out, a position editor and the rules (docs/web.md). "
        "Each browser tab is its own game. Listens on 127.0.0.1 only unless --host says otherwise; "
        "the address it prints carries a new access token each run, which the page and the API ask for. "
        "Needs the web extra: " + install_hint("web") + ".",
        epilog="Example: hinge-fast serve --port 8000 --open",
    )
    int_option(
        p,
        "--port",
        0,
        65535,
        name="PORT",
        default=8000,
        help="TCP port (default 8000; 0: any free port)",
    )
    p.add_argument(
        "--host",
        default=LOCALHOST,
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name or address the server answers to besides this machine's and --host's "
        "(for --host 0.0.0.0: the name others reach it by); repeatable",
    )
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    int_option(
        p,
        "--searches",
        1,
        64,
        name="SEARCHES",
        default=2,
        help="searches at once across all tabs (default 2; more are refused with a message)",
    )
    p.set_defaults(run=run_serve)


def run_serve(args) -> int:
    from ..errors import HingeError

    try:
        import uvicorn  # noqa: F401 (the web extra is installed)

        from ..web import create_app
    except ImportError as e:
        raise HingeError(
            f"serve needs the web extra ({e.name} is missing): {install_hint('web')}"
        ) from None
    import secrets

    if args.host != LOCALHOST:
        print(
            f"warning: listening on {args.host}: anyone who can reach this address and has the address "
            "printed below (with its token) can use the app; the page is served over plain HTTP, so the token, "
            "the games and every move travel in clear across the network",
            file=sys.stderr,
        )
    token = secrets.token_urlsafe(24)
    hosts = tuple(args.allow_host) + (() if args.host in ("0.0.0.0", "::") else (args.host,))
    app = create_app(max_searches=args.searches, hosts=hosts, token=token)
    server = make_server(app, host=args.host, port=args.port)
    url_host = "localhost" if args.host in (LOCALHOST, "0.0.0.0", "::") else args.host
    opened = []

    def announce():
        port = server.servers[0].sockets[0].getsockname()[1] if server.servers else args.port
        url = f"http://{url_host}:{port}/?token={token}"
        print(f"hinge-fast serving on {url} (Ctrl-C to stop)", flush=True)
        if args.open:
            opened.append(open_in_browser(url))

    try:
        _run_with_announcement(server, announce)
    finally:
        for folder in opened:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


#: Seconds the server waits, once asked to stop, for open connections (an analysis
#: stream) to end; searches are stopped at once, so they end well before.
SHUTDOWN_SECONDS = 2


def make_server(app, host: str, port: int):
    """The uvicorn server of ``app`` (``create_app``): asked to stop (Ctrl-C), it first
    stops every search and proof of the app, so that open streams end at once, and waits
    at most SHUTDOWN_SECONDS for connections to close."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            app.state.shutdown()
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets=None):
            app.state.shutdown()  # however the stop was asked for (should_exit too)
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_SECONDS
    )
    return Server(config)


def open_in_browser(url: str) -> str:
    """Open ``url`` in the default browser through a redirect file readable by this
    user only (mode 0600, in a folder of mode 0700), so that the token never appears on
    a browser's command line, which other users of the machine can read. The folder
    to remove when the server stops."""
    import tempfile
    import webbrowser
    from html import escape
    from pathlib import Path

    from ..core.atomic import write_atomic

    folder = tempfile.mkdtemp(prefix="hinge-fast-")  # mode 0700: only this user enters it
    path = Path(folder) / "open.html"
    write_atomic(path, REDIRECT_PAGE.format(url=escape(url, quote=True)))
    os.chmod(path, 0o600)
    webbrowser.open(path.as_uri())
    return folder


REDIRECT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={url}">
<title>Opening hinge-fast</title></head>
<body><p>Opening <a href="{url}">the hinge-fast page</a>...</p></body></html>
"""


def _run_with_announcement(server, announce):
    """uvicorn's ``Server.run`` (its own Ctrl-C handling included), calling
    ``announce()`` from a helper thread once the server listens: the port is known
    then, even for --port 0."""
    import threading
    import time

    def wait_then_announce():
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            announce()

    threading.Thread(target=wait_then_announce, daemon=True).start()
    try:
        server.run()
    except SystemExit:  # uvicorn exits this way when it cannot bind
        pass
    if not server.started:
        from ..errors import HingeError

        raise HingeError(
            f"cannot listen on {server.config.host}:{server.config.port} (in use, or not an address here)"
        )
