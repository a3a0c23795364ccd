"""Domino Hearts' stock: draws, drop-outs and the last holder (docs/rules.md, ``stock_deal``).

A player who must follow and holds no card of the suit led draws from the top of the stock
until he draws one or the stock is empty (chance, never a decision); a player whose hand is
empty is out for the rest of the deal and the turn skips him; when at most one player is still
in, he takes his hand and the rest of the stock (nobody in: the last trick's winner takes the
stock). Every function works on the games ``rows`` of a :class:`~hearts_env.games.hearts.state.State`.
"""

from __future__ import annotations

import numpy as np

from hearts_env.core.bits import BIT, SUIT_MASK, SUIT_OF, U64, ZERO, unpack
from hearts_env.games.hearts.state import State


def stock_order(kitty: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """(B, size) int64: the cards of each ``kitty`` mask (B,) in a random draw order."""
    cards = unpack(kitty, 64).astype(bool)  # (B, 64)
    keys = np.where(cards, rng.random(cards.shape), 2.0)
    return np.argsort(keys, axis=1, kind="stable")[:, :size].astype(np.int64)


def next_in(s: State, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """(k,) the first seat after ``seat`` (clockwise) still holding cards (``seat`` itself if
    nobody else does)."""
    p = s.hands.shape[1]
    order = (seat[:, None] + 1 + np.arange(p)[None, :]) % p  # (k, P)
    holding = np.take_along_axis(s.hands[rows], order, axis=1) != ZERO
    return np.where(holding.any(axis=1), order[np.arange(len(rows)), np.argmax(holding, axis=1)], seat)


def draw_to_follow(s: State, rows: np.ndarray) -> None:
    """The acting seat of each game in ``rows`` (following, not leading) draws until it can
    follow the suit led or the stock is empty."""
    seat = s.current[rows]
    hand = s.hands[rows, seat]
    lead = s.lead_suit[rows]
    size = s.stock.shape[1]
    need = (s.position[rows] > 0) & ((hand & SUIT_MASK.take(lead, mode="clip")) == ZERO)
    need &= s.stock_pos[rows] < size
    if not need.any():
        return
    rows, seat, lead = rows[need], seat[need], lead[need]
    stock, pos = s.stock[rows], s.stock_pos[rows]  # (k, S), (k,)
    index = np.arange(size)[None, :]
    ahead = index >= pos[:, None]
    fits = ahead & (SUIT_OF.take(stock) == lead[:, None])
    last = np.where(fits.any(axis=1), np.argmax(fits, axis=1), size - 1)  # the last card drawn
    taken = ahead & (index <= last[:, None])
    drawn = np.bitwise_or.reduce(np.where(taken, BIT.take(stock), ZERO), axis=1)
    s.hands[rows, seat] |= drawn
    s.held[rows, seat] |= drawn
    s.stock_pos[rows] = last + 1


def remaining(s: State, rows: np.ndarray) -> np.ndarray:
    """(k,) uint64: the cards still in the stock."""
    size = s.stock.shape[1]
    left = np.arange(size)[None, :] >= s.stock_pos[rows][:, None]
    return np.bitwise_or.reduce(np.where(left, BIT.take(s.stock[rows]), ZERO), axis=1, initial=U64(0))
