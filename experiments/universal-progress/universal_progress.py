"""A universal network's margin against the heuristic, preset by preset, as it trains: a plot.

Reads a leaderboard whose rows are checkpoints of one training run (``ppo:checkpoint=PATH``
specs, e.g. ``results/universal/progress_hearts.json``), takes each checkpoint's decisions
trained from the file (``trained["decisions"]``), and draws one panel per configuration: the
margin (the agent's points a deal minus the reference's) with its 95% interval against the
decisions, and the line at 0 that a better network crosses::

    python experiments/universal-progress/universal_progress.py results/universal/progress_hearts.json
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from agents import parse_spec
from hearts_env.files import write_atomic
from hearts_env.games import family
from hearts_env.presets import make_rules


def decisions_of(spec: str) -> int:
    """Decisions the checkpoint of a ``ppo:checkpoint=PATH`` spec was trained for: from its file, or,
    for a checkpoint kept only in the git history, from ``checkpoints.json`` in its folder."""
    name, params = parse_spec(spec)
    if name != "ppo" or "checkpoint" not in params:
        raise ValueError(f"{spec!r} is not a ppo:checkpoint=PATH spec: each row must be a checkpoint")
    path = Path(params["checkpoint"])
    if not path.exists():
        return _recorded_decisions(path)
    import torch  # noqa: PLC0415  (only this reads a checkpoint)

    content = torch.load(path, map_location="cpu", weights_only=True)
    return int((content.get("trained") or {}).get("decisions", 0))


def _recorded_decisions(path: Path) -> int:
    """The decisions ``checkpoints.json`` beside ``path`` records for a checkpoint removed from the tree
    (results/README.md: the history leaves the tree, its names, sizes and digests stay)."""
    listing = path.parent / "checkpoints.json"
    entries = json.loads(listing.read_text())["checkpoints"] if listing.exists() else []
    for entry in entries:
        if Path(entry["path"]).name == path.name:
            return int(entry["decisions"])
    raise FileNotFoundError(
        f"checkpoint {path} is missing and {listing} does not list it: restore it from the git history "
        f"with `git show COMMIT:{path.as_posix()} > {path.as_posix()}` (COMMIT: the last one that has it)"
    )


def curves(
    board: dict[str, Any], agents: Collection[str] | None = None
) -> dict[tuple[str, int], list[tuple[int, float, float]]]:
    """(preset, players) -> [(decisions, margin, ci95)], in training order (of ``agents`` only,
    when given)."""
    names = [a for a in board["agents"] if agents is None or a in agents]
    decisions = {
        name: decisions_of(spec) for name, spec in zip(board["agents"], board["specs"]) if name in names
    }
    out: dict[tuple[str, int], list[tuple[int, float, float]]] = {}
    for cell in board["cells"]:
        if "diff" in cell and cell["agent"] in decisions:
            key = (cell["preset"], cell["num_players"])
            out.setdefault(key, []).append((decisions[cell["agent"]], cell["diff"], cell["ci95"]))
    return {key: sorted(points) for key, points in out.items()}


def plot(board: dict[str, Any], path: Path, line: Sequence[str] = ()) -> None:
    """One panel per configuration: margin ± 95% interval against millions of decisions. The
    checkpoints of ``line`` (labels; empty: every row) are joined by a line, in training order; the
    others (runs that branched off it) are drawn as points alone."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    unknown = sorted(set(line) - set(board["agents"]))
    if unknown:
        raise ValueError(f"--line: {', '.join(unknown)} not rows of the board ({', '.join(board['agents'])})")
    data = curves(board, line or None)
    branches = curves(board, set(board["agents"]) - set(line)) if line else {}
    cols = 6
    rows = math.ceil(len(data) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(2.6 * cols, 2.2 * rows), squeeze=False)
    for ax, ((preset, n), points) in zip(axes.flat, data.items()):
        x = [d / 1e6 for d, _, _ in points]
        y = [m for _, m, _ in points]
        e = [c for _, _, c in points]
        lower = family(make_rules(preset, num_players=n)).better == "lower"
        good = [(m + c < 0) if lower else (m - c > 0) for _, m, c in points]
        ax.axhline(0, color="grey", lw=0.8)
        ax.errorbar(x, y, yerr=e, color="tab:blue", marker="o", ms=3, capsize=2, lw=1)
        side = branches.get((preset, n), [])
        if side:
            ax.errorbar(
                [d / 1e6 for d, _, _ in side], [m for _, m, _ in side], yerr=[c for _, _, c in side],
                color="tab:orange", marker="s", ms=3, capsize=2, lw=0, elinewidth=1,
            )  # fmt: skip
        ax.scatter(
            [a for a, g in zip(x, good) if g], [b for b, g in zip(y, good) if g], color="tab:green", zorder=3
        )
        ax.set_title(f"{preset} ({n}p)", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(data) :]:
        ax.axis("off")
    first = board["configs"][0]
    lowest = family(make_rules(first["preset"], num_players=first["num_players"])).better == "lower"
    better = "below 0" if lowest else "above 0"
    fig.suptitle(
        f"margin against the reference (points a deal, 95% interval, {board['deals']} deals) by millions "
        f"of decisions trained; better {better}, green where the interval excludes 0"
        + ("; orange: runs that branched off the line" if branches else ""),
        fontsize=9,
    )
    fig.tight_layout()
    write_atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=110))
    plt.close(fig)


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(
        prog="python experiments/universal-progress/universal_progress.py",
        description=(__doc__ or "").split("\n")[0],
    )
    parser.add_argument("board", type=Path, help="a leaderboard JSON whose rows are checkpoints of one run")
    parser.add_argument("--png", type=Path, help="default: beside the board, <name>_curves.png")
    parser.add_argument(
        "--line", default="", help="the rows (labels, comma-separated) joined by the line; default: all"
    )
    args = parser.parse_args(argv)
    board = json.loads(args.board.read_text())
    out = args.png or args.board.with_name(args.board.stem + "_curves.png")
    plot(board, out, tuple(filter(None, (x.strip() for x in args.line.split(",")))))
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()
