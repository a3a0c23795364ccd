"""Worlds consistent with what one Hearts-family seat has seen, and those worlds as positions.

:func:`hearts_env.worlds.sample_worlds` and :func:`~hearts_env.worlds.exact_count` draw and
count the worlds of every family (the shared sampler, :mod:`hearts_env.core.sampler`); this
module says what a Hearts-family observation fixes (:func:`knowledge`: the observer's hand, the
cards played and by whom, the passed cards, the known voids, the hand sizes, the kitty or the
stock; :mod:`hearts_env.worlds` lists them) and turns sampled worlds into
:class:`~hearts_env.games.hearts.positions.PositionBatch` rows for the search agent
(:func:`world_positions`), one deck or two.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hearts_env.core import cardsets
from hearts_env.core.bits import BIT, EMPTY, U64, ZERO, unpack
from hearts_env.core.cards import parse_card
from hearts_env.core.rules import Rules
from hearts_env.core.sampler import Knowledge, Worlds, check_knowledge, check_worlds, read_observation, tiled
from hearts_env.games.hearts.observation import hearts_layout
from hearts_env.games.hearts.positions import PositionBatch


def knowledge(rules: Rules, observation: np.ndarray) -> Knowledge:
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
    check_knowledge(rules, result)
    return result


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
