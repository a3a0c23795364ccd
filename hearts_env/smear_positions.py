"""Smear positions: start a Smear deal from any point of its play, not only from the deal.

The Hearts family's positions (:mod:`hearts_env.positions`) have Smear's counterpart here, as
arrays: :class:`SmearPositionBatch` holds K positions of the play phase (the bids made, the
pitcher and trumps known, the discards and draws done), by absolute seat. A card is in exactly
one place: a hand, played (the current trick's cards included), thrown away (discards, the
non-trumps thrown before a draw, a dead blind), or the stock not yet drawn. ``taken`` says who
won the cards of the finished tricks.

:meth:`hearts_env.Table.set_position` starts every game of a Smear table from a batch (checked
by :func:`check_batch`, whose errors name what is inconsistent), :meth:`hearts_env.Table.position`
reads one game back as a batch of one. The trick in progress is played again on the engine
from its leader, so the suit led, the plays left in a turn (nine-card Smear's extra trumps on
the first trick) and the legality of each card are the engine's own. The search agent
``pimc`` builds these from sampled worlds (:func:`hearts_env.smear_worlds.world_positions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

import numpy as np

from hearts_env.bits import BIT, EMPTY, U64, ZERO
from hearts_env.cards import card_symbol, cards_of
from hearts_env.phases import PLAYING
from hearts_env.rules import Rules


@dataclass(frozen=True)
class SmearPositionBatch:
    """K Smear positions in play, absolute seats (P players), card sets ``uint64`` masks.

    ``played`` holds every card a seat has played this deal, the current trick's included;
    ``trick`` the current trick's cards in play order (``EMPTY`` = 64 after the last one),
    ``trick_seats`` who played each (-1 after the last), ``leader`` who led it (who leads next
    when it is empty). ``bids`` are decision indices (``rules.decisions``; -1 never bid) and
    ``trumps`` a suit 0-3 (♣ ♦ ♥ ♠), -1 while the first lead is still to name them. ``stock``
    is the undealt cards in draw order, ``stock_pos`` how many are drawn; ``thrown`` every card
    out of play by the seat that put it out (the stock's own cards excepted).
    """

    hands: np.ndarray  # (K, P) uint64
    played: np.ndarray  # (K, P) uint64
    thrown: np.ndarray  # (K, P) uint64
    received: np.ndarray  # (K, P) uint64
    taken: np.ndarray  # (K, P) uint64
    trick: np.ndarray  # (K, L) int64, EMPTY padded
    trick_seats: np.ndarray  # (K, L) int64, -1 padded
    leader: np.ndarray  # (K,) int64
    trick_number: np.ndarray  # (K,) int64: finished tricks
    trumps: np.ndarray  # (K,) int64
    pitcher: np.ndarray  # (K,) int64
    high_bid: np.ndarray  # (K,) int64: the winning bid's value (the moon: rules.moon_value)
    bids: np.ndarray  # (K, P) int64
    dealer: np.ndarray  # (K,) int64
    deal_index: np.ndarray  # (K,) int64
    totals: np.ndarray  # (K, P) int64: each seat's side's game total
    stock: np.ndarray  # (K, S) int64
    stock_pos: np.ndarray  # (K,) int64

    def __len__(self) -> int:
        return len(self.leader)

    def take(self, rows: np.ndarray) -> SmearPositionBatch:
        """The positions at ``rows`` (copies)."""
        return SmearPositionBatch(**{f.name: getattr(self, f.name)[rows].copy() for f in fields(self)})

    @staticmethod
    def concat(parts: Sequence[SmearPositionBatch]) -> SmearPositionBatch:
        """The positions of ``parts`` one after another."""
        return SmearPositionBatch(
            **{
                f.name: np.concatenate([getattr(part, f.name) for part in parts])
                for f in fields(SmearPositionBatch)
            }
        )

    def with_fields(self, **changes: np.ndarray) -> SmearPositionBatch:
        """A copy with some fields replaced."""
        return replace(self, **changes)


def position_of(engine: object, s: object, games: np.ndarray | int) -> SmearPositionBatch:
    """The positions of ``games`` of a Smear state now (``ValueError`` unless each is in play)."""
    rows = np.atleast_1d(np.asarray(games, np.int64))
    bad = rows[s.phase[rows] != PLAYING]
    if len(bad):
        raise ValueError(f"game {int(bad[0])} is not in its play phase: a position is of a deal in play")
    trick = s.trick_cards[rows].copy()
    return SmearPositionBatch(
        hands=s.hands[rows].copy(), played=s.played[rows].copy(),
        thrown=s.thrown[rows].copy(), received=s.received[rows].copy(), taken=s.taken[rows].copy(),
        trick=trick, trick_seats=s.trick_seats[rows].copy(), leader=s.leader[rows].copy(),
        trick_number=s.trick_number[rows].copy(), trumps=s.trumps[rows].copy(),
        pitcher=s.pitcher[rows].copy(),
        high_bid=s.high_bid[rows].copy(), bids=s.bids[rows].copy(), dealer=s.dealer[rows].copy(),
        deal_index=s.deal_index[rows].copy(), totals=s.totals[rows].copy(), stock=s.stock[rows].copy(),
        stock_pos=s.stock_pos[rows].copy(),
    )  # fmt: skip


def check_batch(rules: Rules, pos: SmearPositionBatch) -> None:
    """``ValueError`` naming the first position of ``pos`` that no Smear deal of ``rules`` can
    reach (a card in two places or in none, a card outside the deck, a trick out of turn,
    taken cards that are not the finished tricks', a pitcher or trumps out of range)."""
    p, k = rules.num_players, len(pos)
    deck = U64(rules.deck_mask)
    shapes = {"hands": (k, p), "played": (k, p), "thrown": (k, p), "received": (k, p), "taken": (k, p),
              "bids": (k, p), "totals": (k, p), "stock": (k, rules.stock_size)}  # fmt: skip
    for name, shape in shapes.items():
        if getattr(pos, name).shape != shape:
            raise ValueError(f"{name} must have shape {shape} here, got {getattr(pos, name).shape}")
    stock_cards = np.zeros(k, U64)
    for j in range(rules.stock_size):
        live = np.arange(rules.stock_size)[j] >= pos.stock_pos
        card = pos.stock[:, j]
        stock_cards |= np.where(live & (card != EMPTY), BIT.take(np.where(card == EMPTY, 64, card)), ZERO)
    places = [("a hand", pos.hands), ("played", pos.played), ("thrown away", pos.thrown)]
    for g in range(k):
        where: dict[int, str] = {}
        for label, sets in places:
            for seat in range(p):
                for card in cards_of(int(sets[g, seat])):
                    if card in where:
                        raise ValueError(
                            f"position {g}: {card_symbol(card)} is both {where[card]} and {label} "
                            f"(seat {seat})"
                        )
                    where[card] = f"{label} (seat {seat})"
        for card in cards_of(int(stock_cards[g])):
            if card in where:
                raise ValueError(f"position {g}: {card_symbol(card)} is both {where[card]} and in the stock")
            where[card] = "in the stock"
        placed = sum(1 << c for c in where)
        if placed & ~int(deck):
            extra = [card_symbol(c) for c in cards_of(placed & ~int(deck))]
            raise ValueError(f"position {g}: cards not in this deck: {extra}")
        if placed != int(deck):
            missing = [card_symbol(c) for c in cards_of(int(deck) & ~placed)]
            raise ValueError(f"position {g}: cards in no place (hand, played, thrown, stock): {missing}")
        if not 0 <= int(pos.pitcher[g]) < p:
            raise ValueError(
                f"position {g}: the pitcher must be a seat 0..{p - 1}, got {int(pos.pitcher[g])}"
            )
        if not -1 <= int(pos.trumps[g]) < 4:
            raise ValueError(f"position {g}: trumps must be a suit 0..3 (or -1), got {int(pos.trumps[g])}")
        if int(pos.trumps[g]) < 0 and (rules.trumps != "first_lead" or pos.played[g].any()):
            raise ValueError(f"position {g}: trumps are known once play has begun")
        trick = [int(c) for c in pos.trick[g] if c != EMPTY]
        seats = [int(q) for q in pos.trick_seats[g][: len(trick)]]
        for card, seat in zip(trick, seats):
            if not 0 <= seat < p or not int(pos.played[g, seat]) >> card & 1:
                raise ValueError(
                    f"position {g}: {card_symbol(card)} of the trick must be among seat {seat}'s played cards"
                )
        if seats and seats[0] != int(pos.leader[g]):
            raise ValueError(
                f"position {g}: the trick's first card must be the leader's (seat {int(pos.leader[g])})"
            )
        finished = int(np.bitwise_or.reduce(pos.played[g])) & ~sum(1 << c for c in trick)
        taken = int(np.bitwise_or.reduce(pos.taken[g]))
        if taken != finished or sum(bin(int(t)).count("1") for t in pos.taken[g]) != bin(taken).count("1"):
            raise ValueError(
                f"position {g}: the cards taken must be the finished tricks' cards, each taken once "
                f"(finished {[card_symbol(c) for c in cards_of(finished)]})"
            )
        if finished and not pos.trick_number[g]:
            raise ValueError(f"position {g}: tricks are finished, so trick_number must be at least 1")
