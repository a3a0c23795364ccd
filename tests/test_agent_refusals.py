"""Agents and their specs refuse what they cannot use, when they are built (issue 41, item 5):
a parameter given twice or empty, a value its annotation does not take (built-in and file
agents, ``from __future__`` annotations included), a constructor that fails, a pimc search
larger than its memory limit, another configuration's observation; and ``agents.make`` plays
the preset's default player count."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import agents
from agents import specs as agent_specs
from agents.specs import build_agent, parse
from hearts_env.observation import layout
from hearts_env.presets import make_rules
from hearts_env.table import Table

AGENT_FILE = '''
from __future__ import annotations

from typing import Literal, Optional

import numpy as np

from agents import Agent


class Careful(Agent):
    """The first legal action; its parameters are what the tests check."""

    def __init__(
        self,
        rules,
        *,
        caution: float = 1.0,
        depth: int = 1,
        name: str = "x",
        style: Literal["calm", "wild"] = "calm",
        limit: Optional[int] = None,
        anything=None,
    ) -> None:
        super().__init__(rules)
        self.caution, self.depth, self.name, self.style, self.limit = caution, depth, name, style, limit

    def act(self, obs, rng):
        return np.argmax(np.asarray(obs["action_mask"]) > 0, axis=1)


class Broken(Agent):
    def __init__(self, rules) -> None:
        raise RuntimeError("the model server is down")

    def act(self, obs, rng):
        return np.zeros(len(obs["action_mask"]), np.int64)
'''

HEARTS = make_rules("hearts")


@pytest.fixture(scope="module")
def agent_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("agents") / "careful.py"
    path.write_text(AGENT_FILE)
    return path


# ---------------------------------------------------------------------- the spec's grammar
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:worlds=4:worlds=8", r"worlds is given twice \(worlds=4 and worlds=8\)"),
        ("strategy:label=a:label=b", "label is given twice"),
        ("pimc:worlds=", "worlds= needs a value"),
        ("pimc:worlds= ", "worlds= needs a value"),
        ("strategy:", "'' is not key=value"),
        (":x=1", "empty agent name"),
        ("", "empty agent name"),
    ],
)
def test_a_repeated_or_empty_part_of_a_spec_is_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        parse(spec)
    assert "\n" not in str(refused.value) and repr(spec) in str(refused.value)


# ---------------------------------------------------------------------- parameter types
@pytest.mark.parametrize(
    ("params", "message"),
    [
        ("caution=abc", "Careful parameter caution must be a number, got str 'abc'"),
        ("caution=true", "Careful parameter caution must be a number, got bool True"),
        ("depth=2.5", "Careful parameter depth must be an int, got float 2.5"),
        ("style=loud", "Careful parameter style must be one of 'calm', 'wild', got str 'loud'"),
        ("limit=many", "Careful parameter limit must be an int or None, got str 'many'"),
        ("width=3", r"Careful has no parameter\(s\) width; its parameters: caution, depth"),
    ],
)
def test_a_file_agents_parameters_are_checked_against_its_annotations(
    agent_file: Path, params: str, message: str
) -> None:
    spec = f"{agent_file}:Careful:{params}"
    with pytest.raises(ValueError, match=message) as refused:
        build_agent(spec, HEARTS)
    assert isinstance(refused.value, TypeError)  # a ValueError for commands, a TypeError for code
    assert str(refused.value).startswith(f"agent spec {spec!r}: ") and "\n" not in str(refused.value)
    with pytest.raises(ValueError, match=message.split(" got ")[0]):
        agent_specs.check(spec)  # what commands run before they start: nothing is built


def test_values_the_annotations_take_are_given_as_they_take_them(agent_file: Path) -> None:
    agent = build_agent(f"{agent_file}:Careful:caution=3:name=123:style=wild:limit=4:anything=abc", HEARTS)
    assert (agent.caution, agent.name, agent.style, agent.limit) == (3.0, "123", "wild", 4)
    assert isinstance(agent.caution, float) and isinstance(agent.name, str)
    agent = agents.from_rules(f"{agent_file}:Careful", HEARTS, caution=np.float32(0.5), depth=np.int64(2))
    assert (agent.caution, agent.depth) == (0.5, 2)
    with pytest.raises(TypeError, match="Careful parameter depth must be an int, got bool True"):
        agents.from_rules(f"{agent_file}:Careful", HEARTS, depth=True)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:worlds=abc", "pimc parameter worlds must be an int, got str 'abc'"),
        ("pimc:margin=wide", "pimc parameter margin must be a number, got str 'wide'"),
        ("pimc:bids=3", "pimc parameter bids must be true or false, got int 3"),
        ("ismcts:uct_c=x", "ismcts parameter uct_c must be a number, got str 'x'"),
        ("ppo:greedy=maybe", "ppo parameter greedy must be true or false, got str 'maybe'"),
    ],
)
def test_a_built_in_agents_parameters_are_checked_before_it_is_built(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        agent_specs.check(spec)


def test_smear_parameters_are_checked_when_built_not_at_the_first_act() -> None:
    with pytest.raises(TypeError, match="smear parameter game_weight must be a number, got str 'heavy'"):
        agents.make("smear", "smear_partnership", game_weight="heavy")


def test_a_constructor_that_fails_is_one_value_error_naming_the_spec(agent_file: Path) -> None:
    spec = f"{agent_file}:Broken"
    for build in (lambda: build_agent(spec, HEARTS), lambda: agents.from_spec(spec, HEARTS)):
        with pytest.raises(
            ValueError, match="building Broken failed: RuntimeError: the model server is down"
        ):
            build()
    with pytest.raises(ValueError) as refused:
        build_agent(spec, HEARTS)
    assert repr(spec) in str(refused.value) and isinstance(refused.value.__cause__, RuntimeError)


# ---------------------------------------------------------------------- pimc's memory
@pytest.mark.parametrize(
    ("preset", "params", "message"),
    [
        ("hearts", {"worlds": 10**7}, r"worlds=10000000 needs about .* GiB for one decision"),
        ("smear_partnership", {"bid_worlds": 10**9}, r"bid_worlds=1000000000 needs about .* GiB"),
        ("hearts", {"worlds": 0}, "worlds must be a positive int, got 0"),
        ("hearts", {"memory_gb": 0}, "memory_gb must be a positive number"),
        ("hearts", {"worlds": 64, "memory_gb": 0.01}, r"over memory_gb=0.01"),
    ],
)
def test_pimc_refuses_a_search_over_its_memory_limit_when_built(
    preset: str, params: dict, message: str
) -> None:
    rollout = {"rollout": "random"} if preset.startswith("smear") else {"rollout": "fast"}
    with pytest.raises(ValueError, match=message):
        agents.make("pimc", preset, fallback="random", **rollout, **params)


def test_pimc_searches_a_batch_over_its_limit_in_groups_that_fit() -> None:
    from agents.pimc import BYTES_PER_GAME, search_bytes

    assert search_bytes(100) == 128 * BYTES_PER_GAME  # the table is rounded up to a power of two
    table = Table(HEARTS, 12)
    table.reset(seed=1)
    playing = layout(HEARTS).slices["phase"].start + HEARTS.phases.index("playing")

    def searched() -> np.ndarray:  # every game at a card play with a choice
        return (table.observe()[:, playing] > 0) & (table.action_mask()[:, :52].sum(axis=1) > 1)

    while not searched().all():
        table.step(np.array([np.flatnonzero(row)[0] for row in table.action_mask()]))
    obs = {"observation": table.observe(), "action_mask": table.action_mask()}
    rng = np.random.default_rng(0)
    full_hand = search_bytes(8 * HEARTS.hand_size)  # the least limit pimc with 8 worlds accepts
    small = agents.make("pimc", worlds=8, rollout="fast", fallback="random", memory_gb=full_hand / 2**30)
    sizes = []
    search = small._search
    small._search = lambda observations, *rest: sizes.append(len(observations)) or search(observations, *rest)
    actions = small.act(obs, rng)
    assert len(sizes) > 1 and sum(sizes) == 12  # several engine batches, every row searched once
    assert all(obs["action_mask"][np.arange(12), actions] > 0)


# ---------------------------------------------------------------------- player counts and widths
def test_make_without_a_player_count_plays_the_presets_default() -> None:
    agent = agents.make("strategy", preset="black_maria")
    assert agent.rules.num_players == make_rules("black_maria").num_players == 3
    assert agent.layout.size == layout(make_rules("black_maria")).size


BUILT_IN = [
    ("random", "hearts", {}),
    ("lowest", "hearts", {}),
    ("ducker", "hearts", {}),
    ("strategy", "hearts", {}),
    ("pimc", "hearts", {"worlds": 2, "rollout": "fast", "fallback": "random"}),
    ("smear", "smear_partnership", {}),
    ("lowest", "smear_partnership", {}),
]


@pytest.mark.parametrize(("name", "preset", "params"), BUILT_IN)
def test_every_agent_refuses_an_observation_of_another_width(name: str, preset: str, params: dict) -> None:
    agent = agents.make(name, preset, **params)
    own = layout(agent.rules)
    other = make_rules(preset, num_players=3) if preset == "hearts" else make_rules("smear_five_point")
    foreign = {
        "observation": np.zeros((2, layout(other).size), np.float32),
        "action_mask": np.ones((2, len(agent.rules.action_names)), np.int8),
    }
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=rf"expected \(B, {own.size}\)"):
        agent.act(foreign, rng)
    with pytest.raises(ValueError, match=rf"expected \(B, {own.size}\)"):
        agent.act_one({key: value[0] for key, value in foreign.items()}, rng)


def test_ppo_refuses_an_observation_of_another_width() -> None:
    pytest.importorskip("torch")
    agent = agents.make("ppo")
    foreign = {
        "observation": np.zeros((1, layout(make_rules("hearts", num_players=3)).size), np.float32),
        "action_mask": np.ones((1, 52), np.int8),
    }
    with pytest.raises(ValueError, match=r"expected \(B, 660\)"):
        agent.act(foreign, np.random.default_rng(0))
