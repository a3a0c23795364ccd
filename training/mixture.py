"""One network for a whole game family: PPO self-play on a mixture of its presets and player counts.

Run it::

    python -m training.mixture --family hearts --minutes 60 --run-dir runs/universal-hearts
    python -m training.mixture ... --resume     # the same command continues a stopped run
    python -m training.mixture ... --init agents/checkpoints/universal-hearts.pt   # go on from a policy

The network reads the family's universal layout (:mod:`hearts_env.universal`): one input and
one output for every configuration. Everything else is :mod:`training.ppo`'s: the league (the
family's heuristics and past policies as opponents, ``self_play`` deals of the policy alone),
the imitation warm start (the family's teacher, ``strategy`` or ``smear``), GAE, the clipped
update and the precision; the settings are the same flags.

The schedule
------------
Each iteration the ``num_games`` games are split into ``--shards`` rollout shards (default 4),
and each shard draws its own configuration from the run's generator: **a preset of the family
uniformly, then its default player count with probability 1/2, otherwise one of its player
counts uniformly** (``--weights PRESET=W,...`` draws the named presets W times as often as the
others; ``--configs PRESET-N,...`` draws uniformly from a list instead). A shard's
games start from a fresh deal and play ``rollout_steps`` steps; decisions of a deal still
unfinished at the end are not trained on (their return is unknown). Every shard's decisions,
rewards scaled by its own configuration's stake, join one update.

What a run writes (``run_dir``, default ``runs/universal-FAMILY``): ``checkpoint.pt`` (network,
optimizer, random states, the pool of past policies, the progress: tensors and plain values,
read with ``weights_only=True``; every ``checkpoint_every`` iterations and at the end),
``policy.pt`` (a universal policy file: ``agents.make("ppo", preset, n, checkpoint=...)`` plays
it in any configuration of the family), ``train.csv`` (one row per iteration, with the
configurations played) and ``eval.csv`` (duplicate evaluations of the greedy policy alone against
the family's heuristic in each ``--eval-presets`` preset at its default player count, every
``eval_every`` decisions (left out: at each fifth of the budget) and at the end; the same
tournament as ``hearts-env tournament``), and
``learning_curve.png`` drawn from it at each evaluation (a line a preset, their mean, how many
are beaten).

``--init POLICY`` starts a new run from a universal policy file of the family (a shipped network,
a history copy, another run's ``policy.pt``) instead of fresh weights: its network, no optimizer
state, no pool of past policies; the decisions it was trained on (``trained`` in the file) count
as done, so the imitation warm start is not repeated and the run's decision counts go on from
them (``--total-decisions`` counts them too). ``--resume`` continues the run itself and needs its
``checkpoint.pt``; ``--init`` is for when only a policy is left, or to fine-tune a shipped network.

Distillation
------------
``--distill COEF`` (off by default) keeps the shipped specialists in view: each PPO iteration plays
one more shard (``num_games // shards`` games of a configuration where a specialist ships,
``--distill-configs PRESET-N,...`` or every such configuration of the family, drawn uniformly)
with the specialist (``ppo:network=specialist``, greedy) at every seat, and adds COEF times the
policy's cross-entropy on all of its decisions to the update, out of the PPO and value losses (as
``--moon-imitation`` does for the teacher's moons; :func:`training.ppo.update`). It is policy
distillation: the universal network learns the specialist's play in its configuration while PPO
goes on everywhere. ``train.csv`` then has ``distilled`` (the specialist's decisions added).

Shipping: ``cp runs/universal-hearts/policy.pt agents/checkpoints/universal-hearts.pt``; the
``ppo`` agent then plays it wherever no specialist ships.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

import agents
from agents.ppo import PolicyValueNet, load_file, universal_policy_file
from agents.shipped import shipped_path
from evaluation.flags import ArgumentParser, Interrupted, add_debug, comma_list, run_command, signal_of
from hearts_env.core.rules import Rules
from hearts_env.files import write_json
from hearts_env.games import FAMILIES, family_of
from hearts_env.presets import PRESETS, all_configs, make_rules, preset_names
from hearts_env.table import Table
from hearts_env.universal import universal_view, vocabulary
from training.config import (
    Args,
    add_arguments,
    args_from,
    evaluation_due,
    evaluation_step,
    family_setting,
    imitating,
    next_evaluation,
    resolve_family,
)
from training.device import inference_copy, pick_device, resolve_precision
from training.evaluate import evaluate
from training.logs import CsvLog, plot_mixture_curve
from training.ppo import advantages, update
from training.rollout import League, Rollout, collect, moon_decisions, reward_scale
from training.run_folder import interrupted_text, open_run, save_torch

MIXTURE_FORMAT = "hearts-env-mixture-checkpoint/1"
"""``format`` of a mixture run's checkpoint."""
SHARDS = 4
"""Rollout shards per iteration (each its own configuration) unless ``--shards`` says otherwise."""


def schedule(
    game: str,
    rng: np.random.Generator,
    configs: Sequence[tuple[str, int]] = (),
    weights: Sequence[tuple[str, float]] = (),
) -> Rules:
    """The configuration of one shard: from ``configs`` uniformly if given, else a preset of family
    ``game`` uniformly (or in proportion to ``weights``: (preset, weight) pairs, 1 for a preset not
    named), then its default player count with probability 1/2, otherwise one of its player counts
    uniformly."""
    if configs:
        preset, n = configs[int(rng.integers(len(configs)))]
        return make_rules(preset, num_players=n)
    names = preset_names(game)
    if weights:
        w = np.array([dict(weights).get(name, 1.0) for name in names], np.float64)
        spec = PRESETS[names[int(rng.choice(len(names), p=w / w.sum()))]]
    else:
        spec = PRESETS[names[int(rng.integers(len(names)))]]
    n = spec.default_players if rng.random() < 0.5 else spec.counts[int(rng.integers(len(spec.counts)))]
    return make_rules(spec.name, num_players=n)


class Arena:
    """One iteration's storage for every shard: each shard's :class:`Rollout` is a view of its own
    rows of one buffer (kept from iteration to iteration), so the update reads the whole buffer
    with no copy; the rows a shard leaves unused are not trainable."""

    def __init__(self, args: Args, shard_games: np.ndarray, obs_size: int, actions: int) -> None:
        self.steps = args.rollout_steps
        self.starts = shard_games * self.steps  # shard k owns rows starts[k]:starts[k + 1]
        self.buffer = Rollout.allocate(1, int(self.starts[-1]), 1, obs_size, actions)
        self.adv = np.zeros(len(self.buffer.action), np.float32)
        self.trainable = np.zeros(len(self.buffer.action), bool)
        # the teachers' rows (moon imitation, distillation): the weight of each one's cross-entropy
        self.copy_weight = np.zeros(len(self.buffer.action), np.float32)

    def clear(self) -> None:
        """Before an iteration: no row trainable, none a teacher's."""
        self.trainable[:] = False
        self.copy_weight[:] = 0.0

    @property
    def copy(self) -> np.ndarray:
        """(N,) bool: the rows that are a teacher's decisions, to imitate."""
        return self.copy_weight > 0

    def shard(self, k: int, players: int) -> Rollout:
        """Shard ``k``'s storage (its ``games`` games x ``rollout_steps`` steps of ``players``)."""
        lo, hi = int(self.starts[k]), int(self.starts[k + 1])
        b, games = self.buffer, (hi - lo) // self.steps
        return Rollout(
            obs=b.obs[lo:hi], tail=b.tail[lo:hi], mask=b.mask[lo:hi], action=b.action[lo:hi],
            logprob=b.logprob[lo:hi], value=b.value[lo:hi], game=b.game[lo:hi], seat=b.seat[lo:hi],
            offsets=np.zeros(self.steps + 1, np.int64), deal_end=np.zeros((self.steps, games), bool),
            rewards=np.zeros((self.steps, games, players), np.float32),
        )  # fmt: skip

    def keep(self, k: int, buf: Rollout, adv: np.ndarray, trainable: np.ndarray, copy: float = 0.0) -> None:
        """Shard ``k``'s advantages and trainable flags, for the update (``copy`` > 0: its trainable
        rows are a teacher's decisions, to imitate with this weight)."""
        lo = int(self.starts[k])
        self.adv[lo : lo + buf.size] = adv
        self.trainable[lo : lo + buf.size] = trainable
        if copy:
            self.copy_weight[lo : lo + buf.size] = np.where(trainable, np.float32(copy), np.float32(0))

    def merged(self) -> Rollout:
        """Every shard's decisions as one buffer (what the update reads: the whole storage)."""
        b, n = self.buffer, len(self.buffer.action)
        return dataclasses.replace(b, offsets=np.array([0, n], np.int64))


@dataclasses.dataclass
class MixtureSettings:
    """What a mixture run adds to :class:`training.config.Args`."""

    family: str = "hearts"
    """The game family: ``hearts`` or ``smear``."""
    shards: int = SHARDS
    """Rollout shards per iteration, each its own configuration."""
    configs: tuple[tuple[str, int], ...] = ()
    """Draw from these (preset, player count) pairs only (empty: the whole family, see the schedule)."""
    eval_presets: tuple[str, ...] = ()
    """The presets of the periodic evaluation, at their default player counts (empty: every preset
    of the family)."""
    init: str | None = None
    """A universal policy file of the family whose network starts the run (None: fresh weights and
    the imitation warm start); its trained decisions count as done."""
    weights: tuple[tuple[str, float], ...] = ()
    """(preset, weight) pairs: a named preset is drawn in proportion to its weight, the others to 1."""
    moon_imitation: float = 0.0
    """The weight of the moon imitation term (0: none). Each PPO iteration then plays one more
    shard (``num_games // shards`` games, a configuration of the schedule that has a moon) with the
    teacher at every seat, and adds this times the cross-entropy of the policy on the decisions of
    the seats that shot the moon in those games (:func:`training.rollout.moon_decisions`) to the PPO
    loss: the teacher's way to a moon, which self-play rarely finds, kept in view during PPO."""
    moon_configs: tuple[tuple[str, int], ...] = ()
    """The moon imitation shard's configurations, drawn uniformly (empty: the schedule's, redrawn
    until one has a moon)."""
    distill: float = 0.0
    """The weight of the distillation term (0: none). Each PPO iteration then plays one more shard
    (``num_games // shards`` games) of a configuration where a specialist ships, the specialist at
    every seat, and adds this times the policy's cross-entropy on all of its decisions to the loss."""
    distill_configs: tuple[tuple[str, int], ...] = ()
    """The distillation shard's configurations, drawn uniformly (empty: every configuration of the
    family where a specialist ships)."""


def train_mixture(args: Args, mix: MixtureSettings) -> dict[str, Any]:
    """Train (or, with ``args.resume``, continue) one universal network of ``mix.family``; returns
    a summary of the run.

    The run folder is checked and held as :func:`training.ppo.train`'s
    (:func:`training.run_folder.open_run`: no run file of another run is overwritten, one run at a
    time). Ctrl-C (or SIGTERM in a command) keeps the last checkpoint, writes the summary and
    raises :class:`evaluation.flags.Interrupted`, saying what the checkpoint holds."""
    args.validate()
    game = family_of(mix.family).name
    resolve_family(args, game)
    if args.obs_format != "float32":
        raise ValueError("a universal network's rollouts are float32 (--obs-format float32)")
    if args.overlap:
        raise ValueError("--overlap is hearts-env train's: training.mixture plays its shards in turn")
    if mix.shards < 1 or mix.shards > args.num_games:
        raise ValueError(f"--shards must lie in 1..num_games ({args.num_games}), got {mix.shards}")
    known = set(all_configs(game))
    for config in mix.configs:
        if tuple(config) not in known:
            raise ValueError(f"{config[0]}-{config[1]}p is not a {game} configuration")
    family_presets = preset_names(game)
    for name, _ in mix.weights:
        if name not in family_presets:
            raise ValueError(f"--weights: {name!r} is not a {game} preset")
    if mix.weights and mix.configs:
        raise ValueError("--weights and --configs both choose the schedule; give one")
    if not (mix.moon_imitation >= 0 and np.isfinite(mix.moon_imitation)):
        raise ValueError(f"--moon-imitation must be a number >= 0, got {mix.moon_imitation}")
    if mix.moon_imitation:
        candidates = mix.configs or tuple((name, PRESETS[name].default_players) for name in family_presets)
        if not any(make_rules(p, num_players=n).has_moon for p, n in candidates):
            raise ValueError(f"--moon-imitation: no configuration of this run's {game} schedule has a moon")
    for preset, n in mix.moon_configs:
        if (preset, n) not in known or not make_rules(preset, num_players=n).has_moon:
            raise ValueError(f"--moon-configs: {preset}-{n} is not a {game} configuration with a moon")
    if mix.moon_configs and not mix.moon_imitation:
        raise ValueError("--moon-configs needs --moon-imitation")
    distill_configs = _distill_configs(game, mix, known)
    eval_presets = mix.eval_presets or tuple(family_presets)
    for name in eval_presets:
        if name not in family_presets:
            raise ValueError(f"--eval-presets: {name!r} is not a {game} preset")
    device = pick_device(args.device)
    dtype = resolve_precision(args.precision, device)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    run = Path(args.run_dir or f"runs/universal-{game}")
    lock = open_run(run, args.resume, args.overwrite)
    try:
        return _train_mixture(args, mix, game, distill_configs, eval_presets, device, dtype, run)
    finally:
        lock.release()


def _train_mixture(
    args: Args, mix: MixtureSettings, game: str, distill_configs: tuple[tuple[str, int], ...],
    eval_presets: tuple[str, ...], device: torch.device, dtype: torch.dtype, run: Path,
) -> dict[str, Any]:  # fmt: skip
    """:func:`train_mixture` in the run folder ``run``, held, its settings checked."""
    vocab = vocabulary(game)
    checkpoint_path, policy_path = run / "checkpoint.pt", run / "policy.pt"
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = PolicyValueNet(vocab.size, vocab.num_actions, args.hidden).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    pool: list[dict[str, torch.Tensor]] = []
    progress: dict[str, Any] = {
        "iteration": 0,
        "decisions": 0,
        "imitation": 0,
        "samples": 0,
        "elapsed_s": 0.0,
        "next_eval": evaluation_step(args),
        "evals": [],
    }
    settings = {**{k: v for k, v in dataclasses.asdict(args).items() if k not in _BUDGETS}, **_plain(mix)}
    if args.resume:  # open_run has made sure the checkpoint is there
        saved = load_file(checkpoint_path, "a mixture checkpoint")
        if not isinstance(saved, dict) or saved.get("format") != MIXTURE_FORMAT:
            raise ValueError(f"{checkpoint_path} is not a mixture checkpoint ({MIXTURE_FORMAT})")
        differ = sorted(k for k, v in settings.items() if saved["settings"].get(k) != v)
        if differ:
            raise ValueError(f"{checkpoint_path} was trained with other settings ({', '.join(differ)})")
        net.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        pool, progress = list(saved["pool"]), dict(saved["progress"])
    elif mix.init is not None:
        progress["decisions"] = start_from(net, mix.init, game)
    trained = {"command": "python -m training.mixture " + " ".join(sys.argv[1:]), "settings": settings}

    heuristics: dict[Rules, list[agents.Agent]] = {}
    teachers: dict[Rules, agents.Agent] = {}
    teacher_spec = family_setting(args, game, "teacher")

    def save_policy() -> None:
        info = dict(trained, decisions=progress["decisions"], minutes=round(progress["elapsed_s"] / 60, 2))
        save_torch(universal_policy_file(net, game, info), policy_path)

    saved_at = {"iteration": progress["iteration"], "decisions": progress["decisions"]}
    kept = progress["iteration"] if args.resume else None
    losses, evaluations = CsvLog(run / "train.csv", None, kept), CsvLog(run / "eval.csv", None, kept)

    def save_checkpoint() -> None:
        save_torch(
            {
                "format": MIXTURE_FORMAT,
                "settings": settings,
                "model": net.state_dict(),
                "optimizer": optimizer.state_dict(),
                "rng": rng.bit_generator.state,
                "torch_rng": torch.get_rng_state(),
                "pool": pool,
                "progress": progress,
            },
            checkpoint_path,
        )
        saved_at.update(iteration=progress["iteration"], decisions=progress["decisions"])  # before the policy
        save_policy()

    def run_evaluation() -> None:
        save_policy()
        rows = []
        for name in eval_presets:
            rules = make_rules(name)
            eval_args = dataclasses.replace(args, preset=name, options={})
            eval_args.eval_opponents = (agents.family_defaults(game).heuristic,)
            for result in evaluate(policy_path, rules, eval_args):
                rows.append(
                    {
                        "iteration": progress["iteration"],
                        "decisions": progress["decisions"],
                        "preset": name,
                        "num_players": rules.num_players,
                        **{k: result[k] for k in _EVAL_COLUMNS},
                    }
                )
        progress["evals"].extend(rows)
        evaluations.add(rows)
        plot_mixture_curve(
            progress["evals"],
            f"universal {game} network: {progress['decisions']:,} decisions",
            run / "learning_curve.png",
            progress["imitation"],
            family_of(game).better,
        )
        better = family_of(game).better
        beaten = sum(
            (r["diff"] + r["ci95"] < 0) if better == "lower" else (r["diff"] - r["ci95"] > 0) for r in rows
        )
        print(
            f"evaluation at {progress['decisions']:,} decisions: better than {rows[0]['opponent']} in "
            f"{beaten} of {len(rows)} presets",
            flush=True,
        )

    shard_games = np.linspace(0, args.num_games, mix.shards + 1).astype(int)
    moon_games = max(1, args.num_games // mix.shards) if mix.moon_imitation else 0
    if moon_games:  # one more shard after the learner's, the teacher's
        shard_games = np.append(shard_games, shard_games[-1] + moon_games)
    distill_games = max(1, args.num_games // mix.shards) if mix.distill else 0
    distill_shard = len(shard_games) - 1
    if distill_games:  # and one more, the specialists'
        shard_games = np.append(shard_games, shard_games[-1] + distill_games)
    arena = Arena(args, shard_games, vocab.size, vocab.num_actions)
    moons = np.full((args.rollout_steps, moon_games), -1, np.int64)
    scheduled = tuple(tuple(c) for c in mix.configs)
    weighted = tuple(tuple(w) for w in mix.weights)

    def play_teacher(
        rules: Rules, teacher: agents.Agent, shard: int, games: int, moons_out: np.ndarray | None = None
    ) -> Rollout:
        """A teacher's shard: ``games`` games of ``rules`` with ``teacher`` at every seat, every
        decision stored (universal layout) in shard ``shard`` of the arena."""
        table = Table(rules, games, reward=args.reward)
        table.reset(seed=int(rng.integers(2**62)))
        league = League(rules, dataclasses.replace(args, num_games=games), rng, device, heuristics=[])
        league.seat(np.arange(games))  # no opponents: every seat the teacher's
        buf = arena.shard(shard, rules.num_players)
        collect(table, league, actor, buf, rng, device, 1.0, teacher, dtype, universal_view(rules), moons_out)
        return buf

    def play_moons(played: list[str]) -> int:
        """The moon imitation shard: the teacher at every seat of a scheduled configuration that has
        a moon; its shooters' decisions become the update's rows to copy. Returns how many."""
        if mix.moon_configs:
            rules = schedule(game, rng, mix.moon_configs)
        else:
            rules = schedule(game, rng, scheduled, weighted)
            while not rules.has_moon:
                rules = schedule(game, rng, scheduled, weighted)
        if rules not in teachers:
            teachers[rules] = agents.from_spec(teacher_spec, rules)
        buf = play_teacher(rules, teachers[rules], mix.shards, moon_games, moons)
        shot = moon_decisions(buf, moons)
        arena.keep(mix.shards, buf, np.zeros(buf.size, np.float32), shot, copy=mix.moon_imitation)
        played.append(f"moon:{rules.preset}-{rules.num_players}")
        return int(shot.sum())

    specialists: dict[Rules, agents.Agent] = {}

    def play_specialist(played: list[str]) -> int:
        """The distillation shard: a shipped specialist at every seat of its configuration; all of
        its decisions become the update's rows to copy. Returns how many."""
        rules = schedule(game, rng, distill_configs)
        if rules not in specialists:
            specialists[rules] = agents.from_spec("ppo:network=specialist", rules)
        buf = play_teacher(rules, specialists[rules], distill_shard, distill_games)
        arena.keep(
            distill_shard, buf, np.zeros(buf.size, np.float32), np.ones(buf.size, bool), copy=mix.distill
        )
        played.append(f"distill:{rules.preset}-{rules.num_players}")
        return buf.size

    started = time.perf_counter()
    stopped, stop = "the time budget", None
    try:
        while progress["elapsed_s"] < 60 * args.minutes and not (
            args.total_decisions and progress["decisions"] >= args.total_decisions
        ):
            start = time.perf_counter()
            imitation = imitating(args, progress["decisions"], progress["imitation"], progress["elapsed_s"])
            played = []
            arena.clear()
            actor = inference_copy(net, dtype)  # this iteration's weights, cast once for every shard
            for k in range(mix.shards):
                rules = schedule(game, rng, scheduled, weighted)
                games = int(shard_games[k + 1] - shard_games[k])
                if rules not in heuristics:
                    specs = family_setting(args, game, "opponents")
                    heuristics[rules] = [agents.from_spec(spec, rules) for spec in specs]
                    teachers[rules] = agents.from_spec(teacher_spec, rules)
                table = Table(rules, games, reward=args.reward)
                table.reset(seed=int(rng.integers(2**62)))
                league = League(
                    rules,
                    dataclasses.replace(args, num_games=games),
                    rng,
                    device,
                    universal=True,
                    heuristics=heuristics[rules],
                    dtype=dtype,
                )
                league.set_pool(pool, net)
                league.seat(np.arange(games))
                buf = arena.shard(k, rules.num_players)
                teacher = teachers[rules] if imitation else None
                collect(
                    table,
                    league,
                    actor,
                    buf,
                    rng,
                    device,
                    reward_scale(rules),
                    teacher,
                    dtype,
                    universal_view(rules),
                )
                if imitation:
                    buf.value[: buf.size] = 0.0
                adv, trainable = advantages(
                    buf, rules.num_players, args.gamma, 1.0 if imitation else args.gae_lambda
                )
                arena.keep(k, buf, adv, trainable)
                played.append(f"{rules.preset}-{rules.num_players}")
            copied = distilled = 0
            if moon_games and not imitation:
                copied = play_moons(played)
            if distill_games and not imitation:
                distilled = play_specialist(played)
            teachers_rows = bool(moon_games or distill_games)
            stats = update(
                net,
                optimizer,
                arena.merged(),
                arena.adv,
                arena.trainable,
                args,
                device,
                imitation,
                None,
                dtype,
                arena.copy if teachers_rows else None,
                arena.copy_weight,
            )
            decisions = args.rollout_steps * args.num_games  # every decision played, as training.ppo counts
            seconds = time.perf_counter() - start
            progress["iteration"] += 1
            progress["decisions"] += decisions
            progress["imitation"] += decisions if imitation else 0
            progress["samples"] += int(stats.pop("samples"))
            if moon_games:
                progress["copied"] = progress.get("copied", 0) + copied
            if distill_games:
                progress["distilled"] = progress.get("distilled", 0) + distilled
            progress["elapsed_s"] += seconds
            losses.add(
                [
                    {
                        "iteration": progress["iteration"],
                        "decisions": progress["decisions"],
                        "elapsed_s": round(progress["elapsed_s"], 1),
                        "decisions_per_s": round(decisions / seconds),
                        "phase": "imitation" if imitation else "ppo",
                        "configs": " ".join(played),
                        **({"copied": copied} if moon_games else {}),
                        **({"distilled": distilled} if distill_games else {}),
                        **{k: round(v, 5) for k, v in stats.items()},
                    }
                ],
            )
            if args.progress:
                print(
                    f"iteration {progress['iteration']}: {progress['decisions']:,} decisions, "
                    f"{decisions / seconds:,.0f}/s, {'imitation' if imitation else 'ppo'}, "
                    + " ".join(played),
                    flush=True,
                )
            if (
                not imitation
                and args.pool_every
                and progress["iteration"] % args.pool_every == 0
                and args.pool_size
            ):
                pool = (pool + [{k: v.detach().clone() for k, v in net.state_dict().items()}])[
                    -args.pool_size :
                ]
            evaluated = len({e["iteration"] for e in progress["evals"]})
            if evaluation_due(
                args, progress["decisions"], progress["next_eval"], progress["elapsed_s"], evaluated
            ):
                progress["next_eval"] = next_evaluation(args, progress["decisions"], progress["next_eval"])
                run_evaluation()
            if progress["iteration"] % args.checkpoint_every == 0:
                save_checkpoint()
        run_evaluation()
        save_checkpoint()
    except KeyboardInterrupt as error:  # mid-iteration: the last checkpoint, whole, is what --resume reads
        stop = error
        how = "Ctrl-C" if signal_of(error) == signal.SIGINT else signal.Signals(signal_of(error)).name
        stopped = f"interrupted ({how})"
    summary = {
        "family": game,
        "run_dir": str(run),
        "iterations": progress["iteration"],
        "decisions": progress["decisions"],
        "imitation_decisions": progress["imitation"],
        "minutes": round(progress["elapsed_s"] / 60, 2),
        "wall_minutes": round((time.perf_counter() - started) / 60, 2),
        "stopped": stopped,
        "policy": str(policy_path),
        "checkpoint": str(checkpoint_path),
        "evaluation": [e for e in progress["evals"] if e["iteration"] == progress["iteration"]],
    }
    write_json(run / "summary.json", summary)
    if stop is not None:
        raise Interrupted(signal_of(stop), kept=interrupted_text(run, **saved_at)) from stop
    return summary


def start_from(net: PolicyValueNet, path: str | Path, game: str) -> int:
    """Load the network of the universal policy file ``path`` of family ``game`` into ``net``;
    returns the decisions it was trained on (0 when the file does not say)."""
    content = load_file(path, "a universal policy file", "(--init takes a policy.pt, not a checkpoint.pt)")
    if not isinstance(content, dict) or content.get("layout") != "universal" or "model" not in content:
        raise ValueError(
            f"{path} is not a universal policy file (--init takes a policy.pt, not a checkpoint.pt)"
        )
    if FAMILIES.get(content.get("family")) is not FAMILIES[game]:
        raise ValueError(f"{path} is a network of the {content.get('family')} family, not of {game}")
    shape = (content.get("obs_size"), content.get("num_actions"), tuple(content.get("hidden", ())))
    if shape != (net.obs_size, net.num_actions, tuple(net.hidden)):
        raise ValueError(
            f"{path} holds a network of (inputs, actions, hidden) {shape}, this run's is "
            f"{(net.obs_size, net.num_actions, tuple(net.hidden))} (--hidden must match the file's)"
        )
    net.load_state_dict(content["model"])
    return int(content.get("trained", {}).get("decisions", 0))


_BUDGETS = (
    "minutes",
    "total_decisions",
    "run_dir",
    "resume",
    "overwrite",
    "device",
    "threads",
    "eval_every",
    "eval_deals",
    "eval_opponents",
    "checkpoint_every",
    "progress",
    "tensorboard",
    "precision",
)
"""Settings a resumed run may change (as :data:`training.config.RESUMABLE_CHANGES`)."""
_EVAL_COLUMNS = ("opponent", "deals", "ppo_points", "opponent_points", "diff", "ci95", "illegal")


def _plain(mix: MixtureSettings) -> dict[str, Any]:
    return {
        "family": mix.family,
        "shards": mix.shards,
        "configs": [list(c) for c in mix.configs],
        "eval_presets": list(mix.eval_presets),
        "init": mix.init,
        # only when given, so that a run saved before weights (or moon imitation) existed resumes
        **({"weights": [list(w) for w in mix.weights]} if mix.weights else {}),
        **({"moon_imitation": mix.moon_imitation} if mix.moon_imitation else {}),
        **({"moon_configs": [list(c) for c in mix.moon_configs]} if mix.moon_configs else {}),
        **({"distill": mix.distill} if mix.distill else {}),
        **({"distill_configs": [list(c) for c in mix.distill_configs]} if mix.distill_configs else {}),
    }


def _distill_configs(
    game: str, mix: MixtureSettings, known: set[tuple[str, int]]
) -> tuple[tuple[str, int], ...]:
    """The distillation shard's configurations (checked), or () when there is none."""
    if not (mix.distill >= 0 and np.isfinite(mix.distill)):
        raise ValueError(f"--distill must be a number >= 0, got {mix.distill}")
    if mix.distill_configs and not mix.distill:
        raise ValueError("--distill-configs needs --distill")
    for preset, n in mix.distill_configs:
        if (preset, n) not in known or not shipped_path(preset, n).exists():
            raise ValueError(f"--distill-configs: no specialist ships for {preset}-{n} ({game} family)")
    if not mix.distill:
        return ()
    configs = mix.distill_configs or tuple((p, n) for p, n in sorted(known) if shipped_path(p, n).exists())
    if not configs:
        raise ValueError(f"--distill: no specialist ships for a {game} configuration")
    return tuple(configs)


def _config(item: str) -> tuple[str, int]:
    preset, _, n = item.rpartition("-")
    if not preset or not n.rstrip("p").isdigit():
        raise argparse.ArgumentTypeError(f"a configuration is PRESET-N such as hearts-4, got {item!r}")
    return preset, int(n.rstrip("p"))


def _weight(item: str) -> tuple[str, float]:
    preset, _, w = item.partition("=")
    try:
        weight = float(w)
    except ValueError:
        weight = -1.0
    if not preset or not weight > 0 or not np.isfinite(weight):
        raise argparse.ArgumentTypeError(f"a weight is PRESET=W, W > 0, such as hearts=2; got {item!r}")
    return preset, weight


_configs = comma_list(_config, "configuration PRESET-N")
_weights = comma_list(_weight, "weight PRESET=W")
_presets = comma_list(str, "preset")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.mixture [flags]``: train one network for a family; print its summary."""
    parser = add_arguments(
        ArgumentParser(prog="python -m training.mixture", description=__doc__.split("\n")[0])
    )
    parser.add_argument("--family", default="hearts", choices=("hearts", "smear"), help="the game family")
    parser.add_argument(
        "--shards", type=int, default=SHARDS, help="rollout shards per iteration, each its own configuration"
    )
    parser.add_argument(
        "--configs", type=_configs, default=(), help="draw from these PRESET-N only (comma-separated)"
    )
    parser.add_argument(
        "--weights",
        type=_weights,
        default=(),
        help="draw these presets W times as often as the others, e.g. --weights partnership_hearts=3",
    )
    parser.add_argument(
        "--eval-presets", type=_presets, default=(), help="presets of the periodic evaluation (default: all)"
    )
    parser.add_argument(
        "--init",
        default=None,
        metavar="POLICY",
        help="start from this universal policy file's network (its decisions count as done; no imitation)",
    )
    parser.add_argument(
        "--moon-imitation",
        type=float,
        default=0.0,
        metavar="COEF",
        help="add COEF x the cross-entropy on the teacher's decisions in the deals it shoots the moon "
        "(one more shard a PPO iteration, the teacher at every seat; default 0: none)",
    )
    parser.add_argument(
        "--moon-configs",
        type=_configs,
        default=(),
        help="the moon imitation shard's PRESET-N, drawn uniformly (default: the schedule's with a moon)",
    )
    parser.add_argument(
        "--distill",
        type=float,
        default=0.0,
        metavar="COEF",
        help="add COEF x the cross-entropy on a shipped specialist's decisions in its configuration "
        "(one more shard a PPO iteration, the specialist at every seat; default 0: none)",
    )
    parser.add_argument(
        "--distill-configs",
        type=_configs,
        default=(),
        help="the distillation shard's PRESET-N, drawn uniformly (default: all where a specialist ships)",
    )
    add_debug(parser)

    def run(namespace: argparse.Namespace) -> int:
        names = (
            "family",
            "shards",
            "configs",
            "eval_presets",
            "init",
            "weights",
            "moon_imitation",
            "moon_configs",
            "distill",
            "distill_configs",
        )
        extra = {name: getattr(namespace, name) for name in names}
        for name in extra:
            delattr(namespace, name)
        summary = train_mixture(args_from(namespace), MixtureSettings(**extra))
        print(json.dumps(summary, indent=1))
        return 0

    return run_command(parser, argv, run)


if __name__ == "__main__":
    sys.exit(main())
