"""The flags only the ``hearts-env`` command has: the table it plays (``--preset``,
``--players``), Ray (``--ray``, ``--ray-actors``), each family's default agents, and an optional
dependency a command needs.

The checked values every entry point shares (:class:`~evaluation.flags.Number`,
:func:`~evaluation.flags.comma_list`, :func:`~evaluation.flags.agent_spec`, ``--option``,
``--debug``, :func:`~evaluation.flags.run_command`) stay in :mod:`evaluation.flags`, which the
training and benchmark scripts use for their own command lines too.
"""

from __future__ import annotations

import argparse
import importlib

from agents import FamilyDefaults, family_defaults
from evaluation.flags import EXTRAS, install_command, non_negative_int, positive_int
from hearts_env.parallel import Pool, make
from hearts_env.presets import PRESETS


def preset_defaults(preset: str) -> FamilyDefaults:
    """The default agents of ``preset``'s game family (:func:`agents.family_defaults`; Hearts' for
    an unknown preset, whose error comes when the rules are made)."""
    return family_defaults(PRESETS[preset].game if preset in PRESETS else "hearts")


def ray_address(text: str) -> str:
    """An argparse ``type=`` for ``--ray``: ``local``, ``auto`` or a cluster address."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs local, auto or a cluster address HOST:PORT, got ''")
    return text.strip()


def add_table_flags(parser: argparse.ArgumentParser, players: str) -> None:
    """``--preset`` and ``--players`` (``players``: what the count is of, for the help text)."""
    parser.add_argument("--preset", default="hearts", help="preset name (default: hearts)")
    parser.add_argument(
        "--players", type=positive_int, default=None, help=f"{players} (default: the preset's)"
    )


def add_ray_flags(parser: argparse.ArgumentParser, work: str) -> None:
    """``--ray ADDRESS`` and ``--ray-actors N``: do ``work`` on Ray actors (:mod:`evaluation.ray_pool`)."""
    parser.add_argument(
        "--ray", type=ray_address, default=None, metavar="ADDRESS",
        help=f"play {work} on Ray actors: local (a Ray instance started on this machine for the run), "
        "auto (the cluster running here, ray start) or a cluster address HOST:PORT; "
        f"needs {install_command('ray')}",
    )  # fmt: skip
    parser.add_argument(
        "--ray-actors", type=non_negative_int, default=0, metavar="N",
        help="Ray actors, one CPU each (default 0: one per CPU of the cluster)",
    )  # fmt: skip


def add_pool_flags(parser: argparse.ArgumentParser, work: str) -> None:
    """:func:`add_ray_flags` and ``--workers N``: play ``work`` on N local worker processes."""
    add_ray_flags(parser, work)
    parser.add_argument(
        "--workers", type=non_negative_int, default=0, metavar="N",
        help=f"play {work} on N local worker processes (default 0: in this process; at most one a "
        "stream); the same results",
    )  # fmt: skip


def pool_from_flags(args: argparse.Namespace) -> Pool | None:
    """Where ``--ray`` / ``--ray-actors`` / ``--workers`` say to play (None: in this process);
    ``ValueError`` in one line for flags that do not go together, or Ray not installed."""
    if args.ray is not None and args.workers:
        raise ValueError("--workers plays on local processes and --ray on Ray actors: give one of them")
    if args.ray is not None:
        from evaluation.ray_pool import RayPool, import_ray

        import_ray()  # not installed: one line before anything runs
        return RayPool(args.ray, args.ray_actors)
    if args.ray_actors:
        raise ValueError("--ray-actors needs --ray ADDRESS (local, auto or HOST:PORT)")
    return make("processes", workers=args.workers) if args.workers else None


def require(module: str, what: str) -> None:
    """Import optional dependency ``module``; if it is missing, ``ImportError`` saying ``what``
    (``'train' needs PyTorch``) and how to install it (:data:`evaluation.flags.EXTRAS`)."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise ImportError(f"{what}: {install_command(EXTRAS[module])}") from error
