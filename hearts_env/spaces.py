"""The observation and action spaces of every environment: one source of truth.

Both the PettingZoo env and the vector env take their spaces from here, and the bounds come from
the rules and the observation layout, so ``space.contains(obs)`` holds for every observation
any preset can produce (Omnibus' and Royal Hearts' bonus cards make some values negative).
"""

from __future__ import annotations

import gymnasium
import numpy as np

from hearts_env.core.layouts import Layout
from hearts_env.core.rules import Rules
from hearts_env.games import family, layout


def observation_bounds(rules: Rules, lay: Layout | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 vectors of the flat observation for ``rules``.

    0/1 pieces are within [0, 1] (with two decks the card pieces that count copies within
    [0, 2]); ``card_values`` within [min(v, 0), max(v, 0)] per card;
    ``points_taken`` within the sums of the negative and of the positive card values;
    ``scores`` are unbounded (game totals), ``deal_index`` is at least 0.
    """
    return family(rules).bounds(rules, lay or layout(rules))


def observation_space(
    rules: Rules, lay: Layout | None = None, obs_format: str = "float32"
) -> gymnasium.spaces.Dict:
    """One agent's observation space: ``{"observation": Box (D,) float32, "action_mask": Box
    (A,) int8 in {0, 1}}``; for ``obs_format="uint8"`` the observation is the 0/1 prefix as
    uint8 and ``"tail"`` the rest (float32), for ``"packed"`` the observation is the uint64
    words (:mod:`hearts_env.core.formats`)."""
    lay = lay or layout(rules)
    low, high = observation_bounds(rules, lay)
    mask = gymnasium.spaces.Box(0, 1, (num_actions(rules),), np.int8)
    if obs_format == "float32":
        return gymnasium.spaces.Dict(
            {"observation": gymnasium.spaces.Box(low, high, (lay.size,), np.float32), "action_mask": mask}
        )
    packing, cut = lay.packing, lay.packing.bit_count
    if obs_format == "uint8":
        main = gymnasium.spaces.Box(0, high[:cut].astype(np.uint8), (cut,), np.uint8)
    else:
        main = gymnasium.spaces.Box(0, np.iinfo(np.uint64).max, (packing.words,), np.uint64)
    tail = gymnasium.spaces.Box(low[cut:], high[cut:], (packing.tail,), np.float32)
    return gymnasium.spaces.Dict({"observation": main, "tail": tail, "action_mask": mask})


def num_actions(rules: Rules) -> int:
    """Actions of the ``Discrete`` action space: one per card slot (52, 53 or 54 with jokers),
    then one per named decision (``rules.action_names``)."""
    return len(rules.action_names)


def action_space(rules: Rules) -> gymnasium.spaces.Discrete:
    """One agent's action space: a card index or a named decision (``rules.action_names``)."""
    return gymnasium.spaces.Discrete(num_actions(rules))
