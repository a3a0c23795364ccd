"""Every agent plays the same actions from the float32, uint8 and packed observations."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import hearts_env
from agents.base import as_float32

CASES = [
    ("random", "hearts", 4), ("lowest", "hearts", 4), ("ducker", "black_maria", 3),
    ("strategy", "hearts", 4), ("strategy", "auction_hearts", 4), ("smear", "smear_partnership", 4),
    ("ppo", "hearts", 4),
]  # fmt: skip


@pytest.mark.parametrize(("name", "preset", "players"), CASES)
def test_an_agent_acts_alike_on_every_format(name: str, preset: str, players: int) -> None:
    if name == "ppo":
        pytest.importorskip("torch")
    agent = agents.make(name, preset=preset, num_players=players)
    envs = {
        fmt: hearts_env.vector_env(preset, num_envs=16, seed=2, num_players=players, obs_format=fmt)
        for fmt in hearts_env.OBS_FORMATS
    }
    obs = {fmt: env.reset()[0] for fmt, env in envs.items()}
    for step in range(60):
        actions = {fmt: agent.act(obs[fmt], np.random.default_rng(step)) for fmt in obs}
        assert np.array_equal(actions["float32"], actions["uint8"])
        assert np.array_equal(actions["float32"], actions["packed"])
        obs = {fmt: env.step(actions["float32"])[0] for fmt, env in envs.items()}
    for env in envs.values():
        env.close()


def test_as_float32_unpacks_and_passes_float32_through() -> None:
    env = hearts_env.vector_env("hearts", num_envs=3, seed=0, obs_format="packed")
    packed, _ = env.reset()
    plain = hearts_env.vector_env("hearts", num_envs=3, seed=0).reset()[0]
    converted = as_float32(packed, env.layout)
    assert "tail" not in converted and np.array_equal(converted["observation"], plain["observation"])
    assert as_float32(plain, env.layout) is plain
