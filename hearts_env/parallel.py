"""One way to run work in parallel: a pool of stateful workers on one of three backends, the same
calls on each (after PufferLib's ``pufferlib.vector.make(..., backend=Serial|Multiprocessing|Ray)``).

``pool = make("processes", workers=4)`` says *where* work runs; ``pool.start(factory, shares)``
starts the workers there — worker ``i`` is ``factory(*shares[i])``, built once and kept (its
games, its agents, its generators) — and returns a :class:`Workers` group:

* ``send(method, *args)`` asks every worker (or those in ``to=``) to run ``method(*args)`` and
  returns at once with a :class:`Ticket`; ``receive(ticket)`` waits for the answers, in worker
  order. Tickets are received in the order they were sent, so work can be asked ahead (the next
  round plays while this one is scored). ``call`` is both at once; ``send_each`` / ``call_each``
  give each worker its own arguments.
* ``imap(method, tasks)`` streams independent tasks: each worker gets the next one as soon as it
  answers; ``(index, result)`` pairs come in task order, or as they finish (``ordered=False``).
* ``close()`` stops the workers (twice is fine); a ``with`` block closes them too.

Backends: ``"serial"`` runs the workers one after another in this process (each call when its
answer is asked for: no threads, the reference for the others); ``"processes"`` one process
each on this machine (``start_method``: ``"fork"`` where available and PyTorch not imported,
else ``"spawn"``: :func:`default_start_method`);
``"ray"`` one Ray actor each, on this machine or a cluster (``address``; Ray is imported only
then). The answers are the same on every backend: each worker's state depends only on its
factory, its share and the calls it gets.

Failures. An exception in a worker comes back as a :class:`WorkerError` naming the worker and the
method, the original its ``__cause__`` (and :attr:`WorkerError.error`); the group stays usable.
A worker that dies raises ``RuntimeError("worker 1 (pid …) died: exit code -9 (SIGKILL)")``, one
that does not answer within ``timeout`` seconds a ``TimeoutError`` naming it: the group is then
unusable (:attr:`Workers.broken` says why, every later call raises it) and ``close()`` ends what
is left, killing what does not stop. So does an interruption (Ctrl-C) while answers are owed.
Worker processes ignore Ctrl-C (the parent handles it) and end when their parent goes, even
killed: each watches its parent's pid, and reads end-of-file on its pipe when the parent is gone.

Ray addresses: ``local`` starts a Ray instance on this machine for the group's life (``ray.init(
address="local")``: never someone else's), ``auto`` connects to the cluster running here (``ray
start``, or ``RAY_ADDRESS``), anything else is a cluster address (``HOST:6379``,
``ray://HOST:10001``). A Ray already initialised by the caller is used as it is and left
connected. Ray's token authentication (on by default since Ray 2.5x): ``auto`` uses this
machine's token when there is one, an explicit address only with ``RAY_AUTH_MODE=token`` (and
the cluster's token in ``RAY_AUTH_TOKEN`` or ``~/.ray/auth_token``).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from types import ModuleType
from typing import Any, NamedTuple

BACKENDS = ("serial", "processes", "ray")
"""The backends of :func:`make`."""

_PARENT_ENDS: set[Connection] = set()
"""This process's ends of the pipes to its worker processes: a forked worker closes its copies,
so that each worker sees end-of-file as soon as its parent (the only holder left) is gone."""

_PARENT_POLL_S = 1.0
"""How often a worker process checks that its parent is still alive."""

_CLOSE = bytes(ForkingPickler.dumps(None))
"""The message that ends a worker process."""


class WorkerError(RuntimeError):
    """An exception raised by a worker's method, in one line naming the worker and the method;
    :attr:`error` (and ``__cause__``) is the original."""

    def __init__(self, worker: str, method: str, error: BaseException) -> None:
        text = " ".join(str(error).split())[:500]  # Ray's errors carry whole tracebacks
        super().__init__(f"{worker} failed in {method}() ({type(error).__name__}: {text})")
        self.worker, self.method, self.error = worker, method, error


class Ticket(NamedTuple):
    """Answers owed by some workers to one :meth:`Workers.send` (received in the order sent)."""

    number: int
    method: str
    to: tuple[int, ...]


def make(
    backend: str = "serial",
    workers: int = 0,
    *,
    timeout: float | None = None,
    start_method: str | None = None,
    spin: float = 0.0,
    address: str = "local",
) -> Pool:
    """Where workers run: ``backend`` (``"serial"``, ``"processes"`` or ``"ray"``) and how many
    (``workers``; 0: one per CPU of this machine, of the Ray cluster, at most what the work can
    use; ``"serial"``: 1). ``timeout``: seconds to wait for an answer (None: as long as it
    takes); ``start_method`` and ``spin`` (seconds a worker process polls for its next message
    before sleeping: quick successions skip the wake-up) for ``"processes"``; ``address`` for
    ``"ray"`` (see the module docstring). ``ValueError`` / ``TypeError`` naming a bad argument."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise ValueError(f"workers must be an int ≥ 0 (0: one per CPU), got {workers!r}")
    if timeout is not None and (isinstance(timeout, bool) or not timeout > 0):
        raise ValueError(f"timeout must be None or a positive number of seconds, got {timeout!r}")
    methods = mp.get_all_start_methods()
    if start_method is not None and start_method not in methods:
        raise ValueError(
            f"start_method must be None or one of {', '.join(map(repr, methods))}, got {start_method!r}"
        )
    if isinstance(spin, bool) or not isinstance(spin, (int, float)) or not 0 <= spin <= 1:
        raise ValueError(f"spin must be a number of seconds from 0 to 1, got {spin!r}")
    if backend == "ray" and (not isinstance(address, str) or not address.strip()):
        raise ValueError(f"the Ray address must be local, auto or HOST:PORT, got {address!r}")
    return Pool(backend, workers, timeout, start_method, float(spin), address.strip())


@dataclass
class Pool:
    """Where workers run (made by :func:`make`); :meth:`start` starts a group of them. A pool
    holds no workers itself and can start group after group (one tournament run after another)."""

    backend: str
    workers: int
    timeout: float | None
    start_method: str | None
    spin: float
    address: str
    used: int = field(default=0, compare=False)
    """Workers of the last :meth:`start`."""

    def start(
        self,
        factory: Callable[..., Any],
        shares: Sequence[tuple[Any, ...]] | Callable[[int], Sequence[tuple[Any, ...]]],
        most: int | None = None,
        names: Sequence[str] | None = None,
        notes: Sequence[str] | None = None,
    ) -> Workers:
        """Start workers ``factory(*share)`` and wait until each is built. ``shares``: one
        argument tuple per worker, or a function of the number of workers giving them (that
        number: the pool's ``workers``, 0 meaning one per CPU, at most ``most``). ``names``:
        the workers' names in messages (default ``worker 0``, ``worker 1``, …), ``notes``: what
        each holds (``games 4..7``), added to its name. A factory that fails raises its
        :class:`WorkerError`, with every worker stopped."""
        stack = contextlib.ExitStack()
        try:
            ray = stack.enter_context(_connect(self.address)) if self.backend == "ray" else None
            if callable(shares):
                shares = shares(self._count(ray, most))
            shares = list(shares)
            if not shares:
                raise ValueError("a pool needs at least one worker to start, got no shares")
            if ray is not None:
                actor_count(ray, len(shares))  # more actors than CPUs would never all start
            names = list(names) if names is not None else [f"worker {i}" for i in range(len(shares))]
            notes = list(notes) if notes is not None else [""] * len(shares)
            kind = {"serial": _SerialWorkers, "processes": _ProcessWorkers, "ray": _RayWorkers}[self.backend]
            group = kind(self, names, notes, stack, ray)
        except BaseException:
            stack.close()
            raise
        self.used = len(shares)
        group._start(factory, shares)
        return group

    def _count(self, ray: ModuleType | None, most: int | None) -> int:
        """The number of workers to start: the pool's, or one per CPU, at most ``most``."""
        if self.backend == "serial":
            wanted = self.workers or 1
        elif ray is None:
            wanted = self.workers or os.cpu_count() or 1
        else:
            wanted = actor_count(ray, self.workers)
        return max(1, min(wanted, most or wanted))


class Workers:
    """A started group of workers (:meth:`Pool.start`): ask them, read their answers, close."""

    def __init__(
        self, pool: Pool, names: list[str], notes: list[str], stack: contextlib.ExitStack, ray: Any
    ) -> None:
        self.pool = pool
        self.timeout = pool.timeout
        self.names, self.notes = names, notes
        self.broken: str | None = None
        """Why the group is unusable, once it is (a worker died, timed out, or was interrupted)."""
        self.closed = False
        self._stack = stack
        self._ray: Any = ray  # the ray module, for the "ray" backend
        self._owed: deque[Ticket] = deque()  # sent, not yet received, oldest first
        self._numbers = itertools.count()

    def __len__(self) -> int:
        return len(self.names)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pids(self) -> tuple[int, ...]:
        """The worker processes' ids (``"processes"`` only; empty once closed)."""
        return ()

    def name(self, i: int) -> str:
        """Worker ``i`` in messages: its name, and its note."""
        return f"{self.names[i]} ({self.notes[i]})" if self.notes[i] else self.names[i]

    # ------------------------------------------------------------------ asking
    def send(self, method: str, *args: Any, to: Iterable[int] | None = None) -> Ticket:
        """Ask every worker (or those in ``to``) to run ``method(*args)``; returns at once."""
        if to is None:  # every worker: the hot path of a vector env's step
            return self._send(method, dict.fromkeys(range(len(self.names)), args), checked=True)
        return self._send(method, dict.fromkeys(to, args))

    def send_each(
        self, method: str, shares: Mapping[int, tuple[Any, ...]] | Sequence[tuple[Any, ...]]
    ) -> Ticket:
        """Ask worker ``i`` to run ``method(*shares[i])`` (a sequence: every worker; a mapping:
        the workers it names)."""
        plan = dict(shares) if isinstance(shares, Mapping) else dict(enumerate(shares))
        return self._send(method, plan)

    def receive(self, ticket: Ticket) -> list[Any]:
        """The answers to ``ticket``, in the order of its workers. Every answer is read before
        a worker's exception is raised (as a :class:`WorkerError`), so none is left owed."""
        self._usable(ticket.method)
        if not self._owed or self._owed[0] is not ticket:
            raise RuntimeError(
                f"receive() takes tickets in the order they were sent: {self._owed[0].method}() first"
                if self._owed
                else f"receive(): the ticket of {ticket.method}() is not owed (received already?)"
            )
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        replies = []
        try:
            for i in ticket.to:
                replies.append(self._fetch(i, ticket.method, deadline))
        except BaseException as error:
            self._break(f"{ticket.method}() was interrupted with answers owed ({type(error).__name__})")
            raise
        self._owed.popleft()
        for i, (status, value) in zip(ticket.to, replies):
            if status == "error":
                raise WorkerError(self.name(i), ticket.method, value) from value
        return [value for _, value in replies]

    def call(self, method: str, *args: Any, to: Iterable[int] | None = None) -> list[Any]:
        """:meth:`send` and :meth:`receive`: every asked worker's answer, in order."""
        return self.receive(self.send(method, *args, to=to))

    def call_each(
        self, method: str, shares: Mapping[int, tuple[Any, ...]] | Sequence[tuple[Any, ...]]
    ) -> list[Any]:
        """:meth:`send_each` and :meth:`receive`."""
        return self.receive(self.send_each(method, shares))

    def imap(
        self, method: str, tasks: Iterable[tuple[Any, ...]], ordered: bool = True
    ) -> Iterator[tuple[int, Any]]:
        """``method(*task)`` for every task, each worker given the next task as soon as it
        answers; yields ``(index, result)`` in task order, or as they finish (``ordered=False``).
        A worker's exception is raised once the tasks in flight have answered; stopping early
        (``close()`` on the iterator) waits for them too."""
        self._usable(method)
        if self._owed:
            raise RuntimeError(f"imap() with answers owed: receive {self._owed[0].method}() first")
        todo = enumerate(tasks)
        free, busy = deque(range(len(self))), {}
        done: dict[int, Any] = {}
        next_out, error = 0, None
        try:
            while True:
                while free and error is None and (task := next(todo, None)) is not None:
                    i = free.popleft()
                    self._post(i, self._pack(method, task[1]))
                    busy[i] = task[0]
                if not busy:
                    break
                deadline = None if self.timeout is None else time.monotonic() + self.timeout
                for i in self._ready(list(busy), method, deadline):
                    status, value = self._fetch(i, method, deadline)
                    index = busy.pop(i)
                    free.append(i)
                    if status == "error":
                        if error is None:
                            error = WorkerError(self.name(i), method, value)
                            error.__cause__ = value
                    elif ordered:
                        done[index] = value
                    else:
                        yield index, value
                while ordered and next_out in done and error is None:
                    yield next_out, done.pop(next_out)
                    next_out += 1
            if error is not None:
                raise error
        except (Exception, GeneratorExit):
            if busy and self.broken is None:
                deadline = None if self.timeout is None else time.monotonic() + self.timeout
                for i in list(busy):
                    self._fetch(i, method, deadline)
                    busy.pop(i)
            raise
        except BaseException as stop:
            self._break(f"{method}() was interrupted with answers owed ({type(stop).__name__})")
            raise

    # ------------------------------------------------------------------ closing
    def close(self, at_once: bool = False) -> None:
        """Stop the workers: ask them to end and wait a moment (not when ``at_once`` or when the
        group is broken), then kill what is left. Never hangs; twice is fine."""
        if self.closed:
            return
        self.closed = True
        try:
            self._stop(graceful=self.broken is None and not at_once)
        finally:
            self._stack.close()

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            with contextlib.suppress(Exception):  # interpreter shutdown: the workers end with us
                self.close()

    # ------------------------------------------------------------------ the backends'
    def _start(self, factory: Callable[..., Any], shares: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    def _pack(self, method: str, args: tuple[Any, ...]) -> Any:
        """The message asking for ``method(*args)``, made before any is sent (a bad argument
        fails here, with nothing sent)."""
        return method, args

    def _post(self, i: int, message: Any) -> None:
        """Give worker ``i`` a message of :meth:`_pack`."""
        raise NotImplementedError

    def _fetch(self, i: int, method: str, deadline: float | None) -> tuple[str, Any]:
        """Worker ``i``'s next answer: ``("ok", value)`` or ``("error", exception)``; a dead or
        late worker breaks the group and raises."""
        raise NotImplementedError

    def _ready(self, workers: list[int], method: str, deadline: float | None) -> list[int]:
        """Those of ``workers`` whose next answer is in (at least one; waits)."""
        return workers[:1]

    def _stop(self, graceful: bool) -> None:
        pass

    # ------------------------------------------------------------------ shared
    def _send(self, method: str, plan: dict[int, tuple[Any, ...]], checked: bool = False) -> Ticket:
        self._usable(method)
        for i in () if checked else plan:
            if not (isinstance(i, int) and 0 <= i < len(self)):
                raise ValueError(f"worker index must be an int from 0 to {len(self) - 1}, got {i!r}")
        ticket = Ticket(next(self._numbers), method, tuple(plan))
        messages: dict[Any, Any] = {}  # by id of the arguments: one message for a broadcast
        for args in plan.values():
            if id(args) not in messages:
                messages[id(args)] = self._pack(method, args)
        sent: list[int] = []
        try:
            for i, args in plan.items():
                self._post(i, messages[id(args)])
                sent.append(i)
        except BaseException:
            if sent and self.broken is None:  # a message could not go: nothing of it is owed
                self._break(f"{method}() could not reach every worker")
            raise
        self._owed.append(ticket)
        return ticket

    def _usable(self, what: str) -> None:
        if self.closed:
            raise RuntimeError(f"{what}() on closed workers: start new ones with pool.start(...)")
        if self.broken is not None:
            raise RuntimeError(
                f"{what}() on unusable workers: {self.broken}; close() them and start new ones"
            )

    def _break(self, why: str) -> None:
        """Mark the group unusable (the first reason is kept)."""
        if self.broken is None:
            self.broken = why

    def _died(self, i: int, how: str) -> RuntimeError:
        message = f"{self.name(i)} died: {how}"
        self._break(message)
        return RuntimeError(message)

    def _late(self, i: int, method: str) -> TimeoutError:
        message = (
            f"{self.name(i)} did not answer {method}() within {self.timeout:g} s "
            "(stopped, hung or overloaded)"
        )
        self._break(message)
        return TimeoutError(message)


# ---------------------------------------------------------------------- serial
class _SerialWorkers(Workers):
    """The workers in this process, each call run when its answer is read."""

    def _start(self, factory: Callable[..., Any], shares: list[tuple[Any, ...]]) -> None:
        self._objects: list[Any] = []
        self._queues: list[deque[tuple[str, tuple[Any, ...]]]] = [deque() for _ in shares]
        for i, share in enumerate(shares):
            try:
                self._objects.append(factory(*share))
            except Exception as error:
                self.close()
                raise WorkerError(self.name(i), "start", error) from error

    def _post(self, i: int, message: Any) -> None:
        self._queues[i].append(message)

    def _fetch(self, i: int, method: str, deadline: float | None) -> tuple[str, Any]:
        name, args = self._queues[i].popleft()
        try:
            return "ok", getattr(self._objects[i], name)(*args)
        except Exception as error:
            return "error", error

    def _stop(self, graceful: bool) -> None:
        self._objects = []


# ---------------------------------------------------------------------- processes
def _watch_parent(parent: int) -> None:
    """End this worker process as soon as its parent is gone (even while it is busy)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_S)
    os._exit(0)


def _serve(conn: Connection, factory: Callable[..., Any], share: tuple[Any, ...], spin: float) -> None:
    """A worker process: build ``factory(*share)``, then run each ``(method, args)`` message
    on it and answer ``("ok", value)`` or ``("error", exception)``; the first answer is the
    building's. Returns on the close message or end-of-file (the parent closed the pipe)."""
    for end in list(_PARENT_ENDS):  # forked: the parent's ends, ours and earlier workers'
        end.close()
    _PARENT_ENDS.clear()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    method = "start"
    try:
        worker = factory(*share)
        reply: tuple[str, Any] = ("ok", None)
    except Exception as error:
        worker, reply = None, ("error", error)
    while True:
        try:
            conn.send(reply)
        except (BrokenPipeError, ConnectionResetError):
            return
        except Exception as error:  # an answer or exception that cannot be pickled
            conn.send(
                ("error", RuntimeError(f"the worker could not send its answer to {method}(): {error!r}"))
            )
        try:
            until = time.perf_counter() + spin
            while time.perf_counter() < until and not conn.poll(0):
                pass  # the next message usually comes at once: no sleep, no wake-up latency
            message = conn.recv()
        except (EOFError, OSError):  # the parent closed the pipe, or is gone
            return
        if message is None:
            return
        method, args = message
        try:
            if worker is None:
                raise RuntimeError("the worker was not built (its factory failed)")
            reply = ("ok", getattr(worker, method)(*args))
        except Exception as error:
            reply = ("error", error)


def _signal_text(code: int | None) -> str:
    if code is None:
        return "closed its pipe"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"exit code {code} ({signal.Signals(-code).name})"
    return f"exit code {code}"


def default_start_method() -> str:
    """How worker processes start when no ``start_method`` is given: ``"fork"`` (fast, and no
    ``if __name__ == "__main__"`` guard needed) where the platform has it and this process has not
    imported PyTorch; else ``"spawn"``. A child forked from a process whose PyTorch has started its
    thread pool can wait forever on that pool's locks the first time it runs a network, so a
    tournament of network agents on forked workers would hang."""
    if "fork" in mp.get_all_start_methods() and "torch" not in sys.modules:
        return "fork"
    return "spawn"


class _ProcessWorkers(Workers):
    """One process per worker, a pipe each; the answers come back in the order asked."""

    def _start(self, factory: Callable[..., Any], shares: list[tuple[Any, ...]]) -> None:
        method = self.pool.start_method or default_start_method()
        context = mp.get_context(method)
        self._processes: list[Any] = []
        self._conns: list[Connection] = []
        self._messages: dict[str, bytes] = {}  # messages without arguments, pickled once
        try:
            for share in shares:
                parent, child = context.Pipe()
                _PARENT_ENDS.add(parent)  # before the fork, so that the worker closes its copy
                self._conns.append(parent)
                process = context.Process(
                    target=_serve, args=(child, factory, share, self.pool.spin), daemon=True
                )
                try:
                    process.start()
                finally:
                    child.close()
                self._processes.append(process)
            self._owed.append(ticket := Ticket(next(self._numbers), "start", tuple(range(len(shares)))))
            self.receive(ticket)
        except BaseException:
            self._break("the workers did not all start")
            self.close()
            raise

    def name(self, i: int) -> str:
        pid = self._processes[i].pid if i < len(getattr(self, "_processes", ())) else None
        about = ", ".join(part for part in (f"pid {pid}", self.notes[i]) if part)
        return f"{self.names[i]} ({about})"

    @property
    def pids(self) -> tuple[int, ...]:
        return () if self.closed else tuple(process.pid for process in self._processes)

    def _pack(self, method: str, args: tuple[Any, ...]) -> bytes:
        payload = self._messages.get(method) if not args else None
        if payload is None:
            try:
                payload = bytes(ForkingPickler.dumps((method, args)))
            except Exception as error:
                raise TypeError(
                    f"the arguments of {method}() must be picklable to reach a worker process: {error}"
                ) from None
            if not args:
                self._messages[method] = payload
        return payload

    def _post(self, i: int, message: Any) -> None:
        try:
            self._conns[i].send_bytes(message)
        except (OSError, EOFError):  # BrokenPipeError, ConnectionResetError: it is gone
            raise self._died(i, self._death(i)) from None

    def _fetch(self, i: int, method: str, deadline: float | None) -> tuple[str, Any]:
        conn, process = self._conns[i], self._processes[i]
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = wait([conn, process.sentinel], left)
            if conn in ready:
                try:
                    return conn.recv()
                except (OSError, EOFError):
                    break
            if ready:  # the process ended without answering
                break
            if deadline is not None and time.monotonic() >= deadline:
                raise self._late(i, method)
        raise self._died(i, self._death(i))

    def _ready(self, workers: list[int], method: str, deadline: float | None) -> list[int]:
        ends = {self._conns[i]: i for i in workers} | {self._processes[i].sentinel: i for i in workers}
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready = sorted({ends[end] for end in wait(list(ends), left)})
        if not ready:
            raise self._late(workers[0], method)
        return ready

    def _death(self, i: int) -> str:
        """How worker ``i``'s process ended (waiting a moment for its exit code)."""
        self._processes[i].join(timeout=1.0)
        return _signal_text(self._processes[i].exitcode)

    def _stop(self, graceful: bool) -> None:
        for conn in getattr(self, "_conns", []):
            if graceful:
                with contextlib.suppress(OSError, EOFError):
                    conn.send_bytes(_CLOSE)
            _PARENT_ENDS.discard(conn)
            conn.close()  # end-of-file: the worker returns even if the message was lost
        wait_s = min(5.0, self.timeout or 5.0) if graceful else 0.2
        deadline = time.monotonic() + wait_s
        for process in getattr(self, "_processes", []):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None and graceful:
                process.terminate()
                process.join(1.0)
            if process.exitcode is None:  # failed, stopped (SIGSTOP) or ignoring SIGTERM
                process.kill()
                process.join(5.0)


# ---------------------------------------------------------------------- ray
class _Actor:
    """A Ray actor holding one worker: ``call`` runs its methods."""

    def __init__(self, factory: Callable[..., Any], share: tuple[Any, ...]) -> None:
        self.worker, self.failed = None, None
        try:
            self.worker = factory(*share)
        except Exception as error:  # raised by ready(): a task's error keeps its type and message
            self.failed = error

    def ready(self) -> None:
        """Answers once the worker is built; raises what its factory raised."""
        if self.failed is not None:
            raise self.failed

    def call(self, method: str, *args: Any) -> Any:
        return getattr(self.worker, method)(*args)


def import_ray() -> ModuleType:
    """The ``ray`` module; ``ImportError`` saying so when it is not installed."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(f"the ray backend needs Ray, which is not installed ({error})") from None
    return ray


@contextlib.contextmanager
def _connect(address: str) -> Iterator[ModuleType]:
    """Ray connected to ``address`` while the block runs (see the module docstring); yields the
    ``ray`` module. Disconnects at the end (a ``local`` instance stops) unless Ray was already
    initialised by the caller. ``ConnectionError`` (from Ray) when no cluster answers."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    options: dict[str, Any] = {"logging_level": logging.WARNING}
    if address == "local":
        options["include_dashboard"] = False
    try:
        ray.init(address=address, **options)
    except ConnectionError as error:
        raise ConnectionError(
            f"{error} (is the cluster up and reachable? With Ray's token authentication, its default, "
            "a named address needs RAY_AUTH_MODE=token and the cluster's token here: RAY_AUTH_TOKEN or "
            "~/.ray/auth_token)"
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def actor_count(ray: ModuleType, requested: int) -> int:
    """``requested`` actors (0: one per CPU of the cluster); ``ValueError`` when the cluster has
    fewer CPUs than requested (each actor takes one: the rest would never start)."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if requested > max(cpus, 1):
        raise ValueError(
            f"{requested} Ray actors need {requested} CPUs and the cluster has {cpus}; "
            "use fewer actors or add machines (ray start --address=HEAD:6379)"
        )
    return max(1, requested or cpus)


class _RayWorkers(Workers):
    """One Ray actor (one CPU) per worker; each answer an object reference, kept in order."""

    def _start(self, factory: Callable[..., Any], shares: list[tuple[Any, ...]]) -> None:
        ray = self._ray
        remote = ray.remote(num_cpus=1)(_Actor)
        self._actors = [remote.remote(factory, share) for share in shares]
        self._queues: list[deque[Any]] = [deque() for _ in shares]
        try:
            for i, actor in enumerate(self._actors):  # each actor is up, its worker built
                try:
                    ray.get(actor.ready.remote(), timeout=self.timeout)
                except ray.exceptions.GetTimeoutError:
                    raise self._late(i, "start") from None
                except ray.exceptions.RayTaskError as error:
                    cause = getattr(error, "cause", None) or error
                    raise WorkerError(self.name(i), "start", cause) from cause
                except ray.exceptions.RayActorError as error:
                    raise self._died(i, str(error).strip().splitlines()[0]) from None
        except BaseException:
            self.close()
            raise

    def _pack(self, method: str, args: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
        # In the object store once, for every actor asked (Ray resolves references given as
        # arguments); the actors' answers to earlier asks are passed on as they are.
        ray = self._ray
        return method, tuple(arg if isinstance(arg, ray.ObjectRef) else ray.put(arg) for arg in args)

    def _post(self, i: int, message: Any) -> None:
        method, args = message
        self._queues[i].append(self._actors[i].call.remote(method, *args))

    def _fetch(self, i: int, method: str, deadline: float | None) -> tuple[str, Any]:
        ray = self._ray
        ref = self._queues[i].popleft()
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            return "ok", ray.get(ref, timeout=left)
        except ray.exceptions.GetTimeoutError:
            raise self._late(i, method) from None
        except ray.exceptions.RayActorError as error:
            raise self._died(i, str(error).strip().splitlines()[0]) from None
        except ray.exceptions.RayTaskError as error:
            return "error", getattr(error, "cause", None) or error

    def _ready(self, workers: list[int], method: str, deadline: float | None) -> list[int]:
        heads = {self._queues[i][0]: i for i in workers}
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _ = self._ray.wait(list(heads), num_returns=1, timeout=left)
        if not ready:
            raise self._late(workers[0], method)
        return [heads[ref] for ref in ready]

    def _stop(self, graceful: bool) -> None:
        for actor in getattr(self, "_actors", []):
            with contextlib.suppress(Exception):
                self._ray.kill(actor)
        self._actors = []
