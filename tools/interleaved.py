"""Two commits' engines in one process, stepped in turns: a throughput comparison that the
machine's drift and each process's own luck (memory placement) cannot tilt.

:mod:`tools.before_after` runs each checkout in fresh processes; on a shared machine the
same code's runs differ by tens of percent from process to process, more than a small change.
Here the older commit's ``hearts_env`` is copied under another name (``hearts_env_before``, its
imports rewritten), both are built in this process, warmed to the steady state, then stepped in
short turns, the order alternating every round; the time of each turn is summed per side::

    python -m tools.interleaved 90289bf --json results/throughput_house_interleaved.json

Rows: ``make bench``'s B=4096 rows (the batched engine without and with observations in each
format, the vector env in each format with 1 and 2 processes and each player; with 2, each
side's worker process is forked from this one and waits while the other side steps).
"""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import numpy as np

from evaluation.provenance import run_record
from hearts_env.files import write_json
from tools.checkouts import git, worktree

BEFORE = "hearts_env_before"
"""The name the older commit's package is imported under."""
WARMUP_STEPS = 5000
"""Steps before timing: the steady state (as :data:`benchmarks.throughput.WARMUP_STEPS`)."""


@contextmanager
def older_package(commit: str) -> Iterator[None]:
    """The ``hearts_env`` of ``commit`` importable as :data:`BEFORE` while the block runs."""
    with tempfile.TemporaryDirectory() as folder, worktree(commit, Path(folder) / "tree") as tree:
        target = Path(folder) / "packages" / BEFORE
        shutil.copytree(tree / "hearts_env", target)
        word = re.compile(r"\bhearts_env\b")
        for path in target.rglob("*.py"):
            path.write_text(word.sub(BEFORE, path.read_text()))
        sys.path.insert(0, str(target.parent))
        try:
            yield
        finally:
            sys.path.remove(str(target.parent))


def _module(package: str, *names: str) -> ModuleType:
    """The first of ``package``'s modules ``names`` that exists (a module that moved between the
    two commits: its new place first)."""
    for name in names[:-1]:
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            continue
    return importlib.import_module(f"{package}.{names[-1]}")


def _stepper(package: str, row: str, batch: int) -> Callable[[], None]:
    """One step of ``row`` (a name of :func:`rows`) on ``package``'s engine, made ready."""
    env = importlib.import_module(package)
    bits = _module(package, "core.bits", "bits")
    rng = np.random.default_rng(0)
    if row.startswith("vector_env"):
        fmt, player = row.split()[1], row.split("player=")[1]
        workers = int(row.split("processes=")[1].split()[0]) if "processes=" in row else 1
        vector = env.vector_env(
            "hearts", num_envs=batch, seed=0, num_workers=workers, copy=False, obs_format=fmt
        )
        vector.reset()
        if player == "shard":
            return lambda: vector.step_random() and None
        return lambda: vector.step(bits.random_bit(vector.legal_masks(), rng)) and None
    make_rules = importlib.import_module(f"{package}.presets").make_rules
    table = importlib.import_module(f"{package}.table").Table(make_rules("hearts"), batch)
    table.reset(seed=0)
    fmt = row.split()[1]
    out = np.empty((batch, table.observer.layout.size), np.float32)
    main, tail = table.encode(fmt) if fmt in ("uint8", "packed") else (None, None)

    def step() -> None:
        if fmt == "float32":
            table.observe(out=out)
        elif fmt != "none":
            table.encode(fmt, out=main, tail=tail)
        result = table.step(bits.random_bit(table.legal(), rng))
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))

    return step


def rows() -> list[str]:
    """The rows measured: ``batched FORMAT`` (``none``: no observations) and ``vector_env FORMAT
    processes=K player=PLAYER``."""
    batched = [f"batched {fmt}" for fmt in ("none", "float32", "uint8", "packed")]
    return batched + [f"vector_env {fmt} processes={k} player={p}" for k in (1, 2)
                      for fmt in ("float32", "uint8", "packed") for p in ("shard", "caller")]  # fmt: skip


def compare(row: str, batch: int, rounds: int, turn: int) -> dict[str, object]:
    """``rounds`` turns of ``turn`` steps each side, alternating which goes first."""
    steppers = {"before": _stepper(BEFORE, row, batch), "after": _stepper("hearts_env", row, batch)}
    for step in steppers.values():
        for _ in range(WARMUP_STEPS):
            step()
    seconds: dict[str, list[float]] = {"before": [], "after": []}
    for k in range(rounds):
        for side in ("before", "after") if k % 2 == 0 else ("after", "before"):
            step, start = steppers[side], time.perf_counter()
            for _ in range(turn):
                step()
            seconds[side].append(time.perf_counter() - start)
    rate = {side: batch * turn * rounds / sum(values) for side, values in seconds.items()}
    ratios = [b / a for a, b in zip(seconds["after"], seconds["before"])]  # per round: after's speed-up
    return {
        "rate_before": rate["before"], "rate_after": rate["after"],
        "change": rate["after"] / rate["before"] - 1,
        "round_change_median": statistics.median(ratios) - 1,
        "round_change_quartiles": [float(q) - 1 for q in np.quantile(ratios, [0.25, 0.75])],
        "seconds": seconds,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the commit to compare this checkout with (e.g. 90289bf)")
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=40, help="turns per side (default 40)")
    parser.add_argument("--turn", type=int, default=20, help="steps per turn (default 20)")
    parser.add_argument("--only", default="", help="the rows whose name contains this")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args(argv)
    command = "python -m tools.interleaved " + shlex.join(sys.argv[1:] if argv is None else argv)
    commit = git("rev-parse", args.before)
    results = {}
    with older_package(commit):
        for row in (name for name in rows() if args.only in name):
            results[row] = compare(row, args.batch, args.rounds, args.turn)
            r = results[row]
            print(
                f"{row:<32} before {r['rate_before']:>12,.0f}/s  after {r['rate_after']:>12,.0f}/s  "
                f"{100 * r['change']:+.1f}%  (rounds: median {100 * r['round_change_median']:+.1f}%)",
                flush=True,
            )
    if args.json:
        record = {
            "command": command, "runs": [run_record(command)], "before": commit, "batch": args.batch,
            "rounds": args.rounds, "turn": args.turn, "warmup": WARMUP_STEPS, "rows": results,
        }  # fmt: skip
        write_json(args.json, record, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
