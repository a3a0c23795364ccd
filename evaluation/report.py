"""The report of a tournament: its sections summed up from the record (per agent and per
pair, per team, contracts by bid level, slam pairs) and its outputs (text tables, CSV files, a
bar chart). Means and their 95% intervals are over deals (see :mod:`evaluation.duplicate`)."""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.flags import install_command
from hearts_env.files import write_atomic
from hearts_env.games import family
from hearts_env.presets import PRESETS, make_rules

Z95 = 1.959964
"""Normal quantile of a two-sided 95% interval."""


def agent_summary(
    names: list[str], per_deal: np.ndarray, counters: dict[str, dict], labels: list[str] | None = None
) -> dict[str, Any]:
    """The ``agents`` rows (mean deal points, win rate, counters) and the ``pairs`` differences,
    from ``per_deal`` (deals, agents) and the per-agent counters of the record (keyed by the
    specs ``names``). Rows and pairs name the agents by ``labels`` (default: the specs); each
    row's ``spec`` is the whole spec."""
    labels = list(names) if labels is None else labels
    rows = []
    for a, (name, label) in enumerate(zip(names, labels)):
        c = counters[name]
        mean, ci = _mean_ci(per_deal[:, a])
        rows.append({
            "name": label, "spec": name, "mean_points": mean, "ci95": ci,
            "win_rate": c["wins"] / c["games"] if c["games"] else None, "games": c["games"],
            "moons_shot": c["moons_shot"], "moons_allowed": c["moons_allowed"],
            "seat_deals": c["seat_deals"], "illegal": c["illegal"],
        })  # fmt: skip
    return {
        "agents": rows,
        "pairs": _pairs(labels, per_deal),
        "move_times": move_times(names, counters, labels),
    }


def move_times(names: list[str], times: dict[str, dict], labels: list[str]) -> list[dict[str, Any]]:
    """Each agent's decisions and milliseconds per decision (its ``act`` time, batched over the
    tables) from the record's ``move_time`` (None where a record did not keep it). Kept apart
    from the ``agents`` rows: times differ from run to run, the results do not."""
    rows = []
    for name, label in zip(names, labels):
        c = times.get(name, {"decisions": 0, "act_s": 0.0})
        n = int(c.get("decisions", 0))
        rows.append(
            {"name": label, "decisions": n, "ms_per_decision": round(1000 * c["act_s"] / n, 3) if n else None}
        )
    return rows


def team_summary(
    names: list[str], teams: list[list[int]], per_deal: np.ndarray, counters: list[dict]
) -> dict[str, Any]:
    """The ``teams`` rows (team points, win rate) and the ``team_pairs`` differences, from
    ``per_deal`` (deals, teams) and the per-team counters of the record."""
    rows = []
    for t, (name, team) in enumerate(zip(names, teams)):
        mean, ci = _mean_ci(per_deal[:, t])
        c = counters[t]
        rows.append({
            "name": name, "positions": team, "mean_points": mean, "ci95": ci,
            "win_rate": c["wins"] / c["games"] if c["games"] else None, "games": c["games"],
        })  # fmt: skip
    return {"teams": rows, "team_pairs": _pairs(names, per_deal)}


def _pairs(names: list[str], per_deal: np.ndarray) -> list[dict[str, Any]]:
    """Every pair's mean difference per deal (``a`` minus ``b``, in the order of ``names``)."""
    pairs = []
    for a, b in combinations(range(len(names)), 2):
        mean, ci = _mean_ci(per_deal[:, a] - per_deal[:, b])
        pairs.append({"a": names[a], "b": names[b], "mean_diff": mean, "ci95": ci})
    return pairs


def contract_summary(counters: dict[str, dict], labels: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The ``contracts`` rows: each agent's contracts pitched and made by bid level, in level order
    (agents named by ``labels``, spec -> label; default: the specs)."""
    labels = labels or {}
    return [
        {
            "name": labels.get(name, name),
            "by_bid": {
                level: {
                    "pitched": n,
                    "made": c["made"].get(level, 0),
                    "made_rate": round(c["made"].get(level, 0) / n, 4),
                }
                for level, n in sorted(c["pitched"].items(), key=lambda kv: int(kv[0]))
            },
        }
        for name, c in counters.items()
    ]


def slam_summary(counters: dict[str, dict], labels: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The ``slam`` rows: each agent's slam bids, slam pairs played and mean deal points in them
    (agents named by ``labels``, spec -> label; default: the specs)."""
    labels = labels or {}
    return [
        {
            "name": labels.get(name, name), "bids": c["bids"], "paired": c["paired"],
            "mean_paired_points": round(c["paired_points"] / c["paired"], 4) if c["paired"] else None,
        }
        for name, c in counters.items()
    ]  # fmt: skip


def _mean_ci(values: np.ndarray) -> tuple[float | None, float | None]:
    if len(values) == 0:
        return None, None
    mean = float(values.mean())
    ci = float(Z95 * values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.inf
    return round(mean, 4), round(ci, 4)


COLUMNS = {
    "mean points": "the agent's deal points per deal (on each deal, its mean over every seat it "
    "held in every seating), after moon and bonus rules",
    "95% CI": "the half-width of that mean's 95% interval over deals (1.96 standard errors)",
    "win rate": "games won over seat-games (a win shared between tied winners; with teams, won "
    "with the team); - while no game has finished",
    "seat-games": "finished games, counted once per seat the agent held (an agent in 3 of 4 seats "
    "counts 3 a game, so agents of one table differ)",
    "moons shot": "seat-deals in which the agent's seat shot the moon",
    "moons allowed": "seat-deals in which another seat (a copy of the agent too) shot the moon",
    "illegal": "actions outside the action mask, each replaced by a random legal one (must be 0)",
    "ms/decision": "the agent's move time: milliseconds its act() took per decision (batched over "
    "the tables, on this machine); - in records that did not keep it",
    "pair (a - b)": "a's mean points minus b's on the same deals, with its 95% interval; an "
    "interval that excludes 0 is a real difference",
}
"""What each column of :func:`format_report`'s tables means (the legend under the table, the
``tournament --help`` epilog and docs/tournaments.md say the same)."""


def legend(width: int = 100) -> str:
    """The columns of :func:`format_report`'s tables, one entry each, wrapped at ``width``."""
    name_width = max(map(len, COLUMNS))
    return "\n".join(
        textwrap.fill(
            text, width, initial_indent=f"  {name:<{name_width}}  ", subsequent_indent=" " * (name_width + 4)
        )
        for name, text in COLUMNS.items()
    )


def no_game_note(report: dict[str, Any]) -> str | None:
    """Why no game has finished yet (win rate ``-``), or None when some have."""
    if any(row["games"] for row in report["agents"]) or not report["deals"]:
        return None
    per_table = report.get("progress", {}).get("rounds_done")
    target = report.get("rules", {}).get("target_score")
    played = f"each table has played {per_table} deals in sequence" if per_table else "too few deals"
    ends = f"a game ends when a player reaches {target} points" if target else "a game spans several deals"
    return (
        f"no game has finished: {played}, and {ends}; play more deals per table "
        "(more --deals, or fewer --tables) for win rates"
    )


def format_report(report: dict[str, Any], timing: bool = True, explain: bool = True) -> str:
    """The per-agent and per-pair tables as text. ``timing``: the header says how long the
    deals took to play (False for a record read back, not played now); ``explain``: a short
    legend of the columns under the tables (:data:`COLUMNS`)."""
    higher = report.get("better") == "higher"  # Smear: points are good
    w = max([28, *(len(row["name"]) + 2 for row in report["agents"])])  # the agent column fits
    pw = max([45, *(len(f"{p['a']} - {p['b']}") + 2 for p in report["pairs"] + report.get("team_pairs", []))])
    took = f", {report['elapsed_s']:.0f} s" if timing else ""
    lines = [
        f"{report['preset']} ({report['num_players']} players): {report['deals']} duplicate deals "
        f"x {len(report['rotations'])} seatings{took} "
        f"({'higher' if higher else 'lower'} points are better)",
        f"{'agent':<{w}} {'mean points':>12} {'95% CI':>8} {'win rate':>9} {'seat-games':>10} "
        f"{'moons shot':>10} {'moons allowed':>13} {'illegal':>7} {'ms/decision':>11}",
    ]
    ms = {row["name"]: row["ms_per_decision"] for row in report.get("move_times", [])}
    for row in sorted(
        report["agents"],
        key=lambda r: (-1 if higher else 1) * (r["mean_points"] if r["mean_points"] is not None else 0),
    ):
        win = f"{100 * row['win_rate']:.1f}%" if row["win_rate"] is not None else "-"
        lines.append(
            f"{row['name']:<{w}} {_num(row['mean_points']):>12} {'±' + _num(row['ci95']):>8} {win:>9} "
            f"{row['games']:>10} {row['moons_shot']:>10} {row['moons_allowed']:>13} {row['illegal']:>7} "
            f"{_ms(ms.get(row['name'])):>11}"
        )
    if report["pairs"]:
        lines.append("")
        lines.append(f"{'pair (a - b)':<{pw}} {'mean diff':>10} {'95% CI':>8}")
        for pair in report["pairs"]:
            label = f"{pair['a']} - {pair['b']}"
            lines.append(f"{label:<{pw}} {_num(pair['mean_diff']):>10} {'±' + _num(pair['ci95']):>8}")
    if report.get("teams"):  # reports of tournaments without teams (and older files) have none
        lines.append("")
        lines.append(
            f"{'team (seating positions)':<36} {'team points':>12} {'95% CI':>8} {'win rate':>9} {'games':>6}"
        )
        for row in report["teams"]:
            win = f"{100 * row['win_rate']:.1f}%" if row["win_rate"] is not None else "-"
            label = f"{row['name']} {tuple(row['positions'])}"
            ci = "±" + _num(row["ci95"])
            lines.append(f"{label:<36} {_num(row['mean_points']):>12} {ci:>8} {win:>9} {row['games']:>6}")
        for pair in report.get("team_pairs", []):
            label = f"{pair['a']} - {pair['b']}"
            lines.append(f"{label:<{pw}} {_num(pair['mean_diff']):>10} {'±' + _num(pair['ci95']):>8}")
    if report.get("contracts"):
        lines.append("")
        lines.append("contracts made by bid level (made / pitched):")
        for row in report["contracts"]:
            levels = "  ".join(f"{level}: {v['made']}/{v['pitched']}" for level, v in row["by_bid"].items())
            lines.append(f"  {row['name']:<26} {levels or '-'}")
    if report.get("slam"):
        lines.append("")
        lines.append(f"{'slam pairs: agent':<28} {'slam bids':>10} {'paired':>8} {'mean points paired':>19}")
        for row in report["slam"]:
            paired = _num(row["mean_paired_points"])
            lines.append(f"{row['name']:<28} {row['bids']:>10} {row['paired']:>8} {paired:>19}")
    note = no_game_note(report)
    if note:
        lines += ["", note]
    if explain:
        lines += ["", "columns:", legend()]
        if report.get("teams"):
            lines.append("  teams: the agents at fixed seating positions, their deal points together; "
                         "games: the games the team played")  # fmt: skip
    return "\n".join(lines)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _csv_text(columns: list[str], rows: Iterable[dict[str, Any]]) -> str:
    """A CSV file's text: the header ``columns``, then ``rows``."""
    import csv

    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def write_csv(report: dict[str, Any], path: str | Path) -> None:
    """Per-agent rows to ``path`` (named by their labels, the whole spec in the last column) and
    per-pair rows to ``<stem>_pairs.csv`` beside it (and, with teams, ``<stem>_teams.csv``), each
    written atomically (:func:`hearts_env.files.write_atomic`)."""
    path = Path(path)
    columns = [
        "name",
        "mean_points",
        "ci95",
        "win_rate",
        "games",
        "moons_shot",
        "moons_allowed",
        "seat_deals",
        "illegal",
        "ms_per_decision",
        "spec",
    ]
    ms = {row["name"]: row["ms_per_decision"] for row in report.get("move_times", [])}
    rows = (
        {**{k: row.get(k) for k in columns}, "ms_per_decision": ms.get(row["name"]),
         "spec": row.get("spec", row["name"])}
        for row in report["agents"]
    )  # fmt: skip
    write_atomic(path, _csv_text(columns, rows))
    columns = ["a", "b", "mean_diff", "ci95"]
    pairs = ({k: pair[k] for k in columns} for pair in report["pairs"])
    write_atomic(path.with_name(path.stem + "_pairs.csv"), _csv_text(columns, pairs))
    if report.get("teams"):  # team tournaments: one row per team in <stem>_teams.csv
        columns = ["name", "positions", "mean_points", "ci95", "win_rate", "games"]
        teams = ({**row, "positions": "+".join(map(str, row["positions"]))} for row in report["teams"])
        write_atomic(path.with_name(path.stem + "_teams.csv"), _csv_text(columns, teams))


def verdict(diff: float, ci95: float, better: str) -> str:
    """The verdict on a difference ``a − b`` of mean points: ``better`` (a is the better) or ``worse``
    when the interval ``diff ± ci95`` excludes 0 (``better``: which way points are better, the
    family's), else ``no difference``."""
    sign = 1 if better == "lower" else -1
    if sign * diff + ci95 < 0:
        return "better"
    return "worse" if sign * diff - ci95 > 0 else "no difference"


def better_of(report: dict[str, Any]) -> str:
    """Which way points are better in ``report``'s game (``"lower"`` or ``"higher"``): its family
    record's :attr:`~hearts_env.core.family.Family.better`, the report's own ``better`` for a preset
    no longer registered (the earliest reports do not keep it)."""
    preset = report.get("preset")
    if preset in PRESETS:
        return family(make_rules(preset, num_players=report["num_players"])).better
    if report.get("better") in ("lower", "higher"):
        return report["better"]
    raise ValueError(
        f"preset must be a registered preset, or better 'lower' or 'higher', got preset {preset!r} "
        f"and better {report.get('better')!r}"
    )


PAIR_COLOURS = {"better": "#2f8a46", "worse": "#c44e52", "no difference": "#a3a3a3"}
"""The pair chart's bar colour by the pair's :func:`verdict`: a real difference to ``a``'s good
side (green) or bad side (red); grey where the interval crosses 0, whichever side the mean is on
(such a mean is noise, not a lead)."""

PAIR_LEGEND = {
    "better": "a better (the interval excludes 0)",
    "worse": "b better (the interval excludes 0)",
    "no difference": "no difference (the interval crosses 0)",
}
"""The pair chart's legend: what each colour of :data:`PAIR_COLOURS` says."""


def pair_bars(report: dict[str, Any]) -> list[tuple[str, float, float, str]]:
    """The pair chart's bars: (label ``a − b``, mean difference, 95% half-width, colour by
    :func:`verdict` in the direction of the report's family, :func:`better_of`)."""
    better = better_of(report)
    bars = []
    for pair in report["pairs"]:
        diff, ci = pair["mean_diff"] or 0.0, pair["ci95"]
        ci = math.inf if ci is None else ci  # one deal: no interval, so no difference is shown
        bars.append((f"{pair['a']} − {pair['b']}", diff, ci, PAIR_COLOURS[verdict(diff, ci, better)]))
    return bars


def write_png(report: dict[str, Any], path: str | Path) -> None:
    """A chart of the agents' mean deal points and, beside it, of the pair differences ``a − b``,
    each with its 95% interval, coloured by :func:`pair_bars` (needs matplotlib:
    ``ModuleNotFoundError`` with the install line where it is missing)."""
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            f"the chart needs matplotlib: {install_command('training')} (or pip install matplotlib)"
        ) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    better = better_of(report)
    rows = sorted(report["agents"], key=lambda r: (r["mean_points"] or 0) * (-1 if better == "higher" else 1))
    bars = pair_bars(report)
    height = 1.4 + 0.45 * max(len(rows), len(bars))
    # Wider for long labels (agent specs with their parameters), which would run into the panel beside.
    width = 7 + 0.085 * max(0, max(len(r["name"]) for r in rows) - 24)
    if bars:
        width += 5 + 0.085 * max(0, max(len(label) for label, *_ in bars) - 24)
    fig, axes = plt.subplots(1, 2 if bars else 1, figsize=(width, height), squeeze=False)
    ax = axes[0, 0]
    ax.barh([r["name"] for r in rows], [r["mean_points"] or 0 for r in rows],
            xerr=[r["ci95"] or 0 for r in rows], capsize=4, color="#4c72b0")  # fmt: skip
    ax.invert_yaxis()
    ax.set_xlabel(f"mean deal points, 95% CI ({better} is better)")
    ax.set_title("agents")
    if bars:
        ax = axes[0, 1]
        labels, diffs, cis, colours = zip(*bars)
        finite = [ci if math.isfinite(ci) else 0 for ci in cis]
        ax.barh(labels, diffs, xerr=finite, capsize=4, color=colours)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.invert_yaxis()
        ax.set_xlabel(f"a − b, mean deal points, 95% CI ({better} is better)")
        ax.set_title("pairs a − b")
        ax.legend(
            handles=[Patch(color=colour, label=PAIR_LEGEND[v]) for v, colour in PAIR_COLOURS.items()],
            fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False,
        )  # fmt: skip
    fig.suptitle(f"{report['preset']}, {report['num_players']} players: {report['deals']} duplicate deals")
    fig.tight_layout()
    try:  # the temporary file has no .png to name the format by
        write_atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=120, bbox_inches="tight"))
    finally:
        plt.close(fig)
