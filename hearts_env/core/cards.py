"""Cards, their two text notations, and decks.

A card is an ``int`` index. The 52 standard cards are numbered suit by suit in the order
clubs, diamonds, hearts, spades, each from 2 up to the ace::

    index = 13 * suit + rank        # suit: 0 ♣, 1 ♦, 2 ♥, 3 ♠;  rank: 0 = "2" ... 12 = "A"

so the cards of one suit are 13 consecutive bits of a ``uint64`` hand mask and, inside a
suit, a higher index is a higher card. Jokers follow the standard cards: ``JK1`` = 52,
``JK2`` = 53. A two-deck game holds two copies of some indices; its hands are card counts,
not bitmasks (see :class:`Deck`).

Both notations of docs/rules.md are accepted: ``"QS"``, ``"Q♠"``, ``"10H"``, ``"TH"``, ``"10♥"``.
``card_name`` gives the short ASCII form and ``card_symbol`` the Unicode form for display.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANKS = "23456789TJQKA"
NUM_SUITS = 4
NUM_RANKS = 13
NUM_STANDARD_CARDS = 52
JOKERS = (52, 53)
NUM_CARDS = 54  # 52 standard cards + 2 jokers: the size of every card-indexed table

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

_SUIT_OF_LETTER = {letter: s for s, letter in enumerate(SUITS)}
_SUIT_OF_LETTER.update({symbol: s for s, symbol in enumerate(SUIT_SYMBOLS)})
_RANK_OF_TEXT = {letter: r for r, letter in enumerate(RANKS)}
_RANK_OF_TEXT["10"] = RANKS.index("T")
_JOKER_NAMES = {"JK1": 52, "JK2": 53, "🃏1": 52, "🃏2": 53}


def card(rank: int, suit: int) -> int:
    """Index of the standard card of ``rank`` (0 = "2" … 12 = "A") and ``suit`` (0 ♣ … 3 ♠)."""
    if not (0 <= rank < NUM_RANKS and 0 <= suit < NUM_SUITS):
        raise ValueError(f"no card with rank {rank} and suit {suit}: rank is 0..12, suit 0..3")
    return NUM_RANKS * suit + rank


def suit_of(index: int) -> int:
    """Suit (0 ♣, 1 ♦, 2 ♥, 3 ♠) of a standard card; jokers have no suit and raise."""
    if not 0 <= index < NUM_STANDARD_CARDS:
        raise ValueError(f"card {index} has no suit (standard cards are 0..51)")
    return index // NUM_RANKS


def rank_of(index: int) -> int:
    """Rank (0 = "2" … 12 = "A") of a standard card."""
    if not 0 <= index < NUM_STANDARD_CARDS:
        raise ValueError(f"card {index} has no rank (standard cards are 0..51)")
    return index % NUM_RANKS


def parse_card(text: str | int) -> int:
    """Card index from ``"QS"``, ``"Q♠"``, ``"10H"``, ``"TH"``, ``"JK1"``; an int passes through.

    Raises ``ValueError`` naming the text and the accepted forms.
    """
    if isinstance(text, (int, np.integer)) and not isinstance(text, bool):
        index = int(text)
        if not 0 <= index < NUM_CARDS:
            raise ValueError(f"card index {index} out of range 0..{NUM_CARDS - 1}")
        return index
    if not isinstance(text, str):
        raise TypeError(
            f"a card is a string like 'QS' or 'Q♠' or an int index, not {type(text).__name__} {text!r}"
        )
    cleaned = text.strip().upper().replace("\ufe0f", "")
    if cleaned in _JOKER_NAMES:
        return _JOKER_NAMES[cleaned]
    rank_text, suit_text = cleaned[:-1], cleaned[-1:]
    if rank_text not in _RANK_OF_TEXT or suit_text not in _SUIT_OF_LETTER:
        raise ValueError(
            f"cannot read card {text!r}: write rank 2-9, T/10, J, Q, K, A then suit C D H S "
            f"or ♣ ♦ ♥ ♠ (e.g. 'QS', 'Q♠', '10H'), or JK1/JK2 for a joker"
        )
    return card(_RANK_OF_TEXT[rank_text], _SUIT_OF_LETTER[suit_text])


def parse_cards(texts: str | Iterable[str | int]) -> list[int]:
    """Card indices from an iterable of cards or a whitespace-separated string ``"2C QS 10♥"``."""
    if isinstance(texts, str):
        texts = texts.split()
    return [parse_card(t) for t in texts]


def card_name(index: int) -> str:
    """Short ASCII name: ``card_name(parse_card("Q♠")) == "QS"``; tens are ``"T"``."""
    index = int(index)
    if index in JOKERS:
        return f"JK{index - 51}"
    return RANKS[rank_of(index)] + SUITS[suit_of(index)]


def card_symbol(index: int) -> str:
    """Display name with a suit symbol: ``"Q♠"``, ``"10♥"``, ``"🃏1"``."""
    index = int(index)
    if index in JOKERS:
        return f"🃏{index - 51}"
    rank = RANKS[rank_of(index)]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(index)]


def mask_of(cards: Iterable[int | str]) -> int:
    """Python-int bitmask of distinct cards (bit ``i`` set for card ``i``)."""
    mask = 0
    for c in cards:
        mask |= 1 << parse_card(c)
    return mask


def cards_of(mask: int) -> list[int]:
    """Card indices in a bitmask, lowest first."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


SUIT_MASKS = tuple(((1 << NUM_RANKS) - 1) << (NUM_RANKS * s) for s in range(NUM_SUITS))
"""Bitmask of each suit's 13 cards, as Python ints."""


@dataclass(frozen=True)
class Deck:
    """The cards a variant deals: which standard cards are removed, how many jokers, how many copies.

    ``copies`` = 2 is a two-deck game (Cancellation Hearts): every card index then exists twice
    and hands are counts per index rather than bitmasks.
    """

    removed: tuple[int, ...] = ()
    jokers: int = 0
    copies: int = 1

    def __post_init__(self) -> None:
        if self.copies not in (1, 2):
            raise ValueError(f"copies must be 1 or 2 decks, got {self.copies}")
        if not 0 <= self.jokers <= 2:
            raise ValueError(f"jokers must be 0, 1 or 2, got {self.jokers}")
        if len(set(self.removed)) != len(self.removed):
            raise ValueError(f"removed cards repeat: {[card_name(c) for c in self.removed]}")

    @property
    def cards(self) -> list[int]:
        """Every card of the deck once per copy, in index order."""
        one = [c for c in range(NUM_STANDARD_CARDS) if c not in self.removed]
        one += list(JOKERS[: self.jokers])
        return sorted(one * self.copies)

    @property
    def mask(self) -> int:
        """Bitmask of the distinct card indices in the deck."""
        return mask_of(set(self.cards))

    def __len__(self) -> int:
        return len(self.cards)
