"""The engine's fast paths leave exactly the state its per-game path leaves.

A lockstep batch takes whole-batch shortcuts: one position for every game, and, when some games
are still passing while others play (a held deal beside passing ones), a play step over the whole
batch with the passing games masked out. Here the same games are stepped twice, once with the
shortcuts and once with ``lockstep`` switched off, and every state field and every observation
must agree after every step.
"""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env.core.bits import random_bit
from hearts_env.core.rules import PASS_DIRECTIONS
from hearts_env.games.hearts.engine import DONE, State
from hearts_env.presets import make_rules
from hearts_env.table import Table

CASES = [
    ("hearts", 4, {}),
    ("hearts", 3, {"leftover": "kitty"}),
    ("black_maria", 3, {}),
    ("omnibus", 4, {}),
    ("hearts", 5, {"club_play": True}),
    ("black_jack", 4, {"discard_first": "JS", "no_points_first_trick": False}),
]


def _fields(s: State) -> dict[str, np.ndarray]:
    return {name: getattr(s, name) for name in s.array_fields()}


@pytest.mark.parametrize(("preset", "players", "options"), CASES)
def test_mixed_lockstep_matches_per_game_path(preset: str, players: int, options: dict) -> None:
    rules = make_rules(preset, players, **options)
    batch = 64
    fast, slow = Table(rules, batch), Table(rules, batch)
    rng = np.random.default_rng(players)
    directions = [d for d in PASS_DIRECTIONS if not (d == "across" and players % 2)]
    for deal in range(3):
        hands, kitty = fast.engine.shuffled_hands(rng, batch)
        picks = rng.integers(0, len(directions), batch)
        direction = np.array([PASS_DIRECTIONS.index(directions[d]) for d in picks])
        direction[:8] = PASS_DIRECTIONS.index("hold")  # some games always play while others pass
        dealer = rng.integers(0, players, batch)
        for table in (fast, slow):
            table.deal_masks(hands, kitty, dealer, direction, new_game=deal == 0)
        assert fast.state.lockstep
        mixed_steps = 0
        while (fast.state.phase != DONE).all():
            slow.state.lockstep = False
            phases = set(fast.state.phase.tolist())
            mixed_steps += len(phases) > 1
            actions = random_bit(fast.legal(), rng)
            np.testing.assert_array_equal(fast.legal(), slow.legal())
            np.testing.assert_array_equal(fast.observe(), slow.observe())
            fast.step(actions)
            slow.step(actions)
            for name, value in _fields(fast.state).items():
                np.testing.assert_array_equal(value, getattr(slow.state, name), err_msg=f"{name} differs")
        assert (fast.state.phase == DONE).any()
        assert mixed_steps > 0
