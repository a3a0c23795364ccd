"""``hearts-env label``: a search agent's decisions and values over a game family's configurations,
the labels a family network learns from (:mod:`training.labels`).

    hearts-env label --family hearts --out labels/hearts --decisions 200000 --workers 8
    hearts-env label --family hearts --out labels/hearts --decisions 400000 --resume   # go on, further
    hearts-env label --family smear --out labels/smear --decisions 50000 --ray auto

Shard ``k`` (a configuration of the training schedule, ``--games-per-shard`` deals of it) depends
only on ``--seed`` and ``k``: ``--workers N`` and ``--ray`` label the same shards as one process.
Ctrl-C keeps every finished shard; ``--resume`` goes on from them.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from evaluation.flags import (
    Interrupted,
    add_debug,
    agent_spec,
    non_negative_int,
    positive_int,
    signal_of,
)
from hearts_cli.flags import add_pool_flags, pool_from_flags
from hearts_env.files import OutputLock
from hearts_env.parallel import make

HELP = "record a search agent's decisions and action values over a family's configurations (training labels)"


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Register ``label`` on the ``hearts-env`` subcommands."""
    from training.config import MIXTURE_FLAGS  # no torch: the flags build without it

    p = commands.add_parser(
        "label", help=HELP,
        description="Play configurations of a game family, drawn as the family training's schedule "
        "draws them, with AGENT at every seat, and keep every decision: the observation (packed), "
        "the legal actions, the agent's value of each action (pimc's search; NaN where not searched), "
        "its choice, the seat, the phase and the deal's reward. Writes compressed shards and "
        "labels.json (provenance) to --out; resumable (training/labels.py).",
    )  # fmt: skip
    p.add_argument("--family", required=True, choices=("hearts", "smear"), help="the game family")
    p.add_argument("--out", type=Path, required=True, help="the labels folder")
    p.add_argument("--decisions", type=positive_int, required=True, metavar="N",
                   help="label shards until they hold at least N decisions")  # fmt: skip
    p.add_argument("--games-per-shard", type=positive_int, default=8, metavar="G",
                   help="deals a shard plays, one configuration (default: 8)")  # fmt: skip
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--agent", type=agent_spec, default="pimc",
                   help="the labelling agent's spec (default: pimc)")  # fmt: skip
    p.add_argument("--configs", **MIXTURE_FLAGS["configs"])
    p.add_argument("--weights", **MIXTURE_FLAGS["weights"])
    p.add_argument("--reward", default="zero_sum", choices=("zero_sum", "points", "team", "chips"),
                   help="the stored reward, as hearts-env train's --reward (default: zero_sum)")  # fmt: skip
    p.add_argument("--resume", action="store_true", help="go on with the shards --out holds")
    add_pool_flags(p, "the shards")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_debug(p, top=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Label, print what the folder holds; Ctrl-C keeps the finished shards and says so."""
    from training.labels import LabelRun, LabelSettings

    settings = LabelSettings(
        family=args.family, agent=args.agent, games_per_shard=args.games_per_shard, seed=args.seed,
        configs=tuple(args.configs), weights=tuple(args.weights), reward=args.reward,
    )  # fmt: skip
    pool = pool_from_flags(args)  # checks the flags go together
    if args.workers:
        # spawned, not forked: a parent that has run a network (pimc's fallback) leaves torch's thread
        # pool in a state that hangs a forked child at its first network call
        pool = make("processes", workers=args.workers, start_method="spawn")
    command = "hearts-env " + shlex.join(getattr(args, "argv", None) or sys.argv[1:])
    with OutputLock(args.out, "the labels folder", folder=True):
        labels = LabelRun(settings, args.out, args.decisions, resume=args.resume, command=command)
        try:
            labels.run(pool, progress=not args.quiet)
        except KeyboardInterrupt as stop:
            raise Interrupted(signal_of(stop), kept=labels.kept() + "; --resume goes on") from None
    rate = labels.labelled / max(labels.seconds, 1e-9)
    print(f"{labels.kept()}; this run labelled {labels.labelled} decisions in {labels.seconds:.1f} s "
          f"({rate:.1f} decisions/s)")  # fmt: skip
    return 0
