"""Impossible Hearts-family positions are refused before anything changes (issue 41, item 2):
every field of a :class:`~hearts_env.Position` and of a :class:`~hearts_env.games.hearts.PositionBatch`
of the wrong type, out of range or of no use to the preset, and every inconsistency between
fields (a card in two places, the trick out of turn, tricks won against cards taken, the
exchange, voids, the first leader, the decisions logged), each with a ``ValueError`` or
``TypeError`` that names the field and the value; positions read off live games of every
preset are still accepted.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from hearts_env import Position, Table, make_rules
from hearts_env.core.bits import EMPTY
from hearts_env.core.phases import PLAYING
from hearts_env.core.rules import Rules
from hearts_env.games.hearts.positions import PositionBatch, check_batch, position_batch
from hearts_env.presets import preset_names


def _live(name: str, seed: int, on_table: int = 2, after: int = 2, **options: Any) -> tuple[Rules, Position]:
    """A position read off a game of ``name`` played at random: ``after`` tricks or more done and
    ``on_table`` cards of the next one played."""
    rules = make_rules(name, **options)
    table = Table(rules)
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    while True:
        s = table.state
        if s.phase[0] == PLAYING and s.trick_number[0] >= after and s.position[0] == on_table:
            return rules, table.position(0)
        table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))


# hearts, 4 players, deal 0 (pass left), seed 1: after two tricks seat 3 led 3C, seat 0 played 4C;
# seat 0 passed 8D TD 6S to seat 1, seat 3 passed 8C 7S AS to seat 0; seats 2 and 3 took a trick.
HEARTS = _live("hearts", 1)
assert HEARTS[1].trick == ["3C", "4C"] and HEARTS[1].leader == 3 and HEARTS[1].tricks_won == [0, 0, 1, 1]


def _seat_lists(base: Position, name: str, seat: int, value: Any) -> list:
    lists = [list(x) for x in getattr(base, name)]
    lists[seat] = value
    return lists


P = HEARTS[1]
POSITION_ROWS = [
    # (changes, error type, message fragment): types and ranges of every field
    ({"deal_index": -1}, ValueError, "deal_index must be an int 0 or more.*got -1"),
    ({"deal_index": "3"}, TypeError, "deal_index must be .*got str '3'"),
    ({"deal_index": 1.5}, TypeError, "deal_index must be .*got float 1.5"),
    ({"deal_index": True}, TypeError, "deal_index must be .*got bool"),
    ({"dealer": 7}, ValueError, "dealer must be a seat 0..3, got 7"),
    ({"dealer": -3}, ValueError, "dealer must be a seat 0..3, got -3"),
    ({"dealer": None}, TypeError, "dealer must be a seat 0..3, got NoneType"),
    ({"leader": True}, TypeError, "leader must be a seat 0..3 or None, got bool"),
    ({"leader": 1.5}, TypeError, "leader must be a seat 0..3 or None, got float"),
    ({"first_trick_winner": 9}, ValueError, "first_trick_winner must be a seat 0..3 or None, got 9"),
    ({"tricks_won": [-1, 1, 1, 1]}, ValueError, r"tricks_won\[0\] must be a count of tricks 0..13, got -1"),
    ({"tricks_won": [0.5, 0, 1, 1]}, TypeError, r"tricks_won\[0\] must be a count .*got float 0.5"),
    ({"tricks_won": [0, 0, 2]}, ValueError, "tricks_won must be one count per seat .4 seats.*3 entries"),
    ({"high_bid": -5}, ValueError, r"high_bid must be a bid 0..0 \(hearts's bids; 0: none\), got -5"),
    ({"high_bid": 3}, ValueError, "high_bid must be a bid 0..0"),
    ({"penalty_suit": 9}, TypeError, "penalty_suit must be one of 'C', 'D', 'H', 'S', got 9"),
    ({"penalty_suit": ""}, ValueError, "penalty_suit must be one of 'C', 'D', 'H', 'S', got ''"),
    ({"penalty_suit": "HS"}, ValueError, "penalty_suit must be one of .*got 'HS'"),
    ({"penalty_suit": "D"}, ValueError, "penalty_suit must be 2 .hearts.: hearts names no penalty suit"),
    ({"totals": [10**30, 0, 0, 0]}, ValueError, r"totals\[0\] must be an int within ±2\*\*62"),
    ({"totals": [0, 0, 0, "5"]}, TypeError, r"totals\[3\] must be an int .*got str '5'"),
    ({"totals": [0, 0, 0]}, ValueError, "totals must be one score per seat"),
    ({"decision_log": [[], [], []]}, ValueError, "decision_log must be one list of decisions per seat"),
    ({"decision_log": [["bid:3"], [], [], []]}, ValueError, r"decision_log\[0\]: 'bid:3' is not one of"),
    ({"extra": {"dealr": 2}}, ValueError, "unknown keys 'dealr': the known ones are uncounted, set_aside"),
    ({"extra": {"uncounted": "1"}}, TypeError, r"extra\['uncounted'\] must be a card mask"),
    ({"extra": {"uncounted": 1}}, ValueError, "uncounted must be empty: hearts counts every card"),
    ({"extra": {"set_aside": 1 << 60}}, ValueError, r"extra\['set_aside'\] holds cards not in the deck"),
    ({"pass_direction": "up"}, ValueError, "pass_direction must be one of left, .*, got 'up'"),
    ({"pass_direction": 0}, TypeError, "pass_direction must be one of"),
    ({"voids": [["S"], [], [], []]}, ValueError, "voids: seat 0 is void in S but holds 2S, 7S, JS, AS"),
    ({"voids": [["X"], [], [], []]}, ValueError, r"voids\[0\]: 'X' is not one of C, D, H, S"),
    ({"voids": [["C", "C"], [], [], []]}, ValueError, r"voids\[0\] names 'C' twice"),
    ({"voids": ["C", [], [], []]}, TypeError, r"voids\[0\] must be a list of suits"),
    ({"trick": "3C"}, TypeError, "trick must be a list of cards"),
    ({"extra": []}, TypeError, "extra must be a dict"),
    # fields the preset has no use for
    ({"kitty": ["2C"]}, ValueError, "kitty must be empty: hearts has no kitty, got 2C"),
    ({"bidder": 1}, ValueError, "bidder must be -1: hearts has no bids or declarations"),
    ({"partner": 1}, ValueError, "partner must be -1: hearts has no silent partner"),
    ({"first_trick_winner": 2}, ValueError, "first_trick_winner must be -1: hearts has no kitty or first"),
    ({"stock": ["2C"]}, ValueError, "hearts has no stock"),
    # every card in one place, the trick in turn, tricks against cards taken
    ({"hands": _seat_lists(P, "hands", 1, [*P.hands[1][:-1], "8C"])}, ValueError, "8C is in two places"),
    ({"trick": ["4C", "3C"]}, ValueError, "the trick was led by seat 3, who did not play 4C"),
    ({"leader": 0}, ValueError, "the trick was led by seat 0, who did not play 3C"),
    ({"tricks_won": [1, 0, 0, 1]}, ValueError, "seat 0 has taken 0 cards but won 1 tricks"),
    ({"tricks_won": [0, 0, 2, 0]}, ValueError, "seat 2 has taken 4 cards but won 2 tricks"),
    # the exchange: sizes, what was passed is what was received, and held by the receiver
    ({"passed": _seat_lists(P, "passed", 0, ["8D", "TD"])}, ValueError, "seat 0 passed 2 cards .*passes 3"),
    ({"received": _seat_lists(P, "received", 1, ["8D", "TD", "9S"])}, ValueError,
     "seat 0 passed 8D, TD, 6S left to seat 1, who received 8D, TD, 9S"),
    ({"passed": _seat_lists(P, "passed", 3, ["8C", "7S", "6C"]),
      "received": _seat_lists(P, "received", 0, ["8C", "7S", "6C"])}, ValueError,
     "seat 0 received 6C, but seat 0 neither holds nor has played it"),
    ({"pass_direction": "hold"}, ValueError, "pass_direction is hold: nobody passed"),
    ({"pass_direction": "right"}, ValueError, "seat 0 passed 8D, TD, 6S right to seat 3, who received TC"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "error", "message"), POSITION_ROWS, ids=lambda v: None)
def test_an_impossible_position_is_refused(changes: dict, error: type, message: str) -> None:
    rules, base = HEARTS
    table = Table(rules, num_games=2)
    table.reset(seed=4)
    before = table.state.copy()
    with pytest.raises(error, match=message):
        position_batch(rules, replace(base, **changes))
    with pytest.raises(error, match=message):
        table.set_position(replace(base, **changes))
    for name in ("hands", "taken", "trick", "leader", "phase", "pass_decisions", "totals"):
        assert np.array_equal(getattr(table.state, name), getattr(before, name)), name


def test_the_first_leader_and_other_presets() -> None:
    """The first trick's leader is the lowest club's holder (or eldest hand, or the bidder);
    a kitty short of a card; the auction's bidder and bid go together and match the log."""
    rules = make_rules("hearts")
    start = Table(rules)
    start.reset(seed=3, options={"pass_direction": "hold"})
    position = start.position(0)
    leader = int(start.current_player[0])
    with pytest.raises(
        ValueError, match=f"leader {(leader + 1) % 4} leads the first trick, but the holder of 2C"
    ):
        position_batch(rules, replace(position, leader=(leader + 1) % 4))
    position_batch(rules, replace(position, leader=leader))
    rules, kitty = _live("heartsette", 2)
    with pytest.raises(ValueError, match="the cards taken .* are not the cards played in finished tricks"):
        position_batch(rules, replace(kitty, kitty=kitty.kitty[:2]))
    rules, auction = _live("auction_hearts", 5)
    assert auction.bidder is not None and auction.high_bid > 0
    other = (auction.bidder + 1) % 4
    for changes, message in (
        ({"high_bid": 99}, r"high_bid must be a bid 0..13 \(auction_hearts's bids"),
        ({"high_bid": 0}, "bidder .* with high_bid 0: the auction's winner and his bid go together"),
        ({"bidder": other}, "the highest bid is seat"),
        ({"penalty_suit": "CDHS"[("CDHS".index(auction.penalty_suit) + 1) % 4]}, "named the suit"),
        ({"decision_log": [[*log, "moon:add"] for log in auction.decision_log]}, "is not one of"),
    ):
        with pytest.raises(ValueError, match=message):
            position_batch(rules, replace(auction, **changes))


def _batch() -> PositionBatch:
    rules, base = HEARTS
    return position_batch(rules, base).take(np.zeros(2, np.int64))


def _with(name: str, row: int, value: Any) -> dict[str, np.ndarray]:
    array = getattr(_batch(), name).copy()
    array[row] = value
    return {name: array}


BATCH_ROWS = [
    ({"hands": _batch().hands.astype(np.int64)}, TypeError, "hands must be an array of uint64, got int64"),
    ({"leader": _batch().leader.astype(float)}, TypeError, "leader must be an array of int64, got float64"),
    ({"totals": np.zeros((2, 3), np.int64)}, ValueError, r"totals must have shape \(2, 4\)"),
    ({"stock": np.zeros((2, 5), np.int64)}, ValueError, r"stock must have shape \(2, 0\)"),
    ({"tricks_won": [[0, 0, 1, 1]] * 2}, TypeError, "tricks_won must be a numpy array"),
    (_with("leader", 1, 9), ValueError, "position 1: leader must be a seat 0..3 .*got 9"),
    (_with("leader", 0, -1), ValueError, "position 0: leader must be a seat 0..3"),
    (_with("dealer", 1, -3), ValueError, "position 1: dealer must be a seat 0..3, got -3"),
    (_with("trick_number", 1, 99), ValueError, "trick_number must be 0..12 .*got 99"),
    (_with("deal_index", 1, -1), ValueError, "deal_index must be 0 or more, got -1"),
    (_with("pass_direction", 1, 7), ValueError, r"pass_direction must be a direction index \[0, 1, 2, 3\]"),
    (_with("penalty_suit", 1, 0), ValueError, "penalty_suit must be 2 .hearts."),
    (_with("bidder", 1, 2), ValueError, "bidder must be -1: hearts has no bids"),
    (_with("high_bid", 1, -5), ValueError, "high_bid must be 0: hearts has no bids"),
    (_with("stock_pos", 1, 999), ValueError, "stock_pos must be 0..0"),
    (_with("tricks_won", 1, [0, 0, 1, -1]), ValueError, "tricks_won must be counts of tricks 0..13"),
    (_with("totals", 1, [0, 0, 0, 2**63 - 1]), ValueError, "totals must be game scores within"),
    (_with("trick", 1, [EMPTY, 1, EMPTY, EMPTY]), ValueError, "trick must be the cards in play order"),
    (_with("trick", 1, [70, EMPTY, EMPTY, EMPTY]), ValueError, r"trick must be cards 0..51 or EMPTY \(64\)"),
    (_with("trick", 1, [1, 2, 3, 4]), ValueError, "trick must be fewer than 4 cards"),
    (_with("decision_log", 1, [1, 0, 0, 0]), ValueError, "decision_log must be bits of hearts's 0 decisions"),
    (_with("uncounted", 1, 1), ValueError, "uncounted must be empty"),
    (_with("set_aside", 1, 1), ValueError, "set_aside must be empty"),
    (_with("voids", 1, 1 << 20), ValueError, "voids must be bits 4 . seat . suit of seats 0..3"),
    (_with("kitty", 1, 1), ValueError, "kitty must be empty: hearts has no kitty"),
    (_with("carried", 1, 1), ValueError, "carried must be empty: hearts plays one deck"),
    (_with("hands_hi", 1, [1, 0, 0, 0]), ValueError, "hands_hi must be empty: hearts plays one deck"),
    (_with("first_trick_winner", 1, 0), ValueError, "first_trick_winner must be -1"),
    (_with("partner", 1, 0), ValueError, "partner must be -1"),
    (_with("pool", 1, np.nan), ValueError, "pool must be a finite jackpot"),
    (_with("chosen", 1, np.roll(_batch().chosen[1], 1)), ValueError,
     "position 1: seat 0 passed 8C, 7S, AS left to seat 1, who received 8D, TD, 6S"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "error", "message"), BATCH_ROWS, ids=lambda v: None)
def test_an_impossible_batch_is_refused(changes: dict, error: type, message: str) -> None:
    rules, _ = HEARTS
    check_batch(rules, _batch())
    with pytest.raises(error, match=message):
        check_batch(rules, _batch().with_fields(**changes))


def test_not_a_batch_and_domino_stock() -> None:
    rules, _ = HEARTS
    with pytest.raises(TypeError, match="must be a hearts_env.games.hearts.PositionBatch, got dict"):
        check_batch(rules, {})  # type: ignore[arg-type]
    rules, domino = _live("domino_hearts", 7, on_table=0, after=3)
    batch = position_batch(rules, domino)
    stock = batch.stock.copy()
    pos = int(batch.stock_pos[0])
    assert pos < rules.stock_size - 1
    stock[0, -1] = stock[0, -2]
    with pytest.raises(ValueError, match="the stock holds a card twice"):
        check_batch(rules, batch.with_fields(stock=stock))
    with pytest.raises(ValueError, match=f"stock_pos must be 0..{rules.stock_size}"):
        check_batch(rules, batch.with_fields(stock_pos=np.array([999])))
    with pytest.raises(ValueError, match="cards from stock_pos on"):
        check_batch(rules, batch.with_fields(stock_pos=np.array([pos - 1])))


@pytest.mark.parametrize("name", preset_names("hearts"))
def test_live_positions_of_every_preset_are_accepted(name: str) -> None:
    """Positions read off live games (default player count, three points of play each) pass."""
    rules = make_rules(name)
    table = Table(rules, num_games=1)
    rng = np.random.default_rng(sum(map(ord, name)))
    table.reset(seed=1)
    checked = 0
    while not table.deal_over[0]:
        if table.state.phase[0] == PLAYING and rng.random() < 0.3:
            copy = Table(rules)
            copy.set_position(table.position(0))
            checked += 1
        table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
    assert checked
