"""Presets: each variant as data — a named set of values for the rules (``docs/rules.md``).

:class:`Preset` is what every family's presets are made of (``hearts_env.games.<family>.presets``;
the registry, :mod:`hearts_env.games`, collects them); ``make_rules`` (:mod:`hearts_env.presets`)
turns one into :class:`~hearts_env.core.rules.Rules`. The removal tables name the cards taken out
of the deck so that hands are equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

REMOVAL_TABLES: dict[str, dict[int, str]] = {
    # docs/rules.md: cards removed so that every hand is equal, per player count.
    "standard": {3: "2D", 5: "2C 2D", 6: "2C 2D 2S 3C"},
    "arnold": {3: "2C", 5: "2C 2D", 6: "2C 2D 2S 3C"},
    "culbertson": {3: "2C", 5: "2C 2D", 6: "2C 2D 2S 2H", 7: "2C 2D 2S"},
    "foster": {3: "2C", 5: "2C 2S", 6: "2C 2D 2S 2H"},
    "maria": {3: "2C", 5: "2C 2D", 6: "2C 2D 2S 2H"},
    "heartsette": {4: "2S"},  # the other counts keep the whole deck and a larger widow
    "five_point": {  # five-point Smear, 53 cards: 4 players play 3s-8s out, 6 players 3s-5s
        4: " ".join(f"{r}{s}" for r in "345678" for s in "CDHS"),
        6: " ".join(f"{r}{s}" for r in "345" for s in "CDHS"),
    },
    "none": {},
}
REMOVAL_ORDERS: dict[str, str] = {
    # Cards removed in this order, as many as the deck (jokers included) needs for equal hands.
    "joker": "2D 2C 2S 3C 3D 3S",
    "smear": "2C 2D 2H 2S 3C 3D 3H 3S",  # the up-to-8-player Smear game (docs/smear.md)
}


@dataclass(frozen=True)
class Preset:
    """A variant: its family, player range, removal table, option values and alternative readings."""

    name: str
    description: str
    players: tuple[int, int] = (3, 6)
    default_players: int = 4
    removal: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)
    """The values of the common rules and of the family's options that the preset sets; a
    mapping (a table of values) is the base that a reading's, a version's or a call's mapping
    of the same option is merged over."""
    readings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Alternative readings of the sources, each a set of option overrides."""
    per_players: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    """Option values that depend on the player count (e.g. two jokers with three players)."""
    versions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Named versions of the game (``version="B"``), each a set of option overrides."""
    player_counts: tuple[int, ...] = ()
    """The allowed player counts where they are not the whole range ``players`` (five-point
    Smear: 4, 6, 8)."""
    game: str = field(kw_only=True)
    """The game family (``Rules.game``) whose rules the preset sets."""

    @property
    def counts(self) -> tuple[int, ...]:
        """Every player count this preset allows."""
        return self.player_counts or tuple(range(self.players[0], self.players[1] + 1))
