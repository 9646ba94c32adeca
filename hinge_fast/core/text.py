"""Counts, rates and install hints as every command shows them to people: whole counts
with thousands separators and the word in the right number.

Scores have their own module (``search/score.py``). Lines meant for programs (a
``perft`` total alone, the engine protocol) keep plain numbers.

    >>> count(1, "round"), count(2_000, "game"), count(0, "row"), count(1, "ply", "plies")
    ('1 round', '2,000 games', '0 rows', '1 ply')
    >>> number(181272), rate(61679.4, "games")
    ('181,272', '61,679 games/s')
"""

from __future__ import annotations


def number(n) -> str:
    """A whole count with thousands separators: ``181,272``."""
    return f"{int(n):,}"


def count(n, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, the word plural unless n is 1 (``plural``: a plural other
    than ``word + "s"``)."""
    return f"{number(n)} {word if n == 1 else (plural or word + 's')}"


def rate(per_second: float, unit: str) -> str:
    """A rate per second, whole, with thousands separators: ``61,679 games/s``."""
    return f"{per_second:,.0f} {unit}/s"


def seconds_text(value: float) -> str:
    """A number of seconds as a person writes it: whole ones with thousands separators,
    others as short as they go.

    >>> seconds_text(2592000.0), seconds_text(0.5), seconds_text(86400)
    ('2,592,000', '0.5', '86,400')
    """
    if float(value).is_integer():
        return number(value)
    return f"{value:g}"


def install_hint(extra: str) -> str:
    """How to install an optional extra, in commands that work: from the source folder
    or from the wheel.

    >>> install_hint("web")
    "pip install '.[web]' in the hinge-fast source folder, or pip install 'FILE.whl[web]' with its wheel"
    """
    return (
        f"pip install '.[{extra}]' in the hinge-fast source folder, "
        f"or pip install 'FILE.whl[{extra}]' with its wheel"
    )
