"""The training loop every run goes through (:class:`Run`), over a :class:`Schedule` that says what
one iteration plays and learns.

Two schedules ride on it: the single configuration (:class:`training.ppo.SingleConfiguration`: one
preset and player count, ``hearts-env train --preset P``) and the family mixture
(:class:`training.mixture.FamilyMixture`: one universal network for every configuration of a
family, ``hearts-env train --family F``). What they share is written here, once:

- the run folder and its lock (:func:`run_in`, :func:`training.run_folder.open_run`);
- the budgets: ``minutes`` (the final evaluation counts inside it: the run stops training early
  enough for one as long as the last) and ``total_decisions``;
- the progress (iterations, decisions, imitation decisions, samples, seconds, evaluations), which
  the checkpoint keeps, so that a resumed run counts on;
- ``checkpoint.pt`` (every ``checkpoint_every`` iterations and at the end) and then
  ``policy.pt``, both written atomically;
- the evaluation schedule (:func:`training.config.evaluation_due`) and the league's snapshots of
  the policy (every ``pool_every`` PPO iterations);
- the logs (:class:`training.logs.Logs`: the progress bar, ``train.csv``, ``eval.csv``,
  TensorBoard) and the learning curve;
- Ctrl-C and SIGTERM: the last checkpoint stays, the summary is written, and
  :class:`evaluation.flags.Interrupted` says what the checkpoint holds;
- the closing summary (``summary.json``; :func:`training.summary.summary_text` prints it).
"""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from evaluation.flags import Interrupted, signal_of, signals_held
from hearts_env.files import OutputLock, write_json
from training.config import Args, evaluation_due, evaluation_step, imitating, next_evaluation
from training.logs import Logs
from training.run_folder import interrupted_text, open_run, prepare_run, save_torch
from training.summary import resume_command

RUN_FILES_WRITTEN = {
    "checkpoint": "checkpoint.pt", "policy": "policy.pt", "losses": "train.csv", "evaluations": "eval.csv",
    "learning curve": "learning_curve.png", "TensorBoard": "tb",
}  # fmt: skip
"""What the summary calls each file a run writes, and its name in the run folder."""


class Schedule(Protocol):
    """What one kind of run does in the loop of :class:`Run`: how an iteration plays and learns,
    what its checkpoint and policy file hold, what its evaluation plays and how its curve is drawn.

    It is built in the held run folder, restored from the checkpoint when the run resumes; its
    ``progress`` is the run's (:func:`fresh_progress`, or the checkpoint's)."""

    progress: dict[str, Any]
    """The counters the run starts from."""
    identity: dict[str, Any]
    """What the summary says the run trains (``preset`` and ``num_players``, or ``family``)."""
    label: str
    """The progress bar's name of the run, e.g. ``hearts 4p``."""
    teacher: str
    """The warm start's teacher, as the summary names it."""
    better: str
    """``lower`` or ``higher``: which points are better in the game family."""
    flags: list[str]
    """The ``hearts-env train`` flags that set the run up (the summary's resume command)."""
    train_columns: Sequence[str] | None
    """``train.csv``'s header (None: every key met)."""
    eval_columns: Sequence[str]
    """``eval.csv``'s header."""
    optimizer: Any
    """The network's optimizer (``anneal_lr``: the loop sets its step size every iteration)."""

    def iterate(self, imitation: bool, progress: dict[str, Any]) -> tuple[dict[str, float], dict[str, Any]]:
        """Play one rollout and learn from it (imitating the teacher, or PPO); the update's
        losses (with ``samples``: the decisions trained on) and what ``train.csv`` adds."""
        ...

    def snapshot(self) -> None:
        """Add the current policy to the league's pool of past policies."""
        ...

    def checkpoint(self, progress: dict[str, Any]) -> dict[str, Any]:
        """The content of ``checkpoint.pt`` (tensors and plain values: ``weights_only=True``)."""
        ...

    def policy(self, info: dict[str, Any]) -> dict[str, Any]:
        """The content of ``policy.pt``, ``info`` saying how it was trained."""
        ...

    def evaluate(self, policy_path: Path) -> list[dict[str, Any]]:
        """The duplicate evaluations of the policy file at ``policy_path``, one row each."""
        ...

    def plot(self, progress: dict[str, Any], path: Path) -> None:
        """Draw the learning curve of ``progress["evals"]`` at ``path``."""
        ...

    def headline(self, rows: list[dict[str, Any]]) -> str:
        """One evaluation's words on the progress bar."""
        ...

    def commands(self, last: list[dict[str, Any]], policy_decisions: int, run: Path) -> dict[str, str]:
        """The summary's commands of the schedule's own (the last evaluation's ``evaluate_command``)."""
        ...


def fresh_progress(args: Args) -> dict[str, Any]:
    """The progress of a run that has done nothing yet."""
    return {"iteration": 0, "decisions": 0, "imitation": 0, "samples": 0, "elapsed_s": 0.0, "train_s": 0.0,
            "next_eval": evaluation_step(args), "evals": []}  # fmt: skip


def run_in(
    args: Args, folder: Path, build: Callable[[], Schedule], lock: OutputLock | None = None
) -> dict[str, Any]:
    """Train in the run folder ``folder``: hold it (or check ``lock``, one the caller holds on
    it already), build the schedule there and run it (:meth:`Run.train`); returns the summary."""
    if lock is None:
        lock = open_run(folder, args.resume, args.overwrite)
        try:
            return Run(args, folder, build()).train()
        finally:
            lock.release()
    if not lock.held or lock.path != folder:
        raise ValueError(f"the lock given to train() must be held, on the run folder {folder}")
    prepare_run(folder, args.resume, args.overwrite)
    return Run(args, folder, build()).train()


class Run:
    """One run of ``schedule`` in the held folder ``folder``: the loop, its budgets, progress,
    checkpoints, evaluations, logs and summary (see the module's docstring)."""

    def __init__(self, args: Args, folder: Path, schedule: Schedule) -> None:
        self.args, self.folder, self.schedule = args, folder, schedule
        self.progress = schedule.progress
        self.progress.setdefault("train_s", 0.0)  # a mixture checkpoint of before the one loop
        self.progress.setdefault("samples", 0)
        self.paths = {what: folder / name for what, name in RUN_FILES_WRITTEN.items()}
        self.saved_at = {"iteration": self.progress["iteration"], "decisions": self.progress["decisions"]}
        self.policy_at = self.progress["decisions"]  # what policy.pt holds, once written
        self.reserve_s = 0.0  # the last evaluation's seconds: the final one's, kept inside --minutes
        self.logs: Logs | None = None

    def train(self) -> dict[str, Any]:
        """Iterate until a budget is spent or Ctrl-C / SIGTERM; write and return the summary
        (raising :class:`evaluation.flags.Interrupted` after it when stopped)."""
        args, progress, schedule = self.args, self.progress, self.schedule
        self.logs = logs = Logs(
            self.folder, args, progress["iteration"], progress["decisions"], progress["elapsed_s"],
            label=schedule.label, train_columns=schedule.train_columns, eval_columns=schedule.eval_columns,
        )  # fmt: skip
        if args.imitation_decisions is not None and args.total_decisions:
            if progress["decisions"] < args.imitation_decisions >= args.total_decisions:
                logs.warn(
                    f"--imitation-decisions {args.imitation_decisions:,} is not below --total-decisions "
                    f"{args.total_decisions:,}: this run ends in imitation, with no PPO"
                )
        stopped, reached, stop = "interrupted (Ctrl-C)", False, None
        segment: list[tuple[int, float]] = []  # this segment's imitation iterations: (decisions, seconds)
        clock = time.perf_counter()
        try:
            while self.budget_left():
                start = time.perf_counter()
                done = progress["decisions"]
                imitation = imitating(args, done, progress["imitation"], progress["elapsed_s"])
                if args.anneal_lr:
                    for group in schedule.optimizer.param_groups:
                        group["lr"] = self.learning_rate()
                stats, extra = schedule.iterate(imitation, progress)
                decisions = args.rollout_steps * args.num_games  # every decision played, the learner's or not
                progress["iteration"] += 1
                progress["decisions"] += decisions
                progress["imitation"] += decisions if imitation else 0
                progress["samples"] += int(stats.pop("samples"))
                progress["train_s"] += time.perf_counter() - start
                seconds = time.perf_counter() - start
                clock = self.tick(clock)
                phase = "imitation" if imitation else "ppo"
                logs.train({
                    "iteration": progress["iteration"], "decisions": progress["decisions"],
                    "samples": progress["samples"], "elapsed_s": round(progress["elapsed_s"], 2),
                    "decisions_per_s": round(decisions / seconds), "phase": phase, **extra, **stats,
                })  # fmt: skip
                logs.phase(phase)
                logs.advance(decisions, progress["elapsed_s"], self.reserve_s)
                if imitation:
                    segment.append((decisions, seconds))
                    if len(segment) == 2:  # the first iteration warms up: the second gives the rate
                        self.warn_imitation_too_long(decisions / seconds)
                if not imitation and args.pool_every and progress["iteration"] % args.pool_every == 0:
                    schedule.snapshot()
                done, due = progress["decisions"], progress["next_eval"]
                evaluated = evaluation_due(args, done, due, progress["elapsed_s"], self.evaluations())
                if evaluated:
                    progress["next_eval"] = next_evaluation(args, done, due)
                    self.evaluate()
                clock = self.tick(clock)
                finished = not self.budget_left()
                if finished and not evaluated:
                    logs.final_evaluation(self.reserve_s)
                    self.evaluate()
                if finished or progress["iteration"] % args.checkpoint_every == 0:
                    clock = self.tick(clock)
                    self.save_checkpoint()
            if not self.paths["checkpoint"].exists():  # a budget spent before the first iteration
                self.evaluate()  # (a run started from a policy file that has trained it all)
                self.save_checkpoint()
            reached = bool(args.total_decisions) and progress["decisions"] >= args.total_decisions
            stopped = (
                f"the decision budget (--total-decisions {args.total_decisions:,})"
                if reached
                else f"the time budget (--minutes {args.minutes:g})"
            )
        except KeyboardInterrupt as error:  # the last whole iteration's checkpoint stays: --resume goes on
            stop = error
            how = "Ctrl-C" if signal_of(error) == signal.SIGINT else signal.Signals(signal_of(error)).name
            stopped = f"interrupted ({how}); {interrupted_text(self.folder, **self.saved_at)}"
        finally:
            logs.close()
        summary = self.summary(stopped, reached)
        if stop is not None:
            raise Interrupted(signal_of(stop), kept=interrupted_text(self.folder, **self.saved_at)) from stop
        return summary

    def tick(self, since: float) -> float:
        """Count the seconds from ``since`` into the run's; returns now."""
        now = time.perf_counter()
        self.progress["elapsed_s"] += now - since
        return now

    def budget_left(self) -> bool:
        """Whether another iteration fits the budgets (the time one less the final evaluation's)."""
        args, progress = self.args, self.progress
        if args.total_decisions and progress["decisions"] >= args.total_decisions:
            return False
        return progress["elapsed_s"] + self.reserve_s < 60 * args.minutes

    def learning_rate(self) -> float:
        """``anneal_lr``: the step size of the next iteration, ``learning_rate`` times the share of
        the budget left (the larger share spent of the two budgets)."""
        args, progress = self.args, self.progress
        spent = progress["elapsed_s"] / (60 * args.minutes) if math.isfinite(args.minutes) else 0.0
        if args.total_decisions:
            spent = max(spent, progress["decisions"] / args.total_decisions)
        return args.learning_rate * max(0.0, 1.0 - spent)

    def evaluations(self) -> int:
        """The evaluations made so far."""
        return len({e["iteration"] for e in self.progress["evals"]})

    def save_policy(self) -> None:
        """Write ``policy.pt``: the policy now, with how it was trained."""
        progress = self.progress
        info = {"decisions": progress["decisions"], "minutes": round(progress["elapsed_s"] / 60, 2)}
        save_torch(self.schedule.policy(info), self.paths["policy"])
        self.policy_at = progress["decisions"]

    def save_checkpoint(self) -> None:
        """Write ``checkpoint.pt``, then ``policy.pt``."""
        with signals_held():  # a stop never falls between the file and the note of what it holds
            save_torch(self.schedule.checkpoint(self.progress), self.paths["checkpoint"])
            self.saved_at.update(iteration=self.progress["iteration"], decisions=self.progress["decisions"])
        self.save_policy()

    def evaluate(self) -> None:
        """Evaluate the policy now: the rows go to ``eval.csv``, the progress and the curve."""
        assert self.logs is not None
        progress, started = self.progress, time.perf_counter()
        self.save_policy()
        rows = self.schedule.evaluate(self.paths["policy"])
        self.reserve_s = time.perf_counter() - started
        for row in rows:
            row.update(iteration=progress["iteration"], decisions=progress["decisions"],
                       elapsed_s=round(progress["elapsed_s"], 1))  # fmt: skip
        progress["evals"].extend(rows)
        self.logs.evaluation(rows)
        self.schedule.plot(progress, self.paths["learning curve"])
        self.logs.bar.set_postfix_str(self.schedule.headline(rows))

    def warn_imitation_too_long(self, rate: float) -> None:
        """Warn (once, from the measured ``rate`` in decisions per second) when an explicit
        ``imitation_decisions`` will not be done within the time budget."""
        args, progress = self.args, self.progress
        left = (args.imitation_decisions or 0) - progress["decisions"]
        if args.imitation_decisions is None or left <= 0 or not math.isfinite(args.minutes):
            return
        needed_s = progress["elapsed_s"] + left / rate
        if needed_s > 60 * args.minutes and self.logs is not None:
            self.logs.warn(
                f"at {rate:,.0f} decisions/s, --imitation-decisions {args.imitation_decisions:,} takes about "
                f"{needed_s / 60:.1f} of the {args.minutes:g} minutes budgeted: this run ends in imitation, "
                "with no PPO (raise --minutes, or lower --imitation-decisions or leave it out to fit the run)"
            )

    def summary(self, stopped: str, reached: bool) -> dict[str, Any]:
        """The closing summary, written to ``summary.json``."""
        progress, schedule = self.progress, self.schedule
        last_iteration = max([e["iteration"] for e in progress["evals"]], default=None)
        last = [e for e in progress["evals"] if e["iteration"] == last_iteration]
        made, imitated = progress["decisions"], progress["imitation"]
        summary = {
            **schedule.identity, "run_dir": str(self.folder), "iterations": progress["iteration"],
            "decisions": made, "imitation_decisions": imitated, "ppo_decisions": made - imitated,
            "teacher": schedule.teacher, "samples": progress["samples"],
            "minutes": round(progress["elapsed_s"] / 60, 2),
            # the rate of this run's own decisions (a run from --init counts the file's as done)
            "decisions_per_s": round((made - progress.get("initial", 0)) / max(progress["train_s"], 1e-9)),
            "stopped": stopped, "better": schedule.better, "evaluation": last,
            "policy": str(self.paths["policy"]), "checkpoint": str(self.paths["checkpoint"]),
        }  # fmt: skip
        if self.paths["policy"].exists() and last:
            summary.update(schedule.commands(last, self.policy_at, self.folder))
        if self.paths["checkpoint"].exists():
            budget = "total_decisions" if reached else "minutes"
            summary["resume_command"] = resume_command(schedule.flags, budget)
        summary["files"] = {what: str(path) for what, path in self.paths.items() if path.exists()}
        summary["files"]["this summary"] = str(self.folder / "summary.json")
        write_json(self.folder / "summary.json", summary)
        return summary
