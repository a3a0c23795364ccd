"""SuperSuit over ``hearts_env.parallel_env`` (examples/supersuit_parallel.py): vectorised,
masked, every action legal, every deal's rewards complete. ``make integration-supersuit``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.integration.common import require

require("supersuit")

from examples import supersuit_parallel  # noqa: E402 (after the library check)


@pytest.mark.parametrize(
    ("preset", "players", "deal_total"),
    [("hearts", 4, -26), ("black_maria", 3, -43), ("auction_hearts", 4, None)],
)
def test_vectorised_parallel_env_plays_only_legal_moves(
    preset: str, players: int, deal_total: int | None
) -> None:
    games, steps = 3, 260
    summary = supersuit_parallel.run(preset, players, games=games, steps=steps, seed=1)
    assert summary.rows == games * players
    assert summary.illegal == 0
    assert summary.deals >= games * 2  # whole deals, restarted by SuperSuit
    if deal_total is not None:  # every deal's penalty reached its players (unfinished deals: 0 so far)
        total = summary.reward_per_row.sum()
        assert total % deal_total == 0 and total // deal_total == summary.deals


def test_the_dict_observation_is_what_supersuit_refuses() -> None:
    """Why the example asks for ``action_mask="info"``: SuperSuit's observation wrappers need a Box."""
    import supersuit as ss

    import hearts_env

    with pytest.raises(Exception):  # noqa: B017 (SuperSuit raises AssertionError or TypeError)
        ss.dtype_v0(hearts_env.parallel_env("hearts"), np.float32)


def test_main_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    supersuit_parallel.main(["--games", "2", "--steps", "70"])
    assert "illegal actions 0" in capsys.readouterr().out
