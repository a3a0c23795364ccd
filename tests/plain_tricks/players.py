"""The plain-tricks family's own agent, named in tournaments by its spec
``tests.plain_tricks.players:HighestAgent`` (the built-in ``lowest`` has a policy per family it
knows, and refuses this one)."""

from __future__ import annotations

import numpy as np

from agents.base import Agent, Observation, best_legal

SPEC = "tests.plain_tricks.players:HighestAgent"
"""The agent's spec (:mod:`agents.specs`)."""


class HighestAgent(Agent):
    """The highest-ranked legal card (ties: spades, hearts, diamonds, clubs): it reads only the mask."""

    name = "highest"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Highest legal cards (B,)."""
        mask = np.asarray(obs["action_mask"])
        cards = np.arange(mask.shape[1])
        return best_legal(np.broadcast_to(4 * (cards % 13) + cards // 13, mask.shape), mask)
