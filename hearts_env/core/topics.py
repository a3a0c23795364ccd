"""What a family's rules description declares: its topics and the columns of its table by player count.

Each family's module (:mod:`hearts_env.games.hearts.describe`, :mod:`hearts_env.games.smear.describe`)
declares its ``TOPICS`` (label, function) and its ``COLUMNS`` (:class:`Column`) of the
rules reference's table by player count; its :class:`~hearts_env.core.family.Family` record holds
both, and :mod:`hearts_env.describe.sections` reads them through the registry.
What every family says alike is here too: the Actions topic and the card columns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from hearts_env.core.cards import JOKERS
from hearts_env.core.prose import code, plural, symbols
from hearts_env.core.rules import Rules

Topic = tuple[str, Callable[[Rules], str | None]]
"""A topic of the description: its label, and the sentences it says of rules (None: it does not apply)."""


class Column(NamedTuple):
    """A column of a preset's table by player count: one cell per count."""

    title: str
    cell: Callable[[Rules], str]
    """The cell for the rules at one player count."""
    always: bool = False
    """Shown even when every count has the same cell (otherwise only when the cells differ)."""


def actions(r: Rules) -> str:
    """The Actions topic, alike in every family: the action slots and the decision phases."""
    cards = f"{code('2C')} … {code('AS')}"
    if r.jokers:
        cards += ", " + ", ".join(code(f"JK{j - 51}") for j in JOKERS[: r.jokers])
    text = f"{len(r.action_names)} actions: the {plural(r.card_slots, 'card')} ({cards})"
    names = list(r.decisions)
    bids = [d for d in names if d.startswith("bid:")]
    shown = [code(d) for d in names if not d.startswith("bid:")]
    if bids:
        shown.insert(names.index(bids[0]), f"{code(bids[0])} … {code(bids[-1])}")
    if shown:
        text += ", then " + ", ".join(shown)
    phases = [p for p in r.phases if p not in ("passing", "playing")]
    if phases:
        text += f" (decision phases: {', '.join(code(p) for p in phases)})"
    return text + "."


CARDS_REMOVED = Column("cards removed", lambda r: symbols(r.removed) or "—", always=True)
"""The column of the cards taken out of the deck, alike in every family."""
CARDS_EACH = Column("cards each", lambda r: str(r.hand_size), always=True)
"""The column of the hand size, alike in every family."""
