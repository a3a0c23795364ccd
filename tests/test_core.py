"""The trick-taking core under both engines (hearts_env.core.engine, hearts_env.core.phases): one phase
vocabulary, one batch state shell, the shared seat and dealing helpers."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from hearts_env.core.engine import BatchState, CardEngine, next_where
from hearts_env.core.phases import DONE, PHASE_CODES, PHASE_NAMES
from hearts_env.games import FAMILIES, family
from hearts_env.games.hearts.engine import Engine
from hearts_env.games.smear.engine import SmearEngine
from hearts_env.presets import all_configs, make_rules
from hearts_env.table import Table


def test_one_phase_vocabulary_names_every_phase_of_every_configuration() -> None:
    codes = list(PHASE_NAMES)
    assert len(set(PHASE_NAMES.values())) == len(codes), "a phase name with two codes"
    assert DONE not in PHASE_NAMES and max(codes) < PHASE_CODES
    for preset, n in all_configs():
        rules = make_rules(preset, num_players=n)
        assert set(rules.phases) <= set(PHASE_NAMES.values()), (preset, n, rules.phases)


@pytest.mark.parametrize("preset", ["hearts", "auction_hearts", "smear_partnership", "smear_widow"])
def test_a_state_reports_only_the_phases_its_rules_have(preset: str) -> None:
    """Every phase code a game passes through is one of ``rules.phases`` (or done)."""
    rules = make_rules(preset)
    table = Table(rules, 64)
    table.reset(seed=1)
    rng = np.random.default_rng(2)
    allowed = {code for code, name in PHASE_NAMES.items() if name in rules.phases} | {DONE}
    for _ in range(200):
        assert set(table.state.phase.tolist()) <= allowed
        mask = table.action_mask().astype(bool)
        result = table.step(np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1))
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))


def test_both_engines_are_card_engines_over_batch_states() -> None:
    shared = {f.name for f in fields(BatchState)} - set(BatchState.FLAGS)
    for record in FAMILIES.values():
        preset = next(p for p, n in all_configs() if make_rules(p).game == record.name)
        rules = make_rules(preset)
        engine, _ = family(rules).build(rules)
        assert isinstance(engine, CardEngine)
        state = engine.new_state(3)
        assert isinstance(state, BatchState)
        assert shared <= set(state.array_fields())
        assert all(getattr(state, name).shape[0] == 3 for name in state.array_fields())


@pytest.mark.parametrize(
    ("engine", "preset", "message"),
    [
        (SmearEngine, "hearts", "SmearEngine needs game='smear' rules, got 'hearts'"),
        (Engine, "smear_partnership", "Engine needs game='hearts' rules, got 'smear'"),
    ],
)
def test_an_engine_refuses_another_familys_rules(engine: type, preset: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        engine(make_rules(preset))


@pytest.mark.parametrize("first", [0, 1])
def test_next_where_is_the_first_seat_clockwise_that_is_flagged(first: int) -> None:
    rng = np.random.default_rng(0)
    flags = rng.random((500, 5)) < 0.3
    seat = rng.integers(0, 5, 500)
    got = next_where(flags, seat, first=first)
    for row in range(500):
        order = [(seat[row] + first + k) % 5 for k in range(5)]
        want = next((s for s in order if flags[row, s]), seat[row])
        assert got[row] == want


@pytest.mark.parametrize("preset", ["hearts", "cancellation_hearts", "smear_nine_card"])
def test_take_put_and_copy_move_whole_games(preset: str) -> None:
    table = Table(make_rules(preset), 6)
    table.reset(seed=4)
    rng = np.random.default_rng(5)
    for _ in range(7):
        mask = table.action_mask().astype(bool)
        table.step(np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1))
    s = table.state
    rows = np.array([4, 1])
    part = s.take(rows)
    assert type(part) is type(s) and part.per_game == s.per_game
    copy = s.copy()
    copy.put(np.array([0, 2]), part)
    for name in s.array_fields():
        np.testing.assert_array_equal(getattr(copy, name)[[0, 2]], getattr(s, name)[rows], err_msg=name)
        np.testing.assert_array_equal(getattr(copy, name)[[1, 3, 4, 5]], getattr(s, name)[[1, 3, 4, 5]])
        assert getattr(copy, name) is not getattr(s, name)
