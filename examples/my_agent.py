"""MyAgent, the example of docs/your-agent.md: it plays its cheapest legal card.

hearts-env tournament --agents examples/my_agent.py:MyAgent,strategy --deals 400 --tables 20
"""

from __future__ import annotations

import numpy as np

from agents import Agent, Observation
from agents.base import best_legal
from hearts_env.core.rules import Rules

RANK = np.arange(52) % 13  # card index = 13 * suit + rank: rank 0 is the two, 12 the ace


class MyAgent(Agent):
    """Plays the legal card with the fewest points, the lowest first; passes its dangerous cards.
    ``caution``: how much a card's points outweigh its rank."""

    games = ("hearts",)  # it reads the Hearts family's observation; Smear presets are refused

    def __init__(self, rules: Rules, *, caution: float = 26.0) -> None:
        super().__init__(rules)
        self.caution = caution
        self.passing = rules.phases.index("passing") if "passing" in rules.phases else None

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        mask = np.asarray(obs["action_mask"])  # (B, A): 1 where the action is legal
        values = self.view(obs, "card_values")[:, :52]  # (B, 52): each card's points / 26
        cheap = -(self.caution * values + RANK / 13)  # (B, 52): highest for a harmless low card
        if self.passing is not None:  # while passing, give the dangerous cards away instead
            passing = self.view(obs, "phase")[:, self.passing] > 0  # (B,)
            cheap = np.where(passing[:, None], -cheap, cheap)
        score = np.zeros(mask.shape)  # (B, A): jokers and decisions (bids …) score 0
        score[:, :52] = cheap
        return best_legal(score, mask)
