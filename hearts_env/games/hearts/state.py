"""The batch state of the Hearts-family engine: one record of arrays, every field with a leading
batch axis (B games): the fields every family has (:class:`hearts_env.core.engine.BatchState`), then the
Hearts family's own.

It sits below the engine (:mod:`hearts_env.games.hearts.engine`, which steps it) and the modules the engine
calls (:mod:`~hearts_env.games.hearts.decisions`, :mod:`~hearts_env.games.hearts.stock`), so they all name one
type without
importing one another. Hands, cards taken and cards played are ``uint64`` bitmasks (bit ``c`` =
card ``c``); with two decks each card set has a second word (``*_hi``, :mod:`hearts_env.core.cardsets`).
The phase codes are :mod:`hearts_env.core.phases`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from hearts_env.core.engine import BatchState
from hearts_env.core.phases import DONE, PASSING, PLAYING

__all__ = ["DONE", "PASSING", "PLAYING", "State"]


@dataclass
class State(BatchState):
    """Arrays of B Hearts-family games (besides :class:`~hearts_env.core.engine.BatchState`'s). Shapes:
    ``(B,)`` or ``(B, P)`` with P players (seats, not relative)."""

    chosen: np.ndarray  # (B, P) uint64: cards each seat chose to pass (passed, after the exchange)
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
    position: np.ndarray  # (B,) int64: cards already in the current trick (pass decisions mod P)
    pass_decisions: np.ndarray  # (B,) int64: single-card pass decisions made so far
    pass_offset: np.ndarray  # (B,) int64: receiver = seat + offset (mod P); 0 = hold
    pass_direction: np.ndarray  # (B,) int64: index into rules.PASS_DIRECTIONS
    pool: np.ndarray  # (B,) float64: jackpot carried over
    first_trick_winner: np.ndarray  # (B,) int64: who won the first trick (and the kitty), -1 before;
    # with cancellation the taker of the kitty: the winner of the first trick not cancelled
    all_penalty: np.ndarray  # (B,) bool: a hand held only penalty cards at the start of play
    uncounted: np.ndarray  # (B,) uint64: penalty cards scoring nothing (first_trick_all_penalty)
    set_aside: np.ndarray  # (B,) uint64: the first trick, set aside for the lowest scorer
    decisions_made: np.ndarray  # (B,) int64: decisions so far in the declare / bid round
    bidder: np.ndarray  # (B,) int64: the declarer (Général, slam) or the auction's winner, -1 if none
    high_bid: np.ndarray  # (B,) int64: the highest bid so far (auction), 0 if none
    penalty_suit: np.ndarray  # (B,) int64: the suit that scores (auction; hearts otherwise)
    partner: np.ndarray  # (B,) int64: the slam bidder's silent partner, -1 if none
    moon_choice: np.ndarray  # (B,) int64: the shooter's choice, 0 add / 1 subtract, -1 not made
    decision_log: np.ndarray  # (B, P) uint64: bit k = decision k made by that seat this deal
    trick_size: np.ndarray  # (B,) int64: cards the current trick will hold (players in, Domino)
    # Two decks (rules.decks = 2): each card set above is (word, word_hi), word_hi the cards it
    # holds twice (hearts_env.core.cardsets). With one deck these stay 0 and nothing reads them.
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

    GAME_FIELDS: ClassVar[tuple[str, ...]] = ("totals", "pool")
    """A new game also empties the jackpot carried over (``settlement="jackpot"``)."""

    def lockstep_now(self) -> bool:
        """Every game passes or plays (none is DONE or deciding) at the same ``position``: the
        engine then treats the position as one number for the whole batch. ``position`` counts
        decisions modulo P in the pass as well as cards in the trick, and every deal is a
        multiple of P decisions, so games started together stay in lockstep whatever their pass
        directions. Never with ``per_game`` rules (Domino's tricks vary in size, two decks cancel
        pairs)."""
        return bool((self.position == self.position[0]).all() and (self.phase <= PLAYING).all())
