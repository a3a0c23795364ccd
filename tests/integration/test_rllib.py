"""RLlib (new API stack) over ``hearts_env.integrations.rllib`` and examples/rllib_ppo.py: RLlib's
own env checker passes, masked rollouts play only legal actions and every agent's reward reaches
it through RLlib's ``MultiAgentEpisode``, ``render()`` works (also through RLlib's
``PettingZooEnv``), and masked PPO trains with finite losses. ``make integration-ray``."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from tests.integration.common import require

ray = require("ray")

from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402 (after the library check)
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import hearts_env  # noqa: E402
from examples import rllib_ppo  # noqa: E402
from hearts_env.integrations.rllib import (  # noqa: E402
    MASK_KEY,
    OBS_KEY,
    HeartsMultiAgentEnv,
    LegalActionSpace,
    ppo_config,
)

PRESETS = ["hearts", "auction_hearts"]  # auction: named decisions (pass, bid:N, suit:X) after the cards


def masked_action(obs: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs[MASK_KEY])
    assert legal.size, "the acting agent has no legal action"
    return int(rng.choice(legal))


def play_episode(env: HeartsMultiAgentEnv, rng: np.random.Generator, seed: int | None = None):
    """One RLlib episode with masked random actions, recorded as RLlib records it.

    Returns (the MultiAgentEpisode, the final infos, the rewards of each step, the steps at which
    a deal ended without ending the episode)."""
    obs, infos = env.reset(seed=seed)
    episode = MultiAgentEpisode(
        observation_space=env.observation_spaces,
        action_space=env.action_spaces,
        agent_to_module_mapping_fn=lambda agent_id, episode: "shared",
    )
    episode.add_env_reset(observations=obs, infos=infos)
    steps, mid_deal_ends = [], []
    raw = env.unwrapped_env
    while True:
        assert len(obs) == 1, f"turn-based: one observing agent per step, got {sorted(obs)}"
        ((agent, o),) = obs.items()
        assert agent == env.current_agent
        assert env.observation_spaces[agent].contains(o)
        action = masked_action(o, rng)
        before = {a: raw.infos[a] for a in env.possible_agents}
        obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
        episode.add_env_step(
            observations=obs,
            actions={agent: action},
            rewards=rewards,
            infos=infos,
            terminateds=terminateds,
            truncateds=truncateds,
        )
        steps.append(rewards)
        assert not truncateds["__all__"]
        if terminateds["__all__"]:
            assert episode.is_done
            return episode, infos, steps, mid_deal_ends
        if any(raw.infos[a] is not before[a] for a in env.possible_agents):
            mid_deal_ends.append(len(steps) - 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_rllib_env_checker_passes(preset: str) -> None:
    env = HeartsMultiAgentEnv({"preset": preset})
    check_multiagent_environments(env)  # resets with seed=42 and steps an unmasked sample
    # The checker's unmasked `space.sample()` is legal from any state, not only seed 42's.
    rng = np.random.default_rng(3)
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        for _ in range(int(rng.integers(0, 40))):
            ((agent, _o),) = obs.items()
            obs, *_ = env.step({agent: env.get_action_space(agent).sample()})
    check_multiagent_environments(env)
    space = env.action_spaces["player_0"]
    assert isinstance(space, LegalActionSpace)
    assert env.observation_spaces["player_0"][OBS_KEY].shape == (env.unwrapped_env.layout.size,)
    assert env.observation_spaces["player_0"][MASK_KEY].shape == (len(env.action_names),)
    assert type(pickle.loads(pickle.dumps(space))).__name__ == "Discrete"  # RLlib ships plain spaces


@pytest.mark.parametrize("preset", PRESETS)
def test_masked_rollout_is_legal_and_every_agent_gets_its_reward(preset: str) -> None:
    env = HeartsMultiAgentEnv({"preset": preset})
    rng = np.random.default_rng(0)
    for deal in range(6):
        episode, infos, steps, _ = play_episode(env, rng, seed=7 if deal == 0 else None)
        agents = env.possible_agents
        # The deal's end: every agent observes, is terminated and has its reward in that step.
        assert set(steps[-1]) == set(agents) and set(infos) == set(agents)
        assert all(r == 0 for step in steps[:-1] for r in step.values())
        for a in agents:
            assert steps[-1][a] == -infos[a]["deal_points"]
            assert episode.agent_episodes[a].get_return() == pytest.approx(-infos[a]["deal_points"])
        total = sum(steps[-1].values())
        if preset == "hearts":
            assert total in (-26, -78)  # -78: a moon (old moon: 26 to each other player)
        else:
            assert total < 0  # the penalty cards plus the winning bid
        assert episode.get_return() == pytest.approx(total)
        assert infos[agents[0]]["deal_points"] >= 0
    assert env.unwrapped_env.table is not None


@pytest.mark.parametrize("preset", PRESETS)
def test_game_episodes_deliver_each_deals_rewards_to_agents_not_acting_next(preset: str) -> None:
    """``episode="game"``: deals end mid-episode, when only the next agent observes; the others'
    rewards must still reach them (RLlib keeps them until their next step)."""
    env = HeartsMultiAgentEnv({"preset": preset, "episode": "game"})
    episode, infos, steps, mid = play_episode(env, np.random.default_rng(1), seed=11)
    agents = env.possible_agents
    assert mid, "a game of several deals"
    for t in mid:
        assert set(steps[t]) == set(agents)  # every agent's reward, though only one observes next
    for a in agents:
        delivered = sum(step.get(a, 0.0) for step in steps)
        assert delivered == -infos[a]["total_points"]
        assert episode.agent_episodes[a].get_return() == pytest.approx(-infos[a]["total_points"])
    assert infos[agents[0]]["game_over"]


def test_render_works_directly_and_through_rllibs_pettingzoo_wrapper(capsys: pytest.CaptureFixture) -> None:
    env = HeartsMultiAgentEnv({"preset": "auction_hearts"})
    with pytest.raises(RuntimeError, match="reset"):
        env.render()
    obs, _ = env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "auction_hearts" in text
    human = HeartsMultiAgentEnv({"preset": "hearts", "render_mode": "human"})
    human.reset(seed=0)
    capsys.readouterr()
    assert human.render() is None and "hearts" in capsys.readouterr().out

    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    wrapped = PettingZooEnv(hearts_env.env("hearts", render_mode="ansi"))  # render() passes its mode
    wrapped.reset(seed=0)
    assert "hearts" in wrapped.render()


def test_bad_actions_and_options_are_clear_errors() -> None:
    env = HeartsMultiAgentEnv({"preset": "hearts"})
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"player_0": 0})
    obs, _ = env.reset(seed=0)
    ((agent, o),) = obs.items()
    illegal = int(np.flatnonzero(o[MASK_KEY] == 0)[0])
    with pytest.raises(ValueError, match=r"legal: .*action mask"):
        env.step({agent: illegal})
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match=f"it is {agent}'s turn"):
        env.step({other: 0})
    env.step({agent: masked_action(o, np.random.default_rng(0))})  # the failed calls changed nothing
    with pytest.raises(ValueError, match="moon"):
        HeartsMultiAgentEnv({"preset": "hearts", "moon": "sideways"})
    with pytest.raises(TypeError, match="env_config"):
        HeartsMultiAgentEnv(["hearts"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="moon"):
        ppo_config("hearts", moon="sideways")  # checked when the config is built, not in a worker

    terminate = HeartsMultiAgentEnv({"preset": "hearts", "illegal_action": "terminate"})
    obs, _ = terminate.reset(seed=0)
    ((agent, o),) = obs.items()
    obs, rewards, terminateds, _, infos = terminate.step({agent: int(np.flatnonzero(o[MASK_KEY] == 0)[0])})
    assert terminateds["__all__"] and rewards[agent] == -26 and infos[agent]["illegal_action"]
    assert sum(rewards.values()) == -26


def test_ppo_config_shared_and_per_seat_policies() -> None:
    shared = ppo_config("hearts", num_players=3)
    assert set(shared.policies) == {"shared"}
    assert shared.policy_mapping_fn("player_2", None) == "shared"
    assert shared.env_config == {"preset": "hearts", "num_players": 3}
    seats = ppo_config("auction_hearts", shared_policy=False)
    assert set(seats.policies) == {f"player_{i}" for i in range(4)}
    assert seats.policy_mapping_fn("player_1", None) == "player_1"
    assert seats.enable_rl_module_and_learner and seats.enable_env_runner_and_connector_v2


@pytest.mark.parametrize(("preset", "env_runners"), [("hearts", 0), ("auction_hearts", 1)])
def test_ppo_example_trains_with_finite_losses_and_only_legal_actions(preset: str, env_runners: int) -> None:
    # The env raises ValueError on an illegal action (illegal_action="raise"): finishing is legality.
    # One remote env runner: the env is built (and checked by RLlib) in a Ray worker process.
    argv = ["--preset", preset, "--iterations", "2", "--seed", "0", "--num-env-runners", str(env_runners)]
    results = rllib_ppo.main(argv)
    assert len(results) == 2
    for r in results:
        assert r.episodes > 0 and r.env_steps > 0
        for value in (r.total_loss, r.policy_loss, r.vf_loss, r.episode_return_mean):
            assert math.isfinite(value)
        assert set(r.agent_return_mean) == {f"player_{i}" for i in range(4)}
        if preset == "hearts":
            assert -78 <= r.episode_return_mean <= -26
