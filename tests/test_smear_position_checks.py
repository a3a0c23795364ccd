"""Smear positions are inputs like fixed deals: every impossible position is refused before
anything changes, one ``TypeError``/``ValueError`` naming the field, the value and what it
should be (issue 41, item 2); positions read back from live games of every Smear preset and
player count are accepted.

Each row of :data:`ROWS` takes a position read off a live game (mid-trick after finished
tricks, at the first lead, or one card from the end of a trick), changes it the way the row
says and expects the refusal's type and words. A refusal found by playing the trick again
(a card out of turn, a card against the rules, a trick already complete) leaves the table
as it was, and it plays on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import cache

import numpy as np
import pytest

from hearts_env import Table, make_rules
from hearts_env.core.bits import EMPTY, U64
from hearts_env.core.phases import PLAYING
from hearts_env.core.rules import Rules
from hearts_env.games.smear.positions import SmearPositionBatch, check_batch
from hearts_env.presets import all_configs

Pos = SmearPositionBatch


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _when(kind: str, rules: Rules, s: object) -> bool:
    """Whether game 0 of state ``s`` is at the point ``kind`` of its play."""
    if s.phase[0] != PLAYING:
        return False
    t, n = int(s.trick_number[0]), int(s.trick_len[0])
    return {
        "mid": t >= 1 and n >= 1,  # cards on the table after finished tricks
        "between": t >= 1 and n == 0,  # a trick to lead after finished tricks
        "first": t == 0 and n == 0,  # the first lead to make
        "first_mid": t == 0 and n >= 1,
        "last_card": t >= 1 and n == rules.num_players - 1,  # one card from the end of a trick
    }[kind]


@cache
def _live(name: str, players: int, kind: str) -> tuple[Rules, Table, Pos]:
    """A table (one game) at the point ``kind`` of a deal's play, and its position."""
    rules = make_rules(name, players)
    for seed in range(40):
        table = Table(rules, num_games=1)
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not table.deal_over[0]:
            if _when(kind, rules, table.state):
                return rules, table, table.position(0)
            table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
    raise AssertionError(f"no {kind} position in {name}")


def _set(pos: Pos, name: str, value: object, index: int | None = None) -> Pos:
    """``pos`` with field ``name`` (column ``index`` of a 2-D field) of position 0 set to ``value``."""
    array = getattr(pos, name).copy()
    if index is None:
        array[0] = value
    else:
        array[0, index] = value
    return pos.with_fields(**{name: array})


def _move(pos: Pos, source: str, seat: int, target: str, to: int, keep: bool = False) -> Pos:
    """The lowest card of ``source[seat]`` also put in ``target[to]`` (and taken out of the
    source unless ``keep``)."""
    card = _lowest(int(getattr(pos, source)[0, seat]))
    changes = {}
    if not keep:
        changes[source] = getattr(pos, source).copy()
        changes[source][0, seat] &= ~U64(1 << card)
    into = changes.get(target, getattr(pos, target)).copy()
    into[0, to] |= U64(1 << card)
    changes[target] = into
    return pos.with_fields(**changes)


def _next(pos: Pos) -> int:
    """The seat after the pitcher."""
    return (int(pos.pitcher[0]) + 1) % len(pos.hands[0])


def _index(rules: Rules, decision: str) -> int:
    return rules.decisions.index(decision)


def _bids(rules: Rules, pos: Pos, dealer: int, bids: list[str], pitcher: int, high: int) -> Pos:
    values = np.array([[_index(rules, b) for b in bids]])
    return pos.with_fields(
        bids=values, dealer=np.array([dealer]), pitcher=np.array([pitcher]), high_bid=np.array([high])
    )


def _leader_took_nothing(rules: Rules, pos: Pos) -> Pos:
    """The lead given to the next seat, its taken cards handed to the real leader."""
    leader = int(pos.leader[0])
    other = (leader + 1) % rules.num_players
    taken = pos.taken.copy()
    taken[0, leader] |= taken[0, other]
    taken[0, other] = U64(0)
    return pos.with_fields(taken=taken, leader=np.array([other]))


def _non_trump_played(rules: Rules, pos: Pos) -> Pos:
    """A card thrown away (a non-trump) moved into its seat's play and the leader's tricks."""
    seat = int(np.flatnonzero(pos.thrown[0])[0])
    moved = _move(pos, "thrown", seat, "played", seat)
    card = int(moved.played[0, seat] & ~pos.played[0, seat])
    taken = pos.taken.copy()
    taken[0, int(pos.leader[0])] |= U64(card)
    return moved.with_fields(taken=taken)


def _trick_gap(rules: Rules, pos: Pos) -> Pos:
    """A card after the trick's first empty place (taken from the next seat's hand)."""
    n = int((pos.trick[0] != EMPTY).sum())
    seat = (int(pos.leader[0]) + n) % rules.num_players
    moved = _move(pos, "hands", seat, "played", seat)
    card = int(moved.played[0, seat] & ~pos.played[0, seat]).bit_length() - 1
    trick, seats = moved.trick.copy(), moved.trick_seats.copy()
    trick[0, n + 1], seats[0, n + 1] = card, seat
    return moved.with_fields(trick=trick, trick_seats=seats)


def _complete_trick(rules: Rules, table: Table, pos: Pos) -> Pos:
    """The last card of the trick (a legal one) put on the table: the trick is complete."""
    seat = int(table.state.current[0])
    card = int(np.flatnonzero(table.action_mask()[0])[0])
    hands, played = pos.hands.copy(), pos.played.copy()
    hands[0, seat] &= ~U64(1 << card)
    played[0, seat] |= U64(1 << card)
    n = rules.num_players - 1
    return _set(_set(pos.with_fields(hands=hands, played=played), "trick", card, n), "trick_seats", seat, n)


def _out_of_turn(rules: Rules, pos: Pos) -> Pos:
    """The trick's second card credited to the seat after its player (a card of that seat's
    hand given back to the first, so every seat holds as many cards as before)."""
    card, seat = int(pos.trick[0, 1]), int(pos.trick_seats[0, 1])
    other = (seat + 1) % rules.num_players
    swapped = _move(pos, "played", seat, "played", other)
    if _lowest(int(pos.played[0, seat])) != card:  # move exactly the trick's card
        hands, played = pos.hands.copy(), pos.played.copy()
        played[0, seat] &= ~U64(1 << card)
        played[0, other] |= U64(1 << card)
        swapped = pos.with_fields(hands=hands, played=played)
    swapped = _move(swapped, "hands", other, "hands", seat)
    return _set(swapped, "trick_seats", other, 1)


P4 = ("smear_partnership", 4)  # the stock game: only the pitcher draws, hands of six
W4 = ("smear_widow", 4)  # everybody may draw; the pitcher keeps six
N4 = ("smear_nine_card", 4)  # only trumps are played
F4 = ("smear_five_point", 4)  # a dead blind: no draws, no discards; the first lead names trumps
Mutation = Callable[[Rules, Pos], Pos]
ROWS: list[tuple[str, tuple[str, int], str, Mutation, type, str]] = [
    # types and lengths
    ("leader float", P4, "mid",
     lambda r, p: p.with_fields(leader=np.array([1.0])),
     TypeError, "leader"),
    ("leader bool", P4, "mid",
     lambda r, p: p.with_fields(leader=np.array([True])),
     TypeError, "leader"),
    ("deal_index str", P4, "mid",
     lambda r, p: p.with_fields(deal_index=np.array(["3"])),
     TypeError, "deal_index"),
    ("leader list", P4, "mid",
     lambda r, p: p.with_fields(leader=[0]),
     TypeError, "leader"),
    ("hands int64", P4, "mid",
     lambda r, p: p.with_fields(hands=p.hands.astype(np.int64)),
     TypeError, "uint64"),
    ("totals huge", P4, "mid",
     lambda r, p: p.with_fields(totals=np.array([[10**30] * 4])),
     TypeError, "totals"),
    ("unknown key", P4, "mid",
     lambda r, p: p.with_fields(kitty=p.leader),
     TypeError, "no field 'kitty'"),
    ("rows differ", P4, "mid",
     lambda r, p: p.with_fields(leader=np.array([0, 1])),
     ValueError, "one row per"),
    ("trick too short", N4, "mid",
     lambda r, p: p.with_fields(trick=p.trick[:, :4]),
     ValueError, "trick must have shape"),
    # seats, suits, bids and counters in range
    ("leader 9", P4, "mid",
     lambda r, p: _set(p, "leader", 9),
     ValueError, "leader must be a seat 0..3, got 9"),
    ("leader -1", F4, "mid",
     lambda r, p: _set(p, "leader", -1),
     ValueError, "leader must be a seat"),
    ("dealer 9", P4, "mid",
     lambda r, p: _set(p, "dealer", 9),
     ValueError, "dealer must be a seat 0..3, got 9"),
    ("dealer -3", W4, "mid",
     lambda r, p: _set(p, "dealer", -3),
     ValueError, "dealer must be a seat 0..3, got -3"),
    ("bid 99", P4, "mid",
     lambda r, p: _set(p, "bids", 99, 1),
     ValueError, "bids[1] must be the decision index"),
    ("bid suit", P4, "mid",
     lambda r, p: _set(p, "bids", _index(r, "suit:C"), 2),
     ValueError, "bids[2]"),
    ("bid never made", W4, "mid",
     lambda r, p: _set(p, "bids", -1, 0),
     ValueError, "every seat bids once"),
    ("high_bid -5", P4, "mid",
     lambda r, p: _set(p, "high_bid", -5),
     ValueError, "high_bid must be a bid's value"),
    ("trick_number 99", P4, "mid",
     lambda r, p: _set(p, "trick_number", 99),
     ValueError, "trick_number"),
    ("trick_number +1", W4, "mid",
     lambda r, p: _set(p, "trick_number", p.trick_number[0] + 1),
     ValueError, "to the finished tricks"),
    ("trick_number 0", N4, "mid",
     lambda r, p: _set(p, "trick_number", 0),
     ValueError, "finished tricks"),
    ("stock_pos 999", P4, "mid",
     lambda r, p: _set(p, "stock_pos", 999),
     ValueError, "stock_pos (cards drawn)"),
    ("stock_pos 0", P4, "mid",
     lambda r, p: _set(p, "stock_pos", 0),
     ValueError, "stock_pos must be 14 in play"),
    ("deal_index -1", P4, "mid",
     lambda r, p: _set(p, "deal_index", -1),
     ValueError, "deal_index must be 0"),
    ("totals 10**12", P4, "mid",
     lambda r, p: _set(p, "totals", 10**12, 0),
     ValueError, "totals[0] must be within"),
    ("partners' totals", P4, "mid",
     lambda r, p: _set(p, "totals", p.totals[0, 0] + 1, 0),
     ValueError, "the same for partners"),
    ("trumps -1 named", W4, "mid",
     lambda r, p: _set(p, "trumps", -1),
     ValueError, "trumps must be a suit"),
    ("first lead's suit", F4, "first_mid",
     lambda r, p: _set(p, "trumps", (p.trumps[0] + 1) % 4),
     ValueError, "the suit of the first lead"),
    # every card in one place
    ("card off the deck", P4, "mid",
     lambda r, p: _set(p, "hands", p.hands[0, 1] | U64(1 << 60), 1),
     ValueError, "hands[1] must hold cards of this deck only"),
    ("stock card twice", P4, "mid",
     lambda r, p: _set(p, "stock", p.stock[0, 1], 0),
     ValueError, "twice"),
    ("stock card -1", F4, "mid",
     lambda r, p: _set(p, "stock", -1, 0),
     ValueError, "stock[0] must be a card"),
    ("stock undrawn empty", F4, "mid",
     lambda r, p: _set(p, "stock", EMPTY, 0),
     ValueError, "still to be drawn"),
    # drawn and thrown cards
    ("received in another hand", W4, "mid",
     lambda r, p: _move(p, "hands", 1, "received", 0, keep=True),
     ValueError, "received[0] holds"),
    ("received twice", W4, "mid",
     lambda r, p: _move(p, "received", int(p.pitcher[0]), "received", (int(p.pitcher[0]) + 1) % 4, keep=True),
     ValueError, "received by another seat"),
    ("received off pitcher", P4, "mid",
     lambda r, p: _move(p, "hands", _next(p), "received", _next(p), keep=True),
     ValueError, "only the pitcher"),
    ("received undrawn", F4, "mid",
     lambda r, p: _move(p, "hands", int(p.pitcher[0]), "received", int(p.pitcher[0]), keep=True),
     ValueError, "were drawn"),
    ("thrown in five-point", F4, "mid",
     lambda r, p: _move(p, "hands", 0, "thrown", 0),
     ValueError, "thrown[0] must be empty: nobody throws"),
    # hands, tricks and the lead
    ("uneven hands", P4, "mid",
     lambda r, p: _move(p, "hands", 0, "hands", 1),
     ValueError, "every hand in play has 6"),
    ("widow pitcher short", W4, "mid",
     lambda r, p: _move(p, "hands", int(p.pitcher[0]), "thrown", int(p.pitcher[0])),
     ValueError, "the pitcher's hand in play has 6"),
    ("nine-card non-trump played", N4, "mid",
     _non_trump_played,
     ValueError, "only trumps are played"),
    ("first lead out of turn", P4, "first",
     lambda r, p: _set(p, "leader", (p.pitcher[0] + 1) % 4),
     ValueError, "for the first trick (the pitcher"),
    ("leader took nothing", F4, "between",
     _leader_took_nothing,
     ValueError, "took no trick"),
    ("trick seat 7", P4, "mid",
     lambda r, p: _set(p, "trick_seats", 7, 0),
     ValueError, "trick_seats[0] must be"),
    ("trick seat missing", P4, "mid",
     lambda r, p: _set(p, "trick_seats", -1, 0),
     ValueError, "must be -1 exactly"),
    ("trick card 60", P4, "mid",
     lambda r, p: _set(p, "trick", 60, 0),
     ValueError, "trick[0] must be a card"),
    ("trick gap", P4, "first_mid",
     _trick_gap,
     ValueError, "must hold its cards first"),
    # the bidding
    ("bids not rising", F4, "mid",
     lambda r, p: _bids(r, p, 0, ["pass", "bid:4", "bid:3", "pass"], 1, 4),
     ValueError, "not above seat 1's bid:4"),
    ("bids all pass", F4, "mid",
     lambda r, p: _bids(r, p, 0, ["pass"] * 4, 1, 4),
     ValueError, "all pass"),
    ("dealer not forced", F4, "mid",
     lambda r, p: _bids(r, p, 0, ["bid:3", "pass", "pass", "pass"], 0, 3),
     ValueError, "forced to bid it"),
    ("pitcher not highest", F4, "mid",
     lambda r, p: _bids(r, p, 0, ["pass", "bid:2", "bid:3", "pass"], 1, 3),
     ValueError, "pitcher must be seat 2"),
    ("high_bid not the pitcher's", F4, "mid",
     lambda r, p: _bids(r, p, 0, ["pass", "bid:2", "bid:3", "pass"], 2, 5),
     ValueError, "high_bid must be 3"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("label", "config", "kind", "mutate", "error", "words"), ROWS, ids=[r[0] for r in ROWS]
)
def test_an_impossible_position_is_refused(
    label: str, config: tuple[str, int], kind: str, mutate: Mutation, error: type, words: str
) -> None:
    rules, _, position = _live(*config, kind)
    check_batch(rules, position)  # the live position itself is fine
    with pytest.raises(error, match=_escape(words)):
        check_batch(rules, mutate(rules, position))


def _escape(words: str) -> str:
    import re

    return re.escape(words)


def test_the_dataclass_refuses_unknown_fields() -> None:
    rules, _, position = _live(*P4, "mid")
    values = {f.name: getattr(position, f.name) for f in fields(position)}
    with pytest.raises(TypeError, match="dealr"):
        SmearPositionBatch(**values, dealr=np.array([2]))
    with pytest.raises(TypeError, match="SmearPositionBatch"):
        check_batch(rules, "QS")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a position of Smear, not of hearts"):
        check_batch(make_rules("hearts"), position)


def _state(table: Table) -> dict[str, np.ndarray]:
    return {
        name: np.copy(value) for name, value in vars(table.state).items() if isinstance(value, np.ndarray)
    }


@pytest.mark.parametrize(
    ("config", "kind", "build", "words"),
    [
        (P4, "last_card", "complete", "holds a card of every seat"),
        (F4, "last_card", "out_of_turn", "is card 2 of the trick"),
        (P4, "mid", "illegal", "must follow"),
    ],
)
def test_a_refused_trick_leaves_the_table_as_it_was(
    config: tuple[str, int], kind: str, build: str, words: str
) -> None:
    """Refusals found by playing the trick again come before anything changes: the table's
    state is the same after the refusal, and the table plays on to the end of the deal."""
    if build == "illegal":
        rules, table, bad = _illegal_trick_card(*config)
    else:
        rules, table, position = _live(*config, kind)
        if build == "complete":
            bad = _complete_trick(rules, table, position)
        else:
            bad = _out_of_turn(rules, position)
    table = _copy(rules, table)
    before = _state(table)
    with pytest.raises(ValueError, match=_escape(words)):
        table.set_position(bad)
    after = _state(table)
    assert before.keys() == after.keys()
    for name, value in before.items():
        assert np.array_equal(value, after[name]), name
    rng = np.random.default_rng(0)
    for _ in range(200):
        if table.deal_over[0]:
            break
        table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
    assert table.deal_over[0]


def _copy(rules: Rules, table: Table) -> Table:
    """A fresh table in the state of ``table`` (the cached one stays as it is)."""
    twin = Table(rules, num_games=1)
    twin.state.put(np.array([0]), table.state.take(np.array([0])))
    return twin


@cache
def _illegal_trick_card(name: str, players: int) -> tuple[Rules, Table, Pos]:
    """A position whose trick's second card is one its seat held but could not play (it held
    the suit led)."""
    rules = make_rules(name, players)
    for seed in range(60):
        table = Table(rules, num_games=1)
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not table.deal_over[0]:
            s = table.state
            if s.phase[0] == PLAYING and s.trick_len[0] == 1:
                seat = int(s.current[0])
                legal = sum(1 << int(c) for c in np.flatnonzero(table.action_mask()[0]))
                wrong = int(s.hands[0, seat]) & ~legal
                if wrong:
                    card = _lowest(wrong)
                    pos = table.position(0)
                    hands, played = pos.hands.copy(), pos.played.copy()
                    hands[0, seat] &= ~U64(1 << card)
                    played[0, seat] |= U64(1 << card)
                    bad = _set(
                        _set(pos.with_fields(hands=hands, played=played), "trick", card, 1),
                        "trick_seats",
                        seat,
                        1,
                    )
                    return rules, table, bad
            table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
    raise AssertionError("no seat held a card it could not play")


@pytest.mark.parametrize(("name", "players"), all_configs("smear"))
def test_live_positions_are_accepted(name: str, players: int) -> None:
    """Positions read off live games, at every point of the play (a few a deal), pass the
    checks and start a table."""
    rules = make_rules(name, players)
    table = Table(rules, num_games=3)
    table.reset(seed=players)
    rng = np.random.default_rng(players)
    checked = 0
    while not table.deal_over.all():
        live = np.flatnonzero(table.state.phase == PLAYING)
        if len(live) and rng.random() < 0.3:
            batch = SmearPositionBatch.concat([table.position(int(g)) for g in live])
            check_batch(rules, batch)
            copy = Table(rules, num_games=len(live))
            copy.set_position(batch)
            assert np.array_equal(copy.action_mask(), table.action_mask()[live])
            checked += len(live)
        mask = table.action_mask()
        table.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]))
    assert checked
