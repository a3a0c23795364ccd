"""Packaging: a wheel built from the working tree, installed into a fresh virtual environment,
finds the shipped PPO checkpoints (package data) and plays them, without the source tree.

The wheel is built from a copy of the tree (what git tracks or would track, so build outputs stay
out of the repository) and installed with ``--no-deps`` into a ``python -m venv`` of its own; that
environment borrows numpy, torch, gymnasium and pettingzoo from this one through a ``.pth`` line
(the installed wheel comes first on ``sys.path``, and this environment's editable install is not
activated there). The check runs from an empty folder and asserts that every module came from the
fresh environment. Marked ``slow`` (about 20 s): ``pytest -m 'not slow'`` leaves it out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.test_wheel import built_wheel

pytest.importorskip("torch")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
import json, sys
import numpy as np
import agents, agents.ppo, evaluation, hearts_env, training
from hearts_env.presets import make_rules
from hearts_env.table import Table

agent = agents.make("ppo", "hearts", 4)
table = Table(make_rules("hearts", 4), 4)
table.reset(seed=0)
mask = table.action_mask()
actions = agent.act({"observation": table.observe(), "action_mask": mask}, np.random.default_rng(0))
print(json.dumps({
    "modules": [m.__file__ for m in (agents, agents.ppo, evaluation, hearts_env, training)],
    "shipped": agents.ppo.shipped(),
    "checkpoint": agent.checkpoint,
    "legal": bool((mask[np.arange(len(actions)), actions] == 1).all()),
    "path": sys.path,
}))
"""


def _run(command: list[str], **kwargs: object) -> str:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed:\n{output[-4000:]}"
    return output


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The wheel built from a copy of the working tree, and the build's output (built once for
    this module and tests/test_wheel.py)."""
    return built_wheel(tmp_path_factory)


def test_the_build_warns_nothing_about_the_license(wheel: tuple[Path, str]) -> None:
    built, log = wheel
    warned = [line for line in log.splitlines() if "licen" in line.lower() and "deprecat" in line.lower()]
    assert not warned, "\n".join(warned)
    with zipfile.ZipFile(built) as z:
        metadata = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: Apache-2.0" in metadata


def test_the_wheel_holds_every_shipped_checkpoint_and_curve(wheel: tuple[Path, str]) -> None:
    prefix = "agents/checkpoints/"
    with zipfile.ZipFile(wheel[0]) as z:
        packed = {n.removeprefix(prefix) for n in z.namelist() if n.startswith(prefix)}
    shipped = {p.name for p in (ROOT / prefix).iterdir() if p.suffix in (".pt", ".png", ".csv")}
    assert {"hearts-4p.pt", "hearts-4p.png", "black_maria-3p.pt"} <= shipped
    assert packed == shipped


def test_an_installed_wheel_finds_and_plays_the_shipped_checkpoints(
    wheel: tuple[Path, str], tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONNOUSERSITE"] = "1"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
          str(wheel[0])], env=env)  # fmt: skip
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(_run([str(python), "-c", purelib]).strip())
    borrowed = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    assert not any(Path(p).resolve() == ROOT for p in borrowed)
    (site / "_borrowed_dependencies.pth").write_text("".join(f"{p}\n" for p in borrowed))

    work = tmp_path / "elsewhere"
    work.mkdir()
    found = json.loads(_run([str(python), "-c", CHECK], cwd=work, env=env).strip().splitlines()[-1])
    for module in found["modules"]:  # the installed copy, never the source tree
        assert Path(module).resolve().is_relative_to(venv.resolve()), (module, found["path"])
    assert found["shipped"] == sorted(p.stem for p in (ROOT / "agents" / "checkpoints").glob("*.pt"))
    assert {"hearts-4p", "black_maria-3p"} <= set(found["shipped"])
    checkpoint = Path(found["checkpoint"]).resolve()
    assert checkpoint.is_relative_to(site.resolve()) and checkpoint.name == "hearts-4p.pt"
    assert found["legal"]
    script = venv / ("Scripts/hearts-env.exe" if os.name == "nt" else "bin/hearts-env")
    assert "usage" in _run([str(script), "--help"], cwd=work, env=env).lower()
