"""``HeartsVectorEnv.step_random``: the random player drawn by each shard's own process."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import hearts_env


def _same(a: Any, b: Any, where: str) -> None:
    if isinstance(a, dict):
        assert set(a) == set(b), where
        for key in a:
            _same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    else:
        np.testing.assert_array_equal(a, b, err_msg=where)


@pytest.mark.parametrize(
    "preset, kwargs",
    [
        ("hearts", {}),
        ("hearts", {"num_workers": 2}),
        ("hearts", {"num_workers": 3, "copy": False, "obs_format": "packed"}),
        ("auction_hearts", {"num_workers": 2}),  # bids: drawn from the action mask
        ("smear_widow", {}),
        ("black_maria", {"autoreset_mode": "next_step", "num_workers": 2}),
    ],
)
def test_step_random_is_step_with_the_actions_it_reports(preset: str, kwargs: dict[str, Any]) -> None:
    """A twin env stepped with ``info["actions"]`` returns exactly what step_random returned,
    and every action was legal where the game did not only restart."""
    drawn = hearts_env.vector_env(preset, num_envs=24, seed=11, **kwargs)
    twin = hearts_env.vector_env(preset, num_envs=24, seed=11, **kwargs)
    try:
        obs, _ = drawn.reset()
        _same(obs, twin.reset()[0], "reset")
        deals = 0
        for t in range(300):
            mask = np.array(obs["action_mask"])
            got = drawn.step_random()
            actions = got[-1]["actions"]
            live = mask.any(axis=1)
            assert (mask[live, actions[live]] == 1).all(), f"step {t}: an illegal random action"
            assert (actions[~live] == 0).all()
            expected = twin.step(actions.copy())
            expected[-1]["actions"] = actions
            _same(got, expected, f"step {t}")
            obs = got[0]
            deals += int(got[-1].get("deal_ended", np.zeros(1)).sum())
        assert deals > 0
    finally:
        drawn.close()
        twin.close()


@pytest.mark.parametrize("num_workers", [1, 2])
def test_step_random_is_reproducible_from_the_seed(num_workers: int) -> None:
    def actions(seed: int) -> np.ndarray:
        env = hearts_env.vector_env(num_envs=16, seed=seed, num_workers=num_workers)
        env.reset()
        played = np.stack([env.step_random()[-1]["actions"] for _ in range(60)])
        env.reset(seed=seed)  # a reset with the seed starts the same random player again
        again = np.stack([env.step_random()[-1]["actions"] for _ in range(60)])
        env.close()
        np.testing.assert_array_equal(played, again)
        return played

    first = actions(5)
    np.testing.assert_array_equal(first, actions(5))
    assert not np.array_equal(first, actions(6))


def test_step_random_draws_every_legal_card_equally_often() -> None:
    """The first decision of standard Hearts is a pass: all 13 cards of the hand are legal."""
    env = hearts_env.vector_env(num_envs=26_000, seed=2, num_workers=2)
    obs, _ = env.reset()
    hands = np.array(obs["action_mask"])
    assert (hands.sum(axis=1) == 13).all()
    actions = env.step_random()[-1]["actions"]
    env.close()
    rank_in_hand = (np.cumsum(hands, axis=1)[np.arange(len(actions)), actions] - 1).astype(int)
    counts = np.bincount(rank_in_hand, minlength=13)
    expected = len(actions) / 13
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 40.0, counts  # 12 degrees of freedom: P(chi2 > 40) < 1e-4


def test_step_random_before_reset_or_after_close_says_what_to_call() -> None:
    env = hearts_env.vector_env(num_envs=4)
    with pytest.raises(RuntimeError, match=r"step_random\(\) before reset\(\): call reset\(\) first"):
        env.step_random()
    env.close()
    with pytest.raises(RuntimeError, match=r"step_random\(\) on a closed vector env"):
        env.step_random()


def test_worker_spin_changes_the_speed_not_the_games() -> None:
    logs = []
    for spin in (0, 0.001):
        env = hearts_env.vector_env(num_envs=32, seed=9, num_workers=2, worker_spin=spin, obs_format="packed")
        env.reset()
        logs.append([env.step_random() for _ in range(80)])
        env.close()
    _same(tuple(logs[0]), tuple(logs[1]), "spin 0 vs 0.001")


@pytest.mark.parametrize(
    "value, error, match",
    [
        (-0.1, ValueError, r"worker_spin must be from 0 to 1 second, got -0\.1"),
        (float("nan"), ValueError, "worker_spin must be from 0 to 1 second, got nan"),
        (5, ValueError, "worker_spin must be from 0 to 1 second, got 5"),
        ("fast", TypeError, "worker_spin must be a number of seconds, got"),
        (True, TypeError, "worker_spin must be a number of seconds, got"),
    ],
)
def test_a_bad_worker_spin_is_refused(value: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        hearts_env.vector_env(num_envs=4, num_workers=2, worker_spin=value)
