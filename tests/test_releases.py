"""Released agents (agents.releases): today's ppo and pimc stay playable under a dated name."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import agents
from agents import releases, shipped
from agents.specs import labels, parse
from hearts_env import Table
from hearts_env.presets import make_rules

torch = pytest.importorskip("torch")


def _observations(preset: str, games: int = 8, seed: int = 5) -> dict[str, np.ndarray]:
    table = Table(make_rules(preset), games)
    table.reset(seed=seed)
    return {"observation": table.observe(), "action_mask": table.action_mask()}


def test_every_release_finds_each_of_its_networks_by_its_digest() -> None:
    # A release whose files were overwritten without a copy in checkpoints/<release>/ fails here.
    for release in releases.RELEASES.values():
        for stem in release.files:
            path = shipped.release_path(stem, release)
            assert path.is_file(), (release.name, stem)


@pytest.mark.parametrize(("released", "today", "preset"), [
    ("ppo@2026-12", "ppo", "hearts"),
    ("ppo@2026-12", "ppo", "omnibus"),  # the universal network
    ("pimc@2026-12", "pimc", "black_maria"),
])  # fmt: skip
def test_a_released_agent_plays_as_today_s_while_the_defaults_are_its(released, today, preset) -> None:
    rules = make_rules(preset)
    obs = _observations(preset, games=4)
    old, new = agents.from_spec(released, rules), agents.from_spec(today, rules)
    a = old.act(obs, np.random.default_rng(1))
    b = new.act(obs, np.random.default_rng(1))
    np.testing.assert_array_equal(a, b)
    assert agents.weights_digest(released, rules) == agents.weights_digest(today, rules) is not None


def test_a_release_reads_its_parameters_and_a_written_one_replaces_them() -> None:
    spec = parse("pimc@2026-12")
    assert spec.target == "pimc" and spec.params["release"] == "2026-12" and spec.params["worlds"] == 16
    assert parse("pimc@2026-12:worlds=4").params["worlds"] == 4
    agent = agents.make("pimc@2026-12", "black_maria", 3, worlds=2)
    assert agent.worlds == 2 and agent.release == "2026-12"
    assert agent.rollout == "ppo;network=specialist;release=2026-12"
    assert labels(["pimc@2026-12", "pimc", "ppo@2026-12"]) == ["pimc@2026-12", "pimc", "ppo@2026-12"]


@pytest.mark.parametrize(("spec", "message"), [
    ("pimc@2027-01", "pimc has no release '2027-01' (its releases: 2026-12)"),
    ("strategy@2026-12", "strategy has no release '2026-12' (released agents: ppo@2026-12, pimc@2026-12)"),
    ("ppo@2026-12:release=2026-12", "the release is given twice"),
    ("ppo:release=1999-01", "release must be one of 2026-12, got '1999-01'"),
])  # fmt: skip
def test_an_unknown_release_is_refused_in_one_line(spec, message) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        agents.from_spec(spec, make_rules("hearts"))


def test_a_release_never_plays_other_weights_and_finds_its_own_copy(tmp_path, monkeypatch) -> None:
    release, original = releases.RELEASES["2026-12"], shipped.SHIPPED_DIR
    for stem in release.files:
        shutil.copy(original / f"{stem}.pt", tmp_path / f"{stem}.pt")
    monkeypatch.setattr(shipped, "SHIPPED_DIR", tmp_path)
    rules = make_rules("hearts")
    assert agents.from_spec("ppo@2026-12", rules).checkpoint == str(tmp_path / "hearts-4p.pt")
    # A newer network ships under the same name: the release refuses it ...
    (tmp_path / "hearts-4p.pt").write_bytes((tmp_path / "black_maria-3p.pt").read_bytes())
    with pytest.raises(ValueError, match=r"release 2026-12: network hearts-4p must have sha256 f3bc1e5f"):
        agents.from_spec("ppo@2026-12", rules)
    # ... and plays its own copy once it is kept in checkpoints/2026-12/.
    (tmp_path / "2026-12").mkdir()
    shutil.copy(original / "hearts-4p.pt", tmp_path / "2026-12" / "hearts-4p.pt")
    assert agents.from_spec("ppo@2026-12", rules).checkpoint == str(tmp_path / "2026-12" / "hearts-4p.pt")
