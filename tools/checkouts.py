"""Other commits beside this checkout, for the scripts that compare two of them
(:mod:`tools.before_after`, :mod:`tools.same_numbers`).

A commit is checked out with ``git worktree`` into a temporary folder and removed afterwards;
code runs against a checkout in a fresh interpreter that puts that checkout first on
``sys.path``, so the package this process imported never answers for it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def git(*args: str) -> str:
    """The output of ``git args`` in this checkout (``CalledProcessError`` when git fails)."""
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


@contextmanager
def worktree(commit: str, folder: Path) -> Iterator[Path]:
    """``commit`` checked out (detached) at ``folder`` for the ``with`` block, removed after."""
    git("worktree", "add", "--detach", str(folder), commit)
    try:
        yield folder
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False)


def python(code: str, root: Path) -> str:
    """Run ``code`` in a fresh interpreter in ``root``; its stdout (``RuntimeError`` with the end
    of its stderr when it fails)."""
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"the run in {root} failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return done.stdout
