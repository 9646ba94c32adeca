"""Match files: a match saved game by game as game records, tagged with the settings
that decide its games, and read back to resume it (``match --resume``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..board import Color, Termination
from ..errors import HingeError
from ..records.record import MAX_RECORD_BYTES, parse_records
from .results import Game


@dataclass(frozen=True)
class MatchSettings:
    """What decides a match's games, written as tags on each game of its record file
    (``PlayerA``, ``PlayerB``, ``Limit``, ``MaxPlies``, ``Seed``; the side and the
    opening length are the ``Size`` and ``Opening`` tags, the game's index is
    ``Round`` - 1), so that ``match --resume`` knows which games are done and refuses
    a file made with other settings. ``limit``: ``'nodes 200'``, ``'time 0.1'`` or
    ``'tc 10+0.1'``; ``seed``: the command's seed; ``book``: the book's ``Book`` tag
    (``Book.tag``; None: random openings of ``openings`` plies); ``tournament``: for a
    game of a tournament, the tournament's ``Tournament`` tag (its kind and players)."""

    player_a: str
    player_b: str
    size: int
    openings: int
    max_plies: int
    limit: str
    seed: int
    book: str | None = None
    tournament: str | None = None

    def tags(self) -> dict:
        tags = {
            "PlayerA": self.player_a,
            "PlayerB": self.player_b,
            "Limit": self.limit,
            "MaxPlies": str(self.max_plies),
            "Seed": str(self.seed),
        }
        if self.book is not None:
            tags["Book"] = self.book
        if self.tournament is not None:
            tags["Event"] = "hinge-fast tournament"
            tags["Tournament"] = self.tournament
        return tags

    def check(self, record, where: str) -> None:
        """HingeError naming the first setting on which ``record`` differs."""
        found = {
            "PlayerA": (record.tags.get("PlayerA"), self.player_a),
            "PlayerB": (record.tags.get("PlayerB"), self.player_b),
            "Size": (str(record.size), str(self.size)),
            "Book": (record.tags.get("Book", "none"), self.book or "none"),
            "Opening": (
                record.tags.get("Opening"),
                str(self.openings) if self.book is None else record.tags.get("Opening"),
            ),
            "Limit": (record.tags.get("Limit"), self.limit),
            "MaxPlies": (record.tags.get("MaxPlies"), str(self.max_plies)),
            "Seed": (record.tags.get("Seed"), str(self.seed)),
            "Tournament": (record.tags.get("Tournament", "none"), self.tournament or "none"),
        }
        for tag, (theirs, ours) in found.items():
            if theirs is None:
                raise HingeError(
                    f"{where} has no {tag} tag: it is not a file written by match --out or --resume"
                )
            if theirs != ours:
                raise HingeError(
                    f"{where} was played with {tag} {theirs!r}, not {ours!r}: resume with the same settings"
                )


#: A whole game ends with its result token, alone after the moves (not in a tag line:
#: a game torn inside ``[Result "green"]`` must not pass for a whole one).
_RESULT_AT_END = re.compile(r"(?:\A|\n)(?![ \t]*\[)[^\n]*(?<![^\s])(?:green|blue|unfinished)\s*\Z")
_GAME_START = re.compile(r"\n[ \t\r]*\n(?=\[)")
#: A game number in a match file's tags: ASCII digits, at most nine of them.
_GAME_NUMBER = re.compile(r"[0-9]{1,9}")


def tag_number(record, tag: str, where: str, default: str | None = None) -> int:
    """The whole number of ``record``'s tag ``tag`` (ASCII digits only, at most nine);
    HingeError naming ``where`` for anything else."""
    text = record.tags.get(tag, default)
    if text is None or not _GAME_NUMBER.fullmatch(text):
        shown = repr(text if text is None or len(text) <= 20 else text[:20] + "...")
        raise HingeError(f"{where} has {tag} {shown}, not a whole number of at most 9 digits")
    return int(text)


def read_match_file(path) -> tuple[list, int]:
    """``(records, length)``: the whole games of a match file and the length in bytes
    of the text holding them. A game cut short by a killed process (the last one,
    without its result token) is left out of both; any other flaw is a HingeError."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_RECORD_BYTES:
                raise HingeError(f"match file {path} is over {MAX_RECORD_BYTES >> 20} MB")
            data = f.read(size + 1)  # a read of the maximum would allocate it all at once
    except FileNotFoundError:
        return [], 0
    except IsADirectoryError:
        raise HingeError(f"match file {path} is a folder, not a file") from None
    except OSError as e:
        raise HingeError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise HingeError(f"match file {path} is over {MAX_RECORD_BYTES >> 20} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")  # a character cut in two at the end
    starts = [0] + [m.end() for m in _GAME_START.finditer(text)]
    end = len(text)
    if text.strip() and not _RESULT_AT_END.search(text[starts[-1] :]):
        end = starts[-1]  # the last game was being written when the match stopped
    good = text[:end]
    try:
        records = parse_records(good)
    except HingeError as e:
        raise HingeError(f"{path}: {e}") from None
    return records, len(good.encode("utf-8"))


def game_from_record(record, where: str = "the match file") -> Game:
    """The Game of a match file's record (tags as :meth:`Game.record` writes them)."""
    index = tag_number(record, "Round", where) - 1
    if index < 0:
        raise HingeError(f"{where} has Round 0, not a game number")
    return Game(
        round=index + 1,
        green=record.tags.get("Green", "?"),
        blue=record.tags.get("Blue", "?"),
        a_color=Color.GREEN if index % 2 == 0 else Color.BLUE,
        moves=list(record.moves),
        result=record.result,
        termination=_termination(record),
        opening_plies=tag_number(record, "Opening", where, "0"),
        size=record.size,
        start=record.start,
        detail=record.tags.get("Forfeit"),
    )


def _termination(record) -> Termination:
    try:
        return Termination(record.termination or "max plies")
    except ValueError:
        raise HingeError(
            f"game {record.tags.get('Round', '?')} ended by {record.termination!r}, not by a match's endings"
        ) from None


def read_match(path, settings) -> tuple[dict, int]:
    """``({index: Game}, length)``: the games already in a match file (``done`` for
    :func:`play_match`), checked against ``settings`` (a :class:`MatchSettings`, or a
    function of the game's index giving one: a tournament's), and the length of the
    text holding them (the file is cut there before new games are added)."""
    records, length = read_match_file(path)
    done = {}
    for number, record in enumerate(records, start=1):
        where = f"{path} (game {number})"
        if record.tags.get("Round") is None:
            raise HingeError(
                f"{where} has no Round tag: it is not a file written by match --out or --resume"
            )
        number_tag = tag_number(record, "Round", where)
        if number_tag < 1:
            raise HingeError(f"{where} has Round 0, not a game number")
        if callable(settings):
            expected = settings(number_tag - 1)
            if expected is None:
                raise HingeError(f"{where} is game {number_tag}, past the games of these settings")
        else:
            expected = settings
        if expected is not None:
            expected.check(record, where)
        game = game_from_record(record, where)
        if game.round - 1 in done:
            raise HingeError(f"{where}: game {game.round} is in the file twice")
        done[game.round - 1] = game
    return done, length


def cut_file(path, length) -> None:
    """Cut a match file at ``length`` bytes (dropping a game cut short, as
    :func:`read_match` measures), creating it if need be."""
    try:
        with open(path, "a"):
            pass
        if os.path.getsize(path) > length:
            os.truncate(path, length)
    except OSError as e:
        raise HingeError(f"cannot write {path}: {e.strerror or e}") from None


def seed_of_match_file(path) -> int | None:
    """The ``Seed`` tag of a match file's first game (None: no game, or no such tag)."""
    records, _ = read_match_file(path)
    if not records:
        return None
    seed = records[0].tags.get("Seed", "")
    return int(seed) if re.fullmatch(r"[0-9]{1,19}", seed) else None
