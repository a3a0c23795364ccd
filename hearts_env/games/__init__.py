"""The game families' registry: the one place that maps ``Rules.game`` to its family's record.

Each family declares its :class:`~hearts_env.family.Family` in a module of its own with the real
objects it is built from (:mod:`hearts_env.games.hearts`, :mod:`hearts_env.games.smear`); adding a
family is one such module and one line in :data:`FAMILIES`. The dispatchers that pick a family's
mechanism by rules live here too (:func:`layout`); the modules that define mechanisms sit below
and never ask the registry.
"""

from __future__ import annotations

from functools import lru_cache

from hearts_env.family import Family
from hearts_env.games import hearts, smear
from hearts_env.layouts import Layout
from hearts_env.rules import Rules

FAMILIES: dict[str, Family] = {record.name: record for record in (hearts.FAMILY, smear.FAMILY)}
"""Game family (``Rules.game``) -> its record."""


def family_of(game: str) -> Family:
    """The record of game family ``game`` (``rules.game``)."""
    try:
        return FAMILIES[game]
    except KeyError:
        known = ", ".join(FAMILIES)
        raise ValueError(f"unknown game family {game!r}: choose one of {known}") from None


def family(rules: Rules) -> Family:
    """The record of ``rules``' game family."""
    return family_of(rules.game)


@lru_cache(maxsize=256)
def layout(rules: Rules) -> Layout:
    """The observation layout for ``rules`` (depends on player count and card slots; built
    once per rules set: a :class:`Layout` is frozen), its family's.

    The 0/1 pieces come first (they are unpacked from one bit stream), the real-valued last.
    """
    return family(rules).layout(rules)
