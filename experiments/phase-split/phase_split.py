"""One agent for some phases of a deal, another for the rest: which decisions cost a network its points.

``PhaseSplit`` is an agent (a spec like any other, so ``hearts-env tournament`` and
``hearts-env leaderboard`` play it) that hands the rows of a batch in the phases ``phases`` to
``main`` and every other row (passing, bids, the named suit, declarations, the moon choice) to
``other``, the family's heuristic by default. Played beside ``main`` alone on the same deals, it
measures how much of ``main``'s margin comes from its card play and how much from its other
decisions (this folder on ``PYTHONPATH``, so the spec's module is found)::

    PYTHONPATH=experiments/phase-split hearts-env leaderboard --agents \\
      "phase_split:PhaseSplit:main=ppo;checkpoint=runs/mine/policy.pt:label=cards-only" \\
      --presets auction_hearts,chasse_coeur --deals 500

``main`` and ``other`` are agent specs with ``;`` for the ``:`` inside them (as ``pimc``'s
``rollout``); ``phases`` names the phases ``main`` decides, joined by ``+``
(``playing+passing``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

import agents
from agents.base import Agent, Observation
from hearts_env.core.rules import Rules


def _spec(rules: Rules, name: str) -> str:
    return agents.family_defaults(rules.game).heuristic if name == "heuristic" else name.replace(";", ":")


class PhaseSplit(Agent):
    """``main`` in the phases ``phases``, ``other`` in the rest (see the module docstring)."""

    name = "phase_split"

    def __init__(
        self, rules: Rules, *, main: str = "ppo", other: str = "heuristic", phases: str = "playing"
    ) -> None:
        super().__init__(rules)
        wanted = [p for p in str(phases).split("+") if p]
        unknown = [p for p in wanted if p not in rules.phases]
        if unknown or not wanted:
            raise ValueError(
                f"phase_split: phases {phases!r} must name phases of {rules.preset} joined by '+' "
                f"(its phases: {'+'.join(rules.phases)})"
            )
        self.phases = wanted
        self.main = agents.from_spec(_spec(rules, main), rules)
        self.other = agents.from_spec(_spec(rules, other), rules)

    @classmethod
    def weight_files(
        cls, rules: Rules, *, main: str = "ppo", other: str = "heuristic", **params: Any
    ) -> tuple[Path, ...]:
        del params
        files = agents.weight_files(_spec(rules, main), rules) + agents.weight_files(
            _spec(rules, other), rules
        )
        return tuple(dict.fromkeys(files))

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        if "phase" in self.layout.slices:
            phase = self.view(obs, "phase")
            mine = np.zeros(len(phase), bool)
            for name in self.phases:
                mine |= phase[:, self.rules.phases.index(name)] > 0.5
        else:  # one phase only
            mine = np.full(len(obs["action_mask"]), self.rules.phases[0] in self.phases)
        actions = np.empty(len(mine), np.int64)
        for rows, agent in ((np.flatnonzero(mine), self.main), (np.flatnonzero(~mine), self.other)):
            if len(rows):
                actions[rows] = agent.act({key: value[rows] for key, value in obs.items()}, rng)
        return actions
