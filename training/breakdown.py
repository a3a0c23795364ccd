"""One PPO iteration taken apart, in each precision: what the rollout and the update cost.

Prints, for ``float32`` and ``bfloat16`` (:attr:`training.config.Args.precision`): the forward and
backward pass of the default network over one minibatch of random 0/1 observations, then
``--iterations`` iterations of the default settings (512 games x 256 steps, ``strategy`` and
``ducker`` opponents, no imitation), each split into the rollout (:func:`training.rollout.collect`)
and the update (:func:`training.ppo.update`), with the decisions per second of the two together.
The README's and ``experiments/training-precision/bf16_training``'s per-iteration numbers come from this.

Run: ``python -m training.breakdown [--iterations 5] [--threads 2]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from agents.ppo import PolicyValueNet
from hearts_env.observation import layout as observation_layout
from hearts_env.presets import make_rules
from hearts_env.table import Table
from training.config import Args
from training.device import autocast
from training.ppo import advantages, update
from training.rollout import League, Rollout, collect, reward_scale

CPU = torch.device("cpu")


def minibatch_ms(dtype: torch.dtype, args: Args, repeats: int = 10) -> float:
    """Median milliseconds of one forward and backward pass over ``args.minibatch_size`` rows."""
    torch.manual_seed(0)
    net = PolicyValueNet(660, 52, args.hidden)
    obs = (torch.rand(args.minibatch_size, 660) < 0.07).float()
    mask = torch.ones(args.minibatch_size, 52, dtype=torch.bool)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        with autocast(CPU, dtype):
            logits, value = net(obs, mask)
        (logits.square().mean() + value.square().mean()).backward()
        times.append(time.perf_counter() - start)
    return float(np.median(times[2:]) * 1e3)


def iterations(dtype: torch.dtype, args: Args, count: int) -> list[tuple[float, float]]:
    """(rollout seconds, update seconds) of ``count`` iterations from a fresh network."""
    rules = make_rules(args.preset, num_players=args.num_players)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    table = Table(rules, args.num_games, reward=args.reward)
    table.reset(seed=args.seed)
    net = PolicyValueNet(table.observer.layout.size, table.num_actions, args.hidden)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    league = League(rules, args, rng, CPU)
    league.seat(np.arange(args.num_games))
    players, steps = rules.num_players, args.rollout_steps
    buf = Rollout.allocate(steps, args.num_games, players, net.obs_size, net.num_actions)
    layout, scale = observation_layout(rules), reward_scale(rules)
    out = []
    for _ in range(count):
        start = time.perf_counter()
        collect(table, league, net, buf, rng, CPU, scale, None, dtype)
        middle = time.perf_counter()
        adv, trainable = advantages(buf, rules.num_players, args.gamma, args.gae_lambda)
        update(net, optimizer, buf, adv, trainable, args, CPU, False, layout, dtype)
        out.append((middle - start, time.perf_counter() - middle))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=5, help="iterations per precision (default 5)")
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads (default 2)")
    options = parser.parse_args(argv)
    torch.set_num_threads(options.threads)
    args = Args(imitation_decisions=0, num_players=4, hidden=(256, 256)).validate()  # docs/training.md's
    decisions = args.num_games * args.rollout_steps
    for name, dtype in (("float32", torch.float32), ("bfloat16", torch.bfloat16)):
        ms = minibatch_ms(dtype, args)
        print(f"{name}: forward+backward of {args.minibatch_size} rows {ms:.1f} ms", flush=True)
        for i, (rollout, learn) in enumerate(iterations(dtype, args, options.iterations)):
            rate = decisions / (rollout + learn)
            text = f"rollout {rollout:.3f} s, update {learn:.3f} s, {rate / 1e3:.1f}k decisions/s"
            print(f"  iteration {i}: {text}", flush=True)


if __name__ == "__main__":
    main()
