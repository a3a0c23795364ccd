"""Training throughput: decisions per second of PPO self-play, rollouts and learning together.

Each setting is one run of ``hearts-env train --minutes M --imitation-decisions 0 --eval-every 0
--run-dir <tmp>`` plus the setting's flags (:data:`SETTINGS`: threads, precision, observation
format, network widths), in a process of its own; its decisions and trainer seconds are the last
row of the run's ``train.csv`` (the seconds exclude the final evaluation, which runs after the
budget). Then ``python -m training.breakdown`` times one iteration's rollout and update and one
minibatch's forward and backward pass in each precision. The README's training throughput comes
from this (``--json FILE`` saves it, with the command, the machine and the run's commit and date).

Run: ``python -m benchmarks.training_rate [--minutes 1] [--json results/training_rate.json]``
(about 1.5 minutes a setting, plus a minute or two for the breakdown).
"""

from __future__ import annotations

import argparse
import csv
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.throughput import report
from hearts_env.files import write_json

SETTINGS = (
    "--threads 2",
    "--threads 1",
    "--threads 2 --precision bfloat16",
    "--threads 2 --obs-format packed",
    "--threads 2 --hidden 128,128",
)
"""The flags of each run beside the common ones (which pin float32 and 256x256: a setting's flags
come after them and win)."""
TRAIN = (
    "--imitation-decisions 0 --eval-every 0 --eval-deals 100 --no-progress "
    "--hidden 256,256 --precision float32"
)
"""Flags common to every run: no warm start, no evaluation until the end, and a short final
evaluation (after the budget, so outside the trainer seconds); the network and precision of the
first measurements, so that each setting's row means what it did before the training defaults
became 128x128 and ``--precision auto``."""

_MINIBATCH = re.compile(r"^(?P<precision>\w+): forward\+backward of (?P<rows>\d+) rows (?P<ms>[\d.]+) ms$")
_ITERATION = re.compile(r"^\s*iteration \d+: rollout (?P<rollout>[\d.]+) s, update (?P<update>[\d.]+) s")


def train_rate(settings: str, minutes: float) -> dict[str, Any]:
    """One training run with ``settings``: its decisions, trainer seconds and decisions/s."""
    with tempfile.TemporaryDirectory(prefix="training_rate_") as folder:
        run = Path(folder) / "run"
        argv = ["train", "--minutes", f"{minutes:g}", *shlex.split(TRAIN), "--run-dir", str(run)]
        argv += shlex.split(settings)
        subprocess.run([sys.executable, "-m", "hearts_cli", *argv], check=True, stdout=subprocess.DEVNULL)
        with (run / "train.csv").open() as f:
            last = list(csv.DictReader(f))[-1]
    decisions, seconds = int(last["decisions"]), float(last["elapsed_s"])
    command = f"hearts-env train --minutes {minutes:g} {TRAIN} --run-dir <tmp> {settings}"
    return {
        "settings": settings, "command": command, "decisions": decisions, "seconds": seconds,
        "decisions_per_s": decisions / seconds,
    }  # fmt: skip


def breakdown(iterations: int, threads: int) -> dict[str, Any]:
    """``python -m training.breakdown``'s numbers: per precision, one minibatch's forward and
    backward milliseconds and each iteration's rollout and update seconds."""
    argv = ["--iterations", str(iterations), "--threads", str(threads)]
    done = subprocess.run(
        [sys.executable, "-m", "training.breakdown", *argv], check=True, capture_output=True, text=True
    )
    precisions: list[dict[str, Any]] = []
    for line in done.stdout.splitlines():
        if m := _MINIBATCH.match(line):
            precisions.append({
                "precision": m["precision"], "minibatch_rows": int(m["rows"]), "minibatch_ms": float(m["ms"]),
                "iterations": [],
            })  # fmt: skip
        elif (m := _ITERATION.match(line)) and precisions:
            times = {"rollout_s": float(m["rollout"]), "update_s": float(m["update"])}
            precisions[-1]["iterations"].append(times)
    if not precisions or any(len(p["iterations"]) != iterations for p in precisions):
        raise RuntimeError(f"python -m training.breakdown printed what this cannot read:\n{done.stdout}")
    return {"command": shlex.join(["python", "-m", "training.breakdown", *argv]), "precisions": precisions}


def accelerator() -> str | None:
    """The CUDA GPU a run's default ``--device auto`` trains on (None: the CPU)."""
    import torch  # noqa: PLC0415  (the training extra; the other benchmarks run without it)

    return torch.cuda.get_device_name(0) if torch.cuda.is_available() else None


def main(argv: list[str] | None = None) -> None:
    """Command line: run each setting, then the breakdown; print (and save) the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="training budget of each run (default 1)")
    parser.add_argument(
        "--setting",
        action="append",
        help="one run's flags, e.g. '--threads 2' (repeated: several; default SETTINGS)",
    )
    parser.add_argument("--iterations", type=int, default=4, help="training.breakdown iterations (default 4)")
    parser.add_argument("--threads", type=int, default=2, help="training.breakdown torch threads (default 2)")
    parser.add_argument("--json", help="write the numbers to this JSON file")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    rows = []
    for settings in args.setting or SETTINGS:
        row = train_rate(settings, args.minutes)
        rows.append(row)
        print(
            f"{settings:<36} {row['decisions']:>11,} decisions in {row['seconds']:6.1f} s = "
            f"{row['decisions_per_s'] / 1e3:6.1f}k decisions/s",
            flush=True,
        )
    parts = breakdown(args.iterations, args.threads)
    for p in parts["precisions"]:
        times = ", ".join(f"{i['rollout_s']:.2f} + {i['update_s']:.2f} s" for i in p["iterations"])
        print(f"{p['precision']}: minibatch {p['minibatch_ms']:.1f} ms; rollout + update {times}")
    if args.json:
        command = shlex.join(["python", "-m", "benchmarks.training_rate", *argv])
        measured = report(command, accelerator=accelerator(), rows=rows, breakdown=parts)
        write_json(args.json, measured, indent=2)


if __name__ == "__main__":
    main()
