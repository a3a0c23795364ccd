"""Smear positions, Smear's world sampler and ``pimc`` in Smear.

* positions read off live games of every Smear preset and player count start tables that
  play on exactly as the games do (the same masks, rewards and observations);
* every sampled world, started as a position, shows the observer exactly the observation it
  was drawn for, its trick in progress is legal, and a world's masks are the observer's;
* on a late five-point position, the worlds the sampler counts are those a brute-force
  enumeration of every placement of the unseen cards keeps, and its draws are uniform over
  them (chi-square);
* ``pimc`` plays every Smear preset, and a hand-written position has the errors named.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import agents
from hearts_env import Table, make_rules
from hearts_env.core.bits import U64
from hearts_env.core.phases import PLAYING
from hearts_env.games.smear.positions import SmearPositionBatch, check_batch
from hearts_env.games.smear.worlds import knowledge, world_positions
from hearts_env.presets import all_configs, preset_names
from hearts_env.worlds import exact_count, sample_worlds

CONFIGS = all_configs("smear")
SAME = ("hands", "held", "played", "thrown", "taken", "trick_by_seat", "trick_cards", "trick_seats",
        "trick_len", "pending", "turn_left", "lead_suit", "leader", "current", "trumps", "pitcher",
        "high_bid", "bids", "totals", "stock_pos")  # fmt: skip
"""The state fields a table started from a position must have as the game it was read from."""


def _random_play(table: Table, rng: np.random.Generator, steps: int) -> None:
    """Random legal actions for ``steps`` steps (or until every deal is over)."""
    for _ in range(steps):
        if table.deal_over.all():
            return
        mask = table.action_mask()
        table.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]))


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_round_trip(name: str, players: int) -> None:
    rules = make_rules(name, players)
    table = Table(rules, num_games=4)
    table.reset(seed=players)
    rng = np.random.default_rng(players)
    checked = 0
    for _ in range(400):
        if table.deal_over.all() or checked >= 4:
            break
        _random_play(table, rng, 1)
        live = np.flatnonzero(table.state.phase == PLAYING)
        for g in live[rng.random(len(live)) < 0.1][:1]:  # now and then, mid-trick or between
            position = table.position(int(g))
            check_batch(rules, position)
            copy = Table(rules, num_games=1)
            copy.set_position(position)
            for field in SAME:
                assert np.array_equal(getattr(copy.state, field)[0], getattr(table.state, field)[g]), field
            twin_rng = np.random.default_rng(int(g))
            original = Table(rules, num_games=1)
            original.state.put(np.array([0]), table.state.take(np.array([g])))
            while not copy.deal_over[0]:
                mask = copy.action_mask()
                assert np.array_equal(mask, original.action_mask())
                assert np.allclose(copy.observe(), original.observe())
                action = np.array([twin_rng.choice(np.flatnonzero(mask[0]))])
                a, b = copy.step(action), original.step(action)
                assert np.array_equal(a.rewards, b.rewards)
            assert np.array_equal(copy.state.deal_points, original.state.deal_points)
            checked += 1
    assert checked


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_sampled_worlds_show_the_observer_what_he_saw(name: str, players: int) -> None:
    rules = make_rules(name, players)
    table = Table(rules, num_games=4)
    table.reset(seed=10 + players)
    rng = np.random.default_rng(players)
    seen = 0
    for _ in range(200):
        if table.deal_over.all():
            break
        obs, mask = table.observe(), table.action_mask()
        for g in np.flatnonzero((table.state.phase == PLAYING) & (mask.sum(axis=1) > 1))[:1]:
            drawn = sample_worlds(rules, obs[g], 24, rng)
            positions = world_positions(rules, obs[g], drawn, rng)
            check_batch(rules, positions)
            worlds = Table(rules, num_games=24)
            worlds.set_position(positions)  # checked: the trick in progress is legal in every world
            assert (worlds.current_player == 0).all()
            assert (worlds.action_mask() == mask[g]).all()
            assert np.allclose(worlds.observe(), obs[g][None], atol=1e-5)
            seen += 1
        _random_play(table, rng, 1)
    assert seen >= 3


def _late_five_point() -> tuple[object, np.ndarray, Table, int]:
    """A five-point position two tricks from the end of the deal where a seat has shown out
    in the trick in progress, and its observation."""
    rules = make_rules("smear_five_point", 4)
    for seed in range(50):
        table = Table(rules, num_games=1)
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not table.deal_over[0]:
            s = table.state
            late = s.phase[0] == PLAYING and s.trick_number[0] == rules.hand_size - 2 and s.trick_len[0] >= 2
            if late and knowledge(rules, table.observe()[0]).voids.any():  # a show-out in the trick
                return rules, table.observe()[0], table, seed
            _random_play(table, rng, 1)
    raise AssertionError("no late position found")


def test_counts_and_draws_match_a_brute_force_enumeration() -> None:
    rules, obs, table, _ = _late_five_point()
    k = knowledge(rules, obs)
    unseen = [int(c) for c in np.flatnonzero(k.unseen)]
    sizes = [int(x) for x in k.sizes[1 : rules.num_players]]
    # Every placement of the unseen cards in the other hands (the rest out of play), kept when
    # a table started from it shows the observer his observation and the trick is legal.
    placements = []
    for one in combinations(unseen, sizes[0]):
        after = [c for c in unseen if c not in one]
        for two in combinations(after, sizes[1]):
            rest = [c for c in after if c not in two]
            for three in combinations(rest, sizes[2]):
                placements.append((one, two, three))
    hands = np.zeros((len(placements), rules.num_players), U64)
    hands[:, 0] = U64(sum(1 << int(c) for c in np.flatnonzero(k.hand)))
    for i, seats in enumerate(placements):
        for q, cards in enumerate(seats, start=1):
            hands[i, q] = U64(sum(1 << c for c in cards))
    all_cards = U64(sum(1 << c for c in unseen))
    rest = all_cards & ~np.bitwise_or.reduce(hands[:, 1:], axis=1)
    from hearts_env.worlds import Worlds

    rng = np.random.default_rng(0)
    positions = world_positions(rules, obs, Worlds(hands, rest), rng)
    # The trick in progress played again in every placement from its leader: a placement
    # where a card of it was not legal (a seat that showed out holding the suit) is out.
    cards, seats = positions.trick[0], positions.trick_seats[0]
    on = cards[cards != 64]
    back = np.zeros_like(positions.hands)
    for card, seat in zip(on, seats):
        back[:, seat] |= U64(1 << int(card))
    start = positions.with_fields(
        hands=positions.hands | back, played=positions.played & ~back,
        trick=np.full_like(positions.trick, 64), trick_seats=np.full_like(positions.trick_seats, -1),
    )  # fmt: skip
    probe = Table(rules, num_games=len(placements))
    probe.set_position(start, check=False)
    legal = np.ones(len(placements), bool)
    for card in on:
        legal &= probe.action_mask()[:, card] > 0
        probe.step(np.where(legal, card, probe.action_mask().argmax(axis=1)))
    shown = np.isclose(probe.observe(), obs[None], atol=1e-5).all(axis=1)
    kept = [int(i) for i in np.flatnonzero(legal & shown)]
    assert 1 < len(kept) < len(placements)  # the trick's show-outs rule some placements out
    assert exact_count(rules, obs) == len(kept)
    index = {tuple(int(x) for x in hands[i, 1:]): n for n, i in enumerate(kept)}
    drawn = sample_worlds(rules, obs, 200 * len(kept), np.random.default_rng(1))
    counts = np.zeros(len(kept))
    for row in drawn.hands:
        key = tuple(int(x) for x in row[1:])
        assert key in index, "a sampled world the enumeration rules out"
        counts[index[key]] += 1
    expected = counts.sum() / len(kept)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = len(kept) - 1
    assert chi2 < dof + 5 * np.sqrt(2 * dof), (chi2, dof)  # ~ p > 1e-6 under uniform draws


@pytest.mark.parametrize("name", preset_names("smear"))
def test_pimc_plays_every_smear_preset(name: str) -> None:
    rules = make_rules(name)
    pimc = agents.from_rules("pimc", rules, worlds=3)
    table = Table(rules, num_games=2)
    table.reset(seed=3)
    other = agents.from_rules("smear", rules)
    rng = np.random.default_rng(3)
    while not table.deal_over.all():
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        actions = np.zeros(2, np.int64)
        live = np.flatnonzero(~table.deal_over)
        actions[live] = other.act({k: v[live] for k, v in obs.items()}, rng)
        mine = np.flatnonzero(~table.deal_over & (table.current_player % 2 == 0))
        if len(mine):
            actions[mine] = pimc.act({k: v[mine] for k, v in obs.items()}, rng)
        table.step(actions)  # raises on an illegal action
    assert pimc.decisions > 0


def test_pimc_refuses_hearts_rollouts_in_smear() -> None:
    with pytest.raises(ValueError, match="Hearts-family player"):
        agents.from_rules("pimc", make_rules("smear_partnership"), rollout="ducker")


def test_inconsistent_smear_positions_are_named() -> None:
    rules = make_rules("smear_partnership")
    table = Table(rules)
    table.reset(seed=2)
    rng = np.random.default_rng(2)
    while table.state.phase[0] != PLAYING or not table.state.played.any():
        _random_play(table, rng, 1)
    position = table.position(0)
    twice = position.hands.copy()
    twice[0, 1] |= position.hands[0, 0] & (~position.hands[0, 0] + U64(1))  # seat 0's lowest card too
    with pytest.raises(ValueError, match="is both"):
        table.set_position(position.with_fields(hands=twice))
    gone = position.hands.copy()
    gone[0, 0] = U64(0)
    with pytest.raises(ValueError, match="in no place"):
        table.set_position(position.with_fields(hands=gone))
    with pytest.raises(ValueError, match="pitcher"):
        table.set_position(position.with_fields(pitcher=np.array([9])))
    with pytest.raises(TypeError, match="SmearPositionBatch"):
        table.set_position("QS")
    assert isinstance(position, SmearPositionBatch) and len(position) == 1


def test_nine_card_first_trick_worlds_replay_every_turn() -> None:
    """On nine-card Smear's first trick a seat plays one trump, or one per trump it held beyond
    six: each world must give every seat that has played the trumps its plays imply, or the
    trick cannot be played again (``set_position`` names the card out of turn)."""
    rules = make_rules("smear_nine_card", 4)
    checked = 0
    for seed in range(2):
        table = Table(rules, num_games=6)
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not table.deal_over.all():
            mask, obs, s = table.action_mask(), table.observe(), table.state
            for g in np.flatnonzero((s.phase == PLAYING) & (mask.sum(axis=1) > 1) & (s.trick_number == 0)):
                positions = world_positions(rules, obs[g], sample_worlds(rules, obs[g], 32, rng), rng)
                worlds = Table(rules, num_games=32)
                worlds.set_position(positions)
                assert (worlds.action_mask() == mask[g]).all()
                checked += 1
            _random_play(table, rng, 1)
    assert checked > 10


def test_count_bounds_match_a_brute_force_count() -> None:
    """The counting programme with per-suit count bounds (and voids) against every placement."""
    from hearts_env.core.sampler import Knowledge
    from hearts_env.core.sampler import count_worlds as _count

    unseen = np.zeros(16, np.int64)
    unseen[[0, 1, 2, 13, 14, 15]] = 1  # six cards: three of suit 0, three of suit 1
    suit = np.array([0] * 13 + [1] * 3)
    sizes = np.array([0, 2, 2, 1])
    voids = np.zeros((4, 5), bool)
    voids[3, 1] = True
    cases = [(), ((1, 0, 1, 1 << 30),), ((1, 0, 2, 2), (2, 1, 0, 1)), ((2, 0, 3, 3),)]
    cards = [int(c) for c in np.flatnonzero(unseen)]
    for counts in cases:
        k = Knowledge(np.zeros(16, np.int64), unseen, np.zeros((4, 16), np.int64), sizes, voids, 1, "stock",
                      suit, counts)  # fmt: skip
        brute = 0
        for one in combinations(cards, 2):
            for two in combinations([c for c in cards if c not in one], 2):
                for three in combinations([c for c in cards if c not in one + two], 1):
                    hands = {1: one, 2: two, 3: three}
                    if any(suit[c] == 1 for c in three):
                        continue
                    fits = all(lo <= sum(suit[c] == g for c in hands[q]) <= hi for q, g, lo, hi in counts)
                    brute += fits
        assert _count(k) == brute, counts
