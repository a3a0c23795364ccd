"""Files saved in the formats of December 2026 still load and go on where they stopped.

The samples in ``tests/data/formats_2026_12/`` were written once by the code of their commit (its
``make_samples.py`` says how) and are never rewritten: a change that cannot read them needs an
upgrade path, not new samples. ``expected.json`` holds what they gave when they were written.
Only the public API and the ``hearts-env`` command are used, so the files are read the way users
read them: table states (``Table.load_state_dict``), policies (``agents.make("ppo", ...)``),
training checkpoints (``hearts-env train --resume``), tournament records (``hearts-env
tournament --json``) and leaderboards (``evaluation.leaderboard.read``).
"""

from __future__ import annotations

import csv
import hashlib
import inspect
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents import make  # noqa: E402
from evaluation.leaderboard import markdown, read  # noqa: E402
from hearts_cli import main  # noqa: E402
from hearts_env import Table, make_rules  # noqa: E402
from training.checkpoint import unpack_table  # noqa: E402

SAMPLES = Path(__file__).parent / "data" / "formats_2026_12"
EXPECTED = json.loads((SAMPLES / "expected.json").read_text(encoding="utf-8"))
ENV_SETTINGS = ("episode", "illegal_action")
"""Options that were rules when the samples were written and are env settings of the Table since."""


def digest(array: np.ndarray) -> str:
    """The digest ``make_samples.py`` recorded: the array's bytes, hashed."""
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def played(table: Table, steps: int, seed: int) -> None:
    """Random legal actions for ``steps`` steps, drawn as ``make_samples.py`` drew them."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        table.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in table.action_mask()]))


def table_of(preset: str, options: dict[str, Any], num_games: int) -> Table:
    """A fresh Table of the sample's rules. ``episode`` (and ``illegal_action``) were rule options
    when the samples were written and move to the Table as env settings: they go to the Table
    where it takes them and to ``make_rules`` where it does not, so the same sample checks the code
    before and after the move."""
    options = dict(options)
    settings: dict[str, Any] = {}
    if set(ENV_SETTINGS) & set(inspect.signature(Table).parameters):
        settings = {name: options.pop(name) for name in ENV_SETTINGS if name in options}
    return Table(make_rules(preset, **options), num_games=num_games, **settings)


@pytest.mark.parametrize("name", sorted(EXPECTED["states"]))
def test_a_saved_table_state_loads_and_plays_on_to_the_recorded_observations(name: str) -> None:
    expected = EXPECTED["states"][name]
    table = table_of(expected["preset"], expected["options"], num_games=3)
    saved = torch.load(SAMPLES / f"state_{name}.pt", weights_only=True)
    table.load_state_dict(unpack_table(saved, name), source=f"state_{name}.pt")
    assert digest(table.observe()) == expected["observation"]
    assert digest(table.action_mask()) == expected["mask"]
    played(table, 6, 11)
    assert digest(table.observe()) == expected["after"]
    assert table.totals.tolist() == expected["totals"]
    # The episode the state was saved with is kept through the upgrade: another one is refused.
    other = "deal" if expected["options"].get("episode") == "game" else "game"
    elsewhere = table_of(expected["preset"], {**expected["options"], "episode": other}, num_games=3)
    with pytest.raises(ValueError, match="not a usable table state"):
        elsewhere.load_state_dict(unpack_table(saved, name), source=f"state_{name}.pt")


@pytest.mark.parametrize("family", ["hearts", "smear"])
def test_a_saved_policy_plays_the_recorded_actions(family: str) -> None:
    expected = EXPECTED[f"policy_{family}"]
    table = Table(make_rules(expected["preset"]), num_games=4)
    table.reset(seed=5)
    agent = make("ppo", expected["preset"], checkpoint=SAMPLES / f"policy_{family}.pt")
    observation = {"observation": table.observe(), "action_mask": table.action_mask()}
    assert agent.act(observation, np.random.default_rng(0)).tolist() == expected["actions"]


# family: (preset, decisions and iterations in the saved checkpoint); the flags are make_samples.py's.
CHECKPOINTS = {"hearts": ("hearts", 3072, 24), "smear": ("smear_partnership", 2048, 16)}
DECISIONS_PER_ITERATION = 8 * 16  # --num-games 8 --rollout-steps 16


@pytest.mark.parametrize("family", sorted(CHECKPOINTS))
def test_a_saved_training_checkpoint_resumes_from_its_decision_count(
    family: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preset, decisions, iterations = CHECKPOINTS[family]
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(SAMPLES / f"checkpoint_{family}.pt", run / "checkpoint.pt")
    total = decisions + 2 * DECISIONS_PER_ITERATION
    argv = ["train", "--preset", preset, "--total-decisions", str(total), "--num-games", "8",
            "--rollout-steps", "16", "--hidden", "8,8", "--imitation-decisions", "0", "--eval-every", "0",
            "--run-dir", str(run), "--seed", "3", "--resume", "--eval-deals", "4", "--no-progress",
            "--no-tensorboard"]  # fmt: skip
    assert main(argv) == 0, capsys.readouterr().err
    with (run / "train.csv").open(encoding="utf-8") as file:
        rows = [(int(row["iteration"]), int(row["decisions"])) for row in csv.DictReader(file)]
    # Only the two new iterations are logged, counted on from the checkpoint's.
    assert rows == [(iterations + k, decisions + k * DECISIONS_PER_ITERATION) for k in (1, 2)]
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    assert (summary["decisions"], summary["iterations"]) == (total, iterations + 2)


# family: (the tournament's command, as make_samples.py ran it, without --json; its policy's folder)
TOURNAMENTS = {
    "hearts": ("--preset hearts --agents ppo:checkpoint=run_h/policy.pt,strategy,random,strategy", "run_h"),
    "smear": (
        "--preset smear_partnership --agents ppo:checkpoint=run_s/policy.pt,smear,smear,random",
        "run_s",
    ),
}


@pytest.mark.parametrize("family", sorted(TOURNAMENTS))
@pytest.mark.parametrize("players", [[], ["--players", "4"]], ids=["as-run", "players-spelled-out"])
def test_a_saved_tournament_record_resumes_with_nothing_replayed(
    family: str,
    players: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same command finds the record complete; with the preset's player count spelled out
    (another configuration) it is the same tournament by the record's saved rules."""
    command, folder = TOURNAMENTS[family]
    # The record names its policy by the relative path it was played with.
    monkeypatch.chdir(tmp_path)
    (tmp_path / folder).mkdir()
    shutil.copy(SAMPLES / f"policy_{family}.pt", tmp_path / folder / "policy.pt")
    record = tmp_path / "tournament.json"
    shutil.copy(SAMPLES / f"tournament_{family}.json", record)
    argv = ["tournament", *command.split(), *players, "--deals", "8", "--seed", "4", "--json", str(record)]
    assert main(argv) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "already complete: 8 deals; nothing to play" in out
    assert record.read_bytes() == (SAMPLES / f"tournament_{family}.json").read_bytes()
    saved = json.loads(record.read_text(encoding="utf-8"))
    for row in saved["agents"]:  # the report printed is the record's
        assert f"{row['mean_points']:.3f}" in out


def test_a_saved_leaderboard_reads_and_renders_its_markdown() -> None:
    board = read(SAMPLES / "leaderboard.json")
    text = markdown(board)
    assert "| hearts | 4 | +7.83 ± 8.12 | +6.83 ± 4.66 |" in text
    assert "| smear_widow | 4 | -13.62 ± 6.66 | -2.00 ± 4.54 |" in text
    assert "| random | 2 | 0 | 1 | 1 |" in text
