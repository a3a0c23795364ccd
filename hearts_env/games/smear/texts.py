"""The Smear family's readable text picture of one game: hands, bids, the pitcher and trumps, the
trick, side scores and, once a deal is over, its categories (:func:`hearts_env.render.render_text`)."""

from __future__ import annotations

from hearts_env.core.cards import SUIT_SYMBOLS, card_symbol, cards_of
from hearts_env.core.phases import BID, DISCARD, DONE, NAME_SUIT
from hearts_env.core.rules import Rules
from hearts_env.core.texts import hand_text
from hearts_env.games.smear.engine import SmearState


def state_text(s: SmearState, rules: Rules, game: int = 0) -> str:
    """Game ``game`` of the Smear games ``s`` of ``rules`` as text: hands, bids, the pitcher and
    trumps, the trick, side scores."""
    g = game
    n = rules.num_players
    code = int(s.phase[g])
    phase = {BID: "bidding", NAME_SUIT: "naming trumps", DISCARD: "discarding", DONE: "deal over"}.get(
        code, f"trick {s.trick_number[g] + 1}"
    )
    trumps = f", trumps {SUIT_SYMBOLS[s.trumps[g]]}" if s.trumps[g] >= 0 else ""
    lines = [
        f"{rules.preset} ({n} players) — deal {s.deal_index[g] + 1}, dealer seat {s.dealer[g]}, {phase}{trumps}"  # noqa: E501
    ]
    width = max(len(f"player_{n - 1}"), 8)
    hands = [hand_text(int(s.hands[g, seat])) for seat in range(n)]
    hand_width = max(48, *(len(h) for h in hands))
    for seat in range(n):
        marker = "▶" if code != DONE and s.current[g] == seat else " "
        choice = int(s.bids[g, seat])
        bid = "-" if choice < 0 else rules.decisions[choice]
        lines.append(
            f"{marker} {f'player_{seat}':<{width}} {hands[seat]:<{hand_width}} side {rules.team_of[seat]}  "
            f"bid {bid:<8} total {int(s.totals[g, seat]):>4}"
        )
    if s.pitcher[g] >= 0:
        lines.append(f"  pitcher: player_{s.pitcher[g]} (bid {s.high_bid[g]})")
    for label, by_seat in (("last trick", s.last_trick[g]), ("trick", s.trick_by_seat[g])):
        plays = [f"player_{seat} {' '.join(card_symbol(c) for c in cards_of(int(m)))}"
                 for seat, m in enumerate(by_seat) if int(m)]  # fmt: skip
        if plays:
            won = f"  → player_{s.last_winner[g]}" if label == "last trick" else ""
            lines.append(f"  {label}: {'  '.join(plays)}{won}")
    if code == DONE:
        cats = ", ".join(f"{name} {int(v)}" for name, v in zip(rules.categories, s.categories[g]))
        lines.append(f"  categories (side; -1 not in play, -2 nobody): {cats}")
        lines.append(f"  deal points: {' '.join(f'{int(p):>4}' for p in s.deal_points[g])}")
    return "\n".join(lines)
