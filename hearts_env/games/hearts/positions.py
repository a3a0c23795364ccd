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
  reads (:meth:`hearts_env.games.hearts.engine.Engine.set_positions`) and what the search agent builds by the
  thousand; :func:`check_batch` validates it with the same messages.

The trick in progress is played again on the engine from its leader, so the engine itself
works out the suit led, the card winning so far and the voids it shows, and refuses a trick
that the rules forbid. Positions are of the play phase: a deal still passing or in a decision
round starts from its deal (``reset(options={"hands": ...})``) and the decisions so far.

Two decks (Cancellation Hearts): every card set may hold both copies of a card (a card listed
twice in a :class:`Position`, a second ``*_hi`` word in a :class:`PositionBatch`, as in
:mod:`hearts_env.core.cardsets`); the trick's cards are its leader's and his followers' in turn (so
a pair on the table has two players); ``tricks_won`` counts the tricks taken and the cards of
the tricks cancelled since the last one taken are ``carried`` to the next trick's winner (with
the kitty, while every trick so far was cancelled). Smear's positions are
:mod:`hearts_env.games.smear.positions`' (``NotImplementedError`` here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from hearts_env.core import cardsets
from hearts_env.core.bits import EMPTY
from hearts_env.core.cards import NUM_CARDS, SUIT_MASKS, card_name, cards_of, parse_card
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games.hearts.engine import Engine

Cards = Sequence[int | str]


@dataclass(frozen=True)
class PositionBatch:
    """K positions as arrays, absolute seats (P players), card sets ``uint64`` masks.

    ``played`` holds every card a seat has played this deal, the current trick's included;
    ``trick`` the current trick's cards in play order (``EMPTY`` = 64 after the last one) and
    ``leader`` who led it (who leads next when it is empty). ``kitty`` is the leftover's cards
    whether taken yet or not (``first_trick_winner`` took it with the first trick, ``-1``
    before); ``stock`` and ``stock_pos`` are Domino Hearts' undealt cards in draw order and how
    many are drawn. ``voids`` are :class:`~hearts_env.games.hearts.state.State` bits (``4 * seat + suit``);
    the current trick's show-outs are added when it is played again.

    Two decks (Cancellation Hearts): every card set is a pair of words, the ``*_hi`` fields
    holding the cards it has twice (:mod:`hearts_env.core.cardsets`; they default to zeros, all a
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
    # holds twice (hearts_env.core.cardsets); zeros when not given (one deck).
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


def _refuse(rules: Rules) -> None:
    if rules.game not in Engine.games:  # positions describe the states of the Hearts family's engine
        raise NotImplementedError(
            f"positions are written for the Hearts family; {rules.preset} is not one of its games "
            f"(game={rules.game!r})"
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
    """``cards`` as the ``(lo, hi)`` words of :mod:`hearts_env.core.cardsets`: one deck, the mask and
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


TOTALS_LIMIT = 2**62
"""The largest game total (either sign) or deal index a position may give: within int64, with
room left for the deal's points."""
_EXTRA_KEYS = ("uncounted", "set_aside")
"""The engine fields :attr:`Position.extra` may give (card masks)."""


def _int(value: Any, what: str, low: int, high: int, should: str) -> int:
    """``value`` as a plain int in ``low..high``: ``TypeError`` for bools, floats and strings,
    ``ValueError`` out of range, both naming ``what`` and what it ``should`` be."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be {should}, got {type(value).__name__} {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be {should}, got {value}")
    return int(value)


def _list(value: Any, what: str, length: int | None, should: str) -> Sequence[Any]:
    """``value`` as a list or tuple (not a string) of ``length`` entries (None: any length)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{what} must be {should}, got {type(value).__name__} {value!r}")
    if length is not None and len(value) != length:
        raise ValueError(f"{what} must be {should}, got {len(value)} entries: {value!r}")
    return value


def _names_per_seat(value: Any, what: str, p: int, allowed: Sequence[str], kind: str) -> None:
    """A list per seat of distinct names from ``allowed`` (voids' suits, decision_log's names)."""
    for seat, names in enumerate(_list(value, what, p, f"one list of {kind} per seat ({p} seats)")):
        _list(names, f"{what}[{seat}]", None, f"a list of {kind}")
        for name in names:
            if not isinstance(name, str) or name not in allowed:
                raise ValueError(f"{what}[{seat}]: {name!r} is not one of {', '.join(allowed)}")
        if len(set(names)) != len(names):
            raise ValueError(
                f"{what}[{seat}] names {sorted(n for n in names if names.count(n) > 1)[0]!r} twice"
            )


def _check_fields(rules: Rules, pos: Position) -> None:
    """Every field of ``pos`` of the right type and in range (before anything is built from it):
    ``TypeError`` / ``ValueError`` naming the field, the value and what it should be. What the
    fields say together is :func:`check_batch`'s."""
    p, seats = rules.num_players, f"a seat 0..{rules.num_players - 1}"
    if pos.hands is None:
        raise TypeError(f"hands must give one list of cards per seat ({p} seats), got None")
    for name in ("played", "taken", "passed", "received"):
        value = getattr(pos, name)
        if value is not None:
            _list(value, name, p, f"one list of cards per seat ({p} seats)")
    _list(pos.trick, "trick", None, "a list of cards (e.g. ['KS', 'AS'])")
    for name in ("kitty", "stock", "carried"):
        if getattr(pos, name) is not None:
            _list(getattr(pos, name), name, None, "a list of cards or None")
    if pos.tricks_won is not None:
        _list(pos.tricks_won, "tricks_won", p, f"one count per seat ({p} seats)")
        for seat, count in enumerate(pos.tricks_won):
            most = _most_tricks(rules)
            _int(count, f"tricks_won[{seat}]", 0, most, f"a count of tricks 0..{most}")
    for name in ("leader", "first_trick_winner", "bidder", "partner"):
        if getattr(pos, name) is not None:
            _int(getattr(pos, name), name, 0, p - 1, f"{seats} or None")
    _int(pos.dealer, "dealer", 0, p - 1, seats)
    _int(pos.deal_index, "deal_index", 0, TOTALS_LIMIT, "an int 0 or more (the deal's number in the game)")
    top = rules.max_bid if rules.bidding == "auction" else 0
    _int(pos.high_bid, "high_bid", 0, top, f"a bid 0..{top} ({rules.preset}'s bids; 0: none)")
    if not isinstance(pos.penalty_suit, str) or len(pos.penalty_suit) != 1 or pos.penalty_suit not in _SUITS:
        error = ValueError if isinstance(pos.penalty_suit, str) else TypeError
        raise error(f"penalty_suit must be one of 'C', 'D', 'H', 'S', got {pos.penalty_suit!r}")
    if pos.voids is not None:
        _names_per_seat(pos.voids, "voids", p, tuple(_SUITS), "suits")
    if pos.decision_log is not None:
        _names_per_seat(pos.decision_log, "decision_log", p, rules.decisions or ("(none)",), "decisions")
    if pos.totals is not None:
        for seat, total in enumerate(_list(pos.totals, "totals", p, f"one score per seat ({p} seats)")):
            _int(
                total, f"totals[{seat}]", -TOTALS_LIMIT, TOTALS_LIMIT, "an int within ±2**62, the game score"
            )
    if not isinstance(pos.pass_direction, str) or pos.pass_direction not in PASS_DIRECTIONS:
        error = ValueError if isinstance(pos.pass_direction, str) else TypeError
        raise error(f"pass_direction must be one of {', '.join(PASS_DIRECTIONS)}, got {pos.pass_direction!r}")
    if not isinstance(pos.extra, dict):
        raise TypeError(f"extra must be a dict of {' and '.join(_EXTRA_KEYS)} masks, got {pos.extra!r}")
    unknown = sorted(map(repr, set(pos.extra) - set(_EXTRA_KEYS)))
    if unknown:
        raise ValueError(
            f"extra: unknown keys {', '.join(unknown)}: the known ones are {', '.join(_EXTRA_KEYS)}"
        )
    for key, mask in pos.extra.items():
        _int(mask, f"extra[{key!r}]", 0, (1 << 64) - 1, "a card mask (an int 0..2**64-1)")
        if mask & ~rules.deck_mask:
            raise ValueError(
                f"extra[{key!r}] holds cards not in the deck of {rules.preset}: "
                f"{_names(mask & ~rules.deck_mask)}"
            )


def position_batch(rules: Rules, position: Position) -> PositionBatch:
    """:class:`Position` ``position`` of ``rules`` checked and as a batch of one (``ValueError``
    naming what is inconsistent)."""
    _refuse(rules)
    if not isinstance(position, Position):
        raise TypeError(f"a position must be a hearts_env.Position, got {type(position).__name__}")
    _check_fields(rules, position)
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
    if pos.kitty is None and two_decks and rules.kitty_size:  # the copies found nowhere else
        rest = Counter({c: 2 for c in cards_of(int(rules.deck_mask))})
        rest -= Counter(trick_cards)
        for lo, hi in zip(hands + taken + [carried], hands_hi + taken_hi + [carried_hi], strict=True):
            rest -= Counter(cardsets.to_list(lo, hi))
        kitty, kitty_hi = cardsets.from_list(rest.elements())
    elif pos.kitty is None and rules.kitty_size:
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
    if first < 0 and trick_number and rules.kitty_size:
        holder = [s for s in range(p) if kitty and cardsets.contains(taken[s], taken_hi[s], kitty, kitty_hi)]
        first = holder[0] if holder else -1
    if leader < 0:
        if trick_cards or trick_number:
            raise ValueError("give the leader: the seat that led the trick on the table (or leads next)")
        leader = -2  # the first leader of the rules (set_positions finds him)
    voids = 0
    for seat, suits in enumerate(pos.voids or ()):
        for suit in suits:
            voids |= 1 << (4 * seat + _SUITS.index(suit))
    totals = [0] * p if pos.totals is None else [int(t) for t in pos.totals]
    log = [0] * p
    for seat, names in enumerate(pos.decision_log or ()):
        for name in names:
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
    """The cards of ``mask`` by name (a bit past the cards by its number)."""
    return ", ".join(card_name(c) if c < NUM_CARDS else f"bit {c}" for c in cards_of(mask)) or "none"


_PER_SEAT = ("hands", "played", "taken", "tricks_won", "trick", "totals", "chosen", "received",
             "decision_log", "hands_hi", "played_hi", "taken_hi", "chosen_hi", "received_hi")  # fmt: skip
"""The (K, P) fields of a :class:`PositionBatch`; ``stock`` is (K, S) and the rest (K,)."""
_CARD_SETS = ("hands", "played", "taken", "chosen", "received", "kitty", "carried")
"""The card-set fields (``uint64`` masks, each with its ``*_hi`` word: ``carried_hi``, ``kitty_hi`` …)."""
_UINT_FIELDS = (
    frozenset(_CARD_SETS) | frozenset(_SECOND_WORDS) | {"voids", "decision_log", "uncounted", "set_aside"}
)


def _most_tricks(rules: Rules) -> int:
    """The tricks a deal can have: one a card of the hand; Domino Hearts' draws make more, of two
    cards at least."""
    return len(rules.deck) // 2 if rules.stock_size else rules.hand_size


def _first_trick_rules(rules: Rules) -> bool:
    """Whether the engine records who took the first trick (``first_trick_winner``): a kitty
    goes with it, or the first trick has a rule of its own (``first_trick_all_penalty``)."""
    return bool(rules.kitty_size) or rules.first_trick_all_penalty in ("not_counted", "to_lowest")


def _check_arrays(rules: Rules, batch: PositionBatch) -> None:
    """Every field of ``batch`` an array of the right dtype and shape, every value in range and
    every field the rules have no use for at its neutral value (vectorised: this runs before
    the per-position checks)."""
    if not isinstance(batch, PositionBatch):
        got = type(batch).__name__
        raise TypeError(f"positions must be a hearts_env.games.hearts.PositionBatch, got {got}")
    p, s = rules.num_players, rules.stock_size
    if not isinstance(batch.leader, np.ndarray) or batch.leader.ndim != 1:
        raise TypeError(f"leader must be a (K,) int64 array, got {batch.leader!r}")
    k = len(batch.leader)
    for f in fields(PositionBatch):
        value, name = getattr(batch, f.name), f.name
        shape = (k, p) if name in _PER_SEAT else (k, s) if name == "stock" else (k,)
        kind = "uint64" if name in _UINT_FIELDS else "float64" if name == "pool" else "int64"
        if not isinstance(value, np.ndarray):
            raise TypeError(
                f"{name} must be a numpy array of {kind}, shape {shape}, got {type(value).__name__}"
            )
        ok = (
            value.dtype == np.uint64
            if kind == "uint64"
            else value.dtype.kind in ("fiu" if kind == "float64" else "iu")
        )
        if not ok:
            raise TypeError(f"{name} must be an array of {kind}, got {value.dtype}")
        if value.shape != shape:
            raise ValueError(
                f"{name} must have shape {shape} (K={k} positions, {p} seats), got {value.shape}"
            )

    def refuse(name: str, bad: np.ndarray, should: str) -> None:
        if bad.any():
            i = int(np.flatnonzero(bad.reshape(k, -1).any(axis=1))[0])
            value = getattr(batch, name)[i]
            shown = (
                value.tolist() if value.ndim else (_names(int(value)) if value.dtype == np.uint64 else value)
            )
            where = f"position {i}: " if k > 1 else ""
            raise ValueError(f"{where}{name} must be {should}, got {shown}")

    def outside(name: str, low: int, high: int, should: str) -> None:
        value = getattr(batch, name)
        refuse(name, (value < low) | (value > high), should)

    seats = f"a seat 0..{p - 1}"
    outside("dealer", 0, p - 1, seats)
    outside("leader", -2, p - 1, f"{seats} (-2: the rules' first leader, nothing played yet)")
    refuse("leader", batch.leader == -1, f"{seats} (-2: the rules' first leader, nothing played yet)")
    outside(
        "trick_number",
        0,
        _most_tricks(rules) - 1,
        f"0..{_most_tricks(rules) - 1} (the tricks played before this one)",
    )
    outside("tricks_won", 0, _most_tricks(rules), f"counts of tricks 0..{_most_tricks(rules)}")
    outside("deal_index", 0, TOTALS_LIMIT, "0 or more")
    outside("totals", -TOTALS_LIMIT, TOTALS_LIMIT, "game scores within ±2**62")
    refuse("pool", ~np.isfinite(batch.pool) | (batch.pool < 0), "a finite jackpot, 0 or more")
    directions = [i for i, d in enumerate(PASS_DIRECTIONS)
                  if d == "hold" or (rules.pass_count and not (d == "across" and p % 2))]  # fmt: skip
    refuse("pass_direction", ~np.isin(batch.pass_direction, directions),
           f"a direction index {directions} ({', '.join(PASS_DIRECTIONS[i] for i in directions)}) for "
           f"{rules.preset} at {p} players")  # fmt: skip
    # The decisions' fields: in range where the rules make the decision, else at the neutral value.
    preset = rules.preset
    for name, used, low, high, should, neutral in (
        ("penalty_suit", rules.bidding == "auction", 0, 3, "a suit 0..3 (C, D, H, S)",
         f"2 (hearts): {preset} names no penalty suit"),
        ("high_bid", rules.bidding == "auction", 0, rules.max_bid, f"a bid 0..{rules.max_bid}",
         f"0: {preset} has no bids"),
        ("bidder", rules.bidding != "none", -1, p - 1, f"{seats} or -1",
         f"-1: {preset} has no bids or declarations"),
        ("partner", rules.bidding == "slam", -1, p - 1, f"{seats} or -1",
         f"-1: {preset} has no silent partner"),
        ("first_trick_winner", _first_trick_rules(rules), -1, p - 1, f"{seats} or -1",
         f"-1: {preset} has no kitty or first-trick rule"),
    ):  # fmt: skip
        if used:
            outside(name, low, high, should)
        else:
            outside(name, low if name != "penalty_suit" else 2, low if name != "penalty_suit" else 2, neutral)
    outside("stock_pos", 0, s, f"0..{s} (the stock's cards drawn)")
    stock_card = (batch.stock >= 0) & (batch.stock < rules.card_slots)
    refuse(
        "stock", ~stock_card & (batch.stock != EMPTY), f"cards 0..{rules.card_slots - 1} or EMPTY ({EMPTY})"
    )
    refuse("stock", ~stock_card & (np.arange(s)[None, :] >= batch.stock_pos[:, None]),
           "cards from stock_pos on (the cards not drawn)")  # fmt: skip
    trick_card = (batch.trick >= 0) & (batch.trick < rules.card_slots)
    refuse(
        "trick", ~trick_card & (batch.trick != EMPTY), f"cards 0..{rules.card_slots - 1} or EMPTY ({EMPTY})"
    )
    refuse(
        "trick",
        trick_card[:, 1:] & ~trick_card[:, :-1],
        f"the cards in play order, EMPTY ({EMPTY}) after them",
    )
    refuse("trick", trick_card[:, -1], f"fewer than {p} cards (a full trick is over)")
    deck = np.uint64(rules.deck_mask)
    for name in _CARD_SETS + ("uncounted", "set_aside"):
        refuse(name, (getattr(batch, name) & ~deck) != 0, f"cards of the deck of {rules.preset}")
    decisions = np.uint64((1 << len(rules.decisions)) - 1)
    refuse(
        "decision_log",
        (batch.decision_log & ~decisions) != 0,
        f"bits of {rules.preset}'s {len(rules.decisions)} decisions ({', '.join(rules.decisions) or 'none'})",
    )
    refuse("voids", (batch.voids >> np.uint64(4 * p)) != 0, f"bits 4 * seat + suit of seats 0..{p - 1}")
    if not rules.kitty_size:
        refuse("kitty", batch.kitty != 0, f"empty: {rules.preset} has no kitty")
    if rules.first_trick_all_penalty != "not_counted":
        refuse("uncounted", batch.uncounted != 0, f"empty: {rules.preset} counts every card")
    if rules.first_trick_all_penalty != "to_lowest":
        refuse("set_aside", batch.set_aside != 0, f"empty: {rules.preset} sets no trick aside")
    if rules.decks == 1:
        for name in _SECOND_WORDS:
            refuse(name, getattr(batch, name) != 0, f"empty: {rules.preset} plays one deck")
    for name in _CARD_SETS:
        lo, hi = getattr(batch, name), getattr(batch, f"{name}_hi" if name != "carried" else "carried_hi")
        refuse(f"{name}_hi", (hi & ~lo) != 0, f"within {name} (the cards held twice are held once too)")


def check_batch(rules: Rules, batch: PositionBatch) -> None:
    """Raise ``TypeError`` / ``ValueError`` naming the first inconsistency of the positions
    ``batch`` with ``rules``, before anything is changed: a field of the wrong dtype or shape, a
    value out of range or one the rules have no use for (a kitty where there is none, a bid
    without bidding); cards in two places or in none, hand sizes, the trick's cards out of turn,
    tricks counted and taken, the kitty's taker, the passed and received cards, voids in a suit
    a seat holds, the first leader, the decisions logged. (Whether the rules allowed the trick's
    cards is checked when it is played again.)"""
    _refuse(rules)
    _check_arrays(rules, batch)
    p, k = rules.num_players, len(batch)
    deck = int(rules.deck_mask)
    for i in range(k):
        where = f"position {i}: " if k > 1 else ""
        trick = [int(c) for c in batch.trick[i] if c != EMPTY]
        if int(batch.leader[i]) == -2 and (trick or int(batch.trick_number[i])):
            raise ValueError(
                f"{where}leader must be a seat 0..{p - 1} once a card is played (-2, the rules' first "
                "leader, is for a deal not begun)"
            )
        if rules.decks == 2:
            _check_two_decks(rules, batch, i, where)
            _check_common(rules, batch, i, where)
            continue
        hands = [int(m) for m in batch.hands[i]]
        played = [int(m) for m in batch.played[i]]
        taken = [int(m) for m in batch.taken[i]]
        if len(set(trick)) != len(trick):
            raise ValueError(f"{where}the trick holds a card twice: {[card_name(c) for c in trick]}")
        trick_mask = sum(1 << c for c in trick)
        kitty, first = int(batch.kitty[i]), int(batch.first_trick_winner[i])
        stock_left = 0
        if rules.stock_size:
            left = [int(c) for c in batch.stock[i, int(batch.stock_pos[i]) :]]
            if len(set(left)) != len(left):
                raise ValueError(f"{where}the stock holds a card twice: {[card_name(c) for c in left]}")
            stock_left = sum(1 << c for c in left)
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
        if trick and not played[leader] >> trick[0] & 1:
            raise ValueError(
                f"{where}the trick was led by seat {leader}, who did not play {card_name(trick[0])}"
            )
        _check_one_deck(rules, batch, i, where, hands, played, taken, trick)
        _check_common(rules, batch, i, where)


def _check_one_deck(
    rules: Rules, batch: PositionBatch, i: int, where: str, hands: list[int], played: list[int],
    taken: list[int], trick: list[int],
) -> None:  # fmt: skip
    """:func:`check_batch`'s checks of position ``i`` (one deck) beyond where the cards are:
    the trick's cards in seat order, the kitty's size, the first trick's record, the tricks won
    against the cards taken, Domino Hearts' cards dealt and drawn."""
    p, hand_size = rules.num_players, rules.hand_size
    leader, trick_number = int(batch.leader[i]), int(batch.trick_number[i])
    first, set_aside = int(batch.first_trick_winner[i]), int(batch.set_aside[i])
    tricks_won = [int(t) for t in batch.tricks_won[i]]
    domino = bool(rules.stock_size)
    if not domino:  # Domino's turn skips the seats out of cards: only the lead is sure
        for j, c in enumerate(trick):
            seat = (leader + j) % p
            if not played[seat] >> c & 1:
                raise ValueError(
                    f"{where}{card_name(c)} is card {j + 1} of the trick led by seat {leader}, so seat "
                    f"{seat}'s, but is not in its played cards"
                )
    if _first_trick_rules(rules) and (first >= 0) != (trick_number > 0):
        raise ValueError(
            f"{where}first_trick_winner is {first} after {trick_number} tricks: the first trick's taker "
            "once it is over, -1 before"
        )
    if set_aside and set_aside.bit_count() != p:
        raise ValueError(f"{where}set_aside must be the first trick's {p} cards, got {_names(set_aside)}")
    uncounted = int(batch.uncounted[i])
    if uncounted and (first < 0 or uncounted & ~(taken[first] & rules.penalty_mask)):
        raise ValueError(
            f"{where}uncounted must be penalty cards that first_trick_winner ({first}) took, got "
            f"{_names(uncounted)}"
        )
    for seat in range(p):
        size, won = taken[seat].bit_count(), tricks_won[seat]
        if domino:  # a trick holds a card of every seat still in: 2..P cards
            if not won <= size <= p * won:
                raise ValueError(
                    f"{where}seat {seat} has taken {size} cards in {won} tricks (tricks_won): a trick holds "
                    f"1..{p} cards"
                )
            continue
        expect = p * won + (rules.kitty_size - set_aside.bit_count() if seat == first else 0)
        if size != expect:
            with_first = " with the kitty" if rules.kitty_size and seat == first else ""
            raise ValueError(
                f"{where}seat {seat} has taken {size} cards but won {won} tricks (tricks_won): {p} cards a "
                f"trick{with_first} make {expect}"
            )
    if domino:
        drawn = int(batch.stock_pos[i])
        dealt = sum(h.bit_count() + q.bit_count() for h, q in zip(hands, played, strict=True))
        if dealt != p * hand_size + drawn:
            raise ValueError(
                f"{where}the seats hold and have played {dealt} cards: {p} hands of {hand_size} and the "
                f"{drawn} cards drawn from the stock (stock_pos) make {p * hand_size + drawn}"
            )
        for seat in range(p):
            most = trick_number + any(played[seat] >> c & 1 for c in trick)
            if played[seat].bit_count() > most:
                raise ValueError(
                    f"{where}seat {seat} has played {played[seat].bit_count()} cards: one a trick, after "
                    f"{trick_number} tricks and the trick on the table, is at most {most}"
                )
        if not trick and not hands[leader]:
            raise ValueError(f"{where}seat {leader} leads but holds no card (leader)")


def _held(batch: PositionBatch, i: int, seat: int) -> Counter:
    """The cards seat ``seat`` of position ``i`` held at the start of play (its hand and the
    cards it has played; Domino's draws too), each copy counted."""
    return Counter(cardsets.to_list(int(batch.hands[i, seat]), int(batch.hands_hi[i, seat]))) + Counter(
        cardsets.to_list(int(batch.played[i, seat]), int(batch.played_hi[i, seat]))
    )


def _check_common(rules: Rules, batch: PositionBatch, i: int, where: str) -> None:
    """:func:`check_batch`'s checks of position ``i`` for one deck or two: the exchange, the
    voids, the first leader and the decisions."""
    p = rules.num_players
    held = [_held(batch, i, seat) for seat in range(p)]
    _check_exchange(rules, batch, i, where, held)
    voids = int(batch.voids[i])
    for seat in range(p):
        for suit in range(4):
            shown = voids >> (4 * seat + suit) & 1
            if shown and int(batch.hands[i, seat]) & SUIT_MASKS[suit]:
                raise ValueError(
                    f"{where}voids: seat {seat} is void in {_SUITS[suit]} but holds "
                    f"{_names(int(batch.hands[i, seat]) & SUIT_MASKS[suit])}"
                )
    leader, bidder, dealer = int(batch.leader[i]), int(batch.bidder[i]), int(batch.dealer[i])
    if not int(batch.trick_number[i]) and leader >= 0 and not (rules.stock_size and int(batch.stock_pos[i])):
        if rules.bidding in ("auction", "slam") and bidder >= 0:
            expect, who = bidder, "the bidder"
        elif rules.first_lead == "eldest":
            expect, who = (dealer + 1) % p, f"eldest hand (the dealer {dealer}'s left)"
        else:
            clubs = sum(1 << c for c in set().union(*held)) & SUIT_MASKS[0]
            lowest = clubs & -clubs
            holders = [seat for seat in range(p) if lowest and held[seat][lowest.bit_length() - 1]]
            expect = min(holders, key=lambda seat: (seat - dealer - 1) % p) if holders else 0
            who = f"the holder of {_names(lowest)}, the lowest club"
            if rules.decks == 2 and leader in holders:  # either copy's holder (a world's dealer is not known)
                expect = leader
        if leader != expect:
            raise ValueError(
                f"{where}leader {leader} leads the first trick, but {who} leads it: seat {expect}"
            )
    _check_decisions(rules, batch, i, where, held)


def _check_exchange(rules: Rules, batch: PositionBatch, i: int, where: str, held: list[Counter]) -> None:
    """The passed (``chosen``) and received cards of position ``i``: none without a pass. With
    one, a record is optional (a search world knows only the observer's; empty: not recorded),
    but a record given is ``pass_count`` cards, a seat's received cards are those its passer
    passed, and they are held (or played) by the receiver and no longer by the passer (unless
    the other copy came back)."""
    p, direction = rules.num_players, PASS_DIRECTIONS[int(batch.pass_direction[i])]

    def cards(name: str, seat: int) -> Counter:
        lo, hi = getattr(batch, name)[i, seat], getattr(batch, f"{name}_hi")[i, seat]
        return Counter(cardsets.to_list(int(lo), int(hi)))

    passed, received = [cards("chosen", s) for s in range(p)], [cards("received", s) for s in range(p)]
    if direction == "hold":
        if any(passed) or any(received):
            raise ValueError(
                f"{where}pass_direction is hold: nobody passed, so chosen and received must be empty"
            )
        return
    offset = rules.pass_offset(direction)
    for seat in range(p):
        target, sent = (seat + offset) % p, passed[seat]
        for name, record in (("passed", sent), ("received", received[seat])):
            if record and record.total() != rules.pass_count:
                raise ValueError(
                    f"{where}seat {seat} {name} {record.total()} cards ({_copies(record)}): "
                    f"{rules.preset} passes {rules.pass_count}"
                )
        if sent and received[target] and received[target] != sent:
            raise ValueError(
                f"{where}seat {seat} passed {_copies(sent)} {direction} to seat {target}, who received "
                f"{_copies(received[target])}"
            )
        for name, record, owner in (("received", received[seat], seat), ("passed", sent, target)):
            if record - held[owner]:
                raise ValueError(
                    f"{where}seat {seat} {name} {_copies(record - held[owner])}, but seat {owner} neither "
                    "holds nor has played it"
                )
        dealt = held[seat] - received[seat] + sent
        twice = Counter({c: n - rules.decks for c, n in dealt.items() if n > rules.decks})
        if twice:
            raise ValueError(f"{where}seat {seat} passed {_copies(twice)} but still holds or has played it")


def _check_decisions(rules: Rules, batch: PositionBatch, i: int, where: str, held: list[Counter]) -> None:
    """The decisions logged in position ``i`` against the bidder, the bid, the named suit and
    the silent partner they made (a log is optional; what it says must hold)."""
    p, names = rules.num_players, rules.decisions
    logs = [
        {names[b] for b in range(len(names)) if int(batch.decision_log[i, seat]) >> b & 1}
        for seat in range(p)
    ]
    bidder, high_bid = int(batch.bidder[i]), int(batch.high_bid[i])
    for seat, log in enumerate(logs):
        late = sorted(log & {"moon:add", "moon:subtract"})
        if late:
            raise ValueError(
                f"{where}decision_log[{seat}] holds {', '.join(late)}: the shooter decides after the last "
                "trick, not in play"
            )
    if rules.bidding in ("general", "slam"):
        declared = [seat for seat in range(p) if rules.bidding in logs[seat]]
        if declared and declared != [bidder]:
            raise ValueError(
                f"{where}decision_log: seats {declared} declared {rules.bidding} and the bidder is {bidder}: "
                "the first declaration closes the round, its maker is the bidder"
            )
    if rules.bidding == "auction":
        if (bidder >= 0) != (high_bid > 0):
            raise ValueError(
                f"{where}bidder {bidder} with high_bid {high_bid}: the auction's winner and his bid go "
                "together"
            )
        bids = [(int(name[4:]), seat) for seat in range(p) for name in logs[seat] if name.startswith("bid:")]
        for seat in range(p):
            made = [name for name in logs[seat] if name == "pass" or name.startswith("bid:")]
            if len(made) > 1:
                raise ValueError(f"{where}decision_log[{seat}]: {sorted(made)}, but each seat bids once")
        if bids and max(bids) != (high_bid, bidder):
            top, seat = max(bids)
            raise ValueError(
                f"{where}decision_log: the highest bid is seat {seat}'s {top}, but bidder is {bidder} and "
                f"high_bid {high_bid}"
            )
        named = [(seat, name) for seat in range(p) for name in logs[seat] if name.startswith("suit:")]
        suit = f"suit:{_SUITS[int(batch.penalty_suit[i])]}"
        if named and named != [(bidder, suit)]:
            raise ValueError(
                f"{where}decision_log: {named} named the suit, but the bidder {bidder} names it and the "
                f"penalty suit is {suit[5:]}"
            )
    if rules.bidding == "slam":
        partner, ten = int(batch.partner[i]), parse_card("TD")
        holders = [seat for seat in range(p) if held[seat][ten]]
        expect = holders[0] if bidder >= 0 and holders and holders[0] != bidder else -1
        if partner != expect:
            raise ValueError(
                f"{where}partner must be {expect} (the holder of TD when the bidder {bidder} is another "
                f"seat, else -1), got {partner}"
            )


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
                    f"twice but {name} not once (hi within lo, hearts_env.core.cardsets)"
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
    from hearts_env.core.phases import PLAYING  # noqa: PLC0415

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
