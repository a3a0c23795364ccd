"""``evaluation.flags.signals_held``: a stop that arrives while a file is written and noted waits
for the end of the block, whichever thread the system hands the signal to."""

from __future__ import annotations

import os
import select
import signal
import threading

import pytest

from evaluation.flags import signals_held


def _other_thread() -> tuple[threading.Thread, threading.Event]:
    """A thread that neither holds nor handles signals, as tqdm's monitor or a torch pool is."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    return thread, stop


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_delivered_to_another_thread_waits_for_the_block(signum: int) -> None:
    thread, stop = _other_thread()
    steps: list[str] = []
    caught: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda s, _f: caught.append(s))
    # SIGINT: KeyboardInterrupt, also where this suite runs as a background job of a script (the
    # shell then starts it with SIGINT ignored, and Python keeps it so)
    before_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    # The other thread takes the signal when the system next runs it; the wakeup fd says when it
    # has (a fixed pause was too short on a busy machine: the signal then came after the block).
    tripped, wakeup = os.pipe()
    os.set_blocking(wakeup, False)
    wakeup_before = signal.set_wakeup_fd(wakeup)
    try:
        with pytest.raises(KeyboardInterrupt) if signum == signal.SIGINT else _nothing():
            with signals_held():
                signal.pthread_kill(thread.ident, signum)  # the system's choice of thread
                assert select.select([tripped], [], [], 10.0)[0], "the signal never arrived"
                assert os.read(tripped, 1) == bytes([signum])
                # Python runs handlers between instructions: from here on, if not held
                steps.append(f"written, {len(caught)} handled")
                steps.append(f"noted, {len(caught)} handled")
        assert steps == ["written, 0 handled", "noted, 0 handled"]
        if signum == signal.SIGTERM:
            assert caught == [signal.SIGTERM]  # it arrived, once, after the block
    finally:
        signal.set_wakeup_fd(wakeup_before)
        os.close(tripped)
        os.close(wakeup)
        signal.signal(signal.SIGTERM, before)
        signal.signal(signal.SIGINT, before_int)
        stop.set()
        thread.join()


def test_no_signal_no_trace_and_the_handlers_come_back() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with signals_held():
        pass
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False
