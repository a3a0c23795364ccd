"""hearts-env with TorchRL: a masked random rollout, then a tiny PPO rollout and update.

The AEC env goes through ``torchrl.envs.PettingZooWrapper(use_mask=True)`` with every seat in
one group, ``"players"``, so one network sees all seats at once: per step the tensordict holds
``("players", "observation", "observation")`` (P, D), ``("players", "action_mask")`` (P, A),
the legal actions of the acting seat (all True for the others), and ``("players", "mask")``
(P,), True for the one seat that acts. TorchRL moves the env's ``action_mask`` into the action
spec, so ``env.rand_action`` (the random rollout) samples legal actions only; the PPO actor
samples from a ``MaskedCategorical`` over its logits. Actions of the seats that do not act are
ignored by the wrapper. Every action is checked against the mask, and the env itself raises
``ValueError`` on an illegal card, so a completed run never played one.

PPO on a turn-based game: the rewards arrive at the end of a deal, for every seat at once, so
each seat's decisions are cut out of the rollout as its own trajectory (reward: what the seat
got before its next decision; done: the deal ended first) and ``ClipPPOLoss`` with GAE learns
from those. Only complete deals are kept.

Run: ``.venv-torchrl/bin/python examples/torchrl_masked_rollout.py --preset auction_hearts`` (TorchRL
0.14 in its own venv, which ``make integration-torchrl`` creates before it runs the tests).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, field
from typing import Any

import torch
from tensordict import TensorDict, TensorDictBase
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.envs import PettingZooWrapper
from torchrl.envs.utils import ExplorationType, set_exploration_type
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss, ValueEstimators

import hearts_env

GROUP = "players"
OBS = (GROUP, "observation", "observation")
"""The env's ``observation`` entry: the wrapper nests it under the Dict space's own key."""
ACTION, ACTION_MASK, MASK = (GROUP, "action"), (GROUP, "action_mask"), (GROUP, "mask")
LOG_PROB, VALUE = (GROUP, "action_log_prob"), (GROUP, "state_value")
REWARD, DONE, TERMINATED = (GROUP, "reward"), (GROUP, "done"), (GROUP, "terminated")


@dataclass
class RolloutSummary:
    """What a rollout played: per step the acting seat, its action and mask, every seat's reward."""

    preset: str
    agents: list[str]
    seats: list[int] = field(default_factory=list)
    """The acting seat of each step."""
    actions: list[int] = field(default_factory=list)
    masks: list[list[bool]] = field(default_factory=list)
    """The acting seat's legal actions (the ``action_mask`` it acted under)."""
    rewards: list[list[float]] = field(default_factory=list)
    """Every seat's reward after each step (non-zero where a deal ended)."""
    deal_ends: list[int] = field(default_factory=list)
    """The steps after which a deal ended."""

    @property
    def deals(self) -> int:
        return len(self.deal_ends)

    def deal_rewards(self) -> list[list[float]]:
        """Every seat's reward of each complete deal."""
        return [self.rewards[t] for t in self.deal_ends]

    def mean_reward(self) -> dict[str, float]:
        """Mean reward per deal of each agent (complete deals only)."""
        deals = self.deal_rewards()
        return {a: sum(d[i] for d in deals) / max(len(deals), 1) for i, a in enumerate(self.agents)}


def make_env(
    preset: str = "hearts", num_players: int | None = None, seed: int = 0, **options: Any
) -> PettingZooWrapper:
    """The hearts-env AEC env as a TorchRL env: one group of all seats, with masks."""
    if num_players is not None:
        options["num_players"] = num_players
    aec = hearts_env.env(preset, **options)
    return PettingZooWrapper(aec, use_mask=True, group_map={GROUP: list(aec.possible_agents)}, seed=seed)


def summarize(preset: str, agents: list[str], data: TensorDictBase) -> RolloutSummary:
    """Check every action of a rollout ``data`` (batch (T,)) against its mask and summarize it.

    Raises ``AssertionError`` if a step has not exactly one acting seat or its action is illegal."""
    summary = RolloutSummary(preset, agents)
    acting = data[MASK]
    assert bool((acting.sum(-1) == 1).all()), "every AEC step has exactly one acting seat"
    seats = acting.int().argmax(-1)
    steps = torch.arange(len(seats))
    actions = data[ACTION][steps, seats]
    masks = data[ACTION_MASK][steps, seats]
    legal = masks.gather(-1, actions[:, None]).squeeze(-1)
    assert bool(legal.all()), f"illegal actions at steps {torch.nonzero(~legal).flatten().tolist()}"
    summary.seats, summary.actions, summary.masks = seats.tolist(), actions.tolist(), masks.tolist()
    summary.rewards = data["next", REWARD].squeeze(-1).tolist()
    summary.deal_ends = torch.nonzero(data["next", "done"].squeeze(-1)).flatten().tolist()
    return summary


def random_rollout(
    preset: str = "hearts", num_players: int | None = None, steps: int = 300, seed: int = 0, **options: Any
) -> RolloutSummary:
    """``steps`` steps of masked random play (``env.rand_action`` samples within the mask)."""
    env = make_env(preset, num_players, seed, **options)
    torch.manual_seed(seed)
    try:
        first = env.reset(seed=seed)  # deal 1 of game `seed`; later resets play the game's next deals
        data = env.rollout(steps, tensordict=first, auto_reset=False, break_when_any_done=False)
        return summarize(preset, env.possible_agents, data)
    finally:
        env.close()


def make_actor_critic(env: PettingZooWrapper, hidden: int = 64) -> tuple[ProbabilisticActor, ValueOperator]:
    """A shared MLP actor with masked logits and an MLP critic over one seat's observation."""
    obs_dim = env.observation_spec[OBS].shape[-1]
    num_actions = env.full_action_spec[ACTION].space.n
    logits = TensorDictModule(
        MLP(in_features=obs_dim, out_features=num_actions, num_cells=[hidden], activation_class=nn.Tanh),
        in_keys=[OBS],
        out_keys=[(GROUP, "logits")],
    )
    actor = ProbabilisticActor(
        logits,
        in_keys={"logits": (GROUP, "logits"), "mask": ACTION_MASK},
        out_keys=[ACTION],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key=LOG_PROB,
    )
    critic = ValueOperator(
        MLP(in_features=obs_dim, out_features=1, num_cells=[hidden], activation_class=nn.Tanh),
        in_keys=[OBS],
        out_keys=[VALUE],
    )
    return actor, critic


def seat_trajectories(data: TensorDictBase, num_seats: int) -> TensorDict:
    """Each seat's own decisions of the complete deals in ``data``, one trajectory after another.

    A decision's reward is what its seat got from it up to the seat's next decision, and it is
    done when the deal ended before then; the next observation is the seat's next one. Every
    trajectory ends with a done, so the concatenation is a valid input for GAE."""
    ends = torch.nonzero(data["next", "done"].squeeze(-1)).flatten()
    assert len(ends), "the rollout has no complete deal: use more steps"
    data = data[: int(ends[-1]) + 1]
    done = data["next", "done"].squeeze(-1)
    deal = torch.cumsum(done.long(), 0) - done.long()  # the deal of each step
    rewards = data["next", REWARD].squeeze(-1)  # (T, P)
    pieces = []
    for seat in range(num_seats):
        steps = torch.nonzero(data[MASK][:, seat]).flatten()
        if not len(steps):
            continue
        nxt = torch.cat([steps[1:], steps[-1:]])
        last = torch.cat([deal[steps[1:]] != deal[steps[:-1]], torch.tensor([True])])  # last of its deal
        cum = torch.cat([torch.zeros(1), torch.cumsum(rewards[:, seat], 0)])
        until = torch.where(last, deal_end_step(deal, steps) + 1, nxt)
        reward = cum[until] - cum[steps]
        piece = TensorDict(
            {
                OBS: data[OBS][steps, seat],
                ACTION_MASK: data[ACTION_MASK][steps, seat],
                ACTION: data[ACTION][steps, seat],
                LOG_PROB: data[LOG_PROB][steps, seat],
                ("next", *OBS): data[OBS][nxt, seat],
                ("next", *REWARD): reward[:, None],
                ("next", *DONE): last[:, None],
                ("next", *TERMINATED): last[:, None].clone(),
            },
            batch_size=[len(steps)],
        )
        pieces.append(piece)
    return torch.cat(pieces, 0)


def deal_end_step(deal: torch.Tensor, steps: torch.Tensor) -> torch.Tensor:
    """The last step of the deal of each of ``steps``."""
    last_of_deal = torch.zeros(int(deal.max()) + 1, dtype=torch.long)
    last_of_deal.scatter_reduce_(0, deal, torch.arange(len(deal)), reduce="amax")
    return last_of_deal[deal[steps]]


@dataclass
class PPOSummary:
    rollout: RolloutSummary
    decisions: int
    """Seat decisions of complete deals that the updates learned from."""
    losses: list[dict[str, float]]
    """``loss_objective``, ``loss_critic``, ``loss_entropy`` of each minibatch update."""
    batch: TensorDict
    """The seats' trajectories learned from (:func:`seat_trajectories`, with advantages)."""


def ppo(
    preset: str = "hearts",
    num_players: int | None = None,
    steps: int = 300,
    seed: int = 0,
    epochs: int = 2,
    minibatch: int = 64,
    hidden: int = 64,
    lr: float = 3e-4,
    **options: Any,
) -> PPOSummary:
    """A PPO rollout of ``steps`` steps by the shared masked actor, then ``epochs`` of updates."""
    torch.manual_seed(seed)
    env = make_env(preset, num_players, seed, **options)
    try:
        actor, critic = make_actor_critic(env, hidden)
        loss_module = ClipPPOLoss(
            actor, critic, clip_epsilon=0.2, entropy_coeff=0.01, normalize_advantage=True
        )
        loss_module.set_keys(
            action=ACTION,
            sample_log_prob=LOG_PROB,
            value=VALUE,
            reward=REWARD,
            done=DONE,
            terminated=TERMINATED,
        )
        loss_module.make_value_estimator(ValueEstimators.GAE, gamma=1.0, lmbda=0.95)
        optimizer = torch.optim.Adam(loss_module.parameters(), lr=lr)
        with set_exploration_type(ExplorationType.RANDOM), torch.no_grad():
            first = env.reset(seed=seed)
            data = env.rollout(
                steps, policy=actor, tensordict=first, auto_reset=False, break_when_any_done=False
            )
        summary = summarize(preset, env.possible_agents, data)
        batch = seat_trajectories(data, len(env.possible_agents))
        losses = []
        for _ in range(epochs):
            with torch.no_grad():
                loss_module.value_estimator(batch)  # advantage and value target, with the current critic
            for index in torch.randperm(len(batch)).split(minibatch):
                out = loss_module(batch[index])
                loss = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(loss_module.parameters(), 1.0)
                optimizer.step()
                losses.append(
                    {k: float(out[k].detach()) for k in ("loss_objective", "loss_critic", "loss_entropy")}
                )
        return PPOSummary(summary, len(batch), losses, batch)
    finally:
        env.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts")
    parser.add_argument("--num-players", type=int, default=None, help="default: the preset's")
    parser.add_argument("--steps", type=int, default=300, help="env steps (decisions) per rollout")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=2, help="PPO epochs over the rollout")
    args = parser.parse_args(argv)
    rollout = random_rollout(args.preset, args.num_players, args.steps, args.seed)
    print(f"random: {args.preset}, {len(rollout.actions)} legal actions, {rollout.deals} deals")
    print("  mean reward per deal:", {a: round(r, 2) for a, r in rollout.mean_reward().items()})
    result = ppo(args.preset, args.num_players, args.steps, args.seed, epochs=args.epochs)
    last = result.losses[-1]
    finite = all(math.isfinite(v) for loss in result.losses for v in loss.values())
    print(
        f"ppo:    {len(result.rollout.actions)} legal actions, {result.rollout.deals} deals, "
        f"{result.decisions} decisions learned from, {len(result.losses)} updates, finite losses: {finite}"
    )
    print("  mean reward per deal:", {a: round(r, 2) for a, r in result.rollout.mean_reward().items()})
    print("  last losses:", {k: round(v, 4) for k, v in last.items()})
    return 0 if finite else 1


if __name__ == "__main__":
    sys.exit(main())
