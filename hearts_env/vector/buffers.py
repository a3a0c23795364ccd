"""The arrays one vector-env step writes, for B games: fresh ones, or views into the shared
memory that the worker processes write into (:class:`Buffers`)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np


@dataclass
class Buffers:
    """Everything one step returns, for B games (arrays with a leading batch axis)."""

    observation: np.ndarray  # (B, D) float32, or (B, bit_count) uint8 / (B, words) uint64
    tail: np.ndarray  # (B, D - bit_count) float32 for "uint8" / "packed"; (B, 0) for "float32"
    action_mask: np.ndarray  # (B, A) int8
    legal: np.ndarray  # (B,) uint64: the same legal cards as bitmasks
    rewards: np.ndarray  # (B, P) float64
    acting_player: np.ndarray  # (B,) int64: the seat that made this step's decision
    current_player: np.ndarray  # (B,) int64: the seat to act now
    terminated: np.ndarray  # (B,) bool: the episode ended (and the game restarted)
    deal_ended: np.ndarray  # (B,) bool
    game_ended: np.ndarray  # (B,) bool
    deal_points: np.ndarray  # (B, P) int64: the last finished deal's points
    total_points: np.ndarray  # (B, P) int64
    game_over: np.ndarray  # (B,) bool
    moon_shooter: np.ndarray  # (B,) int64
    chips: np.ndarray  # (B, P) float64
    team_points: np.ndarray  # (B, P) int64: each seat's team's points of the last finished deal
    cancelled: np.ndarray  # (B,) bool: the last deal was cancelled (first_trick_all_penalty)
    actions: np.ndarray  # (B,) int64: input, for worker processes

    @staticmethod
    def layout(
        batch: int, players: int, size: int, num_actions: int, obs_dtype: str = "float32", tail: int = 0
    ) -> list[tuple[str, tuple, type]]:
        """(name, shape, dtype) of every field (``size``: the observation's width)."""
        b, p = batch, players
        shapes = {
            "observation": ((b, size), np.dtype(obs_dtype)),
            "tail": ((b, tail), np.float32),
            "action_mask": ((b, num_actions), np.int8),
            "legal": ((b,), np.uint64),
            "rewards": ((b, p), np.float64),
            "deal_points": ((b, p), np.int64),
            "total_points": ((b, p), np.int64),
            "chips": ((b, p), np.float64),
            "team_points": ((b, p), np.int64),
            "cancelled": ((b,), bool),
            "terminated": ((b,), bool),
            "deal_ended": ((b,), bool),
            "game_ended": ((b,), bool),
            "game_over": ((b,), bool),
        }
        return [(f.name, *shapes.get(f.name, ((b,), np.int64))) for f in fields(Buffers)]

    @classmethod
    def allocate(cls, *sizes: Any, memory: Any = None) -> Buffers:
        """New arrays, or views into ``memory`` (a buffer of :meth:`nbytes` bytes) if given
        (``sizes``: as for :meth:`layout`)."""
        arrays, offset = {}, 0
        for name, shape, dtype in cls.layout(*sizes):
            if memory is None:
                arrays[name] = np.empty(shape, dtype)
                continue
            arrays[name] = np.ndarray(shape, dtype, buffer=memory, offset=offset)
            offset += -(-arrays[name].nbytes // 64) * 64  # keep every field cache-line aligned
        return cls(**arrays)

    @classmethod
    def nbytes(cls, *sizes: Any) -> int:
        """Bytes of shared memory :meth:`allocate` needs."""
        total = 0
        for _, shape, dtype in cls.layout(*sizes):
            total += -(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 64) * 64
        return total

    def rows(self, lo: int, hi: int) -> Buffers:
        """Views of games ``lo..hi-1``."""
        return Buffers(**{f.name: getattr(self, f.name)[lo:hi] for f in fields(self)})
