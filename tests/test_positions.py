"""Positions (hearts_env.games.hearts.positions): a table started from a position read off a live game plays
on exactly as the live game does, in every Hearts-family preset and player count (Cancellation
Hearts' two decks, cancelled tricks and carried cards included); hand-written positions are
checked, with errors that name what is wrong; the worlds the search agent builds for two decks
are positions that pass the checks and show the observer what he saw.
"""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env import Table, make_rules
from hearts_env.core.cards import parse_card
from hearts_env.core.phases import PLAYING
from hearts_env.games.hearts.positions import Position, check_batch
from hearts_env.observation import layout
from hearts_env.presets import PRESETS, preset_names
from hearts_env.worlds import sample_worlds, world_positions

CONFIGS = [(name, p) for name in preset_names("hearts") for p in PRESETS[name].counts]
TWO_DECKS = [(name, p) for name, p in CONFIGS if make_rules(name).decks == 2]
assert TWO_DECKS  # Cancellation Hearts, at each of its player counts

COMPARED = (
    "hands", "taken", "points", "tricks_won", "trick", "trick_mask", "played", "leader", "current",
    "lead_suit", "best", "position", "trick_number", "first_trick_winner", "voids", "kitty", "bidder",
    "high_bid", "penalty_suit", "partner", "decision_log", "totals", "dealer", "deal_index", "phase",
    "chosen", "received", "stock_pos", "trick_size", "all_penalty",
    # two decks (zeros with one deck): the second words, the pairs on the table, the carried cards
    "hands_hi", "taken_hi", "held_hi", "chosen_hi", "received_hi", "kitty_hi", "trick_pairs", "carried",
    "carried_hi",
)  # fmt: skip
"""The state fields a position gives back exactly (the previous trick's record, for display,
is not part of a position)."""


def _random_action(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


def _check_copy(live: Table, label: str, rng: np.random.Generator) -> None:
    """A table started from the position of ``live`` (one game, in play) has its state, and
    both play on alike to the end of the deal: masks, rewards, deal points, observations."""
    rules = live.rules
    copy = Table(rules, num_games=1)
    copy.set_position(live.position(0))
    for field in COMPARED:
        a, b = getattr(live.state, field), getattr(copy.state, field)
        if field == "lead_suit" and live.state.position[0] == 0:
            continue  # the previous trick's, not read before a card is led
        assert np.array_equal(a, b), f"{label}: {field} {a} != {b}"
    seed = int(rng.integers(1 << 30))
    a_rng, b_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    twin = Table(rules, num_games=1)
    twin.state = live.state.copy()
    while not twin.deal_over[0]:
        action = _random_action(twin.action_mask(), a_rng)
        assert np.array_equal(copy.action_mask(), twin.action_mask()), label
        r1, r2 = twin.step(action), copy.step(_random_action(copy.action_mask(), b_rng))
        assert np.array_equal(r1.rewards, r2.rewards), label
    assert copy.deal_over[0]
    assert np.array_equal(twin.deal_points, copy.deal_points), label
    assert np.array_equal(twin.observe(np.zeros(1, np.int64)), copy.observe(np.zeros(1, np.int64))), label


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
                _check_copy(live, f"{name}-{players}p deal {deal}", rng)
                checked += 1
            live.step(_random_action(live.action_mask(), rng))
            step += 1
    assert checked >= 1


def test_two_deck_round_trips_through_cancelled_tricks() -> None:
    """Cancellation Hearts with 7 players (a kitty of 6): positions with a pair on the table,
    with cards carried from a cancelled trick, and with the kitty carried (the first trick
    cancelled) play on exactly as the live game."""
    rules = make_rules("cancellation_hearts", num_players=7)
    rng = np.random.default_rng(77)
    live = Table(rules, num_games=1)
    cases = {"pair on the table": 0, "cards carried": 0, "kitty carried": 0}
    for deal in range(40):
        live.reset(seed=deal)
        while not live.deal_over[0]:
            s = live.state
            if s.phase[0] == PLAYING:
                found = {
                    "pair on the table": bool(s.trick_pairs[0]),
                    "cards carried": bool(s.carried[0]),
                    "kitty carried": bool(s.trick_number[0]) and s.first_trick_winner[0] < 0,
                }
                for case, now in found.items():
                    if now and cases[case] < 2:
                        _check_copy(live, f"deal {deal}, {case}", rng)
                        cases[case] += 1
            live.step(_random_action(live.action_mask(), rng))
        if min(cases.values()) == 2:
            break
    assert cases == dict.fromkeys(cases, 2)


def _two_deck_endgame() -> Position:
    """Cancellation Hearts, 6 players: 15 tricks played, the last one cancelled (Q♠, 2♥, 3♥
    among its cards, carried); seat 2 led K♦ and seat 3 played the other K♦ (a pair: they
    cancel), seat 4 the 3♦; seats 5, 0 and 1 must follow with 4♦, 9♦ and 2♦, so 9♦ wins."""
    hands = [["9D", "5S"], ["2D", "3S"], ["AS"], ["AC"], ["KC"], ["4D", "2S"]]
    trick, carried, kitty = ["KD", "KD", "3D"], ["QS", "2H", "3H", "4C", "5C", "6C"], ["7C", "7C"]
    rest = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"] * 2
    for card in [c for hand in hands for c in hand] + trick + carried + kitty:
        rest.remove(card)
    played = [(rest + carried)[seat::6] for seat in range(6)]  # 15 cards each
    for j, card in enumerate(trick):
        played[2 + j].append(card)
    return Position(
        hands=hands, played=played, taken=[rest[:42] + kitty, rest[42:], [], [], [], []],
        tricks_won=[7, 7, 0, 0, 0, 0], trick=trick, leader=2, kitty=kitty, first_trick_winner=0,
        carried=carried,
    )  # fmt: skip


def test_a_hand_written_two_deck_position() -> None:
    rules = make_rules("cancellation_hearts")
    table = Table(rules, num_games=1)
    position = _two_deck_endgame()
    table.set_position(position)
    s = table.state
    assert s.trick_number[0] == 15 and s.current[0] == 5
    assert s.trick_pairs[0] == 1 << parse_card("KD")
    assert s.hands_hi[0].tolist() == [0] * 6 and s.kitty_hi[0] == 1 << parse_card("7C")
    points_before = s.points[0].copy()
    for card, seat in (("4D", 5), ("9D", 0), ("2D", 1)):  # each the only legal card
        assert np.flatnonzero(table.action_mask()[0]).tolist() == [rules.action_names.index(card)]
        assert table.current_player[0] == seat
        table.step(np.array([rules.action_names.index(card)]))
    # 9D wins (the K♦ pair cancels) and takes the trick with the carried cards: Q♠, 2♥, 3♥
    assert table.state.last_winner[0] == 0 and not table.state.last_cancelled[0]
    assert (table.state.points[0] - points_before).tolist() == [15, 0, 0, 0, 0, 0]
    assert table.state.carried[0] == 0 and table.state.tricks_won[0].tolist() == [8, 7, 0, 0, 0, 0]
    back = Table(rules)
    back.set_position(position)
    read = back.position(0)
    assert sorted(map(parse_card, read.carried)) == sorted(map(parse_card, position.carried))
    assert sorted(map(parse_card, read.kitty)) == [parse_card("7C")] * 2
    assert list(read.trick) == ["KD", "KD", "3D"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"carried": ["QS", "2H", "3H", "4C", "5C", "6C", "QS", "QS"]}, "QS 3 times"),
        ({"carried": None}, "copies in no hand.*Q"),
        ({"tricks_won": [8, 7, 0, 0, 0, 0]}, "no trick was cancelled"),
        ({"leader": 1}, "KD is card 1 of the trick led by seat 1, so seat 1.s"),
        ({"first_trick_winner": 1}, "first_trick_winner 1 did not take the kitty"),
    ],
)
def test_inconsistent_two_deck_positions_are_named(change: dict, message: str) -> None:
    rules = make_rules("cancellation_hearts")
    bad = Position(**{**_two_deck_endgame().__dict__, **change})
    with pytest.raises(ValueError, match=message):
        Table(rules).set_position(bad)


@pytest.mark.parametrize(("name", "players"), TWO_DECKS[:: len(TWO_DECKS) - 1])
def test_two_deck_world_positions_show_the_observer_what_he_saw(name: str, players: int) -> None:
    """The search agent's positions of sampled worlds (two decks) pass the checks, and the
    observer's observation at a table started from them is the one they were drawn from."""
    rules = make_rules(name, num_players=players)
    rng = np.random.default_rng(players)
    live = Table(rules, num_games=1)
    checked, carried = 0, 0
    for deal in range(2):
        live.reset(seed=deal)
        while not live.deal_over[0]:
            if live.state.phase[0] == PLAYING:
                observation = live.observe()[0]
                batch = world_positions(rules, observation, sample_worlds(rules, observation, 3, rng), rng)
                check_batch(rules, batch)
                copy = Table(rules, num_games=3)
                copy.set_position(batch)
                seen = copy.observe(np.zeros(3, np.int64))
                lay = layout(rules)
                wrong = [name for name, sl in lay.slices.items() if (seen[:, sl] != observation[sl]).any()]
                assert not wrong, f"deal {deal}, trick {live.state.trick_number[0]}: {wrong} differ"
                checked += 1
                carried += bool(batch.carried.any())
            live.step(_random_action(live.action_mask(), rng))
    assert checked == 2 * rules.hand_size * players and carried  # every card play of two deals


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
