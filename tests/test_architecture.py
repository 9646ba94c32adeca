"""The layer order is a contract (docs/architecture.md): import-linter checks the
contracts of ``[tool.importlinter]`` in pyproject.toml (each layer imports only the
layers below it; the commands import nothing from each other)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def lint_imports(config: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", LINT, "--config", str(config), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_layers_and_independent_commands():
    run = lint_imports(ROOT / "pyproject.toml")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Contracts: 2 kept, 0 broken." in run.stdout


def test_a_broken_contract_is_reported(tmp_path):
    """The same check fails, naming the import, when a layer reaches upward
    (a contract claiming core sits above board)."""
    config = tmp_path / "importlinter.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "hinge_fast"\n\n'
        '[[tool.importlinter.contracts]]\nname = "upside down"\ntype = "layers"\n'
        'layers = ["hinge_fast.core", "hinge_fast.board"]\n'
    )
    run = lint_imports(config)
    assert run.returncode == 1
    assert "hinge_fast.board is not allowed to import hinge_fast.core" in run.stdout


def test_no_import_cycle():
    """No modules reach one another through their imports, counting the imports inside
    functions (scripts/structure.py)."""
    from scripts.structure import measure

    assert measure(ROOT / "hinge_fast").cycles == []
