"""The batched engine and the reference agree on every legal set and every deal's points.

Over every preset and player count, every reading of the sources, every version (Partnership
B and C), and option combinations that reach rare rules; at least 20,000 deals in total (see
``test_total_deals``). Chips and the pool are compared after every deal too, so every
settlement is checked wherever it is set; team points after every deal. Where a variant has
decisions other than cards, both outcomes of each must occur (:func:`assert_covered`).
"""

from __future__ import annotations

import pytest

from hearts_env.core.rules import SUIT_LETTERS, Rules
from hearts_env.presets import PRESETS, all_configs, make_rules
from tests.differential import Outcome, run, run_fixed, run_two_decks

BATCH, ROUNDS = 48, 5
TWO_DECK_BATCH, TWO_DECK_ROUNDS = 20, 12
"""Two decks: one fixed deal per round for the whole table, so more rounds of fewer games (the
same BATCH * ROUNDS deals)."""

OPTION_SETS = [
    ("hearts", 4, {"first_lead": "any_club"}),
    ("hearts", 4, {"first_lead": "eldest"}),
    ("hearts", 4, {"hearts_break": "heart_or_queen"}),
    ("hearts", 4, {"hearts_break": "free"}),
    ("hearts", 4, {"queen_needs_break": True}),
    ("hearts", 4, {"lead_hearts_if_only_queen": True, "hearts_break": "heart_or_queen"}),
    ("hearts", 4, {"no_points_first_trick": False}),
    ("hearts", 4, {"club_play": True}),
    ("hearts", 5, {"club_play": True, "first_lead": "eldest"}),
    ("hearts", 4, {"moon": "new"}),
    ("hearts", 4, {"moon": "no_points"}),
    ("hearts", 4, {"moon": "none"}),
    ("hearts", 4, {"moon": "auto_choice", "target_score": 30}),
    ("hearts", 4, {"no_tricks_bonus": -5}),
    ("hearts", 4, {"card_points": {"JD": -10}}),
    ("hearts", 3, {"leftover": "kitty"}),
    ("hearts", 5, {"leftover": "kitty", "first_lead": "any_club"}),
    ("hearts", 6, {"leftover": "kitty", "no_tricks_bonus": -5}),
    ("hearts", 3, {"removal": "arnold"}),
    ("hearts", 6, {"removal": "culbertson"}),
    ("hearts", 4, {"pass_count": 1}),
    ("hearts", 4, {"pass_count": 4, "pass_directions": ("right",)}),
    ("black_jack", 4, {"discard_first": "JS", "no_points_first_trick": False}),
    ("royal_hearts", 3, {"moon": "auto_choice", "target_score": 40}),
    # No heart led to the first trick (Culbertson's Greek Hearts), over the other lead rules.
    ("hearts", 4, {"no_heart_lead_first_trick": True, "first_lead": "eldest"}),
    ("hearts", 3, {"no_heart_lead_first_trick": True, "first_lead": "eldest", "queen_needs_break": True}),
    (
        "hearts",
        4,
        {
            "no_heart_lead_first_trick": True,
            "first_lead": "eldest",
            "hearts_break": "free",
            "no_points_first_trick": False,
        },
    ),
    (
        "hearts",
        4,
        {"no_heart_lead_first_trick": True, "lead_hearts_if_only_queen": True, "first_lead": "eldest"},
    ),
    ("black_lady_culbertson", 5, {"no_heart_lead_first_trick": True}),
    # Decisions other than cards, jokers, the widow, partnerships (notes/family-decisions.md).
    ("partnership_hearts", 4, {"version": "B"}),
    ("partnership_hearts", 4, {"version": "C"}),
    ("hearts", 4, {"moon": "shooter_choice"}),
    ("hearts", 3, {"moon": "shooter_choice", "leftover": "kitty", "no_tricks_bonus": -5}),
    ("partnership_hearts", 4, {"version": "B", "moon": "shooter_choice"}),
    ("chasse_coeur", 4, {"moon": "shooter_choice"}),
    ("chasse_coeur", 5, {"no_points_first_trick": True}),
    ("auction_hearts", 5, {"max_bid": 3}),
    ("joker_hearts", 4, {"jokers": 2, "removal": "joker"}),
    ("joker_hearts", 4, {"first_lead": "eldest", "queen_needs_break": True}),
    ("joker_hearts", 4, {"club_play": True, "no_points_first_trick": False}),
    # Domino Hearts with other hand sizes: early drop-outs (2 cards each), a short stock (8 cards).
    ("domino_hearts", 5, {"stock_deal": 2}),
    ("domino_hearts", 4, {"stock_deal": 11}),
]

SETTLEMENT_SETS = [
    ("black_lady_foster", 3, {"settlement": "howell"}),
    ("black_lady_foster", 6, {"settlement": "howell"}),
    ("black_lady_foster", 4, {"settlement": "jackpot", "target_score": 30}),
    ("black_lady_foster", 5, {"settlement": "jackpot"}),
    ("hearts_1887", 3, {"settlement": "lowest_wins_chips"}),
    ("hearts_1887", 4, {"settlement": "lowest_wins_chips", "target_score": 20}),
    ("hearts_1887", 4, {"settlement": "lowest_wins_chips", "moon": "old"}),
    ("hearts_1887", 5, {"settlement": "lowest_wins_chips", "moon": "old", "target_score": 20}),
    ("black_maria", 3, {"settlement": "maria", "target_score": 40}),
    ("black_maria", 4, {"settlement": "maria", "target_score": 30, "moon": "new"}),
]

# Played with hands of only penalty cards (tests.differential.all_penalty_hands).
ALL_PENALTY_SETS = [
    ("hearts", 4, {"first_trick_all_penalty": "play"}),
    ("hearts", 4, {"first_trick_all_penalty": "redeal"}),
    ("hearts", 4, {"first_trick_all_penalty": "not_counted"}),
    ("hearts", 4, {"first_trick_all_penalty": "to_lowest"}),
    ("hearts", 4, {"first_trick_all_penalty": "not_counted", "first_lead": "eldest", "moon": "new"}),
    ("hearts", 4, {"first_trick_all_penalty": "not_counted", "moon": "auto_choice", "target_score": 40}),
    (
        "hearts",
        4,
        {"first_trick_all_penalty": "to_lowest", "first_lead": "eldest", "card_points": {"JD": -10}},
    ),
    ("hearts", 5, {"first_trick_all_penalty": "redeal", "leftover": "kitty"}),
    ("hearts", 5, {"first_trick_all_penalty": "to_lowest", "leftover": "kitty", "no_tricks_bonus": -5}),
    ("royal_hearts", 4, {"first_trick_all_penalty": "not_counted"}),
    ("royal_hearts", 4, {"first_trick_all_penalty": "to_lowest"}),
    ("omnibus", 4, {"first_trick_all_penalty": "not_counted"}),
    ("omnibus", 4, {"first_trick_all_penalty": "to_lowest"}),
    ("partnership_hearts", 4, {"first_trick_all_penalty": "not_counted"}),
    ("partnership_hearts", 4, {"version": "C", "first_trick_all_penalty": "to_lowest"}),
    ("black_maria", 4, {"first_trick_all_penalty": "to_lowest", "no_points_first_trick": True}),
    (
        "black_lady_foster",
        4,
        {"settlement": "howell", "no_points_first_trick": True, "first_trick_all_penalty": "not_counted"},
    ),
    (
        "black_lady_foster",
        4,
        {"settlement": "jackpot", "no_points_first_trick": True, "first_trick_all_penalty": "to_lowest"},
    ),
    (
        "hearts_1887",
        4,
        {
            "settlement": "lowest_wins_chips",
            "no_points_first_trick": True,
            "first_trick_all_penalty": "redeal",
        },
    ),
]
# Cancellation Hearts with other options (tests.differential.run_two_decks).
TWO_DECK_OPTION_SETS = [
    ("cancellation_hearts", 6, {"moon": "old"}),
    ("cancellation_hearts", 7, {"moon": "shooter_choice"}),
    ("cancellation_hearts", 8, {"moon": "new", "no_tricks_bonus": -5}),
    ("cancellation_hearts", 9, {"first_lead": "eldest", "hearts_break": "free"}),
    ("cancellation_hearts", 10, {"first_lead": "any_club", "no_points_first_trick": False}),
    ("cancellation_hearts", 11, {"pass_count": 1, "club_play": True}),
    ("cancellation_hearts", 6, {"moon": "old", "moon_cards": "counting", "card_points": {"JD": -10}}),
    ("cancellation_hearts", 7, {"settlement": "jackpot", "hearts_break": "heart_or_queen"}),
]
READINGS = [(name, reading) for name, p in PRESETS.items() if p.game == "hearts" for reading in p.readings]


def assert_covered(rules: Rules, outcome: Outcome) -> None:
    """Both outcomes of every decision the variant has occurred, and its rare mechanisms."""
    made = outcome.decisions_made
    if rules.bidding in ("general", "slam"):
        assert outcome.declared > 0 and outcome.all_passed > 0, outcome
    if rules.bidding == "slam":
        assert 0 < outcome.silent_partners < outcome.declared, outcome  # and a bidder holding 10♦
    if rules.bidding == "auction":  # eldest hand opens, so every deal has a winner
        assert outcome.auctions_won == outcome.deals and outcome.all_passed == 0, outcome
        assert outcome.outbid > 0 and made["pass"] > 0, outcome
        assert all(made[f"suit:{letter}"] > 0 for letter in SUIT_LETTERS), made
    if rules.scoring == "royal":  # Royal Hearts' Q♦: its taker's total held at 0
        assert outcome.diamond_floors > 0, outcome
    if rules.moon == "shooter_choice":
        assert made["moon:add"] > 0 and made["moon:subtract"] > 0, made
    if rules.jokers:
        assert outcome.jokers_led > 0, outcome
    if rules.team_scoring == "sum":
        assert outcome.team_moons > 0, outcome
    if rules.kitty_size and rules.penalty_mask:
        assert outcome.kitty_points > 0, outcome
    if rules.decks == 2:  # every kind of cancellation, the kitty carried on, cards to nobody
        assert outcome.cancelled_pairs > 0 and outcome.two_pair_cancels > 0, outcome
        assert outcome.nothing_survives > 0 and outcome.first_trick_cancels > 0, outcome
        assert outcome.carried_won > 0 and outcome.last_trick_cancels > 0, outcome
        assert outcome.both_copies_held > 0, outcome
        if rules.pass_count > 1:
            assert outcome.both_copies_passed > 0, outcome
        if rules.kitty_size:
            assert outcome.kitty_carried > 0, outcome
    if rules.stock_deal is not None:
        assert outcome.draws > 0 and outcome.long_draws > 0 and outcome.discards > 0, outcome
        assert outcome.stock_emptied > 0 and outcome.out_winner_passes_lead > 0, outcome
        assert outcome.nobody_in > 0, outcome
        if rules.num_players < 6:  # with six players the stock (16 cards) nearly always runs out first
            assert outcome.last_holder_stock > 0, outcome


@pytest.mark.parametrize(("preset", "players"), all_configs("hearts"))
def test_presets(preset: str, players: int) -> None:
    rules = make_rules(preset, players)
    if rules.decks == 2:
        outcome = run_two_decks(rules, TWO_DECK_BATCH, TWO_DECK_ROUNDS, seed=players)
    else:
        outcome = run(rules, BATCH, ROUNDS, seed=players)
    assert outcome.deals == BATCH * ROUNDS
    assert_covered(rules, outcome)


@pytest.mark.parametrize(("preset", "players", "options"), TWO_DECK_OPTION_SETS)
def test_two_deck_options(preset: str, players: int, options: dict) -> None:
    """Cancellation Hearts under other options: the same fixed deals, every cancellation."""
    rules = make_rules(preset, players, **options)
    outcome = run_two_decks(rules, TWO_DECK_BATCH, TWO_DECK_ROUNDS, seed=23 + players)
    assert outcome.deals == TWO_DECK_BATCH * TWO_DECK_ROUNDS
    assert_covered(rules, outcome)
    if options.get("moon") in ("old", "shooter_choice"):
        assert outcome.moons > 0  # both copies of every penalty card in one hand


@pytest.mark.parametrize(("preset", "reading"), READINGS)
def test_readings(preset: str, reading: str) -> None:
    rules = make_rules(preset, reading=reading)
    assert run(rules, BATCH, ROUNDS, seed=7).deals == BATCH * ROUNDS


@pytest.mark.parametrize(("preset", "players", "options"), OPTION_SETS)
def test_options(preset: str, players: int, options: dict) -> None:
    rules = make_rules(preset, players, **options)
    outcome = run(rules, BATCH, ROUNDS, seed=11)
    assert outcome.deals == BATCH * ROUNDS
    assert_covered(rules, outcome)


@pytest.mark.parametrize(("preset", "players", "options"), SETTLEMENT_SETS)
def test_settlements(preset: str, players: int, options: dict) -> None:
    rules = make_rules(preset, players, **options)
    outcome = run(rules, BATCH, ROUNDS, seed=13)
    assert outcome.deals == BATCH * ROUNDS
    if "target_score" in options:
        assert outcome.games_ended > 0  # a new game starts mid-run (fresh pool; Maria's chips)
    if options.get("moon") == "old":
        assert outcome.moons > 0  # 1887 with the moon rule: the shooter receives his hearts


@pytest.mark.parametrize(("preset", "players", "options"), ALL_PENALTY_SETS)
def test_all_penalty_hands(preset: str, players: int, options: dict) -> None:
    rules = make_rules(preset, players, **options)
    outcome = run(rules, BATCH, ROUNDS, seed=17, all_penalty=True)
    assert outcome.deals == BATCH * ROUNDS
    assert outcome.all_penalty_starts > 0
    redeal = options["first_trick_all_penalty"] == "redeal"
    assert (outcome.cancelled == outcome.all_penalty_starts) if redeal else outcome.cancelled == 0


@pytest.mark.parametrize("players", [3, 4, 6])
def test_domino_fixed_deals_through_reset(players: int) -> None:
    """One Domino deal for all games (``table.reset(options={"hands", "stock", "dealer"})``,
    cards as names and as indices), played out with different choices in each game."""
    rules = make_rules("domino_hearts", players)
    outcome = run_fixed(rules, 16, 4, seed=19 + players)
    assert outcome.deals == 16 * 4 and outcome.draws > 0


def test_total_deals() -> None:
    """The suite above plays at least 20,000 deals (the issue's bar)."""
    configs = (
        len(all_configs("hearts"))
        + len(READINGS)
        + len(OPTION_SETS)
        + len(SETTLEMENT_SETS)
        + len(ALL_PENALTY_SETS)
        + len(TWO_DECK_OPTION_SETS)
    )
    assert TWO_DECK_BATCH * TWO_DECK_ROUNDS == BATCH * ROUNDS
    assert configs * BATCH * ROUNDS >= 20_000


def test_rare_cases_are_reached() -> None:
    """Skewed deals and the moon policy really reach moons and forced first-trick points."""
    outcome = run(make_rules("hearts", 4), 64, 6, seed=3)
    assert outcome.moons > 0
    assert outcome.forced_first_trick_points > 0
