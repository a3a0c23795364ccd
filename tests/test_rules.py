"""Cards, the rules model, presets and their readings, settlement and game-end scoring."""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env.core.cards import (
    Deck,
    card_name,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
)
from hearts_env.core.rules import Rules
from hearts_env.games.hearts.scoring import add_to_totals, settle_deal, settle_game
from hearts_env.presets import PRESETS, REMOVAL_TABLES, all_configs, make_rules
from hearts_env.table import Table

# ---------------------------------------------------------------- cards


def test_both_notations() -> None:
    assert parse_card("Q♠") == parse_card("QS") == parse_card("qs") == 49
    assert parse_card("10♥") == parse_card("TH") == parse_card("10H")
    assert card_name(parse_card("10♥")) == "TH"
    assert card_symbol(parse_card("TH")) == "10♥"
    assert parse_cards("2C 3D TH 10H JS QS KS AS") == [0, 14, 34, 34, 48, 49, 50, 51]
    assert parse_card("JK1") == 52 and card_name(53) == "JK2" and card_symbol(52) == "🃏1"
    assert all(parse_card(card_name(i)) == i for i in range(54))


@pytest.mark.parametrize("bad", ["1S", "QX", "", "Q", "11H", "JK3"])
def test_bad_card_text(bad: str) -> None:
    with pytest.raises(ValueError, match="cannot read card"):
        parse_card(bad)


def test_masks_and_decks() -> None:
    assert cards_of(mask_of(["2C", "AS"])) == [0, 51]
    assert len(Deck(removed=(0,))) == 51
    assert len(Deck(jokers=2)) == 54 and len(Deck(copies=2)) == 104
    with pytest.raises(ValueError):
        Deck(copies=3)


# ---------------------------------------------------------------- rules and presets


def test_every_preset_and_player_count_builds() -> None:
    for preset, n in all_configs():
        rules = make_rules(preset, n)
        assert rules.hand_size * n + rules.kitty_size + rules.stock_size == len(rules.deck)
    # 11 presets (45 configurations) and chasse_coeur 3-6, auction_hearts 4-6, joker_hearts 3-6,
    # heartsette 3-6, domino_hearts 3-6, partnership_hearts 4, cancellation_hearts 6-11.
    assert len(all_configs("hearts")) == 45 + 4 + 3 + 4 + 4 + 4 + 1 + 6
    assert len(all_configs("smear")) == 6 + 4 + 2 + 3


@pytest.mark.parametrize(
    ("preset", "players", "hand", "widow", "removed"),
    [
        ("joker_hearts", 3, 18, 0, ""),  # two jokers with three players: 54 cards
        ("joker_hearts", 4, 13, 0, "2D"),
        ("joker_hearts", 5, 10, 0, "2D 2C 2S"),
        ("joker_hearts", 6, 8, 0, "2D 2C 2S 3C 3D"),
        ("heartsette", 3, 16, 4, ""),
        ("heartsette", 4, 12, 3, "2S"),
        ("heartsette", 5, 10, 2, ""),
        ("heartsette", 6, 8, 4, ""),
    ],
)
def test_jokers_and_widows_deal_equal_hands(
    preset: str, players: int, hand: int, widow: int, removed: str
) -> None:
    rules = make_rules(preset, players)
    assert (rules.hand_size, rules.kitty_size) == (hand, widow)
    assert sorted(rules.removed) == sorted(parse_cards(removed))


def test_action_names_and_phases() -> None:
    auction = make_rules("auction_hearts")
    assert auction.action_names[:52] == tuple(card_name(c) for c in range(52))
    assert auction.action_names[52:] == (
        "pass",
        *(f"bid:{n}" for n in range(1, 14)),
        "suit:C",
        "suit:D",
        "suit:H",
        "suit:S",
    )
    assert auction.phases == ("passing", "playing", "bid", "name_suit")
    assert make_rules("chasse_coeur").decisions == ("pass", "general")
    assert make_rules("partnership_hearts", version="C").decisions == ("pass", "slam")
    assert make_rules("joker_hearts", 3).action_names[52:] == ("JK1", "JK2")
    assert make_rules("hearts", moon="shooter_choice").decisions == ("moon:add", "moon:subtract")
    assert make_rules("hearts").action_names == tuple(card_name(c) for c in range(52))


@pytest.mark.parametrize(
    ("preset", "players", "removed"),
    [
        ("hearts", 3, "2D"),
        ("hearts", 5, "2C 2D"),
        ("hearts", 6, "2C 2D 2S 3C"),
        ("black_lady_foster", 5, "2C 2S"),
        ("black_lady_culbertson", 7, "2C 2D 2S"),
        ("black_maria", 3, "2C"),
    ],
)
def test_removal_tables(preset: str, players: int, removed: str) -> None:
    assert make_rules(preset, players).removed == tuple(parse_cards(removed))


def test_removal_options_and_first_club() -> None:
    assert make_rules("hearts", 3, removal="arnold").removed == (parse_card("2C"),)
    assert make_rules("hearts", 6, removal="culbertson").removed == tuple(parse_cards("2C 2D 2S 2H"))
    assert make_rules("hearts", 5).lowest_club == parse_card("3C")
    assert make_rules("hearts", 6).lowest_club == parse_card("4C")
    assert set(REMOVAL_TABLES) >= {"standard", "arnold", "culbertson"}


@pytest.mark.parametrize(
    ("preset", "total"),
    [("hearts", 26), ("black_maria", 43), ("spot_hearts", 129), ("pink_lady", 38), ("black_jack", 23),
     ("greek_hearts", 149), ("hearts_1887", 13)],
)  # fmt: skip
def test_penalty_totals(preset: str, total: int) -> None:
    assert make_rules(preset).penalty_total == total


def test_pass_cycles() -> None:
    assert make_rules("hearts", 4).pass_directions == ("left", "right", "across", "hold")
    assert make_rules("hearts", 3).pass_directions == ("left", "right", "hold")
    assert make_rules("hearts", 6).pass_offset("across") == 3
    assert make_rules("black_maria").pass_directions == ("right",)
    assert make_rules("black_lady_culbertson", reading="alternate").pass_directions == ("left", "right")


READING_CHECKS = {
    ("hearts", "always_left"): lambda r: r.pass_directions == ("left",),
    ("hearts", "eldest_leads"): lambda r: r.first_lead == "eldest",
    ("black_lady_foster", "howell"): lambda r: r.settlement == "howell",
    ("black_lady_foster", "jackpot"): lambda r: r.settlement == "jackpot",
    ("black_lady_culbertson", "alternate"): lambda r: r.pass_directions == ("left", "right"),
    ("black_maria", "ace_ten"): lambda r: (r.card_points[51], r.card_points[50]) == (10, 7),
    ("black_maria", "subtract_moon"): lambda r: r.moon == "new",
    ("black_maria", "target_200"): lambda r: r.target_score == 200,
    ("black_maria", "hearts_by_rank"): lambda r: (
        r.card_points[parse_card("AH")] == 14 and r.card_points[49] == 25
    ),
    ("black_maria", "settle"): lambda r: r.settlement == "maria",
    ("omnibus", "jack_of_diamonds"): lambda r: (
        r.card_points[parse_card("JD")] == -10 and r.card_points[parse_card("TD")] == 0
    ),
    ("omnibus", "ordinary_moon"): lambda r: (r.moon, r.moon_cards) == ("old", "penalty"),
    ("spot_hearts", "ace_one"): lambda r: r.card_points[parse_card("AH")] == 1 and r.penalty_total == 116,
    ("spot_hearts", "eagle"): lambda r: (
        r.card_points[parse_card("AH")] == 5 and r.card_points[parse_card("5H")] == 1
    ),
    ("black_jack", "gibson"): lambda r: r.card_points[parse_card("JS")] == 13,
    ("black_jack", "discard_jack"): lambda r: r.discard_first == parse_card("JS"),
    ("greek_hearts", "parlett"): lambda r: (
        r.card_points[parse_card("5H")] == 1 and r.card_points[parse_card("AH")] == 15
    ),
    ("greek_hearts", "culbertson"): lambda r: (
        r.pass_directions == ("right",)
        and r.card_points[parse_card("JD")] == -10
        and r.card_points[parse_card("QS")] == 13
        and r.card_points[parse_card("AH")] == 1
        and r.first_lead == "eldest"
        and not r.no_points_first_trick
        and r.hearts_break == "free"
        and r.no_heart_lead_first_trick
        and r.moon == "no_points"
        and r.moon_points is None
    ),
    ("greek_hearts", "maguire"): lambda r: (
        r.pass_directions == ("left",)
        and r.card_points[parse_card("AH")] == 14
        and r.card_points[parse_card("JH")] == 11
        and r.card_points[parse_card("QS")] == 25
        and r.moon_points is None
    ),
    ("royal_hearts", "subtract_moon"): lambda r: r.moon == "new",
    ("royal_hearts", "add_moon"): lambda r: r.moon == "old",
    ("royal_hearts", "deal_floor"): lambda r: r.scoring == "royal_deal_floor" and r.moon == "shooter_choice",
    ("hearts_1887", "chips"): lambda r: r.settlement == "lowest_wins_chips",
    ("hearts_1887", "moon"): lambda r: r.moon == "old",
    ("hearts_1887", "double"): lambda r: r.card_points[parse_card("KH")] == 13,
    ("hearts_1887", "eagle"): lambda r: r.card_points[parse_card("KH")] == 4,
    ("heartsette", "modern"): lambda r: (
        r.card_points[parse_card("QS")] == 13 and r.first_lead == "lowest_club" and r.kitty_size == 3
    ),
}


def _sets_its_options(preset: str, reading: str):  # noqa: ANN202
    """A Smear reading is a set of field values: each shows in the rules it builds."""
    options = PRESETS[preset].readings[reading]
    return lambda r: all(getattr(r, key) == value for key, value in options.items())


READING_CHECKS.update(
    {
        (name, reading): _sets_its_options(name, reading)
        for name, p in PRESETS.items()
        if p.game == "smear"
        for reading in p.readings
    }  # fmt: skip
)


def test_every_reading_has_a_check() -> None:
    readings = {(name, reading) for name, p in PRESETS.items() for reading in p.readings}
    assert readings == set(READING_CHECKS)


@pytest.mark.parametrize(("preset", "reading"), sorted(READING_CHECKS))
def test_reading_values(preset: str, reading: str) -> None:
    assert READING_CHECKS[(preset, reading)](make_rules(preset, reading=reading))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"preset": "bridge"}, "unknown preset"),
        ({"num_players": 7}, "3-6 players"),
        ({"moon": "double"}, "moon="),
        ({"pass_directions": ("up",)}, "pass direction"),
        ({"num_players": 5, "pass_directions": ("across",)}, "across"),
        ({"pass_count": 20}, "pass_count"),
        ({"removed": ("2C",)}, "do not divide"),
        ({"card_points": {"QS": 5000}}, "out of range"),
        ({"target": 50}, "unknown option"),
        ({"reading": "modern"}, "no reading"),
        ({"removal": "mine"}, "unknown removal table"),
    ],
)
def test_bad_options(kwargs: dict, message: str) -> None:  # more cases: tests/test_bad_inputs.py
    with pytest.raises(ValueError, match=message):
        make_rules(**kwargs)


def test_rules_are_frozen() -> None:
    rules = make_rules()
    with pytest.raises(AttributeError):
        rules.moon = "new"  # type: ignore[misc]
    assert isinstance(rules, Rules) and rules.describe()["card_points"]["QS"] == 13


# ---------------------------------------------------------------- settlement and game end


def settle(rules, points, taken=None, pool=0.0, shooter=-1, raw=None):  # noqa: ANN001, ANN201
    """settle_deal for one deal, with plain lists."""
    points = np.array([points])
    taken = np.zeros_like(points, np.uint64) if taken is None else np.array([taken], np.uint64)
    raw = points if raw is None else np.array([raw])
    chips, pool_out = settle_deal(rules, points, raw, taken, np.array([shooter]), np.array([pool]))
    assert chips.sum() + pool_out[0] - pool == 0, "chips are neither made nor lost"
    return chips[0].tolist(), float(pool_out[0])


def test_howell_settlement() -> None:
    rules = make_rules("black_lady_foster", reading="howell")
    chips, _ = settle(rules, [13, 13, 0, 0])
    assert chips == [26 - 52, 26 - 52, 26, 26]


def test_jackpot_settlement_carries_over() -> None:
    rules = make_rules("black_lady_foster", reading="jackpot")
    hearts = mask_of(["2H"])
    chips, pool = settle(rules, [5, 8, 6, 7], [hearts] * 4)
    assert pool == 26.0 and chips == [-5, -8, -6, -7]
    chips, pool = settle(rules, [13, 13, 0, 0], [hearts, hearts, 0, 0], pool)
    assert pool == 0.0 and chips == [-13, -13, 26, 26]


def test_jackpot_shares_whole_chips_and_queen_takers_do_not_share() -> None:
    rules = make_rules("black_lady_foster", reading="jackpot")
    queen, heart = mask_of(["QS"]), mask_of(["2H"])
    # Seat 1 took only Q♠ (Foster: thirteen hearts) and does not share; seat 3 took hearts;
    # seats 0 and 2 took no penalty card and share the pot.
    chips, pool = settle(rules, [0, 13, 0, 12], [0, queen, 0, heart], pool=1.0)
    assert chips == [13, -13, 13, -12] and pool == 0.0  # 26 chips, two sharers: 13 each
    chips, pool = settle(rules, [0, 13, 0, 12], [0, queen, 0, heart], pool=0.0)
    assert chips == [12, -13, 12, -12] and pool == 1.0  # 25 chips: 12 each, the odd chip stays


def test_lowest_wins_chips_1887() -> None:
    rules = make_rules("hearts_1887", reading="chips")
    # Two tie for fewest: 4 pays 2 + 2, 9 pays 4 + 4 and 1 chip goes into the pool.
    chips, pool = settle(rules, [4, 0, 9, 0])
    assert chips == [-4, 6, -9, 6] and pool == 1.0
    # The next deal's winner also collects the pool carried in.
    chips, pool = settle(rules, [5, 3, 3, 2], pool=pool)
    assert chips == [-5, -3, -3, 12] and pool == 0.0


def test_1887_all_hearts_with_and_without_the_moon() -> None:
    rules = make_rules("hearts_1887", reading="chips")
    chips, pool = settle(rules, [13, 0, 0, 0])
    assert chips == [-13, 4, 4, 4] and pool == 1.0  # 4 to each opponent, 1 into the pool
    moon = make_rules("hearts_1887", reading="chips", moon="old")
    chips, pool = settle(moon, [0, 13, 13, 13], shooter=0, raw=[13, 0, 0, 0])
    assert chips == [13, -4, -4, -4] and pool == -1.0  # the empty pool owes him the odd chip


def test_black_maria_game_settlement() -> None:
    assert settle_game(np.array([[30, 10, 10]])).tolist() == [[-20, 10, 10]]


def test_exact_target_reset() -> None:
    rules = make_rules("hearts", exact_target_reset=True)
    assert add_to_totals(rules, np.array([[90, 80, 0, 0]]), np.array([[10, 25, 0, 0]])).tolist() == [
        [0, 105, 0, 0]
    ]


def first_game_ends(options: dict, games: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Play games to their end; the final totals and deal count of each game's first game."""
    from hearts_env.core.bits import random_bit

    table = Table(make_rules("hearts", **options), games, episode="game")
    table.reset(seed=0)
    rng = np.random.default_rng(0)
    totals = np.full((games, 4), -1)
    deals = np.full(games, -1)
    for _ in range(64 * 60):
        result = table.step(random_bit(table.legal(), rng))
        first = result.game_ended & (deals < 0)
        totals[first] = table.state.totals[first]
        deals[first] = table.state.deal_index[first] + 1
        if (deals >= 0).all():
            return totals, deals
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))
    raise AssertionError("games did not end")


def test_fixed_number_of_deals() -> None:
    totals, deals = first_game_ends({"max_deals": 3, "target_score": 1000})
    assert (deals == 3).all() and (totals.sum(axis=1) % 26 == 0).all()


def test_target_score_ends_the_game() -> None:
    totals, deals = first_game_ends({"target_score": 40})
    assert (totals.max(axis=1) >= 40).all() and (deals >= 2).all()


@pytest.mark.parametrize(
    ("players", "options"), [(4, {}), (3, {"leftover": "kitty"}), (5, {"leftover": "kitty"})]
)
@pytest.mark.parametrize("batch", [1, 3])
def test_shuffled_deals_use_the_whole_deck(players: int, options: dict, batch: int) -> None:
    table = Table(make_rules("hearts", players, **options), batch)
    hands, kitty = table.engine.shuffled_hands(np.random.default_rng(batch), batch)
    for g in range(batch):
        cards = sorted(c for m in [*hands[g], kitty[g]] for c in cards_of(int(m)))
        assert cards == table.rules.deck.cards
        assert all(len(cards_of(int(m))) == table.rules.hand_size for m in hands[g])
