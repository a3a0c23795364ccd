"""``hearts-env replay``: one deal drawn as a self-contained HTML page, to step through in a browser.

Two sources::

    hearts-env replay results/ladder.json --deal 0 --seating 1 --out deal.html
    hearts-env replay --preset hearts --agents ppo,pimc,strategy,random --seed 7 --out deal.html

The first reads a tournament JSON written with ``--record-deals N`` (its first N deals' plays);
the second plays the deal ``--seed`` deals with the agents seated in the order given (seating
0; the other seatings of that deal: ``--seating``) and draws it. The page and the record are
described in :mod:`evaluation.replay` and docs/replay.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evaluation.flags import (
    add_debug,
    add_option_flag,
    agent_spec,
    comma_list,
    non_negative_int,
)
from hearts_cli.flags import add_table_flags
from hearts_env.files import write_atomic


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Register ``replay`` on the ``hearts-env`` subcommands."""
    p = commands.add_parser(
        "replay",
        help="draw one deal as an HTML page to step through (a tournament's recorded deal, or a seed)",
        description="One deal as a self-contained HTML page: the hands as dealt, every pass, bid and "
        "card, each trick with who led and who took it, the points, and what learned and search "
        "agents made of their options; step with the buttons or the arrow keys. The deal comes from "
        "a tournament JSON written with --record-deals N, or is played now from --seed and --agents.",
        epilog="Examples:\n  hearts-env tournament --preset hearts --deals 100 --record-deals 5 "
        "--json runs/t.json\n  hearts-env replay runs/t.json --deal 2 --out deal.html\n"
        "  hearts-env replay --preset smear_partnership --agents pimc,smear --seed 7 --out smear.html",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "record", nargs="?", type=Path, default=None,
        help="a tournament JSON written with --record-deals N (else the deal is played from --seed)",
    )  # fmt: skip
    p.add_argument(
        "--deal", type=non_negative_int, default=0, help="which recorded deal of the record (default: 0)"
    )
    p.add_argument(
        "--seating", type=non_negative_int, default=0,
        help="which seating of the deal (a duplicate deal is played once per rotation of the agents; "
        "default: 0, the agents in the order given)",
    )  # fmt: skip
    add_table_flags(p, "players (without a record)")
    p.set_defaults(preset=None)  # given with a record: refused (the record names its preset)
    p.add_argument(
        "--agents", type=comma_list(agent_spec, "agent spec"), metavar="A,B", default=None,
        help="without a record: agent specs seated in order and repeated to fill the table "
        "(default: the game family's tournament agents)",
    )  # fmt: skip
    p.add_argument(
        "--seed", type=non_negative_int, default=None, help="without a record: the deal's seed (default 0)"
    )
    add_option_flag(p)
    p.add_argument(
        "--out", type=Path, default=None,
        help="the HTML file (default: the record's name with -deal<N>.html, or deal-<preset>-seed<S>.html)",
    )  # fmt: skip
    add_debug(p, top=False)
    p.set_defaults(run=run)


_FRESH = ("--preset", "--players", "--agents", "--seed", "--option")
"""The flags that play a fresh deal (refused with a record, which names its own)."""


def run(args: argparse.Namespace) -> int:
    """Replay and draw the deal; one line naming the file written."""
    from evaluation.replay import load_deals, play_deal, render_html, replay
    from hearts_cli.flags import preset_defaults

    if args.record is not None:
        given = dict(zip(_FRESH, (args.preset, args.players, args.agents, args.seed, args.option or None)))
        if any(value is not None for value in given.values()):
            flags = ", ".join(flag for flag, value in given.items() if value is not None)
            raise ValueError(
                f"{args.record} is replayed as it was recorded: drop {flags} (they play a fresh deal, "
                "without a record)"
            )
        report, where = load_deals(args.record), str(args.record)
        out = args.out or args.record.with_name(f"{args.record.stem}-deal{args.deal}.html")
    else:
        seed, preset = args.seed or 0, args.preset or "hearts"
        agents = list(args.agents or preset_defaults(preset).tournament)
        report = play_deal(preset, agents, seed, args.players, dict(args.option))
        where = f"seed {seed}"
        out = args.out or Path(f"deal-{preset}-seed{seed}.html")
    story = replay(report, args.deal, args.seating, where)
    write_atomic(out, render_html(story))
    print(
        f"wrote {out} ({story.title}: {len(story.steps)} decisions, {len(story.tricks)} tricks); "
        "open it in a browser and step with the arrow keys"
    )
    return 0
