"""Differential harness: the batched engine against the plain reference, deal by deal.

Both implementations play the same deals with the same choices; at every decision the acting
seat and the legal action sets (``table.action_mask()`` over every action: cards, then the
variant's decisions) must be identical, and at the end of each deal the points, the team
points, the moon, the cancelled flag and the settlement: each game's chips, and its pool
carried from deal to deal through :func:`~tests.reference.reference_settle` (Black Maria's
chips at the game's end, from the engine's totals). Deals are random or skewed (suits
concentrated, to reach forced penalty cards on the first trick, all-hearts leads and moons),
optionally with hands of only penalty cards (``first_trick_all_penalty``). Card choices mix
uniform play with a moon-seeking policy; decisions (Général, slam and chip bids, the penalty
suit, the shooter's choice) are taken with a per-game eagerness, so that both outcomes of each
occur. Games finish after different numbers of decisions (declarations, the moon choice, a
cancelled deal): ``table.step`` plays on in the live games while the finished ones ignore their
action, and every third round runs the engine's per-game path (lockstep off).

Domino Hearts (``rules.stock_deal``): each game also gets a stock in draw order
(``table.deal_masks(..., stock=...)``, a (B, stock_size) array of card indices), skewed like the
hands or shuffled apart from them, so that followers draw long runs, draw the stock empty and
drop out early; the acting seat is compared after the automatic draws. :func:`run_fixed` plays
one fixed deal in every game through ``table.reset(options={"hands", "stock", "dealer"})``.

Two decks (``rules.decks == 2``, Cancellation Hearts): :func:`run_two_decks` gives every game
of the table one fixed deal through ``table.reset(options={"hands", "kitty", "dealer",
"pass_direction"})``, a card listed twice where a hand holds both copies, and the games play it
out with different choices. The deals are uniform, suit-skewed (voids: nothing of the suit led
survives) or "twinned" (the deck sorted and dealt round the table, so that both copies of a card
land in neighbouring hands and fall in the same trick); the reference counts the cancelled
pairs, the tricks cancelled by two pairs and by nothing surviving, the cancelled first tricks
(the kitty carried on) and the cancelled last tricks (cards to nobody).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from hearts_env.core.bits import BIT
from hearts_env.core.cards import NUM_STANDARD_CARDS, card_name, cards_of, parse_card
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games.hearts.engine import DONE
from hearts_env.table import Table
from tests.reference import ReferenceDeal, reference_settle, reference_settle_game

HOLD = PASS_DIRECTIONS.index("hold")


@dataclass
class Outcome:
    """What one differential run covered."""

    deals: int = 0
    decisions: int = 0
    moons: int = 0
    forced_first_trick_points: int = 0
    all_penalty_starts: int = 0
    """Deals in which some hand held only penalty cards at the start of play."""
    cancelled: int = 0
    games_ended: int = 0
    decisions_made: Counter[str] = field(default_factory=Counter)
    """How often each decision other than a card was taken, by action name."""
    declared: int = 0
    """Deals with a Général or slam declared (``bidding`` "general" / "slam")."""
    generals_made: int = 0
    silent_partners: int = 0
    auctions_won: int = 0
    all_passed: int = 0
    """Deals in which every player passed (bidding variants; never in Auction Hearts)."""
    outbid: int = 0
    """Auction Hearts: deals won by a later bidder than eldest hand (who opens the auction)."""
    diamond_floors: int = 0
    """Royal Hearts: deals in which Q♦'s floor at 0 changed its taker's points."""
    jokers_led: int = 0
    team_moons: int = 0
    kitty_points: int = 0
    """Deals whose kitty (widow) held points."""
    draws: int = 0
    """Domino Hearts: automatic draws (turns on which a follower drew)."""
    long_draws: int = 0
    """Draws of at least four cards in one turn."""
    stock_emptied: int = 0
    """Deals whose stock was drawn empty."""
    discards: int = 0
    """Cards played off the suit led (in Domino Hearts: only once the stock is empty)."""
    out_winner_passes_lead: int = 0
    """Tricks won by a player who was out, so that the next player in led."""
    last_holder_stock: int = 0
    """Deals ending with one player in, who took his hand and a non-empty stock."""
    nobody_in: int = 0
    """Deals ending with nobody in (the stock to the last trick's winner)."""
    cancelled_pairs: int = 0
    """Two decks: pairs of identical cards that cancelled each other in a trick."""
    two_pair_cancels: int = 0
    """Two decks: tricks cancelled by two (or more) pairs."""
    nothing_survives: int = 0
    """Two decks: tricks cancelled because no card of the suit led survived (one pair or none)."""
    first_trick_cancels: int = 0
    """Two decks: deals whose first trick was cancelled (its cards, and the kitty, carried on)."""
    kitty_carried: int = 0
    """Two decks: deals whose non-empty kitty went to a later trick's winner (or to nobody)."""
    carried_won: int = 0
    """Two decks: cancelled tricks whose cards a later winner took."""
    last_trick_cancels: int = 0
    """Two decks: deals whose last trick was cancelled (its cards to nobody)."""
    both_copies_held: int = 0
    """Two decks: deals in which some hand was dealt both copies of a card."""
    both_copies_passed: int = 0
    """Two decks: deals in which some seat passed both copies of a card."""


def skew_sort(cards: np.ndarray, rng: np.random.Generator, skew: float) -> np.ndarray:
    """(B, k) card indices, each row reordered by a random suit order plus noise: ``skew`` 0 is
    a uniform shuffle, 1 runs of whole suits (jokers with the spades)."""
    batch = len(cards)
    suit_rank = rng.permuted(np.tile(np.arange(4), (batch, 1)), axis=1)  # (B, 4) order of suits
    keys = skew * np.take_along_axis(suit_rank, np.minimum(cards // 13, 3), axis=1)
    order = np.argsort(keys + (1 - skew) * 4 * rng.random(cards.shape), axis=1)
    return np.take_along_axis(cards, order, axis=1)


def interleave(cards: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(B, k) card indices, each row shuffled and then reordered so that the suits take turns
    (in a random suit order per row) for as long as each lasts."""
    batch = len(cards)
    shuffled = rng.permuted(cards, axis=1)
    suits = np.minimum(shuffled // 13, 3)
    seen = np.cumsum(suits[:, :, None] == np.arange(4), axis=1)  # (B, k, 4) cards of each suit so far
    occurrence = np.take_along_axis(seen, suits[:, :, None], axis=2)[:, :, 0]
    suit_rank = rng.permuted(np.tile(np.arange(4), (batch, 1)), axis=1)
    keys = 4 * occurrence + np.take_along_axis(suit_rank, suits, axis=1)
    return np.take_along_axis(shuffled, np.argsort(keys, axis=1, kind="stable"), axis=1)


def skewed_order(rules: Rules, rng: np.random.Generator, batch: int, skew: float) -> np.ndarray:
    """(B, deck) the deck's cards per game in a :func:`skew_sort` order."""
    return skew_sort(np.tile(np.array(rules.deck.cards, np.int64), (batch, 1)), rng, skew)


def skewed_hands(
    rules: Rules, rng: np.random.Generator, batch: int, skew: float
) -> tuple[np.ndarray, np.ndarray]:
    """Deals whose hands concentrate suits: cards sorted by suit order plus noise, dealt in runs.

    ``skew`` 0 is uniform; near 1 every hand is mostly one or two suits.
    """
    hands, kitty, _ = skewed_deal(rules, rng, batch, skew)
    return hands, kitty


def skewed_deal(
    rules: Rules, rng: np.random.Generator, batch: int, skew: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`skewed_hands`, and for Domino Hearts the stock: ``(hands, kitty, stock)``, the
    stock (B, stock_size) card indices in draw order. In a third of the games the stock keeps
    the deal's suit runs (a void follower draws through whole suits, often the stock's end); in
    a third it is shuffled with a skew of its own; in a third the suits take turns, in the
    stock and in the hands (short draws: the stock may last, and the last player in takes
    what is left)."""
    n, h = rules.num_players, rules.hand_size
    cards = skewed_order(rules, rng, batch, skew)
    has_stock = rules.stock_deal is not None
    if has_stock:  # (the other variants draw nothing more from rng: their deals stay as they were)
        mode = rng.integers(0, 3, batch)
        cards[mode == 2] = interleave(cards, rng)[mode == 2]  # balanced hands: every suit in turn
    seat_order = rng.permuted(np.tile(np.arange(n), (batch, 1)), axis=1)
    hands = np.zeros((batch, n), np.uint64)
    for slot in range(n):
        masks = np.bitwise_or.reduce(BIT[cards[:, slot * h : (slot + 1) * h]], axis=1)
        hands[np.arange(batch), seat_order[:, slot]] = masks
    leftover = cards[:, n * h :]
    if has_stock:
        stock = leftover.copy()
        stock[mode == 1] = skew_sort(stock, rng, rng.choice([0.0, 0.6, 1.0]))[mode == 1]
        stock[mode == 2] = interleave(stock, rng)[mode == 2]
        return hands, np.zeros(batch, np.uint64), stock
    kitty = np.bitwise_or.reduce(BIT[leftover], axis=1) if leftover.shape[1] else np.zeros(batch, np.uint64)
    return hands, kitty, np.zeros((batch, 0), np.int64)


def all_penalty_hands(rules: Rules, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """Deals in which one random seat holds only penalty cards; the other cards at random."""
    n, h = rules.num_players, rules.hand_size
    deck = np.array(rules.deck.cards)
    penalty = deck[[rules.card_points[c] > 0 for c in deck]]
    if len(penalty) < h:
        raise ValueError(f"{rules.preset}: {len(penalty)} penalty cards cannot fill a hand of {h}")
    hands = np.zeros((batch, n), np.uint64)
    kitty = np.zeros(batch, np.uint64)
    for g in range(batch):
        held = rng.choice(penalty, h, replace=False)
        rest = rng.permutation(np.setdiff1d(deck, held))
        seats = rng.permutation(n)
        hands[g, seats[0]] = np.bitwise_or.reduce(BIT[held])
        for k, seat in enumerate(seats[1:]):
            hands[g, seat] = np.bitwise_or.reduce(BIT[rest[k * h : (k + 1) * h]])
        kitty[g] = np.bitwise_or.reduce(BIT[rest[(n - 1) * h :]])
    return hands, kitty


def choose(
    mask: np.ndarray,
    rules: Rules,
    policy: np.ndarray,
    seat: np.ndarray,
    shooter: np.ndarray,
    eagerness: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """An action per game from its legal ``mask`` ((B, A) over every action).

    Cards, by policy: 0 uniform; 1 the shooter plays its highest legal card and the others
    their lowest (moons); 2 everyone plays the highest legal card (a joker counts as the lowest
    card: it never wins). Decisions: a Général, slam or bid instead of passing with probability
    ``eagerness`` (in a policy-1 game the shooter with probability 0.8, the others never): the
    lowest bid allowed or a random higher one; a penalty suit and a moon choice uniformly.
    """
    legal = mask.astype(bool)
    batch, count = legal.shape
    uniform = np.argmax(np.where(legal, rng.random((batch, count)), -1.0), axis=1)
    index = np.arange(count)
    strength = np.where(index < NUM_STANDARD_CARDS, index, NUM_STANDARD_CARDS - 1 - index)  # jokers lowest
    unlegal = -2 * count  # below every strength and its negative
    high = np.argmax(np.where(legal, strength, unlegal), axis=1)
    low = np.argmax(np.where(legal, -strength, unlegal), axis=1)
    moon = np.where(seat == shooter, high, low)
    action = np.select([policy == 0, policy == 1], [uniform, moon], high)
    for g in np.flatnonzero(legal[:, rules.card_slots :].any(axis=1)):  # decisions other than cards
        options = [int(a) for a in np.flatnonzero(legal[g])]
        if rules.action_names[options[0]] != "pass" or len(options) == 1:  # a suit, a moon choice
            action[g] = rng.choice(options)
            continue
        eager = (seat[g] == shooter[g]) * 0.8 if policy[g] == 1 else eagerness[g]
        if rng.random() >= eager:
            action[g] = options[0]
        else:
            action[g] = options[1] if rng.random() < 0.5 else rng.choice(options[1:])
    return action


def run(rules: Rules, batch: int, rounds: int, seed: int, all_penalty: bool = False) -> Outcome:
    """Play ``rounds`` deals in each of ``batch`` games through both engines, asserting equality.

    The deals follow each other in the same games (totals, game ends and pools carry over).
    ``all_penalty``: in about half of the games of each round one seat is dealt only penalty
    cards and nobody passes, so that ``first_trick_all_penalty`` is triggered. Two decks:
    :func:`run_two_decks` (one fixed deal per round for all games).
    """
    if rules.decks == 2:
        return run_two_decks(rules, batch, rounds, seed)
    rng = np.random.default_rng(seed)
    table = Table(rules, batch)
    n = rules.num_players
    outcome = Outcome()
    directions = [d for d in PASS_DIRECTIONS if not (d == "across" and n % 2)]
    if rules.pass_count == 0:
        directions = ["hold"]
    has_stock = rules.stock_deal is not None
    pools = [0] * batch  # the reference's pool of each game
    for r in range(rounds):
        skew = rng.choice([0.0, 0.6, 0.9, 1.0], size=1)[0]
        hands, kitty, stock = skewed_deal(rules, rng, batch, skew)
        dealer = rng.integers(0, n, batch)
        if r % 2:
            direction = rng.integers(0, len(directions), batch)  # games out of step
        else:
            direction = np.full(batch, rng.integers(0, len(directions)))
        direction = np.array([PASS_DIRECTIONS.index(directions[d]) for d in direction])
        if all_penalty:
            forced = rng.random(batch) < 0.5
            penalty_hands, penalty_kitty = all_penalty_hands(rules, rng, batch)
            hands[forced], kitty[forced], direction[forced] = (
                penalty_hands[forced],
                penalty_kitty[forced],
                HOLD,
            )
        new_game = np.full(batch, r == 0) | table.state.game_over
        for g in np.flatnonzero(new_game):
            pools[g] = 0
        extra = {"stock": stock} if has_stock else {}
        table.deal_masks(hands, kitty, dealer, direction, new_game=(r == 0), **extra)
        totals = table.state.totals.copy()
        refs = [
            ReferenceDeal(
                rules,
                [cards_of(int(m)) for m in hands[g]],
                int(dealer[g]),
                PASS_DIRECTIONS[direction[g]],
                totals=[int(t) for t in totals[g]],
                kitty=cards_of(int(kitty[g])),
                stock=[int(c) for c in stock[g]] if has_stock else None,
            )
            for g in range(batch)
        ]
        play_and_check(rules, table, refs, rng, outcome, pools, generic=r % 3 == 2)
    return outcome


def run_fixed(rules: Rules, batch: int, rounds: int, seed: int) -> Outcome:
    """Domino Hearts through ``table.reset(options=...)``: each round one random deal (hands,
    stock in draw order, dealer) for every game of the table, as card names in even rounds and
    as card indices in odd ones; the games then play it out with different choices, each
    checked against its own reference deal. Every deal starts a new game."""
    assert rules.stock_deal is not None, "run_fixed plays Domino Hearts deals"
    rng = np.random.default_rng(seed)
    table = Table(rules, batch)
    n, h = rules.num_players, rules.hand_size
    outcome = Outcome()
    for r in range(rounds):
        skew = rng.choice([0.0, 0.6, 1.0])
        order = [int(c) for c in skewed_order(rules, rng, 1, skew)[0]]
        hands, stock = [order[k * h : (k + 1) * h] for k in range(n)], order[n * h :]
        dealer = int(rng.integers(0, n))
        if r % 2:
            options = {"hands": hands, "stock": stock, "dealer": dealer}
        else:
            options = {
                "hands": [[card_name(c) for c in hand] for hand in hands],
                "stock": [card_name(c) for c in stock],
                "dealer": dealer,
            }
        table.reset(options=options)
        refs = [ReferenceDeal(rules, hands, dealer, "hold", stock=stock) for _ in range(batch)]
        play_and_check(rules, table, refs, rng, outcome, [0] * batch, generic=r % 2 == 1)
    return outcome


TWO_DECK_MODES = ("uniform", "suits", "twins", "club_twins", "twins_noisy", "suit_twins")


def two_deck_order(rules: Rules, rng: np.random.Generator, mode: str) -> tuple[list[list[int]], list[int]]:
    """One two-deck deal ``(hands, kitty)`` as card indices, a card twice for both copies.

    ``"uniform"``: shuffled, dealt in runs. ``"suits"``: suits in runs (a random suit order,
    strong or mild noise), dealt in runs: hands of one or two suits, voids everywhere, both
    copies often in one hand. ``"twins"``: the deck sorted (suits in a random order) and dealt
    one card at a time round the table, so that both copies of a card go to neighbouring deal
    slots; ``"twins_noisy"`` with some noise in the order; ``"suit_twins"`` the sorted deck in
    runs of 2 h cards, each run dealt alternately to a pair of hands: twin hands of one or two
    suits (the last hand of an odd table takes a plain run). ``"club_twins"``: see
    :func:`club_twins`. The hands go to the seats in a random order; the kitty is the last
    cards."""
    n, h = rules.num_players, rules.hand_size
    cards = np.array(rules.deck.cards, np.int64)
    suit_rank = rng.permutation(4)[cards // 13]
    rank = cards % 13
    if mode == "club_twins":
        dealt, kitty = club_twins(rules, rng)
        order = np.concatenate([np.concatenate(dealt), kitty])
    elif mode == "uniform":
        order = rng.permutation(cards)
    elif mode == "suits":
        noise = rng.choice([0.3, 1.5])
        order = cards[np.argsort(suit_rank + noise * rng.random(len(cards)))]
    else:
        noise = {"twins": 0.0, "twins_noisy": 4.0, "suit_twins": 1.0}[mode]
        order = cards[np.argsort(13 * suit_rank + rank + noise * rng.random(len(cards)), kind="stable")]
    if mode in ("uniform", "suits"):
        dealt = [order[k * h : (k + 1) * h] for k in range(n)]
    elif mode == "suit_twins":  # hands 2k and 2k + 1 share the run order[2hk : 2h(k + 1)]
        dealt = [order[(k - k % 2) * h : (k - k % 2 + 2) * h][k % 2 :: 2] for k in range(n - n % 2)]
        dealt += [order[(n - 1) * h : n * h]] if n % 2 else []
    elif mode != "club_twins":  # round the table: slot k of the first n * h cards to hand k % n
        dealt = [order[: n * h][k::n] for k in range(n)]
    seats = rng.permutation(n)
    hands: list[list[int]] = [[] for _ in range(n)]
    for k, seat in enumerate(seats):
        hands[seat] = sorted(int(c) for c in dealt[k])
    return hands, sorted(int(c) for c in order[n * h :])


def club_twins(rules: Rules, rng: np.random.Generator) -> tuple[list[np.ndarray], np.ndarray]:
    """Twin club hands: two hands share both 2C and the highest clubs, a copy each (with six
    or seven players all clubs and some other cards); the other clubs go to the kitty first,
    then one to each of some other hands; everything else at random. Played without a pass,
    a twin leads 2C, the other wins the first trick with the top club (the others follow with
    their only club) and leads it, the first twin drops its copy, nothing of the suit led
    survives and the leader leads again. Returns ``(hands, kitty)``, the twins first."""
    n, h, k = rules.num_players, rules.hand_size, rules.kitty_size
    cards = np.array(rules.deck.cards, np.int64)
    clubs = np.sort(cards[cards < 13])  # 2C 2C 3C 3C ...: the copies side by side
    size = min(2 * h, len(clubs))
    twin = np.concatenate([clubs[:2], clubs[len(clubs) - size + 2 :]])
    middle = list(clubs[2 : len(clubs) - size + 2])
    pool = list(rng.permutation(cards[cards >= 13]))
    twin = np.concatenate([twin, [pool.pop() for _ in range(2 * h - size)]]).astype(np.int64)
    kitty = middle[:k] + [pool.pop() for _ in range(k - len(middle[:k]))]
    spread = middle[k:]
    assert len(spread) <= n - 2, "every other hand takes at most one of the remaining clubs"
    others = [
        spread[i : i + 1] + [pool.pop() for _ in range(h - len(spread[i : i + 1]))] for i in range(n - 2)
    ]
    hands = [twin[0::2], twin[1::2]] + [np.array(hand, np.int64) for hand in others]
    return hands, np.array(kitty, np.int64)


def run_two_decks(rules: Rules, batch: int, rounds: int, seed: int) -> Outcome:
    """Two decks: each round one deal (:func:`two_deck_order`, the modes in turn) for every game
    of the table through ``table.reset(options={"hands", "kitty", "dealer", "pass_direction"})``
    (cards as names in even rounds, as indices in odd ones; the pass left, or held in every
    fourth round so that the skewed hands reach the first trick as dealt); the games play it
    out with different choices, each checked against its own reference deal."""
    assert rules.decks == 2, "run_two_decks plays two-deck deals"
    rng = np.random.default_rng(seed)
    table = Table(rules, batch)
    n = rules.num_players
    outcome = Outcome()
    for r in range(rounds):
        mode = TWO_DECK_MODES[r % len(TWO_DECK_MODES)]
        hands, kitty = two_deck_order(rules, rng, mode)
        dealer = int(rng.integers(0, n))
        direction = "hold" if r % 4 == 3 or mode == "club_twins" or rules.pass_count == 0 else "left"
        if r % 2:
            options = {"hands": hands, "kitty": kitty, "dealer": dealer, "pass_direction": direction}
        else:
            options = {
                "hands": [[card_name(c) for c in hand] for hand in hands],
                "kitty": [card_name(c) for c in kitty],
                "dealer": dealer,
                "pass_direction": direction,
            }
        table.reset(options=options)
        refs = [ReferenceDeal(rules, hands, dealer, direction, kitty=kitty) for _ in range(batch)]
        outcome.both_copies_held += any(len(set(hand)) < len(hand) for hand in hands)
        play_and_check(rules, table, refs, rng, outcome, [0] * batch, generic=r % 3 == 2)
    return outcome


def play_and_check(
    rules: Rules,
    table: Table,
    refs: list[ReferenceDeal],
    rng: np.random.Generator,
    outcome: Outcome,
    pools: list[int],
    generic: bool,
) -> None:
    """Play the dealt deal of every game on both sides with the same choices, comparing the
    acting seat and the legal actions at every decision, then the end of the deal.
    ``generic``: the engine's per-game path (lockstep disabled)."""
    batch, n = table.num_games, rules.num_players
    policy = rng.integers(0, 3, batch)
    shooter = rng.integers(0, n, batch)
    eagerness = rng.choice([0.0, 0.1, 0.3, 0.6], size=batch)
    s = table.state
    while (s.phase != DONE).any():  # a cancelled deal ("redeal") may be DONE before any decision
        if generic:
            s.lockstep = False
        mask = table.action_mask()
        assert mask.shape == (batch, len(rules.action_names)), (
            f"{rules.preset} n={n}: engine action mask {mask.shape} != (B, A) = "
            f"({batch}, {len(rules.action_names)}) for actions {rules.action_names[NUM_STANDARD_CARDS:]}"
        )
        for g in range(batch):
            ref = refs[g]
            if s.phase[g] == DONE:
                assert ref.phase == "done", (
                    f"{rules.preset} n={n} game {g}: engine finished, reference in phase {ref.phase!r}"
                    f"{where_in_play(ref)}"
                )
                continue
            assert int(s.current[g]) == ref.current_player, (
                f"{rules.preset} n={n} game {g} ({ref.phase}): engine says seat {s.current[g]} acts, "
                f"reference {ref.current_player}{where_in_play(ref)}"
            )
            expected = ref.legal_actions()
            got = [int(a) for a in np.flatnonzero(mask[g])]
            assert got == expected, (
                f"{rules.preset} n={n} game {g} seat {ref.current_player} ({ref.phase}): engine legal "
                f"{names(rules, got)} != reference {names(rules, expected)}{where_in_play(ref)}"
            )
        action = choose(mask, rules, policy, s.current, shooter, eagerness, rng)
        live = s.phase != DONE
        for g in np.flatnonzero(live):
            refs[g].step(int(action[g]))
        table.step(action)  # the finished games ignore their action
        s = table.state
        outcome.decisions += int(live.sum())
    info = table.game_info(np.arange(batch))
    for g in range(batch):
        ref = refs[g]
        assert ref.phase == "done", (
            f"{rules.preset} n={n} game {g}: engine finished, reference in phase {ref.phase!r}"
            f"{where_in_play(ref)}"
        )
        assert bool(s.cancelled[g]) == ref.cancelled, (
            f"{rules.preset} n={n} game {g}: engine cancelled={bool(s.cancelled[g])}, reference "
            f"{ref.cancelled} (all-penalty seats {ref.all_penalty_seats})"
        )
        assert list(s.deal_points[g]) == ref.deal_points, (
            f"{rules.preset} n={n} game {g}: engine points {list(s.deal_points[g])} != "
            f"reference {ref.deal_points} (raw {ref.raw_points}, moon {ref.moon_shooter}, "
            f"decisions {ref.decisions}{domino_end(ref)})"
        )
        check_team_points(rules, info, g, ref)
        if ref.declarer is None and rules.team_scoring != "sum":  # else no individual moon is scored
            assert (ref.moon_shooter if ref.moon_shooter is not None else -1) == s.moon_shooter[g], (
                f"{rules.preset} n={n} game {g}: engine moon shooter {s.moon_shooter[g]} != "
                f"reference {ref.moon_shooter}"
            )
        check_settlement(rules, table, g, ref, pools)
        count(outcome, rules, ref)
        outcome.games_ended += bool(s.game_over[g])
    outcome.deals += batch


def where_in_play(ref: ReferenceDeal) -> str:
    """Domino Hearts context for a message: the trick so far, who is out, the stock left."""
    if ref.rules.stock_deal is None:
        return ""
    trick = " ".join(f"{seat}:{card_name(c)}" for seat, c in ref.trick) or "-"
    out = [seat for seat, gone in enumerate(ref.out) if gone]
    last = ref.draws[-1] if ref.draws else None
    drew = f"seat {last[0]} drew {' '.join(card_name(c) for c in last[1])}" if last else "no draw yet"
    return (
        f" [trick {ref.tricks_played + 1}: {trick}; out {out}; {len(ref.stock)} cards in the stock; "
        f"last draw: {drew}]"
    )


def domino_end(ref: ReferenceDeal) -> str:
    """Domino Hearts context for the end of a deal: who took the hand and the stock."""
    if ref.rules.stock_deal is None:
        return ""
    return (
        f", last holder {ref.last_holder} (hand {' '.join(card_name(c) for c in ref.end_hand) or '-'}), "
        f"stock of {len(ref.end_stock)} to seat {ref.stock_taker}, tricks won {ref.tricks_won}"
    )


def names(rules: Rules, actions: list[int]) -> list[str]:
    """Action names, for messages."""
    return [rules.action_names[a] for a in actions]


def check_team_points(rules: Rules, info: dict[str, np.ndarray], g: int, ref: ReferenceDeal) -> None:
    """The engine's ``game_info(...)["team_points"]`` of game ``g`` equals the reference's. An
    engine without team points is accepted only for variants whose team points are the deal
    points (no fixed teams, no slam pair)."""
    where = f"{rules.preset} n={rules.num_players} game {g}"
    if "team_points" not in info:
        assert not rules.teams and rules.bidding != "slam", (
            f"{where}: the engine's game_info has no team_points"
        )
        return
    got = [int(p) for p in info["team_points"][g]]
    assert got == ref.team_points, (
        f"{where}: engine team points {got} != reference {ref.team_points} (deal points {ref.deal_points}, "
        f"bidder {ref.bidder}, partner {ref.silent_partner})"
    )


def count(outcome: Outcome, rules: Rules, ref: ReferenceDeal) -> None:
    """What one finished deal of the reference covered."""
    outcome.moons += ref.moon_shooter is not None
    first = ref.completed_tricks[0][0] if ref.completed_tricks else []
    outcome.forced_first_trick_points += any((1 << c) & rules.penalty_mask for _, c in first)
    outcome.all_penalty_starts += bool(ref.all_penalty_seats)
    outcome.cancelled += ref.cancelled
    outcome.decisions_made.update(name for _, name in ref.decisions)
    outcome.declared += ref.declarer is not None or ref.bidder is not None
    outcome.generals_made += ref.declarer is not None and ref.deal_points[ref.declarer] == 0
    outcome.silent_partners += ref.silent_partner is not None
    outcome.auctions_won += ref.auction_winner is not None
    bids = [name for _, name in ref.decisions if not name.startswith(("suit:", "moon:"))]
    outcome.all_passed += bool(bids) and set(bids) == {"pass"}
    outcome.outbid += ref.auction_winner is not None and ref.auction_winner != ref.eldest
    if rules.scoring == "royal" and ref.moon_shooter is None:
        queen = parse_card("QD")
        taker = next((s for s in range(rules.num_players) if queen in ref.counted(s)), None)
        outcome.diamond_floors += taker is not None and ref.deal_points[taker] != ref.raw_points[taker]
    outcome.jokers_led += any(plays[0][1] >= NUM_STANDARD_CARDS for plays, _ in ref.completed_tricks)
    outcome.team_moons += ref.moon_team is not None
    outcome.kitty_points += any(ref.card_points[c] for c in ref.kitty)
    for plays, _ in ref.completed_tricks:
        suit = next((c // 13 for _, c in plays if c < NUM_STANDARD_CARDS), None)
        outcome.discards += sum(c < NUM_STANDARD_CARDS and c // 13 != suit for _, c in plays)
    if ref.two_decks:
        count_two_decks(outcome, ref)
    if rules.stock_deal is None:
        return
    outcome.draws += len(ref.draws)
    outcome.long_draws += sum(len(cards) >= 4 for _, cards in ref.draws)
    outcome.stock_emptied += bool(ref.draws) and not ref.end_stock
    tricks = ref.completed_tricks
    outcome.out_winner_passes_lead += sum(won[1] != led[0][0][0] for won, led in zip(tricks, tricks[1:]))
    outcome.last_holder_stock += ref.last_holder is not None and bool(ref.end_stock)
    outcome.nobody_in += ref.last_holder is None


def count_two_decks(outcome: Outcome, ref: ReferenceDeal) -> None:
    """The cancellations one finished two-deck deal of the reference went through."""
    outcome.cancelled_pairs += sum(len(pairs) for pairs in ref.trick_pairs)
    reasons = dict(ref.cancelled_tricks)
    outcome.two_pair_cancels += sum(reason == "two_pairs" for reason in reasons.values())
    outcome.nothing_survives += sum(reason == "nothing_survives" for reason in reasons.values())
    last = len(ref.completed_tricks) - 1
    outcome.first_trick_cancels += 0 in reasons
    outcome.kitty_carried += 0 in reasons and bool(ref.kitty)
    outcome.carried_won += sum(k < last for k in reasons)
    outcome.last_trick_cancels += last in reasons
    outcome.both_copies_passed += any(len(set(chosen)) < len(chosen) for chosen in ref.pass_chosen)


def check_settlement(rules: Rules, table: Table, g: int, ref: ReferenceDeal, pools: list[int]) -> None:
    """The engine's chips and pool of game ``g`` after the deal equal the reference's; the
    reference's pool of the game moves on (``pools[g]``)."""
    s = table.state
    before = pools[g]
    chips, pools[g] = reference_settle(rules, ref, before)
    if rules.settlement == "maria" and s.game_over[g]:
        chips = reference_settle_game([int(t) for t in s.totals[g]])
    where = f"{rules.preset} n={rules.num_players} {rules.settlement} game {g}"
    assert np.allclose(s.chips[g], chips, rtol=0, atol=1e-9), (
        f"{where}: engine chips {list(s.chips[g])} != reference {chips} (deal points {ref.deal_points}, "
        f"raw {ref.raw_points}, moon {ref.moon_shooter}, pool before {before})"
    )
    assert s.pool[g] == pools[g], (
        f"{where}: engine pool {s.pool[g]} != reference {pools[g]} (pool before {before}, chips {chips})"
    )
