"""Nothing lost: tournaments and leaderboards killed, stopped or raced at the moments they write,
hand-edited files refused and kept, agents that cannot be built refused in one line, and
``hearts-env play`` seating any agent the tournaments seat (issue 41)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import evaluation.record
from evaluation.duplicate import Tournament, TournamentConfig
from hearts_cli import main

ROOT = Path(__file__).resolve().parent.parent

AGENTS = '''
import numpy as np


class Duck:
    """Plays the highest legal action; subclasses nothing (the duck-typed contract)."""

    def __init__(self, rules):
        self.rules = rules

    def act(self, obs, rng):
        return np.array([int(np.flatnonzero(row)[-1]) for row in obs["action_mask"]])


class Broken:
    """Its constructor fails with an error of its own."""

    def __init__(self, rules):
        raise RuntimeError("no table for me")

    def act(self, obs, rng):
        return np.zeros(len(obs["action_mask"]), np.int64)
'''


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agents.py"
    path.write_text(AGENTS)
    return path


def hearts_env(*args: str, **kwargs) -> subprocess.Popen:
    """A ``hearts-env`` process of this checkout (its stdout dropped)."""
    return subprocess.Popen(
        [sys.executable, "-m", "hearts_cli", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, **kwargs,
    )  # fmt: skip


def wait_for(ready, process: subprocess.Popen, what: str, timeout: float = 30.0) -> None:
    """Poll until ``ready()``; fail if ``process`` ends first or it takes too long."""
    end = time.monotonic() + timeout
    while not ready():
        assert process.poll() is None, f"the process ended before {what}: {process.stderr.read()}"
        assert time.monotonic() < end, f"no {what} after {timeout} s"
        time.sleep(0.02)


def rounds_saved(path: Path) -> int:
    try:
        return json.loads(path.read_text())["progress"]["rounds_done"]
    except (OSError, ValueError):
        return 0


TINY = ["tournament", "--agents", "random,lowest", "--tables", "1", "--seed", "3", "--quiet"]
"""A tournament of one table: one round a deal, each saved as it ends."""


def numbers(path: Path) -> tuple:
    """What a tournament record says about the agents (not its timings or runs)."""
    progress = json.loads(path.read_text())["progress"]
    return progress["rounds_done"], progress["per_deal"], progress["counters"], progress["table_state"]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_tournament_killed_mid_run_resumes_to_the_numbers_of_an_unbroken_run(tmp_path, sig):
    deals = 40
    whole = tmp_path / "whole.json"
    Tournament(
        TournamentConfig(agents=["random", "lowest"], deals=deals, tables=1, seed=3), whole, False
    ).run()
    path = tmp_path / "t.json"
    process = hearts_env(*TINY, "--deals", str(deals), "--json", str(path))
    wait_for(lambda: rounds_saved(path) >= 2, process, "two rounds saved")
    process.send_signal(sig)
    _, err = process.communicate(timeout=30)
    assert rounds_saved(path) < deals, "the run ended before the signal: make it longer"
    if sig == signal.SIGKILL:  # its lock stays behind, naming it: the next run takes it over
        assert process.returncode == -signal.SIGKILL
        assert (tmp_path / "t.json.lock").read_text().split()[0] == str(process.pid)
    else:  # one line saying what the record keeps, exit 128 + signal
        assert process.returncode == 128 + sig, err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert f"interrupted ({sig.name})" in err and "the same command resumes" in err, err
        assert f"keeps {rounds_saved(path)} of {deals} rounds" in err, err
        assert not list(tmp_path.glob(".*partial")) and not list(tmp_path.glob("*.lock"))
    again = subprocess.run(
        [sys.executable, "-m", "hearts_cli", *TINY, "--deals", str(deals), "--json", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert numbers(path) == numbers(whole)
    assert len(json.loads(path.read_text())["runs"]) == 2
    assert not list(tmp_path.glob("*.lock"))  # a killed run's lock taken over, then given up


def test_a_record_write_stopped_half_way_leaves_the_previous_record_and_resumes(tmp_path, monkeypatch):
    config = TournamentConfig(agents=["random", "lowest"], deals=6, tables=1, seed=3)
    whole = tmp_path / "whole.json"
    Tournament(config, whole, False).run()
    path = tmp_path / "t.json"
    real, saves = evaluation.record.write_atomic, []

    def stopped_at_the_third(target, content):
        saves.append(target)
        if len(saves) == 3:  # half the file on disk, then Ctrl-C before the rename

            def half(tmp: Path) -> None:
                tmp.write_text(content[:100])
                raise KeyboardInterrupt

            return real(target, half)
        return real(target, content)

    monkeypatch.setattr(evaluation.record, "write_atomic", stopped_at_the_third)
    before = None
    with pytest.raises(KeyboardInterrupt):
        tournament = Tournament(config, path, False)
        tournament.run(max_rounds=2)
        before = path.read_bytes()
        tournament.run()
    assert path.read_bytes() == before and rounds_saved(path) == 2 == tournament.saved_rounds
    assert not list(tmp_path.glob(".*partial"))
    monkeypatch.setattr(evaluation.record, "write_atomic", real)
    Tournament(config, path, False).run()
    assert numbers(path) == numbers(whole)


def test_a_second_tournament_on_the_same_json_is_refused_naming_the_first(tmp_path):
    path = tmp_path / "t.json"
    first = hearts_env(*TINY, "--deals", "100000", "--json", str(path))
    try:
        wait_for(lambda: rounds_saved(path) >= 1, first, "a round saved")
        second = subprocess.run(
            [sys.executable, "-m", "hearts_cli", *TINY, "--deals", "8", "--seed", "4", "--json", str(path)],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1 and f"process {first.pid}" in second.stderr, second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=30)
    assert first.returncode == 143, err
    saved = json.loads(path.read_text())
    assert saved["config"]["deals"] == 100000 and saved["config"]["seed"] == 3  # the first one's, whole


def small_board(tmp_path: Path) -> list[str]:
    """A leaderboard command of one cell, and the JSON it wrote."""
    args = ["leaderboard", "--agents", "random", "--presets", "hearts", "--deals", "4", "--tables", "4",
            "--dir", str(tmp_path / "cells"), "--json", str(tmp_path / "board.json"), "--png",
            str(tmp_path / "board.png"), "--quiet"]  # fmt: skip
    assert main(args) == 0
    return args


EDITS = {
    "verdict": lambda b: next(c for c in b["cells"] if "diff" in c).update(verdict="better"),
    "diff as text": lambda b: next(c for c in b["cells"] if "diff" in c).update(diff="11.5"),
    "unknown entry": lambda b: b.update(notes="mine"),
    "cell twice": lambda b: b["cells"].append(dict(b["cells"][0])),
    "unknown agent": lambda b: b["cells"][0].update(agent="someone"),
}


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_a_hand_edited_leaderboard_json_is_refused_and_kept(tmp_path, capsys, edit):
    args = small_board(tmp_path)
    path = tmp_path / "board.json"
    board = json.loads(path.read_text())
    EDITS[edit](board)
    path.write_text(json.dumps(board, indent=2))
    before = path.read_bytes()
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a leaderboard this command wrote" in err, err
    assert path.read_bytes() == before


def test_a_stopped_leaderboard_says_what_it_keeps_and_the_same_command_completes(tmp_path):
    cells, board_json = str(tmp_path / "cells"), str(tmp_path / "board.json")
    args = ["leaderboard", "--agents", "lowest,random", "--presets", "hearts", "--deals", "24", "--tables",
            "1", "--dir", cells, "--json", board_json, "--quiet"]  # fmt: skip
    process = hearts_env(*args)
    first_cell = tmp_path / "cells" / "lowest__hearts-4p.json"
    wait_for(lambda: rounds_saved(first_cell) >= 1, process, "a round of the first cell")
    racer = subprocess.run(
        [sys.executable, "-m", "hearts_cli", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert racer.returncode == 2 and f"process {process.pid}" in racer.stderr, racer.stderr
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert err.count("\n") == 1 and "interrupted (SIGINT)" in err and "the same command resumes" in err, err
    assert main(args) == 0
    board = json.loads((tmp_path / "board.json").read_text())
    assert [c["agent"] for c in board["cells"] if "diff" in c] == ["lowest", "random"]


def test_an_agent_that_cannot_be_built_is_an_error_not_an_empty_leaderboard_cell(tmp_path, capsys):
    args = ["leaderboard", "--agents", "pimc:worlds=0", "--presets", "hearts", "--deals", "4",
            "--dir", str(tmp_path), "--json", str(tmp_path / "board.json"), "--quiet"]  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "worlds" in err, err
    assert not (tmp_path / "board.json").exists()


COMMANDS = {
    "tournament": ["tournament", "--deals", "4", "--quiet", "--agents", "{spec},random"],
    "leaderboard": ["leaderboard", "--presets", "hearts", "--deals", "4", "--quiet", "--agents", "{spec}"],
    "play": ["play", "--seed", "1", "--opponents", "{spec}"],
}


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_an_agent_whose_constructor_raises_is_one_line_exit_2(tmp_path, capsys, agent_file, command):
    args = [a.replace("{spec}", f"{agent_file}:Broken") for a in COMMANDS[command]]
    if command == "leaderboard":
        args += ["--dir", str(tmp_path), "--json", str(tmp_path / "board.json")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no table for me" in err, err


def test_play_seats_an_agent_that_only_has_act(agent_file):
    from hearts_cli.play import Game

    shown: list[str] = []
    answers = iter(["1", "2", "3"])  # the three cards passed (each keeps its number), then card 1

    def read(_: str) -> str:
        return next(answers, "1")

    game = Game("hearts", 0, [f"{agent_file}:Duck"], None, {}, 1, 1, False, read=read, write=shown.append)
    assert game.run() == 0
    assert "Thanks for playing." in shown[-1]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_play_stopped_is_one_line_and_128_plus_the_signal(monkeypatch, capsys, sig):
    from evaluation.flags import Interrupted
    from hearts_cli.play.game import Game

    def stopped(self):
        raise Interrupted(sig)

    monkeypatch.setattr(Game, "run", stopped)
    assert main(["play", "--seed", "1"]) == 128 + sig
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"interrupted ({sig.name})" in err, err


def test_the_outputs_of_a_tournament_are_written_through_a_temporary_file(tmp_path, monkeypatch):
    import hearts_env.files

    replaced: list[str] = []
    real = os.replace

    def replace(src, dst):
        replaced.append(Path(dst).name)
        return real(src, dst)

    monkeypatch.setattr(hearts_env.files.os, "replace", replace)
    path = tmp_path / "t.json"
    assert main([*TINY, "--deals", "2", "--json", str(path)]) == 0
    written = {"t.json", "t.csv", "t_pairs.csv", "t.png"}
    assert written <= set(replaced) and {p.name for p in tmp_path.iterdir()} == written
