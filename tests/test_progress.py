"""The tournament's progress: the bar counts deals within a round (a round plays every table to
its end, minutes with a slow agent), with a rate and the time left, and a slow run says once,
before the long part, what it will take; ``--quiet`` stays silent and the numbers do not change."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evaluation import progress
from evaluation.duplicate import Tournament, TournamentConfig, merge_rounds
from evaluation.progress import DealCount, duration
from hearts_cli import main

SLOW_AGENT = '''
import time

from agents import Agent
from agents.base import random_legal


class Slow(Agent):
    """A random player that takes ``pause`` seconds a batch and counts its batches."""

    calls = 0

    def __init__(self, rules, *, pause: float = 0.004) -> None:
        super().__init__(rules)
        self.pause = pause

    def act(self, obs, rng):
        Slow.calls += 1
        time.sleep(self.pause)
        return random_legal(obs["action_mask"], rng)
'''


class RunStoppedError(Exception):
    """Raised by a :class:`CountingBar` told to stop the run at its first line."""


class CountingBar:
    """A bar that keeps every count it is given and every line written through it (and with
    ``stop``, stops the run there: a test need not play a slow tournament to its end)."""

    def __init__(self, stop: bool = False) -> None:
        self.n = 0
        self.counts: list[int] = []
        self.lines: list[str] = []
        self.stop = stop

    def update(self, n: int = 1) -> None:
        self.n += n
        self.counts.append(self.n)

    def write(self, line: str, file: Any = None) -> None:
        self.lines.append(line)
        if self.stop:
            raise RunStoppedError

    def set_description(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def slow_spec(tmp_path: Path) -> str:
    path = tmp_path / "slow_agent.py"
    path.write_text(SLOW_AGENT)
    return f"{path}:Slow"


def test_the_bar_counts_deals_within_a_round(slow_spec: str) -> None:
    config = TournamentConfig(preset="hearts", agents=[slow_spec, "random"], deals=20, tables=20)
    bar = CountingBar()
    Tournament(config, progress=False).run(bar=bar)
    assert config.rounds == 1 and bar.n == 20  # one round, every deal counted once
    within = [n for n in bar.counts if 0 < n < 20]
    assert len(set(within)) >= 10, bar.counts  # the count grew step by step inside the round
    assert bar.counts == sorted(bar.counts)


def test_a_slow_run_says_what_it_will_take_before_the_long_part(
    slow_spec: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(progress, "MEASURE_S", 0.2)  # measure briefly: the test plays one round
    spec = slow_spec + ":label=slowpoke"
    config = TournamentConfig(preset="hearts", agents=[spec, "random"], deals=3000, tables=1)
    bar = CountingBar(stop=True)
    tournament = Tournament(config, progress=True, hint="--deals or --minutes to shorten")
    with pytest.raises(RunStoppedError):
        tournament.run(bar=bar)
    assert bar.n <= 3  # said after the first deals, not at the end
    line = bar.lines[0]
    assert line.startswith("slowpoke: about ") and " ms a decision; " in line, line
    assert "; 3000 deals will take about " in line and line.endswith("; --deals or --minutes to shorten")
    resumed = TournamentConfig(preset="hearts", agents=[spec, "random"], deals=3000, tables=1)
    path = tmp_path / "slow.json"
    Tournament(resumed, json_path=path, progress=False).run(max_rounds=1)
    again = CountingBar()
    Tournament(resumed, json_path=path, progress=True).run(max_rounds=3, bar=again)
    assert again.lines == []  # three deals: nothing to announce, however slow
    rest = CountingBar(stop=True)
    with pytest.raises(RunStoppedError):
        Tournament(resumed, json_path=path, progress=True).run(bar=rest)
    assert "; the 2996 deals left of 3000 will take about " in rest.lines[0], rest.lines


def test_a_time_limit_shorter_than_the_estimate_is_said_instead_of_the_hint(
    slow_spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "MEASURE_S", 0.2)
    config = TournamentConfig(preset="hearts", agents=[slow_spec, "random"], deals=3000, tables=1)
    bar = CountingBar(stop=True)
    with pytest.raises(RunStoppedError):
        Tournament(config, hint="--deals to shorten").run(time_limit_s=90, bar=bar)
    assert bar.lines[0].endswith("; this run stops after 2 min (the same command resumes)"), bar.lines


def test_a_fast_or_quiet_run_says_nothing(slow_spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bar = CountingBar()
    config = TournamentConfig(preset="hearts", agents=["random", "lowest"], deals=400, tables=100)
    Tournament(config, progress=True).run(bar=bar)
    assert bar.lines == [] and bar.n == 400
    monkeypatch.setattr(progress, "MEASURE_S", 0.0)
    slow = TournamentConfig(preset="hearts", agents=[slow_spec, "random"], deals=3000, tables=1)
    quiet = CountingBar()
    Tournament(slow, progress=False).run(time_limit_s=0.5, bar=quiet)
    assert quiet.lines == [] and 0 < quiet.n < 3000


def test_the_bar_text_has_the_rate_and_the_time_left(
    slow_spec: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("tqdm")
    monkeypatch.setattr(progress, "MEASURE_S", 0.0)
    assert main(["tournament", "--agents", f"{slow_spec},random", "--deals", "3000", "--tables", "1",
                 "--minutes", "0.001"]) == 0  # fmt: skip
    err = capsys.readouterr().err
    assert "deal/s" in err and "<" in err, err  # tqdm's [elapsed<left, rate]
    assert "ms a decision; 3000 deals will take about " in err, err
    assert main(["tournament", "--agents", "random,lowest", "--deals", "8", "--tables", "4", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_the_results_do_not_depend_on_the_bar(tmp_path: Path) -> None:
    config = dict(preset="black_maria", agents=["random", "lowest"], deals=12, tables=4, seed=3)
    counted = Tournament(TournamentConfig(**config), progress=True).run(bar=CountingBar())
    plain = Tournament(TournamentConfig(**config), progress=False).run()
    assert counted["agents"] == plain["agents"] and counted["pairs"] == plain["pairs"]
    assert json.dumps(counted["progress"]["per_deal"]) == json.dumps(plain["progress"]["per_deal"])


def test_a_resumed_run_counts_from_the_deals_saved(tmp_path: Path) -> None:
    config = TournamentConfig(preset="hearts", agents=["random", "lowest"], deals=12, tables=4)
    path = tmp_path / "t.json"
    Tournament(config, json_path=path, progress=False).run(max_rounds=1)
    bar = CountingBar()
    Tournament(config, json_path=path, progress=False).run(bar=bar)
    assert bar.counts[0] == 4 and bar.n == 12  # the saved round first, then the rest


def test_merged_rounds_keep_the_longest_part() -> None:
    part = {"illegal": np.zeros(2, np.int64), "deal_points": np.zeros((1, 4)), "steps": np.array(52)}
    merged = merge_rounds([part, {**part, "steps": np.array(55)}])
    assert int(merged["steps"]) == 55 and merged["deal_points"].shape == (2, 4)


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.2, "1 s"), (40, "40 s"), (61, "1 min"), (719, "12 min"), (7800, "2 h 10 min"),
                          (7200, "2 h")],
)  # fmt: skip
def test_durations_read_as_people_say_them(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_the_count_never_passes_the_round_before_it_is_scored() -> None:
    bar = CountingBar()
    count = DealCount(tables=10, deal_steps=5, todo_deals=20, planned_deals=20, names=["a"], announce=False)
    count.start(bar)
    zero = np.zeros(1)
    for steps in range(1, 9):  # a round longer than expected
        count.step(steps, zero, zero)
    assert bar.n == 9
    count.round_done(8, zero, zero)
    assert bar.n == 10 and count.deal_steps == 8  # the next round expects the steps this one took
    count.step(4, zero, zero)
    assert bar.n == 15


def test_the_leaderboard_counts_the_deals_of_its_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from evaluation import leaderboard

    bars: list[tuple[CountingBar, dict[str, Any]]] = []

    def counting_bar(**kwargs: Any) -> CountingBar:
        bars.append((CountingBar(), kwargs))
        return bars[-1][0]

    monkeypatch.setattr(leaderboard, "progress_bar", counting_bar)
    leaderboard.run(["lowest", "random"], ["hearts"], deals=10, tables=4, directory=tmp_path)
    (bar, kwargs), *_ = bars
    assert kwargs["unit"] == "deal" and kwargs["total"] == 2 * 12  # 3 rounds of 4 tables a cell
    assert bar.n == 24 and len(set(bar.counts)) > 6  # per round and within rounds, not per cell


def test_without_tqdm_a_leaderboard_plays_without_a_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # not installed
    bar = progress.progress_bar(total=3)
    bar.set_description("hearts")  # what the leaderboard calls on every cell
    bar.update(1)
    bar.close()
