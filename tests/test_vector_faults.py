"""The vector env's worker processes under faults: dead, stopped and orphaned workers, and
failures part-way through a request (issue 8). Every test ends its processes. The refused resets
(bad options and seeds, with 1 and 2 workers) are rows of ``test_bad_inputs.py``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

import hearts_env
from hearts_env.vector import HeartsVectorEnv

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")

ROOT = Path(__file__).resolve().parents[1]
DEADLINE_S = 15.0  # generous: the suite may run on a loaded 2-core machine


def random_actions(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    return (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie nobody reaps counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_until(condition, timeout: float = DEADLINE_S) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def kill_quietly(pid: int) -> None:
    for sig in (signal.SIGCONT, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            return


@contextmanager
def workers_env(**kwargs) -> Iterator[HeartsVectorEnv]:
    """A vector env with worker processes that are killed afterwards whatever happened."""
    env = hearts_env.vector_env(**{"preset": "hearts", "num_envs": 8, "seed": 0, "num_workers": 2, **kwargs})
    processes = list(env._workers._processes)
    try:
        yield env
    finally:
        env.close()
        for process in processes:
            if process.exitcode is None:
                kill_quietly(process.pid)
                process.join(5)


def play(env: HeartsVectorEnv, obs: dict[str, np.ndarray], steps: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, *_ = env.step(random_actions(obs, rng))
    return obs


# ---------------------------------------------------------------------------- the protocol
def test_a_local_failure_part_way_reads_every_reply_and_marks_the_env_unusable(monkeypatch) -> None:
    """The workers stepped, this process's shard did not: the games are out of step, so the env
    says so from then on — and no reply is left in a pipe."""
    with workers_env(num_workers=3) as env:
        obs, _ = env.reset()

        def boom(*args: object) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(env._local, "step", boom)
        with pytest.raises(KeyboardInterrupt):
            env.step(random_actions(obs, np.random.default_rng(0)))
        assert not any(conn.poll(0.2) for conn in env._workers._conns)  # no stale reply
        for call in (lambda: env.step(np.zeros(8, np.int64)), env.reset, env.legal_masks):
            with pytest.raises(RuntimeError, match=r"unusable.*step\(\) failed part-way.*close\(\)"):
                call()
        processes = list(env._workers._processes)
        env.close()
        assert all(process.exitcode is not None for process in processes)


def test_a_worker_error_in_a_request_that_changes_nothing_leaves_the_env_usable() -> None:
    with workers_env() as env:
        obs, _ = env.reset()
        with pytest.raises(AttributeError, match="has no attribute 'nonsense'"):
            env._call("nonsense", to=[0])
        assert not env._workers._conns[0].poll(0.2)
        play(env, obs, 10, seed=0)


def test_close_ends_the_workers() -> None:
    with workers_env(num_workers=3) as env:
        env.reset()
        processes = list(env._workers._processes)
        env.close()
        assert [process.exitcode for process in processes] == [0, 0]
        assert env.worker_pids == () and env.closed
        env.close()  # twice is fine


# ---------------------------------------------------------------------------- dead workers
@pytest.mark.parametrize("when", ["step", "reset", "render"])
def test_a_killed_worker_is_one_clear_error_then_the_env_is_unusable(when: str) -> None:
    with workers_env(num_workers=3, render_mode="ansi") as env:
        obs, _ = env.reset()
        process = env._workers._processes[1]
        os.kill(process.pid, signal.SIGKILL)
        process.join(DEADLINE_S)
        call = {
            "step": lambda: env.step(random_actions(obs, np.random.default_rng(0))),
            "reset": env.reset,
            "render": env.render,
        }[when]
        pattern = rf"worker 2 \(pid {process.pid}, games 5\.\.7\) died: exit code -9 \(SIGKILL\)"
        with pytest.raises(RuntimeError, match=pattern + r".*close\(\) this env"):
            call()
        with pytest.raises(RuntimeError, match=r"step\(\) on an unusable vector env: " + pattern):
            env.step(random_actions(obs, np.random.default_rng(0)))
        alive = env._workers._processes[0]
        started = time.monotonic()
        env.close()
        assert time.monotonic() - started < DEADLINE_S and alive.exitcode is not None
        with pytest.raises(RuntimeError, match="closed"):
            env.reset()


def test_a_worker_killed_during_the_wait_is_detected() -> None:
    """Killed without waiting for it to end: whether the message or the reply fails, the same
    error comes."""
    with workers_env() as env:
        obs, _ = env.reset()
        os.kill(env.worker_pids[0], signal.SIGKILL)
        with pytest.raises(RuntimeError, match=r"worker 1 \(pid \d+, games 4\.\.7\) died"):
            play(env, obs, 5, seed=0)


# ---------------------------------------------------------------------------- hung workers
def test_a_stopped_worker_times_out_and_close_still_returns() -> None:
    with workers_env(worker_timeout=1) as env:
        obs, _ = env.reset()
        process = env._workers._processes[0]
        os.kill(process.pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            pattern = (
                rf"worker 1 \(pid {process.pid}, games 4\.\.7\) did not answer step\(\) "
                r"within 1 s"
            )
            with pytest.raises(TimeoutError, match=pattern):
                env.step(random_actions(obs, np.random.default_rng(0)))
            assert 0.9 <= time.monotonic() - started < DEADLINE_S
            with pytest.raises(RuntimeError, match="unusable vector env: " + pattern):
                env.reset()
            started = time.monotonic()
            env.close()
            assert time.monotonic() - started < DEADLINE_S
            assert wait_until(lambda: process.exitcode is not None)
        finally:
            kill_quietly(process.pid)


# ---------------------------------------------------------------------------- orphans
ORPHAN_SCRIPT = """
import sys, time
import hearts_env

if __name__ == "__main__":
    envs = [
        hearts_env.vector_env("hearts", num_envs=8, seed=0, num_workers=3, start_method=sys.argv[1])
        for _ in range(2)  # the second env's workers are forked holding the first one's pipes
    ]
    for env in envs:
        env.reset()
    print(" ".join(str(pid) for env in envs for pid in env.worker_pids), flush=True)
    time.sleep(120)
"""


@pytest.mark.parametrize("start_method", ["fork"])  # spawned workers: tests/test_parallel.py
def test_workers_exit_when_their_parent_is_killed(tmp_path: Path, start_method: str) -> None:
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(ORPHAN_SCRIPT))
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    parent = subprocess.Popen(
        [sys.executable, str(script), start_method],
        stdout=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=ROOT,
    )
    pids: list[int] = []
    try:
        line = parent.stdout.readline()  # the script prints its workers' pids once they are up
        pids = [int(pid) for pid in line.split()]
        assert len(pids) == 4, f"the parent script printed {line!r}"
        assert not any(gone(pid) for pid in pids)
        parent.kill()
        parent.wait(DEADLINE_S)
        assert wait_until(lambda: all(gone(pid) for pid in pids)), "orphaned workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(DEADLINE_S)
        parent.stdout.close()
        for pid in pids:
            if not gone(pid):
                kill_quietly(pid)
