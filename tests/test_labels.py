"""Search labels (:mod:`training.labels`, ``hearts-env label``): the decisions replay, every backend
and a resumed run write the same shards, Ctrl-C keeps the finished ones, bad files are refused in
one line, Smear's bids and discards are labelled."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")  # the schedule's configurations come from training.mixture

from hearts_cli import main  # noqa: E402
from hearts_env.core.formats import unpack_numpy  # noqa: E402
from hearts_env.core.phases import BID, DISCARD, PLAYING  # noqa: E402
from hearts_env.parallel import make  # noqa: E402
from hearts_env.presets import make_rules  # noqa: E402
from hearts_env.table import Table  # noqa: E402
from training.labels import FIELDS, LabelRun, LabelSettings, read_labels  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FAST = LabelSettings(family="hearts", agent="strategy", games_per_shard=2, seed=3,
                     configs=(("hearts", 4), ("black_maria", 3)))  # fmt: skip


def _label(
    out: Path, settings: LabelSettings = FAST, decisions: int = 300, resume: bool = False, **run
) -> dict:
    return LabelRun(settings, out, decisions, resume=resume).run(progress=False, **run)


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("shard-*.npz"))}


def _one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_the_stored_choices_replay_the_games(tmp_path: Path) -> None:
    record = _label(tmp_path)
    assert record["decisions"] == 300 and sum(s["decisions"] for s in record["shards"].values()) >= 300
    shards = list(read_labels(tmp_path, "hearts"))
    assert len(shards) == len(record["shards"]) >= 2
    for shard in shards:
        rules = make_rules(str(shard["preset"]), num_players=int(shard["players"]))
        table = Table(rules, 2, reward="zero_sum")
        table.reset(seed=int(shard["deal_seed"]))
        final = np.zeros((2, rules.num_players))
        for step in range(int(shard["step"].max()) + 1):
            rows = np.flatnonzero(shard["step"] == step)
            games = shard["game"][rows]
            assert (games == np.flatnonzero(~table.deal_over)).all()
            assert ((table.action_mask()[games] > 0) == shard["mask"][rows]).all()
            assert (table.current_player[games] == shard["seat"][rows]).all()
            words, tail = table.encode("packed")
            assert (words[games] == shard["obs"][rows]).all() and (tail[games] == shard["tail"][rows]).all()
            assert shard["mask"][rows, shard["action"][rows]].all()  # every choice legal
            actions = np.zeros(2, np.int64)
            actions[games] = shard["action"][rows]
            result = table.step(actions)
            final[result.deal_ended] = result.rewards[result.deal_ended]
        assert table.deal_over.all()
        from training.rollout import reward_scale

        expected = final[shard["game"], shard["seat"]] * reward_scale(rules)
        np.testing.assert_allclose(shard["reward"], expected, rtol=1e-6)
        assert np.isnan(shard["values"]).all()  # strategy searches nothing


def test_worker_processes_write_the_same_shards(tmp_path: Path) -> None:
    search = LabelSettings(
        family="hearts",
        agent="pimc:worlds=2:rollout=fast",
        games_per_shard=1,
        seed=5,
        configs=(("hearts", 4), ("black_maria", 3)),
    )  # the search draws: seeded per shard
    _label(tmp_path / "serial", search, decisions=150)
    _label(
        tmp_path / "processes", search, decisions=150, pool=make("processes", workers=2, start_method="spawn")
    )
    serial, parallel = _files(tmp_path / "serial"), _files(tmp_path / "processes")
    assert serial and serial == parallel
    one = json.loads((tmp_path / "serial" / "labels.json").read_text())["shards"]
    assert one == json.loads((tmp_path / "processes" / "labels.json").read_text())["shards"]


def test_a_stopped_run_resumed_writes_the_same_shards(tmp_path: Path) -> None:
    _label(tmp_path / "once")
    calls = []
    _label(tmp_path / "twice", stopped=lambda: calls.append(1) or True)  # stops after its first shard
    assert len(_files(tmp_path / "twice")) == 1
    _label(tmp_path / "twice", resume=True)
    assert _files(tmp_path / "once") == _files(tmp_path / "twice")
    runs = json.loads((tmp_path / "twice" / "labels.json").read_text())["runs"]
    assert len(runs) == 2 and all("commit" in run for run in runs)


def test_ctrl_c_keeps_the_finished_shards_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "labels"
    argv = [sys.executable, "-m", "hearts_cli", "label", "--family", "hearts", "--out", str(out),
            "--decisions", "100000", "--games-per-shard", "1", "--agent", "pimc:worlds=2:rollout=fast",
            "--configs", "hearts-4", "--quiet"]  # fmt: skip
    child = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(out.glob("shard-*.npz")) and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.1)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGINT, err
    kept = len(list(out.glob("shard-*.npz")))
    assert kept >= 1 and f"keeps {kept} shards" in err and "--resume" in err
    assert len(err.strip().splitlines()) == 1, err
    assert len(list(read_labels(out))) == kept  # every kept shard is whole and listed
    assert not list(out.glob(".*.partial")) and not (out / ".lock").exists()


def test_damaged_and_foreign_files_and_other_settings_are_refused_in_one_line(tmp_path, capsys) -> None:
    out = tmp_path / "labels"
    base = ["label", "--family", "hearts", "--out", str(out), "--decisions", "100", "--agent", "strategy",
            "--games-per-shard", "2", "--configs", "hearts-4", "--quiet"]  # fmt: skip
    assert main(base) == 0
    capsys.readouterr()
    message = _one_line(capsys, [*base, "--resume", "--seed", "1"])
    assert "labelled with other settings (seed 0 not 1)" in message
    assert "already holds labels" in _one_line(capsys, base)
    shard = out / "shard-00000.npz"
    good = shard.read_bytes()
    shard.write_bytes(good[:-40] + bytes(40))
    assert "shard-00000.npz is damaged" in _one_line(capsys, [*base, "--resume"])
    with pytest.raises(ValueError, match="is damaged: its SHA-256"):
        list(read_labels(out))
    shard.write_bytes(good)
    with pytest.raises(ValueError, match="labels of 'hearts', not of 'smear'"):
        list(read_labels(out, "smear"))
    (out / "labels.json").write_text(json.dumps({"format": "hearts-env-mixture-checkpoint/1"}))
    assert "is not a labels record" in _one_line(capsys, [*base, "--resume"])
    (out / "labels.json").write_text("{not json")
    assert "labels.json is damaged" in _one_line(capsys, [*base, "--resume"])
    assert "is a smear configuration" in _one_line(capsys, [*base, "--configs", "smear_widow-4"])


def test_smear_bids_and_discards_are_labelled(tmp_path: Path) -> None:
    settings = LabelSettings(family="smear", agent="pimc:worlds=2:rollout=heuristic", games_per_shard=2,
                             configs=(("smear_partnership", 4), ("smear_widow", 4)))  # fmt: skip
    _label(tmp_path, settings, decisions=1)
    shards = list(read_labels(tmp_path, "smear"))
    every = {
        name: np.concatenate([s[name] for s in shards]) for name in FIELDS if name not in ("obs", "tail")
    }
    assert every["mask"][np.arange(len(every["action"])), every["action"]].all()
    bids = every["phase"] == BID
    choice = every["mask"].sum(axis=1) > 1
    assert bids.any() and (~np.isnan(every["values"][bids & choice])).any(axis=1).all()  # searched
    plays = (every["phase"] == PLAYING) & choice
    assert (~np.isnan(every["values"][plays])).any(axis=1).all()
    discards = every["phase"] == DISCARD
    assert discards.any() and np.isnan(every["values"][discards]).all()  # the fallback's: no values
    searched = ~np.isnan(every["values"])
    assert not (searched & ~every["mask"]).any()  # values only for legal actions


def test_labels_of_a_shard_unpack_to_the_observation(tmp_path: Path) -> None:
    _label(tmp_path, decisions=1)
    shard = next(read_labels(tmp_path))
    rules = make_rules(str(shard["preset"]), num_players=int(shard["players"]))
    table = Table(rules, 2)
    table.reset(seed=int(shard["deal_seed"]))
    layout = table.observer.layout
    first = unpack_numpy({"observation": shard["obs"][:2], "tail": shard["tail"][:2]}, layout)
    np.testing.assert_array_equal(first, table.observe())
