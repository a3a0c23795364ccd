"""The figures README.md, results/README.md and docs/*.md quote, rendered from the JSON files in results/.

Every table or sentence of measured numbers in those documents sits between two markers,
``<!-- figure: NAME -->`` and ``<!-- /figure -->``, and :data:`FIGURES` renders NAME from the
files it reads, so a number in a document is always the one in its file::

    python -m tools.figures            # which blocks differ from their files (exit 1 if any)
    python -m tools.figures --write    # rewrite the blocks from the files
    python -m tools.figures --charts   # draw the committed charts again from their JSON (charts())

``tests/test_figures.py`` checks that every block equals its rendering, that no measured number
(``a ± b``, decisions per second) stands outside a block, and that every file a block reads
records the commands, commits and dates of the runs that wrote it.
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
from functools import cache, partial
from pathlib import Path
from typing import Any

from benchmarks.throughput import SPEED_FLAGS
from hearts_env.files import write_atomic

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
"""Every document whose measured numbers must come from results/: the README, results/README.md,
the docs pages (a docs page may hold no figure block at all) and each experiment's README."""
MINUS = "−"  # the typeset minus sign of the prose and of the README's tables

_BLOCK = re.compile(r"(<!-- figure: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /figure -->)", re.S)

# ---------------------------------------------------------------------- reading the files
READ: set[Path] = set()
"""Every file a rendering has read (the provenance test checks each)."""


@cache
def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def load(name: str) -> Any:
    """The JSON file ``results/<name>``."""
    path = RESULTS / name
    READ.add(path)
    return _load(path)


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
def _ladder_names() -> list[str]:
    return [row["name"] for row in load("ladder_hearts.json")["agents"]]


def ladder_full() -> str:
    """results/README.md: the ladder table and its adjacent differences."""
    report = load("ladder_hearts.json")
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
    names = _ladder_names()
    gaps = "; ".join(f"{a} − {b} {pm(*pair(report, a, b))}" for a, b in zip(names, names[1:]))
    return "\n".join(lines) + f"\n\nAdjacent differences (per deal, 95% CI): {gaps}.\n"


def _strategy_beats_random() -> tuple[int, int]:
    """(configurations where strategy − random is below 0 with its whole interval, all of them)."""
    files = [
        p
        for p in sorted((RESULTS / "presets").glob("*.json"))
        if p.stem.count("_") and "_games" not in p.stem
    ]
    wins = 0
    for path in files:
        diff, ci = pair(load(str(path.relative_to(RESULTS))), "strategy", "random")
        wins += diff + ci < 0
    return wins, len(files)


def ladder_short() -> str:
    """README.md: the ladder, the IS-MCTS matches and strategy against random everywhere."""
    report = load("ladder_hearts.json")
    lines = ["| standard Hearts, 4000 duplicate deals | mean deal points (95% CI; lower is better) |"]
    lines.append("|---|---|")
    lines += [f"| {row['name']} | {row['mean_points']:.3f} ± {row['ci95']:.3f} |" for row in report["agents"]]
    names = _ladder_names()
    gaps = ", ".join(f"{a} − {b} {pm(*pair(report, a, b))}" for a, b in zip(names, names[1:]))
    m100 = pair(load("strategy_vs_ismcts100.json"), "strategy", "ismcts:simulations=100")
    m1000 = pair(load("strategy_vs_ismcts1000.json"), "strategy", "ismcts:simulations=1000")
    wins, configs = _strategy_beats_random()
    everywhere = f"all {configs}" if wins == configs else f"{wins} of {configs}"
    return "\n".join(lines) + (
        f"\n\nAdjacent gaps: {gaps}. Against OpenSpiel's IS-MCTS over 1000 duplicate deals (OpenSpiel's "
        "rules, `--option hearts_break=heart_or_queen --agents strategy,ismcts:simulations=100`): "
        f"strategy − IS-MCTS(100 simulations) {pm(*m100)} points a deal, strategy − IS-MCTS(1000 "
        f"simulations) {pm(*m1000)}. `strategy` beats `random` (the whole 95% interval below 0) in "
        f"{everywhere} configurations of the Hearts family (`results/presets/`). Exact commands and "
        "full tables: [`results/README.md`](results/README.md).\n"
    )


def ismcts_table() -> str:
    """results/README.md: strategy against IS-MCTS."""
    lines = [
        "| opponent | deals | strategy | IS-MCTS | strategy − IS-MCTS (95% CI) | time |",
        "|---|---|---|---|---|---|",
    ]
    for sims in (100, 1000):
        report = load(f"strategy_vs_ismcts{sims}.json")
        bot = f"ismcts:simulations={sims}"
        s, i = agent(report, "strategy"), agent(report, bot)
        lines.append(
            f"| IS-MCTS, {sims} simulations | {report['deals']} | {pm(s['mean_points'], s['ci95'])} | "
            f"{pm(i['mean_points'], i['ci95'])} | {pm(*pair(report, 'strategy', bot))} | "
            f"{report['elapsed_s']:.0f} s |"
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- every preset
def _preset_row(path: str, label: str, players: Any) -> str:
    report = load(path)
    s, r = agent(report, "strategy"), agent(report, "random")
    diff, ci = pair(report, "strategy", "random")
    illegal = s["illegal"] + r["illegal"]
    return (
        f"| {label} | {players} | {s['mean_points']:.2f} | {r['mean_points']:.2f} | "
        f"{pm(diff, ci, 2, minus='-')} | {illegal} |"
    )


_PRESET_HEADER = [
    "| preset | players | strategy | random | strategy − random (95% CI) | illegal |",
    "|---|---|---|---|---|---|",
]
_FIRST_PRESETS = (
    "hearts", "black_lady_foster", "black_lady_culbertson", "black_maria", "omnibus", "spot_hearts",
    "pink_lady", "black_jack", "greek_hearts", "royal_hearts", "hearts_1887",
)  # fmt: skip
_REST = (
    "chasse_coeur",
    "auction_hearts",
    "joker_hearts",
    "heartsette",
    "domino_hearts",
    "cancellation_hearts",
)


def _preset_rows(presets: tuple[str, ...]) -> list[str]:
    from hearts_env.presets import PRESETS

    return [
        _preset_row(f"presets/{name}_{n}.json", name, n) for name in presets for n in PRESETS[name].counts
    ]


def presets_table() -> str:
    """results/README.md: strategy against random in the first presets, every player count."""
    return "\n".join(_PRESET_HEADER + _preset_rows(_FIRST_PRESETS)) + "\n"


def presets_rest_table() -> str:
    """results/README.md: the presets with decisions, jokers, widows, stocks, two decks, teams."""
    rows = _preset_rows(_REST)
    rows += [
        _preset_row(f"presets/partnership_hearts_{v}_4.json", f"partnership_hearts {v}", 4) for v in "ABC"
    ]
    return "\n".join(_PRESET_HEADER + rows) + "\n"


def partnership_teams() -> str:
    """results/README.md: the partnership games' team rows and Partnership C's slam pairs."""
    lines = [
        "| version | strategy+strategy | random+random | difference (95% CI; lower is better) "
        "| team game win rate (games) |",
        "|---|---|---|---|---|",
    ]
    for label, path in (
        ("A", "presets/partnership_hearts_A_4.json"),
        ("A, 10 tables of 30 deals (`_games`)", "presets/partnership_hearts_A_4_games.json"),
        ("B", "presets/partnership_hearts_B_4.json"),
    ):
        report = load(path)
        teams = {row["name"]: row for row in report["teams"]}
        s, r = teams["strategy+strategy"], teams["random+random"]
        diff = next(row for row in report["team_pairs"] if {row["a"], row["b"]} == set(teams))
        sign = 1 if diff["a"] == "strategy+strategy" else -1
        games = f"{percent(s['win_rate'])} ({s['games']})" if s["games"] else "no game ended"
        lines.append(
            f"| {label} | {s['mean_points']:.2f} | {r['mean_points']:.2f} | "
            f"{pm(sign * diff['mean_diff'], diff['ci95'], 2, minus='-')} | {games} |"
        )
    slam = {row["name"]: row for row in load("presets/partnership_hearts_C_4.json")["slam"]}
    s, r = slam["strategy"], slam["random"]
    return "\n".join(lines) + (
        f"\n\nPartnership C's `slam` section: random bid {r['bids']} slams, strategy {s['bids']}; strategy "
        f"sat in {s['paired']} slam pairs and scored {s['mean_paired_points']:.2f} a deal in them, random "
        f"{r['mean_paired_points']:.2f} in its {r['paired']}.\n"
    )


# ---------------------------------------------------------------------- PPO
def ppo_hearts_short() -> str:
    """README.md: the shipped Hearts agent against three copies of strategy."""
    report = load("ppo_vs_strategy_hearts.json")
    p, s = agent(report, "ppo"), agent(report, "strategy")
    return (
        "| agent | mean deal points (95% CI; lower is better) | game win rate |\n|---|---|---|\n"
        f"| ppo (shipped) | {p['mean_points']:.3f} ± {p['ci95']:.3f} | {percent(p['win_rate'])} |\n"
        f"| strategy | {s['mean_points']:.3f} ± {s['ci95']:.3f} | {percent(s['win_rate'])} |\n\n"
        f"ppo − strategy = {pm(*pair(report, 'ppo', 'strategy'))} points per deal.\n"
    )


def _ppo_ismcts(path: str) -> tuple[dict, dict, tuple[float, float], dict]:
    report = load(path)
    bot = next(row["name"] for row in report["agents"] if row["name"].startswith("ismcts"))
    return agent(report, "ppo"), agent(report, bot), pair(report, "ppo", bot), report


def ppo_ismcts_short() -> str:
    """README.md: the shipped PPO agent against IS-MCTS."""
    *_, diff, report = _ppo_ismcts("ppo_vs_ismcts1000.json")
    return (
        "Against OpenSpiel's IS-MCTS with 1,000 simulations (OpenSpiel's rules, seating ppo, ismcts, ppo,\n"
        f"ismcts and its rotation), over {report['deals']:,} duplicate deals "
        "(`results/ppo_vs_ismcts1000.json`, command in\n"
        f"`results/README.md`): ppo − IS-MCTS = {pm(*diff)} points per deal.\n"
    )


def ppo_table() -> str:
    """results/README.md: the shipped PPO agent's matches."""
    lines = [
        "| match | deals | ppo | opponent | ppo − opponent (95% CI) | time |",
        "|---|---|---|---|---|---|",
    ]
    report = load("ppo_vs_strategy_hearts.json")
    p, s = agent(report, "ppo"), agent(report, "strategy")
    lines.append(
        f"| vs 3 x strategy (standard rules), shipped 80-minute checkpoint | {report['deals']} | "
        f"{pm(p['mean_points'], p['ci95'])} | {pm(s['mean_points'], s['ci95'])} | "
        f"{pm(*pair(report, 'ppo', 'strategy'))} | {report['elapsed_s']:.0f} s |"
    )
    p, i, diff, report = _ppo_ismcts("ppo_vs_ismcts1000.json")
    lines.append(
        "| vs IS-MCTS, 1000 simulations (OpenSpiel's rules), shipped 80-minute checkpoint | "
        f"{report['deals']} | "
        f"{pm(p['mean_points'], p['ci95'])} | {pm(i['mean_points'], i['ci95'])} | {pm(*diff)} | "
        f"{report['elapsed_s']:.0f} s |"
    )
    return "\n".join(lines) + "\n"


def black_maria() -> str:
    """Both documents: the shipped Black Maria agent against two copies of strategy."""
    report = load("ppo_vs_strategy_black_maria.json")
    p, s = agent(report, "ppo"), agent(report, "strategy")
    return (
        f"Black Maria, 3 players, {report['deals']} duplicate deals x {len(report['rotations'])} seatings: "
        f"ppo {pm(p['mean_points'], p['ci95'])}, strategy {pm(s['mean_points'], s['ci95'])}; "
        f"ppo − strategy = {pm(*pair(report, 'ppo', 'strategy'))} points per deal.\n"
    )


def training_variants() -> str:
    """README.md: the bfloat16 and lean-network runs against the shipped checkpoint."""
    bf16 = load("bf16_training/bf16_vs_shipped.json")
    fp32 = load("bf16_training/fp32_vs_shipped.json")
    lean = load("lean_network/h128_vs_shipped.json")
    bf = pair(bf16, "ppo:checkpoint=results/bf16_training/hearts-4p-bf16.pt", "ppo")
    fp = pair(fp32, "ppo:checkpoint=results/bf16_training/hearts-4p-fp32.pt", "ppo")
    h128 = pair(lean, "ppo:checkpoint=results/lean_network/hearts-4p-h128.pt", "ppo")
    return (
        "Trained for the shipped run's budget (one training run each), the bfloat16 agent ended weaker than\n"
        f"the shipped checkpoint ({pm(*bf, plus=True)} points a deal over {bf16['deals']:,} duplicate deals) "
        f"while a float32 run with the same budget matched it ({pm(*fp, plus=True)}), so float32 stays "
        "the default\n"
        "(`results/bf16_training/README.md`). A leaner network (128x128), trained for the same budget,\n"
        f"ended weaker too: {pm(*h128, plus=True)} points a deal against the shipped one over "
        f"{lean['deals']:,} deals (`results/lean_network/README.md`).\n"
    )


def _rate_rows(report: dict[str, Any]) -> dict[str, float]:
    """A training_rate file's decisions per second by setting."""
    return {row["settings"]: row["decisions_per_s"] for row in report["rows"]}


TRAINING_TARGET = 100_000.0
"""Decisions per second the default training should reach with ``--threads 2`` (issue 22)."""


def training_throughput() -> str:
    """docs/training.md: the training rate before and after, on one machine and day."""
    before, after = load("training_rate/before.json"), load("training_rate/after.json")
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
    lean = load("training_rate/hidden128.json")  # the leaner network, a run of its own that day
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
    (("training_rate/after.json", "training_rate/hidden128.json"), "AMD EPYC, AVX2"),
    (("training_rate/avx512.json",), "AMD EPYC, AVX-512 + AVX512-BF16"),
    (("training_rate/amx.json",), ""),
    (("training_rate/amx_games.json",), ""),
    (("training_rate/h200.json", "training_rate/h200_games.json"), ""),
    (("training_rate/overlap.json",), ""),
    (("training_rate/bf16_copy_before.json",), ""),
    (("training_rate/bf16_copy_after.json",), ""),
)
"""The training-rate files of each machine the project measured on (one column: a machine and a
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


def training_throughput_machines() -> str:
    """docs/training.md: the same training-rate benchmark on each machine the project ran on."""
    columns = [([load(name) for name in names], fallback) for names, fallback in RATE_MACHINES]
    rates = [{k: v for report in reports for k, v in _rate_rows(report).items()} for reports, _ in columns]
    names = [_cpu_name(reports[0], fallback) for reports, fallback in columns]
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
    runs = [[run for report in reports for run in report["runs"][:1]] for reports, _ in columns]
    for label, key, width in (("commit", "commit", 7), ("date", "date", 10)):
        cells = [", ".join(dict.fromkeys(r[key][:width] for r in rs)) for rs in runs]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    minibatch = []
    for reports, _ in columns:
        parts = {p["precision"]: p["minibatch_ms"] for p in reports[0]["breakdown"]["precisions"]}
        cell = " / ".join(f"{parts[p]:.1f}" for p in ("float32", "bfloat16") if p in parts)
        minibatch.append(cell + (" (on the CPU)" if reports[0].get("accelerator") else ""))
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


def _seeds_table(name: str) -> str:
    """A :mod:`tools.training_seeds` file as a table: each arm's seeds, mean and gap."""
    report = load(name)
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
def _smear_row(path: Path) -> str:
    report = load(str(path.relative_to(RESULTS)))
    first = report["pairs"][0]
    a, b = (first["a"], first["b"]) if first["a"] != "random" else (first["b"], first["a"])
    diff, ci = pair(report, a, b)
    teams = {t["name"]: t for t in report.get("teams", [])}
    win = next((t["win_rate"] for name, t in teams.items() if name.split("+")[0] == a), None)
    return (
        f"| `{report['preset']}` | {report['num_players']} | {report['deals']} | {a} − {b} | "
        f"{pm(diff, ci, 2, plus=True)} | {percent(win)} |"
    )


def smear_table() -> str:
    """README.md: Smear's tournaments (results/smear/*.json), PPO first."""
    lines = [
        "| preset | players | deals | pair | points per deal (a − b, 95% CI; higher is better) "
        "| a's side game wins |",
        "|---|---|---|---|---|---|",
    ]
    return "\n".join(lines + [_smear_row(p) for p in sorted((RESULTS / "smear").glob("*.json"))]) + "\n"


def smear_ppo() -> str:
    """README.md: the shipped Smear agent against a smear pair."""
    report = load("smear/ppo-vs-smear-4.json")
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


def _throughput_block(name: str, keep: Callable[[dict], bool], targets: bool) -> str:
    """A throughput file as the benchmark printed it: the command, numpy's version and the date,
    the table of the rows ``keep`` selects and, with ``targets``, the target lines of all rows."""
    from benchmarks.throughput import Row, check_targets, rows_of, table_text

    data = load(name)
    rows = [Row(**{"format": "yes", **row}) for row in rows_of(data)]  # no format: before formats
    shown = [r for r in rows if keep(r.__dict__)]
    lines = [f"$ {data['command']}", f"{'':20}# numpy {data['numpy']}, {_date(data)}", table_text(shown)]
    if targets:
        lines.append(check_targets(rows)[1])
    return "```\n" + "\n".join(lines) + "\n```\n"


def throughput_presets() -> str:
    """README.md: ``results/throughput.json``, every row."""
    return _throughput_block("throughput.json", lambda r: True, targets=False)


def throughput_formats() -> str:
    """README.md: ``results/throughput_formats.json``, the B=4096 and OpenSpiel rows and the targets."""
    return _throughput_block(
        "throughput_formats.json", lambda r: r["batch"] == 4096 or r["name"] == "openspiel", targets=True
    )


def throughput_before_after() -> str:
    """results/README.md: the medians of ``results/throughput_before_after.json`` (the Hearts-family
    presets against the standard-Hearts engine before them)."""
    data = load("throughput_before_after.json")
    before, after = (v for k, v in data.items() if isinstance(v, dict) and "median_obs" in v)
    change = after["median_no_obs"] / before["median_no_obs"] - 1
    return _paragraph(
        f"Side by side, {len(before['no_obs'])} alternated runs of each "
        "(`results/throughput_before_after.json`, "
        f"B=4,096 standard Hearts, median, {_date(data)}): {before['median_no_obs'] / 1e6:.2f}M/s before and "
        f"{after['median_no_obs'] / 1e6:.2f}M/s after without observations ({signed(100 * change, 1)}%), "
        f"{before['median_obs'] / 1e6:.2f}M/s and {after['median_obs'] / 1e6:.2f}M/s with them."
    )


def throughput_second_reading() -> str:
    """results/README.md: Royal Hearts' moon choice against the commit before it
    (``results/throughput_second_reading.json``, :mod:`tools.before_after`)."""
    data = load("throughput_second_reading.json")
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


def throughput_house() -> str:
    """results/README.md: make bench's B=4096 rows of the trick-taking core against the
    commit before it (``results/throughput_house*.json``, ``before_after --bench``)."""
    lines = []
    for name in ("throughput_house.json", "throughput_house_batched15.json"):
        data = load(name)
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
    for name in ("throughput_house_interleaved.json", "throughput_house_interleaved_2proc.json"):
        lines += _interleaved_rows(name)
    return "\n".join(lines) + "\n"


def _interleaved_rows(name: str) -> list[str]:
    """The table of one :mod:`tools.interleaved` file."""
    data = load(name)
    lines = [
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
    return [*lines, ""]


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


def _ismcts_matches(folder: str) -> list[dict[str, Any]]:
    """pimc's matches against IS-MCTS(1000) in ``results/<folder>``, by file name."""
    return [load(f"{folder}/{p.name}") for p in sorted((RESULTS / folder).glob("pimc_vs_ismcts1000*.json"))]


def _against_ismcts(matches: list[dict[str, Any]], deals: bool = True) -> str:
    return ", ".join(
        pm(*pair(m, "pimc", "ismcts:simulations=1000"), plus=True)
        + (f" ({m['deals']} deals)" if deals else "")
        for m in matches
    )


def pimc_hearts() -> str:
    """README.md: the default pimc against three strategy, every preset's heuristic, IS-MCTS and
    the shipped PPO agent; the earlier default's numbers."""
    report = load("pimc/pimc_vs_strategy_hearts.json")
    diff, ci = pair(report, "pimc", "strategy")
    one_core = _move_time(load("pimc/move_time_one_core.json"), "pimc")
    took = f" ({one_core:.1f} ms a decision on one core)"
    table = load("pimc/presets_margin1_table.json")
    earlier = load("pimc/margin0/pimc_vs_strategy_hearts.json")
    ppo = ", ".join(
        f"{'(points made) ' if name.startswith('smear') else ''}{name} "
        f"{pm(*pair(load(f'pimc/ppo_vs_pimc_{name}.json'), 'ppo', 'pimc'), plus=True)}"
        for name in PPO_VS_PIMC
    )
    return _paragraph(
        f"Standard Hearts, one `pimc` (the default: {DEFAULT_PIMC}) against three `strategy`, "
        f"{report['deals']} duplicate deals: pimc − strategy = {pm(diff, ci)} points a deal{took}. "
        f"Two against two IS-MCTS(1000), OpenSpiel's rules: pimc − IS-MCTS = "
        f"{_against_ismcts(_ismcts_matches('pimc'))}. With 8 worlds: better than the family's "
        f"heuristic in {table['presets_with_pimc_better']} of {table['presets_played']} presets. The "
        f"shipped PPO agents against it (ppo − pimc, 100 deals; points taken) {ppo}. The earlier "
        f"default (margin 0, `strategy` rollouts): {pm(*pair(earlier, 'pimc', 'strategy'))} against "
        f"`strategy`. Commands: [results](results/README.md#the-search-agent-pimc)."
    )


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


def pimc_strategy() -> str:
    """results/README.md and docs/positions-and-search.md: the default pimc against three strategy."""
    return _paragraph(
        _pimc_strategy(load("pimc/pimc_vs_strategy_hearts.json"), f"the default: {DEFAULT_PIMC}")
    )


def pimc_one_core() -> str:
    """docs/positions-and-search.md: the default pimc's move time on one core (100 tables and one table)."""
    batched, single = load("pimc/move_time_one_core.json"), load("pimc/move_time_one_core_one_table.json")
    return _paragraph(
        f"On one core (`OMP_NUM_THREADS=1 taskset -c 0 {batched['runs'][-1]['command']}`, the other "
        f"core busy with other work) the default `pimc` took {_move_time(batched, 'pimc'):.1f} ms a "
        f"decision batched over {batched['config']['tables']} tables, and "
        f"{_move_time(single, 'pimc'):.1f} ms with one table (`--deals {single['deals']} --tables 1`, "
        "`results/pimc/move_time_one_core_one_table.json`)."
    )


def pimc_margin0() -> str:
    """results/README.md: what the earlier default (``results/pimc/margin0/``) measured."""
    ppo = [
        f"{label}: ppo − pimc = {pm(*pair(load(f'pimc/margin0/{name}.json'), 'ppo', 'pimc'), plus=True)}"
        for name, label in (("ppo_vs_pimc_hearts", "hearts"), ("ppo_vs_pimc_black_maria", "black_maria"))
    ]
    one_core = _move_time(load("pimc/margin0/move_time_one_core.json"), "pimc")
    table = load("pimc/margin0/presets_table.json")
    return _paragraph(
        _pimc_strategy(load("pimc/margin0/pimc_vs_strategy_hearts.json"), EARLIER_PIMC)
        + f" Against IS-MCTS(1000), two seats against two: "
        f"{_against_ismcts(_ismcts_matches('pimc/margin0'))}. On one core: {one_core:.1f} ms a "
        f"decision. The shipped PPO agents (100 deals each): {'; '.join(ppo)}. With 8 worlds, better "
        f"than the family's heuristic in {table['presets_with_pimc_better']} of the "
        f"{table['presets_played']} presets (`results/pimc/margin0/presets_table.json`)."
    )


def pimc_rollouts() -> str:
    """docs/positions-and-search.md: pimc's rollout players and world counts against three strategy."""
    lines = [
        "| pimc setting | deals | pimc − strategy (95% CI) | ms/decision | commit |",
        "|---|---|---|---|---|",
    ]
    for path in sorted((RESULTS / "pimc" / "rollouts").glob("*.json")):
        report = load(f"pimc/rollouts/{path.name}")
        name = (
            report["agents"][0]["spec"]
            if report["agents"][0]["spec"].startswith("pimc")
            else report["agents"][1]["spec"]
        )
        label = next(row["name"] for row in report["agents"] if row["spec"] == name)
        diff, ci = pair(report, label, "strategy")
        ms = _move_time(report, label)
        run = report["runs"][-1]
        commit = run["commit"][:8] + (" (uncommitted changes)" if run.get("dirty") else "")
        ms_text = "-" if ms is None else f"{ms:.1f}"
        lines.append(f"| `{name}` | {report['deals']} | {pm(diff, ci)} | {ms_text} | {commit} |")
    return "\n".join(lines) + "\n"


def pimc_ppo() -> str:
    """results/README.md and README.md: the shipped PPO checkpoints against pimc."""
    lines = ["| checkpoint | deals | ppo − pimc (95% CI) | pimc ms/decision |", "|---|---|---|---|"]
    for name, label in PPO_VS_PIMC.items():
        report = load(f"pimc/ppo_vs_pimc_{name}.json")
        diff, ci = pair(report, "ppo", "pimc")
        ms = _move_time(report, "pimc")
        lines.append(
            f"| {label} | {report['deals']} | {pm(diff, ci)} | {'-' if ms is None else f'{ms:.1f}'} |"
        )
    return "\n".join(lines) + "\n"


def _pimc_presets_table(table: dict[str, Any]) -> str:
    """A table of ``experiments/pimc-against-heuristics/pimc_table.py`` as Markdown (lower points
    are better in the Hearts family, higher in Smear)."""
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
            "pimc better"
            if r["pimc_better"]
            else "heuristic better"
            if r["heuristic_better"]
            else "no difference shown"
        )
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


def pimc_presets() -> str:
    """results/README.md: the earlier default against the family's heuristic in every preset."""
    return _pimc_presets_table(load("pimc/margin0/presets_table.json"))


def pimc_presets_margin1() -> str:
    """results/README.md: the default with 8 worlds, ``pimc:worlds=8:margin=1``, against the
    family's heuristic in every preset."""
    return _pimc_presets_table(load("pimc/presets_margin1_table.json"))


def pimc_margin_matches() -> str:
    """results/README.md: pimc settings against strategy and IS-MCTS in standard Hearts
    (``results/pimc/margin/``): the seats each holds, the seed, the rule options."""
    lines = [
        "| pimc setting | against | seats | options | seed | deals | pimc − other (95% CI) "
        "| pimc ms/decision | commit |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for path in sorted((RESULTS / "pimc" / "margin").glob("*.json")):
        report = load(f"pimc/margin/{path.name}")
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


def pimc_ismcts() -> str:
    """docs/positions-and-search.md and results/README.md: the default pimc against OpenSpiel's IS-MCTS."""
    parts = [
        f"{report['deals']} duplicate deals: pimc − IS-MCTS = "
        f"{pm(*pair(report, 'pimc', 'ismcts:simulations=1000'), plus=True)} points a deal "
        f"(`{report['runs'][-1]['command'].split('  #')[0]}`)"
        for report in _ismcts_matches("pimc")
    ]
    head = (
        f"Against OpenSpiel's IS-MCTS with 1000 simulations (OpenSpiel's rules), the default `pimc` "
        f"({DEFAULT_PIMC}), two seats against two, over "
    )
    return _paragraph(head + "; over ".join(parts) + ".")


# ---------------------------------------------------------------------- the README's comparison
def comparison() -> str:
    """README.md: hearts-env beside OpenSpiel (raw and through Shimmy), PettingZoo's classic games,
    RLCard and Hearts Gym; the speeds from ``results/comparison.json`` (one run, back to back)."""
    rows = {row["name"]: row["decisions_per_second"] for row in load("comparison.json")["rows"]}
    batched, ours = rows["batched"], rows["pettingzoo"]
    spiel, shimmy = rows.get("openspiel"), rows.get("shimmy")
    versus = _against_ismcts(_ismcts_matches("pimc"), deals=False)
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
        f"| strength, standard Hearts | `pimc` − OpenSpiel's IS-MCTS(1000) = {versus} points a deal "
        "(lower is better) | | | |",
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


FIGURES: dict[str, Callable[[], str]] = {
    "comparison": comparison,
    "ladder-full": ladder_full,
    "ladder-short": ladder_short,
    "ismcts": ismcts_table,
    "presets": presets_table,
    "presets-rest": presets_rest_table,
    "partnership-teams": partnership_teams,
    "ppo-hearts-short": ppo_hearts_short,
    "ppo-ismcts-short": ppo_ismcts_short,
    "ppo-table": ppo_table,
    "black-maria": black_maria,
    "training-variants": training_variants,
    "training-throughput": training_throughput,
    "training-throughput-machines": training_throughput_machines,
    # settings over training seeds (tools.training_seeds): the same budget, or the same time
    "training-seeds": partial(_seeds_table, "training_seeds/formats.json"),
    "training-seeds-time": partial(_seeds_table, "training_seeds/epochs_equal_time.json"),
    "training-seeds-hidden": partial(_seeds_table, "training_seeds/hidden128.json"),
    "training-seeds-hidden-time": partial(_seeds_table, "training_seeds/hidden128_equal_time.json"),
    "training-seeds-bf16": partial(_seeds_table, "training_seeds/bf16.json"),
    "training-seeds-bf16-time": partial(_seeds_table, "training_seeds/bf16_equal_time.json"),
    "training-seeds-games": partial(_seeds_table, "training_seeds/games2048.json"),
    "training-seeds-overlap": partial(_seeds_table, "training_seeds/overlap.json"),
    "training-seeds-fast": partial(_seeds_table, "training_seeds/fast_epochs1.json"),
    "training-seeds-bf16-overlap": partial(_seeds_table, "training_seeds/bf16_overlap.json"),
    "smear-table": smear_table,
    "smear-ppo": smear_ppo,
    "pimc-hearts": pimc_hearts,
    "pimc-strategy": pimc_strategy,
    "pimc-presets": pimc_presets,
    "pimc-margin0": pimc_margin0,
    "pimc-one-core": pimc_one_core,
    "pimc-presets-margin1": pimc_presets_margin1,
    "pimc-margin-matches": pimc_margin_matches,
    "pimc-rollouts": pimc_rollouts,
    "pimc-ppo": pimc_ppo,
    "pimc-ismcts": pimc_ismcts,
    "throughput-presets": throughput_presets,
    "throughput-formats": throughput_formats,
    "throughput-before-after": throughput_before_after,
    "throughput-house": throughput_house,
    "throughput-second-reading": throughput_second_reading,
}
"""Block name -> the function rendering it from the results files."""


# ---------------------------------------------------------------------- the documents
def blocks(text: str) -> list[tuple[str, str]]:
    """(name, body) of every figure block in a document's text."""
    return [(m["name"], m["body"]) for m in _BLOCK.finditer(text)]


def render(text: str) -> str:
    """``text`` with every figure block rewritten from its files (``KeyError`` for an unknown name)."""
    return _BLOCK.sub(lambda m: m[1] + FIGURES[m["name"]]() + m[4], text)


def outside_blocks(text: str) -> str:
    """The text of a document less its figure blocks (where no measured number may stand)."""
    return _BLOCK.sub("", text)


def stale(path: Path) -> list[str]:
    """Names of the blocks of the document ``path`` that differ from their rendering."""
    text = path.read_text(encoding="utf-8")
    return [name for name, body in blocks(text) if FIGURES[name]() != body]


# ---------------------------------------------------------------------- the charts
CHART_RENDERERS = {
    "tournament": "evaluation.report.write_png",
    "leaderboard": "evaluation.leaderboard.write_png",
}
"""The renderers of the committed charts, by the kind of JSON they draw."""

OTHER_CHARTS = {
    "results/bf16_training/hearts-4p-*.png": "a learning curve (training.logs.plot_learning_curve)",
    "results/lean_network/hearts-4p-*.png": "a learning curve (training.logs.plot_learning_curve)",
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
