"""A readable text picture of one game: hands by suit, the current trick, points and totals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hearts_env.cards import SUIT_SYMBOLS, card_symbol, cards_of
from hearts_env.engine import DONE, PASSING
from hearts_env.rules import PASS_DIRECTIONS

if TYPE_CHECKING:
    from hearts_env.table import Table


def hand_text(mask: int) -> str:
    """Cards of a mask grouped by suit, high cards first: ``♣ A 10 2  ♦ -  ♥ Q  ♠ K 3``."""
    cards = cards_of(mask)
    groups = []
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        ranks = [card_symbol(c)[:-1] for c in reversed(cards) if c // 13 == suit]
        groups.append(f"{symbol} {' '.join(ranks) if ranks else '-'}")
    return "  ".join(groups)


def render_text(table: Table, game: int = 0) -> str:
    """The state of ``game`` in ``table`` as a multi-line string."""
    s, rules = table.state, table.rules
    g = game
    n = rules.num_players
    direction = PASS_DIRECTIONS[s.pass_direction[g]]
    phase = {PASSING: "passing", DONE: "deal over"}.get(int(s.phase[g]), f"trick {s.trick_number[g] + 1}")
    lines = [
        f"{rules.preset} ({n} players) — deal {s.deal_index[g] + 1}, dealer seat {s.dealer[g]}, "
        f"pass {direction}, {phase}"
    ]
    width = max(len(f"player_{n - 1}"), 8)
    hands = [hand_text(int(s.hands[g, seat])) for seat in range(n)]
    hand_width = max(48, *(len(h) for h in hands))
    for seat in range(n):
        marker = "▶" if s.phase[g] != DONE and s.current[g] == seat else " "
        taken = int(s.points[g, seat])
        total = int(s.totals[g, seat])
        lines.append(
            f"{marker} {f'player_{seat}':<{width}} {hands[seat]:<{hand_width}} "
            f"points {taken:>3}  total {total:>4}"
        )
    if s.phase[g] == PASSING:
        chosen = {seat: cards_of(int(s.chosen[g, seat])) for seat in range(n)}
        picked = "; ".join(f"player_{k}: {len(v)} chosen" for k, v in chosen.items())
        lines.append(f"  passing: {picked}")
    last = [int(c) for c in s.last_trick[g] if c < 64]
    if last:
        seats = [(int(s.last_leader[g]) + i) % n for i in range(len(last))]
        winner = int(s.leader[g]) if s.phase[g] != DONE else _winner(seats, last)
        plays = "  ".join(f"player_{p} {card_symbol(c)}" for p, c in zip(seats, last))
        lines.append(f"  last trick: {plays}  → player_{winner}")
    trick = [int(c) for c in s.trick[g] if c < 64]
    if trick:
        seats = [(int(s.leader[g]) + i) % n for i in range(len(trick))]
        lines.append("  trick: " + "  ".join(f"player_{p} {card_symbol(c)}" for p, c in zip(seats, trick)))
    if s.phase[g] == DONE:
        points = " ".join(f"{int(p):>4}" for p in s.deal_points[g])
        lines.append(f"  deal points: {points}")
    return "\n".join(lines)


def _winner(seats: list[int], cards: list[int]) -> int:
    """Seat of the highest card of the suit led (jokers, suit 4, never win)."""
    lead = cards[0] // 13
    return max((c, p) for p, c in zip(seats, cards) if c // 13 == lead)[1]
