"""The batch state of the Hearts-family engine: one record of arrays, every field with a leading
batch axis (B games), and the phase codes every module that reads or steps it shares.

It sits below the engine (:mod:`hearts_env.engine`, which steps it) and the modules the engine
calls (:mod:`hearts_env.decisions`, :mod:`hearts_env.stock`), so they all name one type without
importing one another. Hands, cards taken and cards played are ``uint64`` bitmasks (bit ``c`` =
card ``c``); with two decks each card set has a second word (``*_hi``, :mod:`hearts_env.cardsets`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

import numpy as np

PASSING, PLAYING, DONE = 0, 1, 2
"""Values of ``State.phase`` (the decision phases, 3 and up, are in :mod:`hearts_env.decisions`)."""

_FLAGS = ("lockstep", "all_playing", "per_game")
"""State fields that are derived flags, not arrays of games."""


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
    last_winner: np.ndarray  # (B,) int64: who won (took) the previous trick, -1 before the first
    # or when it was cancelled; not always the next leader (Domino: a winner out of cards)
    last_cancelled: np.ndarray  # (B,) bool: the previous trick was cancelled (two decks)
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
    first_trick_winner: np.ndarray  # (B,) int64: who won the first trick (and the kitty), -1 before;
    # with cancellation the taker of the kitty: the winner of the first trick not cancelled
    all_penalty: np.ndarray  # (B,) bool: a hand held only penalty cards at the start of play
    uncounted: np.ndarray  # (B,) uint64: penalty cards scoring nothing (first_trick_all_penalty)
    set_aside: np.ndarray  # (B,) uint64: the first trick, set aside for the lowest scorer
    cancelled: np.ndarray  # (B,) bool: the deal was cancelled (first_trick_all_penalty="redeal")
    decisions_made: np.ndarray  # (B,) int64: decisions so far in the declare / bid round
    bidder: np.ndarray  # (B,) int64: the declarer (Général, slam) or the auction's winner, -1 if none
    high_bid: np.ndarray  # (B,) int64: the highest bid so far (auction), 0 if none
    penalty_suit: np.ndarray  # (B,) int64: the suit that scores (auction; hearts otherwise)
    partner: np.ndarray  # (B,) int64: the slam bidder's silent partner, -1 if none
    moon_choice: np.ndarray  # (B,) int64: the shooter's choice, 0 add / 1 subtract, -1 not made
    decision_log: np.ndarray  # (B, P) uint64: bit k = decision k made by that seat this deal
    team_points: np.ndarray  # (B, P) int64: each seat's team's points of the last finished deal
    stock: np.ndarray  # (B, S) int64: Domino Hearts' stock in draw order (S = 0 without one)
    stock_pos: np.ndarray  # (B,) int64: cards already drawn from the stock
    trick_size: np.ndarray  # (B,) int64: cards the current trick will hold (players in, Domino)
    # Two decks (rules.decks = 2): each card set above is (word, word_hi), word_hi the cards it
    # holds twice (hearts_env.cardsets). With one deck these stay 0 and nothing reads them.
    hands_hi: np.ndarray  # (B, P) uint64
    taken_hi: np.ndarray  # (B, P) uint64
    held_hi: np.ndarray  # (B, P) uint64
    chosen_hi: np.ndarray  # (B, P) uint64
    received_hi: np.ndarray  # (B, P) uint64
    kitty_hi: np.ndarray  # (B,) uint64
    trick_pairs: np.ndarray  # (B,) uint64: cards played twice to the current trick (they cancel)
    carried: np.ndarray  # (B,) uint64: cancelled tricks' cards (and a cancelled first trick's
    # kitty), for the next trick's winner; after the last trick, the cards that went to nobody
    carried_hi: np.ndarray  # (B,) uint64
    loads_without: ClassVar[dict[str, object]] = {"last_winner": -1, "last_cancelled": False}
    """Fields added after states were first saved: a saved state without them loads, with these
    values (no trick on record), see :meth:`hearts_env.table.Table.load_state_dict`."""
    lockstep: bool = False
    """Every game passes or plays (none is DONE or deciding) at the same ``position``: the engine treats the
    position as one number for the whole batch. ``position`` counts decisions modulo P in the
    pass as well as cards in the trick, and every deal is a multiple of P decisions, so games
    started together stay in lockstep whatever their pass directions. See :meth:`sync`."""

    def array_fields(self) -> list[str]:
        """Names of the array fields (everything but the ``lockstep`` flags)."""
        return [f.name for f in fields(self) if f.name not in _FLAGS]

    def copy(self) -> State:
        """A deep copy (arrays copied)."""
        part = State(**{name: getattr(self, name).copy() for name in self.array_fields()})
        part.lockstep, part.all_playing, part.per_game = self.lockstep, self.all_playing, self.per_game
        return part

    def take(self, rows: np.ndarray) -> State:
        """The games at ``rows`` as a new state."""
        part = State(**{name: getattr(self, name)[rows].copy() for name in self.array_fields()})
        part.per_game = self.per_game
        part.sync()
        return part

    def put(self, rows: np.ndarray, other: State) -> None:
        """Overwrite the games at ``rows`` with ``other``'s."""
        for name in self.array_fields():
            getattr(self, name)[rows] = getattr(other, name)
        self.sync()

    all_playing: bool = False
    """Every game is in the play phase (kept by the engine; see ``lockstep``)."""
    per_game: bool = False
    """These rules never run in lockstep (Domino's tricks vary in size, two decks cancel pairs):
    :meth:`sync` then keeps ``lockstep`` off."""

    def sync(self) -> None:
        """Recompute ``lockstep`` (call after changing some games but not others)."""
        self.lockstep = not self.per_game and bool(
            (self.position == self.position[0]).all() and (self.phase <= PLAYING).all()
        )
        self.all_playing = bool((self.phase == PLAYING).all())
