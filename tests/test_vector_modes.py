"""The vector env's Gymnasium-friendly modes: ``autoreset_mode="next_step"`` and
``action_mask="info"`` (a Box observation), and Gymnasium's own vector wrappers over them."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import hearts_env


def _act(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per game; 7 (any int) where the mask is empty (a restarting game)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 7 for row in mask])


def _play(steps: int, **kwargs: Any) -> list[tuple[np.ndarray, ...]]:
    """(observation, mask, reward, terminated, info rewards) of every step of a seeded run."""
    env = hearts_env.vector_env(num_envs=1, seed=3, **kwargs)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    log = []
    for _ in range(steps):
        mask = info["action_mask"] if env.mask_in_info else obs["action_mask"]
        obs, reward, terminated, _, info = env.step(_act(mask, rng))
        observation = obs if env.mask_in_info else obs["observation"]
        mask = info["action_mask"] if env.mask_in_info else obs["action_mask"]
        step = (observation, mask, reward, terminated, info["rewards"])
        log.append(tuple(array.copy() for array in step))
    env.close()
    return log


@pytest.mark.parametrize("preset", ["hearts", "black_maria", "auction_hearts"])
def test_next_step_is_same_step_with_one_restart_step_after_each_episode(preset: str) -> None:
    players = 3 if preset == "black_maria" else 4
    same = _play(400, preset=preset, num_players=players)
    nxt = _play(400, preset=preset, num_players=players, autoreset_mode="next_step")
    assert sum(int(s[3].sum()) for s in same) >= 3  # several episodes ended
    i = j = 0
    while i < len(same) and j < len(nxt):
        obs_s, mask_s, reward_s, term_s, rewards_s = same[i]
        obs_n, mask_n, reward_n, term_n, rewards_n = nxt[j]
        assert np.array_equal(reward_s, reward_n) and np.array_equal(term_s, term_n)
        assert np.array_equal(rewards_s, rewards_n)
        if term_n[0]:
            assert not mask_n.any()  # the final observation: nobody acts
            j += 1  # the restart step: the same observation same-step mode gave at once
            if j == len(nxt):
                break
            obs_r, mask_r, reward_r, term_r, rewards_r = nxt[j]
            assert not term_r[0] and reward_r[0] == 0 and not rewards_r.any()
            assert np.array_equal(obs_r, obs_s) and np.array_equal(mask_r, mask_s)
        else:
            assert np.array_equal(obs_n, obs_s) and np.array_equal(mask_n, mask_s)
        i += 1
        j += 1


@pytest.mark.parametrize("num_workers", [1, 2])
def test_next_step_restarts_each_game_one_step_after_it_ends(num_workers: int) -> None:
    env = hearts_env.vector_env(num_envs=6, seed=1, autoreset_mode="next_step", num_workers=num_workers)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    ended_before = np.zeros(6, bool)
    episodes = 0
    for _ in range(300):
        obs, reward, terminated, _, info = env.step(_act(obs["action_mask"], rng))
        assert (info["acting_player"][ended_before] == -1).all()  # restarted, no decision
        assert (reward[ended_before] == 0).all() and not terminated[ended_before].any()
        assert obs["action_mask"][~terminated].any(axis=1).all()  # someone acts in every live game
        episodes += int(terminated.sum())
        ended_before = terminated.copy()
    env.close()
    assert episodes >= 12


def test_an_illegal_action_is_still_refused_beside_a_restarting_game() -> None:
    env = hearts_env.vector_env(num_envs=2, seed=0, autoreset_mode="next_step", num_players=4)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    while True:
        obs, _, terminated, _, _ = env.step(_act(obs["action_mask"], rng))
        if terminated.any():
            break
    actions = _act(obs["action_mask"], rng)
    live = np.flatnonzero(~terminated)
    if live.size:  # a card the live game cannot play is refused, the restarting game's ignored
        actions[live[0]] = int(np.flatnonzero(obs["action_mask"][live[0]] == 0)[0])
        with pytest.raises(ValueError, match=f"game {live[0]}"):
            env.step(actions)
    actions = _act(obs["action_mask"], rng)
    actions[terminated] = 51  # anything: ignored
    env.step(actions)


def test_mask_in_info_gives_a_box_observation_and_the_same_game() -> None:
    plain = _play(200)
    boxed = _play(200, action_mask="info")
    for a, b in zip(plain, boxed):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    env = hearts_env.vector_env(num_envs=3, seed=0, action_mask="info")
    assert isinstance(env.single_observation_space, gymnasium.spaces.Box)
    obs, info = env.reset()
    assert obs.shape == (3, env.layout.size) and info["action_mask"].shape == (3, env.num_actions)
    assert env.observation_space.contains(obs)


def test_bad_mode_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="autoreset_mode"):
        hearts_env.vector_env(num_envs=2, autoreset_mode="partial")
    with pytest.raises(ValueError, match="autoreset_mode"):
        hearts_env.vector_env(num_envs=2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="action_mask"):
        hearts_env.vector_env(num_envs=2, action_mask="obs")


def test_gymnasium_vector_wrappers_take_the_box_next_step_env() -> None:
    from gymnasium.wrappers.vector import (
        NormalizeObservation,
        NormalizeReward,
        RecordEpisodeStatistics,
        TransformObservation,
    )

    env = hearts_env.vector_env(num_envs=4, seed=0, action_mask="info", autoreset_mode="next_step")
    env = RecordEpisodeStatistics(NormalizeReward(NormalizeObservation(env)))
    env = TransformObservation(env, lambda o: np.clip(o, -5, 5), env.observation_space)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(_act(info["action_mask"], rng))
        assert np.isfinite(obs).all() and np.isfinite(reward).all()
        if "episode" in info:
            done = info["_episode"]
            episodes += int(done.sum())
            assert (info["episode"]["l"][done] > 0).all()
    env.close()
    assert episodes >= 4  # every game finished at least one deal, and the statistics saw it
