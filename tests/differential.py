"""Differential harness: the batched engine against the plain reference, deal by deal.

Both implementations play the same deals with the same choices; at every decision the legal
card sets must be identical, and at the end of each deal the points. Deals are random or
skewed (suits concentrated, to reach forced penalty cards on the first trick, all-hearts leads
and moons), and the choices mix uniform play with a moon-seeking policy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hearts_env.bits import BIT, random_bit, unpack
from hearts_env.cards import card_name, cards_of
from hearts_env.engine import DONE
from hearts_env.reference import ReferenceDeal
from hearts_env.rules import PASS_DIRECTIONS, Rules
from hearts_env.table import Table


@dataclass
class Outcome:
    """What one differential run covered."""

    deals: int = 0
    decisions: int = 0
    moons: int = 0
    forced_first_trick_points: int = 0


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


def run(rules: Rules, batch: int, rounds: int, seed: int) -> Outcome:
    """Play ``rounds`` deals in each of ``batch`` games through both engines, asserting equality."""
    rng = np.random.default_rng(seed)
    table = Table(rules, batch)
    n = rules.num_players
    outcome = Outcome()
    directions = [d for d in PASS_DIRECTIONS if not (d == "across" and n % 2)]
    if rules.pass_count == 0:
        directions = ["hold"]
    for r in range(rounds):
        skew = rng.choice([0.0, 0.6, 0.9, 1.0], size=1)[0]
        hands, kitty = skewed_hands(rules, rng, batch, skew)
        dealer = rng.integers(0, n, batch)
        if r % 2:
            direction = rng.integers(0, len(directions), batch)  # games out of step
        else:
            direction = np.full(batch, rng.integers(0, len(directions)))
        direction = np.array([PASS_DIRECTIONS.index(directions[d]) for d in direction])
        totals = table.state.totals.copy()
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
        while (s.phase != DONE).any():
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
            assert list(s.deal_points[g]) == ref.deal_points, (
                f"{rules.preset} n={n} game {g}: engine points {list(s.deal_points[g])} != "
                f"reference {ref.deal_points} (moon {ref.moon_shooter})"
            )
            assert (ref.moon_shooter if ref.moon_shooter is not None else -1) == s.moon_shooter[g]
            outcome.moons += ref.moon_shooter is not None
            first = ref.completed_tricks[0][0] if ref.completed_tricks else []
            outcome.forced_first_trick_points += any((1 << c) & rules.penalty_mask for _, c in first)
        outcome.deals += batch
    return outcome
