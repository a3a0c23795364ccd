"""The world sampler every family shares (what an observation fixes, exact counts, uniform
draws, worlds as positions) and the Hearts family's reading of its observation
(:func:`hearts_knowledge`); :mod:`hearts_env.worlds` says what a world is, what constrains one and
how the sampler counts and draws, and picks each family's reading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from math import comb, factorial

import numpy as np

from hearts_env.core import cardsets
from hearts_env.core.bits import BIT, EMPTY, U64, ZERO, unpack
from hearts_env.core.cards import SUIT_SYMBOLS, card_symbol, parse_card
from hearts_env.core.layouts import Layout
from hearts_env.core.rules import Rules
from hearts_env.games.hearts.observation import hearts_layout
from hearts_env.games.hearts.positions import PositionBatch

_CHUNK = 4096
"""Worlds dealt at once (bounds the memory of the dealing arrays)."""


@dataclass(frozen=True)
class Knowledge:
    """What one observation fixes about the hidden cards, by relative seat (0 = the observer).

    Card arrays have one entry per card slot (``rules.card_slots``) and hold copies (0, 1, 2).
    """

    hand: np.ndarray
    """(C,) the observer's hand."""
    unseen: np.ndarray
    """(C,) copies of each card whose place the observer does not know."""
    pinned: np.ndarray
    """(P, C) copies known to be in each seat's hand now (passed cards not yet played; row 0 is
    the observer's hand)."""
    sizes: np.ndarray
    """(P,) cards each seat holds now."""
    voids: np.ndarray
    """(P, 5) bool: the seat holds no card of the suit (♣ ♦ ♥ ♠, then the jokers' column, never
    void; row 0 is unused)."""
    rest: int
    """Unseen cards outside the hands: the kitty (not taken by the observer) or the stock."""
    rest_name: str
    """``"kitty"``, ``"stock"`` or ``""`` (no such cards)."""
    suit: np.ndarray | None = None
    """(C,) the sampler's suit (0-4) of each card slot, the column of ``voids`` it falls in;
    None: its printed suit, 4 for the jokers. (Smear's trumps take in the jick and the jokers.)"""

    counts: tuple[tuple[int, int, int, int], ...] = ()
    """(seat, suit, least, most): the seat holds between ``least`` and ``most`` unseen cards of
    the suit (nine-card Smear: a seat still in the deal holds a trump; how many trumps a seat
    played to the first trick tells how many it held)."""

    def bounds(self, seat: int, suit: int) -> tuple[int, int]:
        """The least and the most unseen cards of ``suit`` that ``seat`` may hold."""
        least, most = 0, 1 << 30
        for q, g, lo, hi in self.counts:
            if (q, g) == (seat, suit):
                least, most = max(least, lo), min(most, hi)
        return least, most

    @property
    def suits(self) -> np.ndarray:
        """(C,) the sampler's suit of each card slot (see ``suit``)."""
        return _suit_of(len(self.unseen)) if self.suit is None else self.suit

    @property
    def free_sizes(self) -> np.ndarray:
        """(P,) unseen cards each seat holds beyond its pinned ones (0 for the observer)."""
        free = self.sizes - self.pinned.sum(axis=1)
        free[0] = 0
        return free


@dataclass(frozen=True)
class Worlds:
    """Sampled worlds of one observation, as card sets by relative seat.

    One deck: ``hands`` is (W, P) uint64 and ``rest`` (W,) uint64. Two decks: ``hands`` is
    (W, P, 2) and ``rest`` (W, 2), the ``(lo, hi)`` words of :mod:`hearts_env.core.cardsets`
    stacked on a last axis. ``hands[:, 0]`` is the observer's own hand; ``rest`` holds the
    unseen kitty or stock (0 when there is none). Drawn for a batch of observations, both have
    a leading (B,) axis.
    """

    hands: np.ndarray
    """(W, P) or (W, P, 2): each world's hand of every relative seat."""
    rest: np.ndarray
    """(W,) or (W, 2): each world's unseen kitty or stock."""
    rules: Rules | None = None
    """The rules the worlds were sampled for (:func:`sample_worlds` records them; None: not
    known, as for worlds built by hand); ``world_positions`` refuses worlds of other rules."""


def _suit_of(slots: int) -> np.ndarray:
    """(C,) the sampler's suit of each card slot: 0-3, or 4 for the jokers."""
    cards = np.arange(slots)
    return np.where(cards < 52, cards // 13, 4)


def read_observation(
    lay: Layout, rules: Rules, observation: np.ndarray, check: bool = True
) -> tuple[Layout, np.ndarray, Callable[[str], np.ndarray]]:
    """``(layout, obs, piece)`` of one observation (D,) of ``rules`` in its family's layout ``lay``:
    the layout, the observation as float64, and a reader of a piece's values rounded to ints.
    ``check``: ``ValueError`` for an observation of another length."""
    obs = np.asarray(observation, dtype=np.float64)
    if check and obs.shape != (lay.size,):
        raise ValueError(
            f"an observation of {rules.preset} with {rules.num_players} players is one vector of "
            f"{lay.size} values, got shape {obs.shape}"
        )

    def piece(name: str) -> np.ndarray:
        return np.rint(lay.view(obs, name)).astype(np.int64)

    return lay, obs, piece


def hearts_knowledge(rules: Rules, observation: np.ndarray) -> Knowledge:
    """What the observation (D,) of Hearts-family ``rules`` fixes about the hidden cards.

    Raises ``ValueError`` for an observation of other rules or one no deal can produce (naming
    what does not fit).
    """
    lay, obs, piece = read_observation(hearts_layout(rules), rules, observation)
    p, c = rules.num_players, rules.card_slots

    hand, played, passed = piece("hand"), piece("played_by_seat"), piece("passed")
    deck = np.zeros(c, np.int64)
    np.add.at(deck, rules.deck.cards, 1)
    phase = piece("phase")
    passing = bool(phase[rules.phases.index("passing")]) if "passing" in rules.phases else False
    pinned = np.zeros((p, c), np.int64)
    pinned[0] = hand
    if passed.any() and not passing:
        direction = ("left", "right", "across", "hold")[int(np.argmax(piece("pass_direction")))]
        receiver = rules.pass_offset(direction)
        pinned[receiver] = np.maximum(passed - played[receiver], 0)
    if rules.stock_size:
        sizes = np.rint(lay.view(obs, "hand_sizes") * rules.hand_size).astype(np.int64)
        rest = int(np.rint(lay.view(obs, "stock_left")[0] * rules.stock_size))
        rest_name = "stock"
    else:
        sizes = rules.hand_size - played.sum(axis=1)
        kitty = piece("kitty") if rules.kitty_size else np.zeros(c, np.int64)  # seen once taken
        rest = 0 if kitty.any() else rules.kitty_size
        rest_name = "kitty" if rules.kitty_size else ""
    seen = played.sum(axis=0) + pinned.sum(axis=0) + (0 if rules.stock_size else kitty)
    unseen = deck - seen
    voids = np.zeros((p, 5), bool)
    voids[:, :4] = piece("known_voids").astype(bool)
    result = Knowledge(hand, unseen, pinned, sizes, voids, rest, rest_name)
    _check(rules, result)
    return result


def _check(rules: Rules, k: Knowledge) -> None:
    """``ValueError`` naming the first fact of ``k`` that no deal of ``rules`` can give."""
    over = np.flatnonzero(k.unseen < 0)
    if len(over):
        copies = "one copy" if rules.decks == 1 else "two copies"
        raise ValueError(
            f"the observation places {card_symbol(int(over[0]))} more often than the deck's {copies}"
        )
    if k.sizes[0] != k.hand.sum():
        raise ValueError(f"the observer must hold {k.sizes[0]} cards but the hand piece holds {k.hand.sum()}")
    suit = k.suits
    free = k.free_sizes
    for seat in range(1, len(k.sizes)):
        shown = np.flatnonzero(k.pinned[seat] & k.voids[seat][suit])
        if len(shown):
            card = int(shown[0])
            raise ValueError(
                f"seat {seat} holds the passed {card_symbol(card)} but has shown out of "
                f"{SUIT_SYMBOLS[card // 13]}"
            )
        if free[seat] < 0:
            raise ValueError(
                f"seat {seat} must hold {k.sizes[seat]} cards but holds {k.pinned[seat].sum()} passed cards"
            )
        fits = int(k.unseen[~k.voids[seat][suit]].sum())
        if free[seat] > fits:
            raise ValueError(
                f"seat {seat} must hold {free[seat]} unseen cards but only {fits} unseen cards fit its voids"
            )
    holders = int(free.sum()) + k.rest
    if holders != k.unseen.sum():
        where = f" and the {k.rest_name} {k.rest}" if k.rest_name else ""
        raise ValueError(
            f"the other seats hold {int(free.sum())} unseen cards{where}, "
            f"but {int(k.unseen.sum())} cards are unseen"
        )


class _Counter:
    """The dynamic programme of one :class:`Knowledge`.

    Its steps take the constrained seats one after another and, for each, the suits it may hold
    one after another; a step's state is the unseen cards left in each suit (the cards the seat
    still needs follow from it, since every earlier seat took exactly its need), and
    :meth:`worlds` counts the worlds from a state on.
    """

    def __init__(self, k: Knowledge) -> None:
        suit = k.suits
        self.left = tuple(int(k.unseen[suit == g].sum()) for g in range(5))
        free = k.free_sizes
        # The seats with a void or a count to keep (and cards to receive) go through the
        # programme; the others and the rest share what is left by one multinomial.
        counted = {q for q, _, _, _ in k.counts}
        self.seats = [q for q in range(1, len(free)) if free[q] and (k.voids[q].any() or q in counted)]
        # A seat that must hold a suit it is void of, or of which no card is unseen: no world.
        self.impossible = any(
            lo > 0 and (k.voids[q, g] or not self.left[g] or not free[q]) for q, g, lo, _ in k.counts
        )
        self.others = [q for q in range(1, len(free)) if q not in self.seats]
        need = [int(free[q]) for q in self.seats]
        # steps[n] = (constrained seat index j, suit g, unseen cards left when seat j starts,
        # its need): one step per suit with unseen cards that a constrained seat may hold
        # (:func:`_check` has made sure that each seat's need fits its suits).
        self.steps: list[tuple[int, int, int, int]] = []
        self.limits: list[tuple[int, int]] = []  # the least and most cards of each step's suit
        start = sum(self.left)
        for j, q in enumerate(self.seats):
            suits = [g for g in range(5) if self.left[g] and not k.voids[q, g]]
            self.steps += [(j, g, start, need[j]) for g in suits]
            self.limits += [k.bounds(q, g) for g in suits]
            start -= need[j]
        # The last constrained seat takes any of its suits' cards (one binomial), unless it has
        # counts to keep.
        self.last_free = bool(self.seats) and not any(q == self.seats[-1] for q, _, _, _ in k.counts)
        shares = [int(free[q]) for q in self.others] + [k.rest]
        self.tail = factorial(sum(shares))
        for share in shares:
            self.tail //= factorial(share)
        self.worlds = lru_cache(maxsize=None)(self._worlds)
        self.cumulative = lru_cache(maxsize=None)(self._cumulative)

    def options(self, n: int, left: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """Step ``n`` from ``left``: the cards its seat may take of its suit, and the worlds of each."""
        j, g, start, need = self.steps[n]
        need -= start - sum(left)  # what the seat still needs
        last = n + 1 == len(self.steps) or self.steps[n + 1][0] != j
        later = 0 if last else sum(left[step[1]] for step in self.steps[n + 1 :] if step[0] == j)
        takes, worlds = [], []
        least, most = self.limits[n]
        for x in range(max(0, need - later, least), min(need, left[g], most) + 1):
            after = left[:g] + (left[g] - x,) + left[g + 1 :]
            ways = comb(left[g], x) * self.worlds(n + 1, after)
            if ways:
                takes.append(x)
                worlds.append(ways)
        return takes, worlds

    def _cumulative(self, n: int, left: tuple[int, ...]) -> tuple[list[int], np.ndarray]:
        """:meth:`options` as the choices and their cumulative probabilities (float64)."""
        takes, worlds = self.options(n, left)
        total = sum(worlds)
        return takes, np.cumsum([ways / total for ways in worlds])

    def _worlds(self, n: int, left: tuple[int, ...]) -> int:
        if n == len(self.steps):
            return self.tail
        j, _, start, need = self.steps[n]
        if j == len(self.seats) - 1 and self.last_free:  # any of its suits' cards will do
            fits = sum(left[step[1]] for step in self.steps[n:])
            return comb(fits, need - (start - sum(left))) * self.tail
        return sum(self.options(n, left)[1])

    def count(self) -> int:
        """Every world of the :class:`Knowledge`."""
        return 0 if self.impossible else self.worlds(0, self.left)


def _count(k: Knowledge) -> int:
    """The worlds of ``k``."""
    return _Counter(k).count()


def _draw(rules: Rules, k: Knowledge, num_worlds: int, rng: np.random.Generator) -> Worlds:
    """``num_worlds`` worlds drawn uniformly among those of ``k``."""
    counter = _Counter(k)
    takes = _sample_counts(counter, num_worlds, rng)  # (W, J, 5) cards per suit of each constrained seat
    p, two_decks = len(k.sizes), rules.decks == 2  # Smear: the players and the thrown-away pile
    hands = np.zeros((num_worlds, p, 2), U64)
    rest = np.zeros((num_worlds, 2), U64)
    for start in range(0, num_worlds, _CHUNK):
        part = slice(start, min(start + _CHUNK, num_worlds))
        _deal(k, counter, takes[part], rng, hands[part], rest[part])
    for seat in range(p):  # the known cards: the observer's hand, the passed cards
        known = cardsets.from_list(np.repeat(np.arange(len(k.hand)), k.pinned[seat]))
        lo, hi = cardsets.add(hands[:, seat, 0], hands[:, seat, 1], U64(known[0]), U64(known[1]))
        hands[:, seat, 0], hands[:, seat, 1] = lo, hi
    players = rules.num_players
    if p > players:  # Smear's thrown-away cards are unseen cards outside the hands, like the stock
        rest[:, 0] |= hands[:, players, 0]
        hands = hands[:, :players]
    if two_decks:
        return Worlds(hands, rest, rules)
    return Worlds(hands[..., 0].copy(), rest[:, 0].copy(), rules)


def _rules_named(rules: Rules) -> str:
    return f"{rules.preset} with {rules.num_players} players"


def check_worlds(rules: Rules, worlds: Worlds, hand: np.ndarray) -> None:
    """``ValueError`` unless ``worlds`` are one observation's worlds of ``rules`` whose observer
    holds ``hand`` (C,) (copies of each card): sampled for these rules (when they say so), a
    (W, P) hand a relative seat (two decks: (W, P, 2)), (W,) unseen rests ((W, 2)), the
    observer's hand his own in every world. ``TypeError`` for arrays that are not card sets."""
    if not isinstance(worlds, Worlds):
        raise TypeError(
            f"worlds must be a hearts_env.worlds.Worlds (from sample_worlds), got {type(worlds).__name__}"
        )
    if worlds.rules is not None and worlds.rules is not rules and worlds.rules != rules:
        other = worlds.rules
        same = _rules_named(other) == _rules_named(rules)
        differ = [f.name for f in fields(Rules) if getattr(other, f.name) != getattr(rules, f.name)]
        detail = f" (options {', '.join(differ)} differ)" if same else ""
        raise ValueError(
            f"worlds sampled for {_rules_named(other)} cannot be positions of {_rules_named(rules)}{detail}: "
            "sample them with these rules"
        )
    words = (2,) if rules.decks == 2 else ()
    for name in ("hands", "rest"):
        value = getattr(worlds, name)
        if not isinstance(value, np.ndarray) or value.dtype.kind not in "iu":
            what = value.dtype if isinstance(value, np.ndarray) else type(value).__name__
            raise TypeError(f"worlds.{name} must be an integer array of card sets, got {what}")
    w = len(worlds.hands) if worlds.hands.ndim else 0
    shapes = {"hands": (w, rules.num_players, *words), "rest": (w, *words)}
    for name, shape in shapes.items():
        got = getattr(worlds, name).shape
        if got != shape:
            raise ValueError(
                f"worlds.{name} must have shape {shape} for {_rules_named(rules)} (W worlds of one "
                f"observation), got {got}: worlds of another player count, or of a batch of observations"
            )
    lo = int(np.bitwise_or.reduce(BIT[np.flatnonzero(hand >= 1)], initial=ZERO))
    hi = int(np.bitwise_or.reduce(BIT[np.flatnonzero(hand >= 2)], initial=ZERO))
    own = worlds.hands[:, 0].astype(U64)
    mine = (own[:, 0] == U64(lo)) & (own[:, 1] == U64(hi)) if words else own == U64(lo)
    if not mine.all():
        raise ValueError(
            f"world {int(np.flatnonzero(~mine)[0])} gives the observer (seat 0) another hand than the "
            "observation's: worlds are of the observation they were sampled for"
        )


def _sample_counts(counter: _Counter, num_worlds: int, rng: np.random.Generator) -> np.ndarray:
    """(W, J, 5) the cards of each suit each constrained seat holds, drawn step by step in
    proportion to the worlds of each choice (worlds in the same state are drawn together)."""
    takes = np.zeros((num_worlds, len(counter.seats), 5), np.int64)
    groups = {counter.left: np.arange(num_worlds)}
    for n, (j, g, _, _) in enumerate(counter.steps):
        after: dict[tuple[int, ...], list[np.ndarray]] = {}
        for left, rows in groups.items():
            options, cumulative = counter.cumulative(n, left)
            if len(options) == 1:
                picked = np.zeros(len(rows), np.int64)
            else:  # option i with probability worlds_i / total: one uniform draw a world
                picked = np.searchsorted(cumulative, rng.random(len(rows)), side="right")
                picked = np.minimum(picked, len(options) - 1)
            for i in np.flatnonzero(np.bincount(picked, minlength=len(options))):
                chosen = rows[picked == i]
                takes[chosen, j, g] = options[i]
                state = left[:g] + (left[g] - options[i],) + left[g + 1 :]
                after.setdefault(state, []).append(chosen)
        groups = {left: np.concatenate(parts) for left, parts in after.items()}
    return takes


def _deal(
    k: Knowledge, counter: _Counter, takes: np.ndarray, rng: np.random.Generator, hands: np.ndarray,
    rest: np.ndarray,
) -> None:  # fmt: skip
    """Deal the unseen cards of each world by ``takes``: each suit's cards in a random order to
    the constrained seats by their counts, the rest in a random order to the other seats and
    the kitty or stock. Writes (lo, hi) words into ``hands`` (W, P, 2) and ``rest`` (W, 2)."""
    worlds = len(takes)
    cards = np.repeat(np.arange(len(k.unseen)), k.unseen)  # (M,) one entry per unseen copy
    cards = cards[np.argsort(k.suits[cards], kind="stable")]  # suit by suit (Smear's jick, jokers)
    copy = np.zeros(len(cards), np.int64)  # 1 for the second copy of a card
    copy[1:] = cards[1:] == cards[:-1]
    suit = k.suits[cards]
    starts = np.searchsorted(suit, np.arange(5))  # where each suit's copies begin (cards sorted)
    order = np.argsort(rng.random((worlds, len(cards))) + 2 * suit, axis=1)  # suit by suit, shuffled
    rank = np.arange(len(cards)) - starts[suit]  # place within its suit of each sorted position
    # holder[w, i]: constrained seat index j of the copy at sorted position i, or J for the rest.
    bounds = np.cumsum(takes, axis=1).transpose(0, 2, 1)[:, suit]  # (W, M, J)
    holder = np.empty((worlds, len(cards)), np.int64)
    np.put_along_axis(holder, order, (rank[None, :, None] >= bounds).sum(axis=2), axis=1)
    others = counter.others + ["rest"]
    shares = np.cumsum([k.free_sizes[q] for q in counter.others] + [k.rest])
    free = holder == len(counter.seats)
    keys = np.where(free, rng.random(holder.shape), 2.0)
    place = np.empty_like(holder)
    np.put_along_axis(place, np.argsort(keys, axis=1), np.arange(len(cards))[None, :], axis=1)
    share = np.searchsorted(shares, place, side="right")  # which of the others takes each free copy
    bits = BIT.take(cards)
    places = [(q, holder == j) for j, q in enumerate(counter.seats)]
    places += [(q, free & (share == i)) for i, q in enumerate(others)]
    for q, mine in places:
        words = [
            np.bitwise_or.reduce(np.where(mine & (copy == n), bits, ZERO), axis=1, initial=U64(0))
            for n in (0, 1)
        ]
        lo, hi = words[0] | words[1], words[0] & words[1]
        if q == "rest":
            rest[:, 0], rest[:, 1] = lo, hi
        else:
            hands[:, q, 0], hands[:, q, 1] = lo, hi


# ---------------------------------------------------------------------- worlds as positions
def tiled(values: list[int] | int, worlds: int, dtype: type = np.int64) -> np.ndarray:
    """One world's value (a per-seat list or one number) repeated for ``worlds`` rows."""
    if isinstance(values, list):
        return np.tile(np.array(values, dtype), (worlds, 1))
    return np.full(worlds, values, dtype)


def _split_points(values: dict[int, int], targets: list[int], fixed: dict[int, int]) -> dict[int, int] | None:
    """Give each point card of ``values`` (card -> points) to a seat so that every seat's points
    are ``targets``; ``fixed`` cards are already placed (card -> seat). None if no split fits."""
    left = list(targets)
    for card, seat in fixed.items():
        left[seat] -= values[card]
    cards = sorted((c for c in values if c not in fixed), key=lambda c: -abs(values[c]))
    small = [c for c in cards if values[c] == 1]
    big = [c for c in cards if values[c] != 1]
    seen: set[tuple[int, tuple[int, ...]]] = set()
    placed: dict[int, int] = dict(fixed)
    # What the cards from big[i] on can still add to one seat, at most and at least: a seat whose
    # points left to find lie outside that range has no completion (the search order, and so
    # the split found, is unchanged; only dead branches are cut).
    gains = [values[c] for c in big]
    most = np.cumsum([max(v, 0) for v in gains][::-1])[::-1].tolist() + [0]
    least = np.cumsum([min(v, 0) for v in gains][::-1])[::-1].tolist() + [0]

    def place(i: int) -> bool:
        if i == len(big):
            if any(x < 0 for x in left) or sum(left) != len(small):
                return False
            it = iter(small)
            for seat, need in enumerate(left):
                for _ in range(need):
                    placed[next(it)] = seat
            return True
        if not all(least[i] <= x <= most[i] + len(small) for x in left):
            return False
        key = (i, tuple(left))
        if key in seen:
            return False
        seen.add(key)
        value, hi, lo = values[big[i]], most[i + 1] + len(small), least[i + 1]
        for seat in range(len(left)):
            if not lo <= left[seat] - value <= hi:
                continue
            left[seat] -= value
            placed[big[i]] = seat
            if place(i + 1):
                return True
            left[seat] += value
        placed.pop(big[i], None)
        return False

    return placed if place(0) else None


def _nearest_split(values: dict[int, int], targets: list[int], fixed: dict[int, int]) -> dict[int, int]:
    """The point cards of ``values`` given, biggest first, each to the place (an index of
    ``targets``) furthest below its target: where no exact split (:func:`_split_points`) fits."""
    split = dict(fixed)
    left = list(targets)
    for card in sorted(values, key=lambda x: -abs(values[x])):
        if card not in split:
            seat = int(np.argmax([left[s] * np.sign(values[card]) for s in range(len(left))]))
            split[card] = seat
            left[seat] -= values[card]
    return split


def _voids(piece: Callable[[str], np.ndarray]) -> int:
    """The :class:`~hearts_env.games.hearts.state.State` voids bits of the observation's ``known_voids``."""
    voids = 0
    for seat, suits in enumerate(piece("known_voids")):
        for suit in np.flatnonzero(suits):
            voids |= 1 << (4 * seat + int(suit))
    return voids


def _decisions(rules: Rules, piece: Callable[[str], np.ndarray]) -> tuple[list[int], int, int, int]:
    """The decisions of the observation: each seat's decision log bits, the bidder (the
    declarer or the highest bid's), the highest bid and the named suit (hearts if none)."""
    log = [0] * rules.num_players
    bidder, high_bid, penalty_suit = -1, 0, 2
    if rules.decisions:
        names = rules.decisions
        for seat, row in enumerate(piece("decisions")):
            for k in np.flatnonzero(row):
                log[seat] |= 1 << int(k)
                name = names[int(k)]
                if name in ("general", "slam"):
                    bidder = seat
                elif name.startswith("bid:") and int(name[4:]) > high_bid:
                    bidder, high_bid = seat, int(name[4:])
                elif name.startswith("suit:"):
                    penalty_suit = "CDHS".index(name[5:])
    return log, bidder, high_bid, penalty_suit


def world_positions(
    rules: Rules, observation: np.ndarray, worlds: Worlds, rng: np.random.Generator
) -> PositionBatch:
    """The W worlds of one observation as positions (:class:`hearts_env.games.hearts.positions.PositionBatch`,
    W rows), seats relative to the observer (seat 0), so a table started from them plays on
    from where the observer stands in each world. The play phase; one deck or two.

    What the observation does not record is filled in consistently, not exactly:

    * **who took which card**: the cards of the finished tricks are dealt to the seats so that
      each seat's points are the points it took (``points_taken``); the point-free cards fill
      the tricks, the seats with points taking one trick each at least and the rest going to
      the seat that took the last trick (the current leader);
    * **the kitty**, once another seat took it with the first trick: to a seat drawn at random
      (the observer's points do not show it);
    * **Domino Hearts' stock**: the unseen rest, in a random order;
    * **cancelled tricks** (two decks): point cards that no seat's points count wait in
      ``carried``, with point-free cards to fill as few cancelled tricks as hold them; no trick
      is cancelled otherwise. While every trick so far is cancelled the kitty is carried too
      (:func:`_two_deck_positions`).
    """
    lay, obs, piece = read_observation(hearts_layout(rules), rules, observation, check=False)
    check_worlds(rules, worlds, piece("hand"))
    if rules.decks == 2:
        return _two_deck_positions(rules, observation, worlds, rng)
    p, c = rules.num_players, rules.card_slots

    def mask(cards: np.ndarray) -> int:
        return sum(1 << int(i) for i in np.flatnonzero(cards))

    w = len(worlds.hands)
    played = [mask(row) for row in piece("played_by_seat")]
    trick_rows = piece("current_trick")  # (P, C) by position
    trick = [int(np.argmax(row)) if row.any() else EMPTY for row in trick_rows]
    on_table = [t for t in trick if t != EMPTY]
    leader = int(np.argmax(piece("trick_leader"))) if on_table else 0
    trick_mask = sum(1 << t for t in on_table)
    done = 0
    for m in played:
        done |= m
    done &= ~trick_mask
    finished = bin(done).count("1")
    trick_number = finished // p if not rules.stock_size else -(-finished // p)
    values_all = np.rint(lay.view(obs, "card_values") * 26).astype(np.int64)
    points = np.rint(lay.view(obs, "points_taken") * 26).astype(np.int64).tolist()
    kitty_seen = mask(piece("kitty")) if rules.kitty_size else 0
    fixed: dict[int, int] = {}
    values = {card: int(values_all[card]) for card in range(c) if done >> card & 1 and values_all[card]}
    if kitty_seen:  # the observer took it: its cards are his, and his points count them
        for card in range(c):
            if kitty_seen >> card & 1 and values_all[card]:
                values[card] = int(values_all[card])
                fixed[card] = 0
    split = _split_points(values, points, fixed)
    if split is None:  # no exact split (rules outside the plain sums): by the nearest points
        split = _nearest_split(values, points, fixed)
    taken = [0] * p
    for card, seat in split.items():
        taken[seat] |= 1 << card
    tricks = [0] * p
    last_winner = leader
    if trick_number:
        for seat in range(p):
            cards = bin(taken[seat] & ~kitty_seen).count("1")
            tricks[seat] = -(-cards // p) if cards else 0
        if sum(tricks) > trick_number:  # more seats with points than tricks can hold: trim
            tricks = [min(t, 1) for t in tricks]
        if tricks[last_winner] == 0:
            tricks[last_winner] = 1
        tricks[last_winner] += max(trick_number - sum(tricks), 0)
        while sum(tricks) > trick_number:
            tricks[int(np.argmax(tricks))] -= 1
        free = [card for card in range(c) if done >> card & 1 and card not in split]
        it = iter(free)
        for seat in range(p):
            room = p * tricks[seat] - bin(taken[seat] & ~kitty_seen).count("1")
            for _ in range(max(room, 0)):
                card = next(it, None)
                if card is not None:
                    taken[seat] |= 1 << card
        for card in it:  # whatever is left (uneven Domino tricks): the last trick's taker
            taken[last_winner] |= 1 << card
    hands = worlds.hands.astype(U64)
    rest = worlds.rest.astype(U64)
    taken_w = np.tile(np.array(taken, U64), (w, 1))
    first = np.full(w, -1, np.int64)
    kitty = np.zeros(w, U64)
    if rules.kitty_size:
        if kitty_seen:
            first[:] = 0
            kitty[:] = kitty_seen
            taken_w[:, 0] |= U64(kitty_seen)
        else:
            kitty[:] = rest
            if trick_number:
                first = rng.integers(1, p, size=w)
                taken_w[np.arange(w), first] |= rest
    elif trick_number:
        first[:] = last_winner
    stock = np.full((w, rules.stock_size), EMPTY, np.int64)
    stock_pos = np.zeros(w, np.int64)
    if rules.stock_size:
        left = int(np.rint(lay.view(obs, "stock_left")[0] * rules.stock_size))
        stock_pos[:] = rules.stock_size - left
        if left:
            cards = unpack(rest, 64).astype(bool)
            keys = np.where(cards, rng.random(cards.shape), 2.0)
            stock[:, rules.stock_size - left :] = np.argsort(keys, axis=1)[:, :left]
    voids = _voids(piece)
    log, bidder, high_bid, penalty_suit = _decisions(rules, piece)
    partners = np.zeros(w, np.int64) - 1
    if rules.bidding == "slam" and bidder >= 0:  # the 10♦'s holder, in each world
        held = hands | np.array(played, U64)[None, :]
        holds = (held & BIT[parse_card("TD")]) != ZERO
        holder = np.argmax(holds, axis=1)
        partners = np.where(holds.any(axis=1) & (holder != bidder), holder, -1)
    passed = mask(piece("passed"))
    received = mask(piece("received"))
    direction = int(np.argmax(piece("pass_direction")))
    totals = np.rint(lay.view(obs, "scores") * rules.target_score).astype(np.int64)
    chosen = np.zeros((w, p), U64)
    chosen[:, 0] = passed
    got = np.zeros((w, p), U64)
    got[:, 0] = received

    def tile(values: list[int] | int, dtype: type = np.int64) -> np.ndarray:
        return tiled(values, w, dtype)

    return PositionBatch(
        hands=hands, played=tile(played, U64), taken=taken_w, tricks_won=tile(tricks),
        trick=tile(trick), leader=tile(leader), trick_number=tile(trick_number), kitty=kitty,
        first_trick_winner=first, voids=tile(voids, U64), dealer=tile(p - 1),
        deal_index=tile(int(np.rint(lay.view(obs, "deal_index")[0] * 10))), totals=np.tile(totals, (w, 1)),
        pool=np.zeros(w), pass_direction=tile(direction), chosen=chosen, received=got, bidder=tile(bidder),
        high_bid=tile(high_bid), penalty_suit=tile(penalty_suit), partner=partners,
        decision_log=tile(log, U64),
        uncounted=tile(0, U64), set_aside=tile(0, U64), stock=stock, stock_pos=stock_pos,
    )  # fmt: skip


def _copy_words(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Copies (..., C) of each card (0, 1, 2) as the ``(lo, hi)`` words of :mod:`hearts_env.core.cardsets`."""
    bits = BIT[: counts.shape[-1]]
    lo = np.bitwise_or.reduce(np.where(counts >= 1, bits, ZERO), axis=-1)
    return lo, np.bitwise_or.reduce(np.where(counts >= 2, bits, ZERO), axis=-1)


def _two_deck_positions(
    rules: Rules, observation: np.ndarray, worlds: Worlds, rng: np.random.Generator
) -> PositionBatch:
    """:func:`world_positions` with two decks (Cancellation Hearts).

    Each copy of a finished trick's card goes to a seat or to the carried cards: the point
    copies so that every seat's points are its ``points_taken`` and the carried ones hold the
    points nobody's count (the finished tricks' points less the points taken, the observer's
    kitty counted), the point-free copies filling the cancelled tricks (as few as hold the
    carried points) and then every seat's tricks, the rest to the seat that took the last
    trick (the leader, when nothing is carried). A kitty the observer has not seen goes, once
    a trick is taken, to another seat with a trick, drawn at random in each world (one is
    given a trick if none has); while every trick is cancelled it is carried."""
    lay, obs, piece = read_observation(hearts_layout(rules), rules, observation, check=False)
    p, c, w = rules.num_players, rules.card_slots, len(worlds.hands)

    played = piece("played_by_seat")  # (P, C) copies played by each relative seat
    trick = [int(np.argmax(row)) if row.any() else EMPTY for row in piece("current_trick")]
    on_table = [t for t in trick if t != EMPTY]
    leader = int(np.argmax(piece("trick_leader"))) if on_table else 0
    done = played.sum(axis=0)
    np.subtract.at(done, on_table, 1)
    trick_number = int(done.sum()) // p
    values_all = np.rint(lay.view(obs, "card_values") * 26).astype(np.int64)
    points = np.rint(lay.view(obs, "points_taken") * 26).astype(np.int64).tolist()
    kitty_seen = piece("kitty") if rules.kitty_size else np.zeros(c, np.int64)
    # One id a copy: card + 64 * copy for the finished tricks' cards, + 128 for the kitty's.
    copies = [card + 64 * k for card in range(c) for k in range(done[card])]
    kitty_ids = [128 + card + 64 * k for card in range(c) for k in range(kitty_seen[card])]
    values = {i: int(values_all[i % 64]) for i in copies + kitty_ids if values_all[i % 64]}
    fixed = {i: 0 for i in kitty_ids if i in values}  # the observer took the kitty: his points
    targets = [*points, sum(values.values()) - sum(points)]  # the last place: the carried cards
    split = _split_points(values, targets, fixed) or _nearest_split(values, targets, fixed)
    owned = [[i for i in copies if split.get(i) == place] for place in range(p + 1)]
    pot_tricks = min(-(-len(owned[p]) // p), trick_number)
    available = trick_number - pot_tricks  # the tricks taken
    tricks = [-(-len(owned[seat]) // p) for seat in range(p)]
    if sum(tricks) > available:  # more seats with points than tricks can hold: trim
        tricks = [min(t, 1) for t in tricks]
    seen = bool(kitty_seen.any())
    if available:
        if seen:  # the observer took the kitty with a trick
            tricks[0] = max(tricks[0], 1)
        if not owned[p]:  # no trick cancelled: the leader took the last one
            tricks[leader] = max(tricks[leader], 1)
        if rules.kitty_size and not seen and not any(tricks[1:]):  # another seat took the kitty
            tricks[int(rng.integers(1, p))] = 1
        if not any(tricks):
            tricks[leader] = 1
        while sum(tricks) > available:
            tricks[int(np.argmax(tricks))] -= 1
        holder = leader if tricks[leader] else int(np.argmax(tricks))
        tricks[holder] += available - sum(tricks)
    else:
        pot_tricks, holder = trick_number, p  # every trick cancelled: all carried
    free = iter(i for i in copies if i not in split)
    for place in [p] + [seat for seat in range(p) if seat != holder]:  # the carried cards first
        room = p * (pot_tricks if place == p else tricks[place]) - len(owned[place])
        owned[place] += [i for _, i in zip(range(max(room, 0)), free, strict=False)]
    owned[holder] += list(free)
    counts = np.zeros((p + 1, c), np.int64)
    for place, ids in enumerate(owned):
        np.add.at(counts[place], [i % 64 for i in ids], 1)
    taken_lo, taken_hi = (np.tile(word, (w, 1)) for word in _copy_words(counts[:p]))
    carried_lo, carried_hi = (np.full(w, word, U64) for word in _copy_words(counts[p]))
    hands = worlds.hands.astype(U64)  # (W, P, 2)
    rest = worlds.rest.astype(U64)  # (W, 2)
    first = np.full(w, -1, np.int64)
    kitty_lo, kitty_hi = np.zeros(w, U64), np.zeros(w, U64)
    if rules.kitty_size:
        rows = np.arange(w)
        if seen:
            first[:] = 0
            kitty_lo[:], kitty_hi[:] = _copy_words(kitty_seen)
        else:
            kitty_lo[:], kitty_hi[:] = rest[:, 0], rest[:, 1]
            takers = [seat for seat in range(1, p) if tricks[seat]]
            if takers:
                first = rng.choice(np.array(takers), size=w)
        took = first >= 0
        lo, hi = cardsets.add(taken_lo[rows, first], taken_hi[rows, first], kitty_lo, kitty_hi)
        taken_lo[rows[took], first[took]], taken_hi[rows[took], first[took]] = lo[took], hi[took]
        if trick_number and not took.any():  # every trick cancelled: the kitty waits with them
            carried_lo, carried_hi = cardsets.add(carried_lo, carried_hi, kitty_lo, kitty_hi)
    played_lo, played_hi = _copy_words(played)
    passed, received = _copy_words(piece("passed")), _copy_words(piece("received"))
    chosen, got = np.zeros((2, w, p), U64), np.zeros((2, w, p), U64)
    chosen[:, :, 0] = np.array(passed, U64)[:, None]
    got[:, :, 0] = np.array(received, U64)[:, None]
    log, bidder, high_bid, penalty_suit = _decisions(rules, piece)
    totals = np.rint(lay.view(obs, "scores") * rules.target_score).astype(np.int64)

    def tile(values: list[int] | int, dtype: type = np.int64) -> np.ndarray:
        return tiled(values, w, dtype)

    return PositionBatch(
        hands=hands[..., 0].copy(), played=np.tile(played_lo, (w, 1)), taken=taken_lo,
        tricks_won=tile(tricks), trick=tile(trick), leader=tile(leader), trick_number=tile(trick_number),
        kitty=kitty_lo,
        first_trick_winner=first, voids=tile(_voids(piece), U64), dealer=tile(p - 1),
        deal_index=tile(int(np.rint(lay.view(obs, "deal_index")[0] * 10))), totals=np.tile(totals, (w, 1)),
        pool=np.zeros(w), pass_direction=tile(int(np.argmax(piece("pass_direction")))), chosen=chosen[0],
        received=got[0], bidder=tile(bidder), high_bid=tile(high_bid), penalty_suit=tile(penalty_suit),
        partner=tile(-1), decision_log=tile(log, U64), uncounted=tile(0, U64), set_aside=tile(0, U64),
        stock=np.zeros((w, 0), np.int64), stock_pos=np.zeros(w, np.int64),
        hands_hi=hands[..., 1].copy(), played_hi=np.tile(played_hi, (w, 1)), taken_hi=taken_hi,
        chosen_hi=chosen[1], received_hi=got[1], kitty_hi=kitty_hi, carried=carried_lo, carried_hi=carried_hi,
    )  # fmt: skip
