"""Auction Hearts: how an agent bids, names the suit and scores, beside the heuristic on the same deals.

Auction Hearts (``auction_hearts``) opens each deal with an auction: the highest bidder pays his
bid in points, names the penalty suit and leads. A network that bids too often or too high pays
for it in chips whatever it does in the play. This plays ``--deals`` single deals at each player
count, the agent in one seat (seat ``deal % players``) and the reference heuristic (``strategy``)
in the others, and then the same deals with the heuristic in that seat too; for the seat it
reports the mean deal points, how often it won the auction (a fair share is 1/players), its mean
winning bid, its card points in the deals it won and lost, how often it bid at all, and the suits
it named::

    python experiments/auction-bids/auction_bids.py --agent ppo:network=universal \\
        --json results/universal/auction_bids.json

The points are each deal's own (one deal, no game), the seat's mean minus the heuristic seat's
mean on the same deals is its margin (lower is better); ``deals`` of them, no interval: this is a
diagnosis of where the points go, the leaderboard's duplicate cells are the measure of strength.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

import agents
from evaluation.provenance import run_record
from hearts_env.files import write_atomic, write_json
from hearts_env.presets import PRESETS, make_rules
from hearts_env.table import Table

PRESET = "auction_hearts"


def play(num_players: int, spec: str, deals: int, seed: int) -> dict[str, Any]:
    """One deal in each of ``deals`` games, ``spec`` in seat ``game % num_players``, ``strategy``
    elsewhere; what that seat bid, named and scored."""
    rules = make_rules(PRESET, num_players=num_players)
    names = rules.action_names
    table = Table(rules, deals)
    table.reset(seed=seed)
    rows = np.arange(deals)
    focal = rows % num_players
    agent, reference = agents.from_spec(spec, rules), agents.from_spec("strategy", rules)
    rng = np.random.default_rng(seed)
    bid = np.zeros((deals, num_players), np.int64)  # each seat's bid (0: passed or never bid)
    named = np.full(deals, -1, np.int64)
    while not table.deal_over.all():
        live = ~table.deal_over
        seat = table.current_player.copy()
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        actions = np.asarray(reference.act(obs, rng), np.int64).copy()
        mine = np.flatnonzero((seat == focal) & live)
        if len(mine):
            actions[mine] = agent.act({k: v[mine] for k, v in obs.items()}, rng)
        for g in np.flatnonzero(live):
            name = names[actions[g]]
            if name.startswith("bid:"):
                bid[g, seat[g]] = int(name.removeprefix("bid:"))
            elif name.startswith("suit:"):
                named[g] = "CDHS".index(name.removeprefix("suit:"))
        table.step(actions)
    points = table.deal_points[rows, focal].astype(np.float64)
    winner = bid.argmax(axis=1)  # bids rise: the highest is the auction's winner
    won, paid = winner == focal, bid[rows, winner]
    cards = points - np.where(won, paid, 0)
    return {
        "points": float(points.mean()),
        "won_auction": float(won.mean()),
        "bid_when_won": float(paid[won].mean()) if won.any() else None,
        "cards_when_won": float(cards[won].mean()) if won.any() else None,
        "cards_when_lost": float(cards[~won].mean()) if (~won).any() else None,
        "bid_at_all": float((bid[rows, focal] > 0).mean()),
        "named": dict(zip("CDHS", np.bincount(named[won], minlength=4).tolist(), strict=True)),
    }


def measure(spec: str, deals: int, seed: int, counts: list[int]) -> dict[str, Any]:
    """Both seatings at every player count in ``counts``."""
    rows = []
    for n in counts:
        mine, ref = play(n, spec, deals, seed), play(n, "strategy", deals, seed)
        rows.append({"num_players": n, "agent": mine, "strategy": ref,
                     "margin": mine["points"] - ref["points"]})  # fmt: skip
    return {"preset": PRESET, "agent": spec, "deals": deals, "seed": seed, "rows": rows}


def markdown(result: dict[str, Any]) -> str:
    """The table: one row per player count and seating."""

    def num(x: float | None, digits: int = 2) -> str:
        return "–" if x is None else f"{x:.{digits}f}"

    lines = [
        f"Auction Hearts, `{result['agent']}` in one seat and `strategy` in the others, then `strategy` "
        f"in that seat too, on the same {result['deals']:,} single deals (seed {result['seed']}); the "
        "seat's mean points a deal (lower is better), how often it won the auction (a fair share is "
        "1/players), its mean winning bid, its card points in the deals it won and lost, how often it "
        "bid, and the suits it named. Made by `" + result["run"]["command"] + "` at commit "
        f"`{result['run']['commit'][:12]}`.",
        "",
        "| players | seat | points | margin | won the auction | bid when won | cards when won "
        "| cards when lost | bid at all | named C/D/H/S |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in result["rows"]:
        for who in ("agent", "strategy"):
            r = row[who]
            margin = f"{row['margin']:+.2f}" if who == "agent" else ""
            label = f"`{result['agent']}`" if who == "agent" else "`strategy`"
            lines.append(
                f"| {row['num_players']} | {label} | {r['points']:.2f} | {margin} | {r['won_auction']:.0%} | "
                f"{num(r['bid_when_won'])} | {num(r['cards_when_won'])} | {num(r['cards_when_lost'])} | "
                f"{r['bid_at_all']:.0%} | {'/'.join(str(v) for v in r['named'].values())} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python experiments/auction-bids/auction_bids.py", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--agent", default="ppo:network=universal", help="the agent spec in the one seat")
    parser.add_argument("--deals", type=int, default=2000, help="single deals at each player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--players", default=",".join(str(n) for n in PRESETS[PRESET].counts), help="player counts"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the result here (and a .md beside it)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")
    counts = [int(x) for x in args.players.split(",") if x.strip()]
    for n in counts:
        if n not in PRESETS[PRESET].counts:
            parser.error(f"--players: {PRESET} is played by {PRESETS[PRESET].counts}, not {n}")
    result = measure(args.agent, args.deals, args.seed, counts)
    result["run"] = run_record(
        "python experiments/auction-bids/auction_bids.py " + " ".join(sys.argv[1:] if argv is None else argv)
    )
    text = markdown(result)
    print(text)
    if args.json is not None:
        write_json(args.json, result, indent=1)
        write_atomic(args.json.with_suffix(".md"), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
