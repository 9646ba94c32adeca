"""The package's structure in five figures: the largest module, the longest function,
the most parameters of a function, the imports inside functions, and the import cycles.

A cycle is a set of modules that reach one another through their imports, counting the
imports inside functions too (those run as surely as any other, only later); imports
under ``if TYPE_CHECKING:`` are not counted, since they never run. An import of a name
from a package counts as an import of the module of that name when there is one, else of
the package itself. Parameters are counted without ``self`` and ``cls``.

    python -m scripts.structure
    python -m scripts.structure --json structure.json

Example: python -m scripts.structure --top 5
"""

from __future__ import annotations

import argparse
import ast
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from hinge_fast.core.atomic import write_atomic
from scripts import run_script

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Structure:
    modules: dict[str, int] = field(default_factory=dict)  # module -> lines
    functions: dict[str, int] = field(default_factory=dict)  # module:qualname -> lines
    parameters: dict[str, int] = field(default_factory=dict)  # module:qualname -> count
    function_imports: dict[str, int] = field(default_factory=dict)  # module -> count
    cycles: list[list[str]] = field(default_factory=list)


def module_name(path: Path, package_root: Path) -> str:
    parts = list(path.relative_to(package_root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Each import statement with whether it sits inside a function; TYPE_CHECKING skipped."""

    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    yield from walk_one(other, in_function)
                continue
            yield from walk_one(child, in_function)

    def walk_one(node, in_function):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        yield from walk(node, inner)

    yield from walk(tree, False)


def _targets(node, module: str, is_package: bool, known: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    found = []
    for alias in node.names:
        sub = f"{source}.{alias.name}"
        found.append(sub if sub in known else source)
    return found


def _functions(tree: ast.AST):
    """(qualified name, node) of every function and method, nested ones too."""

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                yield name, child
                yield from walk(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def _parameter_count(node) -> int:
    args = node.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return len([n for n in names if n not in ("self", "cls")])


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def measure(package_root: Path) -> Structure:
    """The figures of the package at ``package_root`` (a folder with ``__init__.py``)."""
    paths = sorted(package_root.rglob("*.py"))
    names = {module_name(p, package_root): p for p in paths}
    known = set(names)
    result = Structure()
    graph: dict[str, set[str]] = {}
    for module, path in names.items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        result.modules[module] = len(text.splitlines())
        for name, node in _functions(tree):
            key = f"{module}:{name}"
            result.functions[key] = node.end_lineno - node.lineno + 1
            result.parameters[key] = _parameter_count(node)
        inside = 0
        edges = graph.setdefault(module, set())
        for node, in_function in _imports(tree):
            inside += in_function
            for target in _targets(node, module, path.name == "__init__.py", known):
                if target in known and target != module:
                    edges.add(target)
        result.function_imports[module] = inside
    result.cycles = _cycles(graph)
    return result


def _largest(figures: dict[str, int], top: int) -> list[tuple[str, int]]:
    return sorted(figures.items(), key=lambda item: (-item[1], item[0]))[:top]


def report(structure: Structure, top: int) -> str:
    lines = []
    for title, figures in [
        ("largest modules (lines)", structure.modules),
        ("longest functions (lines)", structure.functions),
        ("most parameters of a function", structure.parameters),
        ("imports inside functions, by module", structure.function_imports),
    ]:
        lines.append(f"{title}:")
        lines += [f"  {count:6d}  {name}" for name, count in _largest(figures, top)]
    lines.append(f"imports inside functions: {sum(structure.function_imports.values())}")
    lines.append(f"import cycles: {len(structure.cycles)}")
    lines += ["  " + " <-> ".join(cycle) for cycle in structure.cycles]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.structure",
        description="Print the package's largest module, longest function, most "
        "parameters, imports inside functions and import cycles.",
    )
    parser.add_argument(
        "--package", type=Path, default=ROOT / "hinge_fast", help="the package folder"
    )
    parser.add_argument("--top", type=int, default=3, help="how many of each to list")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    structure = measure(args.package)
    print(report(structure, args.top))
    if args.json:
        write_atomic(args.json, json.dumps(asdict(structure), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    run_script(main)
