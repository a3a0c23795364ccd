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
takes the observation in any format of :mod:`hearts_env.core.formats` (``obs_format="uint8"`` or
``"packed"``: ``observation`` plus ``tail``): the base class turns it into the float32 one
before the agent's own ``act`` sees it.

What an agent can play is declared on its class: :attr:`Agent.games` (the game families) and
:meth:`Agent.supports` (the reason it cannot play a rules set, or None); building an agent for
rules it cannot play is one ``ValueError`` naming the agent, the preset and what it plays. At
every ``act`` the base class checks the observation against the rules the agent was built for
(:func:`check_observation`: the widths of the observation and the mask, one row each, and a
legal action in every row), so another configuration's observation is an error, not an action.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from hearts_env.core.bits import random_legal  # noqa: F401  (agents.base.random_legal, as before)
from hearts_env.core.formats import unpack_numpy
from hearts_env.core.rules import GAMES, Rules
from hearts_env.observation import Layout, layout
from hearts_env.presets import preset_names

Observation = Mapping[str, np.ndarray]


class Agent(ABC):
    """A policy for one rules set: the contract every agent, built-in or your own, follows.

    * **Constructor** ``Agent(rules, **params)``: ``rules`` is the :class:`~hearts_env.core.rules.Rules`
      it plays; keyword-only parameters with defaults are the agent's own settings (a spec's
      ``key=value``, e.g. ``my_agent.py:MyAgent:depth=3``; ``agents.make`` routes them there).
      A subclass calls ``super().__init__(rules)``, which refuses rules it cannot play and sets
      :attr:`rules` and :attr:`layout`.
    * :meth:`act` ``(obs, rng) -> (B,)`` int64: one legal action per row of
      ``{"observation": (B, D) float32, "action_mask": (B, A) int8}`` (and an optional
      ``"slot"``, see the module docstring); ``rng`` is a ``numpy.random.Generator``. The base
      class checks the batch fits the rules and unpacks compact formats first.
    * The observation is read by piece name: :meth:`view` (``self.view(obs, "hand")``:
      ``(B, 52)``; the pieces are listed in :mod:`hearts_env.games.hearts.observation`), the legal actions
      from the mask, never from engine state.
    * What it plays: :attr:`games` (game families) and :meth:`supports` (None, or why not).
    * Optionally, what it made of its options: :meth:`last_options` (a learned agent's
      probabilities, a search agent's values), which a recorded deal keeps to be shown.

    docs/your-agent.md is the guide, with a complete example (``examples/my_agent.py``) and how
    to name your class in ``tournament``, ``play`` and training (``path/to/file.py:Class``,
    ``package.module:Class``, or an entry point of the ``hearts_env.agents`` group)."""

    name: str = "agent"
    """The agent's name in messages; a subclass that does not set it is named by its class."""
    games: ClassVar[tuple[str, ...]] = GAMES
    """The game families (``Rules.game``) this agent plays; :meth:`supports` may narrow them."""
    options_kind: ClassVar[str] = ""
    """What :meth:`last_options` gives: ``"probability"`` (a policy's), ``"value"`` (a search's
    expected reward, higher is better) or ``""`` (the agent says nothing)."""

    def __init__(self, rules: Rules) -> None:
        refusal = self.refusal(rules)
        if refusal is not None:
            raise ValueError(refusal)
        self.rules = rules
        self.layout: Layout = layout(rules)

    @classmethod
    def supports(cls, rules: Rules) -> str | None:
        """None when this agent can play ``rules``; otherwise what it plays (the reason it cannot).

        The base class checks the game family against :attr:`games`; an agent with narrower
        needs (OpenSpiel's one game) extends it."""
        if rules.game in cls.games:
            return None
        families = " and ".join(f"{g.capitalize()}-family" for g in cls.games)
        presets = ", ".join(name for g in cls.games for name in preset_names(g))
        return f"it plays {families} presets only ({presets})"

    @classmethod
    def weight_files(cls, rules: Rules, **params: Any) -> tuple[Path, ...]:
        """The files this agent reads to play ``rules`` with these parameters (a trained policy's
        weights), without building it: a tournament records their digest
        (:func:`agents.weights_digest`), so a resumed record or a leaderboard cell notices when
        the network behind a spec changed. The base class reads none; :class:`agents.ppo.PPOAgent`
        names its checkpoint, :class:`agents.pimc.PIMCAgent` those of its rollout and fallback."""
        del rules, params
        return ()

    @classmethod
    def refusal(cls, rules: Rules) -> str | None:
        """The one-line error for building this agent for ``rules`` (None: it can play them)."""
        reason = cls.supports(rules)
        if reason is None:
            return None
        return f"agent {cls.name!r} cannot play {rules.preset} with {rules.num_players} players: {reason}"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each subclass's ``act`` gets float32 observations whatever format it is called with."""
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            cls.name = cls.__name__
        if "act" in cls.__dict__ and not getattr(cls.__dict__["act"], "__isabstractmethod__", False):
            cls.act = _any_format(cls.__dict__["act"])

    @abstractmethod
    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Legal actions (B,) int64 for a batch ``{"observation": (B, D), "action_mask": (B, A)}``."""

    def last_options(self) -> np.ndarray | None:
        """What the agent made of each action at its last :meth:`act`: (B, A) float64 for that
        batch's rows (see :attr:`options_kind`), NaN for the actions it did not weigh; None when
        it does not say (the base class). Kept from what ``act`` computed anyway: asking costs
        nothing and draws no random numbers, so a tournament that records it plays the same."""
        return None

    def act_one(self, obs: Observation, rng: np.random.Generator) -> int:
        """One action for one unbatched observation (``{"observation": (D,), "action_mask": (A,)}``),
        as the PettingZoo env gives it."""
        batch = {key: np.asarray(value)[None] for key, value in obs.items()}
        return int(self.act(batch, rng)[0])

    def view(self, obs: Observation, name: str) -> np.ndarray:
        """The observation piece ``name`` of a batch, shape ``(B, *piece_shape)``."""
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


def check_observation(obs: Observation, rules: Rules, lay: Layout) -> None:
    """``ValueError`` unless ``obs`` is a batch of observations of ``rules``: the observation
    (or, in a compact format, its words and ``tail``) as wide as the layout says, an action mask
    as wide as ``rules.action_names``, one row each, and a legal action in every row.

    Shape checks and one ``any`` over the mask: cheap beside any agent's ``act``."""
    where = f"{rules.preset} with {rules.num_players} players"
    main, mask = np.asarray(obs["observation"]), np.asarray(obs["action_mask"])
    if "tail" in obs:
        packing, tail = lay.packing, np.asarray(obs["tail"])
        width = packing.words if main.dtype in (np.uint64, np.int64) else packing.bit_count
        ok = main.ndim == 2 and main.shape[1] == width and tail.shape == (len(main), packing.tail)
        shapes = f"{main.shape} with tail {tail.shape}"
        expected = f"(B, {width}) with tail (B, {packing.tail})"
    else:
        ok = main.ndim == 2 and main.shape[1] == lay.size
        shapes, expected = str(main.shape), f"(B, {lay.size})"
    if not ok:
        raise ValueError(
            f"observation of shape {shapes} does not fit {where}: expected {expected} "
            "(another configuration's observation?)"
        )
    actions = len(rules.action_names)
    if mask.shape != (len(main), actions):
        raise ValueError(
            f"action_mask of shape {mask.shape} does not fit {where}: expected ({len(main)}, {actions}), "
            "one row of every action per observation"
        )
    legal = mask.any(axis=1)
    if not legal.all():
        row = int(np.flatnonzero(~legal)[0])
        raise ValueError(f"action_mask row {row} has no legal action ({where}): nothing to play")


def _any_format(act: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    @functools.wraps(act)
    def wrapped(self: Agent, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        check_observation(obs, self.rules, self.layout)
        return act(self, as_float32(obs, self.layout), rng)

    return wrapped


def best_legal(score: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The legal action with the highest score in each row (ties: the lowest index)."""
    return np.argmax(np.where(mask > 0, score, -np.inf), axis=1)
