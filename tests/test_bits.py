"""The bitboard primitives against Python integers: a bitboard is four uint64 words,
cell c at bit c % 64 of word c // 64."""

import random

import numpy as np
import pytest

from numba import njit

from hinge_fast.core.bits import bb_count, bb_lowest, bb_pop, highest_bit_index64


def as_words(cells):
    words = [0, 0, 0, 0]
    for c in cells:
        words[c // 64] |= 1 << (c % 64)
    return tuple(np.uint64(w) for w in words)


def boards():
    rng = random.Random(7)
    yield [255]
    yield [0]
    for word in range(4):  # the lowest cell in each word, alone and with cells above it
        yield [64 * word + 63]
        yield [64 * word + 5, 64 * word + 63, 250]
    for _ in range(200):
        yield rng.sample(range(256), rng.randint(1, 12))


@pytest.mark.parametrize("cells", list(boards()))
def test_pop_takes_the_lowest_cell_and_keeps_the_others(cells):
    words = as_words(cells)
    lowest, rest = bb_pop(words)
    assert lowest == bb_lowest(words) == min(cells)
    assert tuple(int(w) for w in rest) == tuple(int(w) for w in as_words(set(cells) - {min(cells)}))
    assert bb_count(tuple(np.uint64(w) for w in rest)) == len(cells) - 1


@njit
def highest(word):
    return highest_bit_index64(word)


def test_highest_bit_index_of_every_single_bit_and_random_words():
    for b in range(64):
        assert highest(np.uint64(1) << np.uint64(b)) == b
    rng = random.Random(5)
    for _ in range(200):
        word = rng.getrandbits(rng.randrange(1, 65)) | 1
        assert highest(np.uint64(word)) == word.bit_length() - 1
