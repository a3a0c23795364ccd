"""``vector_env``: B games as one ``gymnasium.vector.VectorEnv`` — what training and
tournaments use.

* ``obs = {"observation": (B, D) float32, "action_mask": (B, A) int8}``, each game seen by its
  acting seat (``info["current_player"]``, shape (B,)).
* ``step(actions)`` plays one decision in every game. ``rewards`` (B,) is the reward of the seat
  that just acted; ``info["rewards"]`` (B, P) holds every seat's reward (non-zero only when a
  deal ends) — turn-based games need per-seat credit, so use that.
* ``terminations`` (B,) marks games whose episode (a deal, or a game with ``episode="game"``)
  ended in this step. Finished games restart in the same step (``AutoresetMode.SAME_STEP``):
  the returned observation is already the new deal's. ``info["deal_points"]`` /
  ``info["total_points"]`` (B, P) and ``info["deal_ended"]`` / ``info["game_ended"]`` (B,)
  describe the deals that ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from hearts_env.presets import make_rules
from hearts_env.table import Table


def _spaces(num_actions: int, size: int) -> gymnasium.spaces.Dict:
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (num_actions,), np.int8),
        }
    )


class HeartsVectorEnv(VectorEnv):
    """B Hearts-family games stepped together (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        preset: str = "hearts",
        num_envs: int = 1024,
        seed: int | None = None,
        reward: str = "points",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.rules = make_rules(preset, **options)
        self.table = Table(self.rules, num_envs, reward=reward)
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.num_players = self.rules.num_players
        size = self.table.observer.layout.size
        self.layout = self.table.observer.layout
        self.single_observation_space = _spaces(self.table.engine.num_actions, size)
        self.single_action_space = gymnasium.spaces.Discrete(self.table.engine.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.action_space = gymnasium.spaces.MultiDiscrete(
            np.full(self.num_envs, self.table.engine.num_actions), seed=seed
        )
        self._seed = seed
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game in every slot (options: ``hands``, ``dealer``, ``pass_direction``)."""
        if seed is None and not self._started:
            seed = self._seed
        self.table.reset(seed=seed, options=options)
        self._started = True
        return self._observation(), {"current_player": self.table.state.current.copy()}

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision per game; finished episodes restart in the same step."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        s = self.table.state
        acted = s.current.copy()
        result = self.table.step(actions)
        info: dict[str, Any] = {"rewards": result.rewards, "acting_player": acted}
        if result.deal_ended.any():
            info.update(self.table.game_info(slice(None)))
            info["deal_ended"] = result.deal_ended
            info["game_ended"] = result.game_ended
            self.table.redeal(np.flatnonzero(result.deal_ended))
        info["current_player"] = s.current.copy()
        reward = result.rewards[np.arange(self.num_envs), acted]
        truncated = np.zeros(self.num_envs, bool)
        return self._observation(), reward, result.episode_ended.copy(), truncated, info

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self.table.observe(), "action_mask": self.table.action_mask()}

    def render(self) -> tuple[str, ...] | None:
        """Text of each game's table (``render_mode="ansi"``); only sensible for a few games."""
        from hearts_env.render import render_text

        if self.render_mode != "ansi":
            return None
        return tuple(render_text(self.table, g) for g in range(self.num_envs))


def vector_env(
    preset: str = "hearts", num_envs: int = 1024, seed: int | None = None, **options: Any
) -> HeartsVectorEnv:
    """``num_envs`` games of ``preset`` as a Gymnasium ``VectorEnv`` (RULES.md §7 options)."""
    return HeartsVectorEnv(preset, num_envs=num_envs, seed=seed, **options)
