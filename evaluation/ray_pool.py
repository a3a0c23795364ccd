"""Duplicate tournaments on Ray actors, on this machine or a cluster (``hearts-env tournament --ray``).

Ray is an optional extra (``pip install -e ".[ray]"`` in the hearts-env checkout), imported only
inside the functions here, so nothing else needs it.

What runs where
---------------
A tournament's rounds follow one another (the game totals a round ends with are the next
round's start, and the agents see them), and within a round every table's agents draw from the
round's random streams (:attr:`TournamentConfig.streams`): the unit that can be played apart is
a *stream*, its tables' rounds one after another. :class:`RayPool` starts actors that each hold
whole streams (a :class:`evaluation.duplicate.RoundPlayer` of their tables: the agents and a
:class:`hearts_env.table.Table`), asks every actor for round ``k`` (and, meanwhile, ``k + 1``),
merges their per-row results in table order (:func:`evaluation.duplicate.merge_rounds`) and hands
them to :meth:`Tournament.run <evaluation.duplicate.Tournament.run>`, which scores them exactly as
it scores its own: the report (and the resumable JSON file) is identical to a run in one process
with the same configuration, whatever the number of actors. With ``streams=1`` one actor plays.

Addresses: ``local`` starts a Ray instance on this machine for the run (``ray.init(address=
"local")``: never someone else's), ``auto`` connects to the cluster running here (``ray start``,
or ``RAY_ADDRESS``), anything else is a cluster address (``HOST:6379``, ``ray://HOST:10001``).
A Ray already initialised by the caller is used as it is and left connected. Ray's token
authentication (on by default since Ray 2.5x): ``auto`` uses this machine's token when there is
one, an explicit address only with ``RAY_AUTH_MODE=token`` (and the cluster's token in
``RAY_AUTH_TOKEN`` or ``~/.ray/auth_token``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import asdict
from types import ModuleType
from typing import Any

import numpy as np

from evaluation.duplicate import RoundPlayer, Tournament, TournamentConfig, merge_rounds
from evaluation.flags import build_agent, install_command, non_negative_int

INSTALL = install_command("ray")
"""How to get Ray."""


class RayNotInstalledError(ImportError, ValueError):
    """Ray is not installed. Also a ``ValueError``, so the command line reports it in one line
    (``hearts-env: error: ...``, exit status 2)."""


def import_ray() -> ModuleType:
    """The ``ray`` module; :class:`RayNotInstalledError` (saying how to get it) without it."""
    try:
        import ray
    except ImportError as error:
        raise RayNotInstalledError(f"--ray needs Ray, which is not installed ({error}); {INSTALL}") from None
    return ray


@contextlib.contextmanager
def connect(address: str = "local") -> Iterator[ModuleType]:
    """Ray connected to ``address`` while the block runs (see the module docstring); yields the
    ``ray`` module. Disconnects at the end (a ``local`` instance stops) unless Ray was already
    initialised by the caller. ``ValueError`` for an empty address, ``ConnectionError`` (from Ray)
    when no cluster answers."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"the Ray address must be local, auto or HOST:PORT, got {address!r}")
    address = address.strip()
    options: dict[str, Any] = {"logging_level": logging.WARNING}
    if address == "local":
        options["include_dashboard"] = False
    try:
        ray.init(address=address, **options)
    except ConnectionError as error:
        raise ConnectionError(
            f"{error} (is the cluster up and reachable? With Ray's token authentication, its default, "
            "a named address needs RAY_AUTH_MODE=token and the cluster's token here: RAY_AUTH_TOKEN or "
            "~/.ray/auth_token)"
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def actor_count(ray: ModuleType, requested: int, cap: int) -> int:
    """``requested`` actors (0: one per CPU of the cluster), at most ``cap``; ``ValueError`` when
    the cluster has fewer CPUs than requested (each actor takes one: the rest would never start)."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if requested > max(cpus, 1):
        raise ValueError(
            f"{requested} Ray actors need {requested} CPUs and the cluster has {cpus}; "
            "use fewer --ray-actors or add machines (ray start --address=HEAD:6379)"
        )
    return max(1, min(requested or cpus, cap))


class TournamentWorker:
    """A Ray actor's share of a tournament: the rounds of tables ``start:stop`` (whole streams).

    ``config``: the :class:`TournamentConfig` as a dict; ``state``: the record's ``table_state``
    to resume from (None: the tournament starts here)."""

    def __init__(self, config: dict[str, Any], start: int, stop: int, state: dict | None) -> None:
        tournament = Tournament(TournamentConfig(**config), progress=False)
        self.player = RoundPlayer(tournament, range(start, stop))
        self.state = state

    def play(self, k: int) -> dict[str, np.ndarray]:
        """Round ``k`` of these tables (:meth:`RoundPlayer.play`)."""
        state, self.state = self.state, None  # restored once: the table carries on from there
        return self.player.play(k, state)


class RayPool:
    """Plays a tournament's rounds on Ray actors: ``Tournament(config).run(pool=RayPool("auto"))``.

    ``address``: see the module docstring; ``actors``: how many (0: one per CPU of the cluster,
    never more than the tournament's streams). Ray is connected for each :meth:`rounds` and the
    actors are stopped when it ends."""

    def __init__(self, address: str = "local", actors: int = 0) -> None:
        if not isinstance(address, str) or not address.strip():
            raise ValueError(f"the Ray address must be local, auto or HOST:PORT, got {address!r}")
        self.address = address.strip()
        self.actors = non_negative_int.check("actors", actors)
        self.used = 0
        """Actors of the last :meth:`rounds`."""

    def rounds(self, tournament: Tournament, todo: range) -> Iterator[dict[str, np.ndarray]]:
        """The results of rounds ``todo`` of every table, in order (what
        :meth:`Tournament.run <evaluation.duplicate.Tournament.run>` scores)."""
        if not len(todo):
            return
        for name in tournament.names:  # a bad agent fails here, in one line, not in an actor
            build_agent(name, tournament.rules)
        config = asdict(tournament.config)
        state = tournament.record["table_state"] if todo.start > 0 else None
        with connect(self.address) as ray:
            streams = tournament.stream_tables
            count = actor_count(ray, self.actors, len(streams))
            self.used = count
            remote = ray.remote(num_cpus=1)(TournamentWorker)
            workers = []
            try:
                for part in np.array_split(np.arange(len(streams)), count):
                    start, stop = streams[int(part[0])].start, streams[int(part[-1])].stop
                    workers.append(remote.remote(config, start, stop, state))
                pending: dict[int, list[Any]] = {}
                for k in todo:
                    for ahead in (k, k + 1):  # the next round plays while this one is scored
                        if ahead in todo and ahead not in pending:
                            pending[ahead] = [worker.play.remote(ahead) for worker in workers]
                    yield merge_rounds(ray.get(pending.pop(k)))
            finally:
                for worker in workers:
                    ray.kill(worker)
