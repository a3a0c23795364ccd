"""The progress bar of a running tournament: tqdm where it is installed (it comes with the
``training`` extra), otherwise a bar that prints nothing, and the text that names its agents."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


class _NoBar:
    """What :func:`progress_bar` returns without tqdm: it counts nothing and prints nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(**kwargs: Any) -> Any:
    """A tqdm progress bar, or one that prints nothing where tqdm is not installed (it comes
    with the ``training`` extra; a package-only install plays without a bar)."""
    try:
        from tqdm import tqdm
    except ModuleNotFoundError:
        return _NoBar()
    return tqdm(**kwargs)


def short_name(spec: str) -> str:
    """An agent spec for display: ``ppo:checkpoint=runs/demo/policy.pt`` -> ``ppo (runs/demo)``
    (a checkpoint by its folder), other specs as they are."""
    name, _, rest = spec.partition(":")
    params = dict(part.partition("=")[::2] for part in rest.split(":")) if rest else {}
    if "checkpoint" in params:
        folder = Path(params["checkpoint"]).parent
        return f"{name} ({folder.name or params['checkpoint']})"
    return spec


def bar_text(preset: str, specs: Sequence[str], labels: Mapping[str, str], better: str) -> str:
    """``hearts: ppo (fresh) v strategy v random (points, lower is better)``: the agents by their
    ``labels`` (default :func:`short_name`), and which way the points are better."""
    names = " v ".join(labels.get(spec, short_name(spec)) for spec in specs)
    return f"{preset}: {names} (points, {better} is better)"
