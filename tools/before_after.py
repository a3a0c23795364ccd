"""Throughput of two commits side by side, on the same machine in the same minutes.

A machine's speed drifts from hour to hour (this project's shared 2-core machine has run the
same benchmark at 2.3x different speeds on one day), so a change is judged against the commit
before it measured in alternation: each run is a fresh ``python -c`` that puts one checkout first
on ``sys.path`` and calls :func:`benchmarks.throughput.batched` for one preset; the checkouts take
turns, ``--repeats`` times, and the medians are compared::

    python -m tools.before_after b85e3a0 --presets hearts royal_hearts auction_hearts \\
        --json results/throughput_second_reading.json

``--bench`` measures ``make bench``'s B=4096 rows instead (the batched engine without and with
observations in each format, the vector env in each format with 1 and 2 worker processes and
each player), in the same alternation.

The older commit is checked out with ``git worktree`` into a temporary folder (removed after).
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import tempfile
from pathlib import Path

from evaluation.provenance import run_record
from hearts_env.files import write_json
from tools.checkouts import ROOT, git, python, worktree

_RUN = "import sys; sys.path.insert(0, {root!r}); from benchmarks import throughput; print(throughput.{call})"


def measure(root: Path, call: str) -> float:
    """Decisions per second of ``call`` (a :mod:`benchmarks.throughput` function called with
    its arguments) on the checkout at ``root``, in a fresh process."""
    return float(python(_RUN.format(root=str(root), call=call), root).strip().splitlines()[-1])


def preset_calls(presets: list[str], batch: int, obs: bool, seconds: float) -> dict[str, str]:
    """Row name -> the measurement: the batched engine on each preset."""
    return {preset: f"batched({preset!r}, {batch}, {obs}, {seconds})" for preset in presets}


def bench_calls(seconds: float) -> dict[str, str]:
    """Row name -> the measurement: ``make bench``'s B=4096 rows (standard Hearts)."""
    calls = {f"batched obs={obs}": f"batched('hearts', 4096, {obs}, {seconds})" for obs in (False, True)}
    for fmt in ("uint8", "packed"):
        calls[f"batched {fmt}"] = f"batched('hearts', 4096, True, {seconds}, {fmt!r})"
    for fmt in ("float32", "uint8", "packed"):
        for workers in (1, 2):
            for player in ("shard", "caller"):
                name = f"vector_env {fmt} processes={workers} player={player}"
                calls[name] = f"vector('hearts', 4096, {seconds}, {workers}, {fmt!r}, {player!r})"
    return calls


def compare(before: Path, calls: dict[str, str], repeats: int) -> dict:
    """Per row: the runs of each checkout (alternated) and their medians."""
    out: dict[str, dict[str, object]] = {}
    for preset, call in calls.items():
        runs: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(repeats):
            runs["before"].append(measure(before, call))
            runs["after"].append(measure(ROOT, call))
        medians = {side: statistics.median(values) for side, values in runs.items()}
        out[preset] = {
            "before": runs["before"], "after": runs["after"],
            "median_before": medians["before"], "median_after": medians["after"],
            "change": medians["after"] / medians["before"] - 1,
        }  # fmt: skip
        print(
            f"{preset:<40} before {medians['before']:>12,.0f}/s  after {medians['after']:>12,.0f}/s  "
            f"{100 * out[preset]['change']:+.1f}%",
            flush=True,
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the commit to compare this checkout with (e.g. HEAD~3)")
    parser.add_argument("--presets", nargs="+", default=["hearts"], help="presets (default: hearts)")
    parser.add_argument("--repeats", type=int, default=5, help="alternated runs per checkout (default 5)")
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--no-obs", action="store_true", help="without observations (default: with)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per run (default 2)")
    parser.add_argument("--bench", action="store_true", help="make bench's B=4096 rows instead of --presets")
    parser.add_argument("--only", default="", help="with --bench: the rows whose name starts with this")
    parser.add_argument("--json", type=Path, default=None, help="write the runs and medians here")
    args = parser.parse_args(argv)
    command = "python -m tools.before_after " + shlex.join(sys.argv[1:] if argv is None else argv)
    commit = git("rev-parse", args.before)
    with tempfile.TemporaryDirectory() as folder, worktree(commit, Path(folder) / "before") as before:
        if args.bench:
            rows = bench_calls(args.seconds).items()
            calls = {name: call for name, call in rows if name.startswith(args.only)}
        else:
            calls = preset_calls(args.presets, args.batch, not args.no_obs, args.seconds)
        results = compare(before, calls, args.repeats)
    if args.json:
        record = {
            "command": command, "runs": [run_record(command)], "before": commit,
            "batch": args.batch, "observation": not args.no_obs, "seconds": args.seconds,
            "repeats": args.repeats, "calls": calls, "presets": results,
        }  # fmt: skip
        write_json(args.json, record, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
