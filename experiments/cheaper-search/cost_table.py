"""What a ``pimc`` decision costs in every preset, and the cheaper setting where it plays.

For each preset at its default player count, one short duplicate tournament times the agents'
``act()`` side by side (``ms/decision``, batched over the tables): the default ``pimc`` against
the cheaper setting (``--cheaper``, default ``pimc:rollout=fast:worlds=32``: the Hearts family's
bit-mask rollouts, so Hearts-family presets only), else against the family's heuristic (so that
pimc holds half the seats).
Written to ``results/pimc/cheaper/cost_table.json`` with the command and commit::

    python experiments/cheaper-search/cost_table.py --deals 20 --tables 20

(``--presets a,b`` for some only.) Strength is not judged here: 20 deals tell nothing about it;
the 1000-deal comparisons are the README's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import agents
from agents.defaults import family_defaults
from evaluation.duplicate import Tournament, TournamentConfig
from evaluation.provenance import run_record
from hearts_env import make_rules
from hearts_env.files import write_json
from hearts_env.presets import preset_names

OUT = Path("results/pimc/cheaper/cost_table.json")
CHEAPER = "pimc:rollout=fast:worlds=32"


def _plays(spec: str, rules) -> bool:
    """Whether the agent ``spec`` plays ``rules`` (a bit-mask rollout plays the Hearts family only)."""
    try:
        agents.from_spec(spec, rules)
    except ValueError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default="", help="comma-separated presets (default: all)")
    parser.add_argument("--cheaper", default=CHEAPER, help=f"the cheaper setting (default: {CHEAPER})")
    args = parser.parse_args(argv)
    names = args.presets.split(",") if args.presets else preset_names()
    rows = []
    for preset in names:
        rules = make_rules(preset)
        cheaper = _plays(args.cheaper, rules)
        other = args.cheaper if cheaper else family_defaults(rules.game).heuristic
        config = TournamentConfig(
            preset=preset, agents=["pimc", other], deals=args.deals, tables=args.tables, seed=args.seed
        )
        start = time.perf_counter()
        report = Tournament(config, progress=False).run()
        times = {row["name"]: row for row in report["move_times"]}
        row = {
            "preset": preset,
            "num_players": rules.num_players,
            "pimc_ms": times["pimc"]["ms_per_decision"],
            "decisions": times["pimc"]["decisions"],
            "cheaper": args.cheaper if cheaper else None,
            "cheaper_ms": times[args.cheaper]["ms_per_decision"] if cheaper else None,
            "seconds": round(time.perf_counter() - start, 1),
        }
        rows.append(row)
        print(row, flush=True)
    given = sys.argv[1:] if argv is None else argv
    write_json(OUT, {
        "runs": [run_record("python experiments/cheaper-search/cost_table.py " + " ".join(given))],
        "deals": args.deals,
        "tables": args.tables,
        "rows": rows,
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
