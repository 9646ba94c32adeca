"""Reading the project's input files (books, puzzles, game records, proofs) and writing its output files:
bounded in size, UTF-8, written whole or not at all, and every failure one HingeError line naming the file.

    >>> read_text_file("no/such/file.txt", "book", 2**20)
    Traceback (most recent call last):
    ...
    hinge_fast.errors.HingeError: book no/such/file.txt does not exist
"""

from __future__ import annotations

import contextlib
import os

from ..core.atomic import write_atomic
from ..errors import HingeError


def read_text_file(path, what: str, max_bytes: int) -> str:
    """The text of the UTF-8 file ``path``, refused (HingeError "WHAT PATH ...") when it
    is missing, a folder, unreadable, not UTF-8 or over ``max_bytes``."""
    try:
        if os.path.getsize(path) > max_bytes:
            raise HingeError(f"{what} {path} is over {max_bytes >> 20} MB")
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise HingeError(f"{what} {path} does not exist") from None
    except IsADirectoryError:
        raise HingeError(f"{what} {path} is a folder, not a file") from None
    except OSError as e:
        raise HingeError(f"cannot read {what} {path}: {e.strerror or e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise HingeError(f"{what} {path} is not UTF-8 text") from None


@contextlib.contextmanager
def reading(what: str):
    """Within it, a MemoryError or RecursionError (an input too large, or nested too
    deeply, for the memory and stack there are) is a one-line HingeError naming
    ``what``, as any other bad input is."""
    try:
        yield
    except MemoryError:
        raise HingeError(f"{what} is too large to read in the memory available") from None
    except RecursionError:
        raise HingeError(f"{what} is nested too deeply to read") from None


def write_text_file(path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8, replacing the file whole: ``core/atomic.py``);
    HingeError "cannot write PATH: ..." if it cannot be written (the old file is then
    left as it was)."""
    write_atomic(path, text)
