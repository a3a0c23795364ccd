"""The batched engine: B games of one rules set, stepped together with array operations.

State is a :class:`State` record whose fields all have a leading batch axis. Hands, cards taken
and cards played are ``uint64`` bitmasks (bit ``c`` = card ``c``). A deal is a passing phase
(``pass_count`` single-card decisions per seat, seat by seat from eldest hand; the exchange
happens once every seat has chosen) followed by the play phase. Games need not be in step —
a batch may mix passing and playing games, or deals of different directions — but the common
case (every game at the same position in its trick, see ``State.lockstep``) is what the code
keeps cheap: branches are taken on whole-batch conditions, never per game in Python.

Rules read like the rulebook: :meth:`Engine.legal` (``must_follow``, ``hearts_broken``, the
first-trick restriction), :meth:`Engine._end_trick` (``trick_winner``), and
:func:`hearts_env.scoring.deal_points`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from hearts_env import scoring
from hearts_env.bits import BIT, EMPTY, SUIT_MASK, SUIT_OF, U64, ZERO, u64, unpack
from hearts_env.cards import CLUBS, HEARTS, SPADES, card_name, card_symbol, cards_of, parse_card
from hearts_env.rules import PASS_DIRECTIONS, QUEEN_OF_SPADES, Rules

PASSING, PLAYING, DONE = 0, 1, 2
"""Values of ``State.phase``."""


_ALL = slice(None)
_ACTION_BIT = np.concatenate([[0], BIT[:54], [0]]).astype(U64)


def action_bits(actions: np.ndarray) -> np.ndarray:
    """The card mask of each action (int64), 0 for an action that names no card (negative, or
    past the 54 card slots): ``legal & action_bits(a) == 0`` exactly when ``a`` is illegal."""
    return _ACTION_BIT.take(actions + 1, mode="clip")


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


@dataclass
class State:
    """Arrays of B games. Shapes: ``(B,)`` or ``(B, P)`` with P players (seats, not relative)."""

    hands: np.ndarray  # (B, P) uint64: cards in each hand
    taken: np.ndarray  # (B, P) uint64: cards won in tricks (and the kitty)
    held: np.ndarray  # (B, P) uint64: each hand as play began (cards played = held & ~hands)
    chosen: np.ndarray  # (B, P) uint64: cards each seat chose to pass (passed, after the exchange)
    received: np.ndarray  # (B, P) uint64: cards each seat received in the pass
    voids: np.ndarray  # (B,) uint64: bit 4 * seat + suit set once that seat has shown out of suit
    points: np.ndarray  # (B, P) int64: card points taken so far this deal (plain sum)
    tricks_won: np.ndarray  # (B, P) int64
    trick: np.ndarray  # (B, P) int64: cards of the current trick by position, EMPTY if none
    last_trick: np.ndarray  # (B, P) int64: the previous trick's cards by position (for display)
    last_leader: np.ndarray  # (B,) int64: who led the previous trick (-1 before the first)
    trick_mask: np.ndarray  # (B,) uint64: cards on the table
    played: np.ndarray  # (B,) uint64: every card played this deal
    kitty: np.ndarray  # (B,) uint64: face-down leftover cards for the first trick's winner
    best: np.ndarray  # (B,) int64: 16*card + seat of the card winning the trick, -1 if none
    lead_suit: np.ndarray  # (B,) int64
    leader: np.ndarray  # (B,) int64: seat that led the current trick
    position: np.ndarray  # (B,) int64: cards already in the current trick (pass decisions mod P)
    trick_number: np.ndarray  # (B,) int64: 0 = first trick
    current: np.ndarray  # (B,) int64: seat to act
    phase: np.ndarray  # (B,) int64: PASSING, PLAYING or DONE
    pass_decisions: np.ndarray  # (B,) int64: single-card pass decisions made so far
    pass_offset: np.ndarray  # (B,) int64: receiver = seat + offset (mod P); 0 = hold
    pass_direction: np.ndarray  # (B,) int64: index into rules.PASS_DIRECTIONS
    dealer: np.ndarray  # (B,) int64
    deal_index: np.ndarray  # (B,) int64: deals finished before this one in the game
    totals: np.ndarray  # (B, P) int64: game totals before this deal
    deal_points: np.ndarray  # (B, P) int64: final points of the last finished deal
    chips: np.ndarray  # (B, P) float64: settlement of the last finished deal
    pool: np.ndarray  # (B,) float64: jackpot carried over
    game_over: np.ndarray  # (B,) bool: the last finished deal ended the game
    moon_shooter: np.ndarray  # (B,) int64: seat that shot the moon in the last deal, -1 if none
    first_trick_winner: np.ndarray  # (B,) int64: who won the first trick (and the kitty), -1 before
    all_penalty: np.ndarray  # (B,) bool: a hand held only penalty cards at the start of play
    uncounted: np.ndarray  # (B,) uint64: penalty cards scoring nothing (first_trick_all_penalty)
    set_aside: np.ndarray  # (B,) uint64: the first trick, set aside for the lowest scorer
    cancelled: np.ndarray  # (B,) bool: the deal was cancelled (first_trick_all_penalty="redeal")
    lockstep: bool = False
    """No game is DONE and every game is at the same ``position``: the engine then treats the
    position as one number for the whole batch. ``position`` counts decisions modulo P in the
    pass as well as cards in the trick, and every deal is a multiple of P decisions, so games
    started together stay in lockstep whatever their pass directions. See :meth:`sync`."""

    def array_fields(self) -> list[str]:
        """Names of the array fields (everything but the derived ``lockstep`` flags)."""
        return [f.name for f in fields(self) if f.name not in ("lockstep", "all_playing")]

    def copy(self) -> State:
        """A deep copy (arrays copied)."""
        part = State(**{name: getattr(self, name).copy() for name in self.array_fields()})
        part.lockstep, part.all_playing = self.lockstep, self.all_playing
        return part

    def take(self, rows: np.ndarray) -> State:
        """The games at ``rows`` as a new state."""
        part = State(**{name: getattr(self, name)[rows].copy() for name in self.array_fields()})
        part.sync()
        return part

    def put(self, rows: np.ndarray, other: State) -> None:
        """Overwrite the games at ``rows`` with ``other``'s."""
        for name in self.array_fields():
            getattr(self, name)[rows] = getattr(other, name)
        self.sync()

    all_playing: bool = False
    """Every game is in the play phase (kept by the engine; see ``lockstep``)."""

    def sync(self) -> None:
        """Recompute ``lockstep`` (call after changing some games but not others)."""
        self.lockstep = bool((self.position == self.position[0]).all() and (self.phase != DONE).all())
        self.all_playing = bool((self.phase == PLAYING).all())


class Engine:
    """Rules compiled into uint64 tables, and the functions that advance a :class:`State`.

    ``Engine(rules).new_state(B)`` allocates; :meth:`deal` starts deals; :meth:`legal` gives the
    acting seats' legal cards; :meth:`step` plays one decision in every game.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.num_players = rules.num_players
        self.hand_size = rules.hand_size
        self.kitty_size = rules.kitty_size
        self.num_actions = 52 + rules.jokers
        self.deck_cards = np.array(rules.deck.cards, dtype=np.int64)
        self._deck_bits = self.deck_cards.astype(U64)  # card indices (< 64) as sort-key low bits
        self.deck_mask = u64(rules.deck_mask)
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
        self.next_seat = (np.arange(self.num_players) + 1) % self.num_players
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
            trick_mask=z(dtype=U64), played=z(dtype=U64), kitty=z(dtype=U64), best=z() - 1,
            lead_suit=z(), leader=z(), position=z(), trick_number=z(), current=z(),
            phase=np.full(batch, DONE, np.int64), pass_decisions=z(), pass_offset=z(),
            pass_direction=z(), dealer=z(), deal_index=z(), totals=z(p), deal_points=z(p),
            chips=z(p, dtype=np.float64), pool=z(dtype=np.float64), game_over=np.ones(batch, bool),
            moon_shooter=z() - 1, first_trick_winner=z() - 1, all_penalty=z(dtype=bool),
            uncounted=z(dtype=U64), set_aside=z(dtype=U64), cancelled=z(dtype=bool),
        )  # fmt: skip

    def shuffled_hands(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """Random deals: hand masks (batch, P) and kitty masks (batch,), from ``rng.permuted``.

        Tournaments deal with this (their published results replay it); environments use the
        faster :meth:`random_hands`."""
        cards = rng.permuted(np.broadcast_to(self.deck_cards, (batch, len(self.deck_cards))), axis=1)
        return self._deal_in_order(cards)

    def random_hands(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """Random deals like :meth:`shuffled_hands`, about twice as fast: each card gets 58 random
        bits above its 6-bit index and one sort orders the deck (equal keys, the only source of
        bias, have probability below 1e-14 a deal)."""
        keys = rng.bit_generator.random_raw((batch, len(self.deck_cards)))
        keys &= ~U64(63)
        keys |= self._deck_bits
        keys.sort(axis=1)
        return self._deal_in_order((keys & U64(63)).view(np.int64))

    def _deal_in_order(self, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hands dealt from shuffled decks (batch, cards): hand_size cards a seat, the rest kitty."""
        n, h, batch = self.num_players, self.hand_size, len(cards)
        hands = np.bitwise_or.reduce(BIT.take(cards[:, : n * h]).reshape(batch, n, h), axis=2)
        kitty = np.bitwise_or.reduce(BIT.take(cards[:, n * h :]), axis=1, initial=ZERO)
        return hands, kitty

    def hands_from_cards(
        self, hands: list[list[int | str]], kitty: list[int | str] | None = None
    ) -> tuple[int, ...]:
        """Validate a hand-written deal and return it as one mask per seat (kitty last).

        Raises ``ValueError`` on duplicates, removed or missing cards, or unequal hands.
        """
        n = self.num_players
        if len(hands) != n:
            raise ValueError(f"a deal for {n} players needs {n} hands, got {len(hands)}")
        parsed = [[parse_card(c) for c in hand] for hand in hands]
        kitty_cards = [parse_card(c) for c in (kitty or [])]
        sizes = sorted({len(h) for h in parsed})
        if sizes != [self.hand_size]:
            raise ValueError(
                f"every hand must hold {self.hand_size} cards here; got sizes {[len(h) for h in parsed]}"
            )
        seen: dict[int, int] = {}
        for seat, hand in enumerate(parsed + [kitty_cards]):
            for c in hand:
                if c in seen:
                    where = "the kitty" if seat == n else f"seat {seat}"
                    raise ValueError(f"{card_name(c)} is dealt twice (seat {seen[c]} and {where})")
                seen[c] = seat
        deck = set(self.deck_cards.tolist())
        extra = sorted(set(seen) - deck)
        if extra:
            raise ValueError(f"cards not in this deck (removed or unknown): {[card_name(c) for c in extra]}")
        missing = sorted(deck - set(seen))
        if missing and self.rules.kitty_size == 0:
            raise ValueError(f"the deal is missing cards: {[card_name(c) for c in missing]}")
        if len(kitty_cards) + len(missing) != self.rules.kitty_size:
            raise ValueError(f"the kitty must hold {self.rules.kitty_size} cards")
        kitty_cards += missing
        masks = [sum(1 << c for c in hand) for hand in parsed]
        return (*masks, sum(1 << c for c in kitty_cards))

    def deal(
        self,
        state: State,
        rows: np.ndarray,
        hands: np.ndarray,
        kitty: np.ndarray,
        new_game: np.ndarray,
        dealer: np.ndarray | None = None,
        pass_direction: np.ndarray | None = None,
    ) -> None:
        """Start a deal in games ``rows`` with the given hand masks.

        Games flagged in ``new_game`` start a new game (totals 0, deal 0, dealer 0); others move
        to their next deal (dealer + 1). ``dealer`` / ``pass_direction`` (direction indices)
        override the game's own for this deal.
        """
        s = state
        k = len(rows)
        p = self.num_players
        new_game = np.asarray(new_game, bool)
        # A cancelled deal (first_trick_all_penalty="redeal") is dealt again by the same dealer.
        moves_on = np.where(s.cancelled[rows], 0, 1)
        s.totals[rows] = np.where(new_game[:, None], 0, s.totals[rows])
        s.pool[rows] = np.where(new_game, 0.0, s.pool[rows])
        s.deal_index[rows] = np.where(new_game, 0, s.deal_index[rows] + moves_on)
        s.dealer[rows] = np.where(new_game, 0, (s.dealer[rows] + moves_on) % p)
        if dealer is not None:
            s.dealer[rows] = dealer
        cycle = np.array([PASS_DIRECTIONS.index(d) for d in self.rules.pass_directions], np.int64)
        direction = cycle[s.deal_index[rows] % len(cycle)] if pass_direction is None else pass_direction
        if self.rules.pass_count == 0:
            direction = np.full(k, PASS_DIRECTIONS.index("hold"), np.int64)
        s.pass_direction[rows] = direction
        s.pass_offset[rows] = self.offsets[direction]
        s.hands[rows] = hands
        s.kitty[rows] = kitty
        for name in ("taken", "chosen", "received"):
            getattr(s, name)[rows] = ZERO
        s.held[rows] = hands
        s.trick_mask[rows] = ZERO
        s.played[rows] = ZERO
        for name in ("voids", "points", "tricks_won", "position", "trick_number", "pass_decisions"):
            getattr(s, name)[rows] = 0
        s.trick[rows] = EMPTY
        s.last_trick[rows] = EMPTY
        s.last_leader[rows] = -1
        s.best[rows] = -1
        s.game_over[rows] = False
        s.moon_shooter[rows] = -1
        s.first_trick_winner[rows] = -1
        s.all_penalty[rows] = False
        s.uncounted[rows] = ZERO
        s.set_aside[rows] = ZERO
        s.cancelled[rows] = False
        passing = s.pass_offset[rows] != 0
        s.phase[rows] = np.where(passing, PASSING, PLAYING)
        s.current[rows] = (s.dealer[rows] + 1) % p
        s.leader[rows] = s.current[rows]
        if not passing.all():
            self._start_play(s, rows[~passing])
        s.sync()

    def _start_play(self, s: State, rows: np.ndarray) -> None:
        """After the pass: the first leader (lowest club's holder, or eldest hand) is to act.

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
            s.leader[rows] = np.argmax((s.hands[rows] & lowest[:, None]) != 0, axis=1)
        s.current[rows] = s.leader[rows]
        s.held[rows] = s.hands[rows]

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
        legal = np.where(s.phase == PASSING, hand & ~s.chosen.take(flat), ZERO)
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
            must_follow = hand & SUIT_MASK.take(s.lead_suit, mode="clip")
            following = np.where(must_follow != ZERO, must_follow, hand)
            void = _and_not(leading, must_follow == ZERO)
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
                lead = _where(first_trick, forced, lead)
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
        return legal

    def _flat(self, seats: np.ndarray) -> np.ndarray:
        """Flat indices into a (B, P) array of each game's entry for ``seats`` (B,)."""
        return self._offsets(len(seats)) + seats

    def _offsets(self, batch: int) -> np.ndarray:
        """Flat offset of seat 0 of each of ``batch`` games in a (B, P) array."""
        if len(self._base) != batch:
            self._base = np.arange(batch, dtype=np.int64) * self.num_players
        return self._base

    def explain_illegal(self, s: State, game: int, action: int) -> str:
        """Why ``action`` is illegal for the acting seat of ``game`` (for error messages)."""
        seat = int(s.current[game])
        if not 0 <= action < self.num_actions:
            return f"seat {seat}: action {action} is out of range 0..{self.num_actions - 1}"
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
            why = "the first trick must be led with a club"
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

    # ------------------------------------------------------------------ stepping
    def step(
        self, s: State, actions: np.ndarray, check: bool = True, legal: np.ndarray | None = None
    ) -> np.ndarray:
        """Play one decision (a card index) in every game not yet DONE; returns the (B,) bool
        mask of games whose deal ended in this step. With ``check``, illegal actions raise
        ``ValueError`` and change nothing (``legal``, if given, is :meth:`legal` of ``s``)."""
        actions = np.asarray(actions, dtype=np.int64)
        bits = action_bits(actions)
        if check:
            if legal is None:
                legal = self.legal(s)
            bad = (legal & bits) == ZERO
            if not s.lockstep:
                bad &= s.phase != DONE
            if bad.any():
                g = int(np.flatnonzero(bad)[0])
                raise ValueError(self.explain_illegal(s, g, int(actions[g])))
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
        if len(passing):
            self._step_pass(s, passing, bits[passing], s.current[passing])
            ended[passing] = s.cancelled[passing]
        if len(playing):
            ended[playing] = self._step_play(s, playing, actions[playing], bits[playing], s.position[playing])
        return ended

    def _rows_base(self, s: State, rows: np.ndarray | slice) -> np.ndarray:
        """Flat offset of seat 0 of each game in ``rows``."""
        return self._offsets(len(s.current))[rows]

    def _step_pass(self, s: State, rows: np.ndarray | slice, bits: np.ndarray, seat: np.ndarray) -> None:
        """The acting ``seat`` of each game in ``rows`` chooses one more card to pass."""
        chosen = s.chosen.reshape(-1)
        chosen[self._rows_base(s, rows) + seat] |= bits
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
        s.chips[rows] = 0.0
        s.moon_shooter[rows] = -1
        s.phase[rows] = DONE
        s.lockstep = s.all_playing = False

    def _exchange(self, s: State, rows: np.ndarray) -> None:
        """Every seat gives its chosen cards to seat + offset."""
        p = self.num_players
        giver = (np.arange(p)[None, :] - s.pass_offset[rows][:, None]) % p  # (k, P)
        incoming = np.take_along_axis(s.chosen[rows], giver, axis=1)
        s.hands[rows] = (s.hands[rows] & ~s.chosen[rows]) | incoming
        s.received[rows] = incoming
        self._start_play(s, rows)
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
        hands[flat] ^= bits
        s.played[rows] |= bits
        s.trick_mask[rows] |= bits
        s.trick[rows, position] = cards
        suit = SUIT_OF.take(cards)
        key = cards * 16 + seat
        lockstep = isinstance(position, int)
        if lockstep and position == 0:
            s.lead_suit[rows] = suit if active is None else np.where(active, suit, s.lead_suit[rows])
            s.best[rows] = key if active is None else np.where(active, key, -1)
        else:
            if lockstep:
                lead_suit = s.lead_suit[rows]
            else:
                lead_suit = np.where(position == 0, suit, s.lead_suit[rows])
                s.lead_suit[rows] = lead_suit
            in_suit = suit == lead_suit
            shown_out = ~in_suit if active is None else ~in_suit & active
            if shown_out.any():  # someone showed out: remember the void
                shown = np.flatnonzero(shown_out)
                games = shown if isinstance(rows, slice) else rows[shown]
                s.voids[games] |= self._void_bits[5 * seat[shown] + lead_suit[shown]]
            if active is not None:
                in_suit &= active
            best = s.best[rows] if lockstep else np.where(position == 0, -1, s.best[rows])
            s.best[rows] = np.maximum(best, np.where(in_suit, key, -1))
        s.position[rows] = position + 1
        s.current[rows] = self.next_seat.take(seat)
        if lockstep:
            if position + 1 == self.num_players:
                return self._end_trick(s, rows, active)
            return np.zeros(len(seat), bool)
        complete = position + 1 == self.num_players
        ended = np.zeros(len(seat), bool)
        if complete.any():
            ended[complete] = self._end_trick(s, rows[complete])
        return ended

    def _end_trick(self, s: State, rows: np.ndarray | slice, active: np.ndarray | None = None) -> np.ndarray:
        """trick_winner takes the trick (and, on trick one, the kitty) and leads next.

        Games not ``active`` (passing, in a mixed lockstep batch) had no trick: their empty
        trick is cleared like the others, and nothing else of theirs changes."""
        winner = s.best[rows] & 15
        if active is not None:
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
        trick_points = self.mask_points(won if scored is None else scored)
        taken, points, tricks_won = s.taken.reshape(-1), s.points.reshape(-1), s.tricks_won.reshape(-1)
        taken[flat] |= won
        points[flat] += trick_points
        tricks_won[flat] += 1 if active is None else active
        if isinstance(rows, slice):  # the whole batch: swap the buffers instead of copying
            s.trick, s.last_trick = s.last_trick, s.trick
        else:
            s.last_trick[rows] = s.trick[rows]
        s.last_leader[rows] = s.leader[rows] if active is None else np.where(active, s.leader[rows], -1)
        s.leader[rows] = winner
        s.current[rows] = winner
        s.position[rows] = 0
        s.trick[rows] = EMPTY
        s.trick_mask[rows] = ZERO
        s.best[rows] = -1
        s.trick_number[rows] += 1 if active is None else active
        last = s.trick_number[rows] == self.hand_size
        if last.any():
            self.end_deal(s, _subset(rows, last))
        return last

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
        rule = self.rules.first_trick_all_penalty
        if forfeit is None:
            if rule == "to_lowest":
                s.taken[rows], s.points[rows] = scoring.give_first_trick(
                    self.rules, s.taken[rows], s.points[rows], s.set_aside[rows], s.first_trick_winner[rows]
                )
            points, shooter = scoring.deal_points(
                self.rules,
                s.taken[rows],
                s.points[rows],
                s.tricks_won[rows],
                s.totals[rows],
                s.uncounted[rows] if rule == "not_counted" else None,
            )
        else:
            points = np.zeros((len(rows), self.num_players), np.int64)
            points[np.arange(len(rows)), forfeit] = self.rules.penalty_total
            shooter = np.full(len(rows), -1)
        s.deal_points[rows] = points
        s.moon_shooter[rows] = shooter
        chips, s.pool[rows] = scoring.settle_deal(
            self.rules, points, s.points[rows], s.taken[rows], shooter, s.pool[rows], s.uncounted[rows]
        )
        totals = scoring.add_to_totals(self.rules, s.totals[rows], points)
        s.totals[rows] = totals
        over = (totals >= self.rules.target_score).any(axis=1)
        if self.rules.max_deals is not None:
            over |= s.deal_index[rows] + 1 >= self.rules.max_deals
        s.game_over[rows] = over
        if self.rules.settlement == "maria":
            chips = np.where(over[:, None], scoring.settle_game(totals), 0.0)
        s.chips[rows] = chips
        s.phase[rows] = DONE
        s.lockstep = s.all_playing = False

    def forfeit(self, s: State, rows: np.ndarray) -> None:
        """End the deal in ``rows``: the acting seat played illegally (``terminate`` option)."""
        self.end_deal(s, rows, forfeit=s.current[rows])

    # ------------------------------------------------------------------ small views
    def played_by(self, s: State) -> np.ndarray:
        """(B, P) uint64: the cards each seat has played this deal."""
        return s.held & ~s.hands

    def hearts_broken(self, s: State) -> np.ndarray:
        """(B,) bool: a card that breaks hearts has been played this deal."""
        return (s.played & self.breaks) != ZERO
