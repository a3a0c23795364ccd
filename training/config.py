"""The settings of a PPO run (:class:`Args`) and their command-line flags, without torch.

:mod:`training.ppo` trains with them; ``hearts-env`` builds its ``train`` flags from them, so
``hearts-env --help`` and every command that needs no torch work in an environment with the base
package only (``pip install -e .`` in the checkout; training needs ``pip install -e ".[training]"``).

Three settings name agents and default to None, the game family's (:func:`agents.family_defaults`,
read from the rules): ``opponents``, ``eval_opponents`` and ``teacher``; :func:`resolve_family`
fills them in once the rules are known.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

import agents
from agents.specs import absolute as absolute_spec
from evaluation.flags import (
    Number,
    add_option_flag,
    agent_spec,
    budget_minutes,
    comma_list,
    family_help,
    fraction,
    help_text,
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
)
from hearts_env.core.formats import check_format
from hearts_env.core.rules import Rules
from hearts_env.presets import PRESETS, make_rules, preset_names


@dataclass
class Args:
    """Every training setting; each field is a command-line flag (``num_games`` -> ``--num-games``)."""

    preset: str = "hearts"
    """Preset to train on (docs/rules.md)."""
    num_players: int | None = None
    """Players per table; None: the preset's default."""
    options: dict[str, Any] = field(default_factory=dict)
    """Rule options over the preset (docs/rules.md), on the command line ``--option KEY=VALUE``."""
    reward: str = "zero_sum"
    """``zero_sum`` (others' mean points minus one's own) or ``points`` (minus one's own points)."""
    seed: int = 0
    """Seed of the deals, the network initialisation and every sampled action."""
    minutes: float = 60.0
    """Wall-clock budget of the whole run (resumed segments count together), evaluations included."""
    total_decisions: int = 0
    """Stop after this many decisions (all seats, all games); 0: no limit but ``minutes``."""
    run_dir: str | None = None
    """Folder of the checkpoints, logs and plots; left out (None), runs/PRESET-Np with N the number
    of players, e.g. runs/hearts-4p."""
    resume: bool = False
    """Continue the run saved in ``run_dir`` (only :data:`RESUMABLE_CHANGES` may differ): the
    budgets and how the run is played and watched (minutes, total_decisions, device, threads, the
    eval and checkpoint settings, progress, tensorboard, ray, obs_format, precision)."""
    overwrite: bool = False
    """Start a new run in ``run_dir`` even where it holds a run's files: they are removed first (the
    run's own files alone, :data:`training.run_folder.RUN_FILES`; nothing else in the folder). Without
    it, a folder holding a run's files is refused (``--resume`` continues one with a checkpoint)."""
    device: str = "auto"
    """``auto`` (CUDA when present), ``cpu``, ``cuda``, ``cuda:1`` …"""
    threads: int = 1
    """Torch CPU threads (0: torch's default); 1 is fastest on a small, shared machine."""
    num_games: int = 512
    """Games stepped together (the batch of one policy evaluation)."""
    rollout_steps: int = 256
    """Steps of every game per iteration (one decision each); about 4 deals of 4-player Hearts."""
    hidden: tuple[int, ...] | None = None
    """Widths of the MLP's hidden layers, e.g. ``--hidden 256,256``; left out (None), 128,128 for one
    configuration (:data:`HIDDEN`: the stronger in a run of minutes), 256,256 for a family's
    universal network (:data:`FAMILY_HIDDEN`), and a resumed run's own."""
    learning_rate: float = 3e-4
    """Adam step size."""
    anneal_lr: bool = False
    """The step size falls linearly from ``learning_rate`` to 0 over the budget: each iteration's is
    ``learning_rate`` times the share of the budget left (of ``minutes`` or ``total_decisions``,
    whichever is spent the more; a resumed run with a new budget follows the new one)."""
    gamma: float = 1.0
    """Discount per decision of a seat (deals are short and end for sure)."""
    gae_lambda: float = 0.95
    """GAE lambda along each seat's decisions."""
    update_epochs: int = 2
    """Passes over a rollout's decisions per iteration."""
    minibatch_size: int = 4096
    """Decisions per gradient step."""
    clip_coef: float = 0.2
    """PPO ratio clip."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Gradient norm clip."""
    self_play: float = 0.5
    """Share of deals in which the current policy holds every seat."""
    opponents: tuple[str, ...] | None = None
    """Heuristic agent specs in the league (``agents.parse_spec``), e.g. ``--opponents strategy,random``;
    None: the game family's (:func:`agents.family_defaults`)."""
    pool_size: int = 5
    """Past policies kept in the league (the oldest is dropped)."""
    pool_every: int = 20
    """Iterations between snapshots of the policy into the league."""
    imitation_decisions: int | None = None
    """Warm start: decisions of the teacher's self-play to imitate before PPO (0: none); left out
    (None), 4M, ending sooner at a quarter of the time budget (minutes) or of total_decisions, so
    that every run reaches PPO."""
    teacher: str | None = None
    """Agent spec the warm start imitates; None: the game family's (``strategy`` for Hearts,
    ``smear`` for Smear)."""
    eval_every: int | None = None
    """Decisions between duplicate evaluations (0: only at the end); left out (None), one at each
    fifth of the budget (of ``total_decisions``, or of ``minutes``, whichever comes first) and at
    least every 10M decisions, so that a short run draws a curve of five points."""
    eval_deals: int = 1000
    """Duplicate deals per evaluation and opponent (each replayed in every seating)."""
    eval_opponents: tuple[str, ...] | None = None
    """Agents the policy is evaluated against, one at the table with copies of the opponent; None:
    the game family's."""
    checkpoint_every: int = 10
    """Iterations between checkpoints (one is always written at the end)."""
    progress: bool = True
    """Show a progress bar."""
    tensorboard: bool = True
    """Write TensorBoard logs under ``run_dir/tb``."""
    ray: str = ""
    """Play the rollouts on Ray actors: ``local`` (Ray started on this machine for the run), ``auto``
    (the cluster running here) or a cluster address ``HOST:PORT``; empty: in this process (needs
    ``pip install -e ".[ray]"`` in the hearts-env checkout)."""
    ray_actors: int = 0
    """Ray rollout actors, one CPU each, sharing ``num_games`` (0: one per CPU of the cluster); a
    Ray run resumes only with the same number."""
    precision: str = "auto"
    """Arithmetic of the policy's matmuls in training: ``float32``, ``bfloat16`` (``torch.autocast``:
    bf16 matmuls; weights, optimizer, softmax and losses stay float32; the rollout plays a bf16 copy
    of the policy, and the league's past policies play in bf16) or ``auto`` (bfloat16 where
    the device computes it natively: a CUDA GPU with bf16, a CPU with AVX512-BF16 or AMX; float32
    elsewhere). Where it is native, bfloat16 trains 1.3–1.5x faster, so a run of minutes ends
    stronger (experiments/strength-in-minutes/README.md); trained for the shipped specialist's
    decisions its agent ended slightly weaker (experiments/training-precision/bf16_training/README.md):
    give ``float32`` for a long run. Playing a checkpoint is float32 either way."""
    overlap: bool = False
    """Play the next iteration's rollout in a thread while this iteration's update runs (the rollout
    then acts with the weights from before the update: a lag of one update, which the PPO ratio
    accounts for). About 1.4x the decisions a second where the rollout and the update take about
    as long (two cores, bfloat16); no overlap across a checkpoint, so a resumed run continues
    exactly as the uninterrupted one. Not with ``ray``."""
    obs_format: str = "float32"
    """How the rollout stores observations: ``float32``, ``uint8`` or ``packed`` (the engine's
    card-set words, 8x smaller; unpacked on the policy's device, :mod:`hearts_env.core.formats`). The
    policy sees the same float32 observation either way."""

    def validate(self) -> Args:
        """Check every setting (types and ranges, as the command line does); ``TypeError`` /
        ``ValueError`` naming the setting and the value. Lists become tuples. Returns ``self``."""
        for name, number in NUMBERS.items():
            if getattr(self, name) is None and name in OPTIONAL:
                continue
            setattr(self, name, number.check(name, getattr(self, name)))
        if self.num_players is not None:
            self.num_players = positive_int.check("num_players", self.num_players)
        if not isinstance(self.ray, str):
            raise TypeError(f"ray must be a str (local, auto or HOST:PORT; empty: no Ray), got {self.ray!r}")
        self.ray = self.ray.strip()
        if self.ray_actors and not self.ray:
            raise ValueError("ray_actors needs ray (--ray local, auto or HOST:PORT)")
        if self.overlap and self.ray:
            raise ValueError("--overlap plays the rollout in a thread of this process: not with --ray")
        if self.ray_actors > self.num_games:
            raise ValueError(f"ray_actors ({self.ray_actors}) must not exceed num_games ({self.num_games})")
        for name in ("preset", "reward", "run_dir", "device"):
            value = getattr(self, name)
            if value is None and name in OPTIONAL:
                continue
            if not isinstance(value, str) or not value:
                raise TypeError(f"{name} must be a non-empty str, got {type(value).__name__} {value!r}")
        check_format(self.obs_format)
        if self.precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {self.precision!r}")
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {self.reward!r}")
        for name in ("resume", "overwrite", "progress", "tensorboard", "anneal_lr"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
            setattr(self, name, bool(getattr(self, name)))
        if self.anneal_lr and not math.isfinite(self.minutes) and not self.total_decisions:
            raise ValueError("anneal_lr falls over the budget: give finite minutes or total_decisions")
        if self.resume and self.overwrite:
            raise ValueError("resume continues the run in run_dir, overwrite removes it: give one, not both")
        if not isinstance(self.options, Mapping) or not all(isinstance(k, str) for k in self.options):
            raise TypeError(f"options must be a dict of rule option names to values, got {self.options!r}")
        self.options = dict(self.options)
        if self.hidden is not None:
            if not isinstance(self.hidden, (tuple, list)) or not self.hidden:
                raise ValueError(
                    f"hidden must be one or more layer widths such as (256, 256) or None, got {self.hidden!r}"
                )
            self.hidden = tuple(positive_int.check("hidden layer width", h) for h in self.hidden)
        for name in ("opponents", "eval_opponents"):
            specs = getattr(self, name)
            if specs is None:
                continue
            if not isinstance(specs, (tuple, list)) or not all(isinstance(x, str) for x in specs):
                raise TypeError(f"{name} must be a tuple of agent specs such as ('strategy',), got {specs!r}")
            if not specs:  # an empty list is never what was meant: the family's are None's
                raise ValueError(
                    f"{name} needs at least one agent spec such as ('strategy',) (None: the game "
                    f"family's), got {tuple(specs)!r}"
                )
            for spec in specs:
                agents.parse_spec(spec)  # ValueError naming an unknown agent or a bad parameter
            setattr(self, name, tuple(absolute_spec(spec) for spec in specs))  # a file's path: absolute
        if self.teacher is not None:
            if not isinstance(self.teacher, str):
                raise TypeError(f"teacher must be an agent spec such as 'strategy', got {self.teacher!r}")
            agents.parse_spec(self.teacher)
            self.teacher = self.teacher.strip()
        if self.device != "auto":
            import torch  # here, so that building the flags needs no torch

            try:
                torch.device(self.device)
            except (RuntimeError, ValueError) as error:
                raise ValueError(f"device {self.device!r} is not a torch device ({error})") from None
        return self


PRECISIONS = ("auto", "float32", "bfloat16")
"""Values of :attr:`Args.precision`."""
REWARDS = ("zero_sum", "points")
"""Rewards training knows how to scale (:attr:`Args.reward`)."""
NUMBERS: dict[str, Number] = {
    "seed": non_negative_int, "minutes": budget_minutes, "total_decisions": non_negative_int,
    "threads": non_negative_int, "num_games": positive_int, "rollout_steps": positive_int,
    "learning_rate": positive_float, "gamma": fraction, "gae_lambda": fraction,
    "update_epochs": positive_int, "minibatch_size": positive_int, "clip_coef": positive_float,
    "ent_coef": non_negative_float, "vf_coef": non_negative_float, "max_grad_norm": positive_float,
    "self_play": fraction, "pool_size": non_negative_int, "pool_every": non_negative_int,
    "imitation_decisions": non_negative_int, "eval_every": non_negative_int, "eval_deals": positive_int,
    "checkpoint_every": positive_int, "ray_actors": non_negative_int,
}  # fmt: skip
"""The range of every numeric setting (the command line's ``type=`` and :meth:`Args.validate`)."""
OPTIONAL = {
    "run_dir": "runs/PRESET-Np",
    "imitation_decisions": "4000000, or a quarter of the budget where that comes first",
    "eval_every": "each fifth of the budget, at most 10000000 apart",
    "hidden": "128,128 for one configuration, 256,256 for a family; a resumed run's own",
}
"""Settings whose None stands for a value chosen once the run's rules and budgets are known, and
the words ``--help`` shows for that default."""

HIDDEN = (128, 128)
"""The hidden layers :attr:`Args.hidden` None gives a fresh run of one configuration: at equal time
ahead of 256x256 in runs of minutes (experiments/strength-in-minutes/README.md)."""
FAMILY_HIDDEN = (256, 256)
"""The hidden layers :attr:`Args.hidden` None gives a fresh family run (the shipped universal
networks' widths, so that ``--init`` from one needs no flag)."""


def resolve_hidden(args: Args, kept: Sequence[int] | None = None, family: bool = False) -> Args:
    """Fill :attr:`Args.hidden` left None: ``kept`` (the widths of the run being resumed) where
    given, else :data:`FAMILY_HIDDEN` for a family's universal network (``family``) or
    :data:`HIDDEN` for one configuration. Returns ``args``."""
    if args.hidden is None:
        args.hidden = tuple(int(h) for h in kept) if kept else (FAMILY_HIDDEN if family else HIDDEN)
    return args


IMITATION_DECISIONS = 4_000_000
"""The longest warm start :attr:`Args.imitation_decisions` None gives, in decisions."""
IMITATION_SHARE = 0.25
"""The share of the time budget (and of ``total_decisions``) past which :attr:`Args.imitation_decisions`
None starts no further imitation iteration: the warm start brings the policy near its teacher in
the first few million decisions, and three quarters of any run are left to PPO."""

RESUMABLE_CHANGES = (
    "minutes", "total_decisions", "run_dir", "resume", "overwrite", "device", "threads",
    "eval_every", "eval_deals", "eval_opponents", "checkpoint_every", "progress", "tensorboard",
    "ray", "ray_actors", "obs_format", "precision",
)  # fmt: skip
"""Settings a resumed run may change: they decide how long, where and how it is watched, not what
it learns (``device`` and ``precision`` change the rounding, not the algorithm; a Ray run's
number of actors does decide it: the checkpoint's ``ray`` entry says how many played, and a
resume with another number is refused)."""


EVAL_EVERY = 10_000_000
"""The most decisions between two evaluations with :attr:`Args.eval_every` None."""
EVAL_POINTS = 5
"""The evaluations (the last at the end) :attr:`Args.eval_every` None spreads over a run's budget."""


def evaluation_step(args: Args) -> int:
    """Decisions from one evaluation to the next by decisions (the first: from 0): ``eval_every``,
    or with None, a fifth of ``total_decisions`` and at most :data:`EVAL_EVERY`."""
    if args.eval_every is not None:
        return args.eval_every
    if args.total_decisions:
        return min(EVAL_EVERY, -(-args.total_decisions // EVAL_POINTS))
    return EVAL_EVERY


def evaluation_due(args: Args, decisions: int, next_eval: int, elapsed_s: float, evaluated: int) -> bool:
    """Whether a run evaluates now, after ``decisions`` decisions and ``elapsed_s`` seconds, its next
    evaluation by decisions due at ``next_eval`` and ``evaluated`` evaluations done: ``eval_every``
    0, never before the end; None, also at each fifth of the time budget (:data:`EVAL_POINTS`)."""
    if args.eval_every is not None:
        return bool(args.eval_every) and decisions >= next_eval
    share = elapsed_s / (60 * args.minutes)
    return decisions >= next_eval or share >= (evaluated + 1) / EVAL_POINTS


def next_evaluation(args: Args, decisions: int, next_eval: int) -> int:
    """The decision count the next evaluation by decisions is due at, once one is made after
    ``decisions`` decisions (it was due at ``next_eval``): ``eval_every`` keeps its steps from 0,
    None counts its step from this one."""
    if args.eval_every is not None:
        return next_eval + args.eval_every
    return decisions + evaluation_step(args)


FAMILY_SETTINGS = ("opponents", "eval_opponents", "teacher")
"""Settings whose None means the game family's (:class:`agents.FamilyDefaults` has the same names)."""


def default_run_dir(preset: str, num_players: int) -> str:
    """The folder a run of ``preset`` with ``num_players`` writes to when ``run_dir`` is None."""
    return f"runs/{preset}-{num_players}p"


def imitating(args: Args, decisions: int, imitated: int, elapsed_s: float) -> bool:
    """Whether the next iteration imitates the teacher, after ``decisions`` decisions in all, the
    first ``imitated`` of them imitation, and ``elapsed_s`` seconds of the run. Once PPO has
    begun it stays; an explicit ``imitation_decisions`` is a number of decisions; None (the
    default) is :data:`IMITATION_DECISIONS`, cut short at :data:`IMITATION_SHARE` of ``minutes``
    and of ``total_decisions``."""
    if decisions > imitated:
        return False
    if args.imitation_decisions is not None:
        return decisions < args.imitation_decisions
    cap = IMITATION_DECISIONS
    if args.total_decisions:
        cap = min(cap, IMITATION_SHARE * args.total_decisions)
    return decisions < cap and elapsed_s < IMITATION_SHARE * 60 * args.minutes


def family_setting(args: Args, game: str, name: str) -> Any:
    """Setting ``name`` of :data:`FAMILY_SETTINGS`: ``args``' own, or game family ``game``'s."""
    value = getattr(args, name)
    return getattr(agents.family_defaults(game), name) if value is None else value


def resolve_family(args: Args, game: str) -> Args:
    """Fill ``args``' family settings left None with game family ``game``'s; returns ``args``."""
    for name in FAMILY_SETTINGS:
        setattr(args, name, family_setting(args, game, name))
    return args


def _field_docs(cls: type) -> dict[str, str]:
    """The docstring under each dataclass field, read from the source (the ``--help`` texts)."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, following in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(following, ast.Expr):
            docs[node.target.id] = help_text(str(following.value.value))  # type: ignore[union-attr]
    return docs


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add one flag per :class:`Args` field to ``parser`` (for ``hearts-env train`` too)."""
    docs, defaults = _field_docs(Args), Args()
    for f in fields(Args):
        flag, default, help_text = (
            "--" + f.name.replace("_", "-"),
            getattr(defaults, f.name),
            docs.get(f.name, ""),
        )
        if f.name in FAMILY_SETTINGS:
            shown = family_help(f.name)
        else:
            shown = OPTIONAL.get(f.name) or _flag_text(default)
        if f.name == "options":
            add_option_flag(parser, dest="options", help=help_text)
        elif isinstance(default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=help_text)
        elif f.name in LISTS:
            parser.add_argument(flag, default=default, metavar="A,B", type=LISTS[f.name],
                                help=f"{help_text} (default: {shown})")  # fmt: skip
        elif f.name == "reward":
            parser.add_argument(
                flag, choices=REWARDS, default=default, help=f"{help_text} (default: {shown})"
            )
        else:
            kind = NUMBERS.get(f.name, KINDS.get(f.name, str))
            parser.add_argument(flag, type=kind, default=default, help=f"{help_text} (default: {shown})")
    return parser


LISTS = {
    "hidden": comma_list(positive_int, "layer width"),
    "opponents": comma_list(agent_spec, "agent spec"),
    "eval_opponents": comma_list(agent_spec, "agent spec"),
}
"""The flag type of each list setting (``A,B``; an empty list is refused: left out, an agent list
is the game family's)."""
KINDS = {"num_players": positive_int, "teacher": agent_spec}
"""The flag type of the settings that are neither numbers (:data:`NUMBERS`) nor lists nor text."""


def _flag_text(value: Any) -> str:
    """A setting as a flag's value is written: lists ``A,B``; an empty one ``''``."""
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "''"
    return str(value)


def args_from(namespace: argparse.Namespace) -> Args:
    """:class:`Args` from parsed flags, validated (:meth:`Args.validate`)."""
    values = vars(namespace)
    out = Args(**{f.name: values[f.name] for f in fields(Args)})
    out.options = dict(out.options)
    return out.validate()


def to_argv(args: Args, game: str | None = None) -> list[str]:
    """The flags that reproduce ``args`` (those that differ from the defaults; with ``game``, the
    family settings equal to that game family's are left out too)."""
    out, defaults = [], Args()
    if game is not None:
        resolve_family(defaults, game)
    for f in fields(Args):
        value, default = getattr(args, f.name), getattr(defaults, f.name)
        if value == default or f.name in ("resume", "overwrite", "progress"):
            continue
        if f.name == "options":
            out += [
                f"--option {k}={json.dumps(v) if isinstance(v, (list, dict)) else v}"
                for k, v in value.items()
            ]
        elif isinstance(default, bool):
            out.append(f"--{'' if value else 'no-'}{f.name.replace('_', '-')}")
        else:
            out.append(f"--{f.name.replace('_', '-')} {_flag_text(value)}")
    return out


# ---------------------------------------------------------------------- one network for a family
SHARDS = 4
"""Rollout shards per iteration of a family mixture (each its own configuration) unless ``--shards``
says otherwise."""


@dataclass
class MixtureSettings:
    """What a family mixture run (``hearts-env train --family F``, :mod:`training.mixture`) adds to
    :class:`Args`; each field is a flag of ``hearts-env train`` (``moon_imitation`` ->
    ``--moon-imitation``)."""

    family: str = "hearts"
    """The game family: ``hearts`` or ``smear``."""
    shards: int = SHARDS
    """Rollout shards per iteration, each its own configuration."""
    configs: tuple[tuple[str, int], ...] = ()
    """Draw from these configurations only, each a preset's name and a player count (empty: the
    whole family, see the schedule)."""
    eval_presets: tuple[str, ...] = ()
    """The presets of the periodic evaluation, at their default player counts (empty: every preset
    of the family)."""
    init: str | None = None
    """A universal policy file of the family whose network starts the run (None: fresh weights and
    the imitation warm start); its trained decisions count as done."""
    weights: tuple[tuple[str, float], ...] = ()
    """Presets' names with weights: a named preset is drawn in proportion to its weight, the others
    to 1."""
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
    labels: str | None = None
    """A folder of search labels of the family (``hearts-env label``, :mod:`training.labels`) to
    distill from, with ``label_weight``."""
    label_weight: float = 0.0
    """The weight of the label term (0: none): each PPO iteration then takes one more optimizer step
    on ``label_weight`` times (the policy's cross-entropy to the softmax of the search's values /
    ``label_temperature``, or to the choice where no action was searched, plus ``vf_coef`` times the
    value head's squared error to the deal's stored reward) over ``label_batch`` labelled decisions
    drawn with a generator of the run's own (seed, saved in the checkpoint)."""
    label_temperature: float = 1.0
    """The temperature of the softmax of the search's values, in the values' own units (pimc: the acting
    seat's unscaled reward of the deal, e.g. Hearts points: 1 is sharp, 5 to 10 softer)."""
    label_batch: int = 256
    """Labelled decisions in the label term's minibatch."""
    label_steps: int = 1
    """Optimizer steps on the label term after each PPO update, each on a fresh minibatch: the
    share of the updates the search's judgement gets (a PPO update takes ``update_epochs`` times
    the rollout's decisions / ``minibatch_size`` steps, 64 with the defaults)."""


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


MIXTURE_FLAGS: dict[str, dict[str, Any]] = {
    "family": {"default": None, "choices": ("hearts", "smear"),
               "help": "train one universal network on every configuration of this game family (not with "
                       "--preset or --num-players); the flags below shape its schedule"},
    "shards": {"type": positive_int, "default": SHARDS,
               "help": f"rollout shards per iteration, each its own configuration (default: {SHARDS})"},
    "configs": {"type": comma_list(_config, "configuration PRESET-N"), "default": (),
                "metavar": "PRESET-N,...",
                "help": "draw from these configurations only (default: every preset of the family)"},
    "weights": {"type": comma_list(_weight, "weight PRESET=W"), "default": (), "metavar": "PRESET=W,...",
                "help": "draw these presets W times as often as the others, e.g. partnership_hearts=3"},
    "eval_presets": {"type": comma_list(str, "preset"), "default": (), "metavar": "A,B",
                     "help": "presets of the periodic evaluation (default: every preset of the family)"},
    "init": {"default": None, "metavar": "POLICY",
             "help": "start from this universal policy file's network (its decisions count as done; no "
                     "imitation)"},
    "moon_imitation": {"type": non_negative_float, "default": 0.0, "metavar": "COEF",
                       "help": "add COEF x the cross-entropy on the teacher's decisions in the deals it "
                               "shoots the moon (one more shard a PPO iteration; default 0: none)"},
    "moon_configs": {"type": comma_list(_config, "configuration PRESET-N"), "default": (),
                     "metavar": "PRESET-N,...",
                     "help": "the moon imitation shard's configurations (default: the schedule's with a "
                             "moon)"},
    "distill": {"type": non_negative_float, "default": 0.0, "metavar": "COEF",
                "help": "add COEF x the cross-entropy on a shipped specialist's decisions in its "
                        "configuration (one more shard a PPO iteration; default 0: none)"},
    "distill_configs": {"type": comma_list(_config, "configuration PRESET-N"), "default": (),
                        "metavar": "PRESET-N,...",
                        "help": "the distillation shard's configurations (default: all where a specialist "
                                "ships)"},
    "labels": {"default": None, "metavar": "DIR",
               "help": "distill from the search labels in DIR (hearts-env label) with --label-weight"},
    "label_weight": {"type": non_negative_float, "default": 0.0, "metavar": "C",
                     "help": "add C x (cross-entropy to the softmax of the search's values, plus the value "
                             "regression on the deal's reward) on labelled decisions each PPO iteration"},
    "label_temperature": {"type": positive_float, "default": 1.0, "metavar": "T",
                          "help": "the temperature of that softmax (default 1)"},
    "label_batch": {"type": positive_int, "default": 256, "metavar": "N",
                    "help": "labelled decisions in a label step (default 256)"},
    "label_steps": {"type": positive_int, "default": 1, "metavar": "K",
                    "help": "label steps after each PPO update, each on fresh decisions (default 1)"},
}  # fmt: skip
"""The flags of :class:`MixtureSettings` (argparse keywords), ``--family`` first."""


def add_mixture_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add the flags of :data:`MIXTURE_FLAGS` (to a group of ``hearts-env train``)."""
    for name, keywords in MIXTURE_FLAGS.items():
        parser.add_argument("--" + name.replace("_", "-"), **keywords)


def mixture_from(namespace: argparse.Namespace) -> MixtureSettings | None:
    """:class:`MixtureSettings` from parsed flags; None without ``--family``."""
    values = vars(namespace)
    if values.get("family") is None:
        return None
    return MixtureSettings(**{name: values[name] for name in MIXTURE_FLAGS})


def mixture_argv(mix: MixtureSettings) -> list[str]:
    """The flags that reproduce ``mix`` (``--family`` and those that differ from the defaults)."""
    out, defaults = [f"--family {mix.family}"], MixtureSettings()
    for name in MIXTURE_FLAGS:
        value = getattr(mix, name)
        if name == "family" or value == getattr(defaults, name):
            continue
        if name in ("configs", "moon_configs", "distill_configs"):
            text = ",".join(f"{preset}-{n}" for preset, n in value)
        elif name == "weights":
            text = ",".join(f"{preset}={w:g}" for preset, w in value)
        else:
            text = _flag_text(value)
        out.append(f"--{name.replace('_', '-')} {text}")
    return out


# ---------------------------------------------------------------------- the family schedule
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
