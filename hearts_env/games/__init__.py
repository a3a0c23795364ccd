"""The game families' registry: the one place that maps ``Rules.game`` to its family's record.

Each family declares its :class:`~hearts_env.core.family.Family` in a module of its own with the real
objects it is built from (:mod:`hearts_env.games.hearts`, :mod:`hearts_env.games.smear`); adding a
family is one such module and one line in :data:`FAMILIES`, or, for a family defined outside the
package (a plugin's, the tests' third family), one call of :func:`register`. The dispatchers that
pick a family's mechanism by rules live here too (:func:`layout`); the modules that define
mechanisms sit below and never ask the registry.
"""

from __future__ import annotations

from functools import lru_cache

from hearts_env.core.family import Family
from hearts_env.core.layouts import Layout
from hearts_env.core.presets import Preset
from hearts_env.core.rules import FAMILY_OPTIONS, Rules
from hearts_env.games import hearts, smear
from hearts_env.games.hearts.presets import PRESETS as HEARTS_PRESETS
from hearts_env.games.smear.presets import PRESETS as SMEAR_PRESETS

FAMILIES: dict[str, Family] = {record.name: record for record in (hearts.FAMILY, smear.FAMILY)}
"""Game family (``Rules.game``) -> its record."""
PRESETS: dict[str, Preset] = {**HEARTS_PRESETS, **SMEAR_PRESETS}
"""Every preset by name: each family's (``hearts_env.games.<family>.presets``), then those that
:func:`register` adds."""
BUILT_IN = tuple(FAMILIES)
"""The package's own families (:func:`unregister` leaves them)."""
FAMILY_OPTIONS.update({record.name: record.options for record in FAMILIES.values()})


def register(record: Family, *presets: Preset) -> None:
    """Add game family ``record`` and its ``presets`` (each with ``game=record.name``): its rules
    then build, and every table, env, tournament and check finds it by ``Rules.game``. Nothing is
    added when a name is taken already or a preset is of another game."""
    if record.name in FAMILIES:
        raise ValueError(f"game family {record.name!r} is registered already: choose another name")
    for preset in presets:
        if preset.name in PRESETS:
            raise ValueError(f"preset {preset.name!r} exists already: choose another name")
        if preset.game != record.name:
            raise ValueError(f"preset {preset.name!r} has game={preset.game!r}, should be {record.name!r}")
    FAMILIES[record.name] = record
    FAMILY_OPTIONS[record.name] = record.options
    PRESETS.update({preset.name: preset for preset in presets})


def unregister(name: str) -> None:
    """Take back game family ``name`` and its presets, as :func:`register` added them (the
    package's own families stay: their modules hold them)."""
    if name not in FAMILIES or name in BUILT_IN:
        known = ", ".join(game for game in FAMILIES if game not in BUILT_IN) or "none"
        raise ValueError(f"game family {name!r} was not registered: registered families are {known}")
    del FAMILIES[name]
    del FAMILY_OPTIONS[name]
    for preset in [preset for preset in PRESETS.values() if preset.game == name]:
        del PRESETS[preset.name]
    layout.cache_clear()  # the family's layouts go with it


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
