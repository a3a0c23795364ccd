"""Deal and game scoring as array functions over K finished deals (RULES.md §2–3).

``deal_points`` applies the variant's card scoring (plain sums or Royal Hearts' queens), the
moon rule and the no-trick bonus. ``settle_deal`` / ``settle_game`` turn points into chips for
the settlement options (Foster's Howell and Jackpot, the 1887 "lowest wins", Black Maria).
"""

from __future__ import annotations

import numpy as np

from hearts_env.bits import BIT, SUIT_MASK, ZERO, unpack
from hearts_env.cards import HEARTS, parse_card
from hearts_env.rules import Rules

_QH, _QS, _QC, _QD = (BIT[parse_card(c)] for c in ("QH", "QS", "QC", "QD"))


def _took(taken: np.ndarray, card_bit: np.uint64) -> np.ndarray:
    return (taken & card_bit) != ZERO


def royal_points(rules: Rules, taken: np.ndarray) -> np.ndarray:
    """Royal Hearts deal scores (K, P): hearts (doubled with Q♥), Q♠ unless Q♣ too, Q♦ −10, ≥ 0."""
    values = np.array(rules.card_points[:54], dtype=np.int64)
    heart_values = np.where(np.arange(54) // 13 == HEARTS, values, 0)
    hearts = unpack(taken & SUIT_MASK[HEARTS], 54).astype(np.int64) @ heart_values
    score = hearts * np.where(_took(taken, _QH), 2, 1)
    score += np.where(_took(taken, _QS) & ~_took(taken, _QC), rules.card_points[parse_card("QS")], 0)
    score += np.where(_took(taken, _QD), rules.card_points[parse_card("QD")], 0)
    return np.maximum(score, 0)


def deal_points(
    rules: Rules, taken: np.ndarray, points: np.ndarray, tricks_won: np.ndarray, totals: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Final points (K, P) of K finished deals and the moon shooter of each (-1 if none).

    ``taken`` (K, P) uint64 cards won; ``points`` (K, P) plain card-point sums; ``tricks_won``
    (K, P); ``totals`` (K, P) game totals before the deal (for ``moon="shooter_choice"``).
    """
    raw = royal_points(rules, taken) if rules.scoring == "royal" else points.copy()
    k, p = raw.shape
    moon_mask = np.uint64(rules.moon_mask)
    shot = ((taken & moon_mask) == moon_mask) & (moon_mask != ZERO)  # (K, P)
    if rules.moon == "none":
        shot[:] = False
    has_shooter = shot.any(axis=1)
    shooter = np.where(has_shooter, np.argmax(shot, axis=1), -1)
    final = raw
    if has_shooter.any():
        total = raw[np.arange(k), np.maximum(shooter, 0)] if rules.scoring == "royal" else rules.penalty_total
        total = np.broadcast_to(np.asarray(total, dtype=np.int64), (k,))[:, None]
        to_others = total if rules.moon_points is None else np.full_like(total, rules.moon_points)
        old = np.where(shot, raw - total, raw + to_others)
        new = np.where(shot, raw - 2 * total, raw)
        if rules.moon == "old":
            moon = old
        elif rules.moon == "new":
            moon = new
        elif rules.moon == "no_points":
            moon = np.zeros_like(raw)
        elif rules.moon == "slam":
            moon = np.where(shot, -rules.penalty_total, 0)
        else:  # shooter_choice: old moon unless it ends the game with the shooter not lowest
            after = totals + old
            ends = (after >= rules.target_score).any(axis=1)
            shooter_total = after[np.arange(k), np.maximum(shooter, 0)]
            lowest = shooter_total <= after.min(axis=1)
            moon = np.where((ends & ~lowest)[:, None], new, old)
        final = np.where(has_shooter[:, None], moon, raw)
    if rules.no_tricks_bonus:
        final = final + np.where((tricks_won == 0) & ~has_shooter[:, None], rules.no_tricks_bonus, 0)
    return final.astype(np.int64), shooter


def add_to_totals(rules: Rules, totals: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Game totals after adding a deal (a total of exactly the target resets to 0 if asked)."""
    after = totals + points
    if rules.exact_target_reset:
        after = np.where(after == rules.target_score, 0, after)
    return after


def settle_deal(
    rules: Rules, points: np.ndarray, taken: np.ndarray, pool: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Chips won (+) or paid (−) per player for one deal, and the jackpot carried over.

    * ``howell`` (Foster): each pays (n−1)·p into a pool and takes back T−p: net T − n·p.
    * ``jackpot`` (Foster): each pays p; players who took no heart share the pool, and if
      every player took a heart it carries over to the next deal.
    * ``lowest_wins_chips`` (1887): the players with the fewest points collect from every
      other player the points that player took, shared equally.
    """
    k, n = points.shape
    chips = np.zeros((k, n), np.float64)
    if rules.settlement == "howell":
        chips = (rules.penalty_total - n * points).astype(np.float64)
    elif rules.settlement == "jackpot":
        pot = pool + points.sum(axis=1)
        clean = (taken & SUIT_MASK[HEARTS]) == ZERO
        sharers = clean.sum(axis=1)
        share = np.where(sharers > 0, pot / np.maximum(sharers, 1), 0.0)
        chips = np.where(clean, share[:, None], 0.0) - points
        pool = np.where(sharers > 0, 0.0, pot)
    elif rules.settlement == "lowest_wins_chips":
        low = points == points.min(axis=1, keepdims=True)
        paid = np.where(low, 0, points).sum(axis=1)
        chips = np.where(low, (paid / low.sum(axis=1))[:, None], -points.astype(np.float64))
    return chips, pool


def settle_game(totals: np.ndarray) -> np.ndarray:
    """Black Maria: each player pays the lowest scorer(s) the difference; equal lowest share."""
    low = totals == totals.min(axis=1, keepdims=True)
    debt = totals - totals.min(axis=1, keepdims=True)
    return np.where(low, (debt.sum(axis=1) / low.sum(axis=1))[:, None], -debt.astype(np.float64))
