"""The weights behind an agent spec (:func:`agents.weights_digest`): a tournament record and a
leaderboard cell keep their digest, so a network retrained or replaced under the same spec is
played afresh, not taken for the one that was played."""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path

import pytest

import agents
from agents.shipped import shipped_path, universal_path
from evaluation import leaderboard
from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env.presets import make_rules

AGENT = '''
from pathlib import Path

from agents.simple import LowestAgent


class Weighted(LowestAgent):
    """Plays the lowest card; reads (in name only) the file ``weights``."""

    def __init__(self, rules, *, weights: str = "") -> None:
        super().__init__(rules)

    @classmethod
    def weight_files(cls, rules, *, weights: str = "", **params):
        return (Path(weights),)
'''


@pytest.fixture
def weighted(tmp_path):
    """(spec, weights file) of an agent that names a file it reads."""
    (tmp_path / "weighted.py").write_text(AGENT)
    weights = tmp_path / "net.bin"
    weights.write_bytes(b"first network")
    return f"{tmp_path / 'weighted.py'}:Weighted:weights={weights}:label=net", weights


def test_the_digest_names_the_files_an_agent_plays():
    rules = make_rules("hearts", num_players=4)
    assert agents.weights_digest("strategy", rules) is None  # a heuristic reads no file
    specialist = hashlib.sha256(shipped_path("hearts", 4).read_bytes()).hexdigest()[:16]
    assert agents.weights_digest("ppo", rules) == specialist
    assert agents.weights_digest("pimc", rules) == specialist  # its rollout and fallback play it
    assert agents.weights_digest("pimc:rollout=fast:fallback=strategy", rules) is None
    universal = hashlib.sha256(universal_path("hearts").read_bytes()).hexdigest()[:16]
    assert agents.weights_digest("ppo:network=universal", rules) == universal != specialist
    omnibus = make_rules("omnibus", num_players=4)  # no specialist: ppo plays the universal network
    assert agents.weight_files("ppo", omnibus) == (universal_path("hearts"),)


def test_a_record_played_with_other_weights_is_refused(tmp_path, weighted):
    spec, weights = weighted
    config = TournamentConfig(preset="hearts", agents=[spec, "strategy"], deals=4, tables=4, seed=0)
    path = tmp_path / "t.json"
    Tournament(config, json_path=path, progress=False).run()
    saved = json.loads(path.read_text())
    assert list(saved["weights"].values()) == [hashlib.sha256(b"first network").hexdigest()[:16]]
    Tournament(config, json_path=path, progress=False)  # the same weights: it reads back
    weights.write_bytes(b"second network")
    with pytest.raises(ValueError, match="other weights behind"):
        Tournament(config, json_path=path, progress=False)
    del saved["weights"]  # a record from before the digests: it resumes, with a warning
    path.write_text(json.dumps(saved))
    with pytest.warns(UserWarning, match="cannot be checked"):
        Tournament(config, json_path=path, progress=False)


def test_a_heuristic_record_keeps_no_weights(tmp_path):
    config = TournamentConfig(preset="hearts", agents=["lowest", "strategy"], deals=4, tables=4, seed=0)
    path = tmp_path / "t.json"
    Tournament(config, json_path=path, progress=False).run()
    assert "weights" not in json.loads(path.read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Tournament(config, json_path=path, progress=False)


def test_a_leaderboard_cell_of_a_retrained_network_is_played_again(tmp_path, weighted):
    spec, weights = weighted
    first = leaderboard.run([spec], ["hearts"], deals=4, tables=4, directory=tmp_path / "a", progress=False)
    cell = first["cells"][0]
    assert cell["weights"] == hashlib.sha256(b"first network").hexdigest()[:16]
    assert Path(cell["record"]).name == f"net__hearts-4p__{cell['weights'][:8]}.json"
    again = leaderboard.run(
        [spec], ["hearts"], deals=4, tables=4, directory=tmp_path / "b", progress=False, previous=first
    )
    assert not any((tmp_path / "b").iterdir())  # nothing played: the cell is taken as it stands
    assert again["cells"][0] == cell
    weights.write_bytes(b"second network")
    retrained = leaderboard.run(
        [spec], ["hearts"], deals=4, tables=4, directory=tmp_path / "a", progress=False, previous=first
    )
    new = retrained["cells"][0]
    assert new["weights"] == hashlib.sha256(b"second network").hexdigest()[:16]
    assert Path(new["record"]).exists() and new["record"] != cell["record"]  # its own record, played
