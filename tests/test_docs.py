"""Every deterministic example of README.md and docs/*.md is run here, so the docs
cannot drift from the program.

What is run, block by fenced block (a block right after an HTML comment
``<!-- not-tested: REASON -->`` is skipped; keep that list short):

* ``$ hinge-fast ARGS`` lines, each followed by its output: run through
  ``hinge_fast.cli.main`` in a temporary folder (one per block, the block's commands
  in order), the output compared exactly with what a terminal shows: stdout and
  stderr as written, or with pipes, stderr and then stdout filtered. Pipes may use
  ``printf '...' |`` for input and ``| head -N``, ``| tail -N``, ``| grep [-v] RE``
  after; ``; echo "exit $?"`` adds the exit status. A ``$`` line ending in
  ``(pretty-printed...)`` prints JSON: its top-level keys one a line, ``...`` in the
  doc standing for any text.
* blocks of ``> `` lines: an engine protocol session; the ``> `` lines go to
  ``hinge-fast engine`` on stdin, the other lines are its answers.
* ``>>>`` examples: doctest, one namespace a document.

Figures of time and today's date are not compared (a doc shows the real ones of its
run): :data:`VARYING` lists the patterns replaced on both sides.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from hinge_fast.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIP = re.compile(r"<!--\s*not-tested:\s*(.+?)\s*-->")
#: Time figures and dates, replaced in both the doc and the run before comparing.
VARYING = [
    (re.compile(r"\b(nps|time) [0-9.,]+"), r"\1 T"),
    (re.compile(r"\bin [0-9.]+ s\b"), "in T s"),
    (re.compile(r"\(([0-9.]+) s, seed"), "(T s, seed"),
    (re.compile(r"[0-9,]+ nodes/s"), "T nodes/s"),
    (re.compile(r"[0-9,.]+ (games|plies)/s"), r"T \1/s"),
    (re.compile(r'"(time|seconds)": [0-9.]+'), r'"\1": T'),
    (re.compile(r'\[Date "[0-9.?]+"\]'), '[Date "D"]'),
]
COMPILING = "hinge-fast: compiling"


@dataclass
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lines: list[str]
    skip: str | None

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    out, lines = [], path.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            before = "\n".join(lines[max(0, i - 2) : i])
            m = SKIP.search(before)
            out.append(Block(path, i + 1, lines[i + 1 : j], m.group(1) if m else None))
            i = j + 1
        else:
            i += 1
    return out


ALL = [b for path in DOCS for b in blocks(path)]
COMMANDS = [b for b in ALL if any(line.startswith("$ ") for line in b.lines)]
SESSIONS = [
    b
    for b in ALL
    if any(line.startswith("> ") for line in b.lines)
    and not any(line.startswith("$ ") for line in b.lines)
]
DOCTESTS = sorted({b.path for b in ALL if any(line.startswith(">>> ") for line in b.lines)})


def normal(text: str) -> str:
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    lines = [line.rstrip() for line in text.splitlines() if not line.startswith(COMPILING)]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


# ----- running a command line ----------------------------------------------------------------
def _run_main(argv: list[str], stdin: str = "", split: bool = False):
    """(status, stdout, stderr) of ``hinge-fast ARGV``; with ``split=False`` both
    streams go to one buffer (stdout is '' then), as a terminal interleaves them."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))  # with .buffer, as the engine reads it
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err if split else out):
            status = main(argv)
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue() if split else ""


def _filter(text: str, argv: list[str]) -> str:
    lines = text.splitlines()
    if argv[0] == "head" and len(argv) == 2 and argv[1].startswith("-"):
        return "\n".join(lines[: int(argv[1][1:])])
    if argv[0] == "tail" and len(argv) == 2 and argv[1].startswith("-"):
        return "\n".join(lines[-int(argv[1][1:]) :])
    if argv[0] == "grep":
        invert = argv[1] == "-v"
        pattern = re.compile(argv[-1])
        return "\n".join(line for line in lines if bool(pattern.search(line)) != invert)
    raise AssertionError(f"the docs test cannot run {' '.join(argv)!r} after a pipe")


def run_command_line(line: str) -> str:
    """What a terminal shows for one ``$`` line (without the ``$ ``)."""
    echo_status = False
    if line.endswith('; echo "exit $?"'):
        line, echo_status = line[: -len('; echo "exit $?"')], True
    stages = [shlex.split(part) for part in _split_pipes(line)]
    stdin = ""
    if stages[0][0] == "printf":
        stdin = stages.pop(0)[1].encode().decode("unicode_escape")
    command, *filters = stages
    assert command[0] == "hinge-fast", f"the docs test runs hinge-fast only, not {command[0]!r}"
    if not filters:
        status, shown, _ = _run_main(command[1:], stdin)
    else:
        status, out, err = _run_main(command[1:], stdin, split=True)
        for f in filters:
            out = _filter(out, f)
        shown = err + out
    if echo_status:
        shown = shown.rstrip("\n") + f"\nexit {status}\n"
    return shown


def _split_pipes(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|")
    lexer.whitespace_split = True
    parts, current = [], []
    for token in lexer:
        if token == "|":
            parts.append(shlex.join(current))
            current = []
        else:
            current.append(token)
    parts.append(shlex.join(current))
    return parts


def _pretty_json(text: str) -> str:
    """The docs' JSON style: the top-level keys one a line, values compact."""
    value = json.loads(text)
    items = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n}"


def _examples(block: Block):
    """(command line, expected output, pretty-printed?) of a block's ``$`` lines."""
    current, expected = None, []
    for line in block.lines + ["$ "]:
        if line.startswith("$ "):
            if current is not None:
                yield current, "\n".join(expected)
            current, expected = line[2:].strip(), []
        else:
            expected.append(line)


@pytest.mark.parametrize("block", COMMANDS, ids=lambda b: b.id)
def test_command_examples(block, tmp_path, monkeypatch):
    if block.skip:
        pytest.skip(block.skip)
    monkeypatch.chdir(tmp_path)
    problems = []
    for line, expected in _examples(block):
        if not line:
            continue
        pretty = re.search(r"\s+\(pretty-printed[^)]*\)$", line)
        if pretty:
            line = line[: pretty.start()]
        shown = run_command_line(line)
        if pretty:
            shown = _pretty_json(shown)
            ok = doctest.OutputChecker().check_output(
                normal(expected), normal(shown), doctest.ELLIPSIS
            )
        else:
            ok = normal(expected) == normal(shown)
        if not ok:
            problems.append(
                f"$ {line}\n--- the doc shows:\n{expected}\n--- the program prints:\n{shown}"
            )
    assert not problems, f"{block.id}: examples differ from the program\n\n" + "\n\n".join(problems)


@pytest.mark.parametrize("block", SESSIONS, ids=lambda b: b.id)
def test_engine_sessions(block, tmp_path, monkeypatch):
    if block.skip:
        pytest.skip(block.skip)
    monkeypatch.chdir(tmp_path)
    sent = "".join(line[2:] + "\n" for line in block.lines if line.startswith("> "))
    expected = "\n".join(line for line in block.lines if not line.startswith("> "))
    status, shown, _ = _run_main(["engine"], sent)
    assert status == 0
    assert _without_clock_reports(normal(shown)) == _without_clock_reports(normal(expected))


def _without_clock_reports(text: str) -> str:
    """MCTS reports its progress on a clock (an ``info ... score winrate ...`` line every
    0.1 s), so how many such lines a node-limited search sends depends on the machine's
    speed: they are left out of the comparison. Alpha-beta's lines, one per completed
    depth, are compared."""
    return "\n".join(
        line
        for line in text.splitlines()
        if not (line.startswith("info ") and " score winrate " in line)
    )


class _TimeBlindChecker(doctest.OutputChecker):
    """doctest's comparison after :data:`VARYING` on both sides."""

    def check_output(self, want, got, optionflags):
        return super().check_output(normal(want) + "\n", normal(got) + "\n", optionflags)


@pytest.mark.parametrize("path", DOCTESTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples(path, tmp_path, monkeypatch):
    skipped = [b for b in blocks(path) if b.skip]
    text = "\n".join(
        "\n".join(b.lines)
        for b in blocks(path)
        if not b.skip and any(line.startswith(">>> ") for line in b.lines)
    )
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(text, {}, str(path.relative_to(ROOT)), str(path), 0)
    runner = doctest.DocTestRunner(checker=_TimeBlindChecker(), optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()
    assert skipped is not None


def test_the_docs_have_examples():
    """The collector finds the examples (a parser bug would silently test nothing)."""
    assert len(COMMANDS) >= 10 and len(SESSIONS) >= 1 and len(DOCTESTS) >= 2
    assert os.path.exists(ROOT / "README.md")
