"""uint64 card-set helpers shared by the batched engine and the observation builder.

Every constant here is ``np.uint64``: numpy 2 promotes uint64 mixed with Python ints or int64
to float64, which silently corrupts bit masks (ENGINE-NOTES.md).
"""

from __future__ import annotations

import numpy as np

from hearts_env.core.cards import NUM_RANKS, NUM_SUITS

U64 = np.uint64
ZERO = U64(0)
EMPTY = 64
"""Card slot value meaning "no card": ``BIT[EMPTY] == 0``."""

BIT = np.array([1 << i for i in range(64)] + [0], dtype=U64)
"""``BIT[c]`` is the mask of card ``c``; ``BIT[EMPTY]`` is 0."""

SUIT_MASK = np.array([((1 << NUM_RANKS) - 1) << (NUM_RANKS * s) for s in range(NUM_SUITS)], dtype=U64)
"""Mask of each suit's 13 cards."""

SUIT_OF = np.array([c // NUM_RANKS if c < 52 else NUM_SUITS for c in range(65)], dtype=np.int64)
"""Suit of each card index; jokers and EMPTY get the pseudo-suit 4."""


def u64(mask: int) -> np.uint64:
    """A Python-int mask as ``np.uint64``."""
    return U64(mask)


def unpack(masks: np.ndarray, width: int) -> np.ndarray:
    """Bits 0..width-1 of uint64 masks as uint8 0/1, shape ``masks.shape + (width,)``."""
    masks = np.ascontiguousarray(masks, dtype=U64)
    bits = np.unpackbits(masks.view(np.uint8).reshape(*masks.shape, 8), axis=-1, bitorder="little")
    return bits[..., :width]


def popcount(masks: np.ndarray) -> np.ndarray:
    """Number of cards in each mask."""
    return np.bitwise_count(masks)


def _select_table() -> np.ndarray:
    bits = np.unpackbits(
        np.arange(1 << 16, dtype="<u2").view(np.uint8).reshape(-1, 2), axis=1, bitorder="little"
    )
    order = np.argsort(1 - bits, axis=1, kind="stable")  # positions of set bits first, in order
    return order.astype(np.uint8)


_SELECT = _select_table().reshape(-1)
"""``_SELECT[16 * w + k]``: position of the k-th set bit of the 16-bit word ``w``."""

_LOW32, _LOW16 = U64(0xFFFFFFFF), U64(0xFFFF)


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of a (B, A) mask (non-zero = legal)."""
    return np.argmax(np.where(mask > 0, rng.random(mask.shape), -1.0), axis=1)


def random_bit(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random set bit of each non-zero uint64 mask (popcount binary search).

    Counts stay uint8 and the last 16-bit word goes through one table: about 18 ns a mask.
    """
    k = (rng.random(masks.shape, dtype=np.float32) * popcount(masks)).astype(np.uint8)
    low = masks & _LOW32
    count = popcount(low)
    high32 = k >= count  # the k-th bit is in the upper half
    k -= count * high32
    window = np.where(high32, masks >> U64(32), low)
    low = window & _LOW16
    count = popcount(low)
    high16 = k >= count
    k -= count * high16
    window = np.where(high16, window >> U64(16), low)
    position = _SELECT[(window << U64(4)).view(np.int64) | k]
    return position.astype(np.int64) + (high32.view(np.uint8) << 5) + (high16.view(np.uint8) << 4)
