"""Worlds consistent with what one seat has seen: exact counts and uniform draws (every family).

A *world* gives every card the observing seat cannot see a place: another seat's hand, or the
unseen rest of the deck outside the hands (the kitty or widow that went face down to another
seat, or Domino Hearts' stock). :func:`sample_worlds` draws worlds uniformly among all those
consistent with one observation (the float32 vector of :class:`~hearts_env.table.Table` or the
envs, read through :func:`hearts_env.layout`), and :func:`exact_count` counts them. Both read
only the observation and the rules.

**What constrains a world** (only hard facts; the sampler uses no inference from how the
others played, bid or passed):

* the observer's own hand, and every card played this deal and by whom (``played_by_seat``,
  the current trick included);
* the cards the observer passed: once the exchange is made, the receiver holds each passed
  card he has not played since (the copies passed minus the copies he played, with two decks);
  the cards received are in the observer's hand or played, like his own;
* the suits each seat has shown out of (``known_voids``): that seat holds none of the suit now
  (a joker is in no suit and fits every hand);
* every seat's hand size now: the cards dealt less the cards it has played (Domino Hearts:
  the ``hand_sizes`` piece, since draws change them);
* the kitty (``leftover="kitty"``, Heartsette's widow): unseen unless the observer took it with
  the first trick (then its cards are known); Domino Hearts' stock, of the size ``stock_left``
  says, is unseen;
* the deck: removed cards, jokers, and with two decks (Cancellation Hearts) two copies of
  every card.

**Two decks.** The two copies of a card are two cards of the shuffle, and a world places each
unseen copy. Read as counts (the (lo, hi) card sets of :mod:`hearts_env.core.cardsets`), a world
where the two unseen copies of a card lie in different places is reached by two placements and
one where they lie together by one, so the draw gives the first twice the weight, as a shuffle
does. :func:`exact_count` counts placements of copies. (Where a seat played one copy and the
other is unseen, the deal itself gives the other copy half the weight in that seat's hand; the
sampler, which does not trace copies through plays and passes, gives every place the same.)

**Not used.** The order of past tricks and what each play's legality implied about the hand
at the time (a heart discarded on the first trick where points may not go on it, a heart led
before hearts were broken: the seat then held nothing else), which the observation does not
record; only the voids it records (a seat that showed out is void now); Domino Hearts' draws
(how many cards each draw took, which the observation does not record: the stock and the
hands are sampled from the sizes it does record); the cards other seats passed among
themselves (they are in hands, like any unseen card).

**Covered.** Every Hearts-family preset and player count, including Joker Hearts, Heartsette,
Domino Hearts, Cancellation Hearts and the bidding and declaring variants (decisions reveal no
cards). Each family reads its own observation and turns worlds into its own positions
(:mod:`hearts_env.games.hearts.worlds`, :mod:`hearts_env.games.smear.worlds`), found through its
record (:attr:`~hearts_env.core.family.Family.knowledge`, ``positions.worlds``); the shared
sampler is :mod:`hearts_env.core.sampler`. Worlds record the rules they were sampled for, and
:func:`world_positions` refuses worlds of other rules, another observer or another shape
(:func:`check_worlds`).

**Method.** The unseen cards of one suit are interchangeable as far as the constraints go, so
the count is a sum over how many cards of each suit each constrained seat (one void or more)
holds: a dynamic programme over those seats and their suits, whose state is the unseen cards
left in each suit, weights each choice by a binomial (the last constrained seat takes any of
the cards its voids allow: one binomial), and the seats without voids and the kitty or stock
share the rest by one multinomial. A draw samples the per-suit counts step by step in
proportion to the worlds below each choice, then deals the cards of each suit uniformly by
those counts. Counts are exact Python ints (a two-deck deal of twelve places exceeds int64).

Seats are *relative*, as in the observation: index 0 is the observer, 1 the seat on his left.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hearts_env.core.rules import Rules
from hearts_env.core.sampler import Knowledge, Worlds, check_worlds, count_worlds, draw_worlds
from hearts_env.games import family

__all__ = [
    "Knowledge",
    "Worlds",
    "check_worlds",
    "exact_count",
    "knowledge",
    "sample_worlds",
    "world_positions",
]


def knowledge(rules: Rules, observation: np.ndarray) -> Knowledge:
    """What the observation (D,) of ``rules`` fixes about the hidden cards (its family's reading).

    Raises ``ValueError`` for an observation of other rules or one no deal can produce (naming
    what does not fit).
    """
    return family(rules).knowledge(rules, observation)


def exact_count(rules: Rules, observation: np.ndarray) -> int:
    """The number of worlds consistent with one observation (D,) of ``rules``: placements of
    the unseen cards (with two decks, of each unseen copy) in the other seats' hands and the
    unseen kitty or stock, fitting every hand size, void and passed card.

    Raises as :func:`knowledge` does.
    """
    return count_worlds(knowledge(rules, observation))


def sample_worlds(
    rules: Rules, observations: np.ndarray, num_worlds: int, rng: np.random.Generator | int | None = None
) -> Worlds:
    """``num_worlds`` worlds drawn uniformly (independently, with replacement) among those
    consistent with each observation.

    ``observations`` is one observation (D,) or a batch (B, D) of ``rules``; the result's arrays
    have a leading (B,) axis for a batch (see :class:`Worlds` for the shapes). ``rng`` is a
    numpy Generator or a seed. Raises as :func:`knowledge` does.
    """
    if not isinstance(num_worlds, (int, np.integer)) or num_worlds < 1:
        raise ValueError(f"num_worlds must be a positive int, got {num_worlds!r}")
    rng = np.random.default_rng(rng)
    obs = np.asarray(observations)
    if obs.ndim == 1:
        return _sample_one(rules, obs, int(num_worlds), rng)
    if obs.ndim != 2:
        raise ValueError(f"observations must be (D,) or (B, D), got shape {obs.shape}")
    drawn = [_sample_one(rules, row, int(num_worlds), rng) for row in obs]
    return Worlds(np.stack([w.hands for w in drawn]), np.stack([w.rest for w in drawn]), rules)


def _sample_one(rules: Rules, observation: np.ndarray, num_worlds: int, rng: np.random.Generator) -> Worlds:
    k = knowledge(rules, observation)
    if count_worlds(k) == 0:
        raise ValueError(
            "no world fits the observation: the unseen cards cannot meet every seat's voids and hand size"
        )
    return draw_worlds(rules, k, num_worlds, rng)


def world_positions(rules: Rules, observation: np.ndarray, worlds: Worlds, rng: np.random.Generator) -> Any:
    """The W worlds of one observation (D,) of ``rules`` as positions of its family (a batch of W
    rows, seats relative to the observer, seat 0), so a table started from them plays on from
    where the observer stands in each world; what the observation does not record (who took
    which card, the stock's order) is filled in consistently, as the family's module says.
    ``rng`` draws what is filled in at random.

    Raises ``ValueError`` for worlds of other rules, another observer or another shape
    (:func:`check_worlds`).
    """
    return family(rules).positions.worlds(rules, observation, worlds, rng)
