"""``hearts_env.parallel``: the same calls and the same faults on every backend — answers in
order, a worker's exception with its message, a killed worker in one line, Ctrl-C, no orphan
processes, closing twice — and a tournament played by worker processes recorded exactly as in
one process. The ``"ray"`` backend runs these checks in ``tests/integration/test_ray.py``."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env.parallel import Pool, WorkerError, make
from tests.test_vector_faults import DEADLINE_S, gone, kill_quietly, wait_until

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ["serial", "processes"]


class Tally:
    """A stateful worker: a running total, and ways to fail."""

    def __init__(self, start: int) -> None:
        if start < 0:
            raise ValueError(f"start must be ≥ 0, got {start}")
        self.total = start

    def add(self, amount: int) -> int:
        self.total += amount
        return self.total

    def slow_square(self, x: int, delay: float) -> int:
        time.sleep(delay)
        return x * x

    def fail(self, message: str) -> None:
        raise ValueError(message)

    def pid(self) -> int:
        return os.getpid()


# ---------------------------------------------------------------------- checks for every backend
def check_answers_come_in_worker_order(pool: Pool) -> None:
    with pool.start(Tally, [(10,), (20,)]) as workers:
        assert workers.call("add", 1) == [11, 21]  # each worker keeps its state
        assert workers.call_each("add", [(1,), (2,)]) == [12, 23]
        assert workers.call("add", 0, to=[1, 0]) == [23, 12]
        assert workers.call_each("add", {1: (7,)}) == [30]
        first, second = workers.send("add", 1), workers.send("add", 1)  # asked ahead
        with pytest.raises(RuntimeError, match=r"in the order they were sent: add\(\) first"):
            workers.receive(second)
        assert workers.receive(first) == [13, 31] and workers.receive(second) == [14, 32]


def check_tasks_stream_in_order_or_as_they_finish(pool: Pool) -> None:
    tasks = [(x, 0.05 if x == 0 else 0.0) for x in range(7)]  # the first task is the slowest
    with pool.start(Tally, [(0,), (0,)]) as workers:
        assert list(workers.imap("slow_square", tasks)) == [(x, x * x) for x in range(7)]
        finished = list(workers.imap("slow_square", tasks, ordered=False))
        assert sorted(finished) == [(x, x * x) for x in range(7)]
        if pool.backend != "serial":  # two at once: the slow first task is not the first to finish
            assert finished[0][0] != 0
        stopped = workers.imap("slow_square", tasks)
        assert next(stopped) == (0, 0)
        stopped.close()  # the tasks in flight are answered and dropped
        assert workers.call("add", 5) == [5, 5]


def check_an_exception_in_a_worker_comes_back_with_its_message(pool: Pool) -> None:
    with pool.start(Tally, [(0,), (0,)]) as workers:
        with pytest.raises(
            WorkerError, match=r"^worker 1\b.* failed in fail\(\) \(ValueError: no luck\)$"
        ) as caught:
            workers.call_each("fail", {1: ("no luck",)})
        assert isinstance(caught.value.error, ValueError) and str(caught.value.error) == "no luck"
        assert workers.call("add", 2) == [2, 2]  # still usable: nothing is left owed
        with pytest.raises(WorkerError, match=r"failed in slow_square\(\) \(TypeError"):
            list(workers.imap("slow_square", [(1, 0.0), ("x", 0.0), (3, 0.0)]))
        assert workers.call("add", 1) == [3, 3]
    with pytest.raises(
        WorkerError, match=r"^worker 1\b.* failed in start\(\) \(ValueError: start must be ≥ 0"
    ):
        pool.start(Tally, [(0,), (-1,)])


def check_close_twice_is_fine(pool: Pool) -> None:
    workers = pool.start(Tally, [(0,)])
    workers.close()
    workers.close()
    assert workers.pids == ()
    with pytest.raises(RuntimeError, match=r"add\(\) on closed workers"):
        workers.call("add", 1)


CHECKS = [
    check_answers_come_in_worker_order,
    check_tasks_stream_in_order_or_as_they_finish,
    check_an_exception_in_a_worker_comes_back_with_its_message,
    check_close_twice_is_fine,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__[len("check_") :])
def test_every_backend(backend: str, check: Any) -> None:
    check(make(backend, timeout=DEADLINE_S))


def test_bad_arguments_name_the_value() -> None:
    for kwargs, says in [
        ({"backend": "threads"}, "backend must be one of 'serial', 'processes', 'ray', got 'threads'"),
        ({"workers": -1}, "workers must be an int ≥ 0.*got -1"),
        ({"timeout": 0}, "timeout must be None or a positive number of seconds, got 0"),
        ({"spin": 2}, "spin must be a number of seconds from 0 to 1, got 2"),
        ({"backend": "ray", "address": " "}, "the Ray address must be local, auto or HOST:PORT, got ' '"),
    ]:
        with pytest.raises(ValueError, match=says):
            make(**kwargs)


# ---------------------------------------------------------------------- worker processes
def test_a_killed_worker_is_one_line_and_leaves_no_orphans() -> None:
    workers = make("processes", timeout=DEADLINE_S).start(Tally, [(0,), (0,), (0,)])
    pids = workers.pids
    try:
        os.kill(pids[1], signal.SIGKILL)
        with pytest.raises(RuntimeError) as caught:
            workers.call("add", 1)
        assert str(caught.value) == f"worker 1 (pid {pids[1]}) died: exit code -9 (SIGKILL)"
        with pytest.raises(RuntimeError, match=r"add\(\) on unusable workers: worker 1 .* died"):
            workers.call("add", 1)
        started = time.monotonic()
        workers.close()
        assert time.monotonic() - started < DEADLINE_S
        assert wait_until(lambda: all(gone(pid) for pid in pids))
    finally:
        for pid in pids:
            kill_quietly(pid)


def test_a_late_worker_times_out_and_close_still_returns() -> None:
    # fork where there is one: a spawned worker (the default once PyTorch is imported, as it is
    # by other tests) may take longer than the 0.5 s to start; the late call is what is checked
    fork = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    workers = make("processes", timeout=0.5, start_method=fork).start(Tally, [(0,), (0,)])
    pids = workers.pids
    try:
        with pytest.raises(
            TimeoutError, match=r"^worker 0 \(pid \d+\) did not answer slow_square\(\) within 0.5 s"
        ):
            workers.call("slow_square", 1, 30.0)
        started = time.monotonic()
        workers.close()  # broken: killed at once, not waited for
        assert time.monotonic() - started < 2
        assert wait_until(lambda: all(gone(pid) for pid in pids))
    finally:
        for pid in pids:
            kill_quietly(pid)


def test_a_factory_that_fails_leaves_no_processes() -> None:
    with pytest.raises(WorkerError, match=r"worker 1 \(pid \d+\) failed in start\(\)"):
        make("processes", timeout=DEADLINE_S).start(Tally, [(0,), (-1,)])
    assert not multiprocessing.active_children()


PARENT_SCRIPT = """
import signal, sys, time
from hearts_env.parallel import make

# Ctrl-C as from a terminal, also where this suite runs as a background job of a script (the
# shell then starts it, and so this child, with SIGINT ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)


class Sleeper:  # here, not in this test module: spawned workers import only what they need
    def nap(self, seconds, mark):
        open(mark, "a").close()  # the call has begun (the test stops the parent only then)
        time.sleep(seconds)


if __name__ == "__main__":
    workers = make("processes", start_method=sys.argv[1]).start(Sleeper, [(), ()])
    print(" ".join(map(str, workers.pids)), flush=True)
    try:
        workers.call("nap", 120.0, sys.argv[2])  # busy: the parent is stopped meanwhile
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        raise
"""


@pytest.mark.parametrize(("stop", "start_method"), [("ctrl-c", "fork"), ("killed", "spawn")])
def test_workers_end_with_their_parent(tmp_path: Path, stop: str, start_method: str) -> None:
    """Ctrl-C (SIGINT to the parent) stops the call and closes the workers; a parent killed
    while they are busy takes them with it (spawned ones too: they hold no pipe ends of it)."""
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(PARENT_SCRIPT))
    mark = tmp_path / "napping"
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    parent = subprocess.Popen(
        [sys.executable, str(script), start_method, str(mark)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env=environment, cwd=ROOT,
    )  # fmt: skip
    pids: list[int] = []
    try:
        pids = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(pids) == 2 and not any(gone(pid) for pid in pids)
        # Inside the call: a worker has begun its nap (a fixed pause is too short on a busy machine,
        # where a Ctrl-C before the call would find the parent outside its try).
        assert wait_until(mark.exists), "no worker began the call"
        parent.send_signal(signal.SIGINT if stop == "ctrl-c" else signal.SIGKILL)
        parent.wait(DEADLINE_S)
        if stop == "ctrl-c":
            assert parent.stdout.read().strip() == "interrupted"
            assert "KeyboardInterrupt" in parent.stderr.read()
        assert wait_until(lambda: all(gone(pid) for pid in pids)), "orphaned workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(DEADLINE_S)
        parent.stdout.close()
        parent.stderr.close()
        for pid in pids:
            kill_quietly(pid)


# ---------------------------------------------------------------------- tournaments
def untimed(text: str) -> str:
    """A tournament record's text without its timings and run records (the only entries two
    runs may differ in), in the record's own layout."""
    record = json.loads(text)
    for key in ("elapsed_s", "runs", "move_times"):
        record.pop(key, None)
    for key in ("elapsed_s", "move_time"):
        record["progress"].pop(key, None)
    return json.dumps(record, indent=1)


def test_a_tournament_on_worker_processes_is_recorded_as_in_one_process(tmp_path: Path) -> None:
    config = TournamentConfig(agents=["strategy", "random"], deals=12, tables=4, seed=3, streams=3)
    texts = {}
    for name, pool in [("here", None), ("serial", make("serial")), ("processes", make("processes", 2))]:
        path = tmp_path / f"{name}.json"
        if name == "processes":  # stopped after two rounds and resumed
            Tournament(config, json_path=path, progress=False).run(max_rounds=2, pool=pool)
        Tournament(config, json_path=path, progress=False).run(pool=pool)
        texts[name] = untimed(path.read_text())
    assert pool.used == 2
    assert texts["processes"] == texts["serial"] == texts["here"]


def test_workers_start_by_spawn_once_pytorch_is_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    from hearts_env.parallel import default_start_method

    monkeypatch.delitem(sys.modules, "torch", raising=False)
    forks = "fork" in multiprocessing.get_all_start_methods()
    assert default_start_method() == ("fork" if forks else "spawn")
    monkeypatch.setitem(sys.modules, "torch", object())
    assert default_start_method() == "spawn"


NETWORK_TOURNAMENT = """
import json, sys
import torch
torch.set_num_threads(2)
torch.ones(256, 256) @ torch.ones(256, 256)  # this process's thread pool started, as a loaded agent starts it
from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env.parallel import make
config = TournamentConfig(agents=["ppo", "strategy"], deals=4, tables=2, seed=5, streams=2)
for name, pool in [("here", None), ("processes", make("processes", 2))]:
    Tournament(config, json_path=f"{sys.argv[1]}/{name}.json", progress=False).run(pool=pool)
"""


def test_a_network_tournament_on_worker_processes_does_not_hang(tmp_path: Path) -> None:
    """Workers forked from a process whose PyTorch thread pool runs waited forever on it."""
    pytest.importorskip("torch")
    done = subprocess.run([sys.executable, "-c", NETWORK_TOURNAMENT, str(tmp_path)], cwd=ROOT, timeout=180,
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert untimed((tmp_path / "processes.json").read_text()) == untimed((tmp_path / "here.json").read_text())
