"""What a run and ``make run`` (:mod:`training.demo`) say as they go and when they end: the demo keeps
an earlier demo and names every file it writes and the commands that go on; the summary's
evaluation command works after a resume; the progress bar has a total; a run whose budget is known
evaluates often enough to draw a curve."""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("torch")

from hearts_cli import main as hearts_env  # noqa: E402
from training.config import evaluation_due, evaluation_step  # noqa: E402
from training.logs import Logs  # noqa: E402
from training.ppo import Args, train  # noqa: E402

TINY = Args(
    num_games=16, rollout_steps=64, hidden=(16,), minibatch_size=256, update_epochs=1, eval_deals=4,
    eval_every=0, checkpoint_every=1, pool_every=1, opponents=("ducker",), eval_opponents=("random",),
    progress=False, tensorboard=False, minutes=5.0, imitation_decisions=0,
)  # fmt: skip
"""One iteration = 1,024 decisions: 16 games x 64 steps."""


def command_after(out: str, heading: str) -> list[str]:
    """The command printed on the line after the one starting with ``heading``, as argv."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(heading))
    return shlex.split(lines[at + 1])


def test_the_demo_keeps_an_earlier_demo_and_names_its_files_and_the_commands_that_go_on(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    import training.demo

    run = tmp_path / "demo"
    run.mkdir()
    (run / "policy.pt").write_text("the earlier demo's")
    (tmp_path / "demo-1").mkdir()  # taken: the earlier demo goes to demo-2
    monkeypatch.setattr(
        training.demo, "Args", lambda **given: replace(TINY, **given, eval_every=None, total_decisions=3072)
    )
    assert training.demo.main(["--run-dir", str(run), "--deals", "4", "--minutes", "5"]) == 0
    out = capsys.readouterr().out
    assert f"the earlier demo in {run} is kept: moved to {tmp_path / 'demo-2'}" in out
    assert (tmp_path / "demo-2" / "policy.pt").read_text() == "the earlier demo's"
    assert not (run / ".lock").exists() and not any((tmp_path / "demo-2").glob(".lock"))

    written = out[out.index("written:") : out.index("evaluate the fresh policy")].splitlines()[1:]
    files = {line.split()[-1] for line in written}
    names = ("checkpoint.pt", "policy.pt", "train.csv", "eval.csv", "learning_curve.png", "summary.json",
             "tournament.json", "tournament.csv", "tournament_pairs.csv", "tournament.png")  # fmt: skip
    assert files == {str(run / name) for name in names}
    assert all(Path(path).exists() for path in files)

    evaluate = command_after(out, "evaluate the fresh policy")
    assert evaluate[:2] == ["hearts-env", "tournament"]
    assert hearts_env([*evaluate[1:], "--quiet"]) == 0
    resume = command_after(out, "continue its training")
    assert resume[:2] == ["hearts-env", "train"] and "--resume" in resume and str(run) in resume


def test_the_summary_s_evaluation_command_works_after_a_resume(tmp_path: Path, capsys) -> None:
    """Each summary names a results file of its own policy: the first run's tournament, played,
    does not stand in the way of the resumed run's (played with other weights: refused)."""
    from training.summary import summary_text

    args = replace(TINY, run_dir=str(tmp_path), total_decisions=1024)
    first = train(args)
    second_args = replace(args, resume=True, total_decisions=2048)
    commands = []
    for summary in (first, None):
        if summary is None:
            summary = train(second_args)
        print(summary_text(summary))
        command = command_after(capsys.readouterr().out, "evaluate the policy")
        commands.append(command)
        assert hearts_env([*command[1:], "--quiet"]) == 0, command
    paths = [command[command.index("--json") + 1] for command in commands]
    assert paths == [
        str(tmp_path / "policy-1024-vs-random.json"),
        str(tmp_path / "policy-2048-vs-random.json"),
    ]


def test_a_run_whose_budget_is_known_evaluates_at_each_fifth_of_it(tmp_path: Path) -> None:
    summary = train(replace(TINY, run_dir=str(tmp_path), eval_every=None, total_decisions=5 * 1024))
    assert summary["iterations"] == 5
    import csv

    with (tmp_path / "eval.csv").open() as f:
        assert [int(row["decisions"]) for row in csv.DictReader(f)] == [1024, 2048, 3072, 4096, 5120]


def test_the_default_schedule_spreads_five_evaluations_over_either_budget() -> None:
    auto = replace(TINY, eval_every=None, minutes=10.0)
    assert evaluation_step(replace(auto, total_decisions=1000)) == 200
    assert evaluation_step(replace(auto, total_decisions=10**9)) == 10_000_000  # at most 10M apart
    assert evaluation_step(auto) == 10_000_000
    assert not evaluation_due(auto, decisions=10, next_eval=10**7, elapsed_s=119.0, evaluated=0)
    assert evaluation_due(auto, decisions=10, next_eval=10**7, elapsed_s=120.0, evaluated=0)  # a fifth
    assert not evaluation_due(auto, decisions=10, next_eval=10**7, elapsed_s=200.0, evaluated=1)
    assert evaluation_due(auto, decisions=10**7, next_eval=10**7, elapsed_s=1.0, evaluated=0)
    explicit = replace(auto, eval_every=100)  # an explicit schedule is followed as given
    assert not evaluation_due(explicit, decisions=99, next_eval=100, elapsed_s=599.0, evaluated=0)
    assert evaluation_due(explicit, decisions=100, next_eval=100, elapsed_s=0.0, evaluated=0)
    assert not evaluation_due(replace(auto, eval_every=0), decisions=10**9, next_eval=0, elapsed_s=599.0,
                              evaluated=0)  # fmt: skip


def test_the_progress_bar_has_a_total_and_an_eta_for_either_budget(tmp_path: Path, capsys) -> None:
    """At 1,000 decisions in 6 s of a 1-minute budget, 54 s are left: 9 more iterations at that
    rate (8 where 6 s are kept for the final evaluation); a decision budget caps it."""
    logs = Logs(tmp_path, replace(TINY, minutes=1.0, progress=True), 0, 0)
    logs.advance(1000, 6.0)
    assert logs.bar.total == 10_000
    logs.advance(1000, 12.0, reserve_s=6.0)  # 2,000 in 12 s; 42 s left
    assert logs.bar.total == 2000 + 7000
    logs.close()
    assert "<" in capsys.readouterr().err  # tqdm's elapsed<left
    capped = Logs(tmp_path, replace(TINY, minutes=1.0, total_decisions=5000, progress=True), 0, 0)
    capped.advance(1000, 6.0)
    assert capped.bar.total == 5000
    capped.advance(4000, 60.0)  # the time is spent: the bar ends full
    assert capped.bar.total == capped.bar.n == 5000
    capped.close()
