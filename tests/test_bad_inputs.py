"""Every bad input a user can give, in one table per surface (the hardening issue's list).

Each case asserts the exception type and that the message names the offending value. For the
environments it also asserts that nothing changed: the table's whole state (and its random
generator) equals a snapshot taken before the bad call, and the deal then plays to its end with
the right points total.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import hearts_env
from hearts_env.env import raw_env
from hearts_env.presets import make_rules


@dataclass(frozen=True)
class Case:
    """One bad input: what to call, the exception type, and text its message must contain."""

    name: str
    call: Callable[[Any], Any]
    error: type[BaseException]
    says: str


def ids(cases: list[Case]) -> list[str]:
    return [c.name for c in cases]


# ---------------------------------------------------------------------- rules and options
RULES_CASES = [
    Case("unknown preset", lambda _: make_rules("bridge"), ValueError, "'bridge'"),
    Case("players out of range", lambda _: make_rules("hearts", 7), ValueError, "num_players=7"),
    Case("players float", lambda _: make_rules("hearts", 4.0), TypeError, "4.0"),
    Case("players str", lambda _: make_rules("hearts", "4"), TypeError, "'4'"),
    Case("players bool", lambda _: make_rules("hearts", True), TypeError, "True"),
    Case("bool option as str", lambda _: make_rules(queen_needs_break="no"), TypeError, "'no'"),
    Case("bool option as int", lambda _: make_rules(club_play=1), TypeError, "club_play"),
    Case("no_tricks_bonus str", lambda _: make_rules(no_tricks_bonus="x"), TypeError, "'x'"),
    Case("no_tricks_bonus float", lambda _: make_rules(no_tricks_bonus=-5.0), TypeError, "-5.0"),
    Case("no_tricks_bonus huge", lambda _: make_rules(no_tricks_bonus=10**9), ValueError, "1000000000"),
    Case("pass_count float", lambda _: make_rules(pass_count=2.5), TypeError, "2.5"),
    Case("pass_count str", lambda _: make_rules(pass_count="3"), TypeError, "'3'"),
    Case("pass_count too many", lambda _: make_rules(pass_count=14), ValueError, "pass_count=14"),
    Case("pass_count negative", lambda _: make_rules(pass_count=-1), ValueError, "-1"),
    Case("moon_points float", lambda _: make_rules(moon_points=1.5), TypeError, "1.5"),
    Case("target_score zero", lambda _: make_rules(target_score=0), ValueError, "target_score=0"),
    Case("target_score str", lambda _: make_rules(target_score="100"), TypeError, "'100'"),
    Case("max_deals float", lambda _: make_rules(max_deals=3.5), TypeError, "3.5"),
    Case("max_deals zero", lambda _: make_rules(max_deals=0), ValueError, "max_deals=0"),
    Case("card value str", lambda _: make_rules(card_points={"QS": "lots"}), TypeError, "'lots'"),
    Case("card value float", lambda _: make_rules(card_points={"QS": 13.5}), TypeError, "13.5"),
    Case("card value huge", lambda _: make_rules(card_points={"QS": 10**6}), ValueError, "1000000"),
    Case("card name unknown", lambda _: make_rules(card_points={"ZZ": 1}), ValueError, "'ZZ'"),
    Case("card_points not a mapping", lambda _: make_rules(card_points=[1, 2]), TypeError, "[1, 2]"),
    Case("moon unknown", lambda _: make_rules(moon="double"), ValueError, "'double'"),
    Case("moon not a string", lambda _: make_rules(moon=1), TypeError, "moon=1"),
    Case(
        "moon shooter_choice",
        lambda _: make_rules(moon="shooter_choice"),
        NotImplementedError,
        "not available",
    ),
    Case("first trick rule unknown", lambda _: make_rules(first_trick_all_penalty="x"), ValueError, "'x'"),
    Case(
        "first trick rule without the restriction",
        lambda _: make_rules("black_maria", first_trick_all_penalty="redeal"),
        ValueError,
        "'redeal'",
    ),
    Case("pass direction unknown", lambda _: make_rules(pass_directions=("up",)), ValueError, "'up'"),
    Case("pass directions not a list", lambda _: make_rules(pass_directions=5), TypeError, "5"),
    Case(
        "across with 5", lambda _: make_rules("hearts", 5, pass_directions=("across",)), ValueError, "across"
    ),
    Case("removed not a list", lambda _: make_rules(removed=5), TypeError, "5"),
    Case("removed unknown card", lambda _: make_rules(removed=["2X"]), ValueError, "'2X'"),
    Case("removed leaves unequal hands", lambda _: make_rules(removed=("2C",)), ValueError, "51 cards"),
    Case("unknown option", lambda _: make_rules(target=50), ValueError, "'target'"),
    Case("unknown reading", lambda _: make_rules(reading="modern"), ValueError, "'modern'"),
    Case("unknown removal", lambda _: make_rules(removal="mine"), ValueError, "'mine'"),
    Case("episode unknown", lambda _: make_rules(episode="trick"), ValueError, "'trick'"),
    Case("illegal_action unknown", lambda _: make_rules(illegal_action="ignore"), ValueError, "'ignore'"),
    Case("discard_first unknown", lambda _: make_rules(discard_first="QX"), ValueError, "'QX'"),
    Case("env reward unknown", lambda _: hearts_env.env("hearts", reward="win"), ValueError, "'win'"),
    Case(
        "env render_mode unknown", lambda _: hearts_env.env("hearts", render_mode="rgb"), ValueError, "'rgb'"
    ),
]


@pytest.mark.parametrize("case", RULES_CASES, ids=ids(RULES_CASES))
def test_rules_cases(case: Case) -> None:
    with pytest.raises(case.error) as raised:
        case.call(None)
    assert case.says in str(raised.value), str(raised.value)


def test_numpy_integers_are_ints() -> None:
    rules = make_rules("hearts", np.int64(4), target_score=np.int32(50), club_play=np.bool_(True))
    assert rules.num_players == 4 and type(rules.num_players) is int
    assert type(rules.target_score) is int and rules.club_play is True
    assert hearts_env.env("hearts", num_players=np.int64(3)).unwrapped.rules.num_players == 3


# ---------------------------------------------------------------------- the PettingZoo envs
def started(wrapped: bool, steps: int = 5, **options: Any) -> Any:
    """A standard Hearts env reset with a seed and ``steps`` random legal decisions in."""
    env = hearts_env.env("hearts", **options) if wrapped else raw_env("hearts", **options)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env


def snapshot(env: Any) -> dict[str, Any]:
    """Everything a bad call could change: the table (arrays and generator) and the AEC books."""
    raw = env.unwrapped
    saved = raw.table.state_dict()
    return {
        "fields": saved["fields"],
        "rng": saved["rng"],
        "agent": raw.agent_selection,
        "agents": list(raw.agents),
        "rewards": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
    }


def assert_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert before.keys() == after.keys()
    for name, value in before["fields"].items():
        np.testing.assert_array_equal(value, after["fields"][name], err_msg=name)
    for key in ("rng", "agent", "agents", "rewards", "terminations"):
        assert before[key] == after[key], key


def play_out(env: Any) -> list[int]:
    """Play the deal to its end with random legal cards; its points, checked to total 26 (or
    78 after a moon)."""
    rng = np.random.default_rng(1)
    final: dict[str, int] = {}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = info["deal_points"]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    points = [final[a] for a in env.unwrapped.possible_agents]
    assert sum(points) in (26, 78), points
    return points


ACTION_CASES = [
    Case("bool", lambda e: e.step(True), TypeError, "True"),
    Case("numpy bool", lambda e: e.step(np.bool_(False)), TypeError, "False"),
    Case("float integral", lambda e: e.step(3.0), TypeError, "3.0"),
    Case("float", lambda e: e.step(42.7), TypeError, "42.7"),
    Case("nan", lambda e: e.step(float("nan")), TypeError, "nan"),
    Case("numpy float", lambda e: e.step(np.float32(5)), TypeError, "5.0"),
    Case("string", lambda e: e.step("QS"), TypeError, "'QS'"),
    Case("list", lambda e: e.step([3]), TypeError, "[3]"),
    Case("array of two", lambda e: e.step(np.array([1, 2])), TypeError, "(2,)"),
    Case("float array", lambda e: e.step(np.array(3.0)), TypeError, "3.0"),
    Case("None for the acting agent", lambda e: e.step(None), TypeError, "None"),
    Case("out of range", lambda e: e.step(52), ValueError, "52"),
    Case("negative", lambda e: e.step(-1), ValueError, "-1"),
    Case("huge", lambda e: e.step(2**70), ValueError, str(2**70)),
    Case("not held", lambda e: e.step(held_by_other(e)), ValueError, "does not hold it"),
    Case("reset options not a dict", lambda e: e.reset(options=5), TypeError, "5"),
    Case("reset seeded options not a dict", lambda e: e.reset(seed=9, options=5), TypeError, "5"),
    Case("reset dealer out of range", lambda e: e.reset(seed=9, options={"dealer": 9}), ValueError, "9"),
    Case("reset dealer bool", lambda e: e.reset(options={"dealer": True}), TypeError, "True"),
    Case("reset dealer float", lambda e: e.reset(options={"dealer": 1.0}), TypeError, "1.0"),
    Case("reset direction", lambda e: e.reset(options={"pass_direction": "up"}), ValueError, "'up'"),
    Case("reset hands not lists", lambda e: e.reset(options={"hands": "2C 3C"}), TypeError, "'2C 3C'"),
    Case("reset hands of strings", lambda e: e.reset(options={"hands": ["2C", "3C"]}), TypeError, "'2C'"),
    Case("reset hands int", lambda e: e.reset(options={"hands": 5}), TypeError, "5"),
    Case(
        "reset hands too few", lambda e: e.reset(seed=4, options={"hands": [["2C"]] * 4}), ValueError, "[1, 1"
    ),
    Case("reset hands repeat", lambda e: e.reset(options={"hands": repeated_deal()}), ValueError, "2C"),
    Case("reset hands bad card", lambda e: e.reset(options={"hands": bad_card_deal()}), ValueError, "'1Z'"),
    Case("reset new_game str", lambda e: e.reset(options={"new_game": "yes"}), TypeError, "'yes'"),
    Case("reset seed negative", lambda e: e.reset(seed=-1), TypeError, "-1"),
    Case("reset seed float", lambda e: e.reset(seed=1.5), TypeError, "1.5"),
]


def held_by_other(env: Any) -> int:
    """A card the acting agent does not hold."""
    mask = env.observe(env.agent_selection)["action_mask"]
    hand = env.unwrapped.layout.view(env.observe(env.agent_selection)["observation"], "hand")
    return int(np.flatnonzero((hand == 0) & (mask == 0))[0])


def a_deal() -> list[list[str]]:
    cards = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    return [cards[i::4] for i in range(4)]


def repeated_deal() -> list[list[str]]:
    hands = a_deal()
    hands[1][0] = hands[0][0]  # 2C twice
    return hands


def bad_card_deal() -> list[list[str]]:
    hands = a_deal()
    hands[2][0] = "1Z"
    return hands


@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
@pytest.mark.parametrize("case", ACTION_CASES, ids=ids(ACTION_CASES))
def test_env_cases(case: Case, wrapped: bool) -> None:
    env = started(wrapped)
    before = snapshot(env)
    with pytest.raises(case.error) as raised:
        case.call(env)
    message = str(raised.value)
    assert case.says in message, message
    if "step" in case.name or not case.name.startswith("reset"):
        assert env.agent_selection in message or "None" in case.name, message
    assert_same(before, snapshot(env))
    play_out(env)


@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
def test_lifecycle(wrapped: bool) -> None:
    env = hearts_env.env("hearts") if wrapped else raw_env("hearts")
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.render()):
        with pytest.raises(RuntimeError, match=r"reset\(\)"):
            call()
    env.reset(seed=0)
    play_out(env)
    assert not env.agents
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step(0)
    env.reset()  # the next deal goes on
    env.close()
    for call in (lambda: env.step(0), lambda: env.reset(seed=0)):
        with pytest.raises(RuntimeError, match="closed"):
            call()


def test_dead_agent_takes_only_none() -> None:
    env = started(True, steps=0, illegal_action="terminate")
    env.step(held_by_other(env))  # terminates the deal
    assert all(env.unwrapped.terminations.values())
    with pytest.raises(ValueError, match="only action is None"):
        env.step(0)
    play_out(env)


def test_failed_seeded_reset_keeps_the_generator() -> None:
    """A seeded reset with a bad option changes nothing, so the next unseeded reset deals as
    if it had not been tried."""
    tried, untouched = started(True), started(True)
    with pytest.raises(ValueError):
        tried.reset(seed=123, options={"dealer": 9})
    for env in (tried, untouched):
        play_out(env)
        env.reset()
    np.testing.assert_array_equal(tried.unwrapped.table.state.hands, untouched.unwrapped.table.state.hands)
