"""The package alone, in a venv without the training extra (``make integration-notorch``:
``pip install -e ".[dev]"``, no torch, matplotlib or tqdm): the ``hearts-env`` entry point runs
``--help``, ``rules``, ``play`` and a heuristic tournament, and ``train`` and the ``ppo`` agent
refuse in one line. tests/test_no_torch.py runs the same checks with the modules blocked."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from tests.integration import common

PRESENT = [module for module in common.WITHOUT if importlib.util.find_spec(module) is not None]

if os.environ.get("HEARTS_ENV_INTEGRATION") != "notorch" and PRESENT:
    pytest.skip(f"a venv with {', '.join(PRESENT)}: run make integration-notorch", allow_module_level=True)

ENTRY_POINT = Path(sys.executable).with_name("hearts-env")


@pytest.fixture(scope="module")
def run() -> common.Command:
    return common.command([str(ENTRY_POINT)])


def test_the_venv_has_no_torch_matplotlib_or_tqdm() -> None:
    assert not PRESENT, f"{', '.join(PRESENT)} installed: this venv should hold the base package only"
    assert ENTRY_POINT.exists(), "the hearts-env entry point is not installed"


def test_help(run: common.Command) -> None:
    common.check_help(run)


def test_rules(run: common.Command) -> None:
    common.check_rules(run)


def test_play(run: common.Command) -> None:
    common.check_play(run)


def test_tournament(run: common.Command, tmp_path: Path) -> None:
    common.check_tournament(run, tmp_path)


def test_train_and_ppo_say_they_need_torch(run: common.Command) -> None:
    common.check_torch_commands_refused(run)
