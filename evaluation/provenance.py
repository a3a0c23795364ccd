"""Where a result came from: the command, the code's commit and the date, for result files.

Every JSON under ``results/`` records one :func:`run_record` per run that wrote it (a resumed
tournament adds one per resume), so that a number quoted in the README can be traced to the
command and the code that produced it (``tests/test_figures.py`` checks the quotes against the
files; ``python -m tools.reproduce`` replays their first round on today's code).
"""

from __future__ import annotations

import datetime as _dt
import subprocess
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str | None:
    """The output of ``git args`` in this checkout, or None (no git, not a checkout)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(_ROOT), *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def code_commit() -> dict[str, Any]:
    """``{"commit": sha or None, "dirty": bool or None}``: the checkout the code runs from, and
    whether its tracked files differ from that commit (None outside a git checkout)."""
    commit = _git("rev-parse", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    status = _git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def run_record(command: str | None) -> dict[str, Any]:
    """One run's provenance: ``command`` (as typed, or None from Python), the commit, whether the
    checkout was dirty, and the UTC date and time."""
    now = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)
    return {"command": command, **code_commit(), "date": now.isoformat()}
