"""The progress bar of a running tournament: tqdm where it is installed (it comes with the
``training`` extra), otherwise a bar that prints nothing, and the text that names its agents."""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np


class _NoBar:
    """What :func:`progress_bar` returns without tqdm: it counts nothing and draws nothing; a line
    written through it (like tqdm's ``write``) goes to stderr."""

    def update(self, n: int = 1) -> None:
        pass

    def write(self, line: str, file: Any = None) -> None:
        print(line, file=file or sys.stderr)

    def set_description(self, text: str) -> None:
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


SLOW_S = 60.0
"""A run estimated to take longer than this (seconds) says so in one line before it goes on."""

MEASURE_S = 15.0
"""How long a run measures its agents (or its first round, if that ends sooner) before estimating:
long enough to get past a deal's first steps (passes are cheap, a search agent's tricks are not)."""


def duration(seconds: float) -> str:
    """A time for people, rounded to what an estimate can say: ``40 s``, ``12 min``, ``2 h 10 min``."""
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min" if minutes % 60 else f"{minutes // 60} h"


class DealCount:
    """Counts a tournament's deals on its bar (a tqdm bar, or :func:`progress_bar`'s silent one),
    within a round too, and says once what a slow run will take.

    A round plays ``tables`` deals side by side, all to their end together, so counting whole
    rounds leaves the bar still for a whole round (minutes with a search agent). Within a round
    the bar advances by the round's steps taken over the steps a deal takes (the first round: the
    cards dealt; later rounds: the steps the last one took), never past the round's last deal
    until the round is scored.

    Once :data:`MEASURE_S` seconds have been played (or the first round has ended), the time of
    the deals still to play is estimated from the time played so far; above :data:`SLOW_S` it is
    written on one line to stderr (above the bar) where ``announce``, naming the slowest agent's
    time a decision and ``hint`` (how to shorten it), e.g. ``pimc: about 70 ms a decision; 4000
    deals will take about 2 h 10 min; --deals or --minutes to shorten``; with ``limit_s`` (the
    run's time limit) shorter than that, the line says when the run stops instead."""

    def __init__(
        self,
        tables: int,
        deal_steps: int,
        todo_deals: int,
        planned_deals: int,
        names: Sequence[str],
        announce: bool = True,
        hint: str = "",
        limit_s: float | None = None,
    ) -> None:
        self.bar: Any = _NoBar()
        """Where the count goes (set by the run once its agents are built)."""
        self.tables, self.deal_steps = tables, max(1, deal_steps)
        self.todo_deals, self.planned_deals = todo_deals, planned_deals
        self.names, self.hint, self.limit_s = list(names), hint, limit_s
        self.shown = 0  # deals of the round under way already counted on the bar
        self.rounds = 0  # rounds scored in this run
        self.began = time.perf_counter()
        self.decisions = np.zeros(len(self.names), np.int64)  # this run's, rounds scored so far
        self.act_s = np.zeros(len(self.names))
        self.estimated = not announce  # nothing to say: never estimated

    def start(self, bar: Any) -> None:
        """Count on ``bar`` from now on: the run's clock starts here, after its agents are built."""
        self.bar, self.began = bar, time.perf_counter()

    def step(self, steps: int, decisions: np.ndarray, act_s: np.ndarray) -> None:
        """The round under way has taken ``steps`` steps; ``decisions`` and ``act_s``: per agent, its
        decisions and their seconds in this round so far."""
        within = min(self.tables * steps // self.deal_steps, self.tables - 1)
        if within > self.shown:
            self.bar.update(within - self.shown)
            self.shown = within
        if not self.estimated and time.perf_counter() - self.began >= MEASURE_S:
            self._estimate(self.rounds + min(steps / self.deal_steps, 1.0), decisions, act_s)

    def round_done(self, steps: int | None = None, decisions: Any = None, act_s: Any = None) -> None:
        """A round has been scored: its deals all count now. ``steps``: the steps it took (None: not
        known, a round played elsewhere); ``decisions`` and ``act_s`` its per-agent totals."""
        self.bar.update(self.tables - self.shown)
        self.shown, self.rounds = 0, self.rounds + 1
        if steps:
            self.deal_steps = steps
        if decisions is not None:
            self.decisions += np.asarray(decisions, np.int64)
            self.act_s += np.asarray(act_s, float)
        if not self.estimated:
            self._estimate(float(self.rounds), np.zeros_like(self.decisions), np.zeros_like(self.act_s))

    def _estimate(self, rounds_done: float, decisions: np.ndarray, act_s: np.ndarray) -> None:
        """Say (once) what the deals still to play will take, if that is more than :data:`SLOW_S`."""
        self.estimated = True
        elapsed = time.perf_counter() - self.began
        left = elapsed * (self.todo_deals / (rounds_done * self.tables) - 1) if rounds_done else 0.0
        if left <= SLOW_S:
            return
        made, spent = self.decisions + decisions, self.act_s + act_s
        ms = np.where(made > 0, 1000 * spent / np.maximum(made, 1), 0.0)
        slowest = int(np.argmax(ms))
        deals = f"{self.planned_deals} deals"
        if self.todo_deals < self.planned_deals:
            deals = f"the {self.todo_deals} deals left of {self.planned_deals}"
        parts = [
            f"{self.names[slowest]}: about {_ms(ms[slowest])} ms a decision",
            f"{deals} will take about {duration(elapsed + left)}",
        ]
        if self.limit_s is not None and self.limit_s < elapsed + left:
            parts.append(f"this run stops after {duration(self.limit_s)} (the same command resumes)")
        elif self.hint:
            parts.append(self.hint)
        self.bar.write("; ".join(parts), file=sys.stderr)


def _ms(value: float) -> str:
    """Milliseconds to two significant digits, without an exponent: ``70``, ``7.3``, ``0.25``."""
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"
