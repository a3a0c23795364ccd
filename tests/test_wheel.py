"""The wheel holds the library and nothing else, and ``results/`` stays small.

The wheel is built once per test process from a copy of the working tree (:func:`built_wheel`,
shared with ``tests/test_packaging.py``, which installs it): its file list must hold the packages
a user imports (every module git tracks under them, and the shipped checkpoints), and no
experiments, tools, results, docs, tests or test oracles (the reference implementations the
differential tests compare the engine with). ``results/`` keeps what the README and the docs quote
(results/README.md); the checkpoint history lives in git, so the folder stays under 15 MB.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
JUNK = (".git", ".venv", "build", "dist", "runs", "*.egg-info", "__pycache__", ".pytest_cache",
        ".ruff_cache", ".hypothesis")  # fmt: skip
# What a user imports, and what a user runs to benchmark (``hearts-env bench``, ``make demo``).
PACKAGES = ("hearts_env", "agents", "evaluation", "training", "hearts_cli", "benchmarks")
BENCHMARKS = {"__init__", "throughput", "training_rate", "demo"}
"""The modules of ``benchmarks``: the throughput table, training's rate and the demo (studies live in
experiments/, regression tools in tools/)."""
# The only files beside the modules: the shipped PPO checkpoints, their curves and evaluations.
PACKAGE_DATA = "agents/checkpoints/"
RESULTS_LIMIT = 15 * 1024 * 1024

_built: dict[str, tuple[Path, str]] = {}


def copy_tree(dest: Path) -> None:
    """The files a clone of the working tree would hold (git's view when git is there)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*JUNK))
        return
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # tracked files deleted in the working tree are not copied
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def _setuptools_major() -> int:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return int(version("setuptools").split(".")[0])
    except (PackageNotFoundError, ValueError):
        return 0


def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The wheel built from a copy of the working tree, and the build's output; built once per
    process, whichever test module asks first."""
    if "wheel" not in _built:
        tmp = tmp_path_factory.mktemp("wheel")
        copy_tree(tmp / "src")
        # With setuptools >= 77 here, build with it (offline); otherwise pip fetches one into an
        # isolated build environment.
        isolation = ["--no-build-isolation"] if _setuptools_major() >= 77 else []
        command = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", *isolation,
                   "-w", str(tmp / "dist"), str(tmp / "src")]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True)
        log = result.stdout + result.stderr
        assert result.returncode == 0, f"{' '.join(command)} failed:\n{log[-4000:]}"
        (wheel,) = (tmp / "dist").glob("hearts_env-*.whl")
        _built["wheel"] = (wheel, log)
    return _built["wheel"]


@pytest.fixture(scope="module")
def names(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The wheel's file list, dist-info left out."""
    with zipfile.ZipFile(built_wheel(tmp_path_factory)[0]) as z:
        return [n for n in z.namelist() if ".dist-info/" not in n]


@pytest.mark.slow
def test_the_wheel_holds_only_the_library_packages(names: list[str]) -> None:
    tops = sorted({PurePosixPath(n).parts[0] for n in names})
    assert tops == sorted(PACKAGES), f"the wheel's top-level folders: {tops}"
    for lab in ("results", "experiments", "tools", "tests", "docs"):
        assert not [n for n in names if lab in PurePosixPath(n).parts], f"{lab}/ is in the wheel"
    benchmarks = {PurePosixPath(n).stem for n in names if n.startswith("benchmarks/")}
    assert benchmarks == BENCHMARKS, f"the wheel's benchmarks: {sorted(benchmarks)}, not {sorted(BENCHMARKS)}"


def test_the_repository_s_benchmarks_are_what_a_user_runs() -> None:
    """A study or a regression tool added to benchmarks/ would be installed: they go to
    experiments/<question>/ and tools/."""
    modules = {p.stem for p in (ROOT / "benchmarks").glob("*.py")}
    assert modules == BENCHMARKS, f"benchmarks/ holds {sorted(modules)}, should be {sorted(BENCHMARKS)}"


@pytest.mark.slow
def test_the_wheel_holds_no_test_oracle_and_no_data_but_the_shipped_checkpoints(names: list[str]) -> None:
    oracles = [n for n in names if PurePosixPath(n).stem.startswith(("reference", "differential"))]
    assert not oracles, f"the reference implementations belong to tests/, not the wheel: {oracles}"
    data = [n for n in names if not n.endswith(".py") and not n.startswith(PACKAGE_DATA)]
    assert not data, f"files in the wheel that are neither modules nor shipped checkpoints: {data}"
    assert "hearts_env/games/hearts/engine.py" in names and "hearts_env/games/smear/engine.py" in names


@pytest.mark.slow
def test_the_wheel_holds_every_module_of_the_packages_users_import(names: list[str]) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *PACKAGES],
        cwd=ROOT, capture_output=True, text=True, check=False,
    ).stdout.split()  # fmt: skip
    if not listed:  # no git here: the packages' files on disk
        on_disk = (p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*") if "__pycache__" not in p.parts)
        listed = [p.relative_to(ROOT).as_posix() for p in on_disk]
    modules = {n for n in listed if n.endswith(".py") and (ROOT / n).is_file()}
    missing = sorted(modules - set(names))
    assert len(modules) > 50 and not missing, f"modules missing from the wheel: {missing}"
    shipped = {n for n in listed if n.startswith(PACKAGE_DATA) and n.endswith((".pt", ".png", ".csv"))}
    assert f"{PACKAGE_DATA}hearts-4p.pt" in shipped and shipped <= set(names)


def test_results_stays_under_15_mb() -> None:
    """Sum of the files git tracks (or, without git, holds) under results/: the checkpoint history and
    the charts nothing quotes live in the git history (results/README.md)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", "results"], cwd=ROOT, capture_output=True, check=False
    ).stdout.decode()  # fmt: skip
    files = [ROOT / n for n in filter(None, listed.split("\0"))] or list((ROOT / "results").rglob("*"))
    sizes = {p: p.stat().st_size for p in files if p.is_file()}
    total = sum(sizes.values())
    largest = sorted(sizes, key=sizes.__getitem__, reverse=True)[:5]
    assert total <= RESULTS_LIMIT, (
        f"results/ holds {total / 2**20:.1f} MB, should be at most 15 MB: keep only what README.md and the "
        f"docs quote (largest: {', '.join(f'{p.relative_to(ROOT)} {sizes[p]:,} B' for p in largest)})"
    )
