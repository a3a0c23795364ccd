"""One ``vector_env`` step taken apart (standard 4-player Hearts): what each part costs.

Prints the random player at B=4096; the engine (step, legal cards, redeals), each observation
format and the int8 mask at B=4096 and at 2048 (one shard of two); a shard's whole step in a
process of its own, alone and with a second one beside it (no pipes: what the cores cost each
other); then ``vector_env`` per format and worker count, the random cards drawn by this process
or by each shard (``step_random``), with workers also pinned to a core of their own (and this
process to another). The README's step breakdown comes from this (``--json FILE`` saves every
number printed, with the command, numpy's version, the machine and the run's commit and date).

Run: ``python experiments/step-breakdown/step_breakdown.py [--json results/step_breakdown.json]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import hearts_env
from benchmarks.throughput import report
from hearts_env.core.bits import random_bit
from hearts_env.files import write_json
from hearts_env.presets import make_rules
from hearts_env.table import Table


def microseconds(call: Callable[[], object], repeats: int = 2000) -> float:
    """Mean microseconds of ``call`` over ``repeats`` calls, after 200 warm-up calls."""
    for _ in range(200):
        call()
    start = time.perf_counter()
    for _ in range(repeats):
        call()
    return (time.perf_counter() - start) / repeats * 1e6


def table_parts(batch: int, rng: np.random.Generator) -> dict[str, float]:
    """Microseconds of the engine, the three formats and the mask of a table of ``batch`` games in
    the steady state, by part."""
    table = Table(make_rules("hearts"), batch)
    table.reset(seed=0)

    def play() -> None:
        result = table.step(random_bit(table.legal(), rng))
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))

    for _ in range(3000):  # games drift apart: the steady state
        play()
    out = np.empty((batch, table.observer.layout.size), np.float32)
    words, tail = table.encode("packed")
    bits, tail8 = table.encode("uint8")
    parts = {
        "engine step+legal+redeal": play,
        "observe float32": lambda: table.observe(out=out, constants=False),
        "uint8": lambda: table.encode("uint8", out=bits, tail=tail8, constants=False),
        "packed": lambda: table.encode("packed", out=words, tail=tail, constants=False),
        "int8 mask": table.action_mask,
    }
    return {name: microseconds(call) for name, call in parts.items()}


def vector_step(
    obs_format: str, workers: int, pin: bool, rng: np.random.Generator, player: str = "caller"
) -> float:
    """Microseconds of one ``vector_env`` step of 4,096 games with random legal play, drawn by
    this process (``player="caller"``: ``env.step``) or by each shard (``"shard"``: ``env.step_random``)."""
    env = hearts_env.vector_env(
        "hearts", num_envs=4096, seed=0, num_workers=workers, copy=False, obs_format=obs_format
    )
    everywhere = set(range(os.cpu_count() or 1))
    try:
        if pin:
            os.sched_setaffinity(0, {0})
            os.sched_setaffinity(env.worker_pids[0], {1})
        env.reset()
        if player == "shard":
            return microseconds(env.step_random, 3000)
        return microseconds(lambda: env.step(random_bit(env.legal_masks(), rng)), 3000)
    finally:
        env.close()
        os.sched_setaffinity(0, everywhere)


def _shard_alone(obs_format: str, batch: int, seconds: float, queue: object) -> None:
    """One shard's work without any pipe: step ``batch`` games with random play and write their
    observations in ``obs_format`` for ``seconds``; puts microseconds per step on ``queue``."""
    table = Table(make_rules("hearts"), batch)
    table.reset(seed=os.getpid())
    rng = np.random.default_rng(os.getpid())
    words, tail = table.encode(obs_format) if obs_format != "float32" else (None, None)
    out = np.empty((batch, table.observer.layout.size), np.float32)

    def step() -> None:
        result = table.step(random_bit(table.legal(), rng))
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))
        if obs_format == "float32":
            table.observe(out=out, constants=False)
        else:
            table.encode(obs_format, out=words, tail=tail, constants=False)
        table.action_mask()

    for _ in range(3000):
        step()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        done += 1
    queue.put((time.perf_counter() - start) / done * 1e6)  # type: ignore[attr-defined]


def side_by_side(obs_format: str, processes: int, batch: int = 2048, seconds: float = 3.0) -> list[float]:
    """Microseconds per step of ``processes`` shards of ``batch`` games run at the same time,
    each in its own process with no communication: how much the cores slow each other down."""
    import multiprocessing as mp

    queue = mp.Queue()
    job_args = (obs_format, batch, seconds, queue)
    jobs = [mp.Process(target=_shard_alone, args=job_args) for _ in range(processes)]
    for job in jobs:
        job.start()
    times = [queue.get() for _ in jobs]
    for job in jobs:
        job.join()
    return times


def main(argv: list[str] | None = None) -> None:
    """Command line: print each part's cost (and save the numbers as JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write every number printed to this JSON file")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    measured: dict[str, Any] = {"tables": [], "shards": [], "vector_env": []}
    rng = np.random.default_rng(0)
    legal = np.random.default_rng(1).integers(1, 2**52, 4096, dtype=np.uint64)
    measured["random_bit_us"] = microseconds(lambda: random_bit(legal, rng))
    print(f"random_bit(4096): {measured['random_bit_us']:.0f} us")
    for batch in (4096, 2048):
        parts = table_parts(batch, rng)
        measured["tables"].append({"batch": batch, "parts_us": parts})
        print(f"B={batch}: " + "; ".join(f"{name} {us:.0f} us" for name, us in parts.items()), flush=True)
    for obs_format in hearts_env.OBS_FORMATS:  # a shard's whole step, alone and beside another
        alone, pair = side_by_side(obs_format, 1), side_by_side(obs_format, 2)
        measured["shards"].append(
            {"format": obs_format, "batch": 2048, "alone_us": alone[0], "beside_us": pair}
        )
        print(
            f"shard of 2048, {obs_format}: alone {alone[0]:.0f} us/step; two at once "
            + ", ".join(f"{us:.0f}" for us in pair)
            + " us/step (no pipes)",
            flush=True,
        )
    for obs_format in hearts_env.OBS_FORMATS:
        for workers, pin in ((1, False), (2, False), (2, True)):
            for player in ("caller", "shard"):
                us = vector_step(obs_format, workers, pin, rng, player)
                measured["vector_env"].append({
                    "format": obs_format, "processes": workers, "pinned": pin, "player": player,
                    "us_per_step": us, "decisions_per_s": 4096 / us * 1e6,
                })  # fmt: skip
                print(
                    f"vector_env {obs_format:8} procs {workers} pinned {pin!s:5} random {player:6}: "
                    f"{us:.0f} us/step = {4096 / us:.2f}M decisions/s",
                    flush=True,
                )
    if args.json:
        command = shlex.join(["python", "experiments/step-breakdown/step_breakdown.py", *argv])
        write_json(args.json, report(command, **measured), indent=2)


if __name__ == "__main__":
    main()
