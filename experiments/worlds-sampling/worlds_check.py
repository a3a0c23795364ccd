"""The world sampler over real positions: no sampled world contradicts what the seat saw.

Random legal play in every Hearts-family preset (at its default player count, or every count
with ``--all-counts``) stops at random points; the acting seat's observation gets ``--worlds``
sampled worlds (:func:`hearts_env.worlds.sample_worlds`), each checked against the engine's
true state: the seat's own hand, every seat's hand size, the unseen cards as a whole (the
other hands and the unseen kitty or stock), the voids the seat has seen (the world's hand
holds none of that suit) and the passed cards the receiver still holds. The true world is
checked the same way, and the sampler's count of worlds must be at least one::

    python experiments/worlds-sampling/worlds_check.py --samples 100000 --json /tmp/worlds_check.json

It prints one line a configuration (samples, positions, contradictions, milliseconds a position
for ``--worlds`` worlds, on average and in the slowest batch) and
exits non-zero if any world contradicts the seat's view.
"""

from __future__ import annotations

import argparse
import sys
import time
from types import SimpleNamespace

import numpy as np

from hearts_env import Table, make_rules
from hearts_env.core import cardsets
from hearts_env.core.bits import SUIT_MASK, U64, ZERO
from hearts_env.core.rules import Rules
from hearts_env.files import write_json
from hearts_env.games.hearts.stock import remaining
from hearts_env.presets import PRESETS, preset_names
from hearts_env.worlds import exact_count, knowledge, sample_worlds


def _pairs(rules: Rules, words: np.ndarray) -> np.ndarray:
    """Card sets as (lo, hi) on a last axis, one deck or two."""
    return words if rules.decks == 2 else np.stack([words, np.zeros_like(words)], -1)


def _true_state(table: Table) -> SimpleNamespace:
    """Every field of ``table``'s games, hidden hands included, read through its saved state."""
    return SimpleNamespace(**table.state_dict()["fields"])


def _truth(table: Table, game: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The true hands (1, P, 2) by relative seat of ``seat`` and its unseen rest (1, 2)."""
    s, rules = _true_state(table), table.rules
    p = rules.num_players
    order = (seat + np.arange(p)) % p
    hi = s.hands_hi[game] if rules.decks == 2 else np.zeros(p, U64)
    hands = np.stack([s.hands[game][order], hi[order]], -1)[None]
    rest = np.zeros((1, 2), U64)
    if rules.stock_size:
        rest[0, 0] = remaining(s, np.array([game]))[0]
    elif rules.kitty_size and s.first_trick_winner[game] != seat:
        rest[0, 0] = s.kitty[game]
        if rules.decks == 2:
            rest[0, 1] = s.kitty_hi[game]
    return hands, rest


def contradictions(
    rules: Rules, table: Table, game: int, observation: np.ndarray, hands: np.ndarray, rest: np.ndarray
) -> np.ndarray:
    """(W,) bool: the worlds ``hands`` (W, P, 2), ``rest`` (W, 2) that contradict what the
    acting seat of ``game`` saw, judged by the engine's true state."""
    seat = int(table.current_player[game])
    truth, true_rest = _truth(table, game, seat)
    p = rules.num_players
    bad = (hands[:, 0] != truth[:, 0]).any(axis=1)
    bad |= (cardsets.count(hands[..., 0], hands[..., 1]) != cardsets.count(truth[..., 0], truth[..., 1])).any(
        1
    )
    bad |= cardsets.count(rest[:, 0], rest[:, 1]) != cardsets.count(true_rest[:, 0], true_rest[:, 1])
    pool = rest[:, 0], rest[:, 1]
    true_pool = true_rest[:, 0], true_rest[:, 1]
    for q in range(1, p):
        pool = cardsets.add(*pool, hands[:, q, 0], hands[:, q, 1])
        true_pool = cardsets.add(*true_pool, truth[:, q, 0], truth[:, q, 1])
    bad |= (pool[0] != true_pool[0]) | (pool[1] != true_pool[1])
    voids = int(_true_state(table).voids[game])
    for q in range(1, p):
        for suit in range(4):
            if voids >> (4 * ((seat + q) % p) + suit) & 1:
                bad |= (hands[:, q, 0] & SUIT_MASK[suit]) != ZERO
    k = knowledge(rules, observation)
    for q in range(1, p):
        if k.pinned[q].any():
            lo, hi = cardsets.from_list(np.repeat(np.arange(rules.card_slots), k.pinned[q]))
            bad |= ~cardsets.contains(hands[:, q, 0], hands[:, q, 1], U64(lo), U64(hi))
    return bad


def check(rules: Rules, samples: int, worlds: int, seed: int) -> dict[str, float]:
    """Sample ``samples`` worlds over random positions of ``rules``; the counts of the run."""
    rng = np.random.default_rng(seed)
    table = Table(rules, num_games=8)
    table.reset(seed=seed)
    drawn = positions = bad = true_bad = 0
    seconds = slowest = 0.0
    while drawn < samples:
        if table.deal_over.any():
            table.redeal(np.flatnonzero(table.deal_over))
        if rng.random() < 0.15:
            observations = table.observe()
            start = time.perf_counter()
            sampled = sample_worlds(rules, observations, worlds, rng)
            spent = time.perf_counter() - start
            seconds, slowest = seconds + spent, max(slowest, spent / table.num_games)
            for game in range(table.num_games):
                hands, rest = _pairs(rules, sampled.hands[game]), _pairs(rules, sampled.rest[game])
                bad += int(contradictions(rules, table, game, observations[game], hands, rest).sum())
                truth, true_rest = _truth(table, game, int(table.current_player[game]))
                true_bad += int(contradictions(rules, table, game, observations[game], truth, true_rest)[0])
                true_bad += exact_count(rules, observations[game]) < 1
            drawn += worlds * table.num_games
            positions += table.num_games
        mask = table.action_mask()
        table.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
    return {
        "samples": drawn,
        "positions": positions,
        "contradicting_samples": bad,
        "contradicting_truths": true_bad,
        "ms_per_position": 1000 * seconds / positions,
        "slowest_batch_ms_per_position": 1000 * slowest,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the check over the presets; print a line each, write ``--json`` if given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=100_000, help="worlds per configuration")
    parser.add_argument("--worlds", type=int, default=200, help="worlds per position")
    parser.add_argument("--presets", nargs="*", default=preset_names("hearts"))
    parser.add_argument("--all-counts", action="store_true", help="every player count, not the default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    rows = []
    for name in args.presets:
        counts = PRESETS[name].counts if args.all_counts else (PRESETS[name].default_players,)
        for players in counts:
            result = check(make_rules(name, players), args.samples, args.worlds, args.seed)
            rows.append({"preset": name, "players": players, **result})
            print(
                f"{name:22s} {players:2d}p  {result['samples']:7d} samples  "
                f"{result['positions']:4d} positions  "
                f"{result['contradicting_samples']} contradicting  {result['contradicting_truths']} truths "
                f"outside  {result['ms_per_position']:.2f} ms/position "
                f"(slowest batch {result['slowest_batch_ms_per_position']:.1f})",
                flush=True,
            )
    if args.json:
        write_json(args.json, {"worlds_per_position": args.worlds, "rows": rows}, indent=1)
    return int(any(row["contradicting_samples"] or row["contradicting_truths"] for row in rows))


if __name__ == "__main__":
    sys.exit(main())
