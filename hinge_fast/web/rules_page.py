"""The rules page of the app: docs/rules.md, packaged as ``static/rules/rules.md``
with its pictures beside it (``python -m scripts.make_rule_pictures`` writes both
copies; a test checks they agree), rendered to HTML with markdown-it-py.

The page is for players: the remark on how the pictures are made (a command for the
project's developers) is left out, and its link back leads to the game it was opened
from (``/rules?game=ID``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from importlib import resources

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hinge: the rules</title><link rel="stylesheet" href="/static/style.css"><link rel="icon" href="data:,"></head>
<body class="rules-page"><nav><a id="back" href="{back}">&larr; Back to the board</a></nav><main class="rules">
{body}
</main><nav><a href="{back}">&larr; Back to the board</a></nav></body></html>
"""

#: A game id as the server makes them (``secrets.token_urlsafe``).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@lru_cache(maxsize=1)
def _body() -> str:
    from markdown_it import MarkdownIt

    text = (resources.files("hinge_fast.web") / "static" / "rules" / "rules.md").read_text(
        encoding="utf-8"
    )
    # a developer's command in parentheses, e.g. how the pictures are made: not for players
    text = re.sub(r" \(`python -m [^`]*`\)", "", text)
    body = MarkdownIt("commonmark").enable("table").render(text)
    # pictures are referenced as rules/NAME.svg from docs/; the app serves them under /static
    return re.sub(r'src="rules/', 'src="/static/rules/', body)


def rules_html(game: str | None = None) -> str:
    """The page; its link back opens ``game`` (an id; anything else: the board page)."""
    back = "/" if game is None or not GAME_ID.fullmatch(game) else f"/?game={game}"
    return PAGE.format(body=_body(), back=escape(back, quote=True))
