"""The Hearts family's readable text picture of one game: hands by suit, points and totals, the
decisions, the passing, the last and the current trick (:func:`hearts_env.render.render_text`)."""

from __future__ import annotations

from hearts_env.core.cards import SUIT_SYMBOLS, card_symbol, cards_of
from hearts_env.core.phases import DONE, NAME_SUIT, PASSING, PHASE_NAMES, PLAYING
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.core.texts import hand_text
from hearts_env.games.hearts.state import State


def _players(s: State, g: int, leader: int, cards: list[int]) -> list[int]:
    """Who played each of a trick's ``cards`` (in order, from ``leader``). In turn from the
    leader, except where players drop out (Domino Hearts' stock): there the seat whose hand held
    the card (``held`` counts drawn cards too; one deck, so one seat)."""
    n = s.hands.shape[1]
    if s.stock.shape[1] == 0:
        return [(leader + i) % n for i in range(len(cards))]
    held = s.held[g]
    return [next(seat for seat in range(n) if int(held[seat]) >> card & 1) for card in cards]


def state_text(s: State, rules: Rules, game: int = 0) -> str:
    """Game ``game`` of the Hearts-family games ``s`` of ``rules`` as a multi-line string."""
    g = game
    n = rules.num_players
    direction = PASS_DIRECTIONS[s.pass_direction[g]]
    code = int(s.phase[g])
    names = {PASSING: "passing", DONE: "deal over", PLAYING: f"trick {s.trick_number[g] + 1}"}
    phase = names.get(code) or PHASE_NAMES[code].replace("_", " ")
    lines = [
        f"{rules.preset} ({n} players) — deal {s.deal_index[g] + 1}, dealer seat {s.dealer[g]}, "
        f"pass {direction}, {phase}"
    ]
    width = max(len(f"player_{n - 1}"), 8)
    hands = [hand_text(int(s.hands[g, seat]), int(s.hands_hi[g, seat])) for seat in range(n)]
    hand_width = max(48, *(len(h) for h in hands))
    for seat in range(n):
        marker = "▶" if s.phase[g] != DONE and s.current[g] == seat else " "
        taken = int(s.points[g, seat])
        total = int(s.totals[g, seat])
        lines.append(
            f"{marker} {f'player_{seat}':<{width}} {hands[seat]:<{hand_width}} "
            f"points {taken:>3}  total {total:>4}"
        )
    made = [
        f"player_{seat} {rules.decisions[k]}"
        for seat in range(n)
        for k in range(len(rules.decisions))
        if int(s.decision_log[g, seat]) >> k & 1
    ]
    if made:
        lines.append("  decisions: " + ", ".join(made))
    if rules.bidding == "auction" and s.bidder[g] >= 0 and code != NAME_SUIT:
        lines.append(
            f"  penalty suit: {SUIT_SYMBOLS[s.penalty_suit[g]]} (bid {s.high_bid[g]} by player_{s.bidder[g]})"
        )
    if rules.bidding == "slam" and s.partner[g] >= 0:
        lines.append(f"  silent partner of player_{s.bidder[g]}: player_{s.partner[g]}")
    if s.phase[g] == PASSING:
        chosen = {seat: cards_of(int(s.chosen[g, seat])) for seat in range(n)}
        picked = "; ".join(f"player_{k}: {len(v)} chosen" for k, v in chosen.items())
        lines.append(f"  passing: {picked}")
    last = [int(c) for c in s.last_trick[g] if c < 64]
    if last:
        seats = _players(s, g, int(s.last_leader[g]), last)
        taker = "cancelled" if s.last_cancelled[g] else f"player_{s.last_winner[g]}"  # as the engine says
        plays = "  ".join(f"player_{p} {card_symbol(c)}" for p, c in zip(seats, last))
        lines.append(f"  last trick: {plays}  → {taker}")
    trick = [int(c) for c in s.trick[g] if c < 64]
    if trick:
        seats = _players(s, g, int(s.leader[g]), trick)
        lines.append("  trick: " + "  ".join(f"player_{p} {card_symbol(c)}" for p, c in zip(seats, trick)))
    if s.phase[g] == DONE:
        points = " ".join(f"{int(p):>4}" for p in s.deal_points[g])
        lines.append(f"  deal points: {points}")
    return "\n".join(lines)
