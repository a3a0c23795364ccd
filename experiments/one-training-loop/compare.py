"""Same numbers before and after the one training loop: each case is trained by the code of
commit d2c3867 (two trainers: ``hearts-env train`` and ``python -m training.mixture``) and by this
checkout (``hearts-env train --preset`` / ``--family``) with the same seed; the policy's and the
checkpoint's tensors must be equal bit for bit, train.csv and eval.csv equal in every column but
the timings, and the summary's counts and evaluations equal. Writes ``same_numbers.json`` here.

    python experiments/one-training-loop/compare.py [CASE ...]   # single overlap family smear teachers resume
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))
from tools.checkouts import git, worktree  # noqa: E402

BEFORE = "d2c3867"
"""The last commit with two trainers."""
PYTHON = sys.executable
OLD = NEW = OUT = Path()  # set by main: the old checkout, this one, the runs' folder
TIMINGS = {"elapsed_s", "decisions_per_s"}
COMMON = "--no-progress --no-tensorboard --threads 1 --seed 3".split()
SINGLE = "--preset hearts --total-decisions 60000 --num-games 64 --eval-deals 20 --eval-every 30000".split()
SINGLE += COMMON
FAMILY = ("--total-decisions 24576 --num-games 32 --rollout-steps 128 --eval-deals 10 --eval-every 8192 "
          "--hidden 64,64 --minibatch-size 1024").split() + COMMON  # fmt: skip
TRAIN = ["-m", "hearts_cli", "train"]
MIXTURE = ["-m", "training.mixture"]  # the family trainer before the one loop


def family_case(family: str, flags: str) -> tuple[list[str], list[str]]:
    """A family run's old and new command lines."""
    rest = ["--family", family, *flags.split(), *FAMILY]
    return [*MIXTURE, *rest], [*TRAIN, *rest]


CASES = {  # name: (old argv, new argv), each run in its own folder
    "single": ([*TRAIN, *SINGLE], [*TRAIN, *SINGLE]),
    "overlap": ([*TRAIN, *SINGLE, "--overlap"], [*TRAIN, *SINGLE, "--overlap"]),
    "family": family_case("hearts", "--eval-presets hearts,black_maria"),
    "smear": family_case("smear", "--eval-presets smear_widow"),
    "teachers": family_case("hearts", "--eval-presets hearts --moon-imitation 0.5 --distill 0.5"),
}


def train(code: Path, argv: list[str], run: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(
        [PYTHON, *argv, "--run-dir", str(run)], cwd=code, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"{code}: {' '.join(argv)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")


def tensors(content: object, prefix: str = "") -> dict[str, torch.Tensor]:
    """Every tensor in a saved file, by its path of keys."""
    out = {}
    if isinstance(content, torch.Tensor):
        out[prefix] = content
    elif isinstance(content, dict):
        for key, value in content.items():
            out.update(tensors(value, f"{prefix}/{key}"))
    elif isinstance(content, (list, tuple)):
        for i, value in enumerate(content):
            out.update(tensors(value, f"{prefix}/{i}"))
    return out


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as file:
        return list(csv.DictReader(file))


def same_rows(
    old: list[dict[str, str]], new: list[dict[str, str]], what: str, keys: tuple[str, ...] = ()
) -> list[str]:
    """Differences of two CSVs in their shared columns but the timings (``keys``: rows equal on
    them count once, as the old mixture wrote its last evaluation twice)."""
    if keys:
        old = list({tuple(r[k] for k in keys): r for r in old}.values())
    shared = [c for c in old[0] if c in new[0] and c not in TIMINGS] if old and new else []
    problems = [] if len(old) == len(new) else [f"{what}: {len(old)} rows before, {len(new)} after"]
    for i, (a, b) in enumerate(zip(old, new)):
        for column in shared:
            if a[column] != b[column]:
                problems.append(f"{what} row {i} {column}: {a[column]} before, {b[column]} after")
    return problems


def compare(old: Path, new: Path, family: bool) -> list[str]:
    problems = []
    for name in ("policy.pt", "checkpoint.pt"):
        a = tensors(torch.load(old / name, weights_only=True))
        b = tensors(torch.load(new / name, weights_only=True))
        if a.keys() != b.keys():
            problems.append(f"{name}: tensors {sorted(a.keys() ^ b.keys())[:5]} in one only")
        problems += [f"{name}{k} differs" for k in a.keys() & b.keys() if not torch.equal(a[k], b[k])]
    problems += same_rows(rows(old / "train.csv"), rows(new / "train.csv"), "train.csv")
    keys = ("iteration", "preset", "opponent") if family else ()
    problems += same_rows(rows(old / "eval.csv"), rows(new / "eval.csv"), "eval.csv", keys)
    a, b = (json.loads((path / "summary.json").read_text()) for path in (old, new))
    for key in ("iterations", "decisions", "imitation_decisions", "samples", "ppo_decisions"):
        if key in a and a[key] != b[key]:
            problems.append(f"summary {key}: {a[key]} before, {b[key]} after")

    def strip(e: dict) -> dict:  # the timings out, and the policy's path (each run's own folder)
        seats = [s if not s.startswith("ppo:checkpoint=") else "ppo:policy.pt" for s in e.get("seats", [])]
        return {**{k: v for k, v in e.items() if k not in TIMINGS}, "seats": seats}

    before = [strip(e) for e in a["evaluation"]]
    if family:  # the old mixture evaluated twice at its end: the same rows
        before = [e for i, e in enumerate(before) if e not in before[:i]]
    if before != [strip(e) for e in b["evaluation"]]:
        problems.append("summary evaluation differs")
    return problems


def main(names: list[str]) -> int:
    global OLD, NEW, OUT
    with tempfile.TemporaryDirectory() as scratch, worktree(BEFORE, Path(scratch) / "before") as old:
        OLD, NEW, OUT = old, ROOT, Path(scratch) / "runs"
        return _main(names)


def _main(names: list[str]) -> int:
    fresh, failed, record = True, False, []
    for name in names or [*CASES, "resume"]:
        if name == "resume":  # stopped at half the budget, resumed to the whole, against uninterrupted
            half = [a if a != "60000" else "30000" for a in SINGLE]
            for code, side in ((OLD, "old"), (NEW, "new")) if fresh else ():
                run = OUT / f"resume-{side}"
                train(code, ["-m", "hearts_cli", "train", *half], run)
                train(code, ["-m", "hearts_cli", "train", *SINGLE, "--resume"], run)
            problems = compare(OUT / "resume-old", OUT / "resume-new", False)
            if (OUT / "single-new").exists():
                problems += [
                    f"vs uninterrupted: {p}" for p in compare(OUT / "single-new", OUT / "resume-new", False)
                ]
        else:
            old_argv, new_argv = CASES[name]
            if fresh:
                train(OLD, old_argv, OUT / f"{name}-old")
                train(NEW, new_argv, OUT / f"{name}-new")
            problems = compare(
                OUT / f"{name}-old", OUT / f"{name}-new", name in ("family", "smear", "teachers")
            )
        summary = json.loads((OUT / f"{name}-new" / "summary.json").read_text())
        last = ", ".join(
            f"{e.get('preset', '')} vs {e['opponent']} {e['diff']:+.4f}" for e in summary["evaluation"]
        )
        print(
            f"{name}: {'SAME' if not problems else 'DIFFERENT'} ({summary['iterations']} iterations, "
            f"{summary['decisions']:,} decisions, {summary['samples']:,} samples; last evaluation {last})"
        )
        for problem in problems[:20]:
            print(f"  {problem}")
        failed |= bool(problems)
        record.append(
            {
                "case": name,
                "same": not problems,
                "problems": problems[:20],
                "iterations": summary["iterations"],
                "decisions": summary["decisions"],
                "samples": summary["samples"],
                "last_evaluation": summary["evaluation"],
            }
        )
    if not names:
        from hearts_env.files import write_json

        write_json(
            HERE / "same_numbers.json",
            {
                "command": "python experiments/one-training-loop/compare.py",
                "before": git("rev-parse", BEFORE),
                "after": git("rev-parse", "HEAD"),
                "cases": {
                    n: {"before": " ".join(CASES[n][0]), "after": " ".join(CASES[n][1])} for n in CASES
                },
                "results": record,
            },
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
