"""TorchRL's ``PettingZooWrapper`` over the AEC env (examples/torchrl_masked_rollout.py): masked
random rollouts and a tiny PPO update, every action legal, every deal's rewards those of the
env itself. ``make integration-torchrl``."""

from __future__ import annotations

import math

import pytest

from tests.integration.common import check_deal_totals, require

torchrl = require("torchrl")

import torch  # noqa: E402 (after the library check)

import hearts_env  # noqa: E402
from examples import torchrl_masked_rollout as example  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")

CASES = [("hearts", None), ("auction_hearts", None), ("black_maria", 3)]


def replay(summary: example.RolloutSummary, num_players: int | None, seed: int) -> list[list[int]]:
    """Play the rollout's actions again in a bare AEC env (reset with the seed, then ``reset()``
    after each deal, as TorchRL does): the same seat acts under the same mask and gets the same
    rewards. Returns each complete deal's ``deal_points``."""
    options = {} if num_players is None else {"num_players": num_players}
    env = hearts_env.env(summary.preset, **options)
    env.reset(seed=seed)
    agents = env.possible_agents
    points = []
    for t, (seat, action) in enumerate(zip(summary.seats, summary.actions)):
        agent = agents[seat]
        assert env.agent_selection == agent, f"step {t}"
        mask = env.observe(agent)["action_mask"]
        assert mask.astype(bool).tolist() == summary.masks[t], f"step {t}: the mask TorchRL gave differs"
        assert mask[action] == 1, f"step {t}: {agent} played illegal action {action}"
        env.step(action)
        assert [env.rewards[a] for a in agents] == pytest.approx(summary.rewards[t]), f"step {t}"
        ended = all(env.terminations.values())
        assert ended == (t in summary.deal_ends), f"step {t}"
        if ended:
            points.append([env.infos[a]["deal_points"] for a in agents])
            env.reset()
    return points


@pytest.mark.parametrize(("preset", "num_players"), CASES)
def test_masked_random_rollout_plays_only_legal_actions(preset: str, num_players: int | None) -> None:
    summary = example.random_rollout(preset, num_players, steps=300, seed=3)
    assert len(summary.actions) == 300
    assert all(mask[a] for mask, a in zip(summary.masks, summary.actions))
    assert summary.deals >= 3
    points = replay(summary, num_players, seed=3)
    assert len(points) == summary.deals
    check_deal_totals(preset, points)
    for deal_points, rewards in zip(
        points, summary.deal_rewards()
    ):  # reward "points": minus the deal's points
        assert rewards == pytest.approx([-p for p in deal_points])
    if preset == "auction_hearts":  # the named decisions (pass, bids, suits) beyond the 52 cards were taken
        assert any(a >= 52 for a in summary.actions)
        assert len(summary.masks[0]) == len(hearts_env.env(preset).unwrapped.action_names)


@pytest.mark.parametrize(("preset", "num_players"), CASES)
def test_ppo_rollout_and_update(preset: str, num_players: int | None) -> None:
    result = example.ppo(preset, num_players, steps=200, seed=5, epochs=2, minibatch=64)
    rollout = result.rollout
    assert all(mask[a] for mask, a in zip(rollout.masks, rollout.actions))
    assert rollout.deals >= 2
    check_deal_totals(preset, replay(rollout, num_players, seed=5))
    assert result.losses and all(math.isfinite(v) for loss in result.losses for v in loss.values())
    batch = result.batch
    # the seats' trajectories: every decision of the complete deals, each deal closed once per seat
    complete = rollout.deal_ends[-1] + 1
    num_seats = len(rollout.agents)
    assert result.decisions == len(batch) == complete
    assert int(batch[("next", *example.DONE)].sum()) == rollout.deals * num_seats
    legal = batch[example.ACTION_MASK].gather(-1, batch[example.ACTION][:, None])
    assert bool(legal.all())
    deal_total = sum(sum(r) for r in rollout.deal_rewards())
    assert float(batch[("next", *example.REWARD)].sum()) == pytest.approx(deal_total)
    assert torch.isfinite(batch["advantage"]).all()


def test_an_illegal_action_is_refused_through_the_wrapper() -> None:
    env = example.make_env("hearts", seed=0)
    try:
        td = env.reset(seed=0)
        seat = int(td[example.MASK].int().argmax())
        illegal = int(torch.nonzero(~td[example.ACTION_MASK][seat]).flatten()[0])
        td[example.ACTION] = torch.full_like(td[example.ACTION_MASK][:, 0], illegal, dtype=torch.int64)
        with pytest.raises(ValueError, match="player_"):
            env.step(td)
    finally:
        env.close()


def test_main_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        example.main(["--preset", "black_maria", "--num-players", "3", "--steps", "120", "--epochs", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert "random: black_maria, 120 legal actions" in out and "finite losses: True" in out
