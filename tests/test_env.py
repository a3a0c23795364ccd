"""The PettingZoo environment: API and seed tests for every preset and player count, infos,
rewards, reset options, rendering, pickling and bad input."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import hearts_env
from hearts_env.core.cards import parse_card, parse_cards
from hearts_env.presets import all_configs


def play_out(env, rng: np.random.Generator) -> dict[str, dict]:
    """Random legal play until every agent is done; returns the last infos."""
    infos = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if info:
            infos[agent] = info
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return infos


@pytest.mark.parametrize(("preset", "players"), all_configs())
def test_api_and_seed(preset: str, players: int) -> None:
    api_test(hearts_env.env(preset, num_players=players), num_cycles=300)
    seed_test(lambda: hearts_env.env(preset, num_players=players), num_cycles=300)


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("partnership_hearts", {"version": "B"}),
        ("partnership_hearts", {"version": "C"}),
        ("hearts", {"moon": "shooter_choice"}),
        ("chasse_coeur", {"moon": "shooter_choice"}),
        ("joker_hearts", {"jokers": 2}),
        ("heartsette", {"reading": "modern"}),
    ],
)
def test_api_and_seed_of_versions_and_options(preset: str, options: dict) -> None:
    """What ``all_configs()`` does not enumerate: Partnership B and C, the shooter's choice, …"""
    api_test(hearts_env.env(preset, **options), num_cycles=300)
    seed_test(lambda: hearts_env.env(preset, **options), num_cycles=300)


def test_game_episode_api() -> None:
    api_test(hearts_env.env("hearts", episode="game", target_score=30), num_cycles=500)


def rewards_and_infos(env, rng: np.random.Generator) -> tuple[dict[str, float], dict[str, dict]]:
    """Random legal play to the end of the episode: each agent's summed reward and last info."""
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    infos = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        rewards[agent] += reward
        infos[agent] = info
        env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return rewards, infos


def test_deal_rewards_and_infos() -> None:
    env = hearts_env.env("hearts")
    env.reset(seed=3)
    rewards, infos = rewards_and_infos(env, np.random.default_rng(0))
    points = [infos[a]["deal_points"] for a in env.possible_agents]
    assert sum(points) in (26, 78)  # 26, or 3 x 26 after a moon
    assert [rewards[a] for a in env.possible_agents] == [-p for p in points]
    assert [infos[a]["total_points"] for a in env.possible_agents] == points


def test_zero_sum_reward() -> None:
    env = hearts_env.env("hearts", reward="zero_sum")
    env.reset(seed=5)
    rewards, infos = rewards_and_infos(env, np.random.default_rng(1))
    points = np.array([infos[a]["deal_points"] for a in env.possible_agents], float)
    rewards = np.array([rewards[a] for a in env.possible_agents])
    expected = (points.sum() - points) / 3 - points
    assert np.allclose(rewards, expected)
    assert abs(rewards.sum()) < 1e-9


def test_deal_episodes_continue_the_game() -> None:
    """reset() without a seed plays the next deal: dealer and pass direction move on."""
    env = hearts_env.env("hearts")
    env.reset(seed=1)
    raw = env.unwrapped
    seen = []
    for _ in range(5):
        seen.append((int(raw.table.state.dealer[0]), int(raw.table.state.pass_direction[0])))
        play_out(env, np.random.default_rng(2))
        env.reset()
    assert [d for d, _ in seen] == [0, 1, 2, 3, 0]
    assert [p for _, p in seen] == [0, 1, 2, 3, 0]  # left, right, across, hold, left


def test_game_episode_ends_at_target() -> None:
    env = hearts_env.env("hearts", episode="game", target_score=50)
    env.reset(seed=2)
    infos = play_out(env, np.random.default_rng(3))
    totals = [infos[a]["total_points"] for a in env.possible_agents]
    assert max(totals) >= 50
    assert all(info["game_over"] for info in infos.values())


def test_fixed_deal_and_options() -> None:
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    env = hearts_env.env("hearts")
    env.reset(options={"hands": [h.split() for h in hands], "dealer": 2, "pass_direction": "hold"})
    assert env.agent_selection == "player_0"  # holds 2♣
    mask = env.observe("player_0")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [parse_card("2C")]
    assert not env.observe("player_1")["action_mask"].any()
    env.reset(options={"hands": [h.split() for h in hands], "dealer": 0, "pass_direction": "across"})
    assert env.agent_selection == "player_1"  # eldest passes first
    assert np.flatnonzero(env.observe("player_1")["action_mask"]).tolist() == parse_cards(hands[1])


def test_unknown_reset_options_are_refused_but_pettingzoos_probe() -> None:
    """An unknown key is refused, naming the known ones; PettingZoo's api_test probe key
    ``"options"`` is the one tolerated (docs/reliability.md)."""
    env = hearts_env.env("hearts")
    with pytest.raises(ValueError, match=r"'something_else'.*dealer"):
        env.reset(seed=0, options={"something_else": 1})
    env.reset(seed=0, options={"options": 1})
    assert env.agent_selection == "player_1"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"hands": [["2C"] * 13] * 4}, "dealt twice"),
        ({"hands": [["2C", "3C"]] * 4}, "13 cards"),
        ({"dealer": 7}, "dealer"),
        ({"pass_direction": "up"}, "pass_direction"),
    ],
)
def test_bad_reset_options_change_nothing(options: dict, message: str) -> None:
    env = hearts_env.env("hearts")
    env.reset(seed=4)
    before = env.unwrapped.table.state.copy()
    with pytest.raises(ValueError, match=message):
        env.reset(options=options)
    after = env.unwrapped.table.state
    assert all(np.array_equal(getattr(before, f), getattr(after, f)) for f in vars(before))


def test_across_is_impossible_with_three_players() -> None:
    env = hearts_env.env("hearts", num_players=3)
    with pytest.raises(ValueError, match="across"):
        env.reset(options={"pass_direction": "across"})


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = hearts_env.env("hearts")
    env.reset(seed=0, options={"pass_direction": "hold"})
    raw = env.unwrapped
    agent = env.agent_selection
    before = raw.table.state.copy()
    lowest_club = r"seat \d cannot play .*: the first trick must be led with the lowest club"
    with pytest.raises(ValueError, match=lowest_club):
        hand = raw.layout.view(raw.observe(agent)["observation"], "hand")
        env.step(int(np.flatnonzero(hand)[-1]))  # a held card other than 2♣
    assert all(np.array_equal(getattr(before, f), getattr(raw.table.state, f)) for f in vars(before))


def test_must_follow_message() -> None:
    hands = [
        "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    env = hearts_env.env("hearts")
    env.reset(options={"hands": [h.split() for h in hands], "pass_direction": "hold"})
    env.step(parse_card("2C"))
    with pytest.raises(ValueError, match="seat 1 cannot play 2♦: must follow ♣"):
        env.step(parse_card("2D"))


def test_terminate_option_charges_the_offender() -> None:
    env = hearts_env.env("black_maria", illegal_action="terminate")
    env.reset(seed=0)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    raw = env.unwrapped
    assert all(raw.terminations.values())
    assert raw.infos[offender]["deal_points"] == 43
    assert raw.infos[offender]["illegal_action"]
    assert raw.rewards[offender] == -43
    assert sum(raw.infos[a]["deal_points"] for a in raw.possible_agents) == 43


@pytest.mark.parametrize(("preset", "options"), [
    ("no_such_game", {}), ("hearts", {"num_players": 9}), ("hearts", {"moon": "sometimes"}),
    ("hearts", {"colour": "red"}), ("black_maria", {"reading": "nope"}),
])  # fmt: skip
def test_bad_configuration(preset: str, options: dict) -> None:
    with pytest.raises(ValueError):
        hearts_env.env(preset, **options)


def test_render_ansi_and_human(capsys: pytest.CaptureFixture) -> None:
    env = hearts_env.env("hearts", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "player_0" in text and "♠" in text and "pass left" in text
    human = hearts_env.env("hearts", render_mode="human")
    human.reset(seed=0)
    assert "player_3" in capsys.readouterr().out


def test_pickle_round_trip() -> None:
    env = hearts_env.env("hearts")
    env.reset(seed=9)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    clone = pickle.loads(pickle.dumps(env))
    for agent in env.possible_agents:
        a, b = env.observe(agent), clone.observe(agent)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize(("preset", "players"), all_configs())
def test_the_observation_space_contains_every_observation(preset: str, players: int) -> None:
    """Every agent's observation at every step of two deals lies in its observation space (the
    bounds come from the rules: bonus cards are negative, two decks count to 2, …)."""
    env = hearts_env.env(preset, num_players=players)
    rng = np.random.default_rng(players)
    for seed in (0, 1):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            for other in env.agents:
                assert env.observation_space(other).contains(env.observe(other)), (preset, players, other)
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_render_takes_the_mode_as_an_argument() -> None:
    """RLlib's PettingZooEnv calls ``render(mode)``: the argument overrides ``render_mode``."""
    env = hearts_env.env("hearts")
    env.reset(seed=0)
    assert env.render("ansi").startswith("hearts (4 players)")
    with pytest.raises(ValueError, match="'rgb_array'"):
        env.render("rgb_array")
    assert hearts_env.env("hearts", render_mode="ansi").unwrapped.render_mode == "ansi"
