"""One network for a whole game family: PPO self-play on a mixture of its presets and player counts.

Run it::

    hearts-env train --family hearts --minutes 60 --run-dir runs/universal-hearts
    hearts-env train --family hearts ... --resume     # the same command continues a stopped run
    hearts-env train --family hearts ... --init agents/checkpoints/universal-hearts.pt   # from a policy

The network reads the family's universal layout (:mod:`hearts_env.universal`): one input and
one output for every configuration. The loop is every run's (:class:`training.run.Run`: budgets,
checkpoints, evaluations, logs, Ctrl-C, the summary) and the learning :mod:`training.ppo`'s (the
league of the family's heuristics and past policies, ``self_play`` deals of the policy alone, the
imitation warm start of the family's teacher, GAE, the clipped update, the precision); the
settings are the same flags, and :class:`training.config.MixtureSettings` adds the schedule's.

The schedule (:class:`FamilyMixture`)
--------------------------------------
Each iteration the ``num_games`` games are split into ``--shards`` rollout shards (default 4),
and each shard draws its own configuration from the run's generator: **a preset of the family
uniformly, then its default player count with probability 1/2, otherwise one of its player
counts uniformly** (``--weights PRESET=W,...`` draws the named presets W times as often as the
others; ``--configs PRESET-N,...`` draws uniformly from a list instead). A shard's
games start from a fresh deal and play ``rollout_steps`` steps; decisions of a deal still
unfinished at the end are not trained on (their return is unknown). Every shard's decisions,
rewards scaled by its own configuration's stake, join one update.

What a run writes (``run_dir``, default ``runs/universal-FAMILY``) is every run's (:mod:`training.run`):
``checkpoint.pt`` (format :data:`MIXTURE_FORMAT`: network, optimizer, random states, the pool of
past policies, the progress; tensors and plain values, read with ``weights_only=True``),
``policy.pt`` (a universal policy file: ``agents.make("ppo", preset, n, checkpoint=...)`` plays
it in any configuration of the family), ``train.csv`` (one row per iteration, with the
configurations played), ``eval.csv`` (duplicate evaluations of the greedy policy alone against
the family's heuristic in each ``--eval-presets`` preset at its default player count, every
``eval_every`` decisions (left out: at each fifth of the budget) and at the end; the same
tournament as ``hearts-env tournament``), ``learning_curve.png`` (a line a preset, their mean, how
many are beaten), ``tb/`` and ``summary.json``.

``--init POLICY`` starts a new run from a universal policy file of the family (a shipped network,
a history copy, another run's ``policy.pt``) instead of fresh weights: its network, no optimizer
state, no pool of past policies; the decisions it was trained on (``trained`` in the file) count
as done, so the imitation warm start is not repeated and the run's decision counts go on from
them (``--total-decisions`` counts them too). ``--resume`` continues the run itself and needs its
``checkpoint.pt``; ``--init`` is for when only a policy is left, or to fine-tune a shipped network.

Moon imitation and distillation
-------------------------------
``--moon-imitation COEF`` plays one more shard each PPO iteration with the teacher at every seat
and adds COEF times the policy's cross-entropy on the decisions of the seats that shot the moon.
``--distill COEF`` (off by default) keeps the shipped specialists in view: each PPO iteration plays
one more shard (``num_games // shards`` games of a configuration where a specialist ships,
``--distill-configs PRESET-N,...`` or every such configuration of the family, drawn uniformly)
with the specialist (``ppo:network=specialist``, greedy) at every seat, and adds COEF times the
policy's cross-entropy on all of its decisions to the update, out of the PPO and value losses
(:func:`training.ppo.update`). It is policy distillation: the universal network learns the
specialist's play in its configuration while PPO goes on everywhere. ``train.csv`` then has
``copied`` and ``distilled`` (the teachers' decisions added).

Search labels
-------------
``--labels DIR --label-weight C`` (off by default) distills a search's labels (``hearts-env label``,
:mod:`training.labels`: pimc's value of every legal action, its choice and the deal's reward) into
the network: after each PPO iteration's update, ``--label-steps`` more optimizer steps (1 unless
given) on C times the cross-entropy of the policy to ``softmax(values / --label-temperature)`` over
the searched actions (to the one-hot choice where none was searched) plus ``vf_coef`` times the
value head's squared error to the stored reward, each over ``--label-batch`` decisions drawn from
the labels with a generator of their own (seeded with the run's seed, saved in the checkpoint: a
resumed run draws the same ones). The labels' digest is a setting: a run resumed on other labels
is refused. ``train.csv`` then has ``label_ce`` and ``label_v_loss``.

Shipping: ``cp runs/universal-hearts/policy.pt agents/checkpoints/universal-hearts.pt``; the
``ppo`` agent then plays it wherever no specialist ships.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import torch

import agents
from agents.ppo import PolicyValueNet, load_file, universal_policy_file
from agents.shipped import shipped_path
from hearts_env.core.rules import Rules
from hearts_env.files import OutputLock
from hearts_env.games import FAMILIES, family_of
from hearts_env.presets import PRESETS, all_configs, make_rules, preset_names
from hearts_env.table import Table
from hearts_env.universal import universal_view, vocabulary
from training.config import (
    SHARDS,
    Args,
    MixtureSettings,
    family_setting,
    mixture_argv,
    resolve_family,
    resolve_hidden,
    schedule,
    to_argv,
)
from training.device import autocast, inference_copy, pick_device, resolve_precision
from training.evaluate import evaluate
from training.labels import LabelSource
from training.logs import plot_mixture_curve
from training.ppo import advantages, update
from training.rollout import League, Rollout, collect, moon_decisions, reward_scale
from training.run import fresh_progress, run_in

__all__ = [
    "MIXTURE_FORMAT", "SHARDS", "Arena", "FamilyMixture", "MixtureSettings", "schedule", "start_from",
    "train_mixture",
]  # fmt: skip

MIXTURE_FORMAT = "hearts-env-mixture-checkpoint/1"
"""``format`` of a mixture run's checkpoint."""
LABEL_STREAM = 45
"""The label minibatches' generator is seeded with (seed, LABEL_STREAM)."""


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


def train_mixture(args: Args, mix: MixtureSettings, lock: OutputLock | None = None) -> dict[str, Any]:
    """Train (or, with ``args.resume``, continue) one universal network of ``mix.family``; returns
    a summary of the run (``hearts-env train --family F``).

    The settings are checked first (one ``ValueError`` naming the flag); the run folder is checked
    and held as every run's (:func:`training.run.run_in`); Ctrl-C (or SIGTERM in a command) keeps
    the last checkpoint, writes the summary and raises :class:`evaluation.flags.Interrupted`."""
    args.validate()
    game = family_of(mix.family).name
    resolve_family(args, game)
    if args.obs_format != "float32":
        raise ValueError("a universal network's rollouts are float32 (--obs-format float32)")
    if args.overlap:
        raise ValueError("--overlap plays a single configuration's rollout ahead: not with --family")
    if args.ray:
        raise ValueError("--ray plays a single configuration's rollouts: not with --family")
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
    if (mix.labels is None) != (not mix.label_weight):
        raise ValueError("--labels DIR and --label-weight C > 0 go together: give both or neither")
    if not (mix.label_weight >= 0 and np.isfinite(mix.label_weight)):
        raise ValueError(f"--label-weight must be a number >= 0, got {mix.label_weight}")
    if mix.label_steps != 1 and mix.labels is None:
        raise ValueError("--label-steps needs --labels DIR and --label-weight C")
    if mix.label_steps < 1:
        raise ValueError(f"--label-steps must be a whole number >= 1, got {mix.label_steps}")
    eval_presets = mix.eval_presets or tuple(family_presets)
    for name in eval_presets:
        if name not in family_presets:
            raise ValueError(f"--eval-presets: {name!r} is not a {game} preset")
    device = pick_device(args.device)
    dtype = resolve_precision(args.precision, device)
    run = Path(args.run_dir or f"runs/universal-{game}")

    def build() -> FamilyMixture:
        return FamilyMixture(args, mix, game, distill_configs, eval_presets, device, dtype, run)

    return run_in(args, run, build, lock)


class FamilyMixture:
    """The schedule of a family's universal network (:class:`training.run.Schedule`): each
    iteration ``mix.shards`` shards of configurations drawn by :func:`schedule`, and the moon
    imitation's and the distillation's shards, into one :class:`Arena` and one update.

    Built in the held run folder ``run``: fresh (or from ``mix.init``), or with ``args.resume``
    from its checkpoint (refused when a setting that decides the learning differs)."""

    def __init__(
        self, args: Args, mix: MixtureSettings, game: str, distill_configs: tuple[tuple[str, int], ...],
        eval_presets: tuple[str, ...], device: torch.device, dtype: torch.dtype, run: Path,
    ) -> None:  # fmt: skip
        self.args, self.mix, self.game, self.device, self.dtype = args, mix, game, device, dtype
        self.distill_configs, self.eval_presets = distill_configs, eval_presets
        if args.threads > 0:
            torch.set_num_threads(args.threads)
        vocab = vocabulary(game)
        torch.manual_seed(args.seed)
        self.rng = np.random.default_rng(args.seed)
        path, saved = run / "checkpoint.pt", None
        if args.resume:  # open_run has made sure the checkpoint is there
            saved = load_file(path, "a mixture checkpoint")
            if not isinstance(saved, dict) or saved.get("format") != MIXTURE_FORMAT:
                raise ValueError(f"{path} is not a mixture checkpoint ({MIXTURE_FORMAT})")
            if not isinstance(saved.get("settings"), dict):
                raise ValueError(f"{path} is not a usable mixture checkpoint: it has no 'settings' dict")
        kept = saved["settings"].get("hidden") if saved is not None else None
        resolve_hidden(args, kept, family=True)  # left out: a resumed run's own
        self.net = PolicyValueNet(vocab.size, vocab.num_actions, args.hidden).to(device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=args.learning_rate, eps=1e-5)
        self.pool: list[dict[str, torch.Tensor]] = []
        self.progress = fresh_progress(args)
        self.settings = {**{k: v for k, v in dataclasses.asdict(args).items() if k not in _BUDGETS},
                         **_plain(mix)}  # fmt: skip
        # the labels, read and checked before anything trains; their digest is a setting, so a run
        # resumed on other labels is refused. Their minibatches come from a generator of their own
        # (saved in the checkpoint: where in the labels the run is), so the rollouts are the ones a
        # run without labels plays: the term alone makes the difference
        self.labels = LabelSource(mix.labels, game) if mix.labels else None
        self.label_rng = np.random.default_rng([args.seed, LABEL_STREAM])
        if self.labels is not None:
            self.settings["labels_digest"] = self.labels.digest
        if saved is not None:
            differ = sorted(k for k, v in self.settings.items() if saved["settings"].get(k) != v)
            if differ:
                raise ValueError(f"{path} was trained with other settings ({', '.join(differ)})")
            self.net.load_state_dict(saved["model"])
            self.optimizer.load_state_dict(saved["optimizer"])
            self.rng.bit_generator.state = saved["rng"]
            if self.labels is not None:
                self.label_rng.bit_generator.state = saved["label_rng"]
            torch.set_rng_state(saved["torch_rng"])
            self.pool, self.progress = list(saved["pool"]), dict(saved["progress"])
        elif mix.init is not None:
            self.progress["decisions"] = start_from(self.net, mix.init, game)
            self.progress["initial"] = self.progress["decisions"]  # done before: not of this run's rate
        self.flags = to_argv(args, game) + mixture_argv(mix)
        self.trained = {"command": "hearts-env train " + " ".join(self.flags), "settings": self.settings}
        self.identity, self.label = {"family": game}, f"universal {game}"
        self.teacher, self.better = family_setting(args, game, "teacher"), family_of(game).better
        self.train_columns, self.eval_columns = None, EVAL_COLUMNS
        self.heuristics: dict[Rules, list[agents.Agent]] = {}
        self.teachers: dict[Rules, agents.Agent] = {}
        self.specialists: dict[Rules, agents.Agent] = {}
        shard_games = np.linspace(0, args.num_games, mix.shards + 1).astype(int)
        self.moon_games = max(1, args.num_games // mix.shards) if mix.moon_imitation else 0
        if self.moon_games:  # one more shard after the learner's, the teacher's
            shard_games = np.append(shard_games, shard_games[-1] + self.moon_games)
        self.distill_games = max(1, args.num_games // mix.shards) if mix.distill else 0
        self.distill_shard = len(shard_games) - 1
        if self.distill_games:  # and one more, the specialists'
            shard_games = np.append(shard_games, shard_games[-1] + self.distill_games)
        self.shard_games = shard_games
        self.arena = Arena(args, shard_games, vocab.size, vocab.num_actions)
        self.moons = np.full((args.rollout_steps, self.moon_games), -1, np.int64)
        self.scheduled = tuple(tuple(c) for c in mix.configs)
        self.weighted = tuple(tuple(w) for w in mix.weights)

    def iterate(self, imitation: bool, progress: dict[str, Any]) -> tuple[dict[str, float], dict[str, Any]]:
        """Play every shard (each its own configuration), then the teachers' shards, and update
        once on them all."""
        args, arena, rng, game = self.args, self.arena, self.rng, self.game
        played: list[str] = []
        arena.clear()
        self.actor = inference_copy(self.net, self.dtype)  # this iteration's weights, cast once for all
        for k in range(self.mix.shards):
            rules = schedule(game, rng, self.scheduled, self.weighted)
            games = int(self.shard_games[k + 1] - self.shard_games[k])
            if rules not in self.heuristics:
                specs = family_setting(args, game, "opponents")
                self.heuristics[rules] = [agents.from_spec(spec, rules) for spec in specs]
                self.teachers[rules] = agents.from_spec(self.teacher, rules)
            table = Table(rules, games, reward=args.reward)
            table.reset(seed=int(rng.integers(2**62)))
            shard_args = dataclasses.replace(args, num_games=games)
            league = League(rules, shard_args, rng, self.device, universal=True,
                            heuristics=self.heuristics[rules], dtype=self.dtype)  # fmt: skip
            league.set_pool(self.pool, self.net)
            league.seat(np.arange(games))
            buf = arena.shard(k, rules.num_players)
            teacher = self.teachers[rules] if imitation else None
            collect(table, league, self.actor, buf, rng, self.device, reward_scale(rules), teacher,
                    self.dtype, universal_view(rules))  # fmt: skip
            if imitation:
                buf.value[: buf.size] = 0.0
            lam = 1.0 if imitation else args.gae_lambda
            adv, trainable = advantages(buf, rules.num_players, args.gamma, lam)
            arena.keep(k, buf, adv, trainable)
            played.append(f"{rules.preset}-{rules.num_players}")
        copied = distilled = 0
        if self.moon_games and not imitation:
            copied = self.play_moons(played)
        if self.distill_games and not imitation:
            distilled = self.play_specialist(played)
        copies = arena.copy if self.moon_games or self.distill_games else None
        stats = update(self.net, self.optimizer, arena.merged(), arena.adv, arena.trainable, args,
                       self.device, imitation, None, self.dtype, copies, arena.copy_weight)  # fmt: skip
        if self.labels is not None and not imitation:
            steps = [self.label_step() for _ in range(self.mix.label_steps)]
            stats.update({k: float(np.mean([s[k] for s in steps])) for k in steps[0]})
        extra: dict[str, Any] = {"configs": " ".join(played)}
        if self.moon_games:
            progress["copied"] = progress.get("copied", 0) + copied
            extra["copied"] = copied
        if self.distill_games:
            progress["distilled"] = progress.get("distilled", 0) + distilled
            extra["distilled"] = distilled
        return {k: round(v, 5) for k, v in stats.items()}, extra

    def play_teacher(
        self, rules: Rules, teacher: agents.Agent, shard: int, games: int, moons_out: np.ndarray | None = None
    ) -> Rollout:
        """A teacher's shard: ``games`` games of ``rules`` with ``teacher`` at every seat, every
        decision stored (universal layout) in shard ``shard`` of the arena."""
        table = Table(rules, games, reward=self.args.reward)
        table.reset(seed=int(self.rng.integers(2**62)))
        args = dataclasses.replace(self.args, num_games=games)
        league = League(rules, args, self.rng, self.device, heuristics=[])
        league.seat(np.arange(games))  # no opponents: every seat the teacher's
        buf = self.arena.shard(shard, rules.num_players)
        collect(table, league, self.actor, buf, self.rng, self.device, 1.0, teacher, self.dtype,
                universal_view(rules), moons_out)  # fmt: skip
        return buf

    def play_moons(self, played: list[str]) -> int:
        """The moon imitation shard: the teacher at every seat of a scheduled configuration that has
        a moon; its shooters' decisions become the update's rows to copy. Returns how many."""
        game, rng = self.game, self.rng
        if self.mix.moon_configs:
            rules = schedule(game, rng, self.mix.moon_configs)
        else:
            rules = schedule(game, rng, self.scheduled, self.weighted)
            while not rules.has_moon:
                rules = schedule(game, rng, self.scheduled, self.weighted)
        if rules not in self.teachers:
            self.teachers[rules] = agents.from_spec(self.teacher, rules)
        buf = self.play_teacher(rules, self.teachers[rules], self.mix.shards, self.moon_games, self.moons)
        shot = moon_decisions(buf, self.moons)
        no_advantage = np.zeros(buf.size, np.float32)
        self.arena.keep(self.mix.shards, buf, no_advantage, shot, copy=self.mix.moon_imitation)
        played.append(f"moon:{rules.preset}-{rules.num_players}")
        return int(shot.sum())

    def play_specialist(self, played: list[str]) -> int:
        """The distillation shard: a shipped specialist at every seat of its configuration; all of
        its decisions become the update's rows to copy. Returns how many."""
        rules = schedule(self.game, self.rng, self.distill_configs)
        if rules not in self.specialists:
            self.specialists[rules] = agents.from_spec("ppo:network=specialist", rules)
        buf = self.play_teacher(rules, self.specialists[rules], self.distill_shard, self.distill_games)
        every = np.ones(buf.size, bool)
        self.arena.keep(self.distill_shard, buf, np.zeros(buf.size, np.float32), every, copy=self.mix.distill)
        played.append(f"distill:{rules.preset}-{rules.num_players}")
        return buf.size

    def label_step(self) -> dict[str, float]:
        """One optimizer step on ``label_weight`` times the label term over ``label_batch`` labelled
        decisions (:class:`training.config.MixtureSettings`): cross-entropy to the softmax of the
        search's values / temperature over the searched actions (the one-hot choice where none was
        searched) plus ``vf_coef`` times the value head's squared error to the deal's reward.

        A step of its own after the PPO epochs rather than a term inside them: the PPO minibatches
        are of the rollouts' decisions, the labels are not, and the update stays as it is."""
        mix, device = self.mix, self.device
        batch = self.labels.draw(self.label_rng, mix.label_batch)
        obs = torch.from_numpy(batch["obs"]).to(device)
        mask = torch.from_numpy(batch["mask"]).to(device)
        values = torch.from_numpy(batch["values"]).to(device)
        searched = ~torch.isnan(values)
        scaled = torch.where(searched, values / mix.label_temperature, torch.full_like(values, -torch.inf))
        has = searched.any(dim=1, keepdim=True)
        choice = torch.nn.functional.one_hot(torch.from_numpy(batch["action"]).to(device), values.shape[1])
        target = torch.where(has, torch.softmax(torch.where(has, scaled, 0.0), dim=1), choice.float())
        with autocast(device, self.dtype):
            logits, value = self.net(obs, mask)
        logp = torch.log_softmax(logits.float(), dim=-1)
        cross_entropy = -torch.where(target > 0, target * logp, 0.0).sum(dim=1).mean()
        reward = torch.from_numpy(batch["reward"]).to(device)
        v_loss = 0.5 * (value.float() - reward).square().mean()
        loss = mix.label_weight * (cross_entropy + self.args.vf_coef * v_loss)
        if not bool(torch.isfinite(loss)):
            raise FloatingPointError(
                f"the label loss is not finite ({float(loss.detach()):g}): weights unchanged"
            )
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.args.max_grad_norm)
        self.optimizer.step()
        return {"label_ce": float(cross_entropy.detach()), "label_v_loss": float(v_loss.detach())}

    def snapshot(self) -> None:
        """The current policy joins the pool of past policies (at most ``pool_size``)."""
        if self.args.pool_size:
            state = {k: v.detach().clone() for k, v in self.net.state_dict().items()}
            self.pool = (self.pool + [state])[-self.args.pool_size :]

    def checkpoint(self, progress: dict[str, Any]) -> dict[str, Any]:
        """:data:`MIXTURE_FORMAT`'s content: the settings, network, optimizer, random states, pool
        and progress."""
        return {
            "format": MIXTURE_FORMAT, "settings": self.settings, "model": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(), "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(), "pool": self.pool, "progress": progress,
            **({"label_rng": self.label_rng.bit_generator.state} if self.labels is not None else {}),
        }  # fmt: skip

    def policy(self, info: dict[str, Any]) -> dict[str, Any]:
        """A universal policy file of the family (:func:`agents.ppo.universal_policy_file`)."""
        return universal_policy_file(self.net, self.game, {**self.trained, **info})

    def evaluate(self, policy_path: Path) -> list[dict[str, Any]]:
        """The policy alone against copies of the family's heuristic, in each evaluated preset at
        its default player count."""
        rows = []
        for name in self.eval_presets:
            rules = make_rules(name)
            eval_args = dataclasses.replace(self.args, preset=name, options={})
            eval_args.eval_opponents = (agents.family_defaults(self.game).heuristic,)
            for result in evaluate(policy_path, rules, eval_args):
                rows.append({"preset": name, "num_players": rules.num_players,
                             **{k: result[k] for k in EVAL_COLUMNS[5:]}})  # fmt: skip
        return rows

    def plot(self, progress: dict[str, Any], path: Path) -> None:
        """A line a preset and their mean (:func:`training.logs.plot_mixture_curve`)."""
        title = f"universal {self.game} network: {progress['decisions']:,} decisions"
        plot_mixture_curve(progress["evals"], title, path, progress["imitation"], self.better)

    def headline(self, rows: list[dict[str, Any]]) -> str:
        """In how many presets the policy is better than the heuristic (its 95% interval clear of 0)."""
        sign = -1 if self.better == "lower" else 1
        beaten = sum(sign * r["diff"] > r["ci95"] for r in rows)
        return f"better than {rows[0]['opponent']} in {beaten} of {len(rows)} presets"

    def commands(self, last: list[dict[str, Any]], policy_decisions: int, run: Path) -> dict[str, str]:
        """None of its own: each preset's evaluation is a tournament of the universal policy."""
        return {}


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
EVAL_COLUMNS = (
    "iteration", "decisions", "elapsed_s", "preset", "num_players", "opponent", "deals", "ppo_points",
    "opponent_points", "diff", "ci95", "illegal",
)  # fmt: skip
"""``eval.csv``'s header: a row a preset."""


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
        **(
            {"labels": mix.labels, "label_weight": mix.label_weight,
             "label_temperature": mix.label_temperature, "label_batch": mix.label_batch,
             # only when not 1, so that a run saved before label steps existed resumes
             **({"label_steps": mix.label_steps} if mix.label_steps != 1 else {})}
            if mix.labels else {}
        ),
    }  # fmt: skip


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
