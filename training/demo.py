"""The main job (``make run``): a short PPO run on standard Hearts, then a duplicate tournament.

``python -m training.demo [--minutes 3] [--deals 2000] [--run-dir runs/demo]`` trains a fresh
policy for a few minutes (:mod:`training.ppo`: imitation of ``strategy`` for the first quarter,
then PPO; its learning curve in ``run_dir``), then plays a duplicate tournament of {the fresh
policy, the shipped one, ``strategy``, ``random``} and prints the table; the results, a CSV and a
chart are written beside it (``tournament.*``). It ends by naming every file it wrote and
printing the commands that evaluate the fresh policy and continue its training.

An earlier demo in ``run_dir`` is kept, never written over: whatever the folder holds is moved to
the first free ``run_dir-1``, ``run_dir-2``, … (:func:`keep_earlier`), and one line says where.
The demo holds the folder (:class:`hearts_env.files.OutputLock`) from start to end, so a second
demo in it is refused at once.

The training's evaluations and the tournament's pairs measure the same thing (a − b: mean points
a deal over duplicate deals) at different tables: an evaluation seats the policy with copies of
one opponent, the tournament all four agents together, so their numbers for a pair differ.

The table, the CSV and the chart name the two policies ``ppo (fresh, 3 min)`` and
``ppo (shipped)`` (the tournament's ``labels``); ``tournament.json`` keeps the agent specs it was played with.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from agents.shipped import shipped_path
from evaluation.flags import (
    ArgumentParser,
    add_debug,
    budget_minutes,
    non_negative_int,
    positive_int,
    run_command,
)
from hearts_env.files import OutputLock
from training.ppo import Args, train
from training.summary import evaluation_text, phases_text


def main(argv: Sequence[str] | None = None) -> int:
    """Train briefly, then compare the fresh, shipped and heuristic agents (bad input: one line on
    stderr and exit status 2)."""
    parser = ArgumentParser(prog="python -m training.demo", description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=budget_minutes, default=3.0, help="training budget (default: 3)")
    parser.add_argument(
        "--deals", type=positive_int, default=2000, help="duplicate deals in the tournament (default: 2000)"
    )
    parser.add_argument(
        "--run-dir", type=Path, default=Path("runs/demo"),
        help="output folder; an earlier demo's files there move to RUN_DIR-1, -2, … (default: runs/demo)",
    )  # fmt: skip
    parser.add_argument("--seed", type=non_negative_int, default=0)
    add_debug(parser)
    return run_command(parser, argv, _demo)


def _demo(options: argparse.Namespace) -> int:
    run = options.run_dir
    with OutputLock(run, "the demo folder", folder=True) as lock:
        kept = keep_earlier(run, lock.lock_path)
        if kept is not None:
            print(f"the earlier demo in {run} is kept: moved to {kept}")
        args = Args(  # evaluations at each fifth of the budget: a learning curve of five points
            preset="hearts", num_players=4, minutes=options.minutes, run_dir=str(run), seed=options.seed
        )
        return _train_and_play(options, run, train(args, lock=lock))


def keep_earlier(run: Path, lock_path: Path) -> Path | None:
    """Move what the folder ``run`` holds (an earlier demo; all but the lock file ``lock_path``,
    held by the caller) into the first of ``run-1``, ``run-2``, … that does not exist; returns
    that folder, or None where ``run`` held nothing."""
    held = sorted(entry for entry in run.iterdir() if entry != lock_path)
    if not held:
        return None
    number = 1
    while run.with_name(f"{run.name}-{number}").exists():
        number += 1
    kept = run.with_name(f"{run.name}-{number}")
    kept.mkdir()
    for entry in held:
        entry.rename(kept / entry.name)
    return kept


TOURNAMENT_FILES = {
    "tournament": "tournament.json", "its table": "tournament.csv", "its pairs": "tournament_pairs.csv",
    "its chart": "tournament.png",
}  # fmt: skip
"""The demo's own files beside the run's, by what they hold."""


def _train_and_play(options: argparse.Namespace, run: Path, summary: dict) -> int:
    """The demo's report of the training (``summary``) and its tournament, in ``run``."""
    from evaluation.duplicate import Tournament, TournamentConfig, format_report, write_csv, write_png

    fresh = f"ppo:checkpoint={summary['policy']}"
    minutes = f"{options.minutes:g} min" if math.isfinite(options.minutes) else "no time limit"
    labels = {fresh: f"ppo (fresh, {minutes})", "ppo": "ppo (shipped)"}
    print(
        f"trained {phases_text(summary)} in {summary['minutes']:.1f} min "
        f"({summary['decisions_per_s']:,}/s); last evaluation:"
    )
    for e in summary["evaluation"]:
        print(f"  {evaluation_text(e, summary['better'], labels[fresh])}")
    print(
        "The tournament below measures the same (a − b: mean points a deal, duplicate deals) at tables of "
        "all four agents together, so its pairs differ from these evaluations, where the policy sits "
        "with 3 copies of one opponent."
    )

    specs = [fresh, "ppo", "strategy", "random"]
    if not shipped_path("hearts", 4).exists():
        print("no shipped checkpoint for hearts with 4 players yet: the tournament leaves it out")
        specs.remove("ppo")
    config = TournamentConfig(
        preset="hearts", num_players=4, agents=specs, deals=options.deals, seed=options.seed
    )
    report = Tournament(config, json_path=run / "tournament.json", labels=labels).run()
    print()
    print(format_report(report))
    write_csv(report, run / "tournament.csv")
    write_png(report, run / "tournament.png")
    files = {**summary["files"], **{what: str(run / name) for what, name in TOURNAMENT_FILES.items()}}
    written = {what: path for what, path in files.items() if Path(path).exists()}
    width = max(map(len, written))
    print("\nwritten:")
    for what, path in written.items():
        print(f"  {what:<{width}}  {path}")
    if summary.get("evaluate_command"):
        print("evaluate the fresh policy (its last evaluation again; more --deals narrow its interval):")
        print(f"  {summary['evaluate_command']}")
    if summary.get("resume_command"):
        print("continue its training (the budget counts the whole run, these minutes included):")
        print(f"  {summary['resume_command']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
