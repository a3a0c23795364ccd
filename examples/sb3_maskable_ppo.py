"""hearts-env with Stable-Baselines3: MaskablePPO in one learning seat, then a fair test against random.

``hearts_env.single_agent_env`` is a single-agent ``gymnasium.Env``: seat 0 learns, the other
seats are played by fixed agents (here ``random``) inside ``step``. Its ``action_masks()`` is the
method ``sb3_contrib.MaskablePPO`` reads, so every sampled action is legal. The reward (minus
the seat's deal points, paid when the deal ends) is divided by the points at stake in a deal,
to lie in [-1, 0].

The evaluation is paired: the same seeded deals (hands, and the opponents' random generator)
are played once with the trained policy in the seat (the most likely legal action) and once
with a ``random`` agent there. The seat's mean points with each, and the mean paired difference
with its 95% interval, are printed; the script exits 1 unless the interval lies wholly on the
policy's side (it takes fewer points than random).

Run: ``.venv-sb3/bin/python examples/sb3_maskable_ppo.py --minutes 3`` (Stable-Baselines3 and
sb3-contrib in their own venv, which ``make integration-sb3`` creates before it runs the tests).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import agents
import hearts_env
from hearts_env.games import family


def make_env(preset: str = "hearts", opponents: str = "random") -> gymnasium.Env:
    """One learning seat (seat 0) of ``preset`` against ``opponents``, its rewards divided by the
    points at stake in a deal (Hearts: [-1, 0])."""
    env = hearts_env.single_agent_env(preset, opponents)
    scale = family(env.rules).reward_scale(env.rules)
    return gymnasium.wrappers.TransformReward(env, lambda reward: reward * scale)


class Deadline(BaseCallback):
    """Stops training once ``seconds`` have passed."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.end = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.end


def train(
    preset: str = "hearts",
    opponents: str = "random",
    minutes: float = 3.0,
    timesteps: int | None = None,
    seed: int = 0,
    num_envs: int = 8,
) -> MaskablePPO:
    """MaskablePPO ("MlpPolicy") trained in seat 0 for ``minutes`` or ``timesteps`` seat decisions,
    whichever comes first."""
    torch.set_num_threads(1)  # small networks: one thread is fastest and leaves the other cores free
    venv = make_vec_env(lambda: make_env(preset, opponents), n_envs=num_envs, seed=seed)
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=256, batch_size=256, n_epochs=4, gamma=1.0, gae_lambda=0.95,
        learning_rate=3e-4, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, seed=seed, verbose=0,
    )  # fmt: skip
    budget = 10**12 if timesteps is None else timesteps
    model.learn(total_timesteps=budget, callback=Deadline(60.0 * minutes))
    return model


@dataclass
class Comparison:
    """The seat's points per deal with the policy and with ``random`` on the same deals."""

    deals: int
    policy_points: float
    """Mean points the seat took with the trained policy in it."""
    random_points: float
    """Mean points the seat took with a random agent in it."""
    gain: float
    """Mean of (random's points - the policy's points) over the paired deals: > 0 is better."""
    half_width: float
    """The 95% interval of :attr:`gain` is ``gain ± half_width``."""

    @property
    def beats_random(self) -> bool:
        """The 95% interval of the gain lies above 0."""
        return self.gain - self.half_width > 0

    def __str__(self) -> str:
        return (
            f"{self.deals} paired deals: seat points {self.policy_points:.2f} (policy) vs "
            f"{self.random_points:.2f} (random); gain {self.gain:+.2f} ± {self.half_width:.2f} "
            f"points a deal (95%)"
        )


def play(preset: str, opponents: str, seeds: range, choose) -> np.ndarray:
    """The seat's points in each seeded deal, ``choose(observations, masks)`` playing it; the
    deals are played side by side so the policy sees them in batches."""
    envs = [hearts_env.single_agent_env(preset, opponents) for _ in seeds]
    obs = [env.reset(seed=seed)[0] for env, seed in zip(envs, seeds)]
    points = np.zeros(len(envs))
    live = list(range(len(envs)))
    while live:
        actions = choose(np.stack([obs[i] for i in live]), np.stack([envs[i].action_masks() for i in live]))
        still = []
        for i, action in zip(live, actions):
            obs[i], _, terminated, _, info = envs[i].step(int(action))
            if terminated:
                points[i] = info["deal_points"][envs[i].seat]
            else:
                still.append(i)
        live = still
    return points


def evaluate(
    model: MaskablePPO,
    preset: str = "hearts",
    opponents: str = "random",
    deals: int = 2000,
    seed: int = 10**6,
) -> Comparison:
    """The policy against ``random`` in the seat, on ``deals`` paired seeded deals."""
    seeds = range(seed, seed + deals)
    rules = hearts_env.make_rules(preset)
    rng = np.random.default_rng(seed)
    randomly = agents.make("random", preset, rules.num_players)

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return model.predict(obs, action_masks=masks, deterministic=True)[0]

    def random_seat(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return randomly.act({"observation": obs, "action_mask": masks.astype(np.int8)}, rng)

    mine = play(preset, opponents, seeds, policy)
    theirs = play(preset, opponents, seeds, random_seat)
    gain = theirs - mine
    half = 1.96 * gain.std(ddof=1) / math.sqrt(deals)
    return Comparison(deals, float(mine.mean()), float(theirs.mean()), float(gain.mean()), float(half))


def main(argv: list[str] | None = None) -> int:
    """Train, evaluate, print; exit status 0 when the policy beats random (95% interval), else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts")
    parser.add_argument("--opponents", default="random", help="agent spec of every other seat")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    parser.add_argument("--timesteps", type=int, default=None, help="at most this many seat decisions")
    parser.add_argument("--eval-deals", type=int, default=2000, help="paired deals of the evaluation")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.monotonic()
    model = train(args.preset, args.opponents, args.minutes, args.timesteps, args.seed)
    trained = time.monotonic() - start
    print(f"trained MaskablePPO on {args.preset}: {model.num_timesteps} seat decisions in {trained:.0f} s")
    result = evaluate(model, args.preset, args.opponents, args.eval_deals)
    print(result)
    print("beats random" if result.beats_random else "does not beat random")
    return 0 if result.beats_random else 1


if __name__ == "__main__":
    sys.exit(main())
