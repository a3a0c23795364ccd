"""``smear``: a heuristic Smear player (docs/smear.md), vectorised over the batch.

It reads the game only through the observation pieces of
:func:`hearts_env.games.smear.observation.smear_layout` and the action mask; the rules (the deck, the
trump order, the categories, the deal) are public. Every decision scores each action and takes
the best legal one (:func:`agents.base.best_legal`).

Bidding — :meth:`SmearAgent.estimates` gives, for each suit as trumps, the points the hand
should make as pitcher: High (``(1 - q)^n`` where ``n`` natural trumps above my highest are
unseen and ``q`` is the chance an unseen card is in an opponent's hand), Low likewise below my
lowest (Two: holding the trump 2), Jack, Jick, Jokers, Ten and Trey (held: better the more
higher trumps guard them; not held: won by my side or captured), Game (my trump length and my
own card points: 10s and high cards). The stock, widow or draws the pitcher takes count in
``q`` and in the expected trump length. The bid is the best suit's estimate less a margin
(:func:`default_margin`), rounded down; it passes when that is below ``min_bid`` or not above
the highest bid so far (the ``bids`` piece); the last to bid (the dealer) bids only one above
the highest. A forced dealer takes the one bid the mask offers; ``bid:moon`` only when the
estimate is every point.

Naming trumps — the suit the estimate rates best (its longest strong suit).

Discards — keep trumps (strongest first) and point cards (10s, aces, kings), throw low
off-suit cards first. Before trumps are known (the five-point kitty) the best suit's cards and
the joker count as trumps.

Play — each legal card gets the points my side expects from the trick after playing it:
``(2p - 1) * (points in the trick + the card's own)`` where ``p`` is the chance my side takes
the trick (my card winning and no unseen card beating it in the hands of an opponent still to
play, or my partner's card holding), less the future worth of the card spent (high trumps are
costly, so they are not wasted on tricks without points). So: on a partner's trick that holds,
smear a point card (the trey, a 10, the trump jack); on an opponent's trick, play low and no
point card; win tricks holding points cheaply. Leads: the pitcher's side leads trumps while
trumps are out (a sure-winning trump first, pulling trumps and point cards), else sure
winners, else a low card without points. In the five-point game the pitcher's first lead names
trumps: the highest card of the suit the bid estimate used.
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent, Observation, best_legal
from hearts_env.core.rules import Rules
from hearts_env.games.smear.observation import bid_decisions
from hearts_env.games.smear.options import SMEAR_CATEGORIES

OTHER_SUIT = (3, 2, 1, 0)
"""The jick's suit for each trump suit: clubs <-> spades, diamonds <-> hearts."""
ACE, KING, QUEEN, JACK, TEN, TREY, TWO = 12, 11, 10, 9, 8, 1, 0
GAME_POINTS = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1, TEN: 10}


def default_margin(rules: Rules) -> float:
    """What the bid holds back from the estimate, by deal (measured with
    ``experiments/smear-heuristic-margin/smear_strength.py`` against other margins and
    ``lowest``): the pitcher who takes a stock gains more than the estimate credits (bid 1 above
    it); a pitcher without one in a cut-throat or nine-card game makes less (bid 2 below; 1 with
    partners)."""
    if rules.smear_deal == "nine_card":
        return 2.0
    if rules.smear_deal == "stock":
        if rules.stock_size:
            return -1.0
        return 1.0 if rules.teams else 2.0
    return 0.0


class SmearAgent(Agent):
    """The Smear heuristic of the module docstring.

    ``margin``: subtracted from the estimate before bidding (None: :func:`default_margin`);
    ``game_weight``: a game card point
    in category points during play; ``power_weight``: the worth of spending the strongest card.
    """

    name = "smear"
    games = ("smear",)

    def __init__(
        self,
        rules: Rules,
        *,
        margin: float | None = None,
        game_weight: float = 0.03,
        power_weight: float = 0.5,
    ) -> None:
        super().__init__(rules)
        self.margin = default_margin(rules) if margin is None else float(margin)
        self.game_weight, self.power_weight = game_weight, power_weight
        c = self.cards = rules.card_slots
        self.players = rules.num_players
        idx = np.arange(c)
        self.is_joker = idx >= 52
        self.rank = np.where(self.is_joker, -1, idx % 13)
        self.suit = np.where(self.is_joker, 4, idx // 13)
        self.deck = np.array([bool(rules.deck_mask >> i & 1) for i in range(c)])
        self.points = np.array([GAME_POINTS.get(int(r), 0) if r >= 0 else 0 for r in self.rank], float)
        cats = set(rules.categories)
        self.trump = np.zeros((4, c), bool)
        self.natural = np.zeros((4, c), bool)
        self.strength = np.zeros((4, c))
        self.eff_suit = np.tile(self.suit, (4, 1))
        self.value = np.zeros((4, c))  # what the card is worth to the side that wins it in a trick
        self.power = np.zeros((4, c))  # its future trick-taking worth, 0..1
        for t in range(4):
            nat = (self.suit == t) & self.deck
            jick = 13 * OTHER_SUIT[t] + JACK if rules.jick else None
            trump = nat.copy()
            if jick is not None:
                trump[jick] = self.deck[jick]
            trump |= self.is_joker & self.deck
            self.trump[t], self.natural[t] = trump, nat
            if jick is not None:
                self.natural[t, jick] = False
            s = np.where(self.rank < JACK, 200 + self.rank, 500 + self.rank).astype(float)
            s = np.where(nat, s, 0.0)
            if jick is not None:
                s[jick] = 450.0
            for k, j in enumerate(np.flatnonzero(self.is_joker)):
                if rules.joker_rank == "lowest":
                    s[j] = 100.0
                else:
                    s[j] = 300.0 + (100.0 * k if rules.distinguishable_jokers else 0.0)
            self.strength[t] = np.where(trump, s, 0.0)
            self.eff_suit[t] = np.where(trump, t, self.suit)
            v = self.points * game_weight if "game" in cats else np.zeros(c)
            for name, card in (("jack", 13 * t + JACK), ("ten", 13 * t + TEN), ("trey", 13 * t + TREY)):
                if name in cats:
                    v[card] += SMEAR_CATEGORIES[name]
            if "jick" in cats and jick is not None:
                v[jick] += SMEAR_CATEGORIES["jick"]
            if rules.joker_points == "trick":
                for name, card in (("joker1", 52), ("joker2", 53)):
                    if name in cats and card < c:
                        v[card] += SMEAR_CATEGORIES[name]
            self.value[t] = np.where(self.deck, v, 0.0)
            order = np.argsort(np.argsort(np.where(trump, self.strength[t], -1.0)))
            n_trumps = int(trump.sum())
            frac = (order - (c - n_trumps)) / max(n_trumps - 1, 1)
            off = 0.25 * (np.clip(self.rank, 0, 12) / 12.0) ** 3
            self.power[t] = np.where(trump, 0.1 + 0.9 * frac**2, off)
        # strengths for counting beaters: an indistinguishable high joker is beaten by the other
        self.beat_strength = self.strength.copy()
        if rules.jokers == 2 and not rules.distinguishable_jokers and rules.joker_rank == "high":
            self.beat_strength[:, 52:54] += 0.5
        # decisions
        names = rules.decisions
        self.pass_action = c + names.index("pass")
        bids = bid_decisions(rules)
        self.bid_slot_value = np.zeros(len(bids))  # value of each slot of the ``bids`` piece
        self.every_point = sum(SMEAR_CATEGORIES[n] for n in rules.categories)
        for k, d in enumerate(bids):
            if d.startswith("bid:"):
                self.bid_slot_value[k] = self.every_point + 1 if d == "bid:moon" else int(d[4:])
        self.bid_actions = [(c + names.index(d), d) for d in bids if d != "pass"]
        self.suit_actions = [
            (c + names.index(f"suit:{x}"), i) for i, x in enumerate("CDHS") if f"suit:{x}" in names
        ]
        self.discard_phase = rules.phases.index("discard") if "discard" in rules.phases else -1
        self.has_partners = bool(rules.teams)
        self.has_out = rules.smear_deal == "nine_card"
        self.size_scale = float(rules.hand_size + rules.stock_size)
        self._chances()

    # ------------------------------------------------------------------ bid estimates
    def _chances(self) -> None:
        """Where an unseen card will be once play starts, for a pitcher: ``q_mine`` (taken from
        the stock, widow or draws), ``q_side`` (mine or a partner's), ``q_opp`` (an opponent's)."""
        r = self.rules
        p, hand, stock = r.num_players, r.hand_size, r.stock_size
        side = len(next((team for team in r.teams if 0 in team), (0,)))
        deck = int(self.deck.sum())
        unseen = max(deck - hand, 1)
        trump_frac = 14 / 54
        draw = max(0.0, r.keep - hand * trump_frac)
        others = float(hand)
        if r.smear_deal == "stock":
            gain = float(stock)
        elif r.smear_deal == "widow":
            widow = float(r.widow or 0)
            gain = widow + max(0.0, stock - widow - (p - 1) * draw)
            others = hand + draw
        elif r.smear_deal == "nine_card":
            gain = min(draw, max(0.0, stock - (p - 1) * draw))
            others = hand + min(draw, stock / p)
        else:
            gain = float(r.widow or 0)
        mine, partner, opp = gain, (side - 1) * others, (p - side) * others
        scale = min(1.0, unseen / max(mine + partner + opp, 1e-9))
        self.q_mine = mine * scale / unseen
        self.q_side = (mine + partner) * scale / unseen
        self.q_opp = opp * scale / unseen

    def estimates(self, hand: np.ndarray) -> np.ndarray:
        """(B, 4): the points a hand (B, C) should make as pitcher with each suit as trumps."""
        cats = self.rules.categories
        q_mine, q_side, q_opp = self.q_mine, self.q_side, self.q_opp
        partner = q_side - q_mine
        out = np.zeros((len(hand), 4))
        unseen = self.deck[None, :] & ~hand
        rank = self.rank[None, :]
        top = (rank >= QUEEN) & ~self.is_joker[None, :]
        for t in range(4):
            trump, nat, strength = self.trump[t], self.natural[t], self.strength[t]
            mine = hand & trump[None, :]
            n_tr = mine.sum(axis=1) + q_mine * (unseen & trump[None, :]).sum(axis=1)
            n_top = (mine & top & nat[None, :]).sum(axis=1)
            mine_nat = hand & nat[None, :]
            has_nat = mine_nat.any(axis=1)
            high = np.where(mine_nat, rank, -1).max(axis=1)
            low = np.where(mine_nat, rank, 13).min(axis=1)
            un_nat = unseen & nat[None, :]
            est = np.zeros(len(hand))
            if "high" in cats:
                above = (un_nat & (rank > high[:, None])).sum(axis=1)
                est += (1 - q_opp) ** above * np.where(has_nat, 1.0, q_side)
            if "low" in cats:
                below = (un_nat & (rank < low[:, None])).sum(axis=1)
                est += (1 - q_opp) ** below * np.where(has_nat, 1.0, q_side)
            if "two" in cats and self.deck[13 * t + TWO]:
                est += np.where(hand[:, 13 * t + TWO], 1.0, q_side)
            trick_cards = []
            for name, card in (("jack", 13 * t + JACK), ("ten", 13 * t + TEN), ("trey", 13 * t + TREY)):
                if name in cats:
                    trick_cards.append((card, SMEAR_CATEGORIES[name], name == "trey"))
            if "jick" in cats and self.rules.jick:
                trick_cards.append((13 * OTHER_SUIT[t] + JACK, 1, False))
            for name, card in (("joker1", 52), ("joker2", 53)):
                if name in cats and card < self.cards:
                    if self.rules.joker_points == "holder":
                        est += np.where(hand[:, card], 1.0, q_side) * self.deck[card]
                    else:
                        trick_cards.append((card, 1, False))
            for card, worth, low_card in trick_cards:
                if not self.deck[card]:
                    continue
                guards = (mine & (strength[None, :] > strength[card])).sum(axis=1)
                base = 0.35 if low_card else 0.5
                held = np.minimum(0.95, base + 0.13 * guards + 0.03 * n_tr)
                capture = np.minimum(0.5, 0.1 * n_top + 0.03 * n_tr)
                other = q_mine * 0.8 + partner * 0.6 + q_opp * capture
                est += worth * np.where(hand[:, card], held, other)
            if "game" in cats:
                own = (hand * self.points[None, :]).sum(axis=1)
                est += np.clip(0.15 + 0.05 * n_tr + 0.012 * own, 0.05, 0.85)
            out[:, t] = est
        return out

    # ------------------------------------------------------------------ acting
    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """Smear actions (B,) for a batch."""
        mask = np.asarray(obs["action_mask"]) > 0
        c = self.cards
        hand = self.view(obs, "hand") > 0
        est = self.estimates(hand)
        best_suit = np.argmax(est, axis=1)
        known = self.view(obs, "trumps")
        t = np.where(known.any(axis=1), np.argmax(known, axis=1), best_suit)
        score = np.zeros(mask.shape)
        score[:, c:] = self._decisions(obs, est)
        phase = np.argmax(self.view(obs, "phase"), axis=1)
        discarding = phase == self.discard_phase
        cards = np.where(discarding[:, None], self._discards(hand, t), self._plays(obs, hand, t, known))
        # five-point: the pitcher's first lead names trumps (the best suit's highest card)
        naming = ~known.any(axis=1) & ~discarding & mask[:, :c].any(axis=1)
        if naming.any():
            name_score = 100.0 * (self.suit[None, :] == best_suit[:, None]) + self.rank[None, :]
            cards = np.where(naming[:, None], name_score, cards)
        score[:, :c] = cards
        return best_legal(score, mask)

    def _decisions(self, obs: Observation, est: np.ndarray) -> np.ndarray:
        """(B, E) scores of the decisions: the bid of the estimate (or pass), the best suit."""
        c, names = self.cards, self.rules.decisions
        score = np.zeros((len(est), len(names)))
        bids = self.view(obs, "bids")  # (B, P, N)
        made = bids.any(axis=2)
        slot = np.argmax(bids, axis=2)
        high = np.where(made, self.bid_slot_value[slot], 0.0).max(axis=1)
        last = made[:, 1:].all(axis=1)
        best = est.max(axis=1)
        bid = np.minimum(np.floor(best - self.margin), self.rules.max_bid)
        floor = np.maximum(high + 1, self.rules.min_bid)
        want = bid >= floor
        target = np.where(last, floor, bid)
        for action, d in self.bid_actions:
            k = action - c
            if d == "bid:moon":
                score[:, k] = np.where(np.floor(best) >= self.every_point, 50.0, -100.0)
                continue
            v = int(d[4:])
            score[:, k] = np.where(want, 5.0 - np.abs(v - target), -float(v))
        for action, suit in self.suit_actions:
            score[:, action - c] = est[:, suit]
        return score

    def _discards(self, hand: np.ndarray, t: np.ndarray) -> np.ndarray:
        """(B, C) discard scores: the highest is thrown. Trumps are kept (the scoring ones and
        the lowest, which holds Low, above the strongest), then 10s, aces and kings; low
        off-suit cards go first."""
        trump, strength = self.trump[t], self.strength[t]
        lowest = np.argmin(np.where(hand & trump & self.natural[t], self.rank[None, :], 99), axis=1)
        scoring = self.value[t] >= 1
        keep_trump = 100.0 + strength / 10.0 + 40.0 * scoring
        keep_trump[np.arange(len(hand)), lowest] += 40.0
        keep = np.where(trump, keep_trump, 1.5 * self.points + self.rank)
        return -keep

    def _plays(self, obs: Observation, hand: np.ndarray, t: np.ndarray, known: np.ndarray) -> np.ndarray:
        """(B, C) card scores in play: expected trick points for my side less the power spent."""
        b, p = len(hand), self.players
        rows = np.arange(b)
        trump, strength, eff = self.trump[t], self.strength[t], self.eff_suit[t]
        beat_strength, value, power = self.beat_strength[t], self.value[t], self.power[t]
        trick = self.view(obs, "current_trick") > 0  # (B, P, C)
        on_table = trick.any(axis=1)
        leading = ~on_table.any(axis=1)
        leader = np.argmax(self.view(obs, "trick_leader"), axis=1)
        played = (self.view(obs, "played_by_seat") > 0).any(axis=1)
        thrown = self.view(obs, "thrown") > 0
        unseen = self.deck[None, :] & ~hand & ~played & ~thrown & ~on_table
        side = np.zeros((b, p), bool)
        side[:, 0] = True
        if self.has_partners:
            side |= self.view(obs, "partners") > 0
        pitcher = self.view(obs, "pitcher")
        my_pitch = (side & (pitcher > 0)).any(axis=1)
        # who still plays after me in this trick
        pos = (np.arange(p)[None, :] - leader[:, None]) % p  # (B, P)
        has_played = trick.any(axis=2)
        after = ~has_played & (pos > pos[:, :1])
        after[:, 0] = False
        after[leading] = True
        after[leading, 0] = False
        if self.has_out:
            after &= ~(self.view(obs, "out") > 0)
        counts = np.rint(self.view(obs, "hand_sizes") * self.size_scale)
        others = np.maximum(counts[:, 1:].sum(axis=1), 1.0)
        opp_after = (counts * (after & ~side)).sum(axis=1)
        n_unseen = np.maximum(unseen.sum(axis=1), others)
        f_trump = np.clip(opp_after / others, 0.0, 0.95)
        f_other = np.clip(opp_after / n_unseen, 0.0, 0.95)
        # beaters of each card (as the suit led's card or a trump): (B, C) counts of unseen cards
        bs = beat_strength
        u_trump = unseen & trump
        u_other = unseen & ~trump
        beats_t = u_trump[:, :, None] & ((bs[:, :, None] > strength[:, None, :]) | ~trump[:, None, :])
        n_beat_t = beats_t.sum(axis=1)
        same = (eff[:, :, None] == eff[:, None, :]) & (self.rank[None, :, None] > self.rank[None, None, :])
        n_beat_o = (u_other[:, :, None] & same & ~trump[:, None, :]).sum(axis=1)
        hold = (1 - f_trump[:, None]) ** n_beat_t * (1 - f_other[:, None]) ** n_beat_o  # (B, C)
        # the trick so far
        lead_card = np.argmax(trick[rows, leader], axis=1)
        lead_suit = np.where(leading, -1, eff[rows, lead_card])
        follow = np.where(trump, strength, np.where(eff == lead_suit[:, None], 1.0 + self.rank[None, :], 0.0))
        joker_order = self.is_joker[None, :] & trump & (self.rules.joker_rank == "high")
        joker_order &= not self.rules.distinguishable_jokers
        seat_strength = np.where(trick, follow[:, None, :] + joker_order[:, None, :] * pos[:, :, None], -1.0)
        per_seat = seat_strength.max(axis=2)
        winner = np.argmax(per_seat, axis=1)
        best = per_seat[rows, winner]
        win_card = np.argmax(seat_strength[rows, winner], axis=1)
        side_winning = side[rows, winner] & ~leading
        side_hold = np.where(side_winning, hold[rows, win_card], 0.0)
        trick_value = (on_table * value).sum(axis=1)
        mine = follow + joker_order * pos[:, :1]
        wins = mine > best[:, None]
        p_side = np.where(wins, hold, side_hold[:, None])
        follow_score = (2 * p_side - 1) * (trick_value[:, None] + value) - self.power_weight * power
        # leading: the led card sets the suit
        lead_p = hold
        lead_score = (2 * lead_p - 1) * (value + 0.3) - self.power_weight * power
        trumps_out = u_trump.any(axis=1) & known.any(axis=1)
        pull = my_pitch & trumps_out
        lead_score += np.where(pull[:, None] & trump, 0.6 * lead_p + 0.15, 0.0)
        return np.where(leading[:, None], lead_score, follow_score)
