"""``hearts-env rules [PRESET]``: a preset's rules in words, written from the preset data.

Without options it prints :func:`hearts_env.describe.describe_preset` (the text of the preset's
section of ``docs/rules.md``); with ``--players``, ``--reading`` or ``--option`` it prints
:func:`hearts_env.describe.describe` of the rules so configured; without a preset, the list of
presets. Bad input (an unknown preset, reading or option) is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import json

from evaluation.flags import add_debug, add_option_flag, positive_int
from hearts_env.describe import describe, describe_preset, preset_index
from hearts_env.presets import get_preset, make_rules


def add_rules(commands: argparse._SubParsersAction) -> None:
    """Register the ``rules`` command."""
    p = commands.add_parser(
        "rules",
        help="print a preset's rules, from the preset data (docs/rules.md)",
        description="Prints one preset's rules in Markdown, written from the preset data; with "
        "--players, --reading or --option, the rules so configured.",
    )
    p.add_argument("preset", nargs="?", default=None, help="preset name (without it: the list of presets)")
    p.add_argument("--players", type=positive_int, default=None, help="players (default: the preset's)")
    p.add_argument("--reading", default=None, help="one of the preset's readings")
    add_option_flag(p)
    add_debug(p, top=False)
    p.set_defaults(run=run)


def title(preset: str, num_players: int, reading: str | None, options: dict) -> str:
    """The heading of a configured description: preset, players, reading and options."""
    parts = [f"{num_players} players"]
    if reading is not None:
        parts.append(f'reading="{reading}"')
    parts += [
        f"{key}={value if isinstance(value, str) else json.dumps(value)}" for key, value in options.items()
    ]
    return f"## `{preset}`: " + ", ".join(parts)


def run(args: argparse.Namespace) -> int:
    """Print the description; errors (unknown preset, reading, option) are ``ValueError``."""
    if args.preset is None:
        print(preset_index())
        return 0
    get_preset(args.preset)
    options = dict(args.option)
    if args.players is None and args.reading is None and not options:
        print(describe_preset(args.preset))
        return 0
    rules = make_rules(args.preset, args.players, args.reading, **options)
    print(title(args.preset, rules.num_players, args.reading, options) + "\n\n" + describe(rules))
    return 0
