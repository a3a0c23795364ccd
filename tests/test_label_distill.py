"""Distillation from search labels in the family training loop (``hearts-env train --family F
--labels DIR --label-weight C``): the term changes the update, a resumed run is the uninterrupted
one, labels of another family or half the flags are refused."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import torch  # noqa: E402

from hearts_cli import main  # noqa: E402
from training.config import Args  # noqa: E402
from training.labels import LabelRun, LabelSettings, LabelSource  # noqa: E402
from training.mixture import MixtureSettings, train_mixture  # noqa: E402

CONFIGS = (("hearts", 4), ("black_maria", 3))
STEP = 8 * 80
"""Decisions an iteration plays: 8 games of 80 steps, a whole deal of either configuration."""


@pytest.fixture(scope="module")
def labels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few pimc-labelled deals of two Hearts configurations (searched cards, and passes without values)."""
    out = tmp_path_factory.mktemp("labels")
    settings = LabelSettings(family="hearts", agent="pimc:worlds=2:rollout=fast", games_per_shard=1,
                             configs=CONFIGS)  # fmt: skip
    LabelRun(settings, out, 150).run(progress=False)
    return out


def _args(run: Path, **changes) -> Args:
    settings = dict(num_games=8, rollout_steps=80, total_decisions=2 * STEP, minutes=10.0,
                    imitation_decisions=0, eval_every=0, eval_deals=2, minibatch_size=128, hidden=(16,),
                    run_dir=str(run), progress=False, threads=1, pool_every=1, pool_size=1,
                    tensorboard=False, checkpoint_every=1)  # fmt: skip
    settings.update(changes)
    return Args(**settings)


def _mix(labels: Path | None, weight: float = 1.0) -> MixtureSettings:
    extra = dict(labels=str(labels), label_weight=weight, label_batch=64) if labels else {}
    return MixtureSettings("hearts", shards=2, configs=CONFIGS, eval_presets=("hearts",), **extra)


def _weights(run: Path) -> dict[str, torch.Tensor]:
    return torch.load(run / "checkpoint.pt", weights_only=True)["model"]


def test_the_labels_read_in_the_universal_layout(labels: Path) -> None:
    source = LabelSource(labels, "hearts")
    batch = source.draw(np.random.default_rng(0), 50)
    assert batch["obs"].shape[0] == 50 and batch["obs"].dtype == np.float32
    assert batch["mask"][np.arange(50), batch["action"]].all()  # the choice legal in the universal layout
    searched = ~np.isnan(batch["values"])
    assert searched.any() and not (searched & ~batch["mask"]).any()
    again = source.draw(np.random.default_rng(0), 50)
    assert all((np.array_equal(batch[k], again[k], equal_nan=True)) for k in batch)


def test_the_label_term_changes_the_update(tmp_path: Path, labels: Path) -> None:
    one = STEP  # one iteration: the same rollout with and without labels, the term the only difference
    train_mixture(_args(tmp_path / "plain", total_decisions=one), _mix(None))
    train_mixture(_args(tmp_path / "labelled", total_decisions=one), _mix(labels))
    rows = list(csv.DictReader((tmp_path / "labelled" / "train.csv").open()))
    assert len(rows) == 1 and float(rows[0]["label_ce"]) > 0 and float(rows[0]["label_v_loss"]) > 0
    plain_rows = list(csv.DictReader((tmp_path / "plain" / "train.csv").open()))
    assert plain_rows[0]["pg_loss"] == rows[0]["pg_loss"]  # the PPO part saw the same decisions
    plain, labelled = _weights(tmp_path / "plain"), _weights(tmp_path / "labelled")
    assert any(not torch.equal(plain[k], labelled[k]) for k in plain)


def test_more_label_steps_take_more_steps(tmp_path: Path, labels: Path) -> None:
    one = STEP
    train_mixture(_args(tmp_path / "one", total_decisions=one), _mix(labels))
    three = dataclasses.replace(_mix(labels), label_steps=3)
    train_mixture(_args(tmp_path / "three", total_decisions=one), three)
    single, triple = _weights(tmp_path / "one"), _weights(tmp_path / "three")
    assert any(not torch.equal(single[k], triple[k]) for k in single)
    saved = [torch.load(tmp_path / r / "checkpoint.pt", weights_only=True) for r in ("one", "three")]
    drawn = [state["label_rng"] for state in saved]
    assert drawn[0] != drawn[1]  # three minibatches drawn, not one
    with pytest.raises(ValueError, match="--label-steps needs --labels"):
        train_mixture(_args(tmp_path / "none"), MixtureSettings("hearts", configs=CONFIGS, label_steps=2))


def test_a_resumed_run_is_the_uninterrupted_one(tmp_path: Path, labels: Path) -> None:
    train_mixture(_args(tmp_path / "once", total_decisions=3 * STEP), _mix(labels))
    train_mixture(_args(tmp_path / "twice"), _mix(labels))
    train_mixture(_args(tmp_path / "twice", total_decisions=3 * STEP, resume=True), _mix(labels))
    once, twice = _weights(tmp_path / "once"), _weights(tmp_path / "twice")
    assert all(torch.equal(once[k], twice[k]) for k in once)
    with pytest.raises(ValueError, match="other settings.*label_weight"):
        train_mixture(_args(tmp_path / "twice", total_decisions=4 * STEP, resume=True), _mix(labels, 2.0))


def test_other_labels_and_half_the_flags_are_refused(tmp_path: Path, labels: Path, capsys) -> None:
    smear = tmp_path / "smear"
    LabelRun(LabelSettings(family="smear", agent="smear", games_per_shard=1), smear, 10).run(progress=False)
    with pytest.raises(ValueError, match="labels of 'smear', not of 'hearts'"):
        train_mixture(_args(tmp_path / "run"), _mix(smear))
    with pytest.raises(ValueError, match="--labels DIR and --label-weight C > 0 go together"):
        train_mixture(_args(tmp_path / "run"), dataclasses.replace(_mix(labels), label_weight=0.0))
    assert (
        main(["train", "--labels", str(labels), "--label-weight", "1", "--run-dir", str(tmp_path / "r")]) == 2
    )
    assert "give --family" in capsys.readouterr().err
