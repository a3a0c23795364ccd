"""The accounting of an Auction Hearts seat's bids and points (auction_bids.py beside this file).

Run by hand, not by `make test`: `python -m pytest experiments/auction-bids/check_auction_bids.py`.
"""

from __future__ import annotations

import json

import auction_bids
import numpy as np

from hearts_env.presets import make_rules


def test_strategy_in_every_seat_is_its_own_reference_and_the_points_add_up():
    result = auction_bids.measure("strategy", 60, 3, [4, 6])
    for row in result["rows"]:
        assert row["agent"] == row["strategy"] and row["margin"] == 0.0
        r = row["agent"]
        assert 0 < r["won_auction"] < 1 and r["bid_at_all"] >= r["won_auction"]
        assert sum(r["named"].values()) == round(60 * r["won_auction"])
        # points = cards + the winning bid where the seat won: the two halves give back the mean
        won = r["won_auction"]
        mean = won * (r["cards_when_won"] + r["bid_when_won"]) + (1 - won) * r["cards_when_lost"]
        assert np.isclose(mean, r["points"])


def test_a_seat_that_always_bids_thirteen_wins_every_auction_and_pays_thirteen(monkeypatch):
    import agents

    rules = make_rules("auction_hearts", num_players=4)
    thirteen = rules.action_names.index("bid:13")
    real = agents.from_spec

    class Greedy:  # bids 13 whenever it may, otherwise plays as strategy
        inner = real("strategy", rules)

        def act(self, obs, rng):
            chosen = np.asarray(self.inner.act(obs, rng)).copy()
            chosen[obs["action_mask"][:, thirteen] > 0] = thirteen
            return chosen

    monkeypatch.setattr(
        auction_bids.agents, "from_spec", lambda spec, r: Greedy() if spec == "greedy" else real(spec, r)
    )
    r = auction_bids.play(4, "greedy", 40, 1)
    assert r["won_auction"] == 1.0 and r["bid_when_won"] == 13.0 and r["bid_at_all"] == 1.0
    assert r["points"] >= 13.0 and r["cards_when_lost"] is None
    assert np.isclose(r["points"] - 13.0, r["cards_when_won"])


def test_the_command_writes_json_and_markdown(tmp_path):
    out = tmp_path / "bids.json"
    assert auction_bids.main(["--agent", "lowest", "--deals", "8", "--players", "5", "--json", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert saved["rows"][0]["num_players"] == 5 and saved["run"]["command"].endswith("--json " + str(out))
    assert "| 5 | `lowest` |" in out.with_suffix(".md").read_text()
