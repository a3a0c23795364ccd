"""A third game family defined only under ``tests/`` (:mod:`tests.plain_tricks`) passes the
conformance kit and plays a duplicate tournament: a family is one folder plus one registration."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env import make_rules, preset_names
from hearts_env.core.rules import GAMES
from hearts_env.games import FAMILIES, family, register, unregister
from hearts_env.games.hearts.state import State
from hearts_env.presets import PRESETS
from hearts_env.table import Table
from hearts_env.testing import check_agent, check_family
from tests.plain_tricks import FAMILY, GAME, PRESET, PlainTricksEngine
from tests.plain_tricks.players import SPEC, HighestAgent


@pytest.fixture(scope="module", autouse=True)
def plain_tricks() -> Iterator[None]:
    """The family registered for this module's tests only (the rest of the suite never sees it)."""
    register(FAMILY, PRESET)
    yield
    unregister(GAME)


def test_the_registration_adds_the_family_its_game_and_its_presets() -> None:
    assert family(make_rules(GAME)) is FAMILY
    assert GAME in GAMES
    assert preset_names(GAME) == [GAME]
    with pytest.raises(ValueError, match="registered already"):
        register(FAMILY, PRESET)
    with pytest.raises(ValueError, match="was not registered"):
        unregister("hearts")


def test_a_registration_that_clashes_adds_nothing() -> None:
    other = replace(FAMILY, name="plainer_tricks")
    with pytest.raises(ValueError, match="preset 'plain_tricks' exists already"):
        register(other, PRESET)
    with pytest.raises(ValueError, match="has game='plain_tricks', should be 'plainer_tricks'"):
        register(other, replace(PRESET, name="plainer_tricks"))
    assert (
        "plainer_tricks" not in FAMILIES and "plainer_tricks" not in GAMES and "plainer_tricks" not in PRESETS
    )


@pytest.mark.parametrize("num_players", [3, 4])
def test_the_family_passes_the_kit(num_players: int) -> None:
    report = check_family(GAME, num_players)
    assert "masks" in report.passed and "rewards" in report.passed and "state round trip" in report.passed


@pytest.mark.parametrize("agent", ["random", HighestAgent])
def test_its_agents_pass_the_kit(agent: object) -> None:
    check_agent(agent, GAME)


def test_an_agent_with_a_policy_per_known_family_refuses_it_by_name() -> None:
    with pytest.raises(ValueError, match="cannot play plain_tricks"):
        check_agent("ducker", GAME)


def test_one_point_a_trick_the_most_points_win() -> None:
    table = Table(make_rules(GAME), num_games=8)
    table.reset(seed=3)
    rng = np.random.default_rng(3)
    rewards = np.zeros((8, 4))
    while not table.deal_over.all():
        mask = table.action_mask()
        result = table.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
        rewards += result.rewards
    assert (rewards.sum(axis=1) == 13).all()  # each of the 13 tricks scored one point
    assert (rewards >= 0).all() and table.game_over.all()  # one deal a game


def test_it_plays_a_duplicate_tournament() -> None:
    config = TournamentConfig(preset=GAME, agents=[SPEC, "random"], deals=8, tables=4, seed=5)
    report = Tournament(config, progress=False).run()
    assert report["deals"] == 8
    assert FAMILIES[GAME].better == "higher"
    assert PRESETS[GAME] is PRESET


class _ForgetfulEngine(PlainTricksEngine):
    """Scores the deal but forgets to add it to the game's totals."""

    games = ("forgetful_tricks",)

    def end_deal(self, s: State, rows: np.ndarray, forfeit: np.ndarray | None = None) -> None:
        before = s.totals[rows].copy()
        super().end_deal(s, rows, forfeit)
        s.totals[rows] = before


def test_the_kit_catches_a_broken_family_of_its_kind() -> None:
    name = "forgetful_tricks"
    register(
        replace(FAMILY, name=name, engine=_ForgetfulEngine),
        replace(PRESET, name=name, game=name),
    )
    try:
        with pytest.raises(AssertionError, match=f"failed the 'rewards' check for {name}.*previous totals"):
            check_family(name)
    finally:
        unregister(name)
