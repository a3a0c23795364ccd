"""A training run never loses a run folder: killed (SIGKILL) while it writes each file, stopped
(SIGTERM), raced by a second run, started anew over a run's files or resumed from nothing, the
files it leaves are whole and ``--resume`` finishes the run as if it had never stopped."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")

import hearts_cli  # noqa: E402
from training import mixture, ppo  # noqa: E402
from training.config import Args  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLAGS = [
    "--num-games", "8", "--rollout-steps", "64", "--hidden", "8", "--minibatch-size", "128",
    "--update-epochs", "1", "--eval-deals", "4", "--eval-every", "0", "--checkpoint-every", "1",
    "--pool-every", "1", "--opponents", "ducker", "--eval-opponents", "random", "--no-progress",
    "--no-tensorboard", "--imitation-decisions", "0", "--threads", "1",
]  # fmt: skip
"""A tiny run: 512 decisions an iteration, a checkpoint after each."""
ITERATIONS = 4
BUDGET = ["--total-decisions", str(ITERATIONS * 512)]

KILLED_WRITER = """
import os, sys, time
from pathlib import Path
import hearts_env.files, training.logs, training.run_folder
real, seen, stop = hearts_env.files.write_atomic, {}, os.environ["KILL_AT"]

def write_atomic(path, content):  # the KILL_AT write ("train.csv:3") stops half done
    path = Path(path)
    seen[path.name] = seen.get(path.name, 0) + 1
    if f"{path.name}:{seen[path.name]}" != stop:
        return real(path, content)

    def half(partial):
        if callable(content):
            content(partial)
        else:
            partial.write_bytes(content.encode() if isinstance(content, str) else content)
        Path(os.environ["WRITING"]).write_text(str(partial))
        time.sleep(120)

    return real(path, half)

training.logs.write_atomic = training.run_folder.write_atomic = write_atomic
from training.ppo import main
sys.exit(main(sys.argv[1:]))
"""


def train(run: Path, *more: str, budget: list[str] = BUDGET) -> int:
    """``hearts-env train`` of the tiny run in ``run`` (its exit status)."""
    return hearts_cli.main(["train", *FLAGS, *budget, "--run-dir", str(run), *more])


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def child(argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, *argv], cwd=ROOT, env={**os.environ, **(env or {})}, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def wait_for(path: Path, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if not path.exists():
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"{path.name} never appeared (exit {process.returncode}): {err[-2000:]}")


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny run, never stopped: what every stopped and resumed run must end as."""
    run = tmp_path_factory.mktemp("whole") / "run"
    assert ppo.main([*FLAGS, *BUDGET, "--run-dir", str(run)]) == 0
    return run


def same_run(run: Path, whole: Path) -> None:
    """``run`` ended as the run never stopped: the same losses, iteration by iteration."""
    ours, theirs = rows(run / "train.csv"), rows(whole / "train.csv")
    assert [r["iteration"] for r in ours] == [str(i) for i in range(1, ITERATIONS + 1)]
    assert [r["pg_loss"] for r in ours] == [r["pg_loss"] for r in theirs]
    assert json.loads((run / "summary.json").read_text())["iterations"] == ITERATIONS
    assert not list(run.glob(".*partial")) and not (run / ".lock").exists()


@pytest.mark.parametrize(
    ("kill_at", "checkpoint_holds", "rows_left"),
    [("train.csv:3", 2, 2), ("checkpoint.pt:2", 1, 2)],
    ids=["mid-csv", "mid-checkpoint"],
)
def test_a_run_killed_while_it_writes_keeps_whole_files_and_resumes(
    tmp_path: Path, whole: Path, capsys, kill_at: str, checkpoint_holds: int, rows_left: int
) -> None:
    run, writing = tmp_path / "run", tmp_path / "writing"
    process = child(["-c", KILLED_WRITER, *FLAGS, *BUDGET, "--run-dir", str(run)],
                    {"KILL_AT": kill_at, "WRITING": str(writing)})  # fmt: skip
    wait_for(writing, process)
    process.kill()  # SIGKILL: no handler runs, the lock file and the half-written file stay
    process.communicate()
    assert Path(writing.read_text()).exists() and (run / ".lock").read_text().split()[0] == str(process.pid)
    assert [r["iteration"] for r in rows(run / "train.csv")] == [str(i) for i in range(1, rows_left + 1)]
    saved = ppo.read_checkpoint(run / "checkpoint.pt")
    assert saved["progress"]["iteration"] == checkpoint_holds
    assert train(run) == 2  # not over it
    assert "pass --resume" in capsys.readouterr().err
    assert train(run, "--resume") == 0  # the dead run's lock taken over
    same_run(run, whole)


def test_one_run_at_a_time_and_sigterm_keeps_the_checkpoint_for_resume(tmp_path: Path, capsys) -> None:
    run = tmp_path / "run"
    code = "import sys, hearts_cli; sys.exit(hearts_cli.main())"
    first = child(["-c", code, "train", *FLAGS, "--total-decisions", "0", "--run-dir", str(run)])
    try:
        wait_for(run / "checkpoint.pt", first)
        for again in ([], ["--resume"]):
            assert train(run, *again) == 2
            err = capsys.readouterr().err
            assert f"is being written by process {first.pid}" in err and len(err.splitlines()) == 1, err
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 143, err
    done = ppo.read_checkpoint(run / "checkpoint.pt")["progress"]["iteration"]
    assert done >= 1 and not (run / ".lock").exists()
    line = err.strip().splitlines()[-1]
    assert line == (
        f"hearts-env: interrupted (SIGTERM); the checkpoint holds iteration {done} ({done * 512:,} "
        "decisions); the same command with --resume continues"
    )
    assert json.loads((run / "summary.json").read_text())["stopped"].startswith("interrupted (SIGTERM)")
    assert len(rows(run / "train.csv")) >= done  # rows past the checkpoint go on resume
    assert train(run, "--resume", budget=["--total-decisions", str((done + 1) * 512)]) == 0
    assert [r["iteration"] for r in rows(run / "train.csv")] == [str(i) for i in range(1, done + 2)]
    assert json.loads((run / "summary.json").read_text())["iterations"] == done + 1


def test_a_folder_of_run_files_without_a_checkpoint_is_never_overwritten(
    tmp_path: Path, whole: Path, capsys
) -> None:
    run = Path(shutil.copytree(whole, tmp_path / "run"))
    (run / "checkpoint.pt").unlink()
    (run / "notes.txt").write_text("mine")
    before = files_of(run)
    for again in ([], ["--resume"]):
        assert train(run, *again) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "policy.pt, train.csv, eval.csv, summary.json" in err, err
        assert "no checkpoint.pt" in err and "--overwrite" in err and "another --run-dir" in err
        assert files_of(run) == before
    assert train(run, "--overwrite", budget=["--total-decisions", "512"]) == 0
    removed = "policy.pt, train.csv, eval.csv, summary.json, learning_curve.png"
    assert f"--overwrite: removed {removed} from {run}" in capsys.readouterr().err
    assert (run / "notes.txt").read_text() == "mine" and len(rows(run / "train.csv")) == 1
    assert (run / "checkpoint.pt").exists()
    with pytest.raises(ValueError, match="give one, not both"):
        ppo.train(Args(run_dir=str(run), resume=True, overwrite=True))


def test_resume_needs_a_folder_and_its_checkpoint(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "typo"
    assert train(missing, "--resume") == 2
    err = capsys.readouterr().err
    assert f"the run folder {missing} does not exist" in err and not missing.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert train(empty, "--resume") == 2
    assert f"nothing to continue in {empty}: it has no checkpoint.pt" in capsys.readouterr().err
    assert list(empty.iterdir()) == []
    settings = mixture.MixtureSettings("hearts", configs=(("hearts", 4),))
    with pytest.raises(FileNotFoundError, match="does not exist"):
        mixture.train_mixture(Args(run_dir=str(missing), resume=True), settings)
    (empty / "policy.pt").write_bytes(b"a policy")
    with pytest.raises(FileExistsError, match=r"\(policy.pt\) but no checkpoint.pt"):
        mixture.train_mixture(Args(run_dir=str(empty)), settings)
    assert (empty / "policy.pt").read_bytes() == b"a policy"


@pytest.mark.parametrize("flag", ["--opponents", "--eval-opponents"])
def test_an_empty_agent_list_is_refused(flag: str, tmp_path: Path, capsys) -> None:
    assert train(tmp_path / "run", flag, "") == 2  # once, the run went on with none, or the defaults
    assert "needs at least one agent spec, got ''" in capsys.readouterr().err
    with pytest.raises(ValueError, match=f"{flag[2:].replace('-', '_')} needs at least one agent spec"):
        Args(**{flag[2:].replace("-", "_"): ()}).validate()
    tiny = [*FLAGS, "--total-decisions", "512", "--shards", "1", "--eval-presets", "hearts"]
    assert hearts_cli.main(["train", "--family", "hearts", *tiny, "--run-dir", str(tmp_path / "mix"),
                            "--configs", ""]) == 2  # fmt: skip
    assert "needs at least one configuration PRESET-N, got ''" in capsys.readouterr().err
