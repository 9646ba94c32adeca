"""The file readers under a memory limit (scripts/fuzz_limits.py, run as its own process
so that the limit binds it and not the tests): hypothesis's damaged game records and
tablebases, a zlib bomb among them, are each read or refused with HingeError; nothing
else is raised, MemoryError included, and the address space stays under the limit."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_damaged_records_and_tablebases_under_a_memory_limit():
    done = subprocess.run([sys.executable, "-m", "scripts.fuzz_limits", "--examples", "150", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["failures"] == []
    for reader in ("records", "tablebase"):
        counts = figures["readers"][reader]
        assert counts["inputs"] == 150 and counts["refused"] > 0 and counts["refused"] + counts["read"] == 150
    assert figures["address_space_peak_mb"] <= figures["address_space_limit_mb"]
