"""``ppo``: a policy trained by :mod:`training.ppo`, played from a checkpoint.

``agents.make("ppo", preset, num_players, checkpoint=PATH)`` plays the policy file saved at
``PATH`` (``policy.pt`` of a :mod:`training.ppo` run). Without ``checkpoint`` it
plays the checkpoint shipped for that preset and player count, ``checkpoints/<preset>-<n>p.pt``
(standard 4-player Hearts, 3-player Black Maria), or raises ``FileNotFoundError`` naming what
ships. By default it plays the most probable legal card (``greedy=True``); ``greedy=False``
samples from the policy, as in training.

The network, :class:`PolicyValueNet`, lives here rather than in ``training/`` so that playing a
checkpoint needs only torch: a small MLP over the flat observation of
:mod:`hearts_env.observation` with a policy head (one logit per card) and a value head.
Illegal cards get the logit :data:`ILLEGAL_LOGIT`, so their probability is exactly 0.

Policy file (``torch.save`` of a dict, loaded with ``weights_only=True``): ``format``,
``preset``, ``num_players``, ``rules`` (``Rules.describe()``), ``obs_size``, ``num_actions``,
``hidden`` (layer widths), ``model`` (the state dict) and ``trained`` (how it was trained).
"""

from __future__ import annotations

import os
import pickle
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent, Observation
from hearts_env.cards import NUM_STANDARD_CARDS
from hearts_env.rules import Rules

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover - only without the training extra
    raise ImportError(
        "the ppo agent needs torch: pip install 'hearts-env[training]' (or pip install torch)"
    ) from error

FORMAT = "hearts-env-ppo/1"
"""Version tag of the policy file layout."""
ILLEGAL_LOGIT = -1e9
"""Logit given to illegal cards: exp() underflows to exactly 0, yet entropies stay finite."""
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "checkpoints"
"""Where the shipped checkpoints live: ``<preset>-<n>p.pt``."""


def shipped_path(preset: str, num_players: int) -> Path:
    """Path of the shipped checkpoint for ``preset`` with ``num_players`` (it may not exist)."""
    return SHIPPED_DIR / f"{preset}-{num_players}p.pt"


def shipped() -> list[str]:
    """Names (``<preset>-<n>p``) of the checkpoints that ship with the repository."""
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.pt"))


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
        """Masked logits (B, A) and values (B,) for observations (B, D) and a bool mask (B, A)."""
        z = self.trunk(obs)
        logits = self.policy(z).masked_fill(~mask, ILLEGAL_LOGIT)
        return logits, self.value(z).squeeze(-1)


def policy_file(net: PolicyValueNet, rules: Rules, trained: dict[str, Any] | None = None) -> dict[str, Any]:
    """The content of a policy file for ``net`` trained on ``rules`` (see the module docstring)."""
    return {
        "format": FORMAT,
        "preset": rules.preset,
        "num_players": rules.num_players,
        "rules": rules.describe(),
        "obs_size": net.obs_size,
        "num_actions": net.num_actions,
        "hidden": list(net.hidden),
        "model": {k: v.detach().cpu().clone() for k, v in net.state_dict().items()},
        "trained": dict(trained or {}),
    }


def save_atomic(obj: Any, path: str | Path) -> None:
    """``torch.save`` to a temporary file beside ``path``, then rename: a kill never leaves half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    torch.save(obj, partial)
    os.replace(partial, path)


def load_policy(path: str | Path) -> dict[str, Any]:
    """Read a policy file from ``path`` (tensors and plain values only: nothing is unpickled)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no PPO checkpoint at {path}")
    try:
        content = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise ValueError(
            f"{path} holds more than a policy (a training checkpoint?): play the policy.pt beside it"
        ) from None
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise ValueError(f"{path} is not a PPO policy file of format {FORMAT}")
    return content


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

    def __init__(
        self,
        rules: Rules,
        *,
        checkpoint: str | Path | None = None,
        greedy: bool = True,
        device: str = "cpu",
    ) -> None:
        super().__init__(rules)
        if checkpoint is None:
            path = shipped_path(rules.preset, rules.num_players)
            if not path.exists():
                ships = ", ".join(shipped()) or "none"
                raise FileNotFoundError(
                    f"no PPO checkpoint ships for {rules.preset} with {rules.num_players} players "
                    f"(shipped: {ships}); train one with `python -m training.ppo --preset {rules.preset} "
                    f"--num-players {rules.num_players}` and pass checkpoint=PATH"
                )
            checkpoint = path
        self.checkpoint = str(checkpoint)
        content = load_policy(checkpoint)
        self._check(content)
        self.trained = content.get("trained", {})
        self.greedy = greedy
        self.device = torch.device(device)
        self.net = network_from(content).to(self.device)

    @classmethod
    def from_network(cls, rules: Rules, net: PolicyValueNet, greedy: bool = False) -> PPOAgent:
        """An agent playing ``net`` as it is (training uses this for its pool of past policies)."""
        agent = cls.__new__(cls)
        Agent.__init__(agent, rules)
        agent.checkpoint, agent.trained, agent.greedy = "<memory>", {}, greedy
        agent.device = next(net.parameters()).device
        agent.net = net.eval()
        return agent

    def _check(self, content: dict[str, Any]) -> None:
        size, actions = self.layout.size, NUM_STANDARD_CARDS + self.rules.jokers
        if content["num_players"] != self.rules.num_players or content["obs_size"] != size:
            raise ValueError(
                f"checkpoint {self.checkpoint} plays {content['preset']} with {content['num_players']} "
                f"players (observation {content['obs_size']}); these rules have "
                f"{self.rules.num_players} players (observation {size})"
            )
        if content["num_actions"] != actions:
            raise ValueError(
                f"checkpoint {self.checkpoint} has {content['num_actions']} actions, rules {actions}"
            )
        ours = self.rules.describe()
        differ = sorted(
            k for k, v in content["rules"].items() if k != "preset" and _plain(ours.get(k)) != _plain(v)
        )
        if differ:
            warnings.warn(
                f"checkpoint {self.checkpoint} was trained on {content['preset']} rules that differ in "
                f"{', '.join(differ)}; it plays, but was not trained for these rules",
                stacklevel=3,
            )

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Legal actions (B,): argmax of the masked logits, or a Gumbel-max sample from ``rng``."""
        mask = np.asarray(obs["action_mask"]) > 0
        with torch.inference_mode():
            x = torch.as_tensor(np.asarray(obs["observation"], np.float32), device=self.device)
            m = torch.as_tensor(mask, device=self.device)
            logits = self.net(x, m)[0].float().cpu().numpy()
        if not self.greedy:
            logits = logits + rng.gumbel(size=logits.shape)
        return np.argmax(np.where(mask, logits, -np.inf), axis=1)

    def __repr__(self) -> str:
        return f"PPOAgent({self.rules.preset}, {self.rules.num_players} players, {self.checkpoint})"


def _plain(value: Any) -> Any:
    """Tuples as lists, so rules read back from a file compare equal to fresh ones."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
