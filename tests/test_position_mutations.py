"""Property (issue 41): a valid Hearts-family position with ONE field mutated — a wrong type, an
int out of range, a card moved, dropped or duplicated, a list of the wrong length, seats swapped
— is either refused by ``Table.set_position`` with a ``ValueError`` / ``TypeError`` (the table
left as it was), or plays to the end of the deal with legal moves and consistent totals.

The positions are read off random games of presets with passing (hearts), a kitty
(heartsette), bids (auction_hearts), declarations (chasse_coeur), a stock (domino_hearts) and
two decks (cancellation_hearts).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts_env import Position, Table, make_rules
from hearts_env.core.cards import HEARTS, cards_of
from hearts_env.core.phases import PLAYING
from hearts_env.core.rules import Rules

PRESETS = ("hearts", "heartsette", "auction_hearts", "chasse_coeur", "domino_hearts", "cancellation_hearts")
WHOLE_DECK_POINTS = ("hearts", "heartsette", "domino_hearts")
"""Presets whose deal ends with every penalty card taken by some seat (the points add up to
``penalty_total``): no cancelled tricks, no named suit."""


def _positions(name: str, count: int = 3) -> list[tuple[Rules, Position]]:
    """``count`` positions of ``name``, each at a random point of the play of a seeded deal."""
    rules = make_rules(name)
    rng = np.random.default_rng(sum(map(ord, name)))
    out = []
    for deal in range(count):
        table = Table(rules)
        table.reset(seed=deal + 10)
        stop = int(rng.integers(0, rules.hand_size * rules.num_players // 2))
        seen = 0
        while True:
            if table.state.phase[0] == PLAYING:
                if seen == stop or table.state.trick_number[0] >= rules.hand_size - 2:
                    break
                seen += 1
            table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
        out.append((rules, table.position(0)))
    return out


POSITIONS = [item for name in PRESETS for item in _positions(name)]
CARD_LISTS = ("hands", "played", "taken", "passed", "received")
SINGLE_CARD_SETS = ("trick", "kitty", "stock", "carried")
OTHER_FIELDS = ("tricks_won", "totals", "voids", "decision_log", "penalty_suit", "pass_direction", "extra")
INTS = ("dealer", "deal_index", "high_bid", "leader", "first_trick_winner", "bidder", "partner")
ODD_VALUES = st.one_of(
    st.integers(-3, 15), st.sampled_from([True, 1.5, "3", None, 10**30, -(2**63)])
)  # fmt: skip


@st.composite
def mutations(draw: st.DrawFn) -> tuple[Rules, Position, Position, str]:
    """A position and the same with one field mutated (and what was done, for the report)."""
    rules, base = draw(st.sampled_from(POSITIONS))
    p = rules.num_players
    every_card = [c for hand in base.hands for c in hand] + list(base.trick)
    field = draw(st.sampled_from(CARD_LISTS + SINGLE_CARD_SETS + INTS + OTHER_FIELDS))
    value: Any = getattr(base, field)
    seat = draw(st.integers(0, p - 1))
    other = (seat + draw(st.integers(1, p - 1))) % p
    how = draw(st.integers(0, 4))
    if field in CARD_LISTS:
        lists = [list(x) for x in value] if value is not None else [[] for _ in range(p)]
        if how == 0 and lists[seat]:  # a card moved to another seat
            lists[other].append(lists[seat].pop(draw(st.integers(0, len(lists[seat]) - 1))))
        elif how == 1 and lists[seat]:  # a card dropped
            lists[seat].pop()
        elif how == 2:  # a card duplicated or one from elsewhere added
            lists[seat].append(draw(st.sampled_from(every_card)))
        elif how == 3:  # two seats swapped
            lists[seat], lists[other] = lists[other], lists[seat]
        else:  # a seat too few, or None
            lists = draw(st.sampled_from([lists[:-1], None, "2C"]))
        value = lists
    elif field in SINGLE_CARD_SETS:
        cards = list(value or ())
        if how == 0 and cards:
            cards.pop(draw(st.integers(0, len(cards) - 1)))
        elif how == 1:
            cards.append(draw(st.sampled_from(every_card)))
        elif how == 2:
            cards.reverse()
        elif how == 3 and cards:
            cards[0] = draw(st.sampled_from(every_card))
        else:
            cards = draw(st.sampled_from([None, [], "2C", [99]]))
        value = cards
    elif field in INTS:
        value = draw(ODD_VALUES)
    elif field in ("tricks_won", "totals"):
        counts = list(value or [0] * p)
        if how == 0:
            counts[seat], counts[other] = counts[other], counts[seat]
        elif how == 1:
            counts[seat] += draw(st.sampled_from([-1, 1]))
        elif how == 2:
            counts[seat] = draw(ODD_VALUES)
        else:
            counts = draw(st.sampled_from([counts[:-1], None, counts + [0]]))
        value = counts
    elif field in ("voids", "decision_log"):
        lists = [list(x) for x in value or [[] for _ in range(p)]]
        names = "CDHS" if field == "voids" else (rules.decisions or ("pass",))
        if how <= 1:
            lists[seat].append(draw(st.sampled_from(names)))
        elif how == 2:
            lists[seat], lists[other] = lists[other], lists[seat]
        elif how == 3 and lists[seat]:
            lists[seat].pop()
        else:
            lists = lists[:-1]
        value = lists
    elif field == "penalty_suit":
        value = draw(st.sampled_from(["C", "D", "H", "S", "", "X", 9, None]))
    elif field == "pass_direction":
        value = draw(st.sampled_from(["left", "right", "across", "hold", "up", 0]))
    else:
        value = draw(
            st.sampled_from([{}, {"uncounted": 1}, {"set_aside": 7}, {"dealr": 2}, {"uncounted": 1.0}])
        )
    return rules, base, replace(base, **{field: value}), f"{rules.preset}: {field} -> {value!r}"


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutations(), st.integers(0, 2**31))
def test_a_mutated_position_is_refused_or_plays_to_a_consistent_end(
    case: tuple[Rules, Position, Position, str], seed: int
) -> None:
    rules, _, mutated, label = case
    table = Table(rules)
    table.reset(seed=1)
    before = table.state.copy()
    try:
        table.set_position(mutated)
    except (ValueError, TypeError):
        for name in ("hands", "taken", "trick", "leader", "phase", "totals", "pass_decisions"):
            assert np.array_equal(getattr(table.state, name), getattr(before, name)), (label, name)
        return
    rng = np.random.default_rng(seed)
    totals = table.state.totals[0].copy()
    for _ in range(2 * len(rules.deck)):
        if table.deal_over[0]:
            break
        legal = np.flatnonzero(table.action_mask()[0])
        assert len(legal), f"{label}: no legal action in an unfinished deal"
        table.step(np.array([rng.choice(legal)]))
    assert table.deal_over[0], f"{label}: the deal does not end"
    s, p = table.state, rules.num_players
    assert np.array_equal(s.totals[0], totals + s.deal_points[0]), label
    assert (np.abs(s.totals[0]) <= 2**62).all(), label
    # the deal's record is one a deal can have
    auction = rules.bidding == "auction"
    assert 0 <= s.dealer[0] < p and s.deal_index[0] >= 0 and -1 <= s.bidder[0] < p, label
    assert 0 <= s.high_bid[0] <= (rules.max_bid if auction else 0), label
    assert s.penalty_suit[0] in (range(4) if auction else (HEARTS,)), label
    taken = [int(m) for m in s.taken[0]]
    if rules.preset in WHOLE_DECK_POINTS:  # every card taken, each seat's points its cards'
        assert sum(m.bit_count() for m in taken) == len(rules.deck), label
        for seat in range(p):
            assert s.points[0, seat] == sum(rules.card_points[c] for c in cards_of(taken[seat])), label
        assert int(s.points[0].sum()) == rules.penalty_total, label
    if rules.decks == 1 and not rules.stock_size:  # every trick a seat took is P cards of its taken
        assert int(s.tricks_won[0].sum()) == rules.hand_size, label
        first = int(s.first_trick_winner[0])
        for seat in range(p):
            kitty = rules.kitty_size if seat == first else 0
            assert taken[seat].bit_count() == p * int(s.tricks_won[0, seat]) + kitty, label
