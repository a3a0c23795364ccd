"""Resume and policy files: nothing in them can run code, and a bad one is one clear error naming it."""

from __future__ import annotations

import pickle
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import agents  # noqa: E402
from agents.ppo import CHECKPOINT_FORMAT, load_policy  # noqa: E402
from training.ppo import (  # noqa: E402
    CHECKPOINT_VERSION,
    Args,
    main,
    pack_array,
    train,
    unpack_array,
)

TINY = Args(
    num_games=8, rollout_steps=64, hidden=(8,), minibatch_size=128, update_epochs=1, eval_deals=4,
    eval_every=0, checkpoint_every=1, pool_every=1, opponents=("ducker",), eval_opponents=("random",),
    progress=False, tensorboard=False, minutes=5.0, total_decisions=512, imitation_decisions=0,
)  # fmt: skip
"""One iteration of 8 games x 64 steps (a whole 4-player deal each), with a past policy in the pool."""


class Payload:
    """Unpickling it creates ``marker``: what a crafted checkpoint would do (run code) on load."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tiny run: checkpoint.pt and policy.pt."""
    path = tmp_path_factory.mktemp("run")
    train(replace(TINY, run_dir=str(path)))
    return path


def copy_run(run: Path, to: Path) -> Path:
    shutil.copytree(run, to)
    return to


def resume(run_dir: Path) -> dict[str, Any]:
    return train(replace(TINY, run_dir=str(run_dir), resume=True, total_decisions=1024))


def edited(run: Path, change: Any) -> Any:
    """The run's checkpoint content, changed by ``change(content)``."""
    content = torch.load(run / "checkpoint.pt", weights_only=True)
    change(content)
    return content


def plain_tree(value: Any) -> bool:
    """Only tensors, dicts, lists, tuples and plain scalars (what weights_only=True loads)."""
    if isinstance(value, dict):
        return all(isinstance(k, (str, int)) and plain_tree(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(plain_tree(v) for v in value)
    return isinstance(value, (torch.Tensor, str, int, float, bool, type(None)))


# ---------------------------------------------------------------------- training checkpoints
@pytest.mark.parametrize("how", ["torch.save", "pickle"])
def test_a_planted_payload_is_refused_and_nothing_runs(run: Path, tmp_path: Path, how: str) -> None:
    live = tmp_path / "live"
    pickle.loads(pickle.dumps(Payload(live)))  # the payload is real: plain unpickling runs it
    assert live.exists()
    target = copy_run(run, tmp_path / "run")
    marker = tmp_path / "marker"
    path = target / "checkpoint.pt"
    if how == "torch.save":
        torch.save({"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, "x": Payload(marker)}, path)
    else:
        path.write_bytes(pickle.dumps(Payload(marker)))
    before = (target / "train.csv").read_text()
    with pytest.raises(ValueError, match="nothing in it was run") as error:
        resume(target)
    assert str(path) in str(error.value) and "refused" in str(error.value)
    assert not marker.exists()
    assert (target / "train.csv").read_text() == before  # a refused resume writes nothing


def test_a_planted_payload_on_the_command_line_is_one_line(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = copy_run(run, tmp_path / "run")
    marker = tmp_path / "marker"
    torch.save(Payload(marker), target / "checkpoint.pt")
    argv = ["--run-dir", str(target), "--resume", "--no-progress", "--no-tensorboard", "--num-games", "8",
            "--rollout-steps", "64", "--hidden", "8", "--total-decisions", "1024"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("python -m training.ppo: error: ") and str(target / "checkpoint.pt") in err
    assert not marker.exists()


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def drop_table_field(content: dict[str, Any]) -> None:
    del content["table"]["fields"]["hands"]


def bad_league(content: dict[str, Any]) -> None:
    content["league"]["controller"] += 9


def bad_progress(content: dict[str, Any]) -> None:
    content["progress"]["decisions"] = -5


@pytest.mark.parametrize(
    ("name", "write", "message"),
    [
        ("truncated", truncate, "truncated, damaged or not a file torch.save wrote"),
        ("empty", lambda p: p.write_bytes(b""), "is empty"),
        ("text", lambda p: p.write_text("not a checkpoint"), "refused|not a file torch.save wrote"),
        ("foreign dict", lambda p: torch.save({"x": 1}, p), "no 'format' entry"),
        ("list", lambda p: torch.save([1, 2, 3], p), "holds a list"),
        ("policy file", lambda p: shutil.copy(p.with_name("policy.pt"), p), "it is a policy file"),
        ("numpy objects", lambda p: torch.save({"table": np.zeros(3)}, p), "nothing in it was run"),
    ],
)
def test_a_bad_checkpoint_is_one_clear_error(
    run: Path, tmp_path: Path, name: str, write: Any, message: str
) -> None:
    target = copy_run(run, tmp_path / "run")
    write(target / "checkpoint.pt")
    with pytest.raises(ValueError, match=message) as error:
        resume(target)
    assert str(target / "checkpoint.pt") in str(error.value), name


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.update(version=1), "layout version 1; this code reads version 2"),
        (lambda c: c.pop("optimizer"), "entries missing: optimizer"),
        (drop_table_field, r"'table' entry\) is not a usable table state: fields missing \['hands'\]"),
        (bad_league, "its league does not fit"),
        (bad_progress, "progress 'decisions' must be a non-negative integer, got -5"),
        (lambda c: c.update(rng={"bit_generator": "MT19937"}), "its numpy random state does not fit"),
        (lambda c: c.update(optimizer={"state": {}, "param_groups": []}), "its optimizer state does not fit"),
        (lambda c: c["policy"]["model"].pop("value.bias"), "its network does not fit"),
    ],
)
def test_an_edited_checkpoint_is_one_clear_error(
    run: Path, tmp_path: Path, change: Any, message: str
) -> None:
    target = copy_run(run, tmp_path / "run")
    torch.save(edited(run, change), target / "checkpoint.pt")
    with pytest.raises(ValueError, match=message) as error:
        resume(target)
    assert str(target / "checkpoint.pt") in str(error.value)


def test_the_checkpoint_is_versioned_tensors_and_plain_values(run: Path) -> None:
    content = torch.load(run / "checkpoint.pt", weights_only=True)
    assert content["format"] == CHECKPOINT_FORMAT and content["version"] == CHECKPOINT_VERSION
    assert plain_tree(content)
    assert content["table"]["format"] == "hearts_env.table" and content["table"]["num_games"] == 8
    assert content["league"]["controller"].dtype == torch.int64 and len(content["league"]["pool"]) == 1
    assert content["rng"]["bit_generator"] == "PCG64" and content["rng"]["state"]["state"] > 2**63
    assert resume(copy_run(run, run.parent / "resumed"))["iterations"] == 2


def test_arrays_pack_bit_for_bit() -> None:
    for array in (
        np.array([[0, 1], [2**64 - 1, 2**63]], np.uint64),
        np.array([True, False]),
        np.array([-1, 2**62], np.int64),
        np.array([0.5, -np.inf]),
    ):
        back = unpack_array(pack_array(array), "x")
        assert back.dtype == array.dtype and (back == array).all()
    with pytest.raises(ValueError, match="x should be a tensor for numpy dtype 'uint64'"):
        unpack_array({"dtype": "uint64", "data": [1, 2]}, "x")


# ---------------------------------------------------------------------- policy files
@pytest.mark.parametrize(
    ("write", "message"),
    [
        (truncate, "truncated, damaged or not a file torch.save wrote, not a PPO policy file"),
        (lambda p: p.write_bytes(b""), "is empty, not a PPO policy file"),
        (lambda p: torch.save({"x": 1}, p), "dict without a 'format' entry"),
        (lambda p: torch.save({"format": "hearts-env-ppo/1", "model": {}}, p), "bad or missing preset"),
        (lambda p: shutil.copy(p.with_name("checkpoint.pt"), p), "training checkpoint, not a policy file"),
    ],
)
def test_a_file_that_is_not_a_policy_is_one_clear_error(
    run: Path, tmp_path: Path, write: Any, message: str
) -> None:
    target = copy_run(run, tmp_path / "run")
    path = target / "policy.pt"
    write(path)
    for load in (lambda: load_policy(path), lambda: agents.make("ppo", checkpoint=str(path))):
        with pytest.raises(ValueError, match=message) as error:
            load()
        assert str(path) in str(error.value)


def test_a_policy_payload_is_refused_and_nothing_runs(tmp_path: Path) -> None:
    marker, path = tmp_path / "marker", tmp_path / "policy.pt"
    torch.save({"format": "hearts-env-ppo/1", "model": Payload(marker)}, path)
    with pytest.raises(ValueError, match="nothing in it was run") as error:
        agents.make("ppo", checkpoint=str(path))
    assert str(path) in str(error.value) and not marker.exists()


def test_a_policy_whose_model_does_not_fit_its_sizes(run: Path, tmp_path: Path) -> None:
    content = load_policy(run / "policy.pt")
    content["hidden"] = [9]
    path = tmp_path / "policy.pt"
    torch.save(content, path)
    with pytest.raises(ValueError, match="its model does not match its sizes") as error:
        agents.make("ppo", checkpoint=str(path))
    assert str(path) in str(error.value)
