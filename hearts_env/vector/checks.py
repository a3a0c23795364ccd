"""The vector env's checks: its constructor arguments, its autoreset mode, and the type and
shape of a step's actions — each refusal a ``TypeError`` / ``ValueError`` saying what to pass.
(Whether an action is legal depends on the games: the env asks the shard that holds them.)"""

from __future__ import annotations

import math
import multiprocessing as mp
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from hearts_env.table import REWARDS

RENDER_MODES = ("ansi",)
ACTION_MASKS = ("observation", "info")
"""Where the vector env puts the action mask: in the dict observation, or in ``info``."""


def parse_autoreset_mode(value: Any) -> AutoresetMode:
    """``"same_step"`` / ``"next_step"`` (or the enum) as a Gymnasium ``AutoresetMode``."""
    if isinstance(value, AutoresetMode) and value in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        return value
    names = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP}
    if isinstance(value, str) and value.lower() in names:
        return names[value.lower()]
    raise ValueError(
        f"autoreset_mode must be 'same_step' or 'next_step' (or gymnasium.vector.AutoresetMode), "
        f"got {describe(value)}"
    )


def check_arguments(
    num_envs: Any,
    num_workers: Any,
    copy: Any,
    render_mode: Any,
    reward: Any,
    start_method: Any,
    worker_timeout: Any,
    worker_spin: Any,
) -> None:
    """``TypeError`` / ``ValueError`` for a bad constructor argument of the vector env."""

    def integer(value: Any) -> bool:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))

    if not integer(num_envs):
        raise TypeError(f"num_envs must be an int (the number of games), got {describe(num_envs)}")
    if num_envs < 1:
        raise ValueError(f"num_envs must be at least 1 (the number of games), got {num_envs!r}")
    if not integer(num_workers):
        raise TypeError(
            f"num_workers must be an int from 1 to num_envs={num_envs}, got {describe(num_workers)}"
        )
    if not 1 <= num_workers <= num_envs:
        raise ValueError(f"num_workers must be an int from 1 to num_envs={num_envs}, got {num_workers!r}")
    if not isinstance(copy, (bool, np.bool_)):
        raise TypeError(f"copy must be True or False, got {describe(copy)}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))}, got {render_mode!r}"
        )
    if reward is not None and (not isinstance(reward, str) or reward not in REWARDS):
        raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}, got {reward!r}")
    methods = mp.get_all_start_methods()
    if start_method is not None and start_method not in methods:
        raise ValueError(
            f"start_method must be None or one of {', '.join(map(repr, methods))}, got {start_method!r}"
        )
    if isinstance(worker_timeout, (bool, np.bool_)) or not isinstance(
        worker_timeout, (int, float, np.number)
    ):
        raise TypeError(f"worker_timeout must be a number of seconds, got {describe(worker_timeout)}")
    if not (math.isfinite(worker_timeout) and worker_timeout > 0):
        raise ValueError(
            f"worker_timeout must be a positive, finite number of seconds, got {worker_timeout!r}"
        )
    if isinstance(worker_spin, (bool, np.bool_)) or not isinstance(worker_spin, (int, float, np.number)):
        raise TypeError(f"worker_spin must be a number of seconds, got {describe(worker_spin)}")
    if not 0 <= worker_spin <= 1:
        raise ValueError(f"worker_spin must be from 0 to 1 second, got {worker_spin!r}")


def check_action_mask(action_mask: Any) -> None:
    """``ValueError`` unless ``action_mask`` is one of :data:`ACTION_MASKS`."""
    if action_mask not in ACTION_MASKS:
        raise ValueError(
            f"action_mask must be one of {', '.join(map(repr, ACTION_MASKS))} (where the mask goes), "
            f"got {describe(action_mask)}"
        )


def integer_actions(
    actions: Any, num_envs: int, num_actions: int, agent: Callable[[int], str]
) -> tuple[np.ndarray, Any]:
    """``actions`` as a fresh (B,) int64 array (-1 for a value that names no card) and the values
    as given, or ``TypeError`` / ``ValueError`` naming the first bad game, its agent
    (``agent(game)``) and the value."""
    b, n = num_envs, num_actions
    shape_error = f"step() takes one integer action per game: a list or integer array of shape ({b},)"
    if isinstance(actions, (list, tuple)):
        if len(actions) != b:
            raise ValueError(f"{shape_error}, got {len(actions)} actions")
        for game, value in enumerate(actions):
            if not is_int(value):
                raise TypeError(not_an_int(game, value, agent, b, n))
        values = [int(value) for value in actions]
        # -1 for every out-of-range value (Python ints may not fit an int64): it names no card
        clean = np.array([v if 0 <= v < n else -1 for v in values], np.int64)
        return clean, values
    try:
        array = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
    except Exception:
        raise TypeError(f"{shape_error}, got {describe(actions)}") from None
    if array.ndim == 0 and array.dtype.kind not in "iu":
        raise TypeError(f"{shape_error}, got {describe(actions)}")
    if array.shape != (b,):
        raise ValueError(f"{shape_error}, got shape {array.shape} (dtype {array.dtype})")
    if array.dtype.kind not in "iu":
        game = first_non_int(array)
        raise TypeError(not_an_int(game, array[game], agent, b, n, array.dtype))
    out_of_range = (array < 0) | (array >= n)
    clean = np.where(out_of_range, 0, array).astype(np.int64)
    clean[out_of_range] = -1  # every out-of-range value names no card
    return clean, array


def not_an_int(
    game: int,
    value: Any,
    agent: Callable[[int], str],
    num_envs: int,
    num_actions: int,
    dtype: np.dtype | None = None,
) -> str:
    """The message for a non-integer action ``value`` of ``game`` (``dtype``: its array's)."""
    why = "is not an integer" if dtype is None else f"is in an array of dtype {dtype}, not of integers"
    return (
        f"game {game} ({agent(game)}): action {describe(value)} {why}; "
        f"step() takes integer card indices 0..{num_actions - 1}, one per game "
        f"(a list of ints or an integer array of shape ({num_envs},))"
    )


def first_non_int(array: np.ndarray) -> int:
    """The first game of a non-integer ``array`` whose value is not a whole number (0 if all are)."""
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (array != np.round(array))
        return int(np.argmax(bad))
    if array.dtype.kind == "O":
        return next((g for g, value in enumerate(array) if not is_int(value)), 0)
    return 0


def is_int(value: Any) -> bool:
    """An integer action: a Python or numpy integer or a 0-d integer array, not a bool."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    return isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu"


def describe(value: Any) -> str:
    """``value`` and its type, for error messages: ``3.0 (float64)``, ``True (bool)``."""
    if isinstance(value, np.ndarray):
        return f"an array of dtype {value.dtype} and shape {value.shape}"
    text = repr(value.item() if isinstance(value, np.generic) else value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"
