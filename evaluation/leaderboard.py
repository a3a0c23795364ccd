"""The leaderboard: every agent against every preset, in one table (``hearts-env leaderboard``).

Each cell is one duplicate tournament (:mod:`evaluation.duplicate`): the agent alone (with copies
of itself as its partners in a partnership game) against the **reference field**, copies of its
family's heuristic (``strategy`` in the Hearts family, ``smear`` in Smear), on ``deals`` deals
replayed with the agent in every seat. The number is the tournament's pair difference: the
agent's mean points a deal minus the reference's, with its 95% interval. In the Hearts family
fewer points are better, in Smear more; a cell is **better** or **worse** when its interval
excludes 0, else **no difference**. The reference itself is 0 by definition and is not played.

An agent that cannot play a configuration (a Hearts heuristic in Smear, ``ismcts`` outside
OpenSpiel's rules, ``ppo`` where no specialist ships, an optional dependency missing) has an
empty cell with the reason in the JSON. The ``ppo`` row is the shipped specialists only; a
universal network is a row of its own (``ppo:network=universal:label=ppo-universal`` for the
shipped one, ``ppo:checkpoint=PATH:label=NAME`` for another).

Every cell's tournament keeps its own resumable JSON under ``--dir``, so a stopped leaderboard
goes on where it stopped, and a finished cell is read back, not played again. A cell already in
the leaderboard JSON (``previous``: the same agent spec, configuration, deals, tables and seed,
and for a trained policy the same weights, :func:`agents.weights_digest`) is taken from it as it
stands, with the commit it was played at, so adding a row to a committed leaderboard plays that
row's cells only; ``--ray`` plays each tournament's streams on Ray actors. The outputs
(:func:`write_outputs`): the JSON (every cell with its command, the commit and date), a Markdown
table (:func:`markdown`), the README's headline rows (:func:`headline`) and a PNG heatmap
(agents × presets; colour = the agent's advantage over the reference in points a deal, as a share
of the deal's stake, green better, clipped at :data:`CLIP`; a cell whose interval excludes 0 bold
and outlined).
The committed one is ``docs/leaderboard.md``; ``tests/test_leaderboard.py`` checks that it and the
README's rows are rendered from ``docs/leaderboard.json``.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import agents
from evaluation.duplicate import Tournament, TournamentConfig
from evaluation.flags import build_agent, one_line, unbuilt
from evaluation.progress import progress_bar
from evaluation.provenance import run_record
from evaluation.report import verdict
from hearts_env.core.rules import Rules
from hearts_env.files import OutputLock, write_atomic, write_json
from hearts_env.games import FAMILIES, family
from hearts_env.presets import PRESETS, make_rules

DEFAULT_AGENTS = ("random", "lowest", "ducker", "strategy", "smear", "ismcts", "pimc", "ppo")
"""The rows of a leaderboard when ``--agents`` names none (a universal network is added by spec)."""

FORMAT = "hearts-env-leaderboard/1"


@dataclass(frozen=True)
class Cell:
    """One agent in one configuration: what to play, or why not."""

    agent: str
    preset: str
    num_players: int
    spec: str | None
    reason: str | None = None
    weights: str | None = None
    """Digest of the files the agent plays here (:func:`agents.weights_digest`; trained policies)."""


def reference(rules: Rules) -> str:
    """The reference field's agent of ``rules``' family."""
    return agents.family_defaults(rules.game).heuristic


def label_of(spec: str) -> str:
    """The row name of an agent spec: its ``label=``, else its short default."""
    return agents.labels([spec])[0]


def plan(
    agent_specs: Sequence[str], presets: Sequence[str], all_counts: bool = False
) -> tuple[list[str], list[tuple[str, int]], list[Cell]]:
    """(row names, configurations, cells) of a leaderboard: each agent at each preset's default
    player count (``all_counts``: every count), with why where it does not play."""
    configs = [
        (p, n) for p in presets for n in (PRESETS[p].counts if all_counts else (PRESETS[p].default_players,))
    ]
    names = [label_of(spec) for spec in agent_specs]
    cells = []
    for spec, name in zip(agent_specs, names):
        for preset, n in configs:
            cells.append(_cell(spec, name, make_rules(preset, num_players=n)))
    return names, configs, cells


def _cell(spec: str, name: str, rules: Rules) -> Cell:
    """The cell of agent ``spec`` in ``rules``: what to play, or why the agent does not play it (its
    class refuses these rules, an optional dependency is missing, no network ships for them, its
    checkpoint plays other rules). An agent that cannot be built for another reason (a parameter out
    of range, a constructor that fails) is no cell but an error: ``ValueError`` naming it."""
    where = (name, rules.preset, rules.num_players)
    if spec == reference(rules):
        return Cell(*where, None, "reference")
    target, params = agents.parse_spec(spec)
    reason = agents.refusal(target, rules)
    if reason:
        return Cell(*where, None, one_line(reason)[:200])
    try:
        agent = build_agent(spec, rules)
    except ImportError as error:  # an optional dependency missing (build_agent lets only those by)
        return Cell(*where, None, f"not installed ({str(error).splitlines()[0][:120]})")
    except ValueError as error:
        # agents.ppo's NoShippedCheckpointError is a FileNotFoundError too (and needs torch to name).
        if not isinstance(error, FileNotFoundError) and CANNOT_PLAY not in str(error):
            raise unbuilt(spec, rules, error) from error
        return Cell(*where, None, one_line(error)[:200])
    if (
        target == "ppo"
        and params.get("network", "auto") == "auto"
        and getattr(agent, "network", "") == "universal"
    ):
        return Cell(*where, None, "no specialist ships (the universal network is its own row)")
    return Cell(*where, spec, weights=agents.weights_digest(spec, rules))


CANNOT_PLAY = "cannot play"
"""The words of an agent's refusal of rules it does not play (:func:`agents.refusal`, and a trained
policy's checkpoint for other rules): such a cell is empty, any other failure to build is an error."""


def _file_name(cell: Cell) -> str:
    """The cell's tournament record; a trained agent's carries its weights' digest, so a network
    retrained under the same spec starts a record of its own."""
    weights = f"__{cell.weights[:8]}" if cell.weights else ""
    name = f"{cell.agent}__{cell.preset}-{cell.num_players}p{weights}"
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name) + ".json"


def play_cell(
    cell: Cell,
    deals: int,
    tables: int,
    seed: int,
    directory: Path,
    pool: Any = None,
    streams: int = 1,
    bar: Any = None,
) -> dict[str, Any]:
    """Play (or read back) one cell's tournament; its summary for the leaderboard JSON. ``bar``:
    the leaderboard's progress bar, which counts the cell's deals (those its file already holds at
    once) and above which a slow cell says what it will take; None: no bar, nothing said."""
    rules = make_rules(cell.preset, num_players=cell.num_players)
    ref = reference(rules)
    seats = [cell.spec if rules.team_of[s] == rules.team_of[0] else ref for s in range(rules.num_players)]
    config = TournamentConfig(
        preset=cell.preset,
        num_players=cell.num_players,
        agents=seats,
        deals=deals,
        tables=min(tables, deals),
        seed=seed,
        streams=streams,
    )
    path = directory / _file_name(cell)
    command = (
        f"hearts-env tournament --preset {cell.preset} --players {cell.num_players} --agents "
        f"{shlex.quote(','.join(seats))} --deals {deals} --tables {config.tables} --seed {seed} "
        f"--json {shlex.quote(str(path))}"
    )  # quoted where a spec holds a shell character (a nested spec's ';')
    with OutputLock(path, "the tournament record"):  # two leaderboards sharing --dir: one plays a cell
        tournament = Tournament(
            config, json_path=path, progress=bar is not None, labels={cell.spec: cell.agent},
            command=command, hint="--deals to shorten",
        )  # fmt: skip
        report = tournament.run(pool=pool, bar=bar)
    pair = next(p for p in report["pairs"] if {p["a"], p["b"]} == {cell.agent, ref})
    sign = 1 if pair["a"] == cell.agent else -1
    times = {row["name"]: row.get("ms_per_decision") for row in report.get("move_times", [])}
    diff, ci = sign * pair["mean_diff"], pair["ci95"]
    return {
        "agent": cell.agent,
        "spec": cell.spec,
        "preset": cell.preset,
        "num_players": cell.num_players,
        "reference": ref,
        "deals": report["deals"],
        "diff": round(diff, 4),
        "ci95": round(ci, 4),
        "verdict": verdict(diff, ci, family(rules).better),
        **({"weights": cell.weights} if cell.weights else {}),
        "ms_per_decision": times.get(cell.agent),
        "record": str(path),
        "command": command,
    }


def run(
    agent_specs: Sequence[str],
    presets: Sequence[str],
    *,
    all_counts: bool = False,
    deals: int = 200,
    tables: int = 100,
    seed: int = 0,
    directory: Path = Path("leaderboard"),
    pool: Any = None,
    streams: int = 1,
    command: str | None = None,
    progress: bool = True,
    save: Callable[[dict[str, Any]], None] | None = None,
    previous: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play every cell (resuming from ``directory``) and return the leaderboard's content;
    ``save`` is called with it after every cell. ``previous``: an earlier leaderboard's content
    (its JSON) whose finished cells of the same spec, configuration, deals, tables and seed are
    taken as they stand instead of being played."""
    for spec in agent_specs:
        agents.parse_spec(spec)  # a bad spec: one ValueError before anything plays
    for preset in presets:
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}: choose among {', '.join(PRESETS)}")
    names, configs, cells = plan(agent_specs, presets, all_counts)
    directory.mkdir(parents=True, exist_ok=True)
    board: dict[str, Any] = {
        "format": FORMAT,
        "run": run_record(command),
        "deals": deals,
        "tables": tables,
        "seed": seed,
        "all_counts": all_counts,
        "agents": names,
        "specs": list(agent_specs),
        "configs": [
            {
                "preset": p,
                "num_players": n,
                "family": PRESETS[p].game,
                "reference": reference(make_rules(p, num_players=n)),
            }
            for p, n in configs
        ],
        "cells": [],
    }
    done = _finished(previous, deals, tables, seed)
    todo = [c for c in cells if c.spec is not None and _key(c) not in done]
    # Counted in deals, within a round too (a cell of a slow agent takes minutes): each cell plays
    # the deals of its configuration, rounded up to whole rounds of its tables.
    shape = TournamentConfig(deals=deals, tables=min(tables, deals))
    per_cell = shape.rounds * shape.table_count
    bar = progress_bar(total=len(todo) * per_cell, unit="deal", disable=not progress, desc="leaderboard")
    try:
        for cell in cells:
            if cell.spec is None:
                board["cells"].append(
                    {
                        "agent": cell.agent,
                        "preset": cell.preset,
                        "num_players": cell.num_players,
                        "reason": cell.reason,
                    }
                )
                continue
            if _key(cell) in done:
                board["cells"].append(done[_key(cell)])
                continue
            bar.set_description(f"{cell.agent} in {cell.preset}-{cell.num_players}p")
            played = play_cell(cell, deals, tables, seed, directory, pool, streams, bar if progress else None)
            board["cells"].append({**played, "commit": board["run"].get("commit")})
            if save is not None:
                save(board)
    finally:
        bar.close()
    return board


def _key(cell: Cell | dict[str, Any]) -> tuple[Any, ...]:
    """What makes an earlier cell this one: the agent, its spec, the configuration and the weights
    it played (a retrained network's cells are played again)."""
    if isinstance(cell, Cell):
        return (cell.agent, cell.spec, cell.preset, cell.num_players, cell.weights)
    return (cell["agent"], cell.get("spec"), cell["preset"], cell["num_players"], cell.get("weights"))


def _finished(
    previous: dict[str, Any] | None, deals: int, tables: int, seed: int
) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The played cells of an earlier leaderboard that a run with these settings may take as they
    stand (each keeps the commit it was played at; the earliest leaderboards recorded it only for
    the whole run)."""
    if not previous or previous.get("format") != FORMAT:
        return {}
    if (previous.get("deals"), previous.get("tables"), previous.get("seed")) != (deals, tables, seed):
        return {}
    commit = previous.get("run", {}).get("commit")
    return {
        _key(c): {**c, "commit": c.get("commit", commit)}
        for c in previous.get("cells", [])
        if "diff" in c and c.get("deals") == deals
    }


def commits(board: dict[str, Any]) -> list[str]:
    """The commits the played cells of ``board`` come from, the oldest-listed first."""
    seen: dict[str, None] = {}
    for cell in board["cells"]:
        if "diff" in cell:
            seen.setdefault(str(cell.get("commit") or board["run"].get("commit")), None)
    return list(seen)


# ---------------------------------------------------------------------- rendering
def _cell_text(cell: dict[str, Any]) -> str:
    if "diff" not in cell:
        return "ref." if cell.get("reason") == "reference" else "–"
    text = f"{cell['diff']:+.2f} ± {cell['ci95']:.2f}"
    return f"**{text}**" if cell["verdict"] == "better" else text


def _find(board: dict[str, Any], agent: str, preset: str, n: int) -> dict[str, Any]:
    return next(
        c for c in board["cells"] if (c["agent"], c["preset"], c["num_players"]) == (agent, preset, n)
    )


def markdown(board: dict[str, Any], links: dict[str, str] | None = None) -> str:
    """The leaderboard as a Markdown page (rendered from its JSON alone; ``links``: what to link,
    e.g. ``{"numbers": "leaderboard.json"}``, paths relative to the page)."""
    run_info = board["run"]
    lines = [
        "# Leaderboard",
        "",
        "Every agent alone (its partners its own copies) against the reference field, copies of the "
        "family's heuristic (`strategy` in the Hearts family, `smear` in Smear), on the same duplicate "
        "deals. A cell is the agent's mean points a deal minus the reference's, with its 95% interval: "
        "**lower is better in the Hearts family, higher in Smear**. Bold: better than the reference (the "
        "interval excludes 0); `ref.`: the reference itself; –: the agent does not play that "
        "configuration (the reason is in the JSON).",
        "",
        f"{board['deals']} deals a cell, seed {board['seed']}. Made by `{run_info.get('command')}` "
        f"at commit `{str(run_info.get('commit'))[:12]}` on {str(run_info.get('date'))[:10]}."
        + _provenance(board)
        + "".join(f" The {what}: [{where}]({where})." for what, where in (links or {}).items()),
        "",
        "| preset | players | " + " | ".join(board["agents"]) + " |",
        "|---|---:|" + "---:|" * len(board["agents"]),
    ]
    for config in board["configs"]:
        p, n = config["preset"], config["num_players"]
        row = [_cell_text(_find(board, a, p, n)) for a in board["agents"]]
        lines.append(f"| {p} | {n} | " + " | ".join(row) + " |")
    lines += ["", "## Each agent in a line", "", headline(board), ""]
    return "\n".join(lines)


def _provenance(board: dict[str, Any]) -> str:
    played = commits(board)
    if len(played) < 2:
        return ""
    return (
        " Cells taken from an earlier run keep the commit they were played at (each cell's `commit` "
        "in the JSON): " + ", ".join(f"`{c[:12]}`" for c in played) + "."
    )


def headline(board: dict[str, Any]) -> str:
    """The README's rows: per agent, in how many configurations it is better, the same, worse."""
    lines = [
        "| agent | configurations played | better | no difference | worse |",
        "|---|---:|---:|---:|---:|",
    ]
    for agent in board["agents"]:
        cells = [c for c in board["cells"] if c["agent"] == agent and "diff" in c]
        if not cells:
            continue
        counts = {v: sum(c["verdict"] == v for c in cells) for v in ("better", "no difference", "worse")}
        lines.append(
            f"| {agent} | {len(cells)} | {counts['better']} | {counts['no difference']} | {counts['worse']} |"
        )
    return "\n".join(lines)


class Shade(NamedTuple):
    """A heatmap cell, as :func:`_shade` reads it from the board."""

    share: float
    """The agent's advantage over the reference in points a deal, as a share of the points at stake
    in a deal (its family's ``scale_points``: Hearts' 26, Spot's 129 …); positive: better; NaN:
    not played (0 for the reference itself)."""
    text: str
    """What is written in it: the margin in points and its interval, ``ref.`` or ``–``."""
    significant: bool
    """Whether the interval excludes 0 (better or worse, not no difference)."""


BLANK = Shade(float("nan"), "", False)
"""A cell of a configuration that does not exist (an all-counts panel's holes)."""


def _shade(board: dict[str, Any], agent: str, config: dict[str, Any]) -> Shade:
    """The heatmap cell of ``agent`` in ``config``: its share of the stake, text and significance."""
    rules = make_rules(config["preset"], num_players=config["num_players"])
    record = family(rules)
    sign = -1 if record.better == "lower" else 1
    cell = _find(board, agent, config["preset"], config["num_players"])
    if "diff" in cell:
        share = sign * cell["diff"] / max(1, record.scale_points(rules))
        return Shade(share, f"{cell['diff']:+.1f}\n±{cell['ci95']:.1f}", cell["verdict"] != "no difference")
    if cell.get("reason") == "reference":
        return Shade(0.0, "ref.", False)
    return Shade(float("nan"), "–", False)


Panel = tuple[str | None, list[str], list[str], list[list[Shade]]]
"""A heatmap panel: its title, row labels, column labels and cells by row."""


def _panels(board: dict[str, Any]) -> list[Panel]:
    """The heatmap's panels: (title, row labels, column labels, cells by row). A board of one
    player count a preset: one panel, agents × configurations; of every count (``all_counts``):
    one panel an agent, presets × player counts (a configuration that does not exist left blank)."""
    configs, agents = board["configs"], board["agents"]
    if not board.get("all_counts"):
        columns = [f"{c['preset']}-{c['num_players']}" for c in configs]
        return [(None, agents, columns, [[_shade(board, a, c) for c in configs] for a in agents])]
    presets = list(dict.fromkeys(c["preset"] for c in configs))
    counts = sorted({c["num_players"] for c in configs})
    present = {(c["preset"], c["num_players"]): c for c in configs}
    panels = []
    for agent in agents:
        cells = [
            [_shade(board, agent, present[p, n]) if (p, n) in present else BLANK for n in counts]
            for p in presets
        ]
        panels.append((agent, presets, [str(n) for n in counts], cells))
    return panels


CLIP = 0.15
"""Where the heatmap's colours stop: a margin of 15% of the points at stake or more, either way,
takes the scale's end colour. Fixed rather than fitted to each board, so that a colour means one
share in every heatmap; 15% because the margins of the agents worth telling apart (ducker, ismcts,
pimc, ppo in docs/leaderboard.json) lie within it in 9 cells out of 10, while random's and
lowest's (20% to 130%) saturate instead of squeezing every other cell into the scale's middle."""

COLORMAP = "RdYlGn"
"""The diverging colour scale, centred on 0 (no advantage): red worse, green better."""

BLANK_COLOUR = (0.92, 0.92, 0.92)
"""The background of a cell not played or not existing."""


def cell_colour(share: float) -> tuple[float, float, float]:
    """The background of a cell of ``share`` (:attr:`Shade.share`): :data:`COLORMAP` at
    ``share / CLIP``, clipped to ±1 (:data:`CLIP`); :data:`BLANK_COLOUR` for NaN."""
    from matplotlib import colormaps

    if not math.isfinite(share):
        return BLANK_COLOUR
    red, green, blue, _ = colormaps[COLORMAP](0.5 + 0.5 * max(-1.0, min(1.0, share / CLIP)))
    return red, green, blue


def luminance(colour: Sequence[float]) -> float:
    """The relative luminance of an sRGB ``colour`` (components 0..1), as WCAG 2 defines it."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in colour[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: Sequence[float], other: Sequence[float]) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 to 21 (4.5 or more: text reads well)."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


BLACK, WHITE = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)


def text_colour(background: Sequence[float]) -> tuple[float, float, float]:
    """Black or white, whichever contrasts more with ``background`` (never less than 4.58: the
    contrasts with black and white are equal at a luminance of 0.18)."""
    return BLACK if contrast(BLACK, background) >= contrast(WHITE, background) else WHITE


class Style(NamedTuple):
    """How a heatmap cell is drawn."""

    background: tuple[float, float, float]
    colour: tuple[float, float, float]
    """Of the text, :func:`text_colour`."""
    text: str
    bold: bool
    """Significant (:attr:`Shade.significant`): bold and outlined."""


def style(shade: Shade) -> Style:
    """How ``shade`` is drawn: its background, text colour, text and mark of significance."""
    background = cell_colour(shade.share)
    return Style(background, text_colour(background), shade.text, shade.significant)


def colour_bar_label(board: dict[str, Any]) -> str:
    """What the heatmap's colours say, the direction of each family of ``board`` included."""
    games = dict.fromkeys(config["family"] for config in board["configs"])
    ways = "; ".join(f"{FAMILIES[g].title}: {FAMILIES[g].better} is better" for g in games if g in FAMILIES)
    return (
        f"points a deal against the reference, as a share of the points at stake\n"
        f"({ways}); green: better, clipped at ±{CLIP:.0%}; bold, outlined: the interval excludes 0"
    )


def write_png(board: dict[str, Any], path: Path) -> None:
    """The heatmap (:func:`_panels`), each cell drawn by :func:`style`: its colour the advantage
    over the reference as a share of the deal's stake, its margin and interval written in it, a
    colour bar saying so (:func:`colour_bar_label`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    panels = _panels(board)
    rows, columns = len(panels[0][1]), len(panels[0][2])
    if board.get("all_counts"):
        size = (2.0 + len(panels) * (2.2 + 0.62 * columns), 2.0 + 0.42 * rows)
    else:
        size = (3.0 + 0.62 * columns, 2.8 + 0.55 * rows)
    fig, axes = plt.subplots(1, len(panels), figsize=size, squeeze=False)
    for ax, (title, row_labels, column_labels, cells) in zip(axes[0], panels, strict=True):
        styles = [[style(shade) for shade in row] for row in cells]
        ax.imshow(np.array([[s.background for s in row] for row in styles]), aspect="auto")
        for i, row in enumerate(styles):
            for j, cell in enumerate(row):
                weight = "bold" if cell.bold else "normal"
                ax.text(j, i, cell.text, ha="center", va="center", fontsize=6, color=cell.colour,
                        fontweight=weight)  # fmt: skip
                if cell.bold:  # outlined in the text's colour: it contrasts with the cell
                    corner = (j - 0.45, i - 0.45)
                    ax.add_patch(Rectangle(corner, 0.9, 0.9, fill=False, edgecolor=cell.colour, lw=0.8))
        if title is None:
            ax.set_xticks(range(columns), column_labels, rotation=70, ha="right", fontsize=7)
        else:
            ax.set_xticks(range(columns), column_labels, fontsize=7)
            ax.set_xlabel("players", fontsize=8)
            ax.set_title(title, fontsize=9)
        ax.set_yticks(range(rows), row_labels, fontsize=8)
    scale = plt.cm.ScalarMappable(Normalize(-CLIP, CLIP), COLORMAP)
    pad = 0.06 if board.get("all_counts") else 0.02  # above the panels' titles
    bar = fig.colorbar(scale, ax=axes[0].tolist(), location="top", extend="both", fraction=0.04, pad=pad,
                       aspect=60)  # fmt: skip
    bar.ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    bar.ax.tick_params(labelsize=7)
    bar.set_label(colour_bar_label(board), fontsize=7)
    try:  # the temporary file has no .png to name the format by
        write_atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=130, bbox_inches="tight"))
    finally:
        plt.close(fig)


def write_outputs(
    board: dict[str, Any], json_path: Path, markdown_path: Path | None, png_path: Path | None
) -> None:
    """The JSON, and (where given) the Markdown page and the heatmap rendered from it, each written
    atomically (:func:`hearts_env.files.write_atomic`: a kill leaves the old file or the new one)."""
    write_json(json_path, board)
    if markdown_path:
        links = {"numbers": json_path} | ({"heatmap": png_path} if png_path else {})
        relative = {what: os.path.relpath(path, markdown_path.parent) for what, path in links.items()}
        write_atomic(markdown_path, markdown(board, relative))
    if png_path:
        write_png(board, png_path)


def read(path: Path) -> dict[str, Any]:
    """A leaderboard JSON written by :func:`write_outputs` (a clear error for anything else, and
    for one edited by hand into what no leaderboard writes: :func:`check_board`). The file is never
    touched here: a command refuses to go on over a file it did not write, and keeps it."""
    try:
        board = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{path} is not a readable leaderboard JSON ({one_line(error)})") from None
    if not isinstance(board, dict) or board.get("format") != FORMAT:
        raise ValueError(f"{path} is not a leaderboard JSON (format {FORMAT!r}); choose another --json")
    try:
        check_board(board)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{path} is not a leaderboard this command wrote ({one_line(error)}); it is kept as it is: "
            "restore it, delete it or choose another --json"
        ) from None
    return board


_BOARD_KEYS = {"format", "run", "deals", "tables", "seed", "agents", "configs", "cells"}
_BOARD_OPTIONAL = {"all_counts", "specs"}  # the earliest leaderboards lack them
_PLAYED_KEYS = {"agent", "preset", "num_players", "deals", "diff", "ci95", "verdict"}
_PLAYED_OPTIONAL = {"spec", "reference", "weights", "ms_per_decision", "record", "command", "commit"}
_EMPTY_KEYS = {"agent", "preset", "num_players", "reason"}
_VERDICTS = ("better", "no difference", "worse")


def _whole(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _finite(value: Any, low: float | None = None) -> bool:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return ok and (low is None or value >= low)


def _keys(what: str, value: Any, required: set[str], optional: set[str]) -> None:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object, got {type(value).__name__}")
    missing, unknown = required - set(value), set(value) - required - optional
    if missing or unknown:
        raise ValueError(f"{what} must have the entries {sorted(required)}: missing {sorted(missing)}, "
                         f"unknown {sorted(unknown)}")  # fmt: skip


def check_board(board: dict[str, Any]) -> None:
    """``ValueError`` saying what is wrong when ``board`` is not what :func:`run` writes: its
    entries, their types and ranges, at most one cell for every agent in every configuration (a
    leaderboard stopped part-way holds the cells played so far), and each played cell's verdict
    agreeing with its difference and interval."""
    _keys("the leaderboard", board, _BOARD_KEYS, _BOARD_OPTIONAL)
    for key, low in (("deals", 1), ("tables", 1), ("seed", 0)):
        if not _whole(board[key], low):
            raise ValueError(f"{key} must be an int >= {low}, got {board[key]!r}")
    if not isinstance(board.get("all_counts", False), bool):
        raise ValueError(f"all_counts must be true or false, got {board['all_counts']!r}")
    if not isinstance(board["run"], dict):
        raise ValueError(f"run must be an object, got {board['run']!r:.80}")
    names = board["agents"]
    if (
        not isinstance(names, list)
        or not all(isinstance(a, str) for a in names)
        or len(set(names)) < len(names)
    ):
        raise ValueError(f"agents must be a list of distinct names, got {names!r:.200}")
    specs = board.get("specs", names)
    if not isinstance(specs, list) or len(specs) != len(names) or not all(isinstance(s, str) for s in specs):
        raise ValueError(f"specs must be a list of {len(names)} agent specs, got {specs!r:.200}")
    better: dict[tuple[Any, Any], str] = {}
    if not isinstance(board["configs"], list):
        raise ValueError(f"configs must be a list, got {board['configs']!r:.80}")
    for config in board["configs"]:
        _keys("a configuration", config, {"preset", "num_players", "family", "reference"}, set())
        if config["family"] not in FAMILIES or not _whole(config["num_players"], 1):
            raise ValueError(f"a configuration must name a game family and a player count, got {config!r}")
        better[config["preset"], config["num_players"]] = FAMILIES[config["family"]].better
    if len(better) < len(board["configs"]):
        raise ValueError("configs must be distinct")
    cells = board["cells"]
    if not isinstance(cells, list):
        raise ValueError(f"cells must be a list, got {cells!r:.80}")
    seen = set()
    for cell in cells:
        if isinstance(cell, dict) and "diff" in cell:
            _keys("a played cell", cell, _PLAYED_KEYS, _PLAYED_OPTIONAL)
            _check_played(cell, better.get((cell["preset"], cell["num_players"]), "lower"))
        else:
            _keys("an empty cell", cell, _EMPTY_KEYS, set())
            if not isinstance(cell["reason"], str) or not cell["reason"]:
                raise ValueError(f"an empty cell must say why, got {cell!r:.200}")
        where = (cell["agent"], cell["preset"], cell["num_players"])
        if cell["agent"] not in names or where[1:] not in better or where in seen:
            raise ValueError(f"the cell {where} is not one of the agents' in one of the configurations, once")
        seen.add(where)


def _check_played(cell: dict[str, Any], better: str) -> None:
    """A played cell's numbers: finite, its verdict the one its difference and interval give."""
    where = f"the cell of {cell['agent']!r} in {cell['preset']}-{cell['num_players']}"
    if not _whole(cell["deals"], 1) or not _finite(cell["diff"]) or not _finite(cell["ci95"], 0):
        raise ValueError(f"{where} must hold deals >= 1, a finite diff and ci95 >= 0, got {cell!r:.200}")
    if cell.get("ms_per_decision") is not None and not _finite(cell["ms_per_decision"], 0):
        raise ValueError(
            f"{where}: ms_per_decision must be a non-negative number, got {cell['ms_per_decision']!r}"
        )
    for key in _PLAYED_OPTIONAL - {"ms_per_decision"}:
        if cell.get(key) is not None and not isinstance(cell[key], str):
            raise ValueError(f"{where}: {key} must be text, got {cell[key]!r:.80}")
    diff, ci = cell["diff"], cell["ci95"]
    # The numbers are rounded to 4 places: a verdict at the edge of its interval may go either way.
    possible = {verdict(d, ci, better) for d in (diff - 1e-3, diff, diff + 1e-3)}
    if cell["verdict"] not in possible:
        raise ValueError(f"{where}: the verdict {cell['verdict']!r} does not follow from diff {diff} ± {ci}")
