"""Command lines and the Python API read options alike and normalise lists; agent lists refuse
empty items; defaults come from the preset's game family. The bad flags, settings and files
(one-line errors, exit status 2) are rows of ``test_bad_inputs.py`` (section "command line")."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

import pytest

import agents
from hearts_cli import main
from training import config
from training.config import Args

TINY = Args(
    num_games=8, rollout_steps=64, hidden=(8,), minibatch_size=128, update_epochs=1, eval_deals=4,
    eval_every=0, checkpoint_every=1, opponents=("ducker",), eval_opponents=("random",), progress=False,
    tensorboard=False, total_decisions=512, imitation_decisions=0,
)  # fmt: skip


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line ``hearts-env ARGV`` refuses with (exit status 2)."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("hearts-env"), err
    return err


# ---------------------------------------------------------------------- one option parser
def test_every_command_reads_options_alike() -> None:
    assert agents.parse_option("pass_directions=left,right") == ("pass_directions", ["left", "right"])
    assert agents.parse_option('card_points={"JD": -10}') == ("card_points", {"JD": -10})
    assert agents.parse_option("pass_count=3") == ("pass_count", 3)
    assert agents.parse_option("queen_needs_break=true") == ("queen_needs_break", True)
    assert agents.parse_option(" moon = new ") == ("moon", "new")
    parser = config.add_arguments(argparse.ArgumentParser(prog="t"))
    args = config.args_from(parser.parse_args(["--option", "pass_directions=left,right"]))
    assert args.options == {"pass_directions": ["left", "right"]}


def test_train_takes_a_list_option(tmp_path) -> None:
    pytest.importorskip("torch")
    from training.ppo import train

    args = replace(TINY, run_dir=str(tmp_path), options={"pass_directions": ["left", "right"]})
    assert train(args)["iterations"] == 1
    argv = config.to_argv(args)
    assert '--option pass_directions=["left", "right"]' in argv


def test_training_ppo_still_exports_the_settings() -> None:
    ppo = pytest.importorskip("training.ppo")
    assert ppo.Args is Args and ppo.add_arguments is config.add_arguments and ppo.to_argv is config.to_argv


# ---------------------------------------------------------------------- the Python API
def test_validate_normalises_lists() -> None:
    args = replace(TINY, hidden=[16, 16], opponents=["strategy"]).validate()
    assert args.hidden == (16, 16) and args.opponents == ("strategy",)


# ---------------------------------------------------------------------- lists
@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "--agents", "strategy,,random"],
        ["tournament", "--agents", "strategy,random,"],
        ["play", "--opponents", ",strategy"],
        ["train", "--opponents", "strategy,,ducker"],
        ["train", "--eval-opponents", "random, ,strategy"],
        ["train", "--hidden", "64,,64"],
    ],
)
def test_an_empty_item_in_a_list_is_refused(capsys, argv: list[str]) -> None:
    flag, text = argv[1], argv[2]
    err = one_line_error(capsys, argv)
    assert f"argument {flag}: an empty " in err and repr(text) in err


def test_an_empty_opponent_list_is_refused(capsys) -> None:
    """``--opponents ''`` is refused (it used to run with the family's defaults): leaving the
    flag out is the way to the defaults."""
    parser = config.add_arguments(argparse.ArgumentParser(prog="t"))
    with pytest.raises(SystemExit):
        parser.parse_args(["--opponents", ""])
    assert "at least one agent spec" in capsys.readouterr().err
    assert parser.parse_args(["--opponents", "strategy, ducker"]).opponents == ("strategy", "ducker")


def test_more_streams_than_tables_are_refused_in_one_line(capsys) -> None:
    err = one_line_error(capsys, ["tournament", "--agents", "random", "--tables", "2", "--streams", "3"])
    assert "streams" in err


# ---------------------------------------------------------------------- family defaults
def test_training_defaults_are_the_game_family_s() -> None:
    hearts = config.resolve_family(Args(), "hearts")
    # The defaults from before there were families: Hearts numbers do not move.
    assert hearts.opponents == ("strategy", "ducker") and hearts.eval_opponents == ("strategy", "random")
    assert hearts.teacher == "strategy"
    smear, family = config.resolve_family(Args(), "smear"), agents.family_defaults("smear")
    assert smear.opponents == family.opponents and smear.teacher == "smear"
    kept = config.resolve_family(replace(Args(), opponents=("random",)), "smear")
    assert kept.opponents == ("random",) and kept.eval_opponents == family.eval_opponents
    assert config.to_argv(hearts, "hearts") == [] and config.to_argv(smear, "hearts") != []


def test_train_help_names_each_family_s_defaults(capsys) -> None:
    assert main(["train", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "the game family's: strategy,ducker for hearts; smear,lowest,random for smear" in text
    assert "--teacher" in text


@pytest.mark.parametrize(("preset", "family"), [("hearts", "hearts"), ("smear_five_point", "smear")])
def test_a_tournament_seats_the_family_by_default(tmp_path, capsys, preset: str, family: str) -> None:
    path = tmp_path / "t.json"
    argv = ["tournament", "--preset", preset, "--deals", "2", "--tables", "1", "--quiet", "--json", str(path)]
    assert main(argv) == 0
    capsys.readouterr()
    assert json.loads(path.read_text())["config"]["agents"] == list(agents.family_defaults(family).tournament)


def test_a_command_stops_on_sigterm_and_on_sigint_the_shell_ignored() -> None:
    import os
    import signal

    from evaluation.flags import stops_like_ctrl_c

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as in a script's background job
    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            with pytest.raises(KeyboardInterrupt), stops_like_ctrl_c():
                os.kill(os.getpid(), sig)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # restored afterwards
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_tournament_on_local_worker_processes_writes_the_same_record(tmp_path, capsys) -> None:
    base = ["tournament", "--agents", "strategy,ducker", "--deals", "8", "--tables", "4", "--streams", "2",
            "--seed", "4", "--quiet", "--csv", str(tmp_path / "x.csv")]  # fmt: skip
    assert main([*base, "--json", str(tmp_path / "here.json")]) == 0
    assert main([*base, "--json", str(tmp_path / "workers.json"), "--workers", "2"]) == 0
    capsys.readouterr()

    def played(name: str) -> dict:
        record = json.loads((tmp_path / name).read_text())
        kept = {k: record[k] for k in ("agents", "pairs", "deals")}
        return {**kept, "per_deal": record["progress"]["per_deal"]}  # the timings differ

    assert played("here.json") == played("workers.json")
    both = [*base, "--json", str(tmp_path / "r.json"), "--workers", "2", "--ray", "local"]
    message = one_line_error(capsys, both)
    assert "--workers plays on local processes and --ray on Ray actors: give one of them" in message
