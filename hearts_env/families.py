"""The game families, each declared once: the one place that names a family (``Rules.game``).

A :class:`Family` says what a family is made of (engine, observer, layout, bounds, renderer,
rules description topics and table columns), which way its rewards are better, the scale that
makes a deal's rewards of order 1.
:func:`family` looks a record up by rules; everything else asks the record instead of comparing
``rules.game``.

The mechanisms are named by import path (``"module:attribute"``) and imported on use: the
modules that ask this record are the ones that define them, so naming them here with import
statements would be an import circle.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from hearts_env.rules import Rules


@dataclass(frozen=True)
class Family:
    """One game family: what it is built from, and its conventions."""

    name: str
    """``Rules.game``."""
    title: str
    """The family's name in prose."""
    engine: str
    """``module:class`` of the engine (built from the rules)."""
    observer: str
    """``module:class`` of the observation builder (built from the engine)."""
    layout: str
    """``module:function``: rules -> the observation :class:`~hearts_env.layouts.Layout`."""
    bounds: str
    """``module:function``: (rules, layout) -> (low, high) of the flat observation."""
    renderer: str
    """``module:function``: (table, game) -> the text of one game."""
    topics: str
    """``module:attribute``: the (label, function) pairs that describe the rules by topic."""
    deal_info: str | None
    """``module:Class.method``: (table, rows) -> the family's own end-of-deal infos (None: none)."""
    rules_doc: str | None
    """The page in ``docs/`` that gives the precise reading of every rule (None: the presets' own)."""
    better: Literal["lower", "higher"]
    """Which way a player's points are better."""
    chips: bool
    """Whether a settlement may pay chips (``reward="chips"``)."""
    scale_points: Callable[[Rules], int]
    """The points at stake in a deal: a deal's rewards are divided by them in training."""
    columns: str
    """``module:attribute``: the columns (:class:`~hearts_env.describe.topics.Column`) of a
    preset's table by player count in the rules reference."""
    piece_axes: str = ""
    """``module:attribute``: what each axis of each observation piece runs over (the universal
    layout, :mod:`hearts_env.universal`)."""
    axis_names: str = ""
    """``module:function``: rules -> the names along each named axis of ``piece_axes``."""
    knowledge: str | None = None
    """``module:function``: (rules, observation) -> the world sampler's
    :class:`~hearts_env.worlds.Knowledge` (None: :func:`hearts_env.worlds.knowledge` reads it)."""

    def build(self, rules: Rules) -> tuple[Any, Any]:
        """The engine and the observation builder for ``rules``."""
        engine = _load(self.engine)(rules)
        return engine, _load(self.observer)(engine)

    def load(self, part: str) -> Any:
        """The object that field ``part`` (``"layout"``, ``"bounds"``, …) names, imported."""
        return _load(getattr(self, part))

    def reward_scale(self, rules: Rules) -> float:
        """The factor that makes a deal's rewards of order 1."""
        return 1.0 / max(1, self.scale_points(rules))


def _load(path: str) -> Any:
    module, attributes = path.split(":")
    found = importlib.import_module(module)
    for attribute in attributes.split("."):
        found = getattr(found, attribute)
    return found


FAMILIES: dict[str, Family] = {
    "hearts": Family(
        name="hearts",
        title="Hearts",
        engine="hearts_env.engine:Engine",
        observer="hearts_env.observation:Observer",
        layout="hearts_env.observation:hearts_layout",
        bounds="hearts_env.spaces:hearts_bounds",
        renderer="hearts_env.render:hearts_text",
        topics="hearts_env.describe.hearts:TOPICS",
        deal_info=None,
        rules_doc=None,
        better="lower",
        chips=True,
        scale_points=lambda rules: rules.penalty_total,
        columns="hearts_env.describe.hearts:COLUMNS",
        piece_axes="hearts_env.observation:PIECE_AXES",
        axis_names="hearts_env.observation:axis_names",
    ),
    "smear": Family(
        name="smear",
        title="Smear",
        engine="hearts_env.smear:SmearEngine",
        observer="hearts_env.smear_observation:SmearObserver",
        layout="hearts_env.smear_observation:smear_layout",
        bounds="hearts_env.smear_observation:smear_bounds",
        renderer="hearts_env.render:smear_text",
        topics="hearts_env.describe.smear:TOPICS",
        deal_info="hearts_env.table:Table._smear_info",
        rules_doc="smear.md",
        better="higher",
        chips=False,
        scale_points=lambda rules: rules.smear_points,
        columns="hearts_env.describe.smear:COLUMNS",
        piece_axes="hearts_env.smear_observation:PIECE_AXES",
        axis_names="hearts_env.smear_observation:axis_names",
        knowledge="hearts_env.smear_worlds:knowledge",
    ),
}
"""Game family (``Rules.game``) -> its record."""


def family_of(game: str) -> Family:
    """The record of game family ``game`` (``"hearts"`` or ``"smear"``, i.e. ``rules.game``)."""
    try:
        return FAMILIES[game]
    except KeyError:
        known = ", ".join(FAMILIES)
        raise ValueError(f"unknown game family {game!r}: choose one of {known}") from None


def family(rules: Rules) -> Family:
    """The record of ``rules``' game family."""
    return family_of(rules.game)
