"""The observation and action spaces of every environment: one source of truth.

Both the PettingZoo env and the vector env take their spaces from here, and the bounds come from
the rules and the observation layout, so ``space.contains(obs)`` holds for every observation
any preset can produce (Omnibus' and Royal Hearts' bonus cards make some values negative).
"""

from __future__ import annotations

import gymnasium
import numpy as np

from hearts_env.families import family
from hearts_env.layouts import Layout
from hearts_env.observation import POINT_SCALE, layout
from hearts_env.rules import Rules

COUNTED_PIECES = ("hand", "played_by_seat", "passed", "received", "kitty")
"""The card pieces that hold counts (0, 1, 2) with two decks (``current_trick`` does not)."""


def observation_bounds(rules: Rules, lay: Layout | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 vectors of the flat observation for ``rules``.

    0/1 pieces are within [0, 1] (with two decks the card pieces that count copies within
    [0, 2]); ``card_values`` within [min(v, 0), max(v, 0)] per card;
    ``points_taken`` within the sums of the negative and of the positive card values;
    ``scores`` are unbounded (game totals), ``deal_index`` is at least 0.
    """
    return family(rules).load("bounds")(rules, lay or layout(rules))


def hearts_bounds(rules: Rules, lay: Layout) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of the flat observation of Hearts-family ``rules`` (see :func:`observation_bounds`)."""
    low = np.zeros(lay.size, np.float32)
    high = np.ones(lay.size, np.float32)
    values = np.array(rules.card_points[: lay.shape("card_values")[0]], np.float64) * POINT_SCALE
    sl = lay.slices
    if rules.bidding == "auction":  # any suit may be named: every standard card may score 1
        values[:52] = POINT_SCALE
    low[sl["card_values"]] = np.minimum(values, 0).astype(np.float32)
    high[sl["card_values"]] = np.maximum(values, 0).astype(np.float32)
    in_play = np.array(rules.card_points, np.float64)[list(rules.deck.cards)]
    low[sl["points_taken"]] = np.float32(in_play[in_play < 0].sum() * POINT_SCALE)
    high[sl["points_taken"]] = np.float32(in_play[in_play > 0].sum() * POINT_SCALE)
    if rules.decks == 2:
        for name in COUNTED_PIECES:
            if name in sl:
                high[sl[name]] = 2
    low[sl["scores"]], high[sl["scores"]] = -np.inf, np.inf
    high[sl["deal_index"]] = np.inf
    if rules.stock_size:  # a hand grows by the cards drawn
        high[sl["hand_sizes"]] = np.float32((rules.hand_size + rules.stock_size) / rules.hand_size)
    return low, high


def observation_space(
    rules: Rules, lay: Layout | None = None, obs_format: str = "float32"
) -> gymnasium.spaces.Dict:
    """One agent's observation space: ``{"observation": Box (D,) float32, "action_mask": Box
    (A,) int8 in {0, 1}}``; for ``obs_format="uint8"`` the observation is the 0/1 prefix as
    uint8 and ``"tail"`` the rest (float32), for ``"packed"`` the observation is the uint64
    words (:mod:`hearts_env.formats`)."""
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
