"""The conformance kit (:mod:`hearts_env.testing`): every preset passes ``check_family``, every
registered agent ``check_agent`` on each family's first preset where it plays it, and the kit
catches a broken family or agent, naming the check."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import agents
import hearts_env
from hearts_env.core.rules import Rules
from hearts_env.presets import PRESETS, make_rules
from hearts_env.table import Table
from hearts_env.testing import AGENT_CHECKS, FAMILY_CHECKS, Report, check_agent, check_family
from hearts_env.vector import HeartsVectorEnv

HAS_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
HAS_TORCH = importlib.util.find_spec("torch") is not None

FIRST_PRESETS = list({p.game: name for name, p in reversed(PRESETS.items())}.values())[::-1]
"""The first preset of each game family (the table's order)."""
PARAMS: dict[str, dict[str, Any]] = {
    "ismcts": {"simulations": 4},
    "pimc": {"worlds": 2, "rollout": "random", "fallback": "random"},
}
"""Agent parameters that keep the checks quick."""
NOT_REPRODUCIBLE = {"ismcts"}
"""Agents that choose differently with generators of the same seed: OpenSpiel's ISMCTSBot, seeded
from the generator, still answers differently from one build (or call) to the next."""
NEEDS = {"ismcts": HAS_OPENSPIEL, "ppo": HAS_TORCH}
AGENT_CASES = [
    (name, preset)
    for name in agents.names()
    for preset in FIRST_PRESETS
    if agents.refusal(name, make_rules(preset)) is None
]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_passes_the_family_kit(preset: str) -> None:
    report = check_family(preset)
    assert report.passed == FAMILY_CHECKS and not report.skipped, report
    assert report.subject == f"{preset} with {PRESETS[preset].default_players} players"


@pytest.mark.parametrize(("name", "preset"), AGENT_CASES, ids=[f"{n}-{p}" for n, p in AGENT_CASES])
def test_every_registered_agent_passes_the_agent_kit(name: str, preset: str) -> None:
    if not NEEDS.get(name, True):
        pytest.skip(f"the {name} agent needs an optional library")
    agent = agents.make(name, preset, **PARAMS.get(name, {}))
    games = 1 if name == "pimc" else 4
    report = check_agent(agent, preset, games=games, deals=1, reproducible=name not in NOT_REPRODUCIBLE)
    expected = tuple(c for c in AGENT_CHECKS if c != "reproducible" or name not in NOT_REPRODUCIBLE)
    assert report.passed == expected, report


def test_every_family_and_agent_is_covered() -> None:
    assert len(FIRST_PRESETS) == len({p.game for p in PRESETS.values()}) >= 2
    assert {name for name, _ in AGENT_CASES} == set(agents.names())


def test_an_agent_is_found_by_its_registered_name_or_built_from_its_class() -> None:
    assert check_agent("lowest", "black_maria", deals=1).passed == AGENT_CHECKS
    assert check_agent(agents.agent_class("random"), "smear_widow", deals=1).passed == AGENT_CHECKS
    with pytest.raises(ValueError, match="'no_such_agent' is not a registered agent name"):
        check_agent("no_such_agent", "hearts")
    with pytest.raises(ValueError, match="built for black_maria with 3 players, not for hearts with 4"):
        check_agent(agents.make("random", "black_maria"), "hearts")
    with pytest.raises(ValueError, match="deals must be a positive int, got 0"):
        check_family("hearts", deals=0)


def test_the_documented_snippet_runs() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "conformance.md").read_text(encoding="utf-8")
    snippet = re.search(r"(?ms)^```python\n(.*?)^```", text)
    assert snippet and "check_agent(FirstLegal" in snippet.group(1)
    exec(compile(snippet.group(1), "docs/conformance.md", "exec"), {})  # noqa: S102  (our own page)


def test_a_report_says_what_was_checked_and_skipped() -> None:
    text = str(Report("hearts with 4 players", ("masks", "rewards"), (("positions", "none"),), 10))
    assert text == "hearts with 4 players: passed masks, rewards (10 decisions); skipped positions (none)"


# ---------------------------------------------------------------------- broken agents
class _Cheapest:
    """A minimal agent outside the class hierarchy: the first legal action, and the width check
    that ``agents.Agent`` would make. Subclasses each break one promise."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.size = rules, hearts_env.layout(rules).size

    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator) -> Any:
        if obs["observation"].shape[1] != self.size:
            raise ValueError(f"observation of width {obs['observation'].shape[1]}, expected {self.size}")
        return np.argmax(obs["action_mask"], axis=1)


class _Illegal(_Cheapest):
    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator) -> Any:
        return np.argmin(obs["action_mask"], axis=1)  # a masked-out action where there is one


class _Column(_Cheapest):
    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator) -> Any:
        return super().act(obs, rng)[:, None]


class _Floats(_Cheapest):
    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator) -> Any:
        return super().act(obs, rng).astype(np.float64)


class _Unseeded(_Cheapest):
    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator) -> Any:
        weights = np.random.default_rng().random(obs["action_mask"].shape) * obs["action_mask"]
        return np.argmax(weights, axis=1)  # its own generator: not the one it is given


class _AnyWidth(_Cheapest):
    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator) -> Any:
        return np.argmax(obs["action_mask"], axis=1)


def test_a_minimal_agent_passes() -> None:
    assert check_agent(_Cheapest, "hearts", deals=1).passed == AGENT_CHECKS


@pytest.mark.parametrize(
    ("broken", "check"),
    [
        (_Illegal, "legal actions"),
        (_Column, "shape and dtype"),
        (_Floats, "shape and dtype"),
        (_Unseeded, "reproducible"),
        (_AnyWidth, "another width"),
    ],
)
def test_the_kit_names_the_promise_an_agent_breaks(broken: type, check: str) -> None:
    with pytest.raises(
        AssertionError, match=f"check_agent failed the '{check}' check for agent '{broken.__name__}'"
    ):
        check_agent(broken, "hearts", deals=1)


# ---------------------------------------------------------------------- broken families
def _negated_rewards(table: Table, rows: np.ndarray, original: Any) -> np.ndarray:
    return -original(table, rows)


def _mask_when_over(table: Table, original: Any) -> np.ndarray:
    mask = original(table).copy()
    mask[np.asarray(table.deal_over), 0] = 1
    return mask


def _forgotten_generator(table: Table, original: Any) -> dict[str, Any]:
    return {**original(table), "rng": np.random.default_rng(12345).bit_generator.state}


def _forgotten_settings(table: Table, original: Any) -> dict[str, Any]:
    return {**original(table), "reward": "points", "episode": "deal", "illegal_action": "raise"}


def _settings_overlooked(table: Table, saved: Any, original: Any) -> None:
    original(table, {**saved, **table.settings})


def _doubled_vector_rewards(env: HeartsVectorEnv, actions: Any, original: Any) -> Any:
    obs, reward, terminated, truncated, info = original(env, actions)
    return obs, 2 * reward, terminated, truncated, info


def _float_actions_accepted(action: Any, agent: str, num_actions: int, original: Any) -> int:
    return original(int(action) if isinstance(action, float) else action, agent, num_actions)


def _next_games_position(table: Table, game: int, original: Any) -> Any:
    return original(table, (game + 1) % table.num_games)


BREAKS = [
    ("rewards", Table, "rewards_of", _negated_rewards),
    ("masks", Table, "action_mask", _mask_when_over),
    ("state round trip", Table, "state_dict", _forgotten_generator),
    ("state round trip", Table, "state_dict", _forgotten_settings),
    ("state round trip", Table, "load_state_dict", _settings_overlooked),
    ("batch agreement", HeartsVectorEnv, "step", _doubled_vector_rewards),
    ("bad inputs", importlib.import_module("hearts_env.env"), "action_index", _float_actions_accepted),
    ("positions", Table, "position", _next_games_position),
]
"""(the check that must fail, where, what, a replacement given the original as its last argument)."""


@pytest.mark.parametrize(
    ("check", "owner", "name", "replacement"), BREAKS, ids=[f"{b[0]}: {b[3].__name__}" for b in BREAKS]
)
def test_the_kit_names_the_promise_a_family_breaks(
    monkeypatch: pytest.MonkeyPatch, check: str, owner: Any, name: str, replacement: Any
) -> None:
    original = getattr(owner, name)
    monkeypatch.setattr(owner, name, lambda *args: replacement(*args, original))
    with pytest.raises(
        AssertionError, match=f"check_family failed the '{check}' check for hearts with 4 players"
    ):
        check_family("hearts", games=2)


def test_a_family_without_positions_is_reported_so(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_positions(table: Table, game: int = 0) -> Any:
        raise NotImplementedError("this family has no positions")

    monkeypatch.setattr(Table, "position", no_positions)
    report = check_family("smear_nine_card", games=2)
    assert report.passed == FAMILY_CHECKS[:-1]
    assert report.skipped == (("positions", "Table.position: this family has no positions"),)
