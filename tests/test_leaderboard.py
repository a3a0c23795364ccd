"""The leaderboard (:mod:`evaluation.leaderboard`, ``hearts-env leaderboard``): cells, resuming,
rendering, and the committed page and README rows rendered from the committed JSON."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from evaluation import leaderboard
from hearts_cli import main
from hearts_env.games import family
from hearts_env.presets import make_rules

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "docs" / "leaderboard.json"


def test_a_small_leaderboard_plays_resumes_and_renders(tmp_path):
    specs = ["random", "strategy", "smear", "ducker"]
    board = leaderboard.run(
        specs, ["hearts", "smear_widow"], deals=6, tables=6, directory=tmp_path, progress=False
    )
    cells = {(c["agent"], c["preset"]): c for c in board["cells"]}
    assert cells[("strategy", "hearts")]["reason"] == "reference"
    assert cells[("smear", "smear_widow")]["reason"] == "reference"
    assert "Smear-family presets only" in cells[("smear", "hearts")]["reason"]
    assert "ducker" in cells[("ducker", "smear_widow")]["reason"]
    random_hearts = cells[("random", "hearts")]
    assert random_hearts["deals"] == 6 and random_hearts["reference"] == "strategy"
    assert random_hearts["verdict"] in ("better", "worse", "no difference")
    # Random play takes more points than strategy: a positive difference (fewer points are better).
    assert random_hearts["diff"] > 0
    assert cells[("random", "smear_widow")]["diff"] < 0  # and makes fewer in Smear
    again = leaderboard.run(
        specs, ["hearts", "smear_widow"], deals=6, tables=6, directory=tmp_path, progress=False
    )
    assert [c.get("diff") for c in again["cells"]] == [c.get("diff") for c in board["cells"]]  # read back
    page = leaderboard.markdown(board, {"numbers": "x.json"})
    assert f"| hearts | 4 | {random_hearts['diff']:+.2f} ± {random_hearts['ci95']:.2f} |" in page
    assert "| random | 2 |" in leaderboard.headline(board)
    pytest.importorskip("matplotlib")
    leaderboard.write_outputs(board, tmp_path / "b.json", tmp_path / "b.md", tmp_path / "b.png")
    assert (tmp_path / "b.png").stat().st_size > 1000
    assert json.loads((tmp_path / "b.json").read_text())["cells"] == board["cells"]


def test_the_heatmap_of_every_player_count_is_one_panel_an_agent_presets_by_counts():
    """An all-counts board draws presets × player counts for each agent (not one long strip of
    86 columns); a configuration that does not exist stays blank."""
    board = json.loads((ROOT / "results" / "universal" / "all_counts.json").read_text())
    assert board["all_counts"]
    panels = leaderboard._panels(board)
    assert [title for title, *_ in panels] == board["agents"]
    title, presets, counts, cells = panels[0]
    assert counts == [str(n) for n in range(3, 12)] and presets[0] == "hearts"
    assert len(presets) == len({c["preset"] for c in board["configs"]})
    cell = next(c for c in board["cells"] if c["preset"] == "cancellation_hearts" and c["num_players"] == 11)
    value, text, _ = cells[presets.index("cancellation_hearts")][counts.index("11")]
    rules = make_rules("cancellation_hearts", num_players=11)  # two decks: 52 points at stake
    stake = 1 / family(rules).scale_points(rules)
    assert text == f"{cell['diff']:+.1f}\n±{cell['ci95']:.1f}"
    assert value == pytest.approx(-cell["diff"] * stake)
    assert cells[presets.index("hearts")][counts.index("11")][1] == ""  # no Hearts for 11
    single = json.loads(COMMITTED.read_text())
    (only,) = leaderboard._panels(single)
    assert only[1] == single["agents"] and len(only[2]) == len(single["configs"])


def test_bad_input_is_refused_in_one_line(capsys, tmp_path):
    assert (
        main(["leaderboard", "--presets", "nope", "--dir", str(tmp_path), "--json", str(tmp_path / "l.json")])
        == 2
    )
    assert "unknown preset 'nope'" in capsys.readouterr().err
    assert main(["leaderboard", "--agents", "no_such_agent", "--dir", str(tmp_path)]) == 2


@pytest.mark.skipif(not COMMITTED.exists(), reason="no committed leaderboard")
def test_the_committed_page_and_the_readme_rows_are_rendered_from_the_json():
    board = json.loads(COMMITTED.read_text())
    page = ROOT / "docs" / "leaderboard.md"
    links = {"numbers": "leaderboard.json", "heatmap": os.path.join("_static", "leaderboard.png")}
    assert page.read_text() == leaderboard.markdown(board, links), (
        "run the command in docs/leaderboard.md again"
    )
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- leaderboard -->\n(.*?)\n<!-- /leaderboard -->", readme, re.S)
    assert block, "the README has no <!-- leaderboard --> block"
    assert block.group(1) == leaderboard.headline(board)
    assert (ROOT / "docs" / "_static" / "leaderboard.png").exists()
    for cell in board["cells"]:
        assert "diff" in cell or cell.get("reason"), cell


def test_cells_of_the_leaderboard_json_are_kept_and_only_a_new_row_plays(tmp_path):
    first = leaderboard.run(
        ["random"], ["hearts"], deals=4, tables=4, directory=tmp_path / "a", progress=False
    )
    first["run"]["commit"] = "0123456789abcdef"  # as if played at another commit
    for cell in first["cells"]:
        cell.pop("commit", None)  # the earliest leaderboards recorded the commit for the run only
    fresh = tmp_path / "b"
    board = leaderboard.run(
        ["random", "lowest"], ["hearts"], deals=4, tables=4, directory=fresh, progress=False, previous=first
    )
    played = sorted(p.name for p in fresh.iterdir())
    assert played == ["lowest__hearts-4p.json"]  # random's cell came from the earlier JSON
    kept = next(c for c in board["cells"] if c["agent"] == "random")
    assert kept["diff"] == first["cells"][0]["diff"] and kept["commit"] == "0123456789abcdef"
    assert "0123456789ab" in leaderboard.markdown(board)
    # Other settings: nothing is taken over.
    other = leaderboard.run(
        ["random"], ["hearts"], deals=4, tables=4, seed=1, directory=tmp_path / "c", progress=False,
        previous=first,
    )  # fmt: skip
    assert (tmp_path / "c" / "random__hearts-4p.json").exists() and other["cells"][0][
        "commit"
    ] != "0123456789abcdef"


def test_a_json_that_is_not_a_leaderboard_is_refused(tmp_path, capsys):
    path = tmp_path / "l.json"
    path.write_text('{"format": "something else"}')
    assert (
        main(
            [
                "leaderboard",
                "--presets",
                "hearts",
                "--agents",
                "random",
                "--dir",
                str(tmp_path),
                "--json",
                str(path),
            ]
        )
        == 2
    )
    assert "is not a leaderboard JSON" in capsys.readouterr().err


def test_a_setting_one_family_lacks_leaves_its_cells_empty_and_a_bad_one_is_an_error() -> None:
    """``pimc:rollout=fast`` rolls out with a Hearts-engine player: no Smear cell, the reason
    given; a parameter out of range is no cell but one error naming the agent."""
    _names, _configs, cells = leaderboard.plan(["pimc:rollout=fast:worlds=2"], ["hearts", "smear_widow"])
    by_preset = {cell.preset: cell for cell in cells}
    assert by_preset["hearts"].spec == "pimc:rollout=fast:worlds=2"
    assert by_preset["smear_widow"].spec is None
    assert "cannot play smear_widow: 'fast' is a Hearts-family player" in by_preset["smear_widow"].reason
    with pytest.raises(ValueError, match="worlds"):
        leaderboard.plan(["pimc:worlds=0"], ["hearts"])
