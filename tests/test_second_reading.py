"""The second reading of the sources (2026-12-01; issue 18): one test per rule.

Each test plays a fixed deal on the fast engine (``Table.reset(options={"hands": ...})``) and,
where the rule lives in a deal, on the reference too, and asserts what the corrected sentence
of docs/rules.md says. The docstrings quote the sources in the project's English rendering (the
originals are the Russian texts in ``seeds/``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hearts_env.core.cards import card_name, parse_card, parse_cards
from hearts_env.core.rules import Rules
from hearts_env.presets import make_rules
from hearts_env.table import Table
from tests.reference import ReferenceDeal
from tests.reference_smear import ReferenceSmearDeal, reference_smear_game

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def small_deck(
    preset: str, num_players: int, cards: str, reading: str | None = None, **options: object
) -> Rules:
    """``preset``'s rules over only ``cards`` (every other standard card removed)."""
    keep = set(parse_cards(cards))
    removed = [card_name(c) for c in range(52) if c not in keep]
    return make_rules(preset, num_players, reading, removed=removed, **options)


def act(table: Table, *names: str) -> None:
    """Step the one game of ``table`` through the actions called ``names``."""
    for name in names:
        table.step(np.array([table.rules.action_names.index(name)]))


def legal_names(table: Table) -> set[str]:
    return {table.rules.action_names[a] for a in np.flatnonzero(table.action_mask()[0])}


def reference_act(deal: ReferenceDeal | ReferenceSmearDeal, *names: str) -> None:
    for name in names:
        deal.step(deal.rules.action_names.index(name))


# ---------------------------------------------------------------------- 1. five-point moon
FIVE_POINT_MISSED = (("AH 9C", "TC 5C", "JH 2C", "7C 8C"), "JK1")
"""Seat 0 bids the moon and leads A♥ (hearts trumps); seat 1 takes Game with the 10♣."""
PARTNERSHIP_MISSED = ("AS 3S", "4H 5H", "JS 2S", "6H 7H")
"""Seat 1 bids the moon and names spades; seat 0's side takes every category in play."""


@pytest.mark.parametrize("game", ["smear_five_point", "smear_partnership"])
def test_five_point_moon_is_worth_11_made_or_missed(game: str) -> None:
    """Five-point Smear, docs/rules.md (second reading): "the moon, worth 11 points, consists of
    taking all 5 points"; wherever five-point scoring is used with a moon bid the moon is 11,
    not smear_points + 1 (= 6): a missed moon sets the side back 11."""
    if game == "smear_five_point":
        hands, undealt = FIVE_POINT_MISSED
        rules = small_deck(game, 4, " ".join(hands) + " ", reading="moon", keep=2, deal_size=2, jokers=1)
        actions = ["bid:moon", "pass", "pass", "pass", *"AH 5C JH 7C 9C TC 2C 8C".split()]
        pitching, other, options = 0, 1, {"stock": [undealt]}
    else:
        hands = PARTNERSHIP_MISSED
        rules = small_deck(
            game,
            4,
            " ".join(hands),
            reading="five_point_scoring",
            moon_bid="points",
            keep=2,
            deal_size=2,
            jokers=0,
        )
        actions = ["pass", "bid:moon", "pass", "pass", "suit:S", *"4H 2S 6H 3S AS 5H JS 7H".split()]
        pitching, other, options = 1, 0, {}
    assert rules.smear_points == 5  # five-point scoring: the moon is 11, not 5 + 1
    table = Table(rules, 1)
    table.reset(seed=0, options={"hands": [h.split() for h in hands], "dealer": 3, **options})
    act(table, *actions)
    info = table.game_info([0])
    assert int(info["bid"][0]) == 11 and not bool(info["made"][0])
    assert int(info["deal_points"][0, pitching]) == -11
    assert int(info["total_points"][0, pitching]) == -11
    assert int(info["deal_points"][0, other]) == int(info["made_points"][0, other]) > 0
    undealt_cards = parse_cards(options["stock"][0]) if options else []
    ref = ReferenceSmearDeal(rules, [parse_cards(h) for h in hands], 3, undealt_cards)
    reference_act(ref, *actions)
    assert ref.bid == 11 and not ref.made and ref.side_points[rules.team_of[pitching]] == -11


# ---------------------------------------------------------------------- 2. the widow game's moon
WIDOW_MOON = (("AS KS 4H", "7H 8H 9D", "QS JS 2S", "2H 3H TH"), ["6H"], "9H TD 7S 5D".split())
WIDOW_MOON_ACTIONS = "bid:moon pass pass pass suit:S QS 4H 6H AS 9H JS 7S KS TD 2S 5D".split()
"""Seat 0's side (0 and 2) bids the moon in spades and takes every point in play: 3."""


def test_widow_moon_resets_a_total_negative_before_the_deal() -> None:
    """The widow game, docs/rules.md (second reading): a made moon wins the game at once, "if the
    pitching side previously had a negative score, it is simply reset to 0" and the game goes
    on. A side at -2 that makes the moon (3 points) is reset to 0, not +1 and the winner."""
    hands, widow, stock = WIDOW_MOON
    cards = " ".join([*hands, *widow, *stock])
    rules = small_deck("smear_widow", 4, cards, reading="moon", keep=2, widow=1, deal_size=3, jokers=0)
    table = Table(rules, 1)
    table.reset(
        seed=0, options={"hands": [h.split() for h in hands], "widow": widow, "stock": stock, "dealer": 3}
    )
    table.restore_games(np.array([[-2, 5, -2, 5]]), 0, False)
    act(table, *WIDOW_MOON_ACTIONS)
    info = table.game_info([0])
    assert bool(info["made"][0]) and int(info["made_points"][0, 0]) == 3
    assert info["total_points"][0].tolist() == [0, 5, 0, 5]
    assert not bool(info["game_over"][0]) and int(info["winner"][0]) == -1
    ref = ReferenceSmearDeal(rules, [parse_cards(h) for h in hands], 3, parse_cards(" ".join(widow + stock)))
    reference_act(ref, *WIDOW_MOON_ACTIONS)
    assert reference_smear_game(rules, [-2, 5], ref) == ([0, 5], False, None)
    # A side that was not negative before the deal still wins at once.
    assert reference_smear_game(rules, [0, 5], ref) == ([3, 5], True, 0)


# ---------------------------------------------------------------------- 3. the widow game's discards
def widow_discard_deal() -> tuple[list[list[str]], list[str], list[str]]:
    """Four players, the full 54 cards: the pitcher (seat 0) ends with exactly six trumps
    (A K Q 9 8 7 of spades) among 18 cards; seat 1 keeps seven trumps (J 10 6 5 4 3 2)."""
    trumps = {*(f"{r}S" for r in "23456789TJQKA"), "JC", "JK1", "JK2"}
    plain = [card_name(c) for c in range(52) if card_name(c) not in trumps]  # 38 non-trumps
    hands = [
        ["AS", "KS", "QS", "9S", "8S", *plain[0:4]],
        ["JS", "TS", "6S", "5S", "4S", "3S", "2S", *plain[4:6]],
        ["JC", "JK1", *plain[6:13]],
        ["JK2", *plain[13:21]],
    ]
    return hands, ["7S", *plain[21:24]], plain[24:38]


def test_widow_discards_a_trump_only_with_more_than_six() -> None:
    """The widow game, docs/rules.md (second reading): "a trump may be discarded only by a player
    who holds more than six trumps (the pitcher included, after taking the stock), and even then
    trumps with a scoring value (A, J, 10, 3, 2, the jick, the jokers) may not be discarded"; a
    pitcher with six trumps or fewer discards only non-trumps."""
    hands, widow, stock = widow_discard_deal()
    rules = make_rules("smear_widow", 4)
    table = Table(rules, 1)
    table.reset(seed=0, options={"hands": hands, "widow": widow, "stock": stock, "dealer": 3})
    ref = ReferenceSmearDeal(
        rules, [parse_cards(" ".join(h)) for h in hands], 3, parse_cards(" ".join(widow + stock))
    )
    bids = ["bid:4", "pass", "pass", "pass", "suit:S"]
    act(table, *bids)
    reference_act(ref, *bids)
    spades = {f"{r}S" for r in "23456789TJQKA"}
    # Seat 1 holds seven trumps: one goes, a trump without a scoring value.
    assert int(table.current_player[0]) == 1 == ref.current
    assert legal_names(table) == {"6S", "5S", "4S"}
    assert {rules.action_names[a] for a in ref.legal_actions()} == {"6S", "5S", "4S"}
    act(table, "6S")
    reference_act(ref, "6S")
    # The pitcher, with the rest of the stock, holds 18 cards and exactly six trumps: only his
    # twelve non-trumps may go (K♠ Q♠ 9♠ 8♠ 7♠ have no scoring value, yet stay).
    assert int(table.current_player[0]) == 0 == ref.current
    hand = {card_name(c) for c in ref.hands[0]}
    assert len(hand) == 18 and hand & spades == {"AS", "KS", "QS", "9S", "8S", "7S"}
    for _ in range(12):
        expected = hand - spades
        assert legal_names(table) == expected
        assert {rules.action_names[a] for a in ref.legal_actions()} == expected
        with pytest.raises(ValueError, match="seat 0"):
            table.step(np.array([parse_card("KS")]))
        card = sorted(expected)[0]
        act(table, card)
        reference_act(ref, card)
        hand.discard(card)
    assert hand == {"AS", "KS", "QS", "9S", "8S", "7S"} and ref.phase == "playing"
    assert int(table.state.phase[0]) == 1  # playing


# ---------------------------------------------------------------------- 4. the auction's opening bid
def test_auction_eldest_hand_must_open_with_a_bid() -> None:
    """Auction Hearts, docs/rules.md (second reading): "eldest hand begins the auction by naming a
    number of chips… the following players may pass or raise"; he may not pass, and since
    eldest always bids, every deal has a winner."""
    rules = make_rules("auction_hearts", 4)
    hands = [[card_name(c) for c in range(seat, 52, 4)] for seat in range(4)]
    table = Table(rules, 1)
    table.reset(seed=0, options={"hands": hands, "dealer": 3})
    bids = {f"bid:{n}" for n in range(1, rules.max_bid + 1)}
    assert int(table.current_player[0]) == 0 and legal_names(table) == bids  # no "pass"
    with pytest.raises(ValueError, match="seat 0 cannot choose pass"):
        act(table, "pass")
    act(table, "bid:1")
    for _ in (1, 2, 3):
        assert "pass" in legal_names(table)
        act(table, "pass")
    assert int(table.current_player[0]) == 0 and legal_names(table) == {f"suit:{s}" for s in "CDHS"}
    act(table, "suit:S")
    assert int(table.state.leader[0]) == 0 and len(legal_names(table)) == 13  # he leads any card
    ref = ReferenceDeal(rules, [parse_cards(" ".join(h)) for h in hands], 3, "hold")
    assert "pass" not in {rules.action_names[a] for a in ref.legal_actions()}
    reference_act(ref, "bid:1", "pass", "pass", "pass", "suit:S")
    assert ref.auction_winner == 0 and ref.opening_leader == 0 and ref.penalty_suit == 3


# ---------------------------------------------------------------------- 5. Royal Hearts
ROYAL_CARDS = "2C QS 5H QH QC AS 3D 7H 3C 2S QD 6H"
ROYAL_HANDS = ["2C QS 5H QH", "QC AS 3D 7H", "3C 2S QD 6H"]
ROYAL_PLAYS = "2C QC 3C AS 2S QS 3D QD 5H 6H QH 7H"
"""Seat 2 takes Q♦ and one heart: his deal score 1 - 10 = -9; seat 0 three hearts doubled."""
ROYAL_MOON_HANDS = ["AC AS QH 5H", "2C QS QD 3H", "3C 2S 4D 6H"]
ROYAL_MOON_PLAYS = "2C 3C AC AS QS 2S QH 3H 6H 5H QD 4D"
"""Seat 0 takes every heart, Q♠ and Q♦: a moon of his deal score, 4 x 2 + 26 - 10 = 24."""


def royal_table(hands: list[str], plays: str, totals: list[int], reading: str | None = None) -> Table:
    cards = " ".join(hands)
    rules = small_deck("royal_hearts", 3, cards, reading, pass_count=0, pass_directions=("hold",))
    table = Table(rules, 1)
    table.reset(seed=0, options={"hands": [h.split() for h in hands], "dealer": 2})
    table.restore_games(np.array([totals]), 0, False)
    act(table, *plays.split())
    return table


@pytest.mark.parametrize(
    ("totals", "points"), [([0, 0, 0], [6, 0, 0]), ([0, 0, 4], [6, 0, -4]), ([0, 0, 30], [6, 0, -9])]
)
def test_royal_queen_of_diamonds_lowers_the_total_and_the_shooter_chooses(
    totals: list[int], points: list[int]
) -> None:
    """Royal Hearts, docs/rules.md (second reading): Q♦ "reduces the player's total score by 10
    (but not below zero)" — his new total is max(0, old total + deal score), and his deal
    points the change applied to his total; the earlier deal-score floor is
    ``reading="deal_floor"``. The moon: the source "allows either subtracting the deal score,
    the other queens' effects included, from the total, or adding it to every other player's
    score" — the shooter's decision, ``moon:add`` / ``moon:subtract``."""
    table = royal_table(ROYAL_HANDS, ROYAL_PLAYS, totals)
    info = table.game_info([0])
    assert info["deal_points"][0].tolist() == points
    assert info["total_points"][0].tolist() == [t + p for t, p in zip(totals, points)]
    assert int(info["total_points"][0, 2]) == max(0, totals[2] - 9)
    ref = ReferenceDeal(table.rules, [parse_cards(h) for h in ROYAL_HANDS], 2, "hold", totals=totals)
    reference_act(ref, *ROYAL_PLAYS.split())
    assert ref.raw_points == [6, 0, -9] and ref.deal_points == points
    floor = royal_table(ROYAL_HANDS, ROYAL_PLAYS, totals, reading="deal_floor")
    assert floor.game_info([0])["deal_points"][0].tolist() == [6, 0, 0]  # the first reading
    for choice, moon_points in (("moon:add", [0, 24, 24]), ("moon:subtract", [-24, 0, 0])):
        moon = royal_table(ROYAL_MOON_HANDS, ROYAL_MOON_PLAYS, totals)
        assert int(moon.current_player[0]) == 0 and legal_names(moon) == {"moon:add", "moon:subtract"}
        act(moon, choice)
        assert moon.game_info([0])["deal_points"][0].tolist() == moon_points


# ---------------------------------------------------------------------- 6. Heartsette's modern reading
def test_heartsette_modern_plays_with_every_player_count() -> None:
    """Heartsette, docs/rules.md: "option `modern`: standard `hearts` rules with the widow", and
    "every one must run for every player count it allows: 3–6 players"; the pass cycle is the
    standard one for the count, so three and five players pass left, right, hold. The notes of
    docs/rules.md said the reading could not be used with three or five players."""
    notes = DOC.read_text(encoding="utf-8").split("<!-- end preset:heartsette -->", 1)[1]
    notes = notes.split("<!-- begin ", 1)[0]
    assert "cannot be used" not in notes and "every player count" in notes
    short, full = ("left", "right", "hold"), ("left", "right", "across", "hold")
    for n, cycle in ((3, short), (5, short), (4, full), (6, full)):
        rules = make_rules("heartsette", n, reading="modern")
        assert rules.pass_directions == cycle and rules.kitty_size > 0
        table = Table(rules, 4)
        table.reset(seed=n, options={"pass_direction": "left"})
        rng = np.random.default_rng(n)
        while not table.deal_over.all():  # a deal with a pass, played to its end in every game
            mask = table.action_mask()
            table.step(np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]))
        assert (table.state.totals.sum(axis=1) > 0).all()
