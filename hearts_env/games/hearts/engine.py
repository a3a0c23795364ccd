"""The batched engine: B games of one rules set, stepped together with array operations.

State is a :class:`~hearts_env.games.hearts.state.State` record whose fields all have a leading batch axis.
Hands, cards taken and cards played are ``uint64`` bitmasks (bit ``c`` = card ``c``); with two
decks (Cancellation Hearts) each card set has a second word, of the cards it holds twice, in the
``*_hi`` fields (:mod:`hearts_env.core.cardsets`), and those games always take the per-game path. A deal is a
passing phase (``pass_count`` single-card decisions per seat, seat by seat from eldest hand;
the exchange happens once every seat has chosen) followed by the play phase. Games need not be in step —
a batch may mix passing and playing games, or deals of different directions — but the common
case (every game at the same position in its trick, see ``State.lockstep``) is what the code
keeps cheap: branches are taken on whole-batch conditions, never per game in Python.

Rules read like the rulebook: :meth:`Engine.legal` (``must_follow``, ``hearts_broken``, the
first-trick restriction), :meth:`Engine._end_trick` (``trick_winner``), and
:func:`hearts_env.games.hearts.scoring.deal_points`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import numpy as np

from hearts_env.core import cardsets
from hearts_env.core.bits import BIT, EMPTY, SUIT_MASK, SUIT_OF, U64, ZERO, u64, unpack
from hearts_env.core.cards import CLUBS, HEARTS, SPADES, card_name, card_symbol, cards_of, parse_card
from hearts_env.core.engine import CardEngine, action_bits
from hearts_env.core.phases import BID, DECLARE, DONE, MOON_CHOICE, PASSING, PLAYING
from hearts_env.core.rules import PASS_DIRECTIONS, QUEEN_OF_SPADES, Rules
from hearts_env.games.hearts import scoring, stock
from hearts_env.games.hearts.decisions import PHASES
from hearts_env.games.hearts.state import State

_LEAD_MASK = np.concatenate([SUIT_MASK, [0]]).astype(U64)
"""The cards of the suit led, by ``lead_suit``; 4 = a joker led and no suit yet: nothing to follow."""
_JOKERS = u64((1 << 52) | (1 << 53))


_ALL = slice(None)


def _subset(rows: np.ndarray | slice, keep: np.ndarray) -> np.ndarray:
    """The games of ``rows`` (an index array or the whole-batch slice) where ``keep`` holds."""
    return np.flatnonzero(keep) if isinstance(rows, slice) else rows[keep]


def _any(condition: np.ndarray | bool) -> bool:
    return condition if isinstance(condition, bool) else bool(condition.any())


def _where(condition: np.ndarray | bool, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.where`` that skips the array work when the condition is one plain bool."""
    if isinstance(condition, bool):
        return a if condition else b
    return np.where(condition, a, b)


def _and_not(flag: np.ndarray | bool, condition: np.ndarray) -> np.ndarray:
    """``~flag & condition`` for an array or plain-bool ``flag``."""
    if isinstance(flag, bool):
        return np.zeros_like(condition) if flag else condition
    return ~flag & condition


_ACE_KING_OF_SPADES = u64((1 << parse_card("AS")) | (1 << parse_card("KS")))


class Engine(CardEngine):
    """Rules compiled into uint64 tables, and the functions that advance a :class:`State`.

    ``Engine(rules).new_state(B)`` allocates; :meth:`deal` starts deals; :meth:`legal` gives the
    acting seats' legal cards; :meth:`step` (:class:`~hearts_env.core.engine.CardEngine`'s) plays one
    decision in every game.
    """

    games: ClassVar[tuple[str, ...]] = ("hearts",)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.kitty_size = rules.kitty_size
        self.decision_phases = {code: PHASES[code] for code in PHASES if PHASES[code].name in rules.phases}
        self.jokers = bool(rules.jokers)
        self.two_decks = rules.decks == 2
        # Never in lockstep: Domino Hearts (tricks vary in size) and two decks (the second words).
        self.per_game = bool(self.stock_size) or self.two_decks
        self.penalty = u64(rules.penalty_mask)
        self.moon_mask = u64(rules.moon_mask)
        self.queen = u64(1 << QUEEN_OF_SPADES)
        self.hearts = SUIT_MASK[HEARTS]
        self.breaks = self.hearts | (self.queen if rules.hearts_break == "heart_or_queen" else ZERO)
        self.lead_ban = self.hearts | (self.queen if rules.queen_needs_break else ZERO)
        self.discard_first = None if rules.discard_first is None else BIT[rules.discard_first]
        self.card_points = np.array(list(rules.card_points) + [0] * (65 - len(rules.card_points)))
        self.pass_decisions_per_deal = rules.pass_count * self.num_players
        # A game passing at the start of a step whose deal is cancelled afterwards was
        # cancelled by this step's exchange (first_trick_all_penalty="redeal").
        self.cancels_deals = rules.first_trick_all_penalty == "redeal"
        # The first trick needs its own bookkeeping: its winner takes the kitty, or a hand of
        # only penalty cards changes how the trick scores.
        self._first_trick_rules = bool(rules.kitty_size) or rules.first_trick_all_penalty in (
            "not_counted",
            "to_lowest",
        )
        self.offsets = np.array([rules.pass_offset(d) for d in PASS_DIRECTIONS], dtype=np.int64)
        seats = np.arange(self.num_players)
        # _turn_after_dealer[dealer, seat]: seat's place in turn from the dealer's left (0: eldest).
        self._turn_after_dealer = (seats[None, :] - seats[:, None] - 1) % self.num_players
        # _void_bits[5 * seat + suit]: the State.voids bit of seat showing out of suit (a joker
        # lead, pseudo-suit 4, reveals nothing).
        self._void_bits = np.array(
            [
                1 << (4 * seat + suit) if suit < 4 else 0
                for seat in range(self.num_players)
                for suit in range(5)
            ],
            dtype=U64,
        )
        # mask_points: with few distinct card values, one popcount per value (Hearts: hearts and
        # Q♠); otherwise the points of every subset of each suit's 13 cards and of the jokers.
        values = sorted({v for v in self.card_points.tolist() if v})
        self._value_masks = [
            (v, u64(sum(1 << c for c, x in enumerate(self.card_points.tolist()) if x == v))) for v in values
        ]
        subsets = unpack(np.arange(1 << 13, dtype=U64), 13).astype(np.int64)  # (8192, 13)
        self._suit_points = [subsets @ self.card_points[13 * s : 13 * s + 13] for s in range(4)]
        self._joker_points = unpack(np.arange(4, dtype=U64), 2).astype(np.int64) @ self.card_points[52:54]
        self._base = np.zeros(0, np.int64)

    # ------------------------------------------------------------------ state and dealing
    def new_state(self, batch: int) -> State:
        """Zeroed state for ``batch`` games (call :meth:`deal` before playing)."""
        p = self.num_players

        def z(*shape: int, dtype: type = np.int64) -> np.ndarray:
            return np.zeros((batch, *shape), dtype=dtype)

        return State(
            hands=z(p, dtype=U64), taken=z(p, dtype=U64), held=z(p, dtype=U64),
            chosen=z(p, dtype=U64), received=z(p, dtype=U64), voids=z(dtype=U64),
            points=z(p), tricks_won=z(p), trick=np.full((batch, p), EMPTY, np.int64),
            last_trick=np.full((batch, p), EMPTY, np.int64), last_leader=z() - 1,
            last_winner=z() - 1, last_cancelled=z(dtype=bool), trick_mask=z(dtype=U64),
            played=z(dtype=U64), kitty=z(dtype=U64), best=z() - 1,
            lead_suit=z(), leader=z(), position=z(), trick_number=z(), current=z(),
            phase=np.full(batch, DONE, np.int64), pass_decisions=z(), pass_offset=z(),
            pass_direction=z(), dealer=z(), deal_index=z(), totals=z(p), deal_points=z(p),
            chips=z(p, dtype=np.float64), pool=z(dtype=np.float64), game_over=np.ones(batch, bool),
            moon_shooter=z() - 1, first_trick_winner=z() - 1, all_penalty=z(dtype=bool),
            uncounted=z(dtype=U64), set_aside=z(dtype=U64), cancelled=z(dtype=bool),
            decisions_made=z(), bidder=z() - 1, high_bid=z(), penalty_suit=z() + HEARTS, partner=z() - 1,
            moon_choice=z() - 1, decision_log=z(p, dtype=U64), team_points=z(p),
            stock=z(self.rules.stock_size), stock_pos=z(), trick_size=z() + p,
            hands_hi=z(p, dtype=U64), taken_hi=z(p, dtype=U64), held_hi=z(p, dtype=U64),
            chosen_hi=z(p, dtype=U64), received_hi=z(p, dtype=U64), kitty_hi=z(dtype=U64),
            trick_pairs=z(dtype=U64), carried=z(dtype=U64), carried_hi=z(dtype=U64),
            per_game=self.per_game,
        )  # fmt: skip

    def deal_in_order(self, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hands dealt from shuffled decks (batch, cards): hand_size cards a seat, the rest the
        kitty (or Domino's stock); with two decks both words of each."""
        if not self.two_decks:
            return super().deal_in_order(cards)
        n, h, batch = self.num_players, self.hand_size, len(cards)
        hands = cardsets.of_cards(cards[:, : n * h].reshape(batch, n, h))
        return cardsets.stack(*hands), cardsets.stack(*cardsets.of_cards(cards[:, n * h :]))

    def hands_from_cards(
        self, hands: list[list[int | str]], kitty: list[int | str] | None = None
    ) -> tuple[int, ...] | tuple[tuple[int, int], ...]:
        """Validate a hand-written deal and return one card set per seat (the kitty last): a mask
        with one deck; with two decks a ``(lo, hi)`` pair of masks (:mod:`hearts_env.core.cardsets`),
        where a hand lists a card twice for both copies. Without ``kitty`` the cards not dealt
        to a hand form it.

        Raises ``ValueError`` on a card dealt more often than the decks hold it, removed or
        unknown cards, unequal hands, or a kitty of the wrong size.
        """
        n, copies = self.num_players, self.rules.decks
        if len(hands) != n:
            raise ValueError(f"a deal for {n} players needs {n} hands, got {len(hands)}")
        parsed = [[parse_card(c) for c in hand] for hand in hands]
        kitty_cards = [parse_card(c) for c in (kitty or [])]
        sizes = sorted({len(h) for h in parsed})
        if sizes != [self.hand_size]:
            raise ValueError(
                f"every hand must hold {self.hand_size} cards here; got sizes {[len(h) for h in parsed]}"
            )
        if kitty is not None and not self.stock_size and len(kitty_cards) != self.kitty_size:
            raise ValueError(
                f"the kitty must hold {self.kitty_size} cards, got {len(kitty_cards)}: "
                f"{[card_name(c) for c in kitty_cards]}"
            )
        places: dict[int, list[str]] = {}
        for seat, hand in enumerate(parsed + [kitty_cards]):
            for c in hand:
                places.setdefault(c, []).append("the kitty" if seat == n else f"seat {seat}")
                if len(places[c]) > copies:
                    times = "twice" if copies == 1 else f"{copies + 1} times"
                    where = f"{', '.join(places[c][:-1])} and {places[c][-1]}"
                    decks = "" if copies == 1 else ": two decks hold each card twice"
                    raise ValueError(f"{card_name(c)} is dealt {times} ({where}){decks}")
        deck = Counter(self.deck_cards.tolist())
        extra = sorted(set(places) - set(deck))
        if extra:
            raise ValueError(f"cards not in this deck (removed or unknown): {[card_name(c) for c in extra]}")
        missing = sorted((deck - Counter(c for c, where in places.items() for _ in where)).elements())
        if self.stock_size:  # Domino: the cards not dealt are the stock (see stock_from_cards)
            return (*(sum(1 << c for c in hand) for hand in parsed), sum(1 << c for c in missing))
        if kitty is None:
            kitty_cards = missing
        if copies == 2:
            return tuple(cardsets.from_list(cards) for cards in parsed + [kitty_cards])
        return (*(sum(1 << c for c in hand) for hand in parsed), sum(1 << c for c in kitty_cards))

    def undealt_order(
        self, kitty: list[int | str] | None, stock: list[int | str] | None, undealt: int
    ) -> np.ndarray | None:
        """The undealt cards' order for a hand-written deal: Domino Hearts' ``stock`` checked
        (:meth:`stock_from_cards`); None when none is given (the kitty is a set, not an order)."""
        return None if stock is None else self.stock_from_cards(stock, undealt)

    def stock_from_cards(self, stock: list[int | str], undealt: int) -> np.ndarray:
        """Domino Hearts: a hand-written stock in draw order, checked to hold exactly the
        ``undealt`` cards (a mask); (S,) int64 card indices."""
        cards = [parse_card(c) for c in stock]
        if len(set(cards)) != len(cards):
            repeated = sorted({card_name(c) for c in cards if cards.count(c) > 1})
            raise ValueError(f"the stock holds {repeated} twice")
        if sum(1 << c for c in cards) != undealt or len(cards) != self.stock_size:
            want = [card_name(c) for c in cards_of(undealt)]
            raise ValueError(
                f"the stock must hold the {self.stock_size} cards not dealt, in draw order: {want}; got "
                f"{[card_name(c) for c in cards]}"
            )
        return np.array(cards, np.int64)

    def start_deal(
        self, s: State, rows: np.ndarray, hands: np.ndarray, kitty: np.ndarray, direction: np.ndarray | None
    ) -> None:
        """The Hearts family's part of :meth:`deal`: the pass direction of the deal (the cycle's,
        unless ``direction`` is given), the hands and kitty, then the pass, a decision round or
        play."""
        k, p, pass_direction = len(rows), self.num_players, direction
        cycle = np.array([PASS_DIRECTIONS.index(d) for d in self.rules.pass_directions], np.int64)
        direction = cycle[s.deal_index[rows] % len(cycle)] if pass_direction is None else pass_direction
        if self.rules.pass_count == 0:
            direction = np.full(k, PASS_DIRECTIONS.index("hold"), np.int64)
        s.pass_direction[rows] = direction
        s.pass_offset[rows] = self.offsets[direction]
        if self.two_decks:
            hands, kitty = self._deal_second_copies(s, rows, hands, kitty)
        s.hands[rows] = hands
        s.kitty[rows] = kitty if not self.stock_size else ZERO
        s.trick_size[rows] = p
        s.chosen[rows] = ZERO
        s.held[rows] = hands
        s.trick_mask[rows] = ZERO
        s.played[rows] = ZERO
        for name in ("voids", "points", "tricks_won", "position", "pass_decisions"):
            getattr(s, name)[rows] = 0
        s.trick[rows] = EMPTY
        s.last_trick[rows] = EMPTY
        s.last_leader[rows] = -1
        s.last_winner[rows] = -1
        s.last_cancelled[rows] = False
        s.best[rows] = -1
        s.first_trick_winner[rows] = -1
        s.all_penalty[rows] = False
        s.uncounted[rows] = ZERO
        s.set_aside[rows] = ZERO
        s.decisions_made[rows] = 0
        s.bidder[rows] = -1
        s.high_bid[rows] = 0
        s.penalty_suit[rows] = HEARTS
        s.partner[rows] = -1
        s.moon_choice[rows] = -1
        s.decision_log[rows] = ZERO
        passing = s.pass_offset[rows] != 0
        s.phase[rows] = np.where(passing, PASSING, PLAYING)
        s.current[rows] = (s.dealer[rows] + 1) % p
        s.leader[rows] = s.current[rows]
        if not passing.all():
            self._after_pass(s, rows[~passing])
        s.sync()

    def upgrade_saved(self, fields: dict[str, Any], batch: int) -> dict[str, Any]:
        """A version-1 state has no published trick winners: none on record (-1, not cancelled)."""
        fields.setdefault("last_winner", np.full(batch, -1, np.int64))
        fields.setdefault("last_cancelled", np.zeros(batch, bool))
        return fields

    def _deal_second_copies(
        self, s: State, rows: np.ndarray, hands: np.ndarray, kitty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Two decks: set the second words of a new deal in ``rows`` and return the first ones."""
        s.hands_hi[rows] = s.held_hi[rows] = hands[..., 1]
        s.kitty_hi[rows] = kitty[..., 1]
        for name in ("taken_hi", "chosen_hi", "received_hi", "trick_pairs", "carried", "carried_hi"):
            getattr(s, name)[rows] = ZERO
        return hands[..., 0], kitty[..., 0]

    def _after_pass(self, s: State, rows: np.ndarray) -> None:
        """After the pass (or the deal, without one): the declare or bid round, else play."""
        round_ = {"general": DECLARE, "slam": DECLARE, "auction": BID}.get(self.rules.bidding)
        if round_ is None:
            self.start_play(s, rows)
            return
        s.held[rows] = s.hands[rows]
        s.phase[rows] = round_
        s.current[rows] = (s.dealer[rows] + 1) % self.num_players
        s.decisions_made[rows] = 0
        s.lockstep = s.all_playing = False

    def start_play(self, s: State, rows: np.ndarray) -> None:
        """The first leader (lowest club's holder, eldest hand, or the bidder) is to act.

        With ``first_trick_all_penalty`` other than ``"play"``, a hand of only penalty cards is
        noted here (``all_penalty``); under ``"redeal"`` its deal is cancelled at once."""
        if self.rules.first_trick_all_penalty != "play":
            hands = s.hands[rows]
            s.all_penalty[rows] = ((hands & ~self.penalty) == ZERO).any(axis=1)
            if self.rules.first_trick_all_penalty == "redeal" and s.all_penalty[rows].any():
                cancel = rows[s.all_penalty[rows]]
                self._cancel(s, cancel)
                rows = rows[~s.all_penalty[rows]]
        s.phase[rows] = PLAYING
        if self.rules.first_lead == "eldest":
            s.leader[rows] = (s.dealer[rows] + 1) % self.num_players
        else:
            held = np.bitwise_or.reduce(s.hands[rows], axis=1) & SUIT_MASK[CLUBS]
            lowest = held & (~held + U64(1))
            # Its holder nearest the dealer's left (two decks: the lowest club may be held twice).
            holds = (s.hands[rows] & lowest[:, None]) != ZERO  # (k, P)
            turn = np.where(holds, self._turn_after_dealer.take(s.dealer[rows], axis=0), self.num_players)
            s.leader[rows] = np.argmin(turn, axis=1)
        if self.rules.bidding in ("auction", "slam"):  # the auction's winner or the slam bidder leads
            s.leader[rows] = np.where(s.bidder[rows] >= 0, s.bidder[rows], s.leader[rows])
        s.current[rows] = s.leader[rows]
        s.held[rows] = s.hands[rows]
        if self.two_decks:
            s.held_hi[rows] = s.hands_hi[rows]

    # ------------------------------------------------------------------ positions
    def set_positions(self, s: State, rows: np.ndarray, pos: Any, check_trick: bool = True) -> None:
        """Start the games ``rows`` from the positions ``pos`` (a
        :class:`~hearts_env.games.hearts.positions.PositionBatch` of ``len(rows)``, already checked by
        :func:`~hearts_env.games.hearts.positions.check_batch`): the finished tricks as given, then the trick
        in progress played again from its leader, so that the suit led, the card winning it and
        the voids it shows are the engine's own. ``ValueError`` names a trick card played out of
        turn or against the rules (the games are then left half set: start them again);
        ``check_trick=False`` plays the trick without asking whether the rules allowed it (a
        sampled world may give the leader cards he did not hold: hearts led before they broke
        tell that he held nothing else, which the sampler does not use).

        Two decks: the second words too (``*_hi``), the cards carried from cancelled tricks,
        and the trick's cards back to the leader and the seats after him in turn (a seat's
        played cards cannot tell whose a card is when both copies are played)."""
        p = self.num_players
        trick = pos.trick
        if self.two_decks:
            self._set_cards_two_decks(s, rows, pos)
        else:
            back = np.zeros((len(rows), p), U64)  # the trick's cards, back in their players' hands
            for j in range(p - 1):  # each card back to the seat that played it
                card_bits = BIT.take(trick[:, j])[:, None]
                back |= np.where((pos.played & card_bits) != ZERO, card_bits, ZERO)
            s.hands[rows] = pos.hands | back
            s.held[rows] = pos.hands | pos.played
            s.played[rows] = np.bitwise_or.reduce(pos.played & ~back, axis=1)
        for name, value in (("stock_pos", 0), ("taken", ZERO), ("received", ZERO), ("game_over", False),
                            ("cancelled", False), ("moon_shooter", -1)):  # fmt: skip
            getattr(s, name)[rows] = value
        for name in ("dealer", "deal_index", "totals", "pool", "pass_direction", "chosen", "received",
                     "taken", "tricks_won", "trick_number", "kitty", "first_trick_winner", "voids",
                     "bidder", "high_bid", "penalty_suit", "partner", "decision_log", "uncounted",
                     "set_aside", "stock_pos"):  # fmt: skip
            getattr(s, name)[rows] = getattr(pos, name)
        if self.stock_size:
            s.stock[rows] = pos.stock
        s.pass_offset[rows] = self.offsets[pos.pass_direction]
        s.pass_decisions[rows] = self.pass_decisions_per_deal
        if self.two_decks:
            s.points[rows] = cardsets.points(pos.taken, pos.taken_hi, self.mask_points)
        elif self.rules.bidding == "auction":
            s.points[rows] = np.bitwise_count(pos.taken & SUIT_MASK.take(pos.penalty_suit)[:, None])
        else:
            s.points[rows] = self.mask_points(pos.taken & ~pos.uncounted[:, None])
        s.moon_choice[rows] = -1
        s.decisions_made[rows] = 0
        s.all_penalty[rows] = ((s.held[rows] & ~self.penalty) == ZERO).any(axis=1)
        s.trick[rows] = EMPTY
        s.last_trick[rows] = EMPTY
        s.last_leader[rows] = -1
        s.last_winner[rows] = -1
        s.last_cancelled[rows] = False
        s.trick_mask[rows] = ZERO
        s.best[rows] = -1
        s.position[rows] = 0
        s.lead_suit[rows] = 0
        s.trick_size[rows] = (s.hands[rows] != ZERO).sum(axis=1) if self.stock_size else p
        s.phase[rows] = PLAYING
        first = pos.leader == -2  # nothing played yet: the rules' first leader
        if first.any():
            self.start_play(s, rows[first])
        s.leader[rows[~first]] = s.current[rows[~first]] = pos.leader[~first]
        s.sync()
        self.replay_trick(s, rows, trick[:, : p - 1], None, check_trick, card_name)
        s.sync()

    def _set_cards_two_decks(self, s: State, rows: np.ndarray, pos: Any) -> None:
        """Two decks, for :meth:`set_positions`: the hands (the trick's cards back in them), the
        cards held at the start of play and played, both words, and the carried cards."""
        p, trick = self.num_players, pos.trick
        back = np.zeros((len(rows), p), U64), np.zeros((len(rows), p), U64)
        seats = np.arange(p)
        for j in range(p - 1):  # card j of the trick is the (leader + j)'s (none: EMPTY, no bit)
            player = seats[None, :] == ((pos.leader + j) % p)[:, None]
            back = cardsets.add_one(*back, np.where(player, BIT.take(trick[:, j])[:, None], ZERO))
        s.hands[rows], s.hands_hi[rows] = cardsets.add(pos.hands, pos.hands_hi, *back)
        s.held[rows], s.held_hi[rows] = cardsets.add(pos.hands, pos.hands_hi, pos.played, pos.played_hi)
        done = cardsets.subtract(pos.played, pos.played_hi, *back)[0]
        s.played[rows] = np.bitwise_or.reduce(done, axis=1)
        for name in ("taken_hi", "chosen_hi", "received_hi", "kitty_hi", "carried", "carried_hi"):
            getattr(s, name)[rows] = getattr(pos, name)
        s.trick_pairs[rows] = ZERO

    # ------------------------------------------------------------------ legal cards
    def legal(self, s: State) -> np.ndarray:
        """Legal cards of the acting seat of every game, as a (B,) uint64 mask (0 when done)."""
        flat = self._flat(s.current)
        hand = s.hands.take(flat)
        if s.lockstep:
            if s.all_playing:
                return self._legal_play(s, hand, bool(s.position[0] == 0), s.trick_number == 0)
            choose = hand & ~s.chosen.take(flat)
            passing = s.phase == PASSING
            if passing.all():
                return choose
            play = self._legal_play(s, hand, bool(s.position[0] == 0), s.trick_number == 0)
            return np.where(passing, choose, play)
        if self.two_decks:  # a card stays legal while the hand holds more copies than chosen
            chosen = s.chosen.take(flat), s.chosen_hi.take(flat)
            choose = cardsets.more_than(hand, s.hands_hi.take(flat), *chosen)
        else:
            choose = hand & ~s.chosen.take(flat)
        legal = np.where(s.phase == PASSING, choose, ZERO)
        playing = s.phase == PLAYING
        if playing.any():
            play = self._legal_play(s, hand, s.position == 0, s.trick_number == 0)
            legal = np.where(playing, play, legal)
        return legal

    def _legal_play(
        self, s: State, hand: np.ndarray, leading: np.ndarray | bool, first_trick: np.ndarray | bool
    ) -> np.ndarray:
        """The play-phase rules. ``leading`` / ``first_trick`` are arrays, or plain bools when
        every game is at the same point of the deal (then whole branches are skipped)."""
        r = self.rules
        if leading is True:  # every game leads: nothing to follow
            following = void = None
        else:
            must_follow = hand & _LEAD_MASK.take(s.lead_suit)
            following = np.where(must_follow != ZERO, must_follow, hand)
            void = _and_not(leading, must_follow == ZERO)
            if self.jokers:  # after a joker lead there is no suit yet: nobody is void
                void = void & (s.lead_suit != 4)
        legal = following
        if _any(leading):
            lead = hand
            if r.hearts_break != "free":
                unbroken = (s.played & self.breaks) == ZERO
                allowed = hand & ~self.lead_ban
                if r.lead_hearts_if_only_queen:
                    unbroken &= (hand & ~self.hearts) != self.queen
                lead = np.where(unbroken & (allowed != ZERO), allowed, hand)
            if r.first_lead != "eldest" and _any(first_trick & leading):
                clubs = hand & SUIT_MASK[CLUBS]
                forced = clubs & (~clubs + U64(1)) if r.first_lead == "lowest_club" else clubs
                # A slam bidder leads the first trick with any card the other lead rules allow.
                club_lead = first_trick & (s.bidder < 0) if r.bidding == "slam" else first_trick
                lead = _where(club_lead, forced, lead)
            if r.no_heart_lead_first_trick and _any(first_trick & leading):
                no_hearts = lead & ~self.hearts
                lead = np.where(first_trick & (no_hearts != ZERO), no_hearts, lead)
            legal = _where(leading, lead, following)
        if r.no_points_first_trick and _any(first_trick):
            clean = legal & ~self.penalty
            legal = np.where(first_trick & (clean != ZERO), clean, legal)
        if self.discard_first is not None and void is not None and _any(void):
            legal = np.where(void & ((legal & self.discard_first) != ZERO), self.discard_first, legal)
        if r.club_play and leading is not True:
            headed = (s.lead_suit == SPADES) & ((s.trick_mask & _ACE_KING_OF_SPADES) != ZERO)
            must = (void | _and_not(leading, headed)) & ((legal & self.queen) != ZERO)
            legal = np.where(must, self.queen, legal)
        if self.jokers:  # a joker may be played at any time
            legal = legal | (hand & _JOKERS)
        return legal

    def _flat(self, seats: np.ndarray) -> np.ndarray:
        """Flat indices into a (B, P) array of each game's entry for ``seats`` (B,)."""
        return self._offsets(len(seats)) + seats

    def _offsets(self, batch: int) -> np.ndarray:
        """Flat offset of seat 0 of each of ``batch`` games in a (B, P) array."""
        if len(self._base) != batch:
            self._base = np.arange(batch, dtype=np.int64) * self.num_players
        return self._base

    def _explain(self, s: State, game: int, action: int) -> str:
        """Why the in-range ``action`` is illegal for the acting seat of ``game``."""
        seat = int(s.current[game])
        if s.phase[game] > DONE or action >= self.num_cards:
            return self._explain_decision(s, game, action)
        name = card_symbol(action)
        if s.phase[game] == DONE:
            return f"the deal is over; no seat can play {name}"
        hand = int(s.hands[game, seat])
        legal = int(self.legal(s.take(np.array([game])))[0])
        allowed = ", ".join(card_symbol(c) for c in cards_of(legal))
        if not hand >> action & 1:
            why = "does not hold it"
        elif s.phase[game] == PASSING:
            why = "has already chosen it to pass"
        elif s.position[game] and (legal & int(SUIT_MASK[s.lead_suit[game]])):
            why = f"must follow {'♣♦♥♠'[s.lead_suit[game]]}"
        elif s.position[game] == 0 and s.trick_number[game] == 0 and self.rules.first_lead != "eldest":
            why = (
                f"the first trick must be led with the lowest club ({card_symbol(self.rules.lowest_club)})"
                if self.rules.first_lead == "lowest_club"
                else "the first trick must be led with a club"
            )
        elif (
            s.trick_number[game] == 0
            and self.rules.no_points_first_trick
            and (1 << action) & int(self.penalty)
        ):
            why = "no penalty card on the first trick"
        elif s.position[game] == 0 and (1 << action) & int(self.lead_ban):
            why = "hearts are not broken"
        else:
            why = "a variant rule forbids it here"
        return f"seat {seat} cannot play {name}: {why} (legal: {allowed})"

    def _explain_decision(self, s: State, game: int, action: int) -> str:
        """Why a decision (or a card, while a decision is asked) is illegal in ``game``."""
        seat, phase, names = int(s.current[game]), int(s.phase[game]), self.rules.action_names
        name = names[action] if action >= self.num_cards else card_symbol(action)
        if phase == DONE:
            return f"the deal is over; no seat can {'play' if action < self.num_cards else 'choose'} {name}"
        if phase <= PLAYING:
            verb = "passed" if phase == PASSING else "played"
            return f"seat {seat} cannot choose {name}: a card must be {verb}"
        one = s.take(np.array([game]))
        legal = int(self.legal_decisions(one)[0])
        allowed = ", ".join(
            names[self.num_cards + k] for k in range(len(self.rules.decisions)) if legal >> k & 1
        )
        what = self.decision_phases[phase].name.replace("_", " ")
        if action < self.num_cards:
            why = f"it is the {what} round: decide first"
        elif phase == BID and name.startswith("bid:"):
            why = f"the bid must beat the highest bid so far ({int(s.high_bid[game])})"
        elif phase == BID and name == "pass":
            why = "eldest hand opens the auction with a bid"
        else:
            why = f"not a decision of the {what} round"
        verb = "play" if action < self.num_cards else "choose"
        return f"seat {seat} cannot {verb} {name}: {why} (legal: {allowed})"

    # ------------------------------------------------------------------ stepping
    def advance(self, s: State, actions: np.ndarray, bits: np.ndarray) -> np.ndarray:
        """Play one legal decision in every game not yet DONE (each game acts once, in the
        phase it was in); returns the (B,) games whose deal ended. The lockstep paths are
        chosen here, once."""
        if s.lockstep:
            position = int(s.position[0])
            if s.all_playing:
                return self._step_play(s, _ALL, actions, bits, position)
            passing = s.phase == PASSING
            if passing.all():
                self._step_pass(s, _ALL, bits, s.current)
                return s.cancelled & passing if self.cancels_deals else np.zeros(len(actions), bool)
            # Mixed: the whole batch plays (passing games play no card and are masked out where
            # a play would change them), then the passing games pass from their seats before.
            rows = np.flatnonzero(passing)
            seats = s.current[rows]
            ended = self._step_play(
                s, _ALL, np.where(passing, EMPTY, actions), np.where(passing, ZERO, bits), position, ~passing
            )
            self._step_pass(s, rows, bits[rows], seats)
            return ended | (s.cancelled & passing) if self.cancels_deals else ended
        ended = np.zeros(len(actions), bool)
        passing = np.flatnonzero(s.phase == PASSING)
        playing = np.flatnonzero(s.phase == PLAYING)  # before passing ends: a game acts once
        deciding = np.flatnonzero(s.phase > DONE) if self.decision_phases else ()
        if len(deciding):
            self.decide(s, deciding, actions)
            ended[deciding] = s.phase[deciding] == DONE
        if len(passing):
            self._step_pass(s, passing, bits[passing], s.current[passing])
            ended[passing] = s.cancelled[passing]
        if len(playing):
            ended[playing] = self._step_play(s, playing, actions[playing], bits[playing], s.position[playing])
        return ended

    def illegal(
        self, s: State, actions: np.ndarray, legal: np.ndarray | None = None, bits: np.ndarray | None = None
    ) -> np.ndarray:
        """(B,) bool: the actions that are not legal for the acting seats (cards or decisions;
        games already DONE are never flagged). ``legal`` / ``bits``: :meth:`legal` of ``s`` and
        :func:`action_bits` of ``actions``, if already known."""
        legal = self.legal(s) if legal is None else legal
        bad = (legal & (action_bits(actions) if bits is None else bits)) == ZERO
        if not s.lockstep:
            bad &= s.phase != DONE
            if self.decision_phases:
                deciding = s.phase > DONE
                if deciding.any():
                    chosen = self._decision_bits(actions)
                    bad = np.where(deciding, (self.legal_decisions(s) & chosen) == ZERO, bad)
        return bad

    def _decision_bits(self, actions: np.ndarray) -> np.ndarray:
        """The decision bit of each action (0 for a card or an action past the decisions)."""
        choice = actions - self.num_cards
        inside = (choice >= 0) & (choice < len(self.rules.decisions))
        return BIT.take(np.where(inside, choice, EMPTY))

    def _rows_base(self, s: State, rows: np.ndarray | slice) -> np.ndarray:
        """Flat offset of seat 0 of each game in ``rows``."""
        return self._offsets(len(s.current))[rows]

    def _step_pass(self, s: State, rows: np.ndarray | slice, bits: np.ndarray, seat: np.ndarray) -> None:
        """The acting ``seat`` of each game in ``rows`` chooses one more card to pass."""
        chosen, flat = s.chosen.reshape(-1), self._rows_base(s, rows) + seat
        if self.two_decks:
            chosen_hi = s.chosen_hi.reshape(-1)
            chosen[flat], chosen_hi[flat] = cardsets.add_one(chosen[flat], chosen_hi[flat], bits)
        else:
            chosen[flat] |= bits
        done = s.pass_decisions[rows] + 1
        s.pass_decisions[rows] = done
        s.position[rows] = done % self.num_players
        s.current[rows] = (s.dealer[rows] + 1 + done // self.rules.pass_count) % self.num_players
        finished = done == self.pass_decisions_per_deal
        if finished.any():
            self._exchange(s, _subset(rows, finished))

    def _cancel(self, s: State, rows: np.ndarray) -> None:
        """Cancel the deal in ``rows``: nobody scores, and the next deal has the same dealer."""
        s.cancelled[rows] = True
        s.deal_points[rows] = 0
        s.team_points[rows] = 0
        s.chips[rows] = 0.0
        s.moon_shooter[rows] = -1
        s.phase[rows] = DONE
        s.lockstep = s.all_playing = False

    def _exchange(self, s: State, rows: np.ndarray) -> None:
        """Every seat gives its chosen cards to seat + offset."""
        p = self.num_players
        giver = (np.arange(p)[None, :] - s.pass_offset[rows][:, None]) % p  # (k, P)
        incoming = np.take_along_axis(s.chosen[rows], giver, axis=1)
        if self.two_decks:
            incoming_hi = np.take_along_axis(s.chosen_hi[rows], giver, axis=1)
            kept = cardsets.subtract(s.hands[rows], s.hands_hi[rows], s.chosen[rows], s.chosen_hi[rows])
            s.hands[rows], s.hands_hi[rows] = cardsets.add(*kept, incoming, incoming_hi)
            s.received_hi[rows] = incoming_hi
        else:
            s.hands[rows] = (s.hands[rows] & ~s.chosen[rows]) | incoming
        s.received[rows] = incoming
        self._after_pass(s, rows)
        s.all_playing = bool((s.phase == PLAYING).all())

    def _step_play(
        self,
        s: State,
        rows: np.ndarray | slice,
        cards: np.ndarray,
        bits: np.ndarray,
        position: np.ndarray | int,
        active: np.ndarray | None = None,
    ) -> np.ndarray:
        """Put each acting seat's card on the trick. ``position`` is a plain int when every
        game in ``rows`` is at the same point of the trick. ``active`` (lockstep only) marks the
        games that play; the others (still passing) pass ``EMPTY`` and are left as they were."""
        seat = s.current[rows]
        flat = self._rows_base(s, rows) + seat
        hands = s.hands.reshape(-1)
        if self.two_decks:  # one copy leaves the hand; a card already on the table makes a pair
            hands_hi = s.hands_hi.reshape(-1)
            hands[flat], hands_hi[flat] = cardsets.remove_one(hands[flat], hands_hi[flat], bits)
            s.trick_pairs[rows] |= s.trick_mask[rows] & bits
        else:
            hands[flat] ^= bits
        s.played[rows] |= bits
        s.trick_mask[rows] |= bits
        s.trick[rows, position] = cards
        suit = SUIT_OF.take(cards)
        key = cards * 16 + seat
        lockstep = isinstance(position, int)
        if lockstep and position == 0:
            if self.jokers:  # a joker led wins nothing; the trick has no suit until a card
                key = np.where(suit == 4, -1, key)
            s.lead_suit[rows] = suit if active is None else np.where(active, suit, s.lead_suit[rows])
            s.best[rows] = key if active is None else np.where(active, key, -1)
        else:
            if lockstep:
                lead_suit = s.lead_suit[rows]
            else:
                lead_suit = np.where(position == 0, suit, s.lead_suit[rows])
            if self.jokers:
                joker = suit == 4
                lead_suit = np.where((lead_suit == 4) & ~joker, suit, lead_suit)  # after a joker lead
                in_suit = (suit == lead_suit) & ~joker
                shown_out = ~in_suit & ~joker
            else:
                in_suit = suit == lead_suit
                shown_out = ~in_suit
            if not lockstep or self.jokers:
                s.lead_suit[rows] = lead_suit
            if active is not None:
                shown_out &= active
            if shown_out.any():  # someone showed out: remember the void
                shown = np.flatnonzero(shown_out)
                games = shown if isinstance(rows, slice) else rows[shown]
                s.voids[games] |= self._void_bits[5 * seat[shown] + lead_suit[shown]]
            if active is not None:
                in_suit &= active
            best = s.best[rows] if lockstep else np.where(position == 0, -1, s.best[rows])
            s.best[rows] = np.maximum(best, np.where(in_suit, key, -1))
        s.position[rows] = position + 1
        if lockstep:
            s.current[rows] = self.next_seat.take(seat)
            if position + 1 == self.num_players:
                return self._end_trick(s, rows, active)
            return np.zeros(len(seat), bool)
        if self.stock_size:  # Domino: skip the players who are out; the next one may draw
            s.current[rows] = stock.next_in(s, rows, seat)
            complete = position + 1 == s.trick_size[rows]
            if (~complete).any():
                stock.draw_to_follow(s, rows[~complete])
        else:
            s.current[rows] = self.next_seat.take(seat)
            complete = position + 1 == self.num_players
        ended = np.zeros(len(seat), bool)
        if complete.any():
            ended[complete] = self._end_trick(s, rows[complete])
        return ended

    def _end_trick(self, s: State, rows: np.ndarray | slice, active: np.ndarray | None = None) -> np.ndarray:
        """trick_winner takes the trick (and, on trick one, the kitty), is put on record
        (``last_winner``) and leads next (two decks: with cancellation,
        :meth:`_end_cancellation_trick`).

        Games not ``active`` (passing, in a mixed lockstep batch) had no trick: their empty
        trick is cleared like the others, and nothing else of theirs changes."""
        if self.two_decks:
            return self._next_trick(s, rows, self._end_cancellation_trick(s, rows), active)
        winner = s.best[rows] & 15
        if active is None:
            s.last_winner[rows] = winner
        else:
            s.last_winner[rows] = np.where(active, winner, s.last_winner[rows])
            winner = np.where(active, winner, s.leader[rows])
        flat = self._rows_base(s, rows) + winner
        first = s.trick_number[rows] == 0
        if active is not None:
            first &= active
        won = s.trick_mask[rows]
        scored = None  # the cards whose points count now, where not all of ``won``
        if self._first_trick_rules and first.any():
            s.first_trick_winner[rows] = np.where(first, winner, s.first_trick_winner[rows])
            special = first & s.all_penalty[rows]
            if special.any():  # first_trick_all_penalty: "not_counted" or "to_lowest"
                if self.rules.first_trick_all_penalty == "not_counted":
                    s.uncounted[rows] = np.where(special, won & self.penalty, s.uncounted[rows])
                    scored = won & ~s.uncounted[rows]
                else:
                    s.set_aside[rows] = np.where(special, won, s.set_aside[rows])
                    won = won & ~s.set_aside[rows]
            if self.kitty_size:
                kitty = np.where(first, s.kitty[rows], ZERO)
                won = won | kitty
                scored = None if scored is None else scored | kitty
        if self.rules.bidding == "auction":  # only the named suit scores, 1 a card
            trick_points = np.bitwise_count(won & SUIT_MASK.take(s.penalty_suit[rows])).astype(np.int64)
        else:
            trick_points = self.mask_points(won if scored is None else scored)
        taken, points, tricks_won = s.taken.reshape(-1), s.points.reshape(-1), s.tricks_won.reshape(-1)
        taken[flat] |= won
        points[flat] += trick_points
        tricks_won[flat] += 1 if active is None else active
        return self._next_trick(s, rows, winner, active)

    def _next_trick(
        self, s: State, rows: np.ndarray | slice, leader: np.ndarray, active: np.ndarray | None
    ) -> np.ndarray:
        """Clear the finished trick; ``leader`` (the winner, as a rule) leads the next one.
        Returns which games' deals are over (and scores them)."""
        if isinstance(rows, slice):  # the whole batch: swap the buffers instead of copying
            s.trick, s.last_trick = s.last_trick, s.trick
        else:
            s.last_trick[rows] = s.trick[rows]
        s.last_leader[rows] = s.leader[rows] if active is None else np.where(active, s.leader[rows], -1)
        s.leader[rows] = leader
        s.current[rows] = leader
        s.position[rows] = 0
        s.trick[rows] = EMPTY
        s.trick_mask[rows] = ZERO
        s.best[rows] = -1
        s.trick_number[rows] += 1 if active is None else active
        if self.stock_size:
            last = self._domino_trick_end(s, rows, leader)
        else:
            last = s.trick_number[rows] == self.hand_size
        if last.any():
            self._last_trick(s, _subset(rows, last), last)
        return last

    def cancellation_winner(self, s: State, rows: np.ndarray) -> np.ndarray:
        """Cancellation Hearts' trick_winner of the complete tricks of ``rows``: (k,) the seat that
        wins each, -1 where the trick is cancelled.

        Two identical cards (both copies of a card) cancel each other: neither can win. Two
        such pairs, or no card of the suit led left uncancelled, cancel the whole trick;
        otherwise the highest uncancelled card of the suit led wins."""
        cards = s.trick[rows]  # (k, P) by position, the lead first
        pairs = s.trick_pairs[rows]
        in_suit = SUIT_OF.take(cards) == s.lead_suit[rows][:, None]
        alive = in_suit & ((BIT.take(cards) & pairs[:, None]) == ZERO)
        position = np.argmax(np.where(alive, cards, -1), axis=1)
        cancelled = (np.bitwise_count(pairs) >= 2) | ~alive.any(axis=1)
        return np.where(cancelled, -1, (s.leader[rows] + position) % self.num_players)

    def _end_cancellation_trick(self, s: State, rows: np.ndarray) -> np.ndarray:
        """Two decks: the winner takes the trick with the cards set aside before it (and, on
        trick one, the kitty); a cancelled trick is set aside with them and its leader leads
        again. ``last_winner`` / ``last_cancelled`` record which. Returns who leads next (k,)."""
        winner = self.cancellation_winner(s, rows)
        s.last_winner[rows] = winner
        s.last_cancelled[rows] = winner < 0
        pot = cardsets.add(s.trick_mask[rows], s.trick_pairs[rows], s.carried[rows], s.carried_hi[rows])
        if self.kitty_size:
            first = s.trick_number[rows] == 0
            kitty = np.where(first, s.kitty[rows], ZERO), np.where(first, s.kitty_hi[rows], ZERO)
            pot = cardsets.add(*pot, *kitty)
        won = winner >= 0
        s.carried[rows] = np.where(won, ZERO, pot[0])
        s.carried_hi[rows] = np.where(won, ZERO, pot[1])
        s.trick_pairs[rows] = ZERO
        games, seat, lo, hi = rows[won], winner[won], pot[0][won], pot[1][won]
        s.taken[games, seat], s.taken_hi[games, seat] = cardsets.add(
            s.taken[games, seat], s.taken_hi[games, seat], lo, hi
        )
        s.points[games, seat] += cardsets.points(lo, hi, self.mask_points)
        s.tricks_won[games, seat] += 1
        if self.kitty_size:  # the first winner takes the kitty
            taker = s.first_trick_winner[games]
            s.first_trick_winner[games] = np.where(taker < 0, seat, taker)
        return np.where(won, winner, s.leader[rows])

    def _domino_trick_end(self, s: State, rows: np.ndarray, winner: np.ndarray) -> np.ndarray:
        """Domino Hearts after a trick: a winner who is out hands the lead on; with at most one
        player still in, that player (or, nobody in, the winner) takes his hand and the stock
        and the deal is over. Returns which games' deals are over."""
        holding = s.hands[rows] != ZERO  # (k, P)
        count = holding.sum(axis=1)
        s.trick_size[rows] = count
        leader = stock.next_in(s, rows, (winner - 1) % self.num_players)  # the winner if he is in
        s.leader[rows] = s.current[rows] = leader
        last = count <= 1
        if last.any():
            done = rows[last]
            holder = np.where(count[last] == 1, np.argmax(holding[last], axis=1), winner[last])
            cards = s.hands[done, holder] | stock.remaining(s, done)
            s.taken[done, holder] |= cards
            s.points[done, holder] += self.mask_points(cards)
            s.stock_pos[done] = self.stock_size
        return last

    def _last_trick(self, s: State, rows: np.ndarray, last: np.ndarray) -> None:
        """The tricks are over in ``rows``: the set-aside first trick goes to its receiver, a
        shooter with the choice decides (``last``, the ended flags, loses those games), and the
        others' deals are scored."""
        if self.rules.first_trick_all_penalty == "to_lowest":
            s.taken[rows], s.points[rows] = scoring.give_first_trick(
                self.rules, s.taken[rows], s.points[rows], s.set_aside[rows], s.first_trick_winner[rows]
            )
        if self.rules.moon == "shooter_choice" and self.rules.team_scoring != "sum":
            moon = self.moon_mask & ~s.uncounted[rows]
            shot = (s.taken[rows] & moon[:, None]) == moon[:, None]  # (k, P)
            if self.two_decks:  # both copies of every moon card
                shot &= (s.taken_hi[rows] & moon[:, None]) == moon[:, None]
            choosing = shot.any(axis=1)
            if self.rules.bidding == "general":  # a declared Général is scored by its own rule
                choosing &= s.bidder[rows] < 0
            if choosing.any():
                s.phase[rows[choosing]] = MOON_CHOICE
                s.current[rows[choosing]] = np.argmax(shot[choosing], axis=1)
                s.lockstep = s.all_playing = False
                last[np.flatnonzero(last)[choosing]] = False
                rows = rows[~choosing]
        if len(rows):
            self.end_deal(s, rows)

    def mask_points(self, masks: np.ndarray) -> np.ndarray:
        """Plain card-point sums of card sets (B,) uint64: one popcount per distinct card value
        when there are at most four, else one 13-bit table lookup per suit."""
        if len(self._value_masks) <= 4:
            total = np.zeros(masks.shape, np.int64)
            for value, cards in self._value_masks:
                total += value * np.bitwise_count(masks & cards).astype(np.int64)
            return total
        total = self._joker_points[(masks >> U64(52)).view(np.int64) & 3]
        for suit in range(4):
            total += self._suit_points[suit][(masks >> U64(13 * suit)).view(np.int64) & 0x1FFF]
        return total

    def end_deal(self, s: State, rows: np.ndarray, forfeit: np.ndarray | None = None) -> None:
        """Score the deal in games ``rows`` and mark them DONE.

        ``forfeit`` (seats, one per row) ends the deal at once for an illegal action under
        ``illegal_action="terminate"``: that seat is charged the deal's maximum penalty.
        """
        r = self.rules
        if forfeit is None:
            points, shooter = scoring.deal_points(
                r,
                s.taken[rows],
                s.points[rows],
                s.tricks_won[rows],
                s.totals[rows],
                s.uncounted[rows] if r.first_trick_all_penalty == "not_counted" else None,
                s.moon_choice[rows],
                s.taken_hi[rows] if self.two_decks else None,
            )
            if r.bidding == "general":
                points, shooter = scoring.general_points(r, s.taken[rows], points, shooter, s.bidder[rows])
            elif r.bidding == "auction":
                won = s.bidder[rows] >= 0
                points[np.flatnonzero(won), s.bidder[rows][won]] += s.high_bid[rows][won]
            points, shooter, team = scoring.team_points(
                r, s.taken[rows], points, shooter, s.bidder[rows], s.partner[rows], s.uncounted[rows]
            )
        else:
            points = np.zeros((len(rows), self.num_players), np.int64)
            points[np.arange(len(rows)), forfeit] = self.rules.penalty_total
            shooter = np.full(len(rows), -1)
            team = scoring.team_sums(r, points)
        s.deal_points[rows] = points
        s.team_points[rows] = team
        s.moon_shooter[rows] = shooter
        chips, s.pool[rows] = scoring.settle_deal(
            self.rules, points, s.points[rows], s.taken[rows], shooter, s.pool[rows], s.uncounted[rows]
        )
        totals = scoring.add_to_totals(self.rules, s.totals[rows], points)
        s.totals[rows] = totals
        # Partnership A: the team's score (its players' totals together) decides the end.
        scores = scoring.team_sums(r, totals) if r.team_scoring == "sum" else totals
        over = (scores >= self.rules.target_score).any(axis=1)
        if self.rules.max_deals is not None:
            over |= s.deal_index[rows] + 1 >= self.rules.max_deals
        s.game_over[rows] = over
        if self.rules.settlement == "maria":
            chips = np.where(over[:, None], scoring.settle_game(totals), 0.0)
        s.chips[rows] = chips
        s.phase[rows] = DONE
        s.lockstep = s.all_playing = False

    def score_forfeit(self, s: State, rows: np.ndarray, seats: np.ndarray) -> None:
        """``illegal_action="terminate"``: ``seats`` are charged the deal's maximum penalty."""
        self.end_deal(s, rows, forfeit=seats)

    # ------------------------------------------------------------------ small views
    def played_by(self, s: State) -> np.ndarray:
        """(B, P) uint64: the cards each seat has played this deal (two decks: at least one copy;
        see :meth:`played_twice`)."""
        if self.two_decks:
            return cardsets.subtract(s.held, s.held_hi, s.hands, s.hands_hi)[0]
        return s.held & ~s.hands

    def played_twice(self, s: State) -> np.ndarray:
        """(B, P) uint64: two decks, the cards each seat has played both copies of this deal."""
        return cardsets.subtract(s.held, s.held_hi, s.hands, s.hands_hi)[1]

    def hearts_broken(self, s: State) -> np.ndarray:
        """(B,) bool: a card that breaks hearts has been played this deal."""
        return (s.played & self.breaks) != ZERO
