"""Duplicate tournaments on Ray actors, on this machine or a cluster (``hearts-env tournament --ray``):
:func:`RayPool` is :func:`hearts_env.parallel.make` with the ``"ray"`` backend, given to
:meth:`Tournament.run <evaluation.duplicate.Tournament.run>` (each actor plays whole random
streams, the report is the same as in one process); :func:`import_ray` says how to install Ray.

Ray is an optional extra (``pip install -e ".[ray]"`` in the hearts-env checkout), imported only
when a pool starts, so nothing else needs it. Addresses and authentication: :mod:`hearts_env.parallel`.
"""

from __future__ import annotations

from types import ModuleType

from evaluation.flags import install_command, non_negative_int
from hearts_env.parallel import Pool, make

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


def RayPool(address: str = "local", actors: int = 0) -> Pool:  # noqa: N802 (a pool, named as one)
    """Where a tournament's rounds play on Ray actors: ``Tournament(config).run(pool=RayPool("auto"))``.

    ``address``: ``local``, ``auto`` or ``HOST:PORT`` (:mod:`hearts_env.parallel`); ``actors``:
    how many (0: one per CPU of the cluster, never more than the tournament's streams). Ray is
    connected for each run and the actors are stopped when it ends; ``pool.used`` is the
    number of actors of the last run."""
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"the Ray address must be local, auto or HOST:PORT, got {address!r}")
    return make("ray", workers=non_negative_int.check("actors", actors), address=address)
