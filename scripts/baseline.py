"""Install a commit of hinge-fast as a baseline engine of its own, to play in matches.

    python -m scripts.baseline install COMMIT [--name NAME] [--dir DIR] [--no-warmup]
    python -m scripts.baseline engine NAME [--dir DIR]
    python -m scripts.baseline list [--dir DIR]

Example: hinge-fast match "$(python -m scripts.baseline engine 0.1.0)" alphabeta --time 0.2

``install`` exports COMMIT of this checkout with ``git archive`` into DIR/NAME (DIR
defaults to ``.baselines/`` in the project folder, NAME to the baseline's name or the
commit's short hash), makes a virtual environment there and pip-installs that tree into
it (not editable, no test extras), then compiles its kernels (``hinge-fast warmup``,
skipped with ``--no-warmup``) so that its first game does not wait for numba. The
baseline then runs on its own, whatever the working tree becomes. COMMIT is a commit
(hash, tag, branch) or a name of :data:`BASELINES`. ``install`` and ``engine`` print
the player spec for ``hinge-fast match``: ``cmd:`` and the baseline's
``hinge-fast engine``, which speaks the engine protocol (docs/protocol.md). ``list``
shows the installed baselines and their commits.

Errors (an unknown commit, a folder that is not a git checkout, a name already
installed) are one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import io
import json
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from hinge_fast.core.atomic import write_atomic
from scripts import run_script

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / ".baselines"
#: The file in a baseline's folder that records what it is.
MARKER = "baseline.json"

#: Named baselines: name -> commit.
BASELINES = {
    "0.1.0": "9b8965c",
    "0.2.0": "83b2bc66a",
}


class BaselineError(Exception):
    """A user mistake or a failed step: printed as one line, exit status 2."""


def _git(repo: Path, *args: str, binary: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=not binary)


def resolve(repo: Path, commit: str) -> tuple[str, str | None]:
    """(full hash, baseline name or None) of ``commit`` in the checkout ``repo``."""
    if not repo.is_dir() or _git(repo, "rev-parse", "--git-dir").returncode != 0:
        raise BaselineError(f"{repo} is not a git checkout")
    name = commit if commit in BASELINES else None
    found = _git(
        repo, "rev-parse", "--verify", "--quiet", f"{BASELINES.get(commit, commit)}^{{commit}}"
    )
    if found.returncode != 0:
        raise BaselineError(f"unknown commit {commit!r} in {repo}")
    return found.stdout.strip(), name


def hinge_fast_program(folder: Path) -> Path:
    return folder / ".venv" / "bin" / "hinge-fast"


def player_spec(folder: Path) -> str:
    """The ``cmd:`` player spec of the baseline installed in ``folder``."""
    return f"cmd:{shlex.quote(str(hinge_fast_program(folder.resolve())))} engine"


def installed(directory: Path) -> list[dict]:
    """The baselines installed in ``directory``: their records, by name."""
    out = []
    if directory.is_dir():
        for marker in sorted(directory.glob(f"*/{MARKER}")):
            record = json.loads(marker.read_text())
            record["path"] = str(marker.parent)
            out.append(record)
    return out


def install(
    commit: str,
    name: str | None,
    directory: Path,
    repo: Path,
    warmup: bool = True,
    quiet: bool = False,
) -> Path:
    """Export ``commit`` of ``repo`` into ``directory/name``, install it in a venv of its
    own there; the folder."""
    full, known = resolve(repo, commit)
    name = name or known or full[:10]
    if "/" in name or name in ("", ".", ".."):
        raise BaselineError(f"bad baseline name {name!r}")
    target = directory / name
    if target.exists():
        raise BaselineError(
            f"baseline {name!r} exists: {target} (remove it or choose another --name)"
        )

    def step(message: str) -> None:
        if not quiet:
            print(message, file=sys.stderr, flush=True)

    target.mkdir(parents=True)
    try:
        step(f"exporting {full[:10]} into {target}")
        archive = _git(repo, "archive", "--format=tar", full, binary=True)
        if archive.returncode != 0:
            raise BaselineError(
                f"git archive {full[:10]} failed: {archive.stderr.decode(errors='replace').strip()}"
            )
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                tar.extractall(target, filter="data")
            else:
                tar.extractall(target)
        step("creating its virtual environment")
        _run([sys.executable, "-m", "venv", str(target / ".venv")], "python -m venv")
        python = str(target / ".venv" / "bin" / "python")
        step("installing it (pip, a minute or two)")
        _run(
            [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(target)],
            "pip install",
        )
        if not hinge_fast_program(target).exists():
            raise BaselineError(f"commit {full[:10]} installs no hinge-fast program")
        if warmup:
            step("compiling its kernels (hinge-fast warmup, a few minutes)")
            _run([str(hinge_fast_program(target)), "warmup"], "hinge-fast warmup")
        write_atomic(target / MARKER, json.dumps({"name": name, "commit": full}, indent=1) + "\n")
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    return target


def _run(argv: list[str], what: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "failed").splitlines()[-1]
        raise BaselineError(f"{what} failed: {last}")


def engine(name: str, directory: Path) -> str:
    """The player spec of the installed baseline ``name``."""
    target = directory / name
    if not (target / MARKER).exists() or not hinge_fast_program(target).exists():
        hint = f" {name}" if name in BASELINES else " COMMIT --name " + name
        raise BaselineError(
            f"no baseline {name!r} in {directory}: install it with python -m scripts.baseline install{hint}"
        )
    return player_spec(target)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.baseline",
        description=__doc__.split("\n\n")[0],
        epilog="Named baselines: " + ", ".join(f"{n} ({c})" for n, c in BASELINES.items()),
    )
    sub = parser.add_subparsers(dest="command", required=True)
    dir_help = f"folder of the baselines (default {DEFAULT_DIR})"
    i = sub.add_parser("install", help="export a commit and install it in a venv of its own")
    i.add_argument(
        "commit",
        metavar="COMMIT",
        help="a commit, tag or branch, or a named baseline (" + ", ".join(BASELINES) + ")",
    )
    i.add_argument(
        "--name", help="folder name of the baseline (default: its name, or the commit's short hash)"
    )
    i.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=dir_help)
    i.add_argument(
        "--repo",
        type=Path,
        default=ROOT,
        help="the git checkout to export from (default: this one)",
    )
    i.add_argument(
        "--no-warmup",
        action="store_true",
        help="do not compile the kernels now (the first game will)",
    )
    e = sub.add_parser("engine", help="print the cmd: player spec of an installed baseline")
    e.add_argument("name", metavar="NAME")
    e.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=dir_help)
    listing = sub.add_parser("list", help="list the installed baselines and their commits")
    listing.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=dir_help)
    args = parser.parse_args(argv)
    try:
        if args.command == "install":
            target = install(args.commit, args.name, args.dir, args.repo, warmup=not args.no_warmup)
            record = json.loads((target / MARKER).read_text())
            print(
                f"installed baseline {record['name']} ({record['commit'][:10]}) in {target}",
                file=sys.stderr,
            )
            print(player_spec(target))
        elif args.command == "engine":
            print(engine(args.name, args.dir))
        else:
            records = installed(args.dir)
            if not records:
                print(f"no baselines in {args.dir}")
            for record in records:
                print(f"{record['name']:<12} {record['commit'][:10]}  {record['path']}")
    except BaselineError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    run_script(main)
