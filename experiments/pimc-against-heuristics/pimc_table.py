"""``pimc`` against each family's best heuristic in every preset at its default player count.

One seat of ``pimc`` against the heuristic in the others (``strategy`` for the Hearts family,
``smear`` for Smear), duplicate deals rotated through every seat, one tournament a preset
written to ``results/pimc/presets_margin1/<preset>.json`` (resumable: run the command again to go on).
A time budget is shared by the presets still to play, so a run that must stop early leaves
every preset with some deals rather than some presets with none. Then the table::

    python experiments/pimc-against-heuristics/pimc_table.py --deals 300 --minutes 60  # play (resumes)
    python experiments/pimc-against-heuristics/pimc_table.py --report  # the table from the JSONs

The default spec, ``pimc:worlds=8:margin=1``, is pimc's default setting with 8 worlds (its
margin written out, as it was not always the default). The table
(``results/pimc/presets_margin1_table.json``, rendered by ``python -m tools.figures``) records
the command and commit.
``--out DIR`` keeps another setting's tournaments apart (its table: ``DIR_table.json``),
e.g. ``--spec pimc:worlds=32 --out results/pimc/presets_worlds32``. (``results/pimc/margin0/``
holds the table of the earlier default, recorded as ``pimc:worlds=8``: margin 0, the heuristic
as rollout and fallback.)
A preset ``pimc`` cannot play would be listed with the reason (it plays all of them);
``--presets a,b`` plays only those.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import agents
from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env import make_rules
from hearts_env.files import write_json
from hearts_env.presets import PRESETS, preset_names

OUT = Path("results/pimc/presets_margin1")
SPEC = "pimc:worlds=8:margin=1"


def heuristic(preset: str) -> str:
    """The family's best heuristic for ``preset``."""
    return agents.family_defaults(make_rules(preset).game).heuristic


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def table_path(out: Path) -> Path:
    """Where the table of the tournaments in ``out`` goes (no suffix): ``out`` + ``_table``."""
    return out.with_name(out.name + "_table")


def play(
    spec: str,
    deals: int,
    tables: int,
    minutes: float,
    seed: int,
    only: list[str] | None = None,
    out: Path = OUT,
) -> None:
    """Play (or resume) every preset's tournament (``only`` those, if given) within ``minutes``
    in all, one JSON a preset in ``out``."""
    began = time.perf_counter()
    names = preset_names() if only is None else only
    for i, preset in enumerate(names):
        rules = make_rules(preset)
        refusal = agents.refusal(spec.split(":")[0], rules)
        if refusal is not None:
            print(f"{preset}: not played ({refusal})")
            continue
        left = minutes * 60 - (time.perf_counter() - began)
        share = left / (len(names) - i)
        base = heuristic(preset)
        config = TournamentConfig(
            preset=preset,
            agents=[spec] + [base] * (rules.num_players - 1),
            deals=deals,
            tables=tables,
            seed=seed,
        )
        report = Tournament(config, json_path=out / f"{preset}.json", progress=False).run(time_limit_s=share)
        pair = report["pairs"][0] if report["pairs"] else None
        print(f"{preset}: {report['deals']} deals, {pair}", flush=True)


def report(spec: str, out: Path = OUT) -> dict[str, Any]:
    """The table from the presets' JSON files in ``out``."""
    rows = []
    for preset in preset_names():
        rules = make_rules(preset)
        refusal = agents.refusal(spec.split(":")[0], rules)
        path = out / f"{preset}.json"
        row: dict[str, Any] = {"preset": preset, "players": rules.num_players, "heuristic": heuristic(preset)}
        if refusal is not None or not path.exists():
            row["not_played"] = refusal or "no result yet"
            rows.append(row)
            continue
        data = json.loads(path.read_text())
        pair = data["pairs"][0]
        sign = 1 if data.get("better") == "higher" else -1  # "pimc better" is a negative difference in Hearts
        times = {t["name"]: t["ms_per_decision"] for t in data.get("move_times", [])}
        row.update(
            deals=data["deals"],
            pimc_minus_heuristic=pair["mean_diff"],
            ci95=pair["ci95"],
            pimc_better=sign * pair["mean_diff"] > pair["ci95"],
            heuristic_better=-sign * pair["mean_diff"] > pair["ci95"],
            pimc_ms_per_decision=times.get(pair["a"]),
            command=data["runs"][-1]["command"] if data.get("runs") else None,
        )
        rows.append(row)
    where = "" if out == OUT else f" --out {out}"
    command = f"python experiments/pimc-against-heuristics/pimc_table.py --spec {spec}{where} (then --report)"
    table = {
        "spec": spec,
        "command": command,
        "commit": _commit(),
        "runs": [
            {
                "command": command,
                "commit": _commit(),
                "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            }
        ],
        "rows": rows,
        "presets_with_pimc_better": sum(bool(r.get("pimc_better")) for r in rows),
        "presets_played": sum("deals" in r for r in rows),
        "presets": len(PRESETS),
    }
    path = table_path(out)
    write_json(path.with_suffix(".json"), table, indent=1)
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spec", default=SPEC, help=f"the pimc spec (default: {SPEC})")
    parser.add_argument("--deals", type=int, default=300, help="deals per preset (default 300)")
    parser.add_argument("--tables", type=int, default=50, help="tables per round (default 50)")
    parser.add_argument("--minutes", type=float, default=60.0, help="time for every preset together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", help="comma-separated presets to play (default: every preset)")
    parser.add_argument("--report", action="store_true", help="only write the table from the JSON files")
    parser.add_argument(
        "--out",
        type=Path,
        default=OUT,
        help=f"the tournaments' folder (default {OUT}); the table is written beside it as OUT_table.json",
    )
    args = parser.parse_args(argv)
    only = None if args.presets is None else [name.strip() for name in args.presets.split(",")]
    unknown = sorted(set(only or ()) - set(PRESETS))
    if unknown:
        parser.error(f"unknown presets {unknown}: choose among {', '.join(PRESETS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.report:
        play(args.spec, args.deals, args.tables, args.minutes, args.seed, only, args.out)
    table = report(args.spec, args.out)
    print(
        f"pimc better in {table['presets_with_pimc_better']} of {table['presets_played']} presets played; "
        f"the table: {table_path(args.out).with_suffix('.json')} (python -m tools.figures --write renders it)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
