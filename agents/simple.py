"""The bottom of the ladder: ``random``, ``lowest`` and ``ducker``.

* ``random`` — a uniformly random legal action (cards, jokers and decisions alike).
* ``lowest`` — the lowest-ranked legal card, whatever the trick; jokers count as lower than
  every card (they never win). In the passing phase it keeps its lowest cards (and its jokers),
  i.e. passes its highest: passing the lowest would hand the receiver every exit card and play
  worse than ``random``. In Smear it passes every bid it may (else bids the lowest), names the
  suit it holds most cards of, and discards and plays its lowest card by rank (jokers lowest).
* ``ducker`` — plays the highest card that still loses the trick; when it cannot duck it plays
  a joker if it holds one, else takes the trick with its highest card if it plays last,
  otherwise plays its lowest; void in the suit led it sheds its most expensive card (most
  points, then highest rank); leads its lowest card (a joker only when nothing else is legal)
  and passes its highest (never a joker).

Decisions other than cards (docs/rules.md), the same for ``lowest`` and ``ducker``
(:func:`plain_decisions`): ``pass`` in every declaration and bidding round; ``moon:add`` (the
old moon) for the shooter's choice; a named suit, should one be asked, is the suit holding the
fewest high cards (J and up), then the fewest cards.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from agents.base import Agent, Observation, best_legal, random_legal
from agents.view import RANK, SUIT, TableView, suit_totals
from hearts_env.core.rules import Rules

HIGH_RANK = 9
"""Ranks from J up are high cards (naming a suit)."""


def plain_decisions(rules: Rules, t: TableView) -> np.ndarray:
    """(B, E) scores of the decisions other than cards for the simple agents: pass, the old
    moon, the suit with the fewest high cards (see the module docstring)."""
    score = np.zeros((t.batch, len(rules.decisions)))
    for k, name in enumerate(rules.decisions):
        if name in ("pass", "moon:add"):
            score[:, k] = 100.0
        elif name.startswith("suit:"):
            suit = "CDHS".index(name[-1])
            high = suit_totals(t.hand & (RANK[None, :] >= HIGH_RANK))[:, suit]
            score[:, k] = -10.0 * high - t.suit_count[:, suit] - 0.01 * suit
    return score


def full_scores(rules: Rules, t: TableView, cards: np.ndarray, jokers: float | np.ndarray) -> np.ndarray:
    """(B, A) action scores from (B, 52) card scores, joker scores (one per row or a constant,
    the same for each joker) and :func:`plain_decisions`."""
    c = rules.card_slots
    score = np.empty((t.batch, c + len(rules.decisions)))
    score[:, : cards.shape[1]] = cards
    jokers = np.asarray(jokers, float).reshape(-1, 1)
    score[:, cards.shape[1] : c] = np.broadcast_to(jokers, (t.batch, c - cards.shape[1]))
    score[:, c:] = plain_decisions(rules, t)
    return score


class RandomAgent(Agent):
    """A uniformly random legal action."""

    name = "random"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Random legal actions (B,)."""
        return random_legal(np.asarray(obs["action_mask"]), rng)


class LowestAgent(Agent):
    """The lowest-ranked legal card (ties: clubs, diamonds, hearts, spades; jokers lowest);
    passes its highest."""

    name = "lowest"
    policies: ClassVar[dict[str, str]] = {"hearts": "_hearts", "smear": "_smear"}
    """Its policy in each game family it plays (the observations and decisions differ)."""
    games = tuple(policies)

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Lowest legal cards (B,)."""
        return getattr(self, self.policies[self.rules.game])(obs)

    def _hearts(self, obs: Observation) -> np.ndarray:
        """The Hearts family: the lowest card by rank (jokers lowest), the highest to pass."""
        t = TableView(self.rules, self.layout, obs)
        low = -(RANK * 4 + SUIT).astype(float)[None, :]
        cards = np.where(t.passing[:, None], -low, low)
        jokers = np.where(t.passing, -1000.0, 1.0)
        return best_legal(full_scores(self.rules, t, cards, jokers), np.asarray(obs["action_mask"]))

    def _smear(self, obs: Observation) -> np.ndarray:
        """Smear: pass (else the lowest bid), name the suit it holds most cards of, discard and
        play the lowest card by rank (jokers lowest; ties: clubs first)."""
        rules, mask = self.rules, np.asarray(obs["action_mask"])
        c = rules.card_slots
        hand = self.view(obs, "hand") > 0
        cards = np.arange(c)
        score = np.zeros(mask.shape)
        score[:, :c] = np.where(cards >= 52, 1.0, -(4 * (cards % 13) + cards // 13).astype(float))[None, :]
        for k, name in enumerate(rules.decisions):
            if name == "pass":
                score[:, c + k] = 1000.0
            elif name.startswith("bid:"):
                score[:, c + k] = -100.0 if name == "bid:moon" else -float(name[4:])
            elif name.startswith("suit:"):
                suit = "CDHS".index(name[-1])
                score[:, c + k] = hand[:, 13 * suit : 13 * suit + 13].sum(axis=1) - 0.01 * suit
        return best_legal(score, mask)


class DuckerAgent(Agent):
    """Ducks under the winning card whenever it can (see the module docstring)."""

    name = "ducker"
    games = ("hearts",)

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Ducking actions (B,)."""
        t = TableView(self.rules, self.layout, obs)
        rank = RANK[None, :].astype(float)
        under = ~t.beats_winner & (SUIT[None, :] == t.lead_suit[:, None])  # cards that lose to the winner
        can_duck = (under & t.mask).any(axis=1)
        follow = np.where(
            can_duck[:, None],
            np.where(under, 100 + rank, -rank),
            np.where(t.last_to_play[:, None], rank, -rank),
        )
        shed = 100 * t.values + rank
        score = np.where(t.can_follow[:, None], follow, shed)
        score = np.where(t.no_suit[:, None], -rank, score)
        score = np.where(t.passing[:, None], rank + 0.01 * SUIT[None, :], score)
        # A joker always loses: below every ducking card, above every card that would win;
        # never led while another card is legal, never shed or passed.
        jokers = np.where(t.can_follow, 50.0, -1.0)
        jokers = np.where(t.no_suit, -20.0, jokers)
        jokers = np.where(t.passing, -100.0, jokers)
        return best_legal(full_scores(self.rules, t, score, jokers), np.asarray(obs["action_mask"]))
