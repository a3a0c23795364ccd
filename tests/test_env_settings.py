"""The env settings (``reward``, ``episode``, ``illegal_action``) belong to the env and its
:class:`~hearts_env.table.Table`, not to the game's rules: every constructor takes them and keeps
them out of ``make_rules``, the table plays by them and saves them with its state, and a state
saved before (version 2 kept ``episode`` and ``illegal_action`` among the rules) still loads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import hearts_env
from hearts_cli.play.game import Game
from hearts_env.core.bits import random_bit
from hearts_env.env import raw_env
from hearts_env.presets import make_rules
from hearts_env.table import SETTINGS, STATE_VERSION, Table


def test_a_game_episode_ends_with_the_game_and_a_deal_episode_with_the_deal() -> None:
    """Two tables of the same games played alike: their deals and games end together, and only
    what an episode is differs."""
    rules = make_rules("hearts", max_deals=2)
    deals, games = Table(rules, 3), Table(rules, 3, episode="game")
    for table in (deals, games):
        table.reset(seed=4)
    rng = np.random.default_rng(0)
    ended_games = np.zeros(3, bool)
    for _ in range(3 * 64):  # two deals of 64 decisions, and a few more
        actions = random_bit(games.legal(), rng)
        by_deal, by_game = deals.step(actions), games.step(actions)
        np.testing.assert_array_equal(by_deal.deal_ended, by_game.deal_ended)
        np.testing.assert_array_equal(by_deal.game_ended, by_game.game_ended)
        np.testing.assert_array_equal(by_deal.episode_ended, by_deal.deal_ended)
        np.testing.assert_array_equal(by_game.episode_ended, by_game.game_ended)
        ended_games |= by_game.game_ended
        rows = np.flatnonzero(by_deal.deal_ended)
        for table in (deals, games):
            table.redeal(rows)
    assert ended_games.all()


@pytest.mark.parametrize(("episode", "game_ends"), [("deal", False), ("game", True)])
def test_a_forfeit_ends_the_episode_and_in_game_episodes_the_game(episode: str, game_ends: bool) -> None:
    table = Table(make_rules("hearts"), 2, episode=episode, illegal_action="terminate")
    table.reset(seed=1)
    mask = table.action_mask()
    actions = np.array([np.flatnonzero(mask[0] == 0)[0], np.flatnonzero(mask[1])[0]])
    result = table.step(actions)
    assert result.illegal.tolist() == [True, False] and result.episode_ended.tolist() == [True, False]
    assert result.game_ended.tolist() == [game_ends, False]


def _table(env: Any) -> Table:
    """The table of an env built by any of the constructors."""
    return env.aec_env.unwrapped.table if hasattr(env, "aec_env") else env.unwrapped.table


CONSTRUCTORS: dict[str, Callable[..., Any]] = {
    "env": hearts_env.env,
    "parallel_env": hearts_env.parallel_env,
    "raw_env": raw_env,
    "vector_env": lambda preset, **kw: hearts_env.vector_env(preset, num_envs=2, **kw),
    "single_agent_env": hearts_env.single_agent_env,
}


@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_every_constructor_gives_the_settings_to_its_table_and_not_to_the_rules(name: str) -> None:
    env = CONSTRUCTORS[name]("hearts", episode="game", illegal_action="terminate", target_score=30)
    table = _table(env)
    assert (table.episode, table.illegal_action) == ("game", "terminate")
    assert table.rules == make_rules("hearts", target_score=30)
    table = _table(CONSTRUCTORS[name]("hearts"))
    assert (table.episode, table.illegal_action) == ("deal", "raise")


def test_the_vector_env_s_workers_play_by_its_settings() -> None:
    """Games stepped by a worker process end their episodes with their games, as the local ones."""
    env = hearts_env.vector_env("hearts", num_envs=4, num_workers=2, seed=0, episode="game", max_deals=2)
    try:
        assert env.settings == {"reward": "points", "episode": "game", "illegal_action": "raise"}
        env.reset(seed=0)
        deal_ends = terminations = np.zeros(4, int)
        for _ in range(2 * 64):
            _, _, terminated, _, info = env.step_random()
            if "deal_ended" in info:  # some deal ended
                np.testing.assert_array_equal(terminated, info["game_ended"])
                deal_ends, terminations = deal_ends + info["deal_ended"], terminations + terminated
            else:
                assert not terminated.any()
        assert (deal_ends == 2).all() and (terminations == 1).all()
    finally:
        env.close()


def test_a_state_keeps_the_settings_and_refuses_a_table_of_other_settings() -> None:
    rules = make_rules("hearts")
    settings = {"reward": "zero_sum", "episode": "game", "illegal_action": "terminate"}
    table = Table(rules, 3, **settings)
    table.reset(seed=2)
    table.step(random_bit(table.legal(), np.random.default_rng(0)))
    saved = table.state_dict()
    assert saved["version"] == STATE_VERSION and {name: saved[name] for name in SETTINGS} == settings
    copy = Table(rules, 3, **table.settings)
    copy.load_state_dict(saved)
    np.testing.assert_array_equal(copy.observe(), table.observe())
    for name, other in (("reward", "points"), ("episode", "deal"), ("illegal_action", "raise")):
        with pytest.raises(ValueError, match=f"{name}={settings[name]!r}.*, not 3 with .*{name}={other!r}"):
            Table(rules, 3, **{**settings, name: other}).load_state_dict(saved)


def test_a_state_of_version_2_reads_its_settings_from_its_rules() -> None:
    """Version 2 kept ``episode`` and ``illegal_action`` among the saved rules (``reward`` beside
    them): such a state loads into a table of those settings, and only into one."""
    rules = make_rules("black_maria", num_players=3)
    table = Table(rules, 2, episode="game")
    table.reset(seed=5)
    saved = table.state_dict()
    old = {name: value for name, value in saved.items() if name not in ("episode", "illegal_action")}
    old.update(version=2, rules={**saved["rules"], "episode": "game", "illegal_action": "raise"})
    again = Table(rules, 2, episode="game")
    again.load_state_dict(old)
    np.testing.assert_array_equal(again.action_mask(), table.action_mask())
    with pytest.raises(ValueError, match="episode='game'.*, not 2 with .*episode='deal'"):
        Table(rules, 2).load_state_dict(old)
    with pytest.raises(ValueError, match="saved with other rules"):
        again.load_state_dict({**old, "rules": {**old["rules"], "target_score": 50}})


def test_play_refuses_an_env_setting_given_as_a_rule_option() -> None:
    with pytest.raises(ValueError, match="--option episode: episode is a setting of the env, not a rule"):
        Game("hearts", 0, ["random"], None, {"episode": "game"}, seed=0, deals=1, color=False)
