"""Do the tournament files under ``results/`` still come out of today's code?

Each tournament JSON holds its configuration and every deal's scores (``progress.per_deal``,
round by round). This replays the first ``--rounds`` rounds of each file's configuration on the
current code and compares their per-deal scores with the file's, exactly: a file whose agents or
rules have changed since it was written no longer reproduces and is listed, so its numbers can
be measured again. Files whose agents cannot be replayed (``ismcts``: OpenSpiel's bot is not
deterministic from its seed; ``ppo`` without torch, a checkpoint that is not in the tree) are
skipped with the reason::

    python -m tools.reproduce                      # every results/**/*.json tournament
    python -m tools.reproduce results/smear/*.json --rounds 2

Exit status 1 when some file does not reproduce.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents import parse_spec
from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env.files import write_json
from tools.checkouts import git

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Outcome:
    """What replaying one file gave: ``status`` is ``"same"``, ``"differs"`` or ``"skipped"``."""

    path: Path
    status: str
    detail: str = ""


def tournament_files(paths: list[Path] | None = None) -> list[Path]:
    """The tournament JSONs among ``paths`` (default: every JSON under ``results/``)."""
    candidates = paths or sorted((ROOT / "results").rglob("*.json"))
    out = []
    for path in candidates:
        try:
            saved = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(saved, dict) and "config" in saved and "progress" in saved:
            out.append(Path(path))
    return out


def command_of(config: dict[str, Any], path: Path) -> str:
    """The ``hearts-env tournament`` command that plays ``config`` into ``path`` (its defaults left out)."""
    words = ["hearts-env", "tournament", "--preset", config["preset"]]
    if config.get("num_players") is not None:
        words += ["--players", str(config["num_players"])]
    for key, value in config.get("options", {}).items():
        if isinstance(value, (dict, list)):
            text = json.dumps(value)
        else:
            text = str(value).lower() if isinstance(value, bool) else str(value)
        words += ["--option", f"{key}={text}"]
    words += ["--agents", ",".join(config["agents"]), "--deals", str(config["deals"])]
    words += ["--tables", str(config["tables"]), "--seed", str(config["seed"])]
    if config.get("streams", 1) != 1:
        words += ["--streams", str(config["streams"])]
    shown = path.relative_to(ROOT) if path.is_absolute() and ROOT in path.parents else path
    return shlex.join([*words, "--json", str(shown), "--quiet"])


def rerun(path: Path) -> int:
    """Play the tournament of ``path`` again from scratch on today's code (the old file is
    replaced when the new one is complete); returns the command's exit status."""
    saved = json.loads(path.read_text())
    command = command_of(saved["config"], path)
    fresh = path.with_name(path.stem + ".rerun.json")
    fresh.unlink(missing_ok=True)
    argv = shlex.split(command)[1:]
    argv[argv.index("--json") + 1] = str(fresh)
    # The command line is run as a program, as a user would run it.
    status = subprocess.run([sys.executable, "-m", "hearts_cli", *argv], cwd=ROOT, check=False).returncode
    if status == 0:
        record = json.loads(fresh.read_text())
        for run in record.get("runs", []):
            run["command"] = command  # the command as it names the file it writes
        write_json(fresh, record, indent=1)
        fresh.replace(path)
        for suffix in (".csv", "_pairs.csv", "_teams.csv", ".png"):  # what the command writes beside it
            made = fresh.with_name(fresh.stem + suffix)
            if made.exists():
                made.replace(path.with_name(path.stem + suffix))
    return status


def backfill(path: Path) -> bool:
    """Give a file written before runs were recorded one run rebuilt from the git history: the
    command from its configuration, the commit that committed the file and its date (the code
    ran on that commit's parent or on the work it committed). Returns whether it changed the file."""
    saved = json.loads(path.read_text())
    if saved.get("runs"):
        return False
    log = git("log", "--diff-filter=AM", "-1", "--format=%H %cI", "--", str(path)).split()
    if len(log) != 2:
        raise ValueError(f"{path} is not in the git history: nothing to rebuild its run from")
    command = command_of(saved["config"], path)
    if saved.get("deals", 0) < saved.get("deals_planned", 0):
        command += "  # stopped early by --minutes"
    saved["runs"] = [{
        "command": command, "commit": log[0], "dirty": None, "date": log[1],
        "recorded": "afterwards, from the git history: the command rebuilt from the configuration, "
        "the commit that committed the file",
    }]  # fmt: skip
    write_json(path, saved, indent=1)
    return True


def _missing_need(agents: list[str]) -> str | None:
    """Why these agents cannot be replayed here, or None."""
    for spec in agents:
        name, params = parse_spec(spec)
        if name == "ismcts":
            # OpenSpiel's ISMCTSBot given the same state and seed twice can choose different
            # moves (tried: four bots seeded 123 on one state chose 25, 47, 0, 47), so a file
            # with it cannot be replayed exactly; its numbers are re-measured, not replayed.
            return "OpenSpiel's IS-MCTS bot is not deterministic from its seed"
        if name == "ppo" and importlib.util.find_spec("torch") is None:
            return "ppo needs torch"
        checkpoint = params.get("checkpoint")
        if isinstance(checkpoint, str) and not (ROOT / checkpoint).exists() and not Path(checkpoint).exists():
            return f"checkpoint {checkpoint} is not in the tree"
    return None


def replay(path: Path, rounds: int = 1) -> Outcome:
    """Replay the first ``rounds`` rounds of the tournament in ``path`` and compare."""
    saved = json.loads(path.read_text())
    config = TournamentConfig(**saved["config"])
    need = _missing_need(list(config.agents))
    if need:
        return Outcome(path, "skipped", need)
    tournament = Tournament(config, progress=False)
    rounds = min(rounds, saved["progress"]["rounds_done"])
    if rounds == 0:
        return Outcome(path, "skipped", "the file holds no finished round")
    report = tournament.run(max_rounds=rounds)
    mine = np.array(report["progress"]["per_deal"], float)
    theirs = np.array(saved["progress"]["per_deal"][: len(mine)], float)
    if mine.shape == theirs.shape and np.allclose(mine, theirs, rtol=0, atol=1e-9):
        return Outcome(path, "same", f"{len(mine)} deals")
    if mine.shape != theirs.shape:
        return Outcome(path, "differs", f"shapes {theirs.shape} (file) and {mine.shape} (now)")
    rows = int((np.abs(mine - theirs) > 1e-9).any(axis=1).sum())
    return Outcome(path, "differs", f"{rows} of {len(mine)} deals score differently")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="tournament JSONs (default: all of results/)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds replayed per file (default 1)")
    parser.add_argument(
        "--rerun",
        action="store_true",
        help="play every file that differs again, from scratch, on today's code",
    )
    parser.add_argument(
        "--backfill",
        action="store_true",
        help="give files written before runs were recorded their run from git",
    )
    args = parser.parse_args(argv)
    if args.backfill:
        changed = [p for p in tournament_files(args.paths or None) if backfill(p)]
        print(f"backfilled {len(changed)} files")
        return 0
    outcomes = []
    for path in tournament_files(args.paths or None):
        try:
            outcomes.append(replay(path, args.rounds))
        except (ValueError, TypeError, KeyError) as error:  # a configuration today's code refuses
            outcomes.append(
                Outcome(path, "differs", f"cannot be played today: {' '.join(str(error).split())}")
            )
    for o in outcomes:
        shown = o.path.relative_to(ROOT) if o.path.is_absolute() and ROOT in o.path.parents else o.path
        print(f"{o.status:8s} {shown}  {o.detail}")
    differs = [o for o in outcomes if o.status == "differs"]
    if args.rerun:
        for o in differs:
            print(f"rerun    {command_of(json.loads(o.path.read_text())['config'], o.path)}", flush=True)
            if rerun(o.path) != 0:
                return 1
        return 0
    print(
        f"{len(outcomes)} files: {len(outcomes) - len(differs)} reproduce or were skipped, "
        f"{len(differs)} differ"
    )
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
