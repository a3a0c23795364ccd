"""``hearts-env train``: PPO self-play, of one configuration or of a whole game family.

Two schedules over the one training loop (:mod:`training.run`)::

    hearts-env train --preset hearts --num-players 4 --minutes 60     # one configuration
    hearts-env train --family hearts --minutes 60                     # one network for the family

``--preset`` (with ``--num-players`` and ``--option``) trains a policy for that configuration
(:func:`training.ppo.train`); ``--family`` trains one universal network on every configuration
of the family (:func:`training.mixture.train_mixture`), shaped by the flags of the "family
training" group. The two are exclusive. Every other flag (budgets, PPO settings, the run folder,
``--resume``) means the same in both.
"""

from __future__ import annotations

import argparse

from evaluation.flags import add_debug, install_command
from hearts_cli.flags import require

HELP = "PPO self-play training of one configuration (--preset) or a game family (--family); needs PyTorch"
DESCRIPTION = (
    "PPO self-play for the Hearts family and Smear: a policy for one configuration (--preset, "
    "--num-players, --option) or one universal network for every configuration of a game family "
    f"(--family and the family training flags). Needs PyTorch: {install_command('training')}."
)
ONE_CONFIGURATION = {"preset": "--preset", "num_players": "--num-players", "options": "--option"}
"""The settings that choose one configuration, refused with ``--family``, and their flags."""


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Register ``train`` on the ``hearts-env`` subcommands."""
    from training.config import add_arguments, add_mixture_arguments  # no torch: the flags build without it

    p = commands.add_parser("train", help=HELP, description=DESCRIPTION)
    add_arguments(p)
    p.set_defaults(preset=None)  # left out: hearts, or with --family, every preset of the family
    family = p.add_argument_group(
        "family training",
        "one universal network for every preset and player count of a game family "
        "(training/mixture.py); not with --preset, --num-players or --option",
    )
    add_mixture_arguments(family)
    add_debug(p, top=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Train, print the closing summary; Ctrl-C and SIGTERM arrive as
    :class:`evaluation.flags.Interrupted`, after the summary is written."""
    require("torch", "'train' needs PyTorch")
    from training.config import args_from, mixture_from
    from training.summary import summary_text

    mix = mixture_from(args)
    if mix is not None:
        given = [flag for name, flag in ONE_CONFIGURATION.items() if getattr(args, name)]
        if given:
            flags = ", ".join(given)
            raise ValueError(f"--family trains every configuration of the family: leave out {flags}")
    elif args.labels is not None:
        raise ValueError("--labels distills search labels into a family network: give --family")
    if args.preset is None:
        args.preset = "hearts"
    settings = args_from(args)
    if mix is None:
        from training.ppo import train

        summary = train(settings)
    else:
        from training.mixture import train_mixture

        summary = train_mixture(settings, mix)
    print(summary_text(summary))
    return 0
