"""Smear positions: start a Smear deal from any point of its play, not only from the deal.

The Hearts family's positions (:mod:`hearts_env.games.hearts.positions`) have Smear's counterpart here, as
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
``pimc`` builds these from sampled worlds (:func:`hearts_env.games.smear.worlds.world_positions`).

**What a position must be** (:func:`check_batch`, before anything changes; one ``TypeError`` or
``ValueError`` naming the position, the field, the value and what it should be):

* every field a numpy array of ints (card sets ``uint64``) of the rules' shape;
* seats (``leader``, ``pitcher``, ``dealer``, the trick's) in ``0..P-1``, ``trumps`` a suit
  (-1 only before Five-point's first lead), ``bids`` the rules' bid decisions, ``high_bid`` the
  pitcher's, ``deal_index`` and ``stock_pos`` in range, ``totals`` within ±:data:`MAX_TOTAL`
  and the same for partners;
* every card of the deck in exactly one place, the stock's undrawn cards included; the cards
  received (drawn) in their seat's hand, play or discards, no more than were drawn, and only
  by a seat the rules let draw; discards only where the rules make any;
* the hands the rules leave for play (``keep`` each where everybody discards to it; at most
  that in the widow game, the pitcher exactly), the cards each seat played in the finished
  tricks consistent with ``trick_number`` (one a trick while it holds a card; nine-card: one
  trump a trick, its extra trumps on the first), ``taken`` exactly the finished tricks' cards;
* the bids made in turn from the dealer's left, each one above the one before, the pitcher
  the last to bid; the first trick led by the pitcher (or the next seat still in), a later
  one by a seat in the deal (that took a trick, where every seat plays every trick);
* the trick in progress played again on the engine from its leader, each card in turn and
  legal, not complete (a finished trick's cards are ``taken``), and the seat to act holding a
  card it may play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache

import numpy as np

from hearts_env.core.bits import EMPTY, U64, ZERO
from hearts_env.core.cards import card_symbol, cards_of
from hearts_env.core.phases import PLAYING
from hearts_env.core.rules import Rules
from hearts_env.games.smear.engine import SmearEngine

MAX_TOTAL = 10**9
"""The largest game total (either sign) a position may carry: far beyond any game's, and far
from int64's overflow when a deal's points are added."""

_CARD_SETS = ("hands", "played", "thrown", "received", "taken")
"""The fields that are (K, P) ``uint64`` card sets."""


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

    Built with a numpy integer array for every field (``TypeError`` naming the field
    otherwise), one row per position; :func:`check_batch` checks the rest against the rules.
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

    def __post_init__(self) -> None:
        rows = None
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, np.ndarray):
                raise TypeError(
                    f"SmearPositionBatch.{f.name} must be a numpy array (one row per position), "
                    f"got {type(value).__name__}"
                )
            kind = value.dtype.kind
            if f.name in _CARD_SETS:
                if value.dtype != np.uint64:
                    raise TypeError(
                        f"SmearPositionBatch.{f.name} must be a uint64 array of card sets, "
                        f"got dtype {value.dtype}"
                    )
            elif kind not in "iu":
                raise TypeError(
                    f"SmearPositionBatch.{f.name} must be an array of ints, got dtype {value.dtype}"
                )
            ndim = (
                2
                if f.name in _CARD_SETS or f.name in ("trick", "trick_seats", "bids", "totals", "stock")
                else 1
            )
            if value.ndim != ndim:
                raise ValueError(
                    f"SmearPositionBatch.{f.name} must have {ndim} dimension(s) (positions first), "
                    f"got shape {value.shape}"
                )
            if rows is None:
                rows = len(value)
            elif len(value) != rows:
                raise ValueError(
                    f"SmearPositionBatch.{f.name} must have one row per position ({rows}), got {len(value)}"
                )

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
        """A copy with some fields replaced (``TypeError`` naming a field the batch has not)."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise TypeError(
                f"SmearPositionBatch has no field {unknown[0]!r}; its fields are "
                f"{', '.join(f.name for f in fields(self))}"
            )
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


@lru_cache(maxsize=16)
def _engine(rules: Rules) -> SmearEngine:
    """The engine of ``rules`` that :func:`check_batch` plays each trick in progress on (built
    once a rules set: its tables take a moment)."""
    return SmearEngine(rules)


def check_batch(rules: Rules, pos: SmearPositionBatch) -> None:
    """Refuse every position of ``pos`` that no Smear deal of ``rules`` can reach, before
    anything changes (the module says what a position must be): ``TypeError`` for a field of
    the wrong kind, ``ValueError`` naming the first position, the field, the value and what it
    should be. A batch that passes starts a table that plays it to the end of the deal."""
    if not isinstance(pos, SmearPositionBatch):
        raise TypeError(f"a Smear position is a SmearPositionBatch, got {type(pos).__name__}")
    if rules.game not in SmearEngine.games:
        raise ValueError(
            f"a SmearPositionBatch is a position of Smear, not of {rules.preset} (game={rules.game!r})"
        )
    engine = _engine(rules)
    _check_shapes(rules, engine, pos)
    _check_ranges(rules, engine, pos)
    for g in range(len(pos)):
        _Position(rules, engine, pos, g).check()
    _check_play(engine, pos)


def _check_shapes(rules: Rules, engine: SmearEngine, pos: SmearPositionBatch) -> None:
    p, k = rules.num_players, len(pos)
    shapes = {name: (k, p) for name in (*_CARD_SETS, "bids", "totals")}
    shapes.update(
        trick=(k, engine.trick_slots), trick_seats=(k, engine.trick_slots), stock=(k, rules.stock_size)
    )
    for name, shape in shapes.items():
        if getattr(pos, name).shape != shape:
            raise ValueError(
                f"{name} must have shape {shape} here ({p} players, {k} positions), "
                f"got {getattr(pos, name).shape}"
            )


def _refuse(bad: np.ndarray, values: np.ndarray, what: str) -> None:
    """``ValueError`` naming the first position where ``bad`` (K, ...) holds: ``what`` is the
    field and what it should be, ``values`` the field's."""
    flat = bad.reshape(len(bad), -1)
    if flat.any():
        g = int(np.flatnonzero(flat.any(axis=1))[0])
        j = int(np.flatnonzero(flat[g])[0])
        value = values.reshape(len(values), -1)[g, j].item()
        where = f"[{j}]" if values.ndim > 1 else ""
        raise ValueError(f"position {g}: {what.format(where=where)}, got {value!r}")


def _check_ranges(rules: Rules, engine: SmearEngine, pos: SmearPositionBatch) -> None:
    """Every field's values in range, one array operation a field."""
    p, s = rules.num_players, rules.stock_size
    deck = int(rules.deck_mask)
    for name in ("leader", "pitcher", "dealer"):
        values = getattr(pos, name)
        _refuse((values < 0) | (values >= p), values, f"{name} must be a seat 0..{p - 1}")
    low = -1 if rules.trumps == "first_lead" else 0
    either = " (or -1 while the first lead is still to name them)" if low else ""
    _refuse(
        (pos.trumps < low) | (pos.trumps > 3), pos.trumps, f"trumps must be a suit 0..3 (♣ ♦ ♥ ♠){either}"
    )
    most = rules.hand_size - 1
    _refuse(
        (pos.trick_number < 0) | (pos.trick_number > most), pos.trick_number,
        f"trick_number (the tricks finished) must be 0..{most}",
    )  # fmt: skip
    bid_value = engine.bid_value[:-1]
    valid = np.flatnonzero(bid_value >= 0)
    names = ", ".join(f"{i} {rules.decisions[i]}" for i in valid)
    inside = (pos.bids >= 0) & (pos.bids < len(bid_value))
    ok = inside & (bid_value.take(np.where(inside, pos.bids, 0)) >= 0)
    _refuse(
        ~ok, pos.bids, f"bids{{where}} must be the decision index of a bid ({names}): every seat bids once"
    )
    values = sorted({int(v) for v in bid_value if v > 0})
    _refuse(~np.isin(pos.high_bid, values), pos.high_bid, f"high_bid must be a bid's value {values}")
    _refuse(pos.deal_index < 0, pos.deal_index, "deal_index must be 0 or more")
    if rules.max_deals is not None:
        _refuse(
            pos.deal_index >= rules.max_deals,
            pos.deal_index,
            f"deal_index must be below max_deals={rules.max_deals}",
        )
    _refuse(
        np.abs(pos.totals.astype(np.float64)) > MAX_TOTAL, pos.totals,
        f"totals{{where}} must be within ±{MAX_TOTAL}",
    )  # fmt: skip
    _refuse(
        (pos.stock_pos < 0) | (pos.stock_pos > s), pos.stock_pos, f"stock_pos (cards drawn) must be 0..{s}"
    )
    # Every card drawn before play: the stock (ten-point Smear), the widow and the rest of the
    # stock (the widow game), the kitty (Five-point's, if any); nine-card's draws may stop short.
    drawn = {"stock": s, "widow": s, "blind": engine.widow_size}.get(rules.smear_deal)
    if drawn is not None:
        _refuse(
            pos.stock_pos != drawn, pos.stock_pos, f"stock_pos must be {drawn} in play here (the cards drawn)"
        )
    in_deck = np.array([bool(deck >> c & 1) for c in range(64)] + [True])  # EMPTY (64) pads
    for name in ("stock", "trick"):
        values = getattr(pos, name)
        inside = (values >= 0) & (values <= EMPTY)
        bad = ~inside | ~in_deck.take(np.where(inside, values, EMPTY))
        _refuse(bad, values, f"{name}{{where}} must be a card of this deck (0..63) or {EMPTY} (none)")
    seats = pos.trick_seats
    _refuse(
        (seats < -1) | (seats >= p), seats, f"trick_seats{{where}} must be a seat 0..{p - 1} or -1 (none)"
    )
    empty = pos.trick == EMPTY
    _refuse(empty != (seats < 0), seats, "trick_seats{where} must be -1 exactly where the trick has no card")
    after = np.logical_or.accumulate(empty, axis=1) & ~empty
    _refuse(after, pos.trick, f"trick{{where}} must hold its cards first, then {EMPTY} (none) only")
    for name in _CARD_SETS:
        values = getattr(pos, name)
        _refuse(values & ~U64(deck) != ZERO, values, f"{name}{{where}} must hold cards of this deck only")


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _names(mask: int) -> list[str]:
    return [card_symbol(c) for c in cards_of(mask)]


class _Position:
    """One position of a batch, as Python ints, and its checks (each raises one ``ValueError``)."""

    def __init__(self, rules: Rules, engine: SmearEngine, pos: SmearPositionBatch, g: int) -> None:
        self.rules, self.engine, self.g = rules, engine, g
        self.p = rules.num_players
        row = {f.name: getattr(pos, f.name)[g] for f in fields(pos)}
        for name in _CARD_SETS:
            setattr(self, name, [int(x) for x in row[name]])
        for name in ("leader", "trick_number", "trumps", "pitcher", "high_bid", "dealer", "stock_pos"):
            setattr(self, name, int(row[name]))
        self.bids = [int(x) for x in row["bids"]]
        self.totals = [int(x) for x in row["totals"]]
        self.stock = [int(x) for x in row["stock"]]
        self.trick = [int(c) for c in row["trick"] if c != EMPTY]
        self.trick_seats = [int(q) for q in row["trick_seats"][: len(self.trick)]]
        self.deal = rules.smear_deal

    def fail(self, message: str) -> None:
        raise ValueError(f"position {self.g}: {message}")

    def check(self) -> None:
        self.places()
        self.drawn_and_thrown()
        self.trumps_named()
        self.trick_cards()
        self.hand_sizes()
        self.tricks_finished()
        self.lead()
        self.bidding()
        self.side_totals()

    def places(self) -> None:
        """Every card of the deck in one place: a hand, played, thrown away or the stock."""
        where: dict[int, str] = {}
        for label, sets in (("a hand", self.hands), ("played", self.played), ("thrown away", self.thrown)):
            for seat in range(self.p):
                for card in cards_of(sets[seat]):
                    if card in where:
                        self.fail(f"{card_symbol(card)} is both {where[card]} and {label} (seat {seat})")
                    where[card] = f"{label} (seat {seat})"
        live = self.stock[self.stock_pos :]
        if EMPTY in live:
            self.fail(
                f"stock[{self.stock_pos + live.index(EMPTY)}] is {EMPTY} (none), but the stock's "
                f"{len(live)} cards from stock_pos={self.stock_pos} on are still to be drawn"
            )
        known = [c for c in self.stock if c != EMPTY]
        if len(set(known)) != len(known):
            twice = sorted({card_symbol(c) for c in known if known.count(c) > 1})
            self.fail(f"stock holds {twice} twice")
        for card in live:
            if card in where:
                self.fail(f"{card_symbol(card)} is both {where[card]} and in the stock")
            where[card] = "in the stock"
        missing = int(self.rules.deck_mask) & ~sum(1 << c for c in where)
        if missing:
            self.fail(f"cards in no place (hand, played, thrown, stock): {_names(missing)}")

    def drawn_and_thrown(self) -> None:
        """The cards received were drawn from the stock by a seat that may draw, and are in its
        hand, play or discards; discards only where the rules make any."""
        engine, p = self.engine, self.p
        drawers = [self.pitcher] if self.deal in ("stock", "blind") else list(range(p))
        seen = 0
        for seat in range(p):
            got = self.received[seat]
            if got and seat not in drawers:
                self.fail(
                    f"received[{seat}] must be empty: only the pitcher (seat {self.pitcher}) draws here, "
                    f"got {_names(got)}"
                )
            if got & seen:
                self.fail(f"received[{seat}] holds {_names(got & seen)}, received by another seat too")
            seen |= got
            outside = got & ~(self.hands[seat] | self.played[seat] | self.thrown[seat])
            if outside:
                self.fail(
                    f"received[{seat}] holds {_names(outside)}, which seat {seat} neither holds, played "
                    "nor threw away"
                )
        if _count(seen) > self.stock_pos:
            self.fail(f"{_count(seen)} cards are received, but only stock_pos={self.stock_pos} were drawn")
        drawn = self.stock[: self.stock_pos]
        if EMPTY not in drawn and seen & ~sum(1 << c for c in drawn):
            self.fail(
                f"received cards {_names(seen & ~sum(1 << c for c in drawn))} were never drawn from the stock"
            )
        throwers = list(range(p))
        if self.deal == "blind":
            throwers = [self.pitcher] if engine.widow_size else []
        for seat in range(p):
            if self.thrown[seat] and seat not in throwers:
                who = f"only the pitcher (seat {self.pitcher})" if throwers else "nobody"
                self.fail(
                    f"thrown[{seat}] must be empty: {who} throws cards away here, "
                    f"got {_names(self.thrown[seat])}"
                )

    def trumps_named(self) -> None:
        if self.trumps < 0 and any(self.played):
            self.fail("trumps must be a suit 0..3 once play has begun (the first lead names them), got -1")
        first_lead = self.rules.trumps == "first_lead" and not self.trick_number and self.trick
        if first_lead and self.trick[0] < 52 and self.trumps != self.trick[0] // 13:
            self.fail(
                f"trumps must be {self.trick[0] // 13}, the suit of the first lead "
                f"{card_symbol(self.trick[0])}, got {self.trumps}"
            )
        if self.engine.nine_card:
            trump_cards = int(self.engine.tables.trumps[self.trumps])
            for seat in range(self.p):
                if self.played[seat] & ~trump_cards:
                    self.fail(
                        f"played[{seat}] holds {_names(self.played[seat] & ~trump_cards)}: only trumps are "
                        "played in nine-card Smear"
                    )

    def trick_cards(self) -> None:
        """The trick's cards were played by their seats, led by the leader; ``taken`` is the rest
        of the cards played."""
        for card, seat in zip(self.trick, self.trick_seats):
            if not self.played[seat] >> card & 1:
                self.fail(f"{card_symbol(card)} of the trick must be among seat {seat}'s played cards")
        if self.trick_seats and self.trick_seats[0] != self.leader:
            self.fail(
                f"the trick's first card must be the leader's (seat {self.leader}), "
                f"got seat {self.trick_seats[0]}'s"
            )
        on_table = sum(1 << c for c in self.trick)
        finished = 0
        for cards in self.played:
            finished |= cards
        finished &= ~on_table
        taken = 0
        for cards in self.taken:
            taken |= cards
        if taken != finished or sum(_count(t) for t in self.taken) != _count(taken):
            self.fail(
                f"the cards taken must be the finished tricks' cards, each taken once "
                f"(finished {_names(finished)}, taken {_names(taken)})"
            )
        self.back = [
            sum(1 << c for c, q in zip(self.trick, self.trick_seats) if q == seat) for seat in range(self.p)
        ]
        self.done = [_count(self.played[seat] & ~self.back[seat]) for seat in range(self.p)]
        self.held = [_count(self.hands[seat]) + _count(self.played[seat]) for seat in range(self.p)]
        start = [self.hands[seat] | self.back[seat] for seat in range(self.p)]
        if self.engine.nine_card:
            trump_cards = int(self.engine.tables.trumps[self.trumps])
            start = [cards & trump_cards for cards in start]
        self.in_deal = [bool(cards) for cards in start]
        if not any(self.in_deal):
            self.fail("no seat holds a card it may play: the deal is over, a position is of a deal in play")

    def hand_sizes(self) -> None:
        """The cards each seat had for play (held and played) as the rules leave them."""
        keep = self.rules.keep
        most = (
            max(keep, self.rules.hand_size) if self.engine.nine_card else keep
        )  # nine-card keeps its trumps
        for seat, held in enumerate(self.held):
            exact = self.deal in ("stock", "blind") or (self.deal == "widow" and seat == self.pitcher)
            if exact and held != keep:
                whose = "the pitcher's hand" if self.deal == "widow" else "every hand"
                self.fail(
                    f"seat {seat} holds and played {held} cards; {whose} in play has {keep} here "
                    f"(hands[{seat}] {_names(self.hands[seat])}, played[{seat}] {_names(self.played[seat])})"
                )
            if held > most:
                self.fail(
                    f"seat {seat} holds and played {held} cards; a hand in play has at most {most} here"
                )

    def tricks_finished(self) -> None:
        """``trick_number`` and the cards each seat played to the finished tricks agree: one a
        trick while the seat holds a card (nine-card: a trump; the first trick takes a seat's
        trumps beyond ``keep`` too)."""
        t = self.trick_number
        if not self.engine.nine_card:
            for seat in range(self.p):
                if self.done[seat] != min(self.held[seat], t):
                    self.fail(
                        f"seat {seat} played {self.done[seat]} cards to the finished tricks, but with "
                        f"trick_number={t} and {self.held[seat]} cards for play it plays "
                        f"{min(self.held[seat], t)}"
                    )
            return
        keep = self.rules.keep
        for seat in range(self.p):
            done, held = self.done[seat], self.held[seat]
            if not t:
                ok, should = not done, "none"
            elif self.in_deal[seat]:
                extra = max(held - keep, 0)  # the most trumps beyond keep it can have held
                ok, should = t <= done <= t + extra, f"{t}" + (f" to {t + extra}" if extra else "")
            else:
                ok, should = min(done, keep) <= t, f"at most {t}, or all its trumps"
            if not ok:
                self.fail(
                    f"seat {seat} played {done} trumps to the finished tricks; with trick_number={t} "
                    f"it plays {should}"
                )

    def lead(self) -> None:
        """The leader is in the deal: the first trick's is the pitcher (or the next seat in),
        a later one took the last trick where every seat plays every trick."""
        if not self.in_deal[self.leader]:
            self.fail(f"leader (seat {self.leader}) holds no card it may play: it is out of the deal")
        if not self.trick_number:
            first = next(
                q % self.p for q in range(self.pitcher, self.pitcher + self.p) if self.in_deal[q % self.p]
            )
            if self.leader != first:
                self.fail(
                    f"leader must be seat {first} for the first trick (the pitcher, seat {self.pitcher}, "
                    f"or the next seat in the deal), got {self.leader}"
                )
        elif self.deal in ("stock", "blind") and not self.taken[self.leader]:
            self.fail(f"leader (seat {self.leader}) took no trick, but the last trick's taker leads the next")

    def bidding(self) -> None:
        """One bid each from the dealer's left, each above the one before; the highest is the
        pitcher's, and ``high_bid`` its value."""
        fault = bidding_fault(self.rules, self.bids, self.dealer)
        if fault:
            self.fail(fault)
        values = [int(self.engine.bid_value[b]) for b in self.bids]
        high = max(values)
        if values[self.pitcher] != high:
            self.fail(f"pitcher must be seat {values.index(high)}, the highest bidder, got {self.pitcher}")
        if self.high_bid != high:
            self.fail(f"high_bid must be {high}, the pitcher's bid, got {self.high_bid}")

    def side_totals(self) -> None:
        for seats in self.rules.teams:
            if len({self.totals[q] for q in seats}) > 1:
                self.fail(
                    f"totals must be the same for partners (seats {list(seats)}), got "
                    f"{[self.totals[q] for q in seats]}"
                )


def bidding_fault(rules: Rules, bids: Sequence[int], dealer: int) -> str:
    """Why ``bids`` (a decision index a seat, every seat a bid) are not one round of bidding
    from the left of ``dealer`` ("" when they are): a bid not above the one before it, every
    seat passing (the deal is thrown in), the dealer not bidding the minimum he was forced to."""
    value = _engine(rules).bid_value
    p = rules.num_players
    order = [(dealer + 1 + j) % p for j in range(p)]
    high, last = 0, -1
    for seat in order:
        bid = int(value[bids[seat]])
        if bid and bid <= high:
            return (
                f"bids[{seat}] is {rules.decisions[bids[seat]]}, not above seat {last}'s "
                f"{rules.decisions[bids[last]]} before it (dealer seat {dealer}: the bidding starts at seat "
                f"{order[0]})"
            )
        if bid:
            high, last = bid, seat
    if last < 0:
        return "bids are all pass: a deal nobody bids is thrown in and has no play"
    forced = all(not value[bids[q]] for q in order[:-1]) and rules.dealer_must_bid
    if forced and high != rules.min_bid:
        return (
            f"bids[{dealer}] must be bid:{rules.min_bid}: every other seat passed, so the dealer (seat "
            f"{dealer}) was forced to bid it, got {rules.decisions[bids[dealer]]}"
        )
    return ""


def _check_play(engine: SmearEngine, pos: SmearPositionBatch) -> None:
    """Start the positions on a scratch state: the trick in progress played again from its
    leader (each card in turn and legal), and not complete; the seat to act holds a card it
    may play."""
    k = len(pos)
    if not k:
        return
    s = engine.new_state(k)
    rows = np.arange(k)
    engine.set_positions(s, rows, pos, check_trick=True)
    done = np.flatnonzero((s.trick_number != pos.trick_number) | (s.phase != PLAYING))
    if len(done):
        g = int(done[0])
        raise ValueError(
            f"position {g}: the trick in progress holds a card of every seat in the deal; a finished "
            f"trick's cards are taken (trick_number {int(pos.trick_number[g])}), not on the table"
        )
    stuck = np.flatnonzero(engine.legal(s) == ZERO)
    if len(stuck):
        g = int(stuck[0])
        raise ValueError(f"position {g}: seat {int(s.current[g])}, to play, holds no card it may play")
