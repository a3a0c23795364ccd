"""PPO self-play for the Hearts family: one shared policy for every seat, on the batched engine.

Run it::

    python -m training.ppo --preset hearts --num-players 4 --minutes 60 --run-dir runs/hearts-4p
    python -m training.ppo ... --resume        # the same command continues a killed run

What one iteration does
-----------------------
1. **Collect.** ``num_games`` games are stepped ``rollout_steps`` times. In each game the seat
   to act belongs either to the learner (the current policy: its decision is stored with the
   observation, mask, action, log-probability and value) or to an opponent (a heuristic agent
   or a frozen past policy: it acts, nothing is stored). Which is decided per deal: with
   probability ``self_play`` every seat is the learner; otherwise one random seat is the
   learner and the others are one opponent drawn from the league (``opponents`` plus up to
   ``pool_size`` past policies, one snapshot every ``pool_every`` iterations).
2. **Credit.** Hearts is turn-based and rewards arrive only when a deal ends (``reward``:
   ``zero_sum`` = the others' mean points minus one's own, or ``points`` = minus one's own;
   divided by the deal's penalty total so a deal's rewards are of order 1). Each seat's reward
   goes to that seat's last decision of the deal, and GAE runs backwards along each
   (game, seat)'s own decisions, with a done at every deal end. Decisions of a deal still
   unfinished when the rollout stops are not trained on (their return is unknown).
3. **Update.** ``update_epochs`` passes of clipped PPO over minibatches of the stored decisions.
   Illegal cards have logit -1e9 (:data:`agents.ppo.ILLEGAL_LOGIT`), so their probability, their
   share of the entropy and their gradient are exactly 0.

``imitation_decisions > 0`` (default 4M) first trains the policy to copy the ``teacher``
(``strategy``; ``smear`` for Smear: cross-entropy on its cards, value regression on its deals'
returns), played at every seat,
then switches to PPO. On 4-player Hearts this warm start was measured to save more than 6M
decisions: 10M decisions after the start, the policy trailed ``strategy`` by 0.4 points per
deal with it and by 2.6 without it (duplicate, 1,000 deals, 95% CI about ±0.3).

What a run writes (``run_dir``)
-------------------------------
``checkpoint.pt`` (everything needed to resume: network, optimizer, random states, the tables
mid-deal, the league; written atomically every ``checkpoint_every`` iterations and at the end;
tensors and plain values only, read with ``weights_only=True``, see :func:`checkpoint_content`),
``policy.pt`` (the policy alone, for ``agents.make("ppo", checkpoint=...)``), ``train.csv``
(losses per iteration), ``eval.csv`` and ``learning_curve.png`` (duplicate evaluation against
``eval_opponents`` every ``eval_every`` decisions, through :mod:`evaluation.duplicate`), and
``tb/`` (TensorBoard). A progress bar shows decisions/s and the latest evaluation.

Shipping a policy: ``cp runs/hearts-4p/policy.pt agents/checkpoints/hearts-4p.pt`` (with the learning
curve as ``agents/checkpoints/hearts-4p.png``, package data); ``agents.make("ppo", "hearts", 4)`` then
plays it.

Reproducibility: everything random flows from ``seed``; an iteration's result depends only on
the state at its start, which the checkpoint holds, so a resumed run continues exactly as the
uninterrupted one (``minutes`` only decides where a run stops).

Ray (``ray``, ``--ray local|auto|HOST:PORT``): the games are shared out among ``ray_actors``
actors (:mod:`training.ray_rollout`), each with its own table, seating and generators seeded from
``seed`` and its index; every iteration they get the policy's weights, play :func:`collect` and
send the decisions back, which the learner joins and learns from as here. A Ray run is
reproducible for a given number of actors (not equal to a run in one process) and resumes with
the same number (the checkpoint keeps every actor's state under ``ray``).
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812

import agents
from agents.ppo import (
    CHECKPOINT_FORMAT,
    PolicyValueNet,
    PPOAgent,
    load_file,
    policy_file,
    save_atomic,
)
from evaluation.flags import (
    ArgumentParser,
    add_debug,
    non_negative_float,
    non_negative_int,
    run_command,
)
from hearts_env.formats import Packing, unpack
from hearts_env.observation import Layout
from hearts_env.observation import layout as observation_layout
from hearts_env.presets import make_rules
from hearts_env.rules import Rules
from hearts_env.table import Table
from training.config import (  # the settings and their flags (training.ppo.Args etc. still work)
    RESUMABLE_CHANGES,
    Args,
    add_arguments,
    args_from,
    family_setting,
    resolve_family,
    to_argv,
)

LEARNER = 0
"""Controller id of the seats the current policy plays (opponents are 1, 2, …)."""


# ---------------------------------------------------------------------- the league
class League:
    """Who holds each seat of each game: the learner or an opponent (heuristics, past policies)."""

    def __init__(self, rules: Rules, args: Args, rng: np.random.Generator, device: torch.device) -> None:
        self.rules, self.args, self.rng, self.device = rules, args, rng, device
        specs = family_setting(args, rules.game, "opponents")
        self.heuristics = [agents.from_spec(spec, rules) for spec in specs]
        self.pool: list[PPOAgent] = []
        self.pool_states: list[dict[str, torch.Tensor]] = []
        self.controller = np.zeros((args.num_games, rules.num_players), np.int64)  # (B, P)

    @property
    def opponents(self) -> list[agents.Agent]:
        """Opponent ``k`` (controller id ``k + 1``)."""
        return self.heuristics + self.pool

    def seat(self, rows: np.ndarray) -> None:
        """Choose the players of the new deals in games ``rows``."""
        p, count = self.rules.num_players, len(self.opponents)
        self.controller[rows] = LEARNER
        if not count:
            return
        versus = rows[self.rng.random(len(rows)) >= self.args.self_play]
        opponent = 1 + self.rng.integers(count, size=len(versus))
        learner_seat = self.rng.integers(p, size=len(versus))
        self.controller[versus] = opponent[:, None]
        self.controller[versus, learner_seat] = LEARNER
        if (
            self.rules.game == "smear" and self.rules.teams
        ):  # partners share the reward: the learner holds its side
            team_of = np.array(self.rules.team_of)
            mates = team_of[None, :] == team_of[learner_seat][:, None]  # (k, P)
            self.controller[versus] = np.where(mates, LEARNER, self.controller[versus])

    def snapshot(self, net: PolicyValueNet) -> None:
        """Add a frozen copy of ``net`` to the pool, dropping the oldest when full."""
        if self.args.pool_size <= 0:
            return
        state = {k: v.detach().clone() for k, v in net.state_dict().items()}
        self.pool_states = (self.pool_states + [state])[-self.args.pool_size :]
        self._build_pool(net)

    def _build_pool(self, like: PolicyValueNet) -> None:
        self.pool = []
        for state in self.pool_states:
            frozen = copy.deepcopy(like)  # not a new net: its initialisation would draw random numbers
            frozen.load_state_dict(state)
            self.pool.append(PPOAgent.from_network(self.rules, frozen, greedy=False))

    def state_dict(self) -> dict[str, Any]:
        """What a checkpoint keeps of the league (tensors only)."""
        return {"controller": torch.from_numpy(self.controller.copy()), "pool": self.pool_states}

    def load_state_dict(self, saved: Any, like: PolicyValueNet) -> None:
        """Restore :meth:`state_dict`; ``ValueError`` (the league unchanged) when it does not fit."""
        if not isinstance(saved, dict) or set(saved) != {"controller", "pool"}:
            raise ValueError("expected a dict with 'controller' and 'pool'")
        controller, pool = saved["controller"], saved["pool"]
        shape = tuple(self.controller.shape)
        if (
            not isinstance(controller, torch.Tensor)
            or controller.dtype != torch.int64
            or (tuple(controller.shape) != shape)
        ):
            got = (
                f"{controller.dtype} {tuple(controller.shape)}"
                if isinstance(controller, torch.Tensor)
                else (type(controller).__name__)
            )
            raise ValueError(f"controller should be an int64 tensor of shape {shape}, got {got}")
        if not isinstance(pool, list) or len(pool) > self.args.pool_size:
            raise ValueError(f"pool should be a list of at most {self.args.pool_size} state dicts")
        count = len(self.heuristics) + len(pool)
        values = controller.numpy()
        if ((values < 0) | (values > count)).any():
            raise ValueError(f"controller ids must lie in 0..{count} (the learner and {count} opponents)")
        previous = self.pool_states
        try:
            self.pool_states = pool
            self._build_pool(like)
        except (RuntimeError, TypeError, AttributeError) as error:
            self.pool_states = previous
            self._build_pool(like)
            raise ValueError(
                f"a pooled policy does not fit the network ({' '.join(str(error).split())[:200]})"
            ) from None
        self.controller[...] = values


# ---------------------------------------------------------------------- rollouts
@dataclass
class Rollout:
    """Preallocated storage of one iteration. Learner decisions are stored flat, step after step
    (step ``t`` owns ``offsets[t]:offsets[t + 1]``); per-step arrays say how deals ended."""

    obs: np.ndarray  # (N, D) float32, or the compact format: (N, bits) uint8 / (N, words) uint64
    mask: np.ndarray  # (N, A) bool
    action: np.ndarray  # (N,) int64
    logprob: np.ndarray  # (N,) float32
    value: np.ndarray  # (N,) float32
    game: np.ndarray  # (N,) int64: which game the decision was made in
    seat: np.ndarray  # (N,) int64: by which seat
    offsets: np.ndarray  # (T + 1,) int64
    deal_end: np.ndarray  # (T, B) bool: the deal ended with this step
    rewards: np.ndarray  # (T, B, P) float32: scaled per-seat rewards of the deals that ended
    tail: np.ndarray  # (N, D - bits) float32 with a compact obs format; (N, 0) with float32

    @classmethod
    def allocate(
        cls, steps: int, games: int, players: int, obs_size: int, actions: int,
        obs_format: str = "float32", packing: Packing | None = None,
    ) -> Rollout:  # fmt: skip
        """Room for ``steps`` steps of ``games`` games, every decision a learner's, the
        observations stored in ``obs_format`` (:mod:`hearts_env.formats`; a compact format
        needs the layout's ``packing``)."""
        n = steps * games
        if obs_format == "float32":
            obs, tail = np.empty((n, obs_size), np.float32), np.empty((n, 0), np.float32)
        else:
            width = packing.bit_count if obs_format == "uint8" else packing.words
            obs = np.empty((n, width), np.uint8 if obs_format == "uint8" else np.uint64)
            tail = np.empty((n, packing.tail), np.float32)
        return cls(
            obs=obs, tail=tail, mask=np.empty((n, actions), bool),
            action=np.empty(n, np.int64), logprob=np.zeros(n, np.float32), value=np.zeros(n, np.float32),
            game=np.empty(n, np.int64), seat=np.empty(n, np.int64), offsets=np.zeros(steps + 1, np.int64),
            deal_end=np.zeros((steps, games), bool), rewards=np.zeros((steps, games, players), np.float32),
        )  # fmt: skip

    @property
    def size(self) -> int:
        """Decisions stored."""
        return int(self.offsets[-1])

    @property
    def obs_format(self) -> str:
        """The format the observations are stored in."""
        return {np.float32: "float32", np.uint8: "uint8", np.uint64: "packed"}[self.obs.dtype.type]

    def inputs(self, rows: np.ndarray | slice, layout: Layout, device: torch.device) -> torch.Tensor:
        """The float32 observations of ``rows`` on ``device`` (compact formats unpacked there)."""
        if self.obs_format == "float32":
            return torch.from_numpy(self.obs[rows]).to(device)
        return unpack({"observation": self.obs[rows], "tail": self.tail[rows]}, layout, device)


def collect(
    table: Table,
    league: League,
    net: PolicyValueNet,
    buf: Rollout,
    rng: np.random.Generator,
    device: torch.device,
    reward_scale: float,
    teacher: agents.Agent | None = None,
    dtype: torch.dtype = torch.float32,
) -> None:
    """Play ``len(buf.offsets) - 1`` steps of every game into ``buf``. With a ``teacher``, it
    plays every seat and its decisions are stored (imitation); otherwise the league decides.
    ``dtype``: the policy's matmul precision (:func:`autocast`)."""
    rows = np.arange(table.num_games)
    n, fmt, layout = 0, buf.obs_format, table.observer.layout
    for t in range(len(buf.offsets) - 1):
        seat = table.current_player.copy()  # (B,)
        if fmt == "float32":
            obs, tail = table.observe(), None  # (B, D) float32
        else:
            obs, tail = table.encode(fmt)  # the compact format and its float32 tail
        mask = table.action_mask()  # (B, A) int8
        actions = np.empty(table.num_games, np.int64)
        who = np.zeros(table.num_games, np.int64) if teacher else league.controller[rows, seat]
        mine = np.flatnonzero(who == LEARNER)
        k = len(mine)
        np.take(obs, mine, axis=0, out=buf.obs[n : n + k])
        if tail is not None:
            np.take(tail, mine, axis=0, out=buf.tail[n : n + k])
        buf.mask[n : n + k] = mask[mine] > 0
        buf.game[n : n + k], buf.seat[n : n + k] = mine, seat[mine]
        if teacher:
            actions[:] = teacher.act(_batch(obs, tail, mask), rng)
        elif k:
            with torch.inference_mode(), autocast(device, dtype):
                x = buf.inputs(slice(n, n + k), layout, device)
                m = torch.from_numpy(buf.mask[n : n + k]).to(device)
                logits, value = net(x, m)
                dist = torch.distributions.Categorical(logits=logits, validate_args=False)
                action = dist.sample()
                buf.logprob[n : n + k] = dist.log_prob(action).cpu().numpy()
                buf.value[n : n + k] = value.cpu().numpy()
                actions[mine] = action.cpu().numpy()
        buf.action[n : n + k] = actions[mine]
        for o, opponent in enumerate(league.opponents if not teacher else []):
            theirs = np.flatnonzero(who == o + 1)
            if len(theirs):
                actions[theirs] = opponent.act(_batch(obs, tail, mask, theirs), rng)
        n += k
        buf.offsets[t + 1] = n
        result = table.step(actions)  # raises on an illegal card: nothing illegal gets through
        buf.deal_end[t] = result.deal_ended
        buf.rewards[t] = result.rewards * reward_scale
        if result.deal_ended.any():
            ended = np.flatnonzero(result.deal_ended)
            table.redeal(ended)
            league.seat(ended)


def _batch(
    obs: np.ndarray, tail: np.ndarray | None, mask: np.ndarray, rows: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """An agent's input (``rows`` of it), in the rollout's observation format."""
    batch = {"observation": obs, "action_mask": mask}
    if tail is not None:
        batch["tail"] = tail
    return batch if rows is None else {key: value[rows] for key, value in batch.items()}


def reward_scale(rules: Rules) -> float:
    """The factor that makes a deal's rewards of order 1: Hearts by the penalty total, Smear by the
    points at stake."""
    return 1.0 / max(1, rules.smear_points if rules.game == "smear" else rules.penalty_total)


def make_teacher(rules: Rules, args: Args) -> tuple[str, agents.Agent]:
    """The agent imitation copies (``args.teacher``; None: the game family's, ``strategy`` for
    Hearts, ``smear`` for Smear): its spec and itself."""
    spec = family_setting(args, rules.game, "teacher")
    return spec, agents.from_spec(spec, rules)


def advantages(buf: Rollout, players: int, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE along each (game, seat)'s own decisions: ``(advantages (N,), trainable (N,) bool)``.

    Walking the steps backwards, a deal end hands every seat its reward and cuts the chain; the
    next decision met for a seat is its last of that deal and takes the reward. A decision is
    trainable once a later deal end (within the rollout) closes its deal.
    """
    games = buf.deal_end.shape[1]
    next_value = np.zeros((games, players), np.float32)
    next_adv = np.zeros((games, players), np.float32)
    due = np.zeros((games, players), np.float32)  # reward waiting for the seat's last decision
    closed = np.zeros(games, bool)
    adv = np.zeros(buf.size, np.float32)
    trainable = np.zeros(buf.size, bool)
    for t in reversed(range(len(buf.offsets) - 1)):
        ended = buf.deal_end[t]
        if ended.any():
            next_value[ended] = 0.0
            next_adv[ended] = 0.0
            due[ended] = buf.rewards[t, ended]
            closed |= ended
        lo, hi = buf.offsets[t], buf.offsets[t + 1]
        g, p = buf.game[lo:hi], buf.seat[lo:hi]
        value = buf.value[lo:hi]
        delta = due[g, p] + gamma * next_value[g, p] - value
        adv[lo:hi] = delta + gamma * lam * next_adv[g, p]
        trainable[lo:hi] = closed[g]
        due[g, p] = 0.0
        next_value[g, p] = value
        next_adv[g, p] = adv[lo:hi]
    return adv, trainable


# ---------------------------------------------------------------------- learning
def update(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    buf: Rollout,
    adv: np.ndarray,
    trainable: np.ndarray,
    args: Args,
    device: torch.device,
    imitation: bool,
    layout: Layout | None = None,
    dtype: torch.dtype = torch.float32,
) -> dict[str, float]:
    """PPO epochs over the trainable decisions (or, ``imitation``, cross-entropy on the teacher's
    cards); returns the mean losses and diagnostics of the last epoch (``layout``: the
    observation's, needed for a compact ``buf``; ``dtype``: the matmul precision of the forward
    pass, :func:`autocast`)."""
    index = np.flatnonzero(trainable)
    returns = (
        adv + buf.value[: buf.size]
    )  # the value targets (with values 0, imitation's Monte Carlo returns)
    stats: dict[str, list[float]] = {}
    for _ in range(args.update_epochs):
        stats = {}
        order = index[torch.randperm(len(index)).numpy()]
        for start in range(0, len(order), args.minibatch_size):
            mb = order[start : start + args.minibatch_size]
            obs = buf.inputs(mb, layout, device)
            mask = torch.from_numpy(buf.mask[mb]).to(device)
            action = torch.from_numpy(buf.action[mb]).to(device)
            with autocast(device, dtype):
                logits, value = net(obs, mask)  # float32 out (PolicyValueNet.forward)
            logp_all = F.log_softmax(logits, dim=-1)
            logp = logp_all.gather(1, action[:, None]).squeeze(1)
            entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
            v_loss = 0.5 * (value - torch.from_numpy(returns[mb]).to(device)).square().mean()
            if imitation:
                pg_loss = -logp.mean()
                kl = clipfrac = torch.zeros(())
            else:
                old = torch.from_numpy(buf.logprob[mb]).to(device)
                a = torch.from_numpy(adv[mb]).to(device)
                a = a - a.mean()
                if len(mb) > 1:  # one decision (a last minibatch's remainder) has no spread: std NaN
                    a = a / (a.std() + 1e-8)
                log_ratio = logp - old
                ratio = log_ratio.exp()
                pg_loss = torch.max(
                    -a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                with torch.no_grad():
                    kl = ((ratio - 1) - log_ratio).mean()
                    clipfrac = ((ratio - 1).abs() > args.clip_coef).float().mean()
            loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
            if not bool(torch.isfinite(loss)):  # refused before it reaches the weights
                raise FloatingPointError(
                    f"the PPO loss is not finite (pg_loss {float(pg_loss.detach()):g}, v_loss "
                    f"{float(v_loss.detach()):g}, entropy {float(entropy.detach()):g}, {len(mb)} decisions); "
                    "the weights are unchanged: resume "
                    "from the last checkpoint, with --precision float32 or a smaller --learning-rate"
                )
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
            optimizer.step()
            for name, x in (("pg_loss", pg_loss), ("v_loss", v_loss), ("entropy", entropy),
                            ("approx_kl", kl), ("clipfrac", clipfrac)):  # fmt: skip
                stats.setdefault(name, []).append(float(x.detach()))
    out = {name: float(np.mean(values)) for name, values in stats.items()}
    y, pred = returns[index], buf.value[index]
    useful = not imitation and len(index) > 1 and np.var(y) > 0
    out["explained_var"] = float(1 - np.var(y - pred) / np.var(y)) if useful else 0.0
    out["samples"] = float(len(index))
    return out


# ---------------------------------------------------------------------- evaluation
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
        report = Tournament(config, progress=False).run()
        pair = next(p for p in report["pairs"] if {p["a"], p["b"]} == {spec, opponent})
        sign = 1 if pair["a"] == spec else -1
        points = {row["name"]: row["mean_points"] for row in report["agents"]}
        results.append({
            "opponent": opponent, "deals": report["deals"], "ppo_points": points[spec],
            "opponent_points": points[opponent], "diff": sign * pair["mean_diff"], "ci95": pair["ci95"],
            "illegal": sum(row["illegal"] for row in report["agents"]),
        })  # fmt: skip
    return results


def plot_learning_curve(
    evals: list[dict[str, Any]],
    title: str,
    path: Path,
    imitation: int = 0,
    better: str = "lower",
    teacher: str = "strategy",
) -> None:
    """Points per deal of the policy minus each opponent's (lower is better) against training
    decisions: a marker on every evaluation with its 95% CI (bars on up to 12 points, a band
    between points; the latest value written beside the last), the imitation phase shaded up to a
    labelled line where PPO takes over."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    last = max([e["decisions"] for e in evals] + [imitation, 1])
    scale, unit = next((s, u) for s, u in ((1e6, " (millions)"), (1e3, " (thousands)"), (1, "")) if last >= s)
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for opponent in dict.fromkeys(e["opponent"] for e in evals):
        rows = [e for e in evals if e["opponent"] == opponent]
        x = np.array([e["decisions"] for e in rows], float) / scale
        y = np.array([e["diff"] for e in rows])
        ci = np.array([e["ci95"] for e in rows])
        few = len(rows) <= 12  # CI bars on few points; the band alone on many
        line = ax.errorbar(x, y, yerr=ci if few else None, marker="o", markersize=5 if few else 3.5,
                           capsize=3, label=f"vs {opponent}")[0]  # fmt: skip
        if len(rows) > 1:
            ax.fill_between(x, y - ci, y + ci, color=line.get_color(), alpha=0.15, linewidth=0)
        ax.annotate(f"{y[-1]:+.2f}", (x[-1], y[-1]), xytext=(6, 0), textcoords="offset points", va="center",
                    fontsize=8, color=line.get_color())  # fmt: skip
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlim(0, last / scale * 1.12)
    if imitation:  # above the axes, clear of the points
        boundary = imitation / scale
        ax.axvspan(0, boundary, color="0.93", zorder=0)
        ax.axvline(boundary, color="0.35", linestyle="--", linewidth=1, label="imitation ends, PPO begins")
        above = ax.get_xaxis_transform()  # x in data, y in axes units
        style = {"transform": above, "va": "bottom", "fontsize": 8, "color": "0.3"}
        if boundary > 0.2 * ax.get_xlim()[1]:
            ax.text(boundary / 2, 1.01, f"imitation of {teacher}", ha="center", **style)
            ax.text(boundary, 1.01, "  PPO self-play →", ha="left", **style)
        else:  # a narrow imitation phase: one label from the line
            ax.text(boundary, 1.01, f"← imitation of {teacher} | PPO self-play →", ha="left", **style)
    ax.set_xlabel(f"training decisions{unit}")
    ax.set_ylabel(f"policy − opponent, points per deal\n(duplicate deals, 95% CI; {better} is better)")
    ax.set_title(title, pad=16)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------------- logs
class Logs:
    """CSV files (rewritten up to the checkpoint on resume), TensorBoard and the progress bar."""

    TRAIN = ["iteration", "decisions", "samples", "elapsed_s", "decisions_per_s", "phase", "pg_loss",
             "v_loss", "entropy", "approx_kl", "clipfrac", "explained_var"]  # fmt: skip
    EVAL = ["iteration", "decisions", "elapsed_s", "opponent", "deals", "ppo_points", "opponent_points",
            "diff", "ci95", "illegal"]  # fmt: skip

    def __init__(self, run: Path, args: Args, iteration: int, decisions: int) -> None:
        self.run = run
        for name, columns in (("train.csv", self.TRAIN), ("eval.csv", self.EVAL)):
            path = run / name
            kept = []
            if path.exists() and args.resume:
                with path.open() as f:
                    kept = [row for row in csv.DictReader(f) if int(row["iteration"]) <= iteration]
            with path.open("w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=columns)
                writer.writeheader()
                writer.writerows(kept)
        self.writer = None
        if args.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(run / "tb"), purge_step=decisions if args.resume else None)
        from tqdm import tqdm

        total = args.total_decisions or None
        self.bar = tqdm(
            total=total, initial=decisions, unit="dec", unit_scale=True, disable=not args.progress,
            desc=f"{args.preset} {args.num_players}p ppo", dynamic_ncols=True,
        )  # fmt: skip

    def _append(self, name: str, columns: list[str], rows: list[dict[str, Any]]) -> None:
        with (self.run / name).open("a", newline="") as f:
            csv.DictWriter(f, fieldnames=columns, extrasaction="ignore").writerows(rows)

    def train(self, row: dict[str, Any]) -> None:
        """One iteration's losses."""
        self._append("train.csv", self.TRAIN, [row])
        if self.writer:
            for key in self.TRAIN[4:]:
                if isinstance(row.get(key), float):
                    self.writer.add_scalar(f"train/{key}", row[key], row["decisions"])

    def evaluation(self, rows: list[dict[str, Any]]) -> None:
        """One evaluation's results."""
        self._append("eval.csv", self.EVAL, rows)
        if self.writer:
            for row in rows:
                self.writer.add_scalar(f"eval/diff_vs_{row['opponent']}", row["diff"], row["decisions"])
                self.writer.add_scalar(
                    f"eval/points_vs_{row['opponent']}", row["ppo_points"], row["decisions"]
                )

    def close(self) -> None:
        """Flush and close."""
        self.bar.close()
        if self.writer:
            self.writer.close()


# ---------------------------------------------------------------------- checkpoints
CHECKPOINT_VERSION = 2
"""Layout of ``checkpoint.pt`` (:func:`checkpoint_content`). Version 1 (unversioned) pickled
numpy arrays and the engine's state object; it is refused (start a new run)."""
CHECKPOINT_KEYS = ("format", "version", "policy", "optimizer", "args", "rng", "torch_rng", "cuda_rng",
                   "table", "league", "progress")  # fmt: skip
PROGRESS_NUMBERS = {
    "iteration": non_negative_int, "decisions": non_negative_int, "samples": non_negative_int,
    "elapsed_s": non_negative_float, "train_s": non_negative_float, "next_eval": non_negative_int,
}  # fmt: skip
"""The numbers of a run's progress record (and its list ``evals``)."""
PACKED_DTYPES = {"int64": torch.int64, "uint64": torch.int64, "float64": torch.float64, "bool": torch.bool,
                 "int8": torch.int8, "float32": torch.float32}  # fmt: skip
"""numpy dtypes an array may have in a checkpoint, and the tensor dtype that carries it (uint64
travels bit for bit as int64, which every torch version saves)."""


def pack_array(array: np.ndarray) -> dict[str, Any]:
    """A numpy array as ``{"dtype": name, "data": tensor}`` (numpy arrays are not loadable with
    ``weights_only=True``)."""
    array = np.ascontiguousarray(array)
    name = array.dtype.name
    if name not in PACKED_DTYPES:
        raise TypeError(f"cannot pack a {name} array")
    data = array.view(np.int64) if name == "uint64" else array
    return {"dtype": name, "data": torch.from_numpy(data.copy())}


def unpack_array(packed: Any, what: str) -> np.ndarray:
    """The numpy array :func:`pack_array` packed; ``ValueError`` naming ``what`` when it is not one."""
    if not isinstance(packed, dict) or set(packed) != {"dtype", "data"}:
        raise ValueError(f"{what} should be a packed array {{'dtype', 'data'}}, got {type(packed).__name__}")
    name, data = packed["dtype"], packed["data"]
    if name not in PACKED_DTYPES or not isinstance(data, torch.Tensor) or data.dtype != PACKED_DTYPES[name]:
        got = data.dtype if isinstance(data, torch.Tensor) else type(data).__name__
        raise ValueError(f"{what} should be a tensor for numpy dtype {name!r}, got {got}")
    array = data.numpy().copy()
    return array.view(np.uint64) if name == "uint64" else array


def pack_table(table: Table) -> dict[str, Any]:
    """``table.state_dict()`` with its arrays packed."""
    state = table.state_dict()
    state["fields"] = {name: pack_array(value) for name, value in state["fields"].items()}
    return state


def unpack_table(saved: Any, what: str) -> Any:
    """A packed table state back to :meth:`Table.state_dict`'s form (checked by ``Table.load_state_dict``)."""
    if not isinstance(saved, dict) or not isinstance(saved.get("fields"), dict):
        return saved  # Table.load_state_dict says what is wrong
    out = dict(saved)
    out["fields"] = {
        name: unpack_array(value, f"{what} field {name!r}") for name, value in saved["fields"].items()
    }
    return out


def checkpoint_content(
    net: PolicyValueNet,
    rules: Rules,
    trained: dict[str, Any],
    optimizer: torch.optim.Optimizer,
    args: Args,
    rng: np.random.Generator,
    device: torch.device,
    table: Table,
    league: League,
    progress: dict[str, Any],
) -> dict[str, Any]:
    """What ``checkpoint.pt`` holds (:data:`CHECKPOINT_VERSION`): tensors and plain values only.

    ``format`` and ``version``; ``policy`` (a policy file's content, :func:`agents.ppo.policy_file`);
    ``optimizer`` (its state dict); ``args`` (the settings that must match on resume); ``rng``
    (the numpy generator's state: a dict of str and int); ``torch_rng`` (uint8 tensor) and
    ``cuda_rng`` (a list of them, or None); ``table`` (:meth:`Table.state_dict` with each array
    packed by :func:`pack_array`); ``league`` (``controller``: int64 tensor (B, P); ``pool``:
    state dicts of the past policies); ``progress`` (counters and the evaluations so far). A Ray
    run adds ``ray``: its actors' games (:meth:`training.ray_rollout.RayRollouts.state_dict`).
    """
    return {
        "format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION,
        "policy": policy_file(net, rules, trained), "optimizer": optimizer.state_dict(),
        "args": _comparable(args), "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if device.type == "cuda" else None,
        "table": pack_table(table), "league": league.state_dict(), "progress": copy.deepcopy(progress),
    }  # fmt: skip


def read_checkpoint(path: Path) -> dict[str, Any]:
    """The content of the checkpoint at ``path``, its layout checked; one ``ValueError`` naming
    the file and what is wrong (nothing in the file can run code: see :func:`agents.ppo.load_file`)."""
    old = " (a checkpoint from before checkpoints were versioned holds numpy objects: start a new run)"
    content = load_file(path, "a training checkpoint", hint=old)

    def refuse(why: str) -> ValueError:
        return ValueError(f"{path} is not a usable training checkpoint: {why}")

    if not isinstance(content, dict):
        raise refuse(f"it holds a {type(content).__name__}, not a dict")
    form = content.get("format")
    if form == agents.ppo.FORMAT:
        raise refuse(
            "it is a policy file (policy.pt), which holds no optimizer, random or table state; a run "
            "resumes from the checkpoint.pt training writes beside it"
        )
    if form != CHECKPOINT_FORMAT:
        got = f"format {form!r}" if "format" in content else "no 'format' entry"
        raise refuse(f"it has {got}, expected format {CHECKPOINT_FORMAT!r} (a foreign file?)")
    if content.get("version") != CHECKPOINT_VERSION:
        raise refuse(
            f"layout version {content.get('version')!r}; this code reads version {CHECKPOINT_VERSION} "
            "(resume with the code that wrote it, or start a new run)"
        )
    missing = [key for key in CHECKPOINT_KEYS if key not in content]
    if missing:
        raise refuse(f"entries missing: {', '.join(missing)}")
    for key in ("policy", "optimizer", "args", "rng", "table", "league", "progress"):
        if not isinstance(content[key], dict):
            raise refuse(f"{key!r} should be a dict, got {type(content[key]).__name__}")
    if not isinstance(content["policy"].get("model"), dict):
        raise refuse("'policy' has no 'model' state dict")
    if not isinstance(content["torch_rng"], torch.Tensor) or content["torch_rng"].dtype != torch.uint8:
        raise refuse("'torch_rng' should be a uint8 tensor")
    cuda = content["cuda_rng"]
    if cuda is not None and not (isinstance(cuda, list) and all(isinstance(t, torch.Tensor) for t in cuda)):
        raise refuse("'cuda_rng' should be None or a list of uint8 tensors")
    progress = content["progress"]
    if set(progress) != {*PROGRESS_NUMBERS, "evals"}:
        raise refuse(f"'progress' should have the entries {', '.join([*PROGRESS_NUMBERS, 'evals'])}")
    try:
        for key, number in PROGRESS_NUMBERS.items():
            number.check(f"progress {key!r}", progress[key])
    except (TypeError, ValueError) as error:
        raise refuse(str(error)) from None
    row = {"iteration", "decisions", "opponent", "diff", "ci95"}
    if not isinstance(progress["evals"], list) or not all(
        isinstance(e, dict) and row <= set(e) for e in progress["evals"]
    ):
        raise refuse(
            f"'progress' 'evals' should be a list of evaluation rows (with {', '.join(sorted(row))})"
        )
    return content


def restore_checkpoint(
    saved: dict[str, Any],
    path: Path,
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    rng: np.random.Generator,
    device: torch.device,
    table: Table,
    league: League,
) -> dict[str, Any]:
    """Put :func:`read_checkpoint`'s content back into a fresh run; returns its progress. A part
    that does not fit is one ``ValueError`` naming the file and the part."""

    def refuse(part: str, error: BaseException) -> ValueError:
        detail = " ".join(str(error).split())[:300]
        return ValueError(f"{path} is not a usable training checkpoint: its {part} does not fit ({detail})")

    probe = np.random.default_rng()
    try:
        probe.bit_generator.state = saved["rng"]
    except (TypeError, ValueError, KeyError) as error:
        raise refuse("numpy random state", error) from None
    try:
        net.load_state_dict(saved["policy"]["model"])
    except (RuntimeError, TypeError, ValueError, KeyError) as error:
        raise refuse("network", error) from None
    try:
        optimizer.load_state_dict(saved["optimizer"])
    except (RuntimeError, TypeError, ValueError, KeyError, IndexError) as error:
        raise refuse("optimizer state", error) from None
    table.load_state_dict(unpack_table(saved["table"], f"{path} table"), source=f"{path} (its 'table' entry)")
    try:
        league.load_state_dict(saved["league"], net)
    except ValueError as error:
        raise refuse("league", error) from None
    try:
        torch.set_rng_state(saved["torch_rng"])
        if saved["cuda_rng"] and device.type == "cuda":
            torch.cuda.set_rng_state_all(saved["cuda_rng"])
    except (RuntimeError, TypeError, ValueError) as error:
        raise refuse("torch random state", error) from None
    rng.bit_generator.state = probe.bit_generator.state
    return copy.deepcopy(saved["progress"])


# ---------------------------------------------------------------------- the run
def pick_device(name: str) -> torch.device:
    """``auto``: CUDA when present, else the CPU. ``ValueError`` for CUDA on a machine without it."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(name)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {name!r}: CUDA is not available on this machine (use --device cpu or auto)")
    return device


def native_bfloat16(device: torch.device) -> bool:
    """Whether ``device`` multiplies bfloat16 matrices natively: a CUDA GPU that supports bf16,
    or a CPU with AVX512-BF16 or AMX tiles (elsewhere torch emulates bf16, slower than float32)."""
    if device.type == "cuda":
        return bool(torch.cuda.is_bf16_supported())
    if device.type != "cpu":
        return False
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")  # torch.cpu's, since 2.3
    return any(bool(getattr(torch.cpu, name, lambda: False)()) for name in checks)


def resolve_precision(name: str, device: torch.device) -> torch.dtype:
    """The dtype of :attr:`Args.precision` ``name`` on ``device`` (``auto``: :func:`native_bfloat16`)."""
    if name == "auto":
        return torch.bfloat16 if native_bfloat16(device) else torch.float32
    return {"float32": torch.float32, "bfloat16": torch.bfloat16}[name]


def autocast(device: torch.device, dtype: torch.dtype) -> Any:
    """``torch.autocast`` to ``dtype`` on ``device`` (a no-op context for float32)."""
    return torch.autocast(device.type, dtype=dtype, enabled=dtype != torch.float32)


def _comparable(args: Args) -> dict[str, Any]:
    return json.loads(json.dumps({k: v for k, v in asdict(args).items() if k not in RESUMABLE_CHANGES}))


def train(args: Args) -> dict[str, Any]:
    """Train (or, with ``args.resume``, continue) a run; returns a summary of it.

    Raises ``TypeError`` / ``ValueError`` for a bad setting (:meth:`Args.validate`) or a resume
    file that is not a usable checkpoint, before anything is written. With ``args.ray`` the
    rollouts are played on Ray actors (:class:`training.ray_rollout.RayRollouts`)."""
    args.validate()
    rollouts = None
    if args.ray:
        from training.ray_rollout import RayRollouts

        rollouts = RayRollouts(args.ray, args.ray_actors)
    try:
        return _train(args, rollouts)
    finally:
        if rollouts is not None:
            rollouts.close()


def _train(args: Args, rollouts: Any) -> dict[str, Any]:
    """:func:`train`, the rollouts played here (``rollouts`` None) or by ``rollouts``."""
    rules = make_rules(args.preset, num_players=args.num_players, **args.options)
    args.num_players = rules.num_players
    resolve_family(args, rules.game)
    for spec in args.eval_opponents:  # fail now rather than at the first evaluation
        agents.from_spec(spec, rules)
    device = pick_device(args.device)
    dtype = resolve_precision(args.precision, device)
    run = Path(args.run_dir)
    run.mkdir(parents=True, exist_ok=True)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    table = Table(rules, args.num_games, reward=args.reward)
    table.reset(seed=args.seed)
    net = PolicyValueNet(table.observer.layout.size, table.engine.num_actions, args.hidden).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    league = League(rules, args, rng, device)
    league.seat(np.arange(args.num_games))
    progress: dict[str, Any] = {"iteration": 0, "decisions": 0, "samples": 0, "elapsed_s": 0.0,
                                "train_s": 0.0, "next_eval": args.eval_every, "evals": []}  # fmt: skip
    checkpoint_path, policy_path = run / "checkpoint.pt", run / "policy.pt"
    if checkpoint_path.exists() and not args.resume:
        raise FileExistsError(
            f"{run} holds a run already: pass --resume to continue it, or choose another --run-dir"
        )
    saved: dict[str, Any] = {}
    if args.resume and checkpoint_path.exists():
        saved = read_checkpoint(checkpoint_path)
        # A setting newer than the checkpoint had its default when the run began.
        before = {**_comparable(resolve_family(Args(), rules.game)), **saved["args"]}
        differ = {k for k, v in _comparable(args).items() if before.get(k) != v}
        if differ:
            raise ValueError(
                f"{checkpoint_path} was trained with other settings ({', '.join(sorted(differ))}); "
                "resume with the same command (only budgets may change) or choose another --run-dir"
            )
        if ("ray" in saved) != (rollouts is not None):
            how = "on Ray actors: resume with --ray" if "ray" in saved else "here: resume without --ray"
            raise ValueError(f"{checkpoint_path} was trained with its rollouts played {how}")
        progress = restore_checkpoint(saved, checkpoint_path, net, optimizer, rng, device, table, league)
    if rollouts is not None:  # the actors start (or resume) their games
        rollouts.start(args, net, league, saved.get("ray"), checkpoint_path)
    logs = Logs(run, args, progress["iteration"], progress["decisions"])

    smear = rules.game == "smear"
    teacher_name, teacher = make_teacher(rules, args)
    buf = None  # with Ray, each rollout arrives in a buffer of its own
    if rollouts is None:
        buf = Rollout.allocate(
            args.rollout_steps, args.num_games, rules.num_players, net.obs_size, net.num_actions,
            args.obs_format, table.observer.layout.packing,
        )  # fmt: skip
    scale = reward_scale(rules)
    obs_layout = observation_layout(rules)
    better = "higher" if smear else "lower"
    trained_info = {
        "command": "python -m training.ppo " + " ".join(to_argv(args, rules.game)),
        "settings": _comparable(args),
        "precision": str(dtype).removeprefix("torch."),
    }

    def save_policy() -> None:
        info = dict(
            trained_info, decisions=progress["decisions"], minutes=round(progress["elapsed_s"] / 60, 2)
        )
        save_atomic(policy_file(net, rules, info), policy_path)

    def save_checkpoint() -> None:
        content = checkpoint_content(net, rules, trained_info, optimizer, args, rng, device, table, league,
                                     progress)  # fmt: skip
        if rollouts is not None:
            content["ray"] = rollouts.state_dict()
        save_atomic(content, checkpoint_path)
        save_policy()

    def run_evaluation() -> None:
        save_policy()
        results = evaluate(policy_path, rules, args)
        for r in results:
            r.update(iteration=progress["iteration"], decisions=progress["decisions"],
                     elapsed_s=round(progress["elapsed_s"], 1))  # fmt: skip
        progress["evals"].extend(results)
        logs.evaluation(results)
        title = f"{args.preset}, {rules.num_players} players: PPO"
        plot_learning_curve(progress["evals"], title, run / "learning_curve.png", args.imitation_decisions,
                            better, teacher_name)  # fmt: skip
        logs.bar.set_postfix_str(
            f"policy − opponent, {better} is better: "
            + ", ".join(f"vs {r['opponent']} {r['diff']:+.2f}±{r['ci95']:.2f}" for r in results)
        )

    def tick(since: float) -> float:
        now = time.perf_counter()
        progress["elapsed_s"] += now - since
        return now

    def budget_left() -> bool:
        if args.total_decisions and progress["decisions"] >= args.total_decisions:
            return False
        return progress["elapsed_s"] < 60 * args.minutes

    clock = time.perf_counter()
    while budget_left():
        start = time.perf_counter()
        imitation = progress["decisions"] < args.imitation_decisions
        if rollouts is None:
            collect(table, league, net, buf, rng, device, scale, teacher if imitation else None, dtype)
        else:
            buf = rollouts.collect(net, league, imitation)
        if imitation:
            buf.value[: buf.size] = 0.0
        adv, trainable = advantages(buf, rules.num_players, args.gamma, 1.0 if imitation else args.gae_lambda)
        stats = update(net, optimizer, buf, adv, trainable, args, device, imitation, obs_layout, dtype)
        decisions = args.rollout_steps * args.num_games
        progress["iteration"] += 1
        progress["decisions"] += decisions
        progress["samples"] += int(stats.pop("samples"))
        progress["train_s"] += time.perf_counter() - start
        rate = decisions / (time.perf_counter() - start)
        clock = tick(clock)
        logs.train({
            "iteration": progress["iteration"], "decisions": progress["decisions"],
            "samples": progress["samples"], "elapsed_s": round(progress["elapsed_s"], 2),
            "decisions_per_s": round(rate),
            "phase": "imitation" if imitation else "ppo", **stats,
        })  # fmt: skip
        logs.bar.update(decisions)
        if not imitation and args.pool_every and progress["iteration"] % args.pool_every == 0:
            league.snapshot(net)
        evaluated = bool(args.eval_every) and progress["decisions"] >= progress["next_eval"]
        if evaluated:
            progress["next_eval"] += args.eval_every
            run_evaluation()
        clock = tick(clock)
        finished = not budget_left()
        if finished and not evaluated:
            run_evaluation()
        if finished or progress["iteration"] % args.checkpoint_every == 0:
            clock = tick(clock)
            save_checkpoint()
    logs.close()
    last = [e for e in progress["evals"] if e["iteration"] == progress["iteration"]]
    return {
        "run_dir": str(run), "iterations": progress["iteration"], "decisions": progress["decisions"],
        "samples": progress["samples"], "minutes": round(progress["elapsed_s"] / 60, 2),
        "decisions_per_s": round(progress["decisions"] / max(progress["train_s"], 1e-9)),
        "evaluation": last, "policy": str(policy_path), "checkpoint": str(checkpoint_path),
    }  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.ppo [flags]``: train, print the summary as JSON. Bad input: one line
    on stderr and exit status 2 (``--debug``: the traceback)."""
    parser = add_arguments(ArgumentParser(prog="python -m training.ppo", description=__doc__.split("\n")[0]))
    add_debug(parser)

    def run(namespace: argparse.Namespace) -> int:
        print(json.dumps(train(args_from(namespace)), indent=1))
        return 0

    return run_command(parser, argv, run)


if __name__ == "__main__":
    sys.exit(main())
