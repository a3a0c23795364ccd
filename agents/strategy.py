"""``strategy``: the heuristic player of RULES.md §6, vectorised over the batch.

Every decision scores each card of the hand and plays the best legal one. The scores read the
point value of every card from the observation (``card_values``), so the same code plays Black
Maria's A♠/K♠, Omnibus' bonus 10♦, Spot Hearts' valued hearts or Black Jack's J♠.

Words used below
    *lady*    a penalty card worth at least ``max(5, the top card value / 2)``: Q♠ in Hearts,
              Q♠ K♠ A♠ in Black Maria, J♠ in Black Jack, Q♥ too in Pink Lady.
    *cover*   a card ranked above a lady of its suit (A♠ and K♠ over Q♠): the lady's holder
              can drop her under it.
    *guards*  my cards ranked below every lady of their suit (2♠…J♠): they let me duck
              while others smoke the lady out.
    *threat*  one opponent has taken every point so far, enough of them to be shooting.

Passing — dump ladies and covers unless holding enough guards; void a short side suit (one
without penalty cards); pass high penalty-suit cards; never pass guards or a bonus card; on
the last card of a strong pass, pass a low heart to block the receiver's moon.

Leading — a card as low as possible among the unseen cards of its suit (card counting); avoid
suits an opponent is void in; never lead a lady or a cover while its lady is out; don't lead
the lady's suit holding her with few guards; smoke the lady (lead her suit) when holding no
cover; under a moon threat lead a sure-winning penalty card.

Following — duck with the highest card under the winner; last to a trick without points,
take it with the highest card that carries no points; when forced to win, shed the highest
card unless points may still fall on it (then the lowest); under a moon threat, take a trick
with points in it.

Discarding — ladies first, then covers while their lady is out, then penalty cards (high
first), then the card most likely to win a later trick; bonus cards never. Under a moon
threat, give points to anyone but the shooter.

Moon shooting — when I alone have taken points and at most half a hand of my cards are not sure
winners: lead winners, win every trick I can, discard low cards, keep the penalty cards.
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent, Observation, best_legal
from agents.view import (
    RANK,
    SUIT,
    TableView,
    count_above,
    count_below,
    of_card_suit,
    per_suit,
    suit_totals,
)
from hearts_env.rules import Rules

LADY_GUARDS = 4
"""Guards needed to keep a lady rather than pass her."""
COVER_GUARDS = 3
"""Guards needed to keep a cover (A♠, K♠) rather than pass it."""
HIGH_RANK = 9
"""Ranks from J up count as high cards (passing hearts, moon-block test)."""
LOW_HEART_RANK = 5
"""Penalty-suit cards up to 7 are "low" (exits; moon blockers)."""


class StrategyAgent(Agent):
    """The full strategy-text player (see the module docstring)."""

    name = "strategy"

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.moon_possible = rules.moon != "none"
        self.pass_count = rules.pass_count

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Strategy actions (B,)."""
        t = TableView(self.rules, self.layout, obs)
        k = _Knowledge(t, self.moon_possible)
        leading = ~t.passing & (t.position == 0)
        following = ~t.passing & t.can_follow
        discarding = ~t.passing & ~leading & ~following
        score = np.zeros(t.mask.shape)
        for rows, scorer in (
            (t.passing, self._pass_score),
            (leading, _lead_score),
            (following, _follow_score),
            (discarding, _discard_score),
        ):
            if rows.any():
                score = np.where(rows[:, None], scorer(t, k), score)
        return best_legal(score, t.mask)

    def _pass_score(self, t: TableView, k: _Knowledge) -> np.ndarray:
        rank = RANK[None, :].astype(float)
        v = t.values
        remaining = t.hand & ~t.passed
        passes_left = self.pass_count - t.passed.sum(axis=1)  # (B,)
        guards = of_card_suit(suit_totals(remaining & k.under_lady))
        score = np.broadcast_to(10 * rank / 12, v.shape).copy()
        score += np.where(k.ladies, np.where(guards < LADY_GUARDS, 20 + v, -10), 0)
        score += np.where(k.covers & ~k.ladies & (guards < COVER_GUARDS), 8 + 0.5 * k.cover_value, 0)
        score -= 15 * k.under_lady
        penalty_suit_card = (v > 0) & ~k.ladies
        score += np.where(penalty_suit_card, 0.5 * v + np.where(RANK >= HIGH_RANK, 3, -3), 0)
        score -= 30 * (v < 0)
        suit_left = of_card_suit(suit_totals(remaining))
        score += 6 * (k.side_suit & (suit_left <= passes_left[:, None]))
        if self.moon_possible:
            score += 50 * self._moon_blocker(t, remaining, passes_left)
        return score

    def _moon_blocker(self, t: TableView, remaining: np.ndarray, passes_left: np.ndarray) -> np.ndarray:
        """(B, 52) the lowest low heart, where the last card of a pass of high cards should be it."""
        penalty = t.values > 0  # hearts (and ladies, which the rank limit below leaves out)
        low_hearts = remaining & penalty & (RANK[None, :] <= LOW_HEART_RANK)
        strong = (t.passed & (RANK[None, :] >= HIGH_RANK + 2)).sum(axis=1) >= 2
        no_heart_passed = ~(t.passed & penalty).any(axis=1)
        wanted = (passes_left == 1) & strong & no_heart_passed & (self.pass_count > 1)
        lowest = low_hearts & (count_below_any(low_hearts) == 0)
        return lowest & wanted[:, None]


class _Knowledge:
    """Derived facts shared by the decisions: ladies, covers, guards, moon threat, shooting."""

    def __init__(self, t: TableView, moon_possible: bool) -> None:
        v = t.values
        in_deck = t.deck[None, :]
        top = np.where(in_deck, v, 0).max(axis=1, keepdims=True)
        self.ladies = in_deck & (v > 0) & (v >= np.maximum(5, top / 2))  # (B, 52)
        self.ladies_out = self.ladies & ~t.played  # ladies not yet played (mine or unseen)
        self.lady_unseen = self.ladies & t.unseen
        self.covers = count_below(self.ladies_out) > 0  # above a lady still out, in its suit
        self.covers_unseen = count_below(self.lady_unseen) > 0  # above a lady someone else holds
        self.under_lady = in_deck & ~self.ladies & (count_above(self.ladies) > 0)
        self.cover_value = _max_below(np.where(self.ladies_out, v, 0))
        self.unseen_cover_value = _max_below(np.where(self.lady_unseen, v, 0))
        penalty_suits = suit_totals(in_deck & (v > 0)) > 0  # (B, 4)
        self.side_suit = ~of_card_suit(penalty_suits)  # (B, 52) suits with no penalty card
        self.unseen_in_suit = of_card_suit(suit_totals(t.unseen))  # (B, 52)
        self.sure_win = t.unseen_above == 0  # nobody left can beat it in its suit
        positive = np.maximum(t.points_taken, 0)  # (B, P)
        scorers = (positive > 0).sum(axis=1)
        progress = t.tricks_done / max(t.rules.hand_size, 1)
        needed = t.penalty_total * (0.9 - 0.4 * progress)
        self.threat = (
            moon_possible & (scorers == 1) & (positive[:, 0] == 0) & (positive.max(axis=1) >= needed)
        )
        self.threat_seat = np.where(self.threat, np.argmax(positive, axis=1), -1)
        winners = (t.hand & self.sure_win).sum(axis=1)
        nobody_else = (positive[:, 1:] == 0).all(axis=1)
        # Measured: once I alone hold points, going for the moon with half the hand short of
        # sure winners pays (duplicate A/B against tighter and looser thresholds).
        enough = winners >= t.hand_count - t.rules.hand_size // 2
        self.shooting = moon_possible & nobody_else & (positive[:, 0] > 0) & enough & (t.hand_count > 1)


def _max_below(values: np.ndarray) -> np.ndarray:
    """(B, 52): the largest of ``values`` among lower cards of the same suit (0 if none)."""
    by_suit = per_suit(values)
    running = np.maximum.accumulate(by_suit, axis=-1)
    shifted = np.concatenate([np.zeros_like(running[..., :1]), running[..., :-1]], axis=-1)
    return shifted.reshape(values.shape)


def count_below_any(cards: np.ndarray) -> np.ndarray:
    """(B, 52): how many of ``cards`` rank lower than each card, in any suit (ties by suit)."""
    order = RANK * 4 + SUIT  # rank first
    ranked = cards[:, np.argsort(order)]
    below = np.cumsum(ranked, axis=1) - ranked
    out = np.empty_like(below)
    out[:, np.argsort(order)] = below
    return out


def _lead_score(t: TableView, k: _Knowledge) -> np.ndarray:
    v = t.values
    rank = RANK[None, :].astype(float)
    unseen = k.unseen_in_suit
    low = t.unseen_below / np.maximum(unseen, 1)  # 0: every unseen card of the suit is higher
    cost = 10 * low + 15 * (k.sure_win & (unseen > 0)) + 40 * (unseen == 0)
    cost += 4 * (of_card_suit(t.opponent_void) & (unseen > 0))
    cost += 2 * np.maximum(v, 0)
    cost += 30 * k.ladies
    cost += 1.5 * k.unseen_cover_value * k.covers_unseen
    mine = k.ladies_out & t.hand
    holding_lady = of_card_suit(suit_totals(mine)) > 0
    guards = of_card_suit(suit_totals(t.hand & k.under_lady))
    cost += np.where(holding_lady & ~k.ladies, np.where(guards <= 3, 8, 1), 0)
    lady_suit_unseen = of_card_suit(suit_totals(k.lady_unseen)) > 0
    holds_cover = of_card_suit(suit_totals(t.hand & k.covers_unseen)) > 0
    cost -= 3 * (lady_suit_unseen & ~holds_cover & k.under_lady)
    cost += np.minimum(v, 0) * k.sure_win  # a bonus card that wins its own trick
    cost += 0.05 * of_card_suit(t.suit_count)
    defend = k.threat[:, None] & (v > 0) & k.sure_win & (unseen > 0) & ~k.ladies
    cost -= 30 * defend
    shoot = 50 * k.sure_win + rank + 5 * ~(v > 0)
    return np.where(k.shooting[:, None], shoot, -cost)


def _follow_score(t: TableView, k: _Knowledge) -> np.ndarray:
    v = t.values
    rank = RANK[None, :].astype(float)
    beats = t.beats_winner
    under = t.mask & ~beats
    can_duck = under.any(axis=1)[:, None]
    duck = np.where(under, 100 + rank - 15 * (v < 0), -rank)
    last = t.last_to_play[:, None]
    clean = (t.trick_points <= 0)[:, None]
    taker = beats & (v <= 0)
    take = np.where(taker, 200 + rank + 20 * (v < 0), -rank)
    can_take = (taker & t.mask).any(axis=1)[:, None]
    risky = k.covers_unseen | (v > 0)
    hazard = (t.later_void | (t.trick_points > 0))[:, None]
    forced = np.where(
        last, rank - 50 * (v > 0) + 10 * (v < 0), np.where(hazard | risky, -rank - 30 * risky, rank)
    )
    score = np.where(can_duck, duck, forced)
    score = np.where(last & clean & can_take, take, score)
    defend = (k.threat & (t.trick_points > 0))[:, None] & (beats & t.mask).any(axis=1)[:, None]
    score = np.where(defend, np.where(beats, 300 + rank, -rank), score)
    shoot = np.where(beats, 300 + rank, -rank - 50 * (v > 0))
    return np.where(k.shooting[:, None], shoot, score)


def _discard_score(t: TableView, k: _Knowledge) -> np.ndarray:
    v = t.values
    rank = RANK[None, :].astype(float)
    unseen = k.unseen_in_suit
    danger = 10 + 20 * (t.unseen_below + 1) / (unseen + 1)
    score = np.where(v < 0, -100, danger)
    penalty = (v > 0) & ~k.ladies
    score = np.where(penalty, 25 + 3 * rank + v, score)
    score = np.where(k.covers_unseen & ~k.ladies & ~penalty, 80 + k.unseen_cover_value + rank, score)
    score = np.where(k.ladies, 100 + v, score)
    pointed = v > 0
    feeds_shooter = (k.threat & (t.winning_seat == k.threat_seat))[:, None]
    blocks = (k.threat & (t.winning_seat != k.threat_seat))[:, None]
    score = score - 200 * (feeds_shooter & pointed) + 50 * (blocks & pointed)
    shoot = -rank - 100 * (v > 0) - 30 * k.sure_win
    return np.where(k.shooting[:, None], shoot, score)
