"""The periodic evaluation of a run: duplicate tournaments (:mod:`evaluation.duplicate`) of the
policy against each of ``eval_opponents``.

Each is the tournament ``hearts-env tournament --agents ppo:checkpoint=RUN/policy.pt,X,X,X``
would play (X: the opponent, the policy's partners its own copies), and its number the
tournament's pair difference: the policy's mean points a deal minus the opponent's, over the
duplicate deals, with its 95% interval (:func:`training.summary.tournament_command` writes the
command). A tournament of other agents together (``make run``'s four) seats other company at
each table, so its pair differences for the same two agents are other numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hearts_env.core.rules import Rules
from training.config import Args, family_setting


def evaluate(policy_path: Path, rules: Rules, args: Args) -> list[dict[str, Any]]:
    """Duplicate tournaments of the policy (greedy) alone against copies of each eval opponent."""
    from evaluation.duplicate import Tournament, TournamentConfig

    spec = f"ppo:checkpoint={policy_path}"
    results = []
    for opponent in family_setting(args, rules.game, "eval_opponents"):
        # The policy holds seat 0's side (alone, or with its partners in a partnership game).
        seats = [
            spec if rules.team_of[seat] == rules.team_of[0] else opponent for seat in range(rules.num_players)
        ]
        config = TournamentConfig(
            preset=args.preset, num_players=rules.num_players, options=dict(args.options),
            agents=seats, deals=args.eval_deals,
            tables=min(args.eval_deals, 250), seed=args.seed + 1,
        )  # fmt: skip
        report = Tournament(config, progress=False, labels={spec: spec, opponent: opponent}).run()
        pair = next(p for p in report["pairs"] if {p["a"], p["b"]} == {spec, opponent})
        sign = 1 if pair["a"] == spec else -1
        points = {row["name"]: row["mean_points"] for row in report["agents"]}
        results.append({
            "opponent": opponent, "deals": report["deals"], "ppo_points": points[spec],
            "opponent_points": points[opponent], "diff": sign * pair["mean_diff"], "ci95": pair["ci95"],
            "illegal": sum(row["illegal"] for row in report["agents"]), "seats": seats,
            "seatings": len(report["rotations"]), "tables": config.tables, "seed": config.seed,
        })  # fmt: skip
    return results
