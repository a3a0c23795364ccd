"""Rollout players: fast policies that play a batch of Hearts-family games to the end of the deal.

A search agent (``pimc``) plays each candidate action out in many sampled worlds; what it
needs from the players of those rollouts is speed, so these read the engine's state directly
(the cards on the table and the card winning the trick, as bit masks) rather than an
observation. They live beside the engine for that reason; :meth:`hearts_env.Table.play_out`
runs them.

==========  =========================================================================
``random``  a uniformly random legal card (and decision)
``lowest``  the lowest legal card
``ducker``  following: the highest card of the suit led that does not take the trick
            (the lowest if every card would; the highest when last to play and
            winning anyway); void: Q♠, else the highest heart, else the highest card;
            leading: the lowest card
``fast``    ``ducker`` with the strategy text's first rules: leads the lowest-ranked
            card (not Q♠, K♠, A♠ while Q♠ is out), takes a trick it cannot duck
            with its highest card when last and no points are on it, and sheds
            K♠ / A♠ before hearts while Q♠ is out
==========  =========================================================================

Decisions other than cards (only the moon choice comes after play begins) are random under
``random`` and ``moon:subtract`` under the others.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hearts_env.core.bits import BIT, SUIT_MASK, U64, ZERO, random_bit
from hearts_env.core.cards import HEARTS, parse_card

ROLLOUTS = ("random", "lowest", "ducker", "fast")
"""The rollout players' names."""

_LOW32 = U64(0xFFFFFFFF)
_QS = BIT[parse_card("QS")]
_LEAD = np.concatenate([SUIT_MASK, [ZERO]]).astype(U64)  # 4: a joker led, no suit yet


def highest_bit(masks: np.ndarray) -> np.ndarray:
    """(k,) int64: the index of the highest set bit of each non-zero uint64 mask (-1 for 0)."""
    high = masks >> U64(32)
    upper = high != ZERO
    word = np.where(upper, high, masks & _LOW32).astype(np.float64)  # exact below 2**53
    bit = np.frexp(word)[1].astype(np.int64) - 1
    return np.where(masks == ZERO, -1, bit + 32 * upper)


def lowest_bit(masks: np.ndarray) -> np.ndarray:
    """(k,) uint64: the lowest set bit of each mask, as a mask."""
    return masks & (~masks + U64(1))


def _random(engine: object, s: object, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return random_bit(legal, rng)


def _lowest(engine: object, s: object, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return highest_bit(lowest_bit(legal))


def _trick(s: object, legal: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per game: leading, the legal cards of the suit led, those below the card winning the
    trick (they duck), and whether the acting seat plays last to the trick."""
    suited = legal & _LEAD.take(s.lead_suit)
    best_card = np.where(s.best >= 0, s.best >> 4, 0)
    below = suited & ((U64(1) << best_card.astype(U64)) - U64(1))
    return s.position == 0, suited, below, s.position + 1 == s.trick_size


def _ducker(engine: object, s: object, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    leading, suited, below, last = _trick(s, legal)
    follow = np.where(below != ZERO, below, np.where(last, suited, lowest_bit(suited)))
    hearts = legal & SUIT_MASK[HEARTS]
    shed = np.where((legal & _QS) != ZERO, _QS, np.where(hearts != ZERO, hearts, legal))
    pick = np.where(leading, lowest_bit(legal), np.where(suited != ZERO, follow, shed))
    return highest_bit(pick)


_RANKS = np.array([(1 << 13) - 1 << 13 * suit for suit in range(4)], U64)
_HIGH_SPADES = BIT[parse_card("KS")] | BIT[parse_card("AS")]


def _lowest_rank(masks: np.ndarray) -> np.ndarray:
    """(k,) uint64: of each mask's cards, one of the lowest rank (the lowest suit on ties)."""
    ranks = np.zeros(len(masks), U64)
    for suit in range(4):  # fold the suits onto the ranks: bit r set when some suit has rank r
        ranks |= (masks & _RANKS[suit]) >> U64(13 * suit)
    low = lowest_bit(ranks)
    pick = np.zeros(len(masks), U64)
    for suit in (3, 2, 1, 0):
        at = (masks >> U64(13 * suit)) & low
        pick = np.where(at != ZERO, at << U64(13 * suit), pick)
    return np.where(pick != ZERO, pick, lowest_bit(masks))


def _fast(engine: object, s: object, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    leading, suited, below, last = _trick(s, legal)
    points_out = (s.trick_mask & engine.penalty) != ZERO
    # cannot duck: last to play with no points on the table takes with the highest card (not Q♠)
    high = np.where(suited & ~_QS != ZERO, suited & ~_QS, suited)
    follow = np.where(below != ZERO, below, np.where(last & ~points_out, high, lowest_bit(suited)))
    queen_out = (s.played & _QS) == ZERO
    hearts = legal & SUIT_MASK[HEARTS]
    high_spades = legal & _HIGH_SPADES
    shed = np.where(
        (legal & _QS) != ZERO,
        _QS,
        np.where(queen_out & (high_spades != ZERO), high_spades, np.where(hearts != ZERO, hearts, legal)),
    )
    safe_lead = legal & ~(_QS | _HIGH_SPADES)
    opening = np.where(queen_out & (safe_lead != ZERO), safe_lead, legal)
    pick = np.where(leading, _lowest_rank(opening), np.where(suited != ZERO, follow, shed))
    return highest_bit(np.where(leading, pick, pick))


POLICIES: dict[str, Callable[..., np.ndarray]] = {
    "random": _random, "lowest": _lowest, "ducker": _ducker, "fast": _fast,
}  # fmt: skip
"""Rollout name -> ``policy(engine, state, legal, rng) -> (B,) card indices`` (legal cards as
the engine's (B,) uint64 masks; games not in play get any card, which the caller ignores)."""
