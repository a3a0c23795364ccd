"""Where training runs and at what precision: the device (``--device``) and the dtype of the
policy's matrix multiplications (``--precision``), shared by the rollout and the update."""

from __future__ import annotations

import copy
from typing import Any

import torch


def pick_device(name: str) -> torch.device:
    """``auto``: CUDA when present, else the CPU. ``ValueError`` for CUDA on a machine without it."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(name)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {name!r}: CUDA is not available on this machine (use --device cpu or auto)")
    return device


def native_bfloat16(device: torch.device) -> bool:
    """Whether ``device`` multiplies bfloat16 matrices natively: a CUDA GPU that supports bf16,
    or a CPU with AVX512-BF16 or AMX tiles (elsewhere torch emulates bf16, slower than float32)."""
    if device.type == "cuda":
        return bool(torch.cuda.is_bf16_supported())
    if device.type != "cpu":
        return False
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")  # torch.cpu's, since 2.3
    return any(bool(getattr(torch.cpu, name, lambda: False)()) for name in checks)


def resolve_precision(name: str, device: torch.device) -> torch.dtype:
    """The dtype of :attr:`Args.precision` ``name`` on ``device`` (``auto``: :func:`native_bfloat16`)."""
    if name == "auto":
        return torch.bfloat16 if native_bfloat16(device) else torch.float32
    return {"float32": torch.float32, "bfloat16": torch.bfloat16}[name]


def autocast(device: torch.device, dtype: torch.dtype) -> Any:
    """``torch.autocast`` to ``dtype`` on ``device`` (a no-op context for float32)."""
    return torch.autocast(device.type, dtype=dtype, enabled=dtype != torch.float32)


def inference_copy(net: torch.nn.Module, dtype: torch.dtype) -> torch.nn.Module:
    """The module to play a rollout with at ``dtype``: ``net`` itself in float32, else a copy of it
    with its weights cast once. Its outputs are those of ``net`` under :func:`autocast` (the same
    bf16 matmuls on the same bf16 numbers) without casting every weight again at every step;
    its input must be cast to ``dtype`` too. A module already at ``dtype`` is returned as it is, so
    a caller that plays several rollouts with the same weights casts them once."""
    if dtype == torch.float32 or next(net.parameters()).dtype == dtype:
        return net
    return copy.deepcopy(net).to(dtype)
