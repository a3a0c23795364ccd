"""Scripted deals for the reference implementation (tests.reference), trick by trick.

Most deals use a small deck (``removed`` = every card not listed) so that a whole deal fits in a
few lines; hands are written as card strings, seat 0 first.

``tests/test_engine_scripted.py`` replays this module with ``ReferenceDeal`` replaced by the fast
engine: the reference's own bookkeeping is therefore checked through :func:`bookkeeping`, and the
tests of the reference's settlement functions call :func:`reference_only`.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hearts_env.core.cards import card_name, parse_card, parse_cards
from hearts_env.core.rules import Rules
from hearts_env.presets import all_configs, make_rules
from tests import reference
from tests.reference import ReferenceDeal, reference_settle, reference_settle_game


def small_rules(preset: str, cards: str, num_players: int = 3, **options: object) -> Rules:
    """Rules of ``preset`` over a deck of only ``cards``; no passing unless options say so."""
    keep = set(parse_cards(cards))
    options.setdefault("pass_count", 0)
    options.setdefault("pass_directions", ("hold",))
    removed = [card_name(c) for c in range(52) if c not in keep]
    return make_rules(preset, num_players=num_players, removed=removed, **options)


def deal(
    rules: Rules, hands: list[str], dealer: int = 0, direction: str = "hold", **kw: object
) -> ReferenceDeal:
    all_cards = " ".join(hands)
    if rules.leftover == "remove":
        assert sorted(parse_cards(all_cards)) == rules.deck.cards, "test deal must use the whole deck"
    return ReferenceDeal(rules, [parse_cards(h) for h in hands], dealer, direction, **kw)


def legal(d: ReferenceDeal) -> str:
    return " ".join(card_name(c) for c in d.legal_actions())


def play(d: ReferenceDeal, seat: int, card: str) -> None:
    assert d.current_player == seat, f"expected seat {seat} to act, not {d.current_player}"
    d.step(parse_card(card))


def play_trick(d: ReferenceDeal, plays: str, winner: int) -> None:
    """``plays`` like ``"1:2C 2:3C 0:AC"``; checks the trick's winner leads next."""
    for item in plays.split():
        seat, card = item.split(":")
        play(d, int(seat), card)
    assert d.completed_tricks[-1][1] == winner
    if d.phase != "done":
        assert d.current_player == winner


def reference_only() -> None:
    """Skip in the engine replay: the test is about the reference's own functions."""
    if ReferenceDeal is not reference.ReferenceDeal:
        pytest.skip("checks the reference's own settlement functions and bookkeeping")


def bookkeeping(d: ReferenceDeal, **expected: object) -> None:
    """Check the reference's first-trick bookkeeping (``all_penalty_seats``, ``uncounted``,
    ``set_aside``, ``set_aside_receiver``, ``penalty_total``); the engine replay has none."""
    if isinstance(d, reference.ReferenceDeal):
        for name, value in expected.items():
            assert getattr(d, name) == value, f"{name}: {getattr(d, name)!r} != {value!r}"


def assert_rejected(d: ReferenceDeal, card: str, *words: str) -> None:
    """Stepping ``card`` raises a ValueError mentioning ``words`` and changes nothing."""
    before = (
        d.phase,
        d.current_player,
        [set(h) for h in d.hands],
        list(d.trick),
        d.hearts_broken,
        [list(c) for c in d.pass_chosen],
    )
    with pytest.raises(ValueError) as err:
        d.step(parse_card(card))
    message = str(err.value)
    assert card in message and f"seat {d.current_player}" in message
    for word in words:
        assert word in message
    after = (
        d.phase,
        d.current_player,
        [set(h) for h in d.hands],
        list(d.trick),
        d.hearts_broken,
        [list(c) for c in d.pass_chosen],
    )
    assert before == after


# ---------------------------------------------------------------- passing and the first lead


def test_passing_then_first_lead_two_of_clubs_and_first_trick_ban() -> None:
    rules = make_rules("hearts")
    clubs, diamonds, hearts, spades = (" ".join(r + s for r in "23456789TJQKA") for s in "CDHS")
    d = deal(rules, [clubs, diamonds, hearts, spades], dealer=3, direction="left")
    assert d.phase == "pass" and d.current_player == 0  # eldest = dealer + 1
    assert legal(d) == clubs
    play(d, 0, "2C")
    assert_rejected(d, "2C", "already chosen")
    assert_rejected(d, "2D", "not in the hand")
    assert d.current_player == 0 and "2C" not in legal(d).split()
    play(d, 0, "3C")
    play(d, 0, "4C")
    assert d.phase == "pass" and d.current_player == 1
    assert all(len(h) == 13 for h in d.hands)  # no exchange before every seat has chosen
    for card in ("2D", "3D", "4D"):
        play(d, 1, card)
    for card in ("2H", "3H", "4H"):
        play(d, 2, card)
    for card in ("2S", "3S", "QS"):
        play(d, 3, card)
    assert d.phase == "play"
    assert d.hands[1] >= set(parse_cards("2C 3C 4C")) and d.hands[0] >= set(parse_cards("2S 3S QS"))
    assert d.hands[2] >= set(parse_cards("2D 3D 4D")) and d.hands[3] >= set(parse_cards("2H 3H 4H"))
    assert all(len(h) == 13 for h in d.hands)
    # Seat 1 received 2C, so it leads, and it must lead exactly 2C.
    assert d.current_player == 1 and legal(d) == "2C"
    assert_rejected(d, "3C", "first lead must be 2C")
    play(d, 1, "2C")
    # Seat 2 is void in clubs: its hearts are penalty cards, so only its diamonds.
    assert legal(d) == "2D 3D 4D"
    assert_rejected(d, "AH", "first trick")
    play(d, 2, "2D")
    # Seat 3 holds spades (no Q♠ now) and hearts: spades only.
    assert legal(d) == "4S 5S 6S 7S 8S 9S TS JS KS AS"
    play(d, 3, "AS")
    # Seat 0 must follow clubs; Q♠ stays in hand.
    assert legal(d) == "5C 6C 7C 8C 9C TC JC QC KC AC"
    assert_rejected(d, "QS", "must follow")
    play(d, 0, "5C")
    assert d.completed_tricks[0][1] == 0 and d.current_player == 0


@pytest.mark.parametrize(("direction", "receiver_of_seat0"), [("left", 1), ("right", 3), ("across", 2)])
def test_pass_directions(direction: str, receiver_of_seat0: int) -> None:
    rules = make_rules("hearts")
    hands = [" ".join(r + s for r in "23456789TJQKA") for s in "CDHS"]
    d = deal(rules, hands, dealer=0, direction=direction)
    assert d.current_player == 1  # eldest starts choosing
    for seat in (1, 2, 3, 0):
        for card in d.legal_actions()[-3:]:
            play(d, seat, card_name(card))
    assert d.hands[receiver_of_seat0] >= set(parse_cards("QC KC AC"))


def test_hold_and_pass_count_zero_skip_passing() -> None:
    rules = make_rules("hearts")
    hands = [" ".join(r + s for r in "23456789TJQKA") for s in "CDHS"]
    d = deal(rules, hands, dealer=2, direction="hold")
    assert d.phase == "play" and d.current_player == 0 and legal(d) == "2C"


def test_first_lead_any_club_and_eldest() -> None:
    cards = "2C 5C 9C 3D 4D 5D 2H 6H 7H"
    hands = ["5C 9C 2H", "2C 3D 6H", "4D 5D 7H"]
    d = deal(small_rules("hearts", cards, first_lead="any_club"), hands, dealer=0)
    assert d.current_player == 1 and legal(d) == "2C"
    d = deal(small_rules("hearts", cards, first_lead="any_club"), ["2C 9C 2H", "5C 3D 6H", "4D 5D 7H"])
    assert d.current_player == 0 and legal(d) == "2C 9C"
    play(d, 0, "9C")
    d = deal(small_rules("hearts", cards, first_lead="eldest"), hands, dealer=1)
    # Seat 2 leads; hearts are unbroken (and penalty cards on the first trick).
    assert d.current_player == 2 and legal(d) == "4D 5D"
    assert_rejected(d, "7H", "hearts")


# ---------------------------------------------------------------- following and hearts


def test_must_follow_suit() -> None:
    rules = small_rules("hearts", "2C 5C 9C KC 3D 7D 4H 8H QS")
    d = deal(rules, ["2C 3D 4H", "5C 7D QS", "9C KC 8H"])
    play(d, 0, "2C")
    assert legal(d) == "5C"
    assert_rejected(d, "7D", "must follow suit (clubs led)")
    play(d, 1, "5C")
    assert legal(d) == "9C KC"
    assert_rejected(d, "8H", "must follow")
    play(d, 2, "KC")
    assert d.completed_tricks[0] == ([(0, parse_card("2C")), (1, parse_card("5C")), (2, parse_card("KC"))], 2)
    assert d.current_player == 2 and d.tricks_won == [0, 0, 1]


def test_hearts_not_led_before_broken() -> None:
    rules = small_rules("hearts", "AC 2C 3C 3D 4D 9H 8H 6H 7H 9S 2S KS")
    d = deal(rules, ["AC 3D 9H 9S", "2C 4D 8H 2S", "3C 6H 7H KS"])
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    assert not d.hearts_broken
    assert legal(d) == "3D 9S"
    assert_rejected(d, "9H", "may not be led before hearts are broken")
    play(d, 0, "3D")
    play(d, 1, "4D")
    assert legal(d) == "6H 7H KS"  # void, not the first trick: hearts may be discarded
    play(d, 2, "6H")
    assert d.hearts_broken and d.completed_tricks[-1][1] == 1
    assert legal(d) == "8H 2S"  # broken: hearts may be led
    play_trick(d, "1:2S 2:KS 0:9S", winner=2)
    play_trick(d, "2:7H 0:9H 1:8H", winner=0)
    assert d.phase == "done" and d.moon_shooter is None
    assert d.raw_points == [3, 1, 0] and d.deal_points == [3, 1, 0]
    assert d.tricks_won == [2, 1, 1]
    assert d.legal_actions() == []
    with pytest.raises(ValueError):
        d.step(parse_card("2C"))


def test_all_hearts_leader_may_lead_hearts() -> None:
    rules = small_rules("hearts", "AC 5H 6H 2C 3D 4D 3C 5D 6D")
    d = deal(rules, ["AC 5H 6H", "2C 3D 4D", "3C 5D 6D"])
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    assert not d.hearts_broken and legal(d) == "5H 6H"
    play(d, 0, "5H")


def test_queen_needs_break_and_heart_or_queen() -> None:
    cards = "AC 2C 3C QS 5H 4D 5D 6D 7D"
    hands = ["AC QS 5H", "2C 4D 5D", "3C 6D 7D"]
    d = deal(small_rules("hearts", cards, queen_needs_break=True), hands)
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    assert legal(d) == "5H QS"  # nothing but hearts and Q♠: anything may be led
    d = deal(small_rules("hearts", cards), hands)
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    assert legal(d) == "QS"
    d = deal(small_rules("hearts", cards, lead_hearts_if_only_queen=True), hands)
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    assert legal(d) == "5H QS"
    # heart_or_queen: Q♠ played breaks hearts.
    d = deal(small_rules("hearts", cards, hearts_break="heart_or_queen"), hands)
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    play(d, 0, "QS")
    assert d.hearts_broken


def test_first_trick_no_points_with_only_penalty_exception() -> None:
    rules = small_rules("hearts", "2C 3D 4S QS 5H 6H 4D 7H 8D")
    d = deal(rules, ["2C 3D 4S", "QS 5H 6H", "4D 7H 8D"])
    play(d, 0, "2C")
    assert legal(d) == "5H 6H QS"  # void and holding only penalty cards
    play(d, 1, "5H")
    assert legal(d) == "4D 8D"
    assert_rejected(d, "7H", "no penalty card on the first trick")
    play(d, 2, "4D")
    assert d.completed_tricks[-1][1] == 0
    assert legal(d) == "3D 4S"
    play(d, 0, "3D")
    assert legal(d) == "6H QS"  # second trick: anything when void
    play(d, 1, "QS")
    play(d, 2, "8D")
    play_trick(d, "2:7H 0:4S 1:6H", winner=2)
    assert d.raw_points == [1, 0, 15] and d.deal_points == [1, 0, 15]
    assert d.moon_shooter is None


def test_first_trick_ban_applies_to_an_eldest_leader() -> None:
    rules = small_rules("hearts", "2C 3C 4C QS 2H 3D 5C 6C 7C", first_lead="eldest")
    d = deal(rules, ["QS 2H 3D", "2C 3C 4C", "5C 6C 7C"], dealer=2)
    assert d.current_player == 0 and legal(d) == "3D"
    d = deal(rules, ["QS 2H 2C", "3D 3C 4C", "5C 6C 7C"], dealer=2)
    assert legal(d) == "2C"
    rules = small_rules("hearts", "2C 3C 4C QS 2H 3H 5C 6C 7C", first_lead="eldest")
    d = deal(rules, ["QS 2H 3H", "2C 3C 4C", "5C 6C 7C"], dealer=2)
    # Hearts unbroken leaves Q♠; the first-trick ban would leave nothing, so Q♠ stays.
    assert legal(d) == "QS"


# ---------------------------------------------------------------- moon

MOON_CARDS = "AC AS AH KH 2C 2S 2H 5D 3C QS 3H 6D"
MOON_HANDS = ["AC AS AH KH", "2C 2S 2H 5D", "3C QS 3H 6D"]


def play_moon_deal(d: ReferenceDeal) -> None:
    """Seat 0 takes every trick, hence every heart and Q♠ (17 points in this small deck)."""
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    assert legal(d) == "AS"
    play_trick(d, "0:AS 1:2S 2:QS", winner=0)
    assert not d.hearts_broken and legal(d) == "KH AH"
    play_trick(d, "0:AH 1:2H 2:3H", winner=0)
    play_trick(d, "0:KH 1:5D 2:6D", winner=0)


@pytest.mark.parametrize(
    ("moon", "expected"),
    [
        ("old", [0, 17, 17]),
        ("new", [-17, 0, 0]),
        ("no_points", [0, 0, 0]),
        ("none", [17, -5, -5]),
    ],
)
def test_moon_rules(moon: str, expected: list[int]) -> None:
    rules = small_rules("hearts", MOON_CARDS, moon=moon, no_tricks_bonus=-5)
    assert rules.penalty_total == 17
    d = deal(rules, MOON_HANDS)
    play_moon_deal(d)
    assert d.raw_points == [17, 0, 0]
    assert d.deal_points == expected  # no -5 bonus in a moon deal
    assert d.moon_shooter == (None if moon == "none" else 0)


def test_old_moon_full_deck_and_moon_points() -> None:
    rules = make_rules("hearts", moon_points=150)
    assert rules.penalty_total == 26
    hands = [
        "AC KC QC AD KD QD AH KH QH JH TH AS KS",
        "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H QS",
        "6C 7C 8C 9C 6D 7D 8D 9D 6H 7H 8H 9H 2S",
        "TC JC TD JD 3S 4S 5S 6S 7S 8S 9S TS JS",
    ]
    d = deal(rules, hands, dealer=3)
    while d.phase != "done":
        d.step(d.legal_actions()[-1])
    assert d.phase == "done"
    if d.moon_shooter is not None:
        shooter = d.moon_shooter
        assert d.deal_points[shooter] == d.raw_points[shooter] - 26
        assert all(d.deal_points[s] == d.raw_points[s] + 150 for s in range(4) if s != shooter)
    else:
        assert sum(d.raw_points) == 26 and d.deal_points == d.raw_points


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([90, 10, 20], [0, 17, 17]),  # nobody reaches 100: old moon
        ([80, 85, 60], [-17, 0, 0]),  # 102 ends the game and 77 would be lowest: new moon
        ([10, 90, 95], [0, 17, 17]),  # the game ends but the shooter is lowest: old moon
        ([77, 83, 60], [0, 17, 17]),  # 77 ties the lowest (77): old moon
    ],
)
def test_auto_choice(totals: list[int], expected: list[int]) -> None:
    rules = small_rules("hearts", MOON_CARDS, moon="auto_choice")
    d = deal(rules, MOON_HANDS, totals=totals)
    play_moon_deal(d)
    assert d.deal_points == expected and d.moon_shooter == 0


# ---------------------------------------------------------------- the first trick: no heart led, all-penalty


def test_no_heart_lead_first_trick() -> None:
    cards = "2C 3C 4C 5H 6H 7H 8D 9D TD"
    options = dict(first_lead="eldest", hearts_break="free", no_points_first_trick=False)
    hands = ["2C 5H 6H", "3C 8D 9D", "4C 7H TD"]
    d = deal(small_rules("hearts", cards, **options), hands, dealer=2)
    assert legal(d) == "2C 5H 6H"  # hearts free: without the rule anything may be led
    rules = small_rules("hearts", cards, no_heart_lead_first_trick=True, **options)
    d = deal(rules, hands, dealer=2)
    assert d.current_player == 0 and legal(d) == "2C"
    assert_rejected(d, "5H", "no heart may be led to the first trick")
    play(d, 0, "2C")
    play(d, 1, "3C")
    play(d, 2, "4C")
    assert legal(d) == "TD 7H"  # the second trick: hearts may be led again
    # A leader with only hearts leads one; the rule does not touch the followers' discards.
    d = deal(rules, ["5H 6H 7H", "2C 3C 8D", "4C 9D TD"], dealer=2)
    assert legal(d) == "5H 6H 7H"
    play(d, 0, "5H")
    assert legal(d) == "2C 3C 8D"


def test_no_heart_lead_first_trick_on_top_of_the_other_lead_rules() -> None:
    # Hearts and Q♠ only, Q♠ also needs the break: the break rule allows all, this rule Q♠.
    cards = "2C 3C 4C QS 5H 6H 8D 9D TD"
    hands = ["QS 5H 6H", "2C 3C 8D", "4C 9D TD"]
    base = dict(first_lead="eldest", queen_needs_break=True)
    d = deal(small_rules("hearts", cards, **base), hands, dealer=2)
    assert legal(d) == "5H 6H QS"
    d = deal(small_rules("hearts", cards, no_heart_lead_first_trick=True, **base), hands, dealer=2)
    assert legal(d) == "QS"


D1_CARDS = "2C 3C 4C 5C KC 4D 6D 2H 5H 9H AH QS"
D1_HANDS = ["2C 3C KC 4D", "2H 5H 9H QS", "4C 5C 6D AH"]  # seat 1 holds only penalty cards
D1_NO_TRIGGER = ["2C 3C KC 2H", "4D 5H 9H QS", "4C 5C 6D AH"]


def play_d1(d: ReferenceDeal) -> None:
    """Seat 2 wins the first trick (9H in it); seat 0 takes 2H, 5H, AH; seat 2 Q♠."""
    bookkeeping(d, all_penalty_seats=[1])
    assert d.current_player == 0
    play_trick(d, "0:2C 1:9H 2:5C", winner=2)
    play_trick(d, "2:6D 0:4D 1:QS", winner=2)
    play_trick(d, "2:4C 0:KC 1:2H", winner=0)
    play_trick(d, "0:3C 1:5H 2:AH", winner=0)
    assert d.tricks_won == [2, 0, 2] and not d.cancelled


def test_all_penalty_hand_play() -> None:
    d = deal(small_rules("hearts", D1_CARDS), D1_HANDS, dealer=2)
    play(d, 0, "2C")
    assert legal(d) == "2H 5H 9H QS"  # nothing else to play: the penalty cards are legal
    d = deal(small_rules("hearts", D1_CARDS), D1_HANDS, dealer=2)
    play_d1(d)
    assert d.raw_points == [3, 0, 14] and d.deal_points == [3, 0, 14]
    bookkeeping(d, uncounted=set(), set_aside=set(), penalty_total=17)


def test_all_penalty_hand_redeal_cancels_the_deal() -> None:
    d = deal(small_rules("hearts", D1_CARDS, first_trick_all_penalty="redeal"), D1_HANDS, dealer=2)
    assert d.cancelled and d.phase == "done" and d.current_player == -1
    assert d.deal_points == [0, 0, 0] and d.raw_points == [0, 0, 0] and d.moon_shooter is None
    assert d.legal_actions() == [] and d.completed_tricks == []
    with pytest.raises(ValueError, match="over"):
        d.step(parse_card("2C"))
    # Without a hand of only penalty cards the rule changes nothing.
    d = deal(small_rules("hearts", D1_CARDS, first_trick_all_penalty="redeal"), D1_NO_TRIGGER, dealer=2)
    assert not d.cancelled and d.phase == "play"
    bookkeeping(d, all_penalty_seats=[])


FULL = {s: " ".join(r + s for r in "23456789TJQKA") for s in "CDHS"}


def test_all_penalty_hand_is_judged_after_the_exchange() -> None:
    rules = make_rules("hearts", first_trick_all_penalty="redeal")
    # Seat 1 holds ten hearts and three clubs; seat 0 passes it the last three hearts.
    hands = [
        "JH QH KH " + " ".join(r + "D" for r in "2345678TJQ"),
        "2H 3H 4H 5H 6H 7H 8H 9H TH AH 2C 3C 4C",
        "5C 6C 7C 8C 9C TC JC QC KC AC 9D KD AD",
        FULL["S"],
    ]
    d = deal(rules, hands, dealer=3, direction="left")
    assert d.phase == "pass" and not d.cancelled  # not triggered before the exchange
    for seat, cards in [(0, "JH QH KH"), (1, "2C 3C 4C"), (2, "5C 6C 7C"), (3, "2S 3S 4S")]:
        for card in cards.split():
            play(d, seat, card)
    assert d.cancelled and d.phase == "done"
    bookkeeping(d, all_penalty_seats=[1])
    assert d.deal_points == [0, 0, 0, 0]
    # Thirteen hearts before the pass, three of them passed away: no trigger.
    hands = [FULL["C"], FULL["H"], FULL["D"], FULL["S"]]
    d = deal(rules, hands, dealer=3, direction="left")
    for seat, cards in [(0, "2C 3C 4C"), (1, "2H 3H 4H"), (2, "2D 3D 4D"), (3, "2S 3S 4S")]:
        for card in cards.split():
            play(d, seat, card)
    assert not d.cancelled and d.phase == "play"
    assert d.hands[1] >= set(parse_cards("2C 3C 4C"))
    # Held (no pass): thirteen hearts, or twelve and Q♠, trigger at once.
    d = deal(rules, hands, dealer=3, direction="hold")
    assert d.cancelled and d.phase == "done"
    twelve = [FULL["C"], FULL["H"].replace("2H", "QS"), FULL["D"], FULL["S"].replace("QS", "2H")]
    d = deal(rules, twelve, dealer=3, direction="hold")
    assert d.cancelled and d.phase == "done"


def test_all_penalty_hand_not_counted() -> None:
    rules = small_rules("hearts", D1_CARDS, first_trick_all_penalty="not_counted")
    d = deal(rules, D1_HANDS, dealer=2)
    play_d1(d)
    bookkeeping(d, uncounted=set(parse_cards("9H")), penalty_total=16)
    assert d.raw_points == [3, 0, 13] and d.deal_points == [3, 0, 13]  # 9H scores nothing
    assert parse_card("9H") in d.taken[2]  # still a card won


# Seat 1 holds only penalty cards; seat 0 wins the first trick (and 9H), seat 2 the rest.
NC_MOON_CARDS = "2C 3D 4D 5D 6D 7D 8D AD 2H 5H 9H QS"
NC_MOON_HANDS = ["2C 3D 4D 5D", "2H 5H 9H QS", "6D 7D 8D AD"]


def play_nc_moon(d: ReferenceDeal) -> None:
    play_trick(d, "0:2C 1:9H 2:6D", winner=0)
    play_trick(d, "0:3D 1:QS 2:7D", winner=2)
    play_trick(d, "2:8D 0:4D 1:2H", winner=2)
    play_trick(d, "2:AD 0:5D 1:5H", winner=2)


def test_not_counted_moon_needs_every_other_penalty_card() -> None:
    d = deal(small_rules("hearts", NC_MOON_CARDS), NC_MOON_HANDS, dealer=2)
    play_nc_moon(d)
    assert d.moon_shooter is None and d.deal_points == [1, 0, 15]
    rules = small_rules("hearts", NC_MOON_CARDS, first_trick_all_penalty="not_counted")
    d = deal(rules, NC_MOON_HANDS, dealer=2)
    play_nc_moon(d)
    # 9H is uncounted: seat 2 took every other penalty card, T = 16 - 1 = 15.
    assert d.moon_shooter == 2
    bookkeeping(d, penalty_total=15)
    assert d.raw_points == [0, 0, 15] and d.deal_points == [15, 15, 0]
    rules = small_rules("hearts", NC_MOON_CARDS, first_trick_all_penalty="not_counted", moon="new")
    d = deal(rules, NC_MOON_HANDS, dealer=2)
    play_nc_moon(d)
    assert d.deal_points == [0, 0, -15]


def test_not_counted_royal_ignores_an_uncounted_queen() -> None:
    # Seat 1 plays Q♥ to the first trick: it neither scores nor doubles its taker's hearts.
    cards = "2C 3C 4C 5C QH 2H 3H 4H 2D 3D 4D 5D"
    hands = ["2C 3C 2D 3D", "QH 2H 3H 4H", "4C 5C 4D 5D"]
    play_out = ["0:2C 1:QH 2:5C", "2:5D 0:3D 1:2H", "2:4D 0:2D 1:3H", "2:4C 0:3C 1:4H"]
    d = deal(small_rules("royal_hearts", cards), hands, dealer=2)
    for plays in play_out:
        play_trick(d, plays, winner=2)
    act(d, 2, "moon:add")  # the shooter's choice (the second reading's default)
    assert d.moon_shooter == 2 and d.raw_points == [0, 0, 8] and d.deal_points == [8, 8, 0]
    d = deal(small_rules("royal_hearts", cards, first_trick_all_penalty="not_counted"), hands, dealer=2)
    for plays in play_out:
        play_trick(d, plays, winner=2)
    bookkeeping(d, uncounted=set(parse_cards("QH")))
    act(d, 2, "moon:add")
    # Seat 2 took every other heart: a moon of his own Royal score, 3 (not doubled).
    assert d.raw_points == [0, 0, 3] and d.moon_shooter == 2 and d.deal_points == [3, 3, 0]


def test_to_lowest_goes_to_the_lowest_non_zero_points() -> None:
    rules = small_rules("hearts", D1_CARDS, first_trick_all_penalty="to_lowest")
    d = deal(rules, D1_HANDS, dealer=2)
    play(d, 0, "2C")
    play(d, 1, "9H")
    play(d, 2, "5C")
    assert d.taken == [set(), set(), set()]
    bookkeeping(d, set_aside=set(parse_cards("2C 9H 5C")))
    assert d.tricks_won == [0, 0, 1]  # a trick won, its cards set aside
    for plays in ["2:6D 0:4D 1:QS", "2:4C 0:KC 1:2H", "0:3C 1:5H 2:AH"]:
        for item in plays.split():
            seat, card = item.split(":")
            play(d, int(seat), card)
    # Without the trick: seat 0 has 3, seat 1 0, seat 2 13. Seat 0 receives it (9H).
    assert set(parse_cards("2C 9H 5C")) <= d.taken[0]
    bookkeeping(d, set_aside_receiver=0)
    assert d.raw_points == [4, 0, 13] and d.deal_points == [4, 0, 13]
    assert d.tricks_won == [2, 0, 2]


def test_to_lowest_tie_goes_to_the_lowest_seat() -> None:
    cards = "2C 3C 4C 3D 4D 5D 7D 2H 4H 5H 6H QS"
    rules = small_rules("hearts", cards, first_trick_all_penalty="to_lowest")
    d = deal(rules, ["4H 5H 6H QS", "2C 4C 3D 7D", "3C 4D 5D 2H"], dealer=2)
    bookkeeping(d, all_penalty_seats=[0])
    play_trick(d, "1:2C 2:3C 0:QS", winner=2)
    play_trick(d, "2:4D 0:5H 1:7D", winner=1)
    play_trick(d, "1:3D 2:5D 0:6H", winner=2)
    play_trick(d, "2:2H 0:4H 1:4C", winner=0)
    # Without the trick: [2, 1, 1]; seats 1 and 2 tie, the lower seat takes Q♠ with it.
    assert set(parse_cards("2C 3C QS")) <= d.taken[1]
    bookkeeping(d, set_aside_receiver=1)
    assert d.raw_points == [2, 14, 1] and d.deal_points == [2, 14, 1]


@pytest.mark.parametrize(("moon", "expected"), [("none", [0, 0, 1]), ("old", [1, 1, 0])])
def test_to_lowest_nobody_non_zero_back_to_the_winner(moon: str, expected: list[int]) -> None:
    rules = small_rules("hearts", "2C 3C 5H", first_trick_all_penalty="to_lowest", moon=moon)
    d = deal(rules, ["2C", "5H", "3C"], dealer=2)
    bookkeeping(d, all_penalty_seats=[1])
    play_trick(d, "0:2C 1:5H 2:3C", winner=2)
    # Everyone has 0 without the trick: it goes back to seat 2, who then holds every heart.
    assert d.taken == [set(), set(), set(parse_cards("2C 3C 5H"))]
    bookkeeping(d, set_aside_receiver=2)
    assert d.deal_points == expected and d.moon_shooter == (None if moon == "none" else 2)


def test_to_lowest_bonus_points_are_non_zero() -> None:
    # J♦ -10 leaves seat 0 at -9 without the trick: the lowest non-zero points, so it is his.
    cards = "2C 3C 4C 5C 8C QD JD 6D 2H 5H 9H QS"
    rules = small_rules("hearts", cards, first_trick_all_penalty="to_lowest", card_points={"JD": -10})
    d = deal(rules, ["2C 3C 4C QD", "2H 5H 9H QS", "5C 8C JD 6D"], dealer=2)
    play_trick(d, "0:2C 1:9H 2:5C", winner=2)
    play_trick(d, "2:JD 0:QD 1:2H", winner=0)
    play_trick(d, "0:3C 1:5H 2:8C", winner=2)
    play_trick(d, "2:6D 0:4C 1:QS", winner=2)
    assert set(parse_cards("2C 9H 5C")) <= d.taken[0]
    bookkeeping(d, set_aside_receiver=0)
    assert d.raw_points == [-10 + 1 + 1, 0, 14] and d.deal_points == [-8, 0, 14]


# ---------------------------------------------------------------- variants


def test_black_maria_spade_values() -> None:
    rules = small_rules("black_maria", "AS KS QS 5C 6C 7C 2H 3D 4D")
    assert rules.card_points[parse_card("AS")] == 7 and rules.card_points[parse_card("KS")] == 10
    hands = ["AS 5C 2H", "KS 6C 3D", "QS 7C 4D"]
    d = deal(rules, hands, dealer=2)
    # Eldest (seat 0) leads any card: hearts free, penalty cards allowed on the first trick.
    assert d.current_player == 0 and legal(d) == "5C 2H AS"
    play_trick(d, "0:5C 1:6C 2:7C", winner=2)
    play(d, 2, "4D")
    assert legal(d) == "2H AS"
    play(d, 0, "AS")
    play(d, 1, "3D")
    assert d.completed_tricks[-1][1] == 2
    play_trick(d, "2:QS 0:2H 1:KS", winner=1)
    assert d.raw_points == [0, 24, 7] and d.deal_points == [0, 24, 7]
    ace_ten = small_rules("black_maria", "AS KS QS 5C 6C 7C 2H 3D 4D", reading="ace_ten")
    d = deal(ace_ten, hands, dealer=2)
    for card in parse_cards("5C 6C 7C 4D AS 3D QS 2H KS"):
        d.step(card)
    assert d.raw_points == [0, 21, 10]


def test_black_maria_no_moon_and_subtract_reading() -> None:
    cards = "AS KS QS 5C 6C 7C 2H 3D 4D"
    hands = ["AS 2H 5C", "KS 3D 6C", "QS 4D 7C"]
    tricks = [("0:AS 1:KS 2:QS", 0), ("0:2H 1:3D 2:4D", 0), ("0:5C 1:6C 2:7C", 2)]
    d = deal(small_rules("black_maria", cards, no_tricks_bonus=-5), hands, dealer=2)
    for plays, winner in tricks:
        play_trick(d, plays, winner)
    assert d.raw_points == [31, 0, 0]
    assert d.moon_shooter is None and d.deal_points == [31, -5, 0]
    d = deal(small_rules("black_maria", cards, reading="subtract_moon"), hands, dealer=2)
    for plays, winner in tricks:
        play_trick(d, plays, winner)
    assert d.moon_shooter == 0 and d.deal_points == [-31, 0, 0]


OMNIBUS_CARDS = "AC AD AH AS 2C TD 2H QS 3C 4D 3H 4S"
OMNIBUS_HANDS = ["AC AD AH AS", "2C TD 2H QS", "3C 4D 3H 4S"]


def play_omnibus_deal(d: ReferenceDeal) -> None:
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    assert legal(d) == "AD AS"
    play_trick(d, "0:AD 1:TD 2:4D", winner=0)
    play_trick(d, "0:AS 1:QS 2:4S", winner=0)
    play_trick(d, "0:AH 1:2H 2:3H", winner=0)


def test_omnibus_slam() -> None:
    rules = small_rules("omnibus", OMNIBUS_CARDS)
    assert rules.penalty_total == 16  # three hearts and Q♠ in this small deck
    d = deal(rules, OMNIBUS_HANDS)
    play_omnibus_deal(d)
    assert d.raw_points == [6, 0, 0]  # 3 + 13 - 10
    assert d.moon_shooter == 0 and d.deal_points == [-16, 0, 0]


def test_omnibus_ordinary_moon_keeps_the_bonus_card() -> None:
    d = deal(small_rules("omnibus", OMNIBUS_CARDS, reading="ordinary_moon"), OMNIBUS_HANDS)
    play_omnibus_deal(d)
    assert d.moon_shooter == 0 and d.deal_points == [6 - 16, 16, 16]


def test_omnibus_no_slam_without_the_bonus_card() -> None:
    cards = "AC 4D AH AS 2C TD 2H QS 3C KD 3H 4S"
    d = deal(small_rules("omnibus", cards), ["AC 4D AH AS", "2C TD 2H QS", "3C KD 3H 4S"])
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    play_trick(d, "0:AS 1:QS 2:4S", winner=0)
    play_trick(d, "0:4D 1:TD 2:KD", winner=2)
    play_trick(d, "2:3H 0:AH 1:2H", winner=0)
    assert d.raw_points == [16, 0, -10]
    assert d.moon_shooter is None and d.deal_points == [16, 0, -10]


ROYAL_CARDS = "2C QS 5H QH QC AS 3D 7H 3C 2S QD 6H"
ROYAL_HANDS = ["2C QS 5H QH", "QC AS 3D 7H", "3C 2S QD 6H"]


def play_royal_deal(d: ReferenceDeal) -> None:
    play_trick(d, "0:2C 1:QC 2:3C", winner=1)
    assert legal(d) == "3D AS"
    play_trick(d, "1:AS 2:2S 0:QS", winner=1)  # Q♠ with Q♣: cancelled
    play_trick(d, "1:3D 2:QD 0:5H", winner=2)  # one heart - 10
    play_trick(d, "2:6H 0:QH 1:7H", winner=0)  # three hearts doubled by Q♥


@pytest.mark.parametrize(
    ("totals", "expected"),
    [(None, [6, 0, 0]), ([0, 0, 4], [6, 0, -4]), ([0, 0, 30], [6, 0, -9]), ([50, 3, 0], [6, 0, 0])],
)
def test_royal_hearts_queen_effects(totals: list[int] | None, expected: list[int]) -> None:
    """Q♦ lowers its taker's game total by 10, not below 0 (docs/rules.md, second reading): his
    deal score is 1 - 10 = -9 and his deal points what his total can lose of it."""
    d = deal(small_rules("royal_hearts", ROYAL_CARDS), ROYAL_HANDS, totals=totals)
    play_royal_deal(d)
    assert d.raw_points == [6, 0, -9] and d.deal_points == expected
    assert d.moon_shooter is None


def test_royal_hearts_deal_floor_reading() -> None:
    """The first reading (``reading="deal_floor"``): Q♦'s floor is on the deal score."""
    d = deal(small_rules("royal_hearts", ROYAL_CARDS, reading="deal_floor"), ROYAL_HANDS, totals=[0, 0, 30])
    play_royal_deal(d)
    assert d.raw_points == [6, 0, 0] and d.deal_points == [6, 0, 0]


ROYAL_MOON_CARDS = "AC AS QH 5H 2C QS QD 3H 3C 2S 4D 6H"
ROYAL_MOON_HANDS = ["AC AS QH 5H", "2C QS QD 3H", "3C 2S 4D 6H"]


def play_royal_moon(d: ReferenceDeal) -> None:
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    play_trick(d, "0:AS 1:QS 2:2S", winner=0)
    play_trick(d, "0:QH 1:3H 2:6H", winner=0)
    play_trick(d, "0:5H 1:QD 2:4D", winner=0)


@pytest.mark.parametrize(
    ("reading", "choice", "expected"),
    [
        (None, "moon:add", [0, 24, 24]),
        (None, "moon:subtract", [-24, 0, 0]),
        ("add_moon", None, [0, 24, 24]),
        ("subtract_moon", None, [-24, 0, 0]),
    ],
)
def test_royal_hearts_moon_uses_the_shooters_score(
    reading: str | None, choice: str | None, expected: list[int]
) -> None:
    """The shooter chooses (docs/rules.md, second reading): his deal score, Q♦ included, added to
    every other player or taken off his own total (not held at 0: the moon's, not Q♦'s); the
    automatic readings stay options."""
    rules = small_rules("royal_hearts", ROYAL_MOON_CARDS, reading=reading)
    d = deal(rules, ROYAL_MOON_HANDS, totals=[10, 0, 0])
    play_royal_moon(d)
    if choice is not None:
        assert d.phase == "moon_choice" and legal_names(d) == "moon:add moon:subtract"
        act(d, 0, choice)
    assert d.raw_points == [24, 0, 0]  # 4 hearts doubled + 26 - 10
    assert d.moon_shooter == 0 and d.deal_points == expected


def test_no_tricks_bonus() -> None:
    rules = small_rules("hearts", "2C 3D 4S QS 5H 6H 4D 7H 8D", no_tricks_bonus=-5)
    d = deal(rules, ["2C 3D 4S", "QS 5H 6H", "4D 7H 8D"])
    for card in parse_cards("2C 5H 4D 3D QS 8D 7H 4S 6H"):
        d.step(card)
    assert d.tricks_won == [1, 0, 2]
    assert d.raw_points == [1, 0, 15] and d.deal_points == [1, -5, 15]


# ---------------------------------------------------------------- other options


def test_discard_first_and_club_play() -> None:
    cards = "2C 3C 4C JS QS 2D 3D 4D 5D"
    rules = small_rules("black_jack", cards, discard_first="JS", no_points_first_trick=False)
    d = deal(rules, ["2C 3D 4D", "JS QS 5D", "3C 4C 2D"])
    play(d, 0, "2C")
    assert legal(d) == "JS"  # void in clubs: J♠ first (worth 10, yet it must go)
    assert_rejected(d, "QS", "JS goes first")
    rules = small_rules("hearts", cards, club_play=True, no_points_first_trick=False)
    d = deal(rules, ["2C 3D 4D", "JS QS 5D", "3C 4C 2D"])
    play(d, 0, "2C")
    assert legal(d) == "QS"
    # Following a spade trick already headed by K♠: Q♠ must go.
    rules = small_rules("hearts", "2C 3C 4C KS QS 2S 3D 4D 5D", club_play=True)
    d = deal(rules, ["4C KS 4D", "2C QS 2S", "3C 3D 5D"])
    play_trick(d, "1:2C 2:3C 0:4C", winner=0)
    play(d, 0, "KS")
    assert legal(d) == "QS"
    assert_rejected(d, "2S", "club play")
    # Without the rule either spade may be played.
    d = deal(small_rules("hearts", "2C 3C 4C KS QS 2S 3D 4D 5D"), ["4C KS 4D", "2C QS 2S", "3C 3D 5D"])
    play_trick(d, "1:2C 2:3C 0:4C", winner=0)
    play(d, 0, "KS")
    assert legal(d) == "2S QS"


@pytest.mark.parametrize("kitty", ["2C", "2H"])
def test_kitty_goes_to_the_first_trick_winner(kitty: str) -> None:
    # With a kitty nothing is removed: 3 players hold 17 cards each and 1 card is left over.
    rules = make_rules("hearts", num_players=3, leftover="kitty", pass_count=0, pass_directions=("hold",))
    assert rules.hand_size == 17 and rules.kitty_size == 1
    rest = [c for c in range(52) if c != parse_card(kitty)]
    hands = [rest[0:17], rest[17:34], rest[34:51]]
    d = ReferenceDeal(rules, hands, 2, "hold", kitty=[parse_card(kitty)])
    lowest = "3C" if kitty == "2C" else "2C"
    assert d.current_player == 0 and legal(d) == lowest  # the lowest club held leads
    while d.phase != "done":
        d.step(d.legal_actions()[0])
    first_winner = d.completed_tricks[0][1]
    assert d.kitty_taker == first_winner and parse_card(kitty) in d.taken[first_winner]
    assert sum(len(t) for t in d.taken) == 52
    if d.moon_shooter is None:
        assert sum(d.raw_points) == 26


def test_malformed_deals_are_rejected() -> None:
    rules = small_rules("hearts", "2C 3C 4C 5C 6C 7C 8C 9C TC")
    good = [parse_cards(h) for h in ["2C 3C 4C", "5C 6C 7C", "8C 9C TC"]]
    ReferenceDeal(rules, good, 0, "hold")
    with pytest.raises(ValueError, match="twice"):
        ReferenceDeal(rules, [good[0], good[1], parse_cards("8C 9C 2C")], 0, "hold")
    with pytest.raises(ValueError, match="must hold 3"):
        ReferenceDeal(rules, [good[0], good[1], parse_cards("8C 9C")], 0, "hold")
    with pytest.raises(ValueError, match="not in this deck"):
        ReferenceDeal(rules, [good[0], good[1], parse_cards("8C 9C AS")], 0, "hold")
    with pytest.raises(ValueError, match="across"):
        ReferenceDeal(rules, good, 0, "across")
    with pytest.raises(ValueError, match="dealer"):
        ReferenceDeal(rules, good, 3, "hold")


# ---------------------------------------------------------------- decisions other than cards


def act(d: ReferenceDeal, seat: int, name: str) -> None:
    """Seat ``seat`` makes the decision (or plays the card) called ``name``."""
    assert d.current_player == seat, f"expected seat {seat} to act, not {d.current_player}"
    d.step(d.rules.action_names.index(name))


def legal_names(d: ReferenceDeal) -> str:
    return " ".join(d.rules.action_names[a] for a in d.legal_actions())


def assert_refused(d: ReferenceDeal, name: str, *words: str) -> None:
    """The action called ``name`` raises a ValueError naming the seat and the action (and, in
    the reference, ``words``) and changes nothing."""
    seat = d.current_player
    before = (d.phase, seat, [set(h) for h in d.hands], d.legal_actions())
    with pytest.raises(ValueError) as err:
        d.step(d.rules.action_names.index(name))
    message = str(err.value)
    assert name in message and f"seat {seat}" in message, message
    if isinstance(d, reference.ReferenceDeal):
        for word in words:
            assert word in message, message
    assert (d.phase, d.current_player, [set(h) for h in d.hands], d.legal_actions()) == before


GENERAL_CARDS = "AC AS AH KH 2C 2S 2H 5D 3C QS 3H 6D"
GENERAL_HANDS = ["AC AS AH KH", "2C 2S 2H 5D", "3C QS 3H 6D"]  # seat 0 can take every trick


def test_general_made_gives_each_opponent_64() -> None:
    rules = small_rules("chasse_coeur", GENERAL_CARDS)
    assert rules.action_names[52:] == ("pass", "general")
    d = deal(rules, GENERAL_HANDS, dealer=0)
    assert d.phase == "declare" and d.current_player == 1 and legal_names(d) == "pass general"
    assert_rejected(d, "2C", "asks for a decision")
    act(d, 1, "pass")
    act(d, 2, "pass")
    act(d, 0, "general")
    bookkeeping(d, declarer=0, decisions=[(1, "pass"), (2, "pass"), (0, "general")])
    assert d.phase == "play" and d.current_player == 1 and legal(d) == "2C"  # the lowest club leads
    assert_refused(d, "general", "asks for a card")
    play_moon_deal(d)
    assert d.raw_points == [17, 0, 0]
    assert d.deal_points == [0, 64, 64] and d.team_points == [0, 64, 64]


def test_general_failed_costs_the_declarer_64() -> None:
    d = deal(small_rules("chasse_coeur", GENERAL_CARDS), GENERAL_HANDS, dealer=0)
    act(d, 1, "pass")
    act(d, 2, "general")  # the first declaration closes the round
    assert d.phase == "play"
    bookkeeping(d, declarer=2, decisions=[(1, "pass"), (2, "general")])
    play_moon_deal(d)
    # Seat 0 took every penalty card, but a declarer's failure is all that counts.
    assert d.deal_points == [0, 0, 64] and d.moon_shooter is None


def test_undeclared_take_all_gives_each_opponent_54() -> None:
    d = deal(small_rules("chasse_coeur", GENERAL_CARDS), GENERAL_HANDS, dealer=0)
    for seat in (1, 2, 0):
        act(d, seat, "pass")
    bookkeeping(d, declarer=None)
    play_moon_deal(d)
    assert d.moon_shooter == 0 and d.deal_points == [0, 54, 54]


def test_chasse_coeur_penalty_cards_are_the_queens_and_hearts() -> None:
    rules = make_rules("chasse_coeur")
    assert rules.penalty_total == 64
    assert [card_name(c) for c in range(52) if rules.card_points[c] == 13] == ["QC", "QD", "QH", "QS"]


AUCTION_CARDS = "5D 6D 7D AD 2H 3H 4H 5H 2S 3S 4S AS"
AUCTION_HANDS = ["AS 2H 5D", "2S 3H 6D", "3S 4H 7D", "4S 5H AD"]


def test_auction_won_names_the_suit_adds_the_bid_and_leads() -> None:
    rules = small_rules("auction_hearts", AUCTION_CARDS, num_players=4)
    d = deal(rules, AUCTION_HANDS, dealer=3)
    assert d.phase == "bid" and d.current_player == 0  # eldest hand opens: a bid, no pass
    assert legal_names(d) == " ".join(f"bid:{n}" for n in range(1, 14))
    assert_refused(d, "pass", "eldest hand must open the auction")
    act(d, 0, "bid:1")
    act(d, 1, "bid:2")
    assert legal_names(d) == "pass " + " ".join(f"bid:{n}" for n in range(3, 14))
    assert_refused(d, "bid:2", "higher than the highest bid")  # equal
    assert_refused(d, "bid:1", "higher than the highest bid")  # below
    assert_refused(d, "suit:S", "only the auction winner")
    assert_rejected(d, "AD", "asks for a decision")
    act(d, 2, "bid:3")
    act(d, 3, "pass")  # the dealer bids last
    assert d.phase == "name_suit" and d.current_player == 2
    assert legal_names(d) == "suit:C suit:D suit:H suit:S"
    assert_refused(d, "pass", "name the penalty suit")
    act(d, 2, "suit:D")
    bookkeeping(
        d,
        auction_winner=2,
        winning_bid=3,
        penalty_suit=1,
        decisions=[(0, "bid:1"), (1, "bid:2"), (2, "bid:3"), (3, "pass"), (2, "suit:D")],
    )
    assert d.phase == "play" and d.current_player == 2 and legal(d) == "7D 4H 3S"  # any card
    play_trick(d, "2:7D 3:AD 0:5D 1:6D", winner=3)
    play_trick(d, "3:4S 0:AS 1:2S 2:3S", winner=0)
    play_trick(d, "0:2H 1:3H 2:4H 3:5H", winner=3)
    assert d.raw_points == [0, 0, 0, 4]  # the diamonds score, the hearts do not
    assert d.deal_points == [0, 0, 3, 4] and d.team_points == [0, 0, 3, 4]


def test_auction_eldest_hand_wins_when_the_others_pass() -> None:
    """No all-pass deal (docs/rules.md, second reading): eldest hand's opening bid wins when
    everyone after him passes; he names the suit, leads any card and pays his bid."""
    d = deal(small_rules("auction_hearts", AUCTION_CARDS, num_players=4), AUCTION_HANDS, dealer=3)
    act(d, 0, "bid:1")
    for seat in (1, 2, 3):
        assert "pass" in legal_names(d).split()
        act(d, seat, "pass")
    assert d.phase == "name_suit" and d.current_player == 0
    act(d, 0, "suit:H")
    bookkeeping(d, auction_winner=0, winning_bid=1, penalty_suit=2)
    assert d.phase == "play" and d.current_player == 0 and legal(d) == "5D 2H AS"
    play_trick(d, "0:2H 1:3H 2:4H 3:5H", winner=3)
    play_trick(d, "3:AD 0:5D 1:6D 2:7D", winner=3)
    play_trick(d, "3:4S 0:AS 1:2S 2:3S", winner=0)
    assert d.deal_points == [1, 0, 0, 4]


def test_auction_top_bid_leaves_only_pass() -> None:
    d = deal(small_rules("auction_hearts", AUCTION_CARDS, num_players=4), AUCTION_HANDS, dealer=1)
    act(d, 2, "bid:13")
    assert legal_names(d) == "pass"
    assert_refused(d, "bid:13", "higher than the highest bid")


def test_action_indices_out_of_range_are_refused() -> None:
    reference_only()
    d = deal(small_rules("chasse_coeur", GENERAL_CARDS), GENERAL_HANDS, dealer=0)
    with pytest.raises(ValueError, match=r"seat 1: action index 54 is out of range 0\.\.53"):
        d.step(54)
    with pytest.raises(ValueError, match="not an action index"):
        d.step("pass")  # type: ignore[arg-type]
    d = deal(small_rules("hearts", MOON_CARDS), MOON_HANDS)
    with pytest.raises(ValueError, match=r"out of range 0\.\.51"):
        d.step(52)  # no jokers, no decisions: the actions are the 52 cards


# ---------------------------------------------------------------- jokers


def test_joker_led_the_next_card_sets_the_suit() -> None:
    rules = small_rules("joker_hearts", "2C 3C 4C 5D 9D KD 5H 8H 3S 7S QS", jokers=1)
    assert rules.action_names[-1] == "JK1" and rules.card_points[parse_card("JK1")] == 0
    d = deal(rules, ["2C JK1 KD 3S", "3C 5D 5H QS", "4C 9D 8H 7S"])
    assert legal(d) == "2C JK1"  # a joker may be led instead of the lowest club
    play(d, 0, "JK1")
    # Not a lead: no suit to follow, but the first-trick penalty ban holds.
    assert legal(d) == "3C 5D"
    play(d, 1, "5D")
    assert legal(d) == "9D"  # diamonds are now the suit led
    play(d, 2, "9D")
    assert d.completed_tricks[-1][1] == 2  # the joker never wins
    play_trick(d, "2:7S 0:3S 1:QS", winner=1)
    play_trick(d, "1:3C 2:4C 0:2C", winner=2)
    play_trick(d, "2:8H 0:KD 1:5H", winner=2)
    bookkeeping(d, voids=[{2}, set(), set()])
    assert d.raw_points == [0, 13, 2] and d.deal_points == [0, 13, 2]


def test_joker_discarded_while_able_to_follow_shows_no_void() -> None:
    cards = "2C 3C 4C 6C 7C 2D 7D 8D 9D 2H 3H 4H 5H QS"
    rules = small_rules("joker_hearts", cards.replace("2D ", ""))  # two jokers with three players
    assert rules.jokers == 2 and rules.hand_size == 5
    d = deal(rules, ["2C 7C 2H JK2 9D", "3C JK1 7D 3H 5H", "4C 6C 8D 4H QS"])
    assert legal(d) == "2C JK2"
    play(d, 0, "2C")
    assert legal(d) == "3C JK1"  # able to follow, yet the joker is legal
    play(d, 1, "JK1")
    play(d, 2, "4C")
    bookkeeping(d, voids=[set(), set(), set()])
    play_trick(d, "2:6C 0:7C 1:3C", winner=0)
    # Hearts unbroken: the joker is a card other than a heart, so hearts may not be led.
    assert legal(d) == "9D JK2"
    play(d, 0, "JK2")
    assert legal(d) == "7D 3H 5H"  # after a joker lead: not a lead, hearts may be played
    play(d, 1, "5H")
    assert d.hearts_broken and legal(d) == "4H"
    play(d, 2, "4H")
    assert d.completed_tricks[-1][1] == 1
    play_trick(d, "1:3H 2:QS 0:2H", winner=1)
    play_trick(d, "1:7D 2:8D 0:9D", winner=0)
    bookkeeping(d, voids=[set(), set(), {2}])  # seat 2 discarded QS on hearts
    assert d.raw_points == [0, 17, 0] and d.moon_shooter == 1 and d.deal_points == [17, 0, 17]


def test_two_jokers_led_the_third_card_sets_the_suit_and_wins() -> None:
    rules = small_rules("joker_hearts", "5H", first_lead="eldest", moon="none")
    d = deal(rules, ["JK1", "JK2", "5H"], dealer=2)
    play_trick(d, "0:JK1 1:JK2 2:5H", winner=2)
    assert d.deal_points == [0, 0, 1]


def test_joker_deck_removal() -> None:
    assert make_rules("joker_hearts", 4).removed == (parse_card("2D"),)
    assert [card_name(c) for c in make_rules("joker_hearts", 6).removed] == ["2D", "2C", "2S", "3C", "3D"]
    assert make_rules("joker_hearts", 3).deck.cards[-2:] == [52, 53]


# ---------------------------------------------------------------- the widow


@pytest.mark.parametrize(("players", "hand", "widow"), [(3, 16, 4), (4, 12, 3), (5, 10, 2), (6, 8, 4)])
def test_heartsette_widow_sizes(players: int, hand: int, widow: int) -> None:
    rules = make_rules("heartsette", players)
    assert (rules.hand_size, rules.kitty_size) == (hand, widow)


def test_widow_points_go_to_the_first_tricks_winner() -> None:
    rules = small_rules("heartsette", "2C 3C 4C 5C AD KD QD 5H 2H 3H 4H", num_players=4)
    assert rules.kitty_size == 3
    hands = ["2C AD", "5C KD", "3C QD", "4C 5H"]
    d = deal(rules, hands, dealer=3, kitty=parse_cards("2H 3H 4H"))
    assert d.current_player == 0  # eldest leads any card
    play_trick(d, "0:2C 1:5C 2:3C 3:4C", winner=1)
    assert d.kitty_taker == 1 and set(parse_cards("2H 3H 4H")) <= d.taken[1]
    play_trick(d, "1:KD 2:QD 3:5H 0:AD", winner=0)
    assert d.raw_points == [1, 3, 0, 0] and d.deal_points == [1, 3, 0, 0]


# ---------------------------------------------------------------- Domino Hearts


def domino_deal(rules: Rules, hands: list[str], stock: str, dealer: int) -> ReferenceDeal:
    """A Domino Hearts deal: ``stock`` in draw order (the first card is drawn first)."""
    assert sorted(parse_cards(" ".join([*hands, stock]))) == rules.deck.cards, "deal the whole deck"
    return ReferenceDeal(rules, [parse_cards(h) for h in hands], dealer, "hold", stock=parse_cards(stock))


def cards(text: str) -> set[int]:
    return set(parse_cards(text))


def test_domino_preset() -> None:
    for players in (3, 4, 5, 6):
        rules = make_rules("domino_hearts", players)
        assert (rules.hand_size, rules.stock_size, rules.kitty_size) == (6, 52 - 6 * players, 0)
        assert rules.pass_count == 0 and rules.first_lead == "eldest" and rules.moon == "none"
        assert rules.penalty_total == 13 and rules.target_score == 31


DRAW_CARDS = "2C 3C 4C 5C 5D 6D 7D 8D 9D 2H 3H 4H 5H 6H 7S 8S"


def test_domino_draws_until_the_suit_comes_or_the_stock_is_empty() -> None:
    rules = small_rules("domino_hearts", DRAW_CARDS, stock_deal=3)
    assert rules.stock_size == 7
    d = domino_deal(rules, ["2C 3C 4C", "5D 6D 7D", "2H 3H 4H"], "8D 9D 5C 5H 6H 7S 8S", dealer=2)
    assert d.phase == "play" and d.current_player == 0 and legal(d) == "2C 3C 4C"  # the leader never draws
    play(d, 0, "2C")
    # Seat 1 holds no club: it draws 8D, 9D, then 5C, and stops there; it must follow with 5C.
    assert d.current_player == 1 and legal(d) == "5C"
    assert d.hands[1] == cards("5D 6D 7D 8D 9D 5C")
    bookkeeping(d, drawn=[[], parse_cards("8D 9D 5C"), []], stock=parse_cards("5H 6H 7S 8S"))
    assert_rejected(d, "9D", "must follow suit (clubs led)")
    play(d, 1, "5C")
    # Seat 2 draws the whole stock without finding a club: then any card.
    assert d.current_player == 2 and legal(d) == "2H 3H 4H 5H 6H 7S 8S"
    bookkeeping(d, drawn=[[], parse_cards("8D 9D 5C"), parse_cards("5H 6H 7S 8S")], stock=[])
    play_trick(d, "2:7S", winner=1)
    # The stock is empty: a void follower plays any card, nobody draws.
    play_trick(d, "1:9D 2:8S 0:3C", winner=1)
    assert d.hands[2] == cards("2H 3H 4H 5H 6H")
    play_trick(d, "1:8D 2:6H 0:4C", winner=1)  # seat 0 plays his last card: he is out
    bookkeeping(d, out=[True, False, False])
    # The turn skips seat 0: the trick is complete after two cards.
    play_trick(d, "1:7D 2:5H", winner=1)
    assert [len(plays) for plays, _ in d.completed_tricks] == [3, 3, 3, 2]
    play_trick(d, "1:6D 2:4H", winner=1)
    # Seat 1 plays his last card and wins: only seat 2 holds cards, and the deal ends; he adds
    # his hand (the stock is empty) to his tricks.
    play_trick(d, "1:5D 2:3H", winner=1)
    assert d.phase == "done" and d.current_player == -1
    assert d.taken[2] == cards("2H") and d.tricks_won == [0, 6, 0]
    assert d.deal_points == [0, 4, 1]
    bookkeeping(d, last_holder=2, stock_taker=2, end_hand=parse_cards("2H"), end_stock=[])
    bookkeeping(d, out=[True, True, False], hands=[set(), set(), set()])  # the hand went to his tricks


DROP_CARDS = "AC KC 2C 3C 4C 5C 6C 7C AD 2D 3D 4D 2H 3H 4H 5H 6H 7H"


def test_domino_drop_outs_and_the_next_player_in_leads() -> None:
    rules = small_rules("domino_hearts", DROP_CARDS, num_players=4, stock_deal=3)
    hands = ["AC KC AD", "2C 3C 2D", "4C 2H 3H", "5C 4H 5H"]
    d = domino_deal(rules, hands, "3D 6C 7C 4D 6H 7H", dealer=3)
    play_trick(d, "0:AC 1:2C 2:4C 3:5C", winner=0)
    play(d, 0, "KC")
    play(d, 1, "3C")
    assert d.current_player == 2 and legal(d) == "6C"  # drew 3D, then 6C
    play(d, 2, "6C")
    assert d.current_player == 3 and legal(d) == "7C"  # drew 7C at once
    play(d, 3, "7C")
    assert d.completed_tricks[-1][1] == 0
    bookkeeping(d, drawn=[[], [], parse_cards("3D 6C"), parse_cards("7C")], stock=parse_cards("4D 6H 7H"))
    # Seats 0 and 1 play their last cards; seat 0 wins the trick but is out, and so is seat 1
    # on his left: seat 2 leads.
    play(d, 0, "AD")
    play(d, 1, "2D")
    play(d, 2, "3D")
    assert d.current_player == 3 and legal(d) == "4D"  # drew 4D
    play(d, 3, "4D")
    assert d.taken[0] >= cards("AD 2D 3D 4D") and d.tricks_won == [3, 0, 0, 0]  # seat 0 won it
    assert d.current_player == 2
    bookkeeping(d, out=[True, True, False, False], stock=parse_cards("6H 7H"))
    assert d.hands[0] == d.hands[1] == set()
    assert legal(d) == "2H 3H"
    play_trick(d, "2:3H 3:5H", winner=3)  # two players in: two cards
    play(d, 3, "4H")
    assert d.current_player == 2  # the turn skips seats 0 and 1
    play(d, 2, "2H")
    # Both played their last card: nobody is in, and the stock goes to the last trick's winner.
    assert d.phase == "done" and d.completed_tricks[-1][1] == 3
    assert d.taken[3] == cards("3H 5H 4H 2H 6H 7H")
    assert d.tricks_won == [3, 0, 0, 2]
    assert d.deal_points == [0, 0, 0, 6] and d.raw_points == [0, 0, 0, 6]
    bookkeeping(d, last_holder=None, stock_taker=3, end_stock=parse_cards("6H 7H"), out=[True] * 4)


def test_domino_the_last_holder_takes_his_hand_and_the_stock() -> None:
    rules = small_rules("domino_hearts", "AC 2C 3C 4C AH 2H 3H 4H 5H 2S", stock_deal=2)
    d = domino_deal(rules, ["AC AH", "2C 3C", "4C 5H"], "2H 3H 4H 2S", dealer=2)
    play_trick(d, "0:AC 1:2C 2:4C", winner=0)
    play(d, 0, "AH")
    assert d.current_player == 1 and legal(d) == "2H"  # drew 2H, must follow
    play(d, 1, "2H")
    play(d, 2, "5H")
    # Seats 0 and 2 are out: seat 1 adds his 3C and the rest of the stock to his tricks.
    assert d.phase == "done" and d.completed_tricks[-1][1] == 0
    assert d.taken[1] == cards("3C 3H 4H 2S") and d.taken[0] == cards("AC 2C 4C AH 2H 5H")
    assert d.tricks_won == [2, 0, 0]
    assert d.deal_points == [3, 2, 0] and d.team_points == [3, 2, 0]
    bookkeeping(
        d,
        hands=[set(), set(), set()],
        last_holder=1,
        stock_taker=1,
        end_hand=parse_cards("3C"),
        end_stock=parse_cards("3H 4H 2S"),
        out=[True, False, True],
        drawn=[[], parse_cards("2H"), []],
        draws=[(1, parse_cards("2H"))],
    )


def test_domino_full_deck_deal() -> None:
    """The preset's own deck: 6 cards each, the rest a stock; the whole deck is taken and the
    13 hearts are scored."""
    rules = make_rules("domino_hearts", 4)
    rng = random.Random("domino")
    for _ in range(10):
        order = list(rules.deck.cards)
        rng.shuffle(order)
        hands = [order[6 * i : 6 * (i + 1)] for i in range(4)]
        d = ReferenceDeal(rules, hands, 1, "hold", stock=order[24:])
        assert d.current_player == 2
        while d.phase != "done":
            d.step(rng.choice(d.legal_actions()))
        assert set().union(*d.taken) == set(rules.deck.cards) and sum(d.deal_points) == 13
        assert d.deal_points == [sum(rules.card_points[c] for c in taken) for taken in d.taken]


def test_domino_malformed_deals_are_rejected() -> None:
    rules = make_rules("domino_hearts", 4)
    order = list(rules.deck.cards)
    hands, stock = [order[6 * i : 6 * (i + 1)] for i in range(4)], order[24:]
    ReferenceDeal(rules, hands, 0, "hold", stock=stock)
    bad = [
        ({"stock": stock[:-1]}, "the stock must hold 28 cards"),  # a card missing
        ({"stock": [*stock[:-1], hands[0][0]]}, "both in a hand and in the stock"),
        ({"stock": [*stock[1:], stock[1]]}, "twice"),
        ({"hands": [hands[0][:5], *hands[1:]], "stock": [hands[0][5], *stock]}, "must hold 6"),
        ({"hands": [[*hands[0], stock[0]], *hands[1:]], "stock": stock[1:]}, "must hold 6"),
        ({"stock": None}, "needs a stock"),
    ]
    for change, words in bad:
        args = {"hands": hands, "stock": stock, **change}
        with pytest.raises(ValueError) as err:
            ReferenceDeal(rules, args["hands"], 0, "hold", stock=args["stock"])
        if ReferenceDeal is reference.ReferenceDeal:  # the engine replay words its own messages
            assert words in str(err.value), str(err.value)
    reference_only()
    plain = [order[13 * i : 13 * (i + 1)] for i in range(4)]
    with pytest.raises(ValueError, match="has no stock"):
        ReferenceDeal(make_rules("hearts"), plain, 0, "hold", stock=[0])


# ---------------------------------------------------------------- partnerships

PARTNER_CARDS = "2C 3C QS " + " ".join(r + "H" for r in "23456789TJQKA")
TEAM_MOON_HANDS = ["3C KH QH JH", "2C 2H 3H 4H", "QS AH TH 9H", "5H 6H 7H 8H"]
TEAM_MOON_PLAY = ["1:2C 2:9H 3:5H 0:3C", "0:KH 1:2H 2:AH 3:6H", "2:TH 3:7H 0:QH 1:3H", "0:JH 1:4H 2:QS 3:8H"]
TEAM_MOON_WINNERS = [0, 2, 0, 0]
PLAIN_HANDS = ["3C KH QH JH", "2C 2H 3H 4H", "QS 8H TH 9H", "5H 6H 7H AH"]
PLAIN_PLAY = ["1:2C 2:9H 3:5H 0:3C", "0:KH 1:2H 2:8H 3:AH", "3:6H 0:QH 1:3H 2:TH", "0:JH 1:4H 2:QS 3:7H"]
PLAIN_WINNERS = [0, 3, 0, 0]
ALONE_HANDS = ["3C AH KH QH", "2C 2H 3H 4H", "QS JH TH 9H", "5H 6H 7H 8H"]
ALONE_PLAY = ["1:2C 2:9H 3:5H 0:3C", "0:AH 1:2H 2:TH 3:6H", "0:KH 1:3H 2:JH 3:7H", "0:QH 1:4H 2:QS 3:8H"]


def partnership_deal(version: str, hands: list[str], plays: list[str], winners: list[int]) -> ReferenceDeal:
    rules = small_rules("partnership_hearts", PARTNER_CARDS, num_players=4, version=version)
    assert rules.penalty_total == 26
    d = deal(rules, hands, dealer=0)
    for trick, winner in zip(plays, winners):
        play_trick(d, trick, winner)
    return d


def test_partnership_a_team_moon() -> None:
    # Seats 0 and 2 together take every heart and Q♠: they score 0, each opponent 26.
    d = partnership_deal("A", TEAM_MOON_HANDS, TEAM_MOON_PLAY, TEAM_MOON_WINNERS)
    assert d.raw_points == [22, 0, 4, 0]
    assert d.deal_points == [0, 26, 0, 26] and d.team_points == [0, 52, 0, 52]
    bookkeeping(d, moon_team=0, moon_shooter=None)


def test_partnership_a_plain_deal_team_sums() -> None:
    d = partnership_deal("A", PLAIN_HANDS, PLAIN_PLAY, PLAIN_WINNERS)
    assert d.deal_points == [22, 0, 0, 4] and d.team_points == [22, 4, 22, 4]
    bookkeeping(d, moon_team=None)


def test_partnership_a_one_player_taking_all_is_a_team_moon() -> None:
    d = partnership_deal("A", ALONE_HANDS, ALONE_PLAY, [0, 0, 0, 0])
    assert d.deal_points == [0, 26, 0, 26] and d.team_points == [0, 52, 0, 52]


def test_partnership_b_individual_scores_and_team_totals() -> None:
    # No team moon in B: the partners' points simply add up.
    d = partnership_deal("B", TEAM_MOON_HANDS, TEAM_MOON_PLAY, TEAM_MOON_WINNERS)
    assert d.moon_shooter is None
    assert d.deal_points == [22, 0, 4, 0] and d.team_points == [26, 0, 26, 0]
    # A moon shot alone is the old moon; the team totals follow.
    d = partnership_deal("B", ALONE_HANDS, ALONE_PLAY, [0, 0, 0, 0])
    assert d.moon_shooter == 0
    assert d.deal_points == [0, 26, 26, 26] and d.team_points == [26, 52, 26, 52]


SLAM_CARDS = "2C 3C 4C 5C 2D 3D 4D TD 2H 3H 4H 5H 2S 3S QS AS"


def test_partnership_c_slam_bid_with_a_silent_partner() -> None:
    rules = small_rules("partnership_hearts", SLAM_CARDS, num_players=4, version="C")
    assert rules.action_names[52:] == ("pass", "slam")
    d = deal(rules, ["2C 2D 2H 2S", "AS 5C 3D 5H", "3C 4D 3H QS", "4C TD 4H 3S"], dealer=3)
    assert d.phase == "declare" and d.current_player == 0 and legal_names(d) == "pass slam"
    act(d, 0, "pass")
    act(d, 1, "slam")
    bookkeeping(d, bidder=1, silent_partner=3, decisions=[(0, "pass"), (1, "slam")])
    # The bidder leads any card the lead rules allow (not the lowest club, not a heart).
    assert d.phase == "play" and d.current_player == 1 and legal(d) == "5C 3D AS"
    play_trick(d, "1:AS 2:QS 3:3S 0:2S", winner=1)
    play_trick(d, "1:3D 2:4D 3:TD 0:2D", winner=3)
    play_trick(d, "3:4C 0:2C 1:5C 2:3C", winner=1)
    play_trick(d, "1:5H 2:3H 3:4H 0:2H", winner=1)
    assert d.raw_points == [0, 17, 0, -10]
    assert d.deal_points == [0, 7, 0, 7] and d.team_points == [0, 7, 0, 7]


def test_partnership_c_bidder_holding_the_ten_of_diamonds_has_no_partner() -> None:
    rules = small_rules(
        "partnership_hearts", SLAM_CARDS.replace("5C", "AC").replace("5H", "AH"), 4, version="C"
    )
    d = deal(rules, ["2C 2D 2H 2S", "AC TD AH AS", "3C 3D 3H QS", "4C 4D 4H 3S"], dealer=3)
    act(d, 0, "pass")
    act(d, 1, "slam")
    bookkeeping(d, bidder=1, silent_partner=None)
    assert legal(d) == "AC TD AS"
    play_trick(d, "1:AS 2:QS 3:3S 0:2S", winner=1)
    play_trick(d, "1:AC 2:3C 3:4C 0:2C", winner=1)
    play_trick(d, "1:TD 2:3D 3:4D 0:2D", winner=1)
    play_trick(d, "1:AH 2:3H 3:4H 0:2H", winner=1)
    # All the counting cards: the Omnibus slam, -T (17 in this deck), the others 0.
    assert d.moon_shooter == 1 and d.deal_points == [0, -17, 0, 0] and d.team_points == [0, -17, 0, 0]


def test_partnership_c_without_a_bid_is_plain_omnibus() -> None:
    rules = small_rules("partnership_hearts", SLAM_CARDS, num_players=4, version="C")
    d = deal(rules, ["2C 2D 2H 2S", "AS 5C 3D 5H", "3C 4D 3H QS", "4C TD 4H 3S"], dealer=3)
    for seat in range(4):
        act(d, seat, "pass")
    bookkeeping(d, bidder=None, silent_partner=None)
    assert d.phase == "play" and d.current_player == 0 and legal(d) == "2C"


# ---------------------------------------------------------------- the shooter's choice


@pytest.mark.parametrize(("choice", "expected"), [("moon:add", [0, 17, 17]), ("moon:subtract", [-17, 0, 0])])
def test_shooter_choice(choice: str, expected: list[int]) -> None:
    rules = small_rules("hearts", MOON_CARDS, moon="shooter_choice", no_tricks_bonus=-5)
    assert rules.action_names[52:] == ("moon:add", "moon:subtract")
    d = deal(rules, MOON_HANDS)
    play_moon_deal(d)
    assert d.phase == "moon_choice" and d.current_player == 0 and d.deal_points is None
    assert legal_names(d) == "moon:add moon:subtract"
    assert_rejected(d, "2C", "asks for a decision")
    act(d, 0, choice)
    assert d.phase == "done" and d.moon_shooter == 0 and d.deal_points == expected
    bookkeeping(d, moon_choice=choice, decisions=[(0, choice)])


def test_shooter_choice_without_a_moon_ends_at_the_last_trick() -> None:
    d = deal(small_rules("hearts", D1_CARDS, moon="shooter_choice"), D1_HANDS, dealer=2)
    assert_refused(d, "moon:add", "asks for a card")
    play_d1(d)
    assert d.phase == "done" and d.deal_points == [3, 0, 14]


# ---------------------------------------------------------------- two decks: Cancellation Hearts


def two_decks(cards: str, num_players: int = 6, **options: object) -> Rules:
    """Cancellation Hearts over both copies of only ``cards``; no passing unless options say so."""
    return small_rules("cancellation_hearts", cards, num_players=num_players, **options)


def copies(cards: str) -> list[int]:
    """Card indices, sorted, a card twice where it is written twice: the two-deck form of a hand."""
    return sorted(parse_cards(cards))


def two_deck_deal(
    rules: Rules, hands: list[str], dealer: int = 5, kitty: str = "", **kw: object
) -> ReferenceDeal:
    return ReferenceDeal(
        rules,
        [parse_cards(h) for h in hands],
        dealer,
        kw.pop("direction", "hold"),
        kitty=parse_cards(kitty),
        **kw,
    )


def winners(d: ReferenceDeal) -> list[int | None]:
    return [winner for _, winner in d.completed_tricks]


def test_cancellation_preset() -> None:
    for players, kitty in zip(range(6, 12), (2, 6, 0, 5, 4, 5)):
        rules = make_rules("cancellation_hearts", num_players=players)
        assert rules.decks == 2 and len(rules.deck.cards) == 104 and rules.kitty_size == kitty
        assert rules.hand_size == 104 // players and rules.pass_directions == ("left",)
        assert sum(rules.card_points[c] for c in rules.deck.cards) == 52


def test_cancelled_pair_the_other_card_wins() -> None:
    rules = two_decks("2C 3C 4C KC AC 2D 5D 2H 3H")
    hands = ["2C 5D 2H", "AC 5D 3H", "AC 2D 2H", "2C KC 3H", "3C KC 4C", "3C 4C 2D"]
    d = two_deck_deal(rules, hands)
    assert d.hands[3] == copies("2C KC 3H") and d.hands[4] == copies("3C 4C KC")
    # Both copies of AC fall: neither can win; KC, the highest card left of the suit led, does.
    play_trick(d, "0:2C 1:AC 2:AC 3:KC 4:3C 5:4C", winner=3)
    assert d.taken[3] == copies("2C 3C 4C KC AC AC")  # the cancelled pair goes with the trick
    bookkeeping(d, trick_pairs=[[parse_card("AC")]], cancelled_tricks=[])
    assert legal(d) == "2C"  # hearts are not broken
    # The two 5D are discarded (clubs led): they cancel, and the clubs decide.
    play_trick(d, "3:2C 4:4C 5:3C 0:5D 1:5D 2:2D", winner=4)
    assert d.tricks_won == [0, 0, 0, 1, 1, 0] and d.deal_points is None
    # The last trick: the 2H and 3H pairs cancel it, and its cards go to nobody.
    for item in "4:KC 5:2D 0:2H 1:3H 2:2H 3:3H".split():
        seat, card = item.split(":")
        play(d, int(seat), card)
    assert winners(d) == [3, 4, None] and d.carried == copies("KC 2D 2H 2H 3H 3H")
    assert d.deal_points == [0, 0, 0, 0, 0, 0]


def test_two_pairs_cancel_the_trick_and_its_leader_leads_again() -> None:
    rules = two_decks("2C 4C 5C 6C AC 4D 5D KD 9H")
    hands = ["2C 4D 5C", "5C 9H 4C", "2C 9H 6C", "4C KD KD", "6C 5D 5D", "AC 4D AC"]
    d = two_deck_deal(rules, hands)
    play_trick(d, "0:2C 1:5C 2:2C 3:4C 4:6C 5:AC", winner=5)
    # Two pairs (4D, 9H) cancel the whole trick, though KD and 5D were not cancelled.
    for item in "5:4D 0:4D 1:9H 2:9H 3:KD 4:5D".split():
        seat, card = item.split(":")
        play(d, int(seat), card)
    assert winners(d) == [5, None] and d.current_player == 5  # the leader leads again
    assert d.carried == copies("4D 4D 9H 9H KD 5D") and d.hearts_broken
    assert d.tricks_won == [0, 0, 0, 0, 0, 1]
    bookkeeping(d, cancelled_tricks=[(1, "two_pairs")], trick_pairs=[[parse_card("2C")], copies("4D 9H")])
    # The next trick's winner takes it with the set-aside cards.
    play_trick(d, "5:AC 0:5C 1:4C 2:6C 3:KD 4:5D", winner=5)
    assert d.phase == "done" and d.carried == []
    assert d.taken[5] == copies("2C 2C 4C 5C 6C AC 4D 4D 9H 9H KD 5D AC 5C 4C 6C KD 5D")
    assert d.tricks_won == [0, 0, 0, 0, 0, 2] and d.deal_points == [0, 0, 0, 0, 0, 2]


def test_nothing_of_the_suit_led_survives_the_trick_is_cancelled() -> None:
    rules = two_decks("2C 3C 4C 5C 6C 4D 7D 3H 5H 8S")
    assert rules.hand_size == 3 and rules.kitty_size == 2
    hands = ["2C 8S 6C", "2C 3H 4C", "3C 4D 5C", "4C 5H 3H", "5C 7D 4D", "6C 8S 3C"]
    d = two_deck_deal(rules, hands, kitty="7D 5H")
    play_trick(d, "0:2C 1:2C 2:3C 3:4C 4:5C 5:6C", winner=5)  # one pair: the other clubs decide
    assert d.kitty_taker == 5 and d.taken[5] == copies("2C 2C 3C 4C 5C 6C 7D 5H")
    # 8S led and its copy: no spade is left that is not cancelled, so the trick is cancelled.
    for item in "5:8S 0:8S 1:3H 2:4D 3:5H 4:7D".split():
        seat, card = item.split(":")
        play(d, int(seat), card)
    assert winners(d) == [5, None] and d.current_player == 5
    bookkeeping(d, cancelled_tricks=[(1, "nothing_survives")])
    assert legal(d) == "3C"
    play_trick(d, "5:3C 0:6C 1:4C 2:5C 3:3H 4:4D", winner=0)  # seat 0 wins it and the cancelled trick
    assert d.taken[0] == copies("8S 8S 3H 4D 5H 7D 3C 6C 4C 5C 3H 4D")
    assert d.deal_points == [3, 0, 0, 0, 0, 1] and d.tricks_won == [1, 0, 0, 0, 0, 1]


def test_cancelled_last_trick_goes_to_nobody() -> None:
    rules = two_decks("2C 3C 4C 5C 6C 7C 2H QS")
    assert rules.hand_size == 2 and rules.kitty_size == 4
    hands = ["2C 2H", "3C QS", "4C QS", "5C 3C", "6C 4C", "7C 2H"]
    d = two_deck_deal(rules, hands, kitty="2C 5C 6C 7C")
    play_trick(d, "0:2C 1:3C 2:4C 3:5C 4:6C 5:7C", winner=5)
    assert legal(d) == "2H"  # a hand of only hearts may lead one
    for item in "5:2H 0:2H 1:QS 2:QS 3:3C 4:4C".split():
        seat, card = item.split(":")
        play(d, int(seat), card)
    assert d.phase == "done" and winners(d) == [5, None]
    assert d.carried == copies("3C 4C 2H 2H QS QS")  # the 28 points went to nobody
    assert d.deal_points == [0, 0, 0, 0, 0, 0] and d.tricks_won == [0, 0, 0, 0, 0, 1]
    assert all(not hand for hand in d.hands)
    bookkeeping(d, cancelled_tricks=[(1, "two_pairs")])


def test_cancelled_first_trick_carries_the_kitty_to_the_next_winner() -> None:
    rules = two_decks("2C 3C 4C 5C 9D AD 2H 3H 7S QS")
    hands = ["2C 9D 5C", "2C QS 7S", "3C AD 4C", "3C 2H 7S", "4C 9D AD", "5C 3H 3H"]
    d = two_deck_deal(rules, hands, kitty="QS 2H")
    for item in "0:2C 1:2C 2:3C 3:3C 4:4C 5:5C".split():
        seat, card = item.split(":")
        play(d, int(seat), card)
    assert winners(d) == [None] and d.current_player == 0 and d.kitty_taker is None
    assert d.carried == copies("2C 2C 3C 3C 4C 5C QS 2H")  # the trick and the kitty wait
    bookkeeping(d, cancelled_tricks=[(0, "two_pairs")])
    # The cancelled trick was the first trick: the penalty ban is over, and no 2C is forced.
    assert legal(d) == "5C 9D"
    play(d, 0, "9D")
    assert legal(d) == "7S QS"
    play_trick(d, "1:QS 2:AD 3:2H 4:9D 5:3H", winner=2)  # the 9D pair cancels; AD wins
    assert d.kitty_taker == 2 and d.carried == []
    assert d.taken[2] == copies("2C 2C 3C 3C 4C 5C QS 2H 9D QS AD 2H 9D 3H")
    play_trick(d, "2:4C 3:7S 4:AD 5:3H 0:5C 1:7S", winner=0)
    assert d.deal_points == [1, 0, 29, 0, 0, 0] and d.tricks_won == [1, 0, 1, 0, 0, 0]


@pytest.mark.parametrize(("dealer", "leader"), [(5, 0), (0, 1), (1, 0), (3, 0)])
def test_two_decks_first_lead_by_the_two_of_clubs_nearest_the_dealers_left(dealer: int, leader: int) -> None:
    rules = two_decks("2C 3C 4C 5C 9D AD 2H 3H 7S QS")
    hands = ["2C 9D 5C", "2C QS 7S", "3C AD 4C", "3C 2H 7S", "4C 9D AD", "5C 3H 3H"]
    d = two_deck_deal(rules, hands, dealer=dealer, kitty="QS 2H")
    assert d.current_player == leader and legal(d) == "2C"
    assert_rejected(d, "5C" if leader == 0 else "QS", "first lead must be 2C")


@pytest.mark.parametrize(("dealer", "leader"), [(5, 2), (2, 3), (3, 2)])
def test_two_decks_both_two_of_clubs_in_the_kitty(dealer: int, leader: int) -> None:
    rules = two_decks("2C 3C 4C 5C 9D AD 2H 3H 7S QS")
    hands = ["QS 9D 5C", "2H QS 7S", "3C AD 4C", "3C 2H 7S", "4C 9D AD", "5C 3H 3H"]
    d = two_deck_deal(rules, hands, dealer=dealer, kitty="2C 2C")
    assert d.current_player == leader and legal(d) == "3C"  # the lowest club held


def test_two_decks_passing_picks_one_copy_at_a_time() -> None:
    rules = two_decks("2C 3C 4C 5C 9D AD 2H 3H 7S QS", pass_count=2, pass_directions=("left",))
    hands = ["2C 9D 5C", "2C QS 7S", "3C AD 4C", "3C 2H 7S", "4C 9D AD", "5C 3H 3H"]
    d = two_deck_deal(rules, hands, kitty="QS 2H", direction="left")
    assert d.phase == "pass" and d.current_player == 0 and legal(d) == "2C 5C 9D"
    play(d, 0, "2C")
    assert legal(d) == "5C 9D"
    assert_rejected(d, "2C", "already chosen")
    play(d, 0, "9D")
    for seat, cards in [(1, "QS 7S"), (2, "3C 4C"), (3, "2H 7S"), (4, "9D AD")]:
        for card in cards.split():
            play(d, seat, card)
    assert legal(d) == "5C 3H"
    play(d, 5, "3H")
    assert legal(d) == "5C 3H"  # the second copy may be passed too
    assert d.hands[5] == copies("5C 3H 3H")  # nothing moves before every seat has chosen
    play(d, 5, "3H")
    assert d.phase == "play"
    expected = ["5C 3H 3H", "2C 2C 9D", "AD 7S QS", "3C 3C 4C", "4C 2H 7S", "5C 9D AD"]
    assert d.hands == [copies(h) for h in expected]
    assert d.current_player == 1 and legal(d) == "2C"  # seat 1 holds both 2C now
    play(d, 1, "2C")
    assert d.hands[1] == copies("2C 9D")


def test_two_decks_malformed_deals_name_the_card() -> None:
    rules = two_decks("2C 3C 4C 5C 9D AD 2H 3H 7S QS")
    good = ["2C 9D 5C", "2C QS 7S", "3C AD 4C", "3C 2H 7S", "4C 9D AD", "5C 3H 3H"]
    with pytest.raises(ValueError, match="QS"):  # QS three times (and no second 2H)
        two_deck_deal(rules, good, kitty="QS QS")
    with pytest.raises(ValueError, match="3H"):  # one hand holding a card three times
        two_deck_deal(rules, good[:5] + ["3H 3H 3H"], kitty="QS 2H")
    with pytest.raises(ValueError, match="kitty"):
        two_deck_deal(rules, good, kitty="QS 2H 2H")
    with pytest.raises(ValueError, match="kitty"):
        two_deck_deal(rules, good, kitty="QS")
    reference_only()
    with pytest.raises(ValueError, match=r"QS 3 times"):
        two_deck_deal(rules, good, kitty="QS QS")
    with pytest.raises(ValueError, match=r"kitty must hold 2 cards, got 3: 2H 2H QS"):
        two_deck_deal(rules, good, kitty="QS 2H 2H")


# ---------------------------------------------------------------- settlements (chips)


def finished(rules: Rules, taken: list[str]) -> ReferenceDeal:
    """A deal of ``rules`` scored as if its tricks had given each seat these cards."""
    cards, size = rules.deck.cards, rules.hand_size
    d = reference.ReferenceDeal(
        rules, [cards[i * size : (i + 1) * size] for i in range(rules.num_players)], 0, "hold"
    )
    d.taken = [set(parse_cards(t)) for t in taken]
    d.tricks_won = [1] * rules.num_players
    d._score()
    return d


def settle(rules: Rules, taken: list[str], pool: int) -> tuple[list[int], int]:
    """Settle a :func:`finished` deal, checking that chips and the pool balance."""
    chips, after = reference_settle(rules, finished(rules, taken), pool)
    assert sum(chips) + (after - pool) == 0
    assert all(isinstance(c, int) for c in chips) and isinstance(after, int)
    return chips, after


HEARTS_2_TO_6, HEARTS_7_TO_A = "2H 3H 4H 5H 6H", "7H 8H 9H TH JH QH KH AH"
ALL_HEARTS = HEARTS_2_TO_6 + " " + HEARTS_7_TO_A


def test_points_settlement_pays_nothing() -> None:
    reference_only()
    rules = make_rules("hearts")
    assert settle(rules, [ALL_HEARTS, "QS", "", ""], 5) == ([0, 0, 0, 0], 5)


def test_howell() -> None:
    reference_only()
    rules = make_rules("black_lady_foster", reading="howell")
    assert settle(rules, ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "QS", "", ""], 0) == (
        [-26, -26, 26, 26],
        0,
    )
    # With not_counted, T is the deal's total less the uncounted cards (16 here).
    rules = small_rules("hearts", D1_CARDS, first_trick_all_penalty="not_counted", settlement="howell")
    d = deal(rules, D1_HANDS, dealer=2)
    play_d1(d)
    assert reference_settle(rules, d, 0) == ([16 - 3 * 3, 16, 16 - 3 * 13], 0)


def test_jackpot() -> None:
    reference_only()
    rules = make_rules("black_lady_foster", reading="jackpot")
    # Only seat 2 took no penalty card: seat 3 took Q♠ alone and does not share.
    assert settle(rules, [HEARTS_2_TO_6, HEARTS_7_TO_A, "", "QS"], 0) == ([-5, -8, 26, -13], 0)
    # Three sharers of 26: 8 chips each, the odd 2 stay in the pool.
    assert settle(rules, [ALL_HEARTS + " QS", "", "", ""], 0) == ([-26, 8, 8, 8], 2)
    # Every player took a penalty card: the pool keeps the whole pot for the next deal.
    chips, pool = settle(rules, ["2H", "3H", "4H 5H 6H " + HEARTS_7_TO_A, "QS"], 2)
    assert (chips, pool) == ([-1, -1, -11, -13], 28)
    assert settle(rules, [ALL_HEARTS + " QS", "", "", ""], pool) == ([-26, 18, 18, 18], 0)


def test_lowest_wins_chips_ties_and_the_pool() -> None:
    reference_only()
    rules = make_rules("hearts_1887", reading="chips")
    four, nine = "2H 3H 4H 5H", "6H " + HEARTS_7_TO_A
    # Seats 1 and 3 tie for fewest: 4 pays 2 + 2; 9 pays 4 + 4 and 1 goes into the pool.
    chips, pool = settle(rules, [four, "", nine, ""], 0)
    assert (chips, pool) == ([-4, 6, -9, 6], 1)
    # The next deal's single winner takes the payments and the carried chip.
    chips, pool = settle(rules, ["2H 3H 4H", "5H 6H 7H 8H 9H", "TH JH", "QH KH AH"], pool)
    assert (chips, pool) == ([-3, -5, 12, -3], 0)
    # Three winners share a pool of 5 (1 each, 2 stay) and 7 (2 each, 1 more stays).
    chips, pool = settle(rules, ["2H 3H 4H 5H 6H 7H 8H", "9H TH", "JH QH", "KH AH"], 5)
    assert (chips, pool) == ([-7, 3, 3, 3], 3)
    # A negative pool (owed after a moon) is not collected; the remainders still go in.
    assert settle(rules, [four, "", nine, ""], -1) == ([-4, 6, -9, 6], 0)


def all_hearts_to_seat_2(rules: Rules) -> ReferenceDeal:
    """Seat 2 holds every heart and leads (eldest): the others are void, he takes all 13."""
    d = deal(rules, [FULL["C"], FULL["D"], FULL["H"], FULL["S"]], dealer=1)
    while d.phase != "done":
        d.step(d.legal_actions()[0])
    assert d.tricks_won == [0, 0, 13, 0] and d.raw_points == [0, 0, 13, 0]
    return d


def test_lowest_wins_chips_all_thirteen_hearts() -> None:
    reference_only()
    rules = make_rules("hearts_1887", reading="chips")
    d = all_hearts_to_seat_2(rules)
    assert d.moon_shooter is None
    assert reference_settle(rules, d, 0) == ([4, 4, -13, 4], 1)  # 4 to each, 1 into the pool
    rules = make_rules("hearts_1887", reading="chips", moon="old")
    d = all_hearts_to_seat_2(rules)
    assert d.moon_shooter == 2 and d.deal_points == [13, 13, 0, 13]
    # He receives 13: 4 from each opponent and 1 from the pool, owed when the pool is empty.
    assert reference_settle(rules, d, 0) == ([-4, -4, 13, -4], -1)
    assert reference_settle(rules, d, 3) == ([-4, -4, 13, -4], 2)  # nobody collects the pool


@pytest.mark.parametrize(("players", "each", "rest"), [(3, 6, 1), (5, 3, 1), (6, 2, 3)])
def test_lowest_wins_chips_all_hearts_other_tables(players: int, each: int, rest: int) -> None:
    reference_only()
    taken = [ALL_HEARTS] + [""] * (players - 1)
    rules = make_rules("hearts_1887", players, reading="chips")
    assert settle(rules, taken, 0) == ([-13] + [each] * (players - 1), rest)
    rules = make_rules("hearts_1887", players, reading="chips", moon="old")
    assert settle(rules, taken, 0) == ([13] + [-each] * (players - 1), -rest)


def test_cancelled_and_unfinished_deals() -> None:
    reference_only()
    rules = small_rules("hearts", D1_CARDS, first_trick_all_penalty="redeal", settlement="jackpot")
    d = deal(rules, D1_HANDS, dealer=2)
    assert d.cancelled and reference_settle(rules, d, 7) == ([0, 0, 0], 7)
    rules = small_rules("hearts", D1_CARDS, settlement="jackpot")
    with pytest.raises(ValueError, match="not over"):
        reference_settle(rules, deal(rules, D1_HANDS, dealer=2), 0)


def test_black_maria_settlement() -> None:
    reference_only()
    rules = make_rules("black_maria", reading="settle")
    assert settle(rules, ["QS KS AS", "", ""], 4) == ([0, 0, 0], 4)  # paid at the game's end only
    assert reference_settle_game([30, 10, 10]) == [-20, 10, 10]
    assert reference_settle_game([30, 10, 20]) == [-20, 30, -10]
    assert reference_settle_game([10, 10, 10, 21]) == [11 / 3, 11 / 3, 11 / 3, -11]
    assert reference_settle_game([5, 5, 5]) == [0, 0, 0]


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        ("black_lady_foster", 4, {"settlement": "howell"}),
        ("black_lady_foster", 4, {"settlement": "jackpot"}),
        ("black_lady_foster", 5, {"settlement": "jackpot"}),
        ("hearts_1887", 4, {"settlement": "lowest_wins_chips"}),
        ("hearts_1887", 4, {"settlement": "lowest_wins_chips", "moon": "old"}),
        ("hearts_1887", 3, {"settlement": "lowest_wins_chips", "card_points": {"AH": 14, "KH": 13}}),
    ],
)
def test_settlements_balance_over_random_deals(preset: str, players: int, options: dict) -> None:
    reference_only()
    rng = random.Random(f"{preset}-{players}-{options}")
    rules = make_rules(preset, players, **options)
    pool = 0
    for deal_index in range(40):
        cards = list(rules.deck.cards)
        rng.shuffle(cards)
        size = rules.hand_size
        hands = [cards[i * size : (i + 1) * size] for i in range(players)]
        d = ReferenceDeal(rules, hands, deal_index % players, rules.pass_direction(deal_index))
        while d.phase != "done":
            d.step(rng.choice(d.legal_actions()))
        chips, after = reference_settle(rules, d, pool)
        assert sum(chips) + (after - pool) == 0 and all(isinstance(c, int) for c in chips)
        pool = after


# ---------------------------------------------------------------- random playouts, every preset


FAMILY_OPTION_SETS = [
    ("partnership_hearts", 4, {"version": "B"}),
    ("partnership_hearts", 4, {"version": "C"}),
    ("partnership_hearts", 4, {"version": "B", "moon": "shooter_choice"}),
    ("hearts", 4, {"moon": "shooter_choice"}),
    ("joker_hearts", 3, {"jokers": 1, "removal": "joker"}),
    ("joker_hearts", 4, {"jokers": 2, "removal": "joker", "first_lead": "eldest"}),
    ("chasse_coeur", 4, {"first_trick_all_penalty": "not_counted", "no_points_first_trick": True}),
    ("domino_hearts", 5, {"stock_deal": 2}),
    ("domino_hearts", 3, {"stock_deal": 12}),
]


@pytest.mark.parametrize(("preset", "num_players"), all_configs("hearts"))
def test_random_deals_keep_the_invariants(preset: str, num_players: int) -> None:
    random_deals(make_rules(preset, num_players=num_players), random.Random(f"{preset}-{num_players}"))


@pytest.mark.parametrize(("preset", "num_players", "options"), FAMILY_OPTION_SETS)
def test_random_family_deals_keep_the_invariants(preset: str, num_players: int, options: dict) -> None:
    rules = make_rules(preset, num_players=num_players, **options)
    random_deals(rules, random.Random(f"{preset}-{num_players}-{options}"))


def random_deals(rules: Rules, rng: random.Random, count: int = 20) -> None:
    """Random deals with random legal actions: every card played once, points as the rules say."""
    num_players = rules.num_players
    for deal_index in range(count):
        cards = list(rules.deck.cards)
        rng.shuffle(cards)
        size = rules.hand_size
        hands = [cards[i * size : (i + 1) * size] for i in range(num_players)]
        kitty = cards[num_players * size :] if rules.leftover == "kitty" else None
        dealer = deal_index % num_players
        totals = [rng.randrange(0, 100) for _ in range(num_players)]
        direction = rules.pass_direction(deal_index)
        extra = {"stock": cards[num_players * size :]} if rules.stock_deal is not None else {}
        d = ReferenceDeal(rules, hands, dealer, direction, totals=totals, kitty=kitty, **extra)
        while d.phase != "done":
            actions = d.legal_actions()
            assert actions, f"no legal action for seat {d.current_player}"
            d.step(rng.choice(actions))
        if rules.decks == 2:
            two_deck_invariants(rules, d)
            continue
        if rules.stock_deal is None:
            assert all(not hand for hand in d.hands)
        else:  # the last player in adds his hand to his tricks (the reference empties it)
            assert all(hand <= d.taken[seat] for seat, hand in enumerate(d.hands))
        assert sum(d.tricks_won) == (len(d.completed_tricks) if rules.stock_deal is not None else size)
        assert set().union(*d.taken) == set(rules.deck.cards)
        plain = rules.bidding == "none" and not rules.teams
        if plain and rules.scoring == "points":
            assert d.raw_points == [sum(rules.card_points[c] for c in t) for t in d.taken]
        if plain and d.moon_shooter is None:
            bonus = [rules.no_tricks_bonus if won == 0 else 0 for won in d.tricks_won]
            expected = [p + b for p, b in zip(d.raw_points, bonus)]
            if rules.scoring == "royal":  # Q♦'s taker: new total max(0, total + deal score)
                taker = next(s for s in range(num_players) if parse_card("QD") in d.taken[s])
                expected[taker] = max(0, totals[taker] + expected[taker]) - totals[taker]
            assert d.deal_points == expected
        if isinstance(d, reference.ReferenceDeal):
            family_invariants(rules, d)
            if rules.stock_deal is not None:
                domino_invariants(rules, d, hands, extra["stock"])


def two_deck_invariants(rules: Rules, d: ReferenceDeal) -> None:
    """Two decks: ``hand_size`` tricks, each won by one seat or cancelled (winner ``None``);
    every copy of every card taken by someone or, after a cancelled last trick, by nobody; the
    points of every copy taken (no moon, no bonus in the preset)."""
    assert all(not hand for hand in d.hands)
    tricks = d.completed_tricks
    assert len(tricks) == rules.hand_size
    assert sum(d.tricks_won) == sum(winner is not None for _, winner in tricks)
    taken = Counter(c for cards in d.taken for c in cards) + Counter(d.carried)
    assert taken == Counter(rules.deck.cards)
    assert not d.carried or tricks[-1][1] is None  # only a cancelled last trick leaves cards to nobody
    assert d.raw_points == [sum(rules.card_points[c] for c in cards) for cards in d.taken]
    if d.moon_shooter is None:
        bonus = [rules.no_tricks_bonus if won == 0 else 0 for won in d.tricks_won]
        assert d.deal_points == [p + b for p, b in zip(d.raw_points, bonus)]
    assert sum(d.raw_points) + sum(rules.card_points[c] for c in d.carried) == 52
    if not isinstance(d, reference.ReferenceDeal):
        return
    for k, (plays, winner) in enumerate(tricks):  # replay the cancellation rule on each trick
        cards = Counter(c for _, c in plays)
        pairs = sorted(c for c, n in cards.items() if n == 2)
        suit = plays[0][1] // 13
        alive = [(seat, c) for seat, c in plays if c // 13 == suit and c not in pairs]
        assert d.trick_pairs[k] == pairs
        cancelled = len(pairs) >= 2 or not alive
        assert (winner is None) == cancelled
        if cancelled:
            reason = "two_pairs" if len(pairs) >= 2 else "nothing_survives"
            assert (k, reason) in d.cancelled_tricks
        else:
            assert winner == max(alive, key=lambda sc: sc[1])[0]
        if k + 1 < len(tricks):
            assert tricks[k + 1][0][0][0] == (plays[0][0] if cancelled else winner)
    assert len(d.cancelled_tricks) == sum(winner is None for _, winner in tricks)
    first_won = next((winner for _, winner in tricks if winner is not None), None)
    assert d.kitty_taker == (first_won if d.kitty else None)


def domino_invariants(rules: Rules, d: ReferenceDeal, hands: list[list[int]], stock: list[int]) -> None:
    """The reference's Domino bookkeeping, replayed trick by trick from the deal: a follower
    without the suit led draws the stock in order up to the first card of that suit (or the
    stock's end), tricks hold one card per player in, in turn from the leader, everyone but
    the last holder ends out, and the rest of the stock goes to the stock taker."""
    n = rules.num_players
    held = [set(hand) for hand in hands]
    left = list(stock)
    draws = list(d.draws)
    for plays, _ in d.completed_tricks:
        leader = plays[0][0]
        assert [seat for seat, _ in plays] == [s % n for s in range(leader, leader + n) if held[s % n]]
        suit = plays[0][1] // 13
        for k, (seat, card) in enumerate(plays):
            if k and left and all(c // 13 != suit for c in held[seat]):
                drawer, cards = draws.pop(0)
                assert drawer == seat and cards == left[: len(cards)]
                assert all(c // 13 != suit for c in cards[:-1])
                assert cards[-1] // 13 == suit or len(cards) == len(left)
                held[seat] |= set(cards)
                del left[: len(cards)]
            held[seat].remove(card)
    assert not draws and left == d.end_stock and all(not hand for hand in d.hands)
    assert [[c for seat, cards in d.draws if seat == s for c in cards] for s in range(n)] == d.drawn
    in_at_end = [s for s in range(n) if held[s]]
    assert in_at_end == ([d.last_holder] if d.last_holder is not None else [])
    assert d.end_hand == sorted(held[d.last_holder]) if in_at_end else d.end_hand == []
    assert d.out == [s != d.last_holder for s in range(n)]
    assert d.stock_taker == (d.last_holder if in_at_end else d.completed_tricks[-1][1])
    assert set(d.end_stock) <= d.taken[d.stock_taker]


def family_invariants(rules: Rules, d: ReferenceDeal) -> None:
    """The reference's scoring of the decisions, teams and the penalty suit, deal by deal."""
    n, raw, points = rules.num_players, d.raw_points, d.deal_points
    turns = [seat for seat, name in d.decisions if not name.startswith(("suit:", "moon:"))]
    assert turns == [(d.eldest + k) % n for k in range(len(turns))]  # in turn from eldest hand
    if rules.scoring == "points":
        assert raw == [sum(d.card_points[c] for c in d.counted(seat)) for seat in range(n)]
    if d.declarer is not None:
        g = rules.general_points
        made = [
            [0 if s == d.declarer else g for s in range(n)],
            [g if s == d.declarer else 0 for s in range(n)],
        ]
        assert points in made
    if rules.bidding == "auction":  # eldest hand opens with a bid: always a winner
        assert d.decisions[0][0] == d.eldest and d.decisions[0][1].startswith("bid:")
        assert d.auction_winner is not None
        assert d.penalty_suit is not None and sum(raw) == d.penalty_total
        expected = [p + (d.winning_bid if s == d.auction_winner else 0) for s, p in enumerate(raw)]
        assert points == expected
    if d.silent_partner is not None:
        assert points[d.bidder] == points[d.silent_partner] == d.team_points[d.bidder]
    if not rules.teams:  # a slam pair's points are already their sum
        assert d.team_points == points
    else:
        for seat in range(n):
            team = [s for s in range(n) if rules.team_of[s] == rules.team_of[seat]]
            assert d.team_points[seat] == sum(points[s] for s in team)
    if rules.team_scoring == "sum" and d.moon_team is None:
        assert points == raw
    if d.moon_choice is not None:
        assert d.decisions[-1] == (d.moon_shooter, d.moon_choice)


@pytest.mark.parametrize("rule", ["play", "redeal", "not_counted", "to_lowest"])
def test_random_all_penalty_deals_keep_the_invariants(rule: str) -> None:
    reference_only()
    rng = random.Random(rule)
    rules = make_rules(
        "hearts", first_trick_all_penalty=rule, first_lead=rng.choice(["lowest_club", "eldest"])
    )
    penalty = [c for c in rules.deck.cards if rules.card_points[c] > 0]
    for _ in range(30):
        held = rng.sample(penalty, 13)
        rest = [c for c in rules.deck.cards if c not in held]
        rng.shuffle(rest)
        hands = [rest[0:13], rest[13:26], rest[26:39]]
        seat = rng.randrange(4)
        hands.insert(seat, held)
        d = ReferenceDeal(rules, hands, rng.randrange(4), "hold")
        assert d.all_penalty_seats == [seat] and d.cancelled == (rule == "redeal")
        while d.phase != "done":
            d.step(rng.choice(d.legal_actions()))
        if d.cancelled:
            assert d.deal_points == [0, 0, 0, 0] and d.moon_shooter is None and not d.completed_tricks
            continue
        assert set().union(*d.taken) == set(rules.deck.cards) and sum(d.tricks_won) == 13
        first = {c for _, c in d.completed_tricks[0][0]}
        assert d.uncounted == ({c for c in first if c in penalty} if rule == "not_counted" else set())
        assert d.set_aside == (first if rule == "to_lowest" else set())
        if d.moon_shooter is None:
            assert sum(d.raw_points) == d.penalty_total == 26 - sum(rules.card_points[c] for c in d.uncounted)
