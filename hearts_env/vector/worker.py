"""What a vector env's worker process holds (:class:`ShardWorker`): one shard of the games, its
step results written into the shared memory of :class:`~hearts_env.vector.buffers.Buffers`.
The processes themselves, their messages, deaths and stops are :mod:`hearts_env.parallel`'s
``"processes"`` backend: the env asks every worker at once and reads the results from shared
memory, not from the pipe."""

from __future__ import annotations

from typing import Any

from hearts_env.core.rules import Rules
from hearts_env.vector.buffers import Buffers
from hearts_env.vector.shard import Shard


class ShardWorker:
    """Games ``lo..hi-1`` of a vector env, stepped in a worker process, writing into ``memory``
    (the env's shared :class:`Buffers`, laid out by ``sizes``)."""

    def __init__(
        self,
        memory: Any,
        lo: int,
        hi: int,
        rules: Rules,
        settings: dict[str, Any],
        sizes: tuple[Any, ...],
        next_step: bool = False,
        obs_format: str = "float32",
    ) -> None:
        self.out = Buffers.allocate(*sizes, memory=memory).rows(lo, hi)
        self.shard = Shard(
            rules, hi - lo, settings, persistent=True, next_step=next_step, obs_format=obs_format
        )

    def step(self) -> bool:
        """Step every game with its action in the shared memory; whether any deal ended."""
        return self.shard.step(self.out.actions, self.out)

    def step_random(self) -> bool:
        """Step every game with a random legal action of this shard's generator."""
        return self.shard.step_random(self.out)

    def reset(self, seed: int | None, options: Any) -> None:
        """Start new games (:meth:`Shard.reset`)."""
        self.shard.reset(self.out, seed, options)

    def explain(self, game: int, action: int) -> str:
        """Why ``action`` is illegal in this shard's ``game``."""
        return self.shard.explain(game, action)

    def render(self) -> list[str]:
        """Each game's table as text."""
        from hearts_env.render import render_text

        return [render_text(self.shard.table, g) for g in range(self.shard.table.num_games)]
