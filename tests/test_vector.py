"""The Gymnasium vector env: shapes, automatic restarts, per-seat rewards, seeding, bad input."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import hearts_env
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


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = hearts_env.vector_env("hearts", num_envs=4, seed=0)
    obs, _ = env.reset()
    actions = random_actions(obs, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    before = env.table.state.copy()
    with pytest.raises(ValueError, match="seat"):
        env.step(actions)
    assert all(np.array_equal(getattr(before, f), getattr(env.table.state, f)) for f in vars(before))


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


def test_bad_num_envs() -> None:
    with pytest.raises(ValueError, match="num_games"):
        hearts_env.vector_env("hearts", num_envs=0)


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


@pytest.mark.parametrize("bad", ["unheld", -1, 999])
def test_workers_refuse_an_illegal_action_before_any_shard_steps(bad: str | int) -> None:
    env = hearts_env.vector_env("hearts", num_envs=6, seed=0, num_workers=2)
    try:
        # the same held deal everywhere: each game's only legal card is 2♣, card index 0, which a
        # careless clip of -1 would accept
        hands = [" ".join(r + s for r in "23456789TJQKA").split() for s in "CDHS"]
        obs, _ = env.reset(options={"hands": hands, "pass_direction": "hold"})
        actions = random_actions(obs, np.random.default_rng(0))
        actions[4] = int(np.flatnonzero(obs["action_mask"][4] == 0)[0]) if bad == "unheld" else bad
        with pytest.raises(ValueError, match=r"game 4: seat \d"):
            env.step(actions)
        legal = random_actions(obs, np.random.default_rng(0))
        after, *_ = env.step(legal)
        fresh = hearts_env.vector_env("hearts", num_envs=6, seed=0, num_workers=2)
        fresh.reset(options={"hands": hands, "pass_direction": "hold"})
        expected, *_ = fresh.step(legal)  # the refused step had changed nothing
        fresh.close()
        np.testing.assert_array_equal(after["observation"], expected["observation"])
    finally:
        env.close()
    assert not env._workers


def test_workers_render_every_game() -> None:
    env = hearts_env.vector_env("hearts", num_envs=3, seed=0, num_workers=2, render_mode="ansi")
    try:
        env.reset()
        texts = env.render()
        assert len(texts) == 3 and all("hearts (4 players)" in t for t in texts)
    finally:
        env.close()


def test_bad_num_workers() -> None:
    with pytest.raises(ValueError, match="num_workers"):
        hearts_env.vector_env("hearts", num_envs=2, num_workers=3)


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
