"""Positions: start a deal of the Hearts family from any point of its play, not only from the deal.

A *position* says where a deal stands once play has begun: every seat's hand, the cards each
seat has played and the cards each has taken, the trick on the table and who led it, the
kitty, Domino Hearts' stock, the decisions already made (bids, declarations, the named suit)
and the game around the deal (dealer, scores). :meth:`hearts_env.Table.set_position` starts it in
every game of a table (or ``reset(options={"position": ...})``); :meth:`hearts_env.Table.position`
reads a live game back as one. Endgame puzzles, scripted tests and search agents (``pimc``,
which starts the engine from worlds sampled for what a seat has seen) use them.

Two forms:

* :class:`Position`: one position, by card names (``"QS"``, ``"10H"`` …) or indices and absolute
  seats, checked with an error that names what is inconsistent (a card in two places, a hand
  of the wrong size, a trick played out of turn or against the rules);
* :class:`PositionBatch`: K positions as arrays (card sets as ``uint64`` masks), what the engine
  reads (:meth:`hearts_env.engine.Engine.set_positions`) and what the search agent builds by the
  thousand; :func:`check_batch` validates it with the same messages.

The trick in progress is played again on the engine from its leader, so the engine itself
works out the suit led, the card winning so far and the voids it shows, and refuses a trick
that the rules forbid. Positions are of the play phase: a deal still passing or in a decision
round starts from its deal (``reset(options={"hands": ...})``) and the decisions so far.

Two decks (Cancellation Hearts): every card set may hold both copies of a card (a card listed
twice in a :class:`Position`, a second ``*_hi`` word in a :class:`PositionBatch`, as in
:mod:`hearts_env.cardsets`); the trick's cards are its leader's and his followers' in turn (so
a pair on the table has two players); ``tricks_won`` counts the tricks taken and the cards of
the tricks cancelled since the last one taken are ``carried`` to the next trick's winner (with
the kitty, while every trick so far was cancelled). Smear's positions are
:mod:`hearts_env.smear_positions`' (``NotImplementedError`` here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from hearts_env import cardsets
from hearts_env.bits import EMPTY
from hearts_env.cards import card_name, cards_of, parse_card
from hearts_env.families import family
from hearts_env.rules import PASS_DIRECTIONS, Rules

Cards = Sequence[int | str]


@dataclass(frozen=True)
class PositionBatch:
    """K positions as arrays, absolute seats (P players), card sets ``uint64`` masks.

    ``played`` holds every card a seat has played this deal, the current trick's included;
    ``trick`` the current trick's cards in play order (``EMPTY`` = 64 after the last one) and
    ``leader`` who led it (who leads next when it is empty). ``kitty`` is the leftover's cards
    whether taken yet or not (``first_trick_winner`` took it with the first trick, ``-1``
    before); ``stock`` and ``stock_pos`` are Domino Hearts' undealt cards in draw order and how
    many are drawn. ``voids`` are :class:`~hearts_env.state.State` bits (``4 * seat + suit``);
    the current trick's show-outs are added when it is played again.

    Two decks (Cancellation Hearts): every card set is a pair of words, the ``*_hi`` fields
    holding the cards it has twice (:mod:`hearts_env.cardsets`; they default to zeros, all a
    one-deck batch needs). ``trick_number`` counts the cancelled tricks too, ``tricks_won`` the
    tricks taken; ``carried`` (``carried_hi``) are the cards of the cancelled tricks since the
    last trick taken, which the next trick's winner takes with it (the kitty among them when
    the first trick was cancelled: the first trick taken brings the kitty).
    """

    hands: np.ndarray  # (K, P) uint64
    played: np.ndarray  # (K, P) uint64
    taken: np.ndarray  # (K, P) uint64
    tricks_won: np.ndarray  # (K, P) int64
    trick: np.ndarray  # (K, P) int64, EMPTY padded
    leader: np.ndarray  # (K,) int64
    trick_number: np.ndarray  # (K,) int64
    kitty: np.ndarray  # (K,) uint64
    first_trick_winner: np.ndarray  # (K,) int64
    voids: np.ndarray  # (K,) uint64
    dealer: np.ndarray  # (K,) int64
    deal_index: np.ndarray  # (K,) int64
    totals: np.ndarray  # (K, P) int64
    pool: np.ndarray  # (K,) float64
    pass_direction: np.ndarray  # (K,) int64 index into PASS_DIRECTIONS
    chosen: np.ndarray  # (K, P) uint64: the cards each seat passed
    received: np.ndarray  # (K, P) uint64: the cards each seat received
    bidder: np.ndarray  # (K,) int64
    high_bid: np.ndarray  # (K,) int64
    penalty_suit: np.ndarray  # (K,) int64
    partner: np.ndarray  # (K,) int64
    decision_log: np.ndarray  # (K, P) uint64
    uncounted: np.ndarray  # (K,) uint64
    set_aside: np.ndarray  # (K,) uint64
    stock: np.ndarray  # (K, S) int64
    stock_pos: np.ndarray  # (K,) int64
    # Two decks (Cancellation Hearts): each card set above has a second word, of the cards it
    # holds twice (hearts_env.cardsets); zeros when not given (one deck).
    hands_hi: np.ndarray | None = None  # (K, P) uint64
    played_hi: np.ndarray | None = None  # (K, P) uint64
    taken_hi: np.ndarray | None = None  # (K, P) uint64
    chosen_hi: np.ndarray | None = None  # (K, P) uint64
    received_hi: np.ndarray | None = None  # (K, P) uint64
    kitty_hi: np.ndarray | None = None  # (K,) uint64
    carried: np.ndarray | None = None  # (K,) uint64: cancelled tricks' cards, for the next winner
    carried_hi: np.ndarray | None = None  # (K,) uint64

    def __post_init__(self) -> None:
        for name, like in _SECOND_WORDS.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, np.zeros_like(getattr(self, like), dtype=np.uint64))

    def __len__(self) -> int:
        return len(self.leader)

    def take(self, rows: np.ndarray) -> PositionBatch:
        """The positions at ``rows`` (copies)."""
        return PositionBatch(**{f.name: getattr(self, f.name)[rows].copy() for f in fields(self)})

    @staticmethod
    def concat(parts: Sequence[PositionBatch]) -> PositionBatch:
        """The positions of ``parts`` one after another."""
        return PositionBatch(
            **{
                f.name: np.concatenate([getattr(part, f.name) for part in parts])
                for f in fields(PositionBatch)
            }
        )

    def with_fields(self, **changes: np.ndarray) -> PositionBatch:
        """A copy with some fields replaced."""
        return replace(self, **changes)


@dataclass(frozen=True)
class Position:
    """One position of a deal in play, by card names and absolute seats (see the module).

    Only ``hands`` is required: a position at the start of play, nothing played yet. The rest:

    * ``played``: per seat, every card it has played this deal (the current trick's too);
    * ``taken``: per seat, the cards it has taken in tricks (the kitty with the first trick);
      ``tricks_won`` per seat (default: from the cards taken, ``P`` a trick);
    * ``trick``: the current trick's cards in play order, led by ``leader`` (also the seat to
      lead when no card is on the table: default, the last trick's taker if known);
    * ``kitty``: the leftover cards (default: the cards of the deck found nowhere else) and
      ``first_trick_winner``, who took it (default: the seat whose taken cards hold it);
    * ``stock`` (Domino Hearts): the cards still in the stock, in draw order;
    * ``voids``: per seat, the suits (``"C"``, ``"D"``, ``"H"``, ``"S"``) it has shown out of;
    * ``passed`` / ``received``: per seat, the cards of the exchange (shown in observations);
    * the decisions: ``bidder`` (the declarer or the auction's winner), ``high_bid``,
      ``penalty_suit`` (``"H"`` …), ``partner`` (Partnership C's silent partner),
      ``decision_log`` (per seat, the names of the decisions it made, e.g. ``["bid:3"]``);
    * the game: ``dealer``, ``deal_index``, ``totals`` (scores before this deal) and
      ``pass_direction`` (``"left"`` …, the deal's; ``"hold"`` by default).

    Two decks (Cancellation Hearts): a card listed twice is both copies (``hands=[["QS",
    "QS", …], …]``); the trick's cards are played by the leader and the seats after him in
    turn; a cancelled trick counts in no seat's ``tricks_won`` (give them: the default counts
    ``P`` cards a trick), and its cards wait in ``carried`` for the next trick's winner.
    """

    hands: Sequence[Cards]
    played: Sequence[Cards] | None = None
    taken: Sequence[Cards] | None = None
    tricks_won: Sequence[int] | None = None
    trick: Cards = ()
    leader: int | None = None
    kitty: Cards | None = None
    first_trick_winner: int | None = None
    stock: Cards | None = None
    voids: Sequence[Sequence[str]] | None = None
    passed: Sequence[Cards] | None = None
    received: Sequence[Cards] | None = None
    bidder: int | None = None
    high_bid: int = 0
    penalty_suit: str = "H"
    partner: int | None = None
    decision_log: Sequence[Sequence[str]] | None = None
    dealer: int = 0
    deal_index: int = 0
    totals: Sequence[int] | None = None
    pass_direction: str = "hold"
    extra: dict[str, Any] = field(default_factory=dict)
    """Engine fields for rules with first-trick special cases (``uncounted``, ``set_aside``
    masks), as read back by :meth:`hearts_env.Table.position`; rarely written by hand."""
    carried: Cards | None = None
    """Two decks: the cards of the tricks cancelled since the last trick taken, which the next
    trick's winner takes with it (the kitty's too while no trick has been taken)."""


_SECOND_WORDS = {
    "hands_hi": "hands", "played_hi": "played", "taken_hi": "taken", "chosen_hi": "chosen",
    "received_hi": "received", "kitty_hi": "kitty", "carried": "kitty", "carried_hi": "kitty",
}  # fmt: skip
"""The two-deck fields of :class:`PositionBatch`, each with the field whose shape it has."""
_SUITS = "CDHS"
_HEARTS_ENGINE = "hearts_env.engine:Engine"
"""The engine whose states positions describe (the Hearts family's)."""


def _refuse(rules: Rules) -> None:
    record = family(rules)
    if record.engine != _HEARTS_ENGINE:
        raise NotImplementedError(
            f"positions are written for the Hearts family; {rules.preset} is a {record.title} game"
        )


def _mask(cards: Cards | None, what: str, rules: Rules) -> int:
    if cards is None:
        return 0
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise TypeError(f"{what} must be a list of cards (e.g. ['2C', 'QS']), got {cards!r}")
    mask = 0
    for c in cards:
        index = parse_card(c)
        if mask >> index & 1:
            raise ValueError(f"{what} lists {card_name(index)} twice")
        if not rules.deck_mask >> index & 1:
            raise ValueError(f"{what}: {card_name(index)} is not in the deck of {rules.preset}")
        mask |= 1 << index
    return mask


def _words(cards: Cards | None, what: str, rules: Rules) -> tuple[int, int]:
    """``cards`` as the ``(lo, hi)`` words of :mod:`hearts_env.cardsets`: one deck, the mask and
    0; two decks, a card listed twice for both copies."""
    if rules.decks == 1:
        return _mask(cards, what, rules), 0
    if cards is None:
        return 0, 0
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise TypeError(f"{what} must be a list of cards (e.g. ['2C', 'QS', 'QS']), got {cards!r}")
    indices = [parse_card(c) for c in cards]
    for index in indices:
        if not rules.deck_mask >> index & 1:
            raise ValueError(f"{what}: {card_name(index)} is not in the deck of {rules.preset}")
    return cardsets.from_list(indices, what)


def _per_seat(value: Sequence[Cards] | None, what: str, rules: Rules) -> tuple[list[int], list[int]]:
    """One card set per seat, as the lists of their ``lo`` and ``hi`` words (``hi`` 0: one deck)."""
    p = rules.num_players
    if value is None:
        return [0] * p, [0] * p
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != p:
        raise ValueError(f"{what} must give one list of cards per seat ({p} seats), got {value!r}")
    pairs = [_words(cards, f"{what}[{seat}]", rules) for seat, cards in enumerate(value)]
    return [lo for lo, _ in pairs], [hi for _, hi in pairs]


def _size(lo: int, hi: int = 0) -> int:
    """Cards in a set of Python-int words, both copies counted."""
    return lo.bit_count() + hi.bit_count()


def _seat(value: int | None, what: str, rules: Rules, default: int = -1) -> int:
    if value is None:
        return default
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be a seat 0..{rules.num_players - 1} or None, got {value!r}")
    if not 0 <= value < rules.num_players:
        raise ValueError(f"{what} must be a seat 0..{rules.num_players - 1}, got {value}")
    return int(value)


def position_batch(rules: Rules, position: Position) -> PositionBatch:
    """:class:`Position` ``position`` of ``rules`` checked and as a batch of one (``ValueError``
    naming what is inconsistent)."""
    _refuse(rules)
    if not isinstance(position, Position):
        raise TypeError(f"a position must be a hearts_env.Position, got {type(position).__name__}")
    p, pos, two_decks = rules.num_players, position, rules.decks == 2
    hands, hands_hi = _per_seat(pos.hands, "hands", rules)
    played, played_hi = _per_seat(pos.played, "played", rules)
    taken, taken_hi = _per_seat(pos.taken, "taken", rules)
    trick_cards = [parse_card(c) for c in pos.trick]
    if len(trick_cards) >= p:
        raise ValueError(f"a trick in progress holds fewer than {p} cards, got {len(trick_cards)}")
    if two_decks:  # the trick's cards are the leader's and his followers' in turn
        if trick_cards and pos.leader is None:
            raise ValueError("give the leader: the seat that led the trick on the table (or leads next)")
        if pos.played is None:
            lead = _seat(pos.leader, "leader", rules)
            for j, c in enumerate(trick_cards):
                seat = (lead + j) % p
                played[seat], played_hi[seat] = cardsets.add_one(played[seat], played_hi[seat], 1 << c)
    for c in trick_cards if not two_decks else ():  # a card on the table was played
        if not any(m >> c & 1 for m in played):
            played_by = None if pos.leader is None else (pos.leader + trick_cards.index(c)) % p
            if pos.played is not None or rules.stock_size:
                raise ValueError(f"{card_name(c)} is on the table but in no seat's played cards")
            played[played_by if played_by is not None else 0] |= 1 << c
    stock_cards = [] if pos.stock is None else [parse_card(c) for c in pos.stock]
    stock_mask = _mask(pos.stock, "stock", rules)
    if pos.stock is not None and not rules.stock_size:
        raise ValueError(f"{rules.preset} has no stock")
    if pos.carried is not None and not two_decks:
        raise ValueError(f"{rules.preset} plays one deck: no trick is cancelled, nothing is carried")
    carried, carried_hi = _words(pos.carried, "carried", rules)
    everywhere = 0
    for mask in hands + taken:
        everywhere |= mask
    kitty, kitty_hi = _words(pos.kitty, "kitty", rules)
    if pos.kitty is None and two_decks:  # the copies found nowhere else
        rest = Counter({c: 2 for c in cards_of(int(rules.deck_mask))})
        rest -= Counter(trick_cards)
        for lo, hi in zip(hands + taken + [carried], hands_hi + taken_hi + [carried_hi], strict=True):
            rest -= Counter(cardsets.to_list(lo, hi))
        kitty, kitty_hi = cardsets.from_list(rest.elements())
    elif pos.kitty is None and not rules.stock_size:
        trick_mask = sum(1 << c for c in trick_cards)
        kitty = rules.deck_mask & ~(everywhere | trick_mask | stock_mask)
        if any(m >> c & 1 for m in taken for c in cards_of(kitty)):
            kitty = 0
    leader = _seat(pos.leader, "leader", rules)
    tricks_won = (
        [_size(lo, hi) // p for lo, hi in zip(taken, taken_hi, strict=True)]
        if pos.tricks_won is None
        else [int(t) for t in pos.tricks_won]
    )
    if len(tricks_won) != p:
        raise ValueError(f"tricks_won must give one count per seat ({p} seats), got {pos.tricks_won!r}")
    trick_number = sum(tricks_won)
    if two_decks:  # every seat plays a card to every trick, the cancelled ones too
        trick_number = (sum(map(_size, played, played_hi)) - len(trick_cards)) // p
    if pos.tricks_won is None and rules.kitty_size and trick_number:
        holder = [s for s in range(p) if taken[s] & kitty]
        if holder:
            size = _size(taken[holder[0]], taken_hi[holder[0]])
            tricks_won[holder[0]] = (size - rules.kitty_size) // p
            trick_number = trick_number if two_decks else sum(tricks_won)
    first = _seat(pos.first_trick_winner, "first_trick_winner", rules)
    if first < 0 and trick_number:
        holder = [s for s in range(p) if kitty and cardsets.contains(taken[s], taken_hi[s], kitty, kitty_hi)]
        first = holder[0] if holder else -1
    if leader < 0:
        if trick_cards or trick_number:
            raise ValueError("give the leader: the seat that led the trick on the table (or leads next)")
        leader = -2  # the first leader of the rules (set_positions finds him)
    voids = 0
    if pos.voids is not None:
        if len(pos.voids) != p:
            raise ValueError(f"voids must give one list of suits per seat ({p} seats), got {pos.voids!r}")
        for seat, suits in enumerate(pos.voids):
            for suit in suits:
                if suit not in _SUITS:
                    raise ValueError(f"voids[{seat}]: {suit!r} is not a suit (C, D, H, S)")
                voids |= 1 << (4 * seat + _SUITS.index(suit))
    totals = [0] * p if pos.totals is None else [int(t) for t in pos.totals]
    if len(totals) != p:
        raise ValueError(f"totals must give one score per seat ({p} seats), got {pos.totals!r}")
    if pos.pass_direction not in PASS_DIRECTIONS:
        raise ValueError(
            f"pass_direction must be one of {', '.join(PASS_DIRECTIONS)}, got {pos.pass_direction!r}"
        )
    if pos.penalty_suit not in _SUITS:
        raise ValueError(f"penalty_suit must be one of C, D, H, S, got {pos.penalty_suit!r}")
    log = [0] * p
    if pos.decision_log is not None:
        for seat, names in enumerate(pos.decision_log):
            for name in names:
                if name not in rules.decisions:
                    raise ValueError(f"decision_log[{seat}]: {name!r} is not a decision of {rules.preset}")
                log[seat] |= 1 << rules.decisions.index(name)
    stock = np.full((1, rules.stock_size), EMPTY, np.int64)
    stock_pos = 0
    if rules.stock_size:
        stock_pos = rules.stock_size - len(stock_cards)
        if stock_pos < 0:
            raise ValueError(f"the stock holds at most {rules.stock_size} cards, got {len(stock_cards)}")
        stock[0, stock_pos:] = stock_cards
    u = np.uint64
    chosen, chosen_hi = _per_seat(pos.passed, "passed", rules)
    received, received_hi = _per_seat(pos.received, "received", rules)

    def arr(values: list[int], dtype: type = np.int64) -> np.ndarray:
        return np.array([values], dtype=dtype)

    batch = PositionBatch(
        hands=arr(hands, u), played=arr(played, u), taken=arr(taken, u), tricks_won=arr(tricks_won),
        trick=np.array([trick_cards + [EMPTY] * (p - len(trick_cards))], np.int64),
        leader=np.array([leader]), trick_number=np.array([trick_number]),
        kitty=np.array([kitty], u), first_trick_winner=np.array([first]), voids=np.array([voids], u),
        dealer=np.array([_seat(pos.dealer, "dealer", rules, 0)]), deal_index=np.array([int(pos.deal_index)]),
        totals=arr(totals), pool=np.zeros(1),
        pass_direction=np.array([PASS_DIRECTIONS.index(pos.pass_direction)]),
        chosen=arr(chosen, u), received=arr(received, u),
        bidder=np.array([_seat(pos.bidder, "bidder", rules)]), high_bid=np.array([int(pos.high_bid)]),
        penalty_suit=np.array([_SUITS.index(pos.penalty_suit)]),
        partner=np.array([_seat(pos.partner, "partner", rules)]), decision_log=arr(log, u),
        uncounted=np.array([int(pos.extra.get("uncounted", 0))], u),
        set_aside=np.array([int(pos.extra.get("set_aside", 0))], u),
        stock=stock, stock_pos=np.array([stock_pos]),
        hands_hi=arr(hands_hi, u), played_hi=arr(played_hi, u), taken_hi=arr(taken_hi, u),
        chosen_hi=arr(chosen_hi, u), received_hi=arr(received_hi, u), kitty_hi=np.array([kitty_hi], u),
        carried=np.array([carried], u), carried_hi=np.array([carried_hi], u),
    )  # fmt: skip
    check_batch(rules, batch)
    return batch


def _names(mask: int) -> str:
    return ", ".join(card_name(c) for c in cards_of(mask)) or "none"


def check_batch(rules: Rules, batch: PositionBatch) -> None:
    """Raise ``ValueError`` naming the first inconsistency of the positions ``batch`` with
    ``rules``: cards in two places or in none, hand sizes, tricks counted, the leader, the
    kitty's taker. (The trick in progress is checked when it is played again.)"""
    _refuse(rules)
    p, k = rules.num_players, len(batch)
    deck = int(rules.deck_mask)
    for i in range(k):
        where = f"position {i}: " if k > 1 else ""
        if rules.decks == 2:
            _check_two_decks(rules, batch, i, where)
            continue
        hands = [int(m) for m in batch.hands[i]]
        played = [int(m) for m in batch.played[i]]
        taken = [int(m) for m in batch.taken[i]]
        trick = [int(c) for c in batch.trick[i] if c != EMPTY]
        trick_mask = sum(1 << c for c in trick)
        kitty, first = int(batch.kitty[i]), int(batch.first_trick_winner[i])
        stock_left = 0
        if rules.stock_size:
            stock_left = sum(1 << int(c) for c in batch.stock[i, int(batch.stock_pos[i]) :])
        places: dict[int, list[str]] = {}

        def put(mask: int, name: str, places: dict[int, list[str]] = places) -> None:
            for c in cards_of(mask):
                places.setdefault(c, []).append(name)

        for seat in range(p):
            put(hands[seat], f"seat {seat}'s hand")
            put(taken[seat], f"seat {seat}'s taken cards")
        put(trick_mask, "the trick")
        put(stock_left, "the stock")
        if rules.kitty_size and first < 0:
            put(kitty, "the kitty")
        twice = {c: w for c, w in places.items() if len(w) > 1}
        if twice:
            c, w = min(twice.items())
            raise ValueError(f"{where}{card_name(c)} is in two places: {' and '.join(w)}")
        outside = sum(1 << c for c in places) & ~deck
        if outside:
            raise ValueError(f"{where}cards not in this deck: {_names(outside)}")
        missing = deck & ~sum(1 << c for c in places)
        if missing and not (
            rules.first_trick_all_penalty == "to_lowest" and missing == int(batch.set_aside[i])
        ):
            raise ValueError(f"{where}cards in no hand, trick, taken pile or kitty: {_names(missing)}")
        for seat in range(p):
            if hands[seat] & played[seat]:
                raise ValueError(
                    f"{where}seat {seat} holds cards it has played: {_names(hands[seat] & played[seat])}"
                )
        all_played = 0
        for seat in range(p):
            if all_played & played[seat]:
                raise ValueError(f"{where}cards played by two seats: {_names(all_played & played[seat])}")
            all_played |= played[seat]
        if trick_mask & ~all_played:
            raise ValueError(
                f"{where}cards on the table that nobody played: {_names(trick_mask & ~all_played)}"
            )
        gone = 0
        for mask in taken:
            gone |= mask
        gone &= ~(kitty if first >= 0 else 0)
        done = all_played & ~trick_mask
        if done != gone | int(batch.set_aside[i]):
            raise ValueError(
                f"{where}the cards taken ({_names(gone)}) are not the cards played in finished tricks "
                f"({_names(done)})"
            )
        trick_number = int(batch.trick_number[i])
        if int(batch.tricks_won[i].sum()) != trick_number:
            raise ValueError(
                f"{where}tricks_won {batch.tricks_won[i].tolist()} do not add up to {trick_number} tricks"
            )
        if not rules.stock_size:
            for seat in range(p):
                cards = len(cards_of(hands[seat])) + len(cards_of(played[seat]))
                if cards != rules.hand_size:
                    raise ValueError(
                        f"{where}seat {seat} holds {len(cards_of(hands[seat]))} cards and has played "
                        f"{len(cards_of(played[seat]))}: a hand of {rules.hand_size} was dealt"
                    )
            if len(cards_of(done)) != p * trick_number:
                raise ValueError(
                    f"{where}{len(cards_of(done))} cards were played in finished tricks, not {p} for each "
                    f"of the {trick_number} tricks"
                )
            for seat in range(p):
                expect = trick_number + any(played[seat] >> c & 1 for c in trick)
                if len(cards_of(played[seat])) != expect:
                    raise ValueError(
                        f"{where}seat {seat} has played {len(cards_of(played[seat]))} cards; after "
                        f"{trick_number} tricks and the trick on the table it would have played {expect}"
                    )
            if trick_number == rules.hand_size:
                raise ValueError(f"{where}every trick is played: the deal is over")
        if rules.kitty_size:
            if trick_number and first < 0:
                raise ValueError(
                    f"{where}the first trick is over: give first_trick_winner, who took the kitty"
                )
            if first >= 0 and taken[first] & kitty != kitty:
                raise ValueError(
                    f"{where}first_trick_winner {first} did not take the kitty ({_names(kitty)})"
                )
        leader = int(batch.leader[i])
        if leader != -2 and not 0 <= leader < p:
            raise ValueError(f"{where}leader must be a seat 0..{p - 1}, got {leader}")
        if trick and leader >= 0 and not played[leader] >> trick[0] & 1:
            raise ValueError(
                f"{where}the trick was led by seat {leader}, who did not play {card_name(trick[0])}"
            )
        if not rules.bidding and (int(batch.bidder[i]) >= 0 or int(batch.high_bid[i])):
            raise ValueError(f"{where}{rules.preset} has no bids or declarations (bidder, high_bid)")


def _copies(cards: Counter) -> str:
    return ", ".join(card_name(c) for c in sorted(cards.elements())) or "none"


def _places(names: list[str]) -> str:
    tally = Counter(names)
    said = [f"{name} twice" if tally[name] == 2 else name for name in dict.fromkeys(names)]
    return f"{', '.join(said[:-1])} and {said[-1]}" if len(said) > 1 else said[0]


def _check_two_decks(rules: Rules, batch: PositionBatch, i: int, where: str) -> None:
    """:func:`check_batch` of position ``i`` with two decks: every card set a multiset of
    copies, the cancelled tricks' cards carried, the trick's cards its leader's and his
    followers' in turn."""
    p, hand_size = rules.num_players, rules.hand_size

    def counter(lo: Any, hi: Any) -> Counter:
        return Counter(cardsets.to_list(int(lo), int(hi)))

    def seats(name: str) -> list[Counter]:
        lo, hi = getattr(batch, name)[i], getattr(batch, f"{name}_hi")[i]
        for seat in range(p):
            if int(hi[seat]) & ~int(lo[seat]):
                raise ValueError(
                    f"{where}{name}_hi of seat {seat} holds {_names(int(hi[seat]) & ~int(lo[seat]))} "
                    f"twice but {name} not once (hi within lo, hearts_env.cardsets)"
                )
        return [counter(lo[seat], hi[seat]) for seat in range(p)]

    hands, played, taken = seats("hands"), seats("played"), seats("taken")
    carried = counter(batch.carried[i], batch.carried_hi[i])
    kitty = counter(batch.kitty[i], batch.kitty_hi[i])
    trick = [int(c) for c in batch.trick[i] if c != EMPTY]
    first, trick_number = int(batch.first_trick_winner[i]), int(batch.trick_number[i])
    tricks_won = [int(t) for t in batch.tricks_won[i]]
    leader, won = int(batch.leader[i]), sum(tricks_won)
    places: dict[int, list[str]] = {}

    def put(cards: Counter, name: str) -> None:
        for c in sorted(cards.elements()):
            places.setdefault(c, []).append(name)

    for seat in range(p):
        put(hands[seat], f"seat {seat}'s hand")
        put(taken[seat], f"seat {seat}'s taken cards")
    put(Counter(trick), "the trick")
    put(carried, "the carried cards")
    kitty_alone = rules.kitty_size and first < 0 and trick_number == 0
    if kitty_alone:
        put(kitty, "the kitty")
    over = {c: w for c, w in places.items() if len(w) > 2}
    if over:
        c, w = min(over.items())
        raise ValueError(
            f"{where}{card_name(c)} is in {len(w)} places ({_places(w)}): two decks hold it twice"
        )
    deck = Counter({c: 2 for c in cards_of(int(rules.deck_mask))})
    found = Counter({c: len(w) for c, w in places.items()})
    if found - deck:
        raise ValueError(f"{where}cards not in this deck: {_names(sum(1 << c for c in found - deck))}")
    if deck - found:
        raise ValueError(
            f"{where}copies in no hand, trick, taken pile, carried cards or kitty: {_copies(deck - found)}"
        )
    if trick and not 0 <= leader < p:
        raise ValueError(
            f"{where}give the leader (a seat 0..{p - 1}) of the trick on the table, got {leader}"
        )
    if leader != -2 and not 0 <= leader < p:
        raise ValueError(f"{where}leader must be a seat 0..{p - 1}, got {leader}")
    for seat in range(p):
        twice = (hands[seat] + played[seat]) - deck
        if twice:
            raise ValueError(
                f"{where}seat {seat} holds and has played more copies than two decks have: {_copies(twice)}"
            )
    in_trick = [0] * p
    for j, c in enumerate(trick):
        seat = (leader + j) % p
        in_trick[seat] = 1
        if not played[seat][c]:
            raise ValueError(
                f"{where}{card_name(c)} is card {j + 1} of the trick led by seat {leader}, so seat {seat}'s, "
                "but is not in its played cards"
            )
    for seat in range(p):
        size, count = hands[seat].total(), played[seat].total()
        if size + count != hand_size:
            raise ValueError(
                f"{where}seat {seat} holds {size} cards and has played {count}: a hand of "
                f"{hand_size} was dealt"
            )
        if count != trick_number + in_trick[seat]:
            raise ValueError(
                f"{where}seat {seat} has played {count} cards; after {trick_number} tricks and the trick "
                f"on the table it would have played {trick_number + in_trick[seat]}"
            )
    if trick_number >= hand_size:
        raise ValueError(f"{where}every trick is played: the deal is over")
    if won > trick_number:
        raise ValueError(
            f"{where}tricks_won {tricks_won} add up to {won}, more than the {trick_number} tricks played"
        )
    for seat in range(p):
        if taken[seat] and not tricks_won[seat]:
            raise ValueError(f"{where}seat {seat} has taken cards but won no trick (tricks_won)")
    if rules.kitty_size:
        if won and first < 0:
            raise ValueError(f"{where}a trick was taken: give first_trick_winner, who took the kitty with it")
        if first >= 0 and not tricks_won[first]:
            raise ValueError(
                f"{where}first_trick_winner {first} took the kitty but won no trick (tricks_won): with "
                "every trick cancelled so far the kitty is carried"
            )
        if first >= 0 and kitty - taken[first]:
            raise ValueError(f"{where}first_trick_winner {first} did not take the kitty ({_copies(kitty)})")
        if first < 0 and trick_number and kitty - carried:
            raise ValueError(
                f"{where}every trick so far was cancelled: the kitty ({_copies(kitty)}) is carried with them"
            )
    done = Counter()
    for seat in range(p):
        done += played[seat]
    done -= Counter(trick)
    gone = Counter()
    for seat in range(p):
        gone += taken[seat]
    if rules.kitty_size and not kitty_alone:  # the kitty is taken or carried, not played
        (gone if first >= 0 else carried).subtract(kitty)
    gone, carried = +gone, +carried
    if done != gone + carried:
        raise ValueError(
            f"{where}the cards taken ({_copies(gone)}) and carried ({_copies(carried)}) are not the cards "
            f"played in finished tricks ({_copies(done)})"
        )
    if carried and won == trick_number:
        raise ValueError(
            f"{where}cards are carried ({_copies(carried)}) but no trick was cancelled: tricks_won "
            f"{tricks_won} count all {trick_number} tricks"
        )
    if carried.total() % p:
        raise ValueError(
            f"{where}{carried.total()} cards are carried (less the kitty): cancelled tricks hold "
            f"{p} cards each"
        )


def position_of(engine: Any, state: Any, game: int) -> Position:
    """The position of ``game`` in ``state`` (a Hearts-family engine's), as a :class:`Position`."""
    rules: Rules = engine.rules
    _refuse(rules)
    from hearts_env.phases import PLAYING  # noqa: PLC0415

    s, g, p = state, game, rules.num_players
    if int(s.phase[g]) != PLAYING:
        raise ValueError("a position is read in the play phase; this game is passing, deciding or over")

    def names(mask: Any, second: Any = 0) -> list[str]:  # two decks: a card twice for both copies
        return [card_name(c) for c in cardsets.to_list(mask, second)]

    played, played_hi = cardsets.subtract(s.held[g], s.held_hi[g], s.hands[g], s.hands_hi[g])
    trick = [card_name(int(c)) for c in s.trick[g] if c != EMPTY]
    log = [
        [rules.decisions[k] for k in range(len(rules.decisions)) if int(s.decision_log[g, seat]) >> k & 1]
        for seat in range(p)
    ]
    stock = None
    if rules.stock_size:
        stock = [card_name(int(c)) for c in s.stock[g, int(s.stock_pos[g]) :]]
    return Position(
        hands=[names(lo, hi) for lo, hi in zip(s.hands[g], s.hands_hi[g], strict=True)],
        played=[names(lo, hi) for lo, hi in zip(played, played_hi, strict=True)],
        taken=[names(lo, hi) for lo, hi in zip(s.taken[g], s.taken_hi[g], strict=True)],
        tricks_won=[int(t) for t in s.tricks_won[g]],
        trick=trick,
        leader=int(s.leader[g]),
        kitty=names(s.kitty[g], s.kitty_hi[g]) if rules.kitty_size else None,
        first_trick_winner=int(s.first_trick_winner[g]) if int(s.first_trick_winner[g]) >= 0 else None,
        stock=stock,
        voids=[
            [_SUITS[suit] for suit in range(4) if int(s.voids[g]) >> (4 * seat + suit) & 1]
            for seat in range(p)
        ],
        passed=[names(lo, hi) for lo, hi in zip(s.chosen[g], s.chosen_hi[g], strict=True)],
        received=[names(lo, hi) for lo, hi in zip(s.received[g], s.received_hi[g], strict=True)],
        bidder=int(s.bidder[g]) if int(s.bidder[g]) >= 0 else None,
        high_bid=int(s.high_bid[g]),
        penalty_suit=_SUITS[int(s.penalty_suit[g])],
        partner=int(s.partner[g]) if int(s.partner[g]) >= 0 else None,
        decision_log=log,
        dealer=int(s.dealer[g]),
        deal_index=int(s.deal_index[g]),
        totals=[int(t) for t in s.totals[g]],
        pass_direction=PASS_DIRECTIONS[int(s.pass_direction[g])],
        extra={"uncounted": int(s.uncounted[g]), "set_aside": int(s.set_aside[g])},
        carried=names(s.carried[g], s.carried_hi[g]) if rules.decks == 2 else None,
    )
