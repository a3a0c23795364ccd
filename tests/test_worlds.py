"""The world sampler (hearts_env.worlds): exact counts against brute force, uniform draws by a
chi-square test, and draws from real positions of every Hearts-family preset against the truth.

The brute force places every copy the observer cannot see (the passed cards too) in every
way that fits the hand sizes, and keeps the placements that respect the voids and the passes:
written from the rules, not from the sampler's programme.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from math import sqrt

import numpy as np
import pytest

from hearts_env import Table, layout, make_rules
from hearts_env.core import cardsets
from hearts_env.core.bits import SUIT_MASK, U64, ZERO
from hearts_env.core.cards import card_name, parse_cards
from hearts_env.core.rules import Rules
from hearts_env.games.hearts.stock import remaining
from hearts_env.games.hearts.worlds import _split_points
from hearts_env.presets import PRESETS, preset_names
from hearts_env.worlds import exact_count, knowledge, sample_worlds

DIRECTIONS = ("left", "right", "across", "hold")


def observation(
    rules: Rules,
    hand: str,
    played: Mapping[int, str],
    voids: Mapping[int, str] = {},
    passed: str = "",
    direction: str = "hold",
    kitty: str = "",
    hand_sizes: Sequence[int] | None = None,
    stock_left: int = 0,
) -> np.ndarray:
    """A hand-built observation (relative seats) of the playing phase."""
    lay = layout(rules)
    obs = np.zeros(lay.size, np.float32)
    sl = lay.slices
    p = rules.num_players

    def put(name: str, cards: str, row: int | None = None) -> None:
        view = obs[sl[name]].reshape(lay.shape(name))
        target = view if row is None else view[row]
        for card in parse_cards(cards):
            target[card] += 1

    put("hand", hand)
    for seat, cards in played.items():
        put("played_by_seat", cards, seat)
    put("passed", passed)
    if kitty:
        put("kitty", kitty)
    void_view = obs[sl["known_voids"]].reshape(p, 4)
    for seat, suits in voids.items():
        for suit in suits:
            void_view[seat, "CDHS".index(suit)] = 1
    obs[sl["pass_direction"]][DIRECTIONS.index(direction)] = 1
    obs[sl["phase"]][rules.phases.index("playing")] = 1
    if hand_sizes is not None:
        obs[sl["hand_sizes"]] = np.array(hand_sizes, np.float32) / rules.hand_size
        obs[sl["stock_left"]] = stock_left / rules.stock_size
    return obs


def rest_of_deck(rules: Rules, *used: str) -> list[int]:
    """The deck's cards (every copy) less those named in ``used``, lowest first."""
    left = Counter(rules.deck.cards)
    for cards in used:
        left.subtract(parse_cards(cards))
    assert min(left.values()) >= 0
    return sorted(left.elements())


def spread(cards: list[int], counts: Sequence[int]) -> list[str]:
    """``cards`` cut into consecutive piles of ``counts`` cards, as card-name strings."""
    piles, at = [], 0
    for n in counts:
        piles.append(" ".join(card_name(c) for c in cards[at : at + n]))
        at += n
    assert at == len(cards)
    return piles


# ---------------------------------------------------------------- the hand-built positions
def _position_plain() -> tuple[Rules, np.ndarray]:
    """Standard Hearts, two cards a hand: six unseen cards, two seats with voids."""
    rules = make_rules("hearts")
    hidden, hand = "2C 9C 5D KD 3H QS", "AC AS"
    piles = spread(rest_of_deck(rules, hidden, hand), [11, 11, 11, 11])
    return rules, observation(rules, hand, dict(enumerate(piles)), voids={1: "S", 2: "DH"})


def _position_pass() -> tuple[Rules, np.ndarray]:
    """Standard Hearts after a pass to the left: the receiver played one passed card."""
    rules = make_rules("hearts")
    hidden, hand, passed = "2C 9C 5D KD 3H QS 7S", "AC", "QS 7S 8H"
    piles = spread(rest_of_deck(rules, hidden, hand, "8H"), [12, 9, 11, 11])
    piles[1] += " 8H"
    return rules, observation(
        rules, hand, dict(enumerate(piles)), voids={2: "C", 3: "S"}, passed=passed, direction="left"
    )


def _position_kitty() -> tuple[Rules, np.ndarray]:
    """Heartsette: the widow of three went to another seat; one card a hand."""
    rules = make_rules("heartsette")
    hidden, hand = "3C 5D 8H JH KS AS", "2D"
    piles = spread(rest_of_deck(rules, hidden, hand), [11, 11, 11, 11])
    return rules, observation(rules, hand, dict(enumerate(piles)), voids={1: "HS", 3: "D"})


def _position_taken_kitty() -> tuple[Rules, np.ndarray]:
    """Heartsette: the observer took the widow (its cards are seen); two cards a hand."""
    rules = make_rules("heartsette")
    hidden, hand, kitty = "3C 5D 8H JH KS AS", "2D 4D", "6C 7C 8C"
    piles = spread(rest_of_deck(rules, hidden, hand, kitty), [10, 10, 10, 10])
    return rules, observation(rules, hand, dict(enumerate(piles)), voids={2: "S"}, kitty=kitty)


def _position_two_decks() -> tuple[Rules, np.ndarray]:
    """Cancellation Hearts (two decks, six players): unseen pairs, one unseen copy, the kitty."""
    rules = make_rules("cancellation_hearts")
    hidden, hand = "5C 5C QS QS 8H 2D", "3C"
    piles = spread(rest_of_deck(rules, hidden, hand), [16, 16, 16, 16, 16, 17])
    return rules, observation(rules, hand, dict(enumerate(piles)), voids={1: "S", 3: "C"})


def _position_two_decks_pass() -> tuple[Rules, np.ndarray]:
    """Cancellation Hearts after a pass: one copy of Q♠ passed left and not played."""
    rules = make_rules("cancellation_hearts")
    hidden, hand = "5C 5C QS QS 8H 2D", "3C 4C"
    piles = spread(rest_of_deck(rules, hidden, hand, "9D 9D"), [15, 13, 16, 16, 17, 17])
    piles[1] += " 9D 9D"  # the receiver played both passed 9♦
    return rules, observation(
        rules, hand, dict(enumerate(piles)), voids={2: "H"}, passed="QS 9D 9D", direction="left"
    )


def _position_joker() -> tuple[Rules, np.ndarray]:
    """Joker Hearts: the unseen joker fits a hand void in every suit but one."""
    rules = make_rules("joker_hearts")
    hidden, hand = "JK1 4C 6D 9H QS", "2C 3C"
    piles = spread(rest_of_deck(rules, hidden, hand), [11, 11, 11, 12])
    return rules, observation(rules, hand, dict(enumerate(piles)), voids={1: "CD", 2: "H"})


def _position_stock() -> tuple[Rules, np.ndarray]:
    """Domino Hearts: sizes from the hand_sizes piece, an unseen stock of three."""
    rules = make_rules("domino_hearts")
    hidden, hand = "2C 7C 4D TH JH QS AS", "KC"
    played = spread(rest_of_deck(rules, hidden, hand), [11, 11, 11, 11])
    return rules, observation(
        rules, hand, dict(enumerate(played)), voids={3: "C"}, hand_sizes=[1, 2, 1, 1], stock_left=3
    )


POSITIONS: dict[str, Callable[[], tuple[Rules, np.ndarray]]] = {
    "plain": _position_plain,
    "pass": _position_pass,
    "kitty": _position_kitty,
    "taken_kitty": _position_taken_kitty,
    "two_decks": _position_two_decks,
    "two_decks_pass": _position_two_decks_pass,
    "joker": _position_joker,
    "stock": _position_stock,
}


# ---------------------------------------------------------------- the brute force
def brute_force(rules: Rules, obs: np.ndarray) -> Counter:
    """Every placement of the copies the observer cannot see: count-world -> placements.

    A count-world is a tuple, per holder (relative seats 1..P-1, then the kitty or stock), of
    the sorted cards it holds."""
    lay = layout(rules)
    p = rules.num_players

    def cards(name: str) -> list[int]:
        counts = np.rint(lay.view(obs, name)).astype(int).reshape(-1, rules.card_slots).sum(axis=0)
        return [c for c in range(rules.card_slots) for _ in range(counts[c])]

    played = np.rint(lay.view(obs, "played_by_seat")).astype(int)
    seen = cards("hand") + cards("played_by_seat") + (cards("kitty") if "kitty" in lay.slices else [])
    unseen = rest_of_deck(rules)
    for c in seen:
        unseen.remove(c)
    if "hand_sizes" in lay.slices:
        sizes = list(np.rint(lay.view(obs, "hand_sizes") * rules.hand_size).astype(int))
        rest = round(float(lay.view(obs, "stock_left")[0]) * rules.stock_size)
    else:
        sizes = [rules.hand_size - int(played[q].sum()) for q in range(p)]
        rest = 0 if "kitty" in lay.slices and cards("kitty") else rules.kitty_size
    voids = np.rint(lay.view(obs, "known_voids")).astype(bool)
    receiver = rules.pass_offset(DIRECTIONS[int(np.argmax(lay.view(obs, "pass_direction")))])
    must_hold = Counter(cards("passed"))
    must_hold.subtract(c for c in range(rules.card_slots) for _ in range(played[receiver, c]))
    # The passed copies are physical cards the receiver got: with two decks the other copy of
    # a passed card is unseen like any card, so the passed ones are placed before the rest.
    passed_held = [c for c, n in must_hold.items() for _ in range(max(n, 0))]
    for c in passed_held:
        unseen.remove(c)
        sizes[receiver] -= 1
    slots = [q for q in range(1, p) for _ in range(sizes[q])] + [p] * rest
    assert len(slots) == len(unseen)
    worlds: Counter = Counter()
    for order in itertools.permutations(range(len(unseen))):
        held: dict[int, list[int]] = {q: [] for q in range(1, p + 1)}
        if receiver:
            held[receiver] += passed_held
        for slot, item in zip(slots, order):
            held[slot].append(unseen[item])
        if any(c < 52 and voids[q, c // 13] for q in range(1, p) for c in held[q]):
            continue
        worlds[tuple(tuple(sorted(held[q])) for q in range(1, p + 1))] += 1
    # Each placement of the copies is one order of the slots within each holder.
    per = int(np.prod([np.prod(range(1, n + 1)) for n in Counter(slots).values()]))
    return Counter({world: n // per for world, n in worlds.items()})


def world_keys(rules: Rules, drawn: np.ndarray, rest: np.ndarray) -> list[tuple]:
    """The count-world of each sampled world, in :func:`brute_force`'s form."""
    p = rules.num_players
    if rules.decks == 1:
        drawn, rest = np.stack([drawn, np.zeros_like(drawn)], -1), np.stack([rest, np.zeros_like(rest)], -1)
    keys = []
    for hands, kitty in zip(drawn.tolist(), rest.tolist()):
        holders = [*hands[1:p], kitty]
        keys.append(tuple(tuple(cardsets.to_list(lo, hi)) for lo, hi in holders))
    return keys


def chi_square_rejects(observed: Counter, expected: Mapping[tuple, float], samples: int) -> bool:
    """Whether a chi-square test at the 0.1% level rejects ``observed`` (counts of sampled
    count-worlds) against ``expected`` (their probabilities); a world outside ``expected``
    rejects at once. The critical value is the Wilson–Hilferty approximation."""
    if set(observed) - set(expected):
        return True
    statistic = sum((observed[w] - samples * q) ** 2 / (samples * q) for w, q in expected.items())
    dof = len(expected) - 1
    z = 3.090  # the standard normal's 99.9% point
    critical = dof * (1 - 2 / (9 * dof) + z * sqrt(2 / (9 * dof))) ** 3
    return statistic > critical


def expected_shares(worlds: Counter) -> dict[tuple, float]:
    total = sum(worlds.values())
    return {world: n / total for world, n in worlds.items()}


@pytest.mark.parametrize("name", POSITIONS)
def test_exact_count_matches_brute_force(name: str) -> None:
    rules, obs = POSITIONS[name]()
    worlds = brute_force(rules, obs)
    assert len(worlds) > 3, "the position should leave a choice"
    assert exact_count(rules, obs) == sum(worlds.values())


@pytest.mark.parametrize("name", POSITIONS)
def test_samples_are_uniform_over_the_worlds(name: str) -> None:
    rules, obs = POSITIONS[name]()
    expected = expected_shares(brute_force(rules, obs))
    samples = 20_000
    drawn = sample_worlds(rules, obs, samples, rng=np.random.default_rng(7))
    keys = world_keys(rules, drawn.hands, drawn.rest)
    assert not chi_square_rejects(Counter(keys), expected, samples)
    own = drawn.hands[:, 0] if rules.decks == 1 else drawn.hands[:, 0, 0]
    assert (own == own[0]).all()


def greedy_sampler(rules: Rules, obs: np.ndarray, samples: int, rng: np.random.Generator) -> list[tuple]:
    """A biased sampler: seat after seat takes a uniform choice of the unseen cards that fit its
    voids (starting again after a dead end), the last holder what is left."""
    k = knowledge(rules, obs)
    p = rules.num_players
    unseen = [c for c in range(rules.card_slots) for _ in range(k.unseen[c])]
    sizes = [int(n) for n in k.free_sizes[1:]] + [k.rest]
    keys = []
    while len(keys) < samples:
        left, held = list(unseen), []
        for q, size in zip(range(1, p + 1), sizes):
            fits = [c for c in left if q == p or c >= 52 or not k.voids[q, c // 13]]
            if len(fits) < size:
                break
            chosen = list(rng.choice(fits, size=size, replace=False)) if size else []
            for c in chosen:
                left.remove(c)
            pinned = [c for c in range(rules.card_slots) for _ in range(k.pinned[q, c])] if q < p else []
            held.append(tuple(sorted(int(c) for c in chosen + pinned)))
        else:
            keys.append(tuple(held))
    return keys


def test_a_biased_sampler_fails_the_chi_square_test() -> None:
    rules, obs = _position_plain()
    expected = expected_shares(brute_force(rules, obs))
    samples = 20_000
    biased = Counter(greedy_sampler(rules, obs, samples, np.random.default_rng(7)))
    assert set(biased) <= set(expected)  # every world it draws is consistent: only the weights are off
    assert chi_square_rejects(biased, expected, samples)


def test_two_deck_worlds_weigh_separated_copies_twice() -> None:
    rules, obs = _position_two_decks()
    worlds = brute_force(rules, obs)
    # Two unseen pairs (5♣ = 3, Q♠ = 49): each pair whose copies lie apart doubles the weight.
    for world, weight in worlds.items():
        apart = sum(all(held.count(card) < 2 for held in world) for card in (3, 49))
        assert weight == 2**apart
    assert exact_count(rules, obs) == sum(worlds.values())


# ---------------------------------------------------------------- errors
def test_inconsistent_observations_are_named() -> None:
    rules, obs = _position_plain()
    lay = layout(rules)
    voided = obs.copy()
    lay.view(voided, "known_voids")[1] = [1, 1, 1, 0]  # seat 1 may hold only the one unseen spade
    with pytest.raises(
        ValueError, match="seat 1 must hold 2 unseen cards but only 1 unseen cards fit its voids"
    ):
        exact_count(rules, voided)
    doubled = obs.copy()
    lay.view(doubled, "hand")[0] = 1  # 2♣ in the hand and unseen
    with pytest.raises(ValueError, match="the observer must hold 2 cards"):
        exact_count(rules, doubled)
    with pytest.raises(ValueError, match="one vector of"):
        exact_count(make_rules("hearts", 5), obs)
    with pytest.raises(ValueError, match="num_worlds must be a positive int, got 0"):
        sample_worlds(rules, obs, 0)
    with pytest.raises(ValueError, match=r"observations must be \(D,\) or \(B, D\)"):
        sample_worlds(rules, obs[None, None], 5)
    smear = make_rules("smear_partnership")
    twice = np.zeros(layout(smear).size, np.float32)
    layout(smear).view(twice, "hand")[0] = 1
    layout(smear).view(twice, "played_by_seat")[1, 0] = 1  # 2♣ held and played
    with pytest.raises(ValueError, match="places 2♣ in two places"):
        exact_count(smear, twice)


def test_passed_card_in_a_void_is_refused() -> None:
    rules, obs = _position_pass()
    lay = layout(rules)
    lay.view(obs, "known_voids")[1, 3] = 1
    with pytest.raises(ValueError, match="seat 1 holds the passed 7♠ but has shown out of ♠"):
        sample_worlds(rules, obs, 10, rng=0)


# ---------------------------------------------------------------- real positions
def true_world(table: Table, game: int, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hands (P, 2) by relative seat of ``seat``, its unseen rest (2,), and the cards it
    passed and its receiver still holds (2,), read from the engine state."""
    s, rules = table.state, table.rules
    p = rules.num_players
    order = (seat + np.arange(p)) % p
    hi = s.hands_hi[game] if rules.decks == 2 else np.zeros(p, U64)
    hands = np.stack([s.hands[game][order], hi[order]], -1)
    rest = np.zeros(2, U64)
    if rules.stock_size:
        rest[0] = remaining(s, np.array([game]))[0]
    elif rules.kitty_size and s.first_trick_winner[game] != seat:
        rest[0] = s.kitty[game]
        if rules.decks == 2:
            rest[1] = s.kitty_hi[game]
    return hands, rest, order


def check_world(
    rules: Rules, truth: np.ndarray, rest: np.ndarray, voids: int, order: np.ndarray, passed: np.ndarray,
    receiver: int, hands: np.ndarray, kitty: np.ndarray,
) -> None:  # fmt: skip
    """A world (hands (P, 2), kitty (2,)) against what the seat saw: its own hand, every hand
    size, the unseen cards as a whole, the voids, the passed cards still held."""
    assert (hands[0] == truth[0]).all()
    assert (cardsets.count(hands[:, 0], hands[:, 1]) == cardsets.count(truth[:, 0], truth[:, 1])).all()
    assert cardsets.count(kitty[0], kitty[1]) == cardsets.count(rest[0], rest[1])
    pool, true_pool = (ZERO, ZERO), (ZERO, ZERO)
    for q in range(1, len(hands)):
        pool = cardsets.add(*pool, hands[q, 0], hands[q, 1])
        true_pool = cardsets.add(*true_pool, truth[q, 0], truth[q, 1])
    pool, true_pool = cardsets.add(*pool, *kitty), cardsets.add(*true_pool, *rest)
    assert pool == true_pool
    for q in range(1, len(hands)):
        for suit in range(4):
            if voids >> (4 * int(order[q]) + suit) & 1:
                assert hands[q, 0] & SUIT_MASK[suit] == ZERO
    assert cardsets.contains(hands[receiver, 0], hands[receiver, 1], passed[0], passed[1])


def as_pairs(rules: Rules, words: np.ndarray) -> np.ndarray:
    """Card sets as (lo, hi) pairs on a last axis, one deck or two."""
    return words if rules.decks == 2 else np.stack([words, np.zeros_like(words)], -1)


def pinned_pass(rules: Rules, obs: np.ndarray) -> tuple[int, np.ndarray]:
    """The receiver (relative seat; 0 when no passed card is pinned) and the passed cards the
    sampler pins to him, as a (lo, hi) pair."""
    k = knowledge(rules, obs)
    holders = np.flatnonzero(k.pinned[1:].sum(axis=1)) + 1
    if not len(holders):
        return 0, np.zeros(2, U64)
    receiver = int(holders[0])
    return receiver, np.array(
        cardsets.from_list(np.repeat(np.arange(rules.card_slots), k.pinned[receiver])), U64
    )


def test_the_world_check_catches_a_contradiction() -> None:
    rules = make_rules("hearts")
    table = Table(rules, num_games=1)
    table.reset(seed=3)
    for _ in range(20):  # past the pass, into the play
        table.step(np.flatnonzero(table.action_mask()[0])[:1])
    seat = int(table.state.current[0])
    truth, rest, order = true_world(table, 0, seat)
    none = np.zeros(2, U64)
    check_world(rules, truth, rest, 0, order, none, 0, truth, rest)
    moved = truth.copy()  # the observer's lowest card in seat 1's hand instead
    lowest = truth[0, 0] & (~truth[0, 0] + U64(1))
    moved[0, 0], moved[1, 0] = truth[0, 0] ^ lowest, truth[1, 0] | lowest
    voids = int(table.state.voids[0]) | 0xF << 4 * int(order[1])  # seat 1 shown out of every suit
    with pytest.raises(AssertionError):
        check_world(rules, truth, rest, voids, order, none, 0, truth, rest)
    with pytest.raises(AssertionError):
        check_world(rules, truth, rest, 0, order, none, 0, moved, rest)


HEARTS_PRESETS = preset_names("hearts")


@pytest.mark.parametrize("name", HEARTS_PRESETS)
def test_real_positions(name: str) -> None:
    rules = make_rules(name)
    p = rules.num_players
    rng = np.random.default_rng(sum(map(ord, name)))
    table = Table(rules, num_games=4)
    table.reset(seed=int(rng.integers(1 << 30)))
    steps = rules.hand_size * p + 12
    stops = set(rng.choice(steps, size=6, replace=False).tolist())
    checked = 0
    for step in range(steps):
        if table.deal_over.any():
            table.redeal(np.flatnonzero(table.deal_over))
        if step in stops:
            observations = table.observe()
            drawn = sample_worlds(rules, observations, 25, rng)
            for game in range(table.num_games):
                seat = int(table.state.current[game])
                truth, rest, order = true_world(table, game, seat)
                assert exact_count(rules, observations[game]) >= 1
                receiver, passed = pinned_pass(rules, observations[game])
                # the receiver truly holds the passed cards the sampler pins
                assert cardsets.contains(truth[receiver, 0], truth[receiver, 1], *passed)
                voids = int(table.state.voids[game])
                hands, kitty = as_pairs(rules, drawn.hands[game]), as_pairs(rules, drawn.rest[game])
                for w in [None, *range(len(hands))]:
                    world = (truth, rest) if w is None else (hands[w], kitty[w])
                    check_world(rules, truth, rest, voids, order, passed, receiver, *world)
                    checked += 1
        mask = table.action_mask()
        table.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
    assert checked == len(stops) * table.num_games * 26
    assert PRESETS[name].default_players == p


def test_point_split_is_exact_and_agrees_with_brute_force() -> None:
    """Who took which point card of the finished tricks: a split that gives every seat exactly
    its points whenever one exists (checked against every assignment), None otherwise."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        pool = rng.choice([1, 1, 2, 5, 10, 13, 25, -10], size=int(rng.integers(1, 7)))
        values = {int(c): int(v) for c, v in enumerate(pool)}
        seats = int(rng.integers(2, 5))
        truth = {c: int(rng.integers(seats)) for c in values}
        fixed = {c: s for c, s in truth.items() if rng.random() < 0.2}
        targets = [sum(v for c, v in values.items() if truth[c] == s) for s in range(seats)]
        if rng.random() < 0.3:
            targets[int(rng.integers(seats))] += int(rng.choice([-1, 1, 4]))
        free = [c for c in values if c not in fixed]

        def points(split: dict[int, int], seats: int = seats, values: dict[int, int] = values) -> list[int]:
            return [sum(v for c, v in values.items() if split[c] == s) for s in range(seats)]

        picks = itertools.product(range(seats), repeat=len(free))
        exists = any(points({**fixed, **dict(zip(free, pick))}) == targets for pick in picks)
        split = _split_points(values, targets, fixed)
        assert (split is not None) == exists
        if split is not None:
            assert all(split[c] == s for c, s in fixed.items()) and set(split) == set(values)
            assert points(split) == targets


def test_point_split_is_fast_where_one_seat_took_everything() -> None:
    """Spot Hearts' hearts are worth their rank: a seat that took every point card once made
    the search try every other seat for every card first (seconds a call); cut now."""
    values = {c: v for c, v in enumerate([25, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 2, 3, 4])}
    targets = [0, 0, 0, sum(values.values())]
    began = time.perf_counter()
    split = _split_points(values, targets, {})
    assert time.perf_counter() - began < 0.05
    assert split == dict.fromkeys(values, 3)
