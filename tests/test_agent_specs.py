"""Agent specs that name your own class (a file, a module, an entry point), labels, and the
example agent of docs/your-agent.md, through every command that takes agents."""

from __future__ import annotations

import importlib.metadata
import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import agents
import hearts_env
from agents import specs as agent_specs
from agents.specs import build_agent, labels, parse
from evaluation.duplicate import Tournament, TournamentConfig, format_report
from hearts_cli import main
from hearts_env.presets import make_rules

ROOT = Path(__file__).resolve().parent.parent

AGENT_FILE = '''
import numpy as np

from agents import Agent


class Mine(Agent):
    """The highest legal action."""

    def __init__(self, rules, *, depth: int = 1) -> None:
        super().__init__(rules)
        self.depth = depth

    def act(self, obs, rng):
        mask = np.asarray(obs["action_mask"])
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1] > 0, axis=1)


class Plain:
    """Not an Agent subclass: a class with ``act`` and the (rules, **params) constructor."""

    def __init__(self, rules) -> None:
        self.rules = rules

    def act(self, obs, rng):
        return np.argmax(np.asarray(obs["action_mask"]) > 0, axis=1)


class NotAnAgent:
    pass
'''


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agents.py"
    path.write_text(AGENT_FILE)
    return path


# ---------------------------------------------------------------------- the grammar
def test_a_spec_names_a_target_its_parameters_and_a_label() -> None:
    assert parse("strategy") == agent_specs.AgentSpec("strategy", "strategy", {}, None)
    spec = parse("ismcts:simulations=1000:uct_c=2.5:label=bot")
    assert (spec.target, spec.params, spec.label, spec.kind) == (
        "ismcts", {"simulations": 1000, "uct_c": 2.5}, "bot", "name"
    )  # fmt: skip
    spec = parse("path/to/my_agent.py:MyAgent:depth=3:label=mine")
    assert (spec.target, spec.params, spec.label, spec.kind) == (
        "path/to/my_agent.py:MyAgent",
        {"depth": 3},
        "mine",
        "file",
    )
    assert parse("my_package.agents:MyAgent").kind == "module"
    assert parse("my_package.agents:MyAgent").short_name == "MyAgent"
    assert agents.parse_spec("examples/my_agent.py:MyAgent:caution=3:label=x") == (
        "examples/my_agent.py:MyAgent", {"caution": 3}
    )  # fmt: skip


def test_a_file_spec_is_made_absolute_for_other_working_directories(agent_file: Path, monkeypatch) -> None:
    monkeypatch.chdir(agent_file.parent)
    assert agent_specs.absolute("my_agents.py:Mine:depth=2") == f"{agent_file}:Mine:depth=2"
    assert agent_specs.absolute("ismcts:simulations=10") == "ismcts:simulations=10"
    config = TournamentConfig(agents=["my_agents.py:Mine", "random"], deals=2, tables=1).validate()
    assert config.agents == [f"{agent_file}:Mine", "random"]  # what Ray workers and resumes are given


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuch", "unknown agent 'nosuch': choose one of random, lowest"),
        ("strategy:deep", "agent spec 'strategy:deep': 'deep' is not key=value"),
        ("ismcts:simulations=1:deep", "'deep' is not key=value"),
        ("no_such_module_here:MyAgent", "module 'no_such_module_here' is not importable"),
        ("agents.simple:NoSuchAgent", "no class 'NoSuchAgent' in .*simple.py; classes with act there: "),
        ("json:JSONDecoder", "JSONDecoder is not an agent class"),
        ("missing/my_agent.py:MyAgent", r"no such file missing/my_agent.py \(relative to "),
        ("my_agent.py", "name the class in the file, e.g. my_agent.py:MyAgent"),
        (
            "ismcts:depth=3",
            r"ismcts has no parameter\(s\) depth; its parameters: simulations, uct_c, rollouts",
        ),
        ("strategy:label=", "label= needs a name"),
        ("agents.simple:2x", "'2x' is not a class name"),
    ],
)
def test_each_bad_spec_is_one_line_naming_it(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_agent(spec, make_rules("hearts"))


def test_bad_specs_in_a_file(agent_file: Path) -> None:
    rules = make_rules("hearts")
    with pytest.raises(
        ValueError, match=r"no class 'Nope' in .*my_agents.py; classes with act there: Mine, Plain"
    ):
        build_agent(f"{agent_file}:Nope", rules)
    with pytest.raises(ValueError, match="NotAnAgent is not an agent class"):
        build_agent(f"{agent_file}:NotAnAgent", rules)
    with pytest.raises(ValueError, match=r"Mine has no parameter\(s\) width; its parameters: depth"):
        build_agent(f"{agent_file}:Mine:width=3", rules)
    broken = agent_file.with_name("broken.py")
    broken.write_text("raise RuntimeError('half-written')\n")
    with pytest.raises(ValueError, match="running .*broken.py failed: RuntimeError"):
        build_agent(f"{broken}:Mine", rules)


def test_a_file_class_is_built_with_its_parameters(agent_file: Path) -> None:
    rules = make_rules("hearts")
    agent = build_agent(f"{agent_file}:Mine:depth=4:label=deep", rules)
    assert type(agent).__name__ == "Mine" and agent.depth == 4
    plain = agents.from_spec(f"{agent_file}:Plain", rules)  # no Agent subclass: act is enough
    assert agents.refusal(f"{agent_file}:Plain", rules) is None
    mask = np.zeros((2, 52), np.int8)
    mask[:, [3, 7]] = 1
    obs = {"observation": np.zeros((2, 1), np.float32), "action_mask": mask}
    assert plain.act(obs, np.random.default_rng(0)).tolist() == [3, 3]


# ---------------------------------------------------------------------- labels
def test_default_labels_are_short_and_told_apart() -> None:
    assert labels(["strategy", "ismcts:simulations=1000"]) == ["strategy", "ismcts:simulations=1000"]
    assert labels(["ppo:checkpoint=runs/hearts-4p/policy.pt", "strategy"]) == ["ppo", "strategy"]
    assert labels(["ppo:checkpoint=runs/a/policy.pt", "ppo", "ppo:checkpoint=runs/b/policy.pt"]) == [
        "ppo (a)", "ppo", "ppo (b)"
    ]  # fmt: skip
    assert labels(["x/a.py:MyAgent", "y/a.py:MyAgent", "x/a.py:MyAgent"]) == [
        "MyAgent",
        "MyAgent#2",
        "MyAgent",
    ]
    assert labels(["strategy:label=mine", "random"]) == ["mine", "random"]
    with pytest.raises(
        ValueError, match="'strategy' and 'random:label=strategy' are both labelled 'strategy'"
    ):
        labels(["strategy", "random:label=strategy"])


def test_a_tournament_names_agents_by_label_and_records_the_whole_spec(agent_file: Path) -> None:
    specs = [f"{agent_file}:Mine:label=high", f"{agent_file}:Plain", "random"]
    report = Tournament(TournamentConfig(agents=specs, deals=4, tables=2), progress=False).run()
    assert [row["name"] for row in report["agents"]] == ["high", "Plain", "random"]
    assert [row["spec"] for row in report["agents"]] == specs
    assert report["config"]["agents"] == specs
    assert {(p["a"], p["b"]) for p in report["pairs"]} == {
        ("high", "Plain"),
        ("high", "random"),
        ("Plain", "random"),
    }
    with pytest.raises(ValueError, match="both labelled 'x'"):
        TournamentConfig(agents=["strategy:label=x", "random:label=x"], deals=2).validate()


# ---------------------------------------------------------------------- every command
def test_the_tournament_command_plays_your_own_file(
    agent_file: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out" / "t.json"
    argv = ["tournament", "--agents", "my_agents.py:Mine:depth=2,strategy", "--deals", "4", "--tables", "2",
            "--quiet", "--json", str(out), "--csv", str(tmp_path / "t.csv")]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert re.search(r"^Mine\s", text, re.M) and "Mine - strategy" in text
    saved = json.loads(out.read_text())
    assert saved["config"]["agents"] == [f"{agent_file}:Mine:depth=2", "strategy"]
    assert [row["name"] for row in saved["agents"]] == ["Mine", "strategy"]
    assert (tmp_path / "t.csv").read_text().splitlines()[1].endswith(f",{agent_file}:Mine:depth=2")
    assert main(argv) == 0  # resumes the finished record from the same command
    assert capsys.readouterr().out.startswith("already complete: 4 deals; nothing to play")


def test_the_tournament_command_refuses_a_bad_spec_in_one_line(capsys) -> None:
    assert main(["tournament", "--agents", "nowhere/my_agent.py:MyAgent,strategy", "--deals", "2"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no such file nowhere/my_agent.py" in err


def test_play_seats_your_own_agent(agent_file: Path, monkeypatch, capsys) -> None:
    # three cards passed (a card keeps its number while passing), then always card 1
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n2\n3\n" + "1\n" * 60))
    argv = ["play", "--opponents", f"{agent_file}:Mine", "--seed", "3", "--deals", "1", "--no-color"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "P1 Mine" in text and "Deal 1 is over" in text


def test_play_refuses_a_bad_spec_in_one_line(capsys) -> None:
    assert main(["play", "--opponents", "agents.simple:Nope"]) == 2
    assert "no class 'Nope'" in capsys.readouterr().err


def test_training_takes_your_agent_as_opponent(agent_file: Path, monkeypatch, capsys) -> None:
    from training.config import Args

    monkeypatch.chdir(agent_file.parent)
    args = Args(
        opponents=("my_agents.py:Mine",), eval_opponents=("strategy", "my_agents.py:Plain")
    ).validate()
    assert args.opponents == (f"{agent_file}:Mine",)  # absolute: Ray rollout workers find it
    assert args.eval_opponents == ("strategy", f"{agent_file}:Plain")
    with pytest.raises(ValueError, match="no class 'Gone'"):
        Args(opponents=("my_agents.py:Gone",)).validate()
    assert main(["train", "--opponents", "my_agents.py:Mine:width=2"]) == 2  # refused before torch is needed
    assert "Mine has no parameter(s) width" in capsys.readouterr().err


# ---------------------------------------------------------------------- entry points
def test_an_installed_package_registers_agents_by_entry_point(agent_file: Path, monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(agent_file.parent))
    points = [importlib.metadata.EntryPoint("mine", "my_agents:Mine", agent_specs.GROUP)]
    real = importlib.metadata.entry_points

    def entry_points(**selection):
        if selection.get("group") == agent_specs.GROUP:
            return points
        return real(**selection)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert agents.names()[-1] == "mine" and "mine" in agent_specs.names()
    assert type(build_agent("mine:depth=2", make_rules("hearts"))).__name__ == "Mine"
    assert labels(["mine:depth=2"]) == ["mine:depth=2"]
    env = hearts_env.single_agent_env("hearts", "mine")  # the engine finds it by name, through the group
    assert {type(agent).__name__ for agent in env.opponents.values()} == {"Mine"}
    report = Tournament(TournamentConfig(agents=["mine", "random"], deals=2, tables=1), progress=False).run()
    assert [row["name"] for row in report["agents"]] == ["mine", "random"]


def test_pyproject_declares_the_built_in_agents_as_entry_points() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["entry-points"][agent_specs.GROUP]
    assert declared == agent_specs.BUILTIN_AGENTS == agents.REGISTRY


# ---------------------------------------------------------------------- the guide's example
def test_the_guide_shows_the_example_file_as_it_is() -> None:
    guide = (ROOT / "docs" / "your-agent.md").read_text()
    example = (ROOT / "examples" / "my_agent.py").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, re.S)
    assert example in blocks, "docs/your-agent.md must show examples/my_agent.py whole, as it is"


def test_the_example_agent_plays_and_beats_random() -> None:
    spec = str(ROOT / "examples" / "my_agent.py") + ":MyAgent"
    config = TournamentConfig(agents=[spec, "random"], deals=60, tables=20, seed=4)
    report = Tournament(config, progress=False).run()
    rows = {row["name"]: row for row in report["agents"]}
    assert rows["MyAgent"]["illegal"] == 0
    assert rows["MyAgent"]["mean_points"] < rows["random"]["mean_points"]
    with pytest.raises(ValueError, match="agent 'MyAgent' cannot play smear_partnership"):
        build_agent(spec, make_rules("smear_partnership"))


def test_the_text_table_explains_its_columns_and_a_table_without_finished_games() -> None:
    report = Tournament(
        TournamentConfig(agents=["lowest", "random"], deals=4, tables=2), progress=False
    ).run()
    text = format_report(report)
    assert "win rate -" not in text and "no game has finished: each table has played 2 deals" in text
    assert "reaches 100 points" in text
    for column in ("seat-games", "moons allowed", "illegal", "pair (a - b)"):
        assert re.search(rf"^  {re.escape(column)}\s+\S", text, re.M), column
