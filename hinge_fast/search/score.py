"""One score type for every searcher, and the one place scores become text.

A :class:`Score` is one of

* centi-tokens from the side to move's point of view (alpha-beta): ``+1.25``;
* a proven result: ``win in 3`` / ``loss in 4`` (plies to the end);
* a win rate in [0, 1] (MCTS): ``62.5%``.

Scores order from the mover's point of view: every loss < every unproven score < every
win; a slower loss is better than a faster one and a faster win better than a slower
one. Centi-tokens and win rates are not comparable with each other (comparing them
raises HingeError).

    >>> Score.centi(125), Score.win(3), Score.loss(4), Score.rate(0.625)
    (Score.centi(125), Score.win(3), Score.loss(4), Score.rate(0.625))
    >>> str(Score.centi(125)), str(Score.win(3)), str(Score.loss(4)), str(Score.rate(0.625))
    ('+1.25', 'win in 3', 'loss in 4', '62.5%')
    >>> Score.loss(2) < Score.loss(6) < Score.centi(-900) < Score.win(9) < Score.win(1)
    True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..errors import HingeError

CENTI = "centi"
RATE = "rate"
WIN = "win"
LOSS = "loss"


@functools.total_ordering
@dataclass(frozen=True)
class Score:
    """A score for the side to move (see the module docstring). Build one with
    :meth:`centi`, :meth:`rate`, :meth:`win` or :meth:`loss`."""

    kind: str
    value: float

    # ----- construction ----------------------------------------------------------------
    @classmethod
    def centi(cls, centi_tokens) -> "Score":
        return cls(CENTI, int(centi_tokens))

    @classmethod
    def rate(cls, win_rate) -> "Score":
        return cls(RATE, float(win_rate))

    @classmethod
    def win(cls, plies) -> "Score":
        return cls(WIN, int(plies))

    @classmethod
    def loss(cls, plies) -> "Score":
        return cls(LOSS, int(plies))

    @classmethod
    def from_mate(cls, plies: int) -> "Score":
        """``win(plies)`` for plies > 0, ``loss(-plies)`` for plies <= 0."""
        return cls.win(plies) if plies > 0 else cls.loss(-plies)

    # ----- reading -----------------------------------------------------------------------
    @property
    def is_mate(self) -> bool:
        """A proven win or loss."""
        return self.kind in (WIN, LOSS)

    @property
    def mate(self) -> int | None:
        """Plies to a proven win (> 0) or loss (<= 0, negated), else None."""
        if self.kind == WIN:
            return int(self.value)
        if self.kind == LOSS:
            return -int(self.value)
        return None

    @property
    def centi_tokens(self) -> int | None:
        return int(self.value) if self.kind == CENTI else None

    @property
    def win_rate(self) -> float | None:
        """The win rate (1.0 / 0.0 for a proven win / loss), None for centi-tokens."""
        if self.kind == RATE:
            return float(self.value)
        if self.kind == WIN:
            return 1.0
        if self.kind == LOSS:
            return 0.0
        return None

    def number(self) -> float:
        """The score as one number, for JSON and old callers: centi-tokens, the win
        rate, or for a proven result the engine's convention (``float(±(WIN - plies))``
        next to centi-tokens would need the kind: use ``kind`` and ``mate`` instead)."""
        return float(self.value)

    def __str__(self) -> str:
        if self.kind == WIN:
            return f"win in {int(self.value)}"
        if self.kind == LOSS:
            return f"loss in {int(self.value)}"
        if self.kind == RATE:
            return f"{100 * self.value:.1f}%"
        return f"{self.value / 100:+.2f}"

    def __repr__(self) -> str:
        value = int(self.value) if self.kind != RATE else float(self.value)
        return f"Score.{self.kind}({value!r})"

    def to_dict(self) -> dict:
        """``{"kind", "value", "text"}`` for JSON."""
        return {"kind": self.kind, "value": self.value, "text": str(self)}

    # ----- ordering ----------------------------------------------------------------------
    def _key(self):
        if self.kind == WIN:
            return (2, -self.value)
        if self.kind == LOSS:
            return (0, self.value)
        return (1, self.value)

    def __lt__(self, other) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        if {self.kind, other.kind} == {CENTI, RATE}:
            raise HingeError("a centi-token score and a win rate cannot be compared")
        return self._key() < other._key()

    def __eq__(self, other) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self.kind == other.kind and self.value == other.value

    def __hash__(self) -> int:
        return hash((self.kind, self.value))
