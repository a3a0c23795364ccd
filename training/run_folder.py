"""A run folder (``run_dir``): which files are the run's, when a run may write them, one writer.

A training run (:class:`training.run.Run`, of either schedule) writes :data:`RUN_FILES` into its
folder. Nothing a user has is lost to a new run:

- a folder that holds any run file is refused to a new run: with its ``checkpoint.pt`` the way on
  is ``--resume``; without one (deleted, or the run stopped before its first checkpoint) there
  is nothing to continue. Either way another ``--run-dir``, or ``--overwrite``, which removes the
  run files alone (never anything else in the folder) and says which;
- ``--resume`` needs the folder and its ``checkpoint.pt``;
- one run at a time: the run holds an :class:`hearts_env.files.OutputLock` on the folder for its
  whole life, so a second run on it is refused at once, naming the first one's pid (a lock
  left by a killed run is taken over).

Every run file but ``tb/`` (TensorBoard's own append-only event files, cut back to the
checkpoint by its ``purge_step`` on resume) is written whole and atomically
(:func:`hearts_env.files.write_atomic`), so a kill at any moment leaves each file as it was
before the write or after it.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from hearts_env.files import OutputLock, write_atomic

RUN_FILES = (
    "checkpoint.pt", "policy.pt", "train.csv", "eval.csv", "summary.json", "learning_curve.png", "tb",
)  # fmt: skip
"""The files (and TensorBoard's folder ``tb``) a training run writes in its folder."""


def save_torch(content: Any, path: Path) -> None:
    """``torch.save(content)`` to ``path`` atomically (a checkpoint, a policy file)."""
    import torch

    write_atomic(path, lambda partial: torch.save(content, partial))


def run_files(run: Path) -> list[str]:
    """The names of :data:`RUN_FILES` present in the folder ``run``, in that order."""
    return [name for name in RUN_FILES if (run / name).exists()]


def open_run(run: Path, resume: bool, overwrite: bool) -> OutputLock:
    """Check that a run may write in the folder ``run`` and hold it: the lock, held, that the run
    releases when it ends.

    ``FileNotFoundError`` for a ``resume`` without the folder or its checkpoint;
    ``FileExistsError`` for a new run in a folder holding run files (unless ``overwrite``: they
    are removed, and a line on stderr says which); ``OutputInUseError`` when another live
    process holds the folder. Nothing is written or removed before every check has passed (the
    folder is made for a new run; the lock file is removed on release)."""
    if resume and not run.is_dir():
        raise FileNotFoundError(
            f"--resume: the run folder {run} does not exist; check --run-dir, or start a run without --resume"
        )
    if run.exists() and not run.is_dir():
        raise NotADirectoryError(f"--run-dir {run} is a file, not a folder: choose another --run-dir")
    lock = OutputLock(run, "the run folder", folder=True).acquire()
    try:
        prepare_run(run, resume, overwrite)
    except BaseException:
        lock.release()
        raise
    return lock


def prepare_run(run: Path, resume: bool, overwrite: bool) -> None:
    """:func:`open_run`'s checks (and ``overwrite``'s removals) in the folder ``run``, whose lock
    the caller holds."""
    found = run_files(run)
    if resume and "checkpoint.pt" not in found:
        held = f"it holds {', '.join(found)} but" if found else "it"
        raise FileNotFoundError(
            f"--resume: nothing to continue in {run}: {held} has no checkpoint.pt; start the run "
            "anew with --overwrite (removes its files) or in another --run-dir"
        )
    if not resume and found:
        if overwrite:
            for name in found:
                path = run / name
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink()
            print(f"--overwrite: removed {', '.join(found)} from {run}", file=sys.stderr)
        elif "checkpoint.pt" in found:
            raise FileExistsError(
                f"{run} holds a run already ({', '.join(found)}): pass --resume to continue it, "
                "choose another --run-dir, or pass --overwrite to remove its files and start anew"
            )
        else:
            raise FileExistsError(
                f"{run} holds the files of a run ({', '.join(found)}) but no checkpoint.pt to "
                "resume from: choose another --run-dir, or pass --overwrite to remove them and "
                "start anew"
            )
    _clear_partials(run)


def interrupted_text(run: Path, iteration: int, decisions: int) -> str:
    """What a run stopped by Ctrl-C or SIGTERM leaves in ``run``, and the way on (its last checkpoint
    holds ``iteration`` and ``decisions``)."""
    if not (run / "checkpoint.pt").exists():
        return (
            "no checkpoint was written yet: nothing to resume; the same command with --overwrite starts over"
        )
    return (
        f"the checkpoint holds iteration {iteration} ({decisions:,} decisions); the same command with "
        "--resume continues"
    )


def _clear_partials(run: Path) -> None:
    """Remove the temporary files of run files a killed run left (``.train.csv.<pid>.partial``):
    with the folder's lock held, no live process is writing them."""
    for name in RUN_FILES:
        for partial in run.glob(f".{name}.*.partial"):
            partial.unlink(missing_ok=True)
