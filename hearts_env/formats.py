"""Observation formats: the float32 vector, the same as bytes, or the engine's packed words.

The observation's layout (:mod:`hearts_env.observation`, :mod:`hearts_env.smear_observation`)
puts every 0/1 piece first (``Packing.bit_count`` entries; with two decks the card pieces count
copies, 0/1/2) and the real-valued pieces last (the *tail*: card values, points, scores, the
deal index, hand sizes, the stock). Three formats carry the same numbers:

============  ==================================================================================
``float32``   ``{"observation": float32 (B, D)}``: the whole vector (the default)
``uint8``     ``{"observation": uint8 (B, bit_count), "tail": float32 (B, D - bit_count)}``: the
              0/1 prefix as bytes, the real-valued tail as float32 (not quantised)
``packed``    ``{"observation": uint64 (B, W), "tail": float32 (B, D - bit_count)}``: the card
              sets and flags as the engine keeps them, one bit per entry (W words: 18 for
              standard 4-player Hearts, 144 bytes instead of 2,640)
============  ==================================================================================

:func:`unpack` (torch, on any device: a GPU learner expands the bits itself) and
:func:`unpack_numpy` turn either compact format back into exactly the float32 observation.
Which bit of which word holds each entry is the layout's :class:`Packing`
(``layout.packing``), derived from the rules alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

    from hearts_env.observation import Layout

OBS_FORMATS = ("float32", "uint8", "packed")
"""The observation formats of the vector env and the batch API."""


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


def check_format(obs_format: Any) -> str:
    """``obs_format`` if it is one of :data:`OBS_FORMATS`, else a ``ValueError`` naming them."""
    if not isinstance(obs_format, str) or obs_format not in OBS_FORMATS:
        raise ValueError(f"obs_format must be one of {', '.join(map(repr, OBS_FORMATS))}, got {obs_format!r}")
    return obs_format


def _parts(obs: Mapping[str, Any] | Any) -> tuple[Any, Any]:
    if isinstance(obs, Mapping):
        return obs["observation"], obs.get("tail")
    return obs, None


def unpack_numpy(obs: Mapping[str, np.ndarray] | np.ndarray, layout: Layout) -> np.ndarray:
    """The float32 observation (B, D) of an observation in any format (NumPy, on the host)."""
    main, tail = _parts(obs)
    main = np.asarray(main)
    if main.dtype == np.float32:
        return main
    packing = layout.packing
    if main.dtype == np.uint8:
        bits = main
    elif main.dtype in (np.uint64, np.int64):
        flat = np.unpackbits(np.ascontiguousarray(main).view(np.uint8), axis=-1, bitorder="little")
        bits = flat[..., packing.source]
        if packing.second is not None:
            bits = bits + np.where(packing.second >= 0, flat[..., np.maximum(packing.second, 0)], 0)
    else:
        raise TypeError(f"an observation of dtype {main.dtype} is none of the formats {OBS_FORMATS}")
    return np.concatenate([bits.astype(np.float32), np.asarray(tail, np.float32)], axis=-1)


_SHIFTS: dict[Any, Any] = {}


def unpack(
    obs: Mapping[str, Any] | Any, layout: Layout, device: str | torch.device | None = None
) -> torch.Tensor:
    """The float32 observation (B, D) as a torch tensor on ``device``, from any format.

    ``obs`` is a format's dict (``observation`` and, for ``uint8``/``packed``, ``tail``) of
    NumPy arrays or torch tensors (packed words may be uint64 NumPy arrays or int64 tensors).
    Only the compact arrays cross to the device; the bits are expanded there."""
    import torch

    main, tail = _parts(obs)
    if isinstance(main, np.ndarray):
        if main.dtype == np.float32:
            return torch.from_numpy(main).to(device)
        if main.dtype == np.uint64:
            main = main.view(np.int64)  # torch's bit operations want a signed word
        main = torch.from_numpy(np.ascontiguousarray(main))
    main = main.to(device)
    if main.dtype == torch.float32:
        return main
    if isinstance(tail, np.ndarray):
        tail = torch.from_numpy(np.ascontiguousarray(tail))
    tail = tail.to(device=main.device, dtype=torch.float32)
    packing = layout.packing
    if main.dtype == torch.uint8:
        bits = main.to(torch.float32)
    elif main.dtype == torch.int64:
        key = (packing, main.device)
        if key not in _SHIFTS:
            source = torch.as_tensor(packing.source, device=main.device)
            second = None
            if packing.second is not None:
                second = torch.as_tensor(np.maximum(packing.second, 0), device=main.device)
                has = torch.as_tensor(packing.second >= 0, device=main.device)
                second = (second, has)
            shifts = torch.arange(64, device=main.device, dtype=torch.int64)
            _SHIFTS[key] = (source, second, shifts)
        source, second, shifts = _SHIFTS[key]
        flat = ((main.unsqueeze(-1) >> shifts) & 1).reshape(*main.shape[:-1], -1)  # (B, 64 W)
        bits = flat.index_select(-1, source)
        if second is not None:
            index, has = second
            bits = bits + flat.index_select(-1, index) * has
        bits = bits.to(torch.float32)
    else:
        raise TypeError(f"an observation of dtype {main.dtype} is none of the formats {OBS_FORMATS}")
    return torch.cat([bits, tail], dim=-1)
