"""The rules page of the app: docs/rules.md, packaged as ``static/rules/rules.md``
with its pictures beside it (``python -m scripts.make_rule_pictures`` writes both
copies; a test checks they agree), rendered to HTML with markdown-it-py."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hinge: the rules</title><link rel="stylesheet" href="/static/style.css"></head>
<body class="rules-page"><nav><a href="/">&larr; back to the board</a></nav><main class="rules">
{body}
</main></body></html>
"""


@lru_cache(maxsize=1)
def rules_html() -> str:
    from markdown_it import MarkdownIt

    text = (resources.files("hinge_fast.web") / "static" / "rules" / "rules.md").read_text(encoding="utf-8")
    body = MarkdownIt("commonmark").enable("table").render(text)
    # pictures are referenced as rules/NAME.svg from docs/; the app serves them under /static
    body = re.sub(r'src="rules/', 'src="/static/rules/', body)
    return PAGE.format(body=body)
