"""One training loop (:mod:`training.run`) under both schedules: a single configuration
(``hearts-env train --preset``) and a family's universal network (``hearts-env train --family``)
write the same run files, stop on Ctrl-C the same way and resume through the same code; the
run machinery is written once, outside the PPO file."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

import training.mixture  # noqa: E402
import training.ppo  # noqa: E402
import training.run  # noqa: E402
from evaluation.flags import Interrupted  # noqa: E402
from hearts_cli import main  # noqa: E402
from training.config import Args, MixtureSettings  # noqa: E402

TINY = Args(
    num_games=8, rollout_steps=64, hidden=(8,), minibatch_size=128, update_epochs=1, eval_deals=4,
    eval_every=0, checkpoint_every=1, pool_every=1, progress=False, tensorboard=False, minutes=5.0,
    total_decisions=3 * 512, imitation_decisions=512,
)  # fmt: skip
"""Three iterations of 512 decisions, the first imitation."""
FAMILY = MixtureSettings("hearts", shards=1, configs=(("hearts", 4),), eval_presets=("hearts",))


def train_single(args: Args) -> dict[str, Any]:
    return training.ppo.train(replace(args, eval_opponents=("random",)))


def train_family(args: Args) -> dict[str, Any]:
    return training.mixture.train_mixture(args, FAMILY)


SCHEDULES = {"single": (train_single, training.ppo), "family": (train_family, training.mixture)}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_both_schedules_stop_and_resume_through_the_one_loop(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the third update: both keep the second iteration's checkpoint, write the summary
    and raise Interrupted with the same words; the resumed run ends as the uninterrupted one."""
    train, module = SCHEDULES[name]
    runs: list[str] = []
    real_train = training.run.Run.train

    def spied(self: training.run.Run) -> dict[str, Any]:
        runs.append(type(self.schedule).__name__)
        return real_train(self)

    monkeypatch.setattr(training.run.Run, "train", spied)
    whole = train(replace(TINY, run_dir=str(tmp_path / "whole")))
    real_update, calls = module.update, []

    def interrupted(*args: Any, **kwargs: Any) -> dict[str, float]:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_update(*args, **kwargs)

    monkeypatch.setattr(module, "update", interrupted)
    split = replace(TINY, run_dir=str(tmp_path / "split"))
    with pytest.raises(Interrupted) as stop:
        train(split)
    kept = "the checkpoint holds iteration 2 (1,024 decisions); the same command with --resume continues"
    assert stop.value.kept == kept
    summary = json.loads((tmp_path / "split" / "summary.json").read_text())
    assert summary["stopped"] == f"interrupted (Ctrl-C); {kept}" and "--resume" in summary["resume_command"]
    monkeypatch.setattr(module, "update", real_update)
    resumed = train(replace(split, resume=True))
    schedule = {"single": "SingleConfiguration", "family": "FamilyMixture"}[name]
    assert runs == [schedule] * 3  # every run of either schedule went through Run.train
    counts = ("iterations", "decisions", "imitation_decisions", "samples")
    assert [resumed[k] for k in counts] == [whole[k] for k in counts] == [3, 1536, 512, whole["samples"]]
    files = {"checkpoint", "policy", "losses", "evaluations", "learning curve", "this summary"}
    assert set(whole["files"]) == set(resumed["files"]) == files
    assert (tmp_path / "whole" / "train.csv").read_text().count("\n") == 4


def test_the_family_flags_reach_the_loop_from_hearts_env_train(tmp_path: Path, capsys) -> None:
    argv = ["train", "--family", "hearts", "--configs", "hearts-4", "--shards", "1", "--eval-presets",
            "hearts", "--num-games", "8", "--rollout-steps", "64", "--hidden", "8", "--minibatch-size", "128",
            "--total-decisions", "512", "--imitation-decisions", "0", "--eval-deals", "4", "--no-progress",
            "--no-tensorboard", "--run-dir", str(tmp_path / "run")]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("universal hearts network: 512 decisions (512 PPO)")
    assert "hearts-env train " in out and "--family hearts --shards 1 --configs hearts-4 " in out
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["family"] == "hearts" and summary["evaluation"][0]["preset"] == "hearts"


@pytest.mark.parametrize(
    ("flags", "refused"),
    [(["--preset", "hearts"], "--preset"), (["--num-players", "4"], "--num-players"),
     (["--option", "moon=false"], "--option"), (["--ray", "local"], "--ray"), (["--overlap"], "--overlap")],
)  # fmt: skip
def test_a_single_configuration_s_flags_are_refused_with_family(flags: list[str], refused: str, capsys):
    assert main(["train", "--family", "hearts", *flags, "--run-dir", "never-made"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and refused in err and "--family" in err
    assert not Path("never-made").exists()


def defined(path: Path) -> set[str]:
    """The names of the functions, methods and classes a module defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))}


def test_ppo_py_is_the_algorithm_and_the_run_machinery_is_written_once() -> None:
    """training/ppo.py stays short enough to read top to bottom; saving, checkpointing,
    evaluating, the budget and the summary are :class:`training.run.Run`'s, defined nowhere else."""
    folder = Path(training.run.__file__).parent
    ppo = folder / "ppo.py"
    assert len(ppo.read_text(encoding="utf-8").splitlines()) <= 400
    assert {"advantages", "update", "train"} <= defined(ppo)
    machinery = {"save_policy", "save_checkpoint", "run_evaluation", "budget_left", "tick", "summary",
                 "warn_imitation_too_long"}  # fmt: skip
    assert machinery - {"run_evaluation"} <= defined(folder / "run.py")
    for module in sorted(folder.glob("*.py")):
        if module.name != "run.py":
            again = sorted(machinery & defined(module))
            assert not again, f"{module.name} defines {again}: the run's machinery is training/run.py's"
