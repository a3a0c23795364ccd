"""Resume files: the checkpoint holds only versioned tensors and plain values, and its arrays
round-trip bit for bit. The bad checkpoint, policy and payload files are rows of
``test_bad_inputs.py`` (section "resume files")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.ppo import CHECKPOINT_FORMAT  # noqa: E402
from training.checkpoint import CHECKPOINT_VERSION, pack_array, unpack_array  # noqa: E402


def plain_tree(value: Any) -> bool:
    """Only tensors, dicts, lists, tuples and plain scalars (what weights_only=True loads)."""
    if isinstance(value, dict):
        return all(isinstance(k, (str, int)) and plain_tree(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(plain_tree(v) for v in value)
    return isinstance(value, (torch.Tensor, str, int, float, bool, type(None)))


def test_the_checkpoint_is_versioned_tensors_and_plain_values(tiny_run: Path, run_copy: Path, resume) -> None:
    content = torch.load(tiny_run / "checkpoint.pt", weights_only=True)
    assert content["format"] == CHECKPOINT_FORMAT and content["version"] == CHECKPOINT_VERSION
    assert plain_tree(content)
    assert content["table"]["format"] == "hearts_env.table" and content["table"]["num_games"] == 8
    assert content["league"]["controller"].dtype == torch.int64 and len(content["league"]["pool"]) == 1
    assert content["rng"]["bit_generator"] == "PCG64" and content["rng"]["state"]["state"] > 2**63
    assert resume(run_copy)["iterations"] == 2


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
