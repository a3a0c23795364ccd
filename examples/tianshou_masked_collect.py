"""hearts-env with Tianshou 2.0: multi-agent masked collect, and a DQN seat trained a few steps.

The AEC env goes through ``tianshou.env.PettingZooEnv``: each step's observation is
``{"agent_id", "obs", "mask"}`` for the acting seat (the mask from the env's ``action_mask``) and
the reward a vector over all seats. A ``MultiAgentOffPolicyAlgorithm`` gives every seat a policy
and dispatches each step to the acting seat's: here ``MARLRandomDiscreteMaskedOffPolicyAlgorithm``
(uniform over the legal actions) for every seat, or, with ``--learner``, a ``DQN`` for
``player_0`` (its Q-values and its epsilon-greedy exploration both masked). A ``Collector`` over
a ``DummyVectorEnv`` plays whole deals (one episode = one deal); every action is checked against
its mask, and the env itself raises ``ValueError`` on an illegal card.

Training the learner: Tianshou's multi-agent dispatcher sees a turn-based game as one interleaved
trajectory, so a seat's transition would bootstrap from the *next seat's* observation, and a
deal's rewards, which arrive after its last card, would reach only the seat that played it. The
example therefore cuts the learner's own decisions out of the collected buffer (reward: what it
got up to its next decision; done: the deal ended first; next observation: its own next one) into
a ``ReplayBuffer`` of its own, and calls ``DQN.update`` on that.

Run: ``.venv-tianshou/bin/python examples/tianshou_masked_collect.py --preset black_maria --num-players 3``
(Tianshou 2.0 in its own venv, which ``make integration-tianshou`` creates before it runs the tests).
"""

from __future__ import annotations

import argparse
import logging
import math
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, ReplayBuffer, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

import hearts_env

LEARNER = "player_0"


def make_env(preset: str = "hearts", num_players: int | None = None, **options: Any) -> PettingZooEnv:
    """The hearts-env AEC env wrapped for Tianshou."""
    if num_players is not None:
        options["num_players"] = num_players
    return PettingZooEnv(hearts_env.env(preset, **options))


def make_learner(env: PettingZooEnv, hidden: int = 64, lr: float = 1e-3, eps: float = 0.2) -> DQN:
    """A small masked DQN (Tianshou's ``Net``: an MLP over the seat's observation)."""
    from tianshou.utils.net.common import Net

    shape = env.observation_space["observation"].shape
    net = Net(state_shape=shape, action_shape=env.action_space.n, hidden_sizes=[hidden])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=env.action_space, eps_training=eps, eps_inference=eps
    )
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=lr), gamma=1.0, n_step_return_horizon=1)


@dataclass
class Transition:
    """One step as the collector stored it: the acting seat, its mask and action, every seat's reward."""

    agent: str
    mask: np.ndarray
    action: int
    rewards: np.ndarray
    done: bool
    """The deal (the episode) ended with this step."""


@dataclass
class CollectSummary:
    preset: str
    agents: list[str]
    seeds: list[int]
    """The seed of each env's game (``env.reset(seed=...)``, then the game's next deals)."""
    steps: list[list[Transition]] = field(default_factory=list)
    """Each env's transitions, in order."""
    losses: list[float] = field(default_factory=list)
    """The learner's DQN losses (empty without a learner)."""
    learner_transitions: int = 0

    @property
    def deals(self) -> int:
        return sum(t.done for steps in self.steps for t in steps)

    def deal_rewards(self) -> list[np.ndarray]:
        """Every seat's reward of each complete deal."""
        return [t.rewards for steps in self.steps for t in steps if t.done]

    def mean_reward(self) -> dict[str, float]:
        deals = self.deal_rewards()
        mean = np.mean(deals, axis=0) if deals else np.zeros(len(self.agents))
        return {a: float(r) for a, r in zip(self.agents, mean)}


def env_transitions(buffer: VectorReplayBuffer) -> list[Batch]:
    """Each env's stored steps in order (the buffer must not have wrapped around)."""
    out = []
    for sub in buffer.buffers:
        assert len(sub) < sub.maxsize, "the buffer wrapped around: make it larger"
        out.append(sub[np.arange(len(sub))])
    return out


def check_and_record(data: Batch) -> list[Transition]:
    """One env's steps as :class:`Transition` s; ``AssertionError`` on an action outside its mask."""
    steps = []
    for t in range(len(data)):
        mask, action = np.asarray(data.obs.mask[t], bool), int(data.act[t])
        assert mask[action], f"step {t}: {data.obs.agent_id[t]} played illegal action {action}"
        done = bool(data.terminated[t] or data.truncated[t])
        steps.append(Transition(str(data.obs.agent_id[t]), mask, action, np.array(data.rew[t], float), done))
    return steps


def seat_buffer(datas: list[Batch], agents: list[str], seat: str) -> ReplayBuffer:
    """``seat``'s own decisions of the complete deals, as single-agent transitions."""
    index = agents.index(seat)
    own = ReplayBuffer(sum(len(d) for d in datas) + 1)
    for data in datas:
        ends = np.flatnonzero(np.logical_or(data.terminated, data.truncated))
        start = 0
        for end in ends:  # one deal: steps start..end
            steps = [t for t in range(start, end + 1) if data.obs.agent_id[t] == seat]
            for k, t in enumerate(steps):
                last = k == len(steps) - 1
                nxt = end + 1 if last else steps[k + 1]
                reward = float(data.rew[t:nxt, index].sum())
                following = data.obs[t if last else nxt]
                step = Batch(
                    obs=data.obs[t],
                    act=data.act[t],
                    rew=reward,
                    terminated=last,
                    truncated=False,
                    obs_next=following,
                    info={},
                )
                own.add(step)
            start = end + 1
    return own


def collect(
    preset: str = "hearts",
    num_players: int | None = None,
    deals: int = 6,
    seed: int = 0,
    num_envs: int = 2,
    learner: bool = False,
    updates: int = 4,
    batch_size: int = 64,
    **options: Any,
) -> CollectSummary:
    """Collect ``deals`` whole deals over ``num_envs`` envs with masked random seats (and a DQN
    ``player_0`` if ``learner``, then ``updates`` DQN steps on its own decisions)."""
    np.random.seed(seed)  # the random seats and the DQN's exploration draw from NumPy
    torch.manual_seed(seed)
    env = make_env(preset, num_players, **options)
    agents = list(env.agents)
    algorithms: list[Any] = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in agents]
    dqn = make_learner(env) if learner else None
    if dqn is not None:
        algorithms[agents.index(LEARNER)] = dqn
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)
    envs = DummyVectorEnv([lambda: make_env(preset, num_players, **options) for _ in range(num_envs)])
    seeds = [seed + i for i in range(num_envs)]
    summary = CollectSummary(preset, agents, seeds)
    try:
        envs.seed(seeds)  # PettingZooEnv.seed: reset(seed=...), a new game
        buffer = VectorReplayBuffer(num_envs * 150 * (deals + num_envs), num_envs)
        collector = Collector(algorithm, envs, buffer, exploration_noise=True)
        stats = collector.collect(n_episode=deals, reset_before_collect=True)
        assert stats.n_collected_episodes >= deals
        datas = env_transitions(buffer)
        summary.steps = [check_and_record(data) for data in datas]
        if dqn is not None:
            own = seat_buffer(datas, agents, LEARNER)
            summary.learner_transitions = len(own)
            with policy_within_training_step(dqn.policy), torch_train_mode(dqn.policy):
                for _ in range(updates):
                    summary.losses.append(float(dqn.update(buffer=own, sample_size=batch_size).loss))
    finally:
        envs.close()
        env.close()
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts")
    parser.add_argument("--num-players", type=int, default=None, help="default: the preset's")
    parser.add_argument("--deals", type=int, default=6, help="whole deals (episodes) to collect")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=4, help="DQN update steps of the learner (0: none)")
    args = parser.parse_args(argv)
    # The collector's return stats are per-seat vectors, which Tianshou's stats flatten with a warning.
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    summary = collect(
        args.preset, args.num_players, args.deals, args.seed, learner=args.steps > 0, updates=args.steps
    )
    actions = sum(len(steps) for steps in summary.steps)
    print(f"tianshou: {args.preset}, {summary.deals} deals, {actions} legal actions")
    print("  mean reward per deal:", {a: round(r, 2) for a, r in summary.mean_reward().items()})
    finite = all(math.isfinite(loss) for loss in summary.losses)
    if summary.losses:
        print(
            f"  {LEARNER} (DQN): {summary.learner_transitions} own transitions, "
            f"{len(summary.losses)} updates, "
            f"losses {[round(v, 3) for v in summary.losses]}, finite: {finite}"
        )
    return 0 if finite else 1


if __name__ == "__main__":
    sys.exit(main())
