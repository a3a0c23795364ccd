"""The PettingZoo AEC environment: a thin view of a :class:`~hearts_env.table.Table` of one game.

=====================  ======================================================================
Agents                 ``player_0`` … ``player_{n-1}``, in seat order (seat i+1 is on i's left)
Action space           ``Discrete(A)``: the card slots (52; 53 or 54 with jokers), a card's
                       index (``hearts_env.core.cards``), then the variant's named decisions
                       (bids, declarations, the penalty suit, the moon choice):
                       ``env.unwrapped.action_names``
Observation            ``{"observation": float32 (D,), "action_mask": int8 (A,)}``; the layout
                       of ``observation`` is in :mod:`hearts_env.games.hearts.observation` (Smear's in
                       :mod:`hearts_env.games.smear.observation`). With
                       ``action_mask="info"`` the observation is the float32 array alone (a
                       ``Box``, for wrappers that refuse a ``Dict``). Either way
                       ``infos[agent]["action_mask"]`` holds each agent's mask (all zero
                       unless it acts), as AgileRL and some others expect
Passing                ``pass_count`` single-card decisions per seat, seat by seat from eldest
                       hand; the mask shows the cards not yet chosen; cards change hands after
                       every seat has chosen
Reward                 at the end of each deal, minus the deal's points (``reward="zero_sum"``:
                       the other players' mean points minus one's own; ``"chips"``: settlement)
Episode                one deal (default) or one game (``episode="game"``, an env setting
                       like ``reward``, not a rule option)
Infos                  when a deal ends: ``deal_points``, ``total_points``, ``game_over``,
                       ``cancelled`` and ``illegal_action`` for every agent, ``chips``
                       where the rules have a settlement (``settlement`` other than points),
                       and the family's own outcome under its name where it has one
                       (``infos[agent]["smear"]``: the contract and the categories)
Layout                 ``layout="native"`` (default): the configuration's own observation and
                       actions; ``"universal"``: the game family's universal observation and
                       action vocabulary (:mod:`hearts_env.universal`), the same spaces for
                       every preset and player count of the family
Illegal actions        ``illegal_action="raise"`` (default): ``ValueError`` naming the agent,
                       the card and why, nothing changes; ``"terminate"``: the offender is
                       charged the deal's maximum penalty and the episode ends (PettingZoo's
                       TerminateIllegal convention, for learners that sample unmasked); an
                       env setting, not a rule option
=====================  ======================================================================

Resetting: ``reset(seed=...)`` starts a new game from that seed. Without a seed, in deal
episodes (the default) ``reset()`` *continues the game* with its next deal (dealer and pass
direction move on; a new game starts once one has ended); in game episodes it starts a new
game. ``reset(options={"new_game": True})`` always starts a new game. ``reset(options={"hands":
[...], "dealer": 0, "pass_direction": "left"})`` plays a given deal, ``reset(options={"position":
...})`` starts from a position (docs/positions-and-search.md). An option key other than those
(``hearts_env.table.RESET_OPTIONS``) is refused with the list of keys; ``"options"`` alone is
accepted and ignored, since PettingZoo's ``api_test`` passes ``{"options": 1}``. A failed reset (a
bad option) changes nothing: the game, what the env shows and the random generator are as they
were, and it plays on.

Actions are ints (Python ints, numpy integer scalars or 0-d integer arrays): a ``bool``, a
float (even ``3.0``), a string or a list is a ``TypeError``, a number out of range or an
illegal card a ``ValueError``, each naming the agent and the value; the state is unchanged.

Version history: v0 — first release.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from hearts_env import spaces
from hearts_env.games import family
from hearts_env.presets import make_rules
from hearts_env.render import render_text
from hearts_env.table import Table
from hearts_env.universal import UniversalView, check_layout, universal_space, universal_view


def action_index(action: Any, agent: str, num_actions: int) -> int:
    """``action`` as a plain int card index for ``agent``, or a ``TypeError`` / ``ValueError``
    that names the agent and the value (never a truncation: 3.7 is not 3)."""
    value = action
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise TypeError(f"{agent}: an action is one int, got an array of shape {value.shape}: {action!r}")
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if isinstance(action, np.ndarray):
            got = f"a 0-d {action.dtype} array holding {action.item()!r}"
        else:
            got = f"{type(action).__name__} {action!r}"
        raise TypeError(f"{agent}: an action is an int card index 0..{num_actions - 1}, got {got}")
    index = int(value)
    if not 0 <= index < num_actions:
        raise ValueError(f"{agent}: action {index} is out of range 0..{num_actions - 1}")
    return index


class raw_env(AECEnv):  # noqa: N801 — PettingZoo's naming convention
    """One Hearts-family game as a PettingZoo AEC environment (see the module docstring).

    ``reward``, ``episode`` and ``illegal_action`` are the env's settings, given to its
    :class:`~hearts_env.table.Table`; the other ``options`` are the game's rules (``make_rules``)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "hearts_v0", "is_parallelizable": False}

    def __init__(
        self,
        preset: str = "hearts",
        render_mode: str | None = None,
        reward: str | None = None,
        action_mask: str = "observation",
        layout: str = "native",
        episode: str = "deal",
        illegal_action: str = "raise",
        **options: Any,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = self.metadata["render_modes"]
            raise ValueError(f"render_mode={render_mode!r} is not known: use one of {modes} or None")
        if action_mask not in ("observation", "info"):
            raise ValueError(
                f"action_mask must be 'observation' (a dict observation) or 'info' (a Box observation, "
                f"the mask in infos), got {action_mask!r}"
            )
        self.mask_in_info = action_mask == "info"
        self.rules = make_rules(preset, **options)
        self.table = Table(self.rules, 1, reward=reward, episode=episode, illegal_action=illegal_action)
        self.render_mode = render_mode
        n = self.rules.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self.universal: UniversalView | None = (
            universal_view(self.rules) if check_layout(layout) == "universal" else None
        )
        """With ``layout="universal"``: the conversion to the family's vocabulary (None otherwise)."""
        self.layout = self.universal.vocabulary.layout if self.universal else self.table.observer.layout
        self.action_names: tuple[str, ...] = (
            self.universal.vocabulary.actions if self.universal else self.rules.action_names
        )
        """One name per action: the card slots (``"2C"`` … ``"AS"``, jokers), then the decisions
        (with ``layout="universal"``, every decision of the family)."""
        self.num_actions = len(self.action_names)
        self.teams: tuple[tuple[int, ...], ...] = self.rules.teams or tuple((i,) for i in range(n))
        """The partnerships as seat tuples (singletons where there are none)."""
        if self.universal:
            space = universal_space(self.universal.vocabulary, mask=not self.mask_in_info)
        else:
            space = spaces.observation_space(self.rules, self.layout)
            if self.mask_in_info:
                space = space["observation"]
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._playing = False
        self._closed = False
        self._mask = np.zeros(self.num_actions, np.int8)  # the acting agent's, this step

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """The action space of ``agent``: card indices."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a deal: a new game with a seed, in game episodes or with ``options={"new_game":
        True}``; otherwise (deal episodes) the game's next deal. Nothing changes if it fails."""
        self._check_open()
        new_game = seed is not None or not self._playing or self.table.episode == "game"
        self.table.reset(seed=seed, options=options, new_game=new_game)
        self._playing = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._acting_agent()
        self._write_masks()
        if self.render_mode == "human":
            self.render()

    def _write_masks(self) -> None:
        """Every agent's ``infos[agent]["action_mask"]``: the acting agent's mask, zeros elsewhere."""
        zeros = np.zeros(self.num_actions, np.int8)
        acting = self.agent_selection if self.agents and not self.terminations[self.agent_selection] else None
        if acting is None:
            self._mask = zeros
        else:  # once a step
            mask = self.table.action_mask()
            self._mask = (self.universal.mask(mask) if self.universal else mask)[0]
        for agent in self.agents:
            self.infos[agent]["action_mask"] = self._mask.copy() if agent == acting else zeros

    def _acting_agent(self) -> str:
        return self.possible_agents[int(self.table.current_player[0])]

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this env is closed: make a new one with hearts_env.env(...)")

    def _check_started(self, what: str) -> None:
        self._check_open()
        if not self._playing:
            raise RuntimeError(f"call reset() before {what}()")

    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        """``{"observation", "action_mask"}`` for ``agent``; the mask is all zero unless it acts
        (``action_mask="info"``: the observation array alone, the mask in ``infos``)."""
        self._check_started("observe")
        if agent not in self._seat:
            raise KeyError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        seat = self._seat[agent]
        observation = self.table.observe(np.array([seat]))[0]
        if self.universal:
            observation = self.universal.observation(observation)
        if self.mask_in_info:
            return observation
        acting = self.agents and agent == self.agent_selection and not self.terminations[agent]
        mask = self._mask.copy() if acting else np.zeros(self.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` (a card index) for the acting agent (``None`` for a finished agent)."""
        self._check_started("step")
        if not self.agents:
            raise RuntimeError("every agent is done: call reset() to start the next episode")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done: its only action is None, got {action!r}")
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} must play a card; None is only for finished agents")
        card = action_index(action, agent, self.num_actions)
        if self.universal:
            try:
                card = int(self.universal.action(card))
            except ValueError as error:
                raise ValueError(f"{agent}: {error}") from None
        try:
            result = self.table.step(np.array([card]))
        except ValueError as error:
            raise ValueError(f"{agent}: {error}") from None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if result.deal_ended[0]:
            info = self.table.game_info([0])
            settles = self.rules.pays_chips
            record = family(self.rules)
            outcome = None if record.deal_outcome is None else record.deal_outcome(self.rules, info)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(result.rewards[0, i])
                self.infos[a] = {
                    "deal_points": int(info["deal_points"][0, i]),
                    "total_points": int(info["total_points"][0, i]),
                    "game_over": bool(info["game_over"][0]),
                    "cancelled": bool(info["cancelled"][0]),
                    "team_points": int(info["team_points"][0, i]),
                    "illegal_action": bool(result.illegal[0]),
                }
                if settles:
                    self.infos[a]["chips"] = float(info["chips"][0, i])
                if outcome is not None:  # the family's own (Smear: the contract and the categories)
                    self.infos[a][record.name] = outcome
            if result.episode_ended[0]:
                self.terminations = {a: True for a in self.agents}
            else:
                self.table.redeal(np.array([0]))
        if not result.episode_ended[0]:
            self.agent_selection = self._acting_agent()
        self._write_masks()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self, mode: str | None = None) -> str | None:
        """The table as text (printed for ``"human"``, returned for ``"ansi"``). ``mode``
        overrides ``render_mode`` for this call (some libraries, RLlib's ``PettingZooEnv``, pass it)."""
        self._check_started("render")
        mode = self.render_mode if mode is None else mode
        if mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        if mode not in self.metadata["render_modes"]:
            raise ValueError(f"render mode {mode!r} is not known: use one of {self.metadata['render_modes']}")
        text = render_text(self.table, 0)
        if mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Close the env: later calls raise ``RuntimeError``."""
        self._closed = True


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing, with ``RuntimeError`` (not ``AssertionError``, which
    ``python -O`` removes) for calls before ``reset()`` and a step after every agent is done."""

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        self._has_updated = True
        self.env.step(action)

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            raise RuntimeError("call reset() before observe()")
        return self.env.observe(agent)

    def render(self, *args: Any) -> Any:
        if not self._has_reset:
            raise RuntimeError("call reset() before render()")
        return self.env.render(*args)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            raise RuntimeError("call reset() before agent_iter()")
        return super().agent_iter(max_iter)


def env(preset: str = "hearts", render_mode: str | None = None, **options: Any) -> AECEnv:
    """``preset`` as a PettingZoo AEC env, with order enforcing. Keyword arguments: the env
    settings ``reward``, ``episode``, ``illegal_action`` (:class:`~hearts_env.table.Table`),
    ``action_mask`` and ``layout``; any other is a rule option (docs/rules.md). Actions are checked
    by the env itself (see the module docstring): no bare assertions."""
    wrapped: AECEnv = raw_env(preset, render_mode=render_mode, **options)
    return _OrderEnforcing(wrapped)


def parallel_env(preset: str = "hearts", render_mode: str | None = None, **options: Any) -> ParallelEnv:
    """``preset`` as a PettingZoo ``ParallelEnv``: every agent gets an observation each step,
    only the acting agent's action counts (the others' masks are all zero; send them any legal
    placeholder, e.g. 0). This is PettingZoo's ``turn_based_aec_to_parallel`` over :func:`env`:
    a turn-based game cannot be ``aec_to_parallel``-converted. Vectorise it with SuperSuit
    (``examples/supersuit_parallel.py``)."""
    return turn_based_aec_to_parallel(env(preset, render_mode=render_mode, **options))
