"""The ``hearts-env`` command line: ``hearts-env <command> ...``.

Commands
    tournament   duplicate tournament between agents (:mod:`benchmarks.tournament`)
    train        PPO self-play training (:mod:`training.ppo`)
    bench        throughput table beside OpenSpiel (:mod:`benchmarks.throughput`)

Example::

    hearts-env tournament --preset hearts --agents strategy,ducker,lowest,random \\
        --deals 4000 --seed 0 --json results/ladder.json

Bad input is refused before anything runs: every flag has a checked type (:class:`Number`,
:func:`comma_list`, :func:`option_arg`, :func:`agent_spec`). Errors print one line,
``<prog>: error: <what is wrong>``, and exit with status 2, whether argparse found them or the
command did while running (a rule option the rules reject, an unreadable resume file);
``--debug`` shows the traceback of the latter instead.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents import parse_option, parse_spec

USER_ERRORS = (ValueError, TypeError, OSError)
"""Errors a command reports in one line (exit status 2) unless ``--debug`` is given."""


# ---------------------------------------------------------------------- argument types
class Number:
    """A range-checked int or float: an argparse ``type=`` for text, and :meth:`check` for values
    given from Python, so both paths refuse the same inputs with the same words."""

    def __init__(
        self,
        kind: type,
        what: str,
        low: float | None = None,
        high: float | None = None,
        low_open: bool = False,
        finite: bool = True,
    ) -> None:
        self.kind, self.what, self.low, self.high = kind, what, low, high
        self.low_open, self.finite = low_open, finite
        self.__name__ = what  # argparse names a type by it

    def _in_range(self, value: float) -> bool:
        if math.isnan(value) or (self.finite and math.isinf(value)):
            return False
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or value <= self.high

    def __call__(self, text: str) -> Any:
        try:
            value = self.kind(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {self.what}, got {text!r}") from None
        if not self._in_range(value):
            raise argparse.ArgumentTypeError(f"must be {self.what}, got {text!r}")
        return value

    def check(self, name: str, value: Any) -> Any:
        """``value`` as a plain int / float; ``TypeError`` or ``ValueError`` naming ``name`` and it."""
        ok_type = (int, np.integer) if self.kind is int else (int, float, np.integer, np.floating)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, ok_type):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__} {value!r}")
        if not self._in_range(value):
            raise ValueError(f"{name} must be {self.what}, got {value!r}")
        return self.kind(value)


positive_int = Number(int, "a positive integer", low=1)
non_negative_int = Number(int, "a non-negative integer", low=0)
positive_float = Number(float, "a positive number", low=0, low_open=True)
non_negative_float = Number(float, "a non-negative number", low=0)
fraction = Number(float, "a number from 0 to 1", low=0, high=1)
budget_minutes = Number(
    float, "a positive number of minutes (inf: no limit)", low=0, low_open=True, finite=False
)


def comma_list(item: Callable[[str], Any], what: str, allow_empty: bool = False) -> Callable[[str], tuple]:
    """An argparse ``type=`` for ``A,B,C``: a tuple of ``item(A)``, … (empty items are skipped)."""

    def parse(text: str) -> tuple:
        values = tuple(item(part.strip()) for part in text.split(",") if part.strip())
        if not values and not allow_empty:
            raise argparse.ArgumentTypeError(f"needs at least one {what}, got {text!r}")
        return values

    parse.__name__ = f"list of {what}"
    return parse


def agent_spec(text: str) -> str:
    """An argparse ``type=`` for one agent spec (``strategy``, ``ismcts:simulations=100``)."""
    try:
        parse_spec(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def option_arg(text: str) -> tuple[str, Any]:
    """An argparse ``type=`` for ``--option KEY=VALUE`` (:func:`agents.parse_option`)."""
    try:
        return parse_option(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# ---------------------------------------------------------------------- parsers and errors
class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors: ``<prog>: error: <message>`` (the usage is under ``--help``)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def add_debug(parser: argparse.ArgumentParser, top: bool = True) -> None:
    """``--debug``: show the traceback of an error instead of one line (``top=False``: a
    subcommand's copy of the flag, which leaves the top-level one's value alone)."""
    parser.add_argument(
        "--debug", action="store_true", default=False if top else argparse.SUPPRESS,
        help="show the full traceback of an error instead of one line",
    )  # fmt: skip


def one_line(error: BaseException) -> str:
    """An error's message on one line."""
    return " ".join(str(error).split()) or type(error).__name__


def run_command(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None, run: Callable[[argparse.Namespace], int]
) -> int:
    """Parse ``argv`` and ``run`` it; returns the exit status (2 for refused input, printed in one
    line: never raises ``SystemExit``, never shows a traceback unless ``--debug``)."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed its one line (or --help)
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    try:
        return run(args)
    except USER_ERRORS as error:
        if getattr(args, "debug", False):
            raise
        print(f"{parser.prog}: error: {one_line(error)}", file=sys.stderr)
        return 2


# ---------------------------------------------------------------------- commands
def _add_tournament(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "tournament",
        help="duplicate tournament between agents",
        description="Every deal is replayed with the agents rotated through all seats. Resumes from --json.",
    )
    p.add_argument("--preset", default="hearts", help="preset name (default: hearts)")
    p.add_argument(
        "--players", type=positive_int, default=None, help="players per table (default: the preset's)"
    )
    p.add_argument(
        "--agents", type=comma_list(agent_spec, "agent spec"), metavar="A,B",
        default=("strategy", "ducker", "lowest", "random"),
        help="comma-separated agent specs, seated in order and repeated to fill the table; "
        "parameters as name:key=value, e.g. strategy,ismcts:simulations=1000",
    )  # fmt: skip
    p.add_argument("--deals", type=positive_int, default=4000, help="distinct deals (default: 4000)")
    p.add_argument(
        "--tables", type=positive_int, default=100, help="duplicate tables played side by side (default: 100)"
    )
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--option", action="append", type=option_arg, default=[], metavar="KEY=VALUE",
                   help="rule option over the preset (RULES.md §7), e.g. pass_directions=left,right; "
                   "repeatable")  # fmt: skip
    p.add_argument("--json", type=Path, default=None, help="results and resume file")
    p.add_argument("--csv", type=Path, default=None, help="per-agent CSV (default: beside --json)")
    p.add_argument("--png", type=Path, default=None, help="chart (default: beside --json)")
    p.add_argument(
        "--minutes", type=non_negative_float, default=None,
        help="start no new round after this many minutes (resumable)",
    )  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_debug(p, top=False)
    p.set_defaults(run=_tournament)


def _tournament(args: argparse.Namespace) -> int:
    from benchmarks.tournament import Tournament, TournamentConfig, format_report, write_csv, write_png

    config = TournamentConfig(
        preset=args.preset,
        num_players=args.players,
        options=dict(args.option),
        agents=list(args.agents),
        deals=args.deals,
        tables=args.tables,
        seed=args.seed,
    )
    time_limit = None if args.minutes is None else 60 * args.minutes
    report = Tournament(config, json_path=args.json, progress=not args.quiet).run(time_limit_s=time_limit)
    print(format_report(report))
    csv_path = args.csv or (args.json.with_suffix(".csv") if args.json else None)
    png_path = args.png or (args.json.with_suffix(".png") if args.json else None)
    if csv_path:
        write_csv(report, csv_path)
    if png_path:
        write_png(report, png_path)
    illegal = sum(row["illegal"] for row in report["agents"])
    return 1 if illegal else 0


def _add_train(commands: argparse._SubParsersAction) -> None:
    from training.ppo import add_arguments

    p = commands.add_parser(
        "train",
        help="PPO self-play training (training/ppo.py)",
        description="PPO self-play for the Hearts family.",
    )
    add_arguments(p)
    add_debug(p, top=False)
    p.set_defaults(run=_train)


def _train(args: argparse.Namespace) -> int:
    from training.ppo import args_from, train

    train(args_from(args))
    return 0


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
    _add_train(commands)
    _add_bench(commands)
    return run_command(parser, argv, lambda args: args.run(args))


if __name__ == "__main__":
    sys.exit(main())
