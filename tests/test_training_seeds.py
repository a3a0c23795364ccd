"""tools.training_seeds: how arms are named and how seeds are compared (no training here)."""

from __future__ import annotations

import math

import pytest

from tools.training_seeds import Arm, compare, interval


def test_an_arm_names_its_flags_and_optionally_a_commit() -> None:
    assert Arm.parse("default=") == Arm("default", "", None)
    assert Arm.parse("packed@abc123=--obs-format packed") == Arm("packed", "--obs-format packed", "abc123")
    for bad in ("no-equals-sign", "=--threads 2", "two words=--x", "q='unbalanced"):
        with pytest.raises(ValueError):
            Arm.parse(bad)


def test_the_interval_is_student_t_over_the_seeds() -> None:
    mean, half = interval([1.0, 2.0, 3.0])  # sd 1, n 3: t(0.975, 2) = 4.303
    assert mean == 2.0 and math.isclose(half, 4.303 / math.sqrt(3))
    assert math.isnan(interval([5.0])[1])


def test_arms_are_compared_with_the_first_seed_by_seed() -> None:
    arms = [Arm("a", ""), Arm("b", "--update-epochs 1")]
    diffs = {("a", 1): 1.0, ("a", 2): 3.0, ("b", 1): 1.5, ("b", 2): 3.5}  # b is 0.5 worse each seed
    runs = [{"arm": a, "seed": s, "diff": d, "decisions_per_s": 10.0} for (a, s), d in diffs.items()]
    first, second = compare(runs, arms, [1, 2])
    assert "reference" not in first and first["mean_diff"] == 2.0
    assert second["reference"] == "a" and second["minus_reference"] == 0.5
    assert second["minus_reference_ci95"] == 0.0  # the same gap on every seed: no spread


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--arm", "no-equals-sign"], "an arm is NAME=FLAGS"),
        (["--arm", "a=", "--seeds", "1,two"], "--seeds takes comma-separated integers"),
        (["--arm", "a=", "--arm", "a=--threads 2"], "two arms share a name"),
    ],
)
def test_a_bad_command_line_is_one_error_and_trains_nothing(tmp_path, capsys, argv, message) -> None:
    from tools.training_seeds import main

    with pytest.raises(SystemExit):
        main([*argv, "--run-root", str(tmp_path / "runs")])
    assert message in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()
