"""Build the sdist and the wheel, check their metadata, install the wheel in a fresh
virtual environment and run it, as a user of the built package would.

    python -m scripts.check_build [--keep DIR]

Steps (each must succeed; the first failure is one line on stderr, exit status 2):

1. ``python -m build`` into a scratch folder (an isolated build, from the sources);
2. ``twine check --strict`` on both files (the README renders, the metadata is whole);
3. the wheel holds every package, the kernels' data and the web page, and no test or
   script;
4. a fresh virtual environment, the wheel installed into it with its dependencies;
5. from a folder outside the checkout: ``hinge-fast --version`` and
   ``python -m hinge_fast --version`` both print ``hinge-fast <version>``, the version of
   ``hinge_fast.__version__``.

``--keep DIR`` builds into DIR and leaves it there (the default folder is removed).

Example: ``python -m scripts.check_build --keep release`` (the files to publish are then
in release/dist).
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from hinge_fast.errors import HingeError
from scripts import run_script

ROOT = Path(__file__).resolve().parent.parent
#: Files every wheel must hold (the rest of the package is checked by its packages).
REQUIRED = (
    "hinge_fast/py.typed",
    "hinge_fast/web/static/index.html",
    "hinge_fast/data/books/",
    "hinge_fast/data/puzzles/",
)


def source_version() -> str:
    """``__version__`` of hinge_fast/version.py, read without importing it."""
    tree = ast.parse((ROOT / "hinge_fast" / "version.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets
        ):
            return str(ast.literal_eval(node.value))
    raise HingeError("hinge_fast/version.py sets no __version__")


def step(what: str, args: list[str], cwd: Path | None = None) -> str:
    print(f"check_build: {what}", flush=True)
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["(no output)"]
        raise HingeError(f"{what} failed (exit status {done.returncode}): {last[0]}")
    return done.stdout


def packages_of(pyproject: Path) -> list[str]:
    import tomllib

    with open(pyproject, "rb") as f:
        return list(tomllib.load(f)["tool"]["setuptools"]["packages"])


def check_wheel_contents(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    wanted = [p.replace(".", "/") + "/__init__.py" for p in packages_of(ROOT / "pyproject.toml")]
    wanted += list(REQUIRED)
    missing = [w for w in wanted if not any(n.startswith(w) for n in names)]
    if missing:
        raise HingeError(f"the wheel lacks {', '.join(missing)}")
    stray = [n for n in names if n.split("/")[0] in ("tests", "scripts", "bench", "experiments")]
    if stray:
        raise HingeError(f"the wheel holds files that are not the package: {stray[0]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.check_build", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--keep", metavar="DIR", help="build into DIR and keep it")
    args = parser.parse_args(argv)
    scratch = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hinge-build-"))
    try:
        dist = scratch / "dist"
        step("python -m build", [sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)])
        wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
        if len(wheels) != 1 or len(sdists) != 1:
            raise HingeError(f"expected one wheel and one sdist in {dist}")
        step(
            "twine check",
            [sys.executable, "-m", "twine", "check", "--strict", *map(str, dist.iterdir())],
        )
        check_wheel_contents(wheels[0])
        venv = scratch / "venv"
        step("a fresh virtual environment", [sys.executable, "-m", "venv", str(venv)])
        python = venv / "bin" / "python"
        step("pip install the wheel", [str(python), "-m", "pip", "install", "-q", str(wheels[0])])
        expected = f"hinge-fast {source_version()}"
        for label, command in (
            ("hinge-fast --version", [str(venv / "bin" / "hinge-fast"), "--version"]),
            ("python -m hinge_fast --version", [str(python), "-m", "hinge_fast", "--version"]),
        ):
            # run from the scratch folder, not the checkout: the installed package answers
            shown = step(label, command, cwd=scratch).strip()
            if shown != expected:
                raise HingeError(f"{label} printed {shown!r}, not {expected!r}")
        print(f"check_build: {wheels[0].name} and {sdists[0].name} are good ({expected})")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    run_script(main)
