"""``unpack`` and ``unpack_numpy`` check their arguments before any work (issue 41, item 6): the
layout's type, the observation's type, packed words of another layout of the same width, and
the device."""

from __future__ import annotations

import numpy as np
import pytest

import hearts_env
from hearts_env.core.formats import unpack_numpy
from hearts_env.presets import make_rules
from hearts_env.table import Table


def _packed(preset: str, seed: int = 0) -> tuple[dict[str, np.ndarray], Table]:
    table = Table(make_rules(preset), 8)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(12):  # into the play, where every piece has been filled
        mask = table.action_mask()
        table.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
    words, tail = table.encode("packed")
    return {"observation": words, "tail": tail}, table


@pytest.mark.parametrize("layout", [None, "hearts", 3])
def test_a_layout_that_is_not_one_is_a_type_error_saying_what_to_pass(layout: object) -> None:
    obs, _ = _packed("hearts")
    for unpack in (unpack_numpy, hearts_env.unpack):
        if unpack is hearts_env.unpack:
            pytest.importorskip("torch")
        with pytest.raises(
            TypeError, match=r"layout must be the observation's hearts_env.core.layouts.Layout"
        ):
            unpack(obs, layout)


@pytest.mark.parametrize("obs", [None, 3, {"tail": np.zeros((1, 61), np.float32)}, {"observation": [1, 2]}])
def test_an_observation_that_is_not_one_is_a_type_error(obs: object) -> None:
    layout = Table(make_rules("hearts"), 1).observer.layout
    with pytest.raises(TypeError, match="observation"):
        unpack_numpy(obs, layout)


def test_a_smear_observation_unpacked_with_another_variants_layout_is_refused() -> None:
    """smear_nine_card and smear_partnership pack into as many words with as long a tail: only
    the bits the nine-card layout sets beyond the partnership one's tell them apart."""
    obs, table = _packed("smear_nine_card")
    other = Table(make_rules("smear_partnership"), 1).observer.layout
    own = table.observer.layout
    assert (other.packing.words, other.packing.tail) == (own.packing.words, own.packing.tail)
    assert unpack_numpy(obs, own).shape[-1] == own.size  # its own layout reads it
    with pytest.raises(ValueError, match="bit\\(s\\) this layout does not use"):
        unpack_numpy(obs, other)


def test_the_device_is_checked() -> None:
    torch = pytest.importorskip("torch")
    obs, table = _packed("hearts")
    layout = table.observer.layout
    for device in ("", "gpu", "cpu:x"):
        with pytest.raises(ValueError, match=f"device must name a torch device .*got {device!r}"):
            hearts_env.unpack(obs, layout, device=device)
    with pytest.raises(TypeError, match="device must be a torch device or its name"):
        hearts_env.unpack(obs, layout, device=0.5)
    expected = torch.from_numpy(unpack_numpy(obs, layout))
    for device in (None, "cpu", torch.device("cpu")):
        assert torch.equal(hearts_env.unpack(obs, layout, device=device), expected)
