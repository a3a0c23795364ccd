"""The bottom of the ladder: ``random``, ``lowest`` and ``ducker``.

* ``random`` — a uniformly random legal card.
* ``lowest`` — the lowest-ranked legal card, whatever the trick. In the passing phase it keeps
  its lowest cards, i.e. passes its highest: passing the lowest would hand the receiver every
  exit card and play worse than ``random``.
* ``ducker`` — plays the highest card that still loses the trick; when it cannot duck it takes
  the trick with its highest card if it plays last, otherwise plays its lowest; void in the
  suit led it sheds its most expensive card (most points, then highest rank); leads its lowest
  card and passes its highest.
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent, Observation, best_legal, random_legal
from agents.view import RANK, SUIT, TableView


class RandomAgent(Agent):
    """A uniformly random legal action."""

    name = "random"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Random legal actions (B,)."""
        return random_legal(np.asarray(obs["action_mask"]), rng)


class LowestAgent(Agent):
    """The lowest-ranked legal card (ties: clubs, diamonds, hearts, spades); passes its highest."""

    name = "lowest"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Lowest legal cards (B,)."""
        mask = np.asarray(obs["action_mask"])[:, : len(RANK)]
        passing = self.view(obs, "phase")[:, 0] > 0.5
        low = -(RANK * 4 + SUIT).astype(float)[None, :]
        return best_legal(np.where(passing[:, None], -low, low), mask)


class DuckerAgent(Agent):
    """Ducks under the winning card whenever it can (see the module docstring)."""

    name = "ducker"

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
        score = np.where((t.position == 0)[:, None], -rank, score)
        score = np.where(t.passing[:, None], rank + 0.01 * SUIT[None, :], score)
        return best_legal(score, t.mask)
