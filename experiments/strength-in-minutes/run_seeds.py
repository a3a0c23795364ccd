"""Fresh timed training runs on several seeds, one at a time, and their last evaluations.

Runs ``hearts-env train --preset hearts --minutes M --threads 2 --seed S --eval-deals 1000
--eval-opponents strategy`` (plus ``--flags``) for each seed, one after the other (the machine
should be otherwise idle: the rate decides the decisions a budget buys), and writes what the
figure ``five-minutes`` reads: each seed's decisions, rate and last evaluation::

    python experiments/strength-in-minutes/run_seeds.py --minutes 5 --seeds 1,2,3 \\
        --json experiments/strength-in-minutes/five_minutes.json

A seed whose run folder already holds a ``summary.json`` is read, not trained again (delete the
folder to train it again), so an interrupted series goes on where it stopped.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

from evaluation.provenance import run_record
from hearts_env.files import write_json

TRAIN = (
    "hearts-env train --preset hearts --minutes {minutes:g} --threads 2 --seed {seed} --eval-deals 1000 "
    "--eval-opponents strategy --no-progress --no-tensorboard --run-dir {run_dir}"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument(
        "--flags",
        default="",
        help="more hearts-env train flags, e.g. '--hidden 128,128' (a single flag: --flags=--anneal-lr)",
    )
    parser.add_argument("--run-root", default="runs/minutes")
    parser.add_argument("--json", required=True, help="where the record goes")
    parser.add_argument("--question", default="does a fresh timed run of the default training beat strategy?")
    args = parser.parse_args(argv)
    hearts_env = Path(sys.executable).with_name("hearts-env")
    flags = "_".join(shlex.split(args.flags)).replace("-", "")
    tag = f"{args.minutes:g}min" + (f"-{flags}" if flags else "")
    rows = []
    for seed in [int(s) for s in args.seeds.split(",")]:
        run_dir = Path(args.run_root) / f"{tag}-{seed}"
        if not (run_dir / "summary.json").exists():
            command = TRAIN.format(minutes=args.minutes, seed=seed, run_dir=run_dir) + " " + args.flags
            words = shlex.split(command)
            subprocess.run([str(hearts_env), *words[1:]], check=True)
        summary = json.loads((run_dir / "summary.json").read_text())
        last = summary["evaluation"][0]
        rows.append({
            "seed": seed, "decisions": summary["decisions"],
            "imitation_decisions": summary["imitation_decisions"],
            "minutes": summary["minutes"], "decisions_per_s": summary["decisions_per_s"],
            "opponent": last["opponent"], "diff": last["diff"], "ci95": last["ci95"], "deals": last["deals"],
            "seats": ["policy", *last["seats"][1:]],
        })  # fmt: skip
        print(rows[-1], flush=True)
    command = TRAIN.format(minutes=args.minutes, seed="SEED", run_dir="RUN")
    command += f" {args.flags}" if args.flags else ""
    write_json(args.json, {
        "command": command,
        "question": args.question,
        "better": "lower",
        "runs": [run_record("python experiments/strength-in-minutes/run_seeds.py "
                            + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv)))],
        "seeds": rows,
    })  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
