"""Differential harness: the batched engine against the plain reference, deal by deal.

Both implementations play the same deals with the same choices; at every decision the legal
card sets must be identical, and at the end of each deal the points, the moon, the cancelled
flag and the settlement: each game's chips, and its pool carried from deal to deal through
:func:`~hearts_env.reference.reference_settle` (Black Maria's chips at the game's end, from the
engine's totals). Deals are random or skewed (suits concentrated, to reach forced penalty cards
on the first trick, all-hearts leads and moons), optionally with hands of only penalty cards
(``first_trick_all_penalty``), and the choices mix uniform play with a moon-seeking policy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hearts_env.bits import BIT, random_bit, unpack
from hearts_env.cards import card_name, cards_of
from hearts_env.engine import DONE
from hearts_env.reference import ReferenceDeal, reference_settle, reference_settle_game
from hearts_env.rules import PASS_DIRECTIONS, Rules
from hearts_env.table import Table

HOLD = PASS_DIRECTIONS.index("hold")


@dataclass
class Outcome:
    """What one differential run covered."""

    deals: int = 0
    decisions: int = 0
    moons: int = 0
    forced_first_trick_points: int = 0
    all_penalty_starts: int = 0
    """Deals in which some hand held only penalty cards at the start of play."""
    cancelled: int = 0
    games_ended: int = 0


def skewed_hands(
    rules: Rules, rng: np.random.Generator, batch: int, skew: float
) -> tuple[np.ndarray, np.ndarray]:
    """Deals whose hands concentrate suits: cards sorted by suit order plus noise, dealt in runs.

    ``skew`` 0 is uniform; near 1 every hand is mostly one or two suits.
    """
    deck = np.array(rules.deck.cards)
    n, h = rules.num_players, rules.hand_size
    suit_rank = rng.permuted(np.tile(np.arange(4), (batch, 1)), axis=1)  # (B, 4) order of suits
    noise = rng.random((batch, len(deck)))
    keys = skew * np.take_along_axis(suit_rank, np.minimum(deck // 13, 3)[None, :].repeat(batch, 0), axis=1)
    order = np.argsort(keys + (1 - skew) * 4 * noise, axis=1)
    cards = deck[order]
    seat_order = rng.permuted(np.tile(np.arange(n), (batch, 1)), axis=1)
    hands = np.zeros((batch, n), np.uint64)
    for slot in range(n):
        masks = np.bitwise_or.reduce(BIT[cards[:, slot * h : (slot + 1) * h]], axis=1)
        hands[np.arange(batch), seat_order[:, slot]] = masks
    leftover = cards[:, n * h :]
    kitty = np.bitwise_or.reduce(BIT[leftover], axis=1) if leftover.shape[1] else np.zeros(batch, np.uint64)
    return hands, kitty


def all_penalty_hands(rules: Rules, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """Deals in which one random seat holds only penalty cards; the other cards at random."""
    n, h = rules.num_players, rules.hand_size
    deck = np.array(rules.deck.cards)
    penalty = deck[[rules.card_points[c] > 0 for c in deck]]
    if len(penalty) < h:
        raise ValueError(f"{rules.preset}: {len(penalty)} penalty cards cannot fill a hand of {h}")
    hands = np.zeros((batch, n), np.uint64)
    kitty = np.zeros(batch, np.uint64)
    for g in range(batch):
        held = rng.choice(penalty, h, replace=False)
        rest = rng.permutation(np.setdiff1d(deck, held))
        seats = rng.permutation(n)
        hands[g, seats[0]] = np.bitwise_or.reduce(BIT[held])
        for k, seat in enumerate(seats[1:]):
            hands[g, seat] = np.bitwise_or.reduce(BIT[rest[k * h : (k + 1) * h]])
        kitty[g] = np.bitwise_or.reduce(BIT[rest[(n - 1) * h :]])
    return hands, kitty


def choose(
    legal: np.ndarray, policy: np.ndarray, seat: np.ndarray, shooter: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Policies per game: 0 uniform; 1 the shooter plays its highest legal card and the others
    their lowest (moons); 2 everyone plays the highest legal card."""
    uniform = random_bit(legal, rng)
    bits = unpack(legal, 64)
    high = 63 - np.argmax(bits[:, ::-1], axis=1)
    low = np.argmax(bits, axis=1)
    moon = np.where(seat == shooter, high, low)
    return np.select([policy == 0, policy == 1], [uniform, moon], high)


def run(rules: Rules, batch: int, rounds: int, seed: int, all_penalty: bool = False) -> Outcome:
    """Play ``rounds`` deals in each of ``batch`` games through both engines, asserting equality.

    The deals follow each other in the same games (totals, game ends and pools carry over).
    ``all_penalty``: in about half of the games of each round one seat is dealt only penalty
    cards and nobody passes, so that ``first_trick_all_penalty`` is triggered.
    """
    rng = np.random.default_rng(seed)
    table = Table(rules, batch)
    n = rules.num_players
    outcome = Outcome()
    directions = [d for d in PASS_DIRECTIONS if not (d == "across" and n % 2)]
    if rules.pass_count == 0:
        directions = ["hold"]
    pools = [0] * batch  # the reference's pool of each game
    for r in range(rounds):
        skew = rng.choice([0.0, 0.6, 0.9, 1.0], size=1)[0]
        hands, kitty = skewed_hands(rules, rng, batch, skew)
        dealer = rng.integers(0, n, batch)
        if r % 2:
            direction = rng.integers(0, len(directions), batch)  # games out of step
        else:
            direction = np.full(batch, rng.integers(0, len(directions)))
        direction = np.array([PASS_DIRECTIONS.index(directions[d]) for d in direction])
        if all_penalty:
            forced = rng.random(batch) < 0.5
            penalty_hands, penalty_kitty = all_penalty_hands(rules, rng, batch)
            hands[forced], kitty[forced], direction[forced] = (
                penalty_hands[forced],
                penalty_kitty[forced],
                HOLD,
            )
        new_game = np.full(batch, r == 0) | table.state.game_over
        for g in np.flatnonzero(new_game):
            pools[g] = 0
        table.deal_masks(hands, kitty, dealer, direction, new_game=(r == 0))
        totals = table.state.totals.copy()
        refs = [
            ReferenceDeal(
                rules,
                [cards_of(int(m)) for m in hands[g]],
                int(dealer[g]),
                PASS_DIRECTIONS[direction[g]],
                totals=[int(t) for t in totals[g]],
                kitty=cards_of(int(kitty[g])),
            )
            for g in range(batch)
        ]
        policy = rng.integers(0, 3, batch)
        shooter = rng.integers(0, n, batch)
        s = table.state
        generic = r % 3 == 2  # every third round: the engine's per-game path, lockstep disabled
        while (s.phase != DONE).any():  # a cancelled deal ("redeal") may be DONE before any decision
            if generic:
                s.lockstep = False
            legal = table.engine.legal(s)
            for g in range(batch):
                ref = refs[g]
                if s.phase[g] == DONE:
                    assert ref.phase == "done", f"game {g}: engine finished, reference did not"
                    continue
                assert int(s.current[g]) == ref.current_player, (
                    f"{rules.preset} game {g}: engine says seat {s.current[g]} acts, reference "
                    f"{ref.current_player}"
                )
                expected = sorted(ref.legal_actions())
                got = cards_of(int(legal[g]))
                assert got == expected, (
                    f"{rules.preset} n={n} game {g} seat {ref.current_player}: engine legal "
                    f"{[card_name(c) for c in got]} != reference {[card_name(c) for c in expected]}"
                )
            action = choose(legal, policy, s.current, shooter, rng)
            live = s.phase != DONE
            for g in np.flatnonzero(live):
                refs[g].step(int(action[g]))
            if live.all():
                table.step(action)
            else:
                sub = s.take(np.flatnonzero(live))
                sub.lockstep &= not generic
                table.engine.step(sub, action[live])
                s.put(np.flatnonzero(live), sub)
            outcome.decisions += int(live.sum())
        for g in range(batch):
            ref = refs[g]
            assert ref.phase == "done"
            assert bool(s.cancelled[g]) == ref.cancelled, (
                f"{rules.preset} n={n} game {g}: engine cancelled={bool(s.cancelled[g])}, reference "
                f"{ref.cancelled} (all-penalty seats {ref.all_penalty_seats})"
            )
            assert list(s.deal_points[g]) == ref.deal_points, (
                f"{rules.preset} n={n} game {g}: engine points {list(s.deal_points[g])} != "
                f"reference {ref.deal_points} (moon {ref.moon_shooter})"
            )
            assert (ref.moon_shooter if ref.moon_shooter is not None else -1) == s.moon_shooter[g]
            check_settlement(rules, table, g, ref, pools)
            outcome.moons += ref.moon_shooter is not None
            first = ref.completed_tricks[0][0] if ref.completed_tricks else []
            outcome.forced_first_trick_points += any((1 << c) & rules.penalty_mask for _, c in first)
            outcome.all_penalty_starts += bool(ref.all_penalty_seats)
            outcome.cancelled += ref.cancelled
            outcome.games_ended += bool(s.game_over[g])
        outcome.deals += batch
    return outcome


def check_settlement(rules: Rules, table: Table, g: int, ref: ReferenceDeal, pools: list[int]) -> None:
    """The engine's chips and pool of game ``g`` after the deal equal the reference's; the
    reference's pool of the game moves on (``pools[g]``)."""
    s = table.state
    before = pools[g]
    chips, pools[g] = reference_settle(rules, ref, before)
    if rules.settlement == "maria" and s.game_over[g]:
        chips = reference_settle_game([int(t) for t in s.totals[g]])
    where = f"{rules.preset} n={rules.num_players} {rules.settlement} game {g}"
    assert np.allclose(s.chips[g], chips, rtol=0, atol=1e-9), (
        f"{where}: engine chips {list(s.chips[g])} != reference {chips} (deal points {ref.deal_points}, "
        f"raw {ref.raw_points}, moon {ref.moon_shooter}, pool before {before})"
    )
    assert s.pool[g] == pools[g], (
        f"{where}: engine pool {s.pool[g]} != reference {pools[g]} (pool before {before}, chips {chips})"
    )
