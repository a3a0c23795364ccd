"""What a run says when it ends: the closing summary (:func:`summary_text`), the words of one
evaluation (:func:`evaluation_text`) and the ``hearts-env`` commands that evaluate the policy
(:func:`tournament_command`, into a fresh file: :func:`evaluation_json`) and continue the run
(:func:`resume_command`).

An evaluation is a duplicate tournament (:mod:`evaluation.duplicate`) of the policy against
copies of one opponent, and its number is that tournament's pair difference: the policy's mean
points a deal minus the opponent's, over the duplicate deals, with its 95% interval. The command
:func:`tournament_command` writes plays that very tournament again, so it prints the same number
for the policy the evaluation saw.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

POLICY = "policy"
"""How the summary names the trained policy."""


def evaluation_text(result: Mapping[str, Any], better: str, name: str = POLICY) -> str:
    """One evaluation in a tournament's terms, e.g. ``policy − strategy = +0.93 ± 0.12 points a
    deal (lower is better) over 1000 duplicate deals x 4 seatings, one policy against 3 strategy``
    (``name``: the policy's name in the text)."""
    opponent = result["opponent"]
    table = ""
    if result.get("seats"):
        counts = Counter(result["seats"])
        mine = len(result["seats"]) - counts[opponent]
        sides = {1: f"one {name}", 2: f"the {name} and its partner"}
        side = sides.get(mine, f"the {name} in {mine} partnered seats")
        table = f", {side} against {counts[opponent]} {opponent}"
    seatings = f" x {result['seatings']} seatings" if result.get("seatings") else ""
    return (
        f"{name} − {opponent} = {result['diff']:+.2f} ± {result['ci95']:.2f} points a deal ({better} is "
        f"better) over {result['deals']} duplicate deals{seatings}{table}"
    )


def tournament_command(
    preset: str, num_players: int, options: Mapping[str, Any], result: Mapping[str, Any], json_path: str
) -> str:
    """The ``hearts-env tournament`` command that plays evaluation ``result``'s tournament again
    (the same seats, deals, tables and seed), its results written to ``json_path``."""
    argv = ["hearts-env", "tournament", "--preset", preset, "--players", str(num_players)]
    for key, value in options.items():
        text = json.dumps(value) if isinstance(value, (list, dict)) else str(value)
        argv += ["--option", f"{key}={text}"]
    argv += ["--agents", ",".join(result["seats"]), "--deals", str(result["deals"])]
    argv += ["--tables", str(result["tables"]), "--seed", str(result["seed"]), "--json", json_path]
    return shlex.join(argv)


def evaluation_json(run: Path, opponent: str, decisions: int) -> Path:
    """A results file in the folder ``run`` for :func:`tournament_command`'s tournament of the policy
    after ``decisions`` decisions against ``opponent``, e.g. ``policy-3072-vs-strategy.json``: named
    after the policy it plays, so an evaluation after a resume never meets a file played with
    earlier weights (which the tournament would refuse), and numbered (``-2``, ``-3``, …) past a
    file already there (a run started anew in the folder)."""
    stem = f"policy-{decisions}-vs-" + re.sub(r"[^A-Za-z0-9_.-]+", "_", opponent)
    path, number = run / f"{stem}.json", 1
    while path.exists():
        number += 1
        path = run / f"{stem}-{number}.json"
    return path


def resume_command(flags: list[str], budget: str) -> str:
    """The ``hearts-env train`` command that continues a run set up by ``flags`` (``--flag value``
    items, as :func:`training.config.to_argv` writes them) with a larger ``budget``
    (``minutes`` or ``total_decisions``: the one that ended it)."""
    flag = "--" + budget.replace("_", "-")
    kept = [item for item in flags if not item.startswith(flag + " ")]
    return " ".join(["hearts-env train", *kept, "--resume", flag, budget.upper()])


def phases_text(summary: Mapping[str, Any]) -> str:
    """The decisions of a run and of each phase, e.g. ``3,072 decisions (1,024 imitating strategy,
    then 2,048 PPO)``."""
    imitated, ppo = summary["imitation_decisions"], summary["ppo_decisions"]
    phases = [f"{imitated:,} imitating {summary['teacher']}"] if imitated else []
    phases += [f"{ppo:,} PPO"] if ppo else []
    return f"{summary['decisions']:,} decisions ({', then '.join(phases) or 'none'})"


def summary_text(summary: Mapping[str, Any]) -> str:
    """The closing lines of a run, from its summary (:class:`training.run.Run`): the decisions of
    each phase, the time and rate, why it stopped, the last evaluation, the files written and the
    commands to evaluate the policy and to continue the run. A family's universal network
    (``family`` in the summary) has one evaluation a preset."""
    imitated, ppo = summary["imitation_decisions"], summary["ppo_decisions"]
    if "family" in summary:
        trained = f"universal {summary['family']} network"
    else:
        trained = f"{summary['preset']}, {summary['num_players']} players"
    lines = [
        f"{trained}: {phases_text(summary)} in "
        f"{summary['minutes']:.1f} min, "
        f"{summary['decisions_per_s']:,} decisions/s of training; stopped: {summary['stopped']}"
    ]
    if imitated and not ppo:
        lines.append(
            "the run never left imitation: give it more --minutes or fewer --imitation-decisions "
            "to train with PPO"
        )
    if summary["evaluation"]:
        at = summary["evaluation"][0]["decisions"]
        lines.append(f"last evaluation, of the policy after {at:,} decisions:")
        lines += [
            f"  {e['preset'] + ': ' if 'preset' in e else ''}{evaluation_text(e, summary['better'])}"
            for e in summary["evaluation"]
        ]
    else:
        lines.append("no evaluation yet")
    lines.append("written:")
    width = max(len(what) for what in summary["files"]) if summary["files"] else 0
    lines += [f"  {what:<{width}}  {path}" for what, path in summary["files"].items()]
    if summary.get("evaluate_command"):
        interrupted = summary["stopped"].startswith("interrupted")  # policy.pt may be newer
        again = "the last evaluation's tournament" if interrupted else "the last evaluation again"
        lines.append(f"evaluate the policy ({again}; more --deals narrow its interval):")
        lines.append(f"  {summary['evaluate_command']}")
    if summary.get("resume_command"):
        lines.append("continue the run (the budget counts the whole run, what it has done so far included):")
        lines.append(f"  {summary['resume_command']}")
    return "\n".join(lines)
