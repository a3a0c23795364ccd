"""PPO self-play for the Hearts family: one shared policy for every seat, on the batched engine.

Run it::

    hearts-env train --preset hearts --num-players 4 --minutes 60 --run-dir runs/hearts-4p
    hearts-env train ... --resume        # the same command continues a stopped run

This file is the algorithm, top to bottom: credit (:func:`advantages`), the update (:func:`update`),
one iteration of a single configuration (:meth:`SingleConfiguration.iterate`) and :func:`train`.
The loop around it (budgets, checkpoints, evaluations, logs, Ctrl-C, the summary, the run files)
is :class:`training.run.Run`, shared with a family's universal network (:mod:`training.mixture`).

What one iteration does
-----------------------
1. **Collect** (:func:`training.rollout.collect`). ``num_games`` games are stepped
   ``rollout_steps`` times. The seat to act belongs either to the learner (the current policy:
   its decision is stored with the observation, mask, action, log-probability and value) or to
   an opponent (a heuristic agent or a frozen past policy: it acts, nothing is stored). Which is
   decided per deal: with probability ``self_play`` every seat is the learner; otherwise one
   random seat is the learner and the others are one opponent drawn from the league
   (``opponents`` plus up to ``pool_size`` past policies, one snapshot every ``pool_every``
   iterations).
2. **Credit.** Rewards arrive when a deal ends (``reward``: ``zero_sum`` = the others' mean points
   minus one's own, or ``points`` = minus one's own; divided by the deal's penalty total so a
   deal's rewards are of order 1). Each seat's reward goes to that seat's last decision of the
   deal, and GAE runs backwards along each (game, seat)'s own decisions, with a done at every
   deal end. Decisions of a deal still unfinished when the rollout stops are not trained on.
3. **Update.** ``update_epochs`` passes of clipped PPO over minibatches of the stored decisions.
   Illegal cards have logit -1e9 (:data:`agents.ppo.ILLEGAL_LOGIT`), so their probability, their
   share of the entropy and their gradient are exactly 0.

``imitation_decisions`` first trains the policy to copy the ``teacher`` (cross-entropy on its
cards, value regression on its deals' returns), played at every seat, then switches to PPO; by
default (None) for 4M decisions, or less where a quarter of ``minutes`` or of ``total_decisions``
comes first (:func:`training.config.imitating`), so every run reaches PPO. On 4-player Hearts the
warm start saves more than 6M decisions (docs/training.md).

``overlap`` plays the next rollout in a thread during the update (:class:`training.ahead.Ahead`);
``ray`` plays the rollouts on Ray actors (:class:`training.ray_rollout.RayRollouts`). Everything
random flows from ``seed``; an iteration depends only on the state at its start, which the
checkpoint holds, so a resumed run continues exactly as the uninterrupted one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812

import agents
from agents.ppo import PolicyValueNet, policy_file
from evaluation.flags import ArgumentParser, add_debug, run_command
from hearts_env.core.rules import Rules
from hearts_env.files import OutputLock
from hearts_env.games import family
from hearts_env.observation import Layout
from hearts_env.observation import layout as observation_layout
from hearts_env.presets import make_rules
from hearts_env.table import Table
from training.ahead import Ahead
from training.checkpoint import (
    CHECKPOINT_VERSION,
    checkpoint_content,
    comparable,
    read_checkpoint,
    restore_checkpoint,
    resume_from,
)
from training.config import Args, add_arguments, args_from, default_run_dir, resolve_family, to_argv
from training.device import autocast, pick_device, resolve_precision
from training.evaluate import evaluate
from training.logs import Logs, curve_title, plot_learning_curve
from training.rollout import League, Rollout, collect, make_teacher, reward_scale
from training.run import fresh_progress, run_in
from training.summary import evaluation_json, summary_text, tournament_command

__all__ = [  # with the settings and the checkpoint's version and reader, which callers take from here
    "CHECKPOINT_VERSION", "Args", "SingleConfiguration", "advantages", "main", "read_checkpoint", "train",
    "update",
]  # fmt: skip


# ---------------------------------------------------------------------- credit
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
    copy: np.ndarray | None = None,
    copy_coef: float | np.ndarray = 0.0,
) -> dict[str, float]:
    """PPO epochs over the trainable decisions (or, ``imitation``, cross-entropy on the teacher's
    cards); returns the mean losses and diagnostics of the last epoch (``layout``: the
    observation's, needed for a compact ``buf``; ``dtype``: the matmul precision of the forward
    pass, :func:`autocast`).

    ``copy`` (N,) bool marks trainable decisions that are a teacher's, not the policy's (the moon
    imitation and distillation of :mod:`training.mixture`): they take no part in the PPO and value
    losses and add ``copy_coef`` times their mean cross-entropy (``copy_loss`` in the result, the
    plain mean); ``copy_coef`` may be an (N,) array, each teacher's row its own weight."""
    index = np.flatnonzero(trainable)
    returns = adv + buf.value[: buf.size]  # the value targets (values 0: imitation's Monte Carlo returns)
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
            copy_loss = copy_term = torch.zeros(())
            if copy is not None:  # the teacher's rows: cross-entropy only, out of the rest
                mine = ~copy[mb]  # decided on the host: no copy back from the device
                if not mine.all():
                    theirs = -logp[torch.from_numpy(~mine).to(device)]
                    copy_loss = theirs.mean()
                    if np.ndim(copy_coef):
                        weight = torch.from_numpy(np.asarray(copy_coef, np.float32)[mb[~mine]]).to(device)
                        copy_term = (weight * theirs).mean()
                    else:
                        copy_term = float(copy_coef) * copy_loss
                own = torch.from_numpy(mine).to(device)
                logp_all, logp, value = logp_all[own], logp[own], value[own]
                mb = mb[mine]
            if len(mb):
                pg_loss, v_loss, entropy, kl, clipfrac = _losses(
                    logp_all, logp, value, mb, buf, adv, returns, args, device, imitation
                )
            else:  # a minibatch of the teacher's rows alone
                pg_loss = v_loss = entropy = kl = clipfrac = torch.zeros(())
            loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss + copy_term
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
            if copy is not None:
                stats.setdefault("copy_loss", []).append(float(copy_loss.detach()))
    out = {name: float(np.mean(values)) for name, values in stats.items()}
    if copy is not None:  # the fit of the values is the policy's own decisions'
        index = index[~copy[index]]
    y, pred = returns[index], buf.value[index]
    useful = not imitation and len(index) > 1 and np.var(y) > 0
    out["explained_var"] = float(1 - np.var(y - pred) / np.var(y)) if useful else 0.0
    out["samples"] = float(len(index))
    return out


def _losses(
    logp_all: torch.Tensor, logp: torch.Tensor, value: torch.Tensor, mb: np.ndarray, buf: Rollout,
    adv: np.ndarray, returns: np.ndarray, args: Args, device: torch.device, imitation: bool,
) -> tuple[torch.Tensor, ...]:  # fmt: skip
    """One minibatch's policy loss (clipped PPO, or imitation's cross-entropy), value loss,
    entropy, approximate KL and clip fraction, over its rows ``mb`` (at least one)."""
    entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
    v_loss = 0.5 * (value - torch.from_numpy(returns[mb]).to(device)).square().mean()
    if imitation:
        return -logp.mean(), v_loss, entropy, torch.zeros(()), torch.zeros(())
    old = torch.from_numpy(buf.logprob[mb]).to(device)
    a = torch.from_numpy(adv[mb]).to(device)
    a = a - a.mean()
    if len(mb) > 1:  # one decision (a last minibatch's remainder) has no spread: std NaN
        a = a / (a.std() + 1e-8)
    log_ratio = logp - old
    ratio = log_ratio.exp()
    pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
    with torch.no_grad():
        kl = ((ratio - 1) - log_ratio).mean()
        clipfrac = ((ratio - 1).abs() > args.clip_coef).float().mean()
    return pg_loss, v_loss, entropy, kl, clipfrac


# ---------------------------------------------------------------------- one configuration
class SingleConfiguration:
    """The schedule of one preset and player count (:class:`training.run.Schedule`): one table of
    ``num_games`` games, the league, the imitation warm start, ``overlap`` and Ray rollouts. Built in
    the held run folder ``run``: fresh, or with ``args.resume`` from its checkpoint (same settings)."""

    def __init__(self, args: Args, rules: Rules, device: torch.device, dtype: torch.dtype, run: Path,
                 rollouts: Any = None) -> None:  # fmt: skip
        self.args, self.rules, self.device, self.dtype, self.rollouts = args, rules, device, dtype, rollouts
        if args.threads > 0:
            torch.set_num_threads(args.threads)
        torch.manual_seed(args.seed)
        self.rng = rng = np.random.default_rng(args.seed)
        self.table = Table(rules, args.num_games, reward=args.reward)
        self.table.reset(seed=args.seed)
        layout = self.table.observer.layout
        path = run / "checkpoint.pt"  # with --resume, open_run has made sure it is there
        saved = resume_from(path, args, rules.game, ray=rollouts is not None)  # {} for a fresh run
        self.net = PolicyValueNet(layout.size, self.table.num_actions, args.hidden).to(device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=args.learning_rate, eps=1e-5)
        self.league = League(rules, args, rng, device, dtype=dtype)
        self.league.seat(np.arange(args.num_games))
        self.progress = fresh_progress(args)
        if args.resume:
            self.progress = restore_checkpoint(saved, path, self.net, self.optimizer, rng, device, self.table,
                                               self.league)  # fmt: skip
        if rollouts is not None:  # the actors start (or resume) their games
            rollouts.start(args, self.net, self.league, saved.get("ray"), path)
        self.teacher, self.teaching = make_teacher(rules, args)
        self.buf = None  # with Ray, each rollout arrives in a buffer of its own
        if rollouts is None:
            self.buf = Rollout.allocate(args.rollout_steps, args.num_games, rules.num_players, layout.size,
                                        self.net.num_actions, args.obs_format, layout.packing)  # fmt: skip
        self.ahead = Ahead(self.net, self.buf, args, saved) if args.overlap and self.buf is not None else None
        self.scale, self.obs_layout = reward_scale(rules), observation_layout(rules)
        self.identity = {"preset": args.preset, "num_players": rules.num_players}
        self.label, self.better = f"{args.preset} {rules.num_players}p", family(rules).better
        self.flags = to_argv(args, rules.game)
        self.train_columns, self.eval_columns = Logs.TRAIN, Logs.EVAL
        self.trained = {"command": "hearts-env train " + " ".join(self.flags), "settings": comparable(args),
                        "precision": str(dtype).removeprefix("torch.")}  # fmt: skip

    def iterate(self, imitation: bool, progress: dict[str, Any]) -> tuple[dict[str, float], dict[str, Any]]:
        """Collect a rollout (played ahead during the last update, on Ray actors, or here), credit
        it and update the policy."""
        args, ahead = self.args, self.ahead
        if ahead is not None and ahead.ready:
            self.buf = ahead.take(self.buf)  # played during the last update
        elif self.rollouts is None:
            generator = ahead.generator if ahead is not None else None
            collect(self.table, self.league, self.net, self.buf, self.rng, self.device, self.scale,
                    self.teaching if imitation else None, self.dtype, generator=generator)  # fmt: skip
        else:
            self.buf = self.rollouts.collect(self.net, self.league, imitation)
        buf = self.buf
        if imitation:
            buf.value[: buf.size] = 0.0  # the value targets: Monte Carlo returns
        lam = 1.0 if imitation else args.gae_lambda
        adv, trainable = advantages(buf, self.rules.num_players, args.gamma, lam)
        if ahead is not None and not imitation and ahead.worth_it(progress):
            ahead.start(self.play_ahead)
        try:
            stats = update(self.net, self.optimizer, buf, adv, trainable, args, self.device, imitation,
                           self.obs_layout, self.dtype)  # fmt: skip
        finally:
            if ahead is not None:
                ahead.join()  # the next rollout is played (or its error raised) before anything else
        return stats, {}

    def play_ahead(self, out: Rollout, actor: PolicyValueNet) -> None:
        """``overlap``: the next PPO rollout, into ``out``, with ``actor`` (the weights before the update)."""
        assert self.ahead is not None
        collect(self.table, self.league, actor, out, self.rng, self.device, self.scale, None,
                self.dtype, generator=self.ahead.generator)  # fmt: skip

    def snapshot(self) -> None:
        """The current policy joins the league's pool."""
        self.league.snapshot(self.net)

    def checkpoint(self, progress: dict[str, Any]) -> dict[str, Any]:
        """:func:`training.checkpoint.checkpoint_content`, with the rollout thread's and actors' states."""
        content = checkpoint_content(self.net, self.rules, self.trained, self.optimizer, self.args, self.rng,
                                     self.device, self.table, self.league, progress)  # fmt: skip
        if self.ahead is not None:
            content["rollout_torch_rng"] = self.ahead.generator.get_state()
        if self.rollouts is not None:
            content["ray"] = self.rollouts.state_dict()
        return content

    def policy(self, info: dict[str, Any]) -> dict[str, Any]:
        """A policy file of this configuration (:func:`agents.ppo.policy_file`)."""
        return policy_file(self.net, self.rules, {**self.trained, **info})

    def evaluate(self, policy_path: Path) -> list[dict[str, Any]]:
        """The policy alone against copies of each ``eval_opponents`` (:func:`training.evaluate.evaluate`)."""
        return evaluate(policy_path, self.rules, self.args)

    def plot(self, progress: dict[str, Any], path: Path) -> None:
        """One line an opponent, the warm start shaded (:func:`training.logs.plot_learning_curve`)."""
        imitated, decisions = progress["imitation"], progress["decisions"]
        title = curve_title(self.args.preset, self.rules.num_players, imitated, decisions)
        plot_learning_curve(progress["evals"], title, path, imitated, self.better, self.teacher,
                            ppo=decisions > imitated)  # fmt: skip

    def headline(self, rows: list[dict[str, Any]]) -> str:
        """``policy − opponent`` against each opponent."""
        scores = ", ".join(f"vs {r['opponent']} {r['diff']:+.2f}±{r['ci95']:.2f}" for r in rows)
        return f"policy − opponent, {self.better} is better: {scores}"

    def commands(self, last: list[dict[str, Any]], policy_decisions: int, run: Path) -> dict[str, str]:
        """The ``hearts-env tournament`` command that plays the last evaluation again."""
        if "seats" not in last[0]:
            return {}
        json_path = str(evaluation_json(run, last[0]["opponent"], policy_decisions))
        args, n = self.args, self.rules.num_players
        return {"evaluate_command": tournament_command(args.preset, n, args.options, last[0], json_path)}


def train(args: Args, lock: OutputLock | None = None) -> dict[str, Any]:
    """Train (or, with ``args.resume``, continue) a run of one configuration; returns its summary.

    Raises ``TypeError`` / ``ValueError`` for a bad setting (:meth:`Args.validate`) or a resume
    file that is not a usable checkpoint, ``FileExistsError`` / ``FileNotFoundError`` for a run
    folder the run may not write in (:func:`training.run_folder.open_run`) and
    :class:`hearts_env.files.OutputInUseError` while another process trains in it, all before
    anything is written. ``lock``: the run folder's, held by the caller already (:mod:`training.demo`).
    Ctrl-C (or SIGTERM in a command) stops the run: the last checkpoint is kept, the summary
    written, and :class:`evaluation.flags.Interrupted` raised, saying what the checkpoint holds."""
    args.validate()
    rules = make_rules(args.preset, num_players=args.num_players, **args.options)
    args.num_players = rules.num_players
    if args.run_dir is None:
        args.run_dir = default_run_dir(args.preset, rules.num_players)
    resolve_family(args, rules.game)
    for spec in args.eval_opponents:  # fail now rather than at the first evaluation
        agents.from_spec(spec, rules)
    device = pick_device(args.device)
    dtype = resolve_precision(args.precision, device)
    rollouts = None
    if args.ray:  # the one place that chooses Ray (it imports the parts, never this file)
        from training.ray_rollout import RayRollouts

        rollouts = RayRollouts(args.ray, args.ray_actors)
    run = Path(args.run_dir)
    try:
        return run_in(args, run, lambda: SingleConfiguration(args, rules, device, dtype, run, rollouts), lock)
    finally:
        if rollouts is not None:
            rollouts.close()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.ppo [flags]`` (the flags of ``hearts-env train`` without ``--family``):
    train, print the closing summary; after Ctrl-C or SIGTERM one line saying what the checkpoint
    holds and exit status 130 or 143. Bad input: one line on stderr and exit status 2."""
    parser = add_arguments(ArgumentParser(prog="python -m training.ppo", description=__doc__.split("\n")[0]))
    add_debug(parser)

    def run(namespace: argparse.Namespace) -> int:
        print(summary_text(train(args_from(namespace))))
        return 0

    return run_command(parser, argv, run)


if __name__ == "__main__":
    sys.exit(main())
