"""A shard: the games one process steps (this one, or a worker), writing each step's results into
:class:`~hearts_env.vector.buffers.Buffers`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from hearts_env.core.bits import random_bit, random_legal, unpack
from hearts_env.core.rules import Rules
from hearts_env.table import StepResult, Table
from hearts_env.vector.buffers import Buffers

RANDOM_PLAYER = 1
"""Spawn key of a shard's random-player stream, apart from its deals'
(:meth:`~hearts_env.vector.env.HeartsVectorEnv.step_random`)."""


class Shard:
    """Games stepped by one process: a :class:`Table` plus same-step restarts, writing each
    step's results into :class:`Buffers` (fresh arrays, or shared memory for a worker)."""

    def __init__(
        self,
        rules: Rules,
        num_games: int,
        settings: Mapping[str, Any],
        persistent: bool = False,
        next_step: bool = False,
        obs_format: str = "float32",
    ) -> None:
        self.table = Table(rules, num_games, **settings)  # the env settings: reward, episode, illegal_action
        self.obs_format = obs_format
        self.persistent = persistent  # the same buffers every step: constant pieces written once
        self.next_step = next_step  # AutoresetMode.NEXT_STEP: finished episodes restart a step later
        self.pending = np.zeros(num_games, bool)  # next_step: episodes that ended in the last step
        self.rng = np.random.default_rng()  # the random player's (step_random), seeded by reset

    def reset(self, out: Buffers, seed: int | None, options: Mapping[str, Any] | None) -> None:
        """Start a new game in every slot and write the first observations (``seed`` also seeds
        the random player, on a stream of its own)."""
        self.table.reset(seed=seed, options=options)
        if seed is not None:
            self.rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(RANDOM_PLAYER,)))
        self.pending[:] = False
        out.rewards[:] = 0
        out.acting_player[:] = -1
        for flag in (out.terminated, out.deal_ended, out.game_ended):
            flag[:] = False
        self._write_info(out)
        self._write_views(out, constants=True)

    def step(self, actions: np.ndarray, out: Buffers) -> bool:
        """One decision per game; returns whether any deal ended.

        Same-step mode restarts every finished deal at once. Next-step mode keeps a finished
        *episode* over (its final observation is written) and restarts it in the next call,
        where its action is ignored; a deal that ends inside a game episode starts the next
        deal at once in both modes."""
        table = self.table
        restart = self.pending.copy() if self.next_step else None
        out.acting_player[:] = table.current_player
        if restart is not None and restart.any():
            out.acting_player[restart] = -1  # no decision: the game only restarts
            actions = np.where(restart, 0, actions)  # ignored: the deal is over until redeal
        if restart is not None and restart.all():
            nothing = np.zeros(table.num_games, bool)  # every game only restarts: nothing to play
            result = StepResult(np.zeros((table.num_games, table.rules.num_players)), *[nothing] * 4)
        else:
            result = table.step(actions)
        out.rewards[:] = result.rewards
        out.terminated[:] = result.episode_ended
        out.deal_ended[:] = result.deal_ended
        out.game_ended[:] = result.game_ended
        ended = bool(result.deal_ended.any())
        if ended or self.persistent:  # fresh buffers: the info is only returned when a deal ends
            self._write_info(out)
        again = result.deal_ended
        if restart is not None:
            self.pending = result.episode_ended.copy()
            again = (again & ~self.pending) | restart
        if again.any():
            table.redeal(np.flatnonzero(again))
        self._write_views(out)
        return ended

    def step_random(self, out: Buffers) -> bool:
        """:meth:`step` with a uniformly random legal action in every game, drawn from this
        shard's generator and written to ``out.actions`` (0 for a game that only restarts)."""
        table = self.table
        decisions = bool(table.engine.decision_phases)  # bids and declarations have no card bits
        if self.persistent:  # the buffers still hold this shard's last masks
            legal = out.action_mask if decisions else out.legal
        else:
            legal = table.action_mask() if decisions else table.legal()
        out.actions[:] = random_legal(legal, self.rng) if decisions else random_bit(legal, self.rng)
        if self.next_step:
            out.actions[self.pending] = 0
        return self.step(out.actions, out)

    def _write_info(self, out: Buffers) -> None:
        table = self.table
        out.deal_points[:] = table.deal_points
        out.total_points[:] = table.totals
        out.game_over[:] = table.game_over
        out.moon_shooter[:] = table.moon_shooter
        out.chips[:] = table.chips
        out.team_points[:] = table.team_points
        out.cancelled[:] = table.cancelled

    def _write_views(self, out: Buffers, constants: bool = False) -> None:
        table = self.table
        constants = constants or not self.persistent
        if self.obs_format == "float32":
            table.observe(out=out.observation, constants=constants)
        else:
            table.encode(self.obs_format, out=out.observation, tail=out.tail, constants=constants)
        legal = table.legal()
        out.legal[:] = legal
        if table.engine.decision_phases:  # decisions other than cards follow the card slots
            out.action_mask[:] = table.action_mask()
        else:
            out.action_mask[:] = unpack(legal, table.engine.num_actions).view(np.int8)
        out.current_player[:] = table.current_player

    def explain(self, game: int, action: int) -> str:
        """Why ``action`` is illegal in ``game`` (for the error message)."""
        return self.table.explain(game, action)
