"""One learning seat against fixed opponents (``hearts_env.single_agent_env``): every preset
plays to the end, the seat's reward is the PettingZoo env's for the same deal, seeded episodes
replay, the mask is given three ways alike, opponents as a list, bad arguments, check_env."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import agents
import hearts_env
from hearts_env.presets import preset_names
from hearts_env.single import registered_agent


def play_deal(env, seed: int, rng: np.random.Generator) -> tuple[float, dict, int]:
    """Random legal play of one seeded episode: (total reward, last info, steps)."""
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, info["action_mask"] > 0)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        assert not truncated
        total += reward
        steps += 1
        if terminated:
            assert not env.action_masks().any() and not info["action_mask"].any()
            return total, info, steps
        assert reward == 0.0 or env.table.episode == "game"


class Recorder:
    """An agent that plays like ``agent`` and writes every action into a shared log."""

    def __init__(self, agent, log: list[int]) -> None:
        self.agent, self.log = agent, log

    def act(self, obs, rng):
        actions = self.agent.act(obs, rng)
        self.log.extend(int(a) for a in actions)
        return actions


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_plays_random_deals_to_the_end(preset: str) -> None:
    env = hearts_env.single_agent_env(preset, "random")
    assert env.observation_space.shape == (env.table.observer.layout.size,)
    assert env.action_space.n == len(env.rules.action_names)
    rng = np.random.default_rng(0)
    for seed in range(3):
        _, info, steps = play_deal(env, seed, rng)
        assert steps >= 1 and "deal_points" in info


@pytest.mark.parametrize("preset", preset_names())
def test_the_seats_reward_is_the_multi_agent_envs(preset: str) -> None:
    """Every action of a single-seat deal (the seat's and the opponents', in order) replayed in
    the PettingZoo env from the same seed gives the seat the same reward."""
    rules = hearts_env.make_rules(preset)
    seat = 1
    log: list[int] = []
    opponent = Recorder(agents.make("random", preset, rules.num_players), log)
    env = hearts_env.single_agent_env(preset, opponent, seat=seat)
    rng = np.random.default_rng(5)
    obs, info = env.reset(seed=11)
    total, terminated = 0.0, False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        log.append(action)
        obs, reward, terminated, _, info = env.step(action)
        total += reward
    multi = hearts_env.env(preset)
    multi.reset(seed=11)
    rewards = dict.fromkeys(multi.possible_agents, 0.0)
    for action in log:
        multi.step(action)
        for agent, value in multi.rewards.items():
            rewards[agent] += value
    assert all(multi.terminations.values())
    assert total == rewards[f"player_{seat}"]
    assert np.array_equal(info["deal_points"], [multi.infos[a]["deal_points"] for a in multi.possible_agents])


def test_a_game_episode_pays_every_deal() -> None:
    env = hearts_env.single_agent_env("hearts", "random", episode="game", max_deals=3)
    total, info, steps = play_deal(env, 4, np.random.default_rng(1))
    assert info["game_over"] and steps > 13
    assert total == -info["total_points"][0]


def test_seeded_episodes_replay() -> None:
    strategy = agents.make("strategy", "hearts", 4)

    def episode(seed: int) -> list:
        env = hearts_env.single_agent_env("hearts", ["random", strategy, "random"], seat=2)
        obs, _ = env.reset(seed=seed)
        seen, terminated, rng = [obs], False, np.random.default_rng(0)
        while not terminated:
            obs, reward, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            seen += [obs, reward]
        return seen

    first, again, other = episode(3), episode(3), episode(4)
    assert len(first) == len(again) and all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not (len(first) == len(other) and all(np.array_equal(a, b) for a, b in zip(first, other)))


def test_the_constructor_seed_seeds_the_first_reset() -> None:
    a = hearts_env.single_agent_env("black_maria", "random", seed=7)
    b = hearts_env.single_agent_env("black_maria", "random")
    obs, _ = b.reset(seed=7)
    assert np.array_equal(a._observation(), obs)


def test_opponents_as_a_list_play_their_own_seats() -> None:
    seen: dict[str, list[int]] = {"lowest": [], "strategy": []}

    class Named:
        def __init__(self, name: str) -> None:
            self.name, self.agent = name, agents.make(name, "hearts", 4)

        def act(self, obs, rng):
            seen[self.name].append(int(self.agent.layout.view(obs["observation"], "hand").sum()))
            return self.agent.act(obs, rng)

    env = hearts_env.single_agent_env("hearts", [Named("lowest"), Named("strategy"), "random"], seat=1)
    assert [type(env.opponents[s]).__name__ for s in (0, 2, 3)] == ["Named", "Named", "RandomAgent"]
    play_deal(env, 0, np.random.default_rng(0))
    assert len(seen["lowest"]) == len(seen["strategy"]) >= 13


def test_every_decision_of_the_opponents_is_played_for_them() -> None:
    """Passing and bids: the seat is asked only for its own decisions."""
    for preset in ("hearts", "auction_hearts", "smear_widow"):
        env = hearts_env.single_agent_env(preset, "random", seat=3)
        env.reset(seed=2)
        for _ in range(5):
            assert int(env.table.current_player[0]) == 3
            _, _, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            if terminated:
                break


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"opponents": 5}, TypeError, "opponents must be an agent name"),
        ({"opponents": ["random", "random"]}, ValueError, "has 3 other seats (1, 2, 3), got 2 agents"),
        ({"opponents": ["random", 3, "random"]}, TypeError, "opponents[1] must be an agent name"),
        ({"opponents": agents.agent_class("random")}, TypeError, "an instance, not a class"),
        ({"opponents": "no_such_agent"}, ValueError, "'no_such_agent' is not a registered agent name"),
        ({"opponents": "ppo:checkpoint=x.pt"}, ValueError, "or pass an agent object"),
        ({"seat": 4}, ValueError, "seat must be a seat 0..3 of hearts (4 players), got 4"),
        ({"episode": "match"}, ValueError, "episode"),
        ({"render_mode": "rgb_array"}, ValueError, "render_mode='rgb_array' is not known"),
    ],
)
def test_a_bad_argument_is_one_clear_error(kwargs: dict, error: type, words: str) -> None:
    with pytest.raises(error) as caught:
        hearts_env.single_agent_env("hearts", **kwargs)
    message = str(caught.value)
    assert words in message and "\n" not in message


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = hearts_env.single_agent_env("hearts", "random")
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match="^seat 0: "):
        env.step(illegal)
    with pytest.raises(TypeError, match="seat 0: an action is an int"):
        env.step(2.0)
    assert np.array_equal(env._observation(), obs)
    assert np.array_equal(env.action_masks(), info["action_mask"] > 0)


def test_a_failed_reset_changes_nothing() -> None:
    env = hearts_env.single_agent_env("hearts", "random", seed=3)
    obs, state = env._observation(), env.np_random.bit_generator.state
    with pytest.raises(ValueError, match="dealer must be a seat 0..3"):
        env.reset(seed=9, options={"dealer": 7})
    assert np.array_equal(env._observation(), obs) and env.np_random.bit_generator.state == state


def test_an_opponent_that_plays_badly_is_named() -> None:
    class Stubborn:
        def __init__(self, action) -> None:
            self.action = action

        def act(self, obs, rng):
            return self.action

        def __repr__(self) -> str:
            return "Stubborn()"

    with pytest.raises(ValueError, match=r"^opponent at seat 1 \(Stubborn\(\)\): "):
        hearts_env.single_agent_env("hearts", Stubborn(np.array([60])), seed=0).step(0)
    with pytest.raises(TypeError, match=r"^opponent at seat 1 \(Stubborn\(\)\): actions must be 1 ints"):
        hearts_env.single_agent_env("hearts", Stubborn(np.array([1.0])), seed=0)


def test_terminate_forfeits_the_deal_at_the_maximum_penalty() -> None:
    env = hearts_env.single_agent_env("hearts", "random", illegal_action="terminate")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(int(np.flatnonzero(~env.action_masks())[0]))
    assert terminated and info["illegal_action"] and reward == -26


def test_stepping_outside_an_episode_is_refused() -> None:
    env = hearts_env.single_agent_env("hearts", "random")
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    play_deal(env, 0, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.step(0)


def test_ansi_rendering_passes_through() -> None:
    env = hearts_env.single_agent_env("hearts", "random", render_mode="ansi", seed=0)
    assert "hearts" in env.render()


@pytest.mark.parametrize("preset", ["hearts", "smear_partnership", "auction_hearts"])
def test_check_env_passes_with_illegal_action_terminate(preset: str) -> None:
    """check_env samples the action space without the mask: with ``illegal_action="terminate"``
    an illegal sample forfeits the deal instead of raising. Its warnings about the observation
    bounds are the shared space's (game scores are unbounded)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(hearts_env.single_agent_env(preset, "random", illegal_action="terminate"))


def test_an_opponent_name_is_found_through_the_entry_point_group() -> None:
    assert registered_agent("strategy") is agents.agent_class("strategy")
    with pytest.raises(ValueError, match=r"'nobody' is not a registered agent name: choose one of .*random"):
        registered_agent("nobody")
