"""Shared by the integration tests with third-party RL libraries, each run in its own virtual environment by
``make integration-NAME`` (``make integration`` runs them all; CI does, after ``make test``).

In the main ``.venv`` these libraries are not installed and the tests skip. Under ``make
integration-NAME`` the variable ``HEARTS_ENV_INTEGRATION=NAME`` is set, and a library that does
not import is a failure, not a skip: a broken integration venv cannot pass silently.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def require(module: str) -> ModuleType:
    """Import ``module``: skip the test without it, unless an integration run asked for it."""
    if os.environ.get("HEARTS_ENV_INTEGRATION"):
        return importlib.import_module(module)  # an ImportError fails the test
    return pytest.importorskip(module)


def check_deal_totals(preset: str, points: list[list[int]]) -> None:
    """The deal points sum as the rules say."""
    for deal in points:
        total = sum(deal)
        if preset == "hearts":  # 26, or 3 x 26 when the moon is shot
            assert total in (26, 78), deal
        elif preset == "black_maria":  # Q♠ 13, K♠ 10, A♠ 7, hearts 13; no moon
            assert total == 43, deal
        elif preset == "auction_hearts":  # 13 in the penalty suit, plus the winning bid (0..13)
            assert 13 <= total <= 26, deal


# ---------------------------------------------------------------------- commands without torch
# The package alone (no training extra) runs every command that needs no torch; those that need it
# refuse in one line. tests/test_no_torch.py runs these checks with torch, matplotlib and tqdm
# made unimportable; tests/integration/test_no_torch.py in a venv that never had them.
WITHOUT = ("torch", "matplotlib", "tqdm")
"""The optional dependencies (of the ``training`` extra) a package-only install lacks."""

Command = Callable[..., subprocess.CompletedProcess]
"""``run(*args, stdin="")``: ``hearts-env ARGS`` in a subprocess, text out."""


def command(prefix: Sequence[str], env: dict[str, str] | None = None) -> Command:
    """A :data:`Command` running ``prefix + args`` (``prefix``: how ``hearts-env`` is started)."""

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        base = dict(os.environ if env is None else env, PYTHONIOENCODING="utf-8", NO_COLOR="1")
        return subprocess.run(
            [*prefix, *args], input=stdin, capture_output=True, text=True, encoding="utf-8",
            cwd=ROOT, env=base, timeout=300,
        )  # fmt: skip

    return run


def one_line_error(result: subprocess.CompletedProcess, *words: str) -> None:
    """``result`` refused in one line (exit status 2) naming every one of ``words``, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hearts-env"), result.stderr[-2000:]
    assert all(word in lines[0] for word in words), lines[0]


def check_help(run: Command) -> None:
    """``hearts-env --help`` lists every command; ``train --help`` its flags."""
    result = run("--help")
    assert result.returncode == 0, result.stderr[-2000:]
    for name in ("tournament", "train", "bench", "play", "rules"):
        assert name in result.stdout
    result = run("train", "--help")
    assert result.returncode == 0 and "--num-games" in result.stdout, result.stderr[-2000:]


def check_rules(run: Command) -> None:
    """``hearts-env rules hearts`` prints the rules."""
    result = run("rules", "hearts")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Passing" in result.stdout and "Traceback" not in result.stderr


def check_play(run: Command) -> None:
    """``hearts-env play`` against ``strategy``: three cards passed (numbers 1, 2, 3: a card keeps
    its number while passing) and a few played (each the first numbered card), a ``²``
    re-prompted, then ``q``."""
    result = run("play", "--preset", "hearts", "--opponents", "strategy", "--seed", "1",
                 stdin="²\n1\n2\n3\n" + "1\n" * 5 + "q\n")  # fmt: skip
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-2000:])
    assert result.stdout.count("Pass card") >= 3 and "Your card" in result.stdout
    assert "'²' is not a card" in result.stdout and "Traceback" not in result.stderr


def check_tournament(run: Command, folder: Path) -> None:
    """A heuristic tournament plays and writes its JSON and CSV; without matplotlib, no chart and
    a one-line note instead of a crash."""
    path = folder / "t.json"
    result = run(
        "tournament", "--agents", "strategy,random", "--deals", "2", "--tables", "1", "--json", str(path)
    )
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-2000:])
    assert "strategy - random" in result.stdout
    assert json.loads(path.read_text())["deals"] == 2 and path.with_suffix(".csv").exists()
    assert not path.with_suffix(".png").exists() and "note: no chart" in result.stderr
    one_line_error(run("tournament", "--agents", "strategy", "--png", str(folder / "t2.png")), "matplotlib")


def check_torch_commands_refused(run: Command) -> None:
    """``train`` and the ``ppo`` agent name PyTorch in one line, exit status 2."""
    one_line_error(run("train", "--preset", "hearts"), "'train' needs PyTorch", '".[training]"')
    one_line_error(run("tournament", "--agents", "ppo,random"), "torch", '".[training]"')
    one_line_error(run("play", "--opponents", "ppo"), "torch")
