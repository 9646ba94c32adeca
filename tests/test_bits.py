"""The word intrinsics (``core/bits.py``) against Python integers."""

import random

import numpy as np
from numba import njit

from hinge_fast.core.bits import highest_bit_index64, lowest_bit_index64, popcount64


@njit(cache=True)
def bit_facts(word):
    return popcount64(word), lowest_bit_index64(word), highest_bit_index64(word)


def test_counts_and_lowest_and_highest_bits_of_words():
    rng = random.Random(7)
    words = [1, 1 << 63, (1 << 64) - 1, 0b1011000] + [
        rng.getrandbits(64) | 1 << rng.randrange(64) for _ in range(300)
    ]
    for word in words:
        count, low, high = bit_facts(np.uint64(word))
        assert (int(count), int(low), int(high)) == (
            bin(word).count("1"),
            (word & -word).bit_length() - 1,
            word.bit_length() - 1,
        ), hex(word)
