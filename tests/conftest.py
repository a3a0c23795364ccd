"""Fixtures shared by test modules: a finished tiny training run (``test_resume_files`` and the
resume-file rows of ``test_bad_inputs``) and a resumable tournament record (``test_tournament``
and ``test_bad_inputs``). Torch and the benchmarks are imported only when a fixture is used."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def tiny_args() -> Any:
    """One iteration of 8 games x 64 steps (a whole 4-player deal each), with a past policy in
    the pool: the smallest ``training.ppo.Args`` that writes a resumable run."""
    pytest.importorskip("torch")
    from training.ppo import Args

    return Args(
        num_games=8, rollout_steps=64, hidden=(8,), minibatch_size=128, update_epochs=1, eval_deals=4,
        eval_every=0, checkpoint_every=1, pool_every=1, opponents=("ducker",), eval_opponents=("random",),
        progress=False, tensorboard=False, minutes=5.0, total_decisions=512, imitation_decisions=0,
    )  # fmt: skip


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory, tiny_args: Any) -> Path:
    """A finished tiny run: checkpoint.pt and policy.pt (read only: copy it to change it)."""
    from training.ppo import train

    path = tmp_path_factory.mktemp("run")
    train(replace(tiny_args, run_dir=str(path)))
    return path


@pytest.fixture
def run_copy(tiny_run: Path, tmp_path: Path) -> Path:
    """A copy of the tiny run this test may change."""
    return Path(shutil.copytree(tiny_run, tmp_path / "run"))


@pytest.fixture
def resume(tiny_args: Any) -> Callable[[Path], dict[str, Any]]:
    """Resume a run directory for one more iteration; returns the training summary."""
    from training.ppo import train

    return lambda run_dir: train(replace(tiny_args, run_dir=str(run_dir), resume=True, total_decisions=1024))


@pytest.fixture
def resumable() -> Any:
    """Two tables of three rounds: one round played leaves a resumable record."""
    from evaluation.duplicate import TournamentConfig

    return TournamentConfig(agents=["strategy", "random"], deals=6, tables=2, seed=5)


@pytest.fixture
def record(tmp_path: Path, resumable: Any) -> Path:
    """A tournament file after one of three rounds, written by ``resumable``."""
    from evaluation.duplicate import Tournament

    path = tmp_path / "t.json"
    Tournament(resumable, json_path=path, progress=False).run(max_rounds=1)
    return path
