"""RLlib PPO (new API stack) with action masking on hearts-env: a couple of tiny iterations.

Uses :mod:`hearts_env.integrations.rllib`: ``HeartsMultiAgentEnv`` (turn-based, observations
``{"observations", "action_mask"}``, every agent's reward at the deal's end) and ``ppo_config``
(RLlib's ``ActionMaskingTorchRLModule``, one shared policy for all seats). The env keeps
hearts-env's default ``illegal_action="raise"``, so a run that completes played no illegal
action. On a local Ray with 2 CPUs and a tiny batch it takes about a minute.

Run (its own venv, with the ``rllib`` extra)::

    make integration-ray      # or: python examples/rllib_ppo.py --preset hearts --iterations 2
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import ray

from hearts_env.integrations.rllib import SHARED_POLICY, ppo_config


@dataclass
class IterationResult:
    """The numbers of one training iteration that the example prints."""

    iteration: int
    episode_return_mean: float  # summed over the agents of an episode (a deal): -26 in Hearts, bar moons
    agent_return_mean: dict[str, float]
    total_loss: float
    policy_loss: float
    vf_loss: float
    env_steps: int
    episodes: int
    raw: dict[str, Any] = field(repr=False, default_factory=dict)


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def summarize(iteration: int, result: dict[str, Any], module_id: str = SHARED_POLICY) -> IterationResult:
    """The example's numbers from one ``Algorithm.train()`` result (RLlib 2.60 key names)."""
    runners = result.get("env_runners", {})
    learner = result.get("learners", {}).get(module_id, {})
    return IterationResult(
        iteration=iteration,
        episode_return_mean=_number(runners.get("episode_return_mean")),
        agent_return_mean={k: _number(v) for k, v in runners.get("agent_episode_returns_mean", {}).items()},
        total_loss=_number(learner.get("total_loss")),
        policy_loss=_number(learner.get("policy_loss")),
        vf_loss=_number(learner.get("vf_loss")),
        env_steps=int(_number(runners.get("num_env_steps_sampled", 0)) or 0),
        episodes=int(_number(runners.get("num_episodes", 0)) or 0),
        raw=result,
    )


def train(
    preset: str = "hearts",
    num_players: int = 4,
    iterations: int = 2,
    seed: int = 0,
    batch_size: int = 256,
    num_env_runners: int = 0,
) -> list[IterationResult]:
    """Build the masked PPO, train ``iterations`` times, return each iteration's numbers.

    Starts a local Ray (2 CPUs) if none is running in this process, and shuts it down at the
    end if it started it.
    """
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        config = (
            ppo_config(preset, num_players=num_players, model_config={"fcnet_hiddens": [64, 64]})
            .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=1)
            .learners(num_learners=0)
            .training(
                train_batch_size_per_learner=batch_size,
                minibatch_size=min(64, batch_size),
                num_epochs=2,
                lr=3e-4,
            )
            .debugging(seed=seed)
        )
        algo = config.build_algo()
        try:
            return [summarize(i + 1, algo.train()) for i in range(iterations)]
        finally:
            algo.stop()
    finally:
        if started:
            ray.shutdown()


def main(argv: Sequence[str] | None = None) -> list[IterationResult]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts", help="a hearts-env preset (hearts-env rules --list)")
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=256, help="env steps per training batch")
    parser.add_argument("--num-env-runners", type=int, default=0, help="0: sample in this process")
    args = parser.parse_args(argv)
    results = train(
        args.preset,
        args.num_players,
        args.iterations,
        args.seed,
        batch_size=args.batch_size,
        num_env_runners=args.num_env_runners,
    )
    for r in results:
        agents = " ".join(f"{k}={v:.1f}" for k, v in sorted(r.agent_return_mean.items()))
        print(
            f"iteration {r.iteration}: episode_return_mean={r.episode_return_mean:.2f} ({agents}) "
            f"total_loss={r.total_loss:.4f} policy_loss={r.policy_loss:.4f} vf_loss={r.vf_loss:.4f} "
            f"env_steps={r.env_steps} episodes={r.episodes}"
        )
    return results


if __name__ == "__main__":
    main()
