"""``HeartsVectorEnv``: B games as one ``gymnasium.vector.VectorEnv``, stepped in this process
or sharded over worker processes (what it returns and how it fails: :mod:`hearts_env.vector`),
and :func:`vector_env`, which makes one."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from hearts_env import spaces
from hearts_env.core.bits import ZERO
from hearts_env.core.formats import check_format
from hearts_env.games.hearts.engine import action_bits
from hearts_env.parallel import WorkerError, Workers, make
from hearts_env.presets import make_rules
from hearts_env.table import Table
from hearts_env.universal import UniversalView, check_layout, universal_space, universal_view
from hearts_env.vector.buffers import Buffers
from hearts_env.vector.checks import (
    RENDER_MODES,
    check_action_mask,
    check_arguments,
    integer_actions,
    parse_autoreset_mode,
)
from hearts_env.vector.shard import Shard
from hearts_env.vector.worker import ShardWorker


class HeartsVectorEnv(VectorEnv):
    """B Hearts-family games stepped together (see :mod:`hearts_env.vector`).

    ``num_envs``: games in the batch (an int ≥ 1). ``num_workers``: processes stepping shards
    of the batch at the same time — this process steps the first shard, ``num_workers - 1``
    worker processes the others (1: no workers). ``copy``: return arrays of their own every
    step (``False``: read-only views of buffers that the next step overwrites; faster, as no
    new memory is touched each step). ``render_mode``: ``None`` or ``"ansi"``. The env settings
    (:class:`~hearts_env.table.Table`): ``reward`` (``"points"``, ``"zero_sum"``, ``"team"`` or
    ``"chips"``), ``episode`` (``"deal"`` or ``"game"``: what ``terminations`` marks) and
    ``illegal_action`` (``"raise"`` or ``"terminate"``: illegal actions forfeit the deal).
    ``start_method``: how workers start (default ``"fork"`` where available, else
    ``"spawn"``, which needs the ``__main__`` guard). ``worker_timeout``: seconds to wait for
    a worker's answer before raising ``TimeoutError`` (a positive number). ``worker_spin``:
    seconds a worker polls for the next command before sleeping (0 to 1; see :mod:`hearts_env.vector`).
    ``autoreset_mode``: ``"same_step"`` (default) or ``"next_step"`` (or the
    ``gymnasium.vector.AutoresetMode``); ``action_mask``: ``"observation"`` (default: dict
    observations) or ``"info"`` (a Box observation, the mask in ``info["action_mask"]``).
    ``obs_format``: ``"float32"`` (default), ``"uint8"`` or ``"packed"``
    (:mod:`hearts_env.core.formats`). ``layout``: ``"native"`` (default: the configuration's own
    observation and actions) or ``"universal"`` (the family's universal observation and action
    vocabulary, :mod:`hearts_env.universal`: one shape for every preset and player count of the
    family; float32 only). Other keyword arguments are the game's rule options (docs/rules.md)
    for :func:`~hearts_env.presets.make_rules`.

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
        layout: str = "native",
        episode: str = "deal",
        illegal_action: str = "raise",
        **options: Any,
    ) -> None:
        self._workers: Workers | None = None  # the worker processes (hearts_env.parallel)
        self._broken: str | None = None  # why the env is unusable, once it is
        check_arguments(
            num_envs, num_workers, copy, render_mode, reward, start_method, worker_timeout, worker_spin
        )
        mode = parse_autoreset_mode(autoreset_mode)
        check_action_mask(action_mask)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.mask_in_info = action_mask == "info"
        self.obs_format = check_format(obs_format)
        if check_layout(layout) == "universal" and self.obs_format != "float32":
            raise ValueError(f"layout='universal' is float32 only, got obs_format={obs_format!r}")
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
        settings = {"reward": reward, "episode": episode, "illegal_action": illegal_action}
        self._local = Shard(
            self.rules, self._bounds[1], settings, self._persistent, self._next_step, self.obs_format
        )
        self.settings: dict[str, str] = self._local.table.settings
        """The env settings of every game: ``reward`` (the default resolved), ``episode`` and
        ``illegal_action`` (:class:`~hearts_env.table.Table`)."""
        self._local.table.parse_reset(seed)  # the seed is checked before anything starts
        self._native_layout = self._local.table.observer.layout
        self.universal: UniversalView | None = universal_view(self.rules) if layout == "universal" else None
        """With ``layout="universal"``: the conversion to the family's vocabulary (None otherwise)."""
        self.layout = self.universal.vocabulary.layout if self.universal else self._native_layout
        self.action_names: tuple[str, ...] = (
            self.universal.vocabulary.actions if self.universal else self.rules.action_names
        )
        """One name per action: the card slots, then the variant's named decisions (with
        ``layout="universal"``, the family's)."""
        self.teams: tuple[tuple[int, ...], ...] = self.rules.teams or tuple(
            (i,) for i in range(self.num_players)
        )
        """The partnerships as seat tuples (singletons where there are none)."""
        self._native_actions = self._local.table.engine.num_actions
        self.num_actions = len(self.action_names)
        if self.universal:
            self.single_observation_space = universal_space(self.universal.vocabulary)
        else:
            self.single_observation_space = spaces.observation_space(self.rules, self.layout, self.obs_format)
        if self.mask_in_info and self.obs_format == "float32":
            self.single_observation_space = self.single_observation_space["observation"]
        self.single_action_space = gymnasium.spaces.Discrete(self.num_actions)
        batch_space = gymnasium.vector.utils.batch_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete([self.num_actions] * self.num_envs, seed=seed)
        self._seed = seed
        self._started = False
        self._last: Buffers | None = None  # the latest step's results
        self._buffers: Buffers | None = None  # the reused buffers (shared with the workers)
        if self.num_workers > 1:
            self._start_workers(start_method)
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
        return self._workers.pids if self._workers is not None else ()

    def _sizes(self) -> tuple[Any, ...]:
        """The arguments of :meth:`Buffers.layout`: the observation's width and dtype by format."""
        packing, actions = self._native_layout.packing, self._native_actions
        if self.obs_format == "float32":
            return self.num_envs, self.num_players, self._native_layout.size, actions
        width = packing.bit_count if self.obs_format == "uint8" else packing.words
        dtype = "uint8" if self.obs_format == "uint8" else "uint64"
        return self.num_envs, self.num_players, width, actions, dtype, packing.tail

    # ------------------------------------------------------------------ workers
    def _start_workers(self, start_method: str | None) -> None:
        # fork starts fast and needs no ``if __name__ == "__main__"`` guard; workers use NumPy only.
        method = start_method or ("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        # A RawArray lives as long as any array made from it: no view can outlive the memory.
        memory = mp.get_context(method).RawArray("B", Buffers.nbytes(*self._sizes()))
        self._buffers = Buffers.allocate(*self._sizes(), memory=memory)
        pool = make("processes", timeout=self.worker_timeout, start_method=method, spin=self.worker_spin)
        cuts = list(zip(self._bounds[1:-1], self._bounds[2:]))
        common = (self.rules, self.settings, self._sizes(), self._next_step, self.obs_format)
        self._workers = pool.start(
            ShardWorker,
            [(memory, lo, hi, *common) for lo, hi in cuts],
            names=[f"worker {number}" for number in range(1, len(cuts) + 1)],  # shard 0 is this process's
            notes=[f"games {lo}..{hi - 1}" for lo, hi in cuts],
        )

    def _fail(self, why: str) -> None:
        """Mark the env unusable (the first reason is kept)."""
        if self._broken is None:
            self._broken = why

    def _call(
        self,
        what: str,
        local: Callable[[], Any] | None = None,
        changes_state: bool = False,
        args: tuple[Any, ...] = (),
        each: Sequence[tuple[Any, ...]] | None = None,
        to: Sequence[int] | None = None,
    ) -> tuple[Any, list[Any]]:
        """Ask the workers (those in ``to``; all by default) for ``what(*args)`` (or worker
        ``i`` for ``what(*each[i])``), run ``local`` meanwhile, then read every answer.

        Every answer owed is read whatever fails (``local`` raising included), so none is left
        in a pipe. Returns ``local``'s result and the workers' values. A request that
        ``changes_state`` and fails part-way leaves the shards out of step: the env is then
        unusable (the callers validate everything first, so only faults get here). A dead or
        late worker makes it unusable whatever the request.
        """
        workers = self._workers
        ticket = None
        if workers is not None and (to is None or to):
            try:
                ticket = (
                    workers.send_each(what, each) if each is not None else workers.send(what, *args, to=to)
                )
            except BaseException as error:
                self._fail_with(workers, error, what, changes_state and workers.broken is not None)
                raise
        values: list[Any] = []
        try:
            try:
                result = local() if local is not None else None
            finally:
                if ticket is not None:
                    values = workers.receive(ticket)
        except WorkerError as error:
            if not changes_state:
                raise error.error from None
            self._fail(str(error))
            raise RuntimeError(f"{error}; close() this env and make a new one") from error.error
        except BaseException as error:
            self._fail_with(workers, error, what, True)
            raise
        return result, values

    def _fail_with(self, workers: Workers | None, error: BaseException, what: str, part_way: bool) -> None:
        """After ``error`` in a request: mark the env unusable when a worker died or was late
        (the pool's message, raised again with what to do) or when the request failed part-way."""
        if workers is not None and workers.broken is not None and workers.broken == str(error):
            self._fail(workers.broken)
            raise type(error)(f"{error}; close() this env and make a new one") from None
        if part_way:
            self._fail(f"{what}() failed part-way ({type(error).__name__}: {error})")

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
        ``pass_direction``, ``new_game`` or ``position``: a ``Position``, or a batch of one or
        ``num_envs`` positions, one per game; see :meth:`Table.reset`). Raises ``TypeError`` /
        ``ValueError`` for a bad seed or option (an unknown key too), with nothing changed (the
        random generators included) and the env usable: every shard's part is checked here
        before any shard changes."""
        self._usable("reset")
        if seed is None and not self._started:
            seed = self._seed
        parts = self._shard_options(options)
        for (lo, hi), part in zip(zip(self._bounds, self._bounds[1:]), parts):
            self._local.table.parse_reset(seed, part, num_games=hi - lo)  # every shard has the same rules
        if not self._workers:
            out = self._buffers if self._persistent else Buffers.allocate(*self._sizes())
            self._call("reset", lambda: self._local.reset(out, seed, options), changes_state=True)
        else:
            out = self._buffers
            seeds: list[int | None] = [None] * self.num_workers
            if seed is not None:
                children = np.random.SeedSequence(int(seed)).spawn(self.num_workers)
                seeds = [int(child.generate_state(1)[0]) for child in children]
            local = self._bounds[1]
            self._call(
                "reset",
                lambda: self._local.reset(out.rows(0, local), seeds[0], parts[0]),
                changes_state=True,
                each=list(zip(seeds[1:], parts[1:])),  # unpicklable options: refused before any is sent
            )
        self._started = True
        self._last = out
        info = {"current_player": self._get(out.current_player)}
        if self.mask_in_info:
            info["action_mask"] = self._mask(out)
        return self._views(out), info

    def _shard_options(self, options: Any) -> list[Any]:
        """Each shard's reset options: ``options`` itself, but a batch of ``num_envs`` positions
        cut into each shard's games."""
        position = options.get("position") if isinstance(options, Mapping) else None
        if not hasattr(position, "take"):  # no position, or a single one: the same in every game
            return [options] * self.num_workers
        one = len(position) == 1  # a batch of one is every game's position
        if len(position) != self.num_envs and not one:
            raise ValueError(
                f"reset option 'position': a batch for this vector env holds {self.num_envs} positions "
                f"(one per game), got {len(position)}"
            )
        if self.num_workers == 1 or one:
            return [options] * self.num_workers
        cuts = zip(self._bounds, self._bounds[1:])
        return [{**options, "position": position.take(np.arange(lo, hi))} for lo, hi in cuts]

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
        out, ended = self._step_shards("step", lambda rows: self._local.step(actions[:local], rows))
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
        out, ended = self._step_shards("step_random", self._local.step_random)
        results = self._outputs(out, ended)
        played = self._get(out.actions)
        results[-1]["actions"] = self.universal.actions[played] if self.universal else played
        return results

    def _step_shards(self, what: str, local: Callable[[Buffers], bool]) -> tuple[Buffers, bool]:
        """Every shard steps at once: the workers on ``what``, this process ``local(rows)`` on
        its own rows of the step's buffers. Returns the buffers and whether any deal ended."""
        if self._workers:
            out = self._buffers
        else:
            out = self._buffers if self._persistent else Buffers.allocate(*self._sizes())
        rows = out.rows(0, self._bounds[1]) if self._workers else out
        ended, answers = self._call(what, lambda: local(rows), changes_state=True)
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
            info["action_mask"] = self._mask(out)
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
        clean, given = integer_actions(actions, self.num_envs, self.num_actions, self._agent)
        if self.universal:  # to the configuration's own actions, each checked
            for game in np.flatnonzero(clean < 0)[:1]:
                raise ValueError(
                    f"game {game} ({self._agent(game)}): action {given[game]} is out of range "
                    f"0..{self.num_actions - 1}"
                )
            native = self.universal.native_actions[clean]
            for game in np.flatnonzero(native < 0)[:1]:
                raise ValueError(
                    f"game {game} ({self._agent(game)}): universal action {int(clean[game])} "
                    f"({self.action_names[int(clean[game])]}) is not an action of {self.rules.preset} with "
                    f"{self.num_players} players"
                )
            clean, given = native, native
        return self._legal_or_raise(clean, given)

    def _legal_or_raise(self, actions: np.ndarray, original: Any) -> np.ndarray:
        """``actions`` (in-range values, -1 elsewhere) if every one is legal (or illegal ones
        forfeit); else ``ValueError`` explaining the first illegal one — before any shard steps."""
        if self._next_step and self._last is not None and self._last.terminated.any():
            restarting = self._last.terminated.copy()  # their action is ignored: any int will do
            actions = np.where(restarting, 0, actions)
        else:
            restarting = None
        if self.settings["illegal_action"] == "terminate":
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
            args = (game - self._bounds[shard], action)
            (_, [message]) = self._call("explain", args=args, to=[shard - 1])
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

    def _mask(self, out: Buffers) -> np.ndarray:
        """The action masks as returned (in the universal vocabulary with ``layout="universal"``)."""
        return self.universal.mask(out.action_mask) if self.universal else self._get(out.action_mask)

    def _views(self, out: Buffers) -> dict[str, np.ndarray] | np.ndarray:
        compact = self.obs_format != "float32"
        observation = (
            self.universal.observation(out.observation) if self.universal else self._get(out.observation)
        )
        if self.mask_in_info and not compact:
            return observation
        views = {"observation": observation}
        if compact:
            views["tail"] = self._get(out.tail)
        if not self.mask_in_info:
            views["action_mask"] = self._mask(out)
        return views

    def legal_masks(self) -> np.ndarray:
        """(B,) uint64: the acting seats' legal cards as bitmasks (bit c = card c), for fast
        agents (see :func:`hearts_env.core.bits.random_bit`)."""
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
        _, shards = self._call("render")
        return tuple(texts + [text for shard in shards for text in shard])

    # ------------------------------------------------------------------ closing
    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes (killing any that do not stop) and free the shared memory.
        Never hangs, and works on an env made unusable by a failed worker."""
        self._stop_workers(graceful=self._broken is None)
        self._buffers = None  # the memory goes once no returned view uses it

    def _stop_workers(self, graceful: bool) -> None:
        workers, self._workers = self._workers, None
        if workers is not None:
            workers.close(at_once=not graceful)

    def __del__(self) -> None:
        if getattr(self, "_workers", None) is not None:
            try:
                self.close()
            except Exception:  # interpreter shutdown: the workers are daemons and end with us
                pass


def vector_env(
    preset: str = "hearts", num_envs: int = 1024, seed: int | None = None, **options: Any
) -> HeartsVectorEnv:
    """``num_envs`` games of ``preset`` as a Gymnasium ``VectorEnv`` (docs/rules.md options; the
    env settings ``reward``, ``episode``, ``illegal_action``, and ``num_workers``, ``copy``,
    ``worker_timeout`` and the others as in :class:`HeartsVectorEnv`)."""
    return HeartsVectorEnv(preset, num_envs=num_envs, seed=seed, **options)
