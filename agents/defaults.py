"""The agents each game family uses when a command names none, keyed by family name (``Rules.game``).

Training (its league, teacher and periodic evaluation), tournaments, ``play`` and the search
agents' rollouts read them through :func:`family_defaults`; the engine knows none of them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FamilyDefaults:
    """The agents a game family uses when a command names none (agent specs, see
    :func:`agents.parse_spec`)."""

    heuristic: str
    """The family's best heuristic: the default opponent of ``play``."""
    teacher: str
    """The imitation teacher of training (``--imitation-decisions``)."""
    opponents: tuple[str, ...]
    """The training league's heuristic opponents."""
    eval_opponents: tuple[str, ...]
    """The opponents of training's periodic evaluation."""
    tournament: tuple[str, ...]
    """The agents of a tournament."""


FAMILY_DEFAULTS: dict[str, FamilyDefaults] = {
    "hearts": FamilyDefaults(
        heuristic="strategy",
        teacher="strategy",
        opponents=("strategy", "ducker"),
        eval_opponents=("strategy", "random"),
        tournament=("strategy", "ducker", "lowest", "random"),
    ),
    "smear": FamilyDefaults(
        heuristic="smear",
        teacher="smear",
        opponents=("smear", "lowest", "random"),
        eval_opponents=("smear", "random"),
        tournament=("smear", "lowest", "random"),
    ),
}
"""Game family (``Rules.game``) -> its default agents."""


def family_defaults(game: str) -> FamilyDefaults:
    """The default agents of game family ``game`` (``rules.game``); ``ValueError`` naming the
    family and the known ones otherwise."""
    try:
        return FAMILY_DEFAULTS[game]
    except KeyError:
        known = ", ".join(FAMILY_DEFAULTS)
        raise ValueError(f"unknown game family {game!r}: choose one of {known}") from None
