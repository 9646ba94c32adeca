"""What the local server lets in: checked before any route runs (an ASGI middleware).

A server on 127.0.0.1 is not reachable from other machines, but every page the user
opens in a browser can send it requests. Four checks keep those pages out:

* **Host** must name this machine (``localhost``, ``127.0.0.1``, ``[::1]``) or an
  address the server was told to listen on: a page that rebinds its own domain name to
  127.0.0.1 (DNS rebinding) sends its own name as Host, and gets 400.
* **Origin**, when a request that changes something carries one, must be the server's
  own origin, ``scheme://host:port`` as the request addressed it (or the browser says
  ``Sec-Fetch-Site: same-origin``): a form or ``fetch`` from another site, or from a
  page on another port of this machine, gets 403.
* **Token**: with a token (``hinge-fast serve`` makes one each run and prints it in the
  page's address), the page and the API answer only to a request that carries it, as
  the ``hinge_fast_token`` cookie (set, SameSite=Strict, when the page is opened with
  ``?token=...``), an ``Authorization: Bearer`` header or an ``X-Hinge-Token`` header;
  others get 403.
* **Body**: a request that changes something sends JSON (``Content-Type:
  application/json``; 415 otherwise: no cross-site form can send that without asking
  first) of at most ``MAX_BODY`` bytes (413 otherwise, chunked bodies included, read no
  further than the limit).

Every refusal answers ``{"error": "..."}`` with one line saying why, and changes nothing;
a page asked for without the token (an old tab after the server was started again)
gets a short page saying which address to open instead.

Every answer, refusals included, carries ``SECURITY_HEADERS``: a strict Content
Security Policy (the page's scripts and styles come from its own files only, no other
site may frame it), ``nosniff`` and no referrer.
"""

from __future__ import annotations

import hmac
import json
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

#: The largest request body accepted, in bytes: a game record of the most characters a
#: text field takes (``games.MAX_TEXT``), with room for JSON escapes.
MAX_BODY = 512 * 1024
COOKIE = "hinge_fast_token"
#: The answers of the checks to a request they refuse, as the API's schema documents them
#: (the Host check's 400 shares its code with the routes' own 400).
GUARD_ERRORS = {
    403: "a request from another site (its Origin), or without the access token the server asks for",
    413: f"a request body larger than {MAX_BODY:,} bytes",
    415: "a request body that is not application/json",
}
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
#: The page a browser gets instead of the board without the token.
NO_TOKEN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hinge: open the server's address</title><link rel="stylesheet" href="/static/style.css"><link rel="icon" href="data:,">
</head><body class="rules-page"><main class="rules" id="no-token">
<h1>Open the address the server printed</h1>
<p>This page needs the access token of the hinge-fast server that is running now. The server
makes a new token each time it starts, so a tab opened before it was restarted no longer works.</p>
<p>Open the address that <code>hinge-fast serve</code> printed in its terminal: it ends in
<code>?token=...</code>. Games of an earlier run of the server are gone; games of this run open from their links.</p>
</main></body></html>
"""
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Paths open without the token: nothing there depends on or changes a game.
OPEN_PREFIXES = ("/static/", "/rules", "/favicon")


def host_name(value: str) -> str:
    """The host of a ``Host`` header value (``[::1]:8000`` -> ``::1``), lower case.

    >>> host_name("LocalHost:8000"), host_name("[::1]:80"), host_name("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class LocalGuard:
    """The checks of the module docstring around an ASGI ``app``. ``hosts``: host names
    allowed besides this machine's; ``token``: the access token (None: no token)."""

    def __init__(self, app, hosts=(), token: str | None = None):
        self.app = app
        self.hosts = LOCAL_HOSTS | {host_name(h) for h in hosts if h}
        self.token = token

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        send = _with_security_headers(send)
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        method = scope.get("method", "GET").upper()
        path = scope.get("path", "/")
        refusal = self._refusal(headers, method, path, scope)
        if refusal is not None:
            if (
                refusal[0] == 403
                and method == "GET"
                and path == "/"
                and "text/html" in headers.get("accept", "")
            ):
                return await _answer_page(send, 403, NO_TOKEN_PAGE)
            return await _answer(send, *refusal)
        set_cookie = self.token is not None and self._query_token(scope) == self.token
        if method not in SAFE_METHODS:
            body, refusal = await _read_body(receive, headers)
            if refusal is not None:
                return await _answer(send, *refusal)
            receive = _replay(body, receive)
        if set_cookie:
            send = _with_cookie(send, self.token)
        return await self.app(scope, receive, send)

    def _refusal(self, headers, method, path, scope):
        if host_name(headers.get("host", "")) not in self.hosts:
            return (
                400,
                "this server answers only requests addressed to this machine (the Host header names another)",
            )
        origin = headers.get("origin")
        if (
            method not in SAFE_METHODS
            and origin is not None
            and not _same_origin(origin, headers, scope)
        ):
            return 403, f"requests from other sites are refused (Origin {origin[:80]!r})"
        if (
            self.token is not None
            and not path.startswith(OPEN_PREFIXES)
            and not self._has_token(headers, scope)
        ):
            return (
                403,
                "no access token: open the address that 'hinge-fast serve' printed (it ends in ?token=...)",
            )
        if method not in SAFE_METHODS and _declared_length(headers) != 0:
            media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                return (
                    415,
                    f"send the request body as application/json, not {media or 'no content type'}",
                )
        return None

    def _query_token(self, scope) -> str | None:
        values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
        return values[0] if values else None

    def _has_token(self, headers, scope) -> bool:
        token = self.token
        if token is None:
            return False
        offered = [self._query_token(scope), headers.get("x-hinge-token")]
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            offered.append(auth[7:].strip())
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # noqa: BLE001  (a malformed cookie header is no token)
            pass
        if COOKIE in cookie:
            offered.append(cookie[COOKIE].value)
        return any(
            value is not None and hmac.compare_digest(value.encode(), token.encode())
            for value in offered
        )


DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_tuple(scheme: str, netloc: str):
    """(scheme, host, port) of ``scheme://netloc``, the port filled in; None if malformed."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return (
        parts.scheme,
        parts.hostname.lower(),
        port if port is not None else DEFAULT_PORTS[parts.scheme],
    )


def _same_origin(origin: str, headers, scope) -> bool:
    """Whether ``origin`` is the server's own: the scheme of the connection and the
    host and port the request was addressed to (its Host header, checked already), or
    the browser says so itself."""
    if headers.get("sec-fetch-site", "").strip().lower() == "same-origin":
        return True
    scheme, _, rest = origin.strip().partition("://")
    if not rest or "/" in rest:
        return False
    mine = _origin_tuple(scope.get("scheme", "http"), headers.get("host", ""))
    return mine is not None and _origin_tuple(scheme.lower(), rest) == mine


def _declared_length(headers) -> int | None:
    """The body length a request declares (None: chunked or not said)."""
    text = headers.get("content-length")
    if text is None:
        return None if "chunked" in headers.get("transfer-encoding", "").lower() else 0
    return int(text) if text.strip().isdigit() else None


async def _read_body(receive, headers):
    """``(body, refusal)``: the whole body, read no further than ``MAX_BODY`` bytes."""
    declared = _declared_length(headers)
    too_big = (413, f"the request body is larger than {MAX_BODY:,} bytes, the most accepted")
    if declared is not None and declared > MAX_BODY:
        return b"", too_big
    parts, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"", (400, "the client went away before sending the whole request")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return b"", too_big
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts), None


def _replay(body: bytes, receive):
    """A ``receive`` that gives the body read already, then the client's later messages
    (a disconnect ends a stream)."""
    sent = False

    async def replay():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _with_cookie(send, token: str):
    async def sending(message):
        if message["type"] == "http.response.start":
            cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
            message = dict(
                message,
                headers=list(message.get("headers", [])) + [(b"set-cookie", cookie.encode())],
            )
        await send(message)

    return sending


def _with_security_headers(send):
    async def sending(message):
        if message["type"] == "http.response.start":
            have = {k.lower() for k, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in have]
            message = dict(message, headers=list(message.get("headers", [])) + extra)
        await send(message)

    return sending


async def _answer_page(send, status: int, html: str) -> None:
    await _respond(
        send, status, html.encode(), b"text/html; charset=utf-8", [(b"cache-control", b"no-store")]
    )


async def _answer(send, status: int, text: str) -> None:
    await _respond(send, status, json.dumps({"error": text}).encode(), b"application/json")


async def _respond(send, status: int, body: bytes, content_type: bytes, headers=()) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["LocalGuard", "MAX_BODY", "COOKIE", "GUARD_ERRORS", "SECURITY_HEADERS", "host_name"]
