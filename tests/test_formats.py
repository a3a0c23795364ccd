"""The three observation formats (hearts_env/core/formats.py) carry the same observation: the
``uint8`` and ``packed`` ones unpack (NumPy, and torch) to exactly the float32 one, in every
preset and player count, through the batch API and the vector env (with worker processes)."""

from __future__ import annotations

import numpy as np
import pytest

import hearts_env
from hearts_env.core.formats import OBS_FORMATS, unpack_numpy
from hearts_env.presets import all_configs, make_rules
from hearts_env.table import Table

CONFIGS = all_configs("hearts") + all_configs("smear")


def _random_step(table: Table, rng: np.random.Generator) -> None:
    mask = table.action_mask()
    actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
    result = table.step(actions)
    if result.deal_ended.any():
        table.redeal(np.flatnonzero(result.deal_ended))


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_compact_formats_unpack_to_the_float32_observation(preset: str, players: int) -> None:
    torch = pytest.importorskip("torch")
    table = Table(make_rules(preset, num_players=players), 6)
    table.reset(seed=7)
    lay = table.observer.layout
    rng = np.random.default_rng(7)
    seen_bits = np.zeros(lay.packing.bit_count, bool)
    for _ in range(70):
        full = table.observe()
        seats = (table.current_player + 1) % players  # another seat's view too
        for fmt in ("uint8", "packed"):
            main, tail = table.encode(fmt)
            assert main.dtype == (np.uint8 if fmt == "uint8" else np.uint64)
            obs = {"observation": main, "tail": tail}
            assert np.array_equal(unpack_numpy(obs, lay), full)
            assert torch.equal(hearts_env.unpack(obs, lay), torch.from_numpy(full))
            other_main, other_tail = table.encode(fmt, seats)
            other = unpack_numpy({"observation": other_main, "tail": other_tail}, lay)
            assert np.array_equal(other, table.observe(seats))
        seen_bits |= full[:, : lay.packing.bit_count].any(axis=0)
        _random_step(table, rng)
    assert seen_bits.sum() > 0.3 * lay.packing.bit_count  # the check covered many entries


def test_a_wrong_bit_is_caught() -> None:
    """The comparison can fail: one flipped bit in the packed words changes the unpacked vector."""
    table = Table(make_rules("hearts"), 2)
    table.reset(seed=0)
    words, tail = table.encode("packed")
    words = words.copy()
    words[0, 0] ^= np.uint64(1 << 5)  # the hand's 7♣
    assert not np.array_equal(unpack_numpy({"observation": words, "tail": tail}, table.observer.layout),
                              table.observe())  # fmt: skip


@pytest.mark.parametrize("num_workers", [1, 2])
@pytest.mark.parametrize("preset", ["hearts", "cancellation_hearts", "smear_partnership"])
def test_vector_env_formats_step_the_same_games(preset: str, num_workers: int) -> None:
    envs = {
        fmt: hearts_env.vector_env(preset, num_envs=12, seed=3, obs_format=fmt, num_workers=num_workers)
        for fmt in OBS_FORMATS
    }
    obs = {fmt: env.reset()[0] for fmt, env in envs.items()}
    rng = np.random.default_rng(3)
    for _ in range(150):
        reference = obs["float32"]["observation"]
        for fmt in ("uint8", "packed"):
            assert np.array_equal(unpack_numpy(obs[fmt], envs[fmt].layout), reference)
            assert np.array_equal(obs[fmt]["action_mask"], obs["float32"]["action_mask"])
            assert envs[fmt].observation_space.contains(obs[fmt])
        mask = obs["float32"]["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs = {fmt: env.step(actions)[0] for fmt, env in envs.items()}
    for env in envs.values():
        env.close()


def test_packed_words_are_smaller() -> None:
    env = hearts_env.vector_env("hearts", num_envs=4, seed=0, obs_format="packed")
    obs, _ = env.reset()
    assert obs["observation"].nbytes + obs["tail"].nbytes < 0.15 * 4 * env.layout.size * 4
    env.close()


def test_a_bad_format_is_refused() -> None:
    with pytest.raises(ValueError, match="obs_format"):
        hearts_env.vector_env("hearts", num_envs=2, obs_format="bits")
    table = Table(make_rules("hearts"), 1)
    table.reset(seed=0)
    with pytest.raises(ValueError, match="encode"):
        table.encode("float32")
