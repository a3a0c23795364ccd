"""One network for a family (:mod:`training.mixture`, ``hearts-env train --family``): the schedule,
a short run, its universal policy in other configurations, resuming."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("torch")

import torch  # noqa: E402

import agents  # noqa: E402
import agents.ppo  # noqa: E402
import agents.shipped  # noqa: E402
from agents.ppo import PPOAgent  # noqa: E402
from evaluation.duplicate import Tournament, TournamentConfig  # noqa: E402
from hearts_env.presets import PRESETS, all_configs, make_rules  # noqa: E402
from training.config import Args  # noqa: E402
from training.mixture import MixtureSettings, schedule, train_mixture  # noqa: E402


def test_schedule_draws_presets_uniformly_then_player_counts():
    rng = np.random.default_rng(0)
    draws = [schedule("hearts", rng) for _ in range(3000)]
    known = set(all_configs("hearts"))
    assert all((r.preset, r.num_players) in known for r in draws)
    presets = Counter(r.preset for r in draws)
    hearts_presets = [name for name, spec in PRESETS.items() if spec.game == "hearts"]
    assert set(presets) == set(hearts_presets)
    expected = len(draws) / len(hearts_presets)
    assert all(abs(count - expected) < 0.35 * expected for count in presets.values()), presets
    black_maria = [r.num_players for r in draws if r.preset == "black_maria"]
    counts = PRESETS["black_maria"].counts
    share = black_maria.count(PRESETS["black_maria"].default_players) / len(black_maria)
    assert abs(share - (0.5 + 0.5 / len(counts))) < 0.12, share
    listed = [schedule("smear", rng, (("smear_widow", 3), ("smear_nine_card", 5))) for _ in range(50)]
    assert {(r.preset, r.num_players) for r in listed} == {("smear_widow", 3), ("smear_nine_card", 5)}


def test_weights_draw_the_named_presets_that_many_times_as_often():
    rng = np.random.default_rng(1)
    weights = (("partnership_hearts", 4.0), ("hearts", 0.5))
    draws = Counter(schedule("hearts", rng, weights=weights).preset for _ in range(4000))
    others = [count for name, count in draws.items() if name not in ("partnership_hearts", "hearts")]
    unit = sum(others) / len(others)
    assert abs(draws["partnership_hearts"] / unit - 4.0) < 0.8, draws
    assert abs(draws["hearts"] / unit - 0.5) < 0.2, draws


def _args(run_dir, **changes):
    settings = dict(
        num_games=16,
        rollout_steps=48,
        total_decisions=3 * 16 * 48,
        minutes=10.0,
        imitation_decisions=16 * 48,
        eval_every=0,
        eval_deals=4,
        minibatch_size=256,
        hidden=(32,),
        run_dir=str(run_dir),
        progress=False,
        threads=1,
        pool_every=1,
        pool_size=2,
        tensorboard=False,
    )
    settings.update(changes)
    return Args(**settings)


def test_a_short_run_plays_every_configuration_and_resumes(tmp_path, monkeypatch):
    mix = MixtureSettings(
        "hearts", shards=2, configs=(("hearts", 4), ("black_maria", 3)), eval_presets=("hearts",)
    )
    summary = train_mixture(_args(tmp_path), mix)
    assert summary["iterations"] == 3 and summary["imitation_decisions"] == 16 * 48
    rows = list(csv.DictReader((tmp_path / "train.csv").open()))
    assert [row["phase"] for row in rows] == ["imitation", "ppo", "ppo"]
    assert all(set(row["configs"].split()) <= {"hearts-4", "black_maria-3"} for row in rows)
    evaluations = list(csv.DictReader((tmp_path / "eval.csv").open()))
    assert [(e["preset"], e["opponent"], e["deals"]) for e in evaluations] == [("hearts", "strategy", "4")]
    assert (tmp_path / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    policy = tmp_path / "policy.pt"
    for preset, n in (("spot_hearts", 5), ("auction_hearts", 4), ("cancellation_hearts", 7)):
        rules = make_rules(preset, num_players=n)
        agent = PPOAgent(rules, checkpoint=policy)
        assert agent.universal is not None
        spec = f"ppo:checkpoint={policy}"
        config = TournamentConfig(
            preset=preset, num_players=n, agents=[spec] + ["strategy"] * (n - 1), deals=2, tables=2, seed=0
        )
        report = Tournament(config, progress=False).run()
        assert sum(row["illegal"] for row in report["agents"]) == 0
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    shutil.copy(policy, shipped / "universal-hearts.pt")
    shutil.copy(agents.shipped.shipped_path("hearts", 4), shipped / "hearts-4p.pt")
    monkeypatch.setattr(agents.shipped, "SHIPPED_DIR", shipped)
    assert agents.make("ppo", "spot_hearts", 5).network == "universal"
    assert agents.make("ppo", "hearts", 4).network == "specialist"
    assert agents.make("ppo", "hearts", 4, network="universal").network == "universal"
    assert agents.from_spec("ppo:network=universal", make_rules("hearts")).network == "universal"
    with pytest.raises(ValueError, match="no PPO checkpoint ships for spot_hearts"):
        agents.make("ppo", "spot_hearts", 5, network="specialist")
    with pytest.raises(ValueError, match="no universal network ships for the smear family"):
        agents.make("ppo", "smear_widow", network="universal")
    with pytest.raises(ValueError, match="network must be one of auto, specialist, universal"):
        agents.make("ppo", "hearts", 4, network="mine")
    with pytest.raises(ValueError, match="not both"):
        agents.make("ppo", "hearts", 4, network="universal", checkpoint=policy)
    with pytest.raises(ValueError, match="no PPO checkpoint ships for smear_widow"):
        agents.make("ppo", "smear_widow")
    with pytest.raises(ValueError, match="universal network of the 'hearts' family"):
        PPOAgent(make_rules("smear_widow"), checkpoint=policy)
    with pytest.raises(FileExistsError, match="--resume"):
        train_mixture(_args(tmp_path), mix)
    with pytest.raises(ValueError, match="other settings.*learning_rate"):
        train_mixture(_args(tmp_path, resume=True, learning_rate=1e-3), mix)
    # --hidden left out on a resume: the run's own widths (32), not a fresh family run's 256,256
    more = train_mixture(_args(tmp_path, resume=True, total_decisions=4 * 16 * 48, hidden=None), mix)
    assert more["iterations"] == 4 and torch.load(policy, weights_only=True)["hidden"] == [32]
    assert len(list(csv.DictReader((tmp_path / "train.csv").open()))) == 4


def test_a_run_goes_on_from_a_policy_file_without_imitating_again(tmp_path):
    mix = MixtureSettings(
        "hearts", shards=2, configs=(("hearts", 4), ("black_maria", 3)), eval_presets=("hearts",)
    )
    first = train_mixture(_args(tmp_path / "first"), mix)
    policy = tmp_path / "first" / "policy.pt"
    done = first["decisions"]
    start = dataclasses.replace(mix, init=str(policy))
    same = train_mixture(_args(tmp_path / "same", total_decisions=done), start)
    assert same["iterations"] == 0 and same["decisions"] == done
    before = torch.load(policy, weights_only=True)["model"]
    after = torch.load(tmp_path / "same" / "policy.pt", weights_only=True)["model"]
    assert all(torch.equal(before[k], after[k]) for k in before)
    longer = 128  # steps enough to finish deals: an unfinished deal's decisions are not trained on
    more = train_mixture(
        _args(tmp_path / "more", rollout_steps=longer, total_decisions=done + 16 * longer), start
    )
    assert (
        more["iterations"] == 1
        and more["decisions"] == done + 16 * longer
        and more["imitation_decisions"] == 0
    )
    rows = list(csv.DictReader((tmp_path / "more" / "train.csv").open()))
    assert [row["phase"] for row in rows] == ["ppo"]
    assert more["decisions_per_s"] <= int(rows[0]["decisions_per_s"]) * 1.01  # this run's, not the file's too
    trained = torch.load(tmp_path / "more" / "policy.pt", weights_only=True)["model"]
    assert not all(torch.equal(before[k], trained[k]) for k in before)
    with pytest.raises(ValueError, match="not a universal policy file"):
        train_mixture(
            _args(tmp_path / "c"), dataclasses.replace(mix, init=str(tmp_path / "first" / "checkpoint.pt"))
        )
    with pytest.raises(ValueError, match="--hidden must match"):
        train_mixture(_args(tmp_path / "h", hidden=(16,)), start)
    with pytest.raises(ValueError, match="of the hearts family, not of smear"):
        train_mixture(_args(tmp_path / "s"), MixtureSettings("smear", init=str(policy)))


def test_bad_settings_are_refused(tmp_path):
    with pytest.raises(ValueError, match="not a smear configuration"):
        train_mixture(_args(tmp_path), MixtureSettings("smear", configs=(("hearts", 4),)))
    with pytest.raises(ValueError, match="--shards"):
        train_mixture(_args(tmp_path), MixtureSettings("hearts", shards=17))
    with pytest.raises(ValueError, match="not a hearts preset"):
        train_mixture(_args(tmp_path), MixtureSettings("hearts", eval_presets=("smear_widow",)))


def test_kill_stops_a_background_run_as_ctrl_c_does(tmp_path):
    """A run started in the background of a script (SIGINT ignored, as the shell leaves it; the
    command listens to it again) and stopped with ``kill`` keeps its last checkpoint, says in one
    line what it holds and exits 143."""
    import signal
    import subprocess
    import sys
    import time

    run = tmp_path / "run"
    command = [
        sys.executable, "-m", "hearts_cli", "train", "--family", "hearts", "--configs", "hearts-4",
        "--num-games", "16", "--rollout-steps", "48", "--shards", "1", "--imitation-decisions", "0",
        "--minibatch-size", "256", "--checkpoint-every", "1", "--eval-every", "0", "--minutes", "30",
        "--no-tensorboard", "--run-dir", str(run),
    ]  # fmt: skip
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not (run / "checkpoint.pt").exists() and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.2)
        assert (run / "checkpoint.pt").exists(), child.communicate()[0] if child.poll() is not None else ""
        child.terminate()  # kill (SIGTERM) stops it as Ctrl-C does
        out, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 143, out  # 128 + SIGTERM, in one line saying what the checkpoint holds
    saved = agents.ppo.load_file(run / "checkpoint.pt", "a mixture checkpoint")
    done = saved["progress"]["iteration"]
    assert done >= 1
    kept = f"interrupted (SIGTERM); the checkpoint holds iteration {done} "
    assert out.splitlines()[-1].startswith(f"hearts-env: {kept}"), out
    assert json.loads((run / "summary.json").read_text())["stopped"].startswith(kept)


def test_moon_decisions_are_the_shooters_own_in_deals_that_ended():
    """The backward walk of :func:`training.rollout.moon_decisions` against a plain forward one:
    every decision of a game belongs to the next deal end of that game (or to no finished deal)."""
    from hearts_env.table import Table
    from hearts_env.universal import universal_view, vocabulary
    from training.rollout import League, Rollout, collect, moon_decisions

    rules = make_rules("hearts")
    games, steps = 24, 150  # about two and a half deals a game: some end inside, the last one not
    args = Args(num_games=games, rollout_steps=steps)
    vocab = vocabulary("hearts")
    buf = Rollout.allocate(steps, games, 4, vocab.size, vocab.num_actions)
    table = Table(rules, games)
    table.reset(seed=5)
    rng = np.random.default_rng(5)
    league = League(rules, args, rng, torch.device("cpu"), universal=True, heuristics=[])
    league.seat(np.arange(games))
    moons = np.full((steps, games), -1, np.int64)
    collect(table, league, None, buf, rng, torch.device("cpu"), 1.0, agents.make("strategy", "hearts"),
            view=universal_view(rules), moons=moons)  # fmt: skip
    shot = moon_decisions(buf, moons)
    expected = np.zeros(buf.size, bool)
    for g in range(games):
        rows = [(t, i) for t in range(steps) for i in range(*buf.offsets[t : t + 2]) if buf.game[i] == g]
        pending: list[int] = []
        for t, i in rows:
            pending.append(i)
            if buf.deal_end[t, g]:
                for j in pending:
                    expected[j] = buf.seat[j] == moons[t, g]
                pending = []
    assert buf.size == steps * games  # the teacher plays every seat: every decision stored
    assert (moons[~buf.deal_end] == -1).all()
    assert 0 < (moons >= 0).sum() < buf.deal_end.sum()  # some deals shot, not all
    assert np.array_equal(shot, expected)
    assert shot.sum() >= 13 * (moons >= 0).sum()  # a shooter makes at least its 13 plays


def _teacher_run(tmp_path, steps: int, **teacher) -> tuple[MixtureSettings, list[dict[str, str]]]:
    """Three iterations (imitation, then two of PPO with a teacher's shard) of a two-configuration
    schedule; the settings and the rows of ``train.csv``."""
    mix = MixtureSettings(
        "hearts", shards=2, configs=(("hearts", 4), ("black_maria", 3)), eval_presets=("hearts",), **teacher
    )
    summary = train_mixture(_args(tmp_path, rollout_steps=steps, total_decisions=3 * 16 * steps), mix)
    rows = list(csv.DictReader((tmp_path / "train.csv").open()))
    assert [row["phase"] for row in rows] == ["imitation", "ppo", "ppo"]
    assert summary["decisions"] == 3 * 16 * steps  # the teacher's games are not the learner's decisions
    return mix, rows


def test_moon_imitation_adds_the_teachers_moons_to_the_update(tmp_path):
    mix, rows = _teacher_run(tmp_path, 160, moon_imitation=0.5)
    assert rows[0]["copied"] == "0" and "moon:" not in rows[0]["configs"]
    assert all(row["configs"].split()[-1] in ("moon:hearts-4", "moon:black_maria-3") for row in rows[1:])
    assert sum(int(row["copied"]) for row in rows[1:]) > 0
    assert all(float(row["copy_loss"]) > 0 for row in rows[1:] if int(row["copied"]))
    with pytest.raises(ValueError, match="other settings.*moon_imitation"):
        train_mixture(
            _args(tmp_path, resume=True, rollout_steps=160),
            dataclasses.replace(mix, moon_imitation=1.0),
        )
    chosen = dataclasses.replace(mix, moon_configs=(("partnership_hearts", 4),))
    train_mixture(_args(tmp_path / "chosen", rollout_steps=160, total_decisions=2 * 16 * 160), chosen)
    rows = list(csv.DictReader((tmp_path / "chosen" / "train.csv").open()))
    assert rows[1]["configs"].split()[-1] == "moon:partnership_hearts-4"  # not in the schedule itself


def test_distillation_adds_the_shipped_specialists_decisions_to_the_update(tmp_path):
    mix, rows = _teacher_run(tmp_path, 64, distill=0.5)
    assert rows[0]["distilled"] == "0" and "distill:" not in rows[0]["configs"]
    # every configuration of the family where a specialist ships, not only the schedule's
    ships = agents.shipped.shipped_path
    shipped = {f"distill:{p}-{n}" for p, n in all_configs("hearts") if ships(p, n).exists()}
    assert {"distill:hearts-4", "distill:black_maria-3"} <= shipped
    assert all(row["configs"].split()[-1] in shipped for row in rows[1:])
    assert all(int(row["distilled"]) == 8 * 64 for row in rows[1:])  # 16 // 2 games, every decision
    assert all(float(row["copy_loss"]) > 0 for row in rows[1:])
    with pytest.raises(ValueError, match="other settings.*distill"):
        train_mixture(_args(tmp_path, resume=True, rollout_steps=64), dataclasses.replace(mix, distill=1.0))
    both = dataclasses.replace(mix, distill_configs=(("black_maria", 3),), moon_imitation=0.2)
    train_mixture(_args(tmp_path / "both", rollout_steps=160, total_decisions=2 * 16 * 160), both)
    rows = list(csv.DictReader((tmp_path / "both" / "train.csv").open()))
    assert rows[1]["configs"].split()[-2:][1] == "distill:black_maria-3"
    assert rows[1]["configs"].split()[-2].startswith("moon:")
    assert int(rows[1]["distilled"]) == 8 * 160


def test_a_specialist_with_no_shipped_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(agents.shipped, "SHIPPED_DIR", tmp_path / "nothing")
    with pytest.raises(ValueError, match="--distill: no specialist ships for a hearts configuration"):
        train_mixture(_args(tmp_path / "run"), MixtureSettings("hearts", distill=1.0))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (dict(configs=(("hearts_1887", 4),), moon_imitation=1.0), "no configuration .* has a moon"),
        (dict(moon_imitation=-1.0), "--moon-imitation must be a number >= 0"),
        (dict(moon_imitation=1.0, moon_configs=(("hearts_1887", 4),)),
         "hearts_1887-4 is not a hearts configuration with a moon"),
        (dict(moon_configs=(("hearts", 4),)), "needs --moon-imitation"),
        (dict(distill=1.0, distill_configs=(("hearts", 5),)), "no specialist ships for hearts-5"),
        (dict(distill=1.0, distill_configs=(("smear_partnership", 4),)),
         "no specialist ships for smear_partnership-4 \\(hearts family\\)"),
        (dict(distill_configs=(("hearts", 4),)), "needs --distill"),
        (dict(distill=float("nan")), "--distill must be a number >= 0"),
    ],
)  # fmt: skip
def test_bad_teacher_settings_are_refused_before_the_run_starts(tmp_path, settings, message):
    with pytest.raises(ValueError, match=message):
        train_mixture(_args(tmp_path / "run"), MixtureSettings("hearts", **settings))
    assert not (tmp_path / "run").exists()
