"""The figures README.md, results/README.md, docs/*.md and experiments/*/README.md quote, each
rendered from the JSON files it reads.

Every table or sentence of measured numbers in those documents sits between two markers,
``<!-- figure: NAME -->`` and ``<!-- /figure -->``; :data:`FIGURES` is the one table of
NAME -> (its input files, its renderer), so a number in a document is always the one in its
file::

    python -m tools.figures            # which blocks differ from their files (exit 1 if any)
    python -m tools.figures --write    # rewrite the blocks from the files
    python -m tools.figures --charts   # draw the committed charts again from their JSON (charts())

``tests/test_figures.py`` checks that every block equals its rendering, that no measured number
(``a ± b``, decisions per second) stands outside a block, and that every input file records the
commands, commits and dates of the runs that wrote it.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from benchmarks.throughput import SPEED_FLAGS
from hearts_env.files import write_atomic
from hearts_env.games import family
from hearts_env.presets import PRESETS, Rules, make_rules

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
RENDERED_WHOLE = ("leaderboard.md",)
"""Docs pages rendered whole from their own JSON (``docs/leaderboard.md`` from
``docs/leaderboard.json``, checked by ``tests/test_leaderboard.py``), not made of figure blocks."""
DOCUMENTS = (
    ROOT / "README.md",
    RESULTS / "README.md",
    *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in RENDERED_WHOLE),
    *sorted((ROOT / "experiments").glob("*/README.md")),
)
"""Every document whose measured numbers must come from files: the README, results/README.md,
the docs pages (a docs page may hold no figure block at all) and each experiment's README."""
MINUS = "−"  # the typeset minus sign of the prose and of the README's tables

_BLOCK = re.compile(r"(<!-- figure: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /figure -->)", re.S)


# ---------------------------------------------------------------------- reading the files
@cache
def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def expand(pattern: str) -> list[Path]:
    """The files of one input: a path relative to the repository, or a glob (sorted)."""
    if any(c in pattern for c in "*?["):
        return sorted(ROOT.glob(pattern))
    return [ROOT / pattern]


def read(pattern: str) -> Any:
    """An input's content: the JSON of a path, the list of the JSONs of a glob."""
    paths = expand(pattern)
    if any(c in pattern for c in "*?["):
        if not paths:
            raise FileNotFoundError(f"no file matches {pattern}")
        return [_load(p) for p in paths]
    return _load(paths[0])


def agent(report: dict[str, Any], name: str) -> dict[str, Any]:
    """The report's row of agent ``name``."""
    return next(row for row in report["agents"] if row["name"] == name)


def pair(report: dict[str, Any], a: str, b: str) -> tuple[float, float]:
    """(a − b, its 95% half-width) from the report's pairs, whichever order it holds them in."""
    for row in report["pairs"]:
        if (row["a"], row["b"]) == (a, b):
            return row["mean_diff"], row["ci95"]
        if (row["a"], row["b"]) == (b, a):
            return -row["mean_diff"], row["ci95"]
    raise KeyError(f"no pair {a} / {b} in {report['config']}")


def signed(value: float, digits: int, minus: str = MINUS, plus: bool = False) -> str:
    """``value`` with ``digits`` decimals, a typeset minus (and a ``+`` when ``plus``)."""
    text = f"{abs(value):.{digits}f}"
    if round(value, digits) < 0:
        return minus + text
    return ("+" if plus else "") + text


def pm(value: float, ci: float, digits: int = 3, minus: str = MINUS, plus: bool = False) -> str:
    """``value ± ci``."""
    return f"{signed(value, digits, minus, plus)} ± {ci:.{digits}f}"


def percent(rate: float | None) -> str:
    return "—" if rate is None else f"{100 * rate:.1f}%"


# ---------------------------------------------------------------------- Hearts ladders
def ladder_full(report: dict[str, Any]) -> str:
    """results/README.md: the ladder table and its adjacent differences."""
    lines = [
        "| agent | mean deal points (lower is better) | 95% CI | game win rate | moons shot | moons allowed "
        "| illegal |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in report["agents"]:
        lines.append(
            f"| {row['name']} | {row['mean_points']:.3f} | ± {row['ci95']:.3f} | "
            f"{percent(row['win_rate'])} | {row['moons_shot']} | {row['moons_allowed']} | {row['illegal']} |"
        )
    return "\n".join(lines) + f"\n\nAdjacent differences (per deal, 95% CI): {_gaps(report, '; ')}.\n"


def _gaps(report: dict[str, Any], sep: str) -> str:
    """The ladder's differences between neighbours, in its order."""
    names = [row["name"] for row in report["agents"]]
    return sep.join(f"{a} − {b} {pm(*pair(report, a, b))}" for a, b in zip(names, names[1:]))


def ladder_short(
    report: dict[str, Any], vs100: dict[str, Any], vs1000: dict[str, Any], presets: list[dict[str, Any]]
) -> str:
    """README.md: the ladder, the IS-MCTS matches and strategy against random everywhere."""
    lines = ["| standard Hearts, 4000 duplicate deals | mean deal points (95% CI; lower is better) |"]
    lines.append("|---|---|")
    lines += [f"| {row['name']} | {row['mean_points']:.3f} ± {row['ci95']:.3f} |" for row in report["agents"]]
    m100 = pair(vs100, "strategy", "ismcts:simulations=100")
    m1000 = pair(vs1000, "strategy", "ismcts:simulations=1000")
    wins = sum(sum(pair(p, "strategy", "random")) < 0 for p in presets)  # the whole interval below 0
    everywhere = f"all {len(presets)}" if wins == len(presets) else f"{wins} of {len(presets)}"
    return "\n".join(lines) + (
        f"\n\nAdjacent gaps: {_gaps(report, ', ')}. Against OpenSpiel's IS-MCTS over 1000 duplicate deals "
        "(OpenSpiel's rules, `--option hearts_break=heart_or_queen "
        "--agents strategy,ismcts:simulations=100`): "
        f"strategy − IS-MCTS(100 simulations) {pm(*m100)} points a deal, strategy − IS-MCTS(1000 "
        f"simulations) {pm(*m1000)}. `strategy` beats `random` (the whole 95% interval below 0) in "
        f"{everywhere} configurations of the Hearts family (`results/presets/`). Exact commands and "
        "full tables: [`results/README.md`](results/README.md).\n"
    )


def ismcts_table(*reports: dict[str, Any]) -> str:
    """results/README.md: strategy against IS-MCTS (100, then 1000 simulations)."""
    lines = [
        "| opponent | deals | strategy | IS-MCTS | strategy − IS-MCTS (95% CI) | time |",
        "|---|---|---|---|---|---|",
    ]
    for report in reports:
        bot = next(row["name"] for row in report["agents"] if row["name"].startswith("ismcts"))
        s, i = agent(report, "strategy"), agent(report, bot)
        lines.append(
            f"| IS-MCTS, {bot.split('=')[1]} simulations | {report['deals']} | "
            f"{pm(s['mean_points'], s['ci95'])} | "
            f"{pm(i['mean_points'], i['ci95'])} | {pm(*pair(report, 'strategy', bot))} | "
            f"{report['elapsed_s']:.0f} s |"
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- every preset
_FIRST_PRESETS = (
    "hearts", "black_lady_foster", "black_lady_culbertson", "black_maria", "omnibus", "spot_hearts",
    "pink_lady", "black_jack", "greek_hearts", "royal_hearts", "hearts_1887",
)  # fmt: skip
_REST = (
    "chasse_coeur", "auction_hearts", "joker_hearts", "heartsette", "domino_hearts", "cancellation_hearts",
)  # fmt: skip


def _preset_files(presets: tuple[str, ...]) -> tuple[str, ...]:
    """strategy against random in each of ``presets`` at each of its player counts."""
    return tuple(f"results/presets/{name}_{n}.json" for name in presets for n in PRESETS[name].counts)


def presets_table(*reports: dict[str, Any]) -> str:
    """results/README.md: strategy against random, one row a file (a preset's reading, a count)."""
    lines = [
        "| preset | players | strategy | random | strategy − random (95% CI) | illegal |",
        "|---|---|---|---|---|---|",
    ]
    for report in reports:
        s, r = agent(report, "strategy"), agent(report, "random")
        version = report["config"]["options"].get("version")
        label = report["preset"] + (f" {version}" if version else "")
        lines.append(
            f"| {label} | {report['num_players']} | {s['mean_points']:.2f} | {r['mean_points']:.2f} | "
            f"{pm(*pair(report, 'strategy', 'random'), 2, minus='-')} | {s['illegal'] + r['illegal']} |"
        )
    return "\n".join(lines) + "\n"


def partnership_teams(
    a: dict[str, Any], a_games: dict[str, Any], b: dict[str, Any], c: dict[str, Any]
) -> str:
    """results/README.md: the partnership games' team rows and Partnership C's slam pairs."""
    lines = [
        "| version | strategy+strategy | random+random | difference (95% CI; lower is better) "
        "| team game win rate (games) |",
        "|---|---|---|---|---|",
    ]
    for label, report in (("A", a), ("A, 10 tables of 30 deals (`_games`)", a_games), ("B", b)):
        teams = {row["name"]: row for row in report["teams"]}
        s, r = teams["strategy+strategy"], teams["random+random"]
        diff = next(row for row in report["team_pairs"] if {row["a"], row["b"]} == set(teams))
        sign = 1 if diff["a"] == "strategy+strategy" else -1
        games = f"{percent(s['win_rate'])} ({s['games']})" if s["games"] else "no game ended"
        lines.append(
            f"| {label} | {s['mean_points']:.2f} | {r['mean_points']:.2f} | "
            f"{pm(sign * diff['mean_diff'], diff['ci95'], 2, minus='-')} | {games} |"
        )
    slam = {row["name"]: row for row in c["slam"]}
    s, r = slam["strategy"], slam["random"]
    return "\n".join(lines) + (
        f"\n\nPartnership C's `slam` section: random bid {r['bids']} slams, strategy {s['bids']}; strategy "
        f"sat in {s['paired']} slam pairs and scored {s['mean_paired_points']:.2f} a deal in them, random "
        f"{r['mean_paired_points']:.2f} in its {r['paired']}.\n"
    )


# ---------------------------------------------------------------------- PPO
def ppo_hearts_short(report: dict[str, Any]) -> str:
    """README.md: the shipped Hearts agent against three copies of strategy."""
    p, s = agent(report, "ppo"), agent(report, "strategy")
    return (
        "| agent | mean deal points (95% CI; lower is better) | game win rate |\n|---|---|---|\n"
        f"| ppo (shipped) | {p['mean_points']:.3f} ± {p['ci95']:.3f} | {percent(p['win_rate'])} |\n"
        f"| strategy | {s['mean_points']:.3f} ± {s['ci95']:.3f} | {percent(s['win_rate'])} |\n\n"
        f"ppo − strategy = {pm(*pair(report, 'ppo', 'strategy'))} points per deal.\n"
    )


def _ppo_ismcts(report: dict[str, Any]) -> tuple[dict, dict, tuple[float, float]]:
    bot = next(row["name"] for row in report["agents"] if row["name"].startswith("ismcts"))
    return agent(report, "ppo"), agent(report, bot), pair(report, "ppo", bot)


def ppo_ismcts_short(report: dict[str, Any]) -> str:
    """README.md: the shipped PPO agent against IS-MCTS."""
    return (
        "Against OpenSpiel's IS-MCTS with 1,000 simulations (OpenSpiel's rules, seating ppo, ismcts, ppo,\n"
        f"ismcts and its rotation), over {report['deals']:,} duplicate deals "
        "(`results/ppo_vs_ismcts1000.json`, command in\n"
        f"`results/README.md`): ppo − IS-MCTS = {pm(*_ppo_ismcts(report)[2])} points per deal.\n"
    )


def ppo_table(vs_strategy: dict[str, Any], vs_ismcts: dict[str, Any]) -> str:
    """results/README.md: the shipped PPO agent's matches."""
    lines = [
        "| match | deals | ppo | opponent | ppo − opponent (95% CI) | time |",
        "|---|---|---|---|---|---|",
    ]
    for label, report, (p, other, diff) in (
        ("vs 3 x strategy (standard rules)", vs_strategy,
         (agent(vs_strategy, "ppo"), agent(vs_strategy, "strategy"), pair(vs_strategy, "ppo", "strategy"))),
        ("vs IS-MCTS, 1000 simulations (OpenSpiel's rules)", vs_ismcts, _ppo_ismcts(vs_ismcts)),
    ):  # fmt: skip
        lines.append(
            f"| {label}, shipped 80-minute checkpoint | {report['deals']} | "
            f"{pm(p['mean_points'], p['ci95'])} | {pm(other['mean_points'], other['ci95'])} | {pm(*diff)} | "
            f"{report['elapsed_s']:.0f} s |"
        )
    return "\n".join(lines) + "\n"


def black_maria(report: dict[str, Any]) -> str:
    """Both documents: the shipped Black Maria agent against two copies of strategy."""
    p, s = agent(report, "ppo"), agent(report, "strategy")
    return (
        f"Black Maria, 3 players, {report['deals']} duplicate deals x {len(report['rotations'])} seatings: "
        f"ppo {pm(p['mean_points'], p['ci95'])}, strategy {pm(s['mean_points'], s['ci95'])}; "
        f"ppo − strategy = {pm(*pair(report, 'ppo', 'strategy'))} points per deal.\n"
    )


# ---------------------------------------------------------------------- training
def training_variants(bf16: dict[str, Any], fp32: dict[str, Any], lean: dict[str, Any]) -> str:
    """The bfloat16 and lean-network runs against the shipped checkpoint."""
    bf, fp, h128 = (pair(r, r["agents"][0]["name"], "ppo") for r in (bf16, fp32, lean))
    return (
        "Trained for the shipped run's budget (one training run each), the bfloat16 agent ended weaker than\n"
        f"the shipped checkpoint ({pm(*bf, plus=True)} points a deal over {bf16['deals']:,} duplicate deals) "
        f"while a float32 run with the same budget matched it ({pm(*fp, plus=True)}), so float32 stays "
        "the default\n"
        "(`experiments/training-precision/bf16_training/README.md`). A leaner network (128x128), "
        "trained for the same budget,\n"
        f"ended weaker too: {pm(*h128, plus=True)} points a deal against the shipped one over "
        f"{lean['deals']:,} deals (`experiments/training-network-size/lean_network/README.md`).\n"
    )


def _rate_rows(report: dict[str, Any]) -> dict[str, float]:
    """A training_rate file's decisions per second by setting."""
    return {row["settings"]: row["decisions_per_s"] for row in report["rows"]}


TRAINING_TARGET = 100_000.0
"""Decisions per second the default training should reach with ``--threads 2``."""


def training_throughput(before: dict[str, Any], after: dict[str, Any], lean: dict[str, Any]) -> str:
    """The training rate before and after, on one machine and day (``lean``: the leaner network,
    a run of its own that day)."""
    old, new = _rate_rows(before), _rate_rows(after)
    commits = [r["runs"][0]["commit"][:7] for r in (before, after)]
    lines = [
        f"`{after['command']}` (and the same for commit {commits[0]}, {before['runs'][0]['date'][:10]}), "
        "rollouts and learning together, one minute a setting:",
        "",
        f"| `hearts-env train` flags | before ({commits[0]}) | after ({commits[1]}) |",
        "|---|---|---|",
    ]
    for settings, rate in new.items():
        was = f"{old[settings] / 1e3:.1f}k decisions/s" if settings in old else "—"
        lines.append(f"| `{settings}` | {was} | {rate / 1e3:.1f}k decisions/s |")
    for settings, rate in _rate_rows(lean).items():
        commit = lean["runs"][0]["commit"][:7]
        lines.append(f"| `{settings}` | — | {rate / 1e3:.1f}k decisions/s (a run of its own, {commit}) |")
    parts = {p["precision"]: p for p in after["breakdown"]["precisions"]}
    f32 = parts["float32"]
    rollout = [i["rollout_s"] for i in f32["iterations"][1:]]
    update = [i["update_s"] for i in f32["iterations"][1:]]
    text = (
        f"After, per iteration (`{after['breakdown']['command']}`, float32, iterations after the "
        f"first): the rollout {min(rollout):.2f}–{max(rollout):.2f} s, the update "
        f"{min(update):.2f}–{max(update):.2f} s; one forward and backward pass over "
        f"{f32['minibatch_rows']:,} decisions {f32['minibatch_ms']:.1f} ms in float32"
    )
    if "bfloat16" in parts:
        text += f", {parts['bfloat16']['minibatch_ms']:.0f} ms in bfloat16 (emulated on this CPU)"
    default = new.get("--threads 2", 0.0)
    verdict = "met" if default >= TRAINING_TARGET else "not met"
    text += (
        f". The target of {TRAINING_TARGET / 1e3:.0f}k decisions/s with `--threads 2` and the default "
        f"network is {verdict} on this machine ({default / 1e3:.1f}k)"
    )
    return "\n".join(lines) + "\n\n" + _paragraph(text + ".")


RATE_MACHINES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("after.json", "hidden128.json"), "AMD EPYC, AVX2"),
    (("avx512.json",), "AMD EPYC, AVX-512 + AVX512-BF16"),
    (("amx.json",), ""),
    (("amx_games.json",), ""),
    (("h200.json", "h200_games.json"), ""),
    (("overlap.json",), ""),
    (("bf16_copy_before.json",), ""),
    (("bf16_copy_after.json",), ""),
)
"""The files of ``results/training_rate/`` of each machine measured (one column: a machine and a
day, its files' rows together), and a name for the CPU of files that predate the CPU record
(``benchmarks.throughput.cpu_model``); empty: the file names it."""


def _cpu_name(report: dict[str, Any], fallback: str) -> str:
    """The column's machine: the CPU and its speed flags, and the GPU that ``--device auto`` used."""
    machine = report["machine"]
    if "cpu" not in machine:
        return fallback
    named = [SPEED_FLAGS[f] for f in machine.get("cpu_flags", []) if f in SPEED_FLAGS]
    model = re.sub(r"\((R|TM)\)| Processor| CPU", "", machine["cpu"]).strip()
    cpu = f"{model}, " + " + ".join(named)
    gpu = report.get("accelerator")
    return f"{gpu} GPU, {machine['cpus']} cores of {cpu}" if gpu else cpu


def training_throughput_machines(*reports: dict[str, Any]) -> str:
    """docs/training.md: the same training-rate benchmark on each machine (the files of
    :data:`RATE_MACHINES`, in its order)."""
    columns, at = [], 0
    for names, fallback in RATE_MACHINES:
        columns.append((reports[at : at + len(names)], fallback))
        at += len(names)
    rates = [{k: v for report in group for k, v in _rate_rows(report).items()} for group, _ in columns]
    names = [_cpu_name(group[0], fallback) for group, fallback in columns]
    settings = list(dict.fromkeys(s for rate in rates for s in rate))
    lines = [
        "One minute of `hearts-env train` a setting (`python -m benchmarks.training_rate`), rollouts and "
        "learning together, decisions a second; one column a machine and day, the commit and date of its "
        "runs below it (the AVX2 machine's 128x128 row is `results/training_rate/hidden128.json`, a run of "
        "its own that day; on the GPU machine `--device auto`, the default, trains the network on the GPU):",
        "",
        "| `hearts-env train` flags | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for setting in settings:
        cells = [f"{rate[setting] / 1e3:.1f}k" if setting in rate else "—" for rate in rates]
        lines.append(f"| `{setting}` | " + " | ".join(cells) + " |")
    runs = [[run for report in group for run in report["runs"][:1]] for group, _ in columns]
    for label, key, width in (("commit", "commit", 7), ("date", "date", 10)):
        cells = [", ".join(dict.fromkeys(r[key][:width] for r in rs)) for rs in runs]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    minibatch = []
    for group, _ in columns:
        parts = {p["precision"]: p["minibatch_ms"] for p in group[0]["breakdown"]["precisions"]}
        cell = " / ".join(f"{parts[p]:.1f}" for p in ("float32", "bfloat16") if p in parts)
        minibatch.append(cell + (" (on the CPU)" if group[0].get("accelerator") else ""))
    pass_label = "one pass over 4,096 decisions, ms (float32 / bfloat16; `training.breakdown`, CPU)"
    lines.append(f"| {pass_label} | " + " | ".join(minibatch) + " |")
    default = max(rate.get("--threads 2", 0.0) for rate in rates)
    target = (
        f"The target of {TRAINING_TARGET / 1e3:.0f}k decisions/s with `--threads 2` and the default settings"
    )
    if default >= TRAINING_TARGET:
        text = f"{target} is met ({default / 1e3:.1f}k at best)."
    else:
        text = (
            f"{target} (float32, 256x256, 512 games x 256 steps) is not met on any of them: "
            f"{default / 1e3:.1f}k at best."
        )
    reached = [
        f"{name}: " + ", ".join(f"`{s}`" for s, r in rate.items() if r >= TRAINING_TARGET)
        for name, rate in zip(names, rates)
        if any(r >= TRAINING_TARGET for r in rate.values())
    ]
    if reached:
        text += " Settings at or above it: " + "; ".join(reached) + "."
    return "\n".join(lines) + "\n\n" + _paragraph(text)


def seeds_table(report: dict[str, Any]) -> str:
    """A :mod:`tools.training_seeds` file as a table: each arm's seeds, mean and gap."""
    runs = report["trainings"]
    seeds = sorted({r["seed"] for r in runs})
    by = {(r["arm"], r["seed"]): r for r in runs}
    first = runs[0]
    head = "| arm | flags | " + " | ".join(f"seed {s}" for s in seeds)
    parallel = re.search(r"--parallel (\d+)", report["command"])
    at_once = (
        "two runs at once"
        if parallel is None or parallel.group(1) == "2"
        else ("one run at a time" if parallel.group(1) == "1" else f"{parallel.group(1)} runs at once")
    )
    lines = [
        f"`{report['command']}`: {first['decisions']:,} decisions a run unless its flags say otherwise, "
        f"one thread, {at_once}; "
        f"each policy alone against three `{first['opponent']}` over {first['deals']:,} duplicate deals "
        "(its points a deal minus theirs, lower is better):",
        "",
        head + " | mean (95% t over seeds) | minus the first arm | decisions/s |",
        "|---|---|" + "---|" * len(seeds) + "---|---|---|",
    ]
    for arm in report["arms"]:
        cells = " | ".join(
            pm(by[arm["arm"], s]["diff"], by[arm["arm"], s]["ci95"], 2, plus=True) for s in seeds
        )
        gap = "—"
        if "reference" in arm:
            gap = pm(arm["minus_reference"], arm["minus_reference_ci95"], 2, plus=True)
        flags = f"`{arm['flags']}`" if arm["flags"] else "(default)"
        commit = f" at {arm['commit'][:7]}" if arm.get("commit") else ""
        mean = pm(arm["mean_diff"], arm["ci95_seeds"], 2, plus=True)
        rate = f"{arm['decisions_per_s'] / 1e3:.1f}k"
        lines.append(f"| {arm['arm']}{commit} | {flags} | {cells} | {mean} | {gap} | {rate} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- Smear
def smear_table(reports: list[dict[str, Any]]) -> str:
    """README.md: Smear's tournaments (results/smear/*.json), PPO first."""
    lines = [
        "| preset | players | deals | pair | points per deal (a − b, 95% CI; higher is better) "
        "| a's side game wins |",
        "|---|---|---|---|---|---|",
    ]
    for report in reports:
        first = report["pairs"][0]
        a, b = (first["a"], first["b"]) if first["a"] != "random" else (first["b"], first["a"])
        teams = {t["name"]: t for t in report.get("teams", [])}
        win = next((t["win_rate"] for name, t in teams.items() if name.split("+")[0] == a), None)
        lines.append(
            f"| `{report['preset']}` | {report['num_players']} | {report['deals']} | {a} − {b} | "
            f"{pm(*pair(report, a, b), 2, plus=True)} | {percent(win)} |"
        )
    return "\n".join(lines) + "\n"


def smear_ppo(report: dict[str, Any]) -> str:
    """README.md: the shipped Smear agent against a smear pair."""
    diff, ci = pair(report, "ppo", "smear")
    team = next(t for t in report["teams"] if t["name"] == "ppo+ppo")
    verb = "beats" if diff - ci > 0 else "loses to" if diff + ci < 0 else "is level with"
    return (
        f"The PPO pair {verb} a `smear` pair by {abs(diff):.2f} ± {ci:.2f} points per deal and wins "
        f"{percent(team['win_rate'])} of the games to 21 ({team['games']:,} games).\n"
    )


# ---------------------------------------------------------------------- throughput
def _date(data: dict[str, Any]) -> str:
    """The day of a file's last run."""
    return data["runs"][-1]["date"][:10]


def _paragraph(text: str) -> str:
    """``text`` wrapped at the README's width (96), as its prose around the blocks."""
    return textwrap.fill(text, 96, break_long_words=False, break_on_hyphens=False) + "\n"


def _throughput_block(data: dict[str, Any], keep: Callable[[dict], bool], targets: bool) -> str:
    """A throughput file as the benchmark printed it: the command, numpy's version and the date,
    the table of the rows ``keep`` selects and, with ``targets``, the target lines of all rows."""
    from benchmarks.throughput import Row, check_targets, rows_of, table_text

    rows = [Row(**{"format": "yes", **row}) for row in rows_of(data)]  # no format: before formats
    shown = [r for r in rows if keep(r.__dict__)]
    lines = [f"$ {data['command']}", f"{'':20}# numpy {data['numpy']}, {_date(data)}", table_text(shown)]
    if targets:
        lines.append(check_targets(rows)[1])
    return "```\n" + "\n".join(lines) + "\n```\n"


def throughput_presets(data: dict[str, Any]) -> str:
    """README.md: every row of ``results/throughput.json``."""
    return _throughput_block(data, lambda r: True, targets=False)


def throughput_formats(data: dict[str, Any]) -> str:
    """README.md: the B=4096 and OpenSpiel rows of ``results/throughput_formats.json`` and the targets."""
    return _throughput_block(data, lambda r: r["batch"] == 4096 or r["name"] == "openspiel", targets=True)


def throughput_before_after(data: dict[str, Any]) -> str:
    """results/README.md: the medians of the Hearts-family presets against the standard-Hearts
    engine before them."""
    before, after = (v for k, v in data.items() if isinstance(v, dict) and "median_obs" in v)
    change = after["median_no_obs"] / before["median_no_obs"] - 1
    return _paragraph(
        f"Side by side, {len(before['no_obs'])} alternated runs of each "
        "(`results/throughput_before_after.json`, "
        f"B=4,096 standard Hearts, median, {_date(data)}): {before['median_no_obs'] / 1e6:.2f}M/s before and "
        f"{after['median_no_obs'] / 1e6:.2f}M/s after without observations ({signed(100 * change, 1)}%), "
        f"{before['median_obs'] / 1e6:.2f}M/s and {after['median_obs'] / 1e6:.2f}M/s with them."
    )


def throughput_second_reading(data: dict[str, Any]) -> str:
    """results/README.md: Royal Hearts' moon choice against the commit before it
    (:mod:`tools.before_after`)."""
    lines = [
        f"| preset (B={data['batch']:,}, observations) | before ({data['before'][:7]}) | after | change |",
        "|---|---|---|---|",
    ]
    for preset, row in data["presets"].items():
        lines.append(
            f"| {preset} | {row['median_before']:,.0f}/s | {row['median_after']:,.0f}/s | "
            f"{signed(100 * row['change'], 1, plus=True)}% |"
        )
    return "\n".join(lines) + f"\n\n(medians of {data['repeats']} alternated runs each, {_date(data)})\n"


HOUSE = ("throughput_house.json", "throughput_house_batched15.json")
"""make bench's B=4096 rows of the trick-taking core against the commit before it, in alternated
processes (``tools.before_after --bench``)."""
HOUSE_INTERLEAVED = ("throughput_house_interleaved.json", "throughput_house_interleaved_2proc.json")
"""The same, both commits in one process (:mod:`tools.interleaved`)."""


def throughput_house(*reports: dict[str, Any]) -> str:
    """results/README.md: the files of :data:`HOUSE`, then those of :data:`HOUSE_INTERLEAVED`."""
    lines = []
    for name, data in zip(HOUSE, reports):
        rows = data["presets"]
        lines += [
            f"`{name}` ({data['repeats']} alternated runs of {data['seconds']:g} s per row and checkout, "
            f"{_date(data)}):",
            "",
            f"| row (B=4,096, standard Hearts) | before ({data['before'][:7]}) | after | change | spread |",
            "|---|---|---|---|---|",
        ]
        logs = []
        for row_name, row in rows.items():
            spread = max(
                (max(row[side]) - min(row[side])) / statistics.median(row[side])
                for side in ("before", "after")
            )
            logs.append(math.log1p(row["change"]))
            lines.append(
                f"| {row_name} | {row['median_before']:,.0f}/s | {row['median_after']:,.0f}/s | "
                f"{signed(100 * row['change'], 1, plus=True)}% | {100 * spread:.0f}% |"
            )
        mean = math.expm1(sum(logs) / len(logs))
        lines += [
            "",
            f"Geometric mean of the changes over its {len(rows)} rows: {signed(100 * mean, 1, plus=True)}%.",
            "",
        ]
    for name, data in zip(HOUSE_INTERLEAVED, reports[len(HOUSE) :]):
        lines += [
            f"`{name}` (both commits in one process, {data['rounds']} alternating "
            f"turns of {data['turn']} steps a side after {data['warmup']:,} warm-up steps, {_date(data)}):",
            "",
            f"| row (B={data['batch']:,}, standard Hearts, one process) | before ({data['before'][:7]}) | "
            "after | change | per turn: median (quartiles) |",
            "|---|---|---|---|---|",
        ]
        for row_name, row in data["rows"].items():
            low, high = (signed(100 * q, 1, plus=True) for q in row["round_change_quartiles"])
            lines.append(
                f"| {row_name} | {row['rate_before']:,.0f}/s | {row['rate_after']:,.0f}/s | "
                f"{signed(100 * row['change'], 1, plus=True)}% | "
                f"{signed(100 * row['round_change_median'], 1, plus=True)}% ({low}% … {high}%) |"
            )
        lines.append("")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the search agent
def _move_time(report: dict[str, Any], name: str) -> float | None:
    return next((row["ms_per_decision"] for row in report.get("move_times", []) if row["name"] == name), None)


DEFAULT_PIMC = "16 worlds, `margin=1`, the shipped network as rollout and fallback"
"""How the figures name pimc's default setting in standard Hearts (4 players)."""
EARLIER_PIMC = "margin 0, `strategy` as rollout and fallback: the default before commit 19c23b4"
"""How the figures name the default the files of ``results/pimc/margin0/`` were played with."""

PPO_VS_PIMC = {
    "hearts": "hearts, 4 players",
    "black_maria": "black_maria, 3 players",
    "smear_partnership": "smear_partnership, 4 players (pair against pair)",
}
"""The shipped PPO agents' matches with pimc: ``results/pimc/ppo_vs_pimc_<preset>.json`` -> its
row label in the results' table."""
PPO_VS_PIMC_FILES = tuple(f"results/pimc/ppo_vs_pimc_{name}.json" for name in PPO_VS_PIMC)
PIMC_VS_ISMCTS = "results/pimc/pimc_vs_ismcts1000*.json"
"""The default pimc's matches against IS-MCTS(1000)."""


def _against_ismcts(matches: list[dict[str, Any]], deals: bool = True) -> str:
    return ", ".join(
        pm(*pair(m, "pimc", "ismcts:simulations=1000"), plus=True)
        + (f" ({m['deals']} deals)" if deals else "")
        for m in matches
    )


def pimc_hearts(
    report: dict[str, Any],
    one_core: dict[str, Any],
    table: dict[str, Any],
    cheap: dict[str, Any],
    cheap_black_maria: dict[str, Any],
    cost: dict[str, Any],
    matches: list[dict[str, Any]],
    *ppo: dict[str, Any],
) -> str:
    """README.md: the default pimc against three strategy, every preset's heuristic, IS-MCTS and
    the shipped PPO agents (:data:`PPO_VS_PIMC`); the cheaper setting against the default."""
    diff, ci = pair(report, "pimc", "strategy")
    took = f" ({_move_time(one_core, 'pimc'):.1f} ms a decision on one core)"
    against = ", ".join(
        f"{'(points made) ' if name.startswith('smear') else ''}{name} "
        f"{pm(*pair(match, 'ppo', 'pimc'), plus=True)}"
        for name, match in zip(PPO_VS_PIMC, ppo)
    )
    return _paragraph(
        f"Standard Hearts, one `pimc` (the default: {DEFAULT_PIMC}) against three `strategy`, "
        f"{report['deals']} duplicate deals: pimc − strategy = {pm(diff, ci)} points a deal{took}. "
        f"Two against two IS-MCTS(1000), OpenSpiel's rules: pimc − IS-MCTS = "
        f"{_against_ismcts(matches)}. With 8 worlds: better than the family's "
        f"heuristic in {table['presets_with_pimc_better']} of {table['presets_played']} presets. The "
        f"shipped PPO agents against it (ppo − pimc, 100 deals; points taken) {against}. "
        f"{_cheaper_search(cheap, cheap_black_maria, cost)} "
        "Commands: [results](results/README.md#the-search-agent-pimc)."
    )


def _cheaper_search(hearts: dict[str, Any], black_maria: dict[str, Any], cost: dict[str, Any]) -> str:
    """The cheaper pimc setting against the default, two seats each, and its share of the
    default's time a decision on the idle machine (the cost table)."""
    cheap = next(row["name"] for row in hearts["agents"] if row["name"] != "pimc")
    ratio = {row["preset"]: row["pimc_ms"] / row["cheaper_ms"] for row in cost["rows"] if row.get("cheaper")}
    parts = [
        f"{name} {pm(*pair(report, cheap, 'pimc'), plus=True)} (1/{ratio[name]:.1f} the time)"
        for name, report in (("hearts", hearts), ("black_maria", black_maria))
    ]
    return f"`{cheap}` ([cheaper](docs/positions-and-search.md#a-cheaper-search)) − pimc: {', '.join(parts)}."


def _pimc_strategy(report: dict[str, Any], setting: str) -> str:
    diff, ci = pair(report, "pimc", "strategy")
    ms = _move_time(report, "pimc")
    took = "" if ms is None else f", {ms:.1f} ms a decision (other runs sharing the machine's two cores)"
    planned = report["deals_planned"]
    asked = "" if report["deals"] == planned else f" of the {planned} asked (stopped for time)"
    return (
        f"Standard Hearts, one `pimc` ({setting}) against three `strategy` over {report['deals']} "
        f"duplicate deals{asked} x {len(report['rotations'])} seatings: pimc − strategy = "
        f"{pm(diff, ci)} points a deal{took}."
    )


def pimc_strategy(report: dict[str, Any]) -> str:
    """results/README.md and docs/positions-and-search.md: the default pimc against three strategy."""
    return _paragraph(_pimc_strategy(report, f"the default: {DEFAULT_PIMC}"))


def pimc_one_core(batched: dict[str, Any], single: dict[str, Any]) -> str:
    """docs/positions-and-search.md: the default pimc's move time on one core (100 tables and one table)."""
    return _paragraph(
        f"On one core (`OMP_NUM_THREADS=1 taskset -c 0 {batched['runs'][-1]['command']}`, the other "
        f"core busy with other work) the default `pimc` took {_move_time(batched, 'pimc'):.1f} ms a "
        f"decision batched over {batched['config']['tables']} tables, and "
        f"{_move_time(single, 'pimc'):.1f} ms with one table (`--deals {single['deals']} --tables 1`, "
        "`results/pimc/move_time_one_core_one_table.json`)."
    )


def pimc_margin0(
    report: dict[str, Any],
    matches: list[dict[str, Any]],
    one_core: dict[str, Any],
    table: dict[str, Any],
    *ppo: dict[str, Any],
) -> str:
    """results/README.md: what the earlier default (``results/pimc/margin0/``) measured."""
    against = [
        f"{label}: ppo − pimc = {pm(*pair(match, 'ppo', 'pimc'), plus=True)}"
        for label, match in zip(("hearts", "black_maria"), ppo)
    ]
    return _paragraph(
        _pimc_strategy(report, EARLIER_PIMC) + f" Against IS-MCTS(1000), two seats against two: "
        f"{_against_ismcts(matches)}. On one core: {_move_time(one_core, 'pimc'):.1f} ms a "
        f"decision. The shipped PPO agents (100 deals each): {'; '.join(against)}. With 8 worlds, better "
        f"than the family's heuristic in {table['presets_with_pimc_better']} of the "
        f"{table['presets_played']} presets (`results/pimc/margin0/presets_table.json`)."
    )


def pimc_rollouts(reports: list[dict[str, Any]]) -> str:
    """docs/positions-and-search.md: pimc's rollout players and world counts against three strategy."""
    lines = [
        "| pimc setting | deals | pimc − strategy (95% CI) | ms/decision | commit |",
        "|---|---|---|---|---|",
    ]
    for report in reports:
        name = next(row["spec"] for row in report["agents"][:2] if row["spec"].startswith("pimc"))
        label = next(row["name"] for row in report["agents"] if row["spec"] == name)
        ms = _move_time(report, label)
        run = report["runs"][-1]
        commit = run["commit"][:8] + (" (uncommitted changes)" if run.get("dirty") else "")
        ms_text = "-" if ms is None else f"{ms:.1f}"
        lines.append(
            f"| `{name}` | {report['deals']} | {pm(*pair(report, label, 'strategy'))} | {ms_text} "
            f"| {commit} |"
        )
    return "\n".join(lines) + "\n"


def pimc_ppo(*reports: dict[str, Any]) -> str:
    """results/README.md and README.md: the shipped PPO checkpoints against pimc (:data:`PPO_VS_PIMC`)."""
    lines = ["| checkpoint | deals | ppo − pimc (95% CI) | pimc ms/decision |", "|---|---|---|---|"]
    for label, report in zip(PPO_VS_PIMC.values(), reports):
        ms = _move_time(report, "pimc")
        lines.append(
            f"| {label} | {report['deals']} | {pm(*pair(report, 'ppo', 'pimc'))} | "
            f"{'-' if ms is None else f'{ms:.1f}'} |"
        )
    return "\n".join(lines) + "\n"


def pimc_presets_table(table: dict[str, Any]) -> str:
    """results/README.md: a table of ``experiments/pimc-against-heuristics/pimc_table.py``, one
    ``pimc`` seat against the family's heuristic in every preset (lower points are better in the
    Hearts family, higher in Smear)."""
    lines = [
        f"`{table['spec']}` against the family's best heuristic, one `pimc` seat, duplicate deals "
        f"(`{table['command']}`, commit `{table['commit'][:12]}`). A difference below 0 is `pimc` "
        "taking fewer points (Hearts family), above 0 its side making more (Smear).",
        "",
        "| preset | players | heuristic | deals | pimc − heuristic | 95% CI | pimc ms/decision | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in table["rows"]:
        if "deals" not in r:
            lines.append(
                f"| {r['preset']} | {r['players']} | {r['heuristic']} | - | - | - | - | {r['not_played']} |"
            )
            continue
        verdict = (
            "pimc better" if r["pimc_better"] else "heuristic better" if r["heuristic_better"] else
            "no difference shown"
        )  # fmt: skip
        ms = "-" if r["pimc_ms_per_decision"] is None else f"{r['pimc_ms_per_decision']:.1f}"
        lines.append(
            f"| {r['preset']} | {r['players']} | {r['heuristic']} | {r['deals']} "
            f"| {r['pimc_minus_heuristic']:+.3f} | ±{r['ci95']:.3f} | {ms} | {verdict} |"
        )
    lines += [
        "",
        f"pimc better (the interval excludes 0) in {table['presets_with_pimc_better']} of the "
        f"{table['presets_played']} presets played ({table['presets']} presets).",
    ]
    return "\n".join(lines) + "\n"


def pimc_margin_matches(reports: list[dict[str, Any]]) -> str:
    """results/README.md: pimc settings against strategy and IS-MCTS in standard Hearts
    (``results/pimc/margin/``): the seats each holds, the seed, the rule options."""
    lines = [
        "| pimc setting | against | seats | options | seed | deals | pimc − other (95% CI) "
        "| pimc ms/decision | commit |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        config = report["config"]
        mine, other = config["agents"][:2]
        seated = report["rotations"][0]  # the agent in each seat of the first seating
        seats = f"{seated.count(mine)} vs {len(seated) - seated.count(mine)}"
        options = ", ".join(f"{k}={v}" for k, v in config["options"].items()) or "-"
        ms = _move_time(report, mine)
        lines.append(
            f"| `{mine}` | `{other}` | {seats} | {options} | {config['seed']} | {report['deals']} "
            f"| {pm(*pair(report, mine, other), plus=True)} | {'-' if ms is None else f'{ms:.1f}'} "
            f"| {report['runs'][-1]['commit'][:8]} |"
        )
    return "\n".join(lines) + "\n"


def pimc_ismcts(matches: list[dict[str, Any]]) -> str:
    """docs/positions-and-search.md and results/README.md: the default pimc against OpenSpiel's IS-MCTS."""
    parts = [
        f"{report['deals']} duplicate deals: pimc − IS-MCTS = "
        f"{pm(*pair(report, 'pimc', 'ismcts:simulations=1000'), plus=True)} points a deal "
        f"(`{report['runs'][-1]['command'].split('  #')[0]}`)"
        for report in matches
    ]
    head = (
        f"Against OpenSpiel's IS-MCTS with 1000 simulations (OpenSpiel's rules), the default `pimc` "
        f"({DEFAULT_PIMC}), two seats against two, over "
    )
    return _paragraph(head + "; over ".join(parts) + ".")


def head_to_head(report: dict[str, Any]) -> str:
    """experiments/cheaper-search: two agents, two seats each, their points and cost per decision."""
    better = "lower" if report.get("better", "lower") == "lower" else "higher"
    ms = {row["name"]: row["ms_per_decision"] for row in report.get("move_times", [])}
    lines = [f"| agent | mean points ({better} is better) | ms/decision |", "|---|---|---|"]
    lines += [f"| `{row['name']}` | {pm(row['mean_points'], row['ci95'])} | {ms[row['name']]:.2f} |"
              for row in report["agents"]]  # fmt: skip
    a, b = (row["name"] for row in report["agents"][:2])
    lines += ["", f"`{a} − {b}` = {pm(*pair(report, a, b))} points a deal over {report['deals']} duplicate "
              f"deals; {a} costs {ms[a] / ms[b]:.2f}× {b}'s time a decision."]  # fmt: skip
    return "\n".join(lines) + "\n"


def search_cost(record: dict[str, Any]) -> str:
    """docs/positions-and-search.md: pimc's cost a decision in every preset, and the cheaper
    setting's where it plays, timed side by side in one tournament a preset."""
    cheaper = next(row["cheaper"] for row in record["rows"] if row.get("cheaper"))
    lines = [
        f"| preset | players | `pimc` ms/decision | `{cheaper}` ms/decision | `pimc` ÷ it |",
        "|---|---|---|---|---|",
    ]
    for row in record["rows"]:
        lines.append(
            f"| {row['preset']} | {row['num_players']} | {row['pimc_ms']:.1f} | "
            + (f"{row['cheaper_ms']:.1f} | {row['pimc_ms'] / row['cheaper_ms']:.1f}× |"
               if row.get("cheaper") else "- (no bit-mask rollouts) | - |")
        )  # fmt: skip
    command = record["runs"][0]["command"]
    lines += ["", f"`{command}`: {record['deals']} duplicate deals on {record['tables']} tables a preset."]
    return "\n".join(lines) + "\n"


def exploit_table(answers: list[dict[str, Any]]) -> str:
    """docs/training.md: how far a best response trained against copies of each agent beats them."""
    lines = [
        "| agent | configuration | trained | best response − agent, points a deal | taken from the agent |",
        "|---|---|---|---|---|",
    ]
    for a in sorted(answers, key=lambda a: (a["better"] != "lower", a["preset"], -a["gain"])):
        better = "lower is better" if a["better"] == "lower" else "higher is better"
        lines.append(
            f"| `{a['agent']}` | {a['preset']}, {a['num_players']} players | {a['decisions'] / 1e6:.1f}M "
            f"decisions, {a['minutes']:.0f} min | {pm(a['diff'], a['ci95'], 2, plus=True)} ({better}) | "
            f"{signed(a['gain'], 2, plus=True)} |"
        )
    return "\n".join(lines) + "\n"


def minutes_seeds(record: dict[str, Any], specialist: dict[str, Any] | None = None) -> str:
    """experiments/strength-in-minutes: fresh runs of one budget, a row a training seed. With
    ``specialist`` (a tournament record of the shipped network against the same opponent), a
    last column says whether its margin lies inside the run's interval or beyond it, on the
    better side: whether the run is at least as strong as the specialist."""
    opponent, lower = record["seeds"][0]["opponent"], record["better"] == "lower"
    head = (
        f"| seed | decisions (imitation) | decisions/s | policy − {opponent}, "
        f"points a deal ({record['better']} is better) |"
    )
    if specialist is None:
        lines = [head + " interval excludes 0 |", "|---|---|---|---|---|"]
    else:
        margin, _ = pair(specialist, "ppo", opponent)
        lines = [
            head + f" the specialist's {signed(margin, 2)} inside or beyond the interval |",
            "|---|---|---|---|---|",
        ]
    for row in record["seeds"]:
        if specialist is None:
            holds = abs(row["diff"]) > row["ci95"]
        else:  # the run's best end of its interval reaches the specialist's margin
            best = row["diff"] - row["ci95"] if lower else row["diff"] + row["ci95"]
            holds = best <= margin if lower else best >= margin
        lines.append(
            f"| {row['seed']} | {row['decisions'] / 1e6:.1f}M ({row['imitation_decisions'] / 1e6:.1f}M) | "
            f"{row['decisions_per_s']:,} | {pm(row['diff'], row['ci95'], 2, plus=True)} over "
            f"{row['deals']:,} deals | {'yes' if holds else 'no'} |"
        )
    return "\n".join(lines) + "\n"


def generations(reports: tuple[dict[str, Any], ...], base: str, *names: str) -> str:
    """experiments/expert-iteration: rows of leaderboards (checkpoints against the family's
    heuristic, a cell a preset, the same deals in every file) side by side, how many presets each
    beats the heuristic in, and where each differs from ``base`` beyond the two intervals."""
    report = reports[0]
    if any((r["deals"], r["tables"], r["seed"]) != (report["deals"], report["tables"], report["seed"])
           for r in reports):  # fmt: skip
        raise ValueError("the leaderboards were not played on the same deals")
    cells = {(c["agent"], c["preset"]): c for r in reports for c in r["cells"] if "diff" in c}
    rows = (base, *names)
    presets = list(dict.fromkeys(c["preset"] for r in reports for c in r["cells"] if c["agent"] in rows))
    better = family(make_rules(presets[0])).better  # Smear scores points made: higher is better
    lines = ["| preset | players | " + " | ".join(f"`{n}`" for n in rows) + " |",
             "|---|---|" + "---|" * len(rows)]  # fmt: skip
    for preset in presets:  # the base holds every preset; "not played" where a row has no cell
        row = [cells.get((n, preset)) for n in rows]
        shown = ["not played" if c is None else pm(c["diff"], c["ci95"], 2) for c in row]
        shown = [f"**{s}**" if c and c["verdict"] == "better" else s for s, c in zip(shown, row)]
        lines.append(f"| {preset} | {row[0]['num_players']} | " + " | ".join(shown) + " |")
    lines.append("")
    reference = report["cells"][0]["reference"]
    for n in rows:
        played = [p for p in presets if (n, p) in cells]
        beaten = sum(cells[(n, p)]["verdict"] == "better" for p in played)
        text = f"`{n}`: better than `{reference}` in {beaten} of {len(played)} presets"
        if n != base:
            apart = [(p, cells[(n, p)]["diff"] - cells[(base, p)]["diff"]) for p in played
                     if abs(cells[(n, p)]["diff"] - cells[(base, p)]["diff"])
                     > cells[(n, p)]["ci95"] + cells[(base, p)]["ci95"]]  # fmt: skip
            up = [p for p, d in apart if (d < 0) == (better == "lower")]
            down = [p for p, d in apart if p not in up]
            names = [", ".join(group) or "none" for group in (up, down)]
            text += (f"; beyond the two intervals better than `{base}` in {len(up)} ({names[0]}), "
                     f"worse in {len(down)} ({names[1]})")  # fmt: skip
        lines.append(text + ".  ")
    lines += ["", f"{report['deals']} duplicate deals a cell (one against copies of `{reference}`, every "
              f"seating), seed {report['seed']}; a cell in bold is better than `{reference}` beyond its "
              f"interval; points a deal, {better} is better."]  # fmt: skip
    return "\n".join(lines) + "\n"


def allowance(rules: Rules) -> float:
    """How far above the search's cell a Hearts-family network's may lie and still be within reach:
    0.3 points a deal, or 2% of the preset's penalty total (its family's scale) where larger."""
    return max(0.3, 0.02 * family(rules).scale_points(rules))


def within_reach(board: dict[str, Any], search: str = "pimc-8") -> str:
    """results/README.md: in a leaderboard, the shipped Hearts-family network (the ``ppo`` row's
    specialist where one ships, else ``ppo-universal``) beside ``search``, preset by preset, and
    whether it holds the networks' target: a cell within 0.3 points a deal of the search's (or 2% of
    the preset's penalty total, whichever is larger), or better."""
    cells = {(c["agent"], c["preset"], c["num_players"]): c for c in board["cells"] if "diff" in c}
    lines = [f"| preset | players | network | network − strategy | `{search}` − strategy | "
             f"network − `{search}` | allowed | within |",
             "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    held = beaten = played = 0
    for config in board["configs"]:
        preset, n = config["preset"], config["num_players"]
        if config["reference"] != "strategy":  # the Hearts family's rows (Smear's have their own figure)
            continue
        rules = make_rules(preset, num_players=n)
        name = "ppo" if ("ppo", preset, n) in cells else "ppo-universal"
        net, pimc = cells.get((name, preset, n)), cells.get((search, preset, n))
        if net is None or pimc is None:
            lines.append(f"| {preset} | {n} | `{name}` | not played | not played | | | |")
            continue
        gap = net["diff"] - pimc["diff"]  # the family's points are penalties: lower is better
        allowed = allowance(rules)
        played += 1
        held += gap <= allowed
        beaten += net["verdict"] == "better"
        shown = [pm(c["diff"], c["ci95"], 2) for c in (net, pimc)]
        shown = [f"**{t}**" if c["verdict"] == "better" else t for t, c in zip(shown, (net, pimc))]
        lines.append(f"| {preset} | {n} | `{name}` | {shown[0]} | {shown[1]} | {signed(gap, 2, plus=True)} | "
                     f"{allowed:.2f} | {'yes' if gap <= allowed else 'no'} |")  # fmt: skip
    lines += ["", f"The network: better than `strategy` in {beaten} of {played} presets; within reach of "
              f"`{search}` (a cell at most the allowed points a deal above its, or below it) in {held} of "
              f"{played}.", "", f"{board['deals']} duplicate deals a cell (one against copies of "
              f"`strategy`, every seating), seed {board['seed']}; bold: better than `strategy` beyond the "
              "interval; points a deal, lower is better; allowed: 0.3 or 2% of the preset's penalty total, "
              "whichever is larger."]  # fmt: skip
    return "\n".join(lines) + "\n"


def focused(board: dict[str, Any], *records: dict[str, Any], search: str = "pimc-8") -> str:
    """experiments/preset-focus: networks trained on one preset (tournaments of one against copies of
    ``strategy``) beside the leaderboard's shipped network and ``search`` on the same deals, each
    with its distance to the search and the allowance of :func:`within_reach`."""
    config = records[0]["config"]
    preset, n = config["preset"], config["num_players"]
    for record in records:
        c = record["config"]
        if (c["preset"], c["num_players"], c["deals"], c["tables"], c["seed"]) != (
            preset, n, board["deals"], board["tables"], board["seed"]
        ):  # fmt: skip
            raise ValueError("the tournaments were not played on the leaderboard's deals")
    here = [c for c in board["cells"] if "diff" in c and (c["preset"], c["num_players"]) == (preset, n)]
    cells = {c["agent"]: c for c in here}
    rows = [("ppo-universal (shipped)", cells["ppo-universal"]["diff"], cells["ppo-universal"]["ci95"])]
    rows += [(r["pairs"][0]["a"], r["pairs"][0]["mean_diff"], r["pairs"][0]["ci95"]) for r in records]
    rows.append((search, cells[search]["diff"], cells[search]["ci95"]))
    allowed = allowance(make_rules(preset, num_players=n))
    lines = [f"| agent | − strategy, points a deal (lower is better) | − `{search}` | within {allowed:.2f} |",
             "|---|---|---|---|"]  # fmt: skip
    for name, diff, ci in rows:
        gap = diff - rows[-1][1]
        reach = "yes" if gap <= allowed else "no"
        shown = " | " if name == search else f"{signed(gap, 2, plus=True)} | {reach}"
        lines.append(f"| `{name}` | {pm(diff, ci, 2)} | {shown} |")
    shipped = rows[0]
    ahead = [name for name, diff, ci in rows[1:-1] if diff + ci < shipped[1] - shipped[2]]
    lines += ["", f"Better than the shipped network beyond both intervals: {', '.join(ahead) or 'none'}. "
              f"{preset}, {n} players: the leaderboard's {board['deals']} duplicate deals, "
              f"seed {board['seed']}; "
              "within: at most the allowed points a deal above the search's cell (0.3 or 2% of the "
              "preset's penalty total, whichever is larger)."]  # fmt: skip
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the README's comparison
def comparison(speeds: dict[str, Any], matches: list[dict[str, Any]]) -> str:
    """README.md: hearts-env beside OpenSpiel (raw and through Shimmy), PettingZoo's classic games,
    RLCard and Hearts Gym; the speeds from one run, back to back, and pimc against IS-MCTS."""
    rows = {row["name"]: row["decisions_per_second"] for row in speeds["rows"]}
    batched, ours = rows["batched"], rows["pettingzoo"]
    spiel, shimmy = rows.get("openspiel"), rows.get("shimmy")
    lines = [
        "| | hearts-env | OpenSpiel | PettingZoo classic, RLCard | Hearts Gym |",
        "|---|---|---|---|---|",
        "| Hearts-family games | 18 presets and their readings, 3–11 players; 4 Smear games | "
        "standard Hearts with options, 4 players | none | Hearts (Morehead's rules) |",
        f"| many games a call (standard Hearts, observations, one core) | {batched / 1e6:.2f}M "
        "decisions/s, 4,096 games a call | no: one game at a time | – | no: one game at a time |",
        f"| one game from Python | {ours:,.0f} decisions/s (the PettingZoo env) | "
        + (f"{spiel:,.0f} (pyspiel's own loop); " if spiel else "")
        + (f"{shimmy:,.0f} as PettingZoo users reach it (Shimmy)¹" if shimmy else "")
        + " | – | not measured (not on a package index) |",
        "| agents to beat | heuristics from the strategy texts, `pimc` search, shipped PPO networks, "
        "IS-MCTS | generic search (IS-MCTS, MCTS) | – | rule-based baselines |",
        f"| strength, standard Hearts | `pimc` − OpenSpiel's IS-MCTS(1000) = "
        f"{_against_ismcts(matches, deals=False)} points a deal (lower is better) | | | |",
        "| RL libraries | PettingZoo, Gymnasium, SB3, RLlib, TorchRL, Tianshou | its own; PettingZoo "
        "through Shimmy | PettingZoo; RLCard's own | RLlib |",
    ]
    note = (
        "\n\nThe single-game env pays Python's price per decision, so pyspiel's C++ loop is faster one "
        "game at a time; batched, the engine is faster than either. ¹ Shimmy counts a deal's 52 dealing "
        "moves towards OpenSpiel's game length and truncates each Hearts deal after a few decisions; "
        "the rate is per decision all the same. Measured back to back: `python -m benchmarks.throughput "
        "--compare --json results/comparison.json`.\n"
    )
    return "\n".join(lines) + note


# ---------------------------------------------------------------------- the table
@dataclass(frozen=True)
class Figure:
    """A figure block's input files (paths relative to the repository, or globs: a list of their
    JSONs, in name order) and its renderer, called with one argument an input."""

    inputs: tuple[str, ...]
    render: Callable[..., str]


def _fig(render: Callable[..., str], *inputs: str) -> Figure:
    return Figure(inputs, render)


_TRAINING = "experiments/training-"  # the folders of the training settings' experiments
_BF16 = "experiments/training-precision/bf16_training/"
_LEAN = "experiments/training-network-size/lean_network/"
_PIMC = "results/pimc/"
_RATE = "results/training_rate/"
_EI = "experiments/expert-iteration/"
_LABELLER = "pimc:rollout=fast:worlds=32"  # the first generation's labelling search
_ARMS = ("696.1M-control", "693.4M-labels", "696.1M-pimc8")  # its arms: no labels, _LABELLER's, pimc-8's
FIGURES: dict[str, Figure] = {
    "comparison": _fig(comparison, "results/comparison.json", PIMC_VS_ISMCTS),
    "ladder-full": _fig(ladder_full, "results/ladder_hearts.json"),
    "ladder-short": _fig(ladder_short, "results/ladder_hearts.json", "results/strategy_vs_ismcts100.json",
                         "results/strategy_vs_ismcts1000.json", "results/presets/*[0-9].json"),
    "ismcts": _fig(ismcts_table, "results/strategy_vs_ismcts100.json", "results/strategy_vs_ismcts1000.json"),
    "presets": _fig(presets_table, *_preset_files(_FIRST_PRESETS)),
    "presets-rest": _fig(presets_table, *_preset_files(_REST),
                         *(f"results/presets/partnership_hearts_{v}_4.json" for v in "ABC")),
    "partnership-teams": _fig(partnership_teams, *(f"results/presets/partnership_hearts_{v}.json"
                                                   for v in ("A_4", "A_4_games", "B_4", "C_4"))),
    "ppo-hearts-short": _fig(ppo_hearts_short, "results/ppo_vs_strategy_hearts.json"),
    "ppo-ismcts-short": _fig(ppo_ismcts_short, "results/ppo_vs_ismcts1000.json"),
    "ppo-table": _fig(ppo_table, "results/ppo_vs_strategy_hearts.json", "results/ppo_vs_ismcts1000.json"),
    "black-maria": _fig(black_maria, "results/ppo_vs_strategy_black_maria.json"),
    "training-variants": _fig(training_variants, f"{_BF16}bf16_vs_shipped.json",
                              f"{_BF16}fp32_vs_shipped.json", f"{_LEAN}h128_vs_shipped.json"),
    "training-throughput": _fig(training_throughput, *(f"{_RATE}{n}.json" for n in ("before", "after",
                                                                                    "hidden128"))),
    "training-throughput-machines": _fig(training_throughput_machines,
                                         *(_RATE + n for names, _ in RATE_MACHINES for n in names)),
    # settings over training seeds (tools.training_seeds): the same budget, or the same time
    "training-seeds": _fig(seeds_table, f"{_TRAINING}observation-format/formats.json"),
    "training-seeds-time": _fig(seeds_table, f"{_TRAINING}update-epochs/epochs_equal_time.json"),
    "training-seeds-hidden": _fig(seeds_table, f"{_TRAINING}network-size/hidden128.json"),
    "training-seeds-hidden-time": _fig(seeds_table, f"{_TRAINING}network-size/hidden128_equal_time.json"),
    "training-seeds-bf16": _fig(seeds_table, f"{_TRAINING}precision/bf16.json"),
    "training-seeds-bf16-time": _fig(seeds_table, f"{_TRAINING}precision/bf16_equal_time.json"),
    "training-seeds-games": _fig(seeds_table, f"{_TRAINING}batch-shape/games2048.json"),
    "training-seeds-overlap": _fig(seeds_table, f"{_TRAINING}overlap/overlap.json"),
    "training-seeds-fast": _fig(seeds_table, f"{_TRAINING}update-epochs/fast_epochs1.json"),
    "training-seeds-bf16-overlap": _fig(seeds_table, f"{_TRAINING}overlap/bf16_overlap.json"),
    "smear-table": _fig(smear_table, "results/smear/*.json"),
    "smear-ppo": _fig(smear_ppo, "results/smear/ppo-vs-smear-4.json"),
    "pimc-hearts": _fig(pimc_hearts, f"{_PIMC}pimc_vs_strategy_hearts.json",
                        f"{_PIMC}move_time_one_core.json", f"{_PIMC}presets_margin1_table.json",
                        "results/pimc/cheaper/hearts-fast32.json",
                        "results/pimc/cheaper/black_maria-3-fast32.json",
                        "results/pimc/cheaper/cost_table.json",
                        PIMC_VS_ISMCTS, *PPO_VS_PIMC_FILES),
    "pimc-strategy": _fig(pimc_strategy, f"{_PIMC}pimc_vs_strategy_hearts.json"),
    "pimc-presets": _fig(pimc_presets_table, f"{_PIMC}margin0/presets_table.json"),
    "pimc-margin0": _fig(pimc_margin0, *(f"{_PIMC}margin0/{n}.json" for n in (
        "pimc_vs_strategy_hearts", "pimc_vs_ismcts1000*", "move_time_one_core", "presets_table",
        "ppo_vs_pimc_hearts", "ppo_vs_pimc_black_maria"))),
    "pimc-one-core": _fig(pimc_one_core, f"{_PIMC}move_time_one_core.json",
                          f"{_PIMC}move_time_one_core_one_table.json"),
    "pimc-presets-margin1": _fig(pimc_presets_table, f"{_PIMC}presets_margin1_table.json"),
    "pimc-margin-matches": _fig(pimc_margin_matches, f"{_PIMC}margin/*.json"),
    "pimc-rollouts": _fig(pimc_rollouts, f"{_PIMC}rollouts/*.json"),
    "pimc-ppo": _fig(pimc_ppo, *PPO_VS_PIMC_FILES),
    "pimc-ismcts": _fig(pimc_ismcts, PIMC_VS_ISMCTS),
    "throughput-presets": _fig(throughput_presets, "results/throughput.json"),
    "throughput-formats": _fig(throughput_formats, "results/throughput_formats.json"),
    "throughput-before-after": _fig(throughput_before_after, "results/throughput_before_after.json"),
    "throughput-house": _fig(throughput_house, *(f"results/{n}" for n in HOUSE + HOUSE_INTERLEAVED)),
    "throughput-second-reading": _fig(throughput_second_reading, "results/throughput_second_reading.json"),
    "cheaper-search-hearts": _fig(head_to_head, "experiments/cheaper-search/hearts-w16-w8.json"),
    "cheaper-search-horizon-hearts": _fig(head_to_head, "results/pimc/cheaper/hearts-horizon2.json"),
    "cheaper-search-fast-hearts": _fig(head_to_head, "results/pimc/cheaper/hearts-fast32.json"),
    "cheaper-search-fast-black-maria": _fig(head_to_head, "results/pimc/cheaper/black_maria-3-fast32.json"),
    "pimc-cost": _fig(search_cost, "results/pimc/cheaper/cost_table.json"),
    "exploit": _fig(exploit_table, "results/exploit/*.json"),
    "five-minutes": _fig(minutes_seeds, "experiments/strength-in-minutes/five_minutes.json"),
    "five-minutes-h128": _fig(minutes_seeds, "experiments/strength-in-minutes/five_minutes_h128.json"),
    "fifteen-minutes-h128": _fig(minutes_seeds, "experiments/strength-in-minutes/fifteen_minutes_h128.json"),
    "five-minutes-h128-bf16": _fig(minutes_seeds,
                                   "experiments/strength-in-minutes/five_minutes_h128_bf16.json"),
    "hearts-network-pimc": _fig(within_reach, "docs/leaderboard.json"),
    "ppo-pimc-hearts-1000": _fig(head_to_head, "results/pimc/ppo_vs_pimc_hearts_1000.json"),
    "smear-network-pimc": _fig(lambda *r: generations(r, "134.7M", "pimc-8"),
                               "results/universal/progress_smear.json", "results/universal/pimc_smear.json"),
    "five-minutes-defaults": _fig(minutes_seeds,
                                  "experiments/strength-in-minutes/five_minutes_defaults.json"),
    "fifteen-minutes-h128-bf16": _fig(minutes_seeds,
                                      "experiments/strength-in-minutes/fifteen_minutes_h128_bf16.json"),
    "preset-focus-spot": _fig(focused, "docs/leaderboard.json", "experiments/preset-focus/spot-25.json",
                              "experiments/preset-focus/spot-50.json"),
    "preset-focus-greek": _fig(focused, "docs/leaderboard.json", "experiments/preset-focus/greek.json"),
    "fifteen-minutes-anneal": _fig(minutes_seeds,
                                   "experiments/strength-in-minutes/fifteen_minutes_anneal.json",
                                   "results/ppo_vs_strategy_hearts.json"),
    "expert-iteration-g1": _fig(lambda *r: generations(r, "653.8M-bjmoon", *_ARMS),
                                "results/universal/progress_hearts.json",
                                *(f"{_EI}generation1-{arm.partition('-')[2]}.json" for arm in _ARMS)),
    "expert-iteration-labeller": _fig(lambda *r: generations(r, "653.8M-bjmoon", _LABELLER),
                                      "results/universal/progress_hearts.json", f"{_EI}labeller-a.json",
                                      f"{_EI}labeller-b.json"),
}  # fmt: skip
"""Every figure block: NAME -> its input files and its renderer."""


def render_figure(name: str) -> str:
    """The block ``name`` rendered from its files."""
    figure = FIGURES[name]
    return figure.render(*(read(pattern) for pattern in figure.inputs))


def inputs() -> list[Path]:
    """Every file a figure reads (each once, in name order)."""
    return sorted({p for figure in FIGURES.values() for pattern in figure.inputs for p in expand(pattern)})


# ---------------------------------------------------------------------- the documents
def blocks(text: str) -> list[tuple[str, str]]:
    """The (name, body) of each figure block of ``text``."""
    return [(m.group("name"), m.group("body")) for m in _BLOCK.finditer(text)]


def render(text: str) -> str:
    """``text`` with every block's body rendered from its files."""
    return _BLOCK.sub(lambda m: m.group(1) + render_figure(m.group("name")) + m.group(4), text)


def outside_blocks(text: str) -> str:
    """The text of a document less its figure blocks (where no measured number may stand)."""
    return _BLOCK.sub("", text)


def stale(path: Path) -> list[str]:
    """Names of the blocks of the document ``path`` that differ from their rendering."""
    text = path.read_text(encoding="utf-8")
    return [name for name, body in blocks(text) if render_figure(name) != body]


# ---------------------------------------------------------------------- the charts
CHART_RENDERERS = {
    "tournament": "evaluation.report.write_png",
    "leaderboard": "evaluation.leaderboard.write_png",
}
"""The renderers of the committed charts, by the kind of JSON they draw."""

OTHER_CHARTS = {
    "results/universal/*_curves.png": "experiments/universal-progress/universal_progress.py",
    "docs/replay.png": "a browser's screenshot of hearts-env replay's page (the command: docs/replay.md)",
}
"""The committed PNGs under results/ and docs/ that :data:`CHART_RENDERERS` do not draw, and what
does (each pattern relative to the repository)."""


def _chart_kind(source: Path) -> str:
    """Which of :data:`CHART_RENDERERS` draws the JSON ``source``: a leaderboard's or a tournament's."""
    content = _load(source)
    if isinstance(content, dict) and str(content.get("format", "")).startswith("hearts-env-leaderboard/"):
        return "leaderboard"
    if isinstance(content, dict) and "pairs" in content and "agents" in content:
        return "tournament"
    raise ValueError(f"{source} must be a tournament report or a leaderboard JSON to be drawn")


def charts() -> dict[Path, tuple[Path, str]]:
    """Every committed chart the renderers draw: PNG -> (the JSON it is drawn from, the name of its
    renderer in :data:`CHART_RENDERERS`). The leaderboard's heatmap is ``docs/_static/leaderboard.png``
    of ``docs/leaderboard.json``; under results/, a PNG beside a JSON of its name is that JSON's."""
    table = {ROOT / "docs" / "_static" / "leaderboard.png": ROOT / "docs" / "leaderboard.json"}
    table |= {png: png.with_suffix(".json") for png in sorted(RESULTS.rglob("*.png"))}
    return {png: (source, _chart_kind(source)) for png, source in table.items() if source.exists()}


def render_chart(png: Path, out: Path | None = None) -> None:
    """Draw the committed chart ``png`` again from its JSON with today's renderer, to ``out``
    (default: over ``png``). No tournament is played: the numbers are the file's."""
    from importlib import import_module  # the renderers need matplotlib: only this imports them

    source, kind = charts()[png]
    module, name = CHART_RENDERERS[kind].rsplit(".", 1)
    getattr(import_module(module), name)(_load(source), out or png)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the blocks from the files")
    parser.add_argument(
        "--charts", action="store_true", help="draw every committed chart (charts()) again from its JSON"
    )
    args = parser.parse_args(argv)
    if args.charts:
        for png in charts():
            render_chart(png)
            print(f"drew {png.relative_to(ROOT)}")
        return 0
    status = 0
    for path in DOCUMENTS:
        if args.write:
            text = path.read_text(encoding="utf-8")
            write_atomic(path, render(text))
            print(f"wrote {len(blocks(text))} blocks of {path.relative_to(ROOT)}")
            continue
        names = stale(path)
        print(f"{path.relative_to(ROOT)}: " + (f"stale blocks {', '.join(names)}" if names else "up to date"))
        status |= bool(names)
    return status


if __name__ == "__main__":
    sys.exit(main())
