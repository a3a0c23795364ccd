"""What a run reports as it goes: ``train.csv`` and ``eval.csv`` (:class:`CsvLog`), TensorBoard,
the progress bar (:class:`Logs`) and the learning-curve plots (:func:`plot_learning_curve`, and a
universal network's :func:`plot_mixture_curve`). The CSVs and plots are written whole and
atomically (:func:`hearts_env.files.write_atomic`): a kill never leaves half a row or half a
picture."""

from __future__ import annotations

import csv
import io
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.files import write_atomic
from training.config import Args


class CsvLog:
    """A CSV file of a run, kept in memory and rewritten whole and atomically at each
    :meth:`add`, so that the file on disk always holds whole rows.

    ``columns``: the header (a row's other keys are left out); None: every key met, in the order
    met. ``resume_from``: continue the file already at ``path``, keeping its rows up to that
    iteration (the checkpoint's; the resumed run writes the later ones again, exactly)."""

    def __init__(
        self, path: Path, columns: Sequence[str] | None = None, resume_from: int | None = None
    ) -> None:
        self.path = path
        self.fixed = columns is not None
        self.columns = list(columns or [])
        self.rows: list[dict[str, Any]] = []
        if resume_from is not None and path.exists():
            with path.open(newline="") as f:
                reader = csv.DictReader(f)
                if not self.fixed:
                    self.columns = list(reader.fieldnames or [])
                for line, row in enumerate(reader, start=2):
                    try:
                        iteration = int(row["iteration"])
                    except (KeyError, TypeError, ValueError):
                        raise ValueError(
                            f"{path} line {line}: iteration {row.get('iteration')!r} is not a whole number; "
                            "mend or remove the line, then resume again"
                        ) from None
                    if iteration <= resume_from:
                        self.rows.append(row)
            self._write()

    def add(self, rows: Sequence[dict[str, Any]]) -> None:
        """Append ``rows`` and rewrite the file."""
        if not rows:
            return
        if not self.fixed:
            for row in rows:
                self.columns += [key for key in row if key not in self.columns]
        self.rows.extend(rows)
        self._write()

    def _write(self) -> None:
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=self.columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(self.rows)
        write_atomic(self.path, text.getvalue())


def save_figure(fig: Any, path: Path) -> None:
    """Save a matplotlib figure as a PNG at ``path``, atomically, and close it."""
    import matplotlib.pyplot as plt

    try:
        write_atomic(path, lambda partial: fig.savefig(partial, format="png", dpi=110))
    finally:
        plt.close(fig)


def plot_learning_curve(
    evals: list[dict[str, Any]],
    title: str,
    path: Path,
    imitation: int = 0,
    better: str = "lower",
    teacher: str = "strategy",
    ppo: bool = True,
) -> None:
    """Points per deal of the policy minus each opponent's (lower is better) against training
    decisions: a marker on every evaluation with its 95% CI (bars on up to 12 points, a band
    between points; the latest value written beside the last), the first ``imitation`` decisions
    (the warm start) shaded, and, where ``ppo`` has begun, a labelled line where it takes over."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    last = max([e["decisions"] for e in evals] + [imitation, 1])
    scale, unit = next((s, u) for s, u in ((1e6, " (millions)"), (1e3, " (thousands)"), (1, "")) if last >= s)
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for opponent in dict.fromkeys(e["opponent"] for e in evals):
        rows = [e for e in evals if e["opponent"] == opponent]
        x = np.array([e["decisions"] for e in rows], float) / scale
        y = np.array([e["diff"] for e in rows])
        ci = np.array([e["ci95"] for e in rows])
        few = len(rows) <= 12  # CI bars on few points; the band alone on many
        line = ax.errorbar(x, y, yerr=ci if few else None, marker="o", markersize=5 if few else 3.5,
                           capsize=3, label=f"vs {opponent}")[0]  # fmt: skip
        if len(rows) > 1:
            ax.fill_between(x, y - ci, y + ci, color=line.get_color(), alpha=0.15, linewidth=0)
        ax.annotate(f"{y[-1]:+.2f}", (x[-1], y[-1]), xytext=(6, 0), textcoords="offset points", va="center",
                    fontsize=8, color=line.get_color())  # fmt: skip
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlim(0, last / scale * 1.12)
    if imitation:  # above the axes, clear of the points
        boundary = imitation / scale
        ax.axvspan(0, boundary, color="0.93", zorder=0)
        above = ax.get_xaxis_transform()  # x in data, y in axes units
        style = {"transform": above, "va": "bottom", "fontsize": 8, "color": "0.3"}
        if not ppo:
            ax.text(boundary / 2, 1.01, f"imitation of {teacher}", ha="center", **style)
        else:
            ax.axvline(
                boundary, color="0.35", linestyle="--", linewidth=1, label="imitation ends, PPO begins"
            )
            if boundary > 0.2 * ax.get_xlim()[1]:
                ax.text(boundary / 2, 1.01, f"imitation of {teacher}", ha="center", **style)
                ax.text(boundary, 1.01, "  PPO self-play →", ha="left", **style)
            else:  # a narrow imitation phase: one label from the line
                ax.text(boundary, 1.01, f"← imitation of {teacher} | PPO self-play →", ha="left", **style)
    ax.set_xlabel(f"training decisions{unit}")
    ax.set_ylabel(f"policy − opponent, points per deal\n(duplicate deals, 95% CI; {better} is better)")
    ax.set_title(title, pad=16)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)


def plot_mixture_curve(
    evals: list[dict[str, Any]], title: str, path: Path, imitation: int = 0, better: str = "lower"
) -> None:
    """A universal network's learning curve: against training decisions, each evaluated preset's
    policy − heuristic (points per deal, duplicate deals) as a thin line, the mean over the
    presets as a thick one, and, at the latest evaluation, how many presets are beaten (the 95%
    interval on the better side of 0); the warm start (``imitation`` decisions) shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    last = max([e["decisions"] for e in evals] + [imitation, 1])
    scale, unit = next((s, u) for s, u in ((1e6, " (millions)"), (1e3, " (thousands)"), (1, "")) if last >= s)
    sign = -1 if better == "lower" else 1
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    steps = sorted({e["decisions"] for e in evals})
    for preset in dict.fromkeys(e["preset"] for e in evals):
        rows = sorted((e for e in evals if e["preset"] == preset), key=lambda e: e["decisions"])
        x = np.array([e["decisions"] for e in rows], float) / scale
        marker = "." if len(rows) < 30 else None
        ax.plot(x, [e["diff"] for e in rows], color="0.6", linewidth=0.8, marker=marker)
    mean = [np.mean([e["diff"] for e in evals if e["decisions"] == d]) for d in steps]
    x = np.array(steps, float) / scale
    ax.plot(x, mean, color="C0", linewidth=2.2, marker="o", label="mean over presets")
    final = [e for e in evals if e["decisions"] == steps[-1]]
    beaten = sum(sign * e["diff"] > e["ci95"] for e in final)
    ax.annotate(f"{mean[-1]:+.2f}\nbetter in {beaten}/{len(final)}", (steps[-1] / scale, mean[-1]),
                xytext=(6, 0), textcoords="offset points", va="center", fontsize=8, color="C0")  # fmt: skip
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlim(0, last / scale * 1.15)
    if imitation:
        ax.axvspan(0, imitation / scale, color="0.93", zorder=0, label="imitation (warm start)")
    ax.set_xlabel(f"training decisions{unit}")
    ax.set_ylabel(f"policy − heuristic, points per deal\n(one line a preset; {better} is better)")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)


def curve_title(preset: str, num_players: int, imitated: int, decisions: int) -> str:
    """The learning curve's title: the run and the phases its evaluations span (``imitated``: the
    decisions of the warm start, ``decisions``: all so far)."""
    if not imitated:
        phases = "PPO"
    elif decisions <= imitated:
        phases = "imitation"
    else:
        phases = f"imitation then PPO (from decision {imitated:,})"
    return f"{preset}, {num_players} players: {phases}"


class Logs:
    """The CSV files (:class:`CsvLog`: cut back to the checkpoint on resume), TensorBoard and the
    progress bar."""

    TRAIN = ["iteration", "decisions", "samples", "elapsed_s", "decisions_per_s", "phase", "pg_loss",
             "v_loss", "entropy", "approx_kl", "clipfrac", "explained_var"]  # fmt: skip
    EVAL = ["iteration", "decisions", "elapsed_s", "opponent", "deals", "ppo_points", "opponent_points",
            "diff", "ci95", "illegal"]  # fmt: skip

    def __init__(
        self, run: Path, args: Args, iteration: int, decisions: int, elapsed_s: float = 0.0, label: str = "",
        train_columns: Sequence[str] | None = TRAIN, eval_columns: Sequence[str] = EVAL,
    ) -> None:  # fmt: skip
        """``label``: the run's name on the bar (left out: ``PRESET Np``); ``train_columns``: the
        header of ``train.csv`` (None: every key met), ``eval_columns``: of ``eval.csv``."""
        self.run = run
        self.args = args
        self.label = label or f"{args.preset} {args.num_players}p"
        self.start = (decisions, elapsed_s)  # this segment's: its rate measures what the time left allows
        kept = iteration if args.resume else None
        self.losses = CsvLog(run / "train.csv", train_columns, kept)
        self.evaluations = CsvLog(run / "eval.csv", eval_columns, kept)
        self.writer = None
        if args.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(run / "tb"), purge_step=decisions if args.resume else None)
        from tqdm import tqdm

        total = args.total_decisions or None
        self.bar = tqdm(
            total=total, initial=decisions, unit="dec", unit_scale=True, disable=not args.progress,
            desc=self.label, dynamic_ncols=True,
        )  # fmt: skip

    def phase_label(self, phase: str) -> str:
        """The progress bar's name for an iteration of ``phase`` (``"imitation"`` or ``"ppo"``)."""
        return f"{self.label} {phase}"

    def phase(self, phase: str) -> None:
        """Name the progress bar after the phase the run is in."""
        self.bar.set_description(self.phase_label(phase), refresh=False)

    def advance(self, decisions: int, elapsed_s: float, reserve_s: float = 0.0) -> None:
        """Move the bar on by an iteration's ``decisions``, ``elapsed_s`` seconds into the run, its
        total set to where the budgets end it: ``total_decisions``, or sooner, the decisions the
        time left (``minutes``, less ``reserve_s`` kept for the final evaluation) holds at this
        segment's rate, in whole iterations; the bar's ETA is then the time left to train."""
        done = self.bar.n + decisions
        total = self.args.total_decisions or math.inf
        seconds = elapsed_s - self.start[1]
        if math.isfinite(self.args.minutes) and seconds > 0:
            rate = (done - self.start[0]) / seconds
            left_s = max(0.0, 60 * self.args.minutes - reserve_s - elapsed_s)
            total = min(total, done + math.ceil(rate * left_s / decisions) * decisions)
        if math.isfinite(total):
            self.bar.total = max(total, done)
        self.bar.update(decisions)

    def final_evaluation(self, estimate_s: float) -> None:
        """Say on the bar that the final evaluation runs, and about how long it takes (``estimate_s``:
        the last evaluation's seconds; 0: none measured yet)."""
        about = f", about {estimate_s:.0f} s" if estimate_s else ""
        self.bar.set_description(f"{self.label} final evaluation{about}")

    def train(self, row: dict[str, Any]) -> None:
        """One iteration's losses."""
        self.losses.add([row])
        if self.writer:
            for key, value in row.items():
                if isinstance(value, float) and key != "elapsed_s":
                    self.writer.add_scalar(f"train/{key}", value, row["decisions"])

    def evaluation(self, rows: list[dict[str, Any]]) -> None:
        """One evaluation's results."""
        self.evaluations.add(rows)
        if self.writer:
            for row in rows:
                where = f"_in_{row['preset']}" if "preset" in row else ""  # a universal network's presets
                vs = f"vs_{row['opponent']}{where}"
                self.writer.add_scalar(f"eval/diff_{vs}", row["diff"], row["decisions"])
                self.writer.add_scalar(f"eval/points_{vs}", row["ppo_points"], row["decisions"])

    def warn(self, text: str) -> None:
        """One warning line on stderr, clear of the progress bar."""
        from tqdm import tqdm

        tqdm.write(f"warning: {text}", file=sys.stderr)

    def close(self) -> None:
        """Flush and close."""
        self.bar.close()
        if self.writer:
            self.writer.close()
