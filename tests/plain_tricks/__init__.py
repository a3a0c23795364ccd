"""Plain tricks: a third game family defined outside the package, the proof that a family is one
folder plus one registration (``hearts_env.games.register(FAMILY, PRESET)``).

The game: a 52-card deck (cards removed so that hands are equal, as the Hearts presets do), 3-6
players, no passing, eldest hand leads, follow suit, the highest card of the suit led wins the
trick and leads the next; one point a trick, higher is better, one deal a game. A seat that
plays illegally under ``illegal_action="terminate"`` scores minus every trick of the deal.

What it reuses: the trick play of the Hearts family's engine (with no card points, no pass and
no restriction on leads it is exactly plain trick-taking), its observation and world sampler.
What is its own: the options record (:class:`PlainTricksOptions`: the Hearts family's options
with plain defaults, the ones trick play does not read refused), the rules (a preset of
``game="plain_tricks"``), the scoring, the text, the rules prose and the family record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from hearts_env.core.family import Family
from hearts_env.core.phases import DONE
from hearts_env.core.presets import Preset
from hearts_env.core.rules import Rules
from hearts_env.core.texts import hand_text
from hearts_env.core.topics import CARDS_EACH, CARDS_REMOVED
from hearts_env.games import hearts
from hearts_env.games.hearts.engine import Engine
from hearts_env.games.hearts.observation import PIECE_AXES, Observer, axis_names, hearts_bounds, hearts_layout
from hearts_env.games.hearts.options import HeartsOptions
from hearts_env.games.hearts.state import State
from hearts_env.games.hearts.worlds import knowledge as hearts_knowledge

GAME = "plain_tricks"
"""``Rules.game`` of the family."""


@dataclass(frozen=True)
class PlainTricksOptions(HeartsOptions):
    """The family's options: those of the Hearts family's engine that plays its tricks, with
    plain defaults (no pass, no card points, no moon, eldest hand leads); only who leads first
    and a kitty may be chosen, the others cannot matter to a game of one point a trick."""

    title: ClassVar[str] = "Plain tricks"
    chosen: ClassVar[tuple[str, ...]] = ("leftover", "widow", "first_lead")
    """The options this family lets a preset or a call choose."""

    pass_count: int = 0
    pass_directions: tuple[str, ...] = ("hold",)
    first_lead: str = "eldest"
    hearts_break: str = "free"
    no_points_first_trick: bool = False
    card_points: tuple[int, ...] = field(default_factory=lambda: (0,) * 54)
    moon: str = "none"

    @classmethod
    def idle(cls, values: Mapping[str, Any]) -> dict[str, str]:
        """Every option but :attr:`chosen`: plain tricks pass nothing and score one point a trick."""
        why = "plain tricks pass nothing and score one point a trick"
        return {name: why for name in cls.names() if name not in cls.chosen}


class PlainTricksEngine(Engine):
    """Trick play as the Hearts family's engine plays it without card points; its own scoring."""

    games: ClassVar[tuple[str, ...]] = (GAME,)

    def end_deal(self, s: State, rows: np.ndarray, forfeit: np.ndarray | None = None) -> None:
        """Score one point a trick won in games ``rows`` and end their deals (and games, at
        ``max_deals`` or ``target_score``); ``forfeit`` (a seat a row) scores minus every trick."""
        points = s.tricks_won[rows].copy()
        if forfeit is not None:
            points[np.arange(len(rows)), forfeit] = -self.hand_size
        s.deal_points[rows] = points
        s.team_points[rows] = points
        s.moon_shooter[rows] = -1
        s.chips[rows] = 0.0
        s.totals[rows] += points
        over = (s.totals[rows] >= self.rules.target_score).any(axis=1)
        if self.rules.max_deals is not None:
            over |= s.deal_index[rows] + 1 >= self.rules.max_deals
        s.game_over[rows] = over
        s.phase[rows] = DONE
        s.lockstep = s.all_playing = False


def plain_text(s: State, rules: Rules, game: int = 0) -> str:
    """Game ``game`` of the batch state ``s``: each seat's hand, tricks and total."""
    g, n = game, rules.num_players
    where = "deal over" if s.phase[g] == DONE else f"trick {int(s.trick_number[g]) + 1}"
    lines = [f"{rules.preset} ({n} players): deal {int(s.deal_index[g]) + 1}, {where}"]
    for seat in range(n):
        marker = "▶" if s.phase[g] != DONE and s.current[g] == seat else " "
        lines.append(
            f"{marker} player_{seat} {hand_text(int(s.hands[g, seat])):<48} "
            f"tricks {int(s.tricks_won[g, seat]):>2}  total {int(s.totals[g, seat]):>3}"
        )
    return "\n".join(lines)


TOPICS = (
    ("Players and cards", lambda r: f"{r.num_players} players, {r.hand_size} cards each, no passing."),
    ("Play", lambda r: "Eldest hand leads; follow suit; the highest card of the suit led wins the trick."),
    ("Scoring", lambda r: "One point a trick; the most points win; one deal a game."),
)
"""The rules in prose, by topic."""

FAMILY = Family(
    name=GAME,
    title="Plain tricks",
    options=PlainTricksOptions,
    engine=PlainTricksEngine,
    observer=Observer,
    layout=hearts_layout,
    bounds=hearts_bounds,
    renderer=plain_text,
    topics=TOPICS,
    columns=(CARDS_REMOVED, CARDS_EACH),
    piece_axes=PIECE_AXES,
    axis_names=axis_names,
    knowledge=hearts_knowledge,
    deal_info=None,
    rules_doc=None,
    better="higher",
    chips=False,
    scale_points=lambda rules: rules.hand_size,
    positions=hearts.FAMILY.positions,
)
"""The family's record."""

PRESET = Preset(
    GAME,
    "Plain tricks: follow suit, the highest card of the suit led wins, one point a trick.",
    options={"max_deals": 1},
    game=GAME,
)
"""The family's one preset (3-6 players, 4 by default)."""
