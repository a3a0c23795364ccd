"""Worlds consistent with what one Smear seat has seen, and those worlds as positions.

:func:`hearts_env.worlds.sample_worlds` and :func:`~hearts_env.worlds.exact_count` take Smear
observations too (the sampler of every family); this module says what a Smear observation
fixes (:func:`knowledge`) and turns sampled worlds into
:class:`~hearts_env.games.smear.positions.SmearPositionBatch` rows for the search agent
(:func:`world_positions`). The counting and the uniform draw are the shared
sampler's (:mod:`hearts_env.core.sampler`), over Smear's suits: once trumps are known, the trump suit
takes in the jick and the jokers, and the jick leaves its printed suit (as following suit does).

**What constrains a world** during play (only facts the observation records):

* the observer's own hand, the cards he threw away, every card played this deal and by whom;
* every seat's hand size now (``hand_sizes``) and the stock not yet drawn (``stock_left``);
* the suits shown out of in the current trick: a seat that played neither the suit led nor
  a trump holds none of the suit led (a trump led: holds no trump); a pitcher who led the
  first trick with a non-trump where he must lead a trump if he can holds none; in nine-card
  Smear a seat out of the deal holds no trump, a seat in it holds one at least, and on the
  first trick a seat that played n > 1 trumps (its extras beyond six) holds five now, one that
  played one trump held six at most;
* the cards the others threw away (their discards, the non-trumps thrown before a draw) hold
  no trump where the rules say so: always in nine-card Smear and the widow game's throw-away,
  and in every discard unless the player held more than six trumps (ten-point Smear, the
  widow game's pitcher). The sampler takes the thrown-away cards to be trump-free, a hard fact
  but for those players; where the unseen trumps do not fit the hands and the stock, it drops
  the assumption. Five-point Smear's dead blind and kitty exchange are unconstrained.

**Not used.** Show-outs of finished tricks, which a Smear observation does not record (the
Hearts family's has ``known_voids``); the bids (a bid reveals no card).

The remaining unseen cards — thrown away by the others, or still in the stock — form the
``rest`` of a :class:`~hearts_env.worlds.Worlds`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from hearts_env.core.bits import BIT, EMPTY, U64, unpack
from hearts_env.core.cards import card_symbol
from hearts_env.core.rules import Rules
from hearts_env.core.sampler import Knowledge, Worlds, check_worlds, count_worlds, read_observation, tiled
from hearts_env.games.smear.observation import bid_decisions, smear_layout
from hearts_env.games.smear.positions import SmearPositionBatch, bidding_fault

_JACK, _TEN, _TREY = 9, 8, 1
_ANY = 1 << 30  # no upper bound on a count
_OTHER_SUIT = (3, 2, 1, 0)
_GAME = {12: 4, 11: 3, 10: 2, 9: 1, 8: 10}  # A K Q J 10


def suits(rules: Rules, trumps: int) -> np.ndarray:
    """(C,) the sampler's suit of each card slot: the printed suit, the trump suit for the jick
    and the jokers once trumps are known (the jokers 4 before)."""
    c = rules.card_slots
    cards = np.arange(c)
    out = np.where(cards < 52, cards // 13, 4)
    if trumps >= 0:
        out[cards >= 52] = trumps
        if rules.jick:
            out[13 * _OTHER_SUIT[trumps] + _JACK] = trumps
    return out


def knowledge(rules: Rules, observation: np.ndarray) -> Knowledge:
    """What one Smear observation (D,) fixes about the hidden cards (see the module).

    The seats are the players (relative, 0 the observer) and one more, last: the others'
    thrown-away cards, with the size the hands and the stock leave. ``ValueError`` for an
    observation that no deal can produce.
    """
    lay, obs, piece = read_observation(smear_layout(rules), rules, observation)
    p, c = rules.num_players, rules.card_slots

    hand, thrown, played, trick = (
        piece("hand"),
        piece("thrown"),
        piece("played_by_seat"),
        piece("current_trick"),
    )
    trumps_piece = piece("trumps")
    trumps = int(np.argmax(trumps_piece)) if trumps_piece.any() else -1
    deck = np.zeros(c, np.int64)
    np.add.at(deck, rules.deck.cards, 1)
    unseen = deck - hand - thrown - played.sum(axis=0)
    over = np.flatnonzero(unseen < 0)
    if len(over):
        raise ValueError(f"the observation places {card_symbol(int(over[0]))} in two places")
    scale = rules.hand_size + rules.stock_size
    sizes = np.rint(lay.view(obs, "hand_sizes") * scale).astype(np.int64)
    if sizes[0] != hand.sum():
        raise ValueError(f"the observer must hold {sizes[0]} cards but the hand piece holds {hand.sum()}")
    left = (
        int(np.rint(lay.view(obs, "stock_left")[0] * rules.stock_size)) if "stock_left" in lay.slices else 0
    )
    pile = int(unseen.sum()) - int(sizes[1:].sum()) - left
    if pile < 0:
        raise ValueError(
            f"the other seats hold {int(sizes[1:].sum())} cards and the stock {left}, but only "
            f"{int(unseen.sum())} cards are unseen"
        )
    suit = suits(rules, trumps)
    voids = np.zeros((p + 1, 5), bool)
    if trumps >= 0:
        leader = int(np.argmax(piece("trick_leader")))
        led = np.flatnonzero(trick[leader])
        if len(led):
            lead = int(suit[led[0]])
            first_trick = played.sum() == trick.sum()
            if first_trick and rules.pitcher_leads_trump and lead != trumps and leader:
                voids[leader, trumps] = True  # the pitcher leads a trump to the first trick if he has one
            for seat in range(1, p):
                shown = np.flatnonzero(trick[seat])
                if any(suit[card] not in (lead, trumps) for card in shown):
                    voids[seat, lead] = True
    counts: list[tuple[int, int, int, int]] = []
    if trumps >= 0 and "out" in lay.slices:  # nine-card Smear: out of the deal = out of trumps
        out = piece("out").astype(bool)
        voids[:p, trumps] |= out
        counts += [(seat, trumps, 1, _ANY) for seat in range(1, p) if not out[seat]]
        if played.sum() == trick.sum():  # the first trick: a turn is one trump, and one per trump
            keep = rules.keep  # held beyond six, so a seat's plays tell how many it held
            for seat in range(1, p):
                n = int(trick[seat].sum())
                if n > 1:
                    counts.append((seat, trumps, keep - 1, keep - 1))
                elif n == 1:
                    counts.append((seat, trumps, 0, keep - 1))
    pinned = np.zeros((p + 1, c), np.int64)
    pinned[0] = hand
    all_sizes = np.append(sizes, pile)
    k = Knowledge(hand, unseen, pinned, all_sizes, voids, left, "stock" if left else "", suit, tuple(counts))
    if trumps >= 0 and pile and rules.smear_deal in ("stock", "widow", "nine_card"):
        trump_free = voids.copy()
        trump_free[p, trumps] = True
        strict = replace(k, voids=trump_free)
        if _fits(strict):
            return strict
    if not _fits(k):
        raise ValueError(
            "no world fits the observation: the unseen cards cannot meet every seat's voids and hand size"
        )
    return k


def _fits(k: Knowledge) -> bool:
    """Whether some world meets ``k`` (every seat's need fits the cards its voids allow)."""
    free = k.free_sizes
    for seat in range(1, len(free)):
        if free[seat] > int(k.unseen[~k.voids[seat][k.suits]].sum()):
            return False
    return count_worlds(k) > 0


def world_positions(
    rules: Rules, observation: np.ndarray, worlds: Worlds, rng: np.random.Generator
) -> SmearPositionBatch:
    """The W worlds of one Smear observation as positions (W rows), seats relative to the
    observer (seat 0). What the observation does not record is filled in consistently:

    * **who took which card** of the finished tricks: each seat takes cards worth exactly the
      "game" points it won (``game_points``), the cards of the categories already won (Jack,
      Jick, Ten, Trey, jokers) going to a seat of the side that won them; the point-free cards
      go to the last trick's winner (the current leader);
    * **which unseen cards out of the hands are the stock's** and who threw the others away:
      the stock's part at random, the rest thrown by the pitcher (seat 1 when the observer is
      the pitcher); neither changes the play or the score;
    * the dealer: the seat on the observer's right, unless the bids made show another (the
      first seat from whose left they rise in turn);
    * the tricks finished (``trick_number``): from the cards each seat played.

    ``ValueError`` for worlds of another rules set, another observer or the wrong shape
    (:func:`hearts_env.worlds.check_worlds`).
    """
    lay, obs, piece = read_observation(smear_layout(rules), rules, observation, check=False)
    check_worlds(rules, worlds, piece("hand"))
    p, w = rules.num_players, len(worlds.hands)

    def mask(cards: np.ndarray) -> int:
        return sum(1 << int(i) for i in np.flatnonzero(cards))

    played = [mask(row) for row in piece("played_by_seat")]
    trick_by_seat = piece("current_trick")
    leader = int(np.argmax(piece("trick_leader")))
    trick: list[int] = []
    trick_seats: list[int] = []
    for step in range(p):
        seat = (leader + step) % p
        for card in np.flatnonzero(trick_by_seat[seat]):
            trick.append(int(card))
            trick_seats.append(seat)
    on_table = sum(1 << t for t in trick)
    done = 0
    for m in played:
        done |= m
    done &= ~on_table
    trumps_piece = piece("trumps")
    trumps = int(np.argmax(trumps_piece)) if trumps_piece.any() else -1
    taken = _taken(rules, lay.view(obs, "game_points"), piece("categories"), done, leader, trumps)
    slots = p * (max(rules.hand_size - rules.keep, 0) + 1) if rules.smear_deal == "nine_card" else p
    trick_row = np.full(slots, EMPTY, np.int64)
    seats_row = np.full(slots, -1, np.int64)
    trick_row[: len(trick)] = trick
    seats_row[: len(trick)] = trick_seats
    pitcher = int(np.argmax(piece("pitcher")))
    names = bid_decisions(rules)
    bids = np.full(p, -1, np.int64)
    for seat, row in enumerate(piece("bids")):
        if row.any():
            bids[seat] = rules.decisions.index(names[int(np.argmax(row))])
    # The dealer is not observed: the seat on the observer's right if the bids fit (the bidding
    # from its left, each bid above the one before), else the first seat they fit.
    dealers = [p - 1, *range(p - 1)]
    dealer = next((d for d in dealers if (bids >= 0).all() and not bidding_fault(rules, bids, d)), p - 1)
    bid = rules.decisions[bids[pitcher]] if bids[pitcher] >= 0 else f"bid:{rules.min_bid}"
    high_bid = rules.moon_value if bid == "bid:moon" else int(bid[4:])
    rest = worlds.rest.astype(U64)
    s = rules.stock_size
    left = int(np.rint(lay.view(obs, "stock_left")[0] * s)) if "stock_left" in lay.slices else 0
    stock = np.full((w, s), EMPTY, np.int64)
    out_of_play = rest.copy()
    if left:
        cards = unpack(rest, 64).astype(bool)
        keys = np.where(cards, rng.random(cards.shape), 2.0)
        drawn_last = np.argsort(keys, axis=1)[:, :left]
        stock[:, s - left :] = drawn_last
        out_of_play &= ~np.bitwise_or.reduce(BIT.take(drawn_last), axis=1)
    thrown = np.zeros((w, p), U64)
    thrown[:, 0] = mask(piece("thrown"))
    thrown[:, pitcher if pitcher else 1 % p] |= out_of_play
    received = np.zeros((w, p), U64)
    received[:, 0] = mask(piece("received"))
    totals = np.rint(lay.view(obs, "scores") * rules.target_score).astype(np.int64)
    deal_index = int(np.rint(lay.view(obs, "deal_index")[0] * 10))

    def tile(values: list[int] | int | np.ndarray, dtype: type = np.int64) -> np.ndarray:
        return tiled(values, w, dtype)

    # The tricks finished: one card a trick from every seat still holding one, so the most any
    # seat played; nine-card Smear, where the first trick takes a seat's trumps beyond keep too,
    # the fewest played by a seat in the deal when the trick began (out: no trump now, and none
    # played to it).
    finished = [bin(m & ~on_table).count("1") for m in played]
    if rules.smear_deal == "nine_card":
        out = piece("out")
        in_deal = [finished[q] for q in range(p) if not out[q] or trick_by_seat[q].any()]
        trick_number = min(in_deal) if any(finished) and in_deal else 0
    else:
        trick_number = max(finished)
    return SmearPositionBatch(
        hands=worlds.hands.astype(U64), played=tile(played, U64), thrown=thrown, received=received,
        taken=tile(taken, U64), trick=tile(trick_row), trick_seats=tile(seats_row), leader=tile(leader),
        trick_number=tile(trick_number), trumps=tile(trumps), pitcher=tile(pitcher),
        high_bid=tile(high_bid), bids=tile(bids), dealer=tile(dealer), deal_index=tile(deal_index),
        totals=tile(totals), stock=stock, stock_pos=tile(s - left),
    )  # fmt: skip


_BUDGET = 20_000
"""Search steps of :func:`_split` before it settles for the nearest split."""


def _taken(
    rules: Rules, game_points: np.ndarray, won: np.ndarray, done: int, leader: int, trumps: int
) -> list[int]:
    """Each relative seat's taken cards: the finished cards ``done`` split to fit the "game"
    points each seat won and the side of each category already won (see :func:`world_positions`)."""
    p = rules.num_players
    team = np.array(rules.team_of)
    same = team == team[0]  # relative seats on the observer's side (rotation keeps the sides)
    points = np.rint(game_points * 80).astype(np.int64).tolist()
    cards = [card for card in range(rules.card_slots) if done >> card & 1]
    allowed = {card: list(range(p)) for card in cards}
    if trumps >= 0:  # won: per category, [own side, another side] won it
        for j, name in enumerate(rules.categories):
            card = _category_card(rules, name, trumps)
            if card is not None and done >> card & 1 and won[j].any():
                allowed[card] = [int(q) for q in np.flatnonzero(same if won[j, 0] else ~same)]
    value = {card: _GAME.get(card % 13, 0) if card < 52 else 0 for card in cards}
    split = _split([(c, value[c], allowed[c]) for c in cards if value[c]], points)
    taken = [0] * p
    for card in cards:
        seats = allowed[card]
        seat = split[card] if card in split else leader if leader in seats else seats[0]
        taken[seat] |= 1 << card
    return taken


def _split(items: list[tuple[int, int, list[int]]], targets: list[int]) -> dict[int, int]:
    """Give each (card, points, allowed seats) item a seat so that each seat's points are
    ``targets``: a depth-first search over the items, biggest first, remembering the failed
    states; after :data:`_BUDGET` steps (or with no exact split) each card goes where the
    most points are still missing."""
    items = sorted(items, key=lambda item: -item[1])
    left = list(targets)
    placed: dict[int, int] = {}
    failed: set[tuple[int, tuple[int, ...]]] = set()
    steps = 0

    def place(i: int) -> bool:
        nonlocal steps
        if i == len(items):
            return not any(left)
        key = (i, tuple(left))
        steps += 1
        if key in failed or steps > _BUDGET:
            return False
        card, points, seats = items[i]
        for seat in seats:
            if left[seat] >= points:
                left[seat] -= points
                placed[card] = seat
                if place(i + 1):
                    return True
                left[seat] += points
        failed.add(key)
        return False

    if sum(targets) == sum(item[1] for item in items) and place(0):
        return placed
    left = list(targets)
    nearest: dict[int, int] = {}
    for card, points, seats in items:
        seat = max(seats, key=lambda q: left[q])
        nearest[card] = seat
        left[seat] -= points
    return nearest


def _category_card(rules: Rules, name: str, trumps: int) -> int | None:
    """The card whose capture decides category ``name`` under ``trumps`` (None: decided otherwise)."""
    if name == "jack":
        return 13 * trumps + _JACK
    if name == "jick":
        return 13 * _OTHER_SUIT[trumps] + _JACK if rules.jick else None
    if name == "ten":
        return 13 * trumps + _TEN
    if name == "trey":
        return 13 * trumps + _TREY
    if name in ("joker1", "joker2") and rules.joker_points == "trick":
        card = 52 if name == "joker1" else 53
        return card if rules.deck_mask >> card & 1 else None
    return None
