"""Files written for users: atomically, and by one process at a time.

Every file the project writes for a user (tournament and leaderboard records, CSVs, figures,
training logs, checkpoints, policies, summaries) goes through :func:`write_atomic`: the content
is written to a temporary file in the same folder, flushed to disk, then renamed over the
target, so a kill at any moment leaves either the old file or the new one, never half of one
(the temporary file of a writer killed mid-write is removed by the next write of that file).

A command that writes an output for longer than an instant (a tournament, a leaderboard, a
training run) holds an :class:`OutputLock` on it: a second process that asks for the same output
is refused at once with :class:`OutputInUseError`, naming the first one's pid. The lock is an
``flock`` on a ``<name>.lock`` file beside the output, so the operating system releases it when
its holder dies, however it dies: a lock left by a dead process is taken over without a word.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

__all__ = ["OutputInUseError", "OutputLock", "write_atomic", "write_json", "partial_path"]


class OutputInUseError(OSError):
    """Another live process holds the lock on an output (its pid is :attr:`pid`)."""

    def __init__(self, message: str, pid: int | None = None) -> None:
        super().__init__(message)
        self.pid = pid


def partial_path(path: str | Path) -> Path:
    """The temporary file :func:`write_atomic` writes ``path`` through: hidden, beside it, and
    named for this process so that two writers never share one."""
    path = Path(path)
    return path.with_name(f".{path.name}.{os.getpid()}.partial")


def write_atomic(path: str | Path, content: str | bytes | Callable[[Path], None]) -> Path:
    """Write ``content`` to ``path`` atomically: a temporary file in the same folder, flushed
    and synced, then renamed over ``path`` (the folder is made if needed).

    ``content`` is text (written as UTF-8), bytes, or a function that writes the temporary file
    whose path it is given (``lambda tmp: torch.save(obj, tmp)``; a figure must be told its
    format, since the temporary name has no ``.png``). On any error, the temporary file is
    removed and ``path`` is left as it was. Returns ``path``.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = partial_path(path)
    try:
        if callable(content):
            content(partial)
        else:
            data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
            with open(partial, "wb") as f:
                f.write(data)
        with open(partial, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise
    _remove_dead_partials(path)
    return path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def _remove_dead_partials(path: Path) -> None:
    """Remove the temporary files of ``path`` left by writers killed mid-write (SIGKILL gives
    them no time to clean up): those named for a process that no longer runs."""
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.partial"):
        pid = leftover.name[len(path.name) + 2 : -len(".partial")]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                leftover.unlink()


def write_json(path: str | Path, value: Any, indent: int = 1) -> Path:
    """``value`` as JSON (a final newline) written atomically to ``path``."""
    return write_atomic(path, json.dumps(value, indent=indent) + "\n")


def _holder(lock_path: Path) -> int | None:
    """The pid written in a lock file, if it can be read."""
    try:
        first = lock_path.read_text(encoding="utf-8").split()
        return int(first[0]) if first else None
    except (OSError, ValueError):
        return None


class OutputLock:
    """Hold the output ``path`` for this process: one writer at a time.

    ``with OutputLock(path, "the tournament record"):`` takes an exclusive, non-blocking
    ``flock`` on ``<path>.lock`` (beside ``path``; for a folder, inside it as ``.lock``) and
    writes this pid into it; another process asking for the same output meanwhile gets
    :class:`OutputInUseError` at once, naming this pid. The operating system drops the lock when its
    holder exits or is killed, so a lock file left behind by a dead process is simply taken
    over. The lock file is removed on release. Re-entrant within one object only (acquiring
    twice is an error).
    """

    def __init__(self, path: str | Path, what: str = "this output", folder: bool = False) -> None:
        self.path = Path(path)
        self.what = what
        self.lock_path = self.path / ".lock" if folder else self.path.with_name(self.path.name + ".lock")
        self._file: TextIO | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock now."""
        return self._file is not None

    def acquire(self) -> OutputLock:
        """Take the lock, or raise :class:`OutputInUseError` naming the live process that holds it."""
        if self._file is not None:
            raise RuntimeError(f"the lock on {self.path} is already held by this object")
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            f = open(self.lock_path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.close()
                pid = _holder(self.lock_path)
                who = f"process {pid}" if pid is not None else "another process"
                raise OutputInUseError(
                    f"{self.what} {self.path} is being written by {who} (lock {self.lock_path}); wait for "
                    "it to finish or stop it, or write elsewhere",
                    pid,
                ) from None
            # The file may have been removed and made anew by a releasing holder between our
            # open and our flock: then our lock is on a file nobody else will look at.
            try:
                same = os.path.samestat(os.fstat(f.fileno()), os.stat(self.lock_path))
            except FileNotFoundError:
                same = False
            if same:
                break
            f.close()
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()} {' '.join(sys.argv)[:200]}\n")
        f.flush()
        self._file = f
        return self

    def release(self) -> None:
        """Give the lock up and remove the lock file (nothing if not held)."""
        f, self._file = self._file, None
        if f is None:
            return
        with contextlib.suppress(OSError):
            self.lock_path.unlink()
        f.close()

    def __enter__(self) -> OutputLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()

