"""``make run``: play and render a few deals, then print the throughput table.

Shows the PettingZoo env at work (one deal of standard Hearts with every trick rendered, one
deal of Black Maria's final table), then measures decisions per second (short runs; ``make
bench`` measures longer).
"""

from __future__ import annotations

import argparse

import numpy as np

import hearts_env
from benchmarks import throughput


def play_and_render(preset: str, seed: int, every_trick: bool, **options: object) -> None:
    """One deal with random legal play, printing the table after each trick (or at the end)."""
    env = hearts_env.env(preset, render_mode="ansi", **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = env.unwrapped
    print(env.render(), "\n")
    infos: dict[str, dict] = {}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            infos[agent] = info
            env.step(None)
            continue
        trick_before = int(raw.table.trick_number[0])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if every_trick and env.agents and int(raw.table.trick_number[0]) != trick_before:
            print(env.render(), "\n")
    points = {a: i["deal_points"] for a, i in infos.items()}
    print(env.render())
    print(f"deal points: {points}\n")


def main(argv: list[str] | None = None) -> None:
    """Command line for the demo."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per throughput measurement")
    args = parser.parse_args(argv)
    print("=== standard Hearts, one deal (random legal play), after every trick ===\n")
    play_and_render("hearts", seed=1, every_trick=True)
    print("=== Black Maria, 3 players: the finished deal ===\n")
    play_and_render("black_maria", seed=2, every_trick=False)
    print("=== throughput (decisions per second, random legal play) ===\n")
    print(throughput.table_text(throughput.run(args.seconds)))


if __name__ == "__main__":
    main()
