"""``ppo``: a policy trained by ``hearts-env train``, played from a checkpoint.

``agents.make("ppo", preset, num_players, checkpoint=PATH)`` plays the policy file saved at
``PATH`` (``policy.pt`` of a ``hearts-env train`` run). Without ``checkpoint`` it
plays the checkpoint shipped for that preset and player count, ``agents/checkpoints/<preset>-<n>p.pt``
(standard 4-player Hearts, 3-player Black Maria, 4-player partnership Smear; package data, so an
installed wheel has them too), or raises :class:`NoShippedCheckpointError` (a ``FileNotFoundError``
and a ``ValueError``) naming what ships. A checkpoint plays the preset and player count it was
trained for, and nothing else (one ``ValueError``); other rule options of that preset play with
a warning. By default it plays the most probable legal card (``greedy=True``); ``greedy=False``
samples from the policy, as in training.

The network, :class:`PolicyValueNet`, lives here rather than in ``training/`` so that playing a
checkpoint needs only torch: a small MLP over the flat observation of
:mod:`hearts_env.games.hearts.observation` with a policy head (one logit per card) and a value head.
Illegal cards get the logit :data:`ILLEGAL_LOGIT`, so their probability is exactly 0.

A **universal** network (trained by ``hearts-env train --family`` on every configuration of a game
family, over the family's universal layout, :mod:`hearts_env.universal`) plays every preset and
player count of its family: its file says ``layout: "universal"``, and the agent converts each
observation and mask to the family's vocabulary and the chosen action back. Without
``checkpoint``, a configuration with no specialist plays the shipped universal network of its
family (``agents/checkpoints/universal-<family>.pt``) where one ships; :attr:`PPOAgent.network`
says which one plays, and ``network="universal"`` (the spec ``ppo:network=universal``) plays the
universal network also where a specialist ships. ``release="2026-12"`` (the spec ``ppo@2026-12``,
:mod:`agents.releases`) plays the networks shipped in that release, checked by their SHA-256.

Policy file (``torch.save`` of a dict, loaded with ``weights_only=True``): ``format``,
``preset``, ``num_players``, ``rules`` (``Rules.describe()``), ``obs_size``, ``num_actions``,
``hidden`` (layer widths), ``model`` (the state dict) and ``trained`` (how it was trained); a
universal network's also ``layout`` (``"universal"``) and ``family``, its ``preset`` is
``universal-<family>``.
Every file is read by :func:`load_file`: tensors and plain Python values only, so a crafted
file cannot run code; a damaged, empty or foreign file is one ``ValueError`` naming it.
"""

from __future__ import annotations

import os
import pickle
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent, Observation
from agents.releases import release as agent_release
from agents.shipped import network_path, shipped
from hearts_env.core.rules import Rules
from hearts_env.games import FAMILIES, family

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover - only without the training extra
    raise ImportError(
        'the ppo agent needs torch: pip install -e ".[training]" in the hearts-env checkout '
        "(or pip install torch)"
    ) from error

FORMAT = "hearts-env-ppo/1"
"""Version tag of the policy file layout."""
NETWORKS = ("auto", "specialist", "universal")
"""Values of the agent's ``network`` parameter: ``auto`` (the default) plays the specialist shipped
for the configuration, else the family's shipped universal network; ``specialist`` and
``universal`` play that one only (an error where it does not ship)."""
CHECKPOINT_FORMAT = "hearts-env-ppo-checkpoint"
"""``format`` of a training run's resume file ``checkpoint.pt`` (its ``version`` says which layout)."""
ILLEGAL_LOGIT = -1e9
"""Logit given to illegal cards: exp() underflows to exactly 0, yet entropies stay finite."""


class NoShippedCheckpointError(FileNotFoundError, ValueError):
    """No checkpoint ships for this preset and player count: a missing file, and (as every agent
    that cannot play some rules, for ``agents.make``'s callers) a ``ValueError``."""


def _layer(inputs: int, outputs: int, std: float) -> nn.Linear:
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, std)
    nn.init.zeros_(layer.bias)
    return layer


class PolicyValueNet(nn.Module):
    """MLP trunk over the observation, then card logits (B, A) and a value (B,)."""

    def __init__(self, obs_size: int, num_actions: int, hidden: Sequence[int] = (256, 256)) -> None:
        super().__init__()
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, tuple(hidden)
        layers: list[nn.Module] = []
        width = obs_size
        for h in self.hidden:
            layers += [_layer(width, h, np.sqrt(2)), nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy = _layer(width, num_actions, 0.01)  # near-uniform start
        self.value = _layer(width, 1, 1.0)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (B, A) and values (B,) for observations (B, D) and a bool mask (B, A).

        Both come back float32 even under ``torch.autocast`` (training's bfloat16 precision runs
        the matmuls in bf16; the masking, softmax and losses stay float32)."""
        z = self.trunk(obs)
        logits = self.policy(z).float().masked_fill(~mask, ILLEGAL_LOGIT)
        return logits, self.value(z).float().squeeze(-1)


def policy_file(net: PolicyValueNet, rules: Rules, trained: dict[str, Any] | None = None) -> dict[str, Any]:
    """The content of a policy file for ``net`` trained on ``rules`` (see the module docstring)."""
    return _policy_content(net, rules.preset, rules.num_players, rules.describe(), trained)


def universal_policy_file(
    net: PolicyValueNet, game: str, trained: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The content of a policy file for a universal ``net`` of family ``game``."""
    from hearts_env.universal import vocabulary

    vocab = vocabulary(game)
    content = _policy_content(net, f"universal-{game}", vocab.players, {"game": game}, trained)
    return {**content, "layout": "universal", "family": game}


def _policy_content(
    net: PolicyValueNet, preset: str, players: int, rules: dict[str, Any], trained: dict[str, Any] | None
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "preset": preset,
        "num_players": players,
        "rules": rules,
        "obs_size": net.obs_size,
        "num_actions": net.num_actions,
        "hidden": list(net.hidden),
        "model": {k: v.detach().cpu().clone() for k, v in net.state_dict().items()},
        "trained": dict(trained or {}),
    }


def _unsafe_reason(error: Exception) -> str:
    """The line of torch's weights-only refusal that says what was refused."""
    for line in str(error).splitlines():
        if re.search(r"[Uu]nsupported", line):
            line = re.split(
                r" was not an allowed| whose module|\. ", line.replace("WeightsUnpickler error:", "")
            )[0]
            return " ".join(line.split()).rstrip(".")
    return "objects beyond tensors and plain values"


def load_file(path: str | Path, what: str, hint: str = "") -> Any:
    """The content of a ``torch.save`` file at ``path``, read with ``weights_only=True``: tensors
    and plain values (dict, list, tuple, str, int, float, bool, None) only, so nothing in the
    file can run code. ``what`` (e.g. ``"a PPO policy file"``) names the expected content;
    ``hint`` is added to the message of a refused file.

    Raises ``FileNotFoundError`` when there is no file, and one ``ValueError`` naming the file and
    what is wrong when it is empty, truncated, not a torch file or holds anything else.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no {what} at {path}")
    if path.stat().st_size == 0:
        raise ValueError(f"{path} is empty, not {what}")
    with path.open("rb") as f:  # a file that cannot be read raises its own OSError here
        f.read(1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch warns about pickle protocols before refusing
            return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:
        raise ValueError(
            f"{path} is refused, not read as {what}: it is not only tensors and plain values "
            f"({_unsafe_reason(error)}: a damaged, foreign or crafted file); nothing in it was run{hint}"
        ) from None
    except Exception as error:  # noqa: BLE001 - torch raises many kinds on a damaged file
        detail = " ".join(str(error).split(". ")[0].split())
        raise ValueError(
            f"{path} is truncated, damaged or not a file torch.save wrote, not {what} "
            f"({type(error).__name__}: {detail[:200]})"
        ) from None


def load_policy(path: str | Path) -> dict[str, Any]:
    """Read a policy file from ``path`` (tensors and plain values only: nothing is unpickled).

    Raises ``FileNotFoundError`` or one ``ValueError`` naming the file and what is wrong.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no PPO checkpoint at {path}")
    content = load_file(path, "a PPO policy file")
    if isinstance(content, dict) and content.get("format") == CHECKPOINT_FORMAT:
        raise ValueError(f"{path} is a training checkpoint, not a policy file: play the policy.pt beside it")
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        got = (
            f"a {type(content).__name__}" if not isinstance(content, dict)
            else "a dict without a 'format' entry" if "format" not in content
            else f"format {content['format']!r}"
        )  # fmt: skip
        raise ValueError(f"{path} is not a PPO policy file of format {FORMAT}: it holds {got}")
    problems = [key for key, ok in _POLICY_FIELDS.items() if not ok(content.get(key))]
    if problems:
        raise ValueError(f"{path} is not a usable PPO policy file: bad or missing {', '.join(problems)}")
    return content


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


_POLICY_FIELDS = {
    "preset": lambda v: isinstance(v, str),
    "num_players": _is_int,
    "rules": lambda v: isinstance(v, dict),
    "obs_size": _is_int,
    "num_actions": _is_int,
    "hidden": lambda v: isinstance(v, (list, tuple)) and all(_is_int(h) for h in v),
    "model": lambda v: isinstance(v, dict) and all(isinstance(t, torch.Tensor) for t in v.values()),
    "trained": lambda v: v is None or isinstance(v, dict),
}
"""What each entry of a policy file must be."""


def network_from(content: dict[str, Any]) -> PolicyValueNet:
    """The network stored in a policy file's content."""
    # Initialising weights that are then overwritten must not move the caller's random stream.
    with torch.random.fork_rng(devices=[]):
        net = PolicyValueNet(content["obs_size"], content["num_actions"], content["hidden"])
    net.load_state_dict(content["model"])
    return net.eval()


class PPOAgent(Agent):
    """Plays a trained policy: the most probable legal card, or (``greedy=False``) a sample."""

    name = "ppo"
    options_kind = "probability"
    _last: tuple[np.ndarray, np.ndarray] | None = None  # the last act's logits and mask

    def __init__(
        self,
        rules: Rules,
        *,
        checkpoint: str | Path | None = None,
        greedy: bool = True,
        device: str | torch.device = "cpu",
        network: str = "auto",
        release: str | None = None,
    ) -> None:
        super().__init__(rules)
        frozen = None if release is None else agent_release(release)  # before any file is read
        if network not in NETWORKS:
            raise ValueError(f"ppo parameter network must be one of {', '.join(NETWORKS)}, got {network!r}")
        if checkpoint is not None and network != "auto":
            raise ValueError("ppo: give checkpoint=PATH or network=..., not both")
        if checkpoint is not None and release is not None:
            raise ValueError("ppo: give checkpoint=PATH or release=..., not both")
        if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
            raise TypeError(
                f"ppo parameter checkpoint must be a path (str or Path) to a policy file, "
                f"got {type(checkpoint).__name__} {checkpoint!r}"
            )
        if not isinstance(greedy, (bool, np.bool_)):
            got = f"{type(greedy).__name__} {greedy!r}"
            raise TypeError(f"ppo parameter greedy must be True or False, got {got}")
        if not isinstance(device, (str, torch.device)):
            raise TypeError(f"ppo parameter device must be a str such as 'cpu', got {type(device).__name__}")
        self.network = "given"
        """Which network plays: ``"given"`` (``checkpoint``), ``"specialist"`` (shipped for this
        preset and player count) or ``"universal"`` (the family's shipped universal network)."""
        if checkpoint is None:
            path, self.network = network_path(rules, network, frozen)
            if not path.exists() and self.network == "universal":
                raise NoShippedCheckpointError(
                    f"agent 'ppo': no universal network ships for the {rules.game} family "
                    f"({path.name}); train one with `hearts-env train --family {rules.game}` "
                    "and pass checkpoint=PATH"
                )
            if not path.exists():
                ships = ", ".join(shipped()) or "none"  # no universal network of the family either
                raise NoShippedCheckpointError(
                    f"agent 'ppo': no PPO checkpoint ships for {rules.preset} with "
                    f"{rules.num_players} players (shipped: {ships}); train one with "
                    f"`hearts-env train --preset {rules.preset} --num-players {rules.num_players}` "
                    "and pass checkpoint=PATH"
                )
            checkpoint = path
        self.checkpoint = str(checkpoint)
        content = load_policy(checkpoint)
        self._check(content)
        self.trained = content.get("trained") or {}
        self.greedy = bool(greedy)
        self.device = torch.device(device)
        try:
            net = network_from(content)
        except (RuntimeError, ValueError, TypeError) as error:
            raise ValueError(
                f"{checkpoint} is not a usable PPO policy file: its model does not match its sizes "
                f"({' '.join(str(error).split())[:300]})"
            ) from None
        self.net = net.to(self.device)

    @classmethod
    def weight_files(
        cls,
        rules: Rules,
        *,
        checkpoint: str | Path | None = None,
        network: str = "auto",
        release: str | None = None,
        **params: Any,
    ) -> tuple[Path, ...]:
        """The policy file it plays for ``rules``: ``checkpoint``, else the shipped one of
        ``release`` or of today (:func:`agents.shipped.network_path`)."""
        del params
        if checkpoint is not None:  # not a path: none (building the agent says what is wrong)
            return (Path(checkpoint),) if isinstance(checkpoint, (str, os.PathLike)) else ()
        return (network_path(rules, network, None if release is None else agent_release(release))[0],)

    @classmethod
    def from_network(
        cls, rules: Rules, net: PolicyValueNet, greedy: bool = False, universal: bool = False
    ) -> PPOAgent:
        """An agent playing ``net`` as it is (training uses this for its pool of past policies;
        ``universal``: ``net`` reads the family's universal layout)."""
        agent = cls.__new__(cls)
        Agent.__init__(agent, rules)
        agent.checkpoint, agent.trained, agent.greedy = "<memory>", {}, greedy
        agent.network = "given"
        agent.universal = _universal(rules) if universal else None
        agent.device = next(net.parameters()).device
        agent.net = net.eval()
        return agent

    def _check(self, content: dict[str, Any]) -> None:
        self.universal = None
        if content.get("layout") == "universal":
            self._check_universal(content)
            return
        size, actions = self.layout.size, len(self.rules.action_names)  # cards, then decisions
        preset, players = self.rules.preset, self.rules.num_players
        if (content["preset"], content["num_players"]) != (preset, players):
            raise ValueError(
                f"agent 'ppo' cannot play {preset} with {players} players: checkpoint {self.checkpoint} "
                f"plays {content['preset']} with {content['num_players']} players only (train one with "
                f"`hearts-env train --preset {preset} --num-players {players}`)"
            )
        if (content["obs_size"], content["num_actions"]) != (size, actions):
            raise ValueError(
                f"agent 'ppo' cannot play these {preset} rules: checkpoint {self.checkpoint} has "
                f"observation {content['obs_size']} and {content['num_actions']} actions, these rules "
                f"observation {size} and {actions} actions (options that change the observation)"
            )
        # The saved description may be of an earlier version (Rules.differences upgrades it), or
        # older still and lack rules added since: those are not differences.
        saved = content["rules"]
        differ = [name for name in self.rules.differences(saved) if name in saved and name != "preset"]
        if differ:
            warnings.warn(
                f"checkpoint {self.checkpoint} was trained on {content['preset']} rules that differ in "
                f"{', '.join(differ)}; it plays, but was not trained for these rules",
                stacklevel=3,
            )

    def _check_universal(self, content: dict[str, Any]) -> None:
        """A universal network plays every configuration of its family."""
        game = self.rules.game
        if FAMILIES.get(content.get("family")) is not family(self.rules):
            raise ValueError(
                f"agent 'ppo' cannot play {self.rules.preset}: checkpoint {self.checkpoint} is the universal "
                f"network of the {content.get('family')!r} family, these rules are {game!r}"
            )
        view = _universal(self.rules)
        vocab = view.vocabulary
        if (content["obs_size"], content["num_actions"]) != (vocab.size, vocab.num_actions):
            raise ValueError(
                f"checkpoint {self.checkpoint} has observation {content['obs_size']} and "
                f"{content['num_actions']} actions, the {game} universal layout {vocab.size} and "
                f"{vocab.num_actions} (a network of another version of the layout)"
            )
        self.universal = view

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Legal actions (B,): argmax of the masked logits, or a Gumbel-max sample from ``rng``."""
        return self.act_and_value(obs, rng)[0]

    @property
    def value_reward(self) -> str:
        """The reward the value head estimates (:data:`hearts_env.table.REWARDS`): the one the
        network was trained on, as its file records it (``zero_sum``, training's default, where
        the file does not say)."""
        settings = self.trained.get("settings") if isinstance(self.trained, dict) else None
        reward = settings.get("reward") if isinstance(settings, dict) else None
        return reward if isinstance(reward, str) else "zero_sum"

    def act_and_value(self, obs: Observation, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`act`'s actions (B,) and, from the same forward pass, the value head's estimate
        (B,) of each acting seat's reward from here to the end of the deal, in the units of
        :attr:`value_reward` as a :class:`hearts_env.Table` pays it (the network's training scale
        undone)."""
        if self.universal is not None:
            view = self.universal
            obs = {
                "observation": view.observation(obs["observation"]),
                "action_mask": view.mask(obs["action_mask"]),
            }
        mask = np.asarray(obs["action_mask"]) > 0
        with torch.inference_mode():
            x = torch.as_tensor(np.asarray(obs["observation"], np.float32), device=self.device)
            x = x.to(self.net.policy.weight.dtype)  # a pooled policy in training may be bfloat16
            m = torch.as_tensor(mask, device=self.device)
            logits, values = self.net(x, m)
            logits, values = logits.float().cpu().numpy(), values.float().cpu().numpy()
        self._last = (logits, mask)
        if not self.greedy:
            logits = logits + rng.gumbel(size=logits.shape)
        chosen = np.argmax(np.where(mask, logits, -np.inf), axis=1)
        actions = self.universal.native_actions[chosen] if self.universal is not None else chosen
        return actions, values.astype(np.float64) / family(self.rules).reward_scale(self.rules)

    def last_options(self) -> np.ndarray | None:
        """The policy's probability of each legal action at the last :meth:`act` (B, A), NaN for
        the illegal ones: the softmax of the masked logits (``greedy`` plays the likeliest)."""
        if self._last is None:
            return None
        logits, mask = self._last
        masked = np.where(mask, logits.astype(np.float64), -np.inf)
        weights = np.exp(masked - masked.max(axis=1, keepdims=True))
        probabilities = np.where(mask, weights / weights.sum(axis=1, keepdims=True), np.nan)
        # A universal network's actions, read back in this game's order.
        return probabilities if self.universal is None else probabilities[:, self.universal.actions]

    def __repr__(self) -> str:
        which = f", {self.network} network" if self.network != "given" else ""
        return f"PPOAgent({self.rules.preset}, {self.rules.num_players} players, {self.checkpoint}{which})"


def _universal(rules: Rules) -> Any:
    from hearts_env.universal import universal_view

    return universal_view(rules)

