"""Cross-check against OpenSpiel: its deals replayed through our engine give identical legal
sets at every decision (passes and plays) and identical points.

OpenSpiel's ``hearts`` options map onto docs/rules.md names (``openspiel_params_to_options``); each
parameter set below exercises a different mapping. Skipped when pyspiel is not installed.
"""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env.core.cards import parse_cards
from hearts_env.core.rules import PASS_DIRECTIONS
from hearts_env.presets import make_rules
from hearts_env.table import Table

pytest.importorskip("pyspiel")
from tests import openspiel_records as osr  # noqa: E402

PARAM_SETS = {
    "defaults": {},
    "no_pass_heart_only_break": {"pass_cards": False, "qs_breaks_hearts": False},
    "jd_bonus_and_no_tricks_bonus": {"jd_bonus": True, "avoid_all_tricks_bonus": True},
    "any_club_free_hearts": {"can_lead_any_club": True, "must_break_hearts": False},
    "lead_hearts_instead_of_queen": {"can_lead_hearts_instead_of_qs": True, "no_pts_on_first_trick": False},
}
DEALS = 300


@pytest.mark.parametrize("name", PARAM_SETS)
def test_openspiel_deals_replay_identically(name: str) -> None:
    params = PARAM_SETS[name]
    records = osr.record_deals(params, DEALS, seed=11)
    rules = make_rules("hearts", **osr.openspiel_params_to_options(params))
    checked = 0
    for direction in PASS_DIRECTIONS:
        group = [r for r in records if r["pass_direction"] == direction]
        if not group:
            continue
        table = Table(rules, len(group))
        hands = np.array(
            [[sum(1 << c for c in parse_cards(h)) for h in r["hands"]] for r in group], dtype=np.uint64
        )
        table.deal_masks(hands, dealer=np.array([r["dealer"] for r in group]), pass_direction=direction)
        steps = len(group[0]["decisions"])
        assert all(len(r["decisions"]) == steps for r in group)
        for i in range(steps):
            legal = table.engine.legal(table.state)
            for g, record in enumerate(group):
                decision = record["decisions"][i]
                assert table.state.current[g] == decision["seat"]
                expected = sum(1 << c for c in parse_cards(decision["legal"]))
                assert int(legal[g]) == expected, f"{name} deal {g} decision {i}"
            table.step(np.array([parse_cards([r["decisions"][i]["action"]])[0] for r in group]))
        points = table.state.deal_points
        for g, record in enumerate(group):
            assert points[g].tolist() == record["points"], f"{name} deal {g}"
        checked += len(group)
    assert checked == DEALS
