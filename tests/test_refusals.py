"""A refusal leaves everything as it was and usable (issue 41, items 3 and 4): a refused
``Table`` call, ``set_position`` or ``reset(options=...)`` of the AEC, vector (one worker and
two) and single-seat envs changes nothing — the state, the random generator, what the env shows
— and the game then plays on exactly as an untouched twin's. Unknown reset option keys are
refused with the list of known keys; ``Table.position(game)`` checks ``game``; bad ``Table``
fields are errors naming the field, not NumPy's or ``int()``'s words."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import hearts_env
from hearts_env import Position, Table, make_rules

HEARTS = make_rules("hearts")


def position(legal: bool = True) -> Position:
    """Two tricks left in standard Hearts, K♠ led by seat 3. ``legal=False``: seat 0 has
    followed with 2♥ while holding Q♠ — consistent card by card, so only the engine's replay of
    the trick (after it has begun to change the games) finds that the rules forbid it."""
    hands = [["QS", "AS"], ["2H", "3H"], ["4H", "5H"], ["6H"]]
    trick = ["KS"]
    if not legal:
        hands, trick = [["QS"], ["AS", "3H"], ["4H", "5H"], ["6H"]], ["KS", "2H"]
    on_table = {c for h in hands for c in h} | set(trick)
    rest = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA" if f"{r}{s}" not in on_table]
    played = [rest[i::4] for i in range(4)]  # eleven tricks already played
    played[3].append("KS")
    if not legal:
        played[0].append("2H")
    hearts = [c for c in rest if c.endswith("H")]
    taken = [[], hearts, [], [c for c in rest if c not in hearts]]
    return Position(hands=hands, played=played, taken=taken, tricks_won=[0, 2, 0, 9], trick=trick, leader=3)


ILLEGAL_TRICK = "must follow"


def saved(table: Table) -> dict[str, Any]:
    """Everything a table is: its fields and its generator's state."""
    state = table.state_dict()
    return {**state["fields"], "rng": state["rng"]}


def assert_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert before.keys() == after.keys()
    changed = [k for k in before if k != "rng" and not np.array_equal(before[k], after[k])]
    assert not changed, f"a refusal changed {changed}"
    assert before["rng"] == after["rng"], "a refusal moved the random generator"


def play_deal(table: Table, twin: Table) -> None:
    """Both tables play the same legal actions to the end of the deal, then deal the next one
    from their generators: equal all the way."""
    rng = np.random.default_rng(0)
    while not table.deal_over.all():
        mask = table.action_mask()
        np.testing.assert_array_equal(mask, twin.action_mask())
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        table.step(actions)
        twin.step(actions)
    for one in (table, twin):
        one.reset()
    assert_same(saved(table), saved(twin))


def tables(num_games: int = 2) -> tuple[Table, Table]:
    """A table a few steps into a seeded deal, and its twin."""
    pair = Table(HEARTS, num_games), Table(HEARTS, num_games)
    for table in pair:
        table.reset(seed=7)
        for _ in range(5):  # into the passing
            table.step(table.action_mask().argmax(axis=1))
    return pair


def hands_of(table: Table) -> np.ndarray:
    return table.state.hands.copy()


NO_TOTALS = np.zeros((2, 4), np.int64)
TABLE_REFUSALS: list[tuple[str, Callable[[Table], Any], type, str | None]] = [
    ("set_position, trick against the rules", lambda t: t.set_position(position(False)), ValueError,
     ILLEGAL_TRICK),
    ("set_position, not a position", lambda t: t.set_position("QS"), TypeError, None),
    ("reset position, trick against the rules",
     lambda t: t.reset(seed=3, options={"position": position(False)}), ValueError, ILLEGAL_TRICK),
    ("reset position with a dealer", lambda t: t.reset(options={"position": position(), "dealer": 1}),
     ValueError, "exclude each other"),
    ("reset position with new_game", lambda t: t.reset(options={"position": position(), "new_game": True}),
     ValueError, "exclude each other"),
    ("reset unknown key", lambda t: t.reset(seed=3, options={"dealr": 2}), ValueError, "'dealr'"),
    ("reset dealer", lambda t: t.reset(seed=3, options={"dealer": 7}), ValueError, "dealer"),
    ("deal_masks dealer 7", lambda t: t.deal_masks(hands_of(t), dealer=7), ValueError, "dealer"),
    ("deal_masks dealer 'x'", lambda t: t.deal_masks(hands_of(t), dealer="x"), TypeError, "dealer"),
    ("deal_masks pass 'up'", lambda t: t.deal_masks(hands_of(t), pass_direction="up"), ValueError,
     "pass_direction"),
    ("deal_masks pass 9", lambda t: t.deal_masks(hands_of(t), pass_direction=9), ValueError, "pass_dir"),
    ("deal_masks hands of strings", lambda t: t.deal_masks([["2C"] * 4] * 2), TypeError, "hands"),
    ("deal_masks negative hands", lambda t: t.deal_masks(-hands_of(t).astype(np.int64)), TypeError, "hands"),
    ("deal_masks stock", lambda t: t.deal_masks(hands_of(t), stock=[[1]] * 2), ValueError, "stock"),
    ("deal dealer 'x'", lambda t: t.deal(hands_of(t), dealer="x"), TypeError, "dealer"),
    ("deal dealer True", lambda t: t.deal(hands_of(t), dealer=True), TypeError, "dealer"),
    ("deal rest", lambda t: t.deal(hands_of(t), rest="none"), TypeError, "rest"),
    ("restore_games totals 10**30", lambda t: t.restore_games([[10**30, 0, 0, 0]] * 2, 0, False),
     ValueError, "totals"),
    ("restore_games totals 1.5", lambda t: t.restore_games([[1.5, 0, 0, 0]] * 2, 0, False), TypeError,
     "totals"),
    ("restore deal_index -1", lambda t: t.restore_games(NO_TOTALS, -1, False), ValueError, "deal_index"),
    ("restore deal_index '3'", lambda t: t.restore_games(NO_TOTALS, "3", False), TypeError, "deal_index"),
    ("restore_games game_over 'no'", lambda t: t.restore_games(NO_TOTALS, 0, "no"), TypeError, "game_over"),
    ("step illegal card", lambda t: t.step(np.array([52, 52])), ValueError, None),
    ("step floats", lambda t: t.step(np.array([0.0, 1.0])), TypeError, "actions"),
    ("load_state_dict of other rules",
     lambda t: t.load_state_dict(Table(make_rules("black_maria"), 2).state_dict()), ValueError, "other"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "call", "error", "says"), TABLE_REFUSALS, ids=[c[0] for c in TABLE_REFUSALS]
)
def test_a_refused_table_call_changes_nothing(what: str, call: Callable, error: type, says: str) -> None:
    table, twin = tables()
    before = saved(table)
    with pytest.raises(error, match=says):
        call(table)
    assert_same(before, saved(table))
    play_deal(table, twin)


def test_a_position_refused_late_changes_nothing_and_a_good_one_then_starts() -> None:
    """The engine refuses the trick only while replaying it, after it has set hands, scores and
    passing: all of it is put back (pass_decisions included)."""
    table, twin = tables(1)
    before = saved(table)
    with pytest.raises(ValueError, match=ILLEGAL_TRICK):
        table.set_position(position(False))
    assert_same(before, saved(table))
    for one in (table, twin):
        one.set_position(position())
        assert np.flatnonzero(one.action_mask()[0]).tolist() == [49, 51]  # Q♠ or A♠
    play_deal(table, twin)


@pytest.mark.parametrize("game", [-1, 1, 5, True, np.True_, "0", 1.5, None, np.float64(0)])
def test_table_position_checks_the_game(game: Any) -> None:
    table = Table(HEARTS, 1)
    table.set_position(position())
    with pytest.raises((TypeError, ValueError), match=r"game must be .*0\.\.0") as raised:
        table.position(game)
    assert not isinstance(raised.value, IndexError)
    assert table.position(np.int64(0)).hands == table.position(0).hands


def test_a_table_refuses_num_games_true() -> None:
    with pytest.raises(ValueError, match="num_games"):
        Table(HEARTS, True)


# ---------------------------------------------------------------------- the envs
def aec_pair(preset: str = "hearts") -> tuple[Any, Any]:
    pair = hearts_env.env(preset), hearts_env.env(preset)
    for env in pair:
        env.reset(seed=5)
        for _ in range(3):
            env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    return pair


def aec_view(env: Any) -> dict[str, Any]:
    """What the AEC env shows, and its table."""
    raw = env.unwrapped
    view = {f"obs_{a}": env.observe(a)["observation"] for a in raw.possible_agents}
    view.update({f"mask_{a}": env.observe(a)["action_mask"] for a in raw.possible_agents})
    return {
        **saved(raw.table),
        **view,
        "agent": np.array(env.agent_selection),
        "agents": np.array(env.agents),
    }


def aec_play_on(env: Any, twin: Any) -> None:
    """Both play the first legal card to the end of the deal, equal at every step."""
    while not all(env.terminations.values()):
        assert env.agent_selection == twin.agent_selection
        mask = env.observe(env.agent_selection)["action_mask"]
        np.testing.assert_array_equal(mask, twin.observe(twin.agent_selection)["action_mask"])
        card = int(np.flatnonzero(mask)[-1])
        env.step(card)
        twin.step(card)
    assert env.rewards == twin.rewards
    for one in (env, twin):
        one.reset()
    assert_same(saved(env.unwrapped.table), saved(twin.unwrapped.table))


ENV_REFUSALS = [
    ({"position": position(False)}, ValueError, ILLEGAL_TRICK),
    ({"position": "QS"}, TypeError, None),
    ({"dealr": 2}, ValueError, "'dealr'"),
    ({"hands": None, "Dealer": 1}, ValueError, "'Dealer'"),
]


@pytest.mark.parametrize(("options", "error", "says"), ENV_REFUSALS)
def test_a_refused_aec_reset_changes_nothing(options: dict, error: type, says: str) -> None:
    env, twin = aec_pair()
    before = aec_view(env)
    with pytest.raises(error, match=says):
        env.reset(seed=9, options=options)
    assert_same(before, aec_view(env))
    aec_play_on(env, twin)


@contextmanager
def vector_pair(num_workers: int) -> Iterator[tuple[Any, Any, dict[str, np.ndarray]]]:
    """A vector env one step into a seeded game, its twin, and the observation both show."""
    pair = [hearts_env.vector_env("hearts", num_envs=4, num_workers=num_workers) for _ in range(2)]
    try:
        for env in pair:
            obs, _ = env.reset(seed=11)
            obs = env.step(obs["action_mask"].argmax(axis=1))[0]
        yield pair[0], pair[1], obs
    finally:
        for env in pair:
            env.close()


def vector_play_on(env: Any, twin: Any, obs: dict[str, np.ndarray]) -> None:
    """Both step the same legal actions through more than a deal, equal all along."""
    for _ in range(60):
        actions = obs["action_mask"].argmax(axis=1)
        obs, reward, terminated, _, _ = env.step(actions)
        twin_obs, twin_reward, twin_terminated, _, _ = twin.step(actions)
        for key in obs:
            np.testing.assert_array_equal(obs[key], twin_obs[key])
        np.testing.assert_array_equal(reward, twin_reward)
        np.testing.assert_array_equal(terminated, twin_terminated)


@pytest.mark.parametrize("num_workers", [1, 2])
@pytest.mark.parametrize(("options", "error", "says"), ENV_REFUSALS)
def test_a_refused_vector_reset_leaves_the_env_as_it_was(
    num_workers: int, options: dict, error: type, says: str
) -> None:
    with vector_pair(num_workers) as (env, twin, obs):
        legal = env.legal_masks()
        with pytest.raises(error, match=says):
            env.reset(seed=13, options=options)
        np.testing.assert_array_equal(legal, env.legal_masks())
        vector_play_on(env, twin, obs)


@pytest.mark.parametrize("num_workers", [1, 2])
def test_a_vector_env_starts_from_positions_with_workers(num_workers: int) -> None:
    """A ``Position`` starts every game, a batch of ``num_envs`` positions one per game, cut
    into the shards' parts; a batch of another length is refused, the env still usable."""
    from hearts_env.games.hearts.positions import position_batch

    batch = position_batch(HEARTS, position()).take(np.zeros(4, np.int64))
    with vector_pair(num_workers) as (env, twin, obs):
        for given in (position(), batch):
            obs, info = env.reset(options={"position": given})
            assert (info["current_player"] == 0).all()
            assert (np.flatnonzero(obs["action_mask"].any(axis=0)) == [49, 51]).all()
        with pytest.raises(ValueError, match="holds 4 positions"):
            env.reset(options={"position": batch.take(np.zeros(3, np.int64))})
        np.testing.assert_array_equal(env.legal_masks(), np.full(4, (1 << 49) | (1 << 51), np.uint64))


def single_pair() -> tuple[Any, Any]:
    pair = (
        hearts_env.single_agent_env("hearts", "random", seed=21),
        hearts_env.single_agent_env("hearts", "random", seed=21),
    )
    return pair


@pytest.mark.parametrize(("options", "error", "says"), ENV_REFUSALS)
def test_a_refused_single_seat_reset_changes_nothing(options: dict, error: type, says: str) -> None:
    env, twin = single_pair()
    before = {**saved(env.table), "mask": env.action_masks(), "np_random": env.np_random.bit_generator.state}
    with pytest.raises(error, match=says):
        env.reset(seed=23, options=options)
    after = {**saved(env.table), "mask": env.action_masks(), "np_random": env.np_random.bit_generator.state}
    assert before.pop("np_random") == after.pop("np_random")
    assert_same(before, after)
    over = False
    while not over:
        action = int(np.flatnonzero(env.action_masks())[0])
        obs, reward, over, _, info = env.step(action)
        twin_obs, twin_reward, _, _, _ = twin.step(action)
        np.testing.assert_array_equal(obs, twin_obs)
        assert reward == twin_reward


# ---------------------------------------------------------------------- unknown reset keys
def test_unknown_reset_keys_are_refused_with_the_known_ones_everywhere() -> None:
    """``"dealr"`` is refused before anything changes, by the Table and by every env, with the
    list of keys; ``"options"`` (PettingZoo's api_test checks that reset takes options with
    ``{"options": 1}``) is the one key accepted and ignored."""
    known = "hands, kitty, widow, stock, dealer, pass_direction, new_game, position"
    table = Table(HEARTS)
    vector = hearts_env.vector_env("hearts", num_envs=2)
    resets = {
        "table": table.reset,
        "aec": hearts_env.env("hearts").reset,
        "parallel": hearts_env.parallel_env("hearts").reset,
        "vector": vector.reset,
        "single": hearts_env.single_agent_env("hearts").reset,
    }
    try:
        for name, reset in resets.items():
            with pytest.raises(ValueError, match=known) as raised:
                reset(seed=0, options={"dealr": 2})
            assert "'dealr'" in str(raised.value), name
            reset(seed=0, options={"options": 1})
    finally:
        vector.close()


def test_a_refused_smear_position_leaves_the_vector_env_usable() -> None:
    """Smear: a batch of positions of another length is refused before any game changes."""
    live = Table(make_rules("smear_widow"), 1)
    live.reset(seed=3)
    rng = np.random.default_rng(0)
    while True:  # through the bidding into the play
        try:
            batch = live.position(0)
            break
        except ValueError:
            mask = live.action_mask()
            live.step((rng.random(mask.shape) * mask).argmax(axis=1))
    env, twin = (hearts_env.vector_env("smear_widow", num_envs=2) for _ in range(2))
    try:
        for one in (env, twin):
            obs, _ = one.reset(seed=5)
        legal = env.legal_masks()
        with pytest.raises(ValueError, match="holds 2 positions"):
            env.reset(options={"position": batch.take(np.zeros(3, np.int64))})
        np.testing.assert_array_equal(legal, env.legal_masks())
        vector_play_on(env, twin, obs)
        obs, info = env.reset(options={"position": batch})
        assert (info["current_player"] == int(live.current_player[0])).all()
    finally:
        env.close()
        twin.close()
