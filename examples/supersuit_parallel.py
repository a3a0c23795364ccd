"""hearts-env as a PettingZoo ParallelEnv, vectorised with SuperSuit, playing masked random moves.

A card game is turn-based: PettingZoo's ``aec_to_parallel`` refuses it (correctly), and
``hearts_env.parallel_env`` uses ``turn_based_aec_to_parallel`` instead. Every agent gets an
observation every step; only the acting agent's action counts, and the others' masks are all
zero (they send a placeholder, 0). ``action_mask="info"`` makes each observation a plain float32
``Box`` (SuperSuit's observation wrappers, like Gymnasium's, refuse a ``Dict``) and puts the
mask in ``infos[agent]["action_mask"]``; SuperSuit's vector env passes those infos through,
one per (game, agent) row.

Run (its own venv, with the ``supersuit`` extra)::

    make integration-supersuit      # or: python examples/supersuit_parallel.py --games 4 --steps 300
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import supersuit as ss

import hearts_env


@dataclass
class Summary:
    """What a run did: rows are (game, agent) pairs, SuperSuit's layout."""

    num_players: int
    rows: int
    steps: int
    deals: int  # finished deals over all games
    reward_per_row: np.ndarray  # (rows,) summed rewards
    illegal: int  # actions outside the acting agent's mask (must be 0)


def make_vec_env(preset: str, num_players: int, games: int) -> ss.vector.MarkovVectorEnv:
    """``games`` copies of the preset as one Gymnasium-style vector env of games x players rows."""
    parallel = hearts_env.parallel_env(preset, num_players=num_players, action_mask="info")
    parallel = ss.dtype_v0(parallel, np.float32)  # an observation wrapper: needs the Box
    vec = ss.pettingzoo_env_to_vec_env_v1(parallel)
    return ss.concat_vec_envs_v1(vec, games, num_cpus=0, base_class="gymnasium")


def masked_random(infos: Sequence[dict], rng: np.random.Generator) -> np.ndarray:
    """A random legal action for each acting row; 0 (ignored) for the rows that wait."""
    actions = np.zeros(len(infos), np.int64)
    for row, info in enumerate(infos):
        legal = np.flatnonzero(info["action_mask"])
        if legal.size:
            actions[row] = rng.choice(legal)
    return actions


def run(
    preset: str = "hearts", num_players: int = 4, games: int = 4, steps: int = 300, seed: int = 0
) -> Summary:
    """Play ``steps`` vector steps of masked random moves and count deals and rewards."""
    env = make_vec_env(preset, num_players, games)
    rng = np.random.default_rng(seed)
    _, infos = env.reset(seed=seed)
    totals = np.zeros(env.num_envs)
    deals = illegal = 0
    for _ in range(steps):
        actions = masked_random(infos, rng)
        acting = [row for row, info in enumerate(infos) if info["action_mask"].any()]
        illegal += sum(infos[row]["action_mask"][actions[row]] == 0 for row in acting)
        _, rewards, terminations, truncations, infos = env.step(actions)
        totals += rewards
        deals += int(np.asarray(terminations).reshape(games, num_players)[:, 0].sum())
    env.close()
    return Summary(num_players, env.num_envs, steps, deals, totals, int(illegal))


def main(argv: Sequence[str] | None = None) -> Summary:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts")
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    summary = run(args.preset, args.num_players, args.games, args.steps, args.seed)
    per_agent = summary.reward_per_row.reshape(-1, summary.num_players).sum(0)
    print(
        f"{args.preset}: {summary.rows} rows ({args.games} games x {summary.num_players} agents), "
        f"{summary.steps} steps, {summary.deals} deals, illegal actions {summary.illegal}"
    )
    print("reward per agent seat, summed over games:", " ".join(f"{r:+.0f}" for r in per_agent))
    return summary


if __name__ == "__main__":
    main()
