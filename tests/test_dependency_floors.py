"""The dependencies' lower bounds in pyproject.toml keep out releases with published
advisories, and what is installed here is at or above every bound."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent

#: The least floor each of these must have, in the extras named (the first release
#: without the published advisories; Ray's also has the token authentication that
#: docs/cluster.md relies on).
SECURITY_FLOORS = {
    ("dependencies", "tqdm"): "4.66.3",
    ("web", "starlette"): "1.3.1",
    ("web", "h11"): "0.16.0",
    ("test", "starlette"): "1.3.1",
    ("test", "h11"): "0.16.0",
    ("cluster", "ray"): "2.56.0",
    ("test", "ray"): "2.56.0",
    ("test", "pillow"): "12.3.0",
}


def requirements() -> dict[tuple[str, str], Requirement]:
    """(list, package name) -> its requirement, for the dependencies and every extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lists = {"dependencies": project["dependencies"], **project["optional-dependencies"]}
    found = {}
    for name, items in lists.items():
        for item in items:
            requirement = Requirement(item)
            found[(name, requirement.name.lower())] = requirement
    return found


def floor(requirement: Requirement) -> Version | None:
    bounds = [Version(s.version) for s in requirement.specifier if s.operator in (">=", "==", "~=")]
    return max(bounds) if bounds else None


@pytest.mark.parametrize("where, name", sorted(SECURITY_FLOORS))
def test_the_floor_excludes_the_releases_with_advisories(where, name):
    requirement = requirements().get((where, name))
    assert requirement is not None, f"{name} is not in the {where} list of pyproject.toml"
    assert floor(requirement) is not None and floor(requirement) >= Version(
        SECURITY_FLOORS[(where, name)]
    ), f"{requirement} admits releases below {SECURITY_FLOORS[(where, name)]}"


def test_what_is_installed_is_at_or_above_every_floor():
    """Every package of the dependencies and the extras that is installed here is at
    least its floor (the test extra is installed to run these tests)."""
    below, checked = [], 0
    for (where, name), requirement in sorted(requirements().items()):
        least = floor(requirement)
        try:
            installed = Version(importlib.metadata.version(name))
        except importlib.metadata.PackageNotFoundError:
            continue
        checked += 1
        if least is not None and installed < least:
            below.append(f"{name} {installed} is below {requirement} ({where})")
    assert checked >= len(SECURITY_FLOORS)
    assert below == [], "; ".join(below)


def test_the_check_sees_a_version_below_its_floor():
    assert floor(Requirement("starlette>=1.3.1")) == Version("1.3.1")
    assert Version("0.49.0") < floor(Requirement("starlette>=1.3.1"))
    assert floor(Requirement("pytest")) is None
