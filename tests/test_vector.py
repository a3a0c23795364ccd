"""The Gymnasium vector env: shapes, automatic restarts, per-seat rewards, seeding, workers, the
integers it accepts and its spaces (its bad inputs are rows of ``test_bad_inputs.py``)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import hearts_env
from hearts_env import spaces
from hearts_env.vector import HeartsVectorEnv


def random_actions(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    return (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)


def test_is_a_gymnasium_vector_env() -> None:
    env = hearts_env.vector_env("hearts", num_envs=16, seed=0)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    obs, info = env.reset()
    assert obs["observation"].shape == (16, env.layout.size) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (16, 52) and obs["action_mask"].dtype == np.int8
    assert info["current_player"].shape == (16,)
    assert env.observation_space.contains(obs)
    assert env.single_action_space.n == 52


def test_deals_end_together_and_restart() -> None:
    env = hearts_env.vector_env("hearts", num_envs=32, seed=1)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    decisions = 12 + 52  # the first deal passes left: 4 seats x 3 cards, then 52 plays
    totals = np.zeros((32, 4))
    for step in range(decisions):
        obs, reward, terminated, truncated, info = env.step(random_actions(obs, rng))
        if step < decisions - 1:
            assert not terminated.any() and not info["rewards"].any()
    assert terminated.all() and not truncated.any()
    points = info["deal_points"]
    assert np.isin(points.sum(axis=1), [26, 78]).all()
    assert np.array_equal(info["rewards"], -points)
    assert np.array_equal(reward, info["rewards"][np.arange(32), info["acting_player"]])
    totals += points
    assert np.array_equal(info["total_points"], totals)
    # Restarted in the same step: the next deal passes right and nobody has played yet.
    assert (env.table.state.pass_direction == 1).all() and (env.table.state.dealer == 1).all()
    assert (obs["action_mask"].sum(axis=1) == 13).all()


def test_seeded_runs_repeat() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = hearts_env.vector_env("black_maria", num_envs=8, seed=seed)
        obs, _ = env.reset()
        rng = np.random.default_rng(5)
        out = []
        for _ in range(100):
            obs, reward, *_ = env.step(random_actions(obs, rng))
            out.append(obs["observation"].copy())
        return out

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_game_episodes_terminate_at_game_end() -> None:
    env = hearts_env.vector_env("hearts", num_envs=16, seed=2, episode="game", target_score=40)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    ended = np.zeros(16, bool)
    for _ in range(64 * 20):
        obs, reward, terminated, truncated, info = env.step(random_actions(obs, rng))
        if "deal_ended" in info:
            finished = info["game_ended"]
            assert np.array_equal(terminated, finished)
            assert (info["total_points"][finished].max(axis=1) >= 40).all()
            ended |= finished
    assert ended.all()


def test_terminate_option_in_a_batch() -> None:
    env = HeartsVectorEnv("hearts", num_envs=4, seed=0, illegal_action="terminate")
    obs, _ = env.reset()
    actions = random_actions(obs, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    offender = int(env.table.state.current[1])
    obs, reward, terminated, truncated, info = env.step(actions)
    assert terminated.tolist() == [False, True, False, False]
    assert info["deal_points"][1, offender] == 26 and reward[1] == -26


def test_fixed_deal_in_every_game() -> None:
    hands = [" ".join(r + s for r in "23456789TJQKA").split() for s in "CDHS"]
    env = hearts_env.vector_env("hearts", num_envs=3, seed=0)
    obs, info = env.reset(options={"hands": hands, "pass_direction": "hold"})
    assert (info["current_player"] == 0).all()
    assert (obs["action_mask"][:, 0] == 1).all() and obs["action_mask"].sum() == 3


def _shard_seeds(seed: int, workers: int) -> list[int]:
    """How a vector env with workers seeds its shards (see ``HeartsVectorEnv.reset``)."""
    return [int(child.generate_state(1)[0]) for child in np.random.SeedSequence(seed).spawn(workers)]


@pytest.mark.parametrize("copy", [True, False])
def test_workers_step_their_shards_exactly_like_separate_envs(copy: bool) -> None:
    """Two worker shards in shared memory give what two in-process envs give, step by step."""
    batch, seed = 10, 4
    env = hearts_env.vector_env("black_maria", num_envs=batch, seed=seed, num_workers=3, copy=copy)
    bounds = [0, 3, 6, 10]  # how 10 games split over 3 shards
    parts = [
        hearts_env.vector_env("black_maria", num_envs=hi - lo, seed=s)
        for lo, hi, s in zip(bounds[:-1], bounds[1:], _shard_seeds(seed, 3))
    ]
    try:
        obs, info = env.reset()
        expected = [part.reset() for part in parts]
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(120):
            np.testing.assert_array_equal(
                obs["observation"], np.concatenate([o["observation"] for o, _ in expected])
            )
            np.testing.assert_array_equal(
                obs["action_mask"], np.concatenate([o["action_mask"] for o, _ in expected])
            )
            actions = random_actions(obs, rng)
            obs, reward, terminated, truncated, info = env.step(actions)
            expected = []
            for part, lo, hi in zip(parts, bounds[:-1], bounds[1:]):
                o, r, t, _, i = part.step(actions[lo:hi])
                expected.append((o, i))
                np.testing.assert_array_equal(reward[lo:hi], r)
                np.testing.assert_array_equal(terminated[lo:hi], t)
                np.testing.assert_array_equal(info["rewards"][lo:hi], i["rewards"])
                np.testing.assert_array_equal(info["current_player"][lo:hi], i["current_player"])
                if "deal_points" in i:
                    np.testing.assert_array_equal(info["deal_points"][lo:hi], i["deal_points"])
                    np.testing.assert_array_equal(info["total_points"][lo:hi], i["total_points"])
            ended += int(terminated.sum())
        assert ended >= batch  # every game finished a deal (Black Maria 3p: 51 decisions a deal)
        assert obs["observation"].flags.writeable == copy
    finally:
        env.close()


def test_workers_render_every_game() -> None:
    env = hearts_env.vector_env("hearts", num_envs=3, seed=0, num_workers=2, render_mode="ansi")
    try:
        env.reset()
        texts = env.render()
        assert len(texts) == 3 and all("hearts (4 players)" in t for t in texts)
    finally:
        env.close()


def test_reused_buffers_give_the_same_steps_as_fresh_arrays() -> None:
    """``copy=False`` (one buffer reused, read-only views) changes nothing but speed."""
    fresh = hearts_env.vector_env("hearts", num_envs=8, seed=6)
    reused = hearts_env.vector_env("hearts", num_envs=8, seed=6, copy=False)
    a, _ = fresh.reset()
    b, _ = reused.reset()
    rng = np.random.default_rng(2)
    for _ in range(130):
        np.testing.assert_array_equal(a["observation"], b["observation"])
        np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
        actions = random_actions(a, rng)
        a, ra, ta, _, ia = fresh.step(actions)
        b, rb, tb, _, ib = reused.step(actions)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(ta, tb)
        assert set(ia) == set(ib)
    assert not b["observation"].flags.writeable and a["observation"].flags.writeable


# ---------------------------------------------------------------------------- good input (issue 8)
# (the bad constructor arguments, actions and lifecycle calls are rows of test_bad_inputs.py)
@pytest.mark.parametrize("num_workers", [1, 2])
def test_numpy_integers_are_accepted_as_counts(num_workers: int) -> None:
    env = hearts_env.vector_env(
        "hearts", num_envs=np.int64(4), num_workers=np.int32(num_workers), num_players=np.int64(4), seed=0
    )
    try:
        obs, _ = env.reset()
        assert env.num_players == 4 and env.num_envs == 4 and type(env.num_envs) is int
        assert obs["observation"].shape == (4, env.layout.size)
    finally:
        env.close()


@pytest.mark.parametrize("num_workers", [1, 2])
def test_integer_actions_of_any_integer_type_are_accepted(num_workers: int) -> None:
    env = hearts_env.vector_env("hearts", num_envs=4, seed=0, num_workers=num_workers)
    try:
        obs, _ = env.reset(seed=1)
        legal = random_actions(obs, np.random.default_rng(0))
        for actions in (legal.astype(np.uint8), tuple(int(a) for a in legal), [np.int16(a) for a in legal]):
            env.reset(seed=1)
            env.step(actions)
        env.reset(seed=1)
        env.step([np.array(a) for a in legal])  # 0-d integer arrays
    finally:
        env.close()


def test_worker_timeout_is_kept() -> None:
    env = hearts_env.vector_env("hearts", num_envs=2, num_workers=2, worker_timeout=5)
    try:
        assert env.worker_timeout == 5.0 and len(env.worker_pids) == 1
    finally:
        env.close()


# ---------------------------------------------------------------------------- spaces (issue 8)
@pytest.mark.parametrize(("preset", "players"), hearts_env.presets.all_configs())
def test_the_observation_space_contains_every_observation(preset: str, players: int) -> None:
    env = hearts_env.vector_env(preset, num_envs=2, seed=players, num_players=players, copy=False)
    assert env.single_observation_space == spaces.observation_space(env.rules, env.layout)
    assert env.single_action_space == spaces.action_space(env.rules)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    lowest = np.inf
    for _ in range(300):
        assert env.observation_space.contains(obs)
        for row in range(2):
            one = {"observation": obs["observation"][row], "action_mask": obs["action_mask"][row]}
            assert env.single_observation_space.contains(one), (preset, players, row)
        lowest = min(lowest, float(obs["observation"].min()))
        obs, *_ = env.step(random_actions(obs, rng))
    if min(env.rules.values().get("card_points", (0,))) < 0:  # the case the old Box(0, inf) missed
        assert lowest < 0
