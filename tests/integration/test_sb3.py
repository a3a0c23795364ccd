"""Stable-Baselines3's MaskablePPO in one learning seat (examples/sb3_maskable_ppo.py): the env
passes SB3's own checker, the masks reach MaskablePPO through its vector env, and a short
training run beats ``random`` on paired seeded deals (the 95% interval above 0).
``make integration-sb3``."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.integration.common import require

require("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402 (after the library check)
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

import hearts_env  # noqa: E402
from examples import sb3_maskable_ppo as example  # noqa: E402

BUDGET = ["--timesteps", "24576", "--minutes", "10", "--eval-deals", "1000"]
"""A training budget in seat decisions (not minutes, so a busy machine trains as much) that beats
random on every seed tried, with room to spare."""


def test_sb3_check_env_passes_with_illegal_action_terminate() -> None:
    check_env(hearts_env.single_agent_env("hearts", "random", illegal_action="terminate"))


@pytest.mark.parametrize("preset", ["hearts", "smear_widow"])
def test_the_masks_reach_maskable_ppo_through_the_vector_env(preset: str) -> None:
    venv = make_vec_env(lambda: example.make_env(preset), n_envs=2, seed=3)
    venv.reset()
    masks = get_action_masks(venv)
    inner = [env.unwrapped for env in venv.envs]
    assert masks.shape == (2, inner[0].action_space.n) and masks.dtype == bool
    assert np.array_equal(masks, np.stack([env.action_masks() for env in inner]))
    assert all(int(env.table.current_player[0]) == env.seat for env in inner)


def test_a_short_training_run_beats_random(capsys: pytest.CaptureFixture[str]) -> None:
    status = example.main(BUDGET)
    out = capsys.readouterr().out
    found = re.search(r"gain ([-+]\d+\.\d+) ± (\d+\.\d+) points a deal", out)
    assert found, out
    gain, half_width = float(found[1]), float(found[2])
    assert gain - half_width > 0, out
    assert status == 0 and "beats random" in out
