"""Every reader under a memory limit (scripts/fuzz_limits.py, run as its own process so
that the limit binds it and not the tests): hypothesis's damaged game records, books,
puzzle files, proofs, match files, checkpoints, tablebases (a zlib bomb among them)
and the web API's JSON bodies are each read or refused with one HingeError line;
nothing else is raised, MemoryError and RecursionError included, and the address space
stays under the limit."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = 150
READERS = (
    "records",
    "books",
    "puzzles",
    "proofs",
    "match files",
    "checkpoints",
    "tablebase",
    "json bodies",
)


@pytest.fixture(scope="module")
def figures():
    done = subprocess.run(
        [sys.executable, "-m", "scripts.fuzz_limits", "--examples", str(EXAMPLES), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_fuzzing_covers_every_reader(figures):
    assert tuple(figures["readers"]) == READERS
    assert figures["address_space_peak_mb"] <= figures["address_space_limit_mb"]


@pytest.mark.parametrize("reader", READERS)
def test_damaged_inputs_are_read_or_refused_in_one_line_under_a_memory_limit(figures, reader):
    assert [f for f in figures["failures"] if f.startswith(f"{reader}: ")] == []
    counts = figures["readers"][reader]
    assert counts["inputs"] == EXAMPLES and counts["refused"] > 0
    assert counts["refused"] + counts["read"] == EXAMPLES


def test_the_script_exits_1_and_names_a_failure():
    """A reader that raises anything but HingeError is reported and fails the run."""
    code = (
        "import sys, scripts.fuzz_limits as f, hinge_fast.search.checkpoint as c\n"
        "c.load_checkpoint = lambda *a, **k: int('\u00b2')\n"
        "sys.exit(f.main(['--examples', '3', '--only', 'checkpoints', '--json']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 1, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["failures"] and found["failures"][0].startswith(
        "checkpoints: ValueError: invalid literal for int()"
    )
