"""``pimc:horizon=H``: card-play rollouts cut short at the searching seat's H-th turn, the rollout
network's value head standing for the rest of the deal (agents/pimc.py; the strength and cost
against the full rollouts: experiments/cheaper-search)."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.ppo import PPOAgent
from hearts_env import Table, make_rules


def _search_position(rules, seed: int):
    """An observation of seat 0 at a card play with several legal cards, the deal half played."""
    table = Table(rules, num_games=1)
    table.reset(seed=seed)
    strategy = agents.from_rules("strategy", rules)
    rng = np.random.default_rng(seed)
    playing = rules.phases.index("playing")
    played = 0
    while True:
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        in_play = strategy.view(obs, "phase")[0, playing] > 0.5
        choices = int(obs["action_mask"][0, : rules.card_slots].sum())
        if in_play and table.current_player[0] == 0 and choices > 1 and played >= 8:
            return obs
        played += int(in_play)
        table.step(strategy.act(obs, rng))


def test_act_and_value_acts_as_act_and_unscales_the_value_head() -> None:
    rules = make_rules("hearts")
    ppo = agents.from_rules("ppo", rules)
    obs = _search_position(rules, 3)
    actions, values = ppo.act_and_value(obs, np.random.default_rng(0))
    assert np.array_equal(actions, ppo.act(obs, np.random.default_rng(0)))
    import torch  # noqa: PLC0415

    with torch.inference_mode():
        x = torch.as_tensor(obs["observation"], dtype=torch.float32)
        raw = ppo.net(x, torch.as_tensor(obs["action_mask"] > 0))[1].numpy()
    assert ppo.value_reward == "zero_sum"  # what the shipped networks were trained on
    assert values == pytest.approx(raw * 26, rel=1e-5)  # Hearts: the deal's 26 points scale it


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"horizon": 0}, "horizon must be an int of at least 1"),
        ({"horizon": 1.5}, "horizon must be an int"),
        ({"horizon": True}, "horizon must be an int"),
        ({"horizon": 2, "rollout": "strategy"}, "needs a rollout network with a value head"),
        ({"horizon": 2, "rollout": "fast"}, "not rollout='fast'"),
    ],
)
def test_horizon_is_checked(params: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        agents.make("pimc", "hearts", **params)


def test_a_horizon_past_the_deal_is_a_full_rollout_in_the_networks_reward() -> None:
    """A horizon longer than the deal never stops a rollout: the values are those of rollouts
    played to the end, paid in the network's reward (zero_sum), not the table's points."""
    rules = make_rules("hearts")
    obs = _search_position(rules, 4)
    far = agents.from_rules("pimc", rules, worlds=4, horizon=50, margin=0)
    full = agents.from_rules("pimc", rules, worlds=4, margin=0)
    full._reward = "zero_sum"  # the same search, played to the end, paid as the horizon's is
    far.act(obs, np.random.default_rng(1))
    full.act(obs, np.random.default_rng(1))
    assert far._tables and all(t.reward == "zero_sum" for t in far._tables.values())
    np.testing.assert_allclose(far.last_options(), full.last_options(), equal_nan=True)


def test_the_value_head_stands_for_the_rest_after_the_horizon(monkeypatch: pytest.MonkeyPatch) -> None:
    """With horizon 1, every rollout stops at the searching seat's next turn: the network is asked
    for the other seats' cards of one trick and that turn only, and each searched card's value is
    its estimate there."""
    rules = make_rules("hearts")
    obs = _search_position(rules, 5)
    pimc = agents.from_rules("pimc", rules, worlds=4, horizon=1, margin=0)
    seats: list[np.ndarray] = []
    real = PPOAgent.act_and_value

    def marked(self, o, rng):
        actions, _ = real(self, o, rng)
        seats.append(self.view(o, "hand").reshape(len(actions), -1).sum(axis=1))
        return actions, np.full(len(actions), 100.0)  # an estimate no deal pays

    monkeypatch.setattr(PPOAgent, "act_and_value", marked)
    pimc.act(obs, np.random.default_rng(2))
    values = pimc.last_options()[0]
    searched = np.flatnonzero(~np.isnan(values))
    assert len(searched) == int(obs["action_mask"][0, : rules.card_slots].sum())
    assert np.all(values[searched] == 100.0)  # no points paid within the trick, then the estimate
    # the fallback's one call, then at most the rest of this trick and of the next up to seat 0's
    # turn: seven plies, the rollouts' hands never below one card fewer than seat 0's now
    held = int(pimc.view(obs, "hand").sum())
    assert 2 <= len(seats) <= 8
    assert min(int(s.min()) for s in seats[1:]) >= held - 2


def test_horizon_searches_fewer_rollout_decisions_and_plays_legally() -> None:
    rules = make_rules("black_maria", num_players=3)
    obs = _search_position(rules, 6)
    counts = {}
    for horizon in (None, 2):
        pimc = agents.from_rules("pimc", rules, worlds=4, horizon=horizon)
        rows = 0
        ppo = pimc.rollout_agent
        act, both = ppo.act, ppo.act_and_value

        def count_act(o, rng, act=act):
            nonlocal rows
            rows += len(o["action_mask"])
            return act(o, rng)

        def count_both(o, rng, both=both):
            nonlocal rows
            rows += len(o["action_mask"])
            return both(o, rng)

        ppo.act, ppo.act_and_value = count_act, count_both
        card = pimc.act(obs, np.random.default_rng(3))[0]
        assert obs["action_mask"][0, card]
        counts[horizon] = rows
    assert counts[2] < counts[None] / 2
