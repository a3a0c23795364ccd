"""The world sampler every family shares: what an observation fixes (:class:`Knowledge`, read by
each family's ``worlds`` module), exact counts (:func:`count_worlds`), uniform draws
(:func:`draw_worlds`) and the checks of both; :mod:`hearts_env.worlds` says what a world is, what
constrains one and how the sampler counts and draws, and picks each family's reading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from math import comb, factorial

import numpy as np

from hearts_env.core import cardsets
from hearts_env.core.bits import BIT, U64, ZERO
from hearts_env.core.cards import SUIT_SYMBOLS, card_symbol
from hearts_env.core.layouts import Layout
from hearts_env.core.rules import Rules

_CHUNK = 4096
"""Worlds dealt at once (bounds the memory of the dealing arrays)."""


@dataclass(frozen=True)
class Knowledge:
    """What one observation fixes about the hidden cards, by relative seat (0 = the observer).

    Card arrays have one entry per card slot (``rules.card_slots``) and hold copies (0, 1, 2).
    A reading may add one seat after the players: a pile of unseen cards outside the hands that
    it constrains as it does a hand (voids, a size; Smear's cards the others threw away), drawn
    like a seat and returned in the worlds' ``rest``.
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
    known, as for worlds built by hand); each family's ``world_positions`` refuses worlds of other
    rules."""


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


def check_knowledge(rules: Rules, k: Knowledge) -> None:
    """``ValueError`` naming the first fact of ``k`` that no deal of ``rules`` can give (a family's
    reading checks what it read)."""
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
        # (:func:`check_knowledge` has made sure that each seat's need fits its suits).
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


def count_worlds(k: Knowledge) -> int:
    """The worlds of ``k``: placements of its unseen cards (exact, a Python int)."""
    return _Counter(k).count()


def draw_worlds(rules: Rules, k: Knowledge, num_worlds: int, rng: np.random.Generator) -> Worlds:
    """``num_worlds`` worlds drawn uniformly among those of ``k`` (of ``rules``; some world must fit
    it: :func:`count_worlds` above 0)."""
    counter = _Counter(k)
    takes = _sample_counts(counter, num_worlds, rng)  # (W, J, 5) cards per suit of each constrained seat
    p, two_decks = len(k.sizes), rules.decks == 2  # the players, and a pile read as a seat
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
    if p > players:  # a pile read as a seat is unseen cards outside the hands, like the stock
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
    cards = cards[np.argsort(k.suits[cards], kind="stable")]  # suit by suit (the sampler's suits)
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
def tiled(values: list[int] | int | np.ndarray, worlds: int, dtype: type = np.int64) -> np.ndarray:
    """One world's value (a per-seat list or array, or one number) repeated for ``worlds`` rows:
    the parts of a family's positions that every world shares."""
    if np.ndim(values):
        return np.tile(np.asarray(values, dtype), (worlds, 1))
    return np.full(worlds, values, dtype)
