"""The format of ``checkpoint.pt``: what it holds (:func:`checkpoint_content`, versioned by
:data:`CHECKPOINT_VERSION`), reading it back with ``weights_only=True`` and checking its layout
(:func:`read_checkpoint`), and putting it back into a fresh run (:func:`restore_checkpoint`).
Numpy arrays travel as tensors (:func:`pack_array`), so nothing in a checkpoint can run code."""

from __future__ import annotations

import copy
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.ppo import CHECKPOINT_FORMAT, FORMAT, PolicyValueNet, load_file, policy_file
from evaluation.flags import non_negative_float, non_negative_int
from hearts_env.core.rules import Rules
from hearts_env.table import Table
from training.config import RESUMABLE_CHANGES, Args, resolve_family, resolve_hidden
from training.rollout import League

CHECKPOINT_VERSION = 2
"""Layout of ``checkpoint.pt`` (:func:`checkpoint_content`). Version 1 (unversioned) pickled
numpy arrays and the engine's state object; it is refused (start a new run)."""
CHECKPOINT_KEYS = ("format", "version", "policy", "optimizer", "args", "rng", "torch_rng", "cuda_rng",
                   "table", "league", "progress")  # fmt: skip
PROGRESS_NUMBERS = {
    "iteration": non_negative_int, "decisions": non_negative_int, "imitation": non_negative_int,
    "samples": non_negative_int,
    "elapsed_s": non_negative_float, "train_s": non_negative_float, "next_eval": non_negative_int,
}  # fmt: skip
"""The numbers of a run's progress record (and its list ``evals``); ``imitation`` counts the
decisions of the warm start (a checkpoint written before it was kept gets it from its settings)."""
PACKED_DTYPES = {"int64": torch.int64, "uint64": torch.int64, "float64": torch.float64, "bool": torch.bool,
                 "int8": torch.int8, "float32": torch.float32}  # fmt: skip
"""numpy dtypes an array may have in a checkpoint, and the tensor dtype that carries it (uint64
travels bit for bit as int64, which every torch version saves)."""


def comparable(args: Args) -> dict[str, Any]:
    """The settings a checkpoint keeps and a resume must match: every field but
    :data:`training.config.RESUMABLE_CHANGES`, as plain JSON values."""
    return json.loads(json.dumps({k: v for k, v in asdict(args).items() if k not in RESUMABLE_CHANGES}))


def pack_array(array: np.ndarray) -> dict[str, Any]:
    """A numpy array as ``{"dtype": name, "data": tensor}`` (numpy arrays are not loadable with
    ``weights_only=True``)."""
    array = np.ascontiguousarray(array)
    name = array.dtype.name
    if name not in PACKED_DTYPES:
        raise TypeError(f"cannot pack a {name} array")
    data = array.view(np.int64) if name == "uint64" else array
    return {"dtype": name, "data": torch.from_numpy(data.copy())}


def unpack_array(packed: Any, what: str) -> np.ndarray:
    """The numpy array :func:`pack_array` packed; ``ValueError`` naming ``what`` when it is not one."""
    if not isinstance(packed, dict) or set(packed) != {"dtype", "data"}:
        raise ValueError(f"{what} should be a packed array {{'dtype', 'data'}}, got {type(packed).__name__}")
    name, data = packed["dtype"], packed["data"]
    if name not in PACKED_DTYPES or not isinstance(data, torch.Tensor) or data.dtype != PACKED_DTYPES[name]:
        got = data.dtype if isinstance(data, torch.Tensor) else type(data).__name__
        raise ValueError(f"{what} should be a tensor for numpy dtype {name!r}, got {got}")
    array = data.numpy().copy()
    return array.view(np.uint64) if name == "uint64" else array


def pack_table(table: Table) -> dict[str, Any]:
    """``table.state_dict()`` with its arrays packed."""
    state = table.state_dict()
    state["fields"] = {name: pack_array(value) for name, value in state["fields"].items()}
    return state


def unpack_table(saved: Any, what: str) -> Any:
    """A packed table state back to :meth:`Table.state_dict`'s form (checked by ``Table.load_state_dict``)."""
    if not isinstance(saved, dict) or not isinstance(saved.get("fields"), dict):
        return saved  # Table.load_state_dict says what is wrong
    out = dict(saved)
    out["fields"] = {
        name: unpack_array(value, f"{what} field {name!r}") for name, value in saved["fields"].items()
    }
    return out


def checkpoint_content(
    net: PolicyValueNet,
    rules: Rules,
    trained: dict[str, Any],
    optimizer: torch.optim.Optimizer,
    args: Args,
    rng: np.random.Generator,
    device: torch.device,
    table: Table,
    league: League,
    progress: dict[str, Any],
) -> dict[str, Any]:
    """What ``checkpoint.pt`` holds (:data:`CHECKPOINT_VERSION`): tensors and plain values only.

    ``format`` and ``version``; ``policy`` (a policy file's content, :func:`agents.ppo.policy_file`);
    ``optimizer`` (its state dict); ``args`` (the settings that must match on resume); ``rng``
    (the numpy generator's state: a dict of str and int); ``torch_rng`` (uint8 tensor) and
    ``cuda_rng`` (a list of them, or None); ``table`` (:meth:`Table.state_dict` with each array
    packed by :func:`pack_array`); ``league`` (``controller``: int64 tensor (B, P); ``pool``:
    state dicts of the past policies); ``progress`` (counters and the evaluations so far). A Ray
    run adds ``ray``: its actors' games (:meth:`training.ray_rollout.RayRollouts.state_dict`).
    """
    return {
        "format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION,
        "policy": policy_file(net, rules, trained), "optimizer": optimizer.state_dict(),
        "args": comparable(args), "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if device.type == "cuda" else None,
        "table": pack_table(table), "league": league.state_dict(), "progress": copy.deepcopy(progress),
    }  # fmt: skip


def check_resumable(saved: dict[str, Any], path: Path, args: Args, game: str, ray: bool) -> None:
    """Refuse (one ``ValueError``) to resume the checkpoint ``saved`` (read from ``path``) with
    ``args`` where a setting that decides the learning differs, or where its rollouts were
    played elsewhere (``ray``: this run plays them on Ray actors)."""
    # A setting newer than the checkpoint had its default when the run began.
    before = {**comparable(resolve_family(Args(), game)), **saved["args"]}
    differ = {k: v for k, v in comparable(args).items() if before.get(k) != v}
    if differ:
        values = ", ".join(f"{k} {before.get(k)!r} there, {v!r} here" for k, v in sorted(differ.items()))
        raise ValueError(
            f"{path} was trained with other settings ({values}); "
            "resume with the same command (only budgets may change) or choose another --run-dir"
        )
    if ("ray" in saved) != ray:
        how = "on Ray actors: resume with --ray" if "ray" in saved else "here: resume without --ray"
        raise ValueError(f"{path} was trained with its rollouts played {how}")


def resume_from(path: Path, args: Args, game: str, ray: bool) -> dict[str, Any]:
    """The checkpoint at ``path`` that a run with ``args.resume`` continues, read and checked
    against ``args`` (:func:`check_resumable`), ``args.hidden`` left None taken from it; for a fresh
    run ``{}``, its ``hidden`` left None :data:`training.config.HIDDEN`."""
    saved = read_checkpoint(path) if args.resume else {}
    resolve_hidden(args, saved.get("args", {}).get("hidden"))
    if saved:
        check_resumable(saved, path, args, game, ray)
    return saved


def read_checkpoint(path: Path) -> dict[str, Any]:
    """The content of the checkpoint at ``path``, its layout checked; one ``ValueError`` naming
    the file and what is wrong (nothing in the file can run code: see :func:`agents.ppo.load_file`)."""
    old = " (a checkpoint from before checkpoints were versioned holds numpy objects: start a new run)"
    content = load_file(path, "a training checkpoint", hint=old)

    def refuse(why: str) -> ValueError:
        return ValueError(f"{path} is not a usable training checkpoint: {why}")

    if not isinstance(content, dict):
        raise refuse(f"it holds a {type(content).__name__}, not a dict")
    form = content.get("format")
    if form == FORMAT:
        raise refuse(
            "it is a policy file (policy.pt), which holds no optimizer, random or table state; a run "
            "resumes from the checkpoint.pt training writes beside it"
        )
    if form != CHECKPOINT_FORMAT:
        got = f"format {form!r}" if "format" in content else "no 'format' entry"
        raise refuse(f"it has {got}, expected format {CHECKPOINT_FORMAT!r} (a foreign file?)")
    if content.get("version") != CHECKPOINT_VERSION:
        raise refuse(
            f"layout version {content.get('version')!r}; this code reads version {CHECKPOINT_VERSION} "
            "(resume with the code that wrote it, or start a new run)"
        )
    missing = [key for key in CHECKPOINT_KEYS if key not in content]
    if missing:
        raise refuse(f"entries missing: {', '.join(missing)}")
    for key in ("policy", "optimizer", "args", "rng", "table", "league", "progress"):
        if not isinstance(content[key], dict):
            raise refuse(f"{key!r} should be a dict, got {type(content[key]).__name__}")
    if not isinstance(content["policy"].get("model"), dict):
        raise refuse("'policy' has no 'model' state dict")
    if not isinstance(content["torch_rng"], torch.Tensor) or content["torch_rng"].dtype != torch.uint8:
        raise refuse("'torch_rng' should be a uint8 tensor")
    cuda = content["cuda_rng"]
    if cuda is not None and not (isinstance(cuda, list) and all(isinstance(t, torch.Tensor) for t in cuda)):
        raise refuse("'cuda_rng' should be None or a list of uint8 tensors")
    progress = content["progress"]
    planned, made = content["args"].get("imitation_decisions"), progress.get("decisions")
    if "imitation" not in progress and isinstance(made, int) and isinstance(planned, int):
        progress["imitation"] = min(made, planned)
    if set(progress) != {*PROGRESS_NUMBERS, "evals"}:
        raise refuse(f"'progress' should have the entries {', '.join([*PROGRESS_NUMBERS, 'evals'])}")
    try:
        for key, number in PROGRESS_NUMBERS.items():
            number.check(f"progress {key!r}", progress[key])
    except (TypeError, ValueError) as error:
        raise refuse(str(error)) from None
    row = {"iteration", "decisions", "opponent", "diff", "ci95"}
    if not isinstance(progress["evals"], list) or not all(
        isinstance(e, dict) and row <= set(e) for e in progress["evals"]
    ):
        raise refuse(
            f"'progress' 'evals' should be a list of evaluation rows (with {', '.join(sorted(row))})"
        )
    return content


def restore_checkpoint(
    saved: dict[str, Any],
    path: Path,
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    rng: np.random.Generator,
    device: torch.device,
    table: Table,
    league: League,
) -> dict[str, Any]:
    """Put :func:`read_checkpoint`'s content back into a fresh run; returns its progress. A part
    that does not fit is one ``ValueError`` naming the file and the part."""

    def refuse(part: str, error: BaseException) -> ValueError:
        detail = " ".join(str(error).split())[:300]
        return ValueError(f"{path} is not a usable training checkpoint: its {part} does not fit ({detail})")

    probe = np.random.default_rng()
    try:
        probe.bit_generator.state = saved["rng"]
    except (TypeError, ValueError, KeyError) as error:
        raise refuse("numpy random state", error) from None
    try:
        net.load_state_dict(saved["policy"]["model"])
    except (RuntimeError, TypeError, ValueError, KeyError) as error:
        raise refuse("network", error) from None
    try:
        optimizer.load_state_dict(saved["optimizer"])
    except (RuntimeError, TypeError, ValueError, KeyError, IndexError) as error:
        raise refuse("optimizer state", error) from None
    table.load_state_dict(unpack_table(saved["table"], f"{path} table"), source=f"{path} (its 'table' entry)")
    try:
        league.load_state_dict(saved["league"], net)
    except ValueError as error:
        raise refuse("league", error) from None
    try:
        torch.set_rng_state(saved["torch_rng"])
        if saved["cuda_rng"] and device.type == "cuda":
            torch.cuda.set_rng_state_all(saved["cuda_rng"])
    except (RuntimeError, TypeError, ValueError) as error:
        raise refuse("torch random state", error) from None
    rng.bit_generator.state = probe.bit_generator.state
    return copy.deepcopy(saved["progress"])
