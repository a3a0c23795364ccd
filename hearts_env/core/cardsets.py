"""Card sets that can hold two copies of a card (two decks shuffled together), as two words.

A one-deck card set is one ``uint64`` word: bit ``c`` is card ``c``. With two decks a set is a
pair of words ``(lo, hi)``: ``lo`` has bit ``c`` when the set holds at least one copy of card
``c`` and ``hi`` when it holds both, so ``hi ⊆ lo`` and the count of card ``c`` is its bit in
``lo`` plus its bit in ``hi``. ``lo`` alone is the set's *identities* (what a legal mask, a
suit test or a lowest-card test reads), and a one-deck set is the pair ``(word, 0)``: the same
calls serve both. Every function here works element-wise on arrays of any shape (or on numpy
scalars); the pure-Python conversions at the end check hand-written deals.

The words are ``np.uint64`` throughout (see :mod:`hearts_env.core.bits` for why).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

import numpy as np

from hearts_env.core.bits import BIT, U64, ZERO, unpack
from hearts_env.core.cards import card_name

Words = tuple[np.ndarray, np.ndarray]
"""A card set of up to two copies: ``(lo, hi)`` with ``hi ⊆ lo``."""


def count(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Cards in each set, both copies counted (int64)."""
    return np.bitwise_count(lo).astype(np.int64) + np.bitwise_count(hi)


def counts(lo: np.ndarray, hi: np.ndarray, width: int) -> np.ndarray:
    """Copies (0, 1, 2) of cards 0..width-1 in each set: uint8, shape ``lo.shape + (width,)``."""
    shape = (*np.shape(lo), width)
    return (unpack(lo, width) + unpack(hi, width)).reshape(shape)


def add(a_lo: np.ndarray, a_hi: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray) -> Words:
    """The multiset sum ``a + b`` (every card at most twice in all: the two decks hold no more)."""
    return a_lo | b_lo, a_hi | b_hi | (a_lo & b_lo)


def subtract(a_lo: np.ndarray, a_hi: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray) -> Words:
    """The multiset difference ``a - b``, for ``b ⊆ a`` (see :func:`contains`)."""
    return (a_hi & ~b_hi) | (a_lo & ~b_lo), a_hi & ~b_lo


def add_one(lo: np.ndarray, hi: np.ndarray, cards: np.ndarray) -> Words:
    """The sets with one more copy of each card of the word ``cards``."""
    return lo | cards, hi | (lo & cards)


def remove_one(lo: np.ndarray, hi: np.ndarray, cards: np.ndarray) -> Words:
    """The sets with one copy fewer of each card of the word ``cards`` (each held at least once)."""
    return lo ^ (cards & ~hi), hi & ~cards


def more_than(a_lo: np.ndarray, a_hi: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray) -> np.ndarray:
    """The word of cards of which ``a`` holds more copies than ``b`` (while passing: the cards
    of a hand not yet all chosen)."""
    return (a_lo & ~b_lo) | (a_hi & ~b_hi)


def contains(a_lo: np.ndarray, a_hi: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray) -> np.ndarray:
    """Whether ``b ⊆ a`` as multisets (bool)."""
    return ((b_lo & ~a_lo) | (b_hi & ~a_hi)) == ZERO


def points(lo: np.ndarray, hi: np.ndarray, mask_points: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Card points of each set, every copy counted, from ``mask_points`` (points of one word)."""
    return mask_points(lo) + mask_points(hi)


def of_cards(cards: np.ndarray) -> Words:
    """The sets of the rows of card indices ``cards`` (..., m) (each card at most twice a row)."""
    cards = np.sort(cards, axis=-1)
    bits = BIT.take(cards)
    twin = np.where(cards[..., 1:] == cards[..., :-1], bits[..., 1:], ZERO)
    lo = np.bitwise_or.reduce(bits, axis=-1, initial=ZERO)
    return lo, np.bitwise_or.reduce(twin, axis=-1, initial=ZERO)


def stack(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The two words side by side on a last axis of 2: how two-deck deals travel (``[..., 0]``
    is ``lo``, ``[..., 1]`` is ``hi``)."""
    return np.stack([np.asarray(lo, U64), np.asarray(hi, U64)], axis=-1)


def from_list(cards: Iterable[int], where: str = "the set") -> tuple[int, int]:
    """``(lo, hi)`` as Python ints from card indices, a card listed twice for both copies;
    ``ValueError`` naming the card (and ``where``) when one is listed three times or more."""
    tally = Counter(int(c) for c in cards)
    over = sorted(c for c, k in tally.items() if k > 2)
    if over:
        raise ValueError(
            f"{where} holds {', '.join(f'{card_name(c)} {tally[c]} times' for c in over)}: "
            "there are only two copies of each card"
        )
    lo = sum(1 << c for c in tally)
    return lo, sum(1 << c for c, k in tally.items() if k == 2)


def to_list(lo: int | np.integer, hi: int | np.integer) -> list[int]:
    """Card indices of a set, lowest first, a card twice when both copies are in it."""
    lo, hi = int(lo), int(hi)
    return sorted(c for c in range(64) for word in (lo, hi) if word >> c & 1)
