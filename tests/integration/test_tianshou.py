"""Tianshou 2.0's ``PettingZooEnv`` and multi-agent masked collect over the AEC env
(examples/tianshou_masked_collect.py): every action legal, whole deals whose rewards are the
env's own, and a DQN seat updated on its own decisions. ``make integration-tianshou``."""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest

from tests.integration.common import check_deal_totals, require

tianshou = require("tianshou")

import hearts_env  # noqa: E402 (after the library check)
from examples import tianshou_masked_collect as example  # noqa: E402

CASES = [("hearts", None), ("auction_hearts", None), ("black_maria", 3)]


@pytest.fixture(autouse=True)
def _quiet_stats() -> None:
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)  # per-seat return vectors


def replay(summary: example.CollectSummary, num_players: int | None) -> list[list[int]]:
    """Play each env's stored actions again in a bare AEC env (``reset(seed=...)``, then
    ``reset()`` as the collector does before collecting and after each deal): the same seat acts
    under the same mask and gets the same rewards. Returns each complete deal's ``deal_points``."""
    options = {} if num_players is None else {"num_players": num_players}
    points = []
    for seed, steps in zip(summary.seeds, summary.steps):
        env = hearts_env.env(summary.preset, **options)
        env.reset(seed=seed)
        env.reset()  # the collector's reset_before_collect: the game's next deal
        for t, step in enumerate(steps):
            assert env.agent_selection == step.agent, f"env seed {seed}, step {t}"
            mask = env.observe(step.agent)["action_mask"].astype(bool)
            assert (mask == step.mask).all(), f"step {t}: the mask Tianshou stored differs"
            assert mask[step.action], f"step {t}: {step.agent} played illegal action {step.action}"
            env.step(step.action)
            rewards = [env.rewards[a] for a in env.possible_agents]
            assert rewards == pytest.approx(step.rewards.tolist()), f"step {t}"
            assert all(env.terminations.values()) == step.done, f"step {t}"
            if step.done:
                points.append([env.infos[a]["deal_points"] for a in env.possible_agents])
                env.reset()
    return points


@pytest.mark.parametrize(("preset", "num_players"), CASES)
def test_masked_random_collect_plays_whole_deals_legally(preset: str, num_players: int | None) -> None:
    summary = example.collect(preset, num_players, deals=6, seed=2, num_envs=2)
    assert summary.deals >= 6 and not summary.losses
    steps = [s for env_steps in summary.steps for s in env_steps]
    assert all(s.mask[s.action] for s in steps)
    assert all(env_steps and env_steps[-1].done for env_steps in summary.steps)  # whole deals only
    points = replay(summary, num_players)
    assert len(points) == summary.deals
    check_deal_totals(preset, points)
    for deal_points, rewards in zip(
        points, summary.deal_rewards()
    ):  # reward "points": minus the deal's points
        assert rewards.tolist() == pytest.approx([-p for p in deal_points])
    assert {s.agent for s in steps} == set(summary.agents)
    if preset == "auction_hearts":  # the named decisions (pass, bids, suits) beyond the 52 cards were taken
        assert any(s.action >= 52 for s in steps)


@pytest.mark.parametrize(("preset", "num_players"), CASES)
def test_a_dqn_seat_acts_legally_and_updates(preset: str, num_players: int | None) -> None:
    summary = example.collect(preset, num_players, deals=4, seed=4, num_envs=2, learner=True, updates=3)
    check_deal_totals(preset, replay(summary, num_players))
    own = [s for env_steps in summary.steps for s in env_steps if s.agent == example.LEARNER]
    assert own and all(s.mask[s.action] for s in own)
    assert summary.learner_transitions == len(own)  # every decision of the complete deals
    assert len(summary.losses) == 3 and all(math.isfinite(v) for v in summary.losses)


def test_seat_buffer_gives_each_decision_the_reward_that_followed_it() -> None:
    env = example.make_env("hearts")
    summary_env = example.DummyVectorEnv([lambda: example.make_env("hearts")])
    try:
        algorithm = example.MultiAgentOffPolicyAlgorithm(
            algorithms=[
                example.MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents
            ],
            env=env,
        )
        buffer = example.VectorReplayBuffer(500, 1)
        summary_env.seed([0])
        np.random.seed(0)
        example.Collector(algorithm, summary_env, buffer).collect(n_episode=2, reset_before_collect=True)
        datas = example.env_transitions(buffer)
        for seat, agent in enumerate(env.agents):
            own = example.seat_buffer(datas, env.agents, agent)
            mine = datas[0].obs.agent_id == agent
            assert len(own) == int(mine.sum())
            assert int(own.terminated[: len(own)].sum()) == 2  # one deal end per deal
            ends = np.flatnonzero(datas[0].terminated)
            assert own.rew[: len(own)].sum() == pytest.approx(datas[0].rew[ends, seat].sum())
    finally:
        summary_env.close()
        env.close()


def test_main_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        example.main(["--preset", "black_maria", "--num-players", "3", "--deals", "2", "--steps", "2"]) == 0
    )
    out = capsys.readouterr().out
    assert "tianshou: black_maria, 2 deals" in out and "finite: True" in out
