"""Ray: the ``"ray"`` backend of ``hearts_env.parallel`` (the checks every backend passes, and a
killed actor), duplicate tournaments (``evaluation.ray_pool``) and PPO rollouts
(``training.ray_rollout``) on a cluster this module starts: a head node (``ray start --head
--block``, its own port, CPUs and temp dir, so no other Ray on the machine sees it), connected to
by its address and stopped at the end (SIGTERM to that one process, which stops its own Ray
processes: never ``ray stop``, which would stop every Ray on the machine). Run by ``make
integration-ray``."""

from __future__ import annotations

import csv
import json
import logging
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.integration.common import require

ray = require("ray")

import agents  # noqa: E402
from evaluation.duplicate import Tournament, TournamentConfig  # noqa: E402
from evaluation.ray_pool import RayPool  # noqa: E402
from hearts_cli import main  # noqa: E402
from hearts_env.parallel import make  # noqa: E402
from tests.test_parallel import CHECKS, Tally  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """The address of a 2-CPU head node started for this module; this process is connected to it."""
    port = free_port()
    temp = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    ray_cli = str(Path(sys.executable).parent / "ray")
    log = open(Path(temp) / "head.log", "w")  # noqa: SIM115
    # Without Ray's token authentication: a driver naming the address would need RAY_AUTH_MODE=token
    # set before Ray is imported (this process imported it already); a test cluster, for minutes.
    env = dict(os.environ, RAY_AUTH_MODE="disabled")
    head = subprocess.Popen(
        [ray_cli, "start", "--head", "--block", f"--port={port}", "--node-ip-address=127.0.0.1",
         "--num-cpus=2", "--num-gpus=0", f"--temp-dir={temp}", "--include-dashboard=false",
         "--disable-usage-stats", "--object-store-memory=200000000"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env,
    )  # fmt: skip
    addr = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert head.poll() is None, (Path(temp) / "head.log").read_text()[-3000:]
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the Ray head did not start in 120 s"
                time.sleep(0.5)
        ray.init(address=addr, logging_level=logging.WARNING)
        assert ray.cluster_resources().get("CPU") == 2
        yield addr
    finally:
        if ray.is_initialized():
            ray.shutdown()
        head.send_signal(signal.SIGTERM)  # the head stops the Ray processes it started
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


def same(report: dict[str, Any]) -> dict[str, Any]:
    """A report without its timings and run records (the only entries two runs may differ in)."""
    out = json.loads(json.dumps(report))
    for key in ("elapsed_s", "runs", "move_times"):  # wall-clock time and ms/decision differ run to run
        out.pop(key, None)
    for key in ("elapsed_s", "move_time"):
        out["progress"].pop(key, None)
    return out


# ---------------------------------------------------------------------- the pool
@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__[len("check_") :])
def test_the_ray_backend(address: str, check: Any) -> None:
    check(make("ray", address=address, timeout=60))


def test_a_killed_actor_is_one_line(address: str) -> None:
    with make("ray", address=address, timeout=60).start(Tally, [(0,), (0,)]) as workers:
        pid = workers.call("pid", to=[1])[0]
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(RuntimeError, match=r"^worker 1 died: ") as caught:
            workers.call("add", 1)
        assert "\n" not in str(caught.value)
        with pytest.raises(RuntimeError, match=r"add\(\) on unusable workers: worker 1 died"):
            workers.call("add", 1)
    with pytest.raises(ValueError, match="3 Ray actors need 3 CPUs and the cluster has 2"):
        make("ray", address=address).start(Tally, [(0,)] * 3)


# ---------------------------------------------------------------------- tournaments
TOURNAMENTS = {
    "hearts, 4 streams": TournamentConfig(
        agents=["strategy", "random"], deals=240, tables=24, seed=1, streams=4
    ),
    "hearts, 1 stream": TournamentConfig(agents=["strategy", "random"], deals=120, tables=20, seed=2),
    "smear_partnership, 3 streams": TournamentConfig(
        preset="smear_partnership", agents=["smear", "random"], deals=120, tables=12, seed=3, streams=3
    ),
    # the search agent: its worlds come from the streams' generators, so the actors replay it
    "hearts pimc, 2 streams": TournamentConfig(
        agents=["pimc:worlds=2", "strategy"], deals=12, tables=4, seed=5, streams=2
    ),
    "smear pimc, 2 streams": TournamentConfig(
        preset="smear_partnership", agents=["pimc:worlds=2", "smear"], deals=12, tables=4, seed=6, streams=2
    ),
}


@pytest.mark.parametrize("name", list(TOURNAMENTS))
def test_a_tournament_on_two_actors_equals_one_process(address: str, name: str, tmp_path: Path) -> None:
    config = TOURNAMENTS[name]
    here = Tournament(config, progress=False).run()
    pool = RayPool(address, actors=2)
    there = Tournament(config, progress=False).run(pool=pool)
    assert pool.used == min(2, config.streams)
    assert same(there) == same(here)
    assert all(row["illegal"] == 0 for row in there["agents"])
    # Stopped after two rounds and resumed, on the actors: the same record again.
    path = tmp_path / "t.json"
    first = Tournament(config, json_path=path, progress=False).run(max_rounds=2, pool=pool)
    assert first["progress"]["rounds_done"] == 2
    resumed = Tournament(config, json_path=path, progress=False).run(pool=pool)
    assert same(resumed) == same(here) == same(json.loads(path.read_text()))


def test_streams_are_part_of_the_tournament(address: str) -> None:
    one, four = TOURNAMENTS["hearts, 1 stream"], replace(TOURNAMENTS["hearts, 1 stream"], streams=4)
    a = Tournament(one, progress=False).run(pool=RayPool(address, 2))
    b = Tournament(four, progress=False).run(pool=RayPool(address, 2))
    assert a["agents"] != b["agents"]  # other random numbers: another tournament
    assert "streams" not in a["config"] and b["config"]["streams"] == 4  # old files resume unchanged


def test_more_actors_than_cpus_is_one_clear_error(address: str) -> None:
    with pytest.raises(ValueError, match="5 Ray actors need 5 CPUs and the cluster has 2"):
        Tournament(TOURNAMENTS["hearts, 4 streams"], progress=False).run(pool=RayPool(address, 5))


def test_the_cli_tournament_on_the_cluster_equals_one_process(address: str, tmp_path: Path) -> None:
    flags = ["tournament", "--agents", "strategy,random", "--deals", "200", "--tables", "20", "--seed", "4",
             "--streams", "4", "--quiet"]  # fmt: skip
    assert main([*flags, "--json", str(tmp_path / "here.json")]) == 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "hearts_cli", *flags, "--json", str(tmp_path / "there.json"),
         "--ray", address, "--ray-actors", "2"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "strategy - random" in done.stdout
    here, there = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("here", "there"))
    assert same(there) == same(here)
    assert untimed_csv(tmp_path / "there.csv") == untimed_csv(tmp_path / "here.csv")


def untimed_csv(path: Path) -> list[dict[str, str]]:
    """A tournament CSV's rows without the move-time column (run to run, it differs)."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and "ms_per_decision" in rows[0]
    return [{k: v for k, v in row.items() if k != "ms_per_decision"} for row in rows]


def test_without_ray_the_cli_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    for argv in (["tournament", "--deals", "4", "--ray", "local", "--json", str(tmp_path / "t.json")],
                 ["train", "--ray", "auto", "--run-dir", str(tmp_path / "run")]):  # fmt: skip
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("hearts-env: error: --ray needs Ray") and err.count("\n") == 1, err
        assert 'pip install -e ".[ray]"' in err
    assert not list(tmp_path.iterdir())  # refused before anything was written
    assert main(["tournament", "--deals", "4", "--ray-actors", "2"]) == 2
    assert "--ray-actors needs --ray" in capsys.readouterr().err


# ---------------------------------------------------------------------- training
def losses(run: Path) -> list[dict[str, str]]:
    with (run / "train.csv").open() as f:
        return [{k: v for k, v in row.items() if k not in ("elapsed_s", "decisions_per_s")}
                for row in csv.DictReader(f)]  # fmt: skip


def test_ppo_rollouts_on_two_actors(address: str, tiny_args: Any, tmp_path: Path) -> None:
    from training.ppo import read_checkpoint, train

    args = replace(tiny_args, ray=address, ray_actors=2, total_decisions=1024, imitation_decisions=512)
    whole = tmp_path / "whole"
    summary = train(replace(args, run_dir=str(whole)))
    assert summary["iterations"] == 2 and summary["decisions"] == 1024
    rows = losses(whole)
    assert [r["phase"] for r in rows] == ["imitation", "ppo"]
    for r in rows:
        for key in ("pg_loss", "v_loss", "entropy", "approx_kl", "explained_var"):
            assert math.isfinite(float(r[key])), (key, r)
    saved = read_checkpoint(whole / "checkpoint.pt")
    assert saved["ray"]["actors"] == 2 and saved["ray"]["games"] == [4, 4]
    policy = agents.make("ppo", "hearts", 4, checkpoint=str(whole / "policy.pt"))
    report = Tournament(
        TournamentConfig(agents=[f"ppo:checkpoint={whole / 'policy.pt'}", "random"], deals=8, tables=4),
        progress=False,
    ).run()
    assert policy.net is not None and all(row["illegal"] == 0 for row in report["agents"])

    # Interrupted after one iteration and resumed: the same run (seeded, for a given actor count).
    part = tmp_path / "part"
    train(replace(args, run_dir=str(part), total_decisions=512))
    with pytest.raises(ValueError, match="played on Ray actors: resume with --ray"):
        train(replace(args, run_dir=str(part), resume=True, ray="", ray_actors=0))
    with pytest.raises(ValueError, match="trained with 2 Ray actors, this run would have 1"):
        train(replace(args, run_dir=str(part), resume=True, ray_actors=1))
    train(replace(args, run_dir=str(part), resume=True))
    assert losses(part) == rows
