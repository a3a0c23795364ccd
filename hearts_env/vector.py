"""``vector_env``: B games as one ``gymnasium.vector.VectorEnv`` — what training and
tournaments use.

* ``obs = {"observation": (B, D) float32, "action_mask": (B, A) int8}``, each game seen by its
  acting seat (``info["current_player"]``, shape (B,)). The spaces come from
  :mod:`hearts_env.spaces` (the same as the PettingZoo env's) and contain every observation.
* ``step(actions)`` plays one decision in every game: ``actions`` holds one integer card index
  per game (a list of ints or an integer array of shape (B,)). Anything else — bools, floats
  (even ``3.0``), strings, another shape — is a ``TypeError``/``ValueError``, and an illegal
  card a ``ValueError``, naming the game, its acting agent (``player_{seat}``) and the value;
  a refused step changes nothing (``illegal_action="terminate"`` forfeits illegal cards
  instead). ``rewards`` (B,) is the reward of the seat that just acted; ``info["rewards"]``
  (B, P) holds every seat's reward (non-zero only when a deal ends) — turn-based games need
  per-seat credit, so use that.
* ``terminations`` (B,) marks games whose episode (a deal, or a game with ``episode="game"``)
  ended in this step. Finished games restart in the same step (``AutoresetMode.SAME_STEP``):
  the returned observation is already the new deal's. ``info["deal_points"]`` /
  ``info["total_points"]`` (B, P) and ``info["deal_ended"]`` / ``info["game_ended"]`` (B,)
  describe the deals that ended.
* ``num_workers=k`` splits the games into k shards stepped at the same time: this process
  steps the first, k - 1 worker processes the others, writing into shared memory (use it on a
  machine with k free cores). The deals then depend on the seed *and* k. Workers end when the
  env is closed or when this process goes away (even killed), never outliving it.
* ``step_random()`` plays a uniformly random legal action in every game, drawn by the process
  that steps the game (each shard from its own generator, seeded by ``reset``); the actions
  played are in ``info["actions"]``. Nothing is drawn or checked in this process.
* ``copy=False`` returns read-only views of buffers reused every step (the next step
  overwrites them, as with Gymnasium's ``copy=False``); faster than fresh arrays.
* ``worker_timeout`` (seconds, default 60): how long to wait for a worker's answer.
* ``worker_spin`` (seconds, default 0.0002): how long a worker keeps polling for the next
  command after answering one, before it sleeps: steps that follow each other quickly skip the
  wake-up latency (about 10% more decisions/s with two processes here), at the cost of at most
  that much CPU per step on the worker's core. 0 sleeps at once.
* ``autoreset_mode="next_step"`` (for Gymnasium's vector wrappers that need it, e.g.
  ``NormalizeObservation``, or libraries written for Gymnasium's default): a finished episode
  returns its final observation (``terminations`` true, an all-zero mask), and the *next*
  ``step`` restarts that game, ignoring its action (any int; reward 0, ``terminations``
  false). The default ``"same_step"`` restarts in the step that ended the episode.
* ``obs_format="uint8"`` or ``"packed"`` (:mod:`hearts_env.formats`): the observation's 0/1
  prefix as bytes, or as the engine's uint64 card-set words, with its real-valued part in
  ``obs["tail"]`` (float32); ``hearts_env.unpack(obs, env.layout, device=...)`` expands either
  into exactly the float32 observation (on a GPU too). Less to write per step, and to copy.
* ``action_mask="info"``: the observation is the plain float32 array (a ``Box`` space, so
  ``FlattenObservation``-style wrappers take it) and the mask is ``info["action_mask"]``
  (B, A) int8 in every ``reset`` and ``step``; the default ``"observation"`` gives the dict
  ``{"observation", "action_mask"}``.

Failures. Every argument, action and reset option is checked before anything changes or any
message goes to a worker, so a refused call leaves every game (and every random generator) as
it was. A worker that dies raises ``RuntimeError("worker 1 (pid …, games …) died: exit code
-9 (SIGKILL); …")``, one that does not answer within ``worker_timeout`` a ``TimeoutError``
naming it. The env is then unusable — its games are no longer in step — and every later call
raises a ``RuntimeError`` saying so; ``close()`` still works (it ends what is left of the
workers, killing them if need be) and a new env starts afresh. Any other failure part-way
through a ``step`` or ``reset`` (a ``KeyboardInterrupt``, say) makes the env unusable too, as
some games may have moved and others not. ``step``/``reset`` before ``reset()`` or after
``close()`` raise a ``RuntimeError`` saying what to call.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from hearts_env import spaces
from hearts_env.bits import ZERO, random_bit, random_legal, unpack
from hearts_env.engine import action_bits
from hearts_env.formats import check_format
from hearts_env.presets import make_rules
from hearts_env.rules import Rules
from hearts_env.table import REWARDS, StepResult, Table

RENDER_MODES = ("ansi",)
ACTION_MASKS = ("observation", "info")
"""Where the vector env puts the action mask: in the dict observation, or in ``info``."""
RANDOM_PLAYER = 1
"""Spawn key of a shard's random-player stream, apart from its deals'
(:meth:`HeartsVectorEnv.step_random`)."""


def _autoreset_mode(value: Any) -> AutoresetMode:
    """``"same_step"`` / ``"next_step"`` (or the enum) as a Gymnasium ``AutoresetMode``."""
    if isinstance(value, AutoresetMode) and value in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        return value
    names = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP}
    if isinstance(value, str) and value.lower() in names:
        return names[value.lower()]
    raise ValueError(
        f"autoreset_mode must be 'same_step' or 'next_step' (or gymnasium.vector.AutoresetMode), "
        f"got {_describe(value)}"
    )


@dataclass
class Buffers:
    """Everything one step returns, for B games (arrays with a leading batch axis)."""

    observation: np.ndarray  # (B, D) float32, or (B, bit_count) uint8 / (B, words) uint64
    tail: np.ndarray  # (B, D - bit_count) float32 for "uint8" / "packed"; (B, 0) for "float32"
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
    team_points: np.ndarray  # (B, P) int64: each seat's team's points of the last finished deal
    cancelled: np.ndarray  # (B,) bool: the last deal was cancelled (first_trick_all_penalty)
    actions: np.ndarray  # (B,) int64: input, for worker processes

    @staticmethod
    def layout(
        batch: int, players: int, size: int, num_actions: int, obs_dtype: str = "float32", tail: int = 0
    ) -> list[tuple[str, tuple, type]]:
        """(name, shape, dtype) of every field (``size``: the observation's width)."""
        b, p = batch, players
        shapes = {
            "observation": ((b, size), np.dtype(obs_dtype)),
            "tail": ((b, tail), np.float32),
            "action_mask": ((b, num_actions), np.int8),
            "legal": ((b,), np.uint64),
            "rewards": ((b, p), np.float64),
            "deal_points": ((b, p), np.int64),
            "total_points": ((b, p), np.int64),
            "chips": ((b, p), np.float64),
            "team_points": ((b, p), np.int64),
            "cancelled": ((b,), bool),
            "terminated": ((b,), bool),
            "deal_ended": ((b,), bool),
            "game_ended": ((b,), bool),
            "game_over": ((b,), bool),
        }
        return [(f.name, *shapes.get(f.name, ((b,), np.int64))) for f in fields(Buffers)]

    @classmethod
    def allocate(cls, *sizes: Any, memory: Any = None) -> Buffers:
        """New arrays, or views into ``memory`` (a buffer of :meth:`nbytes` bytes) if given
        (``sizes``: as for :meth:`layout`)."""
        arrays, offset = {}, 0
        for name, shape, dtype in cls.layout(*sizes):
            if memory is None:
                arrays[name] = np.empty(shape, dtype)
                continue
            arrays[name] = np.ndarray(shape, dtype, buffer=memory, offset=offset)
            offset += -(-arrays[name].nbytes // 64) * 64  # keep every field cache-line aligned
        return cls(**arrays)

    @classmethod
    def nbytes(cls, *sizes: Any) -> int:
        """Bytes of shared memory :meth:`allocate` needs."""
        total = 0
        for _, shape, dtype in cls.layout(*sizes):
            total += -(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 64) * 64
        return total

    def rows(self, lo: int, hi: int) -> Buffers:
        """Views of games ``lo..hi-1``."""
        return Buffers(**{f.name: getattr(self, f.name)[lo:hi] for f in fields(self)})


class Shard:
    """Games stepped by one process: a :class:`Table` plus same-step restarts, writing each
    step's results into :class:`Buffers` (fresh arrays, or shared memory for a worker)."""

    def __init__(
        self,
        rules: Rules,
        num_games: int,
        reward: str,
        persistent: bool = False,
        next_step: bool = False,
        obs_format: str = "float32",
    ) -> None:
        self.table = Table(rules, num_games, reward=reward)
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


# ---------------------------------------------------------------------------- worker processes
_PARENT_ENDS: set[Connection] = set()
"""This process's ends of the pipes to its workers: a forked worker closes its copies of them,
so that each worker sees end-of-file as soon as its parent (the only holder left) is gone."""

_PARENT_POLL_S = 1.0
"""How often an idle worker checks that its parent is still alive."""


def _worker(
    conn: Connection,
    memory: Any,
    rules: Rules,
    reward: str,
    sizes: tuple[Any, ...],
    lo: int,
    hi: int,
    next_step: bool = False,
    obs_format: str = "float32",
    spin: float = 0.0,
) -> None:
    """A worker process: step games ``lo..hi-1`` on command, results into shared memory
    (``spin``: seconds to keep polling for the next command before sleeping).

    It answers every message but ``close`` with one ``("ok", value)`` or ``("error",
    exception)``, and returns on ``close``, on end-of-file (the parent closed the pipe or died)
    or when its parent process changes (the parent died while another process holds the pipe).
    """
    for end in list(_PARENT_ENDS):  # forked: the parent's ends, ours and earlier workers'
        end.close()
    _PARENT_ENDS.clear()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    parent = os.getppid()
    out = Buffers.allocate(*sizes, memory=memory).rows(lo, hi)
    shard = Shard(rules, hi - lo, reward, persistent=True, next_step=next_step, obs_format=obs_format)
    while True:
        try:
            until = time.perf_counter() + spin
            while time.perf_counter() < until and not conn.poll(0):
                pass  # the next step usually comes at once: no sleep, no wake-up latency
            while not conn.poll(_PARENT_POLL_S):
                if os.getppid() != parent:
                    return
            command, *args = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        try:
            if command == "step":
                reply: tuple[str, Any] = ("ok", shard.step(out.actions, out))
            elif command == "step_random":
                reply = ("ok", shard.step_random(out))
            elif command == "reset":
                shard.reset(out, *args)
                reply = ("ok", None)
            elif command == "explain":
                reply = ("ok", shard.explain(*args))
            elif command == "render":
                from hearts_env.render import render_text

                reply = ("ok", [render_text(shard.table, g) for g in range(hi - lo)])
            elif command == "close":
                return
            else:
                reply = ("error", ValueError(f"unknown worker command {command!r}"))
        except Exception as error:  # reported to the main process, which raises it
            reply = ("error", error)
        try:
            conn.send(reply)
        except (BrokenPipeError, ConnectionResetError):
            return
        except Exception as error:  # an answer or exception that cannot be pickled
            conn.send(("error", RuntimeError(f"worker could not send its answer to {command}: {error!r}")))


@dataclass
class _Worker:
    """One worker process and the parent's end of its pipe."""

    number: int  # its shard: 1 .. num_workers - 1 (shard 0 is the main process's)
    process: Any  # multiprocessing.Process
    conn: Connection
    lo: int
    hi: int

    def name(self) -> str:
        return f"worker {self.number} (pid {self.process.pid}, games {self.lo}..{self.hi - 1})"

    def death(self) -> str:
        """How the process ended, for error messages (waiting a moment for its exit code)."""
        self.process.join(timeout=1.0)
        code = self.process.exitcode
        if code is None:
            return "closed its pipe"
        if code < 0:
            try:
                return f"exit code {code} ({signal.Signals(-code).name})"
            except ValueError:
                return f"exit code {code}"
        return f"exit code {code}"


def _is_int(value: Any) -> bool:
    """An integer action: a Python or numpy integer or a 0-d integer array, not a bool."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    return isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu"


def _describe(value: Any) -> str:
    """``value`` and its type, for error messages: ``3.0 (float64)``, ``True (bool)``."""
    if isinstance(value, np.ndarray):
        return f"an array of dtype {value.dtype} and shape {value.shape}"
    text = repr(value.item() if isinstance(value, np.generic) else value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


class HeartsVectorEnv(VectorEnv):
    """B Hearts-family games stepped together (see the module docstring).

    ``num_envs``: games in the batch (an int ≥ 1). ``num_workers``: processes stepping shards
    of the batch at the same time — this process steps the first shard, ``num_workers - 1``
    worker processes the others (1: no workers). ``copy``: return arrays of their own every
    step (``False``: read-only views of buffers that the next step overwrites; faster, as no
    new memory is touched each step). ``render_mode``: ``None`` or ``"ansi"``. ``reward``:
    ``"points"``, ``"zero_sum"`` or ``"chips"`` (see :class:`~hearts_env.table.Table`).
    ``start_method``: how workers start (default ``"fork"`` where available, else
    ``"spawn"``, which needs the ``__main__`` guard). ``worker_timeout``: seconds to wait for
    a worker's answer before raising ``TimeoutError`` (a positive number). ``worker_spin``:
    seconds a worker polls for the next command before sleeping (0 to 1; see the module docstring).
    ``autoreset_mode``: ``"same_step"`` (default) or ``"next_step"`` (or the
    ``gymnasium.vector.AutoresetMode``); ``action_mask``: ``"observation"`` (default: dict
    observations) or ``"info"`` (a Box observation, the mask in ``info["action_mask"]``).
    ``obs_format``: ``"float32"`` (default), ``"uint8"`` or ``"packed"``
    (:mod:`hearts_env.formats`). Other keyword
    arguments are rules options (docs/rules.md) for :func:`~hearts_env.presets.make_rules`.

    Raises ``TypeError`` / ``ValueError`` for a bad argument, before any worker starts.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        preset: str = "hearts",
        num_envs: int = 1024,
        seed: int | None = None,
        reward: str | None = None,
        render_mode: str | None = None,
        num_workers: int = 1,
        copy: bool = True,
        start_method: str | None = None,
        worker_timeout: float = 60.0,
        worker_spin: float = 2e-4,
        autoreset_mode: str | AutoresetMode = "same_step",
        action_mask: str = "observation",
        obs_format: str = "float32",
        **options: Any,
    ) -> None:
        self._workers: list[_Worker] = []
        self._broken: str | None = None  # why the env is unusable, once it is
        _check_arguments(num_envs, num_workers, copy, render_mode, reward, start_method, worker_timeout)
        if isinstance(worker_spin, (bool, np.bool_)) or not isinstance(worker_spin, (int, float, np.number)):
            raise TypeError(f"worker_spin must be a number of seconds, got {_describe(worker_spin)}")
        if not 0 <= worker_spin <= 1:
            raise ValueError(f"worker_spin must be from 0 to 1 second, got {worker_spin!r}")
        mode = _autoreset_mode(autoreset_mode)
        if action_mask not in ACTION_MASKS:
            raise ValueError(
                f"action_mask must be one of {', '.join(map(repr, ACTION_MASKS))} (where the mask goes), "
                f"got {_describe(action_mask)}"
            )
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.mask_in_info = action_mask == "info"
        self.obs_format = check_format(obs_format)
        self._next_step = mode == AutoresetMode.NEXT_STEP
        players = options.get("num_players")
        if isinstance(players, np.integer):
            options["num_players"] = int(players)
        self.rules = make_rules(preset, **options)
        self.num_envs = int(num_envs)
        self.num_workers = int(num_workers)
        self.copy = bool(copy)
        self.render_mode = render_mode
        self.worker_timeout = float(worker_timeout)
        self.worker_spin = float(worker_spin)
        self.num_players = self.rules.num_players
        self._bounds = np.linspace(0, self.num_envs, self.num_workers + 1).astype(int).tolist()
        # Buffers reused every step (shared memory with workers, or copy=False) or fresh ones.
        self._persistent = self.num_workers > 1 or not self.copy
        self._local = Shard(
            self.rules, self._bounds[1], reward, self._persistent, self._next_step, self.obs_format
        )
        self._local.table.parse_reset(seed)  # the seed is checked before anything starts
        self.layout = self._local.table.observer.layout
        self.action_names: tuple[str, ...] = self.rules.action_names
        """One name per action: the card slots, then the variant's named decisions."""
        self.teams: tuple[tuple[int, ...], ...] = self.rules.teams or tuple(
            (i,) for i in range(self.num_players)
        )
        """The partnerships as seat tuples (singletons where there are none)."""
        self.num_actions = self._local.table.engine.num_actions
        self.single_observation_space = spaces.observation_space(self.rules, self.layout, self.obs_format)
        if self.mask_in_info and self.obs_format == "float32":
            self.single_observation_space = self.single_observation_space["observation"]
        self.single_action_space = spaces.action_space(self.rules)
        batch_space = gymnasium.vector.utils.batch_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete([self.num_actions] * self.num_envs, seed=seed)
        self._seed = seed
        self._started = False
        self._last: Buffers | None = None  # the latest step's results
        self._buffers: Buffers | None = None  # the reused buffers (shared with the workers)
        if self.num_workers > 1:
            self._start_workers(reward, start_method)
        elif self._persistent:
            self._buffers = Buffers.allocate(*self._sizes())

    @property
    def table(self) -> Table:
        """The :class:`Table` of all games (only without worker processes)."""
        if self.num_workers > 1:
            raise AttributeError("a vector env with worker processes has no single table")
        return self._local.table

    @property
    def worker_pids(self) -> tuple[int, ...]:
        """Process ids of the worker processes (empty without workers or once closed)."""
        return tuple(w.process.pid for w in self._workers)

    def _sizes(self) -> tuple[Any, ...]:
        """The arguments of :meth:`Buffers.layout`: the observation's width and dtype by format."""
        packing = self.layout.packing
        if self.obs_format == "float32":
            return self.num_envs, self.num_players, self.layout.size, self.num_actions
        width = packing.bit_count if self.obs_format == "uint8" else packing.words
        dtype = "uint8" if self.obs_format == "uint8" else "uint64"
        return self.num_envs, self.num_players, width, self.num_actions, dtype, packing.tail

    # ------------------------------------------------------------------ workers
    def _start_workers(self, reward: str, start_method: str | None) -> None:
        # fork starts fast and needs no ``if __name__ == "__main__"`` guard; workers use NumPy only.
        method = start_method or ("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        context = mp.get_context(method)
        # A RawArray lives as long as any array made from it: no view can outlive the memory.
        memory = context.RawArray("B", Buffers.nbytes(*self._sizes()))
        self._buffers = Buffers.allocate(*self._sizes(), memory=memory)
        try:
            for number, (lo, hi) in enumerate(zip(self._bounds[1:-1], self._bounds[2:]), start=1):
                parent, child = context.Pipe()
                _PARENT_ENDS.add(parent)  # before the fork, so that the worker closes its copy
                args = (child, memory, self.rules, reward, self._sizes(), lo, hi)
                args += (self._next_step, self.obs_format, self.worker_spin)
                process = context.Process(target=_worker, args=args, daemon=True)
                try:
                    process.start()
                except BaseException:
                    _PARENT_ENDS.discard(parent)
                    parent.close()
                    raise
                finally:
                    child.close()
                self._workers.append(_Worker(number, process, parent, lo, hi))
        except BaseException:
            self._stop_workers(graceful=False)
            raise

    def _fail(self, why: str) -> None:
        """Mark the env unusable (the first reason is kept)."""
        if self._broken is None:
            self._broken = why

    def _send(self, worker: _Worker, payload: bytes) -> None:
        try:
            worker.conn.send_bytes(payload)
        except (OSError, EOFError):  # BrokenPipeError, ConnectionResetError: it is gone
            message = f"{worker.name()} died: {worker.death()}"
            self._fail(message)
            raise RuntimeError(f"{message}; close() this env and make a new one") from None

    def _receive(self, worker: _Worker, what: str, deadline: float) -> tuple[str, Any]:
        """The worker's reply to ``what``, or a clear error if it dies or does not answer."""
        while True:
            ready = wait([worker.conn, worker.process.sentinel], max(0.0, deadline - time.monotonic()))
            if worker.conn in ready:
                try:
                    return worker.conn.recv()
                except (OSError, EOFError):
                    break
            if ready:  # the process ended without answering
                break
            if time.monotonic() >= deadline:
                message = (
                    f"{worker.name()} did not answer {what}() within "
                    f"worker_timeout={self.worker_timeout:g} s (stopped, hung or overloaded)"
                )
                self._fail(message)
                raise TimeoutError(f"{message}; close() this env and make a new one")
        message = f"{worker.name()} died: {worker.death()}"
        self._fail(message)
        raise RuntimeError(f"{message}; close() this env and make a new one")

    def _call(
        self,
        what: str,
        messages: Sequence[tuple[_Worker, bytes]],
        local: Callable[[], Any] | None = None,
        changes_state: bool = False,
    ) -> tuple[Any, list[Any]]:
        """Send each worker its (pickled) message, run ``local`` meanwhile, then read every reply.

        Every message sent has its reply read whatever fails (``local`` raising included), so
        no stale reply is left in a pipe. Returns ``local``'s result and the workers' values.
        A request that ``changes_state`` and fails part-way leaves the shards out of step: the
        env is then unusable (the callers validate everything first, so only faults get here).
        """
        sent: list[_Worker] = []
        replies: list[tuple[_Worker, tuple[str, Any]]] = []
        answered = False
        try:
            try:
                for worker, payload in messages:
                    self._send(worker, payload)
                    sent.append(worker)
                result = local() if local is not None else None
            finally:
                deadline = time.monotonic() + self.worker_timeout
                replies = [(worker, self._receive(worker, what, deadline)) for worker in sent]
                answered = True
        except BaseException as error:
            if changes_state or not answered:
                self._fail(f"{what}() failed part-way ({type(error).__name__}: {error})")
            raise
        for worker, (status, value) in replies:
            if status != "error":
                continue
            if not changes_state:
                raise value
            message = f"{worker.name()} failed in {what}() ({type(value).__name__}: {value})"
            self._fail(message)
            raise RuntimeError(f"{message}; close() this env and make a new one") from value
        return result, [value for _, (_, value) in replies]

    def _usable(self, what: str) -> None:
        """Refuse to run ``what`` on a closed or broken env."""
        if self.closed:
            raise RuntimeError(
                f"{what}() on a closed vector env: make a new one with hearts_env.vector_env(...)"
            )
        if self._broken is not None:
            raise RuntimeError(
                f"{what}() on an unusable vector env: {self._broken}; close() it and make a new one"
            )

    # ------------------------------------------------------------------ the Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game in every slot (options: ``hands``, ``kitty``, ``dealer``,
        ``pass_direction``; see :meth:`Table.reset`). Raises ``TypeError`` / ``ValueError``
        for a bad seed or option, with nothing changed (the random generators included)."""
        self._usable("reset")
        if seed is None and not self._started:
            seed = self._seed
        self._local.table.parse_reset(seed, options)  # every shard has the same rules
        if not self._workers:
            out = self._buffers if self._persistent else Buffers.allocate(*self._sizes())
            self._call("reset", [], lambda: self._local.reset(out, seed, options), changes_state=True)
        else:
            out = self._buffers
            seeds: list[int | None] = [None] * self.num_workers
            if seed is not None:
                children = np.random.SeedSequence(int(seed)).spawn(self.num_workers)
                seeds = [int(child.generate_state(1)[0]) for child in children]
            try:
                payloads = [bytes(ForkingPickler.dumps(("reset", s, options))) for s in seeds[1:]]
            except Exception as error:
                raise TypeError(
                    f"reset options must be picklable to reach the worker processes: {error}"
                ) from None
            local = self._bounds[1]
            self._call(
                "reset",
                list(zip(self._workers, payloads)),
                lambda: self._local.reset(out.rows(0, local), seeds[0], options),
                changes_state=True,
            )
        self._started = True
        self._last = out
        info = {"current_player": self._get(out.current_player)}
        if self.mask_in_info:
            info["action_mask"] = self._get(out.action_mask)
        return self._views(out), info

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision per game (``actions``: one integer card index per game, shape (B,));
        finished episodes restart in the same step. A bad or illegal action raises
        ``TypeError`` / ``ValueError`` naming the game, its agent and the value, before any
        game changes."""
        self._usable("step")
        if not self._started:
            raise RuntimeError("step() before reset(): call reset() first")
        actions = self._checked(actions)
        if self._workers:
            self._buffers.actions[:] = actions  # the workers read their games' actions here
        local = self._bounds[1]
        out, ended = self._step_shards("step", _STEP, lambda rows: self._local.step(actions[:local], rows))
        return self._outputs(out, ended)

    def step_random(
        self,
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One uniformly random legal action in every game, drawn by the process that steps the
        game: what ``step(actions)`` returns for those actions, with ``info["actions"]`` (B,)
        the actions played (0 for a game that only restarts, ``autoreset_mode="next_step"``).

        Nothing is drawn or checked in this process, so with workers it costs this process no
        more than its own shard — the fastest random play (random opponents, data, benchmarks).
        Each shard draws from its own generator, seeded by the ``reset`` seed on a stream apart
        from the deals': reproducible for a seed and ``num_workers``."""
        self._usable("step_random")
        if not self._started:
            raise RuntimeError("step_random() before reset(): call reset() first")
        out, ended = self._step_shards("step_random", _STEP_RANDOM, self._local.step_random)
        results = self._outputs(out, ended)
        results[-1]["actions"] = self._get(out.actions)
        return results

    def _step_shards(
        self, what: str, payload: bytes, local: Callable[[Buffers], bool]
    ) -> tuple[Buffers, bool]:
        """Every shard steps at once: the workers on ``payload``, this process ``local(rows)`` on
        its own rows of the step's buffers. Returns the buffers and whether any deal ended."""
        if self._workers:
            out = self._buffers
            messages = [(worker, payload) for worker in self._workers]
        else:
            out = self._buffers if self._persistent else Buffers.allocate(*self._sizes())
            messages = []
        rows = out.rows(0, self._bounds[1]) if self._workers else out
        ended, answers = self._call(what, messages, lambda: local(rows), changes_state=True)
        return out, bool(ended or any(answers))

    def _outputs(
        self, out: Buffers, ended: bool
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """What a step returns, read from ``out`` (``ended``: some deal ended)."""
        self._last = out
        info: dict[str, Any] = {
            "rewards": self._get(out.rewards),
            "acting_player": self._get(out.acting_player),
            "current_player": self._get(out.current_player),
        }
        if self.mask_in_info:
            info["action_mask"] = self._get(out.action_mask)
        if ended:
            names = ("deal_points", "total_points", "game_over", "moon_shooter", "chips", "team_points")
            for name in (*names, "cancelled"):
                info[name] = self._get(getattr(out, name))
            info["deal_ended"] = self._get(out.deal_ended)
            info["game_ended"] = self._get(out.game_ended)
        reward = out.rewards[np.arange(self.num_envs), out.acting_player]
        truncated = np.zeros(self.num_envs, bool)
        return self._views(out), reward, self._get(out.terminated), truncated, info

    # ------------------------------------------------------------------ checking actions
    def _agent(self, game: int) -> str:
        """The acting agent of ``game``, for error messages."""
        if game < self._bounds[1]:
            seat = self._local.table.current_player[game]
        else:
            seat = self._buffers.current_player[game]
        return f"player_{int(seat)}"

    def _checked(self, actions: Any) -> np.ndarray:
        """``actions`` as a fresh (B,) int64 array, or ``TypeError`` / ``ValueError`` naming the
        first bad game, its agent and the value (illegal cards too, unless they forfeit)."""
        b, n = self.num_envs, self.num_actions
        shape_error = f"step() takes one integer action per game: a list or integer array of shape ({b},)"
        if isinstance(actions, (list, tuple)):
            if len(actions) != b:
                raise ValueError(f"{shape_error}, got {len(actions)} actions")
            for game, value in enumerate(actions):
                if not _is_int(value):
                    raise TypeError(self._not_an_int(game, value))
            values = [int(value) for value in actions]
            # -1 for every out-of-range value (Python ints may not fit an int64): it names no card
            clean = np.array([v if 0 <= v < n else -1 for v in values], np.int64)
            return self._legal_or_raise(clean, values)
        try:
            array = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        except Exception:
            raise TypeError(f"{shape_error}, got {_describe(actions)}") from None
        if array.ndim == 0 and array.dtype.kind not in "iu":
            raise TypeError(f"{shape_error}, got {_describe(actions)}")
        if array.shape != (b,):
            raise ValueError(f"{shape_error}, got shape {array.shape} (dtype {array.dtype})")
        if array.dtype.kind not in "iu":
            game = _first_non_int(array)
            raise TypeError(self._not_an_int(game, array[game], array.dtype))
        out_of_range = (array < 0) | (array >= n)
        clean = np.where(out_of_range, 0, array).astype(np.int64)
        clean[out_of_range] = -1  # every out-of-range value names no card
        return self._legal_or_raise(clean, array)

    def _not_an_int(self, game: int, value: Any, dtype: np.dtype | None = None) -> str:
        why = "is not an integer" if dtype is None else f"is in an array of dtype {dtype}, not of integers"
        return (
            f"game {game} ({self._agent(game)}): action {_describe(value)} {why}; "
            f"step() takes integer card indices 0..{self.num_actions - 1}, one per game "
            f"(a list of ints or an integer array of shape ({self.num_envs},))"
        )

    def _legal_or_raise(self, actions: np.ndarray, original: Any) -> np.ndarray:
        """``actions`` (in-range values, -1 elsewhere) if every one is legal (or illegal ones
        forfeit); else ``ValueError`` explaining the first illegal one — before any shard steps."""
        if self._next_step and self._last is not None and self._last.terminated.any():
            restarting = self._last.terminated.copy()  # their action is ignored: any int will do
            actions = np.where(restarting, 0, actions)
        else:
            restarting = None
        if self.rules.illegal_action == "terminate":
            return actions
        if self.rules.decisions:  # decisions have no card bits: read the action masks
            mask = self._buffers.action_mask if self._workers else self._local.table.action_mask()
            bad = (actions < 0) | (mask[np.arange(self.num_envs), np.maximum(actions, 0)] == 0)
        else:
            legal = self._buffers.legal if self._workers else self._local.table.legal()
            bad = (legal & action_bits(actions)) == ZERO
        if restarting is not None:
            bad &= ~restarting
        if not bad.any():
            return actions
        game = int(np.flatnonzero(bad)[0])
        action = int(original[game])
        shard = int(np.searchsorted(self._bounds, game, side="right")) - 1
        if shard == 0:
            message = self._local.explain(game, action)
        else:
            worker = self._workers[shard - 1]
            payload = bytes(ForkingPickler.dumps(("explain", game - worker.lo, action)))
            (_, [message]) = self._call("explain", [(worker, payload)])
        raise ValueError(f"game {game} ({self._agent(game)}): {message}")

    # ------------------------------------------------------------------ outputs
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

    def _views(self, out: Buffers) -> dict[str, np.ndarray] | np.ndarray:
        compact = self.obs_format != "float32"
        if self.mask_in_info and not compact:
            return self._get(out.observation)
        views = {"observation": self._get(out.observation)}
        if compact:
            views["tail"] = self._get(out.tail)
        if not self.mask_in_info:
            views["action_mask"] = self._get(out.action_mask)
        return views

    def legal_masks(self) -> np.ndarray:
        """(B,) uint64: the acting seats' legal cards as bitmasks (bit c = card c), for fast
        agents (see :func:`hearts_env.bits.random_bit`)."""
        self._usable("legal_masks")
        if self._last is None:
            raise RuntimeError("legal_masks() before reset(): call reset() first")
        return self._get(self._last.legal)

    def render(self) -> tuple[str, ...] | None:
        """Text of each game's table (``render_mode="ansi"``); only sensible for a few games."""
        from hearts_env.render import render_text

        if self.render_mode != "ansi":
            return None
        self._usable("render")
        texts = [render_text(self._local.table, g) for g in range(self._bounds[1])]
        _, shards = self._call("render", [(worker, _RENDER) for worker in self._workers])
        return tuple(texts + [text for shard in shards for text in shard])

    # ------------------------------------------------------------------ closing
    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes (killing any that do not stop) and free the shared memory.
        Never hangs, and works on an env made unusable by a failed worker."""
        self._stop_workers(graceful=self._broken is None)
        self._buffers = None  # the memory goes once no returned view uses it

    def _stop_workers(self, graceful: bool) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            if graceful:
                try:
                    worker.conn.send_bytes(_CLOSE)
                except (OSError, EOFError):
                    pass
            _PARENT_ENDS.discard(worker.conn)
            worker.conn.close()  # end-of-file: the worker returns even if the message was lost
        deadline = time.monotonic() + (min(5.0, self.worker_timeout) if graceful else 0.2)
        for worker in workers:
            process = worker.process
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None and graceful:
                process.terminate()
                process.join(1.0)
            if process.exitcode is None:  # failed, stopped (SIGSTOP) or ignoring SIGTERM
                process.kill()
                process.join(5.0)

    def __del__(self) -> None:
        if getattr(self, "_workers", None):
            try:
                self.close()
            except Exception:  # interpreter shutdown: the workers are daemons and end with us
                pass


_STEP, _STEP_RANDOM, _RENDER, _CLOSE = (
    bytes(ForkingPickler.dumps((command,))) for command in ("step", "step_random", "render", "close")
)


def _first_non_int(array: np.ndarray) -> int:
    """The first game of a non-integer ``array`` whose value is not a whole number (0 if all are)."""
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (array != np.round(array))
        return int(np.argmax(bad))
    if array.dtype.kind == "O":
        return next((g for g, value in enumerate(array) if not _is_int(value)), 0)
    return 0


def _check_arguments(
    num_envs: Any,
    num_workers: Any,
    copy: Any,
    render_mode: Any,
    reward: Any,
    start_method: Any,
    worker_timeout: Any,
) -> None:
    """``TypeError`` / ``ValueError`` for a bad constructor argument of the vector env."""

    def integer(value: Any) -> bool:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))

    if not integer(num_envs):
        raise TypeError(f"num_envs must be an int (the number of games), got {_describe(num_envs)}")
    if num_envs < 1:
        raise ValueError(f"num_envs must be at least 1 (the number of games), got {num_envs!r}")
    if not integer(num_workers):
        raise TypeError(
            f"num_workers must be an int from 1 to num_envs={num_envs}, got {_describe(num_workers)}"
        )
    if not 1 <= num_workers <= num_envs:
        raise ValueError(f"num_workers must be an int from 1 to num_envs={num_envs}, got {num_workers!r}")
    if not isinstance(copy, (bool, np.bool_)):
        raise TypeError(f"copy must be True or False, got {_describe(copy)}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))}, got {render_mode!r}"
        )
    if reward is not None and (not isinstance(reward, str) or reward not in REWARDS):
        raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}, got {reward!r}")
    methods = mp.get_all_start_methods()
    if start_method is not None and start_method not in methods:
        raise ValueError(
            f"start_method must be None or one of {', '.join(map(repr, methods))}, got {start_method!r}"
        )
    if isinstance(worker_timeout, (bool, np.bool_)) or not isinstance(
        worker_timeout, (int, float, np.number)
    ):
        raise TypeError(f"worker_timeout must be a number of seconds, got {_describe(worker_timeout)}")
    if not (math.isfinite(worker_timeout) and worker_timeout > 0):
        raise ValueError(
            f"worker_timeout must be a positive, finite number of seconds, got {worker_timeout!r}"
        )


def vector_env(
    preset: str = "hearts", num_envs: int = 1024, seed: int | None = None, **options: Any
) -> HeartsVectorEnv:
    """``num_envs`` games of ``preset`` as a Gymnasium ``VectorEnv`` (docs/rules.md options;
    ``num_workers``, ``copy``, ``worker_timeout`` and the others as in :class:`HeartsVectorEnv`)."""
    return HeartsVectorEnv(preset, num_envs=num_envs, seed=seed, **options)
