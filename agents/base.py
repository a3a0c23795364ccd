"""The agent protocol: a policy from a batch of observations to card indices.

An agent is built for one rules set (a preset, a player count, options) and answers::

    actions = agent.act({"observation": (B, D) float32, "action_mask": (B, A) int8}, rng)  # (B,)

``rng`` is a ``numpy.random.Generator``; every returned action is legal under the mask.
Agents read the observation only through the named pieces of
:func:`hearts_env.observation.layout` (``hand``, ``current_trick``, ``card_values`` …) and the
mask, never through engine state; the rules they are built for are public knowledge (the deck,
the number of players, whether a moon exists).

The observation dict may carry one more entry, ``"slot"`` (B,) int64: an id, stable through a
deal, of the (game, seat) each row belongs to. Stateless agents ignore it; a stateful agent
(one that remembers the order of the plays, like the OpenSpiel adapter) keeps its memory under
it. Without it every row counts as slot 0, which is right for one game at a time.

With the PettingZoo env (one unbatched observation) use :meth:`Agent.act_one`. Every agent
takes the observation in any format of :mod:`hearts_env.formats` (``obs_format="uint8"`` or
``"packed"``: ``observation`` plus ``tail``): the base class turns it into the float32 one
before the agent's own ``act`` sees it.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from hearts_env.bits import random_legal  # noqa: F401  (agents.base.random_legal, as before)
from hearts_env.formats import unpack_numpy
from hearts_env.observation import Layout, layout
from hearts_env.rules import Rules

Observation = Mapping[str, np.ndarray]


class Agent(ABC):
    """A policy for one rules set. Subclasses implement :meth:`act`; keyword-only constructor
    parameters are the agent's own settings (``agents.make`` routes them there)."""

    name: str = "agent"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.layout: Layout = layout(rules)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each subclass's ``act`` gets float32 observations whatever format it is called with."""
        super().__init_subclass__(**kwargs)
        if "act" in cls.__dict__ and not getattr(cls.__dict__["act"], "__isabstractmethod__", False):
            cls.act = _any_format(cls.__dict__["act"])

    @abstractmethod
    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Legal actions (B,) int64 for a batch ``{"observation": (B, D), "action_mask": (B, A)}``."""

    def act_one(self, obs: Observation, rng: np.random.Generator) -> int:
        """One action for one unbatched observation (``{"observation": (D,), "action_mask": (A,)}``),
        as the PettingZoo env gives it."""
        batch = {key: np.asarray(value)[None] for key, value in obs.items()}
        return int(self.act(batch, rng)[0])

    def view(self, obs: Observation, name: str) -> np.ndarray:
        """The observation piece ``name`` of a batch, shape (B, *piece shape)."""
        return self.layout.view(obs["observation"], name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules.preset}, {self.rules.num_players} players)"


def as_float32(obs: Observation, lay: Layout) -> Observation:
    """``obs`` with its observation as float32 (B, D): compact formats (a ``tail`` entry) are
    unpacked, float32 observations pass unchanged."""
    if "tail" not in obs:
        return obs
    out = {key: value for key, value in obs.items() if key != "tail"}
    out["observation"] = unpack_numpy(obs, lay)
    return out


def _any_format(act: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    @functools.wraps(act)
    def wrapped(self: Agent, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        return act(self, as_float32(obs, self.layout), rng)

    return wrapped


def best_legal(score: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The legal action with the highest score in each row (ties: the lowest index)."""
    return np.argmax(np.where(mask > 0, score, -np.inf), axis=1)
