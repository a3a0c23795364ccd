"""PPO training: a smoke run, exact resume after an interruption, per-seat credit and masking."""

from __future__ import annotations

import csv
import json
import math
import signal
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import agents  # noqa: E402
from agents.ppo import ILLEGAL_LOGIT, PolicyValueNet, load_policy  # noqa: E402
from hearts_env.presets import PRESETS, make_rules, preset_names  # noqa: E402
from hearts_env.table import Table  # noqa: E402
from training.config import Args  # noqa: E402
from training.ppo import advantages, train  # noqa: E402
from training.rollout import League, Rollout, collect  # noqa: E402

TINY = Args(
    num_games=16, rollout_steps=64, hidden=(32,), minibatch_size=256, update_epochs=2, eval_deals=8,
    eval_every=0, checkpoint_every=1, pool_every=1, opponents=("ducker",), progress=False,
    tensorboard=False, minutes=5.0,
)  # fmt: skip
"""One iteration = 1,024 decisions: 16 games x 64 steps (one 4-player deal with a pass)."""


def rows(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(f))


def test_smoke_run_is_finite_and_its_checkpoint_round_trips(tmp_path: Path) -> None:
    args = replace(TINY, run_dir=str(tmp_path), total_decisions=3 * 1024, imitation_decisions=1024,
                   tensorboard=True, eval_opponents=("random",))  # fmt: skip
    summary = train(args)
    assert summary["iterations"] == 3 and summary["decisions_per_s"] > 0
    losses = rows(tmp_path / "train.csv")
    assert [r["phase"] for r in losses] == ["imitation", "ppo", "ppo"]
    for r in losses:
        for key in ("pg_loss", "v_loss", "entropy", "approx_kl", "explained_var"):
            assert math.isfinite(float(r[key])), (key, r)
    (result,) = summary["evaluation"]
    assert math.isfinite(result["diff"]) and math.isfinite(result["ppo_points"]) and result["illegal"] == 0
    assert (tmp_path / "learning_curve.png").stat().st_size > 0 and any((tmp_path / "tb").iterdir())

    rules = make_rules("hearts", num_players=4)
    table = Table(rules, 64)
    table.reset(seed=3)
    obs = {"observation": table.observe(), "action_mask": table.action_mask()}
    from_policy = agents.make("ppo", "hearts", 4, checkpoint=str(tmp_path / "policy.pt"))
    resumable = torch.load(tmp_path / "checkpoint.pt", weights_only=True)["policy"]["model"]
    saved = load_policy(tmp_path / "policy.pt")
    for name, value in from_policy.net.state_dict().items():
        assert torch.equal(value, saved["model"][name]) and torch.equal(value, resumable[name])
    rng = np.random.default_rng(0)
    assert (from_policy.act(obs, rng) == from_policy.act(obs, rng)).all()  # greedy
    with pytest.raises(ValueError, match="policy.pt beside it"):
        agents.make("ppo", "hearts", 4, checkpoint=str(tmp_path / "checkpoint.pt"))
    assert (tmp_path / "policy.pt").stat().st_size < 5_000_000
    assert saved["trained"]["command"].startswith("hearts-env train ")


def test_resume_after_interruption_continues_the_same_run(tmp_path: Path) -> None:
    whole = replace(TINY, run_dir=str(tmp_path / "whole"), total_decisions=3 * 1024, imitation_decisions=1024)
    train(whole)
    split = replace(whole, run_dir=str(tmp_path / "split"), total_decisions=1024)
    train(split)
    with (tmp_path / "split" / "train.csv").open("a") as f:  # a row written after the last checkpoint
        f.write("2,2048,0,0,0,ppo,0,0,0,0,0,0\n")
    with pytest.raises(FileExistsError):
        train(replace(split, total_decisions=3 * 1024))
    summary = train(replace(split, total_decisions=3 * 1024, resume=True))
    assert summary["iterations"] == 3
    a = load_policy(tmp_path / "whole" / "policy.pt")["model"]
    b = load_policy(tmp_path / "split" / "policy.pt")["model"]
    assert all(torch.equal(a[name], b[name]) for name in a)
    ours, theirs = rows(tmp_path / "whole" / "train.csv"), rows(tmp_path / "split" / "train.csv")
    assert [r["iteration"] for r in theirs] == ["1", "2", "3"]
    assert [r["pg_loss"] for r in ours] == [r["pg_loss"] for r in theirs]
    with pytest.raises(ValueError, match="other settings"):
        train(replace(split, learning_rate=1e-3, resume=True, total_decisions=4 * 1024))


def test_left_out_widths_are_128x128_and_a_resumed_run_keeps_its_own(tmp_path: Path) -> None:
    from training.config import FAMILY_HIDDEN, HIDDEN, resolve_hidden

    assert Args().hidden is None and HIDDEN == (128, 128) and FAMILY_HIDDEN == (256, 256)
    assert resolve_hidden(Args()).hidden == HIDDEN
    assert resolve_hidden(Args(), family=True).hidden == FAMILY_HIDDEN
    assert resolve_hidden(Args(), kept=[64, 32]).hidden == (64, 32)
    assert resolve_hidden(Args(hidden=(8,)), kept=[64]).hidden == (8,)  # given: kept as given
    train(replace(TINY, hidden=None, run_dir=str(tmp_path / "new"), total_decisions=1024))
    policy = load_policy(tmp_path / "new" / "policy.pt")
    assert policy["hidden"] == [128, 128] and "--hidden 128,128" in policy["trained"]["command"]
    # a run begun at other widths (those of an older default, say) resumes with --hidden left out
    begun = replace(TINY, run_dir=str(tmp_path / "begun"), total_decisions=1024, imitation_decisions=0)
    train(begun)
    resumed = train(replace(begun, hidden=None, total_decisions=2 * 1024, resume=True))
    assert resumed["decisions"] == 2 * 1024
    assert load_policy(tmp_path / "begun" / "policy.pt")["hidden"] == [32]
    with pytest.raises(ValueError, match=r"other settings \(hidden \[32\] there, \[16\] here\)"):
        train(replace(begun, hidden=(16,), total_decisions=3 * 1024, resume=True))


def test_each_seat_gets_its_own_reward_and_unfinished_deals_are_not_trained() -> None:
    # One game, two seats alternating; the deal ends on step 3 (seat 1: +1, seat 0: -1), step 4
    # starts a deal that the rollout does not see end.
    buf = Rollout.allocate(steps=5, games=1, players=2, obs_size=1, actions=1)
    buf.offsets[:] = np.arange(6)
    buf.game[:5], buf.seat[:5] = 0, [0, 1, 0, 1, 0]
    buf.value[:5] = [0.5, 0.0, 0.0, 0.25, 0.0]
    buf.deal_end[3, 0] = True
    buf.rewards[3, 0] = [-1.0, 1.0]
    adv, trainable = advantages(buf, players=2, gamma=1.0, lam=1.0)
    assert trainable.tolist() == [True, True, True, True, False]
    np.testing.assert_allclose(adv[:4] + buf.value[:4], [-1.0, 1.0, -1.0, 1.0])
    np.testing.assert_allclose(adv[:4], [-1.5, 1.0, -1.0, 0.75])


def test_masking_never_lets_an_illegal_card_through() -> None:
    rules = make_rules("black_maria", num_players=3)
    table = Table(rules, 64)
    table.reset(seed=1)
    size, actions = table.observer.layout.size, table.engine.num_actions
    net = PolicyValueNet(size, actions, (16,))
    with torch.no_grad():  # a policy that wants the cards it may not play
        net.policy.weight.zero_()
        net.policy.bias.copy_(torch.linspace(1e6, -1e6, actions))
    args = replace(TINY, num_games=64, self_play=1.0, opponents=())
    league = League(rules, args, np.random.default_rng(0), torch.device("cpu"))
    buf = Rollout.allocate(120, 64, 3, size, actions)
    collect(
        table, league, net, buf, np.random.default_rng(0), torch.device("cpu"), 1 / 43
    )  # Table raises if illegal
    n = buf.size
    assert n == 120 * 64 and buf.mask[np.arange(n), buf.action[:n]].all()
    logits, _ = net(torch.from_numpy(buf.obs[:n]), torch.from_numpy(buf.mask[:n]))
    logits.requires_grad_(True)
    logp = torch.log_softmax(logits, dim=-1)
    entropy = -(logp.exp() * logp).sum(-1)
    assert torch.isfinite(entropy).all() and (logp.exp()[~torch.from_numpy(buf.mask[:n])] == 0).all()
    assert (logits[~torch.from_numpy(buf.mask[:n])] == ILLEGAL_LOGIT).all()

    rng = np.random.default_rng(2)
    obs = {"observation": buf.obs[:n], "action_mask": buf.mask[:n].astype(np.int8)}
    for greedy in (True, False):
        agent = agents.ppo.PPOAgent.from_network(rules, net, greedy=greedy)
        played = agent.act(obs, rng)
        assert buf.mask[np.arange(n), played].all()


def test_the_rollout_samples_the_policy_s_distribution_and_its_log_probability() -> None:
    from training.rollout import sample

    torch.manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, ILLEGAL_LOGIT, 2.0, -3.0]]).repeat(200_000, 1)
    action, logprob = sample(logits)
    expected = torch.softmax(logits[0], 0).numpy()
    counts = np.bincount(action.numpy(), minlength=5)
    assert counts[2] == 0  # the illegal action is never drawn
    # chi-square over the legal actions (3 degrees of freedom): 16.3 is its 0.999 quantile
    legal = expected > 0
    chi2 = float((((counts - len(action) * expected) ** 2)[legal] / (len(action) * expected[legal])).sum())
    assert chi2 < 16.3, (counts, expected)
    assert torch.allclose(logprob, torch.log_softmax(logits, 1).gather(1, action[:, None]).squeeze(1))


def test_missing_shipped_checkpoint_is_named() -> None:
    with pytest.raises(FileNotFoundError, match="no PPO checkpoint ships for omnibus with 5 players"):
        agents.make("ppo", "omnibus", 5, network="specialist")


@pytest.mark.parametrize("name", agents.ppo.shipped())
def test_every_shipped_checkpoint_loads_and_plays_a_deal(name: str) -> None:
    """The shipped policies still fit their presets' observation and action spaces."""
    if name.startswith("universal-"):  # a family's universal network: its first preset
        preset = preset_names(name.removeprefix("universal-"))[0]
        num_players = PRESETS[preset].default_players
        agent = agents.make("ppo", preset, num_players, network="universal")
    else:
        preset, players = name.rsplit("-", 1)
        num_players = int(players.rstrip("p"))
        agent = agents.make("ppo", preset, num_players)
    table = Table(make_rules(preset, num_players), 8)
    table.reset(seed=0)
    rng = np.random.default_rng(0)
    while not table.deal_over.all():
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        actions = agent.act(obs, rng)
        live = ~table.deal_over
        assert (obs["action_mask"][np.flatnonzero(live), actions[live]] == 1).all()
        table.step(actions)
    rules = table.rules
    if rules.game == "smear":  # partners carry their side's points; a side makes at most every point
        points = table.deal_points
        for team in rules.teams:
            assert (points[:, list(team)] == points[:, [team[0]]]).all()
        assert (points <= rules.smear_points + 1).all()
        return
    totals = table.deal_points.sum(axis=1)
    total = rules.penalty_total
    assert ((totals == total) | (totals == total * (num_players - 1))).all(), totals


@pytest.mark.parametrize(
    "preset", ["chasse_coeur", "domino_hearts", "cancellation_hearts", "partnership_hearts"]
)
def test_training_copes_with_decisions_stocks_two_decks_and_teams(preset: str, tmp_path: Path) -> None:
    """A few iterations on presets whose deals vary in length, with decisions other than cards,
    two decks or teams: finite losses, and the policy file plays (its action count includes
    the decisions)."""
    from training.ppo import Args, train

    args = Args(
        preset=preset, num_games=16, rollout_steps=32, hidden=(16,), minibatch_size=128, update_epochs=1,
        eval_deals=4, eval_every=0, total_decisions=1024, imitation_decisions=512, progress=False,
        tensorboard=False, run_dir=str(tmp_path / preset), opponents=("random",), eval_opponents=("random",),
    )  # fmt: skip
    summary = train(args)
    assert summary["decisions"] == 1024 and summary["evaluation"][0]["illegal"] == 0
    with open(tmp_path / preset / "train.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(math.isfinite(float(r["value_loss"])) for r in rows if r.get("value_loss"))
    rules = make_rules(preset)
    agent = agents.make("ppo", preset, rules.num_players, checkpoint=str(tmp_path / preset / "policy.pt"))
    assert agent.net.num_actions == len(rules.action_names)


def test_smear_trains_with_its_family_s_agents_by_default(tmp_path: Path, capsys) -> None:
    """``hearts-env train --preset smear_five_point --num-players 6`` with the default agents (the
    Smear family's: ``smear`` teacher, opponents and evaluation) goes through imitation, PPO
    against the league and the final evaluation, where it once died on Hearts' ``strategy``."""
    from hearts_cli import main

    run = tmp_path / "smear"
    argv = ["train", "--preset", "smear_five_point", "--num-players", "6", "--run-dir", str(run),
            "--num-games", "16", "--rollout-steps", "64", "--hidden", "32", "--minibatch-size", "256",
            "--total-decisions", "2048", "--imitation-decisions", "1024", "--eval-deals", "8",
            "--eval-every", "0", "--pool-every", "1", "--no-progress", "--no-tensorboard"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    family = agents.family_defaults("smear")
    assert [r["phase"] for r in rows(run / "train.csv")] == ["imitation", "ppo"]
    evaluated = rows(run / "eval.csv")
    assert [r["opponent"] for r in evaluated] == list(family.eval_opponents)
    assert all(r["illegal"] == "0" for r in evaluated)
    trained = load_policy(run / "policy.pt")["trained"]
    assert trained["settings"]["teacher"] == family.teacher
    assert trained["settings"]["opponents"] == list(family.opponents)
    assert "--opponents" not in trained["command"]  # the family's: the command needs no flag


@pytest.mark.parametrize("obs_format", ["uint8", "packed"])
def test_a_compact_rollout_format_trains_exactly_like_float32(tmp_path, tiny_args, obs_format: str) -> None:
    """The rollout stores the compact format and unpacks it for the policy: the same numbers."""
    import csv
    from dataclasses import replace

    from training.ppo import train

    rows = {}
    for fmt in ("float32", obs_format):
        run = tmp_path / fmt
        train(
            replace(
                tiny_args, run_dir=str(run), obs_format=fmt, total_decisions=1024, opponents=("strategy",)
            )
        )
        with open(run / "train.csv") as f:
            rows[fmt] = [
                {k: v for k, v in row.items() if k not in ("elapsed_s", "decisions_per_s")}
                for row in csv.DictReader(f)
            ]
    assert len(rows["float32"]) >= 2 and rows["float32"] == rows[obs_format]


def test_a_bad_obs_format_is_refused(tiny_args) -> None:
    from dataclasses import replace

    with pytest.raises(ValueError, match="obs_format"):
        replace(tiny_args, obs_format="bits").validate()


def _net_and_batch(games: int, seed: int) -> tuple[PolicyValueNet, torch.Tensor, torch.Tensor]:
    """A small network (torch seeded with ``seed``) and a batch of first observations of standard
    Hearts with their legal masks."""
    rules = make_rules("hearts", num_players=4)
    table = Table(rules, games)
    table.reset(seed=seed)
    torch.manual_seed(seed)
    net = PolicyValueNet(table.observer.layout.size, table.engine.num_actions, (64, 64))
    return net, torch.from_numpy(table.observe()), torch.from_numpy(table.action_mask() > 0)


def test_bfloat16_precision_rounds_the_matmuls_and_nothing_else() -> None:
    """Under training's bf16 autocast the network's outputs stay float32, masked exactly as in
    float32, and differ from float32 only by rounding."""
    from training.device import autocast

    net, obs, mask = _net_and_batch(games=256, seed=3)
    with torch.no_grad():
        exact = net(obs, mask)
        with autocast(torch.device("cpu"), torch.bfloat16):
            rounded = net(obs, mask)
        with autocast(torch.device("cpu"), torch.float32):  # float32: no autocast at all
            same = net(obs, mask)
    for a, b, c in zip(exact, rounded, same, strict=True):
        assert b.dtype == torch.float32 and torch.equal(a, c)
    assert (rounded[0][~mask] == ILLEGAL_LOGIT).all()
    legal = mask
    assert not torch.equal(exact[0][legal], rounded[0][legal])  # bf16 did run
    torch.testing.assert_close(rounded[0][legal], exact[0][legal], atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(rounded[1], exact[1], atol=2e-2, rtol=2e-2)


def test_the_rollouts_bfloat16_copy_computes_what_autocast_computes() -> None:
    """The rollout plays a bf16 copy of the network (weights cast once), not the network under
    autocast (weights cast at every step): the same numbers, bit for bit; float32 plays ``net``."""
    from training.device import autocast, inference_copy

    net, obs, mask = _net_and_batch(games=128, seed=5)
    copy = inference_copy(net, torch.bfloat16)
    assert inference_copy(net, torch.float32) is net
    assert copy is not net and copy.policy.weight.dtype == torch.bfloat16
    assert inference_copy(copy, torch.bfloat16) is copy  # already cast: not copied again
    assert net.policy.weight.dtype == torch.float32  # the trained network is left as it was
    with torch.no_grad():
        with autocast(torch.device("cpu"), torch.bfloat16):
            expected = net(obs, mask)
        got = copy(obs.to(torch.bfloat16), mask)
        exact = net(obs, mask)
    for a, b in zip(expected, got, strict=True):
        assert b.dtype == torch.float32 and torch.equal(a, b)
    assert not torch.equal(exact[1], got[1])  # bf16 did run


def test_a_bfloat16_league_plays_its_past_policies_in_bfloat16(tiny_args) -> None:
    rules = make_rules("hearts", num_players=4)
    table = Table(rules, 16)
    table.reset(seed=2)
    net = PolicyValueNet(table.observer.layout.size, table.engine.num_actions, (32, 32))
    rng = np.random.default_rng(0)
    league = League(rules, tiny_args, rng, torch.device("cpu"), dtype=torch.bfloat16)
    league.snapshot(net)
    pooled = league.pool[0]
    assert pooled.net.policy.weight.dtype == torch.bfloat16 and net.policy.weight.dtype == torch.float32
    mask = table.action_mask()
    actions = pooled.act({"observation": table.observe(), "action_mask": mask}, rng)
    assert (mask[np.arange(16), actions] > 0).all()


def test_precision_auto_is_bfloat16_only_where_the_device_computes_it(monkeypatch) -> None:
    from training.device import native_bfloat16, resolve_precision

    cpu = torch.device("cpu")
    for name, dtype in (("float32", torch.float32), ("bfloat16", torch.bfloat16)):
        assert resolve_precision(name, cpu) == dtype
    for avx512_bf16, amx, expected in ((False, False, torch.float32), (True, False, torch.bfloat16),
                                       (False, True, torch.bfloat16)):  # fmt: skip
        monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda v=avx512_bf16: v, raising=False)
        monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda v=amx: v, raising=False)
        assert native_bfloat16(cpu) == (expected == torch.bfloat16)
        assert resolve_precision("auto", cpu) == expected
    assert not native_bfloat16(torch.device("meta"))


@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
def test_a_run_in_either_precision_is_finite_and_records_it(tmp_path, tiny_args, precision: str) -> None:
    summary = train(replace(tiny_args, run_dir=str(tmp_path), precision=precision, total_decisions=1024))
    losses = rows(tmp_path / "train.csv")
    assert len(losses) == 2 and all(math.isfinite(float(r["pg_loss"])) for r in losses)
    assert load_policy(summary["policy"])["trained"]["precision"] == precision


def test_a_bad_precision_is_refused(tiny_args) -> None:
    with pytest.raises(ValueError, match="precision must be one of auto, float32, bfloat16, got 'fp16'"):
        replace(tiny_args, precision="fp16").validate()


def _self_play_rollout(tiny_args: Args) -> tuple[PolicyValueNet, Rollout, np.ndarray, np.ndarray, Args]:
    """A tiny policy's self-play rollout of 8 four-player games x 64 steps, with its advantages."""
    rules = make_rules("hearts", num_players=4)
    table = Table(rules, 8)
    table.reset(seed=4)
    size, actions = table.observer.layout.size, table.engine.num_actions
    net = PolicyValueNet(size, actions, (8,))
    args = replace(tiny_args, self_play=1.0, opponents=())
    league = League(rules, args, np.random.default_rng(0), torch.device("cpu"))
    buf = Rollout.allocate(64, 8, 4, size, actions)
    collect(table, league, net, buf, np.random.default_rng(0), torch.device("cpu"), 1 / 26)
    adv, trainable = advantages(buf, 4, 1.0, 0.95)
    return net, buf, adv, trainable, args


def test_a_last_minibatch_of_one_decision_leaves_the_weights_finite(tiny_args) -> None:
    """The rollout's trainable decisions modulo the minibatch size can be 1: that minibatch has
    no advantage spread (its std is NaN), which once turned every weight into NaN."""
    from training.ppo import update

    net, buf, adv, trainable, args = _self_play_rollout(tiny_args)
    count = int(trainable.sum())
    assert count > 2
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    args = replace(args, minibatch_size=count - 1, update_epochs=1)  # minibatches of count - 1 and 1
    stats = update(net, optimizer, buf, adv, trainable, args, torch.device("cpu"), imitation=False)
    assert all(math.isfinite(v) for v in stats.values())
    assert all(torch.isfinite(p).all() for p in net.parameters())


def test_a_non_finite_loss_is_refused_before_it_reaches_the_weights(tiny_args) -> None:
    from training.ppo import update

    net, buf, adv, trainable, args = _self_play_rollout(tiny_args)
    adv[np.flatnonzero(trainable)[0]] = np.inf
    args = replace(args, minibatch_size=int(trainable.sum()), update_epochs=1)  # one minibatch
    before = [p.detach().clone() for p in net.parameters()]
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    with pytest.raises(FloatingPointError, match="the PPO loss is not finite .* the weights are unchanged"):
        update(net, optimizer, buf, adv, trainable, args, torch.device("cpu"), imitation=False)
    assert all(torch.equal(a, b) for a, b in zip(before, net.parameters(), strict=True))


# ---------------------------------------------------------------------- what a run says it did
TINY_FLAGS = ["--num-games", "16", "--rollout-steps", "64", "--hidden", "32", "--minibatch-size", "256",
              "--eval-deals", "8", "--eval-every", "0", "--no-progress", "--no-tensorboard"]  # fmt: skip
"""``TINY`` on the command line: one iteration = 1,024 decisions."""


def test_the_closing_summary_names_the_files_and_a_command_that_replays_the_evaluation(
    tmp_path: Path, capsys
) -> None:
    import shlex

    from hearts_cli import main

    run = tmp_path / "run"
    argv = ["train", "--preset", "spot_hearts", "--run-dir", str(run), "--total-decisions", "3072",
            "--eval-opponents", "strategy", *TINY_FLAGS]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "3,072 decisions (1,024 imitating strategy, then 2,048 PPO)" in out
    assert "stopped: the decision budget (--total-decisions 3,072)" in out
    written = out[out.index("written:") : out.index("evaluate the policy")].splitlines()[1:]
    files = {line.split()[-1] for line in written}
    assert {str(run / name) for name in ("checkpoint.pt", "policy.pt", "train.csv", "eval.csv",
                                         "learning_curve.png", "summary.json")} == files  # fmt: skip
    assert all(Path(path).exists() for path in files)
    (evaluation,) = [line.strip() for line in out.splitlines() if "policy − strategy = " in line]
    assert "over 8 duplicate deals x 4 seatings, one policy against 3 strategy" in evaluation
    command = out.split("evaluate the policy")[1].splitlines()[1].strip()
    assert command.startswith("hearts-env tournament --preset spot_hearts --players 4 --agents ppo:")
    assert "--resume --total-decisions TOTAL_DECISIONS" in out

    # The printed command plays the evaluation's tournament again: the same difference.
    assert main([*shlex.split(command)[1:], "--quiet"]) == 0
    table = capsys.readouterr().out
    diff = float(rows(run / "eval.csv")[-1]["diff"])
    pair = next(line for line in table.splitlines() if line.startswith("ppo") and " - strategy" in line)
    assert float(pair.split()[-2]) == pytest.approx(diff, abs=5e-4)
    assert len(rows(run / "eval.csv")) == 1  # the tournament's files do not replace the run's


def test_the_default_imitation_phase_leaves_room_for_ppo(tmp_path: Path) -> None:
    """With ``imitation_decisions`` None, imitation ends at a quarter of ``total_decisions`` (here
    one iteration of four), then PPO trains; the summary and the curve's title say both."""
    args = replace(TINY, run_dir=str(tmp_path), total_decisions=4 * 1024, imitation_decisions=None)
    summary = train(args)
    assert [r["phase"] for r in rows(tmp_path / "train.csv")] == ["imitation", "ppo", "ppo", "ppo"]
    assert (summary["imitation_decisions"], summary["ppo_decisions"]) == (1024, 3 * 1024)


def test_the_default_imitation_phase_ends_at_a_quarter_of_the_time_budget() -> None:
    from training.config import IMITATION_DECISIONS, imitating

    args = replace(TINY, minutes=2.0, imitation_decisions=None)
    assert imitating(args, decisions=10**6, imitated=10**6, elapsed_s=29.0)
    assert not imitating(args, decisions=10**6, imitated=10**6, elapsed_s=30.0)
    assert not imitating(args, decisions=IMITATION_DECISIONS, imitated=IMITATION_DECISIONS, elapsed_s=1.0)
    assert not imitating(args, decisions=2048, imitated=1024, elapsed_s=1.0)  # PPO has begun: it stays
    explicit = replace(args, imitation_decisions=10**9)
    assert imitating(explicit, decisions=10**6, imitated=10**6, elapsed_s=100.0)  # a number of decisions
    assert not imitating(replace(args, imitation_decisions=0), decisions=0, imitated=0, elapsed_s=0.0)


def test_a_resumed_run_in_ppo_stays_in_ppo_when_its_budget_grows(tmp_path: Path) -> None:
    args = replace(TINY, run_dir=str(tmp_path), total_decisions=2 * 1024, imitation_decisions=None)
    train(args)  # a quarter of 2,048 decisions: one iteration of imitation
    summary = train(replace(args, total_decisions=6 * 1024, resume=True))  # a quarter is now 1,536
    assert [r["phase"] for r in rows(tmp_path / "train.csv")] == ["imitation"] + ["ppo"] * 5
    assert (summary["imitation_decisions"], summary["ppo_decisions"]) == (1024, 5 * 1024)


def test_an_imitation_budget_the_run_cannot_finish_is_announced(tmp_path: Path, capsys) -> None:
    args = replace(TINY, run_dir=str(tmp_path / "decisions"), total_decisions=2048, imitation_decisions=10**6)
    summary = train(args)
    err = capsys.readouterr().err
    assert "--imitation-decisions 1,000,000 is not below --total-decisions 2,048: this run ends" in err
    assert summary["ppo_decisions"] == 0
    assert {r["phase"] for r in rows(tmp_path / "decisions" / "train.csv")} == {"imitation"}
    from training.summary import summary_text

    assert "the run never left imitation" in summary_text(summary)

    timed = replace(TINY, run_dir=str(tmp_path / "minutes"), minutes=0.05, imitation_decisions=10**9)
    train(timed)  # three seconds: the rate measured on the second iteration says it cannot finish
    err = capsys.readouterr().err
    assert "--imitation-decisions 1,000,000,000 takes about" in err and "this run ends in imitation" in err


def test_the_learning_curve_title_names_its_phases() -> None:
    from training.logs import curve_title

    assert curve_title("spot_hearts", 4, 0, 5000) == "spot_hearts, 4 players: PPO"
    assert curve_title("spot_hearts", 4, 5000, 5000) == "spot_hearts, 4 players: imitation"
    both = "hearts, 4 players: imitation then PPO (from decision 4,096)"
    assert curve_title("hearts", 4, 4096, 8192) == both


def test_the_run_dir_defaults_to_the_preset_and_its_players(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    summary = train(replace(TINY, preset="black_maria", total_decisions=1024, imitation_decisions=0))
    assert summary["run_dir"] == "runs/black_maria-3p"
    assert (tmp_path / "runs/black_maria-3p/policy.pt").exists()
    trained = load_policy(tmp_path / "runs/black_maria-3p/policy.pt")["trained"]
    assert "--run-dir runs/black_maria-3p" in trained["command"]


def test_ctrl_c_keeps_the_last_checkpoint_and_resume_goes_on_as_if_uninterrupted(
    tmp_path: Path, monkeypatch
) -> None:
    import training.ppo

    whole = replace(TINY, run_dir=str(tmp_path / "whole"), total_decisions=4 * 1024, imitation_decisions=1024)
    train(whole)
    real, calls = training.ppo.update, []

    def interrupted(*args, **kwargs):  # Ctrl-C in the third iteration, its rollout already played
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(training.ppo, "update", interrupted)
    split = replace(whole, run_dir=str(tmp_path / "split"))
    with pytest.raises(KeyboardInterrupt) as stop:  # the command's one line and exit status say it
        train(split)
    kept = "the checkpoint holds iteration 2 (2,048 decisions); the same command with --resume continues"
    assert stop.value.kept == kept and stop.value.signum == signal.SIGINT
    summary = json.loads((tmp_path / "split" / "summary.json").read_text())
    assert summary["stopped"] == f"interrupted (Ctrl-C); {kept}" and "resume_command" in summary
    monkeypatch.setattr(training.ppo, "update", real)
    assert train(replace(split, resume=True))["iterations"] == 4
    ours, theirs = rows(tmp_path / "whole" / "train.csv"), rows(tmp_path / "split" / "train.csv")
    assert [r["pg_loss"] for r in ours] == [r["pg_loss"] for r in theirs] and len(ours) == 4


def test_an_evaluation_reads_as_the_tournament_pair_it_is() -> None:
    from training.summary import evaluation_text

    result = {"opponent": "smear", "seats": ["ppo:checkpoint=p.pt", "smear"] * 2, "seatings": 2,
              "deals": 1000, "diff": -1.349, "ci95": 0.131}  # fmt: skip
    assert evaluation_text(result, "higher") == (
        "policy − smear = -1.35 ± 0.13 points a deal (higher is better) over 1000 duplicate deals x 2 "
        "seatings, the policy and its partner against 2 smear"
    )


@pytest.mark.parametrize("preset", ["partnership_hearts", "smear_partnership", "hearts"])
def test_the_league_seats_the_learner_in_every_seat_of_its_side(preset: str) -> None:
    from training.rollout import LEARNER

    rules = make_rules(preset, num_players=4)
    args = replace(TINY, num_games=400, self_play=0.0, opponents=("random",))
    league = League(rules, args, np.random.default_rng(0), torch.device("cpu"))
    league.seat(np.arange(400))
    learner = league.controller == LEARNER  # (B, P)
    if rules.teams:
        team_of = np.array(rules.team_of)
        for game in learner:  # one whole side, never more
            assert len(set(team_of[game])) == 1 and game.sum() == (team_of == team_of[game][0]).sum()
    else:
        assert (learner.sum(axis=1) == 1).all()
    assert learner.any(axis=0).all()  # every seat drawn


def test_per_row_copy_weights_equal_one_weight_where_they_agree_and_count_where_differ(tiny_args) -> None:
    """``update(copy=..., copy_coef=array)``: a weight array with one value for every teacher's row
    trains exactly as that value given once; giving the teacher's rows different weights changes
    the step (each row is weighed by its own)."""
    from training.ppo import update

    net, buf, adv, trainable, args = _self_play_rollout(tiny_args)
    args = replace(args, update_epochs=1, minibatch_size=int(trainable.sum()))
    copy = trainable & (np.arange(len(trainable)) % 3 == 0)
    assert 0 < copy.sum() < trainable.sum()
    start = {k: v.detach().clone() for k, v in net.state_dict().items()}

    def step(coef):
        net.load_state_dict(start)
        optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
        torch.manual_seed(0)
        stats = update(net, optimizer, buf, adv, trainable, args, torch.device("cpu"), False,
                       copy=copy, copy_coef=coef)  # fmt: skip
        return stats, [p.detach().clone() for p in net.parameters()]

    one, after_one = step(0.3)
    rows, after_rows = step(np.where(copy, 0.3, 0.0).astype(np.float32))
    assert one == rows
    assert all(torch.allclose(a, b, atol=1e-7) for a, b in zip(after_one, after_rows, strict=True))
    mixed = np.where(copy, np.where(np.arange(len(copy)) % 2 == 0, 0.05, 0.6), 0.0).astype(np.float32)
    _, after_mixed = step(mixed)
    assert not all(torch.allclose(a, b, atol=1e-6) for a, b in zip(after_one, after_mixed, strict=True))


# ---------------------------------------------------------------------- overlap
def test_overlap_plays_ahead_between_checkpoints_and_resumes_as_if_uninterrupted(tmp_path, monkeypatch):
    """``overlap``: the next rollout is played during the update, with the weights from before it,
    except in an iteration that ends with a checkpoint or the decision budget; a run stopped at a
    checkpoint and resumed trains exactly as the uninterrupted one."""
    import training.ppo

    played_ahead, lag = [], []
    real_start = training.ppo.Ahead.start

    def start(self, play):
        played_ahead.append(1)
        real_start(self, play)
        lag.append(all(torch.equal(a, b) for a, b in zip(self.actor.state_dict().values(),
                                                         self.net.state_dict().values())))  # fmt: skip

    monkeypatch.setattr(training.ppo.Ahead, "start", start)
    base = replace(TINY, overlap=True, checkpoint_every=3, imitation_decisions=1024, pool_every=2)
    whole = replace(base, run_dir=str(tmp_path / "whole"), total_decisions=7 * 1024)
    summary = train(whole)
    assert summary["iterations"] == 7
    # iterations 2..7 are PPO; 3 and 6 end with a checkpoint, 7 with the budget: 2, 4, 5 play ahead
    assert len(played_ahead) == 3 and all(lag)  # the actor starts from the weights the update starts from
    losses = rows(tmp_path / "whole" / "train.csv")
    assert all(math.isfinite(float(r["pg_loss"])) for r in losses)
    split = replace(base, run_dir=str(tmp_path / "split"), total_decisions=3 * 1024)
    train(split)
    train(replace(split, total_decisions=7 * 1024, resume=True))
    ours, theirs = losses, rows(tmp_path / "split" / "train.csv")
    assert [r["pg_loss"] for r in ours] == [r["pg_loss"] for r in theirs] and len(theirs) == 7
    a = load_policy(tmp_path / "whole" / "policy.pt")["model"]
    b = load_policy(tmp_path / "split" / "policy.pt")["model"]
    assert all(torch.equal(a[name], b[name]) for name in a)
    sync = replace(base, overlap=False, run_dir=str(tmp_path / "sync"), total_decisions=7 * 1024)
    train(sync)  # the lag is a different algorithm: not the synchronous run's numbers
    assert [r["pg_loss"] for r in rows(tmp_path / "sync" / "train.csv")] != [r["pg_loss"] for r in ours]


def test_an_error_in_the_rollout_played_ahead_stops_the_run(tmp_path, monkeypatch):
    import training.ppo

    real, calls = training.ppo.collect, []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:  # the first rollout played ahead (iteration 2's update)
            raise RuntimeError("the engine broke")
        return real(*args, **kwargs)

    monkeypatch.setattr(training.ppo, "collect", failing)
    args = replace(TINY, overlap=True, checkpoint_every=5, imitation_decisions=1024,
                   run_dir=str(tmp_path), total_decisions=5 * 1024)  # fmt: skip
    with pytest.raises(RuntimeError, match="the engine broke"):
        train(args)


def test_overlap_is_refused_where_it_cannot_run(tmp_path):
    with pytest.raises(ValueError, match="--overlap .* not with --ray"):
        replace(TINY, overlap=True, ray="local").validate()
    from training.mixture import MixtureSettings, train_mixture

    with pytest.raises(ValueError, match="--overlap .* not with --family"):
        train_mixture(replace(TINY, overlap=True, run_dir=str(tmp_path)), MixtureSettings("hearts"))


def test_anneal_lr_lowers_the_step_size_with_the_budget_spent(tmp_path: Path) -> None:
    """``--anneal-lr``: each iteration's step size is the learning rate times the share of the
    budget left; without it the step size stays; a run without a finite budget is refused."""
    import torch

    def last_lr(run: Path) -> float:
        saved = torch.load(run / "checkpoint.pt", weights_only=True)
        return saved["optimizer"]["param_groups"][0]["lr"]

    common = replace(TINY, total_decisions=4096, imitation_decisions=1024, minutes=1e6, learning_rate=1e-3)
    train(replace(common, run_dir=str(tmp_path / "annealed"), anneal_lr=True))
    assert last_lr(tmp_path / "annealed") == pytest.approx(1e-3 * 1 / 4, rel=1e-3)  # before the 4th of 4
    train(replace(common, run_dir=str(tmp_path / "flat")))
    assert last_lr(tmp_path / "flat") == 1e-3
    with pytest.raises(ValueError, match="anneal_lr falls over the budget: give finite minutes or total"):
        replace(TINY, anneal_lr=True, minutes=float("inf")).validate()
