"""The ``hearts-env`` command line: ``hearts-env <command> ...`` (also ``python -m hearts_cli``).

Commands
    tournament   duplicate tournament between agents (:mod:`evaluation.duplicate`)
    leaderboard  every agent against every preset (:mod:`evaluation.leaderboard`)
    train        PPO self-play training (:mod:`hearts_cli.train`)
    exploit      a PPO best response against a frozen agent (:mod:`hearts_cli.exploit`)
    label        a search agent's decisions and values, for training (:mod:`hearts_cli.label`)
    bench        throughput table beside OpenSpiel (:mod:`benchmarks.throughput`)
    play         play one seat yourself in the terminal against agents (:mod:`hearts_cli.play`)
    replay       draw one deal as an HTML page to step through (:mod:`hearts_cli.replay`)

Example::

    hearts-env tournament --preset hearts --agents strategy,ducker,lowest,random \\
        --deals 4000 --seed 0 --json results/ladder.json

Bad input is refused before anything runs: every flag has a checked type
(:mod:`evaluation.flags`; the command's own flags: :mod:`hearts_cli.flags`). Errors print one
line, ``<prog>: error: <what is wrong>``, and exit with status 2, whether argparse found them or
the command did while running (a rule option the rules reject, an unreadable resume file);
``--debug`` shows the traceback of the latter instead.

The command line sits on top of everything: it imports the evaluation, training and benchmark
modules (each only when its command runs), and nothing imports it. Building the parser needs no
optional dependency, so every command that needs none (``rules``, ``play`` and ``tournament``
with heuristic agents) runs with the base package alone; ``train`` and the ``ppo`` agent need
PyTorch and say so in one line (``pip install -e ".[training]"`` in the hearts-env checkout).
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from evaluation.flags import (
    ArgumentParser,
    Interrupted,
    add_debug,
    add_option_flag,
    agent_spec,
    comma_list,
    family_help,
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
    run_command,
    signal_of,
)
from hearts_cli.flags import add_pool_flags, add_table_flags, pool_from_flags, preset_defaults, require
from hearts_env.files import OutputLock

if TYPE_CHECKING:
    from evaluation.duplicate import Tournament


# ---------------------------------------------------------------------- commands
def _tournament_epilog() -> str:
    """``tournament --help``'s closing text: what the table's columns mean."""
    from evaluation.report import legend  # no matplotlib or tqdm: the legend is text

    return (
        "The table's columns (docs/tournaments.md):\n"
        + legend(96)
        + "\n\n"
        + textwrap.fill(
            "Agent specs: a registered name (strategy, ppo:checkpoint=runs/hearts-4p/policy.pt), "
            "package.module:Class or path/to/file.py:Class, each with :key=value parameters and "
            ":label=NAME, the agent's name in the table, JSON, CSV and chart (docs/your-agent.md).",
            96,
        )
    )


def _add_tournament(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "tournament",
        help="duplicate tournament between agents",
        description="Every deal is replayed with the agents rotated through all seats, so each agent "
        "holds every hand. Resumes from --json; a finished --json is reported, not played again.",
        epilog=_tournament_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_table_flags(p, "players per table")
    p.add_argument(
        "--agents", type=comma_list(agent_spec, "agent spec"), metavar="A,B", default=None,
        help="comma-separated agent specs, seated in order and repeated to fill the table: a "
        "registered name, package.module:Class or path/to/file.py:Class, parameters as :key=value "
        "and the table's name as :label=NAME, e.g. strategy,ismcts:simulations=1000,my_agent.py:MyAgent "
        f"(default: {family_help('tournament')})",
    )  # fmt: skip
    p.add_argument("--deals", type=positive_int, default=4000, help="distinct deals (default: 4000)")
    p.add_argument(
        "--tables", type=positive_int, default=100, help="duplicate tables played side by side (default: 100)"
    )
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument(
        "--streams", type=positive_int, default=1, metavar="S",
        help="independent random streams: the tables in S groups, each with its own generator (what "
        "--ray plays in parallel; the same results with or without --ray; default 1)",
    )  # fmt: skip
    add_pool_flags(p, "the streams")
    add_option_flag(p, "pass_directions=left,right")
    p.add_argument("--json", type=Path, default=None, help="results and resume file")
    p.add_argument(
        "--record-deals", type=non_negative_int, default=0, metavar="N",
        help="keep the first N deals' plays in --json, for hearts-env replay (default: 0)",
    )  # fmt: skip
    p.add_argument("--csv", type=Path, default=None, help="per-agent CSV (default: beside --json)")
    p.add_argument(
        "--png", type=Path, default=None, help="chart (default: beside --json, when matplotlib is installed)"
    )
    p.add_argument(
        "--minutes", type=non_negative_float, default=None,
        help="start no new round after this many minutes (resumable)",
    )  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_debug(p, top=False)
    p.set_defaults(run=_tournament)


def _tournament(args: argparse.Namespace) -> int:
    from evaluation.duplicate import Tournament, TournamentConfig

    if args.png:  # asked for: refused now rather than after the tournament
        require("matplotlib", "--png needs matplotlib")
    config = TournamentConfig(
        preset=args.preset,
        num_players=args.players,
        options=dict(args.option),
        agents=list(args.agents or preset_defaults(args.preset).tournament),
        deals=args.deals,
        tables=args.tables,
        seed=args.seed,
        streams=args.streams,
        record_deals=args.record_deals,
    )
    if args.record_deals and not args.json:  # refused before the tournament plays
        raise ValueError("--record-deals keeps the deals in --json: give --json PATH")
    time_limit = None if args.minutes is None else 60 * args.minutes
    pool = pool_from_flags(args)
    if pool is not None and args.streams == 1:
        note = "--streams 1 is one random stream, which one worker plays"
        print(f"hearts-env: note: {note}", file=sys.stderr)
    command = "hearts-env " + shlex.join(getattr(args, "argv", None) or sys.argv[1:])
    # One writer at a time: a second tournament on this --json is refused at once, naming us.
    with OutputLock(args.json, "the tournament record") if args.json else contextlib.nullcontext():
        tournament = Tournament(
            config, json_path=args.json, progress=not args.quiet, command=command,
            hint="--deals or --minutes to shorten",
        )  # fmt: skip
        try:
            return _play_tournament(args, tournament, time_limit, pool)
        except KeyboardInterrupt as stop:
            raise Interrupted(signal_of(stop), kept=_tournament_kept(args.json, tournament)) from None


def _tournament_kept(json_path: Path | None, tournament: Tournament) -> str:
    """What a stopped tournament leaves: the rounds its record holds, and how to go on."""
    if json_path is None:
        return "nothing is kept without --json"
    total = tournament.config.rounds
    return (
        f"{json_path} keeps {tournament.saved_rounds} of {total} rounds "
        f"({tournament.saved_rounds * tournament.tables} deals); the same command resumes"
    )


def _play_tournament(
    args: argparse.Namespace, tournament: Tournament, time_limit: float | None, pool: object
) -> int:
    """Play what is left of ``tournament``, print its report and write the CSV and the chart."""
    from evaluation.duplicate import format_report, write_csv, write_png

    complete = tournament.complete
    if complete:
        last = (tournament.runs or [{}])[-1]
        when = f", last run {last.get('date', '?')} at commit {str(last.get('commit'))[:12]}" if last else ""
        print(
            f"already complete: {tournament.config.rounds * tournament.tables} deals; nothing to play "
            f"({args.json} holds them{when}; delete it or choose another --json to play again)"
        )
    report = tournament.run(time_limit_s=time_limit, pool=pool)
    print(format_report(report, timing=not complete))
    csv_path = args.csv or (args.json.with_suffix(".csv") if args.json else None)
    png_path = args.png or (args.json.with_suffix(".png") if args.json and _has("matplotlib") else None)
    if csv_path:
        write_csv(report, csv_path)
    if png_path:
        write_png(report, png_path)
    elif args.json:  # the chart beside it is optional
        note = "no chart (matplotlib is not installed: pip install matplotlib)"
        print(f"hearts-env: note: {note}", file=sys.stderr)
    illegal = sum(row["illegal"] for row in report["agents"])
    return 1 if illegal else 0


def _add_leaderboard(commands: argparse._SubParsersAction) -> None:
    from evaluation.leaderboard import DEFAULT_AGENTS

    p = commands.add_parser(
        "leaderboard",
        help="every agent against every preset (duplicate deals, 95%% intervals)",
        description="Every agent alone against the reference field (its family's heuristic) in every "
        "preset at its default player count: a duplicate tournament per cell, resumable from --dir; "
        "cells already in --json (same spec, weights, deals, tables, seed) are kept, not played again. "
        "Writes the JSON, a Markdown table and a PNG heatmap (docs/leaderboard.md).",
    )
    p.add_argument(
        "--agents", type=comma_list(agent_spec, "agent spec"), metavar="A,B", default=list(DEFAULT_AGENTS),
        help=f"the rows: agent specs (default: {','.join(DEFAULT_AGENTS)}; add a universal network as "
        "ppo:network=universal:label=ppo-universal)",
    )  # fmt: skip
    p.add_argument("--presets", type=comma_list(str, "preset"), metavar="P,Q", default=None,
                   help="the columns (default: every preset)")  # fmt: skip
    p.add_argument("--all-counts", action="store_true", help="every player count, not only the default")
    p.add_argument("--deals", type=positive_int, default=200, help="distinct deals a cell (default: 200)")
    p.add_argument(
        "--tables", type=positive_int, default=100, help="duplicate tables side by side (default: 100)"
    )
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument(
        "--streams", type=positive_int, default=1, metavar="S", help="random streams a cell (for --ray)"
    )
    add_pool_flags(p, "each cell's streams")
    p.add_argument(
        "--dir", type=Path, default=Path("leaderboard"), help="the cells' resumable tournament files"
    )
    p.add_argument(
        "--json", type=Path, default=Path("leaderboard/leaderboard.json"), help="the leaderboard JSON"
    )
    p.add_argument("--markdown", type=Path, default=None, help="the Markdown table (default: beside --json)")
    p.add_argument(
        "--png", type=Path, default=None, help="the heatmap (default: beside --json, with matplotlib)"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_debug(p, top=False)
    p.set_defaults(run=_leaderboard)


def _leaderboard(args: argparse.Namespace) -> int:
    from evaluation import leaderboard
    from hearts_env.presets import PRESETS

    pool = pool_from_flags(args)
    markdown = args.markdown or args.json.with_suffix(".md")
    png = args.png or (args.json.with_suffix(".png") if _has("matplotlib") else None)
    command = "hearts-env " + shlex.join(getattr(args, "argv", None) or sys.argv[1:])

    saved: list[int] = []  # the played cells the JSON holds, as last written

    def save(board: dict) -> None:
        leaderboard.write_outputs(board, args.json, None, None)
        saved[:] = [sum("diff" in cell for cell in board["cells"])]

    # One writer at a time; the JSON is read under the lock, so no other run changes it meanwhile.
    with OutputLock(args.json, "the leaderboard"):
        previous = leaderboard.read(args.json) if args.json.exists() else None
        try:
            board = leaderboard.run(
                args.agents, args.presets or list(PRESETS), all_counts=args.all_counts, deals=args.deals,
                tables=args.tables, seed=args.seed, directory=args.dir, pool=pool, streams=args.streams,
                command=command, progress=not args.quiet, save=save, previous=previous,
            )  # fmt: skip
            leaderboard.write_outputs(board, args.json, markdown, png)
        except KeyboardInterrupt as stop:
            kept = (
                f"{args.json} keeps {saved[0]} played cells, {args.dir} every finished round of the cell "
                "under way; the same command resumes"
                if saved
                else f"{args.dir} keeps every finished round; the same command resumes"
            )
            raise Interrupted(signal_of(stop), kept=kept) from None
    print(leaderboard.headline(board))
    print(f"wrote {args.json}, {markdown}" + (f", {png}" if png else ""))
    return 0


def _has(module: str) -> bool:
    """Whether optional dependency ``module`` is installed."""
    try:
        require(module, module)
    except ImportError:
        return False
    return True


def _add_bench(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("bench", help="throughput table beside OpenSpiel (benchmarks/throughput.py)")
    p.add_argument("--seconds", type=positive_float, default=2.0, help="time per measurement (default 2)")
    p.add_argument("--all-presets", action="store_true", help="add a B=4096 row for every preset")
    p.add_argument("--json", help="write the rows to this JSON file")
    add_debug(p, top=False)
    p.set_defaults(run=_bench)


def _bench(args: argparse.Namespace) -> int:
    from benchmarks import throughput

    argv = ["--seconds", str(args.seconds)] + (["--all-presets"] if args.all_presets else [])
    throughput.main(argv + (["--json", args.json] if args.json else []))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``hearts-env``."""
    parser = ArgumentParser(prog="hearts-env", description="Hearts-family environments: tools.")
    add_debug(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    _add_tournament(commands)
    _add_leaderboard(commands)
    from hearts_cli.train import add_parser as _add_train

    _add_train(commands)
    _add_bench(commands)
    from hearts_cli.play import add_parser as _add_play

    _add_play(commands)
    from hearts_cli.replay import add_parser as _add_replay

    _add_replay(commands)
    from hearts_cli.exploit import add_parser as _add_exploit

    _add_exploit(commands)
    from hearts_cli.label import add_parser as _add_label

    _add_label(commands)
    from hearts_cli.rules import add_rules

    add_rules(commands)
    parser.set_defaults(argv=list(sys.argv[1:] if argv is None else argv))  # what the run records
    return run_command(parser, argv, lambda args: args.run(args))


if __name__ == "__main__":
    sys.exit(main())
