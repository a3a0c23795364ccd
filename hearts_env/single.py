"""One learning seat against fixed opponents, as a single-agent ``gymnasium.Env``.

:func:`single_agent_env` is the setting most RL code and Stable-Baselines3 expect: one seat
learns, every other seat is played inside :meth:`SingleSeatEnv.step` by the given agents
(anything with ``act(observation_batch, rng) -> (B,) actions``: :class:`Policy`), or by the
agents registered under the entry-point group :data:`AGENT_GROUP` when they are given by name.
It is a thin driver of a :class:`~hearts_env.table.Table` of one game.

=====================  ======================================================================
Observation            the seat's flat float32 observation (a ``Box``, the same vector and
                       bounds as the PettingZoo env's ``observation_space(agent)["observation"]``)
Action space           ``Discrete(A)``: the card slots, then the rules' named decisions
                       (``env.unwrapped.action_names``)
Action mask            ``info["action_mask"]`` (int8 (A,)) after every ``reset`` and ``step``,
                       and :meth:`SingleSeatEnv.action_masks` (bool (A,)), which
                       ``sb3_contrib.MaskablePPO`` reads; all zero once the episode is over
Reward                 the seat's reward as the PettingZoo env defines it (``reward=``): by
                       default minus the points the seat took in the deal (Hearts family;
                       ``"team"``, minus its side's points, in partnership games), or its side's
                       points (Smear). It is paid by the ``step`` in which the deal ends, whether
                       the seat's own card or an opponent's ended it; every other step pays 0.
                       Unscaled: a Hearts deal pays between -26 and 0 (a shot moon pays 0 to
                       the shooter and -26 to the others)
Episode                one deal (``episode="deal"``: terminated when it ends) or a whole game
                       (``"game"``: the next deal is dealt inside ``step``); never truncated
Infos                  ``action_mask`` always; when a deal ends also ``deal_points`` and
                       ``total_points`` (P,) of every seat, ``game_over`` and ``illegal_action``
=====================  ======================================================================

Opponents act until it is the seat's turn: card plays, passing, bids and every other decision
of every family and preset. ``reset(seed=s)`` seeds the deal and the opponents' random
generator (``env.np_random``), so a seeded episode replays exactly; ``reset()`` without a seed
continues the game with its next deal in deal episodes, as the PettingZoo env does.

An illegal action raises ``ValueError`` (nothing changes), as in the PettingZoo env. With
``illegal_action="terminate"`` the seat forfeits the deal instead (charged the deal's maximum
penalty, the episode ends): what learners that sample without the mask need, and what
``gymnasium.utils.env_checker.check_env`` needs, since it samples ``action_space`` unmasked.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import gymnasium
import numpy as np

from hearts_env import spaces
from hearts_env.core.rules import Rules
from hearts_env.env import action_index
from hearts_env.presets import make_rules
from hearts_env.render import render_text
from hearts_env.table import Table

AGENT_GROUP = "hearts_env.agents"
"""The entry-point group under which agents are registered by name (``name = "module:Class"``,
built as ``Class(rules)``); the project's own agents are declared there in pyproject.toml."""


@runtime_checkable
class Policy(Protocol):
    """What plays an opponent seat, an agent: anything with ``act({"observation": (B, D)
    float32, "action_mask": (B, A) int8}, rng) -> (B,)`` legal actions."""

    def act(self, obs: Mapping[str, np.ndarray], rng: np.random.Generator) -> np.ndarray: ...


class SingleSeatEnv(gymnasium.Env):
    """One learning seat of a Hearts-family or Smear game, the other seats played by fixed
    agents (see the module docstring; build it with :func:`single_agent_env`)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        rules: Rules,
        opponents: dict[int, Policy],
        seat: int = 0,
        reward: str | None = None,
        render_mode: str | None = None,
        episode: str = "deal",
        illegal_action: str = "raise",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = self.metadata["render_modes"]
            raise ValueError(f"render_mode={render_mode!r} is not known: use one of {modes} or None")
        self.rules = rules
        self.seat = seat
        self.opponents = opponents
        """Seat -> the agent that plays it (every seat but :attr:`seat`)."""
        self.render_mode = render_mode
        self.table = Table(rules, 1, reward=reward, episode=episode, illegal_action=illegal_action)
        self.action_names: tuple[str, ...] = rules.action_names
        """One name per action: the card slots, then the decisions."""
        self.observation_space = spaces.observation_space(rules, self.table.observer.layout)["observation"]
        self.action_space = spaces.action_space(rules)
        self._mask = np.zeros(self.action_space.n, np.int8)
        self._playing = False
        self._over = True
        self._deals = 0  # deals started: the opponents' "slot" ids change with each

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode and play the opponents up to the seat's first turn.

        A seed starts a new game from it and reseeds the opponents' generator; without one, a
        deal episode continues the game with its next deal (a new game once one has ended).
        ``options`` are the PettingZoo env's (``hands``, ``dealer``, ``pass_direction``,
        ``new_game``, ``position``; another key is refused). Returns the seat's observation and
        ``{"action_mask": ...}``. A failed reset (a bad seed or option) changes nothing, the
        opponents' generator included."""
        self.table.parse_reset(seed, options)
        super().reset(seed=seed)
        new_game = seed is not None or not self._playing or self.table.episode == "game"
        self.table.reset(seed=seed, options=options, new_game=new_game)
        self._playing, self._over = True, False
        self._deals += 1
        _, info = self._play_opponents()
        if self._over:  # only an opponent's forfeit (illegal_action="terminate") ends a deal this early
            raise RuntimeError(f"an opponent forfeited the deal before seat {self.seat} acted")
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the seat, then the opponents up to its next turn or the end of
        the episode. The reward is what the seat earned meanwhile (see the module docstring)."""
        if not self._playing:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset() to start the next one")
        name = f"seat {self.seat}"
        index = action_index(action, name, int(self.action_space.n))
        try:
            result = self.table.step(np.array([index]))
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
        reward, info = self._after(result)
        more, more_info = self._play_opponents()
        reward += more
        info.update(more_info)
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, info

    def action_masks(self) -> np.ndarray:
        """bool (A,): the seat's legal actions now (all False once the episode is over), the
        method ``sb3_contrib.MaskablePPO`` calls."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """The table as text: returned for ``render_mode="ansi"``, printed for ``"human"``."""
        if not self._playing:
            raise RuntimeError("call reset() before render()")
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self.table, 0)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _observation(self) -> np.ndarray:
        return self.table.observe(np.array([self.seat]))[0].copy()

    def _play_opponents(self) -> tuple[float, dict[str, Any]]:
        """The opponents' decisions up to the seat's turn or the episode's end: the seat's
        reward meanwhile and the infos (the last deal end's, and the seat's mask)."""
        reward, info = 0.0, {}
        table = self.table
        while not self._over and int(table.current_player[0]) != self.seat:
            who = int(table.current_player[0])
            slot = np.array([self._deals * self.rules.num_players + who])
            batch = {"observation": table.observe(), "action_mask": table.action_mask(), "slot": slot}
            action = np.asarray(self.opponents[who].act(batch, self.np_random))
            try:
                result = table.step(action)
            except (TypeError, ValueError) as error:
                raise type(error)(f"opponent at seat {who} ({self.opponents[who]!r}): {error}") from None
            more, more_info = self._after(result)
            reward += more
            info.update(more_info)
        self._mask = np.zeros_like(self._mask) if self._over else table.action_mask()[0].copy()
        info["action_mask"] = self._mask.copy()
        return reward, info

    def _after(self, result: Any) -> tuple[float, dict[str, Any]]:
        """The seat's reward and the deal's infos after one table step; deals the next deal
        when a deal ended inside a game episode."""
        if not result.deal_ended[0]:
            return 0.0, {}
        game = self.table.game_info([0])
        info = {
            "deal_points": game["deal_points"][0].copy(),
            "total_points": game["total_points"][0].copy(),
            "game_over": bool(game["game_over"][0]),
            "illegal_action": bool(result.illegal[0]),
        }
        if result.episode_ended[0]:
            self._over = True
        else:
            self.table.redeal(np.array([0]))
            self._deals += 1
        return float(result.rewards[0, self.seat]), info


def single_agent_env(
    preset: str = "hearts",
    opponents: Any = "random",
    *,
    num_players: int | None = None,
    seat: int = 0,
    seed: int | None = None,
    episode: str = "deal",
    reward: str | None = None,
    illegal_action: str = "raise",
    render_mode: str | None = None,
    **options: Any,
) -> SingleSeatEnv:
    """``preset`` as a single-agent ``gymnasium.Env``: ``seat`` learns, the other seats are
    played by ``opponents`` inside ``step`` (see :mod:`hearts_env.single`).

    ``opponents``: one agent object or registered agent name (``"random"``, ``"strategy"``) for
    every other seat, or a sequence with one per other seat in seat order (the learning seat left
    out). An agent object is anything with ``act({"observation": (B, D) float32, "action_mask":
    (B, A) int8}, rng) -> (B,)`` (:class:`Policy`): an agent with parameters or a class of your
    own is built first and passed as the object. A name is looked up in the entry-point group
    :data:`AGENT_GROUP` and built as ``Class(rules)``. ``seed`` seeds the first ``reset()`` (a later
    ``reset(seed=...)`` seeds again). The env settings, as the PettingZoo env's: ``episode``
    (``"deal"`` or ``"game"``), ``reward`` (``None``: ``"team"`` in partnership games, else
    ``"points"``) and ``illegal_action`` (``"raise"`` or ``"terminate"``).
    ``render_mode``: ``"ansi"`` or ``"human"``. Other ``options`` are rule options
    (docs/rules.md).

    Raises ``ValueError`` (``TypeError`` for a wrong kind of value) naming the bad argument.
    """
    rules = make_rules(preset, num_players=num_players, **options)
    n = rules.num_players
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat 0..{n - 1} of {rules.preset} ({n} players), got {seat!r}")
    others = [s for s in range(n) if s != seat]
    env = SingleSeatEnv(
        rules,
        _opponents(opponents, rules, others),
        int(seat),
        reward=reward,
        render_mode=render_mode,
        episode=episode,
        illegal_action=illegal_action,
    )
    if seed is not None:
        env.reset(seed=seed)
    return env


def _opponents(opponents: Any, rules: Rules, others: list[int]) -> dict[int, Policy]:
    """Seat -> agent for the ``others`` seats from the ``opponents`` argument."""
    where = f"{rules.preset} with {rules.num_players} players"
    if isinstance(opponents, (str, Policy)):
        one = _agent(opponents, rules, "opponents")
        return {s: one for s in others}
    if not isinstance(opponents, Sequence):
        raise TypeError(
            f"opponents must be an agent name, an object with act(observation, rng), or a list "
            f"of {len(others)} of them (one per other seat of {where}), got {type(opponents).__name__} "
            f"{opponents!r}"
        )
    if len(opponents) != len(others):
        raise ValueError(
            f"opponents: {where} has {len(others)} other seats ({', '.join(map(str, others))}), "
            f"got {len(opponents)} agents"
        )
    return {s: _agent(o, rules, f"opponents[{i}]") for i, (s, o) in enumerate(zip(others, opponents))}


def _agent(given: Any, rules: Rules, name: str) -> Policy:
    if isinstance(given, str):
        return _registered(given, rules, name)
    if isinstance(given, type) or not isinstance(given, Policy):
        raise TypeError(
            f"{name} must be an agent name (e.g. 'random') or an object with act(observation, rng) "
            f"(an instance, not a class), got {type(given).__name__} {given!r}"
        )
    return given


def registered_agent(agent_name: str) -> Any:
    """The class registered as ``agent_name`` under the entry-point group :data:`AGENT_GROUP`
    (imported now). An unregistered name is one ``ValueError`` naming it and the registered ones."""
    points = {point.name: point for point in importlib.metadata.entry_points(group=AGENT_GROUP)}
    if agent_name not in points:
        known = ", ".join(sorted(points)) or f"none (no package declares the entry-point group {AGENT_GROUP})"
        raise ValueError(
            f"{agent_name!r} is not a registered agent name: choose one of {known}, or pass an agent "
            "object (one with parameters or of your own class, built first)"
        )
    return points[agent_name].load()


def _registered(agent_name: str, rules: Rules, name: str) -> Policy:
    """The agent registered as ``agent_name``, built for ``rules`` as ``Class(rules)``."""
    try:
        cls = registered_agent(agent_name)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    agent = cls(rules)
    if not isinstance(agent, Policy):
        raise TypeError(f"{name}: the agent registered as {agent_name!r} has no act(observation, rng)")
    return agent
