"""Scripted deals for the reference implementation (hearts_env.reference), trick by trick.

Most deals use a small deck (``removed`` = every card not listed) so that a whole deal fits in a
few lines; hands are written as card strings, seat 0 first.

``tests/test_engine_scripted.py`` replays this module with ``ReferenceDeal`` replaced by the fast
engine: the reference's own bookkeeping is therefore checked through :func:`bookkeeping`, and the
tests of the reference's settlement functions call :func:`reference_only`.
"""

from __future__ import annotations

import random

import pytest

from hearts_env import reference
from hearts_env.cards import card_name, parse_card, parse_cards
from hearts_env.presets import all_configs, make_rules
from hearts_env.reference import ReferenceDeal, reference_settle, reference_settle_game
from hearts_env.rules import Rules


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
    assert d.moon_shooter == 2 and d.raw_points == [0, 0, 8] and d.deal_points == [8, 8, 0]
    d = deal(small_rules("royal_hearts", cards, first_trick_all_penalty="not_counted"), hands, dealer=2)
    for plays in play_out:
        play_trick(d, plays, winner=2)
    bookkeeping(d, uncounted=set(parse_cards("QH")))
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


def test_royal_hearts_queen_effects() -> None:
    rules = small_rules("royal_hearts", "2C QS 5H QH QC AS 3D 7H 3C 2S QD 6H")
    d = deal(rules, ["2C QS 5H QH", "QC AS 3D 7H", "3C 2S QD 6H"])
    play_trick(d, "0:2C 1:QC 2:3C", winner=1)
    assert legal(d) == "3D AS"
    play_trick(d, "1:AS 2:2S 0:QS", winner=1)  # Q♠ with Q♣: cancelled
    play_trick(d, "1:3D 2:QD 0:5H", winner=2)  # one heart - 10: floored at 0
    play_trick(d, "2:6H 0:QH 1:7H", winner=0)  # three hearts doubled by Q♥
    assert d.raw_points == [6, 0, 0] and d.deal_points == [6, 0, 0]
    assert d.moon_shooter is None


ROYAL_MOON_CARDS = "AC AS QH 5H 2C QS QD 3H 3C 2S 4D 6H"
ROYAL_MOON_HANDS = ["AC AS QH 5H", "2C QS QD 3H", "3C 2S 4D 6H"]


def play_royal_moon(d: ReferenceDeal) -> None:
    play_trick(d, "1:2C 2:3C 0:AC", winner=0)
    play_trick(d, "0:AS 1:QS 2:2S", winner=0)
    play_trick(d, "0:QH 1:3H 2:6H", winner=0)
    play_trick(d, "0:5H 1:QD 2:4D", winner=0)


def test_royal_hearts_moon_uses_the_shooters_score() -> None:
    d = deal(small_rules("royal_hearts", ROYAL_MOON_CARDS), ROYAL_MOON_HANDS)
    play_royal_moon(d)
    assert d.raw_points == [24, 0, 0]  # 4 hearts doubled + 26 - 10
    assert d.moon_shooter == 0 and d.deal_points == [0, 24, 24]
    d = deal(small_rules("royal_hearts", ROYAL_MOON_CARDS, reading="subtract_moon"), ROYAL_MOON_HANDS)
    play_royal_moon(d)
    assert d.deal_points == [-24, 0, 0]


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


@pytest.mark.parametrize(("preset", "num_players"), all_configs())
def test_random_deals_keep_the_invariants(preset: str, num_players: int) -> None:
    rng = random.Random(f"{preset}-{num_players}")
    rules = make_rules(preset, num_players=num_players)
    for deal_index in range(20):
        cards = list(rules.deck.cards)
        rng.shuffle(cards)
        size = rules.hand_size
        hands = [cards[i * size : (i + 1) * size] for i in range(num_players)]
        kitty = cards[num_players * size :] if rules.leftover == "kitty" else None
        dealer = deal_index % num_players
        totals = [rng.randrange(0, 100) for _ in range(num_players)]
        d = ReferenceDeal(rules, hands, dealer, rules.pass_direction(deal_index), totals=totals, kitty=kitty)
        while d.phase != "done":
            actions = d.legal_actions()
            assert actions, f"no legal action for seat {d.current_player}"
            d.step(rng.choice(actions))
        assert all(not hand for hand in d.hands)
        assert sum(d.tricks_won) == size
        assert set().union(*d.taken) == set(rules.deck.cards)
        if rules.scoring == "points":
            assert d.raw_points == [sum(rules.card_points[c] for c in t) for t in d.taken]
        if d.moon_shooter is None:
            bonus = [rules.no_tricks_bonus if won == 0 else 0 for won in d.tricks_won]
            assert d.deal_points == [p + b for p, b in zip(d.raw_points, bonus)]


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
