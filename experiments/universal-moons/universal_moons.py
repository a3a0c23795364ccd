"""Moons shot against an agent, from a leaderboard's cells: where a Hearts network loses its points.

For every Hearts-family cell of one leaderboard row whose rules have a moon, this reads the cell's
tournament record (the agent's ``moons_allowed``, ``moons_shot`` and ``seat_deals``) and plays the
same deals (same preset, player count, deals, tables and seed) with the reference heuristic in
every seat, for the rate at which it shoots the moon against one of its own seats. The table puts
the agent's margin beside the two rates: a network that lets the heuristic shoot far more often
than the heuristic lets itself loses those deals' points, whatever it does in the others::

    python experiments/universal-moons/universal_moons.py --board results/universal/progress_hearts.json \\
        --agent 44.7M --out results/universal/moons.json

The cells' records are the files the leaderboard wrote under its ``--dir`` (not committed):
run the leaderboard's command (in its JSON) first where they are missing. The reference tables'
own records go under ``--dir`` too, so a second run reads them back.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from evaluation.duplicate import Tournament, TournamentConfig
from evaluation.provenance import run_record
from hearts_env.files import write_atomic, write_json
from hearts_env.presets import make_rules, preset_names

PROG = "python experiments/universal-moons/universal_moons.py"
"""How this script is run (its help and the command its JSON records)."""

HEARTS_FAMILY = frozenset(preset_names("hearts"))
"""The presets whose rules may have a moon to shoot."""


def _agent_row(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(a for a in report["agents"] if a["name"] == name)


def moon_rows(board: dict[str, Any], agent: str, directory: Path) -> list[dict[str, Any]]:
    """One row per Hearts-family cell of ``agent`` with a moon: its margin and the moon rates."""
    rows = []
    for cell in board["cells"]:
        if cell["agent"] != agent or "diff" not in cell:
            continue
        rules = make_rules(cell["preset"], num_players=cell["num_players"])
        if cell["preset"] not in HEARTS_FAMILY or rules.moon == "none":
            continue
        path = Path(cell["record"])
        if not path.exists():
            raise FileNotFoundError(
                f"{path} (the record of {agent} in {cell['preset']}) is missing: run the leaderboard's "
                f"command first ({board['run']['command']})"
            )
        mine = _agent_row(json.loads(path.read_text()), agent)
        ref = cell["reference"]
        config = TournamentConfig(
            preset=cell["preset"], num_players=cell["num_players"], agents=[ref],
            deals=board["deals"], tables=board["tables"], seed=board["seed"],
        )  # fmt: skip
        base_path = directory / f"{ref}-only__{cell['preset']}-{cell['num_players']}p.json"
        base = _agent_row(Tournament(config, json_path=base_path, progress=False).run(), ref)
        rows.append(
            {
                "preset": cell["preset"],
                "num_players": cell["num_players"],
                "diff": cell["diff"],
                "ci95": cell["ci95"],
                "verdict": cell["verdict"],
                "reference": ref,
                "seat_deals": mine["seat_deals"],
                "moons_against": mine["moons_allowed"],
                "moons_shot": mine["moons_shot"],
                "reference_seat_deals": base["seat_deals"],
                "reference_moons_against": base["moons_allowed"],
                "reference_moons_shot": base["moons_shot"],
            }
        )
    return rows


def markdown(report: dict[str, Any]) -> str:
    """The rows as a Markdown table (rates per 100 seat-deals)."""

    def rate(n: int, d: int) -> str:
        return f"{100 * n / d:.1f}"

    ref = report["reference"]
    lines = [
        f"Moons in the cells of `{report['agent']}` ({report['board']}): per 100 of its seat-deals, the "
        f"moons `{ref}` shot against it and the moons it shot; beside them, at a table of four `{ref}`, "
        f"the moons shot against one `{ref}` seat and by it, on the same deals. Made by "
        f"`{report['command']}` at commit `{report['runs'][-1]['commit'][:12]}`.",
        "",
        f"| preset | players | margin | moons against it | against a `{ref}` seat | it shot | `{ref}` shot |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["rows"]:
        lines.append(
            f"| {r['preset']} | {r['num_players']} | {r['diff']:+.2f} ± {r['ci95']:.2f} "
            f"| {rate(r['moons_against'], r['seat_deals'])} "
            f"| {rate(r['reference_moons_against'], r['reference_seat_deals'])} "
            f"| {rate(r['moons_shot'], r['seat_deals'])} "
            f"| {rate(r['reference_moons_shot'], r['reference_seat_deals'])} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog=PROG, description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--board", type=Path, default=Path("results/universal/progress_hearts.json"))
    parser.add_argument("--agent", help="the row (default: the board's last)")
    parser.add_argument(
        "--dir", type=Path, default=Path("results/universal/cells"), help="the reference tables' records"
    )
    parser.add_argument("--out", type=Path, default=Path("results/universal/moons.json"))
    args = parser.parse_args(argv)
    board = json.loads(args.board.read_text())
    agent = args.agent or board["agents"][-1]
    if agent not in board["agents"]:
        parser.error(f"--agent {agent!r} is not a row of {args.board} (rows: {', '.join(board['agents'])})")
    command = f"{PROG} " + shlex.join(argv if argv is not None else sys.argv[1:])
    rows = moon_rows(board, agent, args.dir)
    references = {r["reference"] for r in rows}
    report = {
        "command": command.strip(),
        "runs": [run_record(command.strip())],
        "board": str(args.board),
        "agent": agent,
        "reference": "/".join(sorted(references)) or "strategy",
        "deals": board["deals"],
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_json(args.out, report, indent=1)
    table = markdown(report)
    write_atomic(args.out.with_suffix(".md"), table)
    print(table)
    return report


if __name__ == "__main__":
    main()
