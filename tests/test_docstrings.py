"""The ``>>>`` examples in the package's docstrings run, in every module, so they cannot
drift from what the code does (tests/test_docs.py does the same for README and docs/)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import hinge_fast

MODULES = sorted(m.name for m in pkgutil.walk_packages(hinge_fast.__path__, "hinge_fast."))


def test_the_walk_finds_the_package():
    assert {
        "hinge_fast.board",
        "hinge_fast.search.alphabeta",
        "hinge_fast.games.match",
        "hinge_fast.web.games",
    } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, (
        f"{result.failed} of {result.attempted} examples in {name} failed (run: python -m doctest -v)"
    )
