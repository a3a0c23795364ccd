"""What a game family is made of: the :class:`Family` record each family declares with its own
objects (``hearts_env.games.hearts.family``, ``hearts_env.games.smear.family``), and that the registry
(:mod:`hearts_env.games`) looks up by ``Rules.game``.

This module sits below every family: it names no family and imports none of their code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from hearts_env.core.layouts import Layout
from hearts_env.core.rules import Options, Rules

if TYPE_CHECKING:
    from hearts_env.core.engine import BatchState, CardEngine


@dataclass(frozen=True)
class Positions:
    """How a family's positions (a deal in its play phase: hands, the trick, what was taken;
    docs/positions-and-search.md) start a table, are checked, are read back and are built from
    sampled worlds."""

    batch: type
    """The class of a batch of positions (``len``, ``take``, ``concat``), one row per game."""
    check: Callable[[Rules, Any], None]
    """(rules, batch) -> None, or ``TypeError`` / ``ValueError`` naming the first inconsistency."""
    read: Callable[[Any, Any, int], Any]
    """(engine, state, game) -> the position of ``game`` now, as :meth:`Table.position` gives it."""
    single: Callable[[Rules, Any], Any] | None
    """(rules, one position) -> it checked, as a batch of one: for a family whose one position has
    a form of its own besides the batch (None: batches only)."""
    worlds: Callable[[Rules, np.ndarray, Any, np.random.Generator], Any]
    """(rules, observation, worlds, rng) -> sampled worlds (:func:`hearts_env.worlds.sample_worlds`)
    as a batch of positions, seats relative to the observer (search agents start tables there)."""


@dataclass(frozen=True)
class Family:
    """One game family: what it is built from, and its conventions."""

    name: str
    """``Rules.game``."""
    title: str
    """The family's name in prose."""
    options: type[Options]
    """The family's options record (``Rules.options``): its fields, checks and derived facts."""
    engine: type[CardEngine]
    """The engine class (built from the rules)."""
    observer: Callable[[Any], Any]
    """The observation builder class (built from the engine)."""
    layout: Callable[[Rules], Layout]
    """Rules -> the observation :class:`~hearts_env.core.layouts.Layout`."""
    bounds: Callable[[Rules, Layout], tuple[np.ndarray, np.ndarray]]
    """(rules, layout) -> (low, high) of the flat observation."""
    renderer: Callable[[Any, Rules, int], str]
    """(state, rules, game) -> the text of one game of the batch state."""
    topics: Sequence[tuple[str, Callable[[Rules], str | None]]]
    """The (label, function) pairs that describe the rules by topic."""
    columns: Sequence[Any]
    """The columns (:class:`~hearts_env.core.topics.Column`) of a preset's table by player
    count in the rules reference."""
    piece_axes: Mapping[str, tuple[str, ...]]
    """What each axis of each observation piece runs over (the universal layout,
    :mod:`hearts_env.universal`)."""
    axis_names: Callable[[Rules], dict[str, tuple[str, ...]]]
    """Rules -> the names along each named axis of ``piece_axes``."""
    knowledge: Callable[[Rules, np.ndarray], Any]
    """(rules, observation) -> what the observation fixes about the hidden cards (the world
    sampler's :class:`~hearts_env.worlds.Knowledge`)."""
    deal_info: Callable[[BatchState, Any], dict[str, np.ndarray]] | None
    """(state, rows) -> the family's own end-of-deal infos of ``rows`` (None: none)."""
    rules_doc: str | None
    """The page in ``docs/`` that gives the precise reading of every rule (None: the presets' own)."""
    better: Literal["lower", "higher"]
    """Which way a player's points are better."""
    chips: bool
    """Whether a settlement may pay chips (``reward="chips"``)."""
    scale_points: Callable[[Rules], int]
    """The points at stake in a deal: a deal's rewards are divided by them in training."""
    positions: Positions | None = None
    """How the family's positions start, are checked and are read (None: its tables start only
    from deals)."""
    rollouts: tuple[str, ...] = ()
    """The rollout players its engine plays itself (:meth:`Table.play_out`, names of
    :data:`hearts_env.games.hearts.rollouts.ROLLOUTS`); empty: search agents roll out with agents."""
    points_piece: tuple[str, float, str] | None = None
    """The observation piece that counts each seat's points taken so far: (its name, the scale
    its values are multiplied by, what the points are called), e.g. ``("points_taken", 1/26,
    "points")``; a deal viewer reads the points of each trick from it (None: no such piece)."""
    deal_outcome: Callable[[Rules, Mapping[str, np.ndarray]], dict[str, Any]] | None = None
    """(rules, :meth:`Table.game_info` of one game) -> the family's own outcome of the deal in
    plain values, which the PettingZoo env gives every agent's infos under the family's
    :attr:`name` when a deal ends (None: none)."""

    def build(self, rules: Rules) -> tuple[CardEngine, Any]:
        """The engine and the observation builder for ``rules``."""
        engine = self.engine(rules)
        return engine, self.observer(engine)

    def reward_scale(self, rules: Rules) -> float:
        """The factor that makes a deal's rewards of order 1."""
        return 1.0 / max(1, self.scale_points(rules))


def default_reward(rules: Rules) -> str:
    """The reward a table pays when none is asked for: ``"team"`` in partnership games (fixed
    teams, or a pair a bid makes: Partnership C's slam), else ``"points"``."""
    return "team" if rules.teams or rules.bid_partnership else "points"
