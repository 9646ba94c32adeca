"""The docs as reference: what README.md and docs/*.md state about the program is checked
against the program, so that they cannot drift from it.

* no development history in the docs or the help texts (:data:`HISTORY`);
* every relative link and every backticked repository path points at something that exists;
* docs/usage.md's table lists every command and every option of the argument parsers,
  and the README lists every command;
* the default engine, the MCTS node size, the environment variables, ``--version``, the
  keys of ``bench --json`` and the licence are stated as the code has them.

(tests/test_docs.py runs the docs' examples.)
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tomllib
from pathlib import Path

import pytest

from hinge_fast import __version__
from hinge_fast.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
#: The user's documents. CHANGELOG.md is left out: recording what changed when is its job.
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: Development history: sessions and issues by number, "the last session", dated or
#: load-stamped runs, scratch scripts in /tmp, agents, helper branches, throwaway scripts.
#: Strict enough to leave legitimate words alone: a protocol session, Ray's session,
#: sessionStorage, Lazy SMP's helper threads, a user agent, "the last move".
HISTORY = re.compile(
    r"\bsessions?\s+\d+"
    r"|\b(?:last|this|previous|next|earlier|later|first|second|third|fourth|fifth|sixth|seventh"
    r"|eighth|ninth|tenth|eleventh|twelfth)\s+session\b"
    r"|\bissues?\s+\#?\d+|\bthe\s+issue'?s?\b"
    r"|\bload\s+averages?\b"
    r"|/tmp/"
    r"|(?<!user[- ])\bagents?\b"
    r"|\bhelpers'\s+(?:branch|match|job|compile)"
    r"|\bbranch\s+`"
    r"|\b20\d\d-\d\d-\d\d[ T]\d\d:\d\d|\b\d\d:\d\d(?::\d\d)?\s+UTC\b"
    r"|\bthrowaway\b",
    re.IGNORECASE,
)


def history_in(text: str) -> list[str]:
    return [m.group(0) for m in HISTORY.finditer(text)]


def test_the_history_pattern_finds_history_and_only_history():
    for diary in (
        "Session 10: perft in the shift layout",
        "as the last session measured",
        "issue 12's facts",
        "(load average 4.2)",
        "python /tmp/match.py",
        "while five other agents ran",
        "2026-12-02 05:02 UTC",
        "branch `s9`",
        "a throwaway script",
        "the issue's target",
    ):
        assert history_in(diary), diary
    for word in (
        "an example session of the protocol",
        "the session goes on",
        "sessionStorage",
        "the helper threads of Lazy SMP, as Stockfish's helpers do",
        "take back your last move",
        "a Ray session",
        "the browser's user agent",
        "issues a warning",
        "records, then the result",
    ):
        assert not history_in(word), word


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_development_history_in_the_docs(path):
    found = [
        f"line {i}: {hit!r}"
        for i, line in enumerate(path.read_text().splitlines(), 1)
        for hit in history_in(line)
    ]
    assert not found, (
        f"{path.relative_to(ROOT)} tells how the code was developed (keep that for CHANGELOG.md and git):\n"
        + "\n".join(found)
    )


def command_helps() -> dict[str, str]:
    """``hinge-fast CMD --help`` of every command, by name: the commands as
    ``hinge-fast --help`` lists them under COMMAND."""
    listed = build_parser().format_help().split("COMMAND\n", 1)[1]
    names = re.findall(r"^    (\w[\w-]*)", listed.split("\n\n", 1)[0], flags=re.M)
    assert len(names) >= 10, listed
    helps = {}
    for name in names:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            build_parser().parse_args([name, "--help"])
        helps[name] = out.getvalue()
    return helps


def help_arguments(text: str) -> tuple[list[str], list[str]]:
    """``(option strings, positional names)`` of a command's ``--help`` text, read from
    its "positional arguments:" section and every other section of arguments ("options:"
    and the argument groups' own titles)."""
    options, positionals, section = [], [], None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line[:-1] if line.endswith(":") and not line.startswith("usage") else None
            continue
        entry = re.match(r"^  (\S.*?)(?:\s{2,}|$)", line)
        if not entry:
            continue
        if section is not None and section != "positional arguments":
            options += [
                o
                for o in re.findall(r"(?<![\w-])--?[A-Za-z][\w-]*", entry.group(1))
                if o not in ("-h", "--help")
            ]
        elif section == "positional arguments":
            positionals.append(entry.group(1).split()[0])
    return options, positionals


def test_no_development_history_in_the_help_texts():
    """``hinge-fast --help`` and ``hinge-fast CMD --help`` of every command, and the
    help of every engine option (shown by ``--help`` and the protocol's options)."""
    from hinge_fast.search.registry import all_options

    texts = {"hinge-fast --help": build_parser().format_help()}
    texts.update({f"hinge-fast {name} --help": text for name, text in command_helps().items()})
    texts.update({f"option {name}": spec.help or "" for name, spec in all_options().items()})
    found = {where: history_in(text) for where, text in texts.items() if history_in(text)}
    assert not found, found


def test_no_development_history_in_the_sources():
    """Comments and docstrings of the package and of the tests describe the code, not
    the sessions or issues it came from (this file, which spells the patterns out, aside)."""
    found = {}
    for source in sorted([*(ROOT / "hinge_fast").rglob("*.py"), *(ROOT / "tests").glob("*.py")]):
        name = str(source.relative_to(ROOT))
        if source == Path(__file__).resolve():
            continue
        hits = history_in(source.read_text())
        if hits:
            found[name] = hits
    assert not found, found


# ----- links and paths ------------------------------------------------------------------------
LINK = re.compile(r"\]\(([^)\s]+)\)")
#: A backticked path inside the repository: `hinge_fast/...`, `docs/...`, `scripts/...`,
#: `bench/...`, `tests/...` (a path up to the first space, colon or closing backtick).
REPO_PATH = re.compile(r"`((?:hinge_fast|docs|scripts|bench|tests)/[^`\s:]*)")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_that_exist(path):
    missing = []
    for target in LINK.findall(path.read_text()):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL or an anchor of the same page
        if not (path.parent / target.split("#", 1)[0]).exists():
            missing.append(target)
    assert not missing, f"{path.relative_to(ROOT)} links to missing files: {missing}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_backticked_repository_paths_exist(path):
    missing = []
    for found in REPO_PATH.findall(path.read_text()):
        found = found.rstrip(".,;)")
        if any(c in found for c in "*{}<>"):
            continue  # a pattern, not a path
        if not (ROOT / found).exists():
            missing.append(found)
    assert not missing, f"{path.relative_to(ROOT)} names paths that do not exist: {missing}"


# ----- commands and options -------------------------------------------------------------------
def _table_rows(text: str, heading: str) -> dict[str, list[str]]:
    """The rows of the first table under ``heading``: command name -> cells."""
    section = text.split(heading, 1)[1]
    rows = {}
    for line in section.splitlines():
        if rows and not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if line.startswith("| `") and cells[0].startswith("`"):
            rows[cells[0].strip("`").split()[0]] = cells
    return rows


def test_the_usage_table_lists_every_command_and_option():
    """docs/usage.md, "Every command and option": a row per command, holding every
    option string and every positional argument of its parser."""
    rows = _table_rows((ROOT / "docs" / "usage.md").read_text(), "## Every command and option")
    commands = command_helps()
    assert set(rows) == set(commands), "docs/usage.md's command table and the commands differ"
    problems = []
    for name, text in commands.items():
        first, options = rows[name][0], rows[name][1]
        flags, positionals = help_arguments(text)
        assert flags or positionals or name in ("warmup",), f"no argument read from {name} --help"
        problems += [
            f"{name} {o}" for o in flags if not re.search(rf"`(?:-\w, )?{re.escape(o)}\b", options)
        ]
        problems += [f"{name} {p}" for p in positionals if p not in first]
    assert not problems, f"docs/usage.md's command table lacks: {problems}"


def test_the_readme_lists_every_command():
    rows = _table_rows((ROOT / "README.md").read_text(), "## Commands")
    assert set(rows) == set(command_helps())


def test_version_is_what_the_readme_shows(capsys):
    from hinge_fast.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    shown = capsys.readouterr().out.strip()
    assert shown == f"hinge-fast {__version__}"
    assert f"`hinge-fast --version` prints the version (`{shown}`)" in " ".join(
        (ROOT / "README.md").read_text().split()
    )


# ----- defaults and figures stated by the docs ------------------------------------------------
def test_the_default_engine_is_stated_as_the_code_has_it():
    """The README's engine table and every "default engine" of the docs name the
    registry's DEFAULT_ENGINE; ``play --help`` says it too."""
    from hinge_fast.search.registry import DEFAULT_ENGINE, ENGINES

    readme = (ROOT / "README.md").read_text()
    assert f"| `{DEFAULT_ENGINE}` (the default of every command) |" in readme
    others = [e for e in ENGINES if e != DEFAULT_ENGINE]
    spelled = {"alphabeta": r"alpha-?beta", "mcts": r"MCTS"}
    for path in DOCS:
        text = " ".join(path.read_text().split())
        for other in others:
            wrong = re.search(
                rf"\bdefaults?(?: engine)?(?: is| to|:)? \(?`?{spelled.get(other, other)}\b",
                text,
                re.I,
            )
            assert not wrong, (
                f"{path.name} calls {other} the default engine: ...{text[wrong.start() - 60 : wrong.end() + 20]}..."
            )
    assert f"default {DEFAULT_ENGINE}" in " ".join(command_helps()["play"].split())


def test_the_mcts_node_size_is_stated_once_and_as_the_code_has_it():
    from hinge_fast.search import mcts
    from hinge_fast.search.registry import all_options

    tree = mcts.Tree(8)
    per_node = sum(a.itemsize for a in vars(tree).values() if getattr(a, "shape", None) == (8,))
    assert per_node == mcts.NODE_BYTES
    texts = [p.read_text() for p in DOCS] + [
        all_options()["tree_nodes"].help
    ]  # docs/search-mcts.md, "Memory"
    found = [
        int(a or b)
        for t in texts
        for a, b in re.findall(r"(\d+) bytes (?:a node|each)|nodes? (?:x |of )(\d+) bytes", t)
    ]
    assert found.count(mcts.NODE_BYTES) == 2 and set(found) == {mcts.NODE_BYTES}, (
        f"an MCTS node is {mcts.NODE_BYTES} bytes, stated once in the docs and once in the option's help; found {found}"
    )


def _environment_variables_read() -> set[str]:
    """The environment variables the package reads (``os.environ.get``, ``os.environ[...]``
    and the ``*_VARIABLE`` constants that name them)."""
    names = set()
    for source in (ROOT / "hinge_fast").rglob("*.py"):
        text = source.read_text()
        names |= set(re.findall(r"environ(?:\.get\(|\[)\s*\"([A-Z_]+)\"", text))
        names |= set(re.findall(r"^[A-Z_]+_VARIABLE\s*=\s*\"([A-Z_]+)\"", text, re.M))
    return names


def test_every_environment_variable_is_in_the_usage_table():
    section = (
        (ROOT / "docs" / "usage.md")
        .read_text()
        .split("| environment variable |", 1)[1]
        .split("\n\n", 1)[0]
    )
    read = _environment_variables_read()
    assert {
        "HINGE_FAST_THREADS",
        "HINGE_FAST_TABLEBASE",
        "HINGE_FAST_CACHE_DIR",
        "NUMBA_CACHE_DIR",
    } <= read
    assert not [name for name in read if f"`{name}`" not in section]


def _documented_bench_keys() -> tuple[set[str], set[str]]:
    """The keys of docs/performance.md's ``bench --json`` table, and of its figures."""
    text = (
        (ROOT / "docs" / "performance.md")
        .read_text()
        .split("### `bench --json`", 1)[1]
        .split("\n## ", 1)[0]
    )
    top = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))
    figures_row = next(line for line in text.splitlines() if line.startswith("| `figures` |"))
    return top, set(re.findall(r"`([a-z_]+)`", figures_row)) - {"figures"}


def test_the_bench_json_keys_are_documented(capsys):
    """``bench --quick --json`` (a few seconds on the side-4 board), key by key."""
    from hinge_fast.cli import main

    assert main(["bench", "--quick", "--json", "--size", "4", "--threads", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    top, figure_keys = _documented_bench_keys()
    assert set(report) == top
    assert set().union(*(set(f) for f in report["figures"])) == figure_keys


def test_the_licence_is_the_one_pyproject_names():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "the hinge_fast authors" in text


def test_the_docs_say_whom_the_web_server_and_ray_trust():
    def words(path):
        return " ".join((ROOT / path).read_text(encoding="utf-8").split())

    web = words("docs/web.md")
    # what binding to 127.0.0.1 does not stop, and what each check of the server does
    assert (
        "Listening on 127.0.0.1 keeps other machines out, not the other pages open in your browser"
        in web
    )
    for check, stops in [
        ("`Host` header", "DNS rebinding"),
        ("`Origin`", "forms and scripts of other sites"),
        ("access token", "any page or program that has not seen the address"),
        ("(`Content-Type: application/json`)", "cross-site forms"),
        ("512 kB", "memory filled"),
    ]:
        row = next(
            line
            for line in (ROOT / "docs/web.md").read_text().splitlines()
            if line.startswith("|") and check in line
        )
        assert stops in row, row
    cluster = words("docs/cluster.md")
    for advice in (
        "only on machines and a network you trust",
        "Turn on Ray's token authentication",
        "RAY_AUTH_MODE=token",
        "Never join a cluster you do not control",
    ):
        assert advice in cluster, advice


def test_cluster_md_lists_every_command_that_takes_ray_and_nothing_else():
    """docs/cluster.md's sentence "The commands that take `--ray`: ..." names exactly the
    commands whose argument parser has --ray, and every command it shows with --ray
    takes it."""
    text = (ROOT / "docs" / "cluster.md").read_text(encoding="utf-8")
    taking = {
        name
        for name, help_text in command_helps().items()
        if "--ray" in help_arguments(help_text)[0]
    }
    assert len(taking) >= 5, taking
    sentence = re.search(r"The commands that take `--ray`:(.*?)\.(?:\s|$)", text, flags=re.S)
    assert sentence, "docs/cluster.md no longer lists the commands that take --ray"
    assert set(re.findall(r"`([\w-]+)`", sentence.group(1))) == taking
    shown = set(re.findall(r"`([\w-]+)[^`]*--ray\b[^`]*`", text))
    shown |= set(re.findall(r"^\$ hinge-fast ([\w-]+) .*--ray\b", text, flags=re.M))
    assert shown and shown <= taking, shown - taking
