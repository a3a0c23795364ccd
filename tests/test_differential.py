"""The batched engine and the reference agree on every legal set and every deal's points.

Over every preset and player count, every reading of the sources, and option combinations
that reach rare rules; at least 20,000 deals in total (see ``test_total_deals``). Chips and the
pool are compared after every deal too, so every settlement is checked wherever it is set.
"""

from __future__ import annotations

import pytest

from hearts_env.presets import PRESETS, all_configs, make_rules
from tests.differential import run

BATCH, ROUNDS = 48, 5

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
READINGS = [(name, reading) for name, p in PRESETS.items() for reading in p.readings]


@pytest.mark.parametrize(("preset", "players"), all_configs())
def test_presets(preset: str, players: int) -> None:
    outcome = run(make_rules(preset, players), BATCH, ROUNDS, seed=players)
    assert outcome.deals == BATCH * ROUNDS


@pytest.mark.parametrize(("preset", "reading"), READINGS)
def test_readings(preset: str, reading: str) -> None:
    rules = make_rules(preset, reading=reading)
    assert run(rules, BATCH, ROUNDS, seed=7).deals == BATCH * ROUNDS


@pytest.mark.parametrize(("preset", "players", "options"), OPTION_SETS)
def test_options(preset: str, players: int, options: dict) -> None:
    rules = make_rules(preset, players, **options)
    assert run(rules, BATCH, ROUNDS, seed=11).deals == BATCH * ROUNDS


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


def test_total_deals() -> None:
    """The suite above plays at least 20,000 deals (the issue's bar)."""
    configs = (
        len(all_configs()) + len(READINGS) + len(OPTION_SETS) + len(SETTLEMENT_SETS) + len(ALL_PENALTY_SETS)
    )
    assert configs * BATCH * ROUNDS >= 20_000


def test_rare_cases_are_reached() -> None:
    """Skewed deals and the moon policy really reach moons and forced first-trick points."""
    outcome = run(make_rules("hearts", 4), 64, 6, seed=3)
    assert outcome.moons > 0
    assert outcome.forced_first_trick_points > 0
