"""The kernels' compiler: ``njit``, numba's decorator with two differences.

* **One compiled version per argument type.** Numba compiles a kernel called from
  another kernel once per *value* of each constant argument (a direction ``j`` from 0
  to 5, an end set ``k`` from 0 to 12, a flag): 65 versions of one helper, each a
  compile and a cache file. Here a constant argument is typed as its plain type, so all
  calls share one version; LLVM still folds the constant into each call where it
  inlines the kernel, so a direction's shift stays one instruction.
* **The project's own cache folder.** Every kernel module imports ``njit`` from here,
  so that before the first kernel is declared numba is told where hinge-fast's kernels
  live on disk:

* the folder is ``HINGE_FAST_CACHE_DIR``, else ``NUMBA_CACHE_DIR``, else
  ``hinge-fast/numba`` in the user's cache folder (``XDG_CACHE_HOME`` or
  ``~/.cache``), read when a kernel is declared, so it holds whatever was imported
  first; other packages' numba caches are left where numba puts them;
* never inside the installed package: pip leaves such a folder behind when it replaces
  an install;
* a cached kernel is valid for today's sources and tables only. Numba checks a
  kernel's own source file, but a kernel that calls a changed kernel of another file,
  or reads a changed global table, would stay stale; so every kernel source file and
  the tables go into one stamp (``BUILD_STAMP``), and a change to any of them makes
  every cached kernel of the package miss.

A cache built on one machine serves another of the same CPU: numba compiles for the
host CPU unless ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` say otherwise
(docs/performance.md, "The kernel cache").
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from . import QUICK_START


def _import_numba_without_blas_probe() -> None:
    """Import numba's array maths (which every kernel load needs) with its probe for a
    BLAS answered "none" at once: the probe imports scipy.linalg, half a second. The
    kernels call no BLAS. Only in the command line's own process (``QUICK_START``), where
    no other numba code could want one."""
    probe = "scipy.linalg.cython_blas"
    if "numba.np.arraymath" in sys.modules or probe in sys.modules:
        return
    sys.modules[probe] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[probe]


if QUICK_START:
    _import_numba_without_blas_probe()

from numba.core import caching, types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

from .tables import TABLES_DIGEST  # noqa: E402

PACKAGE = Path(__file__).resolve().parent.parent


def kernel_cache_dir() -> Path:
    """Where the compiled kernels are cached: ``HINGE_FAST_CACHE_DIR``, else
    ``NUMBA_CACHE_DIR``, else ``hinge-fast/numba`` in the user's cache folder."""
    chosen = os.environ.get("HINGE_FAST_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hinge-fast" / "numba"


def _build_stamp() -> str:
    """Digest of the tables and of every source file of the package holding a kernel
    (and of ``movecode.py``, whose functions ``codes.py`` compiles)."""
    h = hashlib.blake2b(str(int(TABLES_DIGEST)).encode(), digest_size=16)
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if (
            any(mark in text for mark in (b"@njit", b"@overload", b"@intrinsic"))
            or path.name == "movecode.py"
        ):
            h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + text)
    return h.hexdigest()


BUILD_STAMP = _build_stamp()


class KernelDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, typing the arguments of a call from another kernel by
    their plain types (``Literal[int](3)`` as ``int64``): one compiled version per
    argument type, whatever constants the callers pass."""

    def get_call_template(self, args, kws):
        return super().get_call_template(
            tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()}
        )

    def enable_caching(self):
        try:
            self._cache = KernelCache(self.py_func)
        except RuntimeError:
            pass  # no cache folder can be written: the kernel compiles in every run


def njit(function=None, *, cache=False, **options):
    """``numba.njit`` (nopython mode) with ``KernelDispatcher``; ``cache=True`` caches
    to ``kernel_cache_dir()``. Use as ``@njit(cache=True)`` or ``@njit``."""
    options["nopython"] = True

    def declare(py_func):
        dispatcher = KernelDispatcher(py_func=py_func, locals={}, targetoptions=options)
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return declare if function is None else declare(function)


class KernelCacheLocator(caching.UserProvidedCacheLocator):
    """numba's cache locator for the package's own kernels (and for no other file):
    the folder of ``kernel_cache_dir()``, stamped with ``BUILD_STAMP``."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(kernel_cache_dir() / self.get_suitable_cache_subpath(py_file))

    def get_source_stamp(self):
        return BUILD_STAMP

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(PACKAGE):
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None  # a folder we cannot write: the kernel compiles in every run
        return self


def _index_entries(index: Path) -> set[str] | None:
    """The data files an index of numba's cache names, if it holds kernels of this build
    (this numba, ``BUILD_STAMP``); None for an index of another build or unreadable."""
    import pickle

    import numba

    try:
        with open(index, "rb") as f:
            if pickle.load(f) != numba.__version__:
                return None
            stamp, overloads = pickle.loads(f.read())
    except Exception:  # another numba's or a damaged file: the cache ignores it too
        return None
    if stamp != BUILD_STAMP:
        return None
    return set(overloads.values())


def cache_folders() -> list[Path]:
    """The folders of ``kernel_cache_dir()`` that hold this install's kernels: one per
    package folder holding a kernel source file (numba names a folder after its path)."""
    package = Path(os.path.abspath(__file__)).parent.parent  # as numba names the sources
    folders = {path.parent for path in package.rglob("*.py")}
    root = kernel_cache_dir()
    return sorted(
        root / caching.UserProvidedCacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))
        for folder in folders
    )


def prune_stale_kernels() -> tuple[int, int]:
    """Delete the cached kernels of other builds of this install (sources or numba
    changed since they were compiled), which numba never loads again but never deletes:
    each upgrade would otherwise leave its kernels behind. Returns (files, bytes) removed.

    Only this install's folders are touched (other installs and other packages' numba
    caches are left alone). Safe beside processes of this build compiling now: numba
    writes a kernel's index before its data file, and an index is read again right
    before the files it does not name are deleted."""
    files = size = 0
    for folder in cache_folders():
        if not folder.is_dir():
            continue
        data_of: dict[str, list[Path]] = {}
        for data in folder.glob("*.nbc"):
            data_of.setdefault(data.name.rsplit(".", 2)[0], []).append(data)
        for index in folder.glob("*.nbi"):
            prefix = index.name[: -len(".nbi")]
            named = _index_entries(index)
            doomed = [d for d in data_of.get(prefix, ()) if named is None or d.name not in named]
            if doomed or named is None:
                named = _index_entries(index)  # again: another process may have saved
                for data in doomed:
                    if named is None or data.name not in named:
                        files, size = _remove(data, files, size)
                if named is None:  # last, so that no data file is left without an index
                    files, size = _remove(index, files, size)
    return files, size


def _remove(path: Path, files: int, size: int) -> tuple[int, int]:
    """Delete ``path`` if it is still there and may be deleted (a shared cache may be
    read-only); the running totals with it counted."""
    try:
        length = path.stat().st_size
        path.unlink()
    except OSError:
        return files, size
    return files + 1, size + length


class KernelCacheImpl(caching.CompileResultCacheImpl):
    """numba's cache of compiled kernels, found by ``KernelCacheLocator`` alone."""

    _locator_classes = [KernelCacheLocator]


class KernelCache(caching.FunctionCache):
    """The on-disk cache of one kernel (``KernelDispatcher.enable_caching``)."""

    _impl_class = KernelCacheImpl
