"""Command lines and the Python API read options alike and normalise lists. The bad flags,
settings and files (one-line errors, exit status 2) are rows of ``test_bad_inputs.py`` (section
"command line")."""

from __future__ import annotations

from dataclasses import replace

import pytest

import agents

torch = pytest.importorskip("torch")

from training import ppo  # noqa: E402
from training.ppo import Args, train  # noqa: E402

TINY = Args(
    num_games=8, rollout_steps=64, hidden=(8,), minibatch_size=128, update_epochs=1, eval_deals=4,
    eval_every=0, checkpoint_every=1, opponents=("ducker",), eval_opponents=("random",), progress=False,
    tensorboard=False, total_decisions=512, imitation_decisions=0,
)  # fmt: skip


# ---------------------------------------------------------------------- one option parser
def test_every_command_reads_options_alike() -> None:
    assert agents.parse_option("pass_directions=left,right") == ("pass_directions", ["left", "right"])
    assert agents.parse_option('card_points={"JD": -10}') == ("card_points", {"JD": -10})
    assert agents.parse_option("pass_count=3") == ("pass_count", 3)
    assert agents.parse_option("queen_needs_break=true") == ("queen_needs_break", True)
    assert agents.parse_option(" moon = new ") == ("moon", "new")
    parser = ppo.add_arguments(ppo.ArgumentParser(prog="t"))
    args = ppo.args_from(parser.parse_args(["--option", "pass_directions=left,right"]))
    assert args.options == {"pass_directions": ["left", "right"]}


def test_train_takes_a_list_option(tmp_path) -> None:
    args = replace(TINY, run_dir=str(tmp_path), options={"pass_directions": ["left", "right"]})
    assert train(args)["iterations"] == 1
    argv = ppo.to_argv(args)
    assert '--option pass_directions=["left", "right"]' in argv


# ---------------------------------------------------------------------- the Python API
def test_validate_normalises_lists() -> None:
    args = replace(TINY, hidden=[16, 16], opponents=["strategy"]).validate()
    assert args.hidden == (16, 16) and args.opponents == ("strategy",)
