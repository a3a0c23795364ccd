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

``imitation_decisions`` first trains the policy to copy the ``teacher`` (``strategy``; ``smear``
for Smear: cross-entropy on its cards, value regression on its deals' returns), played at every
seat, then switches to PPO. By default (None) the warm start lasts 4M decisions, or ends sooner
where a quarter of the time budget (``minutes``) or of ``total_decisions`` comes first
(:func:`training.config.imitating`), so every run reaches PPO; an explicit number is followed as
given, with a warning when the measured rate says the run will end before it. On 4-player Hearts
this warm start was measured to save more than 6M decisions: 10M decisions after the start, the
policy trailed ``strategy`` by 0.4 points per deal with it and by 2.6 without it (duplicate,
1,000 deals, 95% CI about ±0.3).

What a run writes (``run_dir``)
-------------------------------
``checkpoint.pt`` (everything needed to resume: network, optimizer, random states, the tables
mid-deal, the league; written atomically every ``checkpoint_every`` iterations and at the end;
tensors and plain values only, read with ``weights_only=True``, see :func:`checkpoint_content`),
``policy.pt`` (the policy alone, for ``agents.make("ppo", checkpoint=...)``), ``train.csv``
(losses per iteration), ``eval.csv`` and ``learning_curve.png`` (duplicate evaluation against
``eval_opponents`` every ``eval_every`` decisions, by default at each fifth of the budget,
through :mod:`evaluation.duplicate`), and ``tb/`` (TensorBoard), and ``summary.json`` (what the
run did). A progress bar shows decisions/s, the decisions the budgets allow (the time budget's at
the measured rate) with the time left, and the latest evaluation. The final evaluation counts
inside ``minutes``: the run stops training early enough for one as long as the last.
``run_dir`` defaults to ``runs/PRESET-Np``. Every file but ``tb/`` is written whole and
atomically; a folder that holds a run's files is never written over by a new run (``--resume``
continues it, ``--overwrite`` removes them first), and one run at a time holds it
(:mod:`training.run_folder`).

When its time or decision budget is spent, a run prints a summary
(:func:`training.summary.summary_text`): the decisions of each phase, the rate, the last
evaluation in a tournament's terms, the files written, the ``hearts-env tournament`` command that
plays that evaluation again, and the command that continues the run. Ctrl-C or SIGTERM keeps the
last checkpoint, writes the summary, and says in one line what the checkpoint holds (exit status
130 or 143).

Shipping a policy: ``cp runs/hearts-4p/policy.pt agents/checkpoints/hearts-4p.pt`` (with the learning
curve as ``agents/checkpoints/hearts-4p.png``, package data); ``agents.make("ppo", "hearts", 4)`` then
plays it.

Reproducibility: everything random flows from ``seed``; an iteration's result depends only on
the state at its start, which the checkpoint holds, so a resumed run continues exactly as the
uninterrupted one (``minutes`` only decides where a run stops, and, with the default
``imitation_decisions``, where the warm start ends: the checkpoint counts its decisions, PPO once
begun stays, and ``--imitation-decisions N`` fixes the switch for a run to be replayed exactly).

Ray (``ray``, ``--ray local|auto|HOST:PORT``): the games are shared out among ``ray_actors``
actors (:mod:`training.ray_rollout`), each with its own table, seating and generators seeded from
``seed`` and its index; every iteration they get the policy's weights, play :func:`collect` and
send the decisions back, which the learner joins and learns from as here. A Ray run is
reproducible for a given number of actors (not equal to a run in one process) and resumes with
the same number (the checkpoint keeps every actor's state under ``ray``).

The parts: :mod:`training.config` (the settings and their flags, no torch),
:mod:`training.rollout` (the league, the rollout buffer, :func:`collect`, the teacher),
:mod:`training.checkpoint` (the checkpoint format), :mod:`training.logs` (CSV, TensorBoard, the
learning curve), :mod:`training.evaluate` (the duplicate evaluations) and
:mod:`training.device` (device and precision); this file holds GAE, the update and the loop.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812

import agents
from agents.ppo import PolicyValueNet, policy_file
from evaluation.flags import ArgumentParser, Interrupted, add_debug, run_command, signal_of
from hearts_env.files import OutputLock, write_json
from hearts_env.games import family
from hearts_env.observation import Layout
from hearts_env.observation import layout as observation_layout
from hearts_env.presets import make_rules
from hearts_env.table import Table
from training.checkpoint import (
    CHECKPOINT_KEYS,
    CHECKPOINT_VERSION,
    PACKED_DTYPES,
    PROGRESS_NUMBERS,
    checkpoint_content,
    comparable,
    pack_array,
    pack_table,
    read_checkpoint,
    restore_checkpoint,
    unpack_array,
    unpack_table,
)
from training.config import (
    RESUMABLE_CHANGES,
    Args,
    add_arguments,
    args_from,
    default_run_dir,
    evaluation_due,
    evaluation_step,
    family_setting,
    imitating,
    next_evaluation,
    resolve_family,
    to_argv,
)
from training.device import autocast, native_bfloat16, pick_device, resolve_precision
from training.evaluate import evaluate
from training.logs import Logs, curve_title, plot_learning_curve
from training.rollout import LEARNER, League, Rollout, collect, make_teacher, reward_scale
from training.run_folder import interrupted_text, open_run, prepare_run, save_torch
from training.summary import evaluation_json, resume_command, summary_text, tournament_command

__all__ = [  # this file's names, and those of the parts that were defined here before the split
    "CHECKPOINT_KEYS", "CHECKPOINT_VERSION", "LEARNER", "PACKED_DTYPES", "PROGRESS_NUMBERS",
    "RESUMABLE_CHANGES", "Args", "League", "Logs", "Rollout", "add_arguments", "advantages",
    "args_from", "autocast", "checkpoint_content", "collect", "evaluate", "family_setting", "main",
    "make_teacher", "native_bfloat16", "pack_array", "pack_table", "pick_device", "plot_learning_curve",
    "read_checkpoint", "resolve_family", "resolve_precision", "restore_checkpoint", "reward_scale",
    "to_argv", "train", "unpack_array", "unpack_table", "update",
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


# ---------------------------------------------------------------------- the run
def train(args: Args, lock: OutputLock | None = None) -> dict[str, Any]:
    """Train (or, with ``args.resume``, continue) a run; returns a summary of it.

    Raises ``TypeError`` / ``ValueError`` for a bad setting (:meth:`Args.validate`) or a resume
    file that is not a usable checkpoint, ``FileExistsError`` / ``FileNotFoundError`` for a run
    folder the run may not write in (:func:`training.run_folder.open_run`: a new run in a folder
    holding run files, a resume without a checkpoint) and
    :class:`hearts_env.files.OutputInUseError` while another process trains in it, all before
    anything is written. The run holds the folder's lock to its end; ``lock``: one the caller
    holds already (:mod:`training.demo`). With ``args.ray`` the rollouts are played on Ray
    actors (:class:`training.ray_rollout.RayRollouts`).

    Ctrl-C (or SIGTERM in a command) stops the run: the last checkpoint is kept, the summary
    written, and :class:`evaluation.flags.Interrupted` raised, saying what the checkpoint holds."""
    args.validate()
    rollouts = None
    if args.ray:  # the one place that chooses Ray (it imports the parts, never this file)
        from training.ray_rollout import RayRollouts

        rollouts = RayRollouts(args.ray, args.ray_actors)
    try:
        return _train(args, rollouts, lock)
    finally:
        if rollouts is not None:
            rollouts.close()


def _train(args: Args, rollouts: Any, lock: OutputLock | None) -> dict[str, Any]:
    """:func:`train`, the rollouts played here (``rollouts`` None) or by ``rollouts``."""
    rules = make_rules(args.preset, num_players=args.num_players, **args.options)
    args.num_players = rules.num_players
    if args.run_dir is None:
        args.run_dir = default_run_dir(args.preset, rules.num_players)
    resolve_family(args, rules.game)
    for spec in args.eval_opponents:  # fail now rather than at the first evaluation
        agents.from_spec(spec, rules)
    device = pick_device(args.device)
    dtype = resolve_precision(args.precision, device)
    run = Path(args.run_dir)
    if lock is None:
        lock = open_run(run, args.resume, args.overwrite)
        try:
            return _train_in(args, rollouts, rules, device, dtype, run)
        finally:
            lock.release()
    if not lock.held or lock.path != run:
        raise ValueError(f"the lock given to train() must be held, on the run folder {run}")
    prepare_run(run, args.resume, args.overwrite)
    return _train_in(args, rollouts, rules, device, dtype, run)


def _train_in(
    args: Args, rollouts: Any, rules: Any, device: torch.device, dtype: torch.dtype, run: Path
) -> dict[str, Any]:
    """:func:`train` in the run folder ``run``, held."""
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    table = Table(rules, args.num_games, reward=args.reward)
    table.reset(seed=args.seed)
    net = PolicyValueNet(table.observer.layout.size, table.num_actions, args.hidden).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    league = League(rules, args, rng, device, dtype=dtype)
    league.seat(np.arange(args.num_games))
    progress: dict[str, Any] = {"iteration": 0, "decisions": 0, "imitation": 0, "samples": 0,
                                "elapsed_s": 0.0, "train_s": 0.0, "next_eval": evaluation_step(args),
                                "evals": []}  # fmt: skip
    checkpoint_path, policy_path = run / "checkpoint.pt", run / "policy.pt"
    curve_path = run / "learning_curve.png"
    saved: dict[str, Any] = {}
    if args.resume:  # open_run has made sure the checkpoint is there
        saved = read_checkpoint(checkpoint_path)
        # A setting newer than the checkpoint had its default when the run began.
        before = {**comparable(resolve_family(Args(), rules.game)), **saved["args"]}
        differ = {k: v for k, v in comparable(args).items() if before.get(k) != v}
        if differ:
            values = ", ".join(f"{k} {before.get(k)!r} there, {v!r} here" for k, v in sorted(differ.items()))
            raise ValueError(
                f"{checkpoint_path} was trained with other settings ({values}); "
                "resume with the same command (only budgets may change) or choose another --run-dir"
            )
        if ("ray" in saved) != (rollouts is not None):
            how = "on Ray actors: resume with --ray" if "ray" in saved else "here: resume without --ray"
            raise ValueError(f"{checkpoint_path} was trained with its rollouts played {how}")
        progress = restore_checkpoint(saved, checkpoint_path, net, optimizer, rng, device, table, league)
    if rollouts is not None:  # the actors start (or resume) their games
        rollouts.start(args, net, league, saved.get("ray"), checkpoint_path)
    logs = Logs(run, args, progress["iteration"], progress["decisions"], progress["elapsed_s"])

    teacher_name, teacher = make_teacher(rules, args)
    buf = None  # with Ray, each rollout arrives in a buffer of its own
    if rollouts is None:
        buf = Rollout.allocate(
            args.rollout_steps, args.num_games, rules.num_players, net.obs_size, net.num_actions,
            args.obs_format, table.observer.layout.packing,
        )  # fmt: skip
    ahead = Ahead(net, buf, args, saved) if args.overlap and buf is not None else None  # Args refuses --ray
    scale = reward_scale(rules)
    obs_layout = observation_layout(rules)
    better = family(rules).better
    flags = to_argv(args, rules.game)
    trained_info = {
        "command": "python -m training.ppo " + " ".join(flags),
        "settings": comparable(args),
        "precision": str(dtype).removeprefix("torch."),
    }

    def save_policy() -> None:
        info = dict(
            trained_info, decisions=progress["decisions"], minutes=round(progress["elapsed_s"] / 60, 2)
        )
        save_torch(policy_file(net, rules, info), policy_path)
        policy_at["decisions"] = progress["decisions"]

    def save_checkpoint() -> None:
        content = checkpoint_content(net, rules, trained_info, optimizer, args, rng, device, table, league,
                                     progress)  # fmt: skip
        if ahead is not None:
            content["rollout_torch_rng"] = ahead.generator.get_state()
        if rollouts is not None:
            content["ray"] = rollouts.state_dict()
        save_torch(content, checkpoint_path)
        saved_at.update(iteration=progress["iteration"], decisions=progress["decisions"])  # before the policy
        save_policy()

    def run_evaluation() -> None:
        started = time.perf_counter()
        save_policy()
        results = evaluate(policy_path, rules, args)
        reserve["s"] = time.perf_counter() - started
        for r in results:
            r.update(iteration=progress["iteration"], decisions=progress["decisions"],
                     elapsed_s=round(progress["elapsed_s"], 1))  # fmt: skip
        progress["evals"].extend(results)
        logs.evaluation(results)
        imitated, decisions = progress["imitation"], progress["decisions"]
        title = curve_title(args.preset, rules.num_players, imitated, decisions)
        plot_learning_curve(progress["evals"], title, curve_path, imitated, better, teacher_name,
                            ppo=decisions > imitated)  # fmt: skip
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
        return progress["elapsed_s"] + reserve["s"] < 60 * args.minutes

    def evaluations() -> int:
        return len({e["iteration"] for e in progress["evals"]})

    if args.imitation_decisions is not None and args.total_decisions:
        if progress["decisions"] < args.imitation_decisions >= args.total_decisions:
            logs.warn(
                f"--imitation-decisions {args.imitation_decisions:,} is not below --total-decisions "
                f"{args.total_decisions:,}: this run ends in imitation, with no PPO"
            )

    def play_ahead(out: Rollout, actor: PolicyValueNet) -> None:  # overlap: the next PPO rollout
        assert ahead is not None
        collect(table, league, actor, out, rng, device, scale, None, dtype, generator=ahead.generator)

    saved_at = {"iteration": progress["iteration"], "decisions": progress["decisions"]}
    policy_at = {"decisions": progress["decisions"]}  # what policy.pt holds, once written
    reserve = {"s": 0.0}  # the last evaluation's seconds: the final one's, kept inside --minutes
    stopped, reached, stop = "interrupted (Ctrl-C)", False, None
    segment: list[tuple[int, float]] = []  # this segment's imitation iterations: (decisions, seconds)
    clock = time.perf_counter()
    try:
        while budget_left():
            start = time.perf_counter()
            imitation = imitating(args, progress["decisions"], progress["imitation"], progress["elapsed_s"])
            if ahead is not None and ahead.ready:
                buf = ahead.take(buf)  # played during the last update
            elif rollouts is None:
                generator = ahead.generator if ahead is not None else None
                collect(table, league, net, buf, rng, device, scale, teacher if imitation else None, dtype,
                        generator=generator)  # fmt: skip
            else:
                buf = rollouts.collect(net, league, imitation)
            if imitation:
                buf.value[: buf.size] = 0.0
            lam = 1.0 if imitation else args.gae_lambda
            adv, trainable = advantages(buf, rules.num_players, args.gamma, lam)
            if ahead is not None and not imitation and ahead.worth_it(progress):
                ahead.start(play_ahead)
            try:
                stats = update(
                    net, optimizer, buf, adv, trainable, args, device, imitation, obs_layout, dtype
                )
            finally:
                if ahead is not None:
                    ahead.join()  # the next rollout is played (or its error raised) before anything else
            decisions = args.rollout_steps * args.num_games
            progress["iteration"] += 1
            progress["decisions"] += decisions
            progress["imitation"] += decisions if imitation else 0
            progress["samples"] += int(stats.pop("samples"))
            progress["train_s"] += time.perf_counter() - start
            seconds = time.perf_counter() - start
            clock = tick(clock)
            logs.train({
                "iteration": progress["iteration"], "decisions": progress["decisions"],
                "samples": progress["samples"], "elapsed_s": round(progress["elapsed_s"], 2),
                "decisions_per_s": round(decisions / seconds),
                "phase": "imitation" if imitation else "ppo", **stats,
            })  # fmt: skip
            logs.phase("imitation" if imitation else "ppo")
            logs.advance(decisions, progress["elapsed_s"], reserve["s"])
            if imitation:
                segment.append((decisions, seconds))
                if len(segment) == 2:  # the first iteration warms up: the second gives the rate
                    warn_imitation_too_long(args, progress, decisions / seconds, logs)
            if not imitation and args.pool_every and progress["iteration"] % args.pool_every == 0:
                league.snapshot(net)
            evaluated = evaluation_due(
                args, progress["decisions"], progress["next_eval"], progress["elapsed_s"], evaluations()
            )
            if evaluated:
                progress["next_eval"] = next_evaluation(args, progress["decisions"], progress["next_eval"])
                run_evaluation()
            clock = tick(clock)
            finished = not budget_left()
            if finished and not evaluated:
                logs.final_evaluation(reserve["s"])
                run_evaluation()
            if finished or progress["iteration"] % args.checkpoint_every == 0:
                clock = tick(clock)
                save_checkpoint()
        reached = bool(args.total_decisions) and progress["decisions"] >= args.total_decisions
        stopped = (
            f"the decision budget (--total-decisions {args.total_decisions:,})"
            if reached
            else f"the time budget (--minutes {args.minutes:g})"
        )
    except KeyboardInterrupt as error:  # the checkpoint of the last whole iteration stays: --resume goes on
        stop = error
        how = "Ctrl-C" if signal_of(error) == signal.SIGINT else signal.Signals(signal_of(error)).name
        stopped = f"interrupted ({how}); {interrupted_text(run, **saved_at)}"
    finally:
        logs.close()
    last_iteration = max([e["iteration"] for e in progress["evals"]], default=None)
    last = [e for e in progress["evals"] if e["iteration"] == last_iteration]
    made, imitated = progress["decisions"], progress["imitation"]
    summary = {
        "preset": args.preset, "num_players": rules.num_players, "run_dir": str(run),
        "iterations": progress["iteration"], "decisions": made, "imitation_decisions": imitated,
        "ppo_decisions": made - imitated, "teacher": teacher_name, "samples": progress["samples"],
        "minutes": round(progress["elapsed_s"] / 60, 2),
        "decisions_per_s": round(progress["decisions"] / max(progress["train_s"], 1e-9)),
        "stopped": stopped, "better": better, "evaluation": last,
        "policy": str(policy_path), "checkpoint": str(checkpoint_path),
    }  # fmt: skip
    if policy_path.exists() and last and "seats" in last[0]:
        json_path = evaluation_json(run, last[0]["opponent"], policy_at["decisions"])
        summary["evaluate_command"] = tournament_command(
            args.preset, rules.num_players, args.options, last[0], str(json_path)
        )
    if checkpoint_path.exists():
        summary["resume_command"] = resume_command(flags, "total_decisions" if reached else "minutes")
    files = {
        "checkpoint": checkpoint_path, "policy": policy_path, "losses": run / "train.csv",
        "evaluations": run / "eval.csv", "learning curve": curve_path, "TensorBoard": run / "tb",
    }  # fmt: skip
    summary["files"] = {what: str(path) for what, path in files.items() if path.exists()}
    summary["files"]["this summary"] = str(run / "summary.json")
    write_json(run / "summary.json", summary)
    if stop is not None:
        raise Interrupted(signal_of(stop), kept=interrupted_text(run, **saved_at)) from stop
    return summary


class Ahead:
    """``overlap``: the next iteration's rollout, played in a thread while the update runs.

    The thread plays into a second buffer with ``actor``, a copy of the network taken before the
    update (so the update never changes the weights it acts with), and draws its actions from a
    generator of its own (so the update's minibatch shuffling, on torch's default generator, and
    the rollout never share one: the run stays reproducible). Only the rollout thread touches the
    table, the league and the run's numpy generator while it runs; :meth:`join` comes before
    anything else in the iteration. An iteration that ends with a checkpoint, or the last one
    of a decision budget, plays nothing ahead: the checkpoint never holds a rollout in flight, so
    a resumed run continues exactly as the uninterrupted one."""

    def __init__(self, net: PolicyValueNet, buf: Rollout, args: Args, saved: Mapping[str, Any]) -> None:
        self.args, self.net = args, net
        self.actor = copy.deepcopy(net)
        self.spare = dataclasses.replace(
            buf, **{f.name: np.zeros_like(getattr(buf, f.name)) for f in dataclasses.fields(buf)}
        )
        self.generator = torch.Generator()
        self.generator.manual_seed(int(np.random.SeedSequence([args.seed, 1]).generate_state(1)[0]))
        if "rollout_torch_rng" in saved:
            self.generator.set_state(saved["rollout_torch_rng"])
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.ready = False

    def worth_it(self, progress: Mapping[str, Any]) -> bool:
        """Whether to play ahead during this iteration's update: not when the iteration ends with
        a checkpoint or, under a decision budget, is the last."""
        args, following = self.args, progress["iteration"] + 1
        if following % args.checkpoint_every == 0:
            return False
        made = progress["decisions"] + args.rollout_steps * args.num_games
        return not (args.total_decisions and made >= args.total_decisions)

    def start(self, play: Callable[[Rollout, PolicyValueNet], None]) -> None:
        """Play ``play(buffer, actor)`` in a thread, the actor holding the current weights."""
        self.actor.load_state_dict(self.net.state_dict())
        self.error, self.ready = None, False

        def run() -> None:
            try:
                play(self.spare, self.actor)
            except BaseException as error:  # noqa: BLE001 - raised again by join()
                self.error = error

        self.thread = threading.Thread(target=run, name="rollout-ahead")
        self.thread.start()

    def join(self) -> None:
        """Wait for the rollout in flight; raise its error, if any."""
        if self.thread is None:
            return
        self.thread.join()
        self.thread = None
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        self.ready = True

    def take(self, done: Rollout) -> Rollout:
        """The rollout played ahead; ``done``, the buffer just trained on, becomes the spare."""
        out, self.spare, self.ready = self.spare, done, False
        return out


def warn_imitation_too_long(args: Args, progress: Mapping[str, Any], rate: float, logs: Logs) -> None:
    """Warn (once, from the measured ``rate`` in decisions per second) when an explicit
    ``imitation_decisions`` will not be done within the time budget."""
    left = (args.imitation_decisions or 0) - progress["decisions"]
    if args.imitation_decisions is None or left <= 0 or not math.isfinite(args.minutes):
        return
    needed_s = progress["elapsed_s"] + left / rate
    if needed_s > 60 * args.minutes:
        logs.warn(
            f"at {rate:,.0f} decisions/s, --imitation-decisions {args.imitation_decisions:,} takes about "
            f"{needed_s / 60:.1f} of the {args.minutes:g} minutes budgeted: this run ends in imitation, with "
            "no PPO (raise --minutes, or lower --imitation-decisions or leave it out to fit the run)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.ppo [flags]``: train, print the closing summary (``summary.json`` in the
    run directory holds it as data); after Ctrl-C or SIGTERM one line saying what the checkpoint
    holds and exit status 130 or 143. Bad input: one line on stderr and exit status 2
    (``--debug``: the traceback)."""
    parser = add_arguments(ArgumentParser(prog="python -m training.ppo", description=__doc__.split("\n")[0]))
    add_debug(parser)

    def run(namespace: argparse.Namespace) -> int:
        print(summary_text(train(args_from(namespace))))
        return 0

    return run_command(parser, argv, run)


if __name__ == "__main__":
    sys.exit(main())
