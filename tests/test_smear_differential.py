"""The batched Smear engine against the plain reference (tests/smear_differential.py).

Every preset and player count, every reading of the presets and a few option sets, at least
5,000 deals in all: identical acting seats and masks at every decision, identical pitchers,
bids, categories, side points, totals and game ends.
"""

from __future__ import annotations

import pytest

from hearts_env.games.smear import engine as smear
from hearts_env.presets import PRESETS, all_configs, make_rules
from tests.smear_differential import run_smear

CONFIGS = all_configs("smear")
READINGS = [(name, reading) for name, p in PRESETS.items() if p.game == "smear" for reading in p.readings]
OPTION_SETS = [
    (
        "smear_partnership",
        4,
        {"distinguishable_jokers": True, "joker_points": "holder", "moon_bid": "points"},
    ),
    ("smear_partnership", 6, {"jick": False, "jokers": 1, "min_bid": 3, "dealer_must_bid": False}),
    (
        "smear_partnership",
        8,
        {"categories": ("high", "low", "jack", "jick", "game"), "max_bid": 5, "moon_bid": "points"},
    ),
    ("smear_nine_card", 5, {"target_score": 31, "distinguishable_jokers": True}),
    ("smear_widow", 3, {"moon_bid": "game", "target_score": 11}),
    ("smear_five_point", 8, {"widow": 3, "moon_bid": "points", "target_score": 11}),
    ("smear_partnership", 4, {"target_score": 7, "max_deals": 3}),
]
GAMES, DEALS = 40, 5  # deals per configuration: GAMES x DEALS


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_presets(preset: str, players: int) -> None:
    outcome = run_smear(make_rules(preset, players), GAMES, DEALS, seed=players)
    assert outcome.deals == GAMES * DEALS
    assert outcome.made and outcome.set_back  # both outcomes of a contract occur


@pytest.mark.parametrize(("preset", "reading"), READINGS)
def test_readings(preset: str, reading: str) -> None:
    rules = make_rules(preset, reading=reading)
    outcome = run_smear(rules, GAMES // 2, DEALS, seed=7)
    if reading == "redeal":
        assert outcome.thrown_in > 0
    if reading == "moon":
        assert outcome.moons > 0


@pytest.mark.parametrize(("preset", "players", "options"), OPTION_SETS)
def test_option_sets(preset: str, players: int, options: dict) -> None:
    outcome = run_smear(make_rules(preset, players, **options), GAMES // 2, DEALS, seed=11)
    if options.get("target_score", 21) < 21:
        assert outcome.games_ended > 0


def test_the_suite_plays_5000_deals() -> None:
    deals = len(CONFIGS) * GAMES * DEALS + (len(READINGS) + len(OPTION_SETS)) * (GAMES // 2) * DEALS
    assert deals >= 5000, deals


def test_coverage_of_the_rare_cases() -> None:
    """Categories not in play, game ties, games to their end: the harness reaches them."""
    outcome = run_smear(make_rules("smear_nine_card", 3), GAMES, DEALS, seed=3)
    assert outcome.not_in_play > 0 and outcome.nobody > 0
    assert run_smear(make_rules("smear_partnership", 4, target_score=5), 20, 4, seed=1).games_ended > 0


def test_the_harness_catches_a_wrong_trump_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """A jick ranked below the jokers (the engine wrong, the reference right) is caught."""
    original = smear.TrumpTables.__init__

    def wrong(self: smear.TrumpTables, rules: object) -> None:
        original(self, rules)  # type: ignore[arg-type]
        for t in range(4):
            if self.jick[t] < 64:
                self.strength[t, self.jick[t]] = 250

    monkeypatch.setattr(smear.TrumpTables, "__init__", wrong)
    with pytest.raises(AssertionError):
        run_smear(make_rules("smear_partnership", 4), GAMES, DEALS, seed=4)
