"""Observation formats: the float32 vector, the same as bytes, or the engine's packed words.

The observation's layout (:mod:`hearts_env.observation`, :mod:`hearts_env.games.smear.observation`)
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
Which bit of which word holds each entry is the layout's :class:`~hearts_env.core.layouts.Packing`
(``layout.packing``, :mod:`hearts_env.core.layouts`), derived from the rules alone.

Both check their arguments before any work: ``layout`` a :class:`~hearts_env.core.layouts.Layout`
(``hearts_env.observation.layout(rules)``; a preset name or None is a ``TypeError`` saying so),
the observation an array or a format's dict (``TypeError`` otherwise), its dtype one of a
format's, its widths the layout's, packed words with no bit set where the layout keeps none (a
packed observation of another layout of the same width, e.g. another Smear variant's, is a
``ValueError`` when it uses such a bit), and ``device`` a torch device (``""`` refused).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from hearts_env.core.layouts import Layout, Packing

if TYPE_CHECKING:
    import torch

OBS_FORMATS = ("float32", "uint8", "packed")
"""The observation formats of the vector env and the batch API."""


def check_format(obs_format: Any) -> str:
    """``obs_format`` if it is one of :data:`OBS_FORMATS`, else a ``ValueError`` naming them."""
    if not isinstance(obs_format, str) or obs_format not in OBS_FORMATS:
        raise ValueError(f"obs_format must be one of {', '.join(map(repr, OBS_FORMATS))}, got {obs_format!r}")
    return obs_format


def _check_layout(layout: Any) -> Packing:
    """``layout``'s packing, or a ``TypeError`` saying what to pass (a preset name, None, a
    universal view ... are not a layout)."""
    packing = getattr(layout, "packing", None) if isinstance(layout, Layout) else None
    if not isinstance(packing, Packing):
        got = type(layout).__name__
        if isinstance(layout, (str, type(None))):
            got += f" {layout!r}"
        raise TypeError(
            "layout must be the observation's hearts_env.core.layouts.Layout "
            f"(hearts_env.observation.layout(rules), or the env's layout), got {got}"
        )
    return packing


def _parts(obs: Mapping[str, Any] | Any) -> tuple[Any, Any]:
    """The observation's main array and its tail (None for a bare array); ``TypeError`` for
    anything that is not an array, a tensor or a format's dict."""
    if isinstance(obs, Mapping):
        if "observation" not in obs:
            keys = ", ".join(map(repr, obs)) or "none"
            raise TypeError(
                f"an observation dict has an 'observation' entry (and 'tail' when compact), got keys {keys}"
            )
        main, tail = obs["observation"], obs.get("tail")
    else:
        main, tail = obs, None
    for name, value in (("observation", main), ("tail", tail)):
        missing = value is None and name == "observation"
        if missing or (value is not None and not hasattr(value, "dtype")):
            raise TypeError(
                f"the {name} must be a NumPy array or a torch tensor (a format's dict: 'observation' and, "
                f"compact, 'tail'), got {type(value).__name__}"
            )
    return main, tail


_USED_BITS: weakref.WeakKeyDictionary[Packing, np.ndarray] = weakref.WeakKeyDictionary()


def _used_bits(packing: Packing) -> np.ndarray:
    """(W,) uint64: the bits of each packed word that ``packing`` reads (the others are 0 in every
    observation of its layout)."""
    if packing not in _USED_BITS:
        bits = np.zeros(packing.words * 64, np.uint8)
        bits[packing.source] = 1
        if packing.second is not None:
            bits[packing.second[packing.second >= 0]] = 1
        _USED_BITS[packing] = np.packbits(bits, bitorder="little").view(np.uint64)
    return _USED_BITS[packing]


def _check_words(words: np.ndarray, packing: Packing) -> None:
    """``ValueError`` if packed words set a bit ``packing`` does not read: they are another
    layout's of the same width (another Smear variant's, say). One OR over the batch."""
    seen = np.bitwise_or.reduce(words.reshape(-1, packing.words).view(np.uint64), axis=0)
    stray = seen & ~_used_bits(packing)
    if stray.any():
        word = int(np.flatnonzero(stray)[0])
        raise ValueError(
            f"packed words set bit(s) this layout does not use (word {word}): is it another preset's or "
            "player count's observation of the same width? unpack it with the layout of its rules"
        )


def _check_device(device: Any) -> Any:
    """``device`` as torch reads it (None: where the observation is); ``ValueError`` for a string
    torch does not read (``""``, ``"gpu"``), ``TypeError`` for anything else."""
    import torch

    if device is None or isinstance(device, torch.device):
        return device
    if not isinstance(device, str):
        raise TypeError(
            f"device must be a torch device or its name ('cpu', 'cuda:0'), got {type(device).__name__}"
        )
    try:
        return torch.device(device)
    except (RuntimeError, ValueError):
        raise ValueError(
            f"device must name a torch device ('cpu', 'cuda', 'cuda:0', 'mps'), got {device!r}"
        ) from None


def _check(fmt: str, main_shape: tuple[int, ...], tail_shape: tuple[int, ...] | None,
           tail_dtype: Any, packing: Packing) -> None:  # fmt: skip
    """``ValueError`` unless an observation of format ``fmt`` fits ``packing``: the last axis as
    wide as the layout says (the whole vector, the 0/1 prefix or the packed words), and a
    floating ``tail`` of the tail's width beside a compact one, with the same leading axes.
    O(1): shapes and dtypes only."""
    width = {"float32": packing.size, "uint8": packing.bit_count, "packed": packing.words}[fmt]
    what = {"float32": "entries", "uint8": "0/1 entries", "packed": "uint64 words"}[fmt]
    if not main_shape or main_shape[-1] != width:
        got = main_shape[-1] if main_shape else "a scalar"
        raise ValueError(
            f"a {fmt} observation of this layout has {width} {what} in its last axis, got {got} (shape "
            f"{main_shape}): is it another preset's or player count's observation, or cut short?"
        )
    if fmt == "float32":
        if tail_shape is not None:
            raise ValueError("a float32 observation is the whole vector: it has no 'tail'")
        return
    if tail_shape is None:
        raise ValueError(f"a {fmt} observation needs its real-valued 'tail' ({packing.tail} entries)")
    if not str(tail_dtype).removeprefix("torch.").startswith(("float", "bfloat")):
        raise ValueError(f"the 'tail' of a compact observation holds real values: float32, got {tail_dtype}")
    if tail_shape != (*main_shape[:-1], packing.tail):
        raise ValueError(
            f"the tail of this layout has shape {(*main_shape[:-1], packing.tail)} beside a {fmt} "
            f"observation of shape {main_shape}, got {tail_shape}"
        )


def _count_limit(packing: Packing) -> np.ndarray | int:
    """The largest value of each 0/1 entry: 1, or (two decks) 2 where a card's copies count."""
    if packing.second is None:
        return 1
    return np.where(packing.second >= 0, 2, 1).astype(np.uint8)


def _check_counts(bits: np.ndarray, layout: Layout) -> None:
    """``ValueError`` if a uint8 prefix holds a value its entry cannot have (one vectorised pass:
    a max, or with two decks a max per column)."""
    packing = layout.packing
    limit = _count_limit(packing)
    if isinstance(limit, int):
        over = bits.max(initial=0) > limit
    else:  # a column's largest value (a SIMD reduction) against its own limit
        over = (bits.reshape(-1, packing.bit_count).max(axis=0, initial=0) > limit).any()
    if over:
        entry = int(np.flatnonzero((bits > limit).reshape(-1, packing.bit_count).any(axis=0))[0])
        top = limit if isinstance(limit, int) else int(limit[entry])
        piece = next(name for name, where in layout.slices.items() if where.start <= entry < where.stop)
        raise ValueError(
            f"a uint8 observation holds 0/1 entries (card counts 0..2 with two decks): entry {entry} "
            f"(piece {piece!r}) can be at most {top}, got {int(bits[..., entry].max())}; is it not this "
            "layout's, or a float32 observation cast to uint8?"
        )


def unpack_numpy(obs: Mapping[str, np.ndarray] | np.ndarray, layout: Layout) -> np.ndarray:
    """The float32 observation (B, D) of an observation in any format (NumPy, on the host).

    ``ValueError`` (expected against got) for an observation that does not fit ``layout``: a
    last axis of another width (another preset's layout, cut-short words), a missing or
    misshapen ``tail``, a uint8 value its entry cannot hold (2 where only 0/1 can be), or packed
    words with a bit set that the layout does not use; ``TypeError`` for a ``layout`` that is not
    a :class:`~hearts_env.core.layouts.Layout` or an observation that is not an array or a dict."""
    packing = _check_layout(layout)
    main, tail = _parts(obs)
    main = np.asarray(main)
    fmt = _format_of(main.dtype)
    tail = None if tail is None else np.asarray(tail)
    _check(fmt, main.shape, None if tail is None else tail.shape,
           None if tail is None else tail.dtype, packing)  # fmt: skip
    if fmt == "float32":
        return main
    if fmt == "uint8":
        _check_counts(main, layout)
        bits = main
    else:
        _check_words(main, packing)
        flat = np.unpackbits(np.ascontiguousarray(main).view(np.uint8), axis=-1, bitorder="little")
        bits = np.take(flat, packing.source, axis=-1)
        if packing.second is not None:
            bits = bits + np.where(packing.second >= 0, flat[..., np.maximum(packing.second, 0)], 0)
    out = np.empty((*bits.shape[:-1], packing.size), np.float32)  # one copy of each part
    out[..., : bits.shape[-1]] = bits
    out[..., bits.shape[-1] :] = tail
    return out


def _format_of(dtype: Any) -> str:
    """The format an observation's dtype says (NumPy or torch): ``TypeError`` for any other."""
    name = str(dtype).removeprefix("torch.")
    formats = {"float32": "float32", "uint8": "uint8", "uint64": "packed", "int64": "packed"}
    if name not in formats:
        raise TypeError(
            f"an observation of dtype {name} is none of the formats {OBS_FORMATS}: float32 (the whole "
            "vector), uint8 (the 0/1 prefix), uint64 or int64 (packed words)"
        )
    return formats[name]


_SHIFTS: dict[Any, Any] = {}


def unpack(
    obs: Mapping[str, Any] | Any, layout: Layout, device: str | torch.device | None = None
) -> torch.Tensor:
    """The float32 observation (B, D) as a torch tensor on ``device``, from any format.

    ``obs`` is a format's dict (``observation`` and, for ``uint8``/``packed``, ``tail``) of
    NumPy arrays or torch tensors (packed words may be uint64 NumPy arrays or int64 tensors).
    Only the compact arrays cross to the device; the bits are expanded there (for the CPU,
    NumPy arrays are expanded by :func:`unpack_numpy`, the same numbers, faster).

    Shapes and dtypes are checked against ``layout`` (``ValueError`` naming expected and got),
    and on the host (NumPy or a CPU tensor: one vectorised pass) a uint8 prefix's values and the
    packed words' unused bits; a tensor already on an accelerator is not value-checked (that
    would wait for the device). ``device``: a torch device or its name (``""`` is refused)."""
    import torch

    packing = _check_layout(layout)
    device = _check_device(device)
    main, tail = _parts(obs)
    fmt = _format_of(main.dtype)
    _check(fmt, tuple(main.shape), None if tail is None else tuple(tail.shape),
           None if tail is None else tail.dtype, packing)  # fmt: skip
    on_host = isinstance(main, np.ndarray) or main.device.type == "cpu"
    if fmt == "uint8" and on_host:
        _check_counts(main if isinstance(main, np.ndarray) else main.numpy(), layout)
    if fmt == "packed" and on_host:
        _check_words(main if isinstance(main, np.ndarray) else main.numpy(), packing)
    if isinstance(main, np.ndarray):
        if main.dtype == np.float32:
            return torch.from_numpy(main).to(device)
        if fmt == "packed" and isinstance(tail, np.ndarray) and torch.device(device or "cpu").type == "cpu":
            # on the host NumPy's byte table expands the bits several times faster than torch's shifts
            return torch.from_numpy(unpack_numpy(obs, layout))
        if main.dtype == np.uint64:
            main = main.view(np.int64)  # torch's bit operations want a signed word
        main = torch.from_numpy(np.ascontiguousarray(main))
    main = main.to(device)
    if fmt == "float32":
        return main
    if isinstance(tail, np.ndarray):
        tail = torch.from_numpy(np.ascontiguousarray(tail))
    tail = tail.to(device=main.device, dtype=torch.float32)
    if fmt == "uint8":
        bits = main.to(torch.float32)
    else:
        if main.dtype != torch.int64:  # a uint64 tensor: torch's bit operations want a signed word
            main = main.view(torch.int64)
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
    return torch.cat([bits, tail], dim=-1)
