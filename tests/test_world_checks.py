"""``world_positions`` refuses worlds it cannot turn into positions of its rules (issue 41,
item 2): worlds sampled for another preset, player count or options, worlds of the wrong
shape (a batch of observations' worlds, another player count's hands), worlds of another
observer; each a ``ValueError`` naming both sides, Hearts family and Smear alike. Worlds of
the rules and the observation they were sampled for still give positions."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from hearts_env import Table, make_rules
from hearts_env.core.phases import PLAYING
from hearts_env.core.rules import Rules
from hearts_env.games.smear.worlds import world_positions as smear_world_positions
from hearts_env.worlds import Worlds, sample_worlds, world_positions


@cache
def _observation(
    name: str, players: int, options: tuple[tuple[str, object], ...] = ()
) -> tuple[Rules, np.ndarray]:
    """An observation of the play phase (a trick under way) of ``name``."""
    rules = make_rules(name, players, **dict(options))
    table = Table(rules, num_games=1)
    table.reset(seed=5)
    rng = np.random.default_rng(5)
    while not (table.state.phase[0] == PLAYING and table.state.trick_number[0] >= 1):
        table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
    return rules, table.observe()[0]


def _positions(rules: Rules) -> object:
    return smear_world_positions if rules.game == "smear" else world_positions


HEARTS, SMEAR = ("hearts", 4), ("smear_partnership", 4)


@pytest.mark.parametrize("config", [HEARTS, SMEAR])
def test_worlds_of_the_rules_give_positions(config: tuple[str, int]) -> None:
    rules, obs = _observation(*config)
    rng = np.random.default_rng(0)
    worlds = sample_worlds(rules, obs, 4, rng)
    assert worlds.rules == rules
    assert len(_positions(rules)(rules, obs, worlds, rng)) == 4


@pytest.mark.parametrize(
    ("sampled", "used", "words"),
    [
        (
            ("black_maria", 3),
            ("hearts", 4),
            "worlds sampled for black_maria with 3 players cannot be positions of",
        ),
        (("hearts", 5), ("hearts", 4), "hearts with 5 players cannot be positions of hearts with 4 players"),
        (("smear_widow", 4), ("smear_partnership", 4), "sampled for smear_widow with 4 players"),
        (("smear_partnership", 6), ("smear_partnership", 4), "smear_partnership with 6 players cannot"),
    ],
)
def test_worlds_of_another_preset_or_player_count_are_refused(
    sampled: tuple[str, int], used: tuple[str, int], words: str
) -> None:
    other, other_obs = _observation(*sampled)
    rules, obs = _observation(*used)
    rng = np.random.default_rng(1)
    worlds = sample_worlds(other, other_obs, 3, rng)
    with pytest.raises(ValueError, match=words):
        _positions(rules)(rules, obs, worlds, rng)


@pytest.mark.parametrize("config", [HEARTS, SMEAR])
def test_worlds_of_other_options_are_refused(config: tuple[str, int]) -> None:
    rules, obs = _observation(*config)
    other = make_rules(*config, target_score=rules.target_score + 7)
    rng = np.random.default_rng(2)
    worlds = sample_worlds(other, obs, 3, rng)  # the same observation read with other options
    with pytest.raises(ValueError, match="options target_score differ"):
        _positions(rules)(rules, obs, worlds, rng)


@pytest.mark.parametrize("config", [HEARTS, SMEAR])
def test_worlds_of_the_wrong_shape_are_refused(config: tuple[str, int]) -> None:
    rules, obs = _observation(*config)
    rng = np.random.default_rng(3)
    positions = _positions(rules)
    batch = sample_worlds(rules, np.stack([obs, obs]), 3, rng)  # (B, W, P): a batch's worlds
    with pytest.raises(ValueError, match=r"worlds.hands must have shape \(2, 4\)"):
        positions(rules, obs, batch, rng)
    one = sample_worlds(rules, obs, 3, rng)
    with pytest.raises(ValueError, match=r"worlds.hands must have shape \(3, 4\).*got \(3, 3\)"):
        positions(rules, obs, Worlds(one.hands[:, :3], one.rest), rng)  # hands for three seats
    with pytest.raises(ValueError, match=r"worlds.rest must have shape \(3,\)"):
        positions(rules, obs, Worlds(one.hands, one.rest[:2]), rng)
    with pytest.raises(TypeError, match="worlds.hands must be an integer array"):
        positions(rules, obs, Worlds(one.hands.astype(np.float64), one.rest), rng)
    with pytest.raises(TypeError, match="worlds must be a hearts_env.worlds.Worlds"):
        positions(rules, obs, (one.hands, one.rest), rng)


@pytest.mark.parametrize("config", [HEARTS, SMEAR])
def test_worlds_of_another_observer_are_refused(config: tuple[str, int]) -> None:
    """Worlds built by hand (no rules recorded) whose observer's hand is not the observation's."""
    rules, obs = _observation(*config)
    rng = np.random.default_rng(4)
    one = sample_worlds(rules, obs, 3, rng)
    hands = one.hands.copy()
    hands[:, [0, 1]] = hands[:, [1, 0]]  # the observer given seat 1's hand
    with pytest.raises(ValueError, match="world 0 gives the observer"):
        _positions(rules)(rules, obs, Worlds(hands, one.rest), rng)
