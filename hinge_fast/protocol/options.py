"""The protocol's options: ``engine``, then the searchers' options of the registry
(``threads`` first), each with a current value.

    >>> options = default_options()
    >>> options["engine"].line()
    'engine;enum;alphabeta;alphabeta;alphabeta;mcts'
    >>> options["seed"].line()
    'seed;int;-1;-1;-1;9223372036854775807'

An option line is ``name;type;value;default;min;max``; an enum lists its
choices in place of min and max; a string (``tablebase``) leaves them empty:
``tablebase;string;auto;auto;;``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import HingeError
from ..search.registry import DEFAULT_ENGINE, ENGINES, OptionSpec, all_options, engine_spec
from .wire import shown

ENGINE = OptionSpec(
    "engine", "enum", DEFAULT_ENGINE, choices=ENGINES, help="which searcher bestmove uses"
)


@dataclass
class Option:
    """One option of a session: its spec (from the registry) and current value."""

    spec: OptionSpec
    value: object = None

    def __post_init__(self):
        if self.value is None:
            self.value = self.spec.default

    @property
    def name(self) -> str:
        return self.spec.name

    def line(self) -> str:
        spec = self.spec
        if spec.type == "string":
            tail = ";"  # no bounds: min and max are empty
        elif spec.type == "enum":
            tail = ";".join(spec.choices)
        else:
            tail = f"{spec.format(spec.low)};{spec.format(spec.high)}"
        return (
            f"{spec.name};{spec.type};{spec.format(self.value)};{spec.format(spec.default)};{tail}"
        )

    def parse(self, text: str):
        """The value ``text`` stands for; HingeError naming the option if it is bad."""
        return self.spec.parse(text.strip())


def default_options() -> dict[str, Option]:
    """The options of a fresh session: ``engine``, then every searcher option of the
    registry at its default (``threads`` first, where GUIs look for it)."""
    registry = all_options()
    specs = [ENGINE, registry["threads"]] + [
        spec for name, spec in registry.items() if name != "threads"
    ]
    return {s.name: Option(s) for s in specs}


def find_option(options: dict[str, Option], name: str) -> Option:
    option = options.get(name.lower())
    if option is None:
        raise HingeError(f"unknown option {shown(name)}: the options are {', '.join(options)}")
    return option


def searcher_options(options: dict[str, Option]) -> tuple[str, dict]:
    """(engine name, the values of that engine's own options) for ``create_searcher``."""
    spec = engine_spec(str(options["engine"].value))
    return spec.name, {name: options[name].value for name in spec.option_names}
