"""``strategy``: the heuristic player of the sources' strategy text, vectorised over the batch.

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

Jokers (``joker_hearts``) — kept as safe exits: never passed, led only when every other lead
is bad, played when I would otherwise have to win a trick with points in it (or one that
points may still fall on); a fine discard while shooting.

Widow / kitty (``heartsette``) — the first trick carries the widow's expected points (its size
times the mean value of the cards I have not seen): last to it, I take it only while they are
under a point; once I took it, its cards are known and out of play (its points are already in
my ``points_taken``). (Measured against a widow-blind copy: no difference beyond ±0.03 a deal.)

Partners (``partnership_hearts``; the ``partners`` piece, so Partnership C's silent pair too) —
no points discarded on a trick my partner is winning (a bonus card gladly), no penalty card
ducked under him, no overtaking him on a clean trick; his points are my side's: nobody defends
against his own partner's moon. Partnership A (a team taking every penalty card together
scores 0, the other team 26 each): while my side has no penalty card, the other side may take
them all together without trying (a side ducking everything got "mooned" in 47% of deals by
random players; 14% with the guard), so my side *guards*: I keep my hearts from J up in the
pass, take a trick of up to ``GUARD_POINTS`` points when I can, lead a sure-winning heart, and
shed my cheapest penalty card on my partner's trick; the team moon is a threat only from the
other team, and a shoot for mine.

Decisions other than cards (docs/rules.md) —
    *Général* (``chasse_coeur``) and the *slam bid* (Partnership C): only with a dominant hand
    (:func:`dominant`): in every suit I hold, my top cards outnumber the others' cards or are all
    my cards, and I win the first trick if someone else leads it. The declarer then shoots; the
    others defend (take any penalty card) against a declarer who has not failed yet.
    *Auction* (``auction_hearts``): :func:`suit_danger` estimates the points I would take with
    each suit as the penalty suit; the bid is worth hearts' danger less the safest suit's (less
    a margin): bid the smallest legal bid if it is within that, else pass; name the safest suit.
    *Shooter's choice*: from the ``scores`` piece, the option under which I win the game if it
    ends now; if neither ends it, ``moon:add`` when I (my team) would then be lowest (hastening
    the end), else ``moon:subtract``.
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
from hearts_env.core.cards import NUM_STANDARD_CARDS
from hearts_env.core.rules import Rules

HEARTS = 2

LADY_GUARDS = 4
"""Guards needed to keep a lady rather than pass her."""
COVER_GUARDS = 3
"""Guards needed to keep a cover (A♠, K♠) rather than pass it."""
HIGH_RANK = 9
"""Ranks from J up count as high cards (passing hearts, moon-block test)."""
LOW_HEART_RANK = 5
"""Penalty-suit cards up to 7 are "low" (exits; moon blockers)."""
GUARD_POINTS = 4
"""Partnership A: the most points my side takes on purpose to stop the other team's moon early."""
JOKER_LEAD_COST = 25.0
"""Lead cost of a joker: above a low or middling lead, below a sure winner or a lady."""
BID_MARGIN = 1.0
"""Auction: the points a bid must save beyond its chips (measured: 0.5 plays the same, 2 worse;
bidding so beats never bidding by 0.8, 0.4 and 0.2 points a deal with 4, 5 and 6 players)."""


class StrategyAgent(Agent):
    """The full strategy-text player (see the module docstring)."""

    name = "strategy"
    games = ("hearts",)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.moon_possible = rules.moon != "none"
        self.pass_count = rules.pass_count
        self.team_moon = rules.team_scoring == "sum" and self.moon_possible

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Strategy actions (B,)."""
        t = TableView(self.rules, self.layout, obs)
        k = _Knowledge(t, self.moon_possible)
        playing = ~t.passing & ~t.deciding
        leading = playing & t.no_suit
        following = playing & ~t.no_suit & t.can_follow
        discarding = playing & ~t.no_suit & ~t.can_follow
        cards = np.zeros(t.mask.shape)
        jokers = np.zeros(t.batch)
        for rows, scorer in (
            (t.passing, self._pass_score),
            (leading, _lead_score),
            (following, _follow_score),
            (discarding, _discard_score),
        ):
            if rows.any():
                card_score, joker_score = scorer(t, k)
                cards = np.where(rows[:, None], card_score, cards)
                jokers = np.where(rows, joker_score, jokers)
        c = self.rules.card_slots
        score = np.empty(np.asarray(obs["action_mask"]).shape)
        score[:, :NUM_STANDARD_CARDS] = cards
        score[:, NUM_STANDARD_CARDS:c] = jokers[:, None]
        if self.rules.decisions:
            score[:, c:] = _decision_score(t, self.rules)
        return best_legal(score, np.asarray(obs["action_mask"]))

    def _pass_score(self, t: TableView, k: _Knowledge) -> tuple[np.ndarray, np.ndarray]:
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
        if self.team_moon:
            # Partnership A: my side must keep a way to take a penalty card (else the other
            # team takes them all together): keep my highest hearts.
            score -= 20 * (penalty_suit_card & (RANK[None, :] >= HIGH_RANK))
        return score, np.full(t.batch, -1000.0)  # jokers are exits: never passed

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
        p = t.num_players
        positive = np.maximum(t.points_taken, 0)  # (B, P)
        side = t.partners.copy()
        side[:, 0] = True  # (B, P) my side: me and the partners I know
        team_moon = t.rules.team_scoring == "sum"  # Partnership A: a team takes all together
        progress = t.tricks_done / max(t.rules.hand_size, 1)
        needed = t.penalty_total * (0.9 - 0.4 * progress)
        if team_moon:
            theirs = np.where(side, 0, positive).sum(axis=1)
            ours = np.where(side, positive, 0).sum(axis=1)
            self.threat = moon_possible & (ours == 0) & (theirs >= needed) & (theirs > 0)
            self.threat_seats = self.threat[:, None] & ~side
            # Until my side holds a penalty card, the other side can take them all together
            # (and will, as soon as both of us duck everything): take a cheap one.
            self.guard = moon_possible & (ours == 0)
            nobody_else = theirs == 0
            mine = ours
        else:
            scorers = (positive > 0).sum(axis=1)
            top = np.argmax(positive, axis=1)
            alone = (scorers == 1) & ~side[np.arange(t.batch), top]
            self.threat = moon_possible & alone & (positive.max(axis=1) >= needed)
            self.threat_seats = self.threat[:, None] & (np.arange(p)[None, :] == top[:, None])
            nobody_else = (positive[:, 1:] == 0).all(axis=1)
            mine = positive[:, 0]
            self.guard = np.zeros(t.batch, bool)
        winners = (t.hand & self.sure_win).sum(axis=1)
        # Measured: once I alone hold points, going for the moon with half the hand short of
        # sure winners pays (duplicate A/B against tighter and looser thresholds).
        enough = winners >= t.hand_count - t.rules.hand_size // 2
        self.shooting = moon_possible & nobody_else & (mine > 0) & enough & (t.hand_count > 1)
        # Chasse-cœur: a declared Général stands until someone else takes a penalty card. The
        # declarer shoots; everyone else defends against him.
        declared = t.decided("general")  # (B, P)
        if declared.any():
            declarer = np.argmax(declared, axis=1)
            others_points = np.where(np.arange(p)[None, :] == declarer[:, None], 0, positive).sum(axis=1)
            standing = declared.any(axis=1) & (others_points == 0)
            mine_standing = standing & (declarer == 0)
            theirs_standing = standing & (declarer != 0)
            self.shooting = np.where(mine_standing, t.hand_count > 0, self.shooting & ~standing)
            self.threat = np.where(standing, theirs_standing, self.threat)
            self.threat_seats = np.where(
                standing[:, None], theirs_standing[:, None] & declared, self.threat_seats
            )


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


def _lead_score(t: TableView, k: _Knowledge) -> tuple[np.ndarray, np.ndarray]:
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
    defend = (k.threat | k.guard)[:, None] & (v > 0) & k.sure_win & (unseen > 0) & ~k.ladies
    cost -= 30 * defend
    shoot = 50 * k.sure_win + rank + 5 * ~(v > 0)
    cards = np.where(k.shooting[:, None], shoot, -cost)
    # A joker led keeps every card and loses the trick: only when every other lead is bad.
    jokers = np.where(k.shooting | k.threat, -200.0, -JOKER_LEAD_COST)
    return cards, jokers


def _follow_score(t: TableView, k: _Knowledge) -> tuple[np.ndarray, np.ndarray]:
    v = t.values
    rank = RANK[None, :].astype(float)
    beats = t.beats_winner
    under = t.mask & ~beats
    can_duck = under.any(axis=1)[:, None]
    partner = t.partner_winning[:, None]
    # Ducking under my partner: no penalty card on his trick if another card ducks too.
    duck = np.where(under, 100 + rank - 15 * (v < 0) - 5 * np.maximum(v, 0) * partner, -rank)
    last = t.last_to_play[:, None]
    points = t.trick_points + t.kitty_expected  # the first trick also wins the widow
    clean = (points < 1)[:, None]
    taker = beats & (v <= 0)
    take = np.where(taker, 200 + rank + 20 * (v < 0), -rank)
    can_take = (taker & t.mask).any(axis=1)[:, None]
    risky = k.covers_unseen | (v > 0)
    hazard = (t.later_void | (t.trick_points > 0))[:, None]
    forced = np.where(
        last, rank - 50 * (v > 0) + 10 * (v < 0), np.where(hazard | risky, -rank - 30 * risky, rank)
    )
    score = np.where(can_duck, duck, forced)
    # Last to a clean trick: take it with a high card, unless my partner has it.
    score = np.where(last & clean & can_take & ~(partner & can_duck), take, score)
    defend = (k.threat & (t.trick_points > 0))[:, None] & (beats & t.mask).any(axis=1)[:, None]
    score = np.where(defend, np.where(beats, 300 + rank, -rank), score)
    # Partnership A, my side without a penalty card: win a cheap trick with points in it.
    cheap = (t.trick_points > 0) & (t.trick_points <= GUARD_POINTS) & ~t.partner_winning
    guard = (k.guard & cheap)[:, None] & (beats & t.mask & ~k.ladies).any(axis=1)[:, None]
    score = np.where(guard, np.where(beats & ~k.ladies, 300 + rank - 5 * np.maximum(v, 0), -rank), score)
    shoot = np.where(beats, 300 + rank, -rank - 50 * (v > 0))
    cards = np.where(k.shooting[:, None], shoot, score)
    # A joker loses: the exit when I would otherwise win a trick with (or open to) points.
    safe_high = (t.mask & beats & ~risky).any(axis=1)[:, None]
    keep = (last & clean & can_take) | (~last & clean & ~hazard & safe_high)
    jokers = np.where(can_duck, 50.0, np.where(keep, -100.0, 500.0))[:, 0]
    jokers = np.where(defend[:, 0] | guard[:, 0] | k.shooting, -1000.0, jokers)
    return cards, jokers


def _discard_score(t: TableView, k: _Knowledge) -> tuple[np.ndarray, np.ndarray]:
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
    winner = t.winning_seat
    rows = np.arange(t.batch)
    feeds_shooter = k.threat_seats[rows, winner][:, None]
    blocks = (k.threat & ~k.threat_seats[rows, winner])[:, None]
    score = score - 200 * (feeds_shooter & pointed) + 50 * (blocks & pointed)
    # My partner's trick: no points on it (a bonus card gladly, once his trick is safe).
    partner = t.partner_winning
    card = np.maximum(t.winning_card, 0)
    sure = partner & (t.last_to_play | (t.unseen_above[rows, card] == 0))
    score = score - np.where(sure, 200, 60)[:, None] * (partner[:, None] & pointed)
    score = np.where(sure[:, None] & (v < 0), 150, score)
    # Partnership A, my side without a penalty card: the cheapest one on my partner's trick,
    # none on the other team's.
    guard = k.guard[:, None] & pointed
    score = np.where(guard & partner[:, None], 300 - 10 * v, score - 60 * (guard & ~partner[:, None]))
    shoot = -rank - 100 * (v > 0) - 30 * k.sure_win
    cards = np.where(k.shooting[:, None], shoot, score)
    jokers = np.where(k.shooting, 10.0, -50.0)  # nothing to gain from shedding a joker, but my moon
    return cards, jokers


# ---------------------------------------------------------------------- decisions
def _decision_score(t: TableView, rules: Rules) -> np.ndarray:
    """(B, E) scores of the decisions other than cards, for the rows that are asked one."""
    score = np.zeros((t.batch, len(rules.decisions)))
    names = rules.decisions
    if not t.deciding.any():
        return score
    if "general" in names or "slam" in names:
        declaration = names.index("general" if "general" in names else "slam")
        score[:, declaration] = np.where(dominant(t, bidder_leads="slam" in names), 1.0, -1.0)
    if "bid:1" in names:
        danger = suit_danger(t)
        worth = danger[:, HEARTS] - danger.min(axis=1) - BID_MARGIN
        bids = [i for i, name in enumerate(names) if name.startswith("bid:")]
        amount = np.array([int(names[i][4:]) for i in bids], float)
        legal = t.decision_mask[:, bids]
        lowest = np.where(legal.any(axis=1), amount[np.argmax(legal, axis=1)], np.inf)
        bid = lowest <= worth
        # The smallest legal bid when it is worth it; pass otherwise.
        score[:, bids] = np.where(bid[:, None], 10.0 - amount[None, :], -10.0)
        suits = [names.index(f"suit:{letter}") for letter in "CDHS"]
        score[:, suits] = -danger
    if "moon:add" in names:
        add = _moon_add_wins(t, rules)
        score[:, names.index("moon:add")] = np.where(add, 1.0, -1.0)
    return score


def dominant(t: TableView, bidder_leads: bool = False) -> np.ndarray:
    """(B,) a hand that takes every trick (a Général, a slam bid): in every suit I hold, my
    sure winners (cards no unseen card beats) are all my cards or at least as many as the
    others' cards of the suit (so they cannot keep one back), and the first trick is mine —
    I lead it (``bidder_leads``, or I hold the club that must be led and every other club),
    or I hold a sure winner of the suit that will be led (every suit when eldest hand leads)."""
    rules = t.rules
    mine = suit_totals(t.hand)  # (B, 4)
    top = suit_totals(t.hand & (t.unseen_above == 0))
    theirs = suit_totals(t.unseen)
    good = ((mine == 0) | (top >= mine) | (top >= theirs)).all(axis=1)
    if bidder_leads:
        return good & (t.hand_count > 0)
    if rules.first_lead == "eldest":  # someone may lead anything: I must beat every suit
        return good & (top >= 1).all(axis=1)
    club = rules.lowest_club
    i_lead = t.hand[:, club] if rules.first_lead == "lowest_club" else np.zeros(t.batch, bool)
    first = np.where(i_lead, theirs[:, 0] == 0, top[:, 0] >= 1)
    return good & first


DANGER_FEATURES = (
    "1",
    "A",
    "K",
    "Q",
    "J",
    "7-T",
    "2-6",
    "void",
    "singleton",
    "a 2-4",
    "A/K elsewhere",
    "long",
)
"""The features of :func:`suit_danger`, one value per suit of my hand."""
DANGER_WEIGHTS = {
    4: (5.73, 0.59, 0.5, 0.34, 0.21, -0.48, -1.49, -4.01, -1.28, -1.9, 0.57, 0.2),
    5: (4.16, 0.39, 0.43, 0.26, 0.05, -0.66, -1.69, -3.34, -0.7, -0.75, 0.62, 0.45),
    6: (4.36, -0.14, -0.17, -0.36, -0.61, -1.42, -2.15, -3.59, -0.87, -0.27, 0.6, 1.12),
}
"""Least-squares fit of the points the auction's winner took (bid not counted) in 3000 deals
per player count of four ``strategy`` players, replayed with each suit named by eldest hand."""


def suit_danger(t: TableView) -> np.ndarray:
    """(B, 4) the points I expect to take were each suit the penalty suit (1 a card), from my
    hand (:data:`DANGER_FEATURES` weighted by :data:`DANGER_WEIGHTS`): high cards and length
    cost, low cards, voids and singletons save; aces and kings elsewhere win tricks on which the
    others shed the suit."""
    p = t.num_players
    weights = np.array(DANGER_WEIGHTS[min(max(p, 4), 6)])
    h = per_suit(t.hand).astype(float)  # (B, 4, 13)
    length = h.sum(axis=-1)
    lowest = np.where(length > 0, np.argmax(h, axis=-1), 13)
    high = h[..., 11:].sum(axis=-1)
    features = np.stack(
        [
            np.ones_like(length),
            h[..., 12],
            h[..., 11],
            h[..., 10],
            h[..., 9],
            h[..., 5:9].sum(axis=-1),
            h[..., :5].sum(axis=-1),
            length == 0,
            length == 1,
            lowest <= 2,
            high.sum(axis=-1, keepdims=True) - high,
            np.maximum(length - 13 / p, 0),
        ],
        axis=-1,
    ).astype(float)
    return features @ weights


def _moon_add_wins(t: TableView, rules: Rules) -> np.ndarray:
    """(B,) the shooter's choice: ``moon:add`` rather than ``moon:subtract`` (see the module
    docstring). Totals per side: the fixed teams' sums where there are teams."""
    total = t.penalty_total
    others = total if rules.moon_points is None else np.full(t.batch, float(rules.moon_points))
    me = np.arange(t.num_players)[None, :] == 0
    raw = t.scores + t.points_taken
    add = raw + np.where(me, -total[:, None], others[:, None])
    subtract = raw - np.where(me, 2 * total[:, None], 0)
    if rules.teams:  # relative seats of each team: my side = me and my partners
        side = t.partners | me
        add = np.stack([np.where(side, add, 0).sum(axis=1), np.where(side, 0, add).sum(axis=1)], axis=1)
        subtract = np.stack(
            [np.where(side, subtract, 0).sum(axis=1), np.where(side, 0, subtract).sum(axis=1)], axis=1
        )
    target = rules.target_score
    add_ends = (add >= target).any(axis=1)
    sub_ends = (subtract >= target).any(axis=1)
    add_lowest = add[:, 0] <= add[:, 1:].min(axis=1)
    sub_lowest = subtract[:, 0] <= subtract[:, 1:].min(axis=1)
    return np.where(
        add_ends,
        add_lowest | (sub_ends & ~sub_lowest),
        np.where(sub_ends, ~sub_lowest, add_lowest),
    )
