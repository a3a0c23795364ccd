"""The worker processes of a vector env: the loop a worker runs (:func:`_worker`), the parent's
handle on one (:class:`Worker`: its pipe, its messages, how it died or timed out), and starting
and stopping them.

Messages are pickled tuples ``(command, *args)``; a worker answers every one but ``close`` with
``("ok", value)`` or ``("error", exception)``. The step results travel through shared memory
(:class:`~hearts_env.vector.buffers.Buffers`), not the pipe.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from typing import Any

from hearts_env.core.rules import Rules
from hearts_env.vector.buffers import Buffers
from hearts_env.vector.shard import Shard

_PARENT_ENDS: set[Connection] = set()
"""This process's ends of the pipes to its workers: a forked worker closes its copies of them,
so that each worker sees end-of-file as soon as its parent (the only holder left) is gone."""

_PARENT_POLL_S = 1.0
"""How often an idle worker checks that its parent is still alive."""

STEP, STEP_RANDOM, RENDER, CLOSE = (
    bytes(ForkingPickler.dumps((command,))) for command in ("step", "step_random", "render", "close")
)
"""The pickled messages without arguments, made once."""


def _worker(
    conn: Connection,
    lo: int,
    hi: int,
    memory: Any,
    rules: Rules,
    settings: dict[str, Any],
    sizes: tuple[Any, ...],
    next_step: bool = False,
    obs_format: str = "float32",
    spin: float = 0.0,
) -> None:
    """A worker process: step games ``lo..hi-1`` on command, results into shared memory
    (``spin``: seconds to keep polling for the next command before sleeping).

    It answers every message but ``close`` with one ``("ok", value)`` or ``("error",
    exception)``, and returns on ``close``, on end-of-file (the parent closed the pipe or died)
    or when its parent process changes (the parent died while another process holds the pipe).
    """
    for end in list(_PARENT_ENDS):  # forked: the parent's ends, ours and earlier workers'
        end.close()
    _PARENT_ENDS.clear()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    parent = os.getppid()
    out = Buffers.allocate(*sizes, memory=memory).rows(lo, hi)
    shard = Shard(rules, hi - lo, settings, persistent=True, next_step=next_step, obs_format=obs_format)
    while True:
        try:
            until = time.perf_counter() + spin
            while time.perf_counter() < until and not conn.poll(0):
                pass  # the next step usually comes at once: no sleep, no wake-up latency
            while not conn.poll(_PARENT_POLL_S):
                if os.getppid() != parent:
                    return
            command, *args = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        try:
            if command == "step":
                reply: tuple[str, Any] = ("ok", shard.step(out.actions, out))
            elif command == "step_random":
                reply = ("ok", shard.step_random(out))
            elif command == "reset":
                shard.reset(out, *args)
                reply = ("ok", None)
            elif command == "explain":
                reply = ("ok", shard.explain(*args))
            elif command == "render":
                from hearts_env.render import render_text

                reply = ("ok", [render_text(shard.table, g) for g in range(hi - lo)])
            elif command == "close":
                return
            else:
                reply = ("error", ValueError(f"unknown worker command {command!r}"))
        except Exception as error:  # reported to the main process, which raises it
            reply = ("error", error)
        try:
            conn.send(reply)
        except (BrokenPipeError, ConnectionResetError):
            return
        except Exception as error:  # an answer or exception that cannot be pickled
            conn.send(("error", RuntimeError(f"worker could not send its answer to {command}: {error!r}")))


@dataclass
class Worker:
    """One worker process and the parent's end of its pipe."""

    number: int  # its shard: 1 .. num_workers - 1 (shard 0 is the main process's)
    process: Any  # multiprocessing.Process
    conn: Connection
    lo: int
    hi: int

    def name(self) -> str:
        """The worker, its process and its games, for error messages."""
        return f"worker {self.number} (pid {self.process.pid}, games {self.lo}..{self.hi - 1})"

    def death(self) -> str:
        """How the process ended, for error messages (waiting a moment for its exit code)."""
        self.process.join(timeout=1.0)
        code = self.process.exitcode
        if code is None:
            return "closed its pipe"
        if code < 0:
            try:
                return f"exit code {code} ({signal.Signals(-code).name})"
            except ValueError:
                return f"exit code {code}"
        return f"exit code {code}"

    def send(self, payload: bytes, fail: Callable[[str], None]) -> None:
        """Send a pickled message; if the worker is gone, ``fail(why)`` and a ``RuntimeError``."""
        try:
            self.conn.send_bytes(payload)
        except (OSError, EOFError):  # BrokenPipeError, ConnectionResetError: it is gone
            message = f"{self.name()} died: {self.death()}"
            fail(message)
            raise RuntimeError(f"{message}; close() this env and make a new one") from None

    def receive(
        self, what: str, deadline: float, timeout: float, fail: Callable[[str], None]
    ) -> tuple[str, Any]:
        """The worker's reply to ``what``, or a clear error (after ``fail(why)``) if it dies or
        does not answer by ``deadline`` (``timeout``: the env's ``worker_timeout``, for the message)."""
        while True:
            ready = wait([self.conn, self.process.sentinel], max(0.0, deadline - time.monotonic()))
            if self.conn in ready:
                try:
                    return self.conn.recv()
                except (OSError, EOFError):
                    break
            if ready:  # the process ended without answering
                break
            if time.monotonic() >= deadline:
                message = (
                    f"{self.name()} did not answer {what}() within "
                    f"worker_timeout={timeout:g} s (stopped, hung or overloaded)"
                )
                fail(message)
                raise TimeoutError(f"{message}; close() this env and make a new one")
        message = f"{self.name()} died: {self.death()}"
        fail(message)
        raise RuntimeError(f"{message}; close() this env and make a new one")


def start_worker(context: Any, number: int, lo: int, hi: int, setup: tuple[Any, ...]) -> Worker:
    """Start worker ``number`` (a ``context.Process``) on games ``lo..hi-1`` (``setup``: the
    arguments of :func:`_worker` after them, from ``memory`` to ``spin``)."""
    parent, child = context.Pipe()
    _PARENT_ENDS.add(parent)  # before the fork, so that the worker closes its copy
    args = (child, lo, hi, *setup)
    process = context.Process(target=_worker, args=args, daemon=True)
    try:
        process.start()
    except BaseException:
        _PARENT_ENDS.discard(parent)
        parent.close()
        raise
    finally:
        child.close()
    return Worker(number, process, parent, lo, hi)


def stop_workers(workers: Sequence[Worker], graceful: bool, timeout: float) -> None:
    """Stop ``workers``: ask them to close (if ``graceful``) and wait up to ``timeout`` seconds
    (5 at most), then terminate and kill whatever is left. Never hangs."""
    for worker in workers:
        if graceful:
            try:
                worker.conn.send_bytes(CLOSE)
            except (OSError, EOFError):
                pass
        _PARENT_ENDS.discard(worker.conn)
        worker.conn.close()  # end-of-file: the worker returns even if the message was lost
    deadline = time.monotonic() + (min(5.0, timeout) if graceful else 0.2)
    for worker in workers:
        process = worker.process
        process.join(max(0.0, deadline - time.monotonic()))
        if process.exitcode is None and graceful:
            process.terminate()
            process.join(1.0)
        if process.exitcode is None:  # failed, stopped (SIGSTOP) or ignoring SIGTERM
            process.kill()
            process.join(5.0)
