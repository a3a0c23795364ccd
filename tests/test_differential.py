"""The batched engine and the reference agree on every legal set and every deal's points.

Over every preset and player count, every reading of the sources, and option combinations
that reach rare rules; at least 20,000 deals in total (see ``test_total_deals``).
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
    ("hearts", 4, {"moon": "shooter_choice", "target_score": 30}),
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
    ("royal_hearts", 3, {"moon": "shooter_choice", "target_score": 40}),
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


def test_total_deals() -> None:
    """The suite above plays at least 20,000 deals (the issue's bar)."""
    configs = len(all_configs()) + len(READINGS) + len(OPTION_SETS)
    assert configs * BATCH * ROUNDS >= 20_000


def test_rare_cases_are_reached() -> None:
    """Skewed deals and the moon policy really reach moons and forced first-trick points."""
    outcome = run(make_rules("hearts", 4), 64, 6, seed=3)
    assert outcome.moons > 0
    assert outcome.forced_first_trick_points > 0
