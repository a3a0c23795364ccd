"""Throughput of two commits side by side, on the same machine in the same minutes.

A machine's speed drifts from hour to hour (this project's shared 2-core machine has run the
same benchmark at 2.3x different speeds on one day), so a change is judged against the commit
before it measured in alternation: each run is a fresh ``python -c`` that puts one checkout first
on ``sys.path`` and calls :func:`benchmarks.throughput.batched` for one preset; the checkouts take
turns, ``--repeats`` times, and the medians are compared::

    python -m benchmarks.before_after b85e3a0 --presets hearts royal_hearts auction_hearts \\
        --json results/throughput_second_reading.json

The older commit is checked out with ``git worktree`` into a temporary folder (removed after).
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.checkouts import ROOT, git, python, worktree
from evaluation.provenance import run_record

_RUN = (
    "import sys; sys.path.insert(0, {root!r}); "
    "from benchmarks.throughput import batched; "
    "print(batched({preset!r}, {batch}, {obs}, {seconds}))"
)


def measure(root: Path, preset: str, batch: int, obs: bool, seconds: float) -> float:
    """Decisions per second of ``preset`` on the checkout at ``root``, in a fresh process."""
    code = _RUN.format(root=str(root), preset=preset, batch=batch, obs=obs, seconds=seconds)
    return float(python(code, root).strip().splitlines()[-1])


def compare(before: Path, presets: list[str], repeats: int, batch: int, obs: bool, seconds: float) -> dict:
    """Per preset: the runs of each checkout (alternated) and their medians."""
    out: dict[str, dict[str, object]] = {}
    for preset in presets:
        runs: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(repeats):
            runs["before"].append(measure(before, preset, batch, obs, seconds))
            runs["after"].append(measure(ROOT, preset, batch, obs, seconds))
        medians = {side: statistics.median(values) for side, values in runs.items()}
        out[preset] = {
            "before": runs["before"], "after": runs["after"],
            "median_before": medians["before"], "median_after": medians["after"],
            "change": medians["after"] / medians["before"] - 1,
        }  # fmt: skip
        print(
            f"{preset:<22} before {medians['before']:>12,.0f}/s  after {medians['after']:>12,.0f}/s  "
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
    parser.add_argument("--json", type=Path, default=None, help="write the runs and medians here")
    args = parser.parse_args(argv)
    command = "python -m benchmarks.before_after " + shlex.join(sys.argv[1:] if argv is None else argv)
    commit = git("rev-parse", args.before)
    with tempfile.TemporaryDirectory() as folder, worktree(commit, Path(folder) / "before") as before:
        results = compare(before, args.presets, args.repeats, args.batch, not args.no_obs, args.seconds)
    if args.json:
        record = {
            "command": command, "runs": [run_record(command)], "before": commit,
            "batch": args.batch, "observation": not args.no_obs, "seconds": args.seconds,
            "repeats": args.repeats, "presets": results,
        }  # fmt: skip
        args.json.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
