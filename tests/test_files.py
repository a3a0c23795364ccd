"""hearts_env.files: atomic writes and one writer at a time, raced and killed for real."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hearts_env.files import OutputInUseError, OutputLock, partial_path, write_atomic, write_json

HOLD = """
import sys, time
from hearts_env.files import OutputLock
lock = OutputLock(sys.argv[1], "the record").acquire()
print("held", flush=True)
time.sleep(60)
"""


def _holder(target: Path) -> subprocess.Popen:
    """A process that takes the lock on ``target`` and sleeps (after saying so)."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(target)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    return process


def test_write_atomic_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "record.json"
    write_json(target, {"rounds": 3})

    def fails(partial: Path) -> None:
        partial.write_text('{"rounds": ')  # half written, then the writer dies
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, fails)
    assert target.read_text() == '{\n "rounds": 3\n}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.json"]  # no partial file left


def test_write_atomic_kinds_of_content(tmp_path: Path) -> None:
    assert write_atomic(tmp_path / "a" / "t.txt", "é").read_text(encoding="utf-8") == "é"
    assert write_atomic(tmp_path / "b.bin", b"\x00\x01").read_bytes() == b"\x00\x01"
    assert write_atomic(tmp_path / "c.csv", lambda p: p.write_text("x,y\n")).read_text() == "x,y\n"
    assert partial_path(tmp_path / "c.csv").name == f".c.csv.{os.getpid()}.partial"


def test_write_atomic_killed_mid_write_leaves_old_or_new(tmp_path: Path) -> None:
    """A writer killed (SIGKILL) while writing a large file: the target is the old content."""
    target = tmp_path / "big.json"
    target.write_text("old")
    code = (
        "import sys, time\nfrom hearts_env.files import write_atomic\n"
        "def slow(p):\n    f = open(p, 'w'); f.write('x' * 1000); f.flush(); print('writing', flush=True);"
        " time.sleep(60)\n"
        "write_atomic(sys.argv[1], slow)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code, str(target)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "writing"
    process.kill()
    process.wait()
    assert target.read_text() == "old"
    leftover = tmp_path / f".big.json.{process.pid}.partial"
    assert leftover.exists()  # SIGKILL leaves no time to clean up ...
    write_json(target, "new")
    assert not leftover.exists()  # ... the next write of the file does
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.json"]


def test_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    target = tmp_path / "t.json"
    first = _holder(target)
    try:
        with pytest.raises(OutputInUseError, match=rf"process {first.pid}\b") as refused:
            OutputLock(target, "the record").acquire()
        assert refused.value.pid == first.pid
        assert isinstance(refused.value, OSError)  # commands report it in one line
    finally:
        first.kill()
        first.wait()


def test_a_dead_holders_lock_is_taken_over(tmp_path: Path) -> None:
    target = tmp_path / "t.json"
    first = _holder(target)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    assert (tmp_path / "t.json.lock").exists()  # left behind by the killed process
    with OutputLock(target, "the record") as lock:
        assert lock.held
        assert (tmp_path / "t.json.lock").read_text().split()[0] == str(os.getpid())
    assert not (tmp_path / "t.json.lock").exists()


def test_lock_released_then_taken_again_and_not_twice(tmp_path: Path) -> None:
    lock = OutputLock(tmp_path, "the run folder", folder=True)
    assert lock.lock_path == tmp_path / ".lock"
    with lock:
        with pytest.raises(OutputInUseError, match=str(os.getpid())):
            OutputLock(tmp_path, "the run folder", folder=True).acquire()
        with pytest.raises(RuntimeError, match="already held"):
            lock.acquire()
    with OutputLock(tmp_path, "the run folder", folder=True):
        pass


def test_racing_processes_one_wins(tmp_path: Path) -> None:
    """Four processes start at once on one output: exactly one holds it, the others are refused."""
    done = tmp_path / "done"
    code = (
        "import sys, time, pathlib\nfrom hearts_env.files import OutputLock, OutputInUseError\n"
        "try:\n    lock = OutputLock(sys.argv[1]).acquire()\nexcept OutputInUseError:\n    sys.exit(3)\n"
        "end = time.monotonic() + 60\n"
        "while not pathlib.Path(sys.argv[2]).exists() and time.monotonic() < end:\n    time.sleep(0.05)\n"
    )
    racers = [
        subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "r.json"), str(done)]) for _ in range(4)
    ]
    end = time.monotonic() + 60
    while sum(r.poll() is not None for r in racers) < 3 and time.monotonic() < end:
        time.sleep(0.05)
    done.touch()  # the holder may now finish
    assert sorted(r.wait(timeout=60) for r in racers) == [0, 3, 3, 3]
