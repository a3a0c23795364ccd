"""Duplicate tournaments: seating, statistics, files, resuming, and the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evaluation.duplicate import (
    Tournament,
    TournamentConfig,
    format_report,
    rotation_offsets,
    rotations,
    seating,
    team_positions,
    write_csv,
)
from hearts_cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_seating_fills_the_table_and_rotations_skip_repeats() -> None:
    assert seating(["a", "b"], 4) == ["a", "b", "a", "b"]
    assert rotations(["a", "b", "a", "b"]) == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert len(rotations(["a", "b", "c", "d"])) == 4
    with pytest.raises(ValueError, match="do not fit"):
        seating(["a", "b", "c", "d"], 3)


def test_every_agent_holds_every_hand() -> None:
    t = Tournament(TournamentConfig(agents=["strategy", "ducker", "ducker", "random"], deals=2, tables=2))
    for seat in range(4):
        held = {t.names[a] for a in t.agent_of[:, seat]}
        assert held == {"strategy", "ducker", "random"}


def test_report_holds_the_documented_fields() -> None:
    config = TournamentConfig(agents=["strategy", "ducker", "lowest", "random"], deals=40, tables=20, seed=1)
    report = Tournament(config, progress=False).run()
    assert report["preset"] == "hearts" and report["deals"] == 40
    names = [row["name"] for row in report["agents"]]
    assert names == ["strategy", "ducker", "lowest", "random"]
    for row in report["agents"]:
        assert row["illegal"] == 0 and row["ci95"] > 0 and row["seat_deals"] == 40 * 4
    assert len(report["pairs"]) == 6
    # Every deal's points are shared out: the four agents' means add up to the mean points per deal.
    assert sum(row["mean_points"] for row in report["agents"]) >= 26 - 1e-6
    assert "strategy" in format_report(report)


def test_games_are_counted_and_won() -> None:
    config = TournamentConfig(agents=["strategy", "random"], deals=60, tables=2, seed=2)
    report = Tournament(config, progress=False).run()
    games = {row["name"]: row["games"] for row in report["agents"]}
    assert games["strategy"] == games["random"] > 0
    # Two seats each: the per-seat win rates of a game add up to one half per agent pair.
    assert sum(row["win_rate"] for row in report["agents"]) == pytest.approx(0.5)


def test_a_tournament_resumes_to_the_same_result(tmp_path) -> None:
    config = TournamentConfig(
        agents=["strategy", "random"], preset="black_maria", deals=30, tables=10, seed=3
    )
    whole = Tournament(config, progress=False).run()
    path = tmp_path / "t.json"
    first = Tournament(config, json_path=path, progress=False).run(max_rounds=1)
    assert first["deals"] == 10
    resumed = Tournament(config, json_path=path, progress=False).run()
    assert resumed["agents"] == whole["agents"] and resumed["deals"] == 30
    other = TournamentConfig(agents=["strategy", "random"], preset="black_maria", deals=30, tables=10, seed=4)
    with pytest.raises(ValueError, match="different tournament"):
        Tournament(other, json_path=path)


def test_resuming_with_the_preset_defaults_spelled_out_is_the_same_tournament(tmp_path) -> None:
    path = tmp_path / "t.json"
    plain = TournamentConfig(agents=["lowest", "random"], deals=20, tables=10, seed=5)
    Tournament(plain, json_path=path, progress=False).run(max_rounds=1)
    spelled = TournamentConfig(
        agents=["lowest", "random"], deals=20, tables=10, seed=5, num_players=4, options={"moon": "old"}
    )
    resumed = Tournament(spelled, json_path=path, progress=False)
    assert resumed.record["rounds_done"] == 1  # resumed, not refused
    assert resumed.run()["deals"] == 20
    changed = TournamentConfig(
        agents=["lowest", "random"], deals=20, tables=10, seed=5, num_players=4, options={"moon": "new"}
    )
    with pytest.raises(ValueError, match="different tournament"):
        Tournament(changed, json_path=path)


def test_a_record_keeps_each_run_s_command_commit_and_date(tmp_path) -> None:
    path = tmp_path / "t.json"
    config = TournamentConfig(agents=["lowest", "random"], deals=20, tables=10, seed=6)
    Tournament(config, json_path=path, progress=False, command="first").run(max_rounds=1)
    tournament = Tournament(config, json_path=path, progress=False, command="second")
    assert not tournament.complete
    tournament.run()
    runs = json.loads(path.read_text())["runs"]
    assert [run["command"] for run in runs] == ["first", "second"]
    for run in runs:
        assert run["date"].startswith("20") and run["dirty"] in (True, False, None)
        assert run["commit"] is None or len(run["commit"]) == 40
    again = Tournament(config, json_path=path, progress=False, command="third")
    assert again.complete
    again.run()  # plays nothing, so it records no run
    assert len(json.loads(path.read_text())["runs"]) == 2


def test_more_streams_than_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="streams=5 is more than the 4 tables"):
        TournamentConfig(agents=["random"], deals=4, tables=4, streams=5).validate()


def test_cli_writes_json_csv_and_png(tmp_path, capsys) -> None:
    pytest.importorskip("torch")  # the command line builds its train subcommand, which imports torch
    out = tmp_path / "ladder.json"
    code = main(["tournament", "--agents", "strategy,lowest", "--deals", "20", "--tables", "10",
                 "--option", "hearts_break=heart_or_queen", "--json", str(out), "--quiet"])  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text())
    assert {"preset", "deals", "agents"} <= set(report)
    assert {"name", "mean_points", "ci95"} <= set(report["agents"][0])
    assert report["rules"]["hearts_break"] == "heart_or_queen"
    assert (tmp_path / "ladder.csv").exists() and (tmp_path / "ladder_pairs.csv").exists()
    assert (tmp_path / "ladder.png").stat().st_size > 0
    assert "strategy - lowest" in capsys.readouterr().out


# ---------------------------------------------------------------------- the family
@pytest.mark.parametrize(
    "options",
    [{"preset": "chasse_coeur"}, {"preset": "auction_hearts", "num_players": 5},
     {"preset": "hearts", "options": {"moon": "shooter_choice"}}, {"preset": "domino_hearts"}],
    ids=["chasse_coeur", "auction_hearts", "shooter_choice", "domino_hearts"],
)  # fmt: skip
def test_deals_of_different_lengths_complete(options) -> None:
    # random declares and bids at random, strategy seldom; Domino's draws depend on the play:
    # the replays of a deal end on different steps, and every game of a round is played out.
    config = TournamentConfig(agents=["strategy", "random"], deals=12, tables=6, seed=1, **options)
    tournament = Tournament(config, progress=False)
    report = tournament.run()
    assert report["deals"] == 12 and all(row["illegal"] == 0 for row in report["agents"])
    assert "teams" not in report and "strategy - random" in format_report(report)
    if tournament.table.engine.stock_size:  # the stock is part of the deal: the same in every seating
        stock = tournament.table.state.stock.reshape(config.tables, len(tournament.rotations), -1)
        assert (stock == stock[:, :1]).all()


def test_partners_stay_opposite_and_teams_are_reported(tmp_path) -> None:
    # Two copies of each agent: the strategy pair sits at positions 0 and 2 in the seating.
    assert rotation_offsets(["a", "b", "a", "b"]) == [0, 1]
    team_at = team_positions(((0, 2), (1, 3)), [0, 1, 2, 3], 4)
    assert team_at.tolist() == [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]]
    with pytest.raises(ValueError, match="splits the partnership"):
        team_positions(((0, 1), (2, 3)), [0, 1], 4)
    config = TournamentConfig(
        preset="partnership_hearts", agents=["strategy", "random"], deals=40, tables=4, seed=2
    )
    path = tmp_path / "teams.json"
    report = Tournament(config, json_path=path, progress=False).run(max_rounds=3)
    report = Tournament(config, json_path=path, progress=False).run()  # resumed to the end
    whole = Tournament(config, progress=False).run()
    assert report["teams"] == whole["teams"] and report["agents"] == whole["agents"]
    teams = {row["name"]: row for row in report["teams"]}
    assert teams.keys() == {"strategy+strategy", "random+random"}
    assert teams["strategy+strategy"]["positions"] == [0, 2] and teams["random+random"]["positions"] == [1, 3]
    # A team's points are its two players' deal points together.
    agents_ = {row["name"]: row["mean_points"] for row in report["agents"]}
    assert teams["strategy+strategy"]["mean_points"] == pytest.approx(2 * agents_["strategy"], abs=1e-3)
    assert teams["strategy+strategy"]["games"] == teams["random+random"]["games"] > 0
    assert teams["strategy+strategy"]["win_rate"] + teams["random+random"]["win_rate"] == pytest.approx(1)
    (pair,) = report["team_pairs"]
    assert pair["mean_diff"] == pytest.approx(
        teams["strategy+strategy"]["mean_points"] - teams["random+random"]["mean_points"], abs=1e-3
    )
    text = format_report(report)
    assert "strategy+strategy (0, 2)" in text and "strategy+strategy - random+random" in text
    write_csv(report, tmp_path / "teams.csv")
    assert "strategy+strategy,0+2" in (tmp_path / "teams_teams.csv").read_text()
    # A report without teams (every older result file) still formats.
    old = {key: value for key, value in report.items() if key not in ("teams", "team_pairs")}
    assert "strategy+strategy" not in format_report(old)


def test_partnership_c_reports_the_slam_pairs() -> None:
    config = TournamentConfig(
        preset="partnership_hearts",
        options={"version": "C"},
        agents=["strategy", "random"],
        deals=20,
        tables=10,
    )
    report = Tournament(config, progress=False).run()
    slam = {row["name"]: row for row in report["slam"]}
    assert slam["strategy"]["bids"] == 0 < slam["random"]["bids"]  # random bids half the time
    assert slam["random"]["paired"] > 0 and "slam bids" in format_report(report)


# ---------------------------------------------------------------------- resume files
# (the damaged and inconsistent records and the bad configs are rows of test_bad_inputs.py; the
# ``record`` and ``resumable`` fixtures live in conftest.py)
def test_a_record_read_back_resumes(record, resumable) -> None:
    report = Tournament(resumable, json_path=record, progress=False).run()
    assert report["deals"] == 6 and report == Tournament(resumable, progress=False).run() | {
        "elapsed_s": report["elapsed_s"],
        "move_times": report["move_times"],
        "runs": report["runs"],
        "progress": report["progress"]
        | {"elapsed_s": report["progress"]["elapsed_s"], "move_time": report["progress"]["move_time"]},
    }
    assert isinstance(report["progress"]["table_state"]["totals"], list)  # plain lists, not arrays


def test_the_progress_bar_names_agents_shortly_and_says_which_way_is_better() -> None:
    from evaluation.duplicate import short_name

    assert short_name("ppo:checkpoint=runs/demo/policy.pt") == "ppo (demo)"
    assert short_name("ismcts:simulations=100") == "ismcts:simulations=100"
    config = TournamentConfig(preset="hearts", num_players=4, agents=["random", "lowest"], deals=4)
    text = Tournament(config, progress=False, labels={"random": "random (fresh)"})._bar_text()
    assert text == "hearts: random (fresh) v lowest (points, lower is better)"
    smear = TournamentConfig(preset="smear_partnership", num_players=4, agents=["random", "smear"], deals=4)
    assert Tournament(smear, progress=False)._bar_text().endswith("(points, higher is better)")


def test_the_text_table_fits_long_agent_names() -> None:
    lean = ROOT / "experiments" / "training-network-size" / "lean_network"
    report = json.loads((lean / "h128_vs_shipped.json").read_text())
    lines = format_report(report).splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("agent"))
    width = len(lines[header])
    rows = lines[header + 1 : header + 4]
    assert all(len(row) == width for row in rows)  # every row ends under the header's last column
    pair_header = next(i for i, line in enumerate(lines) if line.startswith("pair (a - b)"))
    assert len({len(line) for line in lines[pair_header : pair_header + 4]}) == 1


def test_the_cli_says_when_the_json_already_holds_the_whole_tournament(tmp_path, capsys) -> None:
    out = tmp_path / "t.json"
    argv = ["tournament", "--agents", "lowest,random", "--deals", "4", "--tables", "2", "--quiet",
            "--json", str(out)]  # fmt: skip
    assert main(argv) == 0
    first = capsys.readouterr()
    assert "already complete" not in first.out
    runs = json.loads(out.read_text())["runs"]
    assert len(runs) == 1 and runs[0]["command"] == "hearts-env " + " ".join(argv)
    assert main(argv) == 0
    second = capsys.readouterr()
    assert second.out.startswith("already complete: 4 deals; nothing to play")
    header = second.out.splitlines()[1]  # the table follows, without a time it did not just take
    assert header == "hearts (4 players): 4 duplicate deals x 2 seatings (lower points are better)"
    assert "delete it or choose another --json" in second.out and "lowest" in second.out
    assert len(json.loads(out.read_text())["runs"]) == 1  # nothing played, nothing recorded


def test_the_default_agents_are_the_game_family_s_and_agents_that_cannot_play_are_refused() -> None:
    smear = TournamentConfig(preset="smear_partnership", deals=2, tables=1)
    report = Tournament(smear, progress=False).run()
    assert [row["name"] for row in report["agents"]] == ["smear", "lowest", "random"]
    assert all(row["illegal"] == 0 for row in report["agents"])
    assert TournamentConfig(deals=2).validate().agents == ["strategy", "ducker", "lowest", "random"]
    wrong = TournamentConfig(preset="smear_partnership", agents=["strategy", "random"], deals=2, tables=1)
    with pytest.raises(ValueError, match="agent 'strategy' cannot play smear_partnership"):
        Tournament(wrong, progress=False)


def test_every_column_is_explained_in_help_and_docs(capsys) -> None:
    from evaluation.report import COLUMNS

    assert main(["tournament", "--help"]) == 0
    help_text = capsys.readouterr().out
    docs = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
    for column in COLUMNS:
        assert re.search(rf"^  {re.escape(column)}\s+\S", help_text, re.M), f"{column} not in --help"
        assert f"| `{column}` |" in docs, f"{column} not in docs/tournaments.md"
    report = json.loads((ROOT / "results" / "ladder_hearts.json").read_text())
    header = next(line for line in format_report(report).splitlines() if line.startswith("agent"))
    assert all(column in header for column in COLUMNS if column != "pair (a - b)")


def test_the_chart_shows_the_agents_and_the_pair_differences(tmp_path) -> None:
    image = pytest.importorskip("matplotlib.image")
    from evaluation.report import write_png

    report = json.loads((ROOT / "results" / "ladder_hearts.json").read_text())
    write_png(report, tmp_path / "both.png")
    write_png({**report, "pairs": []}, tmp_path / "agents.png")
    both, alone = image.imread(tmp_path / "both.png"), image.imread(tmp_path / "agents.png")
    assert both.shape[1] > 1.5 * alone.shape[1]  # a second panel: the pairs a - b
