"""How often ``pimc`` overrules its fallback's card, by ``margin``: a diagnostic of the search's
noise. Games of ``strategy`` self-play; at every position each setting is asked for the card and
compared with the fallback's (the family's heuristic)::

    python experiments/pimc-against-heuristics/pimc_deviation.py --presets black_lady_foster,hearts \\
        --json out.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from pimc_table import _commit  # the script beside this one

import agents
from hearts_env import Table, make_rules
from hearts_env.files import write_json


def deviation(preset: str, margins: list[float], worlds: int, games: int, seed: int) -> dict:
    """Positions with a choice of card, and for each margin the share where pimc plays another card
    than the fallback would."""
    rules = make_rules(preset)
    base = agents.from_rules(agents.family_defaults(rules.game).heuristic, rules)
    searches = [agents.from_rules("pimc", rules, worlds=worlds, margin=m) for m in margins]
    table = Table(rules, num_games=games)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    positions, differ = 0, [0] * len(margins)
    while not table.deal_over.all():
        live = np.flatnonzero(~table.deal_over)
        obs = {"observation": table.observe()[live], "action_mask": table.action_mask()[live]}
        chosen = base.act(obs, rng)
        phase = base.view(obs, "phase")[:, rules.phases.index("playing")] > 0.5
        choice = phase & ((obs["action_mask"][:, : rules.card_slots] > 0).sum(axis=1) > 1)
        positions += int(choice.sum())
        for k, search in enumerate(searches):
            differ[k] += int((search.act(obs, np.random.default_rng(seed)) != chosen)[choice].sum())
        actions = np.zeros(table.num_games, np.int64)
        actions[live] = chosen
        table.step(actions)
    return {
        "preset": preset,
        "positions": positions,
        "overruled": {str(m): round(d / max(positions, 1), 4) for m, d in zip(margins, differ)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--presets", default="black_lady_foster,hearts")
    parser.add_argument("--margins", default="0,1")
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    margins = [float(m) for m in args.margins.split(",")]
    rows = []
    for preset in args.presets.split(","):
        row = deviation(preset.strip(), margins, args.worlds, args.games, args.seed)
        rows.append(row)
        shares = ", ".join(f"{share:.1%} (margin {m})" for m, share in row["overruled"].items())
        print(
            f"{row['preset']}: {row['positions']} card plays with a choice; "
            f"pimc overrules the fallback in {shares}"
        )
    if args.json:
        commit = _commit()
        command = "python experiments/pimc-against-heuristics/pimc_deviation.py " + " ".join(
            argv if argv is not None else sys.argv[1:]
        )
        write_json(args.json, {"command": command, "commit": commit, "worlds": args.worlds, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
