"""``PhaseSplit`` (phase_split.py beside this file): one agent's decisions in some phases, another's in
the rest. Run by hand, not by `make test`:
`python -m pytest experiments/phase-split/check_phase_split.py`.
"""

from __future__ import annotations

import numpy as np
import pytest
from phase_split import PhaseSplit

import agents
from hearts_env.presets import make_rules
from hearts_env.table import Table


@pytest.mark.parametrize("preset", ["hearts", "auction_hearts"])
def test_each_row_goes_to_the_agent_of_its_phase(preset):
    rules = make_rules(preset)
    split = PhaseSplit(rules, main="lowest", other="strategy")
    lowest, strategy = agents.make("lowest", preset), agents.make("strategy", preset)
    table = Table(rules, num_games=16)
    table.reset(seed=3)
    playing = rules.phases.index("playing")
    seen = set()
    for _ in range(200):
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        mine = split.view(obs, "phase")[:, playing] > 0.5
        got = split.act(obs, np.random.default_rng(0))
        want = np.where(
            mine, lowest.act(obs, np.random.default_rng(0)), strategy.act(obs, np.random.default_rng(0))
        )
        np.testing.assert_array_equal(got, want)
        seen |= set(mine.tolist())
        table.step(got)
        if table.deal_over.all():
            break
    assert seen == {True, False}  # both agents had rows to play


def test_bad_phases_are_refused():
    with pytest.raises(ValueError, match="phases of hearts"):
        PhaseSplit(make_rules("hearts"), main="lowest", phases="bidding")
