"""The ``hearts-env play`` command: its options, and the run that hands them to a
:class:`~hearts_cli.play.game.Game`."""

from __future__ import annotations

import argparse
import os
import random
import sys

from evaluation.flags import (
    Interrupted,
    add_debug,
    add_option_flag,
    agent_spec,
    comma_list,
    family_help,
    non_negative_int,
    positive_int,
    signal_of,
)
from hearts_cli.flags import add_table_flags, preset_defaults
from hearts_cli.play.game import Game


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``play`` on the ``hearts-env`` sub-command parsers."""
    p = commands.add_parser(
        "play",
        help="play one seat yourself in the terminal against agents",
        description="A person plays one seat against agents, deal by deal, in the terminal.",
    )
    add_table_flags(p, "players at the table")
    p.add_argument("--seat", type=non_negative_int, default=0, help="your seat, 0 .. players-1 (default: 0)")
    p.add_argument(
        "--opponents", type=comma_list(agent_spec, "agent spec"), metavar="A,B", default=None,
        help="agent specs for the other seats, in seat order and repeated to fill the table "
        f"(default: {family_help('heuristic')}), e.g. ppo,strategy or random; your own agent as "
        "path/to/my_agent.py:MyAgent or package.module:MyAgent (docs/your-agent.md)",
    )  # fmt: skip
    add_option_flag(p)
    p.add_argument("--seed", type=non_negative_int, default=None, help="seed of the deals (default: random)")
    p.add_argument(
        "--deals", type=positive_int, default=None, help="stop after this many deals (default: at game end)"
    )
    p.add_argument("--no-color", action="store_true", help="no ANSI colours")
    add_debug(p, top=False)
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``hearts-env play`` with parsed ``args``; returns the exit status."""
    color = sys.stdout.isatty() and not args.no_color and not os.environ.get("NO_COLOR")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    opponents = args.opponents or (preset_defaults(args.preset).heuristic,)
    game = Game(
        preset=args.preset,
        seat=args.seat,
        opponents=list(opponents),
        num_players=args.players,
        options=dict(args.option),
        seed=seed,
        deals=args.deals,
        color=color,
    )
    try:
        return game.run()
    except KeyboardInterrupt as stop:
        print()  # ends the line of the question asked; the one line saying so is run_command's
        raise Interrupted(signal_of(stop), kept="play keeps no record: a new game starts afresh") from None
