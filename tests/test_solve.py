"""The side-4 solver (hinge_fast/core/retro.py, hinge_fast/solving/tablebase.py), its
file format and ``probe``, against brute force through the reference implementation.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.cli import main
from hinge_fast.core.fen import format_fen
from hinge_fast.errors import HingeError
from hinge_fast.solving import tablebase as tbmod
from hinge_fast.solving.tablebase import Tablebase, probe, solve, write_tablebase

#: Late side-4 positions whose game trees are small enough for the reference.
LATE_POSITIONS = [
    "4/1bgg1/2bb2/2bgg2/1ggb2/2gb1/4 b",  # 1,380 positions, Blue wins in 3
    "4/1bb2/2b3/1ggg1b1/1g1gb1/1ggb1/4 b",  # 1,549 positions
    "4/1gbb1/1gg1b1/1bb1b2/1bgbg1/1ggg1/4 g",  # Green loses in 4
]


def side4_masks(board):
    own, enemy = board.own, board.enemy
    return int(own[0]), int(enemy[0])


def _random_position(rng, tokens):
    geo_cells = list(range(19))
    rng.shuffle(geo_cells)
    green = [c for c in geo_cells[:tokens] if rng.random() < 0.5]
    blue = [c for c in geo_cells[:tokens] if c not in green]
    return Board.from_fen(format_fen(4, green, blue, rng.randrange(2)))


def brute_force(fen):
    """Every position reachable from ``fen`` through the reference move generator,
    with its value by rounds of the definition: a position is a win in d when a
    child is a loss in d-1 (the first such d), a loss in d when every child is a win
    and the longest is d-1; a position without moves is a loss in 0."""
    start = ref.parse_position(fen)
    children = {}
    todo = [start]
    while todo:
        pos = todo.pop()
        if pos in children:
            continue
        kids = [ref.play(pos, m) for m in ref.legal_moves(pos)]
        children[pos] = kids
        todo.extend(k for k in kids if k not in children)
    value = {}
    d = 0
    while len(value) < len(children):
        new = {}
        for pos, kids in children.items():
            if pos in value:
                continue
            known = [value.get(k) for k in kids]
            if any(v is not None and not v[0] and v[1] == d - 1 for v in known):
                new[pos] = (True, d)
            elif (
                all(v is not None and v[0] for v in known)
                and max((v[1] for v in known), default=-1) == d - 1
            ):
                new[pos] = (False, d)
        value.update(new)
        d += 1
        assert d < 300, "positions without a forced result"
    return value


@pytest.fixture(scope="module", params=LATE_POSITIONS)
def solved(request):
    fen = request.param
    return fen, solve(fen, progress=False), brute_force(fen)


@pytest.fixture(scope="module")
def written(solved, tmp_path_factory):
    """(fen, result, truth, path of the tablebase file written from result)."""
    fen, result, truth = solved
    path = tmp_path_factory.mktemp("tb") / "t.tb"
    write_tablebase(result, path, facts={"test": True})
    return fen, result, truth, path


def test_symmetries_commute_with_the_rules():
    """Each of the 12 symmetries maps the moves of a position onto those of its image:
    the canonical indices of the children agree, which also checks the index tables."""
    from hinge_fast.core import retro
    from hinge_fast.core.symmetry import symmetry_permutations

    perms = symmetry_permutations(4)
    assert sorted(map(tuple, np.sort(perms, axis=1))) == [tuple(range(19))] * 12
    assert len({tuple(p) for p in perms}) == 12
    rng = random.Random(12)
    for _trial in range(60):
        board = _random_position(rng, rng.randrange(2, 17))

        def child_classes(b):
            out = []
            for m in b.legal_moves:
                c = b.copy()
                c.push(m)
                out.append(int(retro.canonical_index(*side4_masks(c))))
            return sorted(out)

        base = child_classes(board)
        own, enemy = side4_masks(board)
        for s in range(12):
            image_green = [
                int(perms[s][c]) for c in range(19) if (own if board.turn == 0 else enemy) >> c & 1
            ]
            image_blue = [
                int(perms[s][c]) for c in range(19) if (enemy if board.turn == 0 else own) >> c & 1
            ]
            image = Board.from_fen(format_fen(4, image_green, image_blue, int(board.turn)))
            assert retro.index_under(s, own, enemy) == retro.index_under(0, *side4_masks(image))
            assert retro.canonical_index(*side4_masks(image)) == retro.canonical_index(own, enemy)
            assert child_classes(image) == base


def test_index_decodes():
    from hinge_fast.core import retro

    rng = random.Random(5)
    for _ in range(200):
        own = rng.getrandbits(19)
        enemy = rng.getrandbits(19) & ~own
        index = retro.index_under(0, own, enemy)
        assert 0 <= index < retro.N_INDEX
        assert tuple(int(x) for x in retro.decode_index(index)) == (own, enemy)


def test_orbit_size_counts_the_distinct_images():
    """The orbit size (each class of the solver's counts weighs that many positions) is
    the number of distinct positions among the 12 images, on random positions and on
    symmetric ones (one token at the centre: 1 image; two opposite tokens: 6)."""
    from hinge_fast.core import retro

    rng = random.Random(7)
    cases = [(0, 0), (1 << 9, 0), (1 << 0, 1 << 18), ((1 << 0) | (1 << 18), 1 << 9)]
    for _ in range(300):
        own = rng.getrandbits(19) & rng.getrandbits(19)
        cases.append((own, rng.getrandbits(19) & rng.getrandbits(19) & ~own))
    sizes = set()
    for own, enemy in cases:
        images = {int(retro.index_under(s, own, enemy)) for s in range(12)}
        assert int(retro.orbit_size(own, enemy)) == len(images), (own, enemy)
        sizes.add(len(images))
    assert {1, 12} <= sizes and len(sizes) >= 3


def test_solver_matches_brute_force(solved):
    """Every position of the tree: the same value and distance as the reference's
    brute force, and the same set of reachable positions (up to symmetry)."""
    from hinge_fast.core import retro

    fen, result, truth = solved
    seen = set()
    for pos, (win, distance) in truth.items():
        board = Board.from_fen(ref.format_position(pos))
        index = int(retro.canonical_index(*side4_masks(board)))
        code = int(result.values[index])
        assert code != 0, ref.format_position(pos)
        assert (bool(retro.code_win(code)), int(retro.code_distance(code))) == (win, distance), (
            ref.format_position(pos)
        )
        seen.add(index)
    assert len(seen) == result.classes
    assert result.unsolved == 0
    assert int(np.count_nonzero(result.values)) == result.classes


def test_medium_tree_is_consistent():
    """A larger tree (404,015 classes from a 9-token position), too large for the
    reference: every position's value is the minimax of its children's values,
    which with finite distances makes the table exact (induction on the distance)."""
    result = solve("4/3b1/2g3/1b2b2/1b1gg1/2gg1/4 b", progress=False)
    assert result.classes == 404_015 and result.unsolved == 0
    assert tbmod.count_inconsistent(result) == 0
    # The check sees a wrong entry.

    index = result.start_index
    code = int(result.values[index])
    result.values[index] = code + 2  # one ply longer
    assert tbmod.count_inconsistent(result) >= 1
    result.values[index] = code


def test_file_round_trip_and_probe(written):
    fen, result, truth, path = written
    tb = Tablebase(path, verify=True)
    assert tb.header["side"] == 4 and tb.header["facts"] == {"test": True}
    board = Board.from_fen(fen)
    answer = probe(board, tb)
    win, distance = truth[ref.parse_position(fen)]
    assert (answer.win, answer.distance) == (win, distance)
    assert len(answer.moves) == len(board.legal_moves)
    for mv in answer.moves:
        child = board.copy()
        child.push(mv.move)
        c_win, c_distance = truth[ref.parse_position(child.fen())]
        assert (mv.win, mv.distance) == (not c_win, c_distance + 1)
    # Best first: the value of the position is the value of its first move.
    if answer.moves:
        assert (answer.moves[0].win, answer.moves[0].distance) == (win, distance)
    keys = [(not m.win, m.distance if m.win else -m.distance) for m in answer.moves]
    assert keys == sorted(keys)


def test_checksum_failures_are_detected(written, tmp_path):
    fen, result, _, path = written
    data = bytearray(path.read_bytes())
    tb = Tablebase(path)
    offset, length, _ = tb.records[result.start_index // tb.block_entries]
    data[tb.payload_start + offset + length // 2] ^= 0xFF
    bad = tmp_path / "bad.tb"
    bad.write_bytes(bytes(data))
    with pytest.raises(HingeError, match="checksum"):
        Tablebase(bad, verify=True)
    with pytest.raises(HingeError, match="corrupt"):
        probe(Board.from_fen(fen), Tablebase(bad))
    truncated = tmp_path / "short.tb"
    truncated.write_bytes(bytes(data[:-10]))
    with pytest.raises(HingeError, match="truncated"):
        Tablebase(truncated)
    junk = tmp_path / "junk.tb"
    junk.write_bytes(b"not a tablebase at all")
    with pytest.raises(HingeError, match="not a hinge-fast tablebase"):
        Tablebase(junk)
    with pytest.raises(HingeError, match="no tablebase"):
        Tablebase(tmp_path / "missing.tb")


def test_probe_command(written, capsys):
    fen, result, truth, path = written
    assert main(["probe", fen, "--tablebase", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    win, distance = truth[ref.parse_position(fen)]
    board = Board.from_fen(fen)
    mover = str(board.turn).capitalize()
    assert (
        out[0]
        == f"{mover} to move {'wins' if win else 'loses'} in {distance} {'ply' if distance == 1 else 'plies'}"
    )
    assert len(out) == 1 + len(board.legal_moves)
    assert {line.split()[0] for line in out[1:]} == {str(m) for m in board.legal_moves}
    assert all(
        re.fullmatch(
            r"\S+ +win for (green|blue) in \d+ ply|\S+ +win for (green|blue) in \d+ plies", line
        )
        for line in out[1:]
    )


def test_probe_errors(tmp_path, capsys):
    assert main(["probe", "start", "--size", "6", "--tablebase", str(tmp_path / "x.tb")]) == 2
    assert "side-4" in capsys.readouterr().err
    assert main(["probe", "start", "--size", "4", "--tablebase", str(tmp_path / "x.tb")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no tablebase") and err.count("\n") == 1


def test_a_bare_probe_asks_for_the_empty_side_4_board(tmp_path, capsys):
    assert main(["probe", "--tablebase", str(tmp_path / "x.tb")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no tablebase") and err.count("\n") == 1


def test_probe_outside_a_table_of_solve_from_names_its_start(written, tmp_path, capsys):
    fen, result, _, _ = written
    path = tmp_path / "from.tb"
    write_tablebase(result, path, facts={"from": fen})
    assert main(["probe", "--tablebase", str(path)]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"error: this position is not in this table (it covers the positions reachable from {fen})\n"
    )


def test_probe_unreachable_position(written):
    fen, result, _, path = written
    # Not reachable from this late start: the empty board.
    with pytest.raises(HingeError, match="not in the tablebase"):
        probe(Board(4), Tablebase(path))


def test_default_location_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert tbmod.default_tablebase_path() == tmp_path / "hinge-fast" / "side4.tb"


def test_solve_refuses_other_sides(capsys):
    assert main(["solve", "--size", "6"]) == 2
    err = capsys.readouterr().err
    assert "only the side-4 board can be solved" in err and err.count("\n") == 1
