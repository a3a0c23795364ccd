"""Where each piece of an observation lives: :class:`Layout` (names, shapes and offsets in the
flat float32 vector) and :class:`Packing` (which bit of which packed word holds each 0/1 entry).

Both are data, derived from the rules alone by the observers that fill them
(:func:`hearts_env.observation.layout`, :mod:`hearts_env.games.smear.observation`), and read by the
formats that pack and unpack observations (:mod:`hearts_env.core.formats`), by the spaces and by the
agents. This module sits below all of them and imports none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np


@dataclass(frozen=True, eq=False)
class Packing:
    """Where each 0/1 entry of the observation lives in the packed words.

    ``source[j]`` is the bit (``64 * word + bit``) of entry ``j < bit_count``; ``second[j]``, if
    not -1, a second bit added to it (two decks: a card held twice counts 2)."""

    size: int  # D: the float32 observation's length
    bit_count: int  # the 0/1 (count) prefix
    words: int  # uint64 words per packed observation
    source: np.ndarray  # (bit_count,) int64
    second: np.ndarray | None = None  # (bit_count,) int64, -1 where there is none

    @property
    def tail(self) -> int:
        """Length of the real-valued tail (float32 in every format)."""
        return self.size - self.bit_count

    @classmethod
    def identity(cls, size: int, bit_count: int) -> Packing:
        """Entry j is bit j of the stream (words filled in order)."""
        return cls(size, bit_count, -(-bit_count // 64), np.arange(bit_count, dtype=np.int64))

    def pack_bits(self, bits: np.ndarray) -> np.ndarray:
        """(B, W) uint64 words of a (B, bit_count) 0/1 prefix, for an identity packing."""
        batch = bits.shape[0]
        padded = np.zeros((batch, self.words * 64), np.uint8)
        padded[:, : self.bit_count] = bits
        return np.packbits(padded, axis=1, bitorder="little").view(np.uint64)


@dataclass(frozen=True)
class Layout:
    """Names, shapes and offsets of the observation pieces for one rules set."""

    pieces: tuple[tuple[str, tuple[int, ...]], ...]
    packing: Packing | None = field(default=None, compare=False, repr=False)
    """Where the 0/1 prefix lives in the packed format's words (:mod:`hearts_env.core.formats`)."""

    @cached_property
    def slices(self) -> dict[str, slice]:
        """Slice of each piece in the flat vector."""
        out, start = {}, 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            out[name] = slice(start, start + size)
            start += size
        return out

    @cached_property
    def size(self) -> int:
        """Length of the flat observation vector."""
        return sum(int(np.prod(shape)) for _, shape in self.pieces)

    def shape(self, name: str) -> tuple[int, ...]:
        """Shape of one piece (without the batch axis)."""
        return dict(self.pieces)[name]

    def view(self, observation: np.ndarray, name: str) -> np.ndarray:
        """The piece ``name`` of a (..., D) observation, reshaped to (..., *shape)."""
        if name not in self.slices:
            raise KeyError(f"no observation piece {name!r}; pieces: {', '.join(self.slices)}")
        lead = observation.shape[:-1]
        return observation[..., self.slices[name]].reshape(*lead, *self.shape(name))

    def split(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """Every piece of an observation by name."""
        return {name: self.view(observation, name) for name, _ in self.pieces}
