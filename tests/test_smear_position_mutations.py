"""Property (issue 41): a valid Smear position with ONE field mutated — a wrong type, an int out
of range, a card moved between seats or places, dropped or duplicated, a row of the wrong
length, two seats swapped — is either refused by ``Table.set_position`` with a ``ValueError``
/ ``TypeError`` (the table left as it was), or plays to the end of the deal with legal moves
and consistent totals: each seat's total is its total before plus the deal's points, partners
score alike, no category is scored twice, and the pitching side makes its bid or is set back
by it.

The positions are read off seeded games of every Smear preset (the stock, nine-card, widow
and five-point deals) at random points of the play.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts_env import Table, make_rules
from hearts_env.core.bits import U64
from hearts_env.core.phases import PLAYING
from hearts_env.core.rules import Rules
from hearts_env.games.smear.positions import SmearPositionBatch
from hearts_env.presets import preset_names

CARD_SETS = ("hands", "played", "thrown", "received", "taken")
ROWS = ("trick", "trick_seats", "bids", "totals", "stock")
INTS = ("leader", "trick_number", "trumps", "pitcher", "high_bid", "dealer", "deal_index", "stock_pos")
ODD_VALUES = st.one_of(
    st.integers(-3, 15), st.sampled_from([True, 1.5, "3", None, 10**30, -(2**63), 64, 99, 999])
)  # fmt: skip


@cache
def _positions() -> list[tuple[Rules, SmearPositionBatch]]:
    """Three positions of each Smear preset, each at a random point of a seeded deal's play."""
    out = []
    for name in preset_names("smear"):
        rules = make_rules(name)
        rng = np.random.default_rng(sum(map(ord, name)))
        for deal in range(3):
            table = Table(rules)
            table.reset(seed=deal + 20)
            stop, seen = int(rng.integers(0, 3 * rules.num_players)), 0
            while not table.deal_over[0]:
                if table.state.phase[0] == PLAYING:
                    if seen == stop:
                        break
                    seen += 1
                table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
            if not table.deal_over[0]:
                out.append((rules, table.position(0)))
    return out


def _array(value: Any, like: np.ndarray) -> np.ndarray:
    """``value`` as one position's array of ``like``'s dimensions (a wrong type stays wrong)."""
    fits = not isinstance(value, int) or -(2**63) <= value < 2**63
    array = np.array([value]) if fits else np.array([value], object)
    return array if like.ndim == 1 else np.broadcast_to(array[:, None], like.shape).copy()


@st.composite
def mutations(draw: st.DrawFn) -> tuple[Rules, SmearPositionBatch, Any, str]:
    """A position, its one-field change (a dict of fields, or the error building it raised)
    and what was done (for the report)."""
    rules, base = draw(st.sampled_from(_positions()))
    p = rules.num_players
    field = draw(st.sampled_from(CARD_SETS + ROWS + INTS))
    seat = draw(st.integers(0, p - 1))
    other = (seat + draw(st.integers(1, p - 1))) % p
    how = draw(st.integers(0, 4))
    value = getattr(base, field).copy()
    changes: dict[str, Any] = {}
    if field in CARD_SETS:
        cards = [c for c in range(64) if int(value[0, seat]) >> c & 1]
        card = draw(st.sampled_from(cards)) if cards else draw(st.integers(0, 63))
        bit = U64(1 << card)
        if how == 0:  # a card moved to another seat
            value[0, seat] &= ~bit
            value[0, other] |= bit
        elif how == 1:  # a card dropped (or, from an empty set, added)
            value[0, seat] ^= bit
        elif how == 2:  # a card of the deck added wherever it was
            value[0, seat] |= U64(1 << draw(st.integers(0, rules.card_slots - 1)))
        elif how == 3:  # two seats swapped
            value[0, [seat, other]] = value[0, [other, seat]]
        else:  # a card moved to another place of the same seat
            place = draw(st.sampled_from([f for f in CARD_SETS if f != field]))
            value[0, seat] &= ~bit
            moved = getattr(base, place).copy()
            moved[0, seat] |= bit
            changes[place] = moved
        changes[field] = value
    elif field in ROWS:
        width = value.shape[1]
        j = draw(st.integers(0, max(width - 1, 0)))
        if how == 0 and width:  # one entry set to an odd int
            value[0, j] = draw(st.integers(-3, 70))
        elif how == 1 and width:  # two entries swapped
            k = draw(st.integers(0, width - 1))
            value[0, [j, k]] = value[0, [k, j]]
        elif how == 2 and width:  # an entry repeated
            value[0, j] = value[0, draw(st.integers(0, width - 1))]
        elif how == 3:  # a row of the wrong length
            value = value[:, :-1] if width else np.zeros((1, 1), value.dtype)
        else:  # a wrong type, or out of range
            value = _array(draw(ODD_VALUES), value)
        changes[field] = value
    else:
        current = int(value[0])
        changes[field] = _array(
            draw(st.sampled_from([current + 1, current - 1, p, -1])) if how < 2 else draw(ODD_VALUES), value
        )
    report = f"{rules.preset}: {field} how={how} seat={seat} other={other}"
    try:
        mutated: Any = base.with_fields(**changes)
    except (TypeError, ValueError) as error:
        mutated = error
    return rules, base, mutated, report


def _state(table: Table) -> dict[str, np.ndarray]:
    return {k: np.copy(v) for k, v in vars(table.state).items() if isinstance(v, np.ndarray)}


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(mutations())
def test_a_mutated_position_is_refused_or_plays_out(case: tuple[Rules, SmearPositionBatch, Any, str]) -> None:
    rules, base, mutated, report = case
    if isinstance(mutated, Exception):  # the batch itself refused the field
        assert isinstance(mutated, (TypeError, ValueError)), report
        return
    table = Table(rules)
    table.reset(seed=1)
    before = _state(table)
    try:
        table.set_position(mutated)
    except (TypeError, ValueError):
        after = _state(table)
        for name, value in before.items():
            assert np.array_equal(value, after[name]), f"{report}: refused, but {name} changed"
        return
    rng = np.random.default_rng(0)
    for _ in range(4 * rules.hand_size * rules.num_players):
        if table.deal_over[0]:
            break
        mask = table.action_mask()[0]
        assert mask.any(), f"{report}: the seat to act has no legal action"
        table.step(np.array([rng.choice(np.flatnonzero(mask))]))
    assert table.deal_over[0], f"{report}: the deal does not end"
    _assert_consistent(rules, mutated, table, report)


def _assert_consistent(rules: Rules, position: SmearPositionBatch, table: Table, report: str) -> None:
    """The deal's points as the engine scores them add up (see the module)."""
    s = table.state
    points, totals = s.deal_points[0], s.totals[0]
    assert np.array_equal(totals, position.totals[0] + points), f"{report}: totals {totals}"
    categories = s.categories[0]
    teams = rules.num_teams
    assert ((categories >= -2) & (categories < teams)).all(), f"{report}: categories {categories}"
    for seats in rules.teams or [(q,) for q in range(rules.num_players)]:
        assert len({int(points[q]) for q in seats}) == 1, f"{report}: partners score {points}"
    team_of = np.array(rules.team_of)
    first = [int(np.flatnonzero(team_of == t)[0]) for t in range(teams)]
    made = s.made_points[0][first]
    assert (made >= 0).all() and made.sum() <= rules.smear_points, f"{report}: a category scored twice {made}"
    pitcher_side = int(team_of[int(position.pitcher[0])])
    bid = int(position.high_bid[0])
    for t in range(teams):
        expect = {int(made[t])} if t != pitcher_side else {int(made[t]), -bid, bid}
        assert int(points[first[t]]) in expect, f"{report}: side {t} scored {points[first[t]]}"
