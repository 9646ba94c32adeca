"""Tournaments: every player against every other (round robin), or the first against
all the others (gauntlet), rated together.

    >>> from hinge_fast.games.players import get_player
    >>> result = play_tournament([get_player("greedy"), get_player("random")], rounds=1, size=4, seed=1)
    >>> len(result.games), result.pairings
    (2, [(0, 1)])

A tournament is a match runner's schedule with many pairings: ``rounds`` rounds, each
of one pair of games (the same opening, the colours swapped) per pairing. Pair ``k``
is pairing ``k % P`` of round ``k // P`` (``P`` pairings); its games are ``2k`` (the
pairing's first player has Green) and ``2k + 1``, played, opened (book or random plies),
seeded, saved and resumed exactly as a match's (``games/match.py``: :func:`game_plan`,
:func:`game_jobs`, :func:`run_games`, :func:`read_match`), so more rounds add games to a
tournament file. The rating list is fitted over all the games at once
(``games/ratings.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.geometry import check_size
from ..errors import HingeError
from .match import GameSettings, RunSettings, game_jobs, player_label, run_games
from .ratings import fit_ratings, ratings_table


def pairings(players: int, gauntlet: bool = False) -> list:
    """``(i, j)`` index pairs: every pair once (round robin), or the first player with
    each other (gauntlet).

    >>> pairings(3), pairings(3, gauntlet=True)
    ([(0, 1), (0, 2), (1, 2)], [(0, 1), (0, 2)])
    """
    if gauntlet:
        return [(0, j) for j in range(1, players)]
    return [(i, j) for i in range(players) for j in range(i + 1, players)]


def tournament_kind(names, gauntlet: bool) -> str:
    """The ``Tournament`` tag of a tournament's games: its kind and players."""
    return f"{'gauntlet' if gauntlet else 'round robin'}: {', '.join(names)}"


@dataclass
class TournamentResult:
    """The games of a tournament (``{index: Game}``), its players' ``names`` and
    ``pairings``; :meth:`ratings` fits the list, :meth:`summary` and :meth:`figures`
    show it."""

    names: list
    size: int
    pairings: list
    games: dict = field(default_factory=dict)

    def pairing_of(self, index: int) -> tuple:
        return self.pairings[(index // 2) % len(self.pairings)]

    def scores(self) -> list:
        """``(i, j, score of i)`` for every game played."""
        out = []
        for index, game in sorted(self.games.items()):
            i, j = self.pairing_of(index)
            out.append((i, j, game.a_score))
        return out

    def ratings(self) -> list:
        return fit_ratings(self.names, self.scores())

    def crosstable(self) -> list:
        """``[i][j]``: (points of i against j, games)."""
        n = len(self.names)
        table = [[(0.0, 0) for _ in range(n)] for _ in range(n)]
        for i, j, score in self.scores():
            p, g = table[i][j]
            table[i][j] = (p + score, g + 1)
            p, g = table[j][i]
            table[j][i] = (p + 1 - score, g + 1)
        return table

    def figures(self) -> dict:
        """Every figure of the summary, for tools (``tournament --json``)."""
        table = self.crosstable()
        return {
            "size": self.size,
            "games": len(self.games),
            "players": list(self.names),
            "ratings": [r.to_dict() for r in self.ratings()],
            "pairings": [
                {
                    "players": [self.names[i], self.names[j]],
                    "games": table[i][j][1],
                    "points": table[i][j][0],
                }
                for i, j in self.pairings
            ],
            "time_losses": sum(str(g.termination) == "time forfeit" for g in self.games.values()),
            "forfeits": self.forfeits(),
        }

    def forfeits(self) -> dict:
        """``{player: {reason: games}}``: the games each player lost by failing (out of
        time, a crash, an illegal move, a flood of output, a protocol error)."""
        lost: dict = {}
        for index, game in sorted(self.games.items()):
            if game.forfeit:
                i, j = self.pairing_of(index)
                loser = self.names[i] if game.a_score == 0 else self.names[j]
                mine = lost.setdefault(loser, {})
                mine[str(game.termination)] = mine.get(str(game.termination), 0) + 1
        return lost

    def summary(self) -> str:
        lines = [
            f"tournament of {len(self.names)} players on side {self.size}: {len(self.games)} games"
        ]
        if self.games:
            lines.append(ratings_table(self.ratings()))
            table = self.crosstable()
            for i, j in self.pairings:
                points, games = table[i][j]
                if games:
                    lines.append(
                        f"{self.names[i]} vs {self.names[j]}: {points:g} - {games - points:g} in {games} games"
                    )
            for name, lost in self.forfeits().items():
                lines.append(
                    f"{name} forfeited: " + ", ".join(f"{k} {v}" for k, v in sorted(lost.items()))
                )
        return "\n".join(lines)


def play_tournament(
    players,
    rounds: int,
    size: int = 6,
    seed: int | None = None,
    gauntlet: bool = False,
    settings: GameSettings | None = None,
    run: RunSettings | None = None,
) -> TournamentResult:
    """Play a tournament of ``players`` (Players or PlayerSpecs, at least two, their
    names distinct): ``rounds`` rounds of a pair of games per pairing (module
    docstring), round robin or ``gauntlet``. ``seed``, ``settings`` and ``run`` are
    :func:`~hinge_fast.games.match.play_match`'s (``run.progress(result)`` is called
    after each game)."""
    size = check_size(size)
    if len(players) < 2:
        raise HingeError("a tournament needs at least two players")
    names = [player_label(p) for p in players]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise HingeError(f"player {twice[0]} is in the tournament twice: give each player once")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise HingeError(f"rounds must be a whole number of at least 1, not {rounds!r}")
    settings = (settings or GameSettings()).checked(size)
    run = run or RunSettings()
    pairs = pairings(len(players), gauntlet)
    total = 2 * rounds * len(pairs)
    result = TournamentResult(names, size, pairs)
    done = run.already_played(total, "tournament")
    result.games.update(done)

    def players_of(index):
        i, j = result.pairing_of(index)
        return players[i], players[j]

    def take(game) -> bool:
        result.games[game.round - 1] = game
        if run.progress is not None:
            run.progress(result)
        return False

    if len(done) < total:
        run_games(game_jobs(players_of, total, size, seed, settings, done), run, take)
    return result
