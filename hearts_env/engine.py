"""The batched engine: B games of one rules set, stepped together with array operations.

State is a :class:`State` record whose fields all have a leading batch axis. Hands, cards taken
and cards played are ``uint64`` bitmasks (bit ``c`` = card ``c``). A deal is a passing phase
(``pass_count`` single-card decisions per seat, seat by seat from eldest hand; the exchange
happens once every seat has chosen) followed by the play phase. Games need not be in step —
a batch may mix passing and playing games, or deals of different directions — but the common
case (every game at the same decision) is what the code keeps cheap: branches are taken on
whole-batch conditions, never per game in Python.

Rules read like the rulebook: :meth:`Engine.legal` (``must_follow``, ``hearts_broken``, the
first-trick restriction), :meth:`Engine._end_trick` (``trick_winner``), and
:func:`hearts_env.scoring.deal_points`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from hearts_env import scoring
from hearts_env.bits import BIT, EMPTY, SUIT_MASK, SUIT_OF, U64, ZERO, lowest_bit, popcount, u64
from hearts_env.cards import CLUBS, HEARTS, SPADES, card_name, card_symbol, cards_of, parse_card
from hearts_env.rules import PASS_DIRECTIONS, QUEEN_OF_SPADES, Rules

PASSING, PLAYING, DONE = 0, 1, 2
"""Values of ``State.phase``."""

_ACE_KING_OF_SPADES = u64((1 << parse_card("AS")) | (1 << parse_card("KS")))


@dataclass
class State:
    """Arrays of B games. Shapes: ``(B,)`` or ``(B, P)`` with P players (seats, not relative)."""

    hands: np.ndarray  # (B, P) uint64: cards in each hand
    taken: np.ndarray  # (B, P) uint64: cards won in tricks (and the kitty)
    played_by: np.ndarray  # (B, P) uint64: cards each seat played this deal
    chosen: np.ndarray  # (B, P) uint64: cards each seat chose to pass (passed, after the exchange)
    received: np.ndarray  # (B, P) uint64: cards each seat received in the pass
    voids: np.ndarray  # (B, P) uint8: bit s set once the seat has shown out of suit s
    points: np.ndarray  # (B, P) int64: card points taken so far this deal (plain sum)
    tricks_won: np.ndarray  # (B, P) int64
    trick: np.ndarray  # (B, P) int64: cards of the current trick by position, EMPTY if none
    trick_mask: np.ndarray  # (B,) uint64: cards on the table
    played: np.ndarray  # (B,) uint64: every card played this deal
    kitty: np.ndarray  # (B,) uint64: face-down leftover cards for the first trick's winner
    best: np.ndarray  # (B,) int64: 16*card + seat of the card winning the trick, -1 if none
    lead_suit: np.ndarray  # (B,) int64
    leader: np.ndarray  # (B,) int64: seat that led the current trick
    position: np.ndarray  # (B,) int64: cards already in the current trick
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

    def copy(self) -> State:
        """A deep copy (arrays copied)."""
        return State(**{f.name: getattr(self, f.name).copy() for f in fields(self)})

    def take(self, rows: np.ndarray) -> State:
        """The games at ``rows`` as a new state."""
        return State(**{f.name: getattr(self, f.name)[rows].copy() for f in fields(self)})

    def put(self, rows: np.ndarray, other: State) -> None:
        """Overwrite the games at ``rows`` with ``other``'s."""
        for f in fields(self):
            getattr(self, f.name)[rows] = getattr(other, f.name)


class Engine:
    """Rules compiled into uint64 tables, and the functions that advance a :class:`State`.

    ``Engine(rules).new_state(B)`` allocates; :meth:`deal` starts deals; :meth:`legal` gives the
    acting seats' legal cards; :meth:`step` plays one decision in every game.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.num_players = rules.num_players
        self.hand_size = rules.hand_size
        self.num_actions = 52 + rules.jokers
        self.deck_cards = np.array(rules.deck.cards, dtype=np.int64)
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
        self.offsets = np.array([rules.pass_offset(d) for d in PASS_DIRECTIONS], dtype=np.int64)

    # ------------------------------------------------------------------ state and dealing
    def new_state(self, batch: int) -> State:
        """Zeroed state for ``batch`` games (call :meth:`deal` before playing)."""
        p = self.num_players

        def z(*shape: int, dtype: type = np.int64) -> np.ndarray:
            return np.zeros((batch, *shape), dtype=dtype)

        return State(
            hands=z(p, dtype=U64), taken=z(p, dtype=U64), played_by=z(p, dtype=U64),
            chosen=z(p, dtype=U64), received=z(p, dtype=U64), voids=z(p, dtype=np.uint8),
            points=z(p), tricks_won=z(p), trick=np.full((batch, p), EMPTY, np.int64),
            trick_mask=z(dtype=U64), played=z(dtype=U64), kitty=z(dtype=U64), best=z() - 1,
            lead_suit=z(), leader=z(), position=z(), trick_number=z(), current=z(),
            phase=np.full(batch, DONE, np.int64), pass_decisions=z(), pass_offset=z(),
            pass_direction=z(), dealer=z(), deal_index=z(), totals=z(p), deal_points=z(p),
            chips=z(p, dtype=np.float64), pool=z(dtype=np.float64), game_over=np.ones(batch, bool),
            moon_shooter=z() - 1,
        )  # fmt: skip

    def shuffled_hands(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """Random deals: hand masks (batch, P) and kitty masks (batch,)."""
        n, h = self.num_players, self.hand_size
        order = np.argsort(rng.random((batch, len(self.deck_cards))), axis=1)
        cards = self.deck_cards[order]  # (batch, deck)
        hands = np.bitwise_or.reduce(BIT[cards[:, : n * h]].reshape(batch, n, h), axis=2)
        kitty = np.bitwise_or.reduce(BIT[cards[:, n * h :]], axis=1) if n * h < len(cards) else None
        return hands, (kitty if kitty is not None else np.zeros(batch, U64))

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
        s.totals[rows] = np.where(new_game[:, None], 0, s.totals[rows])
        s.pool[rows] = np.where(new_game, 0.0, s.pool[rows])
        s.deal_index[rows] = np.where(new_game, 0, s.deal_index[rows] + 1)
        s.dealer[rows] = np.where(new_game, 0, (s.dealer[rows] + 1) % p)
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
        for name in ("taken", "played_by", "chosen", "received"):
            getattr(s, name)[rows] = ZERO
        s.trick_mask[rows] = ZERO
        s.played[rows] = ZERO
        for name in ("voids", "points", "tricks_won", "position", "trick_number", "pass_decisions"):
            getattr(s, name)[rows] = 0
        s.trick[rows] = EMPTY
        s.best[rows] = -1
        s.game_over[rows] = False
        s.moon_shooter[rows] = -1
        passing = s.pass_offset[rows] != 0
        s.phase[rows] = np.where(passing, PASSING, PLAYING)
        s.current[rows] = (s.dealer[rows] + 1) % p
        if not passing.all():
            self._start_play(s, rows[~passing])

    def _start_play(self, s: State, rows: np.ndarray) -> None:
        """After the pass: the first leader (lowest club's holder, or eldest hand) is to act."""
        s.phase[rows] = PLAYING
        if self.rules.first_lead == "eldest":
            s.leader[rows] = (s.dealer[rows] + 1) % self.num_players
        else:
            held = np.bitwise_or.reduce(s.hands[rows], axis=1) & SUIT_MASK[CLUBS]
            lowest = held & (~held + U64(1))
            s.leader[rows] = np.argmax((s.hands[rows] & lowest[:, None]) != 0, axis=1)
        s.current[rows] = s.leader[rows]

    # ------------------------------------------------------------------ legal cards
    def legal(self, s: State) -> np.ndarray:
        """Legal cards of the acting seat of every game, as a (B,) uint64 mask (0 when done)."""
        batch = np.arange(len(s.current))
        hand = s.hands[batch, s.current]
        legal = np.where(s.phase == PASSING, hand & ~s.chosen[batch, s.current], ZERO)
        playing = s.phase == PLAYING
        if playing.any():
            legal = np.where(playing, self._legal_play(s, hand), legal)
        return legal

    def _legal_play(self, s: State, hand: np.ndarray) -> np.ndarray:
        r = self.rules
        leading = s.position == 0
        first_trick = s.trick_number == 0
        lead_suit_cards = SUIT_MASK[np.minimum(s.lead_suit, 3)]
        must_follow = hand & lead_suit_cards
        void = ~leading & (must_follow == ZERO)
        legal = np.where(must_follow != ZERO, must_follow, hand)  # following
        if leading.any():
            lead = hand
            if r.hearts_break != "free":
                unbroken = (s.played & self.breaks) == ZERO
                allowed = hand & ~self.lead_ban
                if r.lead_hearts_if_only_queen:
                    unbroken &= (hand & ~self.hearts) != self.queen
                lead = np.where(unbroken & (allowed != ZERO), allowed, hand)
            if r.first_lead != "eldest":
                opening = first_trick & leading
                if opening.any():
                    clubs = hand & SUIT_MASK[CLUBS]
                    forced = clubs & (~clubs + U64(1)) if r.first_lead == "lowest_club" else clubs
                    lead = np.where(opening, forced, lead)
            legal = np.where(leading, lead, legal)
        if r.no_points_first_trick and first_trick.any():
            clean = legal & ~self.penalty
            legal = np.where(first_trick & (clean != ZERO), clean, legal)
        if self.discard_first is not None:
            legal = np.where(void & ((legal & self.discard_first) != ZERO), self.discard_first, legal)
        if r.club_play:
            headed = (s.lead_suit == SPADES) & ((s.trick_mask & _ACE_KING_OF_SPADES) != ZERO) & ~leading
            must = (void | headed) & ((legal & self.queen) != ZERO)
            legal = np.where(must, self.queen, legal)
        return legal

    def legal_mask(self, s: State) -> np.ndarray:
        """Legal actions of the acting seats as int8 (B, num_actions)."""
        from hearts_env.bits import unpack

        return unpack(self.legal(s), self.num_actions).view(np.int8)

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
    def step(self, s: State, actions: np.ndarray, check: bool = True) -> np.ndarray:
        """Play one decision (a card index) in every game not yet DONE; returns the (B,) bool
        mask of games whose deal ended in this step. Illegal actions raise ``ValueError`` and
        change nothing when ``check`` is true."""
        actions = np.asarray(actions, dtype=np.int64)
        bits = BIT[np.clip(actions, 0, 64)]
        if check:
            bad = (self.legal(s) & bits) == ZERO
            bad &= s.phase != DONE
            bad |= (actions < 0) | (actions >= self.num_actions)
            bad &= s.phase != DONE
            if bad.any():
                g = int(np.flatnonzero(bad)[0])
                raise ValueError(self.explain_illegal(s, g, int(actions[g])))
        phase = s.phase
        passing = phase == PASSING
        playing = phase == PLAYING
        ended = np.zeros(len(phase), bool)
        if passing.all():
            self._step_pass(s, slice(None), bits)
        elif passing.any():
            rows = np.flatnonzero(passing)
            self._step_pass(s, rows, bits[rows])
        if playing.all():
            ended = self._step_play(s, np.arange(len(phase)), actions, bits)
        elif playing.any():
            rows = np.flatnonzero(playing)
            ended[rows] = self._step_play(s, rows, actions[rows], bits[rows])
        return ended

    def _step_pass(self, s: State, rows: np.ndarray | slice, bits: np.ndarray) -> None:
        p = self.num_players
        seat = s.current[rows]
        all_rows = np.arange(len(s.current))[rows]
        s.chosen[all_rows, seat] |= bits
        done = s.pass_decisions[rows] + 1
        s.pass_decisions[rows] = done
        s.current[rows] = (s.dealer[rows] + 1 + done // self.rules.pass_count) % p
        if (done == self.pass_decisions_per_deal).any():
            finished = all_rows[done == self.pass_decisions_per_deal]
            self._exchange(s, finished)

    def _exchange(self, s: State, rows: np.ndarray) -> None:
        """Every seat gives its chosen cards to seat + offset."""
        p = self.num_players
        giver = (np.arange(p)[None, :] - s.pass_offset[rows][:, None]) % p  # (k, P)
        incoming = np.take_along_axis(s.chosen[rows], giver, axis=1)
        s.hands[rows] = (s.hands[rows] & ~s.chosen[rows]) | incoming
        s.received[rows] = incoming
        self._start_play(s, rows)

    def _step_play(self, s: State, rows: np.ndarray, cards: np.ndarray, bits: np.ndarray) -> np.ndarray:
        p = self.num_players
        seat = s.current[rows]
        s.hands[rows, seat] ^= bits
        s.played_by[rows, seat] |= bits
        s.played[rows] |= bits
        s.trick_mask[rows] |= bits
        position = s.position[rows]
        s.trick[rows, position] = cards
        suit = SUIT_OF[cards]
        leading = position == 0
        lead_suit = np.where(leading, suit, s.lead_suit[rows])
        s.lead_suit[rows] = lead_suit
        in_suit = suit == lead_suit
        s.voids[rows, seat] |= np.where(in_suit, 0, 1 << np.minimum(lead_suit, 7)).astype(np.uint8)
        key = np.where(in_suit, cards * 16 + seat, -1)
        s.best[rows] = np.maximum(np.where(leading, -1, s.best[rows]), key)
        s.position[rows] = position + 1
        s.current[rows] = (seat + 1) % p
        ended = np.zeros(len(rows), bool)
        complete = position + 1 == p
        if complete.all():
            ended = self._end_trick(s, rows)
        elif complete.any():
            ended[complete] = self._end_trick(s, rows[complete])
        return ended

    def _end_trick(self, s: State, rows: np.ndarray) -> np.ndarray:
        """trick_winner takes the trick (and, on trick one, the kitty) and leads next."""
        winner = s.best[rows] & 15
        first = s.trick_number[rows] == 0
        won = s.trick_mask[rows] | np.where(first, s.kitty[rows], ZERO)
        s.taken[rows, winner] |= won
        trick_points = self.card_points[s.trick[rows]].sum(axis=1)
        if first.any():
            trick_points = trick_points + np.where(first, self._mask_points(s.kitty[rows]), 0)
        s.points[rows, winner] += trick_points
        s.tricks_won[rows, winner] += 1
        s.leader[rows] = winner
        s.current[rows] = winner
        s.position[rows] = 0
        s.trick[rows] = EMPTY
        s.trick_mask[rows] = ZERO
        s.best[rows] = -1
        s.trick_number[rows] += 1
        last = s.trick_number[rows] == self.hand_size
        if last.any():
            self.end_deal(s, rows[last])
        return last

    def _mask_points(self, masks: np.ndarray) -> np.ndarray:
        if not masks.any():
            return np.zeros(len(masks), np.int64)
        from hearts_env.bits import unpack

        return unpack(masks, 54).astype(np.int64) @ self.card_points[:54]

    def end_deal(self, s: State, rows: np.ndarray, forfeit: np.ndarray | None = None) -> None:
        """Score the deal in games ``rows`` and mark them DONE.

        ``forfeit`` (seats, one per row) ends the deal at once for an illegal action under
        ``illegal_action="terminate"``: that seat is charged the deal's maximum penalty.
        """
        if forfeit is None:
            points, shooter = scoring.deal_points(
                self.rules, s.taken[rows], s.points[rows], s.tricks_won[rows], s.totals[rows]
            )
        else:
            points = np.zeros((len(rows), self.num_players), np.int64)
            points[np.arange(len(rows)), forfeit] = self.rules.penalty_total
            shooter = np.full(len(rows), -1)
        s.deal_points[rows] = points
        s.moon_shooter[rows] = shooter
        chips, s.pool[rows] = scoring.settle_deal(self.rules, points, s.taken[rows], s.pool[rows])
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

    def forfeit(self, s: State, rows: np.ndarray) -> None:
        """End the deal in ``rows``: the acting seat played illegally (``terminate`` option)."""
        self.end_deal(s, rows, forfeit=s.current[rows])

    # ------------------------------------------------------------------ small views
    def hearts_broken(self, s: State) -> np.ndarray:
        """(B,) bool: a card that breaks hearts has been played this deal."""
        return (s.played & self.breaks) != ZERO

    def cards_left(self, s: State) -> np.ndarray:
        """(B, P) cards still in each hand."""
        return popcount(s.hands).astype(np.int64)

    def first_lead_card(self, s: State) -> np.ndarray:
        """(B,) the lowest club held by anyone (the forced first lead), -1 if none."""
        held = np.bitwise_or.reduce(s.hands, axis=1) & SUIT_MASK[CLUBS]
        return np.where(held != ZERO, lowest_bit(np.where(held != ZERO, held, U64(1))), -1)
