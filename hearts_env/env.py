"""The PettingZoo AEC environment: a thin view of a :class:`~hearts_env.table.Table` of one game.

=====================  ======================================================================
Agents                 ``player_0`` … ``player_{n-1}``, in seat order (seat i+1 is on i's left)
Action space           ``Discrete(52)`` (54 with jokers): a card index, see ``hearts_env.cards``
Observation            ``{"observation": float32 (D,), "action_mask": int8 (A,)}``; the layout
                       of ``observation`` is in :mod:`hearts_env.observation`
Passing                ``pass_count`` single-card decisions per seat, seat by seat from eldest
                       hand; the mask shows the cards not yet chosen; cards change hands after
                       every seat has chosen
Reward                 at the end of each deal, minus the deal's points (``reward="zero_sum"``:
                       the other players' mean points minus one's own; ``"chips"``: settlement)
Episode                one deal (default) or one game (``episode="game"``)
Infos                  when a deal ends: ``deal_points`` and ``total_points`` for every agent
=====================  ======================================================================

``reset(seed=...)`` starts a new game from that seed. In deal episodes, ``reset()`` without a
seed continues the same game with its next deal (dealer and pass direction move on; a new
game starts once one ends). ``reset(options={"hands": [...], "dealer": 0,
"pass_direction": "left"})`` plays a given deal.

Version history: v0 — first release.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hearts_env.presets import make_rules
from hearts_env.render import render_text
from hearts_env.table import Table


class raw_env(AECEnv):  # noqa: N801 — PettingZoo's naming convention
    """One Hearts-family game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "hearts_v0", "is_parallelizable": False}

    def __init__(
        self, preset: str = "hearts", render_mode: str | None = None, reward: str = "points", **options: Any
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.rules = make_rules(preset, **options)
        self.table = Table(self.rules, 1, reward=reward)
        self.render_mode = render_mode
        n = self.rules.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self.layout = self.table.observer.layout
        actions = self.table.engine.num_actions
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(actions) for a in self.possible_agents}
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._playing = False

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """The action space of ``agent``: card indices."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a deal: a new game with a seed (or in game episodes), else the game's next deal."""
        new_game = seed is not None or not self._playing or self.rules.episode == "game"
        self.table.reset(seed=seed, options=options, new_game=new_game)
        self._playing = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._acting_agent()
        if self.render_mode == "human":
            self.render()

    def _acting_agent(self) -> str:
        return self.possible_agents[int(self.table.state.current[0])]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` for ``agent``; the mask is all zero unless it acts."""
        seat = self._seat[agent]
        observation = self.table.observe(np.array([seat]))[0]
        acting = self.agents and agent == self.agent_selection and not self.terminations[agent]
        mask = self.table.action_mask()[0] if acting else np.zeros(self.table.engine.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` (a card index) for the acting agent."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{self.agent_selection} must play a card; None is only for finished agents")
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        result = self.table.step(np.array([int(action)]))
        self.rewards = {a: 0.0 for a in self.agents}
        if result.deal_ended[0]:
            info = self.table.game_info([0])
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(result.rewards[0, i])
                self.infos[a] = {
                    "deal_points": int(info["deal_points"][0, i]),
                    "total_points": int(info["total_points"][0, i]),
                    "game_over": bool(info["game_over"][0]),
                    "illegal_action": bool(result.illegal[0]),
                }
            if result.episode_ended[0]:
                self.terminations = {a: True for a in self.agents}
            else:
                self.table.redeal(np.array([0]))
        if not result.episode_ended[0]:
            self.agent_selection = self._acting_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (printed for ``"human"``, returned for ``"ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self.table, 0)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(preset: str = "hearts", render_mode: str | None = None, **options: Any) -> AECEnv:
    """``preset`` as a PettingZoo AEC env with the usual wrappers (RULES.md §7 options)."""
    wrapped: AECEnv = raw_env(preset, render_mode=render_mode, **options)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
