"""The PettingZoo env's library-friendly options: the mask in ``infos`` (always), a Box
observation with ``action_mask="info"``, ``render(mode)``, and ``parallel_env``."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import hearts_env


@pytest.mark.parametrize("preset", ["hearts", "auction_hearts", "smear_partnership"])
def test_infos_carry_the_mask_of_the_acting_agent_and_zeros_for_the_others(preset: str) -> None:
    env = hearts_env.env(preset)
    env.reset(seed=0)
    for agent in env.agent_iter(400):
        obs, _, terminated, truncated, info = env.last()
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        for other in env.agents:
            if other != agent:
                assert not env.infos[other]["action_mask"].any()
        legal = np.flatnonzero(info["action_mask"])
        env.step(None if terminated or truncated else int(legal[0]))


def test_box_observation_with_the_mask_in_infos_plays_the_same_game() -> None:
    plain, boxed = hearts_env.env("hearts"), hearts_env.env("hearts", action_mask="info")
    assert isinstance(boxed.observation_space("player_0"), gymnasium.spaces.Box)
    plain.reset(seed=5)
    boxed.reset(seed=5)
    for agent in boxed.agent_iter(300):
        obs, reward, terminated, truncated, info = boxed.last()
        obs_p, reward_p, *_ = plain.last()
        assert np.array_equal(obs, obs_p["observation"]) and reward == reward_p
        assert boxed.observation_space(agent).contains(obs)
        action = None if terminated or truncated else int(np.flatnonzero(info["action_mask"])[-1])
        boxed.step(action)
        plain.step(action)
    api_test(hearts_env.env("black_maria", action_mask="info"), num_cycles=300)


def test_a_bad_action_mask_option_is_refused() -> None:
    with pytest.raises(ValueError, match="action_mask"):
        hearts_env.env("hearts", action_mask="dict")


@pytest.mark.parametrize("preset", ["domino_hearts", "hearts", "cancellation_hearts"])
def test_rendered_tricks_name_who_played_each_card(preset: str) -> None:
    """Domino Hearts' drop-outs skip seats: the trick lines must still name the real players."""
    import re

    from hearts_env.core.cards import card_symbol

    env = hearts_env.env(preset, render_mode="ansi")
    env.reset(seed=4)
    played: set[tuple[str, str]] = set()
    checked = 0
    rng = np.random.default_rng(4)
    for agent in env.agent_iter(600):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        if action < 54:  # a card (not a named decision)
            played.add((agent, card_symbol(action)))
        env.step(action)
        for line in env.render().splitlines():
            if line.strip().startswith(("trick:", "last trick:")):
                for player, card in re.findall(r"(player_\d+) (\S+)", line.split("→")[0]):
                    assert (player, card) in played, f"{line!r}: {player} did not play {card}"
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize(("preset", "players", "total"), [("hearts", 4, -26), ("black_maria", 3, -43)])
def test_parallel_env_is_turn_based_and_scores_whole_deals(preset: str, players: int, total: int) -> None:
    env = hearts_env.parallel_env(preset, num_players=players)
    observations, infos = env.reset(seed=2)
    rewards_sum, steps = 0.0, 0
    while env.agents:
        acting = [a for a in env.agents if infos[a]["action_mask"].any()]
        assert len(acting) == 1  # one agent acts per step
        actions = {a: 0 for a in env.agents}
        actions[acting[0]] = int(np.flatnonzero(observations[acting[0]]["action_mask"])[0])
        observations, rewards, *_, infos = env.step(actions)
        rewards_sum += sum(rewards.values())
        steps += 1
    assert rewards_sum == total and steps >= 52
    parallel_api_test(hearts_env.parallel_env("hearts"), num_cycles=200)
