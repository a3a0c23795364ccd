"""Random deals: every card dealt once, full hands, and every card equally likely in each place."""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env.core.bits import BIT, popcount, unpack
from hearts_env.games.hearts.engine import Engine
from hearts_env.presets import all_configs, make_rules

DEALERS = ["random_hands", "shuffled_hands"]


@pytest.mark.parametrize("method", DEALERS)
@pytest.mark.parametrize(("preset", "players"), all_configs("hearts"))
def test_deals_are_complete(method: str, preset: str, players: int) -> None:
    rules = make_rules(preset, players)
    hands, kitty = getattr(Engine(rules), method)(np.random.default_rng(players), 200)
    if rules.decks == 2:  # (B, P, 2) and (B, 2): the cards held at least once, and twice
        assert (popcount(hands).sum(axis=2) == rules.hand_size).all()
        assert (popcount(kitty).sum(axis=1) == rules.kitty_size).all()
        copies = unpack(hands, 52).sum(axis=(1, 2)) + unpack(kitty, 52).sum(axis=1)  # (B, 52)
        assert (copies == 2).all(), "every card is dealt twice"
        return
    assert (popcount(hands) == rules.hand_size).all()
    assert (popcount(kitty) == rules.kitty_size + rules.stock_size).all()  # the kitty, or the stock
    assert (np.bitwise_or.reduce(hands, axis=1) | kitty == np.uint64(rules.deck_mask)).all()
    assert (popcount(np.bitwise_or.reduce(hands, axis=1)) == rules.num_players * rules.hand_size).all()


@pytest.mark.parametrize("method", DEALERS)
def test_every_card_is_equally_likely_in_every_hand(method: str) -> None:
    """Chi-square over (card, seat) counts of 40,000 deals (fixed seed, so never flaky): the
    statistic for 52 x 3 degrees of freedom stays far below its 0.1% tail (~212)."""
    engine = Engine(make_rules("hearts", 4))
    deals = 40_000
    hands, _ = getattr(engine, method)(np.random.default_rng(11), deals)
    counts = ((hands[:, :, None] & BIT[None, None, :52]) != 0).sum(axis=0)  # (seat, card)
    expected = deals / 4
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 212, chi2
    # and the two cards of a pair land in the same hand as often as chance says (12/51)
    same = ((hands & BIT[0]) != 0) & ((hands & BIT[51]) != 0)
    assert abs(same.any(axis=1).mean() - 12 / 51) < 0.01


def test_seeded_deals_repeat() -> None:
    engine = Engine(make_rules("black_maria", 3))
    a = engine.random_hands(np.random.default_rng(5), 16)
    b = engine.random_hands(np.random.default_rng(5), 16)
    c = engine.random_hands(np.random.default_rng(6), 16)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], c[0])
