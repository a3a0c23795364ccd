"""How strong the ``smear`` heuristic is: its side against another agent in every Smear configuration.

For each smear preset and player count, ``--deals`` deals are played twice on the same seeds:
once with the ``smear`` agent in seat 0's side (every seat of that side; in cut-throat games
seat 0 alone) and once in seat 1's side, the other seats played by the opponent agent, so that
the luck of the cards cancels. Each deal's score is the smear side's deal points minus the mean
of the other sides' (``Table.deal_points``: every seat carries its side's points); the table
prints the mean and a 95% confidence interval over the deal pairs::

    python experiments/smear-heuristic-margin/smear_strength.py --deals 2000 --opponents random lowest
    python experiments/smear-heuristic-margin/smear_strength.py --agent smear:margin=0.5 --presets smear_widow
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import agents
from hearts_env.presets import all_configs, make_rules
from hearts_env.table import Table


def play(rules, hero_spec: str, opponent_spec: str, hero_seat: int, deals: int, seed: int, batch: int):
    """(deals,) the hero side's deal points minus the other sides' mean, deal by deal."""
    hero = agents.from_spec(hero_spec, rules)
    other = agents.from_spec(opponent_spec, rules)
    team_of = np.array(rules.team_of)
    hero_team = team_of[hero_seat]
    is_hero = team_of == hero_team
    table = Table(rules, num_games=batch)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed + 1)
    out: list[float] = []
    while len(out) < deals:
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        seat = table.current_player
        a_hero = hero.act(obs, rng)
        a_other = other.act(obs, rng)
        actions = np.where(is_hero[seat], a_hero, a_other)
        result = table.step(actions)
        ended = np.flatnonzero(result.deal_ended)
        if len(ended):
            points = table.deal_points[ended].astype(float)  # (k, P) per seat, its side's points
            mine = points[:, hero_seat]
            sides = [points[:, seats[0]] for seats in _sides(rules) if team_of[seats[0]] != hero_team]
            out.extend(mine - np.mean(sides, axis=0))
            table.redeal(np.flatnonzero(table.deal_over))
    return np.array(out[:deals])


def _sides(rules) -> list[tuple[int, ...]]:
    return list(rules.teams) if rules.teams else [(s,) for s in range(rules.num_players)]


def measure(preset: str, n: int, hero: str, opponent: str, deals: int, seed: int, batch: int) -> tuple:
    rules = make_rules(preset, num_players=n)
    a = play(rules, hero, opponent, 0, deals, seed, batch)
    b = play(rules, hero, opponent, 1, deals, seed, batch)
    diff = (a + b) / 2
    mean = diff.mean()
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    return mean, half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="smear", help="the hero agent's spec")
    parser.add_argument("--opponents", nargs="+", default=["random", "lowest"])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", nargs="*", default=None, help="smear presets (default: all)")
    args = parser.parse_args(argv)
    configs = [(p, n) for p, n in all_configs() if p.startswith("smear")]
    if args.presets:
        configs = [(p, n) for p, n in configs if p in args.presets]
    head = f"{'preset':<20}{'players':>8}" + "".join(f"{'vs ' + o:>22}" for o in args.opponents)
    print(f"{args.agent} side minus the other sides, mean deal points, 95% CI, {args.deals} deal pairs")
    print(head)
    start = time.time()
    for preset, n in configs:
        cells = []
        for opponent in args.opponents:
            mean, half = measure(preset, n, args.agent, opponent, args.deals, args.seed, args.batch)
            mark = "" if mean - half > 0 else " *"
            cells.append(f"{mean:+8.3f} ± {half:.3f}{mark}".rjust(22))
        print(f"{preset:<20}{n:>8}" + "".join(cells), flush=True)
    print(f"({time.time() - start:.0f} s; * = the interval does not exclude 0 on the good side)")


if __name__ == "__main__":
    main()
