"""Command lines refuse bad input in one line (exit status 2), and the Python API refuses the same."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

import agents
from benchmarks.cli import main

torch = pytest.importorskip("torch")

from training import ppo  # noqa: E402
from training.ppo import Args, train  # noqa: E402

TINY = Args(
    num_games=8, rollout_steps=64, hidden=(8,), minibatch_size=128, update_epochs=1, eval_deals=4,
    eval_every=0, checkpoint_every=1, opponents=("ducker",), eval_opponents=("random",), progress=False,
    tensorboard=False, total_decisions=512, imitation_decisions=0,
)  # fmt: skip


def one_line_error(capsys: pytest.CaptureFixture[str], prog: str) -> str:
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"{prog}: error: ") and "Traceback" not in err + captured.out
    return err


TRAIN_FLAGS = [
    (["--rollout-steps", "0"], "--rollout-steps: must be a positive integer, got '0'"),
    (["--minibatch-size", "0"], "--minibatch-size: must be a positive integer, got '0'"),
    (["--num-games", "0"], "--num-games: must be a positive integer, got '0'"),
    (["--num-games", "2.5"], "--num-games: must be a positive integer, got '2.5'"),
    (["--hidden", ","], "--hidden: needs at least one layer width, got ','"),
    (["--hidden", "0"], "--hidden: must be a positive integer, got '0'"),
    (["--hidden", "64,x"], "--hidden: must be a positive integer, got 'x'"),
    (["--minutes", "-1"], "--minutes: must be a positive number of minutes"),
    (["--minutes", "nan"], "--minutes: must be a positive number of minutes"),
    (["--eval-deals", "0"], "--eval-deals: must be a positive integer, got '0'"),
    (["--learning-rate", "-1"], "--learning-rate: must be a positive number, got '-1'"),
    (["--self-play", "2"], "--self-play: must be a number from 0 to 1, got '2'"),
    (["--gamma", "1.5"], "--gamma: must be a number from 0 to 1, got '1.5'"),
    (["--seed", "-3"], "--seed: must be a non-negative integer, got '-3'"),
    (["--total-decisions", "-1"], "--total-decisions: must be a non-negative integer, got '-1'"),
    (["--checkpoint-every", "0"], "--checkpoint-every: must be a positive integer, got '0'"),
    (["--num-players", "0"], "--num-players: must be a positive integer, got '0'"),
    (["--reward", "chips"], "--reward: invalid choice: 'chips'"),
    (["--opponents", "nobody"], "--opponents: unknown agent 'nobody'"),
    (["--eval-opponents", "strategy:depth"], "--eval-opponents: agent spec 'strategy:depth'"),
    (["--option", "moon"], "--option: write a rule option as KEY=VALUE"),
    (["--option", "card_points={bad"], "--option: option card_points: '{bad' is not valid JSON"),
]


@pytest.mark.parametrize(("flags", "message"), TRAIN_FLAGS)
def test_bad_training_flags_are_one_line(flags, message, tmp_path, capsys) -> None:
    argv = [*flags, "--run-dir", str(tmp_path / "run")]
    assert ppo.main(argv) == 2
    assert message in one_line_error(capsys, "python -m training.ppo")
    assert main(["train", *argv]) == 2
    assert message in one_line_error(capsys, "hearts-env train")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--deals", "-4"], "--deals: must be a positive integer, got '-4'"),
        (["--deals", "0"], "--deals: must be a positive integer, got '0'"),
        (["--tables", "-1"], "--tables: must be a positive integer, got '-1'"),
        (["--players", "0"], "--players: must be a positive integer, got '0'"),
        (["--seed", "x"], "--seed: must be a non-negative integer, got 'x'"),
        (["--minutes", "-1"], "--minutes: must be a non-negative number, got '-1'"),
        (["--agents", ","], "--agents: needs at least one agent spec, got ','"),
        (["--agents", "strategy,nobody"], "--agents: unknown agent 'nobody'"),
        (["--option", "=3"], "--option: write a rule option as KEY=VALUE (e.g. moon=new), got '=3'"),
    ],
)
def test_bad_tournament_flags_are_one_line(flags, message, capsys) -> None:
    assert main(["tournament", *flags]) == 2
    assert message in one_line_error(capsys, "hearts-env tournament")


def test_bad_commands_and_bench_flags_are_one_line(capsys) -> None:
    assert main(["bench", "--seconds", "0"]) == 2
    assert "--seconds: must be a positive number, got '0'" in one_line_error(capsys, "hearts-env bench")
    assert main(["juggle"]) == 2
    assert "invalid choice: 'juggle'" in one_line_error(capsys, "hearts-env")


TOURNAMENT = ["tournament", "--deals", "4", "--tables", "2", "--quiet"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([*TOURNAMENT, "--option", "nonsense=1"], "unknown option(s) ['nonsense'] for hearts"),
        ([*TOURNAMENT, "--preset", "bridge"], "unknown preset 'bridge'"),
        ([*TOURNAMENT, "--players", "9"], "hearts is for 3-6 players, got num_players=9"),
        (["train", "--preset", "bridge"], "unknown preset 'bridge'"),
        (["train", "--option", "pass_count=2.5"], "pass_count must be an int, got float 2.5"),
    ],
)
def test_errors_while_running_are_one_line_and_debug_keeps_the_traceback(argv, message, tmp_path, capsys):
    if argv[0] == "train":
        argv = [*argv, "--run-dir", str(tmp_path / "run")]
    assert main(argv) == 2
    assert message in one_line_error(capsys, "hearts-env")
    for debug in ([argv[0], "--debug", *argv[1:]], ["--debug", *argv]):
        with pytest.raises((ValueError, TypeError), match=re.escape(message)):
            main(debug)


def test_an_unreadable_resume_file_is_one_line(tmp_path, capsys) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "checkpoint.pt").write_bytes(b"")
    assert main(["train", "--run-dir", str(tmp_path / "run"), "--resume"]) == 2
    assert "checkpoint.pt is empty, not a training checkpoint" in one_line_error(capsys, "hearts-env")
    json_path = tmp_path / "t.json"
    json_path.write_text('{"config": ')
    assert main([*TOURNAMENT, "--json", str(json_path)]) == 2
    assert f"{json_path} is not a usable tournament record" in one_line_error(capsys, "hearts-env")


# ---------------------------------------------------------------------- one option parser
def test_every_command_reads_options_alike() -> None:
    assert agents.parse_option("pass_directions=left,right") == ("pass_directions", ["left", "right"])
    assert agents.parse_option('card_points={"JD": -10}') == ("card_points", {"JD": -10})
    assert agents.parse_option("pass_count=3") == ("pass_count", 3)
    assert agents.parse_option("queen_needs_break=true") == ("queen_needs_break", True)
    assert agents.parse_option(" moon = new ") == ("moon", "new")
    for bad in ("moon", "=new", "card_points=[1,"):
        with pytest.raises(ValueError, match="KEY=VALUE|not valid JSON"):
            agents.parse_option(bad)
    parser = ppo.add_arguments(ppo.ArgumentParser(prog="t"))
    args = ppo.args_from(parser.parse_args(["--option", "pass_directions=left,right"]))
    assert args.options == {"pass_directions": ["left", "right"]}


def test_train_takes_a_list_option(tmp_path) -> None:
    args = replace(TINY, run_dir=str(tmp_path), options={"pass_directions": ["left", "right"]})
    assert train(args)["iterations"] == 1
    argv = ppo.to_argv(args)
    assert '--option pass_directions=["left", "right"]' in argv


# ---------------------------------------------------------------------- the Python API
@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"rollout_steps": 0}, ValueError, "rollout_steps must be a positive integer, got 0"),
        ({"minibatch_size": 0}, ValueError, "minibatch_size must be a positive integer, got 0"),
        ({"num_games": True}, TypeError, "num_games must be a positive integer, got bool True"),
        ({"num_games": 2.5}, TypeError, "num_games must be a positive integer, got float 2.5"),
        ({"hidden": ()}, ValueError, "hidden must be one or more layer widths"),
        ({"hidden": (0,)}, ValueError, "hidden layer width must be a positive integer, got 0"),
        ({"minutes": -1.0}, ValueError, "minutes must be a positive number of minutes"),
        ({"eval_deals": 0}, ValueError, "eval_deals must be a positive integer, got 0"),
        ({"learning_rate": -1.0}, ValueError, "learning_rate must be a positive number, got -1.0"),
        ({"learning_rate": float("nan")}, ValueError, "learning_rate must be a positive number, got nan"),
        ({"self_play": 2.0}, ValueError, "self_play must be a number from 0 to 1, got 2.0"),
        ({"reward": "chips"}, ValueError, "reward must be one of zero_sum, points, got 'chips'"),
        ({"opponents": "strategy"}, TypeError, "opponents must be a tuple of agent specs"),
        ({"eval_opponents": ("nobody",)}, ValueError, "unknown agent 'nobody'"),
        ({"progress": "no"}, TypeError, "progress must be True or False, got 'no'"),
        ({"options": ["moon"]}, TypeError, "options must be a dict"),
        ({"device": "toaster"}, ValueError, "device 'toaster' is not a torch device"),
        ({"num_players": 0}, ValueError, "num_players must be a positive integer, got 0"),
    ],
)
def test_train_refuses_bad_settings_before_writing(change, error, message, tmp_path) -> None:
    with pytest.raises(error, match=re.escape(message)):
        train(replace(TINY, run_dir=str(tmp_path / "run"), **change))
    assert not (tmp_path / "run").exists()


def test_validate_normalises_lists() -> None:
    args = replace(TINY, hidden=[16, 16], opponents=["strategy"]).validate()
    assert args.hidden == (16, 16) and args.opponents == ("strategy",)
