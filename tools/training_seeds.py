"""Does a training setting cost strength? Several training seeds of each setting, the same budget.

Each *arm* is a set of ``hearts-env train`` flags (and, optionally, another commit of this
repository, checked out beside it with ``git worktree``). Every arm trains once per seed with
the same decision budget (``--total-decisions``, one thread, no evaluation until the end), and
each run's final evaluation is its policy alone against three copies of ``--opponent`` over
``--eval-deals`` duplicate deals (the run's own evaluation, :mod:`training.evaluate`: the deals
depend on the seed only, so two arms of one seed are judged on the same deals). The result per
arm: the seeds' evaluations and their mean; per arm against the first: the difference seed by
seed and its mean with a 95% t-interval over the seeds (``n - 1`` degrees of freedom), which
holds the training noise, not only the deals'. Lower is better in the Hearts family.

Runs are kept in ``--run-root`` (one folder an arm and seed); a finished run (its
``summary.json``) is read, not trained again, and a killed one is resumed, so the command can be
run again after an interruption. ``--parallel`` runs go at once (one thread each).
``--json`` writes the command, the machine and its run record, ``trainings`` (one entry a run:
its decisions, rate and evaluation) and ``arms`` (the comparison).

Run: ``python -m tools.training_seeds --arm default= --arm packed='--obs-format packed'
--seeds 1,2,3 --total-decisions 6000000 --json experiments/training-observation-format/packed.json``
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.throughput import report
from hearts_env.files import write_json
from tools.checkouts import ROOT, git

T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086)  # fmt: skip
"""Student's t quantile 0.975 for 1, 2, … 20 degrees of freedom (n seeds: n - 1; beyond, 1.96)."""


@dataclass(frozen=True)
class Arm:
    """One setting: its name, its ``hearts-env train`` flags and the commit it runs (None: this
    checkout)."""

    name: str
    flags: str
    commit: str | None = None

    @classmethod
    def parse(cls, text: str) -> Arm:
        """``NAME=FLAGS`` or ``NAME@COMMIT=FLAGS`` (``ValueError`` otherwise)."""
        head, sep, flags = text.partition("=")
        name, _, commit = head.partition("@")
        if not sep or not name.strip() or not name.replace("-", "").replace("_", "").isalnum():
            raise ValueError(
                f"an arm is NAME=FLAGS or NAME@COMMIT=FLAGS (NAME letters, digits, - _), got {text!r}"
            )
        shlex.split(flags)  # ValueError on unbalanced quotes
        return cls(name.strip(), flags.strip(), commit.strip() or None)


def run_one(arm: Arm, seed: int, options: argparse.Namespace, root: Path) -> dict[str, Any]:
    """Train (or read, or resume) ``arm`` with ``seed``; its decisions, rate and final evaluation."""
    run = Path(options.run_root).resolve() / f"{arm.name}-s{seed}"
    summary = run / "summary.json"
    if not summary.exists():
        argv = [
            "train", "--preset", options.preset, "--total-decisions", str(options.total_decisions),
            "--minutes", "100000", "--threads", "1", "--seed", str(seed), "--eval-every", "0",
            "--eval-opponents", options.opponent, "--eval-deals", str(options.eval_deals),
            "--no-progress", "--no-tensorboard", "--run-dir", str(run), *shlex.split(arm.flags),
        ]  # fmt: skip
        if (run / "checkpoint.pt").exists():
            argv.append("--resume")
        log = run.with_suffix(".log")
        run.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a") as out:
            subprocess.run(
                [sys.executable, "-m", "hearts_cli", *argv], cwd=root, check=True, stdout=out, stderr=out
            )
    data = json.loads(summary.read_text())
    evaluation = data["evaluation"][0]
    return {
        "arm": arm.name, "seed": seed, "run_dir": str(run), "decisions": data["decisions"],
        "decisions_per_s": data["decisions_per_s"], "diff": evaluation["diff"], "ci95": evaluation["ci95"],
        "deals": evaluation["deals"], "opponent": evaluation["opponent"],
    }  # fmt: skip


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and 95% t half-width over ``values`` (nan half-width for fewer than 2)."""
    x = np.asarray(values, float)
    if len(x) < 2:
        return float(x.mean()), float("nan")
    df = len(x) - 1
    t = T975[df - 1] if df <= len(T975) else 1.96
    return float(x.mean()), float(t * x.std(ddof=1) / np.sqrt(len(x)))


def compare(runs: list[dict[str, Any]], arms: list[Arm], seeds: list[int]) -> list[dict[str, Any]]:
    """Each arm's mean over seeds, and its difference from the first arm seed by seed."""
    by = {(r["arm"], r["seed"]): r for r in runs}
    base = arms[0].name
    rows = []
    for arm in arms:
        diffs = [by[arm.name, s]["diff"] for s in seeds]
        mean, half = interval(diffs)
        rate = float(np.mean([by[arm.name, s]["decisions_per_s"] for s in seeds]))
        row = {"arm": arm.name, "flags": arm.flags, "commit": arm.commit, "mean_diff": mean,
               "ci95_seeds": half, "decisions_per_s": rate}  # fmt: skip
        if arm.name != base:  # seed by seed: the same initialisation seed and evaluation deals
            gap = [by[arm.name, s]["diff"] - by[base, s]["diff"] for s in seeds]
            row["reference"] = base
            row["minus_reference"], row["minus_reference_ci95"] = interval(gap)
        rows.append(row)
    return rows


def _arm(text: str) -> Arm:
    """``--arm``'s type: :meth:`Arm.parse`, its message shown by argparse."""
    try:
        return Arm.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> None:
    """Command line: train every arm x seed, then print (and save) the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--arm", action="append", required=True, type=_arm,
        help="NAME=FLAGS or NAME@COMMIT=FLAGS (repeated; the first is the reference)",
    )  # fmt: skip
    parser.add_argument("--seeds", default="1,2,3", help="training seeds, comma-separated (default 1,2,3)")
    parser.add_argument("--preset", default="hearts", help="preset (default hearts)")
    parser.add_argument(
        "--total-decisions", type=int, default=6_000_000, help="budget of each run (default 6M)"
    )
    parser.add_argument("--opponent", default="strategy", help="evaluation opponent (default strategy)")
    parser.add_argument(
        "--eval-deals", type=int, default=1000, help="duplicate deals of the final evaluation"
    )
    parser.add_argument("--parallel", type=int, default=2, help="runs at once (default 2)")
    parser.add_argument("--run-root", default="runs/seeds", help="folder of the runs (default runs/seeds)")
    parser.add_argument("--json", help="write the comparison to this JSON file")
    argv = sys.argv[1:] if argv is None else list(argv)
    options = parser.parse_args(argv)
    try:
        seeds = [int(s) for s in options.seeds.split(",")]
    except ValueError:
        parser.error(f"--seeds takes comma-separated integers like 1,2,3, got {options.seeds!r}")
    arms: list[Arm] = options.arm
    if len({a.name for a in arms}) != len(arms):
        parser.error("two arms share a name")
    roots = {}
    for commit in {a.commit for a in arms if a.commit}:
        folder = Path(options.run_root).resolve() / f"checkout-{commit}"
        if not folder.exists():
            git("worktree", "add", "--detach", str(folder), commit)
        roots[commit] = folder
    jobs = [(arm, seed) for seed in seeds for arm in arms]
    with ThreadPoolExecutor(options.parallel) as pool:
        runs = list(pool.map(lambda job: run_one(*job, options, roots.get(job[0].commit, ROOT)), jobs))
    for r in runs:
        rate = f"{r['decisions_per_s']:,}/s"
        print(f"{r['arm']:<12} seed {r['seed']}: {r['diff']:+.3f} ± {r['ci95']:.3f} ({rate})")
    rows = compare(runs, arms, seeds)
    for row in rows:
        extra = ""
        if "reference" in row:
            gap = f"{row['minus_reference']:+.3f} ± {row['minus_reference_ci95']:.3f}"
            extra = f"; minus {row['reference']} {gap}"
        mean = f"{row['mean_diff']:+.3f} ± {row['ci95_seeds']:.3f}"
        print(f"{row['arm']:<12} mean {mean} over {len(seeds)} seeds{extra}")
    if options.json:
        command = shlex.join(["python", "-m", "tools.training_seeds", *argv])
        Path(options.json).parent.mkdir(parents=True, exist_ok=True)
        write_json(options.json, report(command, trainings=runs, arms=rows), indent=2)


if __name__ == "__main__":
    main()
