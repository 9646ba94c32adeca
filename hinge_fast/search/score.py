"""One score type for every searcher, and the one place scores become text.

A :class:`Score` is one of

* centi-tokens from the side to move's point of view (alpha-beta): ``+1.25``;
* a proven result: ``win in 3`` / ``loss in 4`` (plies to the end);
* a win rate in [0, 1] (MCTS): ``62.5%``.

Every score also reads as a chance to win (:attr:`Score.win_chance`): a win rate as it
is, a proven result 1 or 0, and centi-tokens through the logistic curve
``1 / (1 + exp(-score / WIN_SCALE))``, its scale fitted by maximum likelihood to the
results of the default engine's own games (``experiments/fit_win_scale.py``; the command and
the fit in docs/search-alphabeta.md, "Reading the scores").

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
import math
from dataclasses import dataclass

from ..errors import HingeError

CENTI = "centi"
#: Centi-tokens of alpha-beta's score per unit of log-odds of the side to move winning,
#: fitted to 400 self-play games of sides 6 and 9 (docs/search-alphabeta.md, "Reading the
#: scores"): ``python -m experiments.fit_win_scale generate --out winscale.npz --games 200
#: --seed 1`` then ``python -m experiments.fit_win_scale fit winscale.npz``.
WIN_SCALE = 1715.0
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
    def centi(cls, centi_tokens) -> Score:
        return cls(CENTI, int(centi_tokens))

    @classmethod
    def rate(cls, win_rate) -> Score:
        return cls(RATE, float(win_rate))

    @classmethod
    def win(cls, plies) -> Score:
        return cls(WIN, int(plies))

    @classmethod
    def loss(cls, plies) -> Score:
        return cls(LOSS, int(plies))

    @classmethod
    def from_mate(cls, plies: int) -> Score:
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

    @property
    def win_chance(self) -> float:
        """The side to move's chance to win, 0 to 1: the win rate, 1.0 / 0.0 for a proven
        win / loss, and for centi-tokens ``1 / (1 + exp(-centi / WIN_SCALE))``.

        >>> Score.centi(0).win_chance, Score.loss(2).win_chance, Score.rate(0.25).win_chance
        (0.5, 0.0, 0.25)
        """
        rate = self.win_rate
        if rate is not None:
            return rate
        return 1.0 / (1.0 + math.exp(-self.value / WIN_SCALE))

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


def green_share(score, turn) -> float:
    """The evaluation bar: Green's chance to win, 0 to 1 (:attr:`Score.win_chance` from
    Green's side)."""
    share = score.win_chance
    return share if _is_green(turn) else 1.0 - share


def percent(chance: float, proven: bool = False) -> str:
    """A chance as a whole percentage; short of a proof, from 1% to 99% (a rounded
    100% would read as a certainty).

    >>> percent(0.6849), percent(0.9996), percent(1.0, proven=True)
    ('68%', '99%', '100%')
    """
    value = 100.0 * chance
    if not proven:
        value = min(99.0, max(1.0, value))
    return f"{value:.0f}%"


def green_view(score, turn, chance: bool = True) -> dict:
    """A score of the side to move (``turn``, a ``board.Color``) as the web page and the
    command line show it, from Green's side:
    ``text`` in words with its unit (``Green +1.25 tokens, 52% to win``, ``Green 62% to
    win``, ``Blue wins in 3``), ``winner`` and ``moves`` for a proven result (moves of both
    sides), and ``green_share`` for the bar (Green's chance to win). ``chance=False``
    leaves the chance out of a score in tokens (a static evaluation: the chance is
    fitted to the search's scores).

    >>> from hinge_fast.board import Color
    >>> green_view(Score.centi(-125), Color.BLUE)["text"]
    'Green +1.25 tokens, 52% to win'
    >>> green_view(Score.win(3), Color.BLUE)["text"], green_view(Score.rate(0.25), Color.BLUE)["text"]
    ('Blue wins in 3', 'Green 75% to win')
    """
    if score is None:
        return {"text": "not fully searched", "winner": None, "moves": None, "green_share": None}
    share = green_share(score, turn)
    if score.is_mate:
        mover_wins = score.mate > 0
        winner = turn if mover_wins else turn.other
        moves = abs(score.mate)
        text = (
            f"{str(winner).capitalize()} wins in {moves}"
            if moves
            else f"{str(winner).capitalize()} has won"
        )
        return {"text": text, "winner": str(winner), "moves": moves, "green_share": share}
    if score.kind == RATE:
        text = f"Green {percent(share)} to win"
    else:
        centi = score.centi_tokens if _is_green(turn) else -score.centi_tokens
        text = f"Green {centi / 100:+.2f} tokens" + (f", {percent(share)} to win" if chance else "")
    return {"text": text, "winner": None, "moves": None, "green_share": share}


def green_text(score, turn, chance: bool = True) -> str:
    """:func:`green_view`'s words alone: ``Green +1.25 tokens, 52% to win``, ``Green 62%
    to win``, ``Blue wins in 3`` (plies of both sides).

    >>> from hinge_fast.board import Color
    >>> green_text(Score.loss(4), Color.GREEN), green_text(Score.centi(30), Color.GREEN, chance=False)
    ('Blue wins in 4', 'Green +0.30 tokens')
    """
    return green_view(score, turn, chance)["text"]


def mover_text(score, turn=None) -> str:
    """A score from the side to move's point of view in words, naming that side
    (``turn``, a ``board.Color``; None: "the side to move") and the unit.

    >>> from hinge_fast.board import Color
    >>> mover_text(Score.centi(-3301), Color.BLUE), mover_text(Score.rate(0.625), Color.GREEN)
    ('Blue -33.01 tokens', 'Green 62.5% to win')
    >>> mover_text(Score.loss(4), Color.BLUE), mover_text(Score.centi(125))
    ('Blue loses in 4', '+1.25 tokens for the side to move')
    """
    if score is None:
        return "not fully searched"
    if score.kind == WIN:
        words = f"wins in {int(score.value)}" if score.value else "has won"
    elif score.kind == LOSS:
        words = f"loses in {int(score.value)}" if score.value else "has lost"
    elif score.kind == RATE:
        words = f"{100 * score.value:.1f}% to win"
    else:
        words = f"{score.value / 100:+.2f} tokens"
    if turn is None:
        return f"the side to move {words}" if score.is_mate else f"{words} for the side to move"
    return f"{str(turn).capitalize()} {words}"


def _is_green(turn) -> bool:
    return str(turn) == "green"


def proof_text(winner, distance: int, shortest: bool = False) -> str:
    """A proof's result in words: the winner, and its distance (the longest line of the
    proof) as the bound it is; exact where it is the shortest win (``shortest``, or a win
    in one ply).

    >>> from hinge_fast.board import Color
    >>> proof_text(Color.GREEN, 15), proof_text(Color.BLUE, 1)
    ('Green wins in at most 15 plies (proven)', 'Blue wins in 1 ply (proven)')
    >>> proof_text(Color.GREEN, 13, shortest=True)
    'Green wins in 13 plies (proven, the shortest win)'
    """
    side = str(winner).capitalize()
    if shortest and distance != 1:
        return f"{side} wins in {distance} plies (proven, the shortest win)"
    if distance == 1:
        return f"{side} wins in 1 ply (proven)"
    return f"{side} wins in at most {distance} plies (proven)"
