"""``hearts_env.worlds.world_positions`` turns the worlds of any family into that family's
positions (through its record), as the family's own ``worlds`` module does."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from hearts_env import Table, make_rules
from hearts_env.core.phases import PLAYING
from hearts_env.games.hearts import worlds as hearts_worlds
from hearts_env.games.hearts.positions import PositionBatch
from hearts_env.games.smear import worlds as smear_worlds
from hearts_env.games.smear.positions import SmearPositionBatch
from hearts_env.worlds import sample_worlds, world_positions


@pytest.mark.parametrize(
    ("name", "own", "batch"),
    [("hearts", hearts_worlds.world_positions, PositionBatch),
     ("smear_partnership", smear_worlds.world_positions, SmearPositionBatch)],
    ids=["hearts", "smear"],
)  # fmt: skip
def test_world_positions_are_the_familys_own(name: str, own: object, batch: type) -> None:
    rules = make_rules(name, 4)
    table = Table(rules, num_games=1)
    table.reset(seed=3)
    rng = np.random.default_rng(3)
    while not (table.state.phase[0] == PLAYING and table.state.trick_number[0] >= 1):
        table.step(np.array([rng.choice(np.flatnonzero(table.action_mask()[0]))]))
    observation = table.observe()[0]
    worlds = sample_worlds(rules, observation, 5, rng)
    got = world_positions(rules, observation, worlds, np.random.default_rng(1))
    expected = own(rules, observation, worlds, np.random.default_rng(1))
    assert type(got) is batch and len(got) == 5
    for field in fields(batch):
        assert np.array_equal(getattr(got, field.name), getattr(expected, field.name)), field.name
