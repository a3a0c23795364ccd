"""PPO rollouts on Ray actors (``hearts-env train --ray ADDRESS --ray-actors N``).

Ray is an optional extra (``pip install -e ".[ray]"`` in the hearts-env checkout), imported only
when a run asks for it (the ``"ray"`` backend of :mod:`hearts_env.parallel`, which runs the actors).

The ``num_games`` games are shared out among the actors (:class:`RolloutWorker`, one CPU each):
each has its own :class:`hearts_env.table.Table`, :class:`training.rollout.League` (who holds each
seat) and generators, seeded from the run's ``seed`` and the actor's index. Every iteration the
learner puts the policy's weights (a state dict of CPU tensors; the league's past policies only
when they changed) in the object store, every actor loads them and plays
:func:`training.rollout.collect` into its own :class:`training.rollout.Rollout`, and the learner joins the
rollouts (:func:`join`: step by step, the actors' games numbered one after another) and learns
from them as it does from its own. Everything an actor does depends only on its seeds and the
weights it is sent, so a run is reproducible for a given number of actors; its checkpoint keeps
every actor's games (:meth:`RayRollouts.state_dict`), so it resumes exactly, with that number.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.ppo import PolicyValueNet
from evaluation.flags import non_negative_int
from hearts_env.parallel import WorkerError, Workers, make
from hearts_env.presets import make_rules
from hearts_env.table import Table
from training.checkpoint import pack_table, unpack_table
from training.config import Args
from training.device import resolve_precision
from training.rollout import League, Rollout, collect, make_teacher, reward_scale

CPU = torch.device("cpu")


def worker_seed(seed: int, index: int) -> int:
    """The seed of actor ``index``'s table, seating and sampling in a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


class RolloutWorker:
    """One actor's games: ``games`` of them, with its own table, league and generators.

    ``args``: the run's :class:`training.config.Args` as a dict; ``index``: the actor's number (its
    seeds); ``obs_size`` and ``num_actions``: the network's shape."""

    def __init__(self, args: dict[str, Any], games: int, index: int, obs_size: int, num_actions: int) -> None:
        a = Args(**{**args, "num_games": games, "ray": "", "ray_actors": 0}).validate()
        rules = make_rules(a.preset, num_players=a.num_players, **a.options)
        seed = worker_seed(a.seed, index)
        if a.threads > 0:
            torch.set_num_threads(a.threads)
        torch.manual_seed(seed)
        self.rng = np.random.default_rng(seed)
        self.table = Table(rules, games, reward=a.reward)
        self.table.reset(seed=seed)
        self.net = PolicyValueNet(obs_size, num_actions, a.hidden)
        self.dtype = resolve_precision(a.precision, CPU)
        self.league = League(rules, a, self.rng, CPU, dtype=self.dtype)
        self.league.seat(np.arange(games))
        self.teacher = make_teacher(rules, a)[1]
        self.buf = Rollout.allocate(
            a.rollout_steps, games, rules.num_players, obs_size, num_actions, a.obs_format,
            self.table.observer.layout.packing,
        )  # fmt: skip
        self.scale = reward_scale(rules)

    def collect(
        self, weights: dict[str, torch.Tensor], pool: list[dict[str, torch.Tensor]] | None, imitation: bool
    ) -> Rollout:
        """One rollout with the policy ``weights`` (``pool``: the league's past policies, when they
        changed; imitation: the teacher plays every seat): the stored decisions only."""
        self.net.load_state_dict(weights)
        if pool is not None:
            controller = torch.from_numpy(self.league.controller.copy())
            self.league.load_state_dict({"controller": controller, "pool": pool}, self.net)
        collect(self.table, self.league, self.net, self.buf, self.rng, CPU, self.scale,
                self.teacher if imitation else None, self.dtype)  # fmt: skip
        n, b = self.buf.size, self.buf
        return Rollout(
            obs=b.obs[:n].copy(), tail=b.tail[:n].copy(), mask=b.mask[:n].copy(), action=b.action[:n].copy(),
            logprob=b.logprob[:n].copy(), value=b.value[:n].copy(), game=b.game[:n].copy(),
            seat=b.seat[:n].copy(), offsets=b.offsets.copy(), deal_end=b.deal_end.copy(),
            rewards=b.rewards.copy(),
        )  # fmt: skip

    def state_dict(self) -> dict[str, Any]:
        """The games' state (tensors and plain values): table, seating, generators."""
        return {
            "table": pack_table(self.table),
            "controller": torch.from_numpy(self.league.controller.copy()),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }

    def load_state_dict(self, saved: dict[str, Any], pool: list[dict[str, Any]], source: str) -> None:
        """Put back :meth:`state_dict` (with the league's ``pool``); ``ValueError`` naming ``source``."""
        if not isinstance(saved, dict) or set(saved) != {"table", "controller", "rng", "torch_rng"}:
            raise ValueError(f"{source} should hold table, controller, rng and torch_rng")
        probe = np.random.default_rng()
        try:
            probe.bit_generator.state = saved["rng"]
            self.league.load_state_dict({"controller": saved["controller"], "pool": pool}, self.net)
            torch.set_rng_state(saved["torch_rng"])
        except (TypeError, ValueError, KeyError, RuntimeError) as error:
            raise ValueError(f"{source} does not fit ({' '.join(str(error).split())[:200]})") from None
        self.table.load_state_dict(unpack_table(saved["table"], source), source=source)
        self.rng.bit_generator.state = probe.bit_generator.state


def join(parts: list[Rollout]) -> Rollout:
    """The actors' rollouts as one, as if one process had played all their games: step ``t``
    holds every actor's decisions of step ``t`` in actor order, and actor ``i``'s games come
    after those of the actors before it."""
    steps = len(parts[0].offsets) - 1
    games = np.cumsum([0] + [part.deal_end.shape[1] for part in parts])
    names = ("obs", "tail", "mask", "action", "logprob", "value", "game", "seat")
    pieces: dict[str, list[np.ndarray]] = {name: [] for name in names}
    for t in range(steps):
        for i, part in enumerate(parts):
            lo, hi = part.offsets[t], part.offsets[t + 1]
            for name, got in pieces.items():
                value = getattr(part, name)[lo:hi]
                got.append(value + games[i] if name == "game" else value)
    sizes = np.sum([np.diff(part.offsets) for part in parts], axis=0)
    return Rollout(
        **{name: np.concatenate(got) for name, got in pieces.items()},
        offsets=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        deal_end=np.concatenate([part.deal_end for part in parts], axis=1),
        rewards=np.concatenate([part.rewards for part in parts], axis=1),
    )


class RayRollouts:
    """The rollouts of a run on Ray actors (:func:`training.ppo.train` with ``args.ray``): a
    :mod:`hearts_env.parallel` pool with the ``"ray"`` backend, one :class:`RolloutWorker` each.

    ``address``: ``local``, ``auto`` or a cluster address (:mod:`hearts_env.parallel`);
    ``actors``: how many (0: one per CPU of the cluster, at most ``num_games``). Nothing connects
    before :meth:`start`; :meth:`close` stops the actors and disconnects."""

    def __init__(self, address: str, actors: int = 0) -> None:
        from evaluation.ray_pool import import_ray

        import_ray()  # not installed: say so before anything runs
        self.pool = make("ray", workers=non_negative_int.check("ray_actors", actors), address=address)
        self.workers: Workers | None = None
        self.games: list[int] = []
        self._pool_sent: tuple[int, ...] | None = None

    def start(self, args: Args, net: PolicyValueNet, league: League, saved: Any, path: Path) -> None:
        """Connect and start the actors for ``net``'s shape; ``saved``: a checkpoint's ``ray`` entry
        to resume (the same number of actors, with ``league``'s past policies), or None.
        ``ValueError`` naming ``path`` when it does not fit."""
        plain, shape = asdict(args), (net.obs_size, net.num_actions)

        def shares(count: int) -> list[tuple[Any, ...]]:
            if saved is not None:
                if not isinstance(saved, dict) or not isinstance(saved.get("workers"), list):
                    raise ValueError(
                        f"{path} is not a usable training checkpoint: its 'ray' entry is not one"
                    )
                if len(saved["workers"]) != count:
                    raise ValueError(
                        f"{path} was trained with {len(saved['workers'])} Ray actors, this run would have "
                        f"{count}: resume with --ray-actors {len(saved['workers'])}"
                    )
            self.games = [len(part) for part in np.array_split(np.arange(args.num_games), count)]
            return [(plain, games, i, *shape) for i, games in enumerate(self.games)]

        self.workers = self.pool.start(RolloutWorker, shares, most=args.num_games)
        if saved is not None:
            pool = [_cpu(state) for state in league.pool_states]
            self._pool_sent = tuple(id(state) for state in league.pool_states)
            loads = [(state, pool, f"{path} (Ray actor {i})") for i, state in enumerate(saved["workers"])]
            try:
                self.workers.call_each("load_state_dict", loads)
            except WorkerError as error:  # the actor's ValueError names the checkpoint
                raise error.error from None

    def collect(self, net: PolicyValueNet, league: League, imitation: bool) -> Rollout:
        """One rollout of every actor with ``net``'s weights and ``league``'s past policies, joined."""
        key = tuple(id(state) for state in league.pool_states)
        pool = None
        if key != self._pool_sent:
            pool = [_cpu(state) for state in league.pool_states]
            self._pool_sent = key
        return join(self.workers.call("collect", _cpu(net.state_dict()), pool, imitation))

    def state_dict(self) -> dict[str, Any]:
        """The checkpoint's ``ray`` entry: the number of actors, their games and their states
        (tensors and plain values); the past policies are the league's."""
        states = self.workers.call("state_dict")
        return {"actors": len(self.workers), "games": list(self.games), "workers": states}

    def close(self) -> None:
        """Stop the actors and disconnect (a Ray started by the caller stays connected)."""
        if self.workers is not None:
            self.workers.close()
        self.workers = None


def _cpu(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu() for k, v in state.items()}
