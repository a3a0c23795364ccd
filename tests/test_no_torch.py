"""``hearts-env`` without the training extra: torch, matplotlib and tqdm made unimportable in a
subprocess (a meta-path finder that refuses them), the commands that need none of them work and
those that need torch refuse in one line. The same checks run in a venv that never had them:
``make integration-notorch`` (tests/integration/test_no_torch.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.integration import common

BLOCK = f"""
import runpy, sys

class Without:
    \"\"\"Refuses the optional dependencies, as an environment without them would.\"\"\"

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {common.WITHOUT!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Without())
"""
"""Python source that makes the optional dependencies unimportable in its process."""
CLI = BLOCK + 'sys.argv[0] = "hearts-env"\nrunpy.run_module("hearts_cli", run_name="__main__")\n'
"""``python -c CLI ARGS`` is ``hearts-env ARGS`` with the optional dependencies missing."""


@pytest.fixture(scope="module")
def run() -> common.Command:
    return common.command([sys.executable, "-c", CLI])


@pytest.mark.parametrize("module", common.WITHOUT)
def test_the_blocker_hides_the_module(module: str) -> None:
    result = common.command([sys.executable, "-c", BLOCK + f"import {module}"])()
    assert result.returncode == 1 and f"No module named '{module}'" in result.stderr


def test_help_without_torch(run: common.Command) -> None:
    common.check_help(run)


def test_rules_without_torch(run: common.Command) -> None:
    common.check_rules(run)


def test_play_without_torch(run: common.Command) -> None:
    common.check_play(run)


def test_tournament_without_torch_matplotlib_or_tqdm(run: common.Command, tmp_path: Path) -> None:
    common.check_tournament(run, tmp_path)


def test_train_and_ppo_say_they_need_torch(run: common.Command) -> None:
    common.check_torch_commands_refused(run)
