"""Writing a file whole or not at all: every file the program writes (books, puzzles,
proofs, game records, JSON, pictures, checkpoints, tablebases) goes through
``write_atomic``.

The data goes to a temporary file of its own in the same folder, which is flushed,
synced to disk and then renamed over the file; the folder is synced so that the rename
lasts. Whatever stops the write (a full disk, Ctrl-C, an error while producing the
data) leaves the previous file as it was and no temporary file behind.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "out.txt")
    >>> write_atomic(path, "one\\n")
    4
    >>> write_atomic(path, lambda f: f.write(b"two\\n"))
    4
    >>> open(path).read(), os.listdir(folder.name)
    ('two\\n', ['out.txt'])
    >>> folder.cleanup()
    >>> write_atomic("no/such/folder/out.txt", "no")
    Traceback (most recent call last):
    ...
    hinge_fast.errors.HingeError: cannot write no/such/folder/out.txt: No such file or directory
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from typing import BinaryIO

from ..errors import HingeError

PART_SUFFIX = ".part"


def _umask() -> int:
    """The process's umask, read without changing it where the system tells it."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def sync_folder(folder) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_all(f: BinaryIO, data) -> None:
    if callable(data):
        data(f)
    else:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def write_atomic(
    path, data: str | bytes | Callable[[BinaryIO], object], name: str | None = None
) -> int:
    """Replace the file ``path`` with ``data`` (text, written as UTF-8; bytes; or a
    function given the open binary file to write to) all at once; returns the file's
    size in bytes. HingeError "cannot write NAME: REASON" (NAME defaults to the path)
    if it cannot be written; the previous file is then left as it was. A path that is
    a device or a pipe (``/dev/stdout``) is written straight to: nothing there can be
    replaced."""
    path = os.fspath(path)
    label = path if name is None else name
    try:
        target = os.path.realpath(path)  # a symbolic link keeps pointing at the file it names
        try:
            mode = os.stat(target).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            with open(target, "wb") as f:
                _write_all(f, data)
                return f.tell() if f.seekable() else 0
        folder, base = os.path.split(target)
        folder = folder or "."
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{base}.", suffix=PART_SUFFIX)
    except OSError as e:
        raise HingeError(f"cannot write {label}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            # the permissions a file opened for writing would get (mkstemp's are 0600),
            # or those of the file replaced
            os.fchmod(
                f.fileno(),
                stat.S_IMODE(mode)
                if mode is not None and stat.S_ISREG(mode)
                else 0o666 & ~_umask(),
            )
            _write_all(f, data)
            f.flush()
            os.fsync(f.fileno())
            size = f.tell()
        os.replace(temporary, target)
    except (
        BaseException
    ) as e:  # a full disk, Ctrl-C, a failing producer: the old file stays, no part behind
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise HingeError(f"cannot write {label}: {e.strerror or e}") from None
        raise
    sync_folder(folder)
    return size
