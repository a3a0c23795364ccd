"""The trick-taking core under both engines: what a batch of card games needs whatever its rules.

Each family's engine (:class:`hearts_env.games.hearts.Engine`, :class:`hearts_env.games.smear.Engine`)
is a :class:`CardEngine` and steps a :class:`BatchState`; the rules themselves (legal cards,
trick winners, scoring) stay in the family's engine. What lives here, once:

=====================  =======================================================================
piece                  what it does
=====================  =======================================================================
batch state            :class:`BatchState`: arrays with a leading batch axis, ``take`` /
                       ``put`` / ``copy``, the fields every family's deal has (hands, the
                       acting seat, the phase, dealer, totals, the deal's result)
dealing                :meth:`CardEngine.random_hands`, :meth:`CardEngine.shuffled_hands`
dealer rotation        :meth:`CardEngine.rotate_dealer`: a new game, the next deal, or the
                       same dealer again after a cancelled deal
next active seat       :func:`next_where`: the first seat clockwise that is still in
the step prologue      :meth:`CardEngine.step`: check the actions (explained when illegal),
                       then the family's :meth:`~CardEngine.advance`
decision phases        :class:`DecisionPhase` (a phase's legal decisions and its step, as
                       data), :meth:`CardEngine.legal_decisions`, :meth:`CardEngine.decide`
forfeits               :meth:`CardEngine.forfeit`: the acting seat played illegally
=====================  =======================================================================

The phase codes are :mod:`hearts_env.core.phases` (one vocabulary for every family).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

import numpy as np

from hearts_env.core.bits import BIT, EMPTY, U64, ZERO
from hearts_env.core.phases import PLAYING
from hearts_env.core.rules import Rules

_ACTION_BIT = np.concatenate([[0], BIT[:54], [0]]).astype(U64)


def action_bits(actions: np.ndarray) -> np.ndarray:
    """The card mask of each action (int64), 0 for an action that names no card (negative, or
    past the 54 card slots): ``legal & action_bits(a) == 0`` exactly when ``a`` is illegal."""
    return _ACTION_BIT.take(actions + 1, mode="clip")


def next_where(flags: np.ndarray, seat: np.ndarray, first: int = 1) -> np.ndarray:
    """(k,) the first seat clockwise from ``seat + first`` (``first=0``: the seat itself first)
    whose entry of ``flags`` (k, P) bool is set; ``seat`` itself where none is."""
    p = flags.shape[1]
    order = (seat[:, None] + first + np.arange(p)[None, :]) % p  # (k, P)
    holding = np.take_along_axis(flags, order, axis=1)
    return np.where(holding.any(axis=1), order[np.arange(len(seat)), np.argmax(holding, axis=1)], seat)


_DEAL_STARTS = (
    ("stock_pos", 0), ("taken", ZERO), ("received", ZERO), ("trick_number", 0), ("game_over", False),
    ("cancelled", False), ("moon_shooter", -1),
)  # fmt: skip
"""The shared fields a deal starts from (field, value)."""


def _shared() -> Any:
    """A field every family's state has, given by keyword (after the family's own fields)."""
    return field(kw_only=True)


@dataclass
class BatchState:
    """Arrays of B games, every field with a leading batch axis: the fields every family has.

    A family's state (:class:`hearts_env.games.hearts.State`, :class:`hearts_env.games.smear.State`)
    adds its own; seats are absolute (P players), card sets ``uint64`` bitmasks.
    """

    hands: np.ndarray = _shared()  # (B, P) uint64: cards in each hand
    held: np.ndarray = _shared()  # (B, P) uint64: each hand as play began
    taken: np.ndarray = _shared()  # (B, P) uint64: cards won in tricks
    received: np.ndarray = _shared()  # (B, P) uint64: cards each seat received (pass, widow, stock)
    current: np.ndarray = _shared()  # (B,) int64: seat to act
    phase: np.ndarray = _shared()  # (B,) int64: a code of hearts_env.core.phases
    leader: np.ndarray = _shared()  # (B,) int64: seat that led (or leads) the current trick
    lead_suit: np.ndarray = _shared()  # (B,) int64: the suit led
    trick_number: np.ndarray = _shared()  # (B,) int64: 0 = first trick
    dealer: np.ndarray = _shared()  # (B,) int64
    deal_index: np.ndarray = _shared()  # (B,) int64: deals finished before this one in the game
    stock: np.ndarray = _shared()  # (B, S) int64: undealt cards in draw order (S = 0 without any)
    stock_pos: np.ndarray = _shared()  # (B,) int64: undealt cards already drawn or taken
    totals: np.ndarray = _shared()  # (B, P) int64: game totals (a side's, where sides score)
    deal_points: np.ndarray = _shared()  # (B, P) int64: points of the last finished deal
    team_points: np.ndarray = _shared()  # (B, P) int64: each seat's team's points of that deal
    chips: np.ndarray = _shared()  # (B, P) float64: the settlement of that deal (0 without one)
    game_over: np.ndarray = _shared()  # (B,) bool: the last finished deal ended the game
    moon_shooter: np.ndarray = _shared()  # (B,) int64: who shot (or made) the moon, -1 if none
    cancelled: np.ndarray = _shared()  # (B,) bool: the last deal was cancelled (nobody scored)

    lockstep: bool = field(default=False, kw_only=True)
    """Every game passes or plays (none is DONE or deciding) at the same ``position``: the
    engine treats the position as one number for the whole batch (the Hearts family; see
    :meth:`hearts_env.games.hearts.state.State.sync`)."""
    all_playing: bool = field(default=False, kw_only=True)
    """Every game is in the play phase."""
    per_game: bool = field(default=False, kw_only=True)
    """These rules never run in lockstep: :meth:`sync` then keeps ``lockstep`` off."""

    FLAGS: ClassVar[tuple[str, ...]] = ("lockstep", "all_playing", "per_game")
    """The fields that are derived flags, not arrays of games."""
    GAME_FIELDS: ClassVar[tuple[str, ...]] = ("totals",)
    """The fields a new game starts at 0 (the rest of a game's progress is the dealer's)."""

    def array_fields(self) -> list[str]:
        """Names of the array fields (everything but the flags)."""
        return [f.name for f in fields(self) if f.name not in self.FLAGS]

    def copy(self) -> Any:
        """A deep copy (arrays copied), of the same type."""
        part = type(self)(**{name: getattr(self, name).copy() for name in self.array_fields()})
        for flag in self.FLAGS:
            setattr(part, flag, getattr(self, flag))
        return part

    def take(self, rows: np.ndarray) -> Any:
        """The games at ``rows`` as a new state of the same type."""
        part = type(self)(**{name: getattr(self, name)[rows].copy() for name in self.array_fields()})
        part.per_game = self.per_game
        part.sync()
        return part

    def put(self, rows: np.ndarray, other: BatchState) -> None:
        """Overwrite the games at ``rows`` with ``other``'s."""
        for name in self.array_fields():
            getattr(self, name)[rows] = getattr(other, name)
        self.sync()

    def lockstep_now(self) -> bool:
        """Whether the games are in lockstep now (the family's state says; never by default)."""
        return False

    def sync(self) -> None:
        """Recompute the flags (call after changing some games but not others)."""
        self.lockstep = not self.per_game and self.lockstep_now()
        self.all_playing = bool((self.phase == PLAYING).all())


@dataclass(frozen=True)
class DecisionPhase:
    """One phase that asks for a named decision: its ``legal`` bits for the games ``rows``
    (bit k = ``rules.decisions[k]``) and its ``step``, which applies decision ``choice`` (its
    position in ``rules.decisions``). Both take the engine first: a phase is data about the
    engine that runs it."""

    name: str
    legal: Callable[[Any, Any, np.ndarray], np.ndarray]
    step: Callable[[Any, Any, np.ndarray, np.ndarray], None]


class CardEngine:
    """The shell of a family's engine: rules compiled once, and the steps every family shares.

    A family's engine sets :attr:`decision_phases` and implements ``new_state``, ``deal``,
    ``legal``, ``illegal``, ``_explain`` (why an in-range action is illegal), :meth:`advance`
    (one legal action in every game) and ``score_forfeit``.
    """

    two_decks: bool = False
    """Card sets carry a second word (``*_hi``: the cards held twice)."""
    cancels_deals: bool = False
    """A deal may be cancelled before any decision (then dealt again by the same dealer)."""
    decision_phases: dict[int, DecisionPhase]
    """The decision phases these rules have, by phase code."""
    games: ClassVar[tuple[str, ...]]
    """The game families (``Rules.game``) whose rules this engine plays."""

    def __init__(self, rules: Rules) -> None:
        if rules.game not in self.games:
            games = self.games
            wanted = f"game={games[0]!r} rules" if len(games) == 1 else f"the rules of {' or '.join(games)}"
            raise ValueError(f"{type(self).__name__} needs {wanted}, got {rules.game!r}")
        self.rules = rules
        self.num_players = rules.num_players
        self.hand_size = rules.hand_size
        self.num_cards = rules.card_slots
        self.num_actions = len(rules.action_names)
        self.stock_size = rules.stock_size
        self.deck_cards = np.array(rules.deck.cards, dtype=np.int64)
        self._deck_bits = self.deck_cards.astype(U64)  # card indices (< 64) as sort-key low bits
        self.deck_mask = U64(rules.deck_mask)
        self.next_seat = (np.arange(self.num_players) + 1) % self.num_players

    # ------------------------------------------------------------------ what each family writes
    def new_state(self, batch: int) -> Any:
        """A zeroed state of ``batch`` games, every deal over (call :meth:`deal` before playing)."""
        raise NotImplementedError

    def start_deal(
        self, s: Any, rows: np.ndarray, hands: np.ndarray, kitty: np.ndarray, direction: np.ndarray | None
    ) -> None:
        """The family's part of :meth:`deal`: the hands, its own fields, the first phase."""
        raise NotImplementedError

    def hands_from_cards(self, hands: list[list[int | str]], kitty: list[int | str] | None = None) -> tuple:
        """A hand-written deal checked: one card set per seat, then the undealt cards'."""
        raise NotImplementedError

    def undealt_order(
        self, kitty: list[int | str] | None, stock: list[int | str] | None, undealt: int
    ) -> np.ndarray | None:
        """The hand-written undealt cards' order (None: the rules or the deal give none)."""
        raise NotImplementedError

    def legal(self, s: Any) -> np.ndarray:
        """(B,) uint64: the acting seats' legal cards (0 where a decision is asked or done)."""
        raise NotImplementedError

    def upgrade_saved(self, fields: dict[str, Any], batch: int) -> dict[str, Any]:
        """The fields of a state saved by the previous :data:`~hearts_env.table.STATE_VERSION`
        as this version's (``batch`` games); what the family's engine changed since."""
        return fields

    # ------------------------------------------------------------------ dealing
    def shuffled_hands(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """Random deals: hand masks (batch, P) and the undealt cards' masks (batch,) (the
        kitty, the widow and stock), from ``rng.permuted``; with two decks both words,
        ``[..., 0]`` and ``[..., 1]`` (see :func:`hearts_env.core.cardsets.stack`).

        Tournaments deal with this (their published results replay it); environments use the
        faster :meth:`random_hands`."""
        cards = rng.permuted(np.broadcast_to(self.deck_cards, (batch, len(self.deck_cards))), axis=1)
        return self.deal_in_order(cards)

    def random_hands(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """Random deals like :meth:`shuffled_hands`, about twice as fast: each card gets 58 random
        bits above its 6-bit index and one sort orders the deck (equal keys, the only source of
        bias, have probability below 1e-14 a deal)."""
        keys = rng.bit_generator.random_raw((batch, len(self.deck_cards)))
        keys &= ~U64(63)
        keys |= self._deck_bits
        keys.sort(axis=1)
        return self.deal_in_order((keys & U64(63)).view(np.int64))

    def deal_in_order(self, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hands dealt from shuffled decks (batch, cards): hand_size cards a seat in seat order,
        the rest undealt."""
        n, h, batch = self.num_players, self.hand_size, len(cards)
        hands = np.bitwise_or.reduce(BIT.take(cards[:, : n * h]).reshape(batch, n, h), axis=2)
        undealt = np.bitwise_or.reduce(BIT.take(cards[:, n * h :]), axis=1, initial=ZERO)
        return hands, undealt

    def deal(
        self, state: Any, rows: np.ndarray, hands: np.ndarray, kitty: np.ndarray, new_game: np.ndarray,
        dealer: np.ndarray | None = None, pass_direction: np.ndarray | None = None,
        stock_cards: np.ndarray | None = None,
    ) -> None:  # fmt: skip
        """Start a deal in games ``rows`` with the given hand masks (k, P) and the undealt
        cards' masks (k,) (the kitty); with two decks both words of each, (k, P, 2) and (k, 2)
        (:func:`hearts_env.core.cardsets.stack`). ``stock_cards`` (k, S) int64: the undealt cards'
        order where the rules draw from them (Domino Hearts' stock; Smear's widow first, then
        its stock).

        Games flagged in ``new_game`` start a new game (totals 0, deal 0, dealer 0); others move
        to their next deal (:meth:`rotate_dealer`). ``dealer`` / ``pass_direction`` (direction
        indices) override the game's own for this deal."""
        s = state
        self.rotate_dealer(s, rows, np.asarray(new_game, bool), dealer)
        if self.stock_size:
            if stock_cards is None:
                raise ValueError(
                    f"a deal of {self.rules.preset} draws from the undealt cards: give their order "
                    "(stock_cards)"
                )
            s.stock[rows] = stock_cards
        for name, value in _DEAL_STARTS:
            getattr(s, name)[rows] = value
        self.start_deal(s, rows, hands, kitty, pass_direction)

    def rotate_dealer(
        self, s: BatchState, rows: np.ndarray, new_game: np.ndarray, dealer: np.ndarray | None
    ) -> None:
        """Before a deal in ``rows``: games flagged in ``new_game`` start at 0 (totals, deal 0,
        dealer 0); the others move to their next deal and dealer, except after a cancelled deal
        (the same dealer deals again). ``dealer`` overrides the result for this deal. A new
        game zeroes the state's :attr:`~BatchState.GAME_FIELDS`."""
        moves_on = np.where(s.cancelled[rows], 0, 1)
        for name in s.GAME_FIELDS:
            values = getattr(s, name)
            values[rows] = np.where(new_game.reshape(-1, *(1,) * (values.ndim - 1)), 0, values[rows])
        s.deal_index[rows] = np.where(new_game, 0, s.deal_index[rows] + moves_on)
        s.dealer[rows] = np.where(new_game, 0, (s.dealer[rows] + moves_on) % self.num_players)
        if dealer is not None:
            s.dealer[rows] = dealer

    # ------------------------------------------------------------------ stepping
    def step(
        self, s: Any, actions: np.ndarray, check: bool = True, legal: np.ndarray | None = None
    ) -> np.ndarray:
        """Play one decision (an action index) in every game not yet DONE; returns the (B,) bool
        mask of games whose deal ended in this step. With ``check``, illegal actions raise
        ``ValueError`` naming the first one and why, and change nothing (``legal``, if given,
        is :meth:`legal` of ``s``)."""
        actions = np.asarray(actions, dtype=np.int64)
        bits = action_bits(actions)
        if check:
            bad = self.illegal(s, actions, legal, bits)
            if bad.any():
                g = int(np.flatnonzero(bad)[0])
                raise ValueError(self.explain_illegal(s, g, int(actions[g])))
        return self.advance(s, actions, bits)

    def advance(self, s: Any, actions: np.ndarray, bits: np.ndarray) -> np.ndarray:
        """The family's step of legal ``actions`` (``bits``: :func:`action_bits` of them)."""
        raise NotImplementedError

    def replay_trick(
        self,
        s: Any,
        rows: np.ndarray,
        trick: np.ndarray,
        seats: np.ndarray | None,
        check: bool,
        name: Callable[[int], str],
    ) -> None:
        """Play the trick in progress of the games ``rows`` again, card by card, for a family's
        ``set_positions``: ``trick`` (G, K) holds the cards in the order played (``EMPTY`` after
        the last), ``seats`` (G, K) who played each (None: the seats in turn from the leader). A
        card that its seat did not hold or play in turn, or (``check``) that the rules did not allow,
        is one ``ValueError`` naming the position and the card (``name``: a card's printed form)."""
        for j in range(trick.shape[1]):
            live = np.flatnonzero(trick[:, j] != EMPTY)
            if not len(live):
                break
            part = s.take(rows[live])
            cards = trick[live, j]
            holding = part.hands[np.arange(len(live)), part.current] & BIT.take(cards)
            wrong = holding == ZERO
            if seats is not None:
                wrong |= seats[live, j] != part.current
            if wrong.any():
                g = int(np.flatnonzero(wrong)[0])
                raise ValueError(
                    f"position {int(live[g])}: {name(int(cards[g]))} is card {j + 1} of the trick, "
                    f"but seat {int(part.current[g])} is to play it and did not"
                )
            bad = self.illegal(part, cards) if check else np.zeros(len(live), bool)
            if bad.any():
                g = int(np.flatnonzero(bad)[0])
                raise ValueError(f"position {int(live[g])}: {self.explain_illegal(part, g, int(cards[g]))}")
            self.advance(part, cards, BIT.take(cards))
            s.put(rows[live], part)

    def illegal(
        self, s: Any, actions: np.ndarray, legal: np.ndarray | None = None, bits: np.ndarray | None = None
    ) -> np.ndarray:
        """(B,) bool: the actions not legal for the acting seats (finished games never flagged)."""
        raise NotImplementedError

    def explain_illegal(self, s: Any, game: int, action: int) -> str:
        """Why ``action`` is illegal for the acting seat of ``game`` (for error messages)."""
        if not 0 <= action < self.num_actions:
            return f"seat {int(s.current[game])}: action {action} is out of range 0..{self.num_actions - 1}"
        return self._explain(s, game, action)

    def _explain(self, s: Any, game: int, action: int) -> str:
        """Why the in-range ``action`` is illegal in ``game`` (the family's own words)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ decision phases
    def legal_decisions(self, s: Any) -> np.ndarray:
        """(B,) uint64: the acting seats' legal decisions other than cards, bit k = decision k
        of ``rules.decisions`` (0 outside the decision phases)."""
        out = np.zeros(len(s.phase), U64)
        for code, phase in self.decision_phases.items():
            rows = np.flatnonzero(s.phase == code)
            if len(rows):
                out[rows] = phase.legal(self, s, rows)
        return out

    def decide(self, s: Any, rows: np.ndarray, actions: np.ndarray) -> None:
        """Apply the decisions ``actions`` (B,) of the games ``rows``, all in decision phases."""
        codes = s.phase[rows]
        for code in np.unique(codes).tolist():
            part = rows[codes == code]
            self.decision_phases[code].step(self, s, part, actions[part] - self.num_cards)

    # ------------------------------------------------------------------ forfeits
    def forfeit(self, s: Any, rows: np.ndarray) -> None:
        """End the deal in ``rows``: the acting seat played illegally (``terminate`` option);
        the family's :meth:`score_forfeit` charges it."""
        self.score_forfeit(s, rows, s.current[rows])

    def score_forfeit(self, s: Any, rows: np.ndarray, seats: np.ndarray) -> None:
        """Score the deals in ``rows`` forfeited by ``seats`` and end them (the family's rule)."""
        raise NotImplementedError
