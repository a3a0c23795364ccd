"""Positions (hearts_env.positions): a table started from a position read off a live game plays
on exactly as the live game does, in every Hearts-family preset and player count; hand-written
positions are checked, with errors that name what is wrong.
"""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env import Table, make_rules
from hearts_env.phases import PLAYING
from hearts_env.positions import Position
from hearts_env.presets import PRESETS, preset_names

CONFIGS = [
    (name, p) for name in preset_names("hearts") if make_rules(name).decks == 1 for p in PRESETS[name].counts
]

COMPARED = (
    "hands", "taken", "points", "tricks_won", "trick", "trick_mask", "played", "leader", "current",
    "lead_suit", "best", "position", "trick_number", "first_trick_winner", "voids", "kitty", "bidder",
    "high_bid", "penalty_suit", "partner", "decision_log", "totals", "dealer", "deal_index", "phase",
    "chosen", "received", "stock_pos", "trick_size", "all_penalty",
)  # fmt: skip
"""The state fields a position gives back exactly (the previous trick's record, for display,
is not part of a position)."""


def _random_action(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_round_trip(name: str, players: int) -> None:
    rules = make_rules(name, num_players=players)
    rng = np.random.default_rng(players * 1000 + sum(map(ord, name)))
    live = Table(rules, num_games=1)
    checked = 0
    for deal in range(3):
        live.reset(seed=int(rng.integers(1 << 30)))
        stops = set(rng.integers(0, rules.hand_size * players, size=3).tolist())
        step = 0
        while not live.deal_over[0]:
            if live.state.phase[0] == PLAYING and step in stops:
                copy = Table(rules, num_games=1)
                copy.set_position(live.position(0))
                for field in COMPARED:
                    a, b = getattr(live.state, field), getattr(copy.state, field)
                    if field == "lead_suit" and live.state.position[0] == 0:
                        continue  # the previous trick's, not read before a card is led
                    assert np.array_equal(a, b), f"{name}-{players}p deal {deal}: {field} {a} != {b}"
                # both play on alike to the end of the deal
                seed = int(rng.integers(1 << 30))
                a_rng, b_rng = np.random.default_rng(seed), np.random.default_rng(seed)
                twin = Table(rules, num_games=1)
                twin.state = live.state.copy()
                while not twin.deal_over[0]:
                    action = _random_action(twin.action_mask(), a_rng)
                    assert np.array_equal(copy.action_mask(), twin.action_mask())
                    r1, r2 = twin.step(action), copy.step(_random_action(copy.action_mask(), b_rng))
                    assert np.array_equal(r1.rewards, r2.rewards)
                assert copy.deal_over[0]
                assert np.array_equal(twin.deal_points, copy.deal_points)
                assert np.array_equal(
                    twin.observe(np.zeros(1, np.int64)), copy.observe(np.zeros(1, np.int64))
                )
                checked += 1
            live.step(_random_action(live.action_mask(), rng))
            step += 1
    assert checked >= 1


def test_a_hand_written_endgame() -> None:
    rules = make_rules("hearts")
    table = Table(rules, num_games=2)
    # ten tricks played; seat 2 led 9♦, seat 3 followed with 8♦; seat 0 must follow with T♦
    hands = [["2H", "3H", "TD"], ["QS", "4D", "5D"], ["KS", "6D"], ["AS", "7D"]]
    trick = ["9D", "8D"]
    held = {c for h in hands for c in h} | set(trick)
    rest = [c for c in (f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA") if c not in held]
    played = [rest[i::4] for i in range(4)]
    played[2].append("9D")
    played[3].append("8D")
    taken = [rest[:20], rest[20:], [], []]
    position = Position(
        hands=hands, played=played, taken=taken, tricks_won=[5, 5, 0, 0], trick=trick, leader=2
    )
    table.set_position(position)
    assert table.current_player.tolist() == [0, 0]
    assert np.flatnonzero(table.action_mask()[0]).tolist() == [rules.action_names.index("TD")]
    back = table.position(0)
    assert list(back.trick) == trick
    assert back.tricks_won == [5, 5, 0, 0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [["2C", "3C"], ["2C"], [], []]}, "2C is in two places"),
        ({"trick": ["AS"]}, "no seat.s played cards"),
        ({"tricks_won": [1, 0, 0, 0]}, "played in finished tricks"),
    ],
)
def test_inconsistent_positions_are_named(change: dict, message: str) -> None:
    rules = make_rules("hearts")
    deal = Table(rules)
    deal.reset(seed=3, options={"pass_direction": "hold"})
    base = deal.position(0)
    bad = Position(**{**base.__dict__, **change})
    with pytest.raises(ValueError, match=message):
        Table(rules).set_position(bad)


def test_out_of_turn_and_illegal_trick_cards() -> None:
    rules = make_rules("hearts")
    deal = Table(rules)
    deal.reset(seed=5, options={"pass_direction": "hold"})
    start = deal.position(0)
    leader = deal.current_player[0]
    hands = [list(h) for h in start.hands]
    # the leader leads a heart on the first trick: illegal
    heart = next(c for c in hands[leader] if c.endswith("H"))
    hands[leader].remove(heart)
    played = [[] for _ in hands]
    played[leader] = [heart]
    bad = Position(hands=hands, played=played, trick=[heart], leader=int(leader))
    with pytest.raises(ValueError, match="cannot play"):
        Table(rules).set_position(bad)


def test_smear_and_two_decks_refused() -> None:
    for name in ("smear_partnership", "cancellation_hearts"):
        rules = make_rules(name)
        with pytest.raises(NotImplementedError):
            Table(rules).set_position(Position(hands=[[]] * rules.num_players))


def test_reset_option_and_seed() -> None:
    rules = make_rules("black_maria")
    live = Table(rules)
    live.reset(seed=11)
    while live.state.phase[0] != PLAYING:
        live.step(np.array([np.flatnonzero(live.action_mask()[0])[0]]))
    for _ in range(5):
        live.step(np.array([np.flatnonzero(live.action_mask()[0])[0]]))
    position = live.position(0)
    table = Table(rules, num_games=3)
    table.reset(seed=1, options={"position": position})
    assert (table.state.hands == live.state.hands[0]).all()
    with pytest.raises(ValueError, match="exclude each other"):
        table.reset(options={"position": position, "dealer": 1})
