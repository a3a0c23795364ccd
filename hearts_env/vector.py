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
* ``num_workers=k`` splits the games into k shards stepped at the same time by k worker
  processes that write into shared memory (use it on a machine with k free cores). The deals
  then depend on the seed *and* k.
* ``copy=False`` returns read-only views of buffers reused every step (the next step
  overwrites them, as with Gymnasium's ``copy=False``); faster than fresh arrays.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Mapping
from dataclasses import dataclass, fields
from multiprocessing.connection import Connection
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from hearts_env.bits import ZERO, unpack
from hearts_env.engine import action_bits
from hearts_env.presets import make_rules
from hearts_env.rules import Rules
from hearts_env.table import Table


def _spaces(num_actions: int, size: int) -> gymnasium.spaces.Dict:
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (num_actions,), np.int8),
        }
    )


@dataclass
class Buffers:
    """Everything one step returns, for B games (arrays with a leading batch axis)."""

    observation: np.ndarray  # (B, D) float32
    action_mask: np.ndarray  # (B, A) int8
    legal: np.ndarray  # (B,) uint64: the same legal cards as bitmasks
    rewards: np.ndarray  # (B, P) float64
    acting_player: np.ndarray  # (B,) int64: the seat that made this step's decision
    current_player: np.ndarray  # (B,) int64: the seat to act now
    terminated: np.ndarray  # (B,) bool: the episode ended (and the game restarted)
    deal_ended: np.ndarray  # (B,) bool
    game_ended: np.ndarray  # (B,) bool
    deal_points: np.ndarray  # (B, P) int64: the last finished deal's points
    total_points: np.ndarray  # (B, P) int64
    game_over: np.ndarray  # (B,) bool
    moon_shooter: np.ndarray  # (B,) int64
    chips: np.ndarray  # (B, P) float64
    actions: np.ndarray  # (B,) int64: input, for worker processes

    @staticmethod
    def layout(batch: int, players: int, size: int, num_actions: int) -> list[tuple[str, tuple, type]]:
        """(name, shape, dtype) of every field."""
        b, p = batch, players
        shapes = {
            "observation": ((b, size), np.float32),
            "action_mask": ((b, num_actions), np.int8),
            "legal": ((b,), np.uint64),
            "rewards": ((b, p), np.float64),
            "deal_points": ((b, p), np.int64),
            "total_points": ((b, p), np.int64),
            "chips": ((b, p), np.float64),
            "terminated": ((b,), bool),
            "deal_ended": ((b,), bool),
            "game_ended": ((b,), bool),
            "game_over": ((b,), bool),
        }
        return [(f.name, *shapes.get(f.name, ((b,), np.int64))) for f in fields(Buffers)]

    @classmethod
    def allocate(cls, batch: int, players: int, size: int, num_actions: int, memory: Any = None) -> Buffers:
        """New arrays, or views into ``memory`` (a buffer of :meth:`nbytes` bytes) if given."""
        arrays, offset = {}, 0
        for name, shape, dtype in cls.layout(batch, players, size, num_actions):
            if memory is None:
                arrays[name] = np.empty(shape, dtype)
                continue
            arrays[name] = np.ndarray(shape, dtype, buffer=memory, offset=offset)
            offset += -(-arrays[name].nbytes // 64) * 64  # keep every field cache-line aligned
        return cls(**arrays)

    @classmethod
    def nbytes(cls, batch: int, players: int, size: int, num_actions: int) -> int:
        """Bytes of shared memory :meth:`allocate` needs."""
        total = 0
        for _, shape, dtype in cls.layout(batch, players, size, num_actions):
            total += -(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 64) * 64
        return total

    def rows(self, lo: int, hi: int) -> Buffers:
        """Views of games ``lo..hi-1``."""
        return Buffers(**{f.name: getattr(self, f.name)[lo:hi] for f in fields(self)})


class Shard:
    """Games stepped by one process: a :class:`Table` plus same-step restarts, writing each
    step's results into :class:`Buffers` (fresh arrays, or shared memory for a worker)."""

    def __init__(self, rules: Rules, num_games: int, reward: str, persistent: bool = False) -> None:
        self.table = Table(rules, num_games, reward=reward)
        self.persistent = persistent  # the same buffers every step: constant pieces written once

    def reset(self, out: Buffers, seed: int | None, options: Mapping[str, Any] | None) -> None:
        """Start a new game in every slot and write the first observations."""
        self.table.reset(seed=seed, options=options)
        out.rewards[:] = 0
        out.acting_player[:] = -1
        for flag in (out.terminated, out.deal_ended, out.game_ended):
            flag[:] = False
        self._write_info(out)
        self._write_views(out, constants=True)

    def step(self, actions: np.ndarray, out: Buffers) -> bool:
        """One decision per game; returns whether any deal ended."""
        table = self.table
        out.acting_player[:] = table.state.current
        result = table.step(actions)
        out.rewards[:] = result.rewards
        out.terminated[:] = result.episode_ended
        out.deal_ended[:] = result.deal_ended
        out.game_ended[:] = result.game_ended
        ended = bool(result.deal_ended.any())
        if ended or self.persistent:  # fresh buffers: the info is only returned when a deal ends
            self._write_info(out)
        if ended:
            table.redeal(np.flatnonzero(result.deal_ended))
        self._write_views(out)
        return ended

    def _write_info(self, out: Buffers) -> None:
        s = self.table.state
        out.deal_points[:] = s.deal_points
        out.total_points[:] = s.totals
        out.game_over[:] = s.game_over
        out.moon_shooter[:] = s.moon_shooter
        out.chips[:] = s.chips

    def _write_views(self, out: Buffers, constants: bool = False) -> None:
        table = self.table
        table.observe(out=out.observation, constants=constants or not self.persistent)
        legal = table.legal()
        out.legal[:] = legal
        out.action_mask[:] = unpack(legal, table.engine.num_actions).view(np.int8)
        out.current_player[:] = table.state.current

    def explain(self, game: int, action: int) -> str:
        """Why ``action`` is illegal in ``game`` (for the error message)."""
        return self.table.engine.explain_illegal(self.table.state, game, action)


def _worker(
    conn: Connection,
    memory: Any,
    rules: Rules,
    reward: str,
    sizes: tuple[int, int, int, int],
    lo: int,
    hi: int,
) -> None:
    """A worker process: step games ``lo..hi-1`` on command, results into shared memory."""
    out = Buffers.allocate(*sizes, memory=memory).rows(lo, hi)
    shard = Shard(rules, hi - lo, reward, persistent=True)
    while True:
        try:
            command, *args = conn.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        try:
            if command == "step":
                conn.send(("ok", shard.step(out.actions, out)))
            elif command == "reset":
                shard.reset(out, *args)
                conn.send(("ok", None))
            elif command == "explain":
                conn.send(("ok", shard.explain(*args)))
            elif command == "render":
                from hearts_env.render import render_text

                conn.send(("ok", [render_text(shard.table, g) for g in range(hi - lo)]))
            elif command == "close":
                conn.send(("ok", None))
                return
        except Exception as error:  # reported to the main process, which raises it
            conn.send(("error", error))


class HeartsVectorEnv(VectorEnv):
    """B Hearts-family games stepped together (see the module docstring).

    ``num_workers``: processes stepping shards of the batch at the same time — this process
    steps the first shard, ``num_workers - 1`` worker processes the others (1: no workers).
    ``copy``: return arrays of their own every step (``False``: read-only views of buffers that
    the next step overwrites; faster, as no new memory is touched each step).
    ``start_method``: how workers start (default ``"fork"`` where available, else ``"spawn"``,
    which needs the ``__main__`` guard).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        preset: str = "hearts",
        num_envs: int = 1024,
        seed: int | None = None,
        reward: str = "points",
        render_mode: str | None = None,
        num_workers: int = 1,
        copy: bool = True,
        start_method: str | None = None,
        **options: Any,
    ) -> None:
        self.rules = make_rules(preset, **options)
        if not isinstance(num_workers, int) or not 1 <= num_workers <= max(1, num_envs):
            raise ValueError(f"num_workers must be an int from 1 to num_envs={num_envs}, got {num_workers!r}")
        Table(self.rules, num_envs, reward=reward)  # validates num_envs and reward before anything starts
        self.num_envs = int(num_envs)
        self.num_workers = num_workers
        self.copy = copy
        self.render_mode = render_mode
        self.num_players = self.rules.num_players
        self._bounds = np.linspace(0, self.num_envs, num_workers + 1).astype(int).tolist()
        # Buffers reused every step (shared memory with workers, or copy=False) or fresh ones.
        self._persistent = num_workers > 1 or not copy
        self._local = Shard(self.rules, self._bounds[1], reward, persistent=self._persistent)
        self.layout = self._local.table.observer.layout
        self.num_actions = self._local.table.engine.num_actions
        self.single_observation_space = _spaces(self.num_actions, self.layout.size)
        self.single_action_space = gymnasium.spaces.Discrete(self.num_actions)
        batch_space = gymnasium.vector.utils.batch_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete([self.num_actions] * self.num_envs, seed=seed)
        self._seed = seed
        self._started = False
        self._last: Buffers | None = None  # the latest step's results
        self._buffers: Buffers | None = None  # the reused buffers (shared with the workers)
        self._workers: list[tuple[mp.Process, Connection]] = []
        if num_workers > 1:
            self._start_workers(reward, start_method)
        elif self._persistent:
            self._buffers = Buffers.allocate(*self._sizes())

    @property
    def table(self) -> Table:
        """The :class:`Table` of all games (only without worker processes)."""
        if self.num_workers > 1:
            raise AttributeError("a vector env with worker processes has no single table")
        return self._local.table

    def _sizes(self) -> tuple[int, int, int, int]:
        return self.num_envs, self.num_players, self.layout.size, self.num_actions

    def _start_workers(self, reward: str, start_method: str | None) -> None:
        # fork starts fast and needs no ``if __name__ == "__main__"`` guard; workers use NumPy only.
        method = start_method or ("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        context = mp.get_context(method)
        # A RawArray lives as long as any array made from it: no view can outlive the memory.
        memory = context.RawArray("B", Buffers.nbytes(*self._sizes()))
        self._buffers = Buffers.allocate(*self._sizes(), memory=memory)
        for lo, hi in zip(self._bounds[1:-1], self._bounds[2:]):
            parent, child = context.Pipe()
            args = (child, memory, self.rules, reward, self._sizes(), lo, hi)
            process = context.Process(target=_worker, args=args, daemon=True)
            process.start()
            child.close()
            self._workers.append((process, parent))

    def _gather(self) -> list[Any]:
        """The workers' answers to the last message (raising their errors)."""
        answers = [conn.recv() for _, conn in self._workers]
        for status, value in answers:
            if status == "error":
                raise value
        return [value for _, value in answers]

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game in every slot (options: ``hands``, ``dealer``, ``pass_direction``)."""
        if seed is None and not self._started:
            seed = self._seed
        if not self._workers:
            out = self._buffers if self._persistent else Buffers.allocate(*self._sizes())
            self._local.reset(out, seed, options)
        else:
            out = self._buffers
            seeds: list[int | None] = [None] * self.num_workers
            if seed is not None:
                children = np.random.SeedSequence(seed).spawn(self.num_workers)
                seeds = [int(child.generate_state(1)[0]) for child in children]
            for (_, conn), worker_seed in zip(self._workers, seeds[1:]):
                conn.send(("reset", worker_seed, options))
            self._local.reset(out.rows(0, self._bounds[1]), seeds[0], options)
            self._gather()
        self._started = True
        self._last = out
        return self._views(out), {"current_player": self._get(out.current_player)}

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision per game; finished episodes restart in the same step."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions).reshape(self.num_envs)
        if not self._workers:
            out = self._buffers if self._persistent else Buffers.allocate(*self._sizes())
            ended = self._local.step(actions, out)
        else:
            out = self._buffers
            self._check(actions)
            out.actions[:] = actions
            for _, conn in self._workers:
                conn.send(("step",))
            local = self._bounds[1]
            ended = self._local.step(out.actions[:local], out.rows(0, local))
            ended = any(self._gather()) or ended
        self._last = out
        info: dict[str, Any] = {
            "rewards": self._get(out.rewards),
            "acting_player": self._get(out.acting_player),
            "current_player": self._get(out.current_player),
        }
        if ended:
            for name in ("deal_points", "total_points", "game_over", "moon_shooter", "chips"):
                info[name] = self._get(getattr(out, name))
            info["deal_ended"] = self._get(out.deal_ended)
            info["game_ended"] = self._get(out.game_ended)
        reward = out.rewards[np.arange(self.num_envs), out.acting_player]
        truncated = np.zeros(self.num_envs, bool)
        return self._views(out), reward, self._get(out.terminated), truncated, info

    def _check(self, actions: np.ndarray) -> None:
        """With workers: refuse an illegal action before any shard steps (state unchanged)."""
        if self.rules.illegal_action == "terminate":
            return
        bad = (self._buffers.legal & action_bits(actions.astype(np.int64))) == ZERO
        if not bad.any():
            return
        game = int(np.flatnonzero(bad)[0])
        shard = int(np.searchsorted(self._bounds, game, side="right")) - 1
        lo = self._bounds[shard]
        if shard == 0:
            message = self._local.explain(game, int(actions[game]))
        else:
            conn = self._workers[shard - 1][1]
            conn.send(("explain", game - lo, int(actions[game])))
            message = self._gather_one(conn)
        raise ValueError(f"game {game}: {message}")

    @staticmethod
    def _gather_one(conn: Connection) -> Any:
        status, value = conn.recv()
        if status == "error":
            raise value
        return value

    def _get(self, array: np.ndarray) -> np.ndarray:
        """An output array as returned: fresh ones as they are, reused ones copied, or read-only
        views with ``copy=False``."""
        if not self._persistent:
            return array
        if self.copy:
            return array.copy()
        view = array.view()
        view.flags.writeable = False
        return view

    def _views(self, out: Buffers) -> dict[str, np.ndarray]:
        return {"observation": self._get(out.observation), "action_mask": self._get(out.action_mask)}

    def legal_masks(self) -> np.ndarray:
        """(B,) uint64: the acting seats' legal cards as bitmasks (bit c = card c), for fast
        agents (see :func:`hearts_env.bits.random_bit`)."""
        if self._last is None:
            raise RuntimeError("call reset() first")
        return self._get(self._last.legal)

    def render(self) -> tuple[str, ...] | None:
        """Text of each game's table (``render_mode="ansi"``); only sensible for a few games."""
        from hearts_env.render import render_text

        if self.render_mode != "ansi":
            return None
        texts = [render_text(self._local.table, g) for g in range(self._bounds[1])]
        for _, conn in self._workers:
            conn.send(("render",))
        return tuple(texts + [text for shard in self._gather() for text in shard])

    def close(self, **kwargs: Any) -> None:
        """Stop the worker processes and free the shared memory."""
        if self._workers:
            for process, conn in self._workers:
                try:
                    conn.send(("close",))
                    conn.recv()
                except (OSError, EOFError):
                    pass
                process.join(timeout=5)
                conn.close()
            self._workers = []
        self._buffers = None  # the memory goes once no returned view uses it
        super().close(**kwargs)

    def __del__(self) -> None:
        if getattr(self, "_workers", None):
            try:
                self.close()
            except Exception:  # interpreter shutdown: the workers are daemons and end with us
                pass


def vector_env(
    preset: str = "hearts", num_envs: int = 1024, seed: int | None = None, **options: Any
) -> HeartsVectorEnv:
    """``num_envs`` games of ``preset`` as a Gymnasium ``VectorEnv`` (RULES.md §7 options;
    ``num_workers`` and ``copy`` as in :class:`HeartsVectorEnv`)."""
    return HeartsVectorEnv(preset, num_envs=num_envs, seed=seed, **options)
