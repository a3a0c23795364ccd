"""Smear (the All Fours family) on the batched card model: B games stepped with array operations.

The rules are ``Rules(game="smear", ...)`` (presets ``smear_*``); every detail is read as
``docs/smear.md`` says. What differs from the Hearts family is here as small named mechanisms,
each a function of the games ``rows`` it applies to:

=====================  =======================================================================
mechanism              what it does
=====================  =======================================================================
trump order            :class:`TrumpTables`: the trump cards of each suit (with the jick and
                       the jokers), what counts as each suit led, and each card's strength
follow or trump        :meth:`SmearEngine.legal_play`: the suit led or a trump, else anything
bids                   :meth:`SmearEngine._bid`: one round from eldest hand, the dealer forced
                       (or a throw-in), ``bid:moon`` above every number
naming trumps          :meth:`SmearEngine._name_suit`, or the suit of the first lead
stock and widow        :meth:`SmearEngine._after_trumps`: the pitcher takes the stock or the
                       widow, non-trumps thrown away and draws (chance, never a decision)
discards               :meth:`SmearEngine.legal_discards`: card actions in the ``discard``
                       phase, trumps protected as the variant says
drop-outs              nine-card Smear: a player without trumps is out; extra trumps go to
                       the first trick
point categories       :meth:`SmearEngine.categories`: High, Low, Two, Jack, Jick, Jokers,
                       Game, Ten, Trey; "not in play, not scored"
set-back, game end     :meth:`SmearEngine.end_deal`: the contract, the moon, side totals
=====================  =======================================================================

The batch API is the same as the Hearts family's (:class:`hearts_env.table.Table` drives both):
``new_state``, ``deal``, ``legal`` (cards), ``legal_decisions`` (bit k = ``rules.decisions[k]``),
``step``, ``illegal``, ``explain_illegal``. Seats carry their side's points and totals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from hearts_env.core.bits import BIT, EMPTY, SUIT_MASK, U64, ZERO, unpack
from hearts_env.core.cards import card_name, card_symbol, cards_of, parse_card
from hearts_env.core.engine import BatchState, CardEngine, DecisionPhase, action_bits, next_where
from hearts_env.core.phases import BID, DISCARD, DONE, NAME_SUIT, PLAYING
from hearts_env.core.rules import Rules
from hearts_env.games.smear.options import SMEAR_CATEGORIES

NOT_IN_PLAY, NOBODY = -1, -2
"""Category results besides a side index: the card was not in play / nobody scored it (a tie)."""

_RANK_POINTS = {12: 4, 11: 3, 10: 2, 9: 1, 8: 10}  # A K Q J 10: the points for "game"
_OTHER_SUIT = (3, 2, 1, 0)  # the jick's suit: clubs <-> spades, diamonds <-> hearts
_JACK, _TEN, _TREY, _TWO = 9, 8, 1, 0
_JOKERS = U64((1 << 52) | (1 << 53))


def game_points_of(card: int) -> int:
    """A card's points towards "game": A 4, K 3, Q 2, J 1, 10 10, others (jokers) 0."""
    return _RANK_POINTS.get(card % 13, 0) if card < 52 else 0


class TrumpTables:
    """The trump order of a rules set as tables indexed by the trump suit (0..3).

    ``trumps[t]``: every trump card (the suit, the jick, the jokers); ``follow[t, s]``: the
    cards that count as suit ``s`` led (the trumps when ``s == t``; the jick is not a card of
    its printed suit); ``strength[t, c]``: the card's rank among trumps (0 for non-trumps: the
    suit led's own order is added at play time); ``scoring[t]``: the widow game's protected
    scoring trumps. A joker's strength is completed at play time by its order in the trick
    (the later one higher) unless ``distinguishable_jokers``.
    """

    JOKER_BASE = 300

    def __init__(self, rules: Rules) -> None:
        deck = rules.deck_mask
        self.trumps = np.zeros(4, U64)
        self.follow = np.zeros((4, 4), U64)
        self.strength = np.zeros((4, 65), np.int64)
        self.scoring = np.zeros(4, U64)
        self.jick = np.full(4, EMPTY, np.int64)
        jokers = [c for c in (52, 53) if deck >> c & 1]
        for t in range(4):
            jick = 13 * _OTHER_SUIT[t] + _JACK if rules.jick else None
            cards = [13 * t + r for r in range(13)] + ([jick] if jick is not None else []) + jokers
            self.trumps[t] = U64(sum(1 << c for c in cards) & deck)
            for s in range(4):
                own = SUIT_MASK[s] & ~(BIT[jick] if jick is not None else ZERO)
                self.follow[t, s] = self.trumps[t] if s == t else own
            for r in range(13):
                # 2..10 low, then (jokers, jick in between) J Q K A
                self.strength[t, 13 * t + r] = 200 + r if r < _JACK else 500 + r
            if jick is not None:
                self.jick[t] = jick
                self.strength[t, jick] = 450
            for index, c in enumerate(jokers):
                if rules.joker_rank == "lowest":
                    self.strength[t, c] = 100
                else:
                    self.strength[t, c] = self.JOKER_BASE + (
                        100 * index if rules.distinguishable_jokers else 0
                    )
            scoring = [13 * t + r for r in (12, _JACK, _TEN, _TREY, _TWO)] + jokers
            scoring += [jick] if jick is not None else []
            self.scoring[t] = U64(sum(1 << c for c in scoring) & deck)


@dataclass
class SmearState(BatchState):
    """Arrays of B Smear games (besides :class:`~hearts_env.core.engine.BatchState`'s: there ``totals``,
    ``deal_points`` and ``team_points`` are each seat's side's, ``chips`` stay 0 (Smear has no
    settlement), ``cancelled`` is a throw-in); shapes ``(B,)``, ``(B, P)`` (seats), ``(B, L)``
    (trick plays)."""

    played: np.ndarray  # (B, P) uint64: cards each seat has played this deal
    thrown: np.ndarray  # (B, P) uint64: cards each seat discarded or threw away (private)
    trick_cards: np.ndarray  # (B, L) int64: the current trick's cards in play order, EMPTY after
    trick_seats: np.ndarray  # (B, L) int64: who played each
    trick_len: np.ndarray  # (B,) int64
    trick_by_seat: np.ndarray  # (B, P) uint64: the current trick's cards by seat
    last_trick: np.ndarray  # (B, P) uint64: the previous trick's cards by seat
    last_winner: np.ndarray  # (B,) int64: who won the previous trick, -1 before
    pending: np.ndarray  # (B, P) bool: seats still to play to the current trick
    turn_left: np.ndarray  # (B,) int64: plays left in the acting seat's turn (nine-card extras)
    bids: np.ndarray  # (B, P) int64: -1 not yet, else the decision index of the bid (0 = pass)
    high_bid: np.ndarray  # (B,) int64: the highest bid's value (0 none; the moon: rules.moon_value)
    pitcher: np.ndarray  # (B,) int64: -1 until a bid
    bids_made: np.ndarray  # (B,) int64
    trumps: np.ndarray  # (B,) int64: -1 until named
    queue: np.ndarray  # (B, P) int64: the discard phase's seats in order
    queue_pos: np.ndarray  # (B,) int64
    made_points: np.ndarray  # (B, P) int64: each seat's side's category points before set-back
    categories: np.ndarray  # (B, K) int64: each category's side, NOT_IN_PLAY or NOBODY
    made: np.ndarray  # (B,) bool: the pitching side made its bid (last finished deal)
    winner: np.ndarray  # (B,) int64: the side that won the game, -1 if none (yet)
    per_game: bool = field(default=True, kw_only=True)  # Smear games never run in lockstep


def _lowest_bit(masks: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit of each non-zero mask (64 for zero)."""
    low = masks & (~masks + U64(1))
    return np.where(masks == ZERO, EMPTY, np.bitwise_count(low - U64(1)).astype(np.int64))


def _highest_bit(masks: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of each non-zero mask (64 for zero)."""
    m = masks.copy()
    for shift in (1, 2, 4, 8, 16, 32):
        m |= m >> U64(shift)
    return np.where(masks == ZERO, EMPTY, np.bitwise_count(m).astype(np.int64) - 1)


class SmearEngine(CardEngine):
    """Smear rules compiled into tables, and the functions that advance a :class:`SmearState`
    (a thrown-in deal ends its episode, there were bids: it is not a cancelled deal dealt again
    at once, see :meth:`end_deal`)."""

    games: ClassVar[tuple[str, ...]] = ("smear",)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        p = self.num_players
        self.widow_size = rules.widow or 0
        self.keep = rules.keep
        self.decision_phases = {code: phase for code, phase in _PHASES.items() if phase.name in rules.phases}
        self.tables = TrumpTables(rules)
        decisions = rules.decisions
        self.moon_value = rules.moon_value
        # The value of each decision as a bid (pass 0, the moon moon_value, -1 not a bid).
        self.bid_value = np.array(
            [0 if d == "pass" else self.moon_value if d == "bid:moon" else int(d[4:]) if d.startswith("bid:")
             else -1 for d in decisions] + [-1],
            np.int64,
        )  # fmt: skip
        self.pass_index = decisions.index("pass")
        self.forced_bid = decisions.index(f"bid:{rules.min_bid}")
        self.suit_index = decisions.index("suit:C") if rules.trumps == "named" else -1
        self.team_of = np.array(rules.team_of, np.int64)
        self.num_teams = rules.num_teams
        self.team_seats = [np.flatnonzero(self.team_of == t) for t in range(self.num_teams)]
        self.categories_names = rules.categories
        self.category_values = np.array([SMEAR_CATEGORIES[c] for c in rules.categories], np.int64)
        self.nine_card = rules.smear_deal == "nine_card"
        self.trick_slots = p * (max(rules.hand_size - rules.keep, 0) + 1) if self.nine_card else p
        subsets = unpack(np.arange(1 << 13, dtype=U64), 13).astype(np.int64)  # (8192, 13)
        rank_points = np.array([_RANK_POINTS.get(r, 0) for r in range(13)], np.int64)
        self._suit_game_points = subsets @ rank_points  # game points of any set of one suit

    # ------------------------------------------------------------------ state and dealing
    def new_state(self, batch: int) -> SmearState:
        """Zeroed state for ``batch`` games (call :meth:`deal` before playing)."""
        p, k = self.num_players, len(self.categories_names)

        def z(*shape: int, dtype: type = np.int64) -> np.ndarray:
            return np.zeros((batch, *shape), dtype=dtype)

        return SmearState(
            hands=z(p, dtype=U64), held=z(p, dtype=U64), taken=z(p, dtype=U64), played=z(p, dtype=U64),
            thrown=z(p, dtype=U64), received=z(p, dtype=U64),
            trick_cards=np.full((batch, self.trick_slots), EMPTY, np.int64),
            trick_seats=np.full((batch, self.trick_slots), -1, np.int64), trick_len=z(),
            trick_by_seat=z(p, dtype=U64), last_trick=z(p, dtype=U64), last_winner=z() - 1,
            pending=z(p, dtype=bool), turn_left=z(), lead_suit=z() - 1, leader=z(), trick_number=z(),
            current=z(), phase=np.full(batch, DONE, np.int64), dealer=z(), deal_index=z(),
            bids=z(p) - 1, high_bid=z(), pitcher=z() - 1, bids_made=z(), trumps=z() - 1,
            stock=z(self.stock_size), stock_pos=z(), queue=z(p), queue_pos=z(), totals=z(p),
            deal_points=z(p), team_points=z(p), made_points=z(p), categories=z(k) + NOT_IN_PLAY,
            made=z(dtype=bool), chips=z(p, dtype=np.float64), game_over=np.ones(batch, bool),
            winner=z() - 1, moon_shooter=z() - 1, cancelled=z(dtype=bool),
        )  # fmt: skip

    def hands_from_cards(
        self, hands: list[list[int | str]], widow: list[int | str] | None = None
    ) -> tuple[int, ...]:
        """Validate a hand-written deal: one mask per seat, then the mask of every undealt card
        (the widow and the stock). ``ValueError`` on a card dealt twice, cards not in the deck,
        hands of the wrong size, or a widow of the wrong size."""
        n = self.num_players
        if len(hands) != n:
            raise ValueError(f"a deal for {n} players needs {n} hands, got {len(hands)}")
        parsed = [[parse_card(c) for c in hand] for hand in hands]
        if sorted({len(h) for h in parsed}) != [self.hand_size]:
            raise ValueError(
                f"every hand must hold {self.hand_size} cards here; got sizes {[len(h) for h in parsed]}"
            )
        widow_cards = [parse_card(c) for c in (widow or [])]
        if widow is not None and len(widow_cards) != self.widow_size:
            raise ValueError(
                f"the widow must hold {self.widow_size} cards here, got {[card_name(c) for c in widow_cards]}"
            )
        seen = Counter(c for hand in parsed + [widow_cards] for c in hand)
        twice = sorted(card_name(c) for c, k in seen.items() if k > 1)
        if twice:
            raise ValueError(f"cards dealt twice: {twice}")
        extra = sorted(set(seen) - set(self.deck_cards.tolist()))
        if extra:
            raise ValueError(f"cards not in this deck (removed or unknown): {[card_name(c) for c in extra]}")
        dealt = sum(1 << c for hand in parsed for c in hand)
        return (*(sum(1 << c for c in hand) for hand in parsed), int(self.deck_mask) & ~dealt)

    def undealt_order(
        self, widow: list[int | str] | None, stock: list[int | str] | None, undealt: int
    ) -> np.ndarray | None:
        """The undealt cards' order for a hand-written deal: the widow first, then the stock in
        draw order; ``-1`` where the order is left to chance (no ``stock`` given); None when
        neither is given. ``ValueError`` unless widow + stock are exactly the ``undealt`` cards."""
        if widow is None and stock is None:
            return None
        widow_cards = [parse_card(c) for c in (widow or [])]
        stock_cards = [parse_card(c) for c in (stock or [])]
        given = widow_cards + stock_cards
        if len(set(given)) != len(given):
            raise ValueError(
                f"the widow and stock repeat {sorted({card_name(c) for c in given if given.count(c) > 1})}"
            )
        want = [card_name(c) for c in cards_of(undealt)]
        if sum(1 << c for c in given) & ~undealt:
            raise ValueError(
                f"the widow and stock must hold the cards not dealt ({want}); got "
                f"{[card_name(c) for c in given]}"
            )
        if stock is not None and sum(1 << c for c in given) != undealt:
            raise ValueError(
                f"the stock does not complete the deck: the hands, widow and stock must hold every card "
                f"once; missing {[card_name(c) for c in cards_of(undealt & ~sum(1 << c for c in given))]}"
            )
        if widow is not None and len(widow_cards) != self.widow_size:
            raise ValueError(f"the widow must hold {self.widow_size} cards, got {len(widow_cards)}")
        order = np.full(self.stock_size, -1, np.int64)
        order[: len(given)] = given
        return order

    def start_deal(
        self, s: SmearState, rows: np.ndarray, hands: np.ndarray, kitty: object, direction: object
    ) -> None:
        """Smear's part of :meth:`deal`: the hands, then the bidding from the dealer's left (the
        undealt cards are ``stock``, widow first: ``kitty`` and ``direction`` play no part)."""
        p = self.num_players
        s.hands[rows] = hands
        for name in ("held", "played", "thrown", "trick_by_seat", "last_trick"):
            getattr(s, name)[rows] = ZERO
        s.trick_cards[rows] = EMPTY
        s.trick_seats[rows] = -1
        for name, value in (("trick_len", 0), ("last_winner", -1), ("turn_left", 0), ("lead_suit", -1),
                            ("high_bid", 0), ("pitcher", -1), ("bids_made", 0), ("trumps", -1),
                            ("queue_pos", 0), ("winner", -1)):  # fmt: skip
            getattr(s, name)[rows] = value
        s.pending[rows] = False
        s.bids[rows] = -1
        s.made[rows] = False
        s.categories[rows] = NOT_IN_PLAY
        s.phase[rows] = BID
        s.current[rows] = (s.dealer[rows] + 1) % p
        s.leader[rows] = s.current[rows]

    def set_positions(self, s: SmearState, rows: np.ndarray, pos: Any, check_trick: bool = True) -> None:
        """Start the games ``rows`` from the positions ``pos`` (a
        :class:`~hearts_env.games.smear.positions.SmearPositionBatch` of ``len(rows)``, checked by
        :func:`~hearts_env.games.smear.positions.check_batch`): the finished tricks as given, then the
        trick in progress played again from its leader. ``ValueError`` names a trick card played
        out of turn or against the rules; ``check_trick=False`` does not ask the rules (a sampled
        world may give a seat cards that, as it played, it could not have held)."""
        p = self.num_players
        back = np.zeros((len(rows), p), U64)  # the trick's cards, back in their players' hands
        for j in range(pos.trick.shape[1]):
            card, seat = pos.trick[:, j], pos.trick_seats[:, j]
            on = np.flatnonzero(card != EMPTY)
            back[on, seat[on]] |= BIT.take(card[on])
        s.hands[rows] = pos.hands | back
        s.held[rows] = pos.hands | pos.played
        s.played[rows] = pos.played & ~back
        for name in ("thrown", "received", "taken", "trick_number", "trumps", "pitcher", "high_bid", "bids",
                     "dealer", "deal_index", "totals", "stock", "stock_pos"):  # fmt: skip
            getattr(s, name)[rows] = getattr(pos, name)
        s.trick_by_seat[rows] = ZERO
        s.last_trick[rows] = ZERO
        s.last_winner[rows] = -1
        s.trick_cards[rows] = EMPTY
        s.trick_seats[rows] = -1
        s.bids_made[rows] = p
        s.queue_pos[rows] = 0
        for name in ("deal_points", "team_points", "made_points"):
            getattr(s, name)[rows] = 0
        s.chips[rows] = 0.0
        s.categories[rows] = NOT_IN_PLAY
        s.made[rows] = False
        s.game_over[rows] = False
        s.winner[rows] = -1
        s.moon_shooter[rows] = -1
        s.cancelled[rows] = False
        s.phase[rows] = PLAYING
        self._lead(s, rows, pos.leader)
        s.sync()
        self.replay_trick(s, rows, pos.trick, pos.trick_seats, check_trick, card_symbol)

    def upgrade_saved(self, fields: dict[str, Any], batch: int) -> dict[str, Any]:
        """A version-1 state numbered Smear's phases apart from the Hearts family's (bid 3,
        name_suit 4, discard 5): the same phases in :mod:`hearts_env.core.phases`' codes."""
        phase = fields.get("phase")
        if isinstance(phase, np.ndarray) and phase.dtype == np.int64:
            old = [phase == 3, phase == 4, phase == 5]
            fields["phase"] = np.select(old, [BID, NAME_SUIT, DISCARD], phase)
        return fields

    # ------------------------------------------------------------------ legal actions
    def _acting(self, s: SmearState, attr: str) -> np.ndarray:
        field_ = getattr(s, attr)
        return field_[np.arange(len(s.current)), s.current]

    def legal(self, s: SmearState) -> np.ndarray:
        """(B,) uint64: the acting seat's legal cards (discards or plays; 0 otherwise)."""
        hand = self._acting(s, "hands")
        out = np.zeros(len(hand), U64)
        discarding = np.flatnonzero(s.phase == DISCARD)
        if len(discarding):
            out[discarding] = self.legal_discards(s, discarding, hand[discarding])
        playing = np.flatnonzero(s.phase == PLAYING)
        if len(playing):
            out[playing] = self.legal_play(s, playing, hand[playing])
        return out

    def legal_discards(self, s: SmearState, rows: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """What may be discarded: non-trumps, unless the player holds more than ``keep`` trumps;
        then anything (``"stock"``) or anything but the scoring trumps, unless only they are
        left (``"widow"``); anything in the kitty exchange (before trumps are known)."""
        t = s.trumps[rows]
        if self.rules.smear_deal not in ("stock", "widow"):
            return hand
        trumps = hand & self.tables.trumps.take(t, mode="clip")
        many = np.bitwise_count(trumps) > self.keep
        extra = hand  # what a player with more than ``keep`` trumps may discard
        if self.rules.smear_deal == "widow":
            free = hand & ~self.tables.scoring.take(t, mode="clip")
            extra = np.where(free != ZERO, free, hand)
        return np.where(t < 0, hand, np.where(many, extra, hand & ~trumps))

    def legal_play(self, s: SmearState, rows: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """Follow suit or trump: a trump is always allowed; holding the suit led, a player must
        play it or a trump; otherwise anything. Nine-card: trumps only. Leads: a trump for the
        pitcher's first lead (``pitcher_leads_trump``); not the joker when the lead names trumps."""
        t = s.trumps[rows]
        trumps = hand & self.tables.trumps.take(t, mode="clip")
        trumps = np.where(t >= 0, trumps, ZERO)
        if self.nine_card:
            return trumps
        leading = s.trick_len[rows] == 0
        lead = s.lead_suit[rows]
        suit = hand & self.tables.follow[t.clip(0), lead.clip(0)]
        follow = np.where(suit != ZERO, suit | trumps, hand)
        lead_cards = hand
        first = leading & (s.trick_number[rows] == 0)
        if self.rules.pitcher_leads_trump:
            lead_cards = np.where(first & (trumps != ZERO), trumps, hand)
        if self.rules.trumps == "first_lead":
            no_joker = hand & ~_JOKERS
            lead_cards = np.where(first & (no_joker != ZERO), no_joker, lead_cards)
        return np.where(leading, lead_cards, follow)

    def legal_bids(self, s: SmearState, rows: np.ndarray) -> np.ndarray:
        """(k,) uint64: the legal bids of the games ``rows`` (the ``bid`` phase): above the
        highest so far, or pass; the dealer forced to bid after all passed."""
        high = s.high_bid[rows]
        above = (self.bid_value[None, :-1] > high[:, None]) & (self.bid_value[None, :-1] > 0)
        bits = np.bitwise_or.reduce(np.where(above, BIT[: len(self.bid_value) - 1], ZERO), axis=1)
        bits |= BIT[self.pass_index]
        if self.rules.dealer_must_bid:
            forced = (s.current[rows] == s.dealer[rows]) & (s.pitcher[rows] < 0)
            bits = np.where(forced, BIT[self.forced_bid], bits)
        return bits

    def legal_trumps(self, s: SmearState, rows: np.ndarray) -> np.ndarray:
        """(k,) uint64: the four suits the pitcher may name (the ``name_suit`` phase)."""
        return np.full(len(rows), U64(0b1111 << self.suit_index))

    def illegal(
        self,
        s: SmearState,
        actions: np.ndarray,
        legal: np.ndarray | None = None,
        bits: np.ndarray | None = None,
    ) -> np.ndarray:
        """(B,) bool: actions not legal for the acting seats (finished games never flagged).
        ``legal`` / ``bits``: :meth:`legal` of ``s`` and :func:`~hearts_env.core.engine.action_bits` of
        ``actions``, if already known."""
        legal = self.legal(s) if legal is None else legal
        bits = action_bits(actions) if bits is None else bits
        cards = (actions >= 0) & (actions < self.num_cards)
        card_ok = cards & ((legal & bits) != ZERO)
        choice = actions - self.num_cards
        inside = (choice >= 0) & (choice < len(self.rules.decisions))
        decision_ok = inside & ((self.legal_decisions(s) & BIT.take(np.where(inside, choice, EMPTY))) != ZERO)
        deciding = (s.phase == BID) | (s.phase == NAME_SUIT)
        return (s.phase != DONE) & ~np.where(deciding, decision_ok, card_ok)

    def _explain(self, s: SmearState, game: int, action: int) -> str:
        """Why the in-range ``action`` is illegal for the acting seat of ``game``."""
        seat, phase, names = int(s.current[game]), int(s.phase[game]), self.rules.action_names
        name = names[action] if action >= self.num_cards else card_symbol(action)
        if phase == DONE:
            return f"the deal is over; no seat can choose {name}"
        one = s.take(np.array([game]))
        if phase in (BID, NAME_SUIT):
            legal = int(self.legal_decisions(one)[0])
            allowed = ", ".join(
                names[self.num_cards + k] for k in range(len(self.rules.decisions)) if legal >> k & 1
            )
            if action < self.num_cards:
                why = "a bid must be made first" if phase == BID else "the pitcher must name trumps first"
            elif phase == BID and name.startswith("suit:"):
                why = "trumps are named by the pitcher after the bidding"
            elif phase == BID:
                high = int(s.high_bid[game])
                forced = legal == 1 << self.forced_bid and name != "pass"
                why = (
                    f"everybody else passed: the dealer must bid {self.rules.min_bid}" if forced or name == "pass"  # noqa: E501
                    else f"a bid must beat the highest bid so far ({high})" if high
                    else f"bids are {self.rules.min_bid}..{self.rules.max_bid}"
                )  # fmt: skip
            else:
                why = "bids are over: the pitcher names trumps"
            return f"seat {seat} cannot choose {name}: {why} (legal: {allowed})"
        legal = int(self.legal(one)[0])
        allowed = ", ".join(card_symbol(c) for c in cards_of(legal))
        if action >= self.num_cards:
            what = "discard a card" if phase == DISCARD else "play a card"
            why = (
                "only the pitcher names trumps, once the bidding is over"
                if name.startswith("suit:")
                else f"the bidding is over: {what}"
            )
            return f"seat {seat} cannot choose {name}: {why} (legal: {allowed})"
        hand = int(s.hands[game, seat])
        t = int(s.trumps[game])
        if not hand >> action & 1:
            why = "does not hold it"
        elif phase == DISCARD:
            why = (
                "a scoring trump may not be discarded"
                if self.rules.smear_deal == "widow"
                else f"a trump may be discarded only when holding more than {self.keep} trumps"
            )
        elif self.nine_card:
            why = "only trumps are played in nine-card Smear"
        elif s.trick_len[game] == 0 and self.rules.trumps == "first_lead":
            why = "the first lead names trumps: it cannot be the joker"
        elif s.trick_len[game] == 0:
            why = "the pitcher must lead a trump to the first trick"
        else:
            why = f"must follow {'♣♦♥♠'[int(s.lead_suit[game])]} or play a trump"
        del t
        return (
            f"seat {seat} cannot {'discard' if phase == DISCARD else 'play'} {name}: {why} (legal: {allowed})"
        )

    # ------------------------------------------------------------------ stepping
    def advance(self, s: SmearState, actions: np.ndarray, bits: np.ndarray) -> np.ndarray:
        """One legal decision in every game not DONE (each game acts in the phase it was in);
        returns the (B,) games whose deal ended."""
        ended = np.zeros(len(actions), bool)
        phase = s.phase.copy()
        live = np.flatnonzero(phase != DONE)
        deciding = live[(phase[live] == BID) | (phase[live] == NAME_SUIT)]
        if len(deciding):
            self.decide(s, deciding, actions)
        for code, step in ((DISCARD, self._discard), (PLAYING, self._play)):
            rows = live[phase[live] == code]
            if len(rows):
                step(s, rows, actions[rows])
        ended[live] = s.phase[live] == DONE
        return ended

    # ---- bids and trumps
    def bid(self, s: SmearState, rows: np.ndarray, choice: np.ndarray) -> None:
        """One bid (or pass) each, ``choice`` its position in ``rules.decisions``; after the
        dealer's turn the pitcher names trumps (or, the deal thrown in, the deal ends)."""
        value = self.bid_value.take(choice)
        seat = s.current[rows]
        s.bids[rows, seat] = choice
        raises = value > s.high_bid[rows]
        s.high_bid[rows] = np.where(raises, value, s.high_bid[rows])
        s.pitcher[rows] = np.where(raises, seat, s.pitcher[rows])
        s.bids_made[rows] += 1
        s.current[rows] = self.next_seat.take(seat)
        over = rows[s.bids_made[rows] == self.num_players]
        if not len(over):
            return
        thrown_in = over[s.pitcher[over] < 0]
        if len(thrown_in):
            self._throw_in(s, thrown_in)
        won = over[s.pitcher[over] >= 0]
        if not len(won):
            return
        s.current[won] = s.pitcher[won]
        if self.rules.smear_deal == "widow":  # the pitcher takes the widow before naming trumps
            self._give(s, won, s.pitcher[won], self.widow_size)
        if self.rules.trumps == "named":
            s.phase[won] = NAME_SUIT
        else:
            self._after_trumps(s, won)

    def name_trumps(self, s: SmearState, rows: np.ndarray, choice: np.ndarray) -> None:
        """The pitcher names trumps (``choice``: the position of ``suit:X`` in ``rules.decisions``)."""
        s.trumps[rows] = choice - self.suit_index
        self._after_trumps(s, rows)

    def _give(self, s: SmearState, rows: np.ndarray, seat: np.ndarray, count: int | np.ndarray) -> None:
        """``seat`` takes the next ``count`` undealt cards (widow first, then the stock's order)."""
        size = self.stock_size
        if not size:
            return
        index = np.arange(size)[None, :]
        start = s.stock_pos[rows][:, None]
        take = (index >= start) & (index < start + np.asarray(count).reshape(-1, 1))
        cards = np.bitwise_or.reduce(np.where(take, BIT.take(s.stock[rows]), ZERO), axis=1)
        s.hands[rows, seat] |= cards
        s.received[rows, seat] |= cards
        s.stock_pos[rows] += np.bitwise_count(cards).astype(np.int64)

    def _throw_away_and_draw(self, s: SmearState, rows: np.ndarray, seat: np.ndarray) -> None:
        """``seat`` throws away his non-trumps and draws up to ``keep`` from the stock."""
        trumps = self.tables.trumps.take(s.trumps[rows])
        hand = s.hands[rows, seat]
        s.thrown[rows, seat] |= hand & ~trumps
        s.hands[rows, seat] = hand & trumps
        short = np.maximum(self.keep - np.bitwise_count(hand & trumps).astype(np.int64), 0)
        left = self.stock_size - s.stock_pos[rows]
        self._give(s, rows, seat, np.minimum(short, left))

    def _after_trumps(self, s: SmearState, rows: np.ndarray) -> None:
        """From the named trumps (or, first-lead trumps, the bids) to the first lead."""
        p, pitcher, deal = self.num_players, s.pitcher[rows], self.rules.smear_deal
        order = (pitcher[:, None] + 1 + np.arange(p)[None, :]) % p  # the pitcher's left first, him last
        if deal == "stock":
            self._give(s, rows, pitcher, self.stock_size)
            s.queue[rows] = np.roll(order, 1, axis=1)  # the pitcher first
        elif deal == "nine_card":
            for k in range(p):
                self._throw_away_and_draw(s, rows, order[:, k])
            self._start_play(s, rows)
            return
        elif deal == "widow":
            for k in range(p - 1):
                self._throw_away_and_draw(s, rows, order[:, k])
            self._give(s, rows, pitcher, self.stock_size)
            s.queue[rows] = order
        else:  # blind: the kitty, if any, for the pitcher to exchange with
            if not self.widow_size:
                self._start_play(s, rows)
                return
            self._give(s, rows, pitcher, self.widow_size)
            s.queue[rows] = np.roll(order, 1, axis=1)
            s.queue[rows, 1:] = pitcher[:, None]  # only the pitcher discards
        s.queue_pos[rows] = 0
        self._next_discarder(s, rows)

    def _next_discarder(self, s: SmearState, rows: np.ndarray) -> None:
        """The next seat of the queue holding more than ``keep`` cards discards; play begins
        when there is none."""
        p = self.num_players
        seats = s.queue[rows]  # (k, P)
        sizes = np.bitwise_count(np.take_along_axis(s.hands[rows], seats, axis=1)).astype(np.int64)
        waiting = (sizes > self.keep) & (np.arange(p)[None, :] >= s.queue_pos[rows][:, None])
        found = waiting.any(axis=1)
        first = np.argmax(waiting, axis=1)
        go = rows[found]
        s.queue_pos[go] = first[found]
        s.current[go] = seats[found, first[found]]
        s.phase[go] = DISCARD
        if (~found).any():
            self._start_play(s, rows[~found])

    def _discard(self, s: SmearState, rows: np.ndarray, actions: np.ndarray) -> None:
        seat, bits = s.current[rows], BIT.take(actions)
        s.hands[rows, seat] &= ~bits
        s.thrown[rows, seat] |= bits
        self._next_discarder(s, rows)

    # ---- play
    def _start_play(self, s: SmearState, rows: np.ndarray) -> None:
        """The hands in play are fixed; the pitcher leads (nine-card: or the next with trumps)."""
        s.phase[rows] = PLAYING
        s.held[rows] = s.hands[rows]
        holding = self.players_in(s, rows).any(axis=1)
        if not holding.all():
            self.end_deal(s, rows[~holding])
            rows = rows[holding]
            if not len(rows):
                return
        self._lead(s, rows, self._next_in(s, rows, s.pitcher[rows]))

    def players_in(self, s: SmearState, rows: np.ndarray) -> np.ndarray:
        """(k, P) bool: the seats still in the deal, holding a card they may play (a trump in
        nine-card Smear; a player left short by an empty stock drops out when his hand is)."""
        if self.nine_card:
            return (s.hands[rows] & self.tables.trumps.take(s.trumps[rows])[:, None]) != ZERO
        return s.hands[rows] != ZERO

    def _next_in(self, s: SmearState, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """The first seat clockwise from ``seat`` (itself first) still in the deal."""
        return next_where(self.players_in(s, rows), seat, first=0)

    def _lead(self, s: SmearState, rows: np.ndarray, leader: np.ndarray) -> None:
        s.leader[rows] = leader
        s.current[rows] = leader
        s.trick_len[rows] = 0
        s.lead_suit[rows] = -1
        s.pending[rows] = self.players_in(s, rows)
        self._start_turn(s, rows)

    def _start_turn(self, s: SmearState, rows: np.ndarray) -> None:
        """The acting seat's plays this turn: 1, or in nine-card's first trick one per trump
        beyond ``keep`` more."""
        if self.nine_card:
            seat = s.current[rows]
            count = np.bitwise_count(s.hands[rows, seat] & self.tables.trumps.take(s.trumps[rows]))
            extra = np.maximum(count.astype(np.int64) - self.keep, 0)
            s.turn_left[rows] = 1 + np.where(s.trick_number[rows] == 0, extra, 0)
        else:
            s.turn_left[rows] = 1

    def _play(self, s: SmearState, rows: np.ndarray, actions: np.ndarray) -> None:
        seat, bits = s.current[rows], BIT.take(actions)
        if self.rules.trumps == "first_lead":  # the first card names trumps
            naming = rows[s.trumps[rows] < 0]
            if len(naming):
                s.trumps[naming] = actions[s.trumps[rows] < 0] // 13
        leading = s.trick_len[rows] == 0
        if leading.any():
            lead_rows, lead_cards = rows[leading], actions[leading]
            t = s.trumps[lead_rows]
            is_trump = (self.tables.trumps.take(t) & BIT.take(lead_cards)) != ZERO
            s.lead_suit[lead_rows] = np.where(is_trump, t, lead_cards // 13)
        s.hands[rows, seat] &= ~bits
        s.played[rows, seat] |= bits
        s.trick_by_seat[rows, seat] |= bits
        s.trick_cards[rows, s.trick_len[rows]] = actions
        s.trick_seats[rows, s.trick_len[rows]] = seat
        s.trick_len[rows] += 1
        s.turn_left[rows] -= 1
        done_turn = s.turn_left[rows] == 0
        finished = rows[done_turn]
        s.pending[finished, s.current[finished]] = False
        more = s.pending[finished].any(axis=1)
        moving = finished[more]
        if len(moving):
            s.current[moving] = next_where(s.pending[moving], s.current[moving])
            self._start_turn(s, moving)
        over = finished[~more]
        if len(over):
            self._end_trick(s, over)

    def trick_winner(self, s: SmearState, rows: np.ndarray) -> np.ndarray:
        """(k,) the seat winning each game's current trick: the highest trump (two jokers: the
        later-played higher unless distinguishable), else the highest card of the suit led."""
        cards, t = s.trick_cards[rows], s.trumps[rows]
        strength = self.tables.strength[t[:, None], cards]
        if self.rules.jokers and not self.rules.distinguishable_jokers and self.rules.joker_rank == "high":
            position = np.arange(cards.shape[1])[None, :]
            strength = np.where(cards >= 52, strength + position, strength)
        follow = self.tables.follow[t, s.lead_suit[rows]]  # the suit led's own cards
        of_suit = (follow[:, None] & BIT.take(cards)) != ZERO
        strength = np.where((strength == 0) & of_suit, 1 + cards % 13, strength)
        best = np.argmax(strength, axis=1)
        return s.trick_seats[rows, best]

    def _end_trick(self, s: SmearState, rows: np.ndarray) -> None:
        winner = self.trick_winner(s, rows)
        s.taken[rows, winner] |= np.bitwise_or.reduce(s.trick_by_seat[rows], axis=1)
        s.last_trick[rows] = s.trick_by_seat[rows]
        s.last_winner[rows] = winner
        s.trick_by_seat[rows] = ZERO
        s.trick_cards[rows] = EMPTY
        s.trick_seats[rows] = -1
        s.trick_number[rows] += 1
        holding = self.players_in(s, rows).any(axis=1)
        if (~holding).any():
            self.end_deal(s, rows[~holding])
        go = rows[holding]
        if len(go):
            self._lead(s, go, self._next_in(s, go, winner[holding]))

    # ------------------------------------------------------------------ scoring
    def categories(self, s: SmearState, rows: np.ndarray) -> np.ndarray:
        """(k, K): each category's side (``NOT_IN_PLAY``, ``NOBODY``) for the deals in ``rows``."""
        t, held, taken = s.trumps[rows], s.held[rows], s.taken[rows]
        k = len(rows)
        team_of = self.team_of
        in_play = np.bitwise_or.reduce(held, axis=1)

        def side_holding(cards: np.ndarray, sets: np.ndarray) -> np.ndarray:
            """The side of the seat whose set (k, P) holds the card (k,) (-1 if none)."""
            has = (sets & BIT.take(cards)[:, None]) != ZERO
            return np.where(has.any(axis=1), team_of.take(np.argmax(has, axis=1)), NOT_IN_PLAY)

        natural = in_play & SUIT_MASK.take(t)
        out = np.full((k, len(self.categories_names)), NOT_IN_PLAY, np.int64)
        for j, name in enumerate(self.categories_names):
            if name == "high":
                out[:, j] = side_holding(_highest_bit(natural), held)
            elif name == "low":
                out[:, j] = side_holding(_lowest_bit(natural), held)
            elif name == "two":
                out[:, j] = side_holding(13 * t + _TWO, held)
            elif name in ("jack", "jick", "ten", "trey"):
                rank = {"jack": _JACK, "jick": _JACK, "ten": _TEN, "trey": _TREY}[name]
                suit = np.array(_OTHER_SUIT).take(t) if name == "jick" else t
                out[:, j] = side_holding(13 * suit + rank, taken)
            elif name in ("joker1", "joker2"):
                card = np.full(k, 52 if name == "joker1" else 53)
                out[:, j] = side_holding(card, held if self.rules.joker_points == "holder" else taken)
            elif name == "game":
                out[:, j] = self._game_side(taken)
        return out

    def _game_side(self, taken: np.ndarray) -> np.ndarray:
        """(k,) the side with strictly the most card points won, else ``NOBODY``."""
        points = np.zeros(taken.shape, np.int64)
        for suit in range(4):
            word = ((taken >> U64(13 * suit)) & U64(0x1FFF)).astype(np.int64)
            points += self._suit_game_points.take(word)
        sides = np.stack([points[:, seats].sum(axis=1) for seats in self.team_seats], axis=1)  # (k, T)
        top = sides.max(axis=1)
        unique = (sides == top[:, None]).sum(axis=1) == 1
        return np.where(unique, np.argmax(sides, axis=1), NOBODY)

    def end_deal(self, s: SmearState, rows: np.ndarray) -> None:
        """Score the deals in ``rows``: categories, the contract (set-back, the moon), totals,
        and whether the game is over."""
        r, t_count = self.rules, self.num_teams
        cats = self.categories(s, rows)
        s.categories[rows] = cats
        won = cats[:, :, None] == np.arange(t_count)[None, None, :]  # (k, K, T)
        made_points = (won * self.category_values[None, :, None]).sum(axis=1)  # (k, T)
        side = self.team_of.take(s.pitcher[rows])
        bid = s.high_bid[rows]
        k = np.arange(len(rows))
        own = made_points[k, side]
        moon = bid == self.moon_value
        swept = ((cats == side[:, None]) | (cats == NOT_IN_PLAY)).all(axis=1)
        made = np.where(moon, swept, own >= bid)
        points = made_points.copy()
        if r.moon_bid == "game":
            points[k, side] = np.where(moon & ~made, -r.smear_points, np.where(made, own, -bid))
        else:
            points[k, side] = np.where(moon, np.where(made, bid, -bid), np.where(made, own, -bid))
        first_seat = np.array([seats[0] for seats in self.team_seats])
        before = s.totals[rows][:, first_seat]  # (k, T): the side totals before the deal
        totals = before + points
        over = np.zeros(len(rows), bool)
        winner = np.full(len(rows), -1)
        top = totals.max(axis=1)
        leaders = totals == top[:, None]
        if r.pitcher_only_wins:
            over = totals[k, side] >= r.target_score
            winner = np.where(over, side, -1)
        else:
            reached = top >= r.target_score
            unique = leaders.sum(axis=1) == 1
            pitcher_top = leaders[k, side]
            over = reached & (unique | pitcher_top)
            winner = np.where(over, np.where(unique, np.argmax(totals, axis=1), side), -1)
        if r.moon_bid == "game":
            moon_made, moon_missed = moon & made, moon & ~made
            negative = before[k, side] < 0  # a made moon only resets a total negative before it
            totals[k, side] = np.where(moon_made & negative, 0, totals[k, side])
            over = np.where(moon_made, ~negative, np.where(moon_missed, True, over))
            others = np.where(np.arange(t_count)[None, :] == side[:, None], np.iinfo(np.int64).min, totals)
            best = others == others.max(axis=1, keepdims=True)
            other_winner = np.where(best.sum(axis=1) == 1, np.argmax(others, axis=1), -1)  # a tie: nobody
            winner = np.where(
                moon_made, np.where(negative, -1, side), np.where(moon_missed, other_winner, winner)
            )
        if r.max_deals is not None:
            last = (s.deal_index[rows] + 1 >= r.max_deals) & ~over
            unique = leaders.sum(axis=1) == 1
            winner = np.where(last, np.where(unique, np.argmax(totals, axis=1), -1), winner)
            over |= last
        seat_team = self.team_of[None, :]
        s.deal_points[rows] = np.take_along_axis(
            points, np.broadcast_to(seat_team, (len(rows), self.num_players)), 1
        )
        s.team_points[rows] = s.deal_points[rows]
        s.made_points[rows] = np.take_along_axis(
            made_points, np.broadcast_to(seat_team, (len(rows), self.num_players)), 1
        )
        s.totals[rows] = np.take_along_axis(
            totals, np.broadcast_to(seat_team, (len(rows), self.num_players)), 1
        )
        s.made[rows] = made
        s.game_over[rows] = over
        s.winner[rows] = winner
        s.moon_shooter[rows] = np.where(moon & made, s.pitcher[rows], -1)
        s.phase[rows] = DONE

    def _throw_in(self, s: SmearState, rows: np.ndarray) -> None:
        """Everybody passed (``dealer_must_bid=False``): the deal is cancelled, nobody scores."""
        s.cancelled[rows] = True
        s.deal_points[rows] = 0
        s.team_points[rows] = 0
        s.made_points[rows] = 0
        s.categories[rows] = NOT_IN_PLAY
        s.made[rows] = False
        s.game_over[rows] = False
        s.phase[rows] = DONE

    def score_forfeit(self, s: SmearState, rows: np.ndarray, seats: np.ndarray) -> None:
        """``illegal_action="terminate"``: the offender's side is set back by every point of
        the game (``smear_points``), the others score 0, the deal ends."""
        offender = self.team_of.take(seats)
        points = np.where(self.team_of[None, :] == offender[:, None], -self.rules.smear_points, 0)
        s.deal_points[rows] = points
        s.team_points[rows] = points
        s.made_points[rows] = 0
        s.totals[rows] += points
        s.made[rows] = False
        s.phase[rows] = DONE

    def played_by(self, s: SmearState) -> np.ndarray:
        """(B, P) uint64: the cards each seat has played this deal."""
        return s.played


_PHASES = {
    BID: DecisionPhase("bid", SmearEngine.legal_bids, SmearEngine.bid),
    NAME_SUIT: DecisionPhase("name_suit", SmearEngine.legal_trumps, SmearEngine.name_trumps),
}
"""Smear's decision phases by phase code (the discards are cards: the ``discard`` phase)."""


DEAL_INFOS = {
    "pitcher": "pitcher", "bid": "high_bid", "made": "made", "categories": "categories",
    "made_points": "made_points", "winner": "winner",
}  # fmt: skip
"""Smear's own end-of-deal infos (:func:`deal_info`): info key -> :class:`SmearState` field."""


def deal_info(state: SmearState, rows: Sequence[int] | np.ndarray) -> dict[str, np.ndarray]:
    """Smear's deal outcome of ``rows``: the pitcher, his bid's value, whether it was made, each
    category's side (-1 not in play, -2 nobody) and the category points made per seat."""
    return {key: getattr(state, name)[rows].copy() for key, name in DEAL_INFOS.items()}


def deal_outcome(rules: Rules, info: Mapping[str, np.ndarray]) -> dict[str, Any]:
    """Smear's deal outcome of the first game of ``info`` (``Table.game_info``) in plain values,
    for the env's infos: the pitcher, the bid's value, whether it was made, each category's side
    (-1 not in play, -2 nobody), the category points each side made before set-back, and the side
    that won the game (-1 while it goes on). A side is read at its first seat."""
    first = [seats[0] for seats in rules.teams] if rules.teams else list(range(rules.num_players))
    return {
        "pitcher": int(info["pitcher"][0]),
        "bid": int(info["bid"][0]),
        "made": bool(info["made"][0]),
        "categories": {name: int(v) for name, v in zip(rules.categories, info["categories"][0])},
        "side_points": [int(info["deal_points"][0, seat]) for seat in first],
        "made_points": [int(info["made_points"][0, seat]) for seat in first],
        "winner": int(info["winner"][0]),
    }
