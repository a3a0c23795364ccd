"""Deal and game scoring as array functions over K finished deals (docs/rules.md).

``deal_points`` applies the variant's card scoring (plain sums or Royal Hearts' queens), the
moon rule and the no-trick bonus. ``settle_deal`` / ``settle_game`` turn points into chips for
the settlement options (Foster's Howell and Jackpot, the 1887 "lowest wins", Black Maria).
"""

from __future__ import annotations

import numpy as np

from hearts_env.core.bits import BIT, SUIT_MASK, ZERO, unpack
from hearts_env.core.cards import HEARTS, parse_card
from hearts_env.core.rules import Rules

_QH, _QS, _QC, _QD = (BIT[parse_card(c)] for c in ("QH", "QS", "QC", "QD"))


def _took(taken: np.ndarray, card_bit: np.uint64) -> np.ndarray:
    return (taken & card_bit) != ZERO


def royal_points(rules: Rules, taken: np.ndarray) -> np.ndarray:
    """Royal Hearts deal scores (K, P), in the source's order: hearts (doubled with Q♥), Q♠
    unless Q♣ too, Q♦ −10. ``scoring="royal_deal_floor"`` floors them at 0; ``"royal"`` leaves
    the floor to the game total (:func:`diamond_floor`)."""
    values = np.array(rules.card_points[:54], dtype=np.int64)
    heart_values = np.where(np.arange(54) // 13 == HEARTS, values, 0)
    hearts = unpack(taken & SUIT_MASK[HEARTS], 54).astype(np.int64) @ heart_values
    score = hearts * np.where(_took(taken, _QH), 2, 1)
    score += np.where(_took(taken, _QS) & ~_took(taken, _QC), rules.card_points[parse_card("QS")], 0)
    score += np.where(_took(taken, _QD), rules.card_points[parse_card("QD")], 0)
    return np.maximum(score, 0) if rules.scoring == "royal_deal_floor" else score


def diamond_floor(
    rules: Rules, taken: np.ndarray, points: np.ndarray, totals: np.ndarray, shooter: np.ndarray
) -> np.ndarray:
    """Royal Hearts (``scoring="royal"``): Q♦ lowers its taker's game total, not below 0.

    ``points`` (K, P) are the deal points with Q♦'s −10 in them, ``totals`` (K, P) the totals
    before the deal. The Q♦ taker's total becomes ``max(0, total + points)``, except that Q♦
    never raises a total: a total already below 0 without it (after a ``moon:subtract``) keeps
    its value without Q♦'s effect. His deal points are the change applied to his total. A moon
    shooter's points are the moon's (his Q♦ is in the deal score he adds or subtracts), and a
    moon that scores the others 0 leaves Q♦ nothing to lower."""
    diamond = rules.card_points[parse_card("QD")]
    took = _took(taken, _QD) & (np.arange(points.shape[1])[None, :] != shooter[:, None])
    if rules.moon in ("no_points", "slam"):  # such a moon scores the others 0: Q♦ lowers nothing
        took &= (shooter < 0)[:, None]
    after = totals + points
    floored = np.maximum(after, np.minimum(after - diamond, 0))
    return np.where(took, floored - totals, points)


def points_of(rules: Rules, masks: np.ndarray) -> np.ndarray:
    """Plain card-point sums of card sets (any shape, uint64)."""
    values = np.array(rules.card_points[:54], dtype=np.int64)
    return unpack(masks, 54).astype(np.int64) @ values


def give_first_trick(
    rules: Rules, taken: np.ndarray, points: np.ndarray, aside: np.ndarray, winner: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``first_trick_all_penalty="to_lowest"``: the first trick's cards, set aside (``aside``
    (K,) uint64, 0 where the rule did not apply), go to the player with the lowest non-zero
    points without them (Royal scoring: his Royal score; ties: the lowest seat; nobody
    non-zero: back to ``winner`` (K,), the trick's winner). Returns new ``taken`` and ``points``."""
    score = royal_points(rules, taken) if rules.scoring != "points" else points
    candidates = score != 0
    lowest = np.argmin(np.where(candidates, score, np.iinfo(np.int64).max), axis=1)
    receiver = np.where(candidates.any(axis=1), lowest, winner)
    rows = np.arange(len(taken))
    taken, points = taken.copy(), points.copy()
    taken[rows, receiver] |= aside
    points[rows, receiver] += points_of(rules, aside)
    return taken, points


def deal_points(
    rules: Rules,
    taken: np.ndarray,
    points: np.ndarray,
    tricks_won: np.ndarray,
    totals: np.ndarray,
    uncounted: np.ndarray | None = None,
    moon_choice: np.ndarray | None = None,
    taken_hi: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Final points (K, P) of K finished deals and the moon shooter of each (-1 if none).

    ``taken`` (K, P) uint64 cards won; ``points`` (K, P) plain card-point sums; ``tricks_won``
    (K, P); ``totals`` (K, P) game totals before the deal (for ``moon="auto_choice"`` and Royal
    Hearts' Q♦, :func:`diamond_floor`);
    ``uncounted`` (K,) uint64 penalty cards that score nothing this deal
    (``first_trick_all_penalty="not_counted"``): worth 0, not needed for the moon, and out of
    the penalty total the moon rules use; ``moon_choice`` (K,) the shooter's decision under
    ``moon="shooter_choice"`` (0 add = old moon, 1 subtract = new moon); ``taken_hi`` (K, P)
    with two decks, the cards taken twice (``points`` count every copy): a moon needs both
    copies of every moon card. Partnership A's moon is the team's (:func:`team_points`), so no
    player shoots alone there.
    """
    k, p = points.shape
    if uncounted is None:  # the common case: every card counts
        raw = royal_points(rules, taken) if rules.scoring != "points" else points.copy()
        moon_mask = np.uint64(rules.moon_mask)
        shot = ((taken & moon_mask) == moon_mask) & (moon_mask != ZERO)  # (K, P)
    else:
        counted = taken & ~uncounted[:, None]
        raw = royal_points(rules, counted) if rules.scoring != "points" else points.copy()
        moon = np.uint64(rules.moon_mask) & ~uncounted  # (K,)
        shot = ((taken & moon[:, None]) == moon[:, None]) & (moon != ZERO)[:, None]  # (K, P)
    if taken_hi is not None:
        shot &= (taken_hi & np.uint64(rules.moon_mask)) == np.uint64(rules.moon_mask)
    if rules.moon == "none" or rules.team_scoring == "sum":
        shot[:] = False
    has_shooter = shot.any(axis=1)
    shooter = np.where(has_shooter, np.argmax(shot, axis=1), -1)
    final = raw
    if has_shooter.any():
        rows = np.arange(k)
        penalty_total = np.full(k, rules.penalty_total, np.int64)
        if uncounted is not None:
            penalty_total -= points_of(rules, uncounted)
        total = raw[rows, np.maximum(shooter, 0)] if rules.scoring != "points" else penalty_total
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
            moon = np.where(shot, -penalty_total[:, None], 0)
        elif rules.moon == "shooter_choice":
            subtract = (np.zeros(k, np.int64) if moon_choice is None else moon_choice) == 1
            moon = np.where(subtract[:, None], new, old)
        else:  # auto_choice: old moon unless it ends the game with the shooter not lowest
            after = totals + old
            ends = (after >= rules.target_score).any(axis=1)
            shooter_total = after[rows, np.maximum(shooter, 0)]
            lowest = shooter_total <= after.min(axis=1)
            moon = np.where((ends & ~lowest)[:, None], new, old)
        final = np.where(has_shooter[:, None], moon, raw)
    if rules.no_tricks_bonus:
        final = final + np.where((tricks_won == 0) & ~has_shooter[:, None], rules.no_tricks_bonus, 0)
    if rules.scoring == "royal":
        counted = taken if uncounted is None else taken & ~uncounted[:, None]
        final = diamond_floor(rules, counted, final, totals, shooter)
    return final.astype(np.int64), shooter


def general_points(
    rules: Rules, taken: np.ndarray, points: np.ndarray, shooter: np.ndarray, declarer: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Chasse-cœur's Général (``declarer`` (K,), -1 where nobody declared): the declarer who
    took every penalty card scores 0 and each opponent ``general_points``; one who did not
    scores ``general_points`` and the others 0. Undeclared deals keep ``points``."""
    rows = np.flatnonzero(declarer >= 0)
    if not len(rows):
        return points, shooter
    seat = declarer[rows]
    moon = np.uint64(rules.moon_mask)
    success = (taken[rows, seat] & moon) == moon
    is_declarer = np.arange(points.shape[1])[None, :] == seat[:, None]
    g = rules.general_points
    points, shooter = points.copy(), shooter.copy()
    points[rows] = np.where(success[:, None], np.where(is_declarer, 0, g), np.where(is_declarer, g, 0))
    shooter[rows] = np.where(success, seat, -1)
    return points, shooter


def team_sums(rules: Rules, values: np.ndarray) -> np.ndarray:
    """(K, P): each seat's team total of ``values`` (K, P) (its own value without teams)."""
    if not rules.teams:
        return values.copy()
    team_of = np.array(rules.team_of)
    sums = np.stack([values[:, team_of == t].sum(axis=1) for t in range(len(rules.teams))], axis=1)
    return sums[:, team_of]


def team_points(
    rules: Rules,
    taken: np.ndarray,
    points: np.ndarray,
    shooter: np.ndarray,
    bidder: np.ndarray,
    partner: np.ndarray,
    uncounted: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Partnerships: final ``points`` and ``shooter``, and each seat's team points (K, P).

    * ``team_scoring="sum"`` (Partnership A): a team whose players together took every
      penalty card scores 0 and each player of the other teams the penalty total (both without
      the ``uncounted`` cards (K,), as for a player's moon);
    * the slam bidder and his silent partner (Partnership C) each score their sum;
    * team points are the sum of the team's players' points (own points without a team).
    """
    if rules.team_scoring == "sum":
        uncounted = np.zeros(len(taken), np.uint64) if uncounted is None else uncounted
        moon = np.uint64(rules.moon_mask) & ~uncounted  # (K,)
        total = rules.penalty_total - points_of(rules, uncounted)  # (K,)
        team_of = np.array(rules.team_of)
        points, shooter = points.copy(), shooter.copy()
        for t, seats in enumerate(rules.teams):
            took = np.bitwise_or.reduce(taken[:, list(seats)], axis=1)
            shot = (took & moon) == moon
            if shot.any():
                points[shot] = np.where(team_of == t, 0, total[shot][:, None])
                shooter[shot] = seats[0]
    elif rules.bidding == "slam":
        rows = np.flatnonzero((bidder >= 0) & (partner >= 0))
        if len(rows):
            points = points.copy()
            pair = points[rows, bidder[rows]] + points[rows, partner[rows]]
            points[rows, bidder[rows]] = pair
            points[rows, partner[rows]] = pair
        return points, shooter, points
    return points, shooter, team_sums(rules, points) if rules.teams else points


def add_to_totals(rules: Rules, totals: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Game totals after adding a deal (a total of exactly the target resets to 0 if asked)."""
    after = totals + points
    if rules.exact_target_reset:
        after = np.where(after == rules.target_score, 0, after)
    return after


def settle_deal(
    rules: Rules,
    points: np.ndarray,
    raw: np.ndarray,
    taken: np.ndarray,
    shooter: np.ndarray,
    pool: np.ndarray,
    uncounted: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Chips won (+) or paid (−) per player for K deals (K, P), and the pool carried over (K,).

    ``points`` are the final deal points, ``raw`` the card points taken, ``shooter`` the moon
    shooter (-1: none), ``uncounted`` (K,) penalty cards that scored nothing (they are out of
    Howell's total too). Chips are whole; ``sum(chips) + (pool after - pool before) == 0``.

    * ``howell`` (Foster): each pays (n−1)·p into a pool and takes back T−p: net T − n·p.
    * ``jackpot`` (Foster): each pays p into the pool; the players who took no penalty card
      share it in whole chips (the odd chips stay); with no such player it all carries over.
    * ``lowest_wins_chips`` (Hoyle 1887): the players with the fewest points collect from every
      other player his points, each payment split in whole chips (the remainder goes into the
      pool); they also share a positive pool carried in the same way. A moon shooter (moon rule
      on) instead receives his points: ⌊r/(n−1)⌋ from each opponent, the rest from the pool
      (which may go below 0: it owes him).
    """
    k, n = points.shape
    if rules.settlement in ("points", "maria"):  # no chips per deal (Black Maria's at game end)
        return np.zeros((k, n), np.float64), pool
    chips = np.zeros((k, n), np.int64)
    pool_in = np.rint(pool).astype(np.int64)
    pool_out = pool_in.copy()
    if rules.settlement == "howell":
        total = rules.penalty_total - (0 if uncounted is None else points_of(rules, uncounted))
        chips = np.asarray(total)[..., None] - n * points
    elif rules.settlement == "jackpot":
        pot = pool_in + points.sum(axis=1)
        clean = (taken & np.uint64(rules.penalty_mask)) == ZERO  # (K, P)
        sharers = clean.sum(axis=1)
        share = np.where(sharers > 0, pot // np.maximum(sharers, 1), 0)
        chips = np.where(clean, share[:, None], 0) - points
        pool_out = np.where(sharers > 0, pot % np.maximum(sharers, 1), pot)
    elif rules.settlement == "lowest_wins_chips":
        winners = raw == raw.min(axis=1, keepdims=True)  # (K, P)
        m = winners.sum(axis=1, keepdims=True)
        paid = np.where(winners, 0, raw)
        received = (paid // m).sum(axis=1, keepdims=True) + np.where(pool_in > 0, pool_in, 0)[:, None] // m
        chips = np.where(winners, received, -paid)
        carried = np.where(pool_in > 0, pool_in % m[:, 0], pool_in)
        pool_out = carried + (paid % m).sum(axis=1)
        moon = shooter >= 0
        if moon.any():
            rows = np.arange(k)
            own = raw[rows, np.maximum(shooter, 0)]
            each, rest = own // (n - 1), own % (n - 1)
            is_shooter = np.arange(n)[None, :] == shooter[:, None]
            moon_chips = np.where(is_shooter, own[:, None], -each[:, None])
            chips = np.where(moon[:, None], moon_chips, chips)
            pool_out = np.where(moon, pool_in - rest, pool_out)
    return chips.astype(np.float64), pool_out.astype(np.float64)


def settle_game(totals: np.ndarray) -> np.ndarray:
    """Black Maria: each player pays the lowest scorer(s) the difference; equal lowest share."""
    low = totals == totals.min(axis=1, keepdims=True)
    debt = totals - totals.min(axis=1, keepdims=True)
    return np.where(low, (debt.sum(axis=1) / low.sum(axis=1))[:, None], -debt.astype(np.float64))
